"""Every write leaves an audit entry: a walk over every public service.

The public functions of the tournaments/services/ package, tournaments/services/round_jobs.py,
tournaments/services/player_registry.py and the leagues/services/ package are found by introspection (defined in the module, name not starting with
"_"). Each one is either a write, with a builder below that calls it with valid arguments and
names the audit action it must leave and who the entry must name, or it is listed in
NOT_WRITES with the reason. A new public service in none of the two fails
`test_every_public_service_is_walked`, so nobody adds a write the trail does not see.

Why one module of 760 lines: the walk is one table (a builder per public service) whose
completeness is itself the test; splitting it would split the check that nothing is missed.
"""

from __future__ import annotations

import datetime as dt
import inspect
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser

import leagues.services
import tournaments.services
import tournaments.services.checkin
import tournaments.services.entries
import tournaments.services.messages
import tournaments.services.officials
import tournaments.services.player_links
import tournaments.services.player_registry
import tournaments.services.referee_calls
import tournaments.services.round_jobs
import tournaments.services.table_links
import tournaments.venue.services
from leagues import services as ls
from leagues.models import Division, Season
from sample_data.factories import PlayerFactory
from tests.leagues.helpers import make_referee, play_matchday, random_klop_points
from tournaments import archive
from tournaments import services as ts
from tournaments.domain.rights import TableSeat
from tournaments.errors import Forbidden, NotFound
from tournaments.models import (
    AuditEntry,
    Dispute,
    Entry,
    Event,
    Job,
    Message,
    PlayerLink,
    Registration,
    Round,
    Scorecard,
    TableLink,
    VenueHold,
)
from tournaments.services import (
    entries,
    messages,
    officials,
    player_links,
    referee_calls,
    table_links,
)
from tournaments.services import player_registry as tp
from tournaments.services import round_jobs as tr
from tournaments.venue import services as venue

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

MODULES = [tournaments.services, tournaments.services.round_jobs, tournaments.services.player_registry,
           tournaments.services.checkin, tournaments.services.officials, tournaments.services.table_links,
           tournaments.services.player_links, tournaments.services.messages,
           tournaments.services.referee_calls,
           tournaments.services.entries, tournaments.venue.services, leagues.services]

# Public functions that change nothing, with the reason.
NOT_WRITES = {
    "tournaments.services.officials.set_password_path": "builds a link from the account's state",
    "tournaments.services.officials.user_by_username": "reads an account",
    "tournaments.services.table_links.normalise_code": "pure: a typed code as stored",
    "tournaments.services.table_links.display_code": "pure: a code as printed",
    "tournaments.services.table_links.links_of_round": "reads a round's links",
    "tournaments.services.table_links.link_by_token": "reads a link",
    "tournaments.services.table_links.link_by_code": "reads a link",
    "tournaments.services.table_links.device_id": "pure: a phone's id from its cookie",
    "tournaments.services.table_links.device_opened": "marks a phone in the rate limits' counts, no record",
    "tournaments.services.table_links.is_throttled": "reads the counts of wrong codes",
    "tournaments.services.table_links.open_by_code": "reads a link; counts a wrong code in the cache",
    "tournaments.services.table_links.open_by_token": "reads a link; counts a wrong token in the cache",
    "tournaments.services.seating_violations": "reads a stored round and asks the seating checker",
    "tournaments.services.round_jobs.round_seed": "pure: a seed computed from the event and round",
    "tournaments.services.round_jobs.next_round_number": "reads the event's rounds",
    "tournaments.services.player_registry.merge_problems": "reads why two records cannot be merged",
    "leagues.services.default_division_name": "pure: the name of a division level",
    "leagues.services.division_seed": "pure: a division's seed computed from the season's",
    "leagues.services.repeat_meetings": "pure: counts repeat meetings in a schedule",
    "leagues.services.seed_cup_points": "reads the Tarockcup ruleset's cup-points table",
    "leagues.services.schedule_needs_job": "reads the sizes of a season's divisions",
    "leagues.services.schedule_job_of": "reads the latest schedule job of a season",
    "tournaments.services.is_checker_note": "pure: whether a round note is the checker's",
    "tournaments.services.player_links.live_links": "reads an event's personal links",
    "tournaments.services.player_links.is_live": "reads whether a personal link is live",
    "tournaments.services.messages.mail_configured": "reads the settings",
    "tournaments.services.messages.messages_job_of": "reads a round's messages job",
    "tournaments.services.messages.wants": "reads whether a message is still asked for",
    "tournaments.services.messages.round_table_mail": "writes an e-mail, not a row",
    "tournaments.services.messages.card_corrected_mail": "writes an e-mail, not a row",
    # Without a mail server (the tests' default) they queue nothing; with one, they write the
    # messages a publication or a correction sends, audited there (round.publish, hand.update).
    "tournaments.services.messages.round_messages_queue": "queues a publication's messages",
    "tournaments.services.messages.card_messages_queue": "queues a correction's messages",
    # Sending changes the messages' and the job's state only: no result, seating, registry
    # entry or right.
    "tournaments.services.messages.messages_send": "sends a job's e-mails",
    "tournaments.services.player_links.open_by_token": "reads a personal link",
    "tournaments.services.entries.open_by_token": "reads an online entry",
    "tournaments.services.entries.is_expired": "pure: whether an entry's link has expired",
    "tournaments.services.entries.places_taken": "reads how many places an event's entries hold",
    # It writes the message of an entry's change, audited with that change (entry.create,
    # entry.approve...); without a mail server (the tests' default) nothing.
    "tournaments.services.messages.entry_message_queue": "queues an entry's message",
    # A venue laptop's note of what the server answered its push: its hold's version, or why
    # not (no result, seating, registry entry or right).
    "tournaments.venue.services.push_recorded": "notes the server's answer on the laptop's hold",
    "tournaments.venue.services.push_failed": "notes why a push did not go through",
    "tournaments.services.messages.masked": "pure: a saved address as the personal page shows it",
    "tournaments.venue.services.require_holder": "reads whether a key holds an event (a refusal)",
}


def public_services() -> set[str]:
    return {f"{module.__name__}.{name}"
            for module in MODULES
            for name, obj in vars(module).items()
            if inspect.isfunction(obj) and not name.startswith("_")
            # A package (tournaments.services) shows the functions of its modules.
            and (obj.__module__ == module.__name__
                 or obj.__module__.startswith(f"{module.__name__}."))}


# ---------------------------------------------------------------------------------------
# The world the builders start from
# ---------------------------------------------------------------------------------------

@dataclass
class Call:
    run: Callable[[], Any]
    action: str
    actor: Any


