"""The site's routes: each app's pages and API under its own namespace, the API's documents,
the admin and the accounts.

Every app keeps its routes in ``<app>/pages/urls.py`` (namespace ``<app>``) and
``<app>/api/urls.py`` (namespace ``<app>_api``); a route is reversed by its namespaced name,
``reverse("tables:table", args=[...])``.
"""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from arena.api import docs
from arena.pages import signin

urlpatterns = [
    # The web pages.
    path("", include("home.pages.urls")),
    path("", include("arena.pages.urls")),
    path("", include("leagues.pages.urls")),
    path("tournaments/", include("tournaments.pages.urls")),
    path("play/", include("tables.pages.urls")),
    path("robots/", include("robot_events.pages.urls")),
    path("tables/", include("lobby.pages.urls")),
    path("admin/", admin.site.urls),
    # Sign-in under the quota of failures (arena/pages/signin.py), ahead of Django's own login/.
    path("accounts/login/", signin.SignInView.as_view(), name="login"),
    # Session sign-in for the pages (login/, logout/, password change); the API keeps tokens.
    # Django's own views reverse these routes by their bare names, so they have no namespace.
    path("accounts/", include("django.contrib.auth.urls")),
    # The API and its documents.
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", docs.SwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/redoc/", docs.RedocView.as_view(url_name="schema"), name="redoc"),
    path("api/leagues/", include("leagues.api.urls")),
    path("api/tournaments/", include("tournaments.api.urls")),
    path("api/play/", include("tables.api.urls")),
    path("api/robots/", include("robot_events.api.urls")),
    path("api/lobby/", include("lobby.api.urls")),
    path("api/", include("arena.api.urls")),
]

# JSON error pages under /api/, the site's refusal page elsewhere (arena/errors.py).
handler400 = "arena.errors.bad_request"
handler403 = "arena.errors.permission_denied"
handler404 = "arena.errors.not_found"
handler500 = "arena.errors.server_error"
