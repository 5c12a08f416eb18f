"""Players, bots, versions, matches, games, replays, ratings, and idempotent answers."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models

from arena.variants import variant_choices

bot_name_validator = RegexValidator(
    r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$",
    "A bot name is 1 to 64 letters, digits, '_', '.' or '-', starting with a letter or digit.",
)


class Player(models.Model):
    """The public face of a user account: what rating lists and replays show."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player"
    )
    display_name = models.CharField(max_length=64)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.display_name


class Bot(models.Model):
    owner = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="bots")
    name = models.CharField(max_length=64, validators=[bot_name_validator])
    variant = models.CharField(max_length=16, choices=variant_choices)
    description = models.TextField(blank=True, max_length=2000)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "name"], name="bot_name_unique_per_owner"),
        ]

    def __str__(self) -> str:
        return f"{self.owner.user.username}/{self.name}"


class BotVersion(models.Model):
    """One uploaded revision of a bot. Its source never changes once stored."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending validation"
        ACTIVE = "active", "Active"
        REJECTED = "rejected", "Rejected"
        DISABLED = "disabled", "Disabled"

    class Kind(models.TextChoices):
        MODULE = "module", "Single Python module"
        ZIP = "zip", "Zip archive with bot.py"

    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices)
    source = models.BinaryField(editable=False)
    sha256 = models.CharField(max_length=64)
    size = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    status_reason = models.TextField(blank=True)
    build_log = models.TextField(blank=True)
    fault_count = models.PositiveIntegerField(default=0)
    games_played = models.PositiveIntegerField(default=0)
    publish_pending = models.BooleanField(
        default=False,
        help_text="stored while the broker was unreachable: the requeue job sends its validation",
    )
    last_sent = models.DateTimeField(
        null=True,
        blank=True,
        help_text="when its validation's message was last sent (the requeue job's clock)",
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["bot_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["bot", "number"], name="bot_version_number_unique"),
            models.CheckConstraint(
                condition=models.Q(number__gte=1), name="bot_version_number_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=["pending", "active", "rejected", "disabled"]),
                name="bot_version_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.bot} v{self.number}"


class Board(models.Model):
    """A stored deal: the cards follow from (variant, rules, seed, dealer) through the engine."""

    variant = models.CharField(max_length=16, choices=variant_choices)
    rules = models.JSONField()
    seed = models.PositiveBigIntegerField()
    dealer = models.PositiveSmallIntegerField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.variant} seed {self.seed} dealer {self.dealer}"


class Match(models.Model):
    """A duplicate match of two bot versions over a number of boards."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    class Kind(models.TextChoices):
        CHALLENGE = "challenge", "Challenge"
        MATCHMAKING = "matchmaking", "Matchmaking"
        VALIDATION = "validation", "Validation"
        LEAGUE = "league", "League fixture"

    variant = models.CharField(max_length=16, choices=variant_choices)
    rules = models.JSONField()
    seed = models.PositiveBigIntegerField(
        null=True,
        blank=True,
        help_text="the match seed: the requester's if chosen, else derived from the secret "
        "and stored once the match is done",
    )
    seed_chosen = models.BooleanField(
        default=False, help_text="the requester chose the seed (unrated matches only)"
    )
    seed_commitment = models.CharField(
        max_length=64, blank=True, help_text="sha256 of the secret, published at creation"
    )
    # Never shown before the match is done: it gives every deal (see arena/seeding.py).
    seed_secret = models.CharField(max_length=64, blank=True, editable=False)
    board_count = models.PositiveIntegerField()
    version_x = models.ForeignKey(BotVersion, on_delete=models.PROTECT, related_name="matches_as_x")
    version_y = models.ForeignKey(BotVersion, on_delete=models.PROTECT, related_name="matches_as_y")
    decision_ms = models.PositiveIntegerField()
    bank_ms = models.PositiveIntegerField()
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.CHALLENGE)
    rated = models.BooleanField(default=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    requested_by = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="matches_requested"
    )
    attempts = models.PositiveIntegerField(default=0)
    publish_pending = models.BooleanField(
        default=False, help_text="queued while the broker was unreachable: the requeue job sends it"
    )
    last_sent = models.DateTimeField(
        null=True, blank=True, help_text="when its message was last sent (the requeue job's clock)"
    )
    claim_token = models.CharField(max_length=32, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    completion_seq = models.PositiveBigIntegerField(null=True, blank=True, unique=True)
    score_x = models.IntegerField(null=True, blank=True)
    share_x = models.FloatField(null=True, blank=True)
    mean_x = models.FloatField(null=True, blank=True)
    ci95 = models.FloatField(null=True, blank=True)
    board_results = models.JSONField(default=list, blank=True)
    board_controls = models.JSONField(
        default=list,
        blank=True,
        help_text="each board's controls (bots.controls): the reference pairing on its deal",
    )
    cv_mean_x = models.FloatField(
        null=True, blank=True, help_text="the mean board result corrected by the controls"
    )
    cv_ci95 = models.FloatField(
        null=True, blank=True, help_text="the 95% half-width of the corrected mean"
    )
    control_seconds = models.FloatField(
        null=True, blank=True, help_text="worker time spent playing the reference pairing"
    )
    table_seconds = models.FloatField(
        null=True,
        blank=True,
        help_text="worker CPU seconds of the match's own tables: the referee and the bots",
    )
    controls_run = models.JSONField(
        default=dict,
        blank=True,
        help_text="per control (reference, luck): whether it ran, why or why not, its seconds",
    )
    faults = models.PositiveIntegerField(default=0)
    stderr = models.JSONField(
        default=dict, blank=True, help_text="table -> seat -> text; for each bot's owner only"
    )

    class Meta:
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["status", "lease_until"]),
            models.Index(fields=["variant", "status"]),
        ]
        constraints = [
            models.CheckConstraint(condition=models.Q(board_count__gte=1), name="match_has_boards"),
            models.CheckConstraint(
                condition=~models.Q(rated=True, seed_chosen=True),
                name="match_chosen_seed_is_unrated",
            ),
        ]

    def __str__(self) -> str:
        return f"match {self.pk}: {self.version_x} vs {self.version_y}"


