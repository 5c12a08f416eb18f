"""Routes of the pages that live above the arena: home, players, leagues."""

from django.urls import URLPattern, path

from leagues.pages import home, leagues, players

SEASON = "leagues/<int:league_id>/seasons/<int:number>/"

urlpatterns: list[URLPattern] = [
    path("", home.home, name="index"),
    path("players/<str:username>/", players.player_detail, name="player"),
    path("players/<str:username>/token/", players.player_token, name="player-token"),
    path("leagues/", leagues.league_list, name="leagues"),
    path("leagues/new/", leagues.league_new, name="league-new"),
    path("leagues/<int:league_id>/", leagues.league_detail, name="league-page"),
    path("leagues/<int:league_id>/seasons/", leagues.season_new, name="season-new"),
    path(SEASON, leagues.season_detail, name="season-page"),
    path(f"{SEASON}entries/", leagues.entry_new, name="season-entry-new"),
    path(f"{SEASON}rounds/", leagues.round_new, name="season-round-new"),
]
