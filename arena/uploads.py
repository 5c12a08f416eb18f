"""Checks on an uploaded bot before anything is stored.

A bot arrives as a single Python module or as a zip archive whose entry point is
``bot.py`` at the top level. Everything here is pure (no database): the service calls
:func:`inspect_upload` and stores nothing when it raises.

Size caps (documented in README.md):

- a single module: at most ``MAX_MODULE_BYTES`` (256 KiB);
- a zip archive: at most ``MAX_ARCHIVE_BYTES`` (1 MiB) as uploaded, at most
  ``MAX_UNPACKED_BYTES`` (4 MiB) unpacked, at most ``MAX_ARCHIVE_FILES`` (64) files.
"""

from __future__ import annotations

import hashlib
import io
import stat
import zipfile
from dataclasses import dataclass, field
from pathlib import PurePosixPath

MAX_MODULE_BYTES = 256 * 1024
MAX_ARCHIVE_BYTES = 1024 * 1024
MAX_UNPACKED_BYTES = 4 * 1024 * 1024
MAX_ARCHIVE_FILES = 64
ENTRY_POINT = "bot.py"


class UploadError(ValueError):
    """An uploaded bot was refused; the message says why."""


@dataclass(frozen=True)
class InspectedUpload:
    kind: str  # "module" or "zip", as BotVersion.Kind
    data: bytes
    sha256: str
    files: dict[str, int] = field(default_factory=dict)  # path -> size, for the build log

    @property
    def size(self) -> int:
        return len(self.data)


def inspect_upload(data: bytes, filename: str) -> InspectedUpload:
    """Check an upload and describe it, or raise :class:`UploadError`."""
    if not data:
        raise UploadError("the upload is empty")
    if data[:4] == b"PK\x03\x04" or filename.lower().endswith(".zip"):
        return _inspect_zip(data)
    if not filename.endswith(".py"):
        raise UploadError(f"{filename!r} is neither a Python module (.py) nor a zip archive (.zip)")
    if len(data) > MAX_MODULE_BYTES:
        raise UploadError(f"the module is {len(data)} bytes; the limit is {MAX_MODULE_BYTES} bytes")
    check_python_source(data, ENTRY_POINT)
    return InspectedUpload(
        kind="module",
        data=data,
        sha256=hashlib.sha256(data).hexdigest(),
        files={ENTRY_POINT: len(data)},
    )


def check_python_source(data: bytes, name: str) -> None:
    """Raise :class:`UploadError` unless ``data`` is UTF-8 Python source that compiles."""
    if b"\x00" in data:
        raise UploadError(f"{name} is a binary file (it contains NUL bytes), not Python source")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UploadError(
            f"{name} is not valid UTF-8 (byte {error.start}: {error.reason})"
        ) from None
    if not text.strip():
        raise UploadError(f"{name} holds no code")
    try:
        compile(text, name, "exec", dont_inherit=True)
    except SyntaxError as error:
        raise UploadError(
            f"{name} does not compile: {error.msg} (line {error.lineno}, column {error.offset})"
        ) from None
    except (RecursionError, MemoryError, ValueError) as error:
        raise UploadError(f"{name} does not compile: {type(error).__name__}") from None


def _inspect_zip(data: bytes) -> InspectedUpload:
    if len(data) > MAX_ARCHIVE_BYTES:
        raise UploadError(
            f"the archive is {len(data)} bytes; the limit is {MAX_ARCHIVE_BYTES} bytes"
        )
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise UploadError("the upload is not a readable zip archive") from None
    with archive:
        members = [info for info in archive.infolist() if not info.is_dir()]
        if len(members) > MAX_ARCHIVE_FILES:
            raise UploadError(
                f"the archive holds {len(members)} files; the limit is {MAX_ARCHIVE_FILES}"
            )
        seen: set[str] = set()
        total = 0
        files: dict[str, int] = {}
        for info in members:
            name = _safe_member_name(info)
            if name in seen:
                raise UploadError(f"the archive holds {name!r} twice")
            seen.add(name)
            total += info.file_size
            # Declared sizes are checked before reading so a zip bomb is never unpacked.
            if total > MAX_UNPACKED_BYTES:
                raise UploadError(f"the archive unpacks to more than {MAX_UNPACKED_BYTES} bytes")
            try:
                content = archive.read(info)
            except (zipfile.BadZipFile, NotImplementedError, RuntimeError) as error:
                raise UploadError(f"{name} cannot be extracted: {error}") from None
            if len(content) != info.file_size:
                raise UploadError(f"{name} does not unpack to its declared size")
            if name.endswith(".py"):
                check_python_source(content, name)
            files[name] = len(content)
        if ENTRY_POINT not in files:
            raise UploadError(
                f"the archive has no {ENTRY_POINT} at its top level (the entry point)"
            )
    return InspectedUpload(
        kind="zip", data=data, sha256=hashlib.sha256(data).hexdigest(), files=files
    )


def _safe_member_name(info: zipfile.ZipInfo) -> str:
    name = info.filename
    if "\\" in name or "\x00" in name:
        raise UploadError(f"the archive entry {name!r} has a forbidden character")
    path = PurePosixPath(name)
    if path.is_absolute() or name.startswith("/"):
        raise UploadError(f"the archive entry {name!r} has an absolute path")
    if ".." in path.parts:
        raise UploadError(f"the archive entry {name!r} climbs out of the archive with '..'")
    if len(name) > 1 and name[1] == ":":
        raise UploadError(f"the archive entry {name!r} has a drive letter")
    mode = info.external_attr >> 16
    if stat.S_ISLNK(mode):
        raise UploadError(f"the archive entry {name!r} is a symbolic link")
    return str(path)
