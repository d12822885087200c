"""The short cuts of issue #35 give what the long ways give: the archive's text is
`json.dumps(..., indent=2)` byte for byte, the JSON input limits find the same problems, a
card stored exactly as the import checked it is not scored a second time while any other is,
the players of a file are matched as one by one, and rows written without model objects are
stored as model objects would be."""

from __future__ import annotations

import json

import pytest

from tests.tournaments.archive.test_event import rich_demo, wipe_database
from tournaments import archive
from tournaments.archive import importing, verify
from tournaments.archive.check import PlayerResolver
from tournaments.domain import limits
from tournaments.models import Event, Hand, Player


def _reference(doc) -> str:
    return json.dumps(doc, sort_keys=True, ensure_ascii=False, indent=2) + "\n"


@pytest.mark.parametrize("doc", [
    {}, [], "text", 7, None, 1.5, float("nan"), [1e300, -0.0, 10**30, True, False],
    {"a": [], "b": {}, "c": [[]], "d": [{}]},
    {"b": 1, "a": [1, 2.5, None, True, "x\n\u200b\"\\ž"]},
    {"k": [{"x": (1, 2)}, (3, [4])], "\u010d": {"é": "ž"}},
    {1: "a", 2: {"z": 1}}, {"a": {1: 2, 3: [1]}}, {"a": [1, [2, [3, {}]]]},
])
def test_the_archives_text_is_json_dumps_indented_byte_for_byte(doc):
    assert archive.dumps(doc) == _reference(doc)


def test_a_value_json_cannot_write_is_refused_as_json_refuses_it():
    with pytest.raises(TypeError):
        archive.dumps({"a": {"b": [object()]}})
    with pytest.raises(TypeError):
        archive.dumps({"a": [1], 2: [3]})  # keys of two types: json cannot sort them


@pytest.mark.django_db
def test_a_whole_events_archive_is_the_same_text_as_json_writes_it():
    doc = archive.export_event(rich_demo())
    assert archive.dumps(doc) == _reference(doc)


@pytest.mark.parametrize("text", [
    '{"a": "ok", "b": ["line\\nbreak", {"c": 1.5}]}',
    '{"a\\nb": 1}', '{"a": "\\u200b"}', '{"a": "\\u0000"}', '["\\u2028"]', '{"a": NaN}',
    '{"a": [[[[[[1]]]]]]}', '"\\u0007"',
])
def test_the_json_limits_find_what_the_walk_with_paths_finds(text, monkeypatch):
    value = json.loads(text)
    plainly_fine = limits._plainly_fine
    for multiline in (True, False):
        fine = plainly_fine(value, 4, multiline)
        fast = limits.json_problems(value, max_depth=4, multiline=multiline)
        with monkeypatch.context() as m:
            m.setattr(limits, "_plainly_fine", lambda *args: False)
            slow = limits.json_problems(value, max_depth=4, multiline=multiline)
        # "Plainly fine" is never wrong; not plainly fine only means the walk looks closer.
        assert fast == slow and (slow == [] if fine else True)


@pytest.mark.django_db
def test_a_card_stored_as_checked_is_not_scored_again_and_any_other_is(monkeypatch):
    doc = archive.export_event(rich_demo())
    wipe_database()
    checker, _ctx, plan = importing._check_event_doc(doc)
    assert not checker.errors
    event = archive.import_event(doc, actor=None)
    checked = verify.checked_cards(plan)
    assert checked

    scored = []
    real = verify.score_mismatches
    monkeypatch.setattr(verify, "score_mismatches", lambda spec, path, *a: scored.append(path) or real(spec, path, *a))
    assert verify.verify_event_scores(event, checked=checked) == []
    assert scored == []
    assert verify.verify_event_scores(event) == [] and len(scored) == len(checked)

    hand = Hand.objects.filter(scorecard__table__round__event=event).order_by("pk").first()
    Hand.objects.filter(pk=hand.pk).update(value=hand.value + 1)
    scored.clear()
    problems = verify.verify_event_scores(event, checked=checked)
    assert len(scored) == 1
    assert [p["code"] for p in problems] == ["score_mismatch"]
    assert Event.objects.filter(pk=event.pk).exists()


