"""Leagues of bots: seasons, divisions, entries, rounds and fixtures played as arena matches."""

from __future__ import annotations

from django.db import models
from django_celery_beat.models import PeriodicTask

from arena.models import Bot, BotVersion, Match, Player
from arena.variants import variant_choices


class League(models.Model):
    """A competition run by an organiser; its settings apply to every fixture it creates."""

    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", "Round robin"
        DOUBLE_ROUND_ROBIN = "double_round_robin", "Double round robin"
        SWISS = "swiss", "Swiss"
        LADDER = "ladder", "Ladder"
        KNOCKOUT = "knockout", "Knockout"

    name = models.CharField(max_length=100)
    description = models.TextField(blank=True, max_length=4000)
    organiser = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="leagues")
    variant = models.CharField(max_length=16, choices=variant_choices)
    rule_overrides = models.JSONField(default=dict, blank=True)
    format = models.CharField(max_length=20, choices=Format.choices)
    boards_per_match = models.PositiveIntegerField(default=10)
    decision_ms = models.PositiveIntegerField(
        null=True, blank=True, help_text="per-decision deadline; empty for the arena's default"
    )
    bank_ms = models.PositiveIntegerField(
        null=True, blank=True, help_text="per-board time bank; empty for the arena's default"
    )
    allow_follow_latest = models.BooleanField(
        default=False, help_text="entries may follow their bot's latest active version"
    )
    ladder_reach = models.PositiveSmallIntegerField(
        default=2, help_text="how many rungs up a ladder challenge may reach"
    )
    timetable = models.OneToOneField(
        PeriodicTask, null=True, blank=True, on_delete=models.SET_NULL, related_name="league"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(boards_per_match__gte=1), name="league_has_boards"
            ),
            models.CheckConstraint(
                condition=models.Q(
                    format__in=["round_robin", "double_round_robin", "swiss", "ladder", "knockout"]
                ),
                name="league_format_valid",
            ),
            models.CheckConstraint(condition=models.Q(ladder_reach__gte=1), name="ladder_reach"),
        ]

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    """One run of a league: entries close when round 1 is scheduled."""

    class Status(models.TextChoices):
        OPEN = "open", "Open for entries"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=100, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    planned_rounds = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Swiss and ladder: rounds to play (default: ceil(log2 n) for a Swiss, "
        "n - 1 for a ladder); a round robin's rounds follow from its field",
    )
    round_count = models.PositiveIntegerField(
        null=True, blank=True, help_text="fixed when round 1 is scheduled"
    )
    starts_at = models.DateTimeField(
        null=True, blank=True, help_text="the timetable schedules round 1 from this moment on"
    )
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["league_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["league", "number"], name="season_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.league} season {self.number}"


class Division(models.Model):
    """A group of a season that plays within itself; level 1 is the top division.

    At the end of a season, the best ``promoted`` entrants of a division move up one level
    and the worst ``relegated`` move down one level in the next season (when there is such
    a level).
    """

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="divisions")
    name = models.CharField(max_length=64)
    level = models.PositiveSmallIntegerField()
    promoted = models.PositiveSmallIntegerField(default=0)
    relegated = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["season_id", "level"]
        constraints = [
            models.UniqueConstraint(fields=["season", "level"], name="division_level_unique"),
            models.UniqueConstraint(fields=["season", "name"], name="division_name_unique"),
            models.CheckConstraint(condition=models.Q(level__gte=1), name="division_level_min"),
        ]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A bot in a season: a fixed version, or (when the league allows it) whichever version
    of the bot is the latest active one when each fixture is created."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="entries")
    division = models.ForeignKey(
        Division, null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    bot = models.ForeignKey(Bot, on_delete=models.PROTECT, related_name="league_entries")
    version = models.ForeignKey(
        BotVersion, null=True, blank=True, on_delete=models.PROTECT, related_name="league_entries"
    )
    follows_latest = models.BooleanField(default=False)
    number = models.PositiveIntegerField(
        null=True, blank=True, help_text="pairing number in its division, from round 1 on"
    )
    rung = models.PositiveIntegerField(
        null=True, blank=True, help_text="ladder position, 1 at the top"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["season_id", "id"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["season", "bot"], name="entry_bot_once_per_season"),
            models.CheckConstraint(
                condition=models.Q(follows_latest=True, version__isnull=True)
                | models.Q(follows_latest=False, version__isnull=False),
                name="entry_version_or_follows_latest",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.bot} in {self.season}"


class Round(models.Model):
    """A round of a season; every fixture of the round plays the same deals (one seed)."""

    class Status(models.TextChoices):
        PLAYING = "playing", "Playing"
        COMPLETE = "complete", "Complete"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    seed = models.PositiveBigIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PLAYING)
    created = models.DateTimeField(auto_now_add=True)
    completed = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["season_id", "number"]
        constraints = [
            # Scheduling the same round twice must never create a second set of fixtures.
            models.UniqueConstraint(fields=["season", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="round_number_min"),
        ]

    def __str__(self) -> str:
        return f"{self.season} round {self.number}"


class Fixture(models.Model):
    """A pairing of a round: an arena match, or a bye or forfeit decided without one."""

    class Walkover(models.TextChoices):
        NONE = "", "Played"
        BYE = "bye", "Bye"
        X_FORFEITED = "x_forfeited", "X had no active version"
        Y_FORFEITED = "y_forfeited", "Y had no active version"
        BOTH_FORFEITED = "both_forfeited", "Neither side had an active version"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="fixtures")
    division = models.ForeignKey(
        Division, null=True, blank=True, on_delete=models.PROTECT, related_name="fixtures"
    )
    entry_x = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="fixtures_as_x")
    entry_y = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.CASCADE, related_name="fixtures_as_y"
    )
    version_x = models.ForeignKey(
        BotVersion, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    version_y = models.ForeignKey(
        BotVersion, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    match = models.OneToOneField(
        Match, null=True, blank=True, on_delete=models.PROTECT, related_name="league_fixture"
    )
    walkover = models.CharField(max_length=16, choices=Walkover.choices, blank=True, default="")

    class Meta:
        ordering = ["round_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry_x"], name="fixture_x_once_per_round"),
            models.UniqueConstraint(fields=["round", "entry_y"], name="fixture_y_once_per_round"),
            models.CheckConstraint(
                condition=models.Q(walkover="bye", entry_y__isnull=True)
                | (~models.Q(walkover="bye") & models.Q(entry_y__isnull=False)),
                name="fixture_bye_has_no_opponent",
            ),
            models.CheckConstraint(
                condition=models.Q(walkover="", match__isnull=False)
                | (~models.Q(walkover="") & models.Q(match__isnull=True)),
                name="fixture_match_unless_walkover",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round}: {self.entry_x} vs {self.entry_y or 'bye'}"
