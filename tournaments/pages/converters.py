"""The path converter of every number in an address (round, table, hand, start number, id).

Django's own `int` converter takes any number of digits, and a number no database column
holds then reaches a query and fails there. `num` takes at most nine digits, so an address
with a larger number matches no route and answers 404 like any other unknown address.
Registered by `TournamentsConfig.ready`, before any URL configuration is read."""

from __future__ import annotations

MAX_DIGITS = 9
LARGEST = 10**MAX_DIGITS - 1


class NumberConverter:
    regex = f"[0-9]{{1,{MAX_DIGITS}}}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(int(value))