class World:
    """Users and lazily built objects: each builder asks only for what its service needs."""

    def __init__(self) -> None:
        make = get_user_model().objects.create
        self.organiser = make(username="walk-organiser", is_staff=True)
        self.referee = make(username="walk-referee")

    def event(self, slug: str = "walk", players: int = 8, **extra: Any) -> Event:
        fields = {"name": f"Walk {slug}", "slug": slug, "starts_on": dt.date(2026, 11, 21),
                  "ends_on": dt.date(2026, 11, 21), "ruleset_code": "tarok-net-2007",
                  "ruleset_mode": "tri+1", "seating_system": "points", "planned_rounds": 3,
                  "hands_per_round": 4, **extra}
        event = ts.event_create(actor=self.organiser, **fields)
        event.referees.add(self.referee)
        for n in range(1, players + 1):
            player = ts.player_create(first_name=f"F{n}", last_name=f"{slug}-{n}", club="TK")
            ts.registration_create(event=event, player=player, actor=self.organiser)
        return event

    def draft_round(self, event: Event | None = None) -> Round:
        event = event or self.event()
        return ts.round_store(event=event, number=1, seating_system="fixed", seed=0,
                              tables=[["1", "2", "3", "4"], ["5", "6", "7", "8"]],
                              actor=self.organiser)

    def published_round(self) -> Round:
        rnd = self.draft_round()
        return ts.round_publish(rnd=rnd, actor=self.organiser)

    def card(self, rnd: Round | None = None, table: int = 1) -> Scorecard:
        rnd = rnd or self.published_round()
        return Scorecard.objects.get(table__round=rnd, table__number=table)

    def card_with_hand(self) -> Scorecard:
        card = self.card()
        ts.hand_save(scorecard=card, number=1, record=trojka(), actor=self.organiser,
                     expected_version=card.version)
        card.refresh_from_db()
        return card

    def closed_round(self) -> Round:
        rnd = self.published_round()
        for card in Scorecard.objects.filter(table__round=rnd):
            ts.hand_save(scorecard=card, number=1, record=trojka(*card.player_ids[::3]),
                         actor=self.organiser, expected_version=card.version)
            ts.scorecard_submit(scorecard=card, actor=self.organiser)
            ts.scorecard_confirm(scorecard=card, actor=self.referee, reason="a short test card: fewer hands than the round plays")
        return tr.round_close(rnd=rnd, actor=self.organiser)

    # Leagues and cups ------------------------------------------------------------------

    def league(self):
        return ls.league_create(actor=self.organiser, organisers=[self.organiser], name="Liga",
                                slug="liga", division_size=8, movement_count=2, division_count=1,
                                hands_per_matchday=1, qualification_group=True)

    def season(self, *, members: int = 8, planned_matchdays: int = 1) -> Season:
        season = ls.season_create(league=self.league(), actor=self.organiser, name="2025",
                                  slug="2025", planned_matchdays=planned_matchdays, seed=3)
        division = self.division(season)
        for n in range(members):
            ls.membership_add(division=division, player=PlayerFactory(last_name=f"Member{n}"),
                              actor=self.organiser)
        return season

    def division(self, season: Season) -> Division:
        return season.divisions.get(level=1)

    def scheduled_season(self) -> Season:
        season = self.season()
        return ls.schedule_generate(season=season, actor=self.organiser)

    def matchday(self):
        return ls.matchday_create(season=self.scheduled_season(), actor=self.organiser,
                                  date=dt.date(2025, 9, 1), number=1)

    def seated_matchday(self):
        matchday = self.matchday()
        ls.matchday_seat(matchday=matchday, actor=self.organiser)
        return matchday

    def finished_season(self) -> Season:
        season = self.scheduled_season()
        rng = random.Random(5)
        play_matchday(season, 1, self.organiser, self.referee,
                      lambda card: random_klop_points(rng, len(card.player_ids)))
        return ls.season_finish(season=season, actor=self.organiser)

    def cup(self):
        return ls.cup_create(actor=self.organiser, organisers=[self.organiser], name="Pokal",
                             slug="pokal", seed_points=True)


def trojka(declarer: str = "1", resting: str = "4") -> dict[str, Any]:
    return {"game": "trojka", "declarer": declarer, "resting": resting, "points": 40}


# ---------------------------------------------------------------------------------------
# One builder per write: set up, then the call, its audit action and the actor it names
# ---------------------------------------------------------------------------------------

def _event_update(w: World) -> Call:
    event = w.event(players=0)
    return Call(lambda: ts.event_update(event=event, actor=w.organiser, venue="Piran"),
                "event.update", w.organiser)


def _registration_create(w: World) -> Call:
    event = w.event(players=0)
    player = PlayerFactory()
    return Call(lambda: ts.registration_create(event=event, player=player, actor=w.organiser),
                "registration.create", w.organiser)


def _registrations_create_many(w: World) -> Call:
    event = w.event(players=0)
    players = [PlayerFactory(), PlayerFactory()]
    return Call(lambda: ts.registrations_create_many(
        event=event, entries=[(players[0], 1, "registered"), (players[1], 2, "checked_in")],
        actor=w.organiser), "registration.create", w.organiser)


def _registration_set_status(w: World) -> Call:
    reg = w.event(players=1).registrations.get()
    return Call(lambda: ts.registration_set_status(registration=reg, status="checked_in",
                                                   actor=w.organiser),
                "registration.status", w.organiser)


def _registration_set_absent(w: World) -> Call:
    reg = w.event(players=1).registrations.get()
    return Call(lambda: tournaments.services.checkin.registration_set_absent(
        registration=reg, number=1, absent=True, actor=w.organiser),
        "registration.absent", w.organiser)


def _absence_change(w: World) -> Call:
    reg = w.event("walk-absence", players=1).registrations.get()
    return Call(lambda: tournaments.services.checkin.absence_change(
        registration=reg, number=1, absent=True, actor=w.organiser),
        "registration.absent", w.organiser)


# Online entry (issue #31): the entrant has no account, and the trail names him in its label.
def _entry_event(w: World, slug: str, **settings: Any) -> Event:
    event = w.event(slug, players=0)
    return ts.event_update(event=event, actor=w.organiser, **{"online_entry": True, **settings})


def _entry(event: Event, status: str, name: str = "Walk") -> Entry:
    return Entry.objects.create(event=event, first_name=name, last_name="In", token=f"walk-{name}-{event.pk}",
                                status=status, counted_at=event.created_at,
                                confirm_by=event.created_at + dt.timedelta(days=3650))


def _entry_submit(w: World) -> Call:
    event = _entry_event(w, "walk-enter")
    return Call(lambda: entries.entry_submit(
        event=event, client="192.0.2.7", base_url="http://x", actor=AnonymousUser(),
        values={"first_name": "Walk", "last_name": "In", "consent": True, "language": "sl"}),
        "entry.create", None)


