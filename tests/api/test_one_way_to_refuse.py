"""Authorization and refusals have one way each, read from the views' source.

Who may do what is decided in the services and selectors, which raise
``arena.errors.NotAllowed`` (or ``NotFound`` where existence is hidden); every refusal is a
``ServiceError`` whose class carries the status. The API answers it through
``arena.errors.exception_handler`` and a page through ``RefusalPageMiddleware``. So no view
module (``<app>/api/``, ``<app>/pages/``, the sign-in) raises Django's or DRF's
PermissionDenied, DRF's NotFound or Throttled, names a refusal's status itself, or compares
the one asking with an owner, an organiser, a director or staff.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS = ("arena", "leagues", "tournaments", "tables", "robot_events", "home")
VIEW_MODULES = sorted(
    [path for app in APPS for part in ("api", "pages") for path in (ROOT / app / part).glob("*.py")]
    + [ROOT / "arena" / "signin.py"]
)

REFUSING_EXCEPTIONS = {
    ("django.core.exceptions", "PermissionDenied"),
    ("rest_framework.exceptions", "PermissionDenied"),
    ("rest_framework.exceptions", "NotFound"),
    ("rest_framework.exceptions", "Throttled"),
    # A page's "not found" is the site's refusal page even with DEBUG on (the demo's), where
    # Django would answer an Http404 with its technical page.
    ("django.http", "Http404"),
}
ALLOWED_IMPORTS = {
    # Django's authentication backend protocol: PermissionDenied from ``authenticate`` stops
    # the other backends. It is no answer to a request (the form shows the quota's refusal).
    ("arena/signin.py", "django.core.exceptions", "PermissionDenied"),
}
REFUSAL_STATUSES = {401, 403, 404, 409, 429, 503}
"""Statuses only the error hierarchy names (400 stays: a form drawn again with its field
errors answers 400 itself)."""
WHO_MAY = {"owner_id", "organiser_id", "director_id", "is_staff", "is_superuser", "has_perm"}
"""Attributes a view would read to decide who may do what."""


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _findings(path: Path) -> list[str]:
    return _findings_in(path.read_text(), _relative(path))


def _findings_in(source: str, name: str) -> list[str]:
    tree = ast.parse(source, filename=name)
    found = []
    for node in ast.walk(tree):
        where = f"{name}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            for alias in node.names:
                key = (node.module, alias.name)
                if key in REFUSING_EXCEPTIONS and (name, *key) not in ALLOWED_IMPORTS:
                    found.append(f"{where} imports {alias.name} from {node.module}")
        elif isinstance(node, ast.keyword) and node.arg in ("status", "status_code"):
            if isinstance(node.value, ast.Constant) and node.value.value in REFUSAL_STATUSES:
                found.append(f"{where} answers {node.value.value} by hand")
        elif isinstance(node, ast.Attribute):
            if node.attr.startswith("HTTP_4") and node.attr != "HTTP_400_BAD_REQUEST":
                found.append(f"{where} names {node.attr}")
            elif node.attr in WHO_MAY:
                found.append(f"{where} reads {node.attr}: who may do what is a service's call")
            elif node.attr == "status_code" and isinstance(node.ctx, ast.Store):
                found.append(f"{where} sets a status code by hand")
        elif isinstance(node, ast.ClassDef):
            for statement in node.body:
                if (
                    isinstance(statement, ast.Assign)
                    and any(
                        isinstance(target, ast.Name) and target.id == "permission_classes"
                        for target in statement.targets
                    )
                    and isinstance(statement.value, ast.List)
                ):
                    for item in statement.value.elts:
                        text = ast.unparse(item)
                        if text.rsplit(".", 1)[-1] not in ("AllowAny", "IsAuthenticated"):
                            found.append(f"{where} decides who may act in a view: {text}")
    return found


def test_the_view_modules_are_found() -> None:
    names = {_relative(path) for path in VIEW_MODULES}
    assert {"tournaments/api/views.py", "leagues/pages/leagues.py", "arena/signin.py"} <= names
    assert len(names) > 20


@pytest.mark.parametrize("path", VIEW_MODULES, ids=_relative)
def test_no_view_decides_who_may_act_or_maps_a_refusal_to_a_status(path: Path) -> None:
    assert _findings(path) == []


def test_the_check_sees_what_it_looks_for() -> None:
    """The check itself: each way of refusing in a view is caught."""
    probe = (
        "from rest_framework.exceptions import PermissionDenied\n"
        "from rest_framework import status\n"
        "def view(request, bot):\n"
        "    if bot.owner_id != request.user.pk:\n"
        "        raise PermissionDenied('no')\n"
        "    response = render(request, 'x.html', status=429)\n"
        "    response.status_code = 404\n"
        "    return Response(status=status.HTTP_403_FORBIDDEN)\n"
        "class Owned:\n"
        "    permission_classes = [IsOwner]\n"
    )
    found = sorted(finding.split(" ", 1)[1] for finding in _findings_in(probe, "probe.py"))
    assert found == sorted(
        [
            "imports PermissionDenied from rest_framework.exceptions",
            "reads owner_id: who may do what is a service's call",
            "answers 429 by hand",
            "sets a status code by hand",
            "names HTTP_403_FORBIDDEN",
            "decides who may act in a view: IsOwner",
        ]
    )
