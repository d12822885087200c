"""Reading a JSON document from a file or standard input for the contract commands
(`seat`, `check_seating`), with errors in the contracts' shape instead of tracebacks."""

from __future__ import annotations

import sys
from typing import Any

from django.utils.translation import gettext as _

from tournaments.domain.limits import JsonRefused, load_json


class InputError(Exception):
    def __init__(self, error: dict[str, Any]):
        self.error = error
        super().__init__(error["message"])


def read_json(path: str, key: str = "player") -> Any:
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    except OSError as exc:
        raise InputError({key: None, "field": "file", "code": "unreadable",
                          "message": _("cannot read %(path)s: %(reason)s") % {"path": path, "reason": exc.strerror}}) from exc
    try:
        # The limits of every JSON input: nesting depth, NUL, NaN (tournaments.domain.limits).
        return load_json(text, field="request")
    except JsonRefused as exc:
        error = exc.errors[0]
        raise InputError({key: None, "field": error["field"], "code": error["code"],
                          "message": error["message"]}) from exc
