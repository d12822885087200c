"""The open archive format of a cup series (docs/archive-format.md, "Cup series"): the series,
its organisers, its cup-points table, its tournaments named by event slug, and the series' own
audit trail.

A cup series is an archive kind of its own (`"kind": "cup"`) rather than a part of a season's
archive: nothing ties a cup to one league or season (a Tarockcup runs over single
tournaments, which may belong to no league, and a series may span the events of two seasons),
so embedding it in a season would either copy it into several files or lose it. It names its
tournaments by slug and embeds none of them: each event is archived once, in its own file or
its season's, and a cup archive is imported after them (a backup's manifest lists cups last).

`export_cup(series) -> dict`, `validate_cup(doc)` and `import_cup(doc, actor)` mirror
`tournaments.archive`: the whole file is checked first and refused with every problem at its
path, then written in one transaction; `tournaments.archive.dumps` writes the file, and
export → import → export gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils.translation import gettext as _

from leagues.models import CupPoints, CupSeries, CupSeriesEvent
from tournaments.archive import (
    FORMAT,
    IMPORT_ACTION,
    LOCAL_ACTIONS,
    VERSION,
    Checker,
    ImportContext,
    atomic_import,
    audit_out,
    check_audit_list,
    check_header,
    ensure_users,
    exported_with,
    plain,
    usernames_of,
    write_audit,
)
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Event
from tournaments.services import audit

CUP_FIELDS = ("name", "slug", "season_label", "best_results_counted", "final_counts_extra",
              "is_public")
CUP_EVENT_FIELDS = ("order", "is_final")
CUP_POINTS_FIELDS = ("place", "points")
CUP_KEYS = (*CUP_FIELDS, "organisers", "points_table", "events", "audit")

RELATION_KEYS: dict[type[models.Model], dict[str, str]] = {
    CupSeries: {"organisers": "organisers (usernames)", "events": "events (by slug)"},
    CupSeriesEvent: {"series": "nesting", "event": "event (slug)"},
    CupPoints: {"series": "nesting"},
}
LEFT_OUT: dict[type[models.Model], dict[str, str]] = {
    CupSeries: {"id": "database id"},
    CupSeriesEvent: {"id": "database id"},
    CupPoints: {"id": "database id"},
}


# ---------------------------------------------------------------------------------------
# Export
# ---------------------------------------------------------------------------------------

def export_cup(series: CupSeries) -> dict[str, Any]:
    """The archive document of one cup series."""
    return {"format": FORMAT, "version": VERSION, "kind": "cup",
            "exported_with": exported_with(), "cup": cup_body(series)}


def cup_body(series: CupSeries) -> dict[str, Any]:
    body = plain(series, CUP_FIELDS)
    body["organisers"] = usernames_of(series.organisers)
    body["points_table"] = [plain(row, CUP_POINTS_FIELDS)
                            for row in series.points_table.order_by("place")]
    items = sorted(series.series_events.select_related("event"),
                   key=lambda item: (item.order, item.event.slug))
    body["events"] = [{**plain(item, CUP_EVENT_FIELDS), "event": item.event.slug}
                      for item in items]
    # The entries that belong to an event (adding or removing a tournament) are in that
    # event's archive; the series keeps those that belong to no event.
    ct = ContentType.objects.get_for_model(CupSeries, for_concrete_model=False)
    entries = (AuditEntry.objects.filter(content_type=ct, object_id=str(series.pk), event__isnull=True)
               .exclude(action__in=LOCAL_ACTIONS).select_related("actor", "content_type"))
    body["audit"] = [audit_out(e, {"slug": series.slug}, None)
                     for e in sorted(entries, key=lambda e: (e.created_at, e.pk))]
    return body


# ---------------------------------------------------------------------------------------
# Checking
# ---------------------------------------------------------------------------------------

def _check_doc(doc: Any) -> tuple[Checker, ImportContext, dict | None]:
    checker = Checker()
    ctx = ImportContext()
    doc = check_header(doc, "cup", checker, ("cup",))
    if doc is None or "cup" not in doc:
        return checker, ctx, None
    plan = _check_cup(doc["cup"], "cup", checker, ctx)
    return checker, ctx, plan


def _check_cup(body: Any, path: str, checker: Checker, ctx: ImportContext) -> dict | None:
    """The plan of a cup's body, or None when it has problems (every one of them is in
    `checker`, in the order of the file): its fields, organisers, points table, tournaments
    and trail."""
    before = len(checker.errors)
    body = checker.obj(body, path, CUP_KEYS)
    if body is None:
        return None
    fields = checker.fields(CupSeries, CUP_FIELDS, body, path)
    if fields is not None:
        checker.check_constraints(CupSeries(**fields), path)
        if CupSeries.objects.filter(slug=fields["slug"]).exists():
            checker.add(f"{path}.slug", "cup_exists",
                        _("a cup series %(slug)s exists in this database; delete or rename it "
                          "first, or import into another database") % {"slug": repr(fields["slug"])})
    organisers = []
    for i, name in enumerate(checker.items(body.get("organisers", []), f"{path}.organisers")):
        cleaned = checker.username(name, f"{path}.organisers[{i}]", nullable=False)
        if cleaned:
            organisers.append(cleaned)
            ctx.usernames.add(cleaned)
    points = _check_points_table(body, path, checker)
    events = _check_cup_events(body, path, checker)
    trail = check_audit_list(body.get("audit", []), f"{path}.audit", checker, ctx,
                             _cup_ref_check(checker, body.get("slug")), None)
    if len(checker.errors) != before:
        return None
    return {"fields": fields, "organisers": organisers, "points": points, "events": events,
            "audit": trail}


def _check_points_table(body: dict, path: str, checker: Checker) -> list[dict]:
    """The rows of the points table: places begin at 1 and rise by row, given once; no place
    gets more points than the one before it."""
    points = []
    places: set[int] = set()
    previous_points: int | None = None
    for i, row in enumerate(checker.items(body.get("points_table", []), f"{path}.points_table")):
        p = f"{path}.points_table[{i}]"
        row = checker.obj(row, p, CUP_POINTS_FIELDS)
        if row is None:
            continue
        values = checker.fields(CupPoints, CUP_POINTS_FIELDS, row, p)
        if values is None:
            continue
        if values["place"] < 1 or values["place"] in places or (places and values["place"] < max(places)):
            checker.add(f"{p}.place", "invalid_place",
                        _("places begin at 1, are given once and in order, got %(place)s") % {
                            "place": values["place"]})
        elif previous_points is not None and values["points"] > previous_points:
            checker.add(f"{p}.points", "not_decreasing",
                        _("place %(place)s would get more points than the place before it") % {
                            "place": values["place"]})
        places.add(values["place"])
        previous_points = values["points"]
        points.append(values)
    return points


def _check_cup_events(body: dict, path: str, checker: Checker) -> list[dict]:
    """The series' tournaments, named by slug: each is in this database (imported before the
    cup) and in the series once, and one of them at most is the final."""
    events = []
    slugs: set[str] = set()
    finals = 0
    for i, item in enumerate(checker.items(body.get("events", []), f"{path}.events")):
        p = f"{path}.events[{i}]"
        item = checker.obj(item, p, (*CUP_EVENT_FIELDS, "event"))
        if item is None:
            continue
        values = checker.fields(CupSeriesEvent, CUP_EVENT_FIELDS, item, p)
        slug = item.get("event")
        event = Event.objects.filter(slug=slug).first() if isinstance(slug, str) else None
        if event is None:
            checker.add(f"{p}.event", "unknown_event",
                        _("this database has no event %(slug)s: import the cup's events (their "
                          "own archives or their seasons') before the cup") % {"slug": repr(slug)})
        elif slug in slugs:
            checker.add(f"{p}.event", "duplicate",
                        _("the event %(slug)s is in the series twice") % {"slug": repr(slug)})
        slugs.add(slug)
        if values is not None:
            finals += values["is_final"]
            events.append({"fields": values, "event": event})
    if finals > 1:
        checker.add(f"{path}.events", "two_finals", _("a series has one final"))
    return events


def _cup_ref_check(checker: Checker, slug: Any) -> Callable[[str, Any, str], Any]:
    """`check_ref` of the cup's trail: an entry names only this cup, by its slug."""
    def check_ref(type_label: str, ref: Any, p: str) -> Any:
        if type_label != "leagues.cupseries":
            checker.add(p, "unknown_ref", _("a cup's trail names only the cup, not %(type)s") % {
                "type": repr(type_label)})
            return None
        ref = checker.obj(ref, p, ("slug",))
        if ref is not None and ref.get("slug") != slug:
            checker.add(f"{p}.slug", "unknown_cup", _("names another cup series than this one"))
            return None
        return ref

    return check_ref


