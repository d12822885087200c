"""A push of what changed (issue #32, docs/venue.md): after the first push a laptop sends the
server only what changed since the archive the server acknowledged, and the server writes
only that (one more hand: one card, its new hand and the trail's new entries), with every row
that stays keeping its id. A delta against another state is refused and the laptop then sends
the whole archive. The archive's own patch (archive.delta) is pure and tested first."""

from __future__ import annotations

import copy
import gzip
import json
import random

import pytest
from django.test import Client

from tests.tournaments.venue.test_holds import _dumped, _push, _take
from tournaments import archive, services
from tournaments.archive import delta, parts
from tournaments.errors import Conflict
from tournaments.models import Hand, VenueHold
from tournaments.venue import client, state
from tournaments.venue import services as venue

# ------------------------------------------------------------------------------------------
# The patch, pure
# ------------------------------------------------------------------------------------------


def _random_json(rng: random.Random, depth: int = 0):
    kind = rng.choice(["int", "str", "bool", "none", "list", "dict"] if depth < 4 else ["int", "str"])
    if kind == "int":
        # Not 0 or 1: Python holds them equal to false and true, and so does the patch (the
        # digest beside a push catches such a change, test_a_delta_against_another_state...).
        return rng.randint(2, 5)
    if kind == "str":
        return rng.choice(["a", "b", "c", ""])
    if kind == "bool":
        return rng.choice([True, False])
    if kind == "none":
        return None
    if kind == "list":
        return [_random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {rng.choice("wxyz"): _random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def _mutated(rng: random.Random, value, depth: int = 0):
    if depth > 4 or rng.random() < 0.2:
        return _random_json(rng, depth)
    if isinstance(value, list):
        out = [_mutated(rng, v, depth + 1) if rng.random() < 0.5 else v for v in value]
        if rng.random() < 0.3:
            out = out[:rng.randint(0, len(out))]
        if rng.random() < 0.3:
            out += [_random_json(rng, depth + 1)]
        return out
    if isinstance(value, dict):
        out = {k: (_mutated(rng, v, depth + 1) if rng.random() < 0.5 else v) for k, v in value.items()
               if rng.random() < 0.8}
        if rng.random() < 0.3:
            out[rng.choice("wxyz")] = _random_json(rng, depth + 1)
        return out
    return _random_json(rng, depth)


def test_a_patch_turns_the_old_document_into_the_new_one_and_leaves_the_old_alone():
    rng = random.Random(32)
    for _ in range(2000):
        old = _random_json(rng)
        new = _mutated(rng, old)
        kept = copy.deepcopy(old)
        patch = delta.diff(old, new)
        # It travels as JSON.
        patch = json.loads(json.dumps(patch))
        assert delta.canonical(delta.patch(old, patch)) == delta.canonical(new)
        assert old == kept
        assert (patch is None) == (delta.canonical(old) == delta.canonical(new))


def test_a_patch_of_anything_is_applied_or_refused_as_not_fitting_never_a_crash():
    rng = random.Random(35)
    keys = ["=", "{", "-", "[", "@", "+", "0", "1", "²", "w"]

    def garbage(depth=0):
        if depth > 3 or rng.random() < 0.3:
            return _random_json(rng, 3)
        if rng.random() < 0.5:
            return [garbage(depth + 1) for _ in range(rng.randint(0, 3))]
        return {rng.choice(keys): garbage(depth + 1) for _ in range(rng.randint(1, 3))}

    for _ in range(5000):
        try:
            delta.patch(_random_json(rng), garbage())
        except delta.DeltaMismatch:
            pass


def test_a_value_of_another_type_is_a_change():
    assert delta.patch({"a": 1}, delta.diff({"a": 1}, {"a": True})) == {"a": True}
    assert delta.diff(1, 1) is None


def test_a_hand_more_is_sent_as_that_hand():
    old = {"hands": [{"n": i, "record": "x" * 100} for i in range(24)], "status": "open"}
    new = {"hands": [*old["hands"], {"n": 24, "record": "y"}], "status": "open"}
    assert delta.diff(old, new) == {"{": {"hands": {"[": 25, "@": {}, "+": [{"n": 24, "record": "y"}]}}}


@pytest.mark.parametrize("old, patch", [
    ({"a": 1}, {"[": 1}),                                 # a list's patch on an object
    ([1, 2], {"{": {}}),                                  # an object's patch on a list
    ({"a": 1}, {"{": {"b": {"{": {}}}}),                  # patches a member not there
    ({"a": 1}, {"{": {}, "-": ["b"]}),                    # removes a member not there
    ({"a": 1}, {"{": {}, "-": [["a"]]}),                  # removes what is no member's name
    ([1, 2], {"[": 3, "@": {}}),                          # a length that does not fit
    ([1, 2], {"[": -1, "@": {}}),                         # nor does a negative one
    ([1, 2], {"[": 2, "@": {"5": {"=": 1}}}),             # an item not there
    ([1, 2], {"[": 2, "@": {"²": {"=": 1}}}),             # a digit int() does not read
    ([1, 2], {"[": 2, "@": {"01": {"=": 1}}}),            # not the index as written
    ([1, 2], {"[": 1, "@": {}, "+": [3]}),                # appends after cutting
    ({"a": 1}, {"=": 1, "x": 2}),                         # not one patch
    ({"a": 1}, ["not", "a", "patch"]),
])
def test_a_patch_that_does_not_fit_is_refused(old, patch):
    with pytest.raises(delta.DeltaMismatch):
        delta.patch(old, patch)


@pytest.mark.django_db
def test_the_canonical_text_is_the_same_at_both_ends_and_as_the_standard_librarys(day):
    """The laptop takes the digest of the archive it exported, the server of the archive it
    read from the push: the same text, and the one an installation that writes it with the
    standard library's json gets (an archive's values are whole numbers and text)."""
    for doc in (day["a"], day["b"]):
        read = archive.loads(archive.dumps(doc).encode("utf-8"))
        text = delta.canonical(doc)
        assert delta.canonical(read) == text
        assert text == json.dumps(doc, sort_keys=True, separators=(",", ":"),
                                  ensure_ascii=False).encode("utf-8")
    # What orjson does not write, the standard library does.
    assert delta.canonical({"b": 2**70, "a": "č"}) == '{"a":"č","b":1180591620717411303424}'.encode()


def test_the_kept_archive_is_read_back_as_it_was_written():
    """The pause of the collector around the read is its callers' (tests/tournaments/venue/
    test_collector.py): the archive read back outlives the read."""
    doc = {"event": {"audit": [{"reason": "č"}], "rounds": [1, 2]}}
    assert state.unpacked(state.kept(doc).packed()) == doc
    # A hold kept before the archive was kept in parts: one gzip of its canonical text.
    assert state.unpacked(gzip.compress(delta.canonical(doc))) == doc
    with pytest.raises(ValueError):
        state.unpacked(gzip.compress(b"{not json"))
    # A whole number beyond 64 bits comes back as it was, not as a float.
    big = {"event": {"n": 2**70, "m": -(2**64), "s": "12345678901234567890"}}
    assert state.unpacked(state.kept(big).packed()) == big
    assert isinstance(state.unpacked(state.kept(big).packed())["event"]["n"], int)
    for number in (2**70, -(2**70)):
        for doc in ({"n": number}, [number], [1, number], {"s": "x", "n": number}):
            assert parts.loads(delta.canonical(doc)) == doc


def test_twenty_digits_inside_a_text_are_read_by_orjson(monkeypatch):
    """A card's digest in a kept skeleton may hold twenty digits in a row: no number beyond
    64 bits, so not the standard library's slower read."""
    monkeypatch.setattr(parts.json, "loads", lambda text: pytest.fail("read by json"))
    assert parts.loads(b'{"s":"a12345678901234567890"}') == {"s": "a12345678901234567890"}


# ------------------------------------------------------------------------------------------
# The server
# ------------------------------------------------------------------------------------------


def _post(slug: str, key: str, body: dict):
    return Client().post(f"/api/v1/events/{slug}/venue/push/", json.dumps(body),
                         content_type="application/json", HTTP_X_VENUE_KEY=key)


def _delta_body(old: dict, new: dict, version: int, base: int) -> dict:
    return {"version": version, "base": base, "delta": delta.diff(old, new),
            "sha256": state.kept(new).digest()}


@pytest.mark.django_db
def test_a_delta_brings_the_server_to_the_new_state_writing_only_what_changed(day, monkeypatch):
    event = day["event"]
    key = _take(day)
    assert _push(event.slug, key, 3, day["a"]).json() == {"applied": True, "version": 3}
    stored = {h.pk for h in Hand.objects.filter(scorecard__table__round__event=event)}
    # The whole writer is not used for a push of the same shape.
    from tournaments.archive import importing

    def whole(*args, **kwargs):
        raise AssertionError("written whole")

    monkeypatch.setattr(importing, "write_event_body", whole)
    body = _delta_body(day["a"], day["b"], 4, base=3)
    assert len(json.dumps(body)) < len(json.dumps(day["b"])) * 0.6  # a table of two played
    answer = _post(event.slug, key, body)
    assert answer.json() == {"applied": True, "version": 4}, answer.content
    assert _dumped(event) == archive.dumps(day["b"])
    # The rows that were there stay, with their ids (the trail names them by id).
    assert stored <= {h.pk for h in Hand.objects.filter(scorecard__table__round__event=event)}
    hold = VenueHold.objects.get(event=event)
    assert state.stored(hold) == day["b"]


@pytest.mark.django_db
def test_a_delta_against_another_state_is_refused_and_changes_nothing(day):
    event = day["event"]
    key = _take(day)
    # Before any push the server knows no state to patch.
    answer = _post(event.slug, key, _delta_body(day["a"], day["b"], 4, base=0))
    assert answer.status_code == 409 and answer.json()["errors"][0]["code"] == "base_mismatch"
    _push(event.slug, key, 3, day["a"])
    before = _dumped(event)
    for body in (_delta_body(day["a"], day["b"], 5, base=2),            # another base
                 {**_delta_body(day["a"], day["b"], 5, base=3), "sha256": "0" * 64},  # not b
                 {**_delta_body(day["a"], day["b"], 5, base=3), "delta": {"[": 1}}):  # no fit
        answer = _post(event.slug, key, body)
        assert answer.status_code == 409 and answer.json()["errors"][0]["code"] == "base_mismatch"
    assert _dumped(event) == before
    assert VenueHold.objects.get(event=event).version == 3


def _pushed(day, state: str) -> tuple:
    """The day's event taken and pushed at `state` ("a" or "b") as version 3: (the event, the
    key, its archive's text, a copy of state B to change)."""
    event = day["event"]
    key = _take(day)
    _push(event.slug, key, 3, day[state])
    return event, key, _dumped(event), json.loads(json.dumps(day["b"]))


@pytest.mark.django_db
def test_a_tampered_delta_is_refused_by_the_archives_checks(day):
    event, key, before, doc = _pushed(day, "a")
    card = doc["event"]["rounds"][0]["tables"][0]["scorecard"]
    card["hands"][0]["scores"] = {k: v + 10 for k, v in card["hands"][0]["scores"].items()}
    answer = _post(event.slug, key, _delta_body(day["a"], doc, 4, base=3))
    assert answer.status_code == 400
    assert any(e["code"] == "score_mismatch" for e in answer.json()["errors"])
    assert _dumped(event) == before


@pytest.mark.django_db
def test_a_change_of_shape_is_written_whole_from_a_delta(day):
    """A round drawn, a penalty or a renamed player: the push is written as an import is."""
    event = day["event"]
    key = _take(day)
    _push(event.slug, key, 3, day["b"])
    renamed = json.loads(json.dumps(day["b"]))
    renamed["event"]["registrations"][0]["player"]["first_name"] = "Renamed"
    answer = _post(event.slug, key, _delta_body(day["b"], renamed, 4, base=3))
    assert answer.json() == {"applied": True, "version": 4}, answer.content
    assert _dumped(event) == archive.dumps(renamed)


def _counting_checks(monkeypatch) -> dict[str, int]:
    """How many cards' hands and trail entries the archive's checks look at."""
    from tournaments.archive import check_event, check_refs

    seen = {"cards": 0, "entries": 0}
    hands, entries = check_event._check_card_hands, check_refs.check_audit_list

    def count_hands(card, *args, **kwargs):
        seen["cards"] += 1
        return hands(card, *args, **kwargs)

    def count_entries(items, *args, **kwargs):
        seen["entries"] += len(items) if isinstance(items, list) else 0
        return entries(items, *args, **kwargs)

    monkeypatch.setattr(check_event, "_check_card_hands", count_hands)
    monkeypatch.setattr(check_refs, "check_audit_list", count_entries)
    return seen


@pytest.mark.django_db
def test_a_delta_is_checked_where_it_changed_and_a_whole_push_everywhere(day, monkeypatch):
    """The cards and trail entries a delta leaves as they were (the very objects of the
    archive the server kept) were checked when they came: a hand typed at table 1 checks
    table 1's card and the trail's new entries, not table 2's card nor the old trail."""
    event = day["event"]
    key = _take(day)
    _push(event.slug, key, 3, day["a"])
    old_trail, new_trail = len(day["a"]["event"]["audit"]), len(day["b"]["event"]["audit"])
    assert 0 < old_trail < new_trail
    seen = _counting_checks(monkeypatch)
    answer = _post(event.slug, key, _delta_body(day["a"], day["b"], 4, base=3))
    assert answer.json() == {"applied": True, "version": 4}, answer.content
    assert seen == {"cards": 1, "entries": new_trail - old_trail}
    assert _dumped(event) == archive.dumps(day["b"])
    # The same archive sent whole shares nothing with the kept one: all of it is checked.
    seen.update(cards=0, entries=0)
    answer = _push(event.slug, key, 5, json.loads(json.dumps(day["b"])))
    assert answer.json() == {"applied": True, "version": 5}, answer.content
    assert seen == {"cards": 2, "entries": new_trail}


@pytest.mark.django_db
def test_the_carried_totals_are_checked_again_only_when_they_may_have_moved(day, monkeypatch):
    """A hand typed in a round being played moves no carried total: they are not checked
    again. A registration's total that moved is, and a wrong one is refused."""
    from tournaments.archive import event_checks

    event, key, before, doc = _pushed(day, "a")
    checks = []
    check = event_checks.refuse_wrong_carried_totals
    monkeypatch.setattr(event_checks, "refuse_wrong_carried_totals",
                        lambda *args: checks.append(args) or check(*args))
    answer = _post(event.slug, key, _delta_body(day["a"], day["b"], 4, base=3))
    assert answer.json() == {"applied": True, "version": 4}, answer.content
    assert checks == []
    before = _dumped(event)
    doc["event"]["registrations"][0]["tournament_points"] = "7"
    answer = _post(event.slug, key, _delta_body(day["b"], doc, 5, base=4))
    assert answer.status_code == 400, answer.content
    assert [e["code"] for e in answer.json()["errors"]] == ["carried_total_mismatch"]
    assert len(checks) == 1 and _dumped(event) == before


@pytest.mark.django_db
def test_a_delta_of_another_shape_is_checked_in_full(day):
    """A delta that removes a registration is no write of what changed: the cards it left as
    they were are checked again, and the one still naming the removed start number is refused
    at its own path."""
    event, key, before, doc = _pushed(day, "b")
    card = doc["event"]["rounds"][0]["tables"][1]["scorecard"]
    gone = int(card["player_ids"][0])
    doc["event"]["registrations"] = [r for r in doc["event"]["registrations"]
                                     if r["start_number"] != gone]
    for table in doc["event"]["rounds"][0]["tables"]:
        table["seats"] = [s for s in table["seats"] if s["start_number"] != gone]
    patched = delta.patch(day["b"], delta.diff(day["b"], doc))
    assert patched["event"]["rounds"][0]["tables"][1]["scorecard"] is (
        day["b"]["event"]["rounds"][0]["tables"][1]["scorecard"])  # left as it was
    answer = _post(event.slug, key, _delta_body(day["b"], doc, 4, base=3))
    assert answer.status_code == 400, answer.content
    paths = {e["field"] for e in answer.json()["errors"]}
    assert "event.rounds[0].tables[1].scorecard.player_ids[0]" in paths, paths
    assert _dumped(event) == before


# ------------------------------------------------------------------------------------------
# The laptop
# ------------------------------------------------------------------------------------------


class _Server:
    """A server that answers pushes as tournaments.venue.services.push_apply does, keeping
    the archive it holds in memory: a delta is applied to it (refused against another base or
    digest), the whole archive replaces it."""

    def __init__(self):
        self.calls: list[dict] = []
        self.version, self.doc = 0, None

    def __call__(self, method, url, payload, headers):
        self.calls.append(payload)
        if "delta" in payload:
            try:
                if self.doc is None or payload["base"] != self.version:
                    raise delta.DeltaMismatch("another base")
                doc = delta.patch(self.doc, json.loads(json.dumps(payload["delta"])))
            except delta.DeltaMismatch:
                return 409, {"errors": [{"code": "base_mismatch", "message": "send the whole"}]}
            if state.kept(doc).digest() != payload["sha256"]:
                return 409, {"errors": [{"code": "base_mismatch", "message": "send the whole"}]}
        else:
            doc = payload["archive"]
        self.version, self.doc = payload["version"], doc
        return 200, {"applied": True, "version": payload["version"]}


def _hand(card, number: int) -> None:
    card.refresh_from_db()
    services.hand_save(scorecard=card, number=number, actor=card.table.round.event.organisers.first(),
                       expected_version=card.version,
                       record={"game": "klop", "resting": card.player_ids[number % 4],
                               "points_by_player": dict(zip(card.player_ids, [20, 20, 15, 15], strict=True))})


@pytest.mark.django_db
def test_the_laptop_sends_a_delta_after_its_first_push_and_the_whole_when_refused(day):
    event = day["event"]
    VenueHold.objects.create(event=event, side=VenueHold.Side.HELD, key="k",
                             server_url="https://server.example")
    server = _Server()
    assert client.push(event, transport=server)["ok"]
    assert "archive" in server.calls[-1]  # the first push: whole
    card = event.rounds.get().tables.get(number=2).scorecard
    _hand(card, 1)
    assert client.push(event, transport=server)["ok"]
    assert "delta" in server.calls[-1] and len(server.calls) == 2
    assert len(json.dumps(server.calls[-1])) < len(json.dumps(server.calls[0])) / 4
    assert archive.dumps(server.doc) == _dumped(event)
    hold = VenueHold.objects.get(event=event)
    assert hold.version == server.version == client.state_version(event)
    # The server lost its state (an answer lost on the way, a restored server): the delta is
    # refused and the whole archive goes instead, in the same push.
    server.doc = None
    _hand(card, 2)
    assert client.push(event, transport=server)["ok"]
    assert [("delta" in c, "archive" in c) for c in server.calls[2:]] == [(True, False), (False, True)]
    assert archive.dumps(server.doc) == _dumped(event)
    assert VenueHold.objects.get(event=event).version == client.state_version(event)


@pytest.mark.django_db
def test_the_laptop_reads_again_only_what_changed_and_exports_whole_when_due(day, monkeypatch):
    """After the first push the laptop makes the archive from the acknowledged one
    (archive.export_event_since); at least every WHOLE_EXPORT_SECONDS it exports it whole."""
    event = day["event"]
    VenueHold.objects.create(event=event, side=VenueHold.Side.HELD, key="k",
                             server_url="https://server.example")
    server = _Server()
    monkeypatch.setattr(client, "_whole_exported_at", {})
    assert client.push(event, transport=server)["ok"]
    whole_exports = []
    export = archive.export_event
    monkeypatch.setattr(archive, "export_event", lambda e: whole_exports.append(e) or export(e))
    card = event.rounds.get().tables.get(number=2).scorecard
    for number in (1, 2):
        _hand(card, number)
        assert client.push(event, transport=server)["ok"]
        assert "delta" in server.calls[-1] and whole_exports == []
        assert archive.dumps(server.doc) == archive.dumps(export(event))
    # Due: the next push exports the whole archive, and is still sent as a delta.
    monkeypatch.setattr(client, "WHOLE_EXPORT_SECONDS", 0.0)
    _hand(card, 3)
    assert client.push(event, transport=server)["ok"]
    assert len(whole_exports) == 1 and "delta" in server.calls[-1]
    assert archive.dumps(server.doc) == archive.dumps(export(event))
    # The hand-back's last state is exported whole, whenever the last whole export was.
    monkeypatch.setattr(client, "WHOLE_EXPORT_SECONDS", 300.0)
    _hand(card, 4)
    assert client.hand_back(event, transport=server)["ok"]
    assert len(whole_exports) == 2
    assert archive.dumps(server.doc) == archive.dumps(export(event))


@pytest.mark.django_db
def test_a_delta_refused_in_the_services_is_a_conflict(day):
    event = day["event"]
    key = _take(day)
    with pytest.raises(Conflict):
        venue.push_apply(event=event, key=key, version=2, base=0, delta={"{": {}}, sha256="")
