"""Settings come from the environment and are parsed strictly."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from config import settings as settings_module
from config.env import env_bool, env_int, env_list, env_rate, env_url

ROOT = Path(__file__).resolve().parents[2]


def test_a_misspelt_boolean_is_an_error_not_false() -> None:
    with pytest.raises(ImproperlyConfigured, match="DEBUG='ture' is not a boolean"):
        env_bool("DEBUG", False, env={"DEBUG": "ture"})
    assert env_bool("DEBUG", False, env={"DEBUG": "Yes"}) is True
    assert env_bool("DEBUG", True, env={}) is True


def test_integers_lists_and_urls_are_checked() -> None:
    with pytest.raises(ImproperlyConfigured, match="not an integer"):
        env_int("N", 1, env={"N": "ten"})
    with pytest.raises(ImproperlyConfigured, match="below the minimum"):
        env_int("N", 1, minimum=0, env={"N": "-1"})
    with pytest.raises(ImproperlyConfigured, match="empty item"):
        env_list("ALLOWED_HOSTS", [], env={"ALLOWED_HOSTS": "a,,b"})
    with pytest.raises(ImproperlyConfigured, match="schemes"):
        env_url("DATABASE_URL", schemes=("postgres",), env={"DATABASE_URL": "mysql://x/y"})
    assert env_list("ALLOWED_HOSTS", [], env={"ALLOWED_HOSTS": "a.example, b.example"}) == [
        "a.example",
        "b.example",
    ]


def test_a_malformed_rate_is_an_error_naming_its_variable() -> None:
    with pytest.raises(ImproperlyConfigured, match=r"UPLOAD_RATE='twenty/hour': a rate is N/pe"):
        env_rate("UPLOAD_RATE", "30/hour", env={"UPLOAD_RATE": "twenty/hour"})
    with pytest.raises(ImproperlyConfigured, match=r"VERIFY_RATE=.3/0m.: .* zero long"):
        env_rate("VERIFY_RATE", "30/hour", env={"VERIFY_RATE": "3/0m"})
    assert env_rate("VERIFY_RATE", "30/hour", env={"VERIFY_RATE": " 10/15m "}) == "10/15m"
    assert env_rate("VERIFY_RATE", "30/hour", env={}) == "30/hour"


RATE_SETTINGS = sorted(name for name in dir(settings) if re.search(r"_RATE(_|$)", name))


def _settings_loaded() -> object:
    """config/settings.py executed afresh, as a process starting would, under another
    name."""
    spec = importlib.util.spec_from_file_location("settings_at_start", settings_module.__file__)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_rate_settings_are_found() -> None:
    assert {"UPLOAD_RATE", "CHALLENGE_RATE_PER_IP", "VERIFY_RATE"} <= set(RATE_SETTINGS)


@pytest.mark.parametrize("name", RATE_SETTINGS)
def test_every_rate_setting_is_checked_at_start_up(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(name, "often")
    with pytest.raises(ImproperlyConfigured, match=f"^{name}='often': a rate is N/period"):
        _settings_loaded()
    monkeypatch.setenv(name, "7/2h")
    assert getattr(_settings_loaded(), name) == "7/2h"


_PRINT_SETTINGS = (
    "import config.settings as s; "
    "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER)"
)


def _load_settings(**overrides: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key not in {"SECRET_KEY", "DEBUG"}}
    env.update(overrides)
    return subprocess.run(
        [
            sys.executable,
            "-c",
            _PRINT_SETTINGS,
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_secret_key_is_required_when_debug_is_off() -> None:
    result = _load_settings(DEBUG="false")
    assert result.returncode != 0
    assert "SECRET_KEY is required when DEBUG is off" in result.stderr


def test_the_embedded_defaults_are_sqlite_and_in_process_tasks() -> None:
    result = _load_settings(DEBUG="true", DATABASE_URL="", REDIS_URL="", CELERY_BROKER_URL="")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["django.db.backends.sqlite3", "True"]


def test_a_broker_url_switches_tasks_to_the_broker() -> None:
    result = _load_settings(
        SECRET_KEY="k",
        DATABASE_URL="postgres://u@127.0.0.1:5432/arena",
        REDIS_URL="redis://127.0.0.1:6379/0",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["django.db.backends.postgresql", "False"]


def test_the_project_root_is_the_folder_that_holds_the_runtime_packages() -> None:
    # The sandbox copies engine/ and bots/ from BASE_DIR into each bot's runtime, and the
    # default var/ lies beside them: a root one folder off fails every bot at start.
    assert settings.BASE_DIR == ROOT
    assert all((settings.BASE_DIR / name / "__init__.py").is_file() for name in ("engine", "bots"))