class ReferenceStats(models.Model):
    """The reference pairing's running totals over every finished match's boards of one
    variant, rule set and dealer: the long-run means its controls are centred on. A match
    is centred on the totals of the matches finished before it, deals independent of its
    own, so the corrected mean stays unbiased (arena.variance)."""

    variant = models.CharField(max_length=16, choices=variant_choices)
    rules_key = models.CharField(max_length=64, help_text="sha256 of the canonical rules JSON")
    dealer = models.PositiveSmallIntegerField()
    boards = models.PositiveIntegerField(default=0)
    sums = models.JSONField(default=list, help_text="per control, the sum over the boards")
    squares = models.JSONField(default=list, help_text="per control, the sum of squares")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["variant", "rules_key", "dealer"], name="reference_stats_unique"
            )
        ]


class Game(models.Model):
    """One table's play of one board of a match."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    board = models.ForeignKey(Board, on_delete=models.PROTECT, related_name="games")
    number = models.PositiveIntegerField(help_text="the board's number in the match")
    table = models.CharField(max_length=1)
    seat_versions = models.JSONField(help_text="bot version id by seat")
    team_scores = models.JSONField()
    result = models.JSONField(null=True)
    fault = models.JSONField(null=True)

    class Meta:
        ordering = ["match_id", "number", "table"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number", "table"], name="game_unique_table"),
        ]


class Replay(models.Model):
    """The versioned JSON record of a game; re-simulating it reproduces every score."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="replay")
    document = models.JSONField()


PROVISIONAL_BOARDS = 100
"""A rating is marked provisional below this many rated boards (its interval is still wide)."""


