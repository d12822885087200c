"""Table points as exact fractions, wherever they are stored, typed or sent.

The points system deals in thirds (seed 000 §4.1 b: a table of three "4 − (0.333+0.333+0.333)
= 3", so 11/3, 8/3, 5/3), and a third has no finite decimal: stored as 1.667 it sums to 7.001
over three rounds where the cards give 7. So a stored or typed number of table points is a
`fractions.Fraction`, written as text in one canonical form:

- a decimal when the value has one ("4", "-0.5", "3.25", and a literal "-0.333" stays
  -333/1000: what a referee types is what counts, never a silent rounding to a third);
- "p/q" otherwise ("22/3", "-1/3").

This module holds that text form, the model field that stores it, the form field a referee
types into and the API field, so that all of them read "1/3", "0.5" and "7" alike and refuse
anything else with the same message.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

# Enough for any sum of table points and any denominator a points table can produce.
TEXT_LENGTH = 32
INVALID_MESSAGE = _("Enter a number such as 2, -0.5 or a fraction such as 1/3.")
POINTS_RANGE_MESSAGE = _("Table points must be between -%(max)s and %(max)s.")


def parse_points(value: Any) -> Fraction:
    """`value` (text, int, Decimal or Fraction) as an exact fraction; ValueError if it is none."""
    if isinstance(value, bool):
        raise ValueError(value)
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(value)
        return Fraction(value)
    if isinstance(value, float):
        # A JSON number: read through its shortest text, so 0.5 is 1/2 and not a binary cousin.
        return parse_points(repr(value))
    if not isinstance(value, str):
        raise ValueError(value)
    text = value.strip().replace("−", "-").replace(",", ".")
    if not text or len(text) > TEXT_LENGTH:
        raise ValueError(value)
    if "/" in text:
        top, _sep, bottom = text.partition("/")
        try:
            numerator, denominator = int(top), int(bottom)
        except ValueError:
            raise ValueError(value) from None
        if denominator <= 0:
            raise ValueError(value)
        return Fraction(numerator, denominator)
    try:
        number = Decimal(text)
    except InvalidOperation:
        raise ValueError(value) from None
    if not number.is_finite():
        raise ValueError(value)
    return Fraction(number)


def fits_the_column(value: Fraction) -> None:
    if len(points_text(value)) > TEXT_LENGTH:
        raise ValidationError(INVALID_MESSAGE, code="too_long")


def points_text(value: Fraction) -> str:
    """The canonical text of exact points: a decimal when it has one, else "p/q"."""
    denominator = value.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator != 1:
        return f"{value.numerator}/{value.denominator}"
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    text = format(exact.normalize(), "f")
    return "0" if text in ("-0", "0") else text


class ExactPointsField(models.CharField):
    """Table points stored exactly, as their canonical text; Python sees a Fraction."""

    description = "exact table points (a fraction)"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", TEXT_LENGTH)
        super().__init__(*args, **kwargs)
        # CharField measures the value with len(); here the value is a Fraction, and what must
        # fit the column is its text.
        self.validators[:] = [v for v in self.validators
                              if not isinstance(v, MaxLengthValidator)] + [fits_the_column]

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        if kwargs.get("max_length") == TEXT_LENGTH:
            del kwargs["max_length"]
        return name, path, args, kwargs

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Fraction | None:
        return None if value is None else parse_points(value)

    def to_python(self, value: Any) -> Fraction | None:
        if value is None or value == "":
            return None
        try:
            return parse_points(value)
        except ValueError:
            raise ValidationError(INVALID_MESSAGE, code="invalid") from None

    def get_prep_value(self, value: Any) -> str | None:
        value = self.to_python(value)
        return None if value is None else points_text(value)

    def value_to_string(self, obj: models.Model) -> str:
        value = self.value_from_object(obj)
        return "" if value is None else points_text(parse_points(value))

    def formfield(self, **kwargs: Any) -> forms.Field:
        return super().formfield(**{"form_class": ExactPointsFormField, **kwargs})


class ExactPointsFormField(forms.Field):
    """What a referee types: "1/3", "-2/3", "0.5" or "2"; cleaned to a Fraction."""

    widget = forms.TextInput
    default_error_messages = {"invalid": INVALID_MESSAGE}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.pop("max_length", None)
        super().__init__(*args, **kwargs)

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        # A text field, not a number field: a phone's number pad has no "/" for "-1/3".
        return {**super().widget_attrs(widget), "maxlength": str(TEXT_LENGTH),
                "autocomplete": "off", "spellcheck": "false"}

    def prepare_value(self, value: Any) -> Any:
        return points_text(value) if isinstance(value, Fraction) else value

    def to_python(self, value: Any) -> Fraction | None:
        if value in self.empty_values:
            return None
        try:
            return parse_points(value)
        except ValueError:
            raise ValidationError(self.error_messages["invalid"], code="invalid") from None


@extend_schema_field(OpenApiTypes.STR)
class ExactPointsSerializerField(serializers.Field):
    """Exact points in the API: read as text ("22/3", "-0.5") or a JSON number, written as the
    canonical text."""

    default_error_messages = {"invalid": INVALID_MESSAGE}

    def to_internal_value(self, data: Any) -> Fraction:
        try:
            return parse_points(data)
        except ValueError:
            self.fail("invalid")

    def to_representation(self, value: Any) -> str:
        return points_text(parse_points(value))
