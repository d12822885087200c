"""Events named in a league's or a cup's requests (leagues.api, leagues.services.cups): the
next season's plan and a cup's events do not reveal a private event (it is refused as an
unknown event, like one that does not exist) and a cup does not take another organiser's
event."""

from __future__ import annotations

from rest_framework.test import APIClient

from leagues import services as league_services
from tests.tournaments.pages.support import World, world_fixture, world_of_the_module  # noqa: F401


def test_leagues_and_cups_do_not_reveal_or_take_private_or_foreign_events(world: World):
    world.event.is_public = False
    world.event.save(update_fields=["is_public"])
    staff = world.staff
    league = league_services.league_create(actor=staff, organisers=[staff], name="Liga", slug="liga",
                                           division_size=8, movement_count=2, division_count=1,
                                           hands_per_matchday=1, qualification_group=True)
    league_services.season_create(league=league, actor=staff, name="2025", slug="2025",
                                  planned_matchdays=1, seed=1)
    base = "/api/v1/leagues/liga/seasons/2025/next-plan/?qualification_event="
    private = APIClient().get(base + "event-a").json()
    missing = APIClient().get(base + "event-zz").json()
    assert private["errors"][0]["code"] == missing["errors"][0]["code"] == "unknown_event"
    assert "event-a" in private["errors"][0]["message"]

    cup_organiser = world.other_organiser
    series = league_services.cup_create(actor=staff, organisers=[cup_organiser], name="Pokal",
                                        slug="pokal", seed_points=True)
    client = APIClient()
    client.force_authenticate(cup_organiser)
    hidden = client.post("/api/v1/cups/pokal/events/", {"event": "event-a"}, format="json")
    assert hidden.status_code == 400 and hidden.json()["errors"][0]["code"] == "unknown_event"
    world.event.is_public = True
    world.event.save(update_fields=["is_public"])
    foreign = client.post("/api/v1/cups/pokal/events/", {"event": "event-a"}, format="json")
    assert foreign.status_code == 403
    own = client.post("/api/v1/cups/pokal/events/", {"event": "event-b"}, format="json")
    assert own.status_code == 201
    assert list(series.series_events.values_list("event__slug", flat=True)) == ["event-b"]
