"""Writing the ratings: rebuilding a game family's ratings from the results, and queueing that
rebuild when a result changes.

A rebuild reads every confirmed or verified table of the family's rated public events
(`Event.is_public` and `Event.rated`; drafts never count, `tournaments.domain.lifecycle`), places each
table as `tournaments.domain.standings.table_placing` does (equal totals share a place), runs the rating
engine over them in the order they were played (the event's dates, then its slug, round and
table number: what an archive keeps, so an exported and imported event rates the same) and
writes only what differs from what is stored. Recomputed, never accumulated: the same results
give the same ratings, and a correction of one old table changes exactly the ratings that
depend on it. Rebuilds of one family take its `FamilyRatings` row's lock, one at a time.

Every audited change of an event reaches `on_audit` (`tournaments.hooks`); a change that may
move a rating queues one rebuild job per family (a Celery task taking the job's id, queued when
the transaction commits; a job still waiting covers later changes too).
"""

from __future__ import annotations

import json
import uuid
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from django.db import connections, models, transaction
from django.db.models import F, TextField
from django.db.models.functions import Cast
from django.utils import timezone

import scoring.rules
from rankings import engine
from rankings.families import ruleset_codes
from rankings.models import FamilyRatings, Rating, RatingStep
from tournaments.domain import lifecycle
from tournaments.domain.standings import placed_totals
from tournaments.models import Event, Job, Registration, Scorecard
from tournaments.runtime import collector, jobs

REBUILD_JOB = "ratings.rebuild"
# Rows deleted or inserted by one statement (under every database's limit of parameters).
WRITE_BATCH = 900

# Changes of a counted card (confirming, verifying, annulling) rate again; so does a change of
# the hands or money of a card that counts (a correction) and every change of an event that
# may move it in or out of the ratings or between families (public, rated, ruleset, dates),
# an imported archive and a registration moved to another player (a merge).
CARD_ACTIONS = frozenset({"scorecard.confirm", "scorecard.verify", "scorecard.annul"})
CORRECTION_ACTIONS = frozenset({"hand.create", "hand.update", "hand.delete", "money_sheet.save"})
EVENT_ACTIONS = frozenset({"event.update", "archive.import", "registration.merge"})


def rated_events():
    """The events whose tables count in the ratings."""
    return Event.objects.filter(is_public=True, rated=True)


def family_results(family: str) -> tuple[list[engine.RatedEvent], dict[int, Any]]:
    """The family's rated tables as the engine takes them, in the order they were played, and
    each event's last day. Three queries, whatever the number of events."""
    # The two JSON fields as the database keeps their text, decoded below in one go: a
    # hundred thousand cards decoded one field at a time (and through the ORM's converters)
    # cost more than the rating itself.
    cards = list(Scorecard.objects
                 .filter(ruleset_code__in=ruleset_codes(family),
                         table__round__event__in=rated_events())
                 .filter(lifecycle.counted_cards_q())
                 .annotate(ids_text=Cast("player_ids", TextField()),
                           totals_text=Cast("totals", TextField()))
                 .order_by()
                 .values_list("table__round__event_id", "table__round__number",
                              "table__number", "ids_text", "totals_text"))
    fields = json.loads("[" + ",".join([f"[{ids},{totals}]" for *_, ids, totals in cards])
                        + "]")
    by_event: dict[int, list[tuple[int, int, list[str], dict]]] = defaultdict(list)
    for (event_id, round_number, table_number, _ids, _totals), (player_ids, totals) in zip(
            cards, fields, strict=True):
        by_event[event_id].append((round_number, table_number, player_ids or [], totals or {}))
    events = {pk: (starts_on, ends_on, slug) for pk, starts_on, ends_on, slug in
              Event.objects.filter(pk__in=by_event).order_by()
              .values_list("pk", "starts_on", "ends_on", "slug")}
    # Each event's players by start number, as the cards name them.
    registered: dict[int, dict[str, int]] = defaultdict(dict)
    for event_id, number, player_id in (Registration.objects.filter(event_id__in=by_event)
                                        .order_by()
                                        .values_list("event_id", "start_number", "player_id")):
        registered[event_id][str(number)] = player_id
    rated = []
    for event_id in sorted(by_event, key=events.__getitem__):
        numbers = registered[event_id]
        tables = []
        by_event[event_id].sort(key=_round_and_table)
        for _round, _table, player_ids, totals in by_event[event_id]:
            seated = [(numbers[p], total) for p, total in placed_totals(player_ids, totals)
                      if p in numbers]
            tables.append(engine.RatedTable(tuple([player for player, _ in seated]),
                                            tuple([total for _, total in seated])))
        rated.append(engine.RatedEvent(event_id, tuple(tables)))
    return rated, {pk: dates[1] for pk, dates in events.items()}