def _entry_confirm(w: World) -> Call:
    entry = _entry(_entry_event(w, "walk-confirm"), Entry.Status.UNCONFIRMED)
    return Call(lambda: entries.entry_confirm(token=entry.token), "entry.confirm", None)


def _entry_approve(w: World) -> Call:
    entry = _entry(_entry_event(w, "walk-approve"), Entry.Status.PENDING)
    return Call(lambda: entries.entry_approve(entry=entry, actor=w.organiser), "entry.approve",
                w.organiser)


def _entry_refuse(w: World) -> Call:
    entry = _entry(_entry_event(w, "walk-refuse"), Entry.Status.PENDING)
    return Call(lambda: entries.entry_refuse(entry=entry, actor=w.organiser), "entry.refuse",
                w.organiser)


def _entry_withdraw(w: World) -> Call:
    entry = _entry(_entry_event(w, "walk-entry-withdraw"), Entry.Status.WAITING)
    return Call(lambda: entries.entry_withdraw(token=entry.token), "entry.withdraw", None)


def _waiting_list_move_up(w: World) -> Call:
    event = _entry_event(w, "walk-move-up")
    _entry(event, Entry.Status.WAITING)
    return Call(lambda: entries.waiting_list_move_up(event=event, actor=w.organiser),
                "entry.moved_up", w.organiser)


def _own_link(w: World, slug: str) -> PlayerLink:
    event = w.event(slug, players=1)
    ts.event_update(event=event, actor=w.organiser, players_may_withdraw=True)
    return PlayerLink.objects.get(registration__event=event, revoked_at__isnull=True)


def _withdraw_self(w: World) -> Call:
    link = _own_link(w, "walk-withdraw-self")
    return Call(lambda: entries.withdraw_self(link=link), "registration.status", None)


def _absent_self(w: World) -> Call:
    link = _own_link(w, "walk-absent-self")
    return Call(lambda: entries.absent_self(link=link, number=1, absent=True),
                "registration.absent", None)


# A venue hold (issue #32): the server's organiser lends the event; the laptop's pushes and its
# hand-back are named by the laptop's label; the staff take it back.
def _lent(w: World, slug: str) -> tuple[Event, str, dict]:
    """A lent event, its key, and the laptop's state to push. The pushed trail is the laptop's
    copy of the event's (its entries keep their own actors); it is empty here, so that the walk
    sees the push's own entry alone."""
    event = w.event(slug, players=4)
    _hold, key, doc = venue.hold_take(event=event, actor=w.organiser, holder="Walk laptop")
    doc["event"]["audit"] = []
    return event, key, doc


def _hold_take(w: World) -> Call:
    event = w.event("walk-take", players=4)
    return Call(lambda: venue.hold_take(event=event, actor=w.organiser), "venue.take", w.organiser)


def _push_apply(w: World) -> Call:
    event, key, doc = _lent(w, "walk-push")
    return Call(lambda: venue.push_apply(event=event, key=key, version=1, doc=doc), "venue.push", None)


def _hold_return(w: World) -> Call:
    event, key, doc = _lent(w, "walk-return")
    return Call(lambda: venue.hold_return(event=event, key=key, version=1, doc=doc), "venue.return",
                None)


def _hold_force_back(w: World) -> Call:
    event, _key, _doc = _lent(w, "walk-force-back")
    return Call(lambda: venue.hold_force_back(event=event, actor=w.organiser), "venue.force_back",
                w.organiser)


def _held_record(w: World) -> Call:
    event = w.event("walk-held", players=4)
    return Call(lambda: venue.held_record(event=event, server_url="https://x", key="k", actor=w.organiser),
                "venue.held", w.organiser)


def _taken_from_server(w: World) -> Call:
    event = w.event("walk-taken", players=4)
    doc = archive.export_event(event)
    doc["event"]["slug"] = "walk-taken-here"
    for entry in doc["event"]["audit"]:
        if entry.get("target", {}).get("type") == "tournaments.event":
            entry["target"]["ref"] = {"slug": "walk-taken-here"}
    doc["event"]["audit"] = []
    return Call(lambda: venue.taken_from_server(doc=doc, server_url="https://x", key="k", actor=w.organiser),
                "venue.held", w.organiser)


def _hold_revoked(w: World) -> Call:
    event = w.event("walk-revoked", players=4)
    hold = VenueHold.objects.create(event=event, side=VenueHold.Side.HELD, key="k", server_url="https://x")
    return Call(lambda: venue.hold_revoked(hold, returned=True), "venue.returned", None)


def _registrations_bulk_status(w: World) -> Call:
    event = w.event(players=2)
    return Call(lambda: tournaments.services.checkin.registrations_bulk_status(
        event=event, action="check_in_all", actor=w.organiser), "registration.status", w.organiser)


def _event_status_follow(w: World) -> Call:
    event = w.event(players=1)
    return Call(lambda: ts.event_status_follow(event, Event.Status.RUNNING, actor=w.organiser),
                "event.status", w.organiser)


def _round_store(w: World) -> Call:
    event = w.event()
    return Call(lambda: ts.round_store(event=event, number=1, seating_system="fixed", seed=0,
                                       tables=[["1", "2", "3", "4"], ["5", "6", "7", "8"]],
                                       actor=w.organiser),
                "round.create", w.organiser)


def _round_swap_players(w: World) -> Call:
    rnd = w.draft_round()
    return Call(lambda: ts.round_swap_players(rnd=rnd, first="1", second="5", actor=w.organiser),
                "round.swap", w.organiser)


def _round_publish(w: World) -> Call:
    rnd = w.draft_round()
    return Call(lambda: ts.round_publish(rnd=rnd, actor=w.organiser), "round.publish", w.organiser)


def _hand_save(w: World) -> Call:
    card = w.card()
    return Call(lambda: ts.hand_save(scorecard=card, number=1, record=trojka(), actor=w.referee,
                                     expected_version=card.version),
                "hand.create", w.referee)


def _hand_delete(w: World) -> Call:
    card = w.card_with_hand()
    return Call(lambda: ts.hand_delete(scorecard=card, number=1, actor=w.referee,
                                       expected_version=card.version),
                "hand.delete", w.referee)


def _hand_confirm(w: World) -> Call:
    hand = w.card_with_hand().hands.get(number=1)
    return Call(lambda: ts.hand_confirm(hand=hand, actor=w.referee), "hand.confirm", w.referee)


def _scorecard_submit(w: World) -> Call:
    card = w.card_with_hand()
    return Call(lambda: ts.scorecard_submit(scorecard=card, actor=w.organiser),
                "scorecard.submit", w.organiser)


