"""A table where one human plays a hand with bots in the other seats.

The table stores only what rebuilds the hand (variant, rules, seed, dealer, the action log)
and who sits where; the engine re-deals and re-applies the log whenever the hand is
needed (``tables.referee``). The seed is the server's secret until the hand is over.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone


class PlayTable(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing"
        FINISHED = "finished"
        ABANDONED = "abandoned"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="play_tables"
    )
    variant = models.CharField(max_length=16)
    rules = models.JSONField(help_text="the variant's rules, as the engine writes them")
    seed = models.PositiveBigIntegerField(
        help_text="the deal seed: secret, never shown to a client before the hand is over"
    )
    dealer = models.PositiveSmallIntegerField()
    human_seat = models.PositiveSmallIntegerField()
    seats = models.JSONField(
        help_text='per seat "human" or a bot spec {"kind": "reference", "name": "greedy"} '
        'or {"kind": "arena", "version": id}'
    )
    actions = models.JSONField(default=list, help_text="every action taken, in order")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    result = models.JSONField(
        null=True,
        blank=True,
        help_text="once over: side_scores (the duplicate comparison's score per side), the "
        "engine's hand result, and the fault that ended the hand early if any",
    )
    return_url = models.CharField(max_length=500, blank=True)
    public_after = models.DateTimeField(
        null=True,
        blank=True,
        help_text="before this, only the owner sees the table and its replay; none: owner only",
    )
    casual = models.BooleanField(
        default=False,
        help_text="started by its owner alone (the play page, POST /api/play/tables/), not by "
        "a challenge or an event: limited in number while open, and ended when left untouched",
    )
    plays_until = models.DateTimeField(
        null=True,
        blank=True,
        help_text="the hand takes no action from this time on (its app then closes it); "
        "none: no limit",
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created"]
        indexes = [models.Index(fields=["owner", "status"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(status__in=["playing", "finished", "abandoned"]),
                name="play_table_status_known",
            ),
            models.CheckConstraint(
                condition=models.Q(status="playing") | models.Q(result__isnull=False),
                name="play_table_over_has_result",
            ),
        ]

    def __str__(self) -> str:
        return f"table {self.pk} ({self.variant}, {self.status})"

    @property
    def ply(self) -> int:
        return len(self.actions)

    @property
    def is_over(self) -> bool:
        return self.status != self.Status.PLAYING

    def out_of_time(self, now: datetime | None = None) -> bool:
        """Past ``plays_until``: the hand takes no more actions, though it is not over yet."""
        return self.plays_until is not None and (now or timezone.now()) >= self.plays_until


class Challenge(models.Model):
    """A human against one bot: a short duplicate match of a few boards (challenge_boards.py)."""

    class Status(models.TextChoices):
        PLAYING = "playing"
        FINISHED = "finished"

    class Format(models.TextChoices):
        BOT_TABLE = "bot_table", "one table a board, compared with the bot at every seat"
        TWO_TABLES = "two_tables", "every table of a board, the human in another seat at each"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="play_challenges"
    )
    variant = models.CharField(max_length=16)
    opponent = models.JSONField(help_text="the challenged bot's spec, as a table seat's")
    boards = models.PositiveSmallIntegerField()
    seed_commitment = models.CharField(
        max_length=64, help_text="sha256 of the secret the boards are dealt from (arena.seeding)"
    )
    seed_secret = models.CharField(
        max_length=64, editable=False, help_text="hex; revealed once the match is over"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    format = models.CharField(
        max_length=10,
        choices=Format.choices,
        default=Format.BOT_TABLE,
        help_text="how the boards are compared; two_tables: started before the bot-only table",
    )
    board_results = models.JSONField(
        default=list,
        blank=True,
        help_text="the human's duplicate result per board: the human side's margin at the "
        "human's table minus its margin at the bot-only table (challenge_boards.py); positive: "
        "better than the bot",
    )
    summary = models.JSONField(null=True, blank=True, help_text="bots.duplicate.Summary")
    created = models.DateTimeField(auto_now_add=True)
    expires = models.DateTimeField(
        help_text="when the boards not played by then count as the human's forfeits"
    )
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(boards__gte=1) & models.Q(boards__lte=8),
                name="play_challenge_boards_1_to_8",
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=["playing", "finished"]),
                name="play_challenge_status_known",
            ),
        ]

    def __str__(self) -> str:
        return f"challenge {self.pk} ({self.variant}, {self.boards} boards)"

    @property
    def is_over(self) -> bool:
        return self.status == self.Status.FINISHED


class ChallengeTable(models.Model):
    """The human's table of one board of a challenge, and the board's bot-only table.

    The bot-only table (``comparison``) is played once the human's table is over and is
    never a ``PlayTable``: it has no human seat, and nobody plays or watches it live.
    """

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="tables")
    board = models.PositiveSmallIntegerField()
    table = models.CharField(max_length=1)
    order = models.PositiveSmallIntegerField(help_text="the order the human plays the tables in")
    play_table = models.OneToOneField(
        PlayTable, on_delete=models.CASCADE, related_name="challenge_table"
    )
    comparison = models.JSONField(
        null=True,
        blank=True,
        help_text="the board played by the challenged bot at every seat, once the human's "
        "table is over: seats, actions, side_scores, hand (the engine's result) and fault",
    )
    comparison_sent = models.DateTimeField(
        null=True, blank=True, help_text="when the bot-only table's task was last sent"
    )

    class Meta:
        ordering = ["challenge_id", "order"]
        constraints = [
            models.UniqueConstraint(
                fields=["challenge", "board", "table"], name="play_challenge_table_once"
            ),
        ]