def _round_and_table(card: tuple) -> tuple[int, int]:
    return card[0], card[1]


# What a rebuild writes of each history step and each rating (the family aside), in order.
STEP_FIELDS = ("played_on", "mu", "sigma", "conservative", "tables", "event_tables")
RATING_FIELDS = ("mu", "sigma", "conservative", "previous_conservative", "tables", "events",
                 "last_played_on")


def ratings_rebuild(family: str, *, progress: Callable[[int, int], None] | None = None
                    ) -> dict[str, int]:
    """Recompute the family's ratings and their history from the results and store what
    differs. Answers how many rows it created, changed and deleted."""
    if family not in scoring.rules.families():
        raise ValueError(f"no game family {family!r}")
    # A rebuild's millions of small objects live until it ends (the decoded cards, the tables,
    # the steps) and make no reference cycles: the collector's passes over them were a third
    # of its time.
    with collector.paused(), transaction.atomic():
        return _rebuild(family, progress)


def _rebuild(family: str, progress: Callable[[int, int], None] | None) -> dict[str, int]:
    FamilyRatings.objects.get_or_create(family=family)
    lock = FamilyRatings.objects.select_for_update().get(family=family)
    rated, last_days = family_results(family)
    total = len(rated)
    current, steps = engine.rate(rated, progress=(lambda done: progress(done, total))
                                 if progress else None)

    # Each player's last two steps: the trend and the day he last played.
    last: dict[int, tuple[float, Any]] = {}
    before_last: dict[int, float] = {}
    wanted_steps: dict[tuple[int, int], tuple] = {}
    for event, player, rating, event_tables in steps:
        mu, sigma, tables, _events = rating
        conservative = rating.conservative
        played_on = last_days[event]
        wanted_steps[(player, event)] = (played_on, mu, sigma, conservative, tables,
                                         event_tables)
        if player in last:
            before_last[player] = last[player][0]
        last[player] = (conservative, played_on)
    counts = _write_rows(RatingStep, {"family": family}, ("player_id", "event_id"), STEP_FIELDS,
                         wanted_steps)

    wanted_ratings = {(player,): (rating.mu, rating.sigma, rating.conservative,
                                  before_last.get(player), rating.tables, rating.events,
                                  last[player][1])
                      for player, rating in current.items()}
    for name, value in _write_rows(Rating, {"family": family}, ("player_id",), RATING_FIELDS,
                                   wanted_ratings).items():
        counts[f"ratings_{name}"] = value
    lock.rebuilt_at = timezone.now()
    lock.players = len(current)
    lock.tables = sum(len(e.tables) for e in rated)
    lock.save()
    return {**counts, "players": lock.players, "tables": lock.tables, "events": total}


