"""The referee's pages: a renons recorded on a hand is scored by the engine and changes the
standings; disputes are opened from a table or a hand and decided with a written reason and
a link to the correction; a table's round is annulled with a reason; any hand, also of a
verified card, is corrected with a reason; every change shows in the history of the table and
of the event. A penalty for the whole table says it is a note and offers an adjustment (the
rulebook's amount where it fixes one)."""

from __future__ import annotations

import re

from tests.tournaments.pages.support import World, client_for, world_fixture, world_of_the_module  # noqa: F401
from tournaments import selectors, services
from tournaments.domain.standings import event_standings
from tournaments.models import AuditEntry, Dispute, Penalty, Scorecard
from tournaments.services import round_jobs

R = "/referee/e/event-a"


def _points(world: World) -> dict[int, tuple]:
    return {r.start_number: (r.points, r.score) for r in event_standings(world.event).rows}


def test_renons_on_a_hand_is_scored_and_changes_the_standings(world: World):
    card = world.table1.scorecard
    hand = card.hands.get(number=1)
    offender = next(p for p in card.player_ids if p != hand.record.get("resting"))
    before_scores = dict(card.totals)
    before = _points(world)
    client = client_for(world.referee)
    page = client.get(f"{R}/rounds/1/tables/1/").content.decode()
    assert '<option value="renons">renons</option>' in page
    response = client.post(f"{R}/rounds/1/tables/1/penalty/", {
        "kind": "renons", "player": offender, "hand_number": "1", "description": "revoke in trick 5"})
    assert response.status_code == 302
    hand.refresh_from_db()
    assert {"kind": "renons", "player": offender} in hand.record["penalties"]
    assert Penalty.objects.filter(hand=hand, kind="renons").exists()
    card.refresh_from_db()
    assert card.totals != before_scores
    assert _points(world) != before
    # The public scorecard shows the penalty on the hand and in the list.
    public = client_for(None).get("/e/event-a/rounds/1/tables/1/").content.decode()
    assert f"renons {offender}" in public and "revoke in trick 5" in public
    assert AuditEntry.objects.filter(action="penalty.record", table=world.table1).exists()


def test_penalty_form_errors_are_shown_and_nothing_is_recorded(world: World):
    client = client_for(world.referee)
    response = client.post(f"{R}/rounds/1/tables/1/penalty/", {"kind": "renons", "player": "",
                                                              "hand_number": "1"})
    assert response.status_code == 400
    assert re.search(r'id="err-player"[^>]*>[^<]+\S', response.content.decode())
    assert not Penalty.objects.exists()


def test_annul_a_table_needs_a_reason_and_then_counts_nothing(world: World):
    client = client_for(world.referee)
    response = client.post(f"{R}/rounds/1/tables/1/annul/", {"reason": "  "})
    assert response.status_code == 400
    world.table1.scorecard.refresh_from_db()
    assert world.table1.scorecard.status == Scorecard.Status.CONFIRMED
    client.post(f"{R}/rounds/1/tables/1/annul/", {"reason": "card filled in wrongly (Czech rule)"})
    card = world.table1.scorecard
    card.refresh_from_db()
    assert card.status == Scorecard.Status.ANNULLED
    assert all(points == 0 for points, _score in _points(world).values())
    page = client_for(None).get("/e/event-a/rounds/1/tables/1/").content.decode()
    assert "card filled in wrongly (Czech rule)" in page


def test_correct_a_hand_of_a_verified_card_with_a_reason(world: World):
    services.scorecard_annul(scorecard=world.table2.scorecard, actor=world.referee, reason="missing")
    round_jobs.round_close(rnd=world.round, actor=world.organiser)
    card = world.table1.scorecard
    card.refresh_from_db()
    assert card.status == Scorecard.Status.VERIFIED
    hand = card.hands.get(number=1)
    record = hand.record
    client = client_for(world.referee)
    url = f"{R}/rounds/1/tables/1/hands/1/correct/"
    form = client.get(url).content.decode()
    assert 'name="reason"' in form and f'value="{record["points"]}"' in form
    data = {"number": "1", "version": str(card.version), "game": record["game"],
            "declarer": record["declarer"], "points": "60", "resting": record["resting"]}
    response = client.post(url, data)
    assert response.status_code == 400
    assert "needs a reason" in response.content.decode()
    response = client.post(url, {**data, "reason": "points miscounted"})
    assert response.status_code == 302
    hand.refresh_from_db()
    assert hand.record["points"] == 60
    entry = AuditEntry.objects.get(action="hand.update", table=world.table1)
    assert entry.reason == "points miscounted" and entry.before["points"] == record["points"]
    # The organiser's entry page corrects a verified card too, with a reason (one rule for
    # every page: tournaments.domain.rights), and a player's page does not.
    edit = client_for(world.organiser).get("/manage/e/event-a/rounds/1/tables/1/hands/1/")
    assert edit.status_code == 200 and 'name="reason"' in edit.content.decode()
    assert client_for(world.player).get("/manage/e/event-a/rounds/1/tables/1/hands/1/").status_code == 403