class Rating(models.Model):
    """A bot version's rating in one variant: the board-level fit (arena.elo), shown
    with its pool's mean at INITIAL_ELO, and its 95% interval."""

    version = models.ForeignKey(BotVersion, on_delete=models.CASCADE, related_name="ratings")
    variant = models.CharField(max_length=16, choices=variant_choices)
    elo = models.FloatField()
    elo_low = models.FloatField(help_text="the 95% interval's lower end")
    elo_high = models.FloatField(help_text="the 95% interval's upper end")
    matches = models.PositiveIntegerField(default=0)
    boards = models.PositiveIntegerField(default=0)
    boards_to_separate = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="more boards against the next version below that would make the gap "
        "significant at 95% (0: it is; 1000000: a million or more; empty: no version below "
        "in the same pool)",
    )
    last_match = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-elo"]
        constraints = [
            models.UniqueConstraint(fields=["version", "variant"], name="rating_unique"),
            models.CheckConstraint(
                condition=models.Q(elo_low__lte=models.F("elo"), elo__lte=models.F("elo_high")),
                name="rating_inside_its_interval",
            ),
        ]
        indexes = [models.Index(fields=["variant", "-elo"])]

    # The rating a page shows and the ends of its interval; pages read only these three.
    @property
    def value(self) -> float:
        return self.elo

    @property
    def provisional(self) -> bool:
        """Too few rated boards for the rating to settle: pages mark it."""
        return self.boards < PROVISIONAL_BOARDS

    @property
    def low(self) -> float:
        return self.elo_low

    @property
    def high(self) -> float:
        return self.elo_high


class RatingChange(models.Model):
    """One match's effect on one version's rating: the history behind a rating."""

    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="history")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes")
    before = models.FloatField()
    after = models.FloatField()
    wins = models.PositiveIntegerField(help_text="boards this version won in the match")
    draws = models.PositiveIntegerField()
    losses = models.PositiveIntegerField()
    score = models.FloatField(help_text="points per board in the match, a draw counting 1/2")
    expected = models.FloatField(help_text="the score per board expected from the ratings before")
    created = models.DateTimeField(auto_now_add=True)

    @property
    def delta(self) -> float:
        return self.after - self.before

    class Meta:
        ordering = ["rating_id", "match__completion_seq"]
        constraints = [
            models.UniqueConstraint(fields=["rating", "match"], name="rating_change_once"),
        ]


class CompletionCounter(models.Model):
    """The one row whose lock serialises match completions and so rating updates."""

    last_seq = models.PositiveBigIntegerField(default=0)


class IdempotencyRecord(models.Model):
    """The first answer to a POST sent with an ``Idempotency-Key`` (see arena/http/idempotency.py):
    a repeat of the request gets this answer again instead of doing the work twice."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    endpoint = models.CharField(max_length=255, help_text="method and path of the request")
    request_hash = models.CharField(max_length=64, help_text="sha256 of the request's content")
    status_code = models.PositiveSmallIntegerField()
    response = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_once_per_user"),
        ]
        indexes = [models.Index(fields=["user", "created"])]

    def __str__(self) -> str:
        return f"{self.key} ({self.endpoint})"


class QuotaSlot(models.Model):
    """One taken slot of a request quota (arena/http/quotas/slots.py): in the database, so that
    the quotas hold, and counted requests are still accepted, while Redis is down."""

    key = models.CharField(max_length=255, primary_key=True)
    holder = models.CharField(
        max_length=255, db_index=True, help_text="whose slot: the quota and the identity"
    )
    taken_at = models.FloatField(help_text="when the slot was taken, in seconds since the epoch")
    expires = models.DateTimeField(db_index=True, help_text="the slot is free again from then")


class Notice(models.Model):
    """Something a person was waiting on has happened: shown in the site's header until read.

    ``key`` names the event (``version:17:active``): a task delivered twice, or a service
    called again, finds the notice already there and adds none (arena/notices.py)."""

    class Kind(models.TextChoices):
        VERSION_ACTIVE = "version_active", "Bot version validated"
        VERSION_REJECTED = "version_rejected", "Bot version rejected"
        MATCH_PLAYED = "match_played", "Challenge played"
        ROUND_SCHEDULED = "round_scheduled", "League round scheduled"
        RESULTS_PUBLISHED = "results_published", "Event results published"
        RESULT_TO_CONFIRM = "result_to_confirm", "Event result to confirm"
        RESULT_REJECTED = "result_rejected", "Event result rejected"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    key = models.CharField(max_length=100, help_text="the event noticed: one notice per user")
    text = models.CharField(max_length=300)
    url = models.CharField(max_length=300, blank=True, help_text="where to follow it up")
    created = models.DateTimeField(auto_now_add=True)
    read = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="notice_once_per_event"),
        ]
        indexes = [models.Index(fields=["user", "read"])]

    def __str__(self) -> str:
        return f"{self.kind} for user {self.user_id}"