def _write_rows(model, scope: dict[str, Any], key_fields: tuple[str, ...],
                value_fields: tuple[str, ...], wanted: dict[tuple, tuple]) -> dict[str, int]:
    """Make the stored rows of `model` within `scope` what `wanted` says ({key: the values of
    `value_fields`}, the key's fields named by `key_fields`): delete the rows not wanted,
    update those that differ, create the missing ones.

    A family's history is a hundred thousand rows: they are read by a plain cursor (the
    database driver gives numbers and dates as they are compared; the ORM would pass each
    row through its converters) and written as plain rows (new rows by COPY on PostgreSQL,
    elsewhere many rows an insert; changed ones by one prepared update), not as model
    instances through the ORM's bulk methods, which cost many times the rating itself."""
    meta = model._meta
    db = connections[model.objects.db]
    column = {name: meta.get_field(name) for name in (*key_fields, *scope, *value_fields)}
    sql, params = (model.objects.filter(**scope).order_by()
                   .values_list("pk", *key_fields, *value_fields).query.sql_with_params())
    width = len(key_fields)
    stored = {}
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        for row in cursor.fetchall():
            stored[row[1:1 + width]] = (row[0], row[1 + width:])
    gone = [pk for key, (pk, _values) in stored.items() if key not in wanted]
    changed, new = [], []
    scoped = tuple(scope.values())
    for key, values in wanted.items():
        if key not in stored:
            new.append([*key, *scoped, *values])
        elif values != stored[key][1]:
            changed.append([*values, stored[key][0]])
    # Numbers go to the database as they are; only dates need the backend's form (a rebuild
    # has few distinct dates: one per event).
    in_form: dict[Any, Any] = {}

    def prepared(rows: list[list[Any]], names: list[str]) -> list[list[Any]]:
        for i, name in enumerate(names):
            if isinstance(column.get(name), models.DateField):
                for row in rows:
                    day = row[i]
                    if day not in in_form:
                        in_form[day] = column[name].get_db_prep_save(day, db)
                    row[i] = in_form[day]
        return rows

    quote = db.ops.quote_name
    table = quote(meta.db_table)

    with db.cursor() as cursor:
        for start in range(0, len(gone), WRITE_BATCH):
            batch = gone[start:start + WRITE_BATCH]
            cursor.execute(f"DELETE FROM {table} WHERE {quote(meta.pk.column)} IN "
                           f"({', '.join(['%s'] * len(batch))})", batch)
        if changed:
            assignments = ", ".join(f"{quote(column[n].column)} = %s" for n in value_fields)
            cursor.executemany(f"UPDATE {table} SET {assignments} "
                               f"WHERE {quote(meta.pk.column)} = %s",
                               prepared(changed, [*value_fields, "pk"]))
        if new:
            names = [*key_fields, *scope, *value_fields]
            columns = ", ".join(quote(column[n].column) for n in names)
            new = prepared(new, names)
            if db.vendor == "postgresql":
                # COPY: a hundred thousand rows in a fraction of the time of any INSERT.
                with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                    for row in new:
                        copy.write_row(row)
            else:
                # Many rows a statement, as many as the database takes parameters.
                one = f"({', '.join(['%s'] * len(names))})"
                size = min(WRITE_BATCH, (db.features.max_query_params or 65535) // len(names))
                for start in range(0, len(new), size):
                    batch = new[start:start + size]
                    cursor.execute(f"INSERT INTO {table} ({columns}) VALUES "
                                   + ", ".join([one] * len(batch)),
                                   [value for row in batch for value in row])
    return {"created": len(new), "changed": len(changed), "deleted": len(gone)}


def ratings_rebuild_all(*, progress: Callable[[str, int, int], None] | None = None
                        ) -> dict[str, dict[str, int]]:
    """Rebuild every family (the management command)."""
    return {family: ratings_rebuild(family, progress=(lambda done, total, f=family:
                                                      progress(f, done, total))
                                    if progress else None)
            for family in scoring.rules.families()}


# ---------------------------------------------------------------------------------------
# Queueing
# ---------------------------------------------------------------------------------------


def queue_rebuild(families: list[str], *, actor: Any = None) -> list[Job]:
    """A rebuild job per family, unless one is still waiting (it will read this change too);
    its task is published when the transaction commits."""
    queued = []
    for family in families:
        prefix = f"ratings:{family}:"
        # Locked until this transaction commits: a worker claiming the job waits for it, so
        # the job it runs reads this change (run_rebuild_job claims with a conditional update).
        waiting = (Job.objects.select_for_update()
                   .filter(kind=REBUILD_JOB, status=Job.Status.QUEUED, key__startswith=prefix)
                   .order_by("pk").first())
        if waiting is not None:
            queued.append(waiting)
            continue
        user = actor if getattr(actor, "is_authenticated", False) else None
        job = Job.objects.create(key=f"{prefix}{uuid.uuid4().hex}", kind=REBUILD_JOB,
                                 result={"family": family}, created_by=user)
        jobs.queue(job)
        queued.append(job)
    return queued


def run_rebuild_job(job_id: int) -> Job:
    """The task's work: rebuild the job's family, reporting progress on the job. Idempotent:
    a second run finds nothing to change. A finished job is answered as it is."""
    job = Job.objects.get(pk=job_id)
    if job.status == Job.Status.DONE:
        return job
    family = (job.result or {}).get("family", "")
    Job.objects.filter(pk=job_id).exclude(status=Job.Status.DONE).update(
        status=Job.Status.RUNNING, attempts=F("attempts") + 1, updated_at=timezone.now())

    def report(done: int, total: int) -> None:
        # every event saves the job: its updated_at is the worker's heartbeat (tournaments.runtime.jobs)
        Job.objects.filter(pk=job_id).update(progress=done, total=total, updated_at=timezone.now())

    try:
        counts = ratings_rebuild(family, progress=report)
    except ValueError as exc:
        Job.objects.filter(pk=job_id).update(status=Job.Status.FAILED, message=str(exc),
                                             updated_at=timezone.now())
        job.refresh_from_db()
        return job
    job.refresh_from_db()
    job.status, job.result = Job.Status.DONE, {"family": family, **counts}
    job.save(update_fields=["status", "result", "updated_at"])
    return job


def on_audit(action: str, event: Event, target: Any) -> None:
    """The listener of every audited change of an event (registered in rankings.apps)."""
    if action in EVENT_ACTIONS:
        queue_rebuild(scoring.rules.families())
        return
    if action in CARD_ACTIONS:
        card = target
    elif action in CORRECTION_ACTIONS:
        card = target.scorecard if hasattr(target, "scorecard") else target
        if card.status not in lifecycle.COUNTED_CARDS:
            return
    else:
        return
    family = scoring.rules.family_of(card.ruleset_code)
    if family and event.is_public and event.rated:
        queue_rebuild([family])
