"""tournaments.domain.seating_options through the event's edges: the options an event stores
fit its seating system (the wrong shape, type or an option the system does not read is refused
at its path), the points system's options are stored and change the table points, extra
points need a cap of at most half a point (docs/seating.md), and the fixed system reads none."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.tournaments.api.test_roles import E, build_world
from tournaments import services
from tournaments.domain.standings import event_standings

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("options", "field"), [
    (["seed", 3], "seating_options"),
    ({"seed": "seven"}, "seating_options.seed"),
    ({"seed": 7, "colour": "red"}, "seating_options.colour"),
    ({"missing_seat_deduction": "half"}, "seating_options.missing_seat_deduction"),
    ({"extra": {"per": 100}}, "seating_options.extra.points"),
])
def test_seating_options_must_fit_the_seating_system(options, field):
    world = build_world()
    response = world.client("organiser").patch(E, {"seating_options": options}, format="json")
    assert response.status_code == 400
    assert field in [e["field"] for e in response.json()["errors"]]


def test_the_points_systems_options_are_stored_and_change_the_table_points():
    world = build_world()
    card = world.card(1)
    services.scorecard_submit(scorecard=card, actor=world.users["player_here"])
    # The card is shorter than the round: the referee confirms it with a reason (finding 8).
    services.scorecard_confirm(scorecard=card, actor=world.users["referee"],
                               reason="a one-hand card for this test")
    plain = {r.start_number: r.points for r in event_standings(world.event).rows}
    assert plain[1] == Decimal("4.000")
    response = world.client("organiser").patch(E, {"seating_options": {
        "seed": 7, "extra": {"per": 1, "points": "1", "cap": "0.5"}}}, format="json")
    assert response.status_code == 200, response.content
    world.event.refresh_from_db()
    extra = {r.start_number: r.points for r in event_standings(world.event).rows}
    # At most half a table point more (the cap, seed 000 §4.1 b "optimalno razmerje").
    assert extra[1] == Decimal("4.500")
    # The organiser sees the formula with its cap.
    from django.test import Client

    browser = Client()
    browser.force_login(world.users["organiser"])
    page = browser.get("/manage/e/" + world.event.slug + "/").content.decode()
    assert "1 per 1 of score above the table's mean, at most ±0.5" in page


@pytest.mark.parametrize("extra", [{"per": 1, "points": "1"}, {"per": 1, "points": "1", "cap": "2"},
                                   {"per": 1, "points": "1", "cap": "0.51"}])
def test_extra_points_without_a_cap_of_half_a_point_are_refused(extra):
    """Issue #21, finding 5: "pri čemer mora paziti na optimalno razmerje do osnovnih točk":
    extra points that could outweigh one table point are refused, naming the cap."""
    world = build_world()
    response = world.client("organiser").patch(E, {"seating_options": {"extra": extra}},
                                               format="json")
    assert response.status_code == 400
    assert "seating_options.extra.cap" in [e["field"] for e in response.json()["errors"]]
    world.event.refresh_from_db()
    assert "extra" not in world.event.seating_options


def test_the_fixed_system_reads_no_options():
    world = build_world()
    response = world.client("organiser").patch(
        E, {"seating_system": "fixed", "seating_options": {"seed": 3}}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "seating_options.seed"
