"""Routes of the robot event pages, under /robots/ (the API is under /api/robots/)."""

from django.urls import URLPattern, URLResolver, path

from leagues.robots import pages

urlpatterns: list[URLPattern | URLResolver] = [
    path("", pages.event_list, name="robots-pages"),
    path("new/", pages.event_new, name="robots-page-new"),
    path("<int:event_id>/", pages.event_detail, name="robots-page"),
    path(
        "<int:event_id>/standings/live/", pages.standings_partial, name="robots-page-standings-live"
    ),
    path("<int:event_id>/boards/<int:number>/", pages.traveller, name="robots-page-traveller"),
    path("<int:event_id>/verification/", pages.verification, name="robots-page-verification"),
    path("<int:event_id>/join/", pages.join, name="robots-page-join"),
    path("<int:event_id>/next/", pages.play_next, name="robots-page-next"),
    path("<int:event_id>/close/", pages.close, name="robots-page-close"),
]
