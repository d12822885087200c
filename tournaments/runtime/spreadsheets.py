"""Cells of the CSV files the site writes (standings on the page and in the API), made safe
to open in a spreadsheet: a text starting with = + - @ or a tab or carriage return would be
read as a formula (CSV injection), so it is prefixed with an apostrophe, the way spreadsheets
mark text themselves. Numbers are written as they are."""

from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def text_cell(value: str) -> str:
    return f"'{value}" if value[:1] in FORMULA_STARTS else value