# ---------------------------------------------------------------------------------------
# Import
# ---------------------------------------------------------------------------------------

def validate_cup(doc: Any) -> list[dict[str, Any]]:
    """Every problem of a cup archive (empty when it can be imported); writes nothing."""
    return _check_doc(doc)[0].errors


def import_cup(doc: Any, actor: Any) -> CupSeries:
    """Import a cup archive in one transaction, or refuse it with every problem listed and
    write nothing. Its events must already be in the database."""
    checker, _ctx, plan = _check_doc(doc)
    if checker.errors or plan is None:
        raise ServiceError(checker.errors or [{"hand": None, "field": "archive", "code": "invalid",
                                               "message": _("the archive cannot be read")}])
    with atomic_import():
        users = ensure_users(_ctx.usernames)
        series = CupSeries.objects.create(**plan["fields"])
        series.organisers.set([users[u] for u in plan["organisers"]])
        CupPoints.objects.bulk_create(CupPoints(series=series, **row) for row in plan["points"])
        for item in plan["events"]:
            CupSeriesEvent.objects.create(series=series, event=item["event"], **item["fields"])
        write_audit(plan["audit"], event=None, users=users,
                       find_target=lambda type_label, ref: series, tables={})
        audit.record(actor=actor, action=IMPORT_ACTION, target=series,
                     after={"format": doc.get("format"), "version": doc.get("version"),
                            "kind": doc.get("kind"), "exported_with": doc.get("exported_with")})
    return series


# ---------------------------------------------------------------------------------------
# Backups
# ---------------------------------------------------------------------------------------

def backup_documents() -> Iterator[tuple[str, str, str, dict[str, Any]]]:
    """(relative path, kind, name, document) of every cup series, for `manage.py
    backup_archives` (registered in leagues.apps to come after every event and season, since
    a cup names their events)."""
    for series in CupSeries.objects.order_by("slug"):
        yield f"cups/{series.slug}.json", "cup", series.slug, export_cup(series)


def cup_by_slug(slug: str) -> CupSeries | None:
    return CupSeries.objects.filter(slug=slug).first()
