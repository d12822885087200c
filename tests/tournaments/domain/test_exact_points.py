"""tournaments.domain.exact_points: table points as exact fractions. The text a referee types
or the API sends ("1/3", "-0.5", "0,5", a JSON number) is read exactly or refused, written back
in one canonical form (a decimal when the value has one, "p/q" otherwise), and the model, form
and API fields read and refuse alike."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from django.core.exceptions import ValidationError
from rest_framework.exceptions import ValidationError as APIValidationError

from tournaments.domain.exact_points import (
    INVALID_MESSAGE,
    TEXT_LENGTH,
    ExactPointsField,
    ExactPointsFormField,
    ExactPointsSerializerField,
    parse_points,
    points_text,
)


@pytest.mark.parametrize("value,expected", [
    ("4", Fraction(4)),
    ("-0.5", Fraction(-1, 2)),
    ("3.25", Fraction(13, 4)),
    ("-0.333", Fraction(-333, 1000)),  # what is typed counts: no silent rounding to a third
    ("1/3", Fraction(1, 3)),
    ("22/3", Fraction(22, 3)),
    ("4/2", Fraction(2)),
    ("−1/3", Fraction(-1, 3)),  # the typographic minus
    ("0,5", Fraction(1, 2)),  # the decimal comma
    (" 7 ", Fraction(7)),
    (0.5, Fraction(1, 2)),  # a JSON number read through its shortest text
    (2, Fraction(2)),
    (Decimal("1.50"), Fraction(3, 2)),
    (Fraction(2, 6), Fraction(1, 3)),
])
def test_points_are_read_exactly(value, expected):
    assert parse_points(value) == expected


@pytest.mark.parametrize("value", ["", "abc", "1/0", "1/-3", "1/x", "nan", "inf",
                                   "1" * (TEXT_LENGTH + 1), True, None, [1], Decimal("NaN")])
def test_what_is_no_number_of_points_is_refused(value):
    with pytest.raises(ValueError):
        parse_points(value)


@pytest.mark.parametrize("value,text", [
    (Fraction(4), "4"), (Fraction(-1, 2), "-0.5"), (Fraction(1, 8), "0.125"),
    (Fraction(0), "0"), (Fraction(22, 3), "22/3"), (Fraction(-1, 3), "-1/3"),
    (Fraction(-333, 1000), "-0.333"),
])
def test_the_canonical_text_is_a_decimal_when_there_is_one_else_a_fraction(value, text):
    assert points_text(value) == text
    assert parse_points(text) == value


def test_the_model_field_stores_the_canonical_text_and_refuses_what_does_not_fit():
    field = ExactPointsField()
    assert field.max_length == TEXT_LENGTH
    assert field.get_prep_value("2/6") == "1/3"
    assert field.get_prep_value(None) is None
    assert field.to_python("0.5") == Fraction(1, 2)
    with pytest.raises(ValidationError) as refused:
        field.to_python("a third")
    assert refused.value.code == "invalid"
    # The column holds the text: a value whose text is too long is refused by the validator.
    with pytest.raises(ValidationError):
        field.run_validators(Fraction(1, 10 ** 40))
    field.run_validators(Fraction(22, 3))


def test_the_form_field_cleans_typed_text_to_a_fraction_and_shows_the_canonical_text():
    field = ExactPointsFormField(required=False)
    assert field.clean("-2/3") == Fraction(-2, 3)
    assert field.clean("") is None
    assert field.prepare_value(Fraction(-2, 3)) == "-2/3"
    assert field.widget_attrs(field.widget)["maxlength"] == str(TEXT_LENGTH)
    with pytest.raises(ValidationError) as refused:
        field.clean("a third")
    assert refused.value.messages == [str(INVALID_MESSAGE)]


def test_the_api_field_reads_text_or_numbers_and_writes_the_canonical_text():
    field = ExactPointsSerializerField()
    assert field.to_internal_value(0.5) == Fraction(1, 2)
    assert field.to_internal_value("22/3") == Fraction(22, 3)
    assert field.to_representation(Fraction(22, 3)) == "22/3"
    assert field.to_representation("1.50") == "1.5"
    with pytest.raises(APIValidationError) as refused:
        field.to_internal_value("x")
    assert refused.value.detail[0].code == "invalid"
