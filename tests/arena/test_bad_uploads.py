"""Every refused upload gets a 400 saying why, and nothing is stored."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from arena.models import Bot, BotVersion
from arena.uploads import MAX_ARCHIVE_BYTES, MAX_MODULE_BYTES
from tests.arena.conftest import GOOD_BOT


def _zip(entries: dict[str, bytes], *, symlink: str | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, content in entries.items():
            archive.writestr(name, content)
        if symlink is not None:
            info = zipfile.ZipInfo(symlink)
            info.external_attr = 0o120777 << 16
            archive.writestr(info, "/etc/passwd")
    return buffer.getvalue()


BAD_UPLOADS = {
    "too large": ("bot.py", b"x = 1\n" * (MAX_MODULE_BYTES // 6 + 1), "limit"),
    "not UTF-8": ("bot.py", "x = 'caf\u00e9'\n".encode("latin-1"), "UTF-8"),
    "binary": ("bot.py", b"\x7fELF\x02\x01\x01\x00\x00\x00", "binary"),
    "syntax error": ("bot.py", b"def act(:\n    pass\n", "does not compile"),
    "not python": ("bot.txt", GOOD_BOT, "neither"),
    "zip with path traversal": (
        "bot.zip",
        _zip({"bot.py": GOOD_BOT, "../evil.py": GOOD_BOT}),
        "..",
    ),
    "zip with absolute path": (
        "bot.zip",
        _zip({"bot.py": GOOD_BOT, "/tmp/evil.py": GOOD_BOT}),
        "absolute",
    ),
    "zip without bot.py": ("bot.zip", _zip({"main.py": GOOD_BOT}), "bot.py"),
    "zip with a symlink": ("bot.zip", _zip({"bot.py": GOOD_BOT}, symlink="link"), "symbolic link"),
    "zip with a broken module": (
        "bot.zip",
        _zip({"bot.py": GOOD_BOT, "lib.py": b"def (\n"}),
        "lib.py",
    ),
    "corrupt zip": ("bot.zip", b"PK\x03\x04" + b"\x00" * 40, "zip"),
    "zip too large": ("bot.zip", b"PK\x03\x04" + b"\x00" * MAX_ARCHIVE_BYTES, "limit"),
}


@pytest.mark.parametrize("case", sorted(BAD_UPLOADS))
def test_a_bad_multipart_upload_is_refused_with_its_reason(
    case: str, alice_client: APIClient, alices_bot: Bot
) -> None:
    filename, content, reason = BAD_UPLOADS[case]
    response = alice_client.post(
        f"/api/bots/{alices_bot.pk}/versions/",
        {"file": SimpleUploadedFile(filename, content)},
        format="multipart",
    )
    assert response.status_code == 400, response.content
    assert reason in response.json()["detail"], response.json()
    assert not BotVersion.objects.exists()


def test_an_empty_file_is_refused(alice_client: APIClient, alices_bot: Bot) -> None:
    response = alice_client.post(
        f"/api/bots/{alices_bot.pk}/versions/",
        {"file": SimpleUploadedFile("bot.py", b"")},
        format="multipart",
    )
    assert response.status_code == 400
    assert "empty" in str(response.json())
    assert not BotVersion.objects.exists()


def test_an_empty_source_text_is_refused(alice_client: APIClient, alices_bot: Bot) -> None:
    response = alice_client.post(
        f"/api/bots/{alices_bot.pk}/versions/", {"source": "   \n"}, format="json"
    )
    assert response.status_code == 400
    assert "no code" in response.json()["detail"]
    assert not BotVersion.objects.exists()


def test_sending_both_file_and_source_is_refused(alice_client: APIClient, alices_bot: Bot) -> None:
    response = alice_client.post(
        f"/api/bots/{alices_bot.pk}/versions/",
        {"file": SimpleUploadedFile("bot.py", GOOD_BOT), "source": "x = 1"},
        format="multipart",
    )
    assert response.status_code == 400
    assert "exactly one" in str(response.json())


def test_a_good_zip_with_a_package_is_accepted(alice_client: APIClient, alices_bot: Bot) -> None:
    archive = _zip({"bot.py": b"from helpers import util\n", "helpers/util.py": b"X = 1\n"})
    response = alice_client.post(
        f"/api/bots/{alices_bot.pk}/versions/",
        {"file": SimpleUploadedFile("mybot.zip", archive)},
        format="multipart",
    )
    assert response.status_code == 201, response.content
    assert response.json()["kind"] == "zip"
    assert "helpers/util.py" in response.json()["build_log"]
