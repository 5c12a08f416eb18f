"""Routes under /api/lobby/: card tables for people."""

from django.urls import URLPattern, URLResolver, path

from lobby.api import views as api

app_name = "lobby_api"

urlpatterns: list[URLPattern | URLResolver] = [
    path("tables/", api.TableListView.as_view(), name="tables"),
    path("tables/<int:table_id>/", api.TableDetailView.as_view(), name="table"),
    path("tables/<int:table_id>/sit/", api.SitView.as_view(), name="sit"),
    path("tables/<int:table_id>/leave/", api.LeaveView.as_view(), name="leave"),
    path("tables/<int:table_id>/fill/", api.FillView.as_view(), name="fill"),
    path("tables/<int:table_id>/act/", api.ActView.as_view(), name="act"),
    path("tables/<int:table_id>/talk/", api.TalkView.as_view(), name="talk"),
]