def _scorecard_confirm(w: World) -> Call:
    card = ts.scorecard_submit(scorecard=w.card_with_hand(), actor=w.organiser)
    return Call(lambda: ts.scorecard_confirm(scorecard=card, actor=w.referee, reason="a short test card: fewer hands than the round plays"),
                "scorecard.confirm", w.referee)


def _scorecard_verify(w: World) -> Call:
    card = ts.scorecard_submit(scorecard=w.card_with_hand(), actor=w.organiser)
    card = ts.scorecard_confirm(scorecard=card, actor=w.referee, reason="a short test card: fewer hands than the round plays")
    return Call(lambda: ts.scorecard_verify(scorecard=card, actor=w.referee),
                "scorecard.verify", w.referee)


def _event_official_add(w: World) -> Call:
    event = w.event(players=0)
    user = get_user_model().objects.create(username="new-referee")
    return Call(lambda: officials.event_official_add(event=event, user=user, role="referee",
                                              actor=w.organiser),
                "event.referee.add", w.organiser)


def _event_official_remove(w: World) -> Call:
    event = w.event(players=0)
    return Call(lambda: officials.event_official_remove(event=event, user=w.referee, role="referee",
                                                 actor=w.organiser),
                "event.referee.remove", w.organiser)


def _official_account_create(w: World) -> Call:
    event = w.event(players=0)
    return Call(lambda: officials.official_account_create(event=event, username="new-ref",
                                                          role="referee", actor=w.organiser),
                "account.create", w.organiser)


def _links_ensure(w: World) -> Call:
    rnd = w.draft_round()
    TableLink.objects.filter(table__round=rnd).delete()
    return Call(lambda: table_links.links_ensure(rnd=rnd, actor=w.organiser),
                "table_link.issue", w.organiser)


def _link_revoke(w: World) -> Call:
    table = w.published_round().tables.get(number=1)
    return Call(lambda: table_links.link_revoke(table=table, actor=w.organiser),
                "table_link.reissue", w.organiser)


def _player_links_ensure(w: World) -> Call:
    event = w.event("walk-links-issue", players=4)
    PlayerLink.objects.filter(registration__event=event).delete()
    return Call(lambda: player_links.links_ensure(event=event, actor=w.organiser),
                "player_link.issue", w.organiser)


def _messages_choose(w: World) -> Call:
    registration = w.event("walk-messages", players=4).registrations.get(start_number=3)
    link = PlayerLink.objects.get(registration=registration, revoked_at__isnull=True)
    # The player through his personal link: no account, named in the entry's label.
    return Call(lambda: messages.messages_choose(link=link, email="p3@example.org",
                                                 round_messages=True, language="sl"),
                "registration.messages", None)


def _player_link_reissue(w: World) -> Call:
    registration = w.event("walk-links", players=4).registrations.get(start_number=2)
    return Call(lambda: player_links.link_reissue(registration=registration, actor=w.organiser),
                "player_link.reissue", w.organiser)


def _scorecard_annul(w: World) -> Call:
    card = w.card()
    return Call(lambda: ts.scorecard_annul(scorecard=card, actor=w.referee, reason="wrong table"),
                "scorecard.annul", w.referee)


def _money_sheet_save(w: World) -> Call:
    event = w.event(slug="gp", players=4, ruleset_code="gp-vysociny-2004", ruleset_mode="four",
                    seating_system="random", stake_haler=2000)
    rnd = ts.round_store(event=event, number=1, seating_system="fixed", seed=0,
                         tables=[["1", "2", "3", "4"]], actor=w.organiser)
    card = w.card(ts.round_publish(rnd=rnd, actor=w.organiser))
    rows = {"1": {"money": 4500}, "2": {"bought": 1000, "money": 1500}, "3": {"money": 2000},
            "4": {"money": 1000}}
    return Call(lambda: ts.money_sheet_save(scorecard=card, rows=rows, actor=w.referee,
                                            expected_version=card.version),
                "money_sheet.save", w.referee)


def _refresh_carried_totals(w: World) -> Call:
    event = w.closed_round().event
    # Carried totals gone stale (as after a restore of an older copy): the refresh puts them
    # right, and says so.
    Registration.objects.filter(event=event).update(tournament_points=0, score=0)
    return Call(lambda: ts.refresh_carried_totals(event, actor=w.organiser), "standings.refresh",
                w.organiser)


def _penalty_record(w: World) -> Call:
    card = w.card_with_hand()
    reg = card.table.seats.get(position=1).registration
    return Call(lambda: ts.penalty_record(table=card.table, registration=reg, kind="renons",
                                          actor=w.referee, hand_number=1, description="renons"),
                "penalty.record", w.referee)


def _dispute_open(w: World) -> Call:
    event = w.event(players=0)
    return Call(lambda: ts.dispute_open(event=event, description="wrong points", actor=w.referee),
                "dispute.open", w.referee)


def _dispute_decide(w: World) -> Call:
    dispute: Dispute = ts.dispute_open(event=w.event(players=0), description="wrong points",
                                       actor=w.organiser)
    return Call(lambda: ts.dispute_decide(dispute=dispute, decision="the points stand",
                                          actor=w.referee),
                "dispute.decide", w.referee)


def _standings_adjust(w: World) -> Call:
    reg = w.event(players=1).registrations.get()
    return Call(lambda: ts.standings_adjust(registration=reg, actor=w.referee, reason="late",
                                            points_delta=-1),
                "standings.adjust", w.referee)


def _round_start_clock(w: World) -> Call:
    rnd = w.published_round()
    return Call(lambda: ts.round_start_clock(rnd=rnd, actor=w.organiser), "round.start_clock",
                w.organiser)


def _registrations_import_csv(w: World) -> Call:
    event = w.event(players=0)
    text = "first_name,last_name,club\nAna,Novak,TK Bled\nBor,Kranjc,TK Bled\n"
    return Call(lambda: ts.registrations_import_csv(event=event, text=text, actor=w.organiser),
                "registration.import", w.organiser)


def _registration_add(w: World) -> Call:
    event = w.event(players=0)
    return Call(lambda: ts.registration_add(event=event, actor=w.organiser, first_name="Ana",
                                            last_name="Novak", club="TK Bled"),
                "registration.create", w.organiser)


def _queued(capture: Any, queue: Callable[[], Any], action: str, actor: Any) -> Call:
    """A service that queues a job: the job runs when the queueing commits (eagerly in tests)."""
    def run() -> Any:
        with capture(execute=True):
            return queue()

    return Call(run, action, actor)


def _job_run(capture: Any, queue: Callable[[], Any], run_job: Callable[[int], Any], action: str,
             actor: Any) -> Call:
    """The service that runs a job queued beforehand (without running it on commit)."""
    with capture(execute=False):
        job = queue()
    return Call(lambda: run_job(job.pk), action, actor)


