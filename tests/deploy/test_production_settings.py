"""Production settings are safe: `check --deploy` is clean with the deployment's own
environment, and a production process really redirects, pins HTTPS and marks its cookies."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def deployment_environment(tmp_path: Path) -> dict[str, str]:
    """What a compose service sees: its `environment` plus the env file made from the example."""
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    environment = {
        key: str(value) for key, value in compose["services"]["web"]["environment"].items()
    }
    for line in (DEPLOY / "arena.env.example").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, value = line.partition("=")
            environment[name] = value
    environment["SECRET_KEY"] = secrets.token_urlsafe(50)
    return {
        "PATH": os.environ["PATH"],
        "ARENA_VAR_DIR": str(tmp_path),
        **environment,
    }


def run_django(code: str, environment: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**environment, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_check_deploy_finds_nothing_with_the_deployments_environment(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=deployment_environment(tmp_path),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout
    assert "Warning" not in result.stderr, result.stderr


_REQUESTS = """
import json, django
django.setup()
from django.test import Client
plain = Client().get("/accounts/login/", HTTP_HOST="arena.example.org")
proxied = Client().get(
    "/accounts/login/", HTTP_HOST="arena.example.org", HTTP_X_FORWARDED_PROTO="https"
)
print(json.dumps({
    "plain": [plain.status_code, plain.get("Location")],
    "proxied": proxied.status_code,
    "hsts": proxied.get("Strict-Transport-Security"),
    "csrf_cookie_secure": bool(proxied.cookies["csrftoken"]["secure"]),
}))
"""


def test_a_production_process_sends_plain_http_to_https_and_pins_it(tmp_path: Path) -> None:
    result = run_django(_REQUESTS, deployment_environment(tmp_path))
    assert result.returncode == 0, result.stderr
    answers = json.loads(result.stdout.splitlines()[-1])
    assert answers["plain"] == [301, "https://arena.example.org/accounts/login/"]
    assert answers["proxied"] == 200
    assert answers["hsts"] == "max-age=31536000; includeSubDomains; preload"
    assert answers["csrf_cookie_secure"] is True


@pytest.mark.parametrize(
    "secret_key", ["short-but-not-empty", "ab" * 40], ids=["too-short", "too-few-characters"]
)
def test_a_production_process_refuses_a_weak_secret_key(tmp_path: Path, secret_key: str) -> None:
    environment = {**deployment_environment(tmp_path), "SECRET_KEY": secret_key}
    result = run_django("import django; django.setup()", environment)
    assert result.returncode != 0
    assert "SECRET_KEY must be at least 50 characters with at least 5 different ones" in (
        result.stderr
    )


def test_https_settings_cannot_be_combined_with_debug(tmp_path: Path) -> None:
    environment = {**deployment_environment(tmp_path), "DEBUG": "true"}
    result = run_django("import django; django.setup()", environment)
    assert result.returncode != 0
    assert "ARENA_HTTPS=true is for production: it needs DEBUG off" in result.stderr


def test_with_debug_on_the_demo_answers_plain_http(tmp_path: Path) -> None:
    code = (
        "import django; django.setup()\n"
        "from django.test import Client\n"
        "print(Client().get('/accounts/login/', HTTP_HOST='127.0.0.1').status_code)\n"
    )
    result = run_django(
        code, {"PATH": os.environ["PATH"], "ARENA_VAR_DIR": str(tmp_path), "DEBUG": "true"}
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-1] == "200"


def test_every_page_carries_the_strict_content_security_policy(client: Client) -> None:
    policy = client.get("/accounts/login/")["Content-Security-Policy"]
    directives = {}
    for piece in policy.split(";"):
        name, _, value = piece.strip().partition(" ")
        directives[name] = value
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy
