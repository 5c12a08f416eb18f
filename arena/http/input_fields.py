"""Serializer fields that read input as its type says, however it is sent.

DRF reads form-encoded input (and query strings) as an HTML form: an empty value of an
optional field means the field was left blank, so it is dropped; and its text fields take
numbers, turning them into their digits. Where either would accept input the API document
calls invalid, these fields refuse it with the usual 400 instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers
from rest_framework.fields import empty
from rest_framework.utils import html


class StringField(serializers.CharField):
    """Text that must be sent as a JSON string: a number or a boolean is refused."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class SentTextField(serializers.CharField):
    """An optional text field that, when sent empty in a form, is refused as blank like an
    empty JSON string, rather than dropped: ``PATCH name=`` is a request to blank the name,
    not a request that changes nothing."""

    def get_value(self, dictionary: Mapping[str, Any]) -> Any:
        if html.is_html_input(dictionary) and dictionary.get(self.field_name or "") == "":
            return ""
        return super().get_value(dictionary)


class FormDictField(serializers.DictField):
    """DRF's DictField, absent from a form that names none of its keys.

    DRF reads a dictionary from a form's ``name.key`` fields and finds an empty one in any
    form, so every form-encoded request seemed to send it."""

    def get_value(self, dictionary: Mapping[str, Any]) -> Any:
        if html.is_html_input(dictionary):
            prefix = f"{self.field_name}."
            if not any(key.startswith(prefix) for key in dictionary):
                return empty
        return super().get_value(dictionary)
