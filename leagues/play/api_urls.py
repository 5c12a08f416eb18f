"""Routes under /api/play/: tables and challenges."""

from django.urls import path

from leagues.play import api, api_challenges

urlpatterns = [
    path("tables/", api.TableListView.as_view(), name="play-api-tables"),
    path("tables/<int:table_id>/", api.TableDetailView.as_view(), name="play-api-table"),
    path(
        "tables/<int:table_id>/actions/",
        api.TableActionView.as_view(),
        name="play-api-table-actions",
    ),
    path(
        "tables/<int:table_id>/abandon/",
        api.TableAbandonView.as_view(),
        name="play-api-table-abandon",
    ),
    path("challenges/", api_challenges.ChallengeListView.as_view(), name="play-api-challenges"),
    path(
        "challenges/<int:challenge_id>/",
        api_challenges.ChallengeDetailView.as_view(),
        name="play-api-challenge",
    ),
]
