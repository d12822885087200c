"""Archive files and backups: reading and writing one file safely (never half a file under its
real name), and a backup folder of every event and every other app's archives (hooks) with a
manifest and SHA256SUMS."""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import hooks
from tournaments.archive.export import export_event
from tournaments.archive.format import FORMAT, VERSION, dumps, exported_with, utc_iso
from tournaments.archive.importing import read_snapshot
from tournaments.errors import ServiceError
from tournaments.models import (
    Event,
)

BACKUP_FORMAT = "tarok-backup"
BACKUP_VERSION = 1


def read_file(path: str) -> str:
    """The text of an archive file, or of standard input for "-"."""
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except UnicodeDecodeError as exc:
        raise ServiceError(_("%(path)s is not UTF-8 text") % {"path": path}, field="file",
                           code="not_utf8") from exc
    except OSError as exc:
        raise ServiceError(_("cannot read %(path)s: %(reason)s") % {"path": path, "reason": exc.strerror},
                           field="file",
                           code="unreadable") from exc


def write_file(path: str | Path, text: str) -> dict[str, Any]:
    """Write an archive next to its final name and rename it into place, so a crash never
    leaves half a file under the real name. Returns its size and SHA-256."""
    data = text.encode("utf-8")
    path = Path(path)
    partial = path.with_name(f".{path.name}.partial")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial.write_bytes(data)
        os.replace(partial, path)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise ServiceError(_("cannot write %(path)s: %(reason)s") % {"path": path, "reason": exc.strerror},
                           field="file",
                           code="unwritable") from exc
    return {"file": str(path), "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def _backup_documents() -> Iterator[tuple[str, str, str, dict[str, Any]]]:
    # Apps built on this one add their archives (tournaments.hooks: the leagues' seasons, which
    # hold their matchday events); the events no archive holds yet are written on their own.
    covered: set[int] = set()
    providers = hooks.backup_providers()
    for provider in providers:
        if not provider.after_events:
            covered |= provider.events_covered()
            yield from provider.documents()
    for event in Event.objects.exclude(pk__in=covered).order_by("slug"):
        yield f"events/{event.slug}.json", "event", event.slug, export_event(event)
    # Documents that name events by slug (cup series) come after them, in import order.
    for provider in providers:
        if provider.after_events:
            yield from provider.documents()


def write_backup(directory: str | Path, *, now: dt.datetime | None = None) -> dict[str, Any]:
    """Write every event, every season and every cup series as archives into DIR/<UTC date-time>/, with a
    manifest (the time of the backup, and each file's kind, name, size and SHA-256, in the
    order to import them) and a SHA256SUMS file for `sha256sum -c`.

    The folder appears under its final name only once complete. All archives are read in
    one snapshot, so they agree with each other."""
    now = (now or timezone.now()).astimezone(dt.UTC)
    stamp = now.strftime("%Y-%m-%dT%H%M%SZ")
    root = Path(directory)
    final = root / stamp
    if final.exists():
        raise ServiceError(_("%(path)s already exists: one backup per second") % {"path": final},
                           field="directory",
                           code="backup_exists")
    partial = root / f".{stamp}.partial"
    files = []
    try:
        partial.mkdir(parents=True)
        with read_snapshot():
            for relative, kind, name, doc in _backup_documents():
                data = dumps(doc).encode("utf-8")
                target = partial / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
                files.append({"path": relative, "kind": kind, "name": name, "bytes": len(data),
                              "sha256": hashlib.sha256(data).hexdigest()})
        manifest = {"format": BACKUP_FORMAT, "version": BACKUP_VERSION, "created_at": utc_iso(now),
                    "exported_with": exported_with(),
                    "archive_format": {"format": FORMAT, "version": VERSION}, "files": files}
        (partial / "manifest.json").write_bytes(dumps(manifest).encode("utf-8"))
        (partial / "SHA256SUMS").write_bytes(
            "".join(f"{f['sha256']}  {f['path']}\n" for f in files).encode("utf-8"))
        os.replace(partial, final)
    except OSError as exc:
        shutil.rmtree(partial, ignore_errors=True)
        raise ServiceError(_("cannot write the backup into %(path)s: %(reason)s") % {
            "path": root, "reason": exc.strerror},
                           field="directory", code="unwritable") from exc
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    return {"directory": str(final), **manifest}
