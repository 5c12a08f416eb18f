"""Every app of the site is laid out the same way, as the README's layout section says.

A newcomer looking for a page, a route, a permission or an error finds it by one rule in
every app: pages in ``<app>/pages/`` (routes in its ``urls.py``, namespace ``<app>``), the
API in ``<app>/api/`` (routes in its ``urls.py``, namespace ``<app>_api``), templates in
``<app>/templates/<app>/``, and views nowhere else. These checks read the tree itself, so
a module that breaks the rule fails here before it confuses anyone.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.urls import URLResolver, get_resolver

ROOT = Path(settings.BASE_DIR)
README = (ROOT / "README.md").read_text(encoding="utf-8")


def project_apps() -> list[str]:
    """The site's own apps: those whose package lies in the project's tree."""
    return sorted(
        config.name
        for config in apps.get_app_configs()
        if Path(config.path).resolve().parent == ROOT.resolve()
    )


APPS = project_apps()


def layout_section() -> str:
    start = README.index("## Layout")
    end = README.index("\n## ", start + 1)
    return README[start:end]


def test_the_site_has_the_apps_the_readme_names() -> None:
    expected = ["arena", "home", "leagues", "lobby", "robot_events", "tables", "tournaments"]
    assert sorted(expected) == APPS
    section = layout_section()
    for app in APPS:
        assert f"`{app}/`" in section, f"the README's layout does not describe {app}/"


def _namespaces(resolver: URLResolver, found: dict[str, str]) -> dict[str, str]:
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            module = getattr(pattern.urlconf_module, "__name__", "")
            if pattern.app_name:
                found[module] = pattern.app_name
            _namespaces(pattern, found)
    return found


@pytest.mark.parametrize("app", APPS)
def test_an_apps_pages_and_api_are_routed_under_its_own_namespaces(app: str) -> None:
    routed = _namespaces(get_resolver(), {})
    pages = f"{app}.pages.urls"
    assert routed.get(pages) == app, f"{pages} must be included with app_name {app!r}"
    api = f"{app}.api.urls"
    if (ROOT / app / "api").is_dir():
        assert routed.get(api) == f"{app}_api", f"{api} must be included as {app}_api"
    # Every URL module of the app is one of the two.
    for module in routed:
        if module.startswith(f"{app}."):
            assert module in (pages, api), f"{module}: routes live in pages/ or api/"


VIEW_BASES = {"View", "APIView", "GenericAPIView", "ViewSet", "GenericViewSet", "ObtainAuthToken"}


def _views_in(path: Path) -> list[str]:
    """Names of the view functions and classes a module defines: functions that take a
    ``request`` and answer a response, and classes on one of Django's or DRF's view bases."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.args.args:
            answers = ast.unparse(node.returns) if node.returns else ""
            if node.args.args[0].arg == "request" and "Response" in answers:
                found.append(node.name)
        if isinstance(node, ast.ClassDef):
            bases = {getattr(base, "id", getattr(base, "attr", "")) for base in node.bases}
            if bases & VIEW_BASES or any(name.endswith(("View", "ViewSet")) for name in bases):
                found.append(node.name)
    return found


@pytest.mark.parametrize("app", APPS)
def test_views_live_in_an_apps_pages_or_api_package_alone(app: str) -> None:
    strays = []
    for path in sorted((ROOT / app).rglob("*.py")):
        relative = path.relative_to(ROOT / app)
        if relative.parts[0] in ("pages", "api", "migrations", "management", "templatetags"):
            continue
        # Helpers that take a request but answer none (who is asking, the client's address,
        # middleware, the error handlers, context processors) are plumbing, not views.
        if relative.parts[0] == "http" or relative.name in (
            "identity.py",
            "errors.py",
            "context_processors.py",
        ):
            continue
        strays += [f"{app}/{relative}: {name}" for name in _views_in(path)]
    assert not strays, f"views outside pages/ and api/: {strays}"


@pytest.mark.parametrize("app", APPS)
def test_an_apps_templates_and_static_files_sit_under_its_own_name(app: str) -> None:
    for kind in ("templates", "static"):
        folder = ROOT / app / kind
        if not folder.is_dir():
            continue
        names = sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))
        # Django's auth views look for their templates under registration/, whatever app.
        allowed = {app, "registration"} if kind == "templates" and app == "arena" else {app}
        assert set(names) <= allowed, f"{app}/{kind}/ holds {names}: only {app}/"


@pytest.mark.parametrize("app", APPS)
def test_an_app_renders_only_its_own_templates_and_the_site_frame(app: str) -> None:
    """A page of one app never draws another app's template, but for the frame and the
    shared parts the arena app gives every page (``arena/...``) and Django's registration."""
    wrong = []
    render = re.compile(r"""render\(\s*request,\s*f?["']([a-z_]+)/""")
    for path in sorted((ROOT / app).rglob("*.py")):
        for other in render.findall(path.read_text(encoding="utf-8")):
            if other not in (app, "arena", "registration"):
                wrong.append(f"{path.relative_to(ROOT)} renders {other}/")
    assert not wrong, wrong


def test_the_four_questions_have_their_answers_in_the_readme() -> None:
    section = layout_section()
    for question in ("Where is this page", "this route", "this permission", "this error"):
        assert question.lower() in section.lower(), f"the layout does not answer {question!r}"


@pytest.mark.parametrize("app", APPS)
def test_each_app_has_the_same_inside(app: str) -> None:
    """What every app that stores anything has, by the same names."""
    package = ROOT / app
    module = importlib.import_module(app)
    assert module.__doc__ or (package / "apps.py").is_file()
    for name in ("apps.py", "selectors.py", "pages/urls.py"):
        assert (package / name).exists(), f"{app}/{name} is missing"
    if (package / "models.py").exists():
        assert (package / "services.py").exists() or (package / "services").is_dir()
        assert (package / "migrations").is_dir()
