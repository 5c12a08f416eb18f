"""Routes under /api/play/: tables and challenges."""

from django.urls import path

from tables.api import challenges as api_challenges
from tables.api import tables as api

app_name = "tables_api"

urlpatterns = [
    path("tables/", api.TableListView.as_view(), name="tables"),
    path("tables/<int:table_id>/", api.TableDetailView.as_view(), name="table"),
    path(
        "tables/<int:table_id>/actions/",
        api.TableActionView.as_view(),
        name="table-actions",
    ),
    path(
        "tables/<int:table_id>/abandon/",
        api.TableAbandonView.as_view(),
        name="table-abandon",
    ),
    path("challenges/", api_challenges.ChallengeListView.as_view(), name="challenges"),
    path(
        "challenges/<int:challenge_id>/",
        api_challenges.ChallengeDetailView.as_view(),
        name="challenge",
    ),
]
