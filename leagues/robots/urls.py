"""Routes under /api/robots/."""

from django.urls import URLPattern, URLResolver, path

from leagues.robots import api

urlpatterns: list[URLPattern | URLResolver] = [
    path("", api.EventListView.as_view(), name="robots-list"),
    path("schedules/", api.ScheduleListView.as_view(), name="robots-schedules"),
    path("<int:event_id>/", api.EventDetailView.as_view(), name="robots-detail"),
    path("<int:event_id>/entries/", api.EntryListView.as_view(), name="robots-entries"),
    path("<int:event_id>/plays/", api.PlayListView.as_view(), name="robots-plays"),
    path("<int:event_id>/close/", api.EventCloseView.as_view(), name="robots-close"),
    path("<int:event_id>/standings/", api.StandingsView.as_view(), name="robots-standings"),
    path("<int:event_id>/boards/<int:number>/", api.BoardView.as_view(), name="robots-board"),
    path(
        "<int:event_id>/verification/", api.VerificationView.as_view(), name="robots-verification"
    ),
]
