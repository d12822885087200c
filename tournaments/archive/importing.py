"""The entry points of an import: validate a document, import it all or nothing in one
transaction (re-scored from the database once more, with an `archive.import` audit entry), and
read every archive of a backup in one consistent snapshot."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils.translation import gettext as _

from tournaments.archive.check import Checker, check_header, ensure_users
from tournaments.archive.check_event import ImportContext, check_event_body, resolve_players
from tournaments.archive.format import IMPORT_ACTION
from tournaments.archive.verify import verify_event_scores
from tournaments.archive.write import write_event_body
from tournaments.errors import ServiceError
from tournaments.models import (
    Event,
)
from tournaments.services import audit


def _check_event_doc(doc: Any, replacing: Event | None = None
                     ) -> tuple[Checker, ImportContext, dict | None]:
    checker = Checker()
    ctx = ImportContext(replacing=replacing.pk if replacing is not None else None)
    doc = check_header(doc, "event", checker, ("event",))
    plan = None
    if doc is not None and "event" in doc:
        plan = check_event_body(doc["event"], "event", checker, ctx)
        if plan is not None:
            resolve_players(checker, ctx, [plan])
    return checker, ctx, plan


def validate_event(doc: Any) -> list[dict[str, Any]]:
    """Every problem of an event archive (empty when it can be imported); writes nothing."""
    return _check_event_doc(doc)[0].errors


def import_event(doc: Any, actor: Any) -> Event:
    """Import an event archive in one transaction, or refuse it (ServiceError listing every
    problem) and write nothing."""
    checker, ctx, plan = _check_event_doc(doc)
    if checker.errors or plan is None:
        raise ServiceError(checker.errors or [{"hand": None, "field": "archive", "code": "invalid",
                                               "message": _("the archive cannot be read")}])
    with atomic_import():
        users = ensure_users(ctx.usernames)
        event = write_event_body(plan, ctx, users)
        refuse_if_rescored_differently([event])
        record_import(event, actor, doc)
    return event


def replace_event(doc: Any, event: Event) -> Event:
    """Bring `event` to the state an archive of it holds, in place (a venue's push,
    tournaments.venue): checked as an import is (its slug must be the event's), then its
    content replaced in the caller's transaction and re-scored; refused (ServiceError listing
    every problem) with nothing written. The event's row stays, and so do what refers to it
    from outside (a league's matchday, a cup). No audit entry here: the archive's trail is the
    event's trail; the caller records the push where it must."""
    checker, ctx, plan = _check_event_doc(doc, replacing=event)
    if plan is not None and plan["fields"] is not None and plan["fields"].get("slug") != event.slug:
        checker.add("event.slug", "other_event",
                    _("this archive is of the event %(slug)s, not %(event)s") % {
                        "slug": plan["fields"].get("slug"), "event": event.slug})
    if checker.errors or plan is None:
        raise ServiceError(checker.errors or [{"hand": None, "field": "archive", "code": "invalid",
                                               "message": _("the archive cannot be read")}])
    with atomic_import():
        users = ensure_users(ctx.usernames)
        event = write_event_body(plan, ctx, users, into=event)
        refuse_if_rescored_differently([event])
    return event


class atomic_import:
    """One transaction for a whole import; a database rule broken despite the checks (two
    imports of the same slug at once) is refused as a ServiceError, not a 500."""

    def __enter__(self) -> None:
        self._atomic = transaction.atomic()
        self._atomic.__enter__()

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> bool:
        self._atomic.__exit__(exc_type, exc, tb)
        if isinstance(exc, IntegrityError):
            raise ServiceError(_("the archive breaks a rule of the database: %(error)s") % {"error": exc},
                               field="archive", code="integrity_error") from exc
        return False


def refuse_if_rescored_differently(events: list[Event]) -> None:
    """After writing, score every scorecard again from the database: what was stored must be
    what the engine computes, or the import is rolled back."""
    problems = [p for event in events for p in verify_event_scores(event)]
    if problems:
        raise ServiceError(problems)


def record_import(event: Event, actor: Any, doc: dict[str, Any]) -> None:
    audit.record(actor=actor, action=IMPORT_ACTION, target=event, event=event,
                 after={"format": doc.get("format"), "version": doc.get("version"),
                        "kind": doc.get("kind"), "exported_with": doc.get("exported_with")})


def read_snapshot() -> Any:
    """A transaction in which every read sees the same moment (PostgreSQL: repeatable read,
    read only), so an archive never mixes data from before and after a concurrent write."""
    return _Snapshot()


class _Snapshot:
    def __enter__(self) -> None:
        outer = connection.in_atomic_block
        self._atomic = transaction.atomic()
        self._atomic.__enter__()
        if not outer and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> bool:
        self._atomic.__exit__(exc_type, exc, tb)
        return False
