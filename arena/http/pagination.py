"""The API's pages of lists: ``?page=N&page_size=M``.

DRF ignores a ``page_size`` it cannot read and serves the default size, but copies the
unreadable value into the ``next`` and ``previous`` links, so a client that sent
``page_size=null`` follows links that keep sending it and never learns. A page size that is
not a whole number from 1 up is refused with a 400 naming the parameter instead. A size
above the largest is served at the largest, as DRF does and the parameter's description
says; an empty one (what a blank form field sends) is the default.
"""

from __future__ import annotations

import re
from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request

WHOLE_NUMBER = re.compile(r"[0-9]+")


class Pagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
    page_size_query_description = f"results per page: 1 to {max_page_size} (default {page_size})"

    def get_page_size(self, request: Request | Any) -> int:
        raw = request.query_params.get(self.page_size_query_param, "")
        if raw == "":
            return self.page_size
        if WHOLE_NUMBER.fullmatch(raw) is None or int(raw) < 1:
            raise ValidationError(
                {
                    self.page_size_query_param: [
                        f"page_size is a whole number from 1 to {self.max_page_size}, not {raw!r}"
                    ]
                }
            )
        return min(int(raw), self.max_page_size)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            # Both are counted from 1; the document says so, and the server refuses less.
            parameter["schema"]["minimum"] = 1
        return parameters