@pytest.mark.django_db
def test_players_read_ahead_are_matched_as_one_by_one():
    doc = archive.export_event(rich_demo())
    players = [(r["player"], r["player"]["user"]) for r in doc["event"]["registrations"]]
    values = [({k: v for k, v in p.items() if k != "user"}, user) for p, user in players]
    Player.objects.create(first_name=values[0][0]["first_name"], last_name=values[0][0]["last_name"],
                          club=values[0][0]["club"])  # a namesake the one-by-one way may claim
    one_by_one, ahead = PlayerResolver(), PlayerResolver()
    ahead.prefetch(values)
    counts = {}
    for v, user in values:
        key = (v["first_name"], v["last_name"], v["club"])
        occurrence = counts.get(key, 0)
        counts[key] = occurrence + 1
        a, b = one_by_one.resolve(v, user, occurrence), ahead.resolve(v, user, occurrence)
        assert type(a) is type(b)
        assert (a.pk == b.pk) if isinstance(a, Player) else (a.values == b.values and a.user == b.user)


@pytest.mark.django_db
def test_rows_copied_into_postgresql_come_back_as_the_archive_holds_them(monkeypatch):
    """Large kinds of rows go into PostgreSQL with COPY (tournaments.archive.write._copied);
    here every kind does, and the event exports again to the same text."""
    from django.db import connection

    from tournaments.archive import write

    if connection.vendor != "postgresql":
        pytest.skip("COPY is PostgreSQL's (DATABASE_URL)")
    text = archive.dumps(archive.export_event(rich_demo()))
    wipe_database()
    monkeypatch.setattr(write, "COPY_FROM", 1)
    event = archive.import_event(json.loads(text), actor=None)
    assert archive.dumps(archive.export_event(event)) == text
    hand = Hand.objects.filter(scorecard__table__round__event=event).order_by("pk").last()
    assert hand.scorecard.table.round.event == event and isinstance(hand.record, dict)


@pytest.mark.django_db
@pytest.mark.parametrize("copy_from", [1, 10**6])
def test_plain_rows_take_the_defaults_of_what_they_leave_out(monkeypatch, copy_from):
    """The hands and the trail are written as plain rows (write.inserted_rows), with COPY on
    PostgreSQL from COPY_FROM rows on (in COPY's text format) and with bulk_create otherwise: a
    field a row leaves out gets its default either way, a relation given by key is stored as
    that key, and tabs, line ends and backslashes come back as they went."""
    from datetime import timedelta

    from django.contrib.contenttypes.models import ContentType
    from django.utils import timezone

    from tournaments.archive import write
    from tournaments.models import AuditEntry

    monkeypatch.setattr(write, "COPY_FROM", copy_from)
    event = rich_demo()
    kind = ContentType.objects.get_for_model(Event).pk
    when = timezone.now().replace(microsecond=123456) - timedelta(days=3)
    keys = write.inserted_rows(AuditEntry, [
        {"event_id": event.pk, "content_type_id": kind, "object_id": str(event.pk),
         "action": "bench.one", "object_repr": "one", "created_at": when},
        {"event_id": None, "content_type_id": kind, "object_id": "-", "action": "bench.two",
         "object_repr": "two", "created_at": when, "before": {"a": [1, "ž\t\n\\N"]},
         "via": "table_link", "reason": "a tab\there,\na line, \\N and a back\\slash\r"},
    ])
    one, two = (AuditEntry.objects.get(pk=pk) for pk in keys)
    assert (one.event_id, one.via, one.before, one.after, one.reason, one.actor_id) == (
        event.pk, "", None, None, "", None)
    assert one.created_at == when and two.created_at == when
    assert (two.event_id, two.before, two.via) == (None, {"a": [1, "ž\t\n\\N"]}, "table_link")
    assert two.reason == "a tab\there,\na line, \\N and a back\\slash\r"


