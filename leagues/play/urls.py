from django.urls import path

from leagues.play import pages, pages_challenges

urlpatterns = [
    path("", pages.play_home, name="play"),
    path("tables/new/", pages.table_new, name="play-table-new"),
    path("tables/new/options/", pages.deal_options_fragment, name="play-deal-options"),
    path("tables/<int:table_id>/", pages.table_page, name="play-table"),
    path("tables/<int:table_id>/state/", pages.table_state, name="play-table-state"),
    path("tables/<int:table_id>/act/", pages.table_act, name="play-table-act"),
    path("tables/<int:table_id>/abandon/", pages.table_abandon, name="play-table-abandon"),
    path("tables/<int:table_id>/replay/", pages.replay_page, name="play-replay"),
    path(
        "tables/<int:table_id>/replay/frames.json",
        pages.replay_frames_json,
        name="play-replay-frames",
    ),
]

urlpatterns += [
    path("challenges/", pages_challenges.challenge_list, name="play-challenges"),
    path("challenges/new/", pages_challenges.challenge_new, name="play-challenge-new"),
    path("challenges/<int:challenge_id>/", pages_challenges.challenge_page, name="play-challenge"),
]
