"""The notices page: what a person was waiting on that has happened (arena/notices.py)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from arena import notices


@login_required
@require_http_methods(["GET", "POST"])
def notice_list(request: HttpRequest) -> HttpResponse:
    assert request.user.pk is not None
    if request.method == "POST":
        notices.mark_read(user_id=request.user.pk)
        return redirect("arena:notices")
    shown = list(notices.notices_of(user_id=request.user.pk))
    unread = sum(1 for notice in shown if notice.read is None)
    return render(request, "arena/notices.html", {"notices": shown, "unread": unread})
