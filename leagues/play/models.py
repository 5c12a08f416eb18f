"""A table where one human plays a hand with bots in the other seats.

The table stores only what rebuilds the hand (variant, rules, seed, dealer, the action log)
and who sits where; the engine re-deals and re-applies the log whenever the hand is
needed (``leagues.play.referee``). The seed is the server's secret until the hand is over.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


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
