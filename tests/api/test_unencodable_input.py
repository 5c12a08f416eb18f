"""Input that has no UTF-8 form gets a 400 with a readable message, never a server error.

JSON may escape half of a UTF-16 surrogate pair on its own (``"\\ud800"``); decoded, it is a
string no response can encode. A refusal that quoted it back (``"\\ud800" is not a valid
choice``) failed in the renderer with a 500, on every operation with a choice field.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.settings import api_settings
from rest_framework.test import APIClient

from tests.arena.conftest import client_for

# The operations where a refused choice quoted the value back: each body is otherwise
# well formed, so the choice field is the one that is checked.
OPERATIONS = {
    "/api/play/tables/": {"bots": [{"kind": "reference", "name": "greedy"}] * 3},
    "/api/play/challenges/": {"opponent": {"kind": "reference", "name": "greedy"}},
    "/api/bots/": {"name": "unencodable"},
    "/api/tournaments/": {"name": "Unencodable night", "par_bot": ""},
    "/api/robots/": {"name": "Unencodable", "boards": 2, "robots": "greedy", "kind": "pairs"},
}

# Raw JSON text: json.dumps would refuse to write some of these, as a careful client would.
UNPAIRED = {
    "a high half": '"\\ud800"',
    "a low half": '"\\udfff"',
    "a half inside a name": '"auction4\\udc80"',
    "two high halves": '"\\ud83c\\ud83c"',
}


def _json_body(operation: str, variant: str) -> str:
    rest = json.dumps(OPERATIONS[operation])[1:-1]
    return f'{{"variant": {variant}, {rest}}}'


def _readable(response: object) -> dict[str, object]:
    """The body as a client reads it: valid UTF-8 JSON, or the test fails."""
    content: bytes = response.content  # type: ignore[attr-defined]
    body: dict[str, object] = json.loads(content.decode("utf-8"))
    return body


@pytest.fixture
def player_client(alice: object) -> APIClient:
    return client_for(alice)  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", list(UNPAIRED.values()), ids=list(UNPAIRED))
@pytest.mark.parametrize("operation", list(OPERATIONS))
def test_an_unpaired_surrogate_in_a_choice_field_is_refused_with_a_readable_message(
    player_client: APIClient, operation: str, variant: str
) -> None:
    player_client.raise_request_exception = False
    response = player_client.post(
        operation, data=_json_body(operation, variant), content_type="application/json"
    )
    assert response.status_code == 400
    detail = _readable(response)["detail"]
    assert isinstance(detail, str)
    assert "unpaired surrogate" in detail


@pytest.mark.parametrize("operation", list(OPERATIONS))
def test_an_unpaired_surrogate_in_a_key_is_refused_too(
    player_client: APIClient, operation: str
) -> None:
    player_client.raise_request_exception = False
    body = _json_body(operation, '"auction4"')[:-1] + ', "\\ud800": 1}'
    response = player_client.post(operation, data=body, content_type="application/json")
    assert response.status_code == 400
    assert "unpaired surrogate" in str(_readable(response)["detail"])


@pytest.mark.parametrize("operation", list(OPERATIONS))
def test_bytes_that_are_not_utf8_in_a_form_are_refused_as_an_unknown_choice(
    player_client: APIClient, operation: str
) -> None:
    # %ED%A0%80 is a surrogate written as UTF-8, which UTF-8 forbids: Django decodes it to
    # the replacement character, and the refusal quotes that.
    player_client.raise_request_exception = False
    response = player_client.post(
        operation,
        data="variant=%ED%A0%80&name=x",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 400
    assert "variant" in json.dumps(_readable(response))


@pytest.mark.parametrize("operation", list(OPERATIONS))
def test_a_pair_escaped_as_two_halves_is_one_character_and_is_quoted_as_itself(
    player_client: APIClient, operation: str
) -> None:
    # "\ud83c\udca1" is the ace of spades card character: a valid string, merely not a variant.
    player_client.raise_request_exception = False
    response = player_client.post(
        operation,
        data=_json_body(operation, '"\\ud83c\\udca1"'),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert "\U0001f0a1" in response.content.decode("utf-8")


def test_the_api_renders_a_message_quoting_an_unencodable_string_with_a_replacement() -> None:
    # Should a refusal ever quote a lone surrogate (the parser lets none in), its answer still
    # encodes: the API's JSON renderer puts U+FFFD in its place, and keeps other characters
    # as they are rather than escaping them.
    renderer_class: Any = api_settings.DEFAULT_RENDERER_CLASSES[0]
    renderer = renderer_class()
    rendered = renderer.render({"variant": ['"é\ud800" is not a valid choice.']})
    assert json.loads(rendered.decode("utf-8")) == {"variant": ['"é\ufffd" is not a valid choice.']}
    assert "é".encode() in rendered
