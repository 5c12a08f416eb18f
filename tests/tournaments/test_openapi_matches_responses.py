"""The OpenAPI document says what the tournament endpoints really answer, errors included."""

from __future__ import annotations

import re
from typing import Any

import jsonschema
from rest_framework.test import APIClient

from arena.models import Player
from tournaments import services
from tournaments.models import Board

from .conftest import client_for, entry_payload, play_all, running_event


def json_schema(node: Any, components: dict[str, Any]) -> Any:
    """An OpenAPI 3.0 schema as plain JSON Schema: references inlined, ``nullable`` typed."""
    if isinstance(node, list):
        return [json_schema(item, components) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        return json_schema(components[node["$ref"].rsplit("/", 1)[1]], components)
    out = {key: json_schema(value, components) for key, value in node.items()}
    if out.pop("nullable", False):
        out = {"anyOf": [out, {"type": "null"}]}
    return out


class Documented:
    def __init__(self, client: APIClient) -> None:
        document = client.get("/api/schema/?format=json").json()
        self.paths = document["paths"]
        self.components = document["components"]["schemas"]

    def check(self, method: str, url: str, response: Any) -> None:
        """The response's status is documented for the operation and its body fits it."""
        path = url.split("?")[0]
        # Literal paths first: /ratings/ is not an event id.
        templates = sorted(self.paths, key=lambda t: t.count("{"))
        template = next(
            t for t in templates if re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", t), path)
        )
        operation = self.paths[template][method]
        code = str(response.status_code)
        assert code in operation["responses"], f"{method} {template} answers {code}"
        content = operation["responses"][code].get("content", {})
        if response.status_code == 204:
            return
        declared = content["application/json"]["schema"]
        jsonschema.validate(response.json(), json_schema(declared, self.components))


def test_every_tournament_answer_fits_the_document(alice: Player, field: list[Player]) -> None:
    director = client_for(alice)
    player = client_for(field[0])
    documented = Documented(client_for(None))
    event = running_event(alice, field)
    base = f"/api/tournaments/{event.pk}"

    def call(client: APIClient, method: str, url: str, body: Any = None) -> Any:
        response = getattr(client, method)(url, body, format="json")
        documented.check(method, url, response)
        return response

    board = Board.objects.get(event=event, number=1)
    good = entry_payload("single4", board.seed, board.dealer, 1)
    good.update(round=1, table=1, board=1)
    wrong = dict(good, meld=[999, 999])
    assert call(player, "post", f"{base}/results/", wrong).status_code == 400
    assert call(player, "post", f"{base}/results/", {"round": "first"}).status_code == 400
    entered = call(player, "post", f"{base}/results/", good)
    assert entered.status_code == 201
    corrected = call(
        director, "patch", f"{base}/results/{entered.json()['id']}/", dict(good, reason="typo")
    )
    assert corrected.status_code == 200
    assert call(player, "get", f"{base}/results/").status_code == 403
    assert call(client_for(None), "post", f"{base}/rounds/next/").status_code == 401
    assert call(director, "get", "/api/tournaments/999999/movement/").status_code == 404
    for url in ("movement/", "results/", "corrections/", "standings/", "scorecard/?entry=1"):
        assert call(director, "get", f"{base}/{url}").status_code == 200, url
    assert call(player, "get", f"{base}/scorecard/").status_code == 200

    play_all(event, skip={(1, 1, 1)})
    services.event_finish(event=event, by=alice)
    for url in ("", "entries/", "boards/1/", "verification/"):
        assert call(client_for(None), "get", f"{base}/{url}").status_code == 200, url
    for url in ("/api/tournaments/", "/api/tournaments/ratings/?variant=single4"):
        assert call(client_for(None), "get", url).status_code == 200, url


def test_a_throttled_entry_is_a_documented_429(alice: Player, field: list[Player]) -> None:
    documented = Documented(client_for(None))
    event = running_event(alice, field)
    url = f"/api/tournaments/{event.pk}/results/"
    wrong = {"round": 1, "table": 1, "board": 1, "declarer": 0, "bid": 20, "trump": "S"}
    wrong.update(meld=[999, 999], taken=[12, 13])
    for _ in range(services.ENTRY_REJECTIONS_ALLOWED):
        client_for(field[0]).post(url, wrong, format="json")
    throttled = client_for(field[0]).post(url, wrong, format="json")
    assert throttled.status_code == 429
    documented.check("post", url, throttled)
