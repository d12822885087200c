"""The archive a venue hold keeps in parts (tournaments.archive.parts): written and read back
as it was, one digest whether its cards are read or not, and a push that reads, at either end,
only the card it changes."""

from __future__ import annotations

import copy
import json

import pytest

from tests.tournaments.venue.test_delta import _delta_body, _hand, _post, _Server
from tests.tournaments.venue.test_holds import _dumped, _push, _take
from tournaments import archive
from tournaments.archive import delta, parts
from tournaments.models import VenueHold
from tournaments.venue import client, state


def _cards(doc: dict) -> list:
    return [t["scorecard"] for r in doc["event"]["rounds"] for t in r["tables"]]


@pytest.mark.django_db
def test_an_archive_kept_in_parts_comes_back_as_it_was_its_cards_unread(day):
    doc = day["b"]
    kept = state.kept(doc)
    back = state.unpacked(kept.packed())
    cards = _cards(back)
    assert cards and all(isinstance(c, parts.Part) for c in cards)
    # Nothing but the outline read yet; then the same archive, to the byte.
    assert [c["status"] for c in cards] == [c["status"] for c in _cards(doc)]
    assert delta.canonical(back) == delta.canonical(doc)
    # Kept again, the unread cards keep their bytes: the same packed archive and digest.
    again = state.kept(back)
    assert again.packed() == kept.packed() and again.digest() == kept.digest()
    assert all(c._value is None for c in cards)
    assert parts.read_whole(back) == doc and back == doc


@pytest.mark.django_db
def test_the_digest_moves_with_every_change_and_only_with_one(day):
    a, b = day["a"], day["b"]
    assert state.kept(a).digest() == state.kept(copy.deepcopy(a)).digest()
    assert state.kept(a).digest() != state.kept(b).digest()
    for change in ("card", "skeleton"):
        changed = copy.deepcopy(b)
        if change == "card":
            changed["event"]["rounds"][0]["tables"][0]["scorecard"]["hands"][0]["number"] += 10
        else:
            changed["event"]["registrations"][0]["player"]["last_name"] += "x"
        assert state.kept(changed).digest() != state.kept(b).digest(), change


def test_what_is_no_archive_of_an_event_is_kept_whole():
    for doc in ({"event": {"rounds": [{"tables": [{"scorecard": "not a card"}]}]}},
                {"event": {"rounds": "none"}}, [1, 2], {"kind": "event"}):
        kept = state.kept(doc)
        assert state.unpacked(kept.packed()) == doc
        assert kept.digest() == delta.digest(delta.canonical(doc))


@pytest.fixture
def reads(monkeypatch) -> list[str]:
    """The round and table of every card kept in parts that was read whole."""
    seen: list[str] = []
    value = parts.Part.value

    def watched(self):
        if self._value is None:
            seen.append(self.sha)
        return value(self)
    monkeypatch.setattr(parts.Part, "value", watched)
    return seen


def _sha_of_table(doc: dict, number: int) -> str:
    card = doc["event"]["rounds"][0]["tables"][number - 1]["scorecard"]
    return state.kept({"event": {"rounds": [{"tables": [{"scorecard": card}]}]}}).cards[0].sha


@pytest.mark.django_db
def test_the_server_reads_only_the_card_a_delta_changes(day, reads):
    event = day["event"]
    key = _take(day)
    assert _push(event.slug, key, 3, day["a"]).json() == {"applied": True, "version": 3}
    reads.clear()
    answer = _post(event.slug, key, _delta_body(day["a"], day["b"], 4, base=3))
    assert answer.json() == {"applied": True, "version": 4}, answer.content
    assert reads == [_sha_of_table(day["a"], 1)]  # table 1 played; table 2 not read
    assert _dumped(event) == archive.dumps(day["b"])
    assert state.stored(VenueHold.objects.get(event=event)) == day["b"]


@pytest.mark.django_db
def test_the_laptop_reads_only_the_card_that_changed(day, reads):
    event = day["event"]
    VenueHold.objects.create(event=event, side=VenueHold.Side.HELD, key="k",
                             server_url="https://server.example")
    server = _Server()
    assert client.push(event, transport=server)["ok"]
    before = archive.export_event(event)
    reads.clear()
    _hand(event.rounds.get().tables.get(number=2).scorecard, 1)
    assert client.push(event, transport=server)["ok"]
    assert "delta" in server.calls[-1]
    assert reads == [_sha_of_table(before, 2)]
    # The delta names the one hand, and the server's archive is the laptop's.
    changed = server.calls[-1]["delta"]["{"]["event"]["{"]["rounds"]["@"]["0"]["{"]["tables"]["@"]
    assert list(changed) == ["1"]
    assert archive.dumps(server.doc) == _dumped(event)
    assert len(json.dumps(server.calls[-1])) < 5000


