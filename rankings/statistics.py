"""Reading the hands for the statistics pages: a player's career figures (his page) and an
event's table figures (its statistics page), laid out in words for the templates.

Only hands of cards that count (`tournaments.domain.lifecycle`: confirmed or verified, of a round that
is not a draft) are read. A player's figures come from public events only, whoever looks: his
page is public. An event's figures are the event's page's: whoever may see the event
(`tournaments.domain.rights`, asked by the view) sees them. Each is a constant number of queries
however many events, tables and hands (`rankings.hand_statistics` does the counting).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import scoring.rules
from rankings import hand_statistics as hs
from rankings.charts import bar_chart
from rankings.families import family_name
from tournaments.domain import lifecycle
from tournaments.engine_text.common import kc, names_of
from tournaments.models import Event, Hand, Registration, Scorecard, Seat

ROLE_NAMES = {
    hs.DECLARER: gettext_lazy("as declarer"),
    hs.PARTNER: gettext_lazy("as called partner"),
    hs.DEFENDER: gettext_lazy("as defender"),
    hs.KLOP: gettext_lazy("every player for himself (klop, Trischaken)"),
}
TOP = 5


def _hands_by_card(card_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """Every hand of the cards, in order, as the counting takes them. One query."""
    out: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for card_id, number, record, scores, state in (
            Hand.objects.filter(scorecard_id__in=card_ids).order_by("scorecard_id", "number")
            .values_list("scorecard_id", "number", "record", "scores", "state")):
        out[card_id].append({"number": number, "record": record or {}, "scores": scores or {},
                             "state": state or {}})
    return out


def _amount(value: float | int | None, unit: str) -> str:
    """A score in the ruleset's unit as people read it: points with one decimal, or Kč."""
    if value is None:
        return "–"
    if unit == "haler":
        return kc(round(value))
    if isinstance(value, float):
        return number_format(value, 1)
    return str(value)


def _percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)} %" if whole else "–"


# ---------------------------------------------------------------------------------------
# A player's career
# ---------------------------------------------------------------------------------------

def player_cards(player) -> tuple[list[dict[str, Any]], list[Event]]:
    """The player's counted cards of public events as plain dicts (`me` his start number),
    oldest first, and the events they come from. Two queries."""
    seats = list(
        Seat.objects.filter(registration__player=player, round__event__is_public=True)
        .filter(lifecycle.counted_cards_q("table__scorecard__"))
        .select_related("registration", "round__event", "table__scorecard")
        .order_by("round__event__starts_on", "round__event__slug", "round__number",
                  "table__number"))
    hands = _hands_by_card([seat.table.scorecard.pk for seat in seats])
    cards, events = [], {}
    for seat in seats:
        card = seat.table.scorecard
        events.setdefault(seat.round.event_id, seat.round.event)
        cards.append({"ruleset": card.ruleset_code, "me": str(seat.registration.start_number),
                      "players": [str(p) for p in card.player_ids or []],
                      "key": (seat.round.event_id, seat.round.number, seat.table.number),
                      "hands": hands.get(card.pk, [])})
    return cards, list(events.values())


def _family_view(family: str, stats: hs.PlayerStatistics) -> dict[str, Any]:
    """One family's figures in words: rows for the tables and the plot."""
    ruleset = stats.rulesets[0] if stats.rulesets else None
    games, announcements, _contras = names_of(ruleset)
    found = scoring.rules.get(ruleset) if ruleset else None
    unit = found.unit if found else "points"
    game_rows = [{"name": games.get(code, code), "declared": t.declared, "won": t.won,
                  "lost": t.lost, "share": _percent(t.won, t.declared)}
                 for code, t in sorted(stats.games.items(),
                                       key=lambda item: (-item[1].declared, item[0]))]
    role_rows = [{"name": ROLE_NAMES[role], "hands": t.hands,
                  "average": _amount(t.average, unit)}
                 for role, t in stats.roles.items() if t.hands]
    announcement_rows = [{"name": announcements.get(code, code), "announced": t.announced,
                          "achieved": t.achieved, "share": _percent(t.achieved, t.announced),
                          "silent": t.silent_achieved}
                         for code, t in sorted(stats.announcements.items())]
    decided = stats.contras_right + stats.contras_wrong
    return {
        "family": family, "name": family_name(family), "stats": stats,
        "games": game_rows, "roles": role_rows, "announcements": announcement_rows,
        "contras": {"given": stats.contras_given, "right": stats.contras_right,
                    "wrong": stats.contras_wrong,
                    "share": _percent(stats.contras_right, decided)},
        "won_share": _percent(stats.won, stats.declared),
        "chart": bar_chart([(r["name"], r["declared"], r["won"]) for r in game_rows],
                           label=_("Games declared by kind, and how many were won"),
                           part_label=_("won")),
    }


