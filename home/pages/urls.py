"""Routes of the site's front pages: the home page and each player's page."""

from django.urls import URLPattern, path

from home.pages import home, players

app_name = "home"

urlpatterns: list[URLPattern] = [
    path("", home.home, name="index"),
    path("players/<str:username>/", players.player_detail, name="player"),
    path("players/<str:username>/token/", players.player_token, name="player-token"),
]
