"""Laying out a printout in a child process that ends without tearing it down: a round's
sheets, and the public lists (seating list, standings) a worker renders.

A round's laid-out sheets (or a 1,024-player list) are millions of small Python objects, most
of them in reference cycles (WeasyPrint's and the HTML parser's trees). Once the PDF is
written, freeing them took the worker a sixth of the whole rendering: the cycle collector
walking every one of them, then the deallocation (docs/performance.md). A child forked for
the work hands the PDF back through a pipe and leaves with `os._exit`: its memory goes back
to the system at once, and the worker's own process never holds the sheets.

What the child may do: lay out and write the PDF from data read beforehand. It must not use
the database, whose connection it shares with the worker: a query there raises, and the
rendering fails with that error. Its progress and its errors come back through the pipe, and
the worker reports them as if it had rendered the sheets itself.

Only where `os.fork` exists, and only for the workers of a task queue (`wanted`): a request's
process may run threads, which a fork would copy mid-work; a worker's other threads (Celery's
own) never lay out or print, so the locks the child needs are free when it is forked.
"""

from __future__ import annotations

import os
import signal
import struct
import traceback
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager

from django.conf import settings
from django.db import connections

from tournaments.runtime import jobs

# One record on the pipe: a kind byte and a length, then the payload.
_HEADER = struct.Struct("!cQ")
_PROGRESS, _PDF, _ERROR = b"P", b"D", b"E"


def available() -> bool:
    return hasattr(os, "fork")


def wanted() -> bool:
    """Whether a printout is laid out in a child process: by the workers of a task queue,
    where the system can fork, unless PDF_SHEETS_CHILD_PROCESS is off. Not in a request's
    process (no broker), which may run threads."""
    return settings.PDF_SHEETS_CHILD_PROCESS and available() and not jobs.runs_eagerly()


class ChildRenderingFailed(RuntimeError):
    """The child raised (its error's text, with the type) or ended without a PDF."""


def _refuse_queries(execute, sql, params, many, context):
    raise RuntimeError("the printing child process does not use the database")


def _send(pipe, kind: bytes, payload: bytes) -> None:
    pipe.write(_HEADER.pack(kind, len(payload)))
    pipe.write(payload)
    pipe.flush()


def _child(write_fd: int, build: Callable[[Callable[[int], None]], bytes]) -> None:
    # The worker's handlers (a warm shutdown on SIGTERM) are the worker's, not the child's.
    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT):
        signal.signal(number, signal.SIG_DFL)
    status = 1
    try:
        with os.fdopen(write_fd, "wb") as pipe:
            try:
                with _no_queries():
                    pdf = build(lambda laid_out: _send(pipe, _PROGRESS, str(laid_out).encode()))
                _send(pipe, _PDF, pdf)
                status = 0
            except BaseException as exc:  # everything goes back to the worker, which raises
                text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
                _send(pipe, _ERROR, text.encode("utf-8", "replace"))
    finally:
        # No clean-up: that is the point (and the worker's atexit handlers are not ours).
        os._exit(status)


@contextmanager
def _no_queries() -> Iterator[None]:
    """Every database connection of the child refuses queries while the block runs."""
    with ExitStack() as stack:
        for alias in connections:
            stack.enter_context(connections[alias].execute_wrapper(_refuse_queries))
        yield


def _read_exactly(pipe, size: int) -> bytes | None:
    data = pipe.read(size)
    return data if data is not None and len(data) == size else None


def run(build: Callable[[Callable[[int], None]], bytes],
        progress: Callable[[int], None] | None = None) -> bytes:
    """`build(progress)` run in a forked child; its PDF returned here, each progress it tells
    passed to `progress` here (in this process, which may use the database), its error raised
    here as ChildRenderingFailed."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        _child(write_fd, build)
    os.close(write_fd)
    pdf = error = None
    try:
        with os.fdopen(read_fd, "rb") as pipe:
            while (header := _read_exactly(pipe, _HEADER.size)) is not None:
                kind, size = _HEADER.unpack(header)
                payload = _read_exactly(pipe, size) if size else b""
                if payload is None:
                    break
                if kind == _PROGRESS and progress is not None:
                    progress(int(payload))
                elif kind == _PDF:
                    pdf = payload
                elif kind == _ERROR:
                    error = payload.decode("utf-8", "replace")
    finally:
        # Also when this process is interrupted (a time limit): the child goes with it.
        if pdf is None and error is None:
            _kill(pid)
        _, status = os.waitpid(pid, 0)
    if error is not None:
        raise ChildRenderingFailed(error)
    if pdf is None:
        raise ChildRenderingFailed(
            f"the rendering process ended without a PDF (status {os.waitstatus_to_exitcode(status)})")
    return pdf


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
