"""Challenge pages: create a short duplicate match against a bot, follow it, see its result."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from arena.errors import ServiceError, TooManyAttempts, form_refused
from engine.registry import load_game
from tables import challenges
from tables.challenge_boards import MAX_BOARDS
from tables.errors import BadTable
from tables.models import Challenge, PlayTable
from tables.pages.forms import VariantForm, deal_options
from tables.pages.tables import bot_spec
from tables.throttles import PLAY_CHALLENGES


def _list_context(request: HttpRequest, error: str = "") -> dict[str, object]:
    # The ratings shown (?variant=) and the variant the start form offers bots for (the
    # one posted, after a refusal) are read separately: one is a GET, the other a POST.
    shown = VariantForm(request.GET).chosen()
    form = VariantForm(request.POST or {"variant": shown})
    return {
        "variants": form.offered,
        "variant": shown,
        "options": deal_options(form.chosen()),
        "max_boards": MAX_BOARDS,
        "expires_hours": _hours(settings.PLAY_CHALLENGE_EXPIRES_S),
        "board_choices": range(1, MAX_BOARDS + 1),
        "challenges": challenges.challenges_of(viewer=request.user)[:20],
        "ratings": challenges.challenge_ratings(variant=shown),
        "error": error,
    }


@require_GET
def challenge_list(request: HttpRequest) -> HttpResponse:
    return render(request, "tables/challenges.html", _list_context(request))


@login_required
@require_POST
def challenge_new(request: HttpRequest) -> HttpResponse:
    raw_boards = request.POST.get("boards", "")
    try:
        # Only an accepted challenge keeps its slot (a refused one hands it back).
        with PLAY_CHALLENGES.spend(request):
            if not raw_boards.isdigit():
                raise BadTable(
                    f"boards is a whole number from 1 to {MAX_BOARDS}, not {raw_boards!r}"
                )
            challenge = challenges.challenge_create(
                owner=request.user,  # type: ignore[arg-type]
                variant=request.POST.get("variant", ""),
                opponent=bot_spec(request.POST.get("opponent", "")),
                boards=int(raw_boards),
            )
    except ServiceError as refusal:
        # The challenge form again, as posted, with the refusal above it.
        message = (
            f"too many challenges: try again in {refusal.wait} seconds"
            if isinstance(refusal, TooManyAttempts)
            else refusal.message
        )
        context = _list_context(request, message)
        return form_refused(render(request, "tables/challenges.html", context), refusal)
    return redirect("tables:challenge", challenge.pk)


@require_GET
def challenge_page(request: HttpRequest, challenge_id: int) -> HttpResponse:
    challenge = challenges.challenge_for(challenge_id=challenge_id, viewer=request.user)
    challenge = challenges.challenge_settle(challenge_id=challenge.pk)
    rows = challenges.challenge_tables(challenge)
    boards = challenges.board_rows(challenge)
    context = {
        "challenge": challenge,
        "two_tables": challenge.format == Challenge.Format.TWO_TABLES,
        "partnership": load_game(challenge.variant).partnership,
        "seat_names": load_game(challenge.variant).seat_names,
        "rows": rows,
        "boards": boards,
        "next_table": challenges.next_table(challenge),
        "opponent": challenges.opponent_key(challenge.opponent),
        "results": list(enumerate(challenge.board_results, start=1)),
        "played": sum(1 for row in rows if row.play_table.is_over),
        "total": challenges.tables_total(challenge),
        # Boards whose human table is over and whose bot-only table is still being played.
        "comparing": [
            board["board"]
            for board in boards
            if board["status"] in ("finished", "abandoned") and board["comparison"] is None
        ],
        "expired": any(_fault_kind(row.play_table) == "expired" for row in rows),
        "expires_hours": _hours(settings.PLAY_CHALLENGE_EXPIRES_S),
    }
    return render(request, "tables/challenge.html", context)


def _fault_kind(table: PlayTable) -> str | None:
    fault = None if table.result is None else table.result.get("fault")
    return None if fault is None else str(fault["kind"])


def _hours(seconds: int) -> str:
    """A duration as the page says it: "24 hours", "90 minutes"."""
    if seconds % 3600 == 0:
        hours = seconds // 3600
        return f"{hours} hour{'s' if hours != 1 else ''}"
    minutes = max(1, round(seconds / 60))
    return f"{minutes} minute{'s' if minutes != 1 else ''}"
