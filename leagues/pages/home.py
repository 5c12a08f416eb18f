"""The home page: what the arena is, how to start, leaderboards, matches, leagues."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from leagues import selectors


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "leagues/home.html", {"page": selectors.home_page()})
