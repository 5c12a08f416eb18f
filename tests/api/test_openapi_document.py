"""The OpenAPI document describes the answers the API really gives: refusals included."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from arena.models import BotVersion, Match, Player
from arena.services.matches import match_create
from tests.leagues.conftest import ready_version


@pytest.fixture
def document(db: None) -> dict[str, Any]:
    response = Client().get("/api/schema/?format=json")
    assert response.status_code == 200
    return dict(response.json())


def _operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method, path, operation)
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
    ]


def test_every_operation_documents_its_refusals(document: dict[str, Any]) -> None:
    for method, path, operation in _operations(document):
        codes = set(operation["responses"])
        assert {"400", "401", "403", "404", "429", "503"} <= codes, (method, path)
        if method in ("post", "put", "patch"):
            assert "413" in codes, (method, path)
        assert "Retry-After" in operation["responses"]["429"]["headers"], (method, path)
        refusal = operation["responses"]["404"]["content"]["application/json"]["schema"]
        # The common Error, or a refinement of it (score entry repeats `detail` per field).
        name = refusal["$ref"].rpartition("/")[2]
        shape = document["components"]["schemas"][name]
        assert shape["properties"]["detail"]["type"] == "string", (method, path, name)


def test_the_error_shape_is_the_one_refusals_have(
    document: dict[str, Any], anonymous_client: Any
) -> None:
    error = document["components"]["schemas"]["Error"]
    assert error["properties"]["detail"]["type"] == "string"
    refused = anonymous_client.post("/api/bots/", {"name": "x"})
    assert refused.status_code == 401
    assert isinstance(refused.json()["detail"], str)
    missing = anonymous_client.get("/api/no-such-thing/")
    assert missing.status_code == 404
    assert missing["Content-Type"] == "application/json"
    assert isinstance(missing.json()["detail"], str)


def test_integer_path_parameters_are_documented_as_unsigned(document: dict[str, Any]) -> None:
    for _, path, operation in _operations(document):
        for parameter in operation.get("parameters", []):
            if parameter["in"] == "path" and parameter["schema"]["type"] == "integer":
                assert parameter["schema"]["minimum"] == 0, path


def test_a_match_nobody_requested_has_a_null_requester_as_documented(
    document: dict[str, Any], alice: Player, bob: Player
) -> None:
    schema = document["components"]["schemas"]["Match"]["properties"]["requested_by"]
    assert schema["nullable"] is True
    x: BotVersion = ready_version(alice, "x")
    y: BotVersion = ready_version(bob, "y")
    match = match_create(version_x=x, version_y=y, boards=1, requested_by=None)
    listed = Client().get("/api/matches/").json()["results"]
    assert [(row["id"], row["requested_by"]) for row in listed] == [(match.pk, None)]
    assert Match.objects.get().requested_by is None


def test_the_document_generates_without_a_warning(db: None, tmp_path: Any) -> None:
    # The variant fields read the registry lazily; the document still names their enum.
    target = tmp_path / "schema.yaml"
    call_command("spectacular", "--fail-on-warn", "--file", str(target))
    assert "VariantEnum" in target.read_text()
