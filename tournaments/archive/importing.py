"""The entry points of an import: validate a document, import it all or nothing in one
transaction (re-scored from the database once more, with an `archive.import` audit entry), and
read every archive of a backup in one consistent snapshot."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils.translation import gettext as _

from tournaments.archive import parts, verify, write_changes
from tournaments.archive.check import Checker, check_header, ensure_users
from tournaments.archive.check_event import ImportContext, check_event_body, resolve_players
from tournaments.archive.format import IMPORT_ACTION
from tournaments.archive.verify import verify_event_scores
from tournaments.archive.write import write_event_body
from tournaments.errors import ServiceError
from tournaments.models import (
    Entry,
    Event,
    PlayerLink,
    Registration,
)
from tournaments.runtime import collector
from tournaments.services import audit


def _check_event_doc(doc: Any, replacing: Event | None = None, *, previous: dict | None = None,
                     resolve: bool = True, trust_unchanged: bool = False
                     ) -> tuple[Checker, ImportContext, dict | None]:
    """Check an event archive: (its problems, the import's context, the plan). `previous`: the
    archive `replacing` was last brought to, whose unchanged cards are not scored again;
    `trust_unchanged`: nor checked at all where they are its very objects, nor its trail's
    entries (check_event.TRUSTED: a plan only `write_changes` writes); `resolve=False` leaves
    the players unmatched with the registry (`resolve_players`)."""
    checker = Checker()
    ctx = ImportContext(replacing=replacing.pk if replacing is not None else None)
    if previous is not None:
        body = previous["event"]
        ctx.scored_stake = body["stake_haler"]
        ctx.scored_cards = {(r["number"], t["number"]): t["scorecard"]
                            for r in body["rounds"] for t in r["tables"]}
        ctx.trust_unchanged, ctx.checked_audit = trust_unchanged, body["audit"]
        ctx.checked_registrations = body["registrations"]
        ctx.checked_tables = {(i, j): t for i, r in enumerate(body["rounds"])
                              for j, t in enumerate(r["tables"])}
    doc = check_header(doc, "event", checker, ("event",))
    plan = None
    if doc is not None and "event" in doc:
        plan = check_event_body(doc["event"], "event", checker, ctx)
        if plan is not None and resolve:
            resolve_players(checker, ctx, [plan])
    return checker, ctx, plan


def validate_event(doc: Any) -> list[dict[str, Any]]:
    """Every problem of an event archive (empty when it can be imported); writes nothing."""
    return _check_event_doc(doc)[0].errors


def import_event(doc: Any, actor: Any) -> Event:
    """Import an event archive in one transaction, or refuse it (ServiceError listing every
    problem) and write nothing."""
    # The check's and the write's many small objects die with them, unwalked by the collector
    # (tournaments.runtime.collector): a fifth of an import at 1,024 players.
    return collector.run_paused(_import_event, doc, actor)


def _import_event(doc: Any, actor: Any) -> Event:
    checker, ctx, plan = _check_event_doc(doc)
    if checker.errors or plan is None:
        raise ServiceError(checker.errors or [{"hand": None, "field": "archive", "code": "invalid",
                                               "message": _("the archive cannot be read")}])
    with atomic_import():
        users = ensure_users(ctx.usernames)
        event = write_event_body(plan, ctx, users)
        refuse_if_rescored_differently([event], plans=[plan])
        record_import(event, actor, doc)
    return event


def replace_event(doc: Any, event: Event, *, accounts_of: set[str] | None = None) -> Event:
    """Bring `event` to the state an archive of it holds, in place: `update_event` from no
    known earlier archive, so written as a whole."""
    return update_event(doc, event, accounts_of=accounts_of)


def update_event(doc: Any, event: Event, *, previous: dict | None = None,
                 accounts_of: set[str] | None = None) -> Event:
    """Bring `event` to the state an archive of it holds, in place (a venue's push,
    tournaments.venue): checked as an import is (its slug must be the event's), then its
    content written in the caller's transaction and re-scored; refused (ServiceError listing
    every problem) with nothing written. The event's row stays, and so do what refers to it
    from outside (a league's matchday, a cup). No audit entry here: the archive's trail is the
    event's trail; the caller records the push where it must.

    `previous`: the archive the event was last brought to (checked then, and the stored event
    unchanged since, which the venue's hold guarantees). When the new one has the same shape
    (`write_changes.fits`), only what changed is checked against the engine and written (one
    more hand: one card); otherwise, and without `previous`, the content is replaced whole.

    `accounts_of`: the only usernames of the archive that name this database's accounts (a
    venue's push: the event's own officials, whose accounts the laptop took with the event);
    every other name is no account here (its entries keep their labels) and no account is
    created, so an archive from outside never speaks for this database's users."""
    return collector.run_paused(_update_event, doc, event, previous=previous,
                                accounts_of=accounts_of)


def _update_event(doc: Any, event: Event, *, previous: dict | None,
                  accounts_of: set[str] | None) -> Event:
    checker, ctx, plan = _check_event_doc(doc, replacing=event, previous=previous, resolve=False,
                                          trust_unchanged=previous is not None)
    in_place = (previous is not None and plan is not None and not checker.errors
                and not _other_slug(plan, event) and write_changes.fits(previous["event"], doc["event"]))
    if previous is not None and not in_place:
        # Only a write of what changed may rest on what was checked before: anything else
        # (and every refusal, which lists every problem) is checked in full, every card read.
        doc, previous = parts.read_whole(doc), parts.read_whole(previous)
        checker, ctx, plan = _check_event_doc(doc, replacing=event, previous=previous,
                                              resolve=False)
    if _other_slug(plan, event):
        checker.add("event.slug", "other_event",
                    _("this archive is of the event %(slug)s, not %(event)s") % {
                        "slug": plan["fields"].get("slug"), "event": event.slug})
    if plan is not None and not in_place:
        resolve_players(checker, ctx, [plan])
    if checker.errors or plan is None:
        raise ServiceError(checker.errors or [{"hand": None, "field": "archive", "code": "invalid",
                                               "message": _("the archive cannot be read")}])
    with atomic_import():
        if accounts_of is None:
            users = ensure_users(ctx.usernames)
        else:
            known = _accounts(ctx.usernames & accounts_of)
            users = {name: known.get(name) for name in ctx.usernames}
        if in_place:
            cards = write_changes.write_changes(plan, previous["event"], doc["event"], event, users)
            refuse_if_rescored_differently([event], cards=cards)
            return event
        kept = _local_of(event)
        event = write_event_body(plan, ctx, users, into=event)
        _restore_local(event, kept)
        refuse_if_rescored_differently([event], plans=[plan])
    return event


def _other_slug(plan: dict | None, event: Event) -> bool:
    return plan is not None and plan["fields"] is not None and plan["fields"].get("slug") != event.slug


def _local_of(event: Event) -> dict[str, Any]:
    """What this database keeps of the event's registrations that no archive carries: the
    players' personal links (they were handed out), their addresses and message wishes, and the
    online entries they came from; by start number."""
    regs = {r.pk: r.start_number for r in event.registrations.all()}
    return {
        "links": dict(PlayerLink.objects.filter(registration__event=event, revoked_at__isnull=True)
                      .values_list("registration__start_number", "token")),
        "contact": {r["start_number"]: r for r in event.registrations.exclude(email="").values(
            "start_number", "email", "round_messages", "correction_messages", "message_language")},
        "entries": {pk: regs[reg] for pk, reg in
                    event.entries.filter(registration__isnull=False).values_list("pk", "registration")},
    }


def _restore_local(event: Event, kept: dict[str, Any]) -> None:
    """Put back, on the registrations of the same start numbers, what `_local_of` kept."""
    regs = {r.start_number: r.pk for r in event.registrations.all()}
    for number, token in kept["links"].items():
        if number in regs:
            PlayerLink.objects.filter(registration_id=regs[number], revoked_at__isnull=True).update(token=token)
    for number, contact in kept["contact"].items():
        if number in regs:
            Registration.objects.filter(pk=regs[number]).update(
                **{k: v for k, v in contact.items() if k != "start_number"})
    for entry_id, number in kept["entries"].items():
        if number in regs:
            Entry.objects.filter(pk=entry_id).update(registration_id=regs[number])


def _accounts(usernames: set[str]) -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    model = get_user_model()
    return {u.get_username(): u for u in
            model.objects.filter(**{f"{model.USERNAME_FIELD}__in": sorted(usernames)})}


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


def refuse_if_rescored_differently(events: list[Event],
                                   cards: set[tuple[int, int]] | None = None,
                                   plans: list[dict] | None = None) -> None:
    """After writing, score every scorecard again from the database (or only `cards`, by
    (round, table)): what was stored must be what the engine computes, or the import is rolled
    back. `plans`: the checked plans the events were written from, in the same order; a card
    stored exactly as its plan holds it was scored by the check and is not scored again
    (verify.verify_event_scores)."""
    checked = [verify.checked_cards(plan) for plan in plans] if plans is not None else [None] * len(events)
    problems = [p for event, cards_checked in zip(events, checked, strict=True)
                for p in verify_event_scores(event, cards=cards, checked=cards_checked)]
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
