"""A management command run as its command line runs it, but in the test's process
(`call_command`, no `manage.py` subprocess): what it wrote to standard output and the exit
status it would have left (the commands of the contracts exit with 1 or 2 through sys.exit)."""

from __future__ import annotations

import io
from dataclasses import dataclass

import pytest
from django.core.management import call_command


@dataclass
class Ran:
    returncode: int
    stdout: str


def run_command(name: str, *args: str, stdin: str | None = None) -> Ran:
    """`manage.py NAME ARGS` with `stdin` as standard input."""
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stdin", io.StringIO(stdin or ""))
        try:
            call_command(name, *args, stdout=out)
        except SystemExit as exit_:
            code = exit_.code
            return Ran(code if isinstance(code, int) else (0 if code is None else 1),
                       out.getvalue())
    return Ran(0, out.getvalue())
