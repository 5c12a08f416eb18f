"""Routes of the robot event pages, under /robots/ (the API is under /api/robots/)."""

from django.urls import URLPattern, URLResolver, path

from robot_events.pages import views as pages

app_name = "robot_events"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", pages.event_list, name="list"),
    path("new/", pages.event_new, name="new"),
    path("schedules/", pages.schedules, name="schedules"),
    path("schedules/<int:schedule_id>/running/", pages.schedule_running, name="schedule-running"),
    path("schedules/<int:schedule_id>/remove/", pages.schedule_remove, name="schedule-remove"),
    path("<int:event_id>/", pages.event_detail, name="event"),
    path("<int:event_id>/standings/live/", pages.standings_partial, name="standings-live"),
    path("<int:event_id>/boards/<int:number>/", pages.traveller, name="traveller"),
    path("<int:event_id>/verification/", pages.verification, name="verification"),
    path("<int:event_id>/join/", pages.join, name="join"),
    path("<int:event_id>/next/", pages.play_next, name="next"),
    path("<int:event_id>/close/", pages.close, name="close"),
]
