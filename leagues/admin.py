from django.contrib import admin

from leagues.models import Division, Entry, Fixture, League, Round, Season


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin[League]):
    list_display = ["id", "name", "organiser", "variant", "format", "boards_per_match", "created"]
    list_filter = ["variant", "format"]
    search_fields = ["name", "organiser__user__username"]


class DivisionInline(admin.TabularInline[Division, Season]):
    model = Division
    extra = 0


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin[Season]):
    list_display = ["id", "league", "number", "status", "round_count", "started", "finished"]
    list_filter = ["status"]
    inlines = [DivisionInline]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin[Entry]):
    list_display = ["id", "season", "division", "bot", "version", "follows_latest", "number"]
    raw_id_fields = ["bot", "version"]


class FixtureInline(admin.TabularInline[Fixture, Round]):
    model = Fixture
    fields = readonly_fields = (
        "division",
        "entry_x",
        "entry_y",
        "version_x",
        "version_y",
        "match",
        "walkover",
    )
    extra = 0
    can_delete = False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin[Round]):
    list_display = ["id", "season", "number", "status", "created", "completed"]
    list_filter = ["status"]
    inlines = [FixtureInline]