def test_dispute_from_a_hand_decided_with_reason_and_linked_correction(world: World):
    client = client_for(world.referee)
    page = client.get(f"{R}/rounds/1/tables/1/").content.decode()
    assert 'href="?hand=2#dispute-form"' in page
    chosen = client.get(f"{R}/rounds/1/tables/1/", {"hand": "2"}).content.decode()
    assert re.search(r'name="hand_number"[^>]*>.*?<option value="2" selected>', chosen, re.S)
    response = client.post(f"{R}/rounds/1/tables/1/dispute/", {
        "description": "Player says the trula was announced", "hand_number": "2",
        "raised_by_name": "Ana"})
    dispute = Dispute.objects.get()
    assert response["Location"] == f"{R}/disputes/{dispute.pk}/"
    assert dispute.hand.number == 2 and dispute.table == world.table1
    # The correction the decision refers to: a renons recorded after the dispute was raised.
    seat = world.table1.seats.select_related("registration").order_by("position")[1]
    client.post(f"{R}/rounds/1/tables/1/penalty/", {"kind": "renons",
                                                   "player": str(seat.registration.start_number),
                                                   "hand_number": "2"})
    correction = AuditEntry.objects.get(action="penalty.record")
    page = client.get(f"{R}/disputes/{dispute.pk}/").content.decode()
    assert f'<option value="{correction.pk}">' in page
    assert client.post(f"{R}/disputes/{dispute.pk}/", {"decision": ""}).status_code == 400
    response = client.post(f"{R}/disputes/{dispute.pk}/", {
        "decision": "Renons confirmed by both neighbours", "correction": str(correction.pk)})
    assert response.status_code == 302
    dispute.refresh_from_db()
    assert dispute.status == Dispute.Status.DECIDED and dispute.correction == correction
    assert dispute.decided_by == world.referee
    listing = client.get(f"{R}/disputes/").content.decode()
    assert "Renons confirmed by both neighbours" in listing


def test_history_per_table_and_per_event(world: World):
    client = client_for(world.referee)
    services.dispute_open(event=world.event, table=world.table2, description="late", actor=world.referee)
    table = client.get(f"{R}/rounds/1/tables/1/history/").content.decode()
    # The actions in words (tournaments.text.audit_text), never their codes.
    assert "hand entered" in table and "card confirmed" in table and "dispute opened" not in table
    assert "hand.create" not in table
    event = client.get(f"{R}/history/").content.decode()
    assert "dispute opened" in event and "round published" in event and "player registered" in event


def test_standings_adjustment_with_reason(world: World):
    reg = world.event.registrations.order_by("start_number").first()
    client = client_for(world.referee)
    assert client.post(f"{R}/adjust/", {"registration": reg.pk, "points_delta": "1",
                                        "score_delta": "0", "reason": ""}).status_code == 400
    response = client.post(f"{R}/adjust/", {"registration": reg.pk, "points_delta": "1",
                                             "score_delta": "5", "reason": "tie decided by lot"})
    assert response.status_code == 302
    row = next(r for r in event_standings(world.event).rows if r.registration.pk == reg.pk)
    assert row.adjusted
    assert "tie decided by lot" in client.get(f"{R}/").content.decode()


# --- A penalty for the whole table (issue #14, finding 2) ----------------------------------

def test_a_penalty_for_the_whole_table_says_it_is_a_note_and_offers_an_adjustment(world: World):
    client = client_for(world.referee)
    player = world.table1.seats.first().registration
    before = selectors.table_in_round(world.event, 1, 1).scorecard.hands.values_list("scores", flat=True)
    response = client.post("/referee/e/event-a/rounds/1/tables/1/penalty/",
                           {"kind": "renons", "player": player.start_number, "hand_number": "",
                            "description": "talked about the cards"}, follow=True)
    page = response.content.decode()
    assert "Penalty recorded as a note: it changes no score." in page
    form = page[page.index('id="adjust"'):]
    assert f'<option value="{player.pk}" selected>' in form
    assert "round 1, table 1" in form
    after = selectors.table_in_round(world.event, 1, 1).scorecard.hands.values_list("scores", flat=True)
    assert list(before) == list(after)
    api = client.get("/api/v1/events/event-a/penalties/").json()
    rows = api["results"] if isinstance(api, dict) else api
    assert [row["scored"] for row in rows] == [False]

def test_a_penalty_on_a_hand_says_which_hand_it_scored(world: World):
    card = world.table2.scorecard
    ids = list(card.player_ids)
    services.hand_save(scorecard=card, number=1, actor=world.organiser, expected_version=card.version,
                       record={"game": "trojka", "declarer": ids[1], "resting": ids[0], "points": 40})
    response = client_for(world.referee).post(
        "/referee/e/event-a/rounds/1/tables/2/penalty/",
        {"kind": "renons", "player": ids[2], "hand_number": "1", "description": ""}, follow=True)
    assert "Penalty recorded and scored in hand 1" in response.content.decode()
    card.refresh_from_db()
    assert card.hands.get(number=1).record["penalties"] == [{"kind": "renons", "player": ids[2]}]

def test_a_whole_table_penalty_with_a_rulebook_value_proposes_that_amount(world: World):
    """Tarok.net's lost mond costs a fixed amount; recorded for the whole table, the
    adjustment comes filled in with it (the referee still saves it himself)."""
    from scoring import rules

    value = next(p.value for p in rules.get("tarok-net-2007").penalties if p.kind == "mond")
    player = world.table1.seats.first().registration
    page = client_for(world.referee).post(
        "/referee/e/event-a/rounds/1/tables/1/penalty/",
        {"kind": "mond", "player": player.start_number, "hand_number": "", "description": ""},
        follow=True).content.decode()
    form = page[page.index('id="adjust"'):]
    assert re.search(rf'name="score_delta" value="-{value}"', form), form[:2000]
