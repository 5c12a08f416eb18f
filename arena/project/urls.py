from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView
from rest_framework.routers import DefaultRouter

from arena import api, api_docs, api_matches, signin

router = DefaultRouter()
router.register("players", api.PlayerViewSet, basename="player")
router.register("bots", api.BotViewSet, basename="bot")
router.register("matches", api_matches.MatchViewSet, basename="match")

urlpatterns = [
    # The web pages: the arena's, and those above it (home, players, leagues).
    path("", include("arena.pages.urls")),
    path("", include("leagues.pages.urls")),
    path("admin/", admin.site.urls),
    # Sign-in under the quota of failures (arena/signin.py), ahead of Django's own login/.
    path("accounts/login/", signin.SignInView.as_view(), name="login"),
    # Session sign-in for the pages (login/, logout/, password change); the API keeps tokens.
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/auth/token/", signin.TokenView.as_view(), name="api-token"),
    path("api/bots/<int:bot_id>/versions/", api.BotVersionListView.as_view(), name="bot-versions"),
    path(
        "api/bots/<int:bot_id>/versions/<int:number>/",
        api.BotVersionDetailView.as_view(),
        name="bot-version-detail",
    ),
    path(
        "api/bots/<int:bot_id>/versions/<int:number>/source/",
        api.BotVersionSourceView.as_view(),
        name="bot-version-source",
    ),
    path(
        "api/bots/<int:bot_id>/versions/<int:number>/ratings/",
        api_matches.RatingHistoryView.as_view(),
        name="bot-version-ratings",
    ),
    path("api/ratings/", api_matches.LeaderboardView.as_view(), name="ratings"),
    path("api/ratings/sprt/", api_matches.SprtView.as_view(), name="sprt"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", api_docs.SwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/redoc/", api_docs.RedocView.as_view(url_name="schema"), name="redoc"),
    path("api/leagues/", include("leagues.urls")),
    path("api/tournaments/", include("leagues.tournaments.urls")),
    path("tournaments/", include("leagues.tournaments.pages_urls")),
    path("play/", include("leagues.play.urls")),
    path("api/play/", include("leagues.play.api_urls")),
    path("api/robots/", include("leagues.robots.urls")),
    path("robots/", include("leagues.robots.pages_urls")),
    path("api/", include(router.urls)),
]

# JSON error pages under /api/ (arena/errors.py).
handler400 = "arena.errors.bad_request"
handler404 = "arena.errors.not_found"
handler500 = "arena.errors.server_error"
