"""The OpenAPI document and Swagger UI are served without internet access."""

from __future__ import annotations

import re

from django.test import Client


def test_the_schema_describes_the_bot_endpoints(db: None) -> None:
    response = Client().get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    assert "/api/bots/{bot_id}/versions/" in paths
    assert "/api/auth/token/" in paths


def test_swagger_ui_loads_its_assets_from_this_server(db: None) -> None:
    client = Client()
    page = client.get("/api/docs/")
    assert page.status_code == 200
    html = page.content.decode()
    assets = re.findall(r'(?:src|href)="([^"]+\.(?:js|css))"', html)
    assert assets, "the page references no scripts or styles"
    for asset in assets:
        assert asset.startswith("/static/"), f"{asset} would need the internet"
        assert client.get(asset).status_code == 200, asset


def test_the_landing_page_links_to_the_docs(db: None) -> None:
    page = Client().get("/")
    assert page.status_code == 200
    assert b"/api/docs/" in page.content
