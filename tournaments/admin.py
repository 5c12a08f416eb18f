from django.contrib import admin

from tournaments.models import (
    Board,
    BoardPar,
    Correction,
    Entry,
    Event,
    HumanRating,
    HumanRatingChange,
    Result,
    Section,
)


class SectionInline(admin.TabularInline[Section, Event]):
    model = Section
    fields = ["name", "size", "rounds"]
    readonly_fields = ["size", "rounds"]
    extra = 0


@admin.register(Event)
class EventAdmin(admin.ModelAdmin[Event]):
    list_display = ["id", "name", "variant", "kind", "movement", "status", "director", "created"]
    list_filter = ["variant", "kind", "movement", "status"]
    search_fields = ["name", "director__display_name"]
    # The secret and the commitment are never edited: changing either would break the
    # promise that the boards were fixed before play.
    readonly_fields = ["commitment", "status", "started", "finished"]
    inlines = [SectionInline]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin[Entry]):
    list_display = ["id", "section", "number", "name"]
    list_filter = ["section__event"]
    filter_horizontal = ["players"]


@admin.register(Board)
class BoardAdmin(admin.ModelAdmin[Board]):
    list_display = ["id", "event", "number", "dealer"]
    list_filter = ["event"]
    readonly_fields = ["event", "number", "seed", "dealer"]


@admin.register(BoardPar)
class BoardParAdmin(admin.ModelAdmin[BoardPar]):
    list_display = ["board", "bot", "score_ns", "score_ew"]


class CorrectionInline(admin.TabularInline[Correction, Result]):
    model = Correction
    fields = readonly_fields = ("at", "director", "reason", "before", "after")
    extra = 0
    can_delete = False


@admin.register(Result)
class ResultAdmin(admin.ModelAdmin[Result]):
    """Read-only here: a correction goes through the API so that it is audited and the
    scores are derived again from the rules."""

    list_display = ["id", "section", "round", "table", "board", "bid", "score_ns", "score_ew"]
    list_filter = ["section__event"]
    inlines = [CorrectionInline]

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False


@admin.register(HumanRating)
class HumanRatingAdmin(admin.ModelAdmin[HumanRating]):
    list_display = ["player", "variant", "rating", "events"]
    list_filter = ["variant"]


@admin.register(HumanRatingChange)
class HumanRatingChangeAdmin(admin.ModelAdmin[HumanRatingChange]):
    list_display = ["event", "player", "before", "after"]
