"""The organiser's pages: create and edit an event from the ruleset registry, add and import
players (a bad CSV row imports nothing), check in, seat a round through the background job
and follow its progress, swap, publish, run the clock, enter hands at a table with the
engine's errors at the field, confirm by a second person, close the round, finish the event;
and the money sheet of a money ruleset. Destructive buttons ask first, a short card warns
before it is handed in, and the event page counts in the right plural."""

from __future__ import annotations

import re

from tests.tournaments.pages.support import (  # noqa: F401
    World,
    client_for,
    make_event,
    make_user,
    registered_event,
    seat_round,
    world_fixture,
    world_of_the_module,
)
from tournaments import services
from tournaments.models import AuditEntry, Event, Job, Registration, Round, Scorecard

M = "/manage/e/event-a"


def _event_post(**overrides):
    data = {
        "name": "Grand Prix Vysočiny", "slug": "", "venue": "Bystré", "starts_on": "2026-10-31",
        "ends_on": "", "time_zone": "Europe/Prague", "language": "cs",
        "ruleset_code": "gp-vysociny-2004", "ruleset_mode": "four", "seating_system": "random",
        "planned_rounds": "4", "hands_per_round": "24", "round_duration_minutes": "55",
        "table_size": "4", "min_table_size": "4", "stake_kc": "20", "status": "registration",
        "is_public": "on", "opt-partner_payment": "each_pays_each",
        "opt-cap_applies_to": "payment", "opt-silent_lost_pays": "True",
    }
    data.update(overrides)
    return data


def test_create_a_money_event_with_its_mode_options_and_stake(db):
    organiser = make_user("org", can_create=True)
    client = client_for(organiser)
    form = client.get("/manage/events/new/").content.decode()
    # The ruleset choice comes from the registry and reloads its modes and options.
    for code in ("tarok-net-2007", "steirischer-tarockcup-2017", "gp-vysociny-2004"):
        assert f'value="{code}"' in form
    assert 'hx-get="/manage/events/ruleset-fields/"' in form
    fragment = client.get("/manage/events/ruleset-fields/", {"ruleset_code": "gp-vysociny-2004"}).content.decode()
    assert 'name="opt-partner_payment"' in fragment and 'name="stake_kc"' in fragment
    assert 'value="four"' in fragment

    response = client.post("/manage/events/new/", _event_post())
    assert response.status_code == 302
    event = Event.objects.get(slug="grand-prix-vysociny")
    assert response["Location"] == "/manage/e/grand-prix-vysociny/players/"
    assert event.ruleset_code == "gp-vysociny-2004" and event.ruleset_mode == "four"
    # Only options that differ from the ruleset's default are stored.
    assert event.ruleset_options == {"partner_payment": "each_pays_each"}
    assert event.stake_haler == 2000 and event.round_duration_minutes == 55
    assert event.ends_on == event.starts_on
    assert list(event.organisers.all()) == [organiser]
    assert AuditEntry.objects.filter(action="event.create", event=event).exists()


def test_create_event_refusals_are_shown_at_the_field(db):
    client = client_for(make_user("org", can_create=True))
    response = client.post("/manage/events/new/", _event_post(stake_kc=""))
    assert response.status_code == 400
    page = response.content.decode()
    assert re.search(r'id="err-stake_kc"[^>]*>[^<]*stake', page)
    response = client.post("/manage/events/new/", _event_post(**{"opt-partner_payment": "nonsense"}))
    assert response.status_code == 400
    assert 'id="err-opt-partner_payment"' in response.content.decode()
    assert not Event.objects.exists()


def test_tarok_event_needs_a_mode_from_its_ruleset(db):
    client = client_for(make_user("org", can_create=True))
    data = _event_post(name="Open", ruleset_code="tarok-net-2007", ruleset_mode="tri+1",
                       seating_system="points", stake_kc="", **{"opt-partner_payment": ""})
    for key in [k for k in data if k.startswith("opt-")]:
        data.pop(key)
    data["opt-rounding"] = "half_away_from_zero"
    assert client.post("/manage/events/new/", data).status_code == 302
    event = Event.objects.get(slug="open")
    assert event.ruleset_mode == "tri+1" and event.ruleset_options == {} and event.stake_haler is None


