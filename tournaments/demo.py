"""The demo data of `manage.py seed_demo`: realistic events built through the services, so
the demo exercises the same paths an organiser does. Each demo is created once; running the
command again finds it and changes nothing.

Hands are drawn from a seeded random generator, so every run builds the same demo.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.db import transaction

from tournaments import services
from tournaments.models import Entry, Event, Player, Registration, Round, Scorecard
from tournaments.seating.rotation import rest_rotation
from tournaments.services import entries, round_jobs

SLOVENIAN_PLAYERS = [
    ("Janez", "Novak", "TK Ljubljana"), ("Marija", "Horvat", "TK Ljubljana"),
    ("Franc", "Kovačič", "TD Maribor"), ("Ana", "Krajnc", "TD Maribor"),
    ("Jože", "Zupančič", "Tarok klub Celje"), ("Maja", "Potočnik", "Tarok klub Celje"),
    ("Marko", "Kovač", "TK Kranj"), ("Irena", "Mlakar", "TK Kranj"),
    ("Andrej", "Vidmar", "TK Ljubljana"), ("Mojca", "Kos", "TD Maribor"),
    ("Peter", "Golob", "TK Novo mesto"), ("Nataša", "Turk", "TK Novo mesto"),
    ("Tomaž", "Božič", "TK Koper"), ("Petra", "Kralj", "TK Koper"),
    ("Matej", "Zorko", "Tarok klub Celje"), ("Špela", "Bizjak", "TK Kranj"),
    ("Boštjan", "Hribar", "TK Ljubljana"), ("Urška", "Kastelic", "TD Maribor"),
    ("Rok", "Oblak", "TK Novo mesto"), ("Tina", "Petek", "TK Koper"),
    ("Gregor", "Žagar", "TK Kranj"), ("Barbara", "Kolar", "Tarok klub Celje"),
    ("Aleš", "Koren", "TK Ljubljana"), ("Nina", "Jerman", "TD Maribor"),
]

CZECH_PLAYERS = [
    ("Jan", "Dvořák", "TK Jihlava"), ("Petr", "Svoboda", "TK Jihlava"),
    ("Jiří", "Novotný", "Taroky Bystré"), ("Pavel", "Černý", "Taroky Bystré"),
    ("Josef", "Procházka", "TK Svitavy"), ("Martin", "Kučera", "TK Svitavy"),
    ("Tomáš", "Veselý", "TK Polička"), ("Jaroslav", "Horák", "TK Polička"),
    ("Miroslav", "Němec", "TK Jihlava"), ("Zdeněk", "Pokorný", "Taroky Bystré"),
    ("Václav", "Marek", "TK Svitavy"), ("Karel", "Růžička", "TK Polička"),
    ("Lenka", "Dušková", "TK Jihlava"), ("Věra", "Šťastná", "Taroky Bystré"),
    ("Hana", "Kříž", "TK Svitavy"), ("Jana", "Jelínková", "TK Polička"),
]

AUSTRIAN_PLAYERS = [
    ("Franz", "Gruber", "Tarockrunde Graz"), ("Maria", "Huber", "Tarockrunde Graz"),
    ("Josef", "Wagner", "TC Leibnitz"), ("Anna", "Pichler", "TC Leibnitz"),
    ("Johann", "Moser", "Tarock Weiz"), ("Elisabeth", "Steiner", "Tarock Weiz"),
    ("Karl", "Hofer", "TC Hartberg"), ("Theresia", "Leitner", "TC Hartberg"),
    ("Alois", "Berger", "Tarockrunde Graz"), ("Margarete", "Fuchs", "TC Leibnitz"),
    ("Herbert", "Eder", "Tarock Weiz"), ("Gertrude", "Fischer", "TC Hartberg"),
]

DEMO_PASSWORD = "organiser"


def demo_user(username: str, *, staff: bool = False) -> Any:
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(username=username)
    if created:
        user.set_password(DEMO_PASSWORD if staff else f"{username}-demo")
        user.is_staff = staff
        user.is_superuser = staff
        user.save()
    return user


def demo_players(rows: list[tuple[str, str, str]], country: str) -> list[Player]:
    players = []
    for first, last, club in rows:
        player = Player.objects.filter(first_name=first, last_name=last, club=club).first()
        players.append(player or services.player_create(first_name=first, last_name=last,
                                                        club=club, country=country))
    return players


def _tri1_hand(rng: random.Random, seated: list[str], resting: str | None) -> dict[str, Any]:
    """A plausible TRI+1 hand: mostly trojka/dvojka/enka, some klop, now and then a silent
    trula or a kontra on the game."""
    playing = [p for p in seated if p != resting]
    roll = rng.random()
    if roll < 0.12:
        cuts = sorted(rng.sample(range(1, 70), len(seated) - 1))
        parts = [b - a for a, b in zip([0, *cuts], [*cuts, 70], strict=True)]
        hand: dict[str, Any] = {"game": "klop", "points_by_player": dict(zip(seated, parts, strict=True))}
        if resting:
            hand["resting"] = resting
        return hand
    game = rng.choices(["trojka", "dvojka", "enka", "solo_brez"], weights=[60, 25, 12, 3])[0]
    declarer = rng.choice(playing)
    points = max(0, min(70, int(rng.gauss(40, 10))))
    hand = {"game": game, "declarer": declarer, "points": points}
    if resting:
        hand["resting"] = resting
    if rng.random() < 0.15:
        hand["announcements"] = [{"name": "trula", "by": declarer, "announced": False, "achieved": True}]
    if game in ("trojka", "dvojka") and rng.random() < 0.1:
        defender = rng.choice([p for p in playing if p != declarer])
        hand["contras"] = [{"on": "game", "by": defender, "level": 1}]
    return hand


def _play_round(rnd: Round, rng: random.Random, hands: int, entered_by: Any, confirmed_by: Any) -> None:
    for card in Scorecard.objects.filter(table__round=rnd).select_related("table"):
        seated = list(card.player_ids)
        rotation = rest_rotation(seated, hands)
        for number in range(1, hands + 1):
            resting = rotation[number - 1]["resting"]
            record = _tri1_hand(rng, seated, resting)
            card.refresh_from_db()
            hand = services.hand_save(scorecard=card, number=number, record=record,
                                      actor=entered_by, expected_version=card.version)
            services.hand_confirm(hand=hand, actor=confirmed_by)
        services.scorecard_submit(scorecard=card, actor=entered_by)
        services.scorecard_confirm(scorecard=card, actor=confirmed_by)


def _seat_next_round(event: Event, organiser: Any) -> Round:
    job = round_jobs.round_generation_queue(event=event, actor=organiser)
    job.refresh_from_db()
    if job.status != job.Status.DONE:
        # With a real broker and no worker running, seat in process: the job is idempotent.
        job = round_jobs.round_generate(job.pk)
    if job.status != job.Status.DONE:
        raise RuntimeError(f"demo seating failed: {job.message}")
    return event.rounds.get(number=job.result["round"])


@transaction.atomic
def slovenian_demo(stdout: Any = None) -> Event:
    existing = Event.objects.filter(slug="demo-slovenian").first()
    if existing is not None:
        return existing
    organiser = demo_user("organiser", staff=True)
    referee = demo_user("referee")
    event = services.event_create(
        actor=organiser, name="Demo: Odprti turnir TRI + 1", slug="demo-slovenian",
        venue="Gostilna pri Tarokistu, Ljubljana", starts_on=dt.date(2026, 11, 14),
        ends_on=dt.date(2026, 11, 14), time_zone="Europe/Ljubljana", language="sl",
        ruleset_code="tarok-net-2007", ruleset_mode="tri+1", seating_system="points",
        planned_rounds=3, hands_per_round=24, round_duration_minutes=120,
        status=Event.Status.RUNNING,
    )
    event.referees.add(referee)
    for player in demo_players(SLOVENIAN_PLAYERS, "SI"):
        reg = services.registration_create(event=event, player=player, actor=organiser)
        services.registration_set_status(registration=reg, status=Registration.Status.CHECKED_IN,
                                         actor=organiser)
    rng = random.Random(20261114)
    # Round 1 played and closed; round 2 seated by the points system and published.
    rnd1 = _seat_next_round(event, organiser)
    services.round_publish(rnd=rnd1, actor=organiser)
    _play_round(rnd1, rng, event.hands_per_round, organiser, referee)
    round_jobs.round_close(rnd=rnd1, actor=organiser)
    rnd2 = _seat_next_round(event, organiser)
    services.round_publish(rnd=rnd2, actor=organiser)
    return event


def _money_rows(rng: random.Random, players: list[str], stake: int) -> dict[str, dict[str, int]]:
    """A plausible end of a money round: coins moved between the players in 10 haléř steps,
    nobody below zero; a player who would have run dry bought 10 Kč top-ups (seed 004)."""
    money = {p: stake for p in players}
    bought = {p: 0 for p in players}
    for _ in range(40):
        payer, winner = rng.sample(players, 2)
        amount = rng.choice([20, 40, 90, 100, 170, 200, 340, 500])
        while money[payer] < amount:
            money[payer] += 1000
            bought[payer] += 1000
        money[payer] -= amount
        money[winner] += amount
    return {p: {"bought": bought[p], "money": money[p]} for p in players}


@transaction.atomic
def czech_demo() -> Event:
    existing = Event.objects.filter(slug="demo-czech").first()
    if existing is not None:
        return existing
    organiser = demo_user("organiser", staff=True)
    referee = demo_user("referee")
    event = services.event_create(
        actor=organiser, name="Demo: GP Vysočiny – Bystré", slug="demo-czech",
        venue="Hostinec U Lípy, Bystré", starts_on=dt.date(2026, 10, 31),
        ends_on=dt.date(2026, 10, 31), time_zone="Europe/Prague", language="cs",
        ruleset_code="gp-vysociny-2004", ruleset_mode="four", seating_system="random",
        planned_rounds=4, hands_per_round=1, round_duration_minutes=55, stake_haler=2000,
        status=Event.Status.RUNNING,
    )
    event.referees.add(referee)
    for player in demo_players(CZECH_PLAYERS, "CZ"):
        reg = services.registration_create(event=event, player=player, actor=organiser)
        services.registration_set_status(registration=reg, status=Registration.Status.CHECKED_IN,
                                         actor=organiser)
    rng = random.Random(20041031)
    # Round 1 played and closed; round 2 under way with two of four sheets handed in.
    for number, filled in ((1, None), (2, 2)):
        rnd = _seat_next_round(event, organiser)
        services.round_publish(rnd=rnd, actor=organiser)
        cards = list(Scorecard.objects.filter(table__round=rnd).order_by("table__number"))
        for card in cards[:filled]:
            services.money_sheet_save(scorecard=card, rows=_money_rows(rng, card.player_ids, 2000),
                                      actor=organiser, expected_version=card.version)
            services.scorecard_submit(scorecard=card, actor=organiser)
            services.scorecard_confirm(scorecard=card, actor=referee)
        if number == 1:
            round_jobs.round_close(rnd=rnd, actor=organiser)
    return event


def _koenigrufen_hand(rng: random.Random, seated: list[str], forehand: str) -> dict[str, Any]:
    """A plausible Königrufen hand: mostly Rufer, now and then a Dreier, a Solorufer or a
    Trischaken, with an occasional announced Trull or a Kontra."""
    roll = rng.random()
    if roll < 0.1:
        cuts = sorted(rng.sample(range(1, 70), 3))
        points = [b - a for a, b in zip([0, *cuts], [*cuts, 70], strict=True)]
        return {"game": "trischaken", "forehand": forehand,
                "points_by_player": dict(zip(seated, points, strict=True))}
    declarer = rng.choice(seated)
    if roll < 0.25:
        hand: dict[str, Any] = {"game": "dreier", "declarer": declarer, "forehand": forehand,
                                "won": rng.random() < 0.55}
        return hand
    game = "solorufer" if roll < 0.32 else "rufer"
    partner = rng.choice([p for p in seated if p != declarer])
    hand = {"game": game, "declarer": declarer, "partner": partner, "forehand": forehand,
            "won": rng.random() < 0.6}
    if rng.random() < 0.15:
        hand["announcements"] = [{"name": "trull", "by": declarer, "announced": True,
                                  "achieved": rng.random() < 0.7}]
    if rng.random() < 0.1:
        defender = rng.choice([p for p in seated if p not in (declarer, partner)])
        hand["contras"] = [{"on": "game", "by": defender, "level": 1}]
    return hand


@transaction.atomic
def tarockcup_demo() -> Event:
    existing = Event.objects.filter(slug="demo-tarockcup").first()
    if existing is not None:
        return existing
    organiser = demo_user("organiser", staff=True)
    referee = demo_user("referee")
    event = services.event_create(
        actor=organiser, name="Demo: Steirischer Tarockcup – Graz", slug="demo-tarockcup",
        venue="Gasthaus Zum Tarock, Graz", starts_on=dt.date(2026, 9, 19),
        ends_on=dt.date(2026, 9, 19), time_zone="Europe/Vienna", language="de",
        ruleset_code="steirischer-tarockcup-2017", ruleset_mode="four", seating_system="random",
        planned_rounds=3, hands_per_round=16, status=Event.Status.FINISHED,
    )
    event.referees.add(referee)
    for player in demo_players(AUSTRIAN_PLAYERS, "AT"):
        reg = services.registration_create(event=event, player=player, actor=organiser)
        services.registration_set_status(registration=reg, status=Registration.Status.CHECKED_IN,
                                         actor=organiser)
    rng = random.Random(20170919)
    # Seed 001: three rounds drawn at random, 16 games each; the Schrift counts.
    for _ in range(event.planned_rounds):
        rnd = _seat_next_round(event, organiser)
        services.round_publish(rnd=rnd, actor=organiser)
        for card in Scorecard.objects.filter(table__round=rnd).order_by("table__number"):
            seated = list(card.player_ids)
            for number in range(1, event.hands_per_round + 1):
                record = _koenigrufen_hand(rng, seated, seated[(number - 1) % len(seated)])
                card.refresh_from_db()
                services.hand_save(scorecard=card, number=number, record=record, actor=organiser,
                                   expected_version=card.version)
            services.scorecard_submit(scorecard=card, actor=organiser)
            services.scorecard_confirm(scorecard=card, actor=referee)
        round_jobs.round_close(rnd=rnd, actor=organiser)
    return event


@transaction.atomic
def entries_demo() -> Event:
    """An event a month ahead taking entries online (issue #31): ten players have a place,
    one waits on the list, one waits for the organiser's approval."""
    existing = Event.objects.filter(slug="demo-entries").first()
    if existing is not None:
        return existing
    organiser = demo_user("organiser", staff=True)
    event = services.event_create(
        actor=organiser, name="Demo: Zimski turnir", slug="demo-entries",
        venue="Gostilna pri Tarokistu, Ljubljana", starts_on=dt.date(2026, 12, 19),
        ends_on=dt.date(2026, 12, 19), time_zone="Europe/Ljubljana", language="sl",
        ruleset_code="tarok-net-2007", ruleset_mode="tri+1", seating_system="points",
        planned_rounds=3, hands_per_round=24, round_duration_minutes=120,
        status=Event.Status.REGISTRATION)
    services.event_update(event=event, actor=organiser, online_entry=True, entry_cap=10,
                          entry_approval=True, players_may_withdraw=True)
    made = []
    for n, (first, last, club) in enumerate(SLOVENIAN_PLAYERS[:12]):
        entry = entries.entry_submit(
            event=event, client=f"demo-{n}", base_url="", actor=AnonymousUser(),
            values={"first_name": first, "last_name": last, "club": club, "country": "SI",
                    "email": f"{n}@example.org", "language": "sl", "consent": True})
        if entry.status == Entry.Status.UNCONFIRMED:  # a mail server is configured
            entry = entries.entry_confirm(token=entry.token)
        made.append(entry)
    for entry in made[:11]:
        entries.entry_approve(entry=entry, actor=organiser)
    return event


DEMOS = [("demo-slovenian", slovenian_demo), ("demo-czech", czech_demo),
         ("demo-tarockcup", tarockcup_demo), ("demo-entries", entries_demo)]
