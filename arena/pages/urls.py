"""Routes of the arena's pages."""

from django.templatetags.static import static
from django.urls import URLPattern, path
from django.views.generic import RedirectView

from arena.pages import (
    bots,
    controls,
    leaderboards,
    matches,
    notices,
    protocol,
    replay,
    signup,
    sprt,
)

app_name = "arena"

urlpatterns: list[URLPattern] = [
    # Sign-up beside Django's sign-in pages under accounts/ (their routes are in config/urls.py).
    path("accounts/signup/", signup.signup, name="signup"),
    path("leaderboards/<str:variant>/", leaderboards.leaderboard, name="leaderboard"),
    path("bots/new/", bots.bot_new, name="bot-new"),
    path("bots/<int:bot_id>/", bots.bot_detail, name="bot"),
    path("bots/<int:bot_id>/versions/", bots.bot_version_upload, name="bot-version-upload"),
    # What a bot's page and a match's page refresh while they wait (polled by the page).
    path("bots/<int:bot_id>/live/", bots.bot_live, name="bot-live"),
    path("bots/<int:bot_id>/challenge/", bots.bot_challenge, name="bot-challenge"),
    path("matches/", matches.match_list, name="matches"),
    path("matches/<int:match_id>/", matches.match_detail, name="match"),
    path("matches/<int:match_id>/live/", matches.match_live, name="match-live"),
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
    path("ratings/controls/", controls.controls, name="controls"),
    path("notices/", notices.notice_list, name="notices"),
    path("protocol/", protocol.protocol, name="protocol"),
    # Browsers ask for /favicon.ico on pages that name no icon (the browsable API's).
    path(
        "favicon.ico",
        RedirectView.as_view(url=static("arena/favicon.svg"), permanent=True),
        name="favicon",
    ),
]
