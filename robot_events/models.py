"""Robot duplicate events: each human plays the same boards with robots at the other seats.

An event's boards are fixed at creation by a committed secret (``arena.seeding``): only the
commitment is shown until the event is closed, then the secret too. Each entrant plays
every board once, in order, at a table of their own; a board's result is North-South's
score minus East-West's, the human holding South.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from arena.models import Player
from engine.registry import default_variant, load_game, variant_names

ROBOT_VARIANTS = tuple(name for name in variant_names() if load_game(name).has_robot_events)
"""The variants whose games declare robot events (``Game.robot_event_variants``): the
human and a robot partner against two robots."""


def default_robot_variant() -> str:
    """The variant a new robot event is offered in: the service's default one when it has
    robot events, else the first that has."""
    return default_variant() if default_variant() in ROBOT_VARIANTS else ROBOT_VARIANTS[0]


class RobotEvent(models.Model):
    class Robots(models.TextChoices):
        RANDOM = "random"
        GREEDY = "greedy"
        STRONG = "strong"

    class Kind(models.TextChoices):
        INSTANT = "instant", "instant: open until the director closes it"
        DAYLONG = "daylong", "daylong: open for 24 hours"

    class Scoring(models.TextChoices):
        MATCHPOINTS = "mp", "matchpoints"
        IMPS = "imp", "cross-IMPs"

    name = models.CharField(max_length=120)
    variant = models.CharField(
        max_length=16, choices=[(variant, variant) for variant in ROBOT_VARIANTS]
    )
    boards = models.PositiveSmallIntegerField()
    robots = models.CharField(max_length=8, choices=Robots.choices)
    kind = models.CharField(max_length=8, choices=Kind.choices)
    scoring = models.CharField(max_length=3, choices=Scoring.choices)
    director = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="robot_events")
    opens = models.DateTimeField()
    closes = models.DateTimeField(
        null=True, blank=True, help_text="when play stops; none for an instant event"
    )
    closed = models.DateTimeField(
        null=True, blank=True, help_text="when the event was closed and its secret revealed"
    )
    secret = models.CharField(max_length=64, editable=False)
    commitment = models.CharField(max_length=64, editable=False)
    schedule = models.ForeignKey(
        "RobotSchedule", null=True, blank=True, on_delete=models.SET_NULL, related_name="events"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-opens", "-id"]
        permissions = [("direct_robotevent", "Can create and close robot duplicate events")]
        constraints = [
            models.CheckConstraint(
                condition=Q(boards__gte=1) & Q(boards__lte=36), name="robot_event_boards_range"
            ),
            models.CheckConstraint(
                condition=Q(closes__isnull=True) | Q(closes__gt=models.F("opens")),
                name="robot_event_closes_after_opens",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class RobotBoard(models.Model):
    """One board of an event, dealt from the event's secret; its par once computed."""

    event = models.ForeignKey(RobotEvent, on_delete=models.CASCADE, related_name="board_set")
    number = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField()
    dealer = models.PositiveSmallIntegerField()
    par_ns = models.IntegerField(null=True, blank=True)
    par_ew = models.IntegerField(null=True, blank=True)
    par_result = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["event_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="robot_board_unique_number"),
        ]


class RobotEntry(models.Model):
    event = models.ForeignKey(RobotEvent, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="robot_entries")
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="robot_entry_once_per_event"),
        ]


class RobotPlay(models.Model):
    """One entrant's play of one board: started, then finished with the table's result."""

    entry = models.ForeignKey(RobotEntry, on_delete=models.CASCADE, related_name="plays")
    board = models.ForeignKey(RobotBoard, on_delete=models.CASCADE, related_name="plays")
    table = models.OneToOneField(
        "play.PlayTable",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="robot_play",
        help_text="the table the entrant plays the board at",
    )
    started = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)
    score_ns = models.IntegerField(null=True, blank=True)
    score_ew = models.IntegerField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["entry_id", "board__number"]
        constraints = [
            # The rule that makes a board impossible to play twice, whatever races above it.
            models.UniqueConstraint(fields=["entry", "board"], name="robot_play_board_once"),
            # One board at a time: a second unfinished play of the same entrant is refused.
            models.UniqueConstraint(
                fields=["entry"], condition=Q(finished__isnull=True), name="robot_play_one_open"
            ),
            models.CheckConstraint(
                condition=Q(finished__isnull=True, score_ns__isnull=True, score_ew__isnull=True)
                | Q(finished__isnull=False, score_ns__isnull=False, score_ew__isnull=False),
                name="robot_play_finished_has_scores",
            ),
        ]

    @property
    def net(self) -> int | None:
        if self.score_ns is None or self.score_ew is None:
            return None
        return self.score_ns - self.score_ew


class RobotSchedule(models.Model):
    """A timetable: celery beat creates an event of these settings at each run."""

    name = models.CharField(max_length=120)
    variant = models.CharField(
        max_length=16, choices=[(variant, variant) for variant in ROBOT_VARIANTS]
    )
    boards = models.PositiveSmallIntegerField()
    robots = models.CharField(max_length=8, choices=RobotEvent.Robots.choices)
    kind = models.CharField(max_length=8, choices=RobotEvent.Kind.choices)
    scoring = models.CharField(max_length=3, choices=RobotEvent.Scoring.choices)
    director = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="robot_schedules")
    task = models.OneToOneField(
        "django_celery_beat.PeriodicTask",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="robot_schedule",
    )

    class Meta:
        ordering = ["id"]