def _player_update(w: World) -> Call:
    player = w.event(players=1).registrations.get().player
    return Call(lambda: tp.player_update(player=player, actor=w.organiser, reason="a typo",
                                         last_name="Novak"), "player.update", w.organiser)


def _registry_manager_set(w: World) -> Call:
    return Call(lambda: tp.registry_manager_set(user=w.referee, manager=True, actor=w.organiser,
                                                reason="runs the registry"),
                "registry.manager", w.organiser)


def _player_merge(w: World) -> Call:
    event = w.event(players=1)
    keep = event.registrations.get().player
    duplicate = ts.player_create(first_name=keep.first_name, last_name=keep.last_name, club="TK")
    ts.registration_create(event=w.event(slug="walk-2", players=0), player=duplicate,
                           actor=w.organiser)
    return Call(lambda: tp.player_merge(keep=keep, duplicate=duplicate, actor=w.organiser),
                "player.merge", w.organiser)


def _round_generation_queue(w: World, capture: Any) -> Call:
    event = w.event()
    return _queued(capture, lambda: tr.round_generation_queue(event=event, actor=w.organiser), "round.create",
                   w.organiser)


def _round_generate(w: World, capture: Any) -> Call:
    event = w.event()
    return _job_run(capture, lambda: tr.round_generation_queue(event=event, actor=w.organiser), tr.round_generate,
                    "round.create", w.organiser)


def _schedule_job_queue(w: World, capture: Any) -> Call:
    season = w.season()
    return _queued(capture, lambda: ls.schedule_job_queue(season=season, actor=w.organiser),
                   "league.schedule.generate", w.organiser)


def _schedule_job_run(w: World, capture: Any) -> Call:
    season = w.season()
    return _job_run(capture, lambda: ls.schedule_job_queue(season=season, actor=w.organiser), ls.schedule_job_run,
                    "league.schedule.generate", w.organiser)


def _round_reopen(w: World) -> Call:
    rnd = w.closed_round()
    return Call(lambda: ts.round_reopen(rnd=rnd, actor=w.organiser, reason="closed too early"),
                "round.reopen", w.organiser)


def _round_unpublish(w: World) -> Call:
    rnd = w.published_round()
    return Call(lambda: ts.round_unpublish(rnd=rnd, actor=w.organiser, reason="wrong seating"),
                "round.unpublish", w.organiser)


def _round_close(w: World) -> Call:
    rnd = w.published_round()
    for card in Scorecard.objects.filter(table__round=rnd):
        ts.scorecard_annul(scorecard=card, actor=w.referee, reason="not played")
    return Call(lambda: tr.round_close(rnd=rnd, actor=w.organiser), "round.close", w.organiser)


def _league_update(w: World) -> Call:
    league = w.league()
    return Call(lambda: ls.league_update(league=league, actor=w.organiser, description="Zima"),
                "league.update", w.organiser)


def _season_create(w: World) -> Call:
    league = w.league()
    return Call(lambda: ls.season_create(league=league, actor=w.organiser, name="2025"),
                "league.season.create", w.organiser)


def _season_update(w: World) -> Call:
    season = w.season(members=0)
    return Call(lambda: ls.season_update(season=season, actor=w.organiser, name="2025/26"),
                "league.season.update", w.organiser)


def _membership_add(w: World) -> Call:
    division = w.division(w.season(members=0))
    player = PlayerFactory()
    return Call(lambda: ls.membership_add(division=division, player=player, actor=w.organiser),
                "league.membership.add", w.organiser)


def _memberships_add_many(w: World) -> Call:
    season = w.season(members=0)
    division = w.division(season)
    players = [PlayerFactory(), PlayerFactory()]
    return Call(lambda: ls.memberships_add_many(
        season=season, entries=[(division, players[0], None), (division, players[1], 5)],
        actor=w.organiser), "league.membership.add", w.organiser)


def _membership_remove(w: World) -> Call:
    membership = w.season(members=1).memberships.get()
    return Call(lambda: ls.membership_remove(membership=membership, actor=w.organiser,
                                             reason="moved abroad"),
                "league.membership.remove", w.organiser)


def _membership_move(w: World) -> Call:
    membership = w.season(members=2).memberships.order_by("seed_position").first()
    return Call(lambda: ls.membership_move(membership=membership, actor=w.organiser,
                                           seed_position=2),
                "league.membership.move", w.organiser)


def _applicants_select(w: World) -> Call:
    season = w.season(members=6)
    applicants = [PlayerFactory(), PlayerFactory()]
    return Call(lambda: ls.applicants_select(season=season, applicants=applicants,
                                             actor=w.organiser),
                "league.membership.select", w.organiser)


def _schedule_generate(w: World) -> Call:
    season = w.season()
    return Call(lambda: ls.schedule_generate(season=season, actor=w.organiser),
                "league.schedule.generate", w.organiser)


def _schedule_swap(w: World) -> Call:
    season = w.scheduled_season()
    first_table, second_table = season.schedule["divisions"]["1"]["rounds"][0][:2]
    first = PlayerFactory._meta.model.objects.get(pk=int(first_table[0]))
    second = PlayerFactory._meta.model.objects.get(pk=int(second_table[0]))
    return Call(lambda: ls.schedule_swap(season=season, division=w.division(season),
                                         matchday_number=1, first=first, second=second,
                                         actor=w.organiser, reason="a wish"),
                "league.schedule.swap", w.organiser)


def _matchday_create(w: World) -> Call:
    season = w.scheduled_season()
    return Call(lambda: ls.matchday_create(season=season, actor=w.organiser,
                                           date=dt.date(2025, 9, 1)),
                "league.matchday.create", w.organiser)


def _matchday_update(w: World) -> Call:
    matchday = w.matchday()
    return Call(lambda: ls.matchday_update(matchday=matchday, actor=w.organiser, venue="Celje"),
                "league.matchday.update", w.organiser)


def _matchday_seat(w: World) -> Call:
    matchday = w.matchday()
    return Call(lambda: ls.matchday_seat(matchday=matchday, actor=w.organiser),
                "league.matchday.seat", w.organiser)


def _matchday_publish(w: World) -> Call:
    matchday = w.seated_matchday()
    return Call(lambda: ls.matchday_publish(matchday=matchday, actor=w.organiser), "round.publish",
                w.organiser)


def _matchday_close(w: World) -> Call:
    matchday = w.seated_matchday()
    rnd = ls.matchday_publish(matchday=matchday, actor=w.organiser)
    make_referee(rnd.event, w.referee, w.organiser)
    for card in Scorecard.objects.filter(table__round=rnd):
        ts.scorecard_annul(scorecard=card, actor=w.referee, reason="not played")
    return Call(lambda: ls.matchday_close(matchday=matchday, actor=w.organiser), "round.close",
                w.organiser)


