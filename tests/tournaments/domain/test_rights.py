"""tournaments.domain.rights asked directly: who the actor is (the system, staff, a signed-in
user, a seat through the table link), who is an organiser or an official of an event, what
each sees (private events, draft rounds), and `card_refusal` on a few cards, each refusal with
its code and the status the edges answer. The whole matrix of roles, states and actions through
the API and the pages is tests/project/test_role_matrix.py; these are the module's own answers
at the points each rule turns on."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from tests.tournaments.pages.support import link_player, make_event, make_user, tri1_hands
from tournaments import services
from tournaments.domain import rights
from tournaments.domain.rights import CardAction, Refusal, TableSeat
from tournaments.errors import Forbidden, NotFound, ServiceError
from tournaments.models import Round, Scorecard

pytestmark = pytest.mark.django_db

ENTER = CardAction.ENTER


@pytest.fixture
def day():
    """A public event of two tables in a published round: its organiser and referee, the
    player of seat 1 of table 1 (an account), another event's organiser and staff."""
    organiser, referee = make_user("org-rights", can_create=True), make_user("ref-rights")
    event = make_event(organiser, slug="rights", players=8, referee=referee)
    rnd = services.round_store(event=event, number=1, seating_system="points", seed=1,
                               tables=[["1", "2", "3", "4"], ["5", "6", "7", "8"]], actor=organiser)
    services.round_publish(rnd=rnd, actor=organiser)
    table1, table2 = rnd.tables.order_by("number")
    player = make_user("player-rights")
    link_player(player, table1)
    return {"event": event, "round": rnd, "table1": table1, "table2": table2,
            "organiser": organiser, "referee": referee, "player": player,
            "stranger": make_user("org-elsewhere", can_create=True),
            "staff": make_user("staff-rights", staff=True)}


def _card(table) -> Scorecard:
    return Scorecard.objects.get(table=table)


def _set(card: Scorecard, status: str) -> Scorecard:
    Scorecard.objects.filter(pk=card.pk).update(status=status)
    card.refresh_from_db()
    return card


def _code(refusal: Refusal | None) -> tuple[str, int] | None:
    return None if refusal is None else (refusal.code, refusal.status)


def test_a_refusal_becomes_the_error_of_its_status():
    assert isinstance(Refusal("gone", "no", status=404).error(), NotFound)
    assert Refusal("gone", "no", status=404).hidden
    assert isinstance(Refusal("who", "no").error(), Forbidden)
    not_now = Refusal("state", "not now", field="status", status=400).error()
    assert type(not_now) is ServiceError
    assert not_now.errors[0]["field"] == "status" and not_now.errors[0]["code"] == "state"


def test_who_the_actor_is():
    anonymous = AnonymousUser()
    assert rights.is_system(None) and rights.is_staff(None)  # commands, jobs, the demo
    assert not rights.is_signed_in(anonymous) and not rights.is_staff(anonymous)
    seat = TableSeat(table_id=1, event_id=1, start_number=3, name="Ana Novak", device="p1")
    assert rights.is_table_seat(seat) and not rights.is_signed_in(seat) and not rights.is_system(seat)
    assert str(seat) == "#3 Ana Novak"


def test_organisers_and_referees_of_one_event_only(day):
    event = day["event"]
    assert rights.is_organiser(day["organiser"], event) and rights.is_official(day["organiser"], event)
    assert not rights.is_organiser(day["referee"], event) and rights.is_official(day["referee"], event)
    assert not rights.is_official(day["stranger"], event)
    assert not rights.is_official(day["player"], event)
    assert rights.is_organiser(day["staff"], event) and rights.is_organiser(None, event)
    with pytest.raises(Forbidden):
        rights.require_organiser(day["referee"], event)
    rights.require_official(day["referee"], event)


