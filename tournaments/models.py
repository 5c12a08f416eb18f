"""Duplicate events for human players: sections, entries, boards, table results, audit."""

from __future__ import annotations

from django.db import models

from arena.models import Player
from arena.variants import variant_choices
from tournaments.hands import EntryOutcome
from tournaments.human_ratings import INITIAL_MU, INITIAL_SIGMA, Skill
from tournaments.movements import MovementKind


class Event(models.Model):
    """A duplicate event: one variant, one movement kind, boards fixed by a committed secret.

    ``secret`` is drawn at creation and only ``commitment`` is shown until the event is
    finished; then both are public so that anyone can re-derive every board.
    """

    class Kind(models.TextChoices):
        PAIRS = "pairs"
        INDIVIDUAL = "individual"

    class Scale(models.TextChoices):
        TWO_ONE = "2-1", "2 for each result beaten, 1 for each tie"
        ONE_HALF = "1-0.5", "1 for each result beaten, 1/2 for each tie"

    class Status(models.TextChoices):
        SETUP = "setup"
        RUNNING = "running"
        FINISHED = "finished"

    name = models.CharField(max_length=120)
    variant = models.CharField(max_length=16, choices=variant_choices)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.PAIRS)
    movement = models.CharField(
        max_length=10, choices=[(k.value, k.value) for k in MovementKind], default="mitchell"
    )
    boards_per_round = models.PositiveSmallIntegerField(default=3)
    scale = models.CharField(max_length=5, choices=Scale.choices, default=Scale.TWO_ONE)
    par_bot = models.CharField(
        max_length=8,
        blank=True,
        default="strong",
        help_text="the reference bot whose play of each board is shown as par; blank for none",
    )
    director = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="directed_events")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.SETUP)
    current_round = models.PositiveSmallIntegerField(
        default=0, help_text="the round being played: players enter no later round"
    )
    closed_round = models.PositiveSmallIntegerField(
        default=0, help_text="rounds up to this one are closed to players' entries"
    )
    secret = models.CharField(max_length=64, editable=False)
    commitment = models.CharField(max_length=64, editable=False)
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(boards_per_round__gte=1),
                name="tournament_event_boards_per_round_positive",
            )
        ]

    def __str__(self) -> str:
        return self.name


class Section(models.Model):
    """A group of tables playing the movement on their own copies of the boards.

    The movement is rebuilt from ``(event.movement, size, rounds)``: the movement
    functions are deterministic, so storing the rows as well would only risk a mismatch.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="sections")
    name = models.CharField(max_length=8)
    size = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="tables (teams for a team event), set at the start"
    )
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["event", "name"]
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="tournament_section_name_unique")
        ]

    def __str__(self) -> str:
        return f"{self.event} {self.name}"


class Entry(models.Model):
    """A pair (two players) or, in an individual event, one player.

    ``number`` is the entrant's number in the movement; in a team event entries 2t - 1
    and 2t are team t.
    """

    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="entries")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=120, blank=True)
    players = models.ManyToManyField(Player, related_name="tournament_entries")

    class Meta:
        ordering = ["section", "number"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(
                fields=["section", "number"], name="tournament_entry_number_unique"
            )
        ]

    def __str__(self) -> str:
        return self.name or f"{self.section.name}{self.number}"


class Board(models.Model):
    """One deal of the event, the same in every section; its seed comes from the secret."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="boards")
    number = models.PositiveSmallIntegerField()
    seed = models.PositiveBigIntegerField()
    dealer = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "number"], name="tournament_board_number_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.event} board {self.number}"


class BoardPar(models.Model):
    """What a reference bot scored on the board, played by the bot at all four seats."""

    board = models.OneToOneField(Board, on_delete=models.CASCADE, related_name="par")
    bot = models.CharField(max_length=16)
    result = models.JSONField(help_text="the engine's hand result")
    score_ns = models.IntegerField()
    score_ew = models.IntegerField()