def _season_finish(w: World) -> Call:
    season = w.scheduled_season()
    rng = random.Random(5)
    play_matchday(season, 1, w.organiser, w.referee,
                  lambda card: random_klop_points(rng, len(card.player_ids)))
    return Call(lambda: ls.season_finish(season=season, actor=w.organiser), "league.season.finish",
                w.organiser)


def _division_set_final_order(w: World) -> Call:
    season = w.finished_season()
    division = w.division(season)
    players = [m.player for m in division.memberships.order_by("-seed_position")]
    return Call(lambda: ls.division_set_final_order(division=division, players=players,
                                                    actor=w.organiser, reason="commission"),
                "league.final_order", w.organiser)


def _season_advance(w: World) -> Call:
    season = w.finished_season()
    return Call(lambda: ls.season_advance(season=season, actor=w.organiser, name="2026"),
                "league.season.advance", w.organiser)


def _cup_update(w: World) -> Call:
    series = w.cup()
    return Call(lambda: ls.cup_update(series=series, actor=w.organiser, season_label="2026"),
                "cup.update", w.organiser)


def _cup_event_add(w: World) -> Call:
    series, event = w.cup(), w.event(players=0)
    return Call(lambda: ls.cup_event_add(series=series, event=event, actor=w.organiser),
                "cup.event.add", w.organiser)


def _cup_event_remove(w: World) -> Call:
    series, event = w.cup(), w.event(players=0)
    ls.cup_event_add(series=series, event=event, actor=w.organiser)
    return Call(lambda: ls.cup_event_remove(series=series, event=event, actor=w.organiser,
                                            reason="wrong event"),
                "cup.event.remove", w.organiser)


def _cup_points_set(w: World) -> Call:
    series = w.cup()
    return Call(lambda: ls.cup_points_set(series=series, table={"1": 100, "2": 80, "3": 60},
                                          actor=w.organiser, reason="the whole table"),
                "cup.points.set", w.organiser)



# Referee calls and notices to the hall (issue #33) ---------------------------------------

def _call(w: World):
    table = w.published_round().tables.get(number=1)
    seat = TableSeat(table_id=table.pk, event_id=table.round.event_id, start_number=1,
                     name="F1 walk-1", device="phone")
    return table, seat


def _referee_call(w: World) -> Call:
    # A phone's seat has no account: its entry names the seat (actor_label), no user.
    table, seat = _call(w)
    return Call(lambda: referee_calls.referee_call(table=table, actor=seat, note="renons?"),
                "referee_call.call", None)


def _referee_call_take(w: World) -> Call:
    table, seat = _call(w)
    call = referee_calls.referee_call(table=table, actor=seat)
    return Call(lambda: referee_calls.referee_call_take(call=call, actor=w.referee),
                "referee_call.take", w.referee)


def _referee_call_resolve(w: World) -> Call:
    table, seat = _call(w)
    call = referee_calls.referee_call(table=table, actor=seat)
    return Call(lambda: referee_calls.referee_call_resolve(call=call, actor=w.referee),
                "referee_call.resolve", w.referee)


def _link_outcome(w: World) -> Call:
    table, seat = _call(w)
    call = referee_calls.referee_call(table=table, actor=seat)
    dispute = ts.dispute_open(event=table.round.event, table=table, actor=w.referee,
                              description="the score")
    return Call(lambda: referee_calls.link_outcome(call_id=call.pk, table=table, actor=w.referee,
                                                   dispute=dispute),
                "referee_call.resolve", w.referee)


def _announcement_post(w: World) -> Call:
    event = w.event(players=0)
    return Call(lambda: referee_calls.announcement_post(event=event, actor=w.organiser,
                                                        text="Lunch at one"),
                "announcement.post", w.organiser)


def _announcement_withdraw(w: World) -> Call:
    event = w.event(players=0)
    notice = referee_calls.announcement_post(event=event, actor=w.organiser, text="Lunch")
    return Call(lambda: referee_calls.announcement_withdraw(announcement=notice, actor=w.organiser),
                "announcement.withdraw", w.organiser)


def _career_hide(w: Any) -> Call:
    player = w.event(players=1).registrations.get().player
    return Call(lambda: ts.player_career_hide(player=player, hidden=True, actor=w.organiser),
                "player.career", w.organiser)

