"""Routes under /api/robots/."""

from django.urls import URLPattern, URLResolver, path

from robot_events.api import views as api

app_name = "robot_events_api"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", api.EventListView.as_view(), name="list"),
    path("schedules/", api.ScheduleListView.as_view(), name="schedules"),
    path("schedules/<int:schedule_id>/", api.ScheduleDetailView.as_view(), name="schedule"),
    path("<int:event_id>/", api.EventDetailView.as_view(), name="detail"),
    path("<int:event_id>/entries/", api.EntryListView.as_view(), name="entries"),
    path("<int:event_id>/plays/", api.PlayListView.as_view(), name="plays"),
    path("<int:event_id>/close/", api.EventCloseView.as_view(), name="close"),
    path("<int:event_id>/standings/", api.StandingsView.as_view(), name="standings"),
    path("<int:event_id>/boards/<int:number>/", api.BoardView.as_view(), name="board"),
    path("<int:event_id>/verification/", api.VerificationView.as_view(), name="verification"),
]
