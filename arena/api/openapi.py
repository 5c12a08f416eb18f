"""Post-processing of the OpenAPI document: what every operation may answer besides success.

Views document their successful responses; the refusals are the same everywhere (a 400
naming the bad field, 401/403, 404, 413 for a body over the limit, 429 from a quota, 503
when Redis is unreachable), so they are added here to every operation that does not
describe them itself, with one shared error schema. Integer path parameters are matched by
``<int:...>`` routes, which admit no sign, and name 64-bit rows: the document says so.
"""

from __future__ import annotations

from typing import Any

from arena.api.serializers import ID_MAX

ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "A refusal: `detail` says what is wrong; a 400 also names each bad field "
    "with a list of messages.",
    "properties": {"detail": {"type": "string"}},
    "additionalProperties": True,
}

_RETRY_AFTER = {
    "Retry-After": {
        "description": "seconds to wait before trying again",
        "schema": {"type": "integer"},
    }
}

_REFUSALS = {
    "400": ("the input is invalid: the message names the field and the rule", None),
    "401": ("authentication is needed (a token or a session)", None),
    "403": ("the requester may not do this", None),
    "404": ("no such object", None),
    "429": (
        "a quota is spent: Retry-After and the message say when the next is allowed",
        _RETRY_AFTER,
    ),
    "503": (
        "a service the request needs is unreachable: try again after Retry-After",
        _RETRY_AFTER,
    ),
}
_BODY_REFUSALS = {
    "413": ("the request body is larger than this endpoint accepts", None),
    "415": ("the body's Content-Type is not one this endpoint reads", None),
}
_WITH_BODY = {"post", "put", "patch"}


def document_refusals(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook (``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``)."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.setdefault("Error", ERROR_SCHEMA)
    reference = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            refusals = dict(_REFUSALS)
            if method in _WITH_BODY:
                refusals.update(_BODY_REFUSALS)
            for code, (description, headers) in refusals.items():
                response: dict[str, Any] = {"description": description, "content": reference}
                if headers:
                    response["headers"] = headers
                declared = operation["responses"].setdefault(code, response)
                if headers:
                    # A view that describes this refusal itself still sends these headers.
                    declared.setdefault("headers", headers)
            for parameter in operation.get("parameters", []):
                schema = parameter.get("schema", {})
                if parameter.get("in") == "path" and schema.get("type") == "integer":
                    schema.setdefault("minimum", 0)
                    schema.setdefault("maximum", ID_MAX)
    return result
