"""Ratings recomputed from the results (rankings.services): a correction of one old table
changes exactly the ratings that depend on it, hidden and unrated events never count, the same
results give the same ratings, and an event exported and imported again rates the same."""

from __future__ import annotations

import datetime as dt
import gc
import json

import pytest

from rankings import services
from rankings.models import Rating, RatingStep
from sample_data.factories import PlayerFactory
from tests.rankings.helpers import played_event, referee_of
from tournaments import archive
from tournaments import services as tournament_services
from tournaments.models import AuditEntry, Event, Job, Player, Scorecard, Seat

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 3, 7)


def snapshot() -> dict:
    """Every stored rating and history step by (player, event), with all its numbers."""
    steps = {(s.player_id, s.event.slug): (s.mu, s.sigma, s.conservative, s.tables,
                                           s.event_tables, s.played_on)
             for s in RatingStep.objects.select_related("event")}
    ratings = {(r.player_id, r.family): (r.mu, r.sigma, r.conservative, r.previous_conservative,
                                         r.tables, r.events, r.last_played_on)
               for r in Rating.objects.all()}
    return {"steps": steps, "ratings": ratings}


@pytest.fixture
def field():
    """Twelve players; an old event of three tables, and a later one where two players of the
    old event's first table meet two of its second; the third table's four play alone."""
    players = [PlayerFactory() for _ in range(12)]
    old = played_event(players, [[([1, 2, 3, 4], 1), ([5, 6, 7, 8], 5), ([9, 10, 11, 12], 9)]],
                       day=DAY, slug="old")
    later_players = [players[i] for i in (0, 1, 4, 5, 8, 9, 10, 11)]
    later = played_event(later_players, [[([1, 2, 3, 4], 1), ([5, 6, 7, 8], 6)]],
                         day=DAY + dt.timedelta(days=30), slug="later")
    services.ratings_rebuild("slovenian")
    # The jobs the confirmations queued never ran (a test's transaction never commits): the
    # rebuild above did their work.
    Job.objects.filter(kind=services.REBUILD_JOB).delete()
    return players, old, later


def test_correcting_one_old_table_changes_the_ratings_that_depend_on_it_and_only_those(
        field, django_capture_on_commit_callbacks):
    players, old, later = field
    before = snapshot()
    a, b, c, d, e, f = (p.pk for p in players[:6])
    card = Scorecard.objects.get(table__round__event=old, table__number=1)
    # The referee finds that player 1 had 20 points, not 50: he lost the trojka. A correction
    # of a confirmed card, which queues the rebuild when it commits.
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.hand_save(
            scorecard=card, number=1, actor=referee_of(old), expected_version=card.version,
            record={"game": "trojka", "declarer": "1", "resting": "2", "points": 20},
            reason="counted again: 20 points")
    job = Job.objects.filter(kind=services.REBUILD_JOB).latest("created_at")
    assert job.status == Job.Status.DONE and job.result["family"] == "slovenian"
    after = snapshot()

    changed_steps = {key for key in before["steps"] if before["steps"][key] != after["steps"][key]}
    # The old table's four at the old event; at the later event the two of that table and
    # the two they met there (E, F). Nobody else: not G and H (the old event's second table),
    # nor the third table's four, at either event.
    assert changed_steps == {(a, "old"), (b, "old"), (c, "old"), (d, "old"),
                             (a, "later"), (b, "later"), (e, "later"), (f, "later")}
    assert set(after["steps"]) == set(before["steps"])
    changed_ratings = {p for p, _ in before["ratings"]
                       if before["ratings"][(p, "slovenian")] != after["ratings"][(p, "slovenian")]}
    assert changed_ratings == {a, b, c, d, e, f}
    # Player 1 went from first to last at that table.
    assert before["steps"][(a, "old")][2] > before["steps"][(b, "old")][2]
    assert after["steps"][(a, "old")][2] < after["steps"][(b, "old")][2]


def test_an_annulled_table_rates_nobody_and_confirming_again_is_needed_to_count(
        field, django_capture_on_commit_callbacks):
    players, old, later = field
    card = Scorecard.objects.get(table__round__event=old, table__number=3)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.scorecard_annul(scorecard=card, actor=referee_of(old),
                                            reason="the sheet is missing")
    after = snapshot()
    for player in players[8:12]:
        assert (player.pk, "old") not in after["steps"]
        assert after["ratings"][(player.pk, "slovenian")][4] == 1  # only the later table
    assert (players[6].pk, "old") in after["steps"]


def test_hidden_and_unrated_events_never_count(django_capture_on_commit_callbacks):
    public, hidden, unrated = ([PlayerFactory() for _ in range(4)] for _ in range(3))
    played_event(public, [[([1, 2, 3, 4], 1)]], day=DAY, slug="public")
    private = played_event(hidden, [[([1, 2, 3, 4], 1)]], day=DAY, public=False, slug="private")
    not_rated = played_event(unrated, [[([1, 2, 3, 4], 2)]], day=DAY, rated=False,
                             slug="not-rated")
    # A player of the public event who also plays the hidden one: only the public table counts.
    private.registrations.filter(start_number=4).update(player=public[3])
    services.ratings_rebuild("slovenian")
    Job.objects.filter(kind=services.REBUILD_JOB).delete()
    rated_players = set(Rating.objects.values_list("player_id", flat=True))
    assert rated_players == {p.pk for p in public}
    assert set(RatingStep.objects.values_list("event__slug", flat=True)) == {"public"}
    assert Rating.objects.get(player=public[3]).tables == 1

    # Rating an event later (its organiser switches it on) brings it in; hiding it again
    # takes it out: each change of the event queues the rebuild.
    organiser = not_rated.organisers.get()
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.event_update(event=not_rated, actor=organiser, rated=True)
    assert set(RatingStep.objects.values_list("event__slug", flat=True)) == {"public", "not-rated"}
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.event_update(event=Event.objects.get(slug="not-rated"),
                                         actor=organiser, is_public=False)
    assert set(RatingStep.objects.values_list("event__slug", flat=True)) == {"public"}
    assert not Rating.objects.filter(player__in=unrated + hidden[:3]).exists()


def test_the_same_results_give_the_same_ratings_and_a_rebuild_that_finds_nothing_writes_nothing(
        field):
    first = snapshot()
    again = services.ratings_rebuild("slovenian")
    assert (again["created"], again["changed"], again["deleted"]) == (0, 0, 0)
    assert (again["ratings_created"], again["ratings_changed"], again["ratings_deleted"]) == (0, 0, 0)
    RatingStep.objects.all().delete()
    Rating.objects.all().delete()
    fresh = services.ratings_rebuild("slovenian")
    assert fresh["created"] == len(first["steps"]) and fresh["ratings_created"] == len(first["ratings"])
    assert snapshot() == first
    # Another family has nothing of these events.
    assert services.ratings_rebuild("koenigrufen")["players"] == 0


def delete_events_and_players() -> None:
    """An empty site for the import: rows that protect others go first."""
    AuditEntry.objects.all().delete()
    Job.objects.all().delete()
    for model in (Seat, Event, Player):
        model.objects.all().delete()


def by_name(state: dict) -> dict:
    """A snapshot keyed by the players' names instead of their database ids."""
    names = dict(Player.objects.values_list("pk", "last_name"))
    return {"steps": {(names[p], e): v for (p, e), v in state["steps"].items()},
            "ratings": {(names[p], f): v for (p, f), v in state["ratings"].items()}}


def test_ratings_are_identical_after_an_archive_export_and_import(field):
    players, old, later = field
    before = by_name(snapshot())
    docs = [json.loads(json.dumps(archive.export_event(Event.objects.get(pk=event.pk))))
            for event in (later, old)]
    delete_events_and_players()
    assert not Rating.objects.exists()
    # Imported into an empty site, the later event first: the order of play is the events'
    # dates, not the order in which they reached the database.
    for doc in docs:
        assert archive.import_event(doc, actor=None).rated is True
    services.ratings_rebuild("slovenian")
    assert by_name(snapshot()) == before


def test_an_unrated_event_stays_unrated_through_its_archive():
    players = [PlayerFactory() for _ in range(4)]
    event = played_event(players, [[([1, 2, 3, 4], 1)]], day=DAY, rated=False, slug="friendly")
    doc = json.loads(json.dumps(archive.export_event(event)))
    assert doc["event"]["rated"] is False
    delete_events_and_players()
    assert archive.import_event(doc, actor=None).rated is False
    services.ratings_rebuild("slovenian")
    assert not Rating.objects.exists()


def test_a_rebuild_pauses_the_cycle_collector_and_gives_it_back_even_when_it_fails(monkeypatch):
    seen = []

    def results(family):
        seen.append(gc.isenabled())
        raise RuntimeError("the database went away")

    monkeypatch.setattr(services, "family_results", results)
    assert gc.isenabled()
    with pytest.raises(RuntimeError):
        services.ratings_rebuild("slovenian")
    assert seen == [False] and gc.isenabled()
