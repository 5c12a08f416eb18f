from django.urls import path

from tables.pages import challenges as pages_challenges
from tables.pages import tables as pages

app_name = "tables"

urlpatterns = [
    path("", pages.play_home, name="home"),
    path("tables/new/", pages.table_new, name="table-new"),
    path("tables/new/options/", pages.deal_options_fragment, name="deal-options"),
    path("tables/<int:table_id>/", pages.table_page, name="table"),
    path("tables/<int:table_id>/state/", pages.table_state, name="table-state"),
    path("tables/<int:table_id>/act/", pages.table_act, name="table-act"),
    path("tables/<int:table_id>/abandon/", pages.table_abandon, name="table-abandon"),
    path("tables/<int:table_id>/replay/", pages.replay_page, name="replay"),
    path(
        "tables/<int:table_id>/replay/frames.json",
        pages.replay_frames_json,
        name="replay-frames",
    ),
]

urlpatterns += [
    path("challenges/", pages_challenges.challenge_list, name="challenges"),
    path("challenges/new/", pages_challenges.challenge_new, name="challenge-new"),
    path("challenges/<int:challenge_id>/", pages_challenges.challenge_page, name="challenge"),
]
