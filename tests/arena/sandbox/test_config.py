"""Sandbox settings parse strictly: a bad value is an error, never a silent default."""

from __future__ import annotations

import pytest

from arena.sandbox import GIB, MIB, ConfigError, Limits, SandboxConfig


def test_it_parses_flat_settings_with_units() -> None:
    config = SandboxConfig.from_mapping(
        {
            "bot_user": "arena-bot",
            "memory_bytes": "1GiB",
            "fsize_bytes": "8m",
            "tmpfs_bytes": 1024,
            "pids": "32",
            "decision_s": "0.5",
            "time_bank_s": 30,
            "runtime_packages": "/srv/engine, /srv/bots",
        }
    )
    assert config.bot_user == "arena-bot"
    assert config.limits.memory_bytes == GIB
    assert config.limits.fsize_bytes == 8 * MIB
    assert config.limits.tmpfs_bytes == 1024
    assert config.limits.pids == 32
    assert config.limits.decision_s == 0.5
    assert config.limits.time_bank_s == 30.0
    assert config.runtime_packages == ("/srv/engine", "/srv/bots")
    assert config.limits.startup_s == Limits().startup_s


def test_an_empty_mapping_gives_the_defaults() -> None:
    assert SandboxConfig.from_mapping({}) == SandboxConfig()


@pytest.mark.parametrize(
    ("values", "complaint"),
    [
        ({"memory": "1G"}, "unknown sandbox setting 'memory'"),
        ({"pids": "many"}, "pids: expected a whole number"),
        ({"pids": "1.5"}, "pids: expected a whole number"),
        ({"pids": True}, "pids: expected a number"),
        ({"pids": "0"}, "pids must be positive"),
        ({"memory_bytes": "1 TB"}, "memory_bytes: expected a size"),
        ({"decision_s": "soon"}, "decision_s: expected a number of seconds"),
        ({"decision_s": "nan"}, "decision_s must be positive"),
        ({"decision_s": "-1"}, "decision_s must be positive"),
        ({"interpreter": "python3"}, "interpreter must be an absolute path"),
        ({"interpreter": "/opt/python3"}, "must live under /usr"),
        ({"bot_user": "root"}, "unprivileged"),
        ({"cgroup_parent": "../escape"}, "relative path inside the controller"),
        ({"bot_user": 7}, "bot_user: expected text"),
        ({"limits": "x"}, "unknown sandbox setting 'limits'"),
    ],
)
def test_it_rejects_bad_settings(values: dict[str, object], complaint: str) -> None:
    with pytest.raises(ConfigError, match=complaint):
        SandboxConfig.from_mapping(values)


def test_config_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        Limits(pids=-1)


def test_configs_are_frozen() -> None:
    config = SandboxConfig()
    with pytest.raises(AttributeError):
        config.bot_user = "root"  # type: ignore[misc]
