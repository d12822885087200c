"""Closing a round adds what its cards give to the carried totals (issue #35) only where that
is exact: states the lifecycle never makes but an imported archive may hold are computed
whole, and the round's cards are read as the whole standings read them. Each case ends with
the carried totals equal to the whole standings' up to the closed round."""

from __future__ import annotations

import pytest

from sample_data import printouts
from tests.tournaments.services.carried import carried, standings_totals
from tests.tournaments.services.test_corrections import _played
from tournaments import archive, services
from tournaments.domain.exact_points import points_text
from tournaments.models import Round, Scorecard
from tournaments.services import round_jobs

pytestmark = pytest.mark.django_db


def _renamed(value, old, new):
    """`value` with every key and value equal to `old` made `new`."""
    if isinstance(value, dict):
        return {(new if k == old else k): _renamed(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, old, new) for v in value]
    return new if value == old else value


def _two_closed_and_a_third_played(slug):
    event = printouts.slovenian_event(slug=slug, tables=2)
    organiser, referee = event.organisers.first(), event.referees.first()
    round_jobs.round_close(rnd=_played(event, 1, organiser, referee, 20), actor=organiser)
    after_one = carried(event)
    round_jobs.round_close(rnd=_played(event, 2, organiser, referee, 30), actor=organiser)
    _played(event, 3, organiser, referee, 40)
    return event, organiser, referee, after_one


def _close(event, number, organiser):
    round_jobs.round_close(rnd=Round.objects.get(event=event, number=number), actor=organiser)
    assert carried(event) == standings_totals(event, number)


def test_a_published_round_left_open_below_the_closed_one_is_counted():
    """An archive with round 2 published and open between closed round 1 and round 3: round
    2's cards count in the standings up to round 3, and the close counts them (it adds
    round 3 alone only when every round below it is closed)."""
    event, organiser, _referee, after_one = _two_closed_and_a_third_played("carry-open-below")
    doc = archive.export_event(event)
    doc["event"]["rounds"][1].update(status="published", closed_at=None)
    for registration in doc["event"]["registrations"]:
        points, score = after_one[registration["start_number"]]
        registration.update(tournament_points=points_text(points), score=score)
    archive.replace_event(doc, event)
    _close(event, 3, organiser)


def test_a_correction_of_an_open_round_below_a_closed_one_is_carried_at_the_next_close():
    """An archive with round 1 open below closed round 2: a referee's correction of round 1
    refreshes nothing (its round is not closed), and the close of round 3 sets the totals
    right, as it did when every close counted every round."""
    event, organiser, referee, _after_one = _two_closed_and_a_third_played("carry-correction-below")
    doc = archive.export_event(event)
    doc["event"]["rounds"][0].update(status="published", closed_at=None)
    archive.replace_event(doc, event)
    card = Scorecard.objects.get(table__round__event=event, table__round__number=1, table__number=1)
    ids = list(card.player_ids)
    services.hand_save(scorecard=card, number=1, actor=referee, expected_version=card.version,
                       record={"game": "trojka", "declarer": ids[0], "resting": ids[3], "points": 70},
                       reason="counted again")
    _close(event, 3, organiser)


@pytest.mark.parametrize(("old", "new"), [("5", "1"), ("2", "02")],
                         ids=["a-player-at-two-tables", "a-start-number-written-02"])
def test_the_closed_rounds_cards_are_read_as_the_standings_read_them(old, new):
    """An archive whose round 2 names player 1 at both tables, or writes player 2 as "02" (a
    whole number all the same, which the archive's check takes): the standings add both of
    player 1's cards, and count "02" for nobody; so does the close."""
    event = printouts.slovenian_event(slug=f"carry-ids-{new}", tables=2)
    organiser, referee = event.organisers.first(), event.referees.first()
    round_jobs.round_close(rnd=_played(event, 1, organiser, referee, 20), actor=organiser)
    _played(event, 2, organiser, referee, 30)
    doc = archive.export_event(event)
    table = doc["event"]["rounds"][1]["tables"][1 if old == "5" else 0]
    table["scorecard"] = _renamed(table["scorecard"], old, new)
    archive.replace_event(doc, event)
    _close(event, 2, organiser)
