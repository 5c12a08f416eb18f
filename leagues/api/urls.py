"""Routes under /api/leagues/."""

from django.urls import URLPattern, URLResolver, path
from rest_framework.routers import SimpleRouter

from leagues.api import views as api

app_name = "leagues_api"

router = SimpleRouter()
router.register("", api.LeagueViewSet, basename="league")

SEASON = "<int:league_id>/seasons/<int:number>/"

urlpatterns: list[URLPattern | URLResolver] = [
    path("<int:league_id>/seasons/", api.SeasonListView.as_view(), name="seasons"),
    path(SEASON, api.SeasonDetailView.as_view(), name="season"),
    path(f"{SEASON}entries/", api.EntryListView.as_view(), name="entries"),
    path(f"{SEASON}entries/<int:entry_id>/", api.EntryDetailView.as_view(), name="entry"),
    path(f"{SEASON}rounds/", api.RoundListView.as_view(), name="rounds"),
    path(f"{SEASON}rounds/<int:round_number>/", api.RoundDetailView.as_view(), name="round"),
    path(f"{SEASON}standings/", api.StandingsView.as_view(), name="standings"),
    path(f"{SEASON}bracket/", api.BracketView.as_view(), name="bracket"),
    *router.urls,
]
