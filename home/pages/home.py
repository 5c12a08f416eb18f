"""The home page: what the arena is, how to start, leaderboards, matches, leagues."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from home import selectors


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home/home.html", {"page": selectors.home_page()})
