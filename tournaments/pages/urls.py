"""Routes of the tournament pages, under /tournaments/ (the API is under /api/tournaments/)."""

from django.urls import URLPattern, URLResolver, path

from tournaments.pages import director
from tournaments.pages import views as pages

app_name = "tournaments"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", pages.event_list, name="list"),
    path("ratings/", pages.human_ratings, name="ratings"),
    path("new/", pages.event_new, name="new"),
    path("<int:event_id>/", pages.event_detail, name="event"),
    path("<int:event_id>/standings/", pages.standings, name="standings"),
    path(
        "<int:event_id>/standings/live/",
        pages.standings_partial,
        name="standings-live",
    ),
    path("<int:event_id>/boards/<int:number>/", pages.traveller, name="traveller"),
    path(
        "<int:event_id>/scorecards/<str:section>/<int:number>/",
        pages.scorecard,
        name="scorecard",
    ),
    path(
        "<int:event_id>/verification/",
        pages.verification,
        name="verification",
    ),
    path("<int:event_id>/entries/", pages.entry_new, name="entry-new"),
    path(
        "<int:event_id>/entries/<int:entry_id>/withdraw/",
        pages.entry_withdraw,
        name="entry-withdraw",
    ),
    path("<int:event_id>/start/", pages.event_start, name="start"),
    path("<int:event_id>/finish/", pages.event_finish, name="finish"),
    path("<int:event_id>/rounds/next/", pages.round_next, name="round-next"),
    path("<int:event_id>/rounds/close/", pages.round_close, name="round-close"),
    path(
        "<int:event_id>/tables/<str:section>/<int:round>/<int:table>/",
        pages.table_entry,
        name="table",
    ),
    path(
        "<int:event_id>/results/<int:result_id>/confirm/",
        director.result_confirm,
        name="result-confirm",
    ),
    path(
        "<int:event_id>/results/<int:result_id>/reject/",
        director.result_reject,
        name="result-reject",
    ),
    path("<int:event_id>/edit/", director.event_edit, name="edit"),
    path("<int:event_id>/hand-records/", director.hand_records, name="hand-records"),
    path("<int:event_id>/guide-cards/", director.guide_cards, name="guide-cards"),
]
