"""Routes of the tournament pages, under /tournaments/ (the API is under /api/tournaments/)."""

from django.urls import URLPattern, URLResolver, path

from leagues.tournaments import pages

urlpatterns: list[URLPattern | URLResolver] = [
    path("", pages.event_list, name="tournament-pages"),
    path("ratings/", pages.human_ratings, name="tournament-page-ratings"),
    path("<int:event_id>/", pages.event_detail, name="tournament-page"),
    path("<int:event_id>/standings/", pages.standings, name="tournament-page-standings"),
    path(
        "<int:event_id>/standings/live/",
        pages.standings_partial,
        name="tournament-page-standings-live",
    ),
    path("<int:event_id>/boards/<int:number>/", pages.traveller, name="tournament-page-traveller"),
    path(
        "<int:event_id>/scorecards/<str:section>/<int:number>/",
        pages.scorecard,
        name="tournament-page-scorecard",
    ),
    path(
        "<int:event_id>/verification/",
        pages.verification,
        name="tournament-page-verification",
    ),
    path("<int:event_id>/rounds/next/", pages.round_next, name="tournament-page-round-next"),
    path("<int:event_id>/rounds/close/", pages.round_close, name="tournament-page-round-close"),
    path(
        "<int:event_id>/tables/<str:section>/<int:round>/<int:table>/",
        pages.table_entry,
        name="tournament-page-table",
    ),
]
