"""Card tables for people: a whole game to its target, each seat a person or a bot.

A table stores only what rebuilds its game: the variant, its rules, the target, the seed
and the action log; the engine re-deals the seed and re-applies the log whenever the game
is needed (``lobby.game_state``). The seed is the server's secret until the game is over:
only its commitment is shown before.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models


class GameTable(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting"
        PLAYING = "playing"
        FINISHED = "finished"

    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lobby_tables"
    )
    variant = models.CharField(max_length=16)
    rules = models.JSONField(help_text="the variant's rules, as the engine writes them")
    target = models.JSONField(
        help_text='{"kind": "score", "value": points} or {"kind": "hands", "value": count}'
    )
    rated = models.BooleanField(default=False)
    clock = models.JSONField(help_text='{"decision_s": seconds a decision, "bank_s": a bank}')
    substitute = models.CharField(
        max_length=16,
        default="greedy",
        help_text="the reference bot that plays a seat whose person left or ran out of time",
    )
    seed = models.PositiveBigIntegerField(
        help_text="the game's seed: secret, never shown to a client before the game is over"
    )
    commitment = models.CharField(max_length=64, help_text="sha256 of the seed's 8 bytes")
    dealer = models.PositiveSmallIntegerField(default=0, help_text="the first hand's dealer")
    invite_token = models.CharField(
        max_length=43, help_text="the invitation's secret: it seats a person at an invited seat"
    )
    actions = models.JSONField(default=list, help_text="every action of the game, in order")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    result = models.JSONField(
        null=True,
        blank=True,
        help_text="once over: winner (side index or null), scores by side, hands' results",
    )
    turn_started = models.DateTimeField(
        null=True, blank=True, help_text="when the seat to act was asked for its decision"
    )
    deadline = models.DateTimeField(
        null=True,
        blank=True,
        help_text="when the person to act runs out of time (decision plus bank); none: "
        "a bot acts, or the game is not in play",
    )
    rating_applied = models.BooleanField(
        default=False, help_text="the finished rated game has changed its players' ratings"
    )
    revision = models.PositiveIntegerField(
        default=0,
        help_text="the committed changes to the table so far: each change's message carries "
        "it, so that a process serving the table's sockets reads the table once per change",
    )
    talk_count = models.PositiveIntegerField(
        default=0, help_text="the phrases said at the table: a frame reads the talk only if any"
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        indexes = [
            models.Index(fields=["status", "-created"]),
            models.Index(fields=["status", "deadline"]),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(status__in=["waiting", "playing", "finished"]),
                name="lobby_table_status_known",
            ),
            models.CheckConstraint(
                condition=~models.Q(status="finished") | models.Q(result__isnull=False),
                name="lobby_table_over_has_result",
            ),
        ]

    def __str__(self) -> str:
        return f"table {self.pk} ({self.variant}, {self.status})"

    @property
    def ply(self) -> int:
        return len(self.actions)

    @property
    def is_over(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def decision_s(self) -> int:
        return int(self.clock["decision_s"])


class GameSeat(models.Model):
    """One seat of a table: a person (``user``), a bot (``bot``), or open for a person."""

    table = models.ForeignKey(GameTable, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="lobby_seats",
    )
    bot = models.JSONField(
        null=True,
        blank=True,
        help_text='{"kind": "reference", "name": ...} or {"kind": "arena", "version": id}',
    )
    invited = models.BooleanField(
        default=False, help_text="only a person with the table's invitation may sit here"
    )
    left = models.BooleanField(
        default=False, help_text="the person left during play: the substitute bot plays here"
    )
    connected = models.BooleanField(default=False, help_text="the person's page is open")
    bank_s = models.FloatField(default=0.0, help_text="seconds left in the person's time bank")

    class Meta:
        ordering = ["table_id", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="lobby_seat_once"),
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=models.Q(user__isnull=False),
                name="lobby_person_sits_once",
            ),
            models.CheckConstraint(
                condition=models.Q(user__isnull=True) | models.Q(bot__isnull=True),
                name="lobby_seat_person_or_bot",
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat} of table {self.table_id}"

    @property
    def kind(self) -> str:
        """``person``, ``bot``, ``invite`` (empty, by invitation) or ``open`` (empty)."""
        if self.user_id is not None:
            return "person"
        if self.bot is not None:
            return "bot"
        return "invite" if self.invited else "open"

    @property
    def bot_spec(self) -> dict[str, Any] | None:
        return None if self.bot is None else dict(self.bot)


class TalkMessage(models.Model):
    """A fixed phrase said at a table (``lobby.words``): no free text, so nothing to signal."""

    table = models.ForeignKey(GameTable, on_delete=models.CASCADE, related_name="talk")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    key = models.CharField(max_length=32)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table_id", "created", "id"]

    def __str__(self) -> str:
        return f"{self.key} at table {self.table_id}"


class LiveRating(models.Model):
    """A person's Elo rating for one variant, from rated games at the lobby's tables.

    Kept apart from the duplicate events' human ratings (``tournaments.HumanRating``): a
    game at one table is decided by the cards as much as by the play, so its results are
    not the same measure as a duplicate board's."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="live_ratings"
    )
    variant = models.CharField(max_length=16)
    rating = models.FloatField(default=1500.0)
    games = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-rating", "id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "variant"], name="lobby_rating_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.variant} {self.rating:.0f}"


class LiveRatingChange(models.Model):
    """One person's rating change from one rated game: written once, when the game ends."""

    table = models.ForeignKey(GameTable, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    before = models.FloatField()
    after = models.FloatField()

    class Meta:
        ordering = ["table_id", "user_id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="lobby_rating_change_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} at table {self.table_id}: {self.before:.0f} -> {self.after:.0f}"
