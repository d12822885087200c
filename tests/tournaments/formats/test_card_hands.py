"""A card with fewer or more hands than the event plays (issue #21, finding 8).

Seed 000 §3: "Na tekmovanjih se igra tarok v TRI + 1 ... Igra se 24 iger."; §4.2: "Ena tekma
zajema 24 iger." An event sets its own number (`hands_per_round`); a card that differs from it
is confirmed by the referee, explicitly and with a reason kept in the audit trail: not by the
table, and not by the one official who submitted it himself. A money sheet has no hands.
"""

from __future__ import annotations

import pytest

from tests.tournaments.formats.support import new_event
from tests.tournaments.pages.support import client_for, make_user, tri1_hands
from tournaments import services
from tournaments.domain.rights import TableSeat
from tournaments.errors import Forbidden, ServiceError
from tournaments.models import AuditEntry, Event, Scorecard


def _published_table(event, organiser):
    rnd = services.round_store(event=event, number=1, seating_system="points", seed=1,
                               tables=[["1", "2", "3", "4"]], actor=organiser)
    services.round_publish(rnd=rnd, actor=organiser)
    return rnd.tables.get()


def _card_with(table, hands: int, actor) -> Scorecard:
    card = table.scorecard
    for number, record in enumerate(tri1_hands(card, hands), start=1):
        card.refresh_from_db()
        services.hand_save(scorecard=card, number=number, record=record, actor=actor,
                           expected_version=card.version)
    card.refresh_from_db()
    services.scorecard_submit(scorecard=card, actor=actor)
    card.refresh_from_db()
    return card


def _seat(table, number: int) -> TableSeat:
    return TableSeat(table_id=table.pk, event_id=table.round.event_id, start_number=number,
                     name=f"player {number}")


@pytest.mark.parametrize("hands", [3, 5])
def test_the_table_cannot_confirm_a_card_of_another_number_of_hands(db, hands):
    """Finding 8: a card of 3 (or 5) hands where the round plays 4 was confirmed by a second
    player like a full one."""
    event, organiser, referee = new_event("hands-table", 4, hands_per_round=4)
    table = _published_table(event, organiser)
    card = _card_with(table, hands, _seat(table, 1))
    with pytest.raises(Forbidden) as refused:
        services.scorecard_confirm(scorecard=card, actor=_seat(table, 2))
    assert refused.value.errors[0]["code"] == "hand_count_needs_referee"
    card.refresh_from_db()
    assert card.status == Scorecard.Status.SUBMITTED


def test_the_table_confirms_a_full_card(db):
    event, organiser, referee = new_event("hands-full", 4, hands_per_round=4)
    table = _published_table(event, organiser)
    card = _card_with(table, 4, _seat(table, 1))
    services.scorecard_confirm(scorecard=card, actor=_seat(table, 2))
    card.refresh_from_db()
    assert card.status == Scorecard.Status.CONFIRMED


def test_the_referee_confirms_a_short_card_with_a_reason_in_the_audit(db):
    event, organiser, referee = new_event("hands-ref", 4, hands_per_round=4)
    table = _published_table(event, organiser)
    card = _card_with(table, 3, _seat(table, 1))
    with pytest.raises(ServiceError) as refused:
        services.scorecard_confirm(scorecard=card, actor=referee)
    assert refused.value.errors[0]["code"] == "hand_count_reason_required"
    assert refused.value.errors[0]["field"] == "reason"
    with pytest.raises(ServiceError):
        services.scorecard_confirm(scorecard=card, actor=referee, reason="   ")
    services.scorecard_confirm(scorecard=card, actor=referee,
                               reason="time ran out after hand 3 (announced by the referee)")
    card.refresh_from_db()
    assert card.status == Scorecard.Status.CONFIRMED
    entry = AuditEntry.objects.filter(action="scorecard.confirm").latest("pk")
    assert entry.reason == "time ran out after hand 3 (announced by the referee)"
    assert entry.after["hands"] == 3 and entry.after["hands_per_round"] == 4


def test_a_lone_official_cannot_confirm_his_own_short_card(db):
    """Where officials confirm alone after comparing with the paper sheet, a card of another
    number of hands still needs a second official."""
    event, organiser, referee = new_event("hands-alone", 4, hands_per_round=4,
                                          card_confirmation=Event.CardConfirmation.OFFICIAL)
    table = _published_table(event, organiser)
    card = _card_with(table, 3, organiser)
    with pytest.raises(ServiceError) as refused:
        services.scorecard_confirm(scorecard=card, actor=organiser, paper_checked=True,
                                   reason="the table stopped")
    assert refused.value.errors[0]["code"] == "hand_count_needs_second_official"
    services.scorecard_confirm(scorecard=card, actor=referee, reason="the table stopped")
    card.refresh_from_db()
    assert card.status == Scorecard.Status.CONFIRMED


def test_a_money_sheet_has_no_hands_and_is_exempt(db):
    """GP Vysočiny plays a timed round on a money sheet, not a number of hands: the table
    confirms it as ever."""
    event, organiser, referee = new_event("hands-gp", 4, ruleset_code="gp-vysociny-2004",
                                          ruleset_mode="", stake_haler=2000, hands_per_round=24)
    table = _published_table(event, organiser)
    card = table.scorecard
    services.money_sheet_save(scorecard=card, actor=_seat(table, 1), expected_version=card.version,
                              rows={"1": {"bought": 0, "money": 2650},
                                    "2": {"bought": 1000, "money": 2230},
                                    "3": {"bought": 0, "money": 3120},
                                    "4": {"bought": 0, "money": 1000}})
    card.refresh_from_db()
    services.scorecard_submit(scorecard=card, actor=_seat(table, 1))
    services.scorecard_confirm(scorecard=card, actor=_seat(table, 2))
    card.refresh_from_db()
    assert card.status == Scorecard.Status.CONFIRMED


def test_edges_ask_the_same_rule(db):
    """The table link hides its confirm button and says why; the API refuses the table's
    player (403) and the referee without a reason (400); the organiser's page asks for the
    reason and keeps it."""
    event, organiser, referee = new_event("hands-edges", 4, hands_per_round=4)
    player_user = make_user("hands-edges-player")
    reg = event.registrations.get(start_number=2)
    reg.player.user = player_user
    reg.player.save()
    table = _published_table(event, organiser)
    _card_with(table, 3, organiser)
    api = f"/api/v1/events/{event.slug}/rounds/1/tables/1/scorecard/confirm/"
    assert client_for(player_user).post(api, {}, content_type="application/json").status_code == 403
    answer = client_for(referee).post(api, {}, content_type="application/json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["errors"][0]["code"] == "hand_count_reason_required"

    page = client_for(referee).get(f"/manage/e/{event.slug}/rounds/1/tables/1/")
    assert page.status_code == 200
    assert b'name="reason"' in page.content
    done = client_for(referee).post(f"/manage/e/{event.slug}/rounds/1/tables/1/confirm/",
                                    {"reason": "the players agreed to stop after 3 hands"})
    assert done.status_code == 302
    table.scorecard.refresh_from_db()
    assert table.scorecard.status == Scorecard.Status.CONFIRMED
    assert AuditEntry.objects.filter(action="scorecard.confirm",
                                     reason="the players agreed to stop after 3 hands").exists()
