"""Routes of the arena's pages."""

from django.templatetags.static import static
from django.urls import URLPattern, path
from django.views.generic import RedirectView

from arena.pages import bots, leaderboards, matches, notices, protocol, replay, signup, sprt

app_name = "arena"

urlpatterns: list[URLPattern] = [
    # Sign-up beside Django's sign-in pages under accounts/ (their routes are in config/urls.py).
    path("accounts/signup/", signup.signup, name="signup"),
    path("leaderboards/<str:variant>/", leaderboards.leaderboard, name="leaderboard"),
    path("bots/new/", bots.bot_new, name="bot-new"),
    path("bots/<int:bot_id>/", bots.bot_detail, name="bot"),
    path("bots/<int:bot_id>/versions/", bots.bot_version_upload, name="bot-version-upload"),
    path("matches/", matches.match_list, name="matches"),
    path("matches/<int:match_id>/", matches.match_detail, name="match"),
    # The replay viewer: one table of one board, step by step, and its frames.
    path(
        "matches/<int:match_id>/boards/<int:board>/tables/<str:table>/",
        replay.replay_page,
        name="replay",
    ),
    path(
        "matches/<int:match_id>/boards/<int:board>/tables/<str:table>/frames.json",
        replay.replay_frames_json,
        name="replay-frames",
    ),
    path("ratings/sprt/", sprt.sprt, name="sprt"),
    path("notices/", notices.notice_list, name="notices"),
    path("protocol/", protocol.protocol, name="protocol"),
    # Browsers ask for /favicon.ico on pages that name no icon (the browsable API's).
    path(
        "favicon.ico",
        RedirectView.as_view(url=static("arena/favicon.svg"), permanent=True),
        name="favicon",
    ),
]