def test_edit_event_saves_changes_and_audits_them(world: World):
    from tournaments.forms import EventForm

    client = client_for(world.organiser)
    data = {k: ("on" if v is True else v) for k, v in EventForm.initial_from(world.event).items()
            if v not in (None, False) and k != "ruleset_options"}
    data.update(name="Renamed", planned_rounds="3", starts_on="2026-11-21", ends_on="2026-11-21")
    response = client.post(f"{M}/edit/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    world.event.refresh_from_db()
    assert world.event.name == "Renamed" and world.event.planned_rounds == 3
    assert AuditEntry.objects.filter(action="event.update", event=world.event).exists()
    # The ruleset is locked once scorecards exist: the refusal is shown, nothing changes.
    data.update(ruleset_code="slovenski-tarok-zei", ruleset_mode="four")
    response = client.post(f"{M}/edit/", data)
    assert response.status_code == 400
    assert "cannot change once scorecards exist" in response.content.decode()


def test_add_a_player_with_the_next_start_number_or_a_chosen_one(world: World):
    client = client_for(world.organiser)
    response = client.post(f"{M}/players/add/", {"first_name": "Late", "last_name": "Comer",
                                                  "status": "late_entry"})
    assert response.status_code == 302
    reg = world.event.registrations.get(player__last_name="Comer")
    assert reg.start_number == 9 and reg.status == Registration.Status.LATE_ENTRY
    response = client.post(f"{M}/players/add/", {"first_name": "Taken", "last_name": "Number",
                                                  "start_number": "3", "status": "registered"})
    assert response.status_code == 400
    assert "start number 3 is taken" in response.content.decode()
    assert not world.event.registrations.filter(player__last_name="Number").exists()


def test_csv_import_all_or_nothing_with_errors_per_row(world: World):
    client = client_for(world.organiser)
    bad = "first_name,last_name,club,start_number\nMaja,Nova,TK A,20\nJure,,TK B,abc\n"
    response = client.post(f"{M}/players/import/", {"text": bad})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Nothing was imported" in page and "<strong>line 3</strong>: " in page
    assert "start number must be" in page and "row 2" not in page
    assert world.event.registrations.count() == 8
    good = "first_name;last_name;club;start_number\nMaja;Nova;TK A;20\nJure;Star;TK B;\n"
    response = client.post(f"{M}/players/import/", {"text": good})
    assert response.status_code == 302
    assert set(world.event.registrations.filter(start_number__gt=8)
               .values_list("start_number", "player__last_name")) == {(20, "Nova"), (21, "Star")}


def test_check_in_late_entry_and_withdraw_with_htmx_rows(world: World):
    reg = world.event.registrations.order_by("start_number").last()
    client = client_for(world.organiser)
    url = f"{M}/players/{reg.pk}/status/"
    response = client.post(url, {"status": "withdrawn"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    row = response.content.decode()
    assert row.strip().startswith(f'<tr id="reg-{reg.pk}"') and "Reinstate" in row
    reg.refresh_from_db()
    assert reg.status == Registration.Status.WITHDRAWN
    client.post(url, {"status": "checked_in"})
    reg.refresh_from_db()
    assert reg.status == Registration.Status.CHECKED_IN and reg.checked_in_at is not None
    assert client.post(url, {"status": "nonsense"}, HTTP_HX_REQUEST="true").status_code == 400


def test_seat_a_round_through_the_job_with_progress_then_preview_swap_and_publish(
        db, django_capture_on_commit_callbacks):
    organiser = make_user("org", can_create=True)
    event = make_event(organiser, slug="fresh")
    client = client_for(organiser)
    page = client.get("/manage/e/fresh/").content.decode()
    assert "Seat round 1" in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/manage/e/fresh/rounds/generate/")
    job = Job.objects.get(event=event)
    assert response["Location"] == f"/manage/e/fresh/jobs/{job.pk}/"
    status = client.get(f"/manage/e/fresh/jobs/{job.pk}/status/", HTTP_HX_REQUEST="true")
    assert status["HX-Redirect"] == "/manage/e/fresh/rounds/1/"
    assert "<progress" in status.content.decode()
    # The job page itself, once the job is done, goes straight to the preview.
    assert client.get(f"/manage/e/fresh/jobs/{job.pk}/")["Location"] == "/manage/e/fresh/rounds/1/"
    # A second click finds the same job and seats nothing twice.
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/manage/e/fresh/rounds/generate/")
    assert Round.objects.filter(event=event).count() == 1

    rnd = event.rounds.get()
    assert rnd.status == Round.Status.DRAFT
    preview = client.get("/manage/e/fresh/rounds/1/").content.decode()
    assert "Publish the round" in preview and 'name="first"' in preview
    assert client_for(None).get("/e/fresh/rounds/1/").status_code == 404
    t1 = rnd.tables.get(number=1).scorecard.player_ids
    t2 = rnd.tables.get(number=2).scorecard.player_ids
    response = client.post("/manage/e/fresh/rounds/1/swap/", {"first": t1[0], "second": t2[0]})
    assert response.status_code == 302
    assert rnd.tables.get(number=1).scorecard.player_ids[0] == t2[0]
    client.post("/manage/e/fresh/rounds/1/publish/")
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PUBLISHED
    assert client_for(None).get("/e/fresh/rounds/1/").status_code == 200
    # The clock of the round (55 minutes) starts with a service and shows on the pages.
    client.post("/manage/e/fresh/rounds/1/clock/")
    rnd.refresh_from_db()
    assert rnd.clock_started_at is not None
    assert 'data-clock-minutes="55"' in client.get("/manage/e/fresh/rounds/1/").content.decode()
    # Swapping after publishing is refused with the service's message.
    response = client.post("/manage/e/fresh/rounds/1/swap/", {"first": t1[1], "second": t2[1]}, follow=True)
    assert "only a draft round can be edited" in response.content.decode()


def _hand_post(card: Scorecard, number: int, **fields):
    data = {"number": str(number), "version": str(card.version)}
    data.update({k.replace("_", "-") if k.startswith(("pbp", "ann", "con", "pen")) else k: str(v)
                 for k, v in fields.items()})
    return data


def test_hand_entry_knows_the_ruleset_and_prefills_the_resting_player(world: World):
    card = world.table2.scorecard
    page = client_for(world.other_player).get(f"{M}/rounds/1/tables/2/").content.decode()
    # Only the games of the ruleset and mode; the names as the players know them.
    assert '<option value="trojka">trojka</option>' in page
    assert '<option value="rufer">' not in page and '<option value="povinnost">' not in page
    # The first dealer rests in hand 1 (seat 1 of the table).
    assert re.search(rf'name="resting"[^>]*>.*?<option value="{card.player_ids[0]}" selected>', page, re.S)
    assert 'hx-post="/manage/e/event-a/rounds/1/tables/2/validate/"' in page
    assert "kontra" in page and "rekontra" in page
    # TRI+1 needs no partner, so none is offered.
    assert 'name="partner"' not in page


def test_validate_endpoint_returns_the_engine_error_at_the_field(world: World):
    card = world.table2.scorecard
    resting = card.player_ids[0]
    client = client_for(world.other_player)
    url = f"{M}/rounds/1/tables/2/validate/"
    response = client.post(url, _hand_post(card, 1, game="trojka", declarer=resting, points=40,
                                           resting=resting))
    html = response.content.decode()
    assert response.status_code == 200
    assert re.search(r'id="err-declarer"[^>]*hx-swap-oob="true">[^<]*rests this hand', html)
    response = client.post(url, _hand_post(card, 1, game="trojka", declarer=card.player_ids[1],
                                           points=44, resting=resting))
    html = response.content.decode()
    assert "This hand:" in html and "+19" in html
    assert re.search(r'id="err-declarer"[^>]*hx-swap-oob="true"></span>', html)
    # Points out of range are refused by the form before the engine.
    html = client.post(url, _hand_post(card, 1, game="trojka", declarer=card.player_ids[1],
                                       points=80, resting=resting)).content.decode()
    assert re.search(r'id="err-points"[^>]*>[^<]*70', html)
    card.refresh_from_db()
    assert card.hands.count() == 0


def test_enter_hands_including_klop_and_contra_then_confirm_by_a_second_person(world: World):
    card = world.table2.scorecard
    p = card.player_ids
    entering = client_for(world.other_player)
    url = f"{M}/rounds/1/tables/2/"
    response = entering.post(url, _hand_post(card, 1, game="trojka", declarer=p[1], points=40,
                                             resting=p[0], con_0_on="game", con_0_by=p[2],
                                             con_0_level=1))
    assert response.status_code == 302 and response["Location"].endswith("#hand-1")
    card.refresh_from_db()
    hand = card.hands.get(number=1)
    assert hand.record["contras"] == [{"on": "game", "by": p[2], "level": 1}]
    # trojka won by 5 is 15, doubled by the kontra; the one who said kontra pays his share.
    assert hand.scores[p[1]] == 30 and hand.scores[p[2]] < 0
    response = entering.post(url, _hand_post(card, 2, game="klop", resting=p[1],
                                             **{f"pbp_{p[0]}": 10, f"pbp_{p[1]}": 20,
                                                f"pbp_{p[2]}": 25, f"pbp_{p[3]}": 15}))
    assert response.status_code == 302
    card.refresh_from_db()
    klop = card.hands.get(number=2)
    assert klop.record["points_by_player"] == {p[0]: 10, p[1]: 20, p[2]: 25, p[3]: 15}
    assert all(v == 1 for v in klop.state["radelci"].values())
    page = entering.get(url).content.decode()
    assert "Hand 3 of 4" in page and "○" in page

    # A wrong hand is refused at the field and nothing is stored.
    response = entering.post(url, _hand_post(card, 3, game="trojka", declarer=p[3], points=40,
                                             resting=p[2], con_0_on="game", con_0_by=p[3],
                                             con_0_level=1))
    assert response.status_code == 400
    assert re.search(r'id="err-con-0-by"[^>]*>[^<]+\S', response.content.decode())
    assert card.hands.count() == 2

    # The one who entered a hand cannot confirm it; another player of the table can.
    entering.post(f"{url}hands/1/confirm/")
    hand.refresh_from_db()
    assert hand.confirmed_by is None
    seat = world.table2.seats.order_by("position")[1]
    teammate = make_user("teammate")
    seat.registration.player.user = teammate
    seat.registration.player.save()
    client_for(teammate).post(f"{url}hands/1/confirm/")
    hand.refresh_from_db()
    assert hand.confirmed_by == teammate

    # The round's last two hands (a shorter card is the referee's to confirm, with a reason).
    for number, resting in ((3, p[2]), (4, p[3])):
        declarer = next(x for x in p if x != resting)
        card.refresh_from_db()
        assert entering.post(url, _hand_post(card, number, game="trojka", declarer=declarer,
                                             points=40, resting=resting)).status_code == 302
    # Submit, then confirmation by a second person makes it count.
    entering.post(f"{url}submit/")
    card.refresh_from_db()
    assert card.status == Scorecard.Status.SUBMITTED
    response = entering.post(f"{url}confirm/", follow=True)
    assert "confirmed by a second person" in response.content.decode()
    client_for(teammate).post(f"{url}confirm/")
    card.refresh_from_db()
    assert card.status == Scorecard.Status.CONFIRMED and card.confirmed_by == teammate
    assert "R1 T2" not in client_for(None).get("/e/event-a/standings/live/").content.decode()


def test_edit_and_delete_a_hand_and_a_stale_version_is_refused(world: World):
    card = world.table2.scorecard
    p = card.player_ids
    client = client_for(world.organiser)
    url = f"{M}/rounds/1/tables/2/"
    client.post(url, _hand_post(card, 1, game="trojka", declarer=p[1], points=40, resting=p[0]))
    card.refresh_from_db()
    stale = card.version - 1
    edit = client.get(f"{url}hands/1/").content.decode()
    assert 'name="points"' in edit and 'value="40"' in edit
    response = client.post(f"{url}hands/1/", {**_hand_post(card, 1, game="trojka", declarer=p[1],
                                                            points=50, resting=p[0])})
    assert response.status_code == 302
    card.refresh_from_db()
    assert card.hands.get(number=1).record["points"] == 50
    response = client.post(f"{url}hands/1/", {**_hand_post(card, 1, game="trojka", declarer=p[1],
                                                            points=30, resting=p[0]),
                                              "version": str(stale)})
    assert response.status_code == 409
    assert "changed since you read it" in response.content.decode()
    client.post(f"{url}hands/1/delete/", {"version": str(card.version)})
    assert card.hands.count() == 0


def test_close_round_refused_while_tables_pending_then_closes_and_event_finishes(world: World):
    client = client_for(world.organiser)
    response = client.post(f"{M}/rounds/1/close/", follow=True)
    assert "tables not yet confirmed: 2" in response.content.decode()
    page = client.get(f"{M}/rounds/1/").content.decode()
    assert "Waiting for:" in page and f"{M}/rounds/1/tables/2/" in page
    services.scorecard_annul(scorecard=world.table2.scorecard, actor=world.referee, reason="card lost")
    client.post(f"{M}/rounds/1/close/")
    world.round.refresh_from_db()
    assert world.round.status == Round.Status.CLOSED
    assert Scorecard.objects.get(pk=world.table1.scorecard.pk).status == Scorecard.Status.VERIFIED
    # Every planned round must be closed before the event is finished.
    client.post(f"{M}/finish/")
    world.event.refresh_from_db()
    assert world.event.status == Event.Status.FINISHED
    assert "Final results" in client_for(None).get("/e/event-a/standings/").content.decode()


def test_money_sheet_entry_for_a_money_ruleset(db, django_capture_on_commit_callbacks):
    organiser = make_user("org", can_create=True)
    other = make_user("other")
    event = make_event(organiser, slug="czech", ruleset_code="gp-vysociny-2004", ruleset_mode="four",
                       seating_system="random", stake_haler=2000, min_table_size=4)
    rnd = seat_round(event, organiser, django_capture_on_commit_callbacks)
    services.round_publish(rnd=rnd, actor=organiser)
    card = rnd.tables.get(number=1).scorecard
    client = client_for(organiser)
    url = "/manage/e/czech/rounds/1/tables/1/"
    page = client.get(url).content.decode()
    assert "Money sheet" in page and 'name="money-' in page and 'name="game"' not in page
    p = card.player_ids
    bad = {"version": str(card.version), **{f"bought-{x}": "0" for x in p},
           f"money-{p[0]}": "30", f"money-{p[1]}": "20", f"money-{p[2]}": "20", f"money-{p[3]}": "20"}
    response = client.post(f"{url}money/", bad)
    assert response.status_code == 400
    card.refresh_from_db()
    assert not card.money_rows.exists()
    good = {**bad, f"money-{p[0]}": "26.50", f"money-{p[1]}": "13.50", f"bought-{p[1]}": "0"}
    response = client.post(f"{url}money/", good)
    assert response.status_code == 302, response.content.decode()[:3000]
    card.refresh_from_db()
    assert card.totals == {p[0]: 650, p[1]: -650, p[2]: 0, p[3]: 0}
    page = client.get(url).content.decode()
    assert "+6,50 Kč" in page or "+6.50 Kč" in page
    client.post(f"{url}submit/")
    client_for(other).post(f"{url}confirm/")
    card.refresh_from_db()
    assert card.status == Scorecard.Status.SUBMITTED  # "other" is neither official nor seated
    event.referees.add(other)
    client_for(other).post(f"{url}confirm/")
    card.refresh_from_db()
    assert card.status == Scorecard.Status.CONFIRMED
    standings = client_for(None).get("/e/czech/standings/").content.decode()
    assert "Kč" in standings


# --- Confirmations, the short card and plurals (issue #14, findings 9 and 13) --------------

def test_destructive_buttons_ask_first(world: World):
    organiser = client_for(world.organiser)
    players = organiser.get(f"{M}/players/").content.decode()
    assert re.search(r'value="withdrawn"[^>]*data-confirm="Withdraw ', players)
    assert re.search(r'value="withdraw"[^>]*data-confirm="Withdraw the ticked players', players)
    round_page = organiser.get(f"{M}/rounds/1/").content.decode()
    close = round_page[round_page.index("/rounds/1/close/"):][:300]
    assert 'data-confirm="Close round 1?' in close
    table = client_for(world.referee).get("/referee/e/event-a/rounds/1/tables/1/").content.decode()
    assert 'data-confirm="Annul the whole table?"' in table
    js = open("static/js/pages.js", encoding="utf-8").read()
    assert "event.submitter" in js and "window.confirm" in js

def test_a_short_card_warns_with_the_number_and_a_submitted_card_takes_no_new_hand(world: World):
    card = world.table2.scorecard
    ids = list(card.player_ids)
    services.hand_save(scorecard=card, number=1, actor=world.organiser, expected_version=card.version,
                       record={"game": "trojka", "declarer": ids[1], "resting": ids[0], "points": 40})
    organiser = client_for(world.organiser)
    page = organiser.get(f"{M}/rounds/1/tables/2/").content.decode()
    assert "The card has 1 hand of the 4 the round plays. Submit it anyway?" in page
    assert "1 hand of 4 entered." in page
    assert 'class="hand-form' in page or "Save hand 2" in page
    organiser.post(f"{M}/rounds/1/tables/2/submit/")
    card.refresh_from_db()
    assert card.status == "submitted"
    page = organiser.get(f"{M}/rounds/1/tables/2/").content.decode()
    assert "Save hand 2" not in page

def test_the_event_page_counts_in_the_right_number(db):
    event, organiser = registered_event(3)
    services.registration_add(event=event, actor=organiser, first_name="Late", last_name="One",
                              status=Registration.Status.LATE_ENTRY)
    services.registration_set_status(registration=event.registrations.get(start_number=1),
                                     status="checked_in", actor=organiser)
    page = client_for(organiser).get(f"/manage/e/{event.slug}/").content.decode()
    assert "2 registered, 1 checked in, 1 late entry, 0 withdrawn" in page
    assert "1 late entries" not in page