class Result(models.Model):
    """One table's result on one board, as entered; the scores are derived, never typed.

    A player's entry is ``pending`` until a player of the other side at the table confirms
    it (as a Bridgemate asks the opponents): only confirmed results are scored. The
    director's own entries and corrections are confirmed as they are made.
    """

    class Status(models.TextChoices):
        PENDING = "pending"
        CONFIRMED = "confirmed"

    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="results")
    board = models.ForeignKey(Board, on_delete=models.PROTECT, related_name="results")
    round = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
    sides = models.JSONField(help_text="entry numbers at the table, as the movement seats them")
    outcome = models.CharField(max_length=12, choices=[(o.value, o.value) for o in EntryOutcome])
    declarer = models.PositiveSmallIntegerField()
    bid = models.PositiveIntegerField()
    trump = models.CharField(max_length=1, blank=True)
    meld_ns = models.PositiveIntegerField()
    meld_ew = models.PositiveIntegerField()
    taken_ns = models.PositiveIntegerField()
    taken_ew = models.PositiveIntegerField()
    hand_outcome = models.CharField(max_length=12)
    score_ns = models.IntegerField()
    score_ew = models.IntegerField()
    # Three-hand events: one value per seat (the pair fields above stay 0), and the
    # counters of the declarer's buried cards.
    seat_melds = models.JSONField(default=list, blank=True)
    seat_taken = models.JSONField(default=list, blank=True)
    seat_scores = models.JSONField(default=list, blank=True)
    buried = models.PositiveIntegerField(default=0)
    entered_by = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    entered = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.CONFIRMED)
    confirmed_by = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    confirmed = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["section", "board__number", "round", "table"]
        constraints = [
            models.UniqueConstraint(
                fields=["section", "round", "table", "board"],
                name="tournament_result_once_per_table",
            ),
            models.CheckConstraint(
                condition=models.Q(declarer__lte=3), name="tournament_result_declarer_seat"
            ),
        ]


class Correction(models.Model):
    """The audit trail of a director's change to a result: who, when, before and after."""

    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="corrections")
    director = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(auto_now_add=True)
    reason = models.CharField(max_length=200, blank=True)
    before = models.JSONField()
    after = models.JSONField()

    class Meta:
        ordering = ["at", "id"]


class Review(models.Model):
    """The audit trail of a table's result being confirmed or rejected, by whom and why.

    It names the table and board rather than the result, since a rejected result is
    removed so that the table enters the board again.
    """

    class Action(models.TextChoices):
        CONFIRMED = "confirmed"
        REJECTED = "rejected"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="reviews")
    section = models.CharField(max_length=8)
    round = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
    board = models.PositiveSmallIntegerField()
    action = models.CharField(max_length=9, choices=Action.choices)
    by = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    on_behalf = models.BooleanField(
        default=False, help_text="the director confirmed or rejected it for the table"
    )
    entered_by = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    reason = models.CharField(max_length=200, blank=True)
    result = models.JSONField(help_text="the result as it was entered")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "id"]


class HumanRating(models.Model):
    """A human player's skill for one variant, from duplicate events (openskill's team
    model, ``tournaments.human_ratings``), with ``rating`` its value on the Elo scale."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="human_ratings")
    variant = models.CharField(max_length=16, choices=variant_choices)
    rating = models.FloatField(default=1500.0)
    mu = models.FloatField(default=INITIAL_MU)
    sigma = models.FloatField(default=INITIAL_SIGMA)
    events = models.PositiveIntegerField(default=0)

    @property
    def skill(self) -> Skill:
        return Skill(self.mu, self.sigma)

    @property
    def value(self) -> float:
        return self.rating

    @property
    def low(self) -> float:
        return self.skill.low

    @property
    def high(self) -> float:
        return self.skill.high

    class Meta:
        ordering = ["-rating", "id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "variant"], name="human_rating_unique")
        ]


class HumanRatingChange(models.Model):
    """One player's rating change from one event, applied once when the event finishes."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rating_changes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    before = models.FloatField()
    after = models.FloatField()

    class Meta:
        ordering = ["event", "player"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="human_rating_change_once")
        ]
