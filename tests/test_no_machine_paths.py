"""No tracked file names a location of the machine it was written on.

A path such as a checkout directory, a home directory or a scratch file under /tmp works
on its author's machine and nowhere else (or, worse, finds a stale copy there). Project
files locate each other relative to themselves (``Path(__file__).resolve().parents[...]``);
well-known system paths (``/usr/bin/chromium``, ``/proc``, ``/etc``, ``/dev``,
``/var/lib/redis``...) are the same on every host of the project's kind and are allowed.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests.conftest import skip_or_fail

ROOT = Path(__file__).resolve().parents[1]
THIS_FILE = Path(__file__).resolve().relative_to(ROOT).as_posix()

# A path starts a token: not in the middle of a URL, a relative path or a word.
_START = r"(?<![\w.~/:-])"
_TAIL = r"[^\s'\"`()<>\[\]{},;]*"

AUTHOR_LOCATIONS = re.compile(
    _START + r"(?:/work|/root|/home/[\w.-]+|/Users/[\w.-]+|/mnt|/media|/var/tmp)(?=/|\b)" + _TAIL
)
"""Roots that only ever hold somebody's own files: checkouts, homes, mounted disks."""

TMP_PATH = re.compile(_START + r"/tmp/" + _TAIL)

ALLOWED_TMP = {
    "/tmp/pinochle-decoy-": "a decoy socket a sandbox test creates under a fresh random name",
    "/tmp/big": "a file inside the bot's private /tmp in the sandbox, never the host's",
    "/tmp/evil.py": "an absolute entry name inside a hostile zip, refused at upload",
}
"""Scratch paths that are not the author's machine, each with the reason it is fine."""


def tracked_files() -> list[str]:
    try:
        listing = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        skip_or_fail(f"the tracked files cannot be listed (no git checkout?): {error}")
    return [name for name in listing.decode().split("\0") if name and name != THIS_FILE]


def machine_locations() -> list[str]:
    """Where this checkout and this user's home are on the machine running the test."""
    locations = {str(ROOT), str(Path.home())}
    return sorted(location for location in locations if location.count("/") >= 2)


def machine_paths_in(text: str, locations: list[str]) -> list[str]:
    found = [match.group(0) for match in AUTHOR_LOCATIONS.finditer(text)]
    found += [
        match.group(0)
        for match in TMP_PATH.finditer(text)
        if not any(match.group(0).startswith(allowed) for allowed in ALLOWED_TMP)
    ]
    found += [location for location in locations if location in text]
    return found


def _path(*parts: str) -> str:
    """An absolute path built from its parts, so that this file names none itself."""
    return "/" + "/".join(parts)


def test_the_scanner_finds_the_paths_it_is_meant_to_find() -> None:
    notes = _path("work", "shared", "SANDBOX.md")
    cache = _path("root", ".cache", "x")
    home = _path("home", "dora", "bots", "mine.py")
    mac = _path("Users", "dora", "src")
    text = f"see {notes}, ({cache}) '{home}' /tmp/pytest-of-root/run1 and {mac}"
    assert machine_paths_in(text, []) == [notes, cache, home, mac, "/tmp/pytest-of-root/run1"]
    assert machine_paths_in("cd /srv/checkout && ls", ["/srv/checkout"]) == ["/srv/checkout"]


def test_the_scanner_lets_system_paths_urls_and_relative_paths_pass() -> None:
    text = (
        "/usr/bin/chromium /proc/1/environ /sys/fs/cgroup /etc/shadow /dev/shm "
        "/var/lib/redis https://example.org/work/x api/work/ ../root/x /tmp /tmp/big "
        "a-long-test/home/x"
    )
    assert machine_paths_in(text, []) == []


def test_no_tracked_file_names_a_path_of_this_machine() -> None:
    locations = machine_locations()
    offenders = []
    for name in tracked_files():
        path = ROOT / name
        if not path.is_file():
            continue  # deleted in the working tree, not yet in the index
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # binary: images, archives
        for number, line in enumerate(text.splitlines(), start=1):
            offenders += [
                f"{name}:{number}: {found}" for found in machine_paths_in(line, locations)
            ]
    assert offenders == [], "\n".join(offenders)
