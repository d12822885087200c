"""A lone organiser runs the day without the Django admin: he adds a referee by username or
creates the account on the spot (the page shows a one-time link to set its password), takes
officials off (never the last organiser), and, at a small club event whose officials confirm
alone, confirms a card he entered himself once he says he compared it with the signed paper."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from sample_data.factories import allow_event_creation
from tests.tournaments.pages.support import client_for, make_user
from tournaments import services
from tournaments.models import AuditEntry, Event, Scorecard

pytestmark = pytest.mark.django_db
M = "/manage/e/club"


@pytest.fixture
def club():
    organiser = allow_event_creation(make_user("alone"))
    event = services.event_create(
        actor=organiser, name="Club night", slug="club", starts_on=dt.date(2026, 11, 21),
        ends_on=dt.date(2026, 11, 21), ruleset_code="tarok-net-2007", ruleset_mode="tri+1",
        seating_system="fixed", hands_per_round=4)
    for n in range(1, 5):
        player = services.player_create(first_name=f"P{n}", last_name="Club")
        services.registration_create(event=event, player=player, actor=organiser)
    rnd = services.round_store(event=event, number=1, seating_system="fixed", seed=0,
                               tables=[["1", "2", "3", "4"]], actor=organiser)
    services.round_publish(rnd=rnd, actor=organiser)
    return event, organiser


def test_an_organiser_adds_creates_and_removes_officials_without_the_admin(club):
    event, organiser = club
    make_user("known-ref")
    page = client_for(organiser)
    assert page.post(f"{M}/officials/add/", {"add-username": "KNOWN-ref", "add-role": "referee"}
                     ).status_code == 302
    assert event.referees.filter(username="known-ref").exists()
    missing = page.post(f"{M}/officials/add/", {"add-username": "nobody", "add-role": "referee"})
    assert missing.status_code == 400 and "there is no account nobody" in missing.content.decode()

    created = page.post(f"{M}/officials/new/", {"new-username": "marta", "new-first_name": "Marta",
                                               "new-last_name": "Horvat", "new-role": "referee"})
    assert created.status_code == 200
    link = re.search(r'value="(http://testserver/accounts/reset/[^"]+)"', created.content.decode())
    assert link, created.content.decode()[:2000]
    marta = get_user_model().objects.get(username="marta")
    assert not marta.has_usable_password() and event.referees.filter(pk=marta.pk).exists()
    # The one-time link sets her password; she logs in and referees the event.
    newcomer = Client()
    form_url = newcomer.get(link.group(1).removeprefix("http://testserver"), follow=True).redirect_chain[-1][0]
    done = newcomer.post(form_url, {"new_password1": "Tarok-2026-ok", "new_password2": "Tarok-2026-ok"})
    assert done.status_code == 302
    assert newcomer.login(username="marta", password="Tarok-2026-ok")
    assert newcomer.get("/referee/e/club/").status_code == 200
    taken = page.post(f"{M}/officials/new/", {"new-username": "Marta", "new-role": "referee"})
    assert taken.status_code == 400 and "taken" in taken.content.decode()

    assert page.post(f"{M}/officials/remove/", {"username": "known-ref", "role": "referee"}).status_code == 302
    assert not event.referees.filter(username="known-ref").exists()
    page.post(f"{M}/officials/remove/", {"username": "alone", "role": "organiser"})
    assert event.organisers.filter(username="alone").exists()  # the last organiser stays
    actions = set(AuditEntry.objects.filter(event=event).values_list("action", flat=True))
    assert {"event.referee.add", "account.create", "event.referee.remove"} <= actions
    # A referee may not manage officials.
    marta.refresh_from_db()
    assert client_for(marta).post(f"{M}/officials/add/", {"add-username": "x", "add-role": "referee"}
                                  ).status_code == 403


def _enter_and_submit(event: Event, organiser) -> Scorecard:
    card = Scorecard.objects.get(table__round__event=event)
    # The round's four hands: a card of another number needs a second official and a reason
    # (tests/tournaments/formats/test_card_hands.py).
    for number, declarer in enumerate(["1", "2", "3", "1"], start=1):
        card.refresh_from_db()
        services.hand_save(scorecard=card, number=number, actor=organiser,
                           expected_version=card.version,
                           record={"game": "trojka", "declarer": declarer, "resting": "4",
                                   "points": 40})
    services.scorecard_submit(scorecard=card, actor=organiser)
    card.refresh_from_db()
    return card


def test_an_official_alone_confirms_his_own_card_after_comparing_it_with_the_paper(club):
    event, organiser = club
    card = _enter_and_submit(event, organiser)
    page = client_for(organiser)
    url = f"{M}/rounds/1/tables/1/confirm/"
    # The event's default: a second person confirms.
    page.post(url, {"paper_checked": "on"})
    card.refresh_from_db()
    assert card.status == "submitted"
    services.event_update(event=event, actor=organiser, card_confirmation="official")
    table_page = page.get(f"{M}/rounds/1/tables/1/").content.decode()
    assert 'name="paper_checked"' in table_page
    page.post(url)  # without saying he compared it
    card.refresh_from_db()
    assert card.status == "submitted"
    assert page.post(url, {"paper_checked": "on"}).status_code == 302
    card.refresh_from_db()
    assert card.status == "confirmed" and card.confirmed_against_paper
    entry = AuditEntry.objects.get(action="scorecard.confirm", table=card.table)
    assert entry.after["compared_with_paper"] is True and entry.actor_label == "alone"