WRITES: dict[str, Callable[..., Call]] = {
    "tournaments.services.player_create": lambda w: Call(
        lambda: ts.player_create(first_name="Ana", last_name="Novak", actor=w.organiser),
        "player.create", w.organiser),
    "tournaments.services.player_career_hide": lambda w: _career_hide(w),
    "tournaments.services.players_create_many": lambda w: Call(
        lambda: ts.players_create_many(players=[{"first_name": "Ana", "last_name": "Novak"},
                                                {"first_name": "Bor", "last_name": "Kos"}],
                                       actor=w.organiser),
        "player.create", w.organiser),
    "tournaments.services.event_create": lambda w: Call(
        lambda: ts.event_create(actor=w.organiser, name="New", slug="new",
                                starts_on=dt.date(2026, 12, 1), ends_on=dt.date(2026, 12, 1),
                                ruleset_code="tarok-net-2007", ruleset_mode="tri+1"),
        "event.create", w.organiser),
    "tournaments.services.event_update": _event_update,
    "tournaments.services.registration_create": _registration_create,
    "tournaments.services.registrations_create_many": _registrations_create_many,
    "tournaments.services.registration_set_status": _registration_set_status,
    "tournaments.services.checkin.registration_set_absent": _registration_set_absent,
    "tournaments.services.round_store": _round_store,
    "tournaments.services.round_swap_players": _round_swap_players,
    "tournaments.services.round_publish": _round_publish,
    "tournaments.services.hand_save": _hand_save,
    "tournaments.services.hand_delete": _hand_delete,
    "tournaments.services.hand_confirm": _hand_confirm,
    "tournaments.services.scorecard_submit": _scorecard_submit,
    "tournaments.services.scorecard_confirm": _scorecard_confirm,
    "tournaments.services.scorecard_verify": _scorecard_verify,
    "tournaments.services.officials.event_official_add": _event_official_add,
    "tournaments.services.officials.event_official_remove": _event_official_remove,
    "tournaments.services.officials.official_account_create": _official_account_create,
    "tournaments.services.table_links.links_ensure": _links_ensure,
    "tournaments.services.table_links.link_revoke": _link_revoke,
    "tournaments.services.player_links.link_reissue": _player_link_reissue,
    "tournaments.services.player_links.links_ensure": _player_links_ensure,
    "tournaments.services.messages.messages_choose": _messages_choose,
    "tournaments.services.checkin.absence_change": _absence_change,
    "tournaments.venue.services.hold_take": _hold_take,
    "tournaments.venue.services.push_apply": _push_apply,
    "tournaments.venue.services.hold_return": _hold_return,
    "tournaments.venue.services.hold_force_back": _hold_force_back,
    "tournaments.venue.services.held_record": _held_record,
    "tournaments.venue.services.taken_from_server": _taken_from_server,
    "tournaments.venue.services.hold_revoked": _hold_revoked,
    "tournaments.services.entries.entry_submit": _entry_submit,
    "tournaments.services.entries.entry_confirm": _entry_confirm,
    "tournaments.services.entries.entry_approve": _entry_approve,
    "tournaments.services.entries.entry_refuse": _entry_refuse,
    "tournaments.services.entries.entry_withdraw": _entry_withdraw,
    "tournaments.services.entries.waiting_list_move_up": _waiting_list_move_up,
    "tournaments.services.entries.withdraw_self": _withdraw_self,
    "tournaments.services.entries.absent_self": _absent_self,
    "tournaments.services.scorecard_annul": _scorecard_annul,
    "tournaments.services.money_sheet_save": _money_sheet_save,
    "tournaments.services.refresh_carried_totals": _refresh_carried_totals,
    "tournaments.services.penalty_record": _penalty_record,
    "tournaments.services.dispute_open": _dispute_open,
    "tournaments.services.dispute_decide": _dispute_decide,
    "tournaments.services.standings_adjust": _standings_adjust,
    "tournaments.services.referee_calls.referee_call": _referee_call,
    "tournaments.services.referee_calls.referee_call_take": _referee_call_take,
    "tournaments.services.referee_calls.referee_call_resolve": _referee_call_resolve,
    "tournaments.services.referee_calls.link_outcome": _link_outcome,
    "tournaments.services.referee_calls.announcement_post": _announcement_post,
    "tournaments.services.referee_calls.announcement_withdraw": _announcement_withdraw,
    "tournaments.services.round_start_clock": _round_start_clock,
    "tournaments.services.registrations_import_csv": _registrations_import_csv,
    "tournaments.services.registration_add": _registration_add,
    "tournaments.services.player_registry.player_merge": _player_merge,
    "tournaments.services.player_registry.player_update": _player_update,
    "tournaments.services.player_registry.registry_manager_set": _registry_manager_set,
    "tournaments.services.round_jobs.round_generation_queue": _round_generation_queue,
    "tournaments.services.round_jobs.round_generate": _round_generate,
    "tournaments.services.round_jobs.round_close": _round_close,
    "tournaments.services.round_reopen": _round_reopen,
    "tournaments.services.round_unpublish": _round_unpublish,
    "tournaments.services.checkin.registrations_bulk_status": _registrations_bulk_status,
    "tournaments.services.event_status_follow": _event_status_follow,
    "leagues.services.league_create": lambda w: Call(
        lambda: ls.league_create(actor=w.organiser, name="Liga", slug="liga"),
        "league.create", w.organiser),
    "leagues.services.league_update": _league_update,
    "leagues.services.season_create": _season_create,
    "leagues.services.season_update": _season_update,
    "leagues.services.membership_add": _membership_add,
    "leagues.services.memberships_add_many": _memberships_add_many,
    "leagues.services.membership_remove": _membership_remove,
    "leagues.services.membership_move": _membership_move,
    "leagues.services.applicants_select": _applicants_select,
    "leagues.services.schedule_generate": _schedule_generate,
    "leagues.services.schedule_job_queue": _schedule_job_queue,
    "leagues.services.schedule_job_run": _schedule_job_run,
    "leagues.services.schedule_swap": _schedule_swap,
    "leagues.services.matchday_create": _matchday_create,
    "leagues.services.matchday_update": _matchday_update,
    "leagues.services.matchday_seat": _matchday_seat,
    "leagues.services.matchday_publish": _matchday_publish,
    "leagues.services.matchday_close": _matchday_close,
    "leagues.services.season_finish": _season_finish,
    "leagues.services.division_set_final_order": _division_set_final_order,
    "leagues.services.season_advance": _season_advance,
    "leagues.services.cup_create": lambda w: Call(
        lambda: ls.cup_create(actor=w.organiser, name="Pokal", slug="pokal"),
        "cup.create", w.organiser),
    "leagues.services.cup_update": _cup_update,
    "leagues.services.cup_event_add": _cup_event_add,
    "leagues.services.cup_event_remove": _cup_event_remove,
    "leagues.services.cup_points_set": _cup_points_set,
}

# Builders of services that queue work on commit also get pytest-django's capture fixture.
NEEDS_ON_COMMIT = {"tournaments.services.round_jobs.round_generation_queue",
                   "tournaments.services.round_jobs.round_generate",
                   "leagues.services.schedule_job_queue", "leagues.services.schedule_job_run"}


def test_every_public_service_is_walked():
    found = public_services()
    unwalked = found - set(WRITES) - set(NOT_WRITES)
    assert not unwalked, (
        f"public services with no audit walk: {sorted(unwalked)}. Add a builder to WRITES "
        "(and an audit entry in the service), or list it in NOT_WRITES with the reason.")
    assert not set(WRITES) & set(NOT_WRITES)
    gone = (set(WRITES) | set(NOT_WRITES)) - found
    assert not gone, f"walked services that no longer exist: {sorted(gone)}"


@pytest.mark.parametrize("name", sorted(WRITES))
def test_every_write_leaves_an_audit_entry_naming_its_actor(name, django_capture_on_commit_callbacks):
    world = World()
    builder = WRITES[name]
    call = (builder(world, django_capture_on_commit_callbacks) if name in NEEDS_ON_COMMIT
            else builder(world))
    last = AuditEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0

    call.run()

    entries = list(AuditEntry.objects.filter(pk__gt=last).select_related("actor"))
    assert entries, f"{name} wrote without an audit entry"
    assert call.action in {e.action for e in entries}, \
        f"{name} left {sorted({e.action for e in entries})}, not {call.action!r}"
    # Every entry the call left names the person who made the change, none "system".
    assert {e.actor for e in entries} == {call.actor}, \
        f"{name}: entries name {sorted({e.actor_label for e in entries})}, not {call.actor}"


def _refused(call: Callable[[], Any]) -> None:
    """A read that answers "there is none" by raising: the refusal is its answer."""
    try:
        call()
    except NotFound:
        pass


def _refused_by_right(call: Callable[[], Any]) -> None:
    """A check that answers "no" by raising Forbidden: the refusal is its answer."""
    try:
        call()
    except Forbidden:
        pass