def test_a_private_event_and_a_draft_round_do_not_exist_for_whoever_may_not_see_them(day):
    event, rnd = day["event"], day["round"]
    assert rights.can_view_event(AnonymousUser(), event)
    event.is_public = False
    event.save(update_fields=["is_public"])
    seat = TableSeat(table_id=day["table1"].pk, event_id=event.pk, start_number=1, name="x")
    assert not rights.can_view_event(AnonymousUser(), event)
    assert not rights.can_view_event(day["stranger"], event)
    assert rights.can_view_event(day["referee"], event) and rights.can_view_event(seat, event)
    # A player's account sees no more of a private event than anybody: his table's link does.
    assert not rights.can_view_event(day["player"], event)
    with pytest.raises(NotFound):
        rights.require_event_visible(day["stranger"], event)
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.DRAFT)
    rnd.refresh_from_db()
    assert rights.can_view_round(day["referee"], rnd)
    assert not rights.can_view_round(seat, rnd)
    with pytest.raises(NotFound):
        rights.require_round_visible(seat, rnd)


def test_a_player_writes_his_own_tables_card_while_the_table_may(day):
    player, card1, card2 = day["player"], _card(day["table1"]), _card(day["table2"])
    assert rights.card_refusal(player, card1, ENTER) is None
    assert _code(rights.card_refusal(player, card2, ENTER)) == ("not_at_table", 403)
    assert _code(rights.card_refusal(player, card1, CardAction.VERIFY)) == ("not_referee", 403)
    _set(card1, Scorecard.Status.CONFIRMED)
    assert _code(rights.card_refusal(player, card1, ENTER)) == ("scorecard_closed", 403)


def test_a_seat_through_the_link_writes_only_its_own_table(day):
    seat = TableSeat(table_id=day["table1"].pk, event_id=day["event"].pk, start_number=2, name="x")
    assert rights.card_refusal(seat, _card(day["table1"]), ENTER) is None
    assert _code(rights.card_refusal(seat, _card(day["table2"]), ENTER)) == ("not_at_table", 403)
    assert not rights.may(seat, _card(day["table2"]), ENTER)


def test_an_officials_change_of_a_counted_card_is_a_correction_with_a_reason(day):
    card = _set(_card(day["table2"]), Scorecard.Status.VERIFIED)
    referee = day["referee"]
    assert _code(rights.card_refusal(referee, card, ENTER)) == ("reason_required", 400)
    assert rights.card_refusal(referee, card, ENTER, reason="the sheet says 40") is None
    assert _code(rights.card_refusal(referee, card, CardAction.SUBMIT)) == ("not_open", 400)
    services.scorecard_annul(scorecard=card, actor=referee, reason="played at the wrong table")
    card.refresh_from_db()
    assert _code(rights.card_refusal(referee, card, ENTER, reason="x")) == ("annulled", 400)


def test_nobody_writes_a_drafts_card_and_the_officials_are_told_why(day):
    Round.objects.filter(pk=day["round"].pk).update(status=Round.Status.DRAFT)
    card = _card(day["table1"])
    assert _code(rights.card_refusal(day["organiser"], card, ENTER)) == ("round_not_published", 400)
    assert _code(rights.card_refusal(day["player"], card, ENTER)) == ("not_found", 404)


def test_the_one_who_submitted_a_card_does_not_confirm_it(day):
    card = _card(day["table1"])
    assert _code(rights.card_refusal(day["player"], card, CardAction.CONFIRM)) == ("not_submitted", 400)
    Scorecard.objects.filter(pk=card.pk).update(status=Scorecard.Status.SUBMITTED,
                                                submitted_by=day["player"])
    card.refresh_from_db()
    assert rights.submitted_by_actor(card, day["player"])
    # No hand of the 4 the round plays: the referee's to confirm, with a reason.
    seat3 = TableSeat(table_id=day["table1"].pk, event_id=day["event"].pk, start_number=3, name="x")
    assert _code(rights.card_refusal(seat3, card, CardAction.CONFIRM)) == ("hand_count_needs_referee", 403)
    assert _code(rights.card_refusal(day["referee"], card, CardAction.CONFIRM)) == (
        "hand_count_reason_required", 400)
    for number, record in enumerate(tri1_hands(card, 4), start=1):
        services.hand_save(scorecard=card, number=number, record=record, actor=day["organiser"],
                           expected_version=None)
    Scorecard.objects.filter(pk=card.pk).update(status=Scorecard.Status.SUBMITTED,
                                                submitted_by=day["player"])
    card.refresh_from_db()
    assert _code(rights.card_refusal(day["player"], card, CardAction.CONFIRM)) == ("same_person", 400)
    assert rights.card_refusal(seat3, card, CardAction.CONFIRM) is None