@pytest.mark.django_db
def test_a_hold_kept_whole_before_is_patched_and_then_kept_in_parts(day):
    """A hold whose archive was kept as one gzip of its text (before the parts) takes the next
    delta as before."""
    import gzip

    event = day["event"]
    key = _take(day)
    assert _push(event.slug, key, 3, day["a"]).json() == {"applied": True, "version": 3}
    VenueHold.objects.filter(event=event).update(state=gzip.compress(delta.canonical(day["a"])))
    answer = _post(event.slug, key, _delta_body(day["a"], day["b"], 4, base=3))
    assert answer.json() == {"applied": True, "version": 4}, answer.content
    kept = state.stored(VenueHold.objects.get(event=event))
    assert all(isinstance(c, parts.Part) for c in _cards(kept)) and kept == day["b"]


@pytest.fixture
def fields_checked(monkeypatch) -> dict[str, int]:
    """How many objects of each model the archive's checks converted field by field."""
    from tournaments.archive.check import Checker

    seen: dict[str, int] = {}
    fields = Checker.fields

    def counted(self, model, *args, **kwargs):
        seen[model.__name__] = seen.get(model.__name__, 0) + 1
        return fields(self, model, *args, **kwargs)
    monkeypatch.setattr(Checker, "fields", counted)
    return seen


@pytest.mark.django_db
def test_the_registrations_and_tables_a_delta_leaves_are_not_checked_again(day, fields_checked):
    """A hand typed at table 1 checks table 1 and its seats, not the registrations nor
    table 2, which are the very objects of the archive the server kept; a whole push checks
    everything."""
    event = day["event"]
    key = _take(day)
    assert _push(event.slug, key, 3, day["a"]).json()["applied"]
    assert fields_checked["Registration"] == 8 and fields_checked["Seat"] == 8
    fields_checked.clear()
    answer = _post(event.slug, key, _delta_body(day["a"], day["b"], 4, base=3))
    assert answer.json() == {"applied": True, "version": 4}, answer.content
    assert (fields_checked.get("Registration", 0), fields_checked["Table"],
            fields_checked["Seat"]) == (0, 1, 4)
    assert _dumped(event) == archive.dumps(day["b"])


@pytest.mark.django_db
def test_what_ties_a_change_to_what_it_left_is_still_checked(day):
    """A registration changed to another's start number, a changed table seating a player
    of a table left as it was: refused, each at its path, and nothing written."""
    event = day["event"]
    key = _take(day)
    assert _push(event.slug, key, 3, day["b"]).json()["applied"]
    before = _dumped(event)
    for change, path, code in (
            ("number", "event.registrations[1].start_number", "duplicate"),
            ("seat", "event.rounds[0].tables[1].seats[0].start_number", "seated_twice")):
        doc = copy.deepcopy(day["b"])
        body = doc["event"]
        if change == "number":
            body["registrations"][0]["start_number"] = body["registrations"][1]["start_number"]
        else:
            body["rounds"][0]["tables"][0]["seats"][0]["start_number"] = (
                body["rounds"][0]["tables"][1]["seats"][0]["start_number"])
        answer = _post(event.slug, key, _delta_body(day["b"], doc, 4, base=3))
        assert answer.status_code == 400, answer.content
        assert (path, code) in {(e["field"], e["code"]) for e in answer.json()["errors"]}, change
        assert _dumped(event) == before


@pytest.mark.django_db
def test_reading_the_parts_of_an_archive_reads_only_its_cards(day):
    """An archive without parts is returned as it is; with parts, a copy down to its tables
    with the cards read, even where a round is of another shape (a tampered delta)."""
    doc = day["b"]
    assert parts.read_whole(doc) is doc
    back = state.unpacked(state.kept(doc).packed())
    back["event"]["rounds"].append({"number": 9, "tables": "not a list"})
    whole = parts.read_whole(back)
    assert not any(isinstance(c, parts.Part) for c in _cards({"event": {
        "rounds": whole["event"]["rounds"][:1]}}))
    assert whole["event"]["rounds"][:1] == doc["event"]["rounds"]
    assert whole["event"]["rounds"][1] == {"number": 9, "tables": "not a list"}
    assert isinstance(back["event"]["audit"], parts.Trail)
    assert type(whole["event"]["audit"]) is list and whole["event"]["audit"] == doc["event"]["audit"]


@pytest.mark.django_db
def test_postgresql_stores_the_kept_archive_as_it_is():
    """The kept bytes are compressed already: PostgreSQL stores them out of line without
    compressing them again (migration 0024), which cost some 60 ms of each push's write."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("a column's storage is PostgreSQL's (DATABASE_URL)")
    with connection.cursor() as cursor:
        cursor.execute("SELECT attstorage FROM pg_attribute WHERE attrelid = %s::regclass "
                       "AND attname = 'state'", [VenueHold._meta.db_table])
        assert cursor.fetchone() == ("e",)