def _message(rnd: Round, kind: str) -> Message:
    """An unsaved message to the first player seated in the round, about the round or his card."""
    seat = rnd.seats.select_related("registration__event", "table__scorecard").first()
    registration = seat.registration
    registration.email = "p@example.org"
    if kind == "round":
        return Message(registration=registration, kind=Message.Kind.ROUND_TABLE,
                       key=f"round:{rnd.pk}:v1")
    return Message(registration=registration, kind=Message.Kind.CARD_CORRECTED,
                   key=f"card:{seat.table.scorecard.pk}:w0")


def _row_counts() -> dict[str, int]:
    # The rate limits' counts (guard.counters) are the site's guard, not a record: reading a
    # table link counts a wrong code there.
    return {m._meta.label: m.objects.count() for m in apps.get_models()
            if m._meta.label != "guard.RateCount"}


@pytest.mark.parametrize("name", sorted(NOT_WRITES))
def test_the_services_that_are_not_writes_change_nothing(name):
    world = World()
    rnd = world.draft_round()
    season = world.season()
    season_rounds = [[["1", "2", "3", "4"], ["5", "6", "7", "8"]], [["1", "5", "2", "6"]]]
    # A messages job with nothing left to send (its messages went, or were never asked for).
    job = Job.objects.create(key="send_messages:walk", kind="send_messages", event=rnd.event,
                             result={"kind": "round_table", "key": "walk", "round_id": rnd.pk})
    # A laptop's hold of another event, as a venue laptop keeps it.
    held = VenueHold.objects.create(event=world.event("walk-laptop", players=0),
                                    side=VenueHold.Side.HELD, key="k")
    calls = {
        "tournaments.services.seating_violations": lambda: ts.seating_violations(rnd),
        "tournaments.services.round_jobs.round_seed": lambda: tr.round_seed(rnd.event, 2),
        "tournaments.services.round_jobs.next_round_number": lambda: tr.next_round_number(rnd.event),
        "tournaments.services.player_registry.merge_problems": lambda: tp.merge_problems(
            *[s.registration.player for s in rnd.seats.select_related("registration__player")[:2]]),
        "leagues.services.default_division_name": lambda: ls.default_division_name(2),
        "leagues.services.division_seed": lambda: ls.division_seed(7, 2),
        "leagues.services.repeat_meetings": lambda: ls.repeat_meetings(season_rounds),
        "leagues.services.seed_cup_points": ls.seed_cup_points,
        "tournaments.services.officials.set_password_path": lambda: officials.set_password_path(world.referee),
        "tournaments.services.officials.user_by_username": lambda: officials.user_by_username("walk-referee"),
        "tournaments.services.table_links.normalise_code": lambda: table_links.normalise_code("ab-cd"),
        "tournaments.services.table_links.display_code": lambda: table_links.display_code("ABCDEFGH"),
        "tournaments.services.table_links.links_of_round": lambda: table_links.links_of_round(rnd),
        "tournaments.services.table_links.link_by_token": lambda: table_links.link_by_token(
            TableLink.objects.filter(table__round=rnd).first().token),
        "tournaments.services.table_links.link_by_code": lambda: table_links.link_by_code(
            TableLink.objects.filter(table__round=rnd).first().code),
        "tournaments.services.table_links.device_id": lambda: table_links.device_id("phone-1"),
        "tournaments.services.table_links.device_opened": lambda: table_links.device_opened(
            "phone-1", TableLink.objects.filter(table__round=rnd).first()),
        "tournaments.services.table_links.is_throttled": lambda: table_links.is_throttled("phone-1", "192.0.2.1"),
        "tournaments.services.table_links.open_by_code": lambda: _refused(
            lambda: table_links.open_by_code("NOSUCHCD", device="phone-1", address="192.0.2.1")),
        "tournaments.services.table_links.open_by_token": lambda: _refused(
            lambda: table_links.open_by_token("x" * 32, device="phone-1", address="192.0.2.1")),
        "leagues.services.schedule_needs_job": lambda: ls.schedule_needs_job(season),
        "leagues.services.schedule_job_of": lambda: ls.schedule_job_of(season),
        "tournaments.services.is_checker_note": lambda: ts.is_checker_note("checker: x"),
        "tournaments.services.player_links.live_links": lambda: player_links.live_links(rnd.event),
        "tournaments.services.player_links.is_live": lambda: player_links.is_live(1),
        "tournaments.services.messages.mail_configured": messages.mail_configured,
        "tournaments.services.messages.messages_job_of": lambda: messages.messages_job_of(rnd),
        "tournaments.services.messages.wants": lambda: messages.wants(_message(rnd, "round")),
        "tournaments.services.messages.round_table_mail": lambda: messages.round_table_mail(
            _message(rnd, "round")),
        "tournaments.services.messages.card_corrected_mail": lambda: messages.card_corrected_mail(
            _message(rnd, "card")),
        "tournaments.services.messages.round_messages_queue": lambda: messages.round_messages_queue(
            rnd=rnd),
        "tournaments.services.messages.card_messages_queue": lambda: messages.card_messages_queue(
            card=rnd.tables.first().scorecard),
        "tournaments.services.messages.messages_send": lambda: messages.messages_send(job.pk),
        "tournaments.services.player_links.open_by_token": lambda: player_links.open_by_token(
            PlayerLink.objects.filter(registration__event=rnd.event).first().token),
        "tournaments.services.entries.open_by_token": lambda: _refused(
            lambda: entries.open_by_token("x" * 32)),
        "tournaments.services.entries.is_expired": lambda: entries.is_expired(
            Entry(status=Entry.Status.PENDING)),
        "tournaments.services.entries.places_taken": lambda: entries.places_taken(rnd.event),
        "tournaments.services.messages.entry_message_queue": lambda: messages.entry_message_queue(
            entry=Entry(event=rnd.event, email="p@example.org"), kind=Message.Kind.ENTRY_RECEIVED),
        "tournaments.venue.services.push_recorded": lambda: venue.push_recorded(held, 3),
        "tournaments.venue.services.push_failed": lambda: venue.push_failed(held, "no line"),
        "tournaments.services.messages.masked": lambda: messages.masked("ana@example.org"),
        "tournaments.venue.services.require_holder": lambda: _refused_by_right(
            lambda: venue.require_holder(event=rnd.event, key="k")),
    }
    assert set(calls) == set(NOT_WRITES)
    before = _row_counts()
    last_change = Event.objects.get(pk=rnd.event.pk).results_version

    calls[name]()

    assert _row_counts() == before
    assert Event.objects.get(pk=rnd.event.pk).results_version == last_change
