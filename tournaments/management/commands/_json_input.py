"""Reading a JSON document from a file or standard input for the contract commands
(`seat`, `check_seating`), with errors in the contracts' shape instead of tracebacks."""

from __future__ import annotations

import json
import sys
from typing import Any


class InputError(Exception):
    def __init__(self, error: dict[str, Any]):
        self.error = error
        super().__init__(error["message"])


def read_json(path: str, key: str = "player") -> Any:
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    except OSError as exc:
        raise InputError({key: None, "field": "file", "code": "unreadable",
                          "message": f"cannot read {path}: {exc.strerror}"}) from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError({key: None, "field": "request", "code": "invalid_json",
                          "message": f"not valid JSON: {exc.msg} at line {exc.lineno}"}) from exc
