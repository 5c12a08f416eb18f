from django.urls import path

from lobby.pages import replays
from lobby.pages import tables as pages

app_name = "lobby"

urlpatterns = [
    path("", pages.lobby, name="lobby"),
    path("new/", pages.new_table, name="new"),
    path("new/options/", pages.new_table_options, name="new-options"),
    path("<int:table_id>/", pages.table_page, name="table"),
    path("<int:table_id>/frame/", pages.table_frame, name="frame"),
    path("<int:table_id>/act/", pages.table_act, name="act"),
    path("<int:table_id>/talk/", pages.table_talk, name="talk"),
    path("<int:table_id>/sit/", pages.table_sit, name="sit"),
    path("<int:table_id>/leave/", pages.table_leave, name="leave"),
    path("<int:table_id>/fill/", pages.table_fill, name="fill"),
    path("<int:table_id>/join/<str:token>/", pages.join_page, name="join"),
    path("<int:table_id>/result/", pages.result_page, name="result"),
    path("<int:table_id>/hands/<int:number>/", replays.hand_replay, name="hand-replay"),
    path(
        "<int:table_id>/hands/<int:number>/frames.json",
        replays.hand_frames_json,
        name="hand-frames",
    ),
]
