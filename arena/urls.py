from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView
from rest_framework.authtoken.views import obtain_auth_token
from rest_framework.routers import DefaultRouter

from arena import api, api_docs, api_matches, pages

router = DefaultRouter()
router.register("players", api.PlayerViewSet, basename="player")
router.register("bots", api.BotViewSet, basename="bot")
router.register("matches", api_matches.MatchViewSet, basename="match")

urlpatterns = [
    path("", pages.index, name="index"),
    path("admin/", admin.site.urls),
    # Session sign-in for the pages (login/, logout/, password change); the API keeps tokens.
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/auth/token/", obtain_auth_token, name="api-token"),
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
    path("api/", include(router.urls)),
]
