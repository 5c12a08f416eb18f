"""The API's JSON parser: strict JSON, nested at most ``MAX_DEPTH`` deep, no NUL and no
unpaired surrogate in strings.

Python's decoder recurses once per level, so a body nested a thousand deep ends in a
RecursionError (a server error) instead of a parse error; and a ``\\u0000`` inside a string
reaches PostgreSQL, which cannot store it in text or jsonb. No request of this API needs more
than a handful of levels.

JSON may escape half of a UTF-16 surrogate pair on its own (``"\\ud800"``); Python decodes it
to a lone surrogate, a string that has no UTF-8 form. Neither PostgreSQL nor a response can
carry it, and a refusal that quotes the value (``"\\ud800" is not a valid choice``) could not
be sent. Refused here, no view ever sees one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError

MAX_DEPTH = 32
"""Levels of arrays and objects a request body may nest (the deepest request uses 4)."""

SURROGATE = re.compile("[\ud800-\udfff]")
"""Half of a UTF-16 surrogate pair: in a decoded string, always an unpaired one (a pair
escaped as two halves decodes to the one character it stands for)."""


def surrogate_error(text: str) -> ParseError | None:
    """The refusal of a string holding an unpaired surrogate, naming it; None if it has none."""
    found = SURROGATE.search(text)
    if found is None:
        return None
    return ParseError(
        f"JSON strings may not contain an unpaired surrogate (\\u{ord(found.group()):04x}): "
        "send the character itself, or both halves of its UTF-16 pair"
    )


def check_document(document: Any, *, max_depth: int = MAX_DEPTH) -> None:
    """Raise ParseError if ``document`` nests deeper than ``max_depth`` or holds a NUL.

    Walks with an explicit stack: the check itself must not recurse.
    """
    pending: list[tuple[Any, int]] = [(document, 0)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, str):
            if "\x00" in value:
                raise ParseError("JSON strings may not contain a NUL character (\\u0000)")
            error = surrogate_error(value)
            if error is not None:
                raise error
        elif isinstance(value, Mapping | list):
            if depth >= max_depth:
                raise ParseError(f"JSON nested deeper than {max_depth} levels")
            if isinstance(value, Mapping):
                pending.extend((key, depth + 1) for key in value)
                pending.extend((item, depth + 1) for item in value.values())
            else:
                pending.extend((item, depth + 1) for item in value)


class JSONParser(parsers.JSONParser):
    """DRF's strict JSON parser, with the depth, NUL and surrogate checks of this module."""

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            document = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(f"JSON nested deeper than {MAX_DEPTH} levels") from None
        check_document(document)
        return document
