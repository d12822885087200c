"""The audit trail a venue hold keeps in chunks (tournaments.archive.parts.Trail): read back as
the entries it was, one digest whether it is read or not, and a push that reads, at either
end, only the trail's last chunk. The chunks are made small here (4 entries) so that the
small day of the tests spans several."""

from __future__ import annotations

import copy
import zlib

import orjson
import pytest

from tests.tournaments.venue.test_delta import _delta_body, _hand, _post, _Server
from tests.tournaments.venue.test_holds import _dumped, _push, _take
from tournaments import archive
from tournaments.archive import delta, parts
from tournaments.models import VenueHold
from tournaments.venue import client, state


@pytest.fixture
def small_chunks(monkeypatch) -> int:
    monkeypatch.setattr(parts, "TRAIL_CHUNK", 4)
    return 4


@pytest.fixture
def chunk_reads(monkeypatch) -> list[str]:
    """The SHA-256 of every kept chunk of a trail that was read."""
    seen: list[str] = []
    entries = parts.Chunk.entries

    def watched(self):
        if self._entries is None:
            seen.append(self._sha)
        return entries(self)
    monkeypatch.setattr(parts.Chunk, "entries", watched)
    return seen


def _short_last_chunk(monkeypatch, entries: int) -> int:
    """A chunk size (3 to 7) that leaves the last of `entries` entries' chunks short and makes
    more than two chunks: a push then reads that one chunk."""
    size = next(n for n in range(3, 8) if entries % n and entries > 2 * n)
    monkeypatch.setattr(parts, "TRAIL_CHUNK", size)
    return size


def _kept_trail(entries: list) -> parts.Trail:
    """`entries` as a trail kept and read back: its chunks unread."""
    doc = {"event": {"rounds": [], "audit": entries}}
    return state.unpacked(state.kept(doc).packed())["event"]["audit"]


def test_a_trail_in_chunks_reads_as_its_entries(small_chunks, chunk_reads):
    entries = [{"n": i, "text": "č" * i} for i in range(11)]
    trail = _kept_trail(entries)
    assert isinstance(trail, parts.Trail) and [c.count for c in trail.chunks] == [4, 4, 3]
    assert len(trail) == 11 and chunk_reads == []
    assert trail.text() == delta.canonical(entries) and chunk_reads == []
    assert trail[9] == entries[9] and chunk_reads == [trail.chunks[2]._sha]
    assert trail[-1] == entries[-1] and trail[3:9] == entries[3:9] and trail[::3] == entries[::3]
    assert trail[11:] == [] and list(trail) == entries and trail == entries
    with pytest.raises(IndexError):
        trail[11]  # noqa: B018 - the read is the test
    assert parts.Trail.of([]).text() == delta.canonical([]) == b"[]"


def test_a_trail_grows_by_its_last_chunk_and_tells_what_it_added(small_chunks, chunk_reads):
    entries = [{"n": i} for i in range(11)]
    trail = _kept_trail(entries)
    more = [{"n": 11}, {"n": 12}, {"n": 13}]
    grown = trail.extended(more)
    assert [c.count for c in grown.chunks] == [4, 4, 4, 2]
    assert grown.chunks[0] is trail.chunks[0] and grown.chunks[1] is trail.chunks[1]
    assert chunk_reads == [trail.chunks[2]._sha]  # only the short last chunk was read
    assert list(grown) == entries + more and trail.extended([]) is trail
    assert grown.tail_after(trail) == more and parts.tail_after(trail, grown) == more
    assert parts.tail_after(entries, grown) == more and parts.tail_after(entries, entries + more) == more
    # Another entry where the old trail was: it does not begin with the old one.
    changed = entries[:5] + [{"n": 99}] + entries[6:]
    assert parts.tail_after(trail, parts.Trail.of(changed + more)) is None
    assert parts.tail_after(trail, changed + more) is None
    assert grown.tail_after(_kept_trail(entries + [{"n": 11}, {"n": 99}])) is None
    # A patch of the new entries extends the kept trail; any other patch reads it whole.
    patch = delta.diff(trail, grown)
    assert patch == {"[": 14, "@": {}, "+": more}
    patched = delta.patch(trail, patch)
    assert isinstance(patched, parts.Trail) and patched.chunks[0] is trail.chunks[0]
    assert delta.patch(trail, delta.diff(entries, changed)) == changed


