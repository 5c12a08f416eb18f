"""Routes under /api/play/."""

from django.urls import path

from leagues.play import api

urlpatterns = [
    path("tables/", api.TableListView.as_view(), name="play-api-tables"),
    path("tables/<int:table_id>/", api.TableDetailView.as_view(), name="play-api-table"),
    path(
        "tables/<int:table_id>/actions/",
        api.TableActionView.as_view(),
        name="play-api-table-actions",
    ),
]
