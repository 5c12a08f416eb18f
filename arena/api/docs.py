"""The API's documentation: Swagger UI and ReDoc under the site's Content-Security-Policy,
and corrections to the generated schema for views whose model drf-spectacular cannot find.

Both pages are served offline from drf-spectacular-sidecar. Swagger UI keeps the strict
policy: its start-up script is served by the same view (`?script`) instead of inline, and
its page style is a static file. ReDoc renders through styled-components, which writes
`<style>` elements at run time and starts its search index in a `blob:` worker, so its page
alone allows inline styles and blob workers; it still runs no inline script.
"""

from __future__ import annotations

from typing import Any

from csp.decorators import csp_update
from django.utils.decorators import method_decorator
from drf_spectacular.extensions import OpenApiViewExtension
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerSplitView

from arena.models import BotVersion, Rating, RatingChange

REDOC_POLICY = {"style-src": ["'unsafe-inline'"], "worker-src": ["blob:"]}


class SwaggerView(SpectacularSwaggerSplitView):
    template_name = "arena/api_docs/swagger_ui.html"


@method_decorator(csp_update(REDOC_POLICY), name="dispatch")
class RedocView(SpectacularRedocView):
    template_name = "arena/api_docs/redoc.html"


# The views below build their querysets from the URL or the query string; the schema
# generator calls them without either, so each is told its model here (drf-spectacular's
# way for a view it cannot introspect). A renamed view makes the generator warn, and
# `check --deploy` (tests/deploy) fails on the warning.
# (drf-spectacular's __init_subclass__, which registers an extension, is not annotated.)


class BotVersionListSchema(OpenApiViewExtension):  # type: ignore[no-untyped-call]
    target_class = "arena.api.bots.BotVersionListView"

    def view_replacement(self) -> type[Any]:
        class Fixed(self.target_class):  # type: ignore[name-defined,misc]
            queryset = BotVersion.objects.none()

        return Fixed


class LeaderboardSchema(OpenApiViewExtension):  # type: ignore[no-untyped-call]
    target_class = "arena.api.matches.LeaderboardView"

    def view_replacement(self) -> type[Any]:
        class Fixed(self.target_class):  # type: ignore[name-defined,misc]
            queryset = Rating.objects.none()

        return Fixed


class RatingHistorySchema(OpenApiViewExtension):  # type: ignore[no-untyped-call]
    target_class = "arena.api.matches.RatingHistoryView"

    def view_replacement(self) -> type[Any]:
        class Fixed(self.target_class):  # type: ignore[name-defined,misc]
            def get_queryset(self) -> Any:
                return RatingChange.objects.none()

        return Fixed
