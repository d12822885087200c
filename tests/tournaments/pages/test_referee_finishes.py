"""A referee can finish what he starts (issue #33): a renons on a submitted card keeps it
submitted and says what comes next; the referee's table page offers the card's confirmation
(with a reason for a short card) and comes back to itself; a referee who is not an official of
the event is told who can add him, not shown a bare 403."""

from __future__ import annotations

from tests.tournaments.pages.support import (
    client_for,
    make_event,
    make_user,
    seat_round,
    tri1_hands,
)
from tournaments import services
from tournaments.models import AuditEntry


def _submitted_short_card(django_capture_on_commit_callbacks):
    organiser = make_user("org-finish", can_create=True)
    referee = make_user("ref-finish")
    event = make_event(organiser, slug="finish", referee=referee)
    rnd = seat_round(event, organiser, django_capture_on_commit_callbacks)
    services.round_publish(rnd=rnd, actor=organiser)
    card = rnd.tables.get(number=1).scorecard
    for number, record in enumerate(tri1_hands(card, 2), start=1):
        card.refresh_from_db()
        services.hand_save(scorecard=card, number=number, record=record, actor=organiser,
                           expected_version=card.version)
    services.scorecard_submit(scorecard=card, actor=organiser)
    return event, referee, card


def test_a_renons_keeps_the_card_submitted_and_the_referee_confirms_it_from_his_page(
        db, django_capture_on_commit_callbacks):
    event, referee, card = _submitted_short_card(django_capture_on_commit_callbacks)
    page = f"/referee/e/{event.slug}/rounds/1/tables/1/"
    ref = client_for(referee)
    declarer = card.hands.get(number=1).record.get("declarer") or card.player_ids[1]
    answer = ref.post(page + "penalty/", {"kind": "renons", "player": declarer, "hand_number": 1,
                                          "description": ""}, follow=True)
    assert "The card stays submitted: confirm it below" in answer.content.decode()
    card.refresh_from_db()
    assert card.status == "submitted"
    html = answer.content.decode()
    assert 'name="next"' in html and "confirm-reason" in html
    # No reason for a short card: refused with the reason why, nothing changes.
    refused = ref.post(f"/manage/e/{event.slug}/rounds/1/tables/1/confirm/", {"next": page})
    card.refresh_from_db()
    assert card.status == "submitted" and refused.status_code in (302, 400)
    done = ref.post(f"/manage/e/{event.slug}/rounds/1/tables/1/confirm/",
                    {"next": page, "reason": "the table stopped after two hands"})
    assert done.status_code == 302 and done["Location"] == page
    card.refresh_from_db()
    assert (card.status, card.confirmed_by) == ("confirmed", referee)
    assert AuditEntry.objects.get(action="scorecard.confirm", table=card.table).reason == (
        "the table stopped after two hands")


def test_a_form_returns_only_to_a_page_of_this_site(db, django_capture_on_commit_callbacks):
    event, referee, card = _submitted_short_card(django_capture_on_commit_callbacks)
    done = client_for(referee).post(f"/manage/e/{event.slug}/rounds/1/tables/1/confirm/",
                                    {"next": "//evil.example/", "reason": "two hands"})
    assert done.status_code == 302 and done["Location"] == f"/manage/e/{event.slug}/rounds/1/tables/1/"


def test_a_referee_of_another_event_is_told_who_can_add_him(db, django_capture_on_commit_callbacks):
    event, _referee, _card = _submitted_short_card(django_capture_on_commit_callbacks)
    stranger = make_user("ref-elsewhere")
    answer = client_for(stranger).get(f"/referee/e/{event.slug}/", HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 403
    text = answer.content.decode()
    assert "Officials page" in text and "<h1>Not allowed</h1>" in text
    organiser_page = client_for(stranger).get(f"/manage/e/{event.slug}/")
    assert organiser_page.status_code == 403 and "Only the organisers of this event" in (
        organiser_page.content.decode())