def player_statistics(player) -> dict[str, Any] | None:
    """His figures per game family from every counted hand of the public events he played,
    with those events (unrated ones marked by the template); None when there is none."""
    cards, events = player_cards(player)
    by_family: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for card in cards:
        family = scoring.rules.family_of(card["ruleset"])
        if family and card["hands"]:
            by_family[family].append(card)
    if not by_family:
        return None
    families = []
    for family in sorted(by_family):
        stats = hs.player_statistics(by_family[family])
        if stats.hands or stats.renonses:
            families.append(_family_view(family, stats))
    if not families:
        return None
    counted = {card["key"][0] for cards_ in by_family.values() for card in cards_}
    return {"families": families, "events": [e for e in events if e.pk in counted]}


# ---------------------------------------------------------------------------------------
# An event's tables
# ---------------------------------------------------------------------------------------

def event_cards(event: Event) -> list[dict[str, Any]]:
    """The event's counted cards as plain dicts, round by round, table by table. Two
    queries."""
    cards = list(Scorecard.objects.filter(table__round__event=event)
                 .filter(lifecycle.counted_cards_q())
                 .order_by("table__round__number", "table__number")
                 .values_list("pk", "ruleset_code", "player_ids", "table__round__number",
                              "table__number"))
    hands = _hands_by_card([pk for pk, *_rest in cards])
    return [{"ruleset": code, "players": [str(p) for p in players or []],
             "key": (round_number, table_number), "hands": hands.get(pk, [])}
            for pk, code, players, round_number, table_number in cards]


def event_statistics(event: Event) -> dict[str, Any]:
    """The event's table figures in words: the most played games (with a plot), the biggest
    hands and the longest winning streaks. Three queries."""
    stats = hs.event_statistics(event_cards(event), top=TOP)
    ruleset = stats.rulesets[0] if stats.rulesets else event.ruleset_code
    games, _announcements, _contras = names_of(ruleset)
    found = scoring.rules.get(ruleset)
    unit = found.unit if found else "points"
    people = {str(number): (player_id, name) for number, player_id, name in (
        (r.start_number, r.player_id, str(r.player))
        for r in Registration.objects.filter(event=event).select_related("player"))}

    def who(pid: str) -> dict[str, Any]:
        player_id, name = people.get(pid, (None, pid))
        return {"number": pid, "name": name, "player_id": player_id}

    most_played = [{"name": games.get(code, code), "hands": n, "won": won, "decided": decided,
                    "share": _percent(n, stats.hands), "won_share": _percent(won, decided)}
                   for code, n, won, decided in stats.most_played()]
    return {
        "stats": stats,
        "most_played": most_played,
        "chart": bar_chart([(r["name"], r["hands"], r["won"]) for r in most_played],
                           label=_("Hands played by game, and how many the declarer's side won"),
                           part_label=_("won by the declarer's side")),
        "biggest": [{"player": who(b.player), "score": _amount(b.score, unit),
                     "game": games.get(b.game, b.game), "round": b.card[0], "table": b.card[1],
                     "hand": b.number} for b in stats.biggest],
        "streaks": [{"player": who(s.player), "length": s.length} for s in stats.streaks],
    }
