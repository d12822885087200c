"""The events the printouts are shown with: a Czech money event (seed 004), an Austrian
Königrufen event (seed 001) and a Slovenian TRI+1 event (seed 000), built with the factories
and the services the organiser's pages use, and their tables played. Shared by the tests
(tests/tournaments/pdf/ and others), the benchmarks of bench/ and `docs/printing/examples.py`.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from sample_data.factories import UserFactory, allow_event_creation
from tournaments import services
from tournaments.demo import SLOVENIAN_PLAYERS, _tri1_hand
from tournaments.models import Event, Round, Scorecard, Table
from tournaments.seating.rotation import rest_rotation

# The seed's own sheet (table 4 of round 2): 8 Novák, 23 Fric, 45 Sobota, 98 Skalský.
CZECH_SEED_TABLE = [(8, "Jan", "Novák"), (23, "Petr", "Fric"), (45, "Jiří", "Sobota"),
                    (98, "Václav", "Skalský")]
CZECH_NAMES = [
    ("Jiřina", "Dvořáková"), ("Tomáš", "Černý"), ("Růžena", "Kříženecká"), ("Bořivoj", "Šťastný"),
    ("Zdeněk", "Žáček"), ("Květa", "Procházková"), ("Ondřej", "Kučera"), ("Luboš", "Veselý"),
    ("Dagmar", "Horáková"), ("Vojtěch", "Němec"), ("Radek", "Pokorný"), ("Libuše", "Hájková"),
    ("Miroslav", "Jelínek"), ("Božena", "Králová"), ("Čestmír", "Beneš"), ("Přemysl", "Čermák"),
    ("Štěpán", "Šimek"), ("Ludmila", "Zemanová"), ("Kamil", "Kolář"), ("Věra", "Navrátilová"),
]
AUSTRIAN_NAMES = [
    ("Jürgen", "Grüner"), ("Günther", "Huber"), ("Käthe", "Bäuerle"), ("Jörg", "Wagner"),
    ("Hermann", "Müller"), ("Brigitte", "Pichler"), ("Andrä", "Steiner"), ("Josef", "Möser"),
    ("Ölga", "Mayer"), ("Franz", "Höfer"), ("Ursula", "Leitner"), ("Björn", "Berger"),
    ("Grete", "Fuchs"), ("Lukas", "Eder"), ("Theresia", "Fischer"), ("Rüdiger", "Schmid"),
]


def _user(name: str) -> Any:
    return UserFactory(username=name)


def _players(event: Event, organiser: Any, rows: list[tuple[int, str, str, str]]) -> None:
    for start_number, first, last, club in rows:
        player = services.player_create(first_name=first, last_name=last, club=club)
        services.registration_create(event=event, player=player, actor=organiser,
                                     start_number=start_number)


def _event(*, slug: str, organiser: Any, referee: Any, **fields: Any) -> Event:
    defaults = dict(starts_on=dt.date(2026, 11, 21), ends_on=dt.date(2026, 11, 21),
                    status=Event.Status.RUNNING, seating_system="random", planned_rounds=4)
    event = services.event_create(actor=allow_event_creation(organiser), organisers=[organiser], slug=slug,
                                  **{**defaults, **fields})
    event.referees.add(referee)
    return event


def officials(prefix: str = "print") -> tuple[Any, Any]:
    return _user(f"{prefix}-organiser"), _user(f"{prefix}-referee")


def czech_event(*, slug: str = "gp-bystre", tables: int = 4, **fields: Any) -> Event:
    """A GP Vysočiny money event; round 2 puts the seed's four players at table 4."""
    organiser, referee = officials(slug)
    event = _event(slug=slug, organiser=organiser, referee=referee, **{
        "name": "GP Vysočiny – Bystré", "venue": "Bystré, hostinec U Lípy", "language": "cs",
        "ruleset_code": "gp-vysociny-2004", "stake_haler": 2000, "hands_per_round": 24,
        "round_duration_minutes": 55, **fields})
    rows = [(n, f, ln, "TK Vysočina") for n, f, ln in CZECH_SEED_TABLE]
    extra = [n for n in range(1, tables * 4 + 200) if n not in {8, 23, 45, 98}]
    names = (CZECH_NAMES * (tables // 5 + 1))
    for i in range(tables * 4 - 4):
        first, last = names[i]
        suffix = f" {i // len(CZECH_NAMES) + 1}" if i >= len(CZECH_NAMES) else ""
        rows.append((extra[i], first, last + suffix, "TJ Svitavy"))
    _players(event, organiser, rows)
    return event


def austrian_event(*, slug: str = "tarockcup-graz", tables: int = 4, hands: int = 20,
                   **fields: Any) -> Event:
    organiser, referee = officials(slug)
    event = _event(slug=slug, organiser=organiser, referee=referee, **{
        "name": "Steirischer Tarockcup – Graz", "venue": "Gasthof Thaller, Graz",
        "language": "de", "ruleset_code": "steirischer-tarockcup-2017", "ruleset_mode": "four",
        "hands_per_round": hands, "planned_rounds": 3, "time_zone": "Europe/Vienna", **fields})
    rows = []
    for i in range(tables * 4):
        first, last = AUSTRIAN_NAMES[i % len(AUSTRIAN_NAMES)]
        suffix = f" {i // len(AUSTRIAN_NAMES) + 1}" if i >= len(AUSTRIAN_NAMES) else ""
        rows.append((i + 1, first, last + suffix, "Tarockrunde Leoben"))
    _players(event, organiser, rows)
    return event


def slovenian_event(*, slug: str = "tri1-open", tables: int = 4, **fields: Any) -> Event:
    organiser, referee = officials(slug)
    event = _event(slug=slug, organiser=organiser, referee=referee, **{
        "name": "Tarok turnir Ljubljana", "venue": "Gostilna pri Tarokistu, Ljubljana",
        "language": "sl", "ruleset_code": "tarok-net-2007", "ruleset_mode": "tri+1",
        "seating_system": "points", "hands_per_round": 24, "planned_rounds": 3, **fields})
    rows = []
    for i in range(tables * 4):
        first, last, club = SLOVENIAN_PLAYERS[i % len(SLOVENIAN_PLAYERS)]
        suffix = f" {i // len(SLOVENIAN_PLAYERS) + 1}" if i >= len(SLOVENIAN_PLAYERS) else ""
        rows.append((i + 1, first, last + suffix, club))
    _players(event, organiser, rows)
    return event


def seat(event: Event, number: int, tables: list[list[int]] | None = None) -> Round:
    """Store round `number` through the service: the given tables of start numbers, or the
    registrations four by four in start-number order."""
    organiser = event.organisers.first()
    if tables is None:
        numbers = list(event.registrations.order_by("start_number")
                       .values_list("start_number", flat=True))
        tables = [numbers[i:i + 4] for i in range(0, len(numbers), 4)]
    return services.round_store(event=event, number=number, seating_system=event.seating_system,
                                seed=number, tables=[[str(n) for n in t] for t in tables],
                                actor=organiser)


def czech_round_two(event: Event) -> Round:
    """Round 1 in start-number order, then round 2 with the seed's table 4."""
    seat(event, 1)
    numbers = [n for n in event.registrations.order_by("start_number")
               .values_list("start_number", flat=True) if n not in {8, 23, 45, 98}]
    tables = [numbers[i:i + 4] for i in range(0, len(numbers), 4)]
    tables.insert(3, [8, 23, 45, 98])
    return seat(event, 2, tables)


def _finish(card: Scorecard, organiser: Any, referee: Any) -> None:
    card.refresh_from_db()
    services.scorecard_submit(scorecard=card, actor=organiser)
    services.scorecard_confirm(scorecard=card, actor=referee)


def play_money_table(table: Table, result: dict[str, tuple[int, int]]) -> Scorecard:
    """Fill and confirm a money sheet: {start number: (bought, money)} in haléř."""
    event = table.round.event
    organiser, referee = event.organisers.first(), event.referees.first()
    card = table.scorecard
    _published(table)
    services.money_sheet_save(scorecard=card, actor=organiser, expected_version=card.version,
                              rows={p: {"bought": b, "money": m} for p, (b, m) in result.items()})
    _finish(card, organiser, referee)
    card.refresh_from_db()
    return card


def _published(table: Table) -> None:
    """Cards are written in published rounds only (tournaments.domain.lifecycle)."""
    rnd = Round.objects.get(pk=table.round_id)
    if rnd.status == Round.Status.DRAFT:
        services.round_publish(rnd=rnd, actor=rnd.event.organisers.first())


def _hands(card: Scorecard, records: list[dict[str, Any]], organiser: Any, referee: Any) -> None:
    _published(card.table)
    for number, record in enumerate(records, start=1):
        card.refresh_from_db()
        hand = services.hand_save(scorecard=card, number=number, record=record,
                                  actor=organiser, expected_version=card.version)
        services.hand_confirm(hand=hand, actor=referee)


def play_tri1_table(table: Table, *, seed: int = 7) -> Scorecard:
    event = table.round.event
    organiser, referee = event.organisers.first(), event.referees.first()
    card = table.scorecard
    rng = random.Random(seed)
    rotation = rest_rotation(list(card.player_ids), event.hands_per_round)
    _hands(card, [_tri1_hand(rng, list(card.player_ids), h["resting"]) for h in rotation],
           organiser, referee)
    _finish(card, organiser, referee)
    card.refresh_from_db()
    return card


def koenigrufen_records(players: list[str], hands: int, seed: int = 11) -> list[dict[str, Any]]:
    """Plausible Königrufen hands: mostly Rufer, now and then a Dreier, Trischaken or Piccolo,
    with the odd Pagat."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for n in range(hands):
        forehand = players[n % len(players)]
        roll = rng.random()
        if roll < 0.12:
            cuts = sorted(rng.sample(range(1, 70), 3))
            parts = [b - a for a, b in zip([0, *cuts], [*cuts, 70], strict=True)]
            out.append({"game": "trischaken", "forehand": forehand,
                        "points_by_player": dict(zip(players, parts, strict=True))})
            continue
        declarer = rng.choice(players)
        if roll < 0.22:
            out.append({"game": "piccolo", "declarer": declarer, "won": rng.random() < 0.6})
            continue
        if roll < 0.35:
            out.append({"game": "dreier", "declarer": declarer,
                        "points": rng.randint(25, 50)})
            continue
        partner = rng.choice([p for p in players if p != declarer])
        record: dict[str, Any] = {"game": "rufer", "declarer": declarer, "partner": partner,
                                  "points": rng.randint(20, 55)}
        if rng.random() < 0.2:
            record["announcements"] = [{"name": "pagat", "by": declarer, "announced": False,
                                        "achieved": rng.random() < 0.7}]
        out.append(record)
    return out


def play_schrift_table(table: Table, *, seed: int = 11) -> Scorecard:
    event = table.round.event
    organiser, referee = event.organisers.first(), event.referees.first()
    card = table.scorecard
    _hands(card, koenigrufen_records(list(card.player_ids), event.hands_per_round, seed),
           organiser, referee)
    _finish(card, organiser, referee)
    card.refresh_from_db()
    return card
