"""Routes of the leagues' pages: the list, a league, its seasons, entries and rounds."""

from django.urls import URLPattern, path

from leagues.pages import leagues

SEASON = "leagues/<int:league_id>/seasons/<int:number>/"

app_name = "leagues"

urlpatterns: list[URLPattern] = [
    path("leagues/", leagues.league_list, name="list"),
    path("leagues/new/", leagues.league_new, name="new"),
    path("leagues/<int:league_id>/", leagues.league_detail, name="league"),
    path("leagues/<int:league_id>/edit/", leagues.league_edit, name="edit"),
    path("leagues/<int:league_id>/timetable/", leagues.timetable_set, name="timetable"),
    path("leagues/<int:league_id>/seasons/", leagues.season_new, name="season-new"),
    path(SEASON, leagues.season_detail, name="season"),
    path(f"{SEASON}bracket/", leagues.season_bracket, name="bracket"),
    path(f"{SEASON}entries/", leagues.entry_new, name="entry-new"),
    path(
        f"{SEASON}entries/<int:entry_id>/withdraw/",
        leagues.entry_withdraw,
        name="entry-withdraw",
    ),
    path(f"{SEASON}rounds/", leagues.round_new, name="round-new"),
]
