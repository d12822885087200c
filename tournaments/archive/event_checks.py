"""What an event archive must agree with besides its scores (tournaments.archive checks those
against the engine): each scorecard's state fits the state of its round, money rows appear
only on the cards of money rulesets, and the totals carried on the registrations are the ones
the confirmed cards of the closed rounds give. A tampered or inconsistent archive is refused
with every problem at its path in the file; nothing is written.

The states a round's cards may be in follow from the lifecycle: a draft round has not been
played (open cards without entries); while a round is published or playing its cards may be in
any state; closing a round verifies every card it does not find annulled, so a closed round
holds only verified and annulled cards.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments.domain import lifecycle
from tournaments.domain.exact_points import parse_points, points_text
from tournaments.domain.rulesets import is_money_ruleset
from tournaments.domain.standings import event_standings, to_decimal
from tournaments.errors import ServiceError
from tournaments.models import Event, Round, Scorecard

# From the lifecycle (tournaments.domain.lifecycle): no card of a draft is written; while a round is
# on its cards may be in any state (an official may verify a confirmed card early); closing a
# round verifies every confirmed card, so a closed round holds finished cards but no merely
# confirmed ones.
CARD_STATES_OF_ROUND = {
    Round.Status.DRAFT: frozenset({Scorecard.Status.OPEN}),
    Round.Status.PUBLISHED: frozenset(Scorecard.Status.values),
    Round.Status.PLAYING: frozenset(Scorecard.Status.values),
    Round.Status.CLOSED: lifecycle.FINISHED_CARDS - {Scorecard.Status.CONFIRMED},
}


def _error(path: str, code: str, message: str) -> dict[str, Any]:
    return {"hand": None, "field": path, "code": code, "message": f"{path}: {message}"}


def card_problems(round_status: str, card: dict[str, Any], path: str) -> list[dict[str, Any]]:
    """Problems of a checked scorecard plan (tournaments.archive._check_card) in a round of
    `round_status`."""
    problems = []
    fields = card["fields"]
    status = fields["status"]
    allowed = sorted(CARD_STATES_OF_ROUND.get(round_status, ()))
    if status not in allowed:
        problems.append(_error(f"{path}.status", "status_not_in_round",
                               _("a scorecard of a %(round)s round cannot be %(status)s (it may "
                                 "be %(allowed)s)") % {
                                   "round": round_status, "status": status,
                                   "allowed": ", ".join(allowed)}))
    if round_status == Round.Status.DRAFT and (card["hands"] or card["money_rows"]):
        problems.append(_error(f"{path}.hands", "entries_in_draft",
                               _("a round still in draft has not been played, so its scorecards "
                                 "hold no hands or money rows")))
    if card["money_rows"] and not is_money_ruleset(fields["ruleset_code"]):
        problems.append(_error(f"{path}.money_rows", "money_rows_not_money_ruleset",
                               _("the ruleset %(ruleset)s scores hands, not money: a money sheet "
                                 "does not belong on its scorecard") % {
                                   "ruleset": fields["ruleset_code"]}))
    return problems


def refuse_wrong_carried_totals(event: Event, plan: dict[str, Any]) -> dict[int, Fraction]:
    """After an event of the archive is written (inside the import's transaction): every
    registration's tournament points and score must be what the standings of its confirmed
    cards give up to the last closed round, as `services.refresh_carried_totals` keeps them.
    Raises ServiceError naming each registration's path in the archive; the import is then
    rolled back. Returns {registration id: exact points} for the carried points an older
    archive wrote rounded to three places, which the writer stores exactly."""
    last_closed = event.rounds.filter(status=Round.Status.CLOSED).aggregate(m=Max("number"))["m"]
    rows = {}
    if last_closed is not None:
        rows = {r.start_number: r for r in event_standings(event, up_to_round=last_closed).rows}
    paths = {entry["fields"]["start_number"]: entry["path"] for entry in plan["registrations"]}
    problems = []
    rounded: dict[int, Fraction] = {}
    for reg in event.registrations.order_by("start_number"):
        row = rows.get(reg.start_number)
        expected_points = row.exact_points if row else Fraction(0)
        expected_score = row.score if row else 0
        stored_points = parse_points(reg.tournament_points)
        # Archives written before points were stored exactly carry them rounded to three
        # places ("1.667" for 5/3); that rounding of the right value is not a mismatch, and
        # the imported copy takes the exact value the cards give.
        if stored_points != expected_points and Fraction(to_decimal(expected_points)) == stored_points:
            stored_points = expected_points
            rounded[reg.pk] = expected_points
        path = paths.get(reg.start_number, f"{plan['path']}.registrations")
        carried = {
            "tournament_points": (stored_points, expected_points, _(
                "start number %(n)s carries %(stored)s tournament points, but the scorecards "
                "of the closed rounds give %(expected)s")),
            "score": (reg.score, expected_score, _(
                "start number %(n)s carries a score of %(stored)s, but the scorecards of the "
                "closed rounds give %(expected)s")),
        }
        for name, (stored, expected, message) in carried.items():
            if stored != expected:
                shown = ((points_text(stored), points_text(expected)) if name == "tournament_points"
                         else (stored, expected))
                problems.append(_error(f"{path}.{name}", "carried_total_mismatch", message % {
                    "n": reg.start_number, "stored": shown[0], "expected": shown[1]}))
    if problems:
        raise ServiceError(problems)
    return rounded
