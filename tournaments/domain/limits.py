"""The bounds every input is held to before it reaches the database or the engine, in one
place so that the API, the pages, the archive import and the commands agree (docs/security.md,
"Limits"):

- whole numbers: what the database column holds (`SMALL_MAX`, `INT_MAX`), and the one reading
  of a whole number from outside (query strings, posted fields, cookies, uploaded documents:
  `whole_number`);
- text: no NUL, no control characters, no invisible format characters (zero-width, direction
  overrides), no lone surrogates (`text_problem`, and the validators the models use);
- JSON: a parse that refuses nesting deeper than `MAX_JSON_DEPTH` and NUL characters, with
  the path of the offending value (`load_json`, `json_problems`);
- CSV imports: the bytes of a file or pasted text and its data rows, bounded by the settings
  `CSV_IMPORT_MAX_BYTES` and `CSV_IMPORT_MAX_ROWS` (`csv_too_large`, `csv_too_many_rows`).

A refusal names the field (or the path in a JSON document) and is translated; nothing here
writes anything.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.template.defaultfilters import filesizeformat
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext as _

# What the database columns hold: PositiveSmallIntegerField, IntegerField.
SMALL_MAX = 32_767
INT_MAX = 2_147_483_647
INT_MIN = -INT_MAX - 1

# The largest page of an API list, and how far into a list an offset may point.
MAX_PAGE_SIZE = 1_000
MAX_OFFSET = INT_MAX

# JSON bodies and files nest this deep at most. An event archive nests about a dozen levels
# (event, rounds, tables, scorecard, hands, record, announcements, audit entries holding
# records); far deeper documents are attacks on the parser, not data.
MAX_JSON_DEPTH = 64

# A standings adjustment corrects a result; these bound one correction so that the carried
# totals stay within their columns (tournament points: 9 digits with 3 decimals).
MAX_SCORE_ADJUSTMENT = 10_000_000
MAX_POINTS_ADJUSTMENT = 1_000

# Hands per round when a ruleset says nothing of its own: more than any rulebook plays in a
# round (the seeds play 16 to 36), few enough that one printed sheet stays a few pages.
MAX_HANDS_PER_ROUND = 100

# Characters allowed in multi-line text (descriptions, reasons) but not in one-line text.
_LINE_BREAKS = {"\n", "\r", "\t"}
# The line breaks a multi-line text may hold, as a table for str.translate that removes them.
_BREAKS_REMOVED = str.maketrans("", "", "".join(sorted(_LINE_BREAKS)))


# A whole number from outside is at most this many ASCII digits: more than any column holds
# (INT_MAX has ten, a BigIntegerField nineteen), so a megabyte of digits is refused before
# int() reads it. `[0-9]`, not `\d`: `\d` matches the digits of every script.
WHOLE_DIGITS = 20
_WHOLE = re.compile(f"[0-9]{{1,{WHOLE_DIGITS}}}")


def whole_number(raw: Any, *, low: int = 0, high: int = INT_MAX,
                 default: int | None = None) -> int | None:
    """A whole number from outside (a query string, a posted field, a cookie, a key of an
    uploaded document) as a person types it: ASCII digits only, no sign, no spaces, at most
    `WHOLE_DIGITS` of them, from `low` to `high`; anything else gives `default`. An int is
    taken as it is (bounds still apply); True and False are not numbers.

    Why not `raw.isdigit()` and `int(raw)`: isdigit() is True for "²" and "①", which int()
    refuses (a server error), and int() reads "١٢", "１２", " 12 " and "1_2" as 12, which
    nobody typed as a number here. Every number from outside that no form's or serializer's
    IntegerField reads is read here; tests/project/test_whole_numbers.py refuses new isdigit()
    and int() pairs."""
    if isinstance(raw, bool):
        return default
    if isinstance(raw, int):
        value = raw
    elif isinstance(raw, str) and _WHOLE.fullmatch(raw):
        value = int(raw)
    else:
        return default
    return value if low <= value <= high else default


# ---------------------------------------------------------------------------------------
# Text
# ---------------------------------------------------------------------------------------

def _character_problem(char: str, multiline: bool) -> str | None:
    if char == "\x00":
        return _("must not contain NUL characters")
    category = unicodedata.category(char)
    if category == "Cc" and not (multiline and char in _LINE_BREAKS):
        return _("must not contain control characters (U+%(code)04X)") % {"code": ord(char)}
    if category in ("Zl", "Zp") and not multiline:
        return _("must be one line")
    if category == "Cf":
        # Zero-width characters and direction overrides make a name look like another one,
        # or turn what is shown around; no name or note of a tarok event needs them.
        return _("must not contain invisible formatting characters (U+%(code)04X)") % {
            "code": ord(char)}
    if category == "Cs":
        return _("must be valid Unicode text")
    return None


def text_problem(value: str, *, multiline: bool = False) -> str | None:
    """Why a text may not be stored, or None. Ordinary Unicode (any letters, accents,
    punctuation, emoji) is fine; `multiline` text may also hold line breaks and tabs."""
    if value.isascii() and value.isprintable():
        return None
    for char in value:
        problem = _character_problem(char, multiline)
        if problem:
            return problem
    return None


@deconstructible
class TextValidator:
    """The text rule as a model and form field validator."""

    def __init__(self, multiline: bool = False):
        self.multiline = multiline

    def __call__(self, value: Any) -> None:
        if isinstance(value, str):
            problem = text_problem(value, multiline=self.multiline)
            if problem:
                raise ValidationError(problem, code="invalid_text")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TextValidator) and other.multiline == self.multiline

    def __hash__(self) -> int:
        return hash(("TextValidator", self.multiline))


one_line_text = TextValidator(multiline=False)
multi_line_text = TextValidator(multiline=True)


def text_errors(values: dict[str, Any], *, multiline: frozenset[str] | set[str] = frozenset()
                ) -> list[dict[str, Any]]:
    """Contract-shaped errors for the texts among `values` (field name: value) that break the
    text rule; the fields named in `multiline` may hold line breaks."""
    errors = []
    for name, value in values.items():
        if isinstance(value, str):
            problem = text_problem(value, multiline=name in multiline)
            if problem:
                errors.append({"hand": None, "field": name, "code": "invalid_text",
                               "message": _("%(field)s %(problem)s") % {
                                   "field": name, "problem": problem}})
    return errors


# ---------------------------------------------------------------------------------------
# JSON
# ---------------------------------------------------------------------------------------

def _child_path(path: str, key: Any) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else str(key)


def _plainly_fine(value: Any, max_depth: int, multiline: bool) -> bool:
    """Whether a parsed JSON value has none of the problems `json_problems` names, told
    without the path of every member (a venue's archive holds millions of values): every
    container within the depth, no number that is not finite, and the keys and the texts each
    printable as one joined text (a printable character never breaks the text rule). False
    means "look closer": `json_problems` then walks it again naming every problem's path."""
    keys: list[Any] = []
    texts: list[str] = []
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if type(item) is dict:
            keys.extend(item)
            children: Any = item.values()
        elif type(item) is list:
            children = item
        elif type(item) is str:
            texts.append(item)
            continue
        elif isinstance(item, (dict, list, str, float)):
            return False
        else:
            continue
        if depth >= max_depth:
            return False
        for child in children:
            kind = type(child)
            if kind is str:
                texts.append(child)
            elif kind is dict or kind is list:
                stack.append((child, depth + 1))
            elif kind is float:
                if not math.isfinite(child):
                    return False
            elif isinstance(child, (dict, list, str, float)):
                return False
    if not all(type(key) is str for key in keys) or not "".join(keys).isprintable():
        return False
    joined = "".join(texts)
    if multiline:
        joined = joined.translate(_BREAKS_REMOVED)
    return joined.isprintable()


def json_problems(value: Any, path: str = "", *, max_depth: int = MAX_JSON_DEPTH,
                  multiline: bool = True) -> list[dict[str, Any]]:
    """Contract-shaped errors of a parsed JSON value: nesting deeper than `max_depth`, and
    keys or strings that break the text rule (line breaks are allowed: free texts such as a
    reason or a note travel in JSON too). Walked without recursion, so any depth is safe."""
    if _plainly_fine(value, max_depth, multiline):
        return []
    errors: list[dict[str, Any]] = []
    stack: list[tuple[Any, str, int]] = [(value, path, 0)]
    while stack and len(errors) < 20:
        item, where, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth >= max_depth:
                errors.append({"hand": None, "field": where or "body", "code": "too_deep",
                               "message": _("%(field)s nests deeper than %(depth)s levels") % {
                                   "field": where or _("the document"), "depth": max_depth}})
                continue
            pairs = item.items() if isinstance(item, dict) else enumerate(item)
            children = []
            for key, child in pairs:
                child_path = _child_path(where, key)
                if isinstance(key, str):
                    problem = text_problem(key, multiline=False)
                    if problem:
                        errors.append({"hand": None, "field": child_path, "code": "invalid_text",
                                       "message": _("the key %(field)s %(problem)s") % {
                                           "field": child_path, "problem": problem}})
                        continue
                children.append((child, child_path, depth + 1))
            stack.extend(reversed(children))
        elif isinstance(item, float) and not math.isfinite(item):
            errors.append({"hand": None, "field": where or "body", "code": "not_a_number",
                           "message": _("%(field)s must be a finite number") % {
                               "field": where or _("the document")}})
        elif isinstance(item, str):
            problem = text_problem(item, multiline=multiline)
            if problem:
                errors.append({"hand": None, "field": where or "body", "code": "invalid_text",
                               "message": _("%(field)s %(problem)s") % {
                                   "field": where or _("the document"), "problem": problem}})
    return errors


class JsonRefused(ValueError):
    """A JSON text that is not read: `errors` in the contract's shape."""

    def __init__(self, errors: list[dict[str, Any]]):
        self.errors = errors
        super().__init__("; ".join(e["message"] for e in errors))


def _refuse_constant(name: str) -> Any:
    raise ValueError(_("%(name)s is not a JSON number") % {"name": name})


def load_json(text: str | bytes, *, field: str = "body") -> Any:
    """Parse JSON text, refusing what is not JSON, nests too deeply, or carries NUL or other
    characters no stored text may hold. Raises JsonRefused."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JsonRefused([{"hand": None, "field": field, "code": "not_utf8",
                                "message": _("%(field)s is not UTF-8 text") % {"field": field}}]
                              ) from exc
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except RecursionError as exc:
        raise JsonRefused([{"hand": None, "field": field, "code": "too_deep",
                            "message": _("%(field)s nests deeper than %(depth)s levels") % {
                                "field": field, "depth": MAX_JSON_DEPTH}}]) from exc
    except json.JSONDecodeError as exc:
        raise JsonRefused([{"hand": None, "field": field, "code": "invalid_json",
                            "message": _("%(field)s is not valid JSON: %(error)s at line "
                                         "%(line)s") % {"field": field, "error": exc.msg,
                                                        "line": exc.lineno}}]) from exc
    except ValueError as exc:
        # NaN and Infinity, which JSON does not have, and numbers of thousands of digits.
        raise JsonRefused([{"hand": None, "field": field, "code": "invalid_json",
                            "message": _("%(field)s is not valid JSON: %(error)s") % {
                                "field": field, "error": exc}}]) from exc
    problems = json_problems(value)
    if problems:
        raise JsonRefused(problems)
    return value


def bounded_whole(name: str, value: Any, minimum: int, maximum: int) -> list[dict[str, Any]]:
    """Contract-shaped errors when `value` is not a whole number within [minimum, maximum]."""
    if isinstance(value, int) and not isinstance(value, bool) and minimum <= value <= maximum:
        return []
    return [{"hand": None, "field": name, "code": "out_of_range",
             "message": _("%(field)s must be a whole number from %(min)s to %(max)s") % {
                 "field": name, "min": minimum, "max": maximum}}]


# ---------------------------------------------------------------------------------------
# CSV imports
# ---------------------------------------------------------------------------------------

def csv_too_large(size: int, field: str) -> dict[str, Any] | None:
    """The refusal (code `too_large`, answered 413) of a CSV file or pasted text of `size`
    bytes when it is over `CSV_IMPORT_MAX_BYTES`, else None. Asked with an upload's `size`
    before anything of it is read."""
    limit = settings.CSV_IMPORT_MAX_BYTES
    if size <= limit:
        return None
    return {"hand": None, "field": field, "code": "too_large",
            "message": _("the file is larger than %(limit)s: import its rows in several "
                         "smaller files") % {"limit": filesizeformat(limit)}}


def csv_too_many_rows(field: str) -> dict[str, Any]:
    """The refusal (code `too_many_rows`, answered 400) of a CSV file whose reader has passed
    `CSV_IMPORT_MAX_ROWS` data rows."""
    limit = settings.CSV_IMPORT_MAX_ROWS
    return {"hand": None, "field": field, "code": "too_many_rows",
            "message": _("the file has more than %(limit)s rows: import them in several files "
                         "of at most %(limit)s rows") % {"limit": limit}}