@pytest.mark.django_db
def test_an_archive_kept_with_its_trail_in_chunks_comes_back_unread(day, small_chunks):
    doc = day["b"]
    kept = state.kept(doc)
    back = state.unpacked(kept.packed())
    trail = back["event"]["audit"]
    assert isinstance(trail, parts.Trail) and len(trail.chunks) > 3
    assert delta.canonical(back) == delta.canonical(doc)
    again = state.kept(back)
    assert again.packed() == kept.packed() and again.digest() == kept.digest()
    assert all(c._entries is None for c in trail.chunks)
    assert parts.read_whole(back) == doc
    # The digest does not change with how the trail is held, and moves with any entry.
    changed = copy.deepcopy(doc)
    changed["event"]["audit"][1]["actor_label"] += "x"
    assert state.kept(changed).digest() != kept.digest()


@pytest.mark.django_db
def test_the_server_reads_only_the_trails_last_chunk(day, chunk_reads, monkeypatch):
    event = day["event"]
    key = _take(day)
    size = _short_last_chunk(monkeypatch, len(day["a"]["event"]["audit"]))
    assert _push(event.slug, key, 3, day["a"]).json() == {"applied": True, "version": 3}
    kept = state.stored(VenueHold.objects.get(event=event))["event"]["audit"]
    assert len(kept.chunks) > 2 and kept.chunks[-1].count < size
    chunk_reads.clear()
    answer = _post(event.slug, key, _delta_body(day["a"], day["b"], 4, base=3))
    assert answer.json() == {"applied": True, "version": 4}, answer.content
    assert chunk_reads == [kept.chunks[-1]._sha]
    assert _dumped(event) == archive.dumps(day["b"])
    assert state.stored(VenueHold.objects.get(event=event)) == day["b"]


@pytest.mark.django_db
def test_the_laptop_reads_only_the_trails_last_chunk(day, chunk_reads, monkeypatch):
    event = day["event"]
    VenueHold.objects.create(event=event, side=VenueHold.Side.HELD, key="k",
                             server_url="https://server.example")
    size = _short_last_chunk(monkeypatch, len(archive.export_event(event)["event"]["audit"]))
    server = _Server()
    assert client.push(event, transport=server)["ok"]
    kept = state.stored(VenueHold.objects.get(event=event))["event"]["audit"]
    assert len(kept.chunks) > 2 and kept.chunks[-1].count < size
    chunk_reads.clear()
    _hand(event.rounds.get().tables.get(number=2).scorecard, 1)
    assert client.push(event, transport=server)["ok"]
    assert "delta" in server.calls[-1]
    assert chunk_reads == [kept.chunks[-1]._sha]
    assert archive.dumps(server.doc) == _dumped(event)


@pytest.mark.django_db
def test_a_changed_entry_of_the_kept_trail_is_checked(day, small_chunks):
    """A delta that changes an entry the server kept is no trail that only grew: the whole
    trail is checked, and a wrong entry refused at its path."""
    event = day["event"]
    key = _take(day)
    assert _push(event.slug, key, 3, day["a"]).json()["applied"]
    before = _dumped(event)
    doc = copy.deepcopy(day["b"])
    doc["event"]["audit"][1]["target"]["type"] = "tournaments.nothing"
    answer = _post(event.slug, key, _delta_body(day["a"], doc, 4, base=3))
    assert answer.status_code == 400, answer.content
    assert ("event.audit[1].target.type", "unknown_type") in {
        (e["field"], e["code"]) for e in answer.json()["errors"]}
    assert _dumped(event) == before


