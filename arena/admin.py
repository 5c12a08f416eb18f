from django.contrib import admin
from django.http import HttpRequest

from arena.models import (
    Board,
    Bot,
    BotVersion,
    CompletionCounter,
    Game,
    Match,
    Player,
    Rating,
    RatingChange,
    Replay,
)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ["id", "display_name", "user", "created"]
    search_fields = ["display_name", "user__username"]


class BotVersionInline(admin.TabularInline[BotVersion, Bot]):
    model = BotVersion
    fields = readonly_fields = ("number", "kind", "status", "size", "sha256", "created")
    extra = 0
    can_delete = False
    show_change_link = True


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin[Bot]):
    list_display = ["id", "name", "owner", "variant", "created"]
    list_filter = ["variant"]
    search_fields = ["name", "owner__user__username"]
    inlines = [BotVersionInline]


@admin.register(BotVersion)
class BotVersionAdmin(admin.ModelAdmin[BotVersion]):
    list_display = ["id", "bot", "number", "kind", "status", "size", "created"]
    list_filter = ["status", "kind"]
    search_fields = ["bot__name", "sha256"]
    # The uploaded source is immutable: an administrator may disable a version, not edit it.
    readonly_fields = ["bot", "number", "kind", "sha256", "size", "build_log", "created"]
    fields = [
        "bot",
        "number",
        "kind",
        "sha256",
        "size",
        "status",
        "status_reason",
        "build_log",
        "created",
    ]

    def has_add_permission(self, request: HttpRequest, obj: BotVersion | None = None) -> bool:
        return False


@admin.register(Board)
class BoardAdmin(admin.ModelAdmin[Board]):
    list_display = ["id", "variant", "seed", "dealer", "created"]
    list_filter = ["variant"]


class GameInline(admin.TabularInline[Game, Match]):
    model = Game
    fields = readonly_fields = ("number", "table", "team_scores", "fault")
    extra = 0
    can_delete = False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin[Match]):
    list_display = [
        "id",
        "variant",
        "kind",
        "status",
        "version_x",
        "version_y",
        "board_count",
        "score_x",
        "share_x",
        "attempts",
        "finished",
    ]
    list_filter = ["status", "variant", "kind", "rated"]
    # The deal's commitment is never edited (that would break its verification), and the
    # secret (editable=False) is not shown at all: it gives every deal of a running match.
    readonly_fields = [
        "seed",
        "seed_chosen",
        "seed_commitment",
        "completion_seq",
        "claim_token",
        "lease_until",
        "started",
        "finished",
        "score_x",
        "share_x",
        "mean_x",
        "ci95",
        "board_results",
        "faults",
        "attempts",
    ]
    inlines = [GameInline]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin[Game]):
    list_display = ["id", "match", "number", "table", "team_scores"]


@admin.register(Replay)
class ReplayAdmin(admin.ModelAdmin[Replay]):
    list_display = ["id", "game"]


class RatingChangeInline(admin.TabularInline[RatingChange, Rating]):
    model = RatingChange
    fields = readonly_fields = (
        "match",
        "before",
        "after",
        "wins",
        "draws",
        "losses",
        "score",
        "expected",
    )
    extra = 0
    can_delete = False


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin[Rating]):
    list_display = [
        "version",
        "variant",
        "elo",
        "elo_low",
        "elo_high",
        "matches",
        "boards",
        "last_match",
    ]
    list_filter = ["variant"]
    inlines = [RatingChangeInline]


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin[RatingChange]):
    list_display = ["rating", "match", "before", "after", "score"]


@admin.register(CompletionCounter)
class CompletionCounterAdmin(admin.ModelAdmin[CompletionCounter]):
    list_display = ["id", "last_seq"]
