from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.authtoken.views import obtain_auth_token
from rest_framework.routers import DefaultRouter

from arena import api, pages

router = DefaultRouter()
router.register("players", api.PlayerViewSet, basename="player")
router.register("bots", api.BotViewSet, basename="bot")

urlpatterns = [
    path("", pages.index, name="index"),
    path("admin/", admin.site.urls),
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
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="redoc"),
    path("api/", include(router.urls)),
]