@pytest.mark.django_db
def test_json_columns_decoded_together_are_what_values_gives():
    """format.json_values decodes each JSON column in one go; the rows are values()'s, JSON
    null and SQL NULL included."""
    from tournaments.archive.format import AUDIT_FIELDS, HAND_FIELDS, SCORECARD_FIELDS, json_values
    from tournaments.models import AuditEntry, Scorecard

    event = rich_demo()
    hand = Hand.objects.filter(scorecard__table__round__event=event).order_by("pk").first()
    Hand.objects.filter(pk=hand.pk).update(payout=None, state={"a": None, "b": [1.5, "ž"]})
    for queryset, names in (
            (Hand.objects.order_by("pk"), ("pk", "scorecard_id", *HAND_FIELDS)),
            (Scorecard.objects.order_by("pk"), ("pk", "table_id", *SCORECARD_FIELDS)),
            (AuditEntry.objects.order_by("pk"), ("pk", "actor_id", *AUDIT_FIELDS))):
        expected = list(queryset.values(*names))
        assert expected and json_values(queryset, *names) == expected
    assert any(row["payout"] is None for row in json_values(Hand.objects.all(), "payout"))


@pytest.mark.parametrize("model, names", [("AuditEntry", "NAMES_ENTRIES"), ("Hand", "NAMES_HANDS")])
def test_what_an_event_clears_in_one_statement_is_named_only_where_it_is_set_to_null(model, names):
    """clear_event deletes the trail and the hands without reading them, having set to null
    what names them: every reference to them (hidden ones too) must be among those."""
    from tournaments import models
    from tournaments.archive import write

    named = {(f.related_model, f.field.name)
             for f in getattr(models, model)._meta.get_fields(include_hidden=True)
             if f.auto_created and not f.concrete}
    assert named == set(getattr(write, names))


@pytest.mark.django_db
def test_an_event_cleared_leaves_nothing_that_names_its_rows():
    """A decided dispute's correction, a penalty's hand and a referee call's correction name
    rows clear_event deletes without reading: the event's content goes and every reference
    still holds (checked by the database, as at a commit); a row outside the event that
    named one (no service makes such, the database allows it) is set to null."""
    from django.db import connection
    from django.utils import timezone

    from tournaments.archive.write import clear_event
    from tournaments.models import AuditEntry, Dispute, Penalty, RefereeCall

    event = rich_demo()
    assert Dispute.objects.filter(event=event, correction__isnull=False).exists()
    assert Penalty.objects.filter(event=event, hand__isnull=False).exists()
    table = Dispute.objects.filter(event=event).exclude(table=None).first().table
    RefereeCall.objects.create(event=event, table=table, resolved_at=timezone.now(),
                               correction=AuditEntry.objects.filter(event=event).last())
    other = _another_event()
    outside = RefereeCall.objects.create(
        event=other, table=other.rounds.get().tables.get(), resolved_at=timezone.now(),
        correction=AuditEntry.objects.filter(event=event).first())
    clear_event(event)
    connection.check_constraints()
    outside.refresh_from_db()
    assert outside.correction is None
    for model in (AuditEntry, Hand, Dispute, Penalty, RefereeCall):
        assert not model.objects.filter(**({"scorecard__table__round__event": event}
                                           if model is Hand else {"event": event})).exists()
    assert AuditEntry.objects.filter(event=other).exists()
    assert Hand.objects.filter(scorecard__table__round__event=other).exists()


def _another_event() -> Event:
    """Another event with a trail and hands, which clearing the first leaves alone."""
    from sample_data import printouts

    event = printouts.slovenian_event(slug="another-event", tables=1, hands_per_round=4)
    printouts.play_tri1_table(printouts.seat(event, 1).tables.get(number=1))
    return event