@pytest.mark.django_db
def test_a_wrong_entry_added_to_the_kept_trail_is_refused(day, small_chunks):
    """The new entries a delta adds to the trail kept in chunks are checked, at their paths
    in the whole trail."""
    event = day["event"]
    key = _take(day)
    assert _push(event.slug, key, 3, day["a"]).json()["applied"]
    before = _dumped(event)
    doc = copy.deepcopy(day["b"])
    bad = len(day["a"]["event"]["audit"])
    doc["event"]["audit"][bad]["target"]["type"] = "tournaments.nothing"
    body = _delta_body(day["a"], doc, 4, base=3)
    assert set(body["delta"]["{"]["event"]["{"]["audit"]) == {"[", "@", "+"}  # only added
    answer = _post(event.slug, key, body)
    assert answer.status_code == 400, answer.content
    assert (f"event.audit[{bad}].target.type", "unknown_type") in {
        (e["field"], e["code"]) for e in answer.json()["errors"]}
    assert _dumped(event) == before


@pytest.mark.django_db
@pytest.mark.parametrize("rounds", [{"=": 5}, {"=": None}, {"=": {"1": []}}, "removed"])
def test_a_delta_that_makes_the_rounds_no_list_is_refused_not_a_failure(day, rounds):
    """The kept archive's trail is in chunks; an archive whose rounds a tampered delta made
    something else is still taken a digest of (and refused), never a server error."""
    event = day["event"]
    key = _take(day)
    assert _push(event.slug, key, 3, day["a"]).json()["applied"]
    before = _dumped(event)
    event_patch = ({"{": {}, "-": ["rounds"]} if rounds == "removed"
                   else {"{": {"rounds": rounds}})
    answer = _post(event.slug, key, {"version": 4, "base": 3, "sha256": "0" * 64,
                                     "delta": {"{": {"event": event_patch}}})
    assert answer.status_code == 409, answer.content
    assert answer.json()["errors"][0]["code"] == "base_mismatch"
    assert _dumped(event) == before


def test_a_trail_kept_in_chunks_of_another_size_is_read_as_a_list(small_chunks, monkeypatch):
    """Kept by a version that cut the trail otherwise: read whole, as the entries it holds."""
    entries = [{"n": i} for i in range(11)]
    raw = state.kept({"event": {"rounds": [], "audit": entries}}).packed()
    monkeypatch.setattr(parts, "TRAIL_CHUNK", 3)
    back = state.unpacked(raw)["event"]["audit"]
    assert type(back) is list and back == entries


@pytest.mark.django_db
def test_a_hold_kept_with_its_trail_in_the_skeleton_is_read(day, small_chunks):
    """A hold kept before the trail's chunks (its cards apart, its trail whole in the
    skeleton) takes the next delta, and is then kept with its trail in chunks."""
    event = day["event"]
    key = _take(day)
    assert _push(event.slug, key, 3, day["a"]).json() == {"applied": True, "version": 3}
    cards = state.kept(day["a"]).cards
    skeleton = parts._skeleton(day["a"], iter([c.sha for c in cards]), day["a"]["event"]["audit"])
    offsets, at = [], 0
    for card in cards:
        offsets.append([at, len(card._packed), card.outline, card.hand_numbers, card.money_numbers])
        at += len(card._packed)
    head = zlib.compress(orjson.dumps(offsets) + b"\n" + delta.canonical(skeleton))
    raw = b"".join([b"tarok-archive-parts/1\n", len(head).to_bytes(8, "big"), head,
                    *(c._packed for c in cards)])
    assert state.unpacked(raw) == day["a"]
    VenueHold.objects.filter(event=event).update(state=raw)
    answer = _post(event.slug, key, _delta_body(day["a"], day["b"], 4, base=3))
    assert answer.json() == {"applied": True, "version": 4}, answer.content
    kept = state.stored(VenueHold.objects.get(event=event))
    assert isinstance(kept["event"]["audit"], parts.Trail) and kept == day["b"]
