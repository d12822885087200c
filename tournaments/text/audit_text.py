"""The audit trail in words: each action's label in the reader's language, and an entry's
before and after as a list of changed fields ("points: 40 → 60") instead of the stored JSON.

Every action the services record has a label here (tests/tournaments/pages/test_audit_text.py checks it
against the actions the audit walk sees); a field without a label is shown by its name in
words ("start number"), never as a code.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

import scoring.rules
from tournaments.domain import limits
from tournaments.domain.exact_points import parse_points
from tournaments.engine_text.common import kc, table_points_text
from tournaments.models import (
    AuditEntry,
    Dispute,
    Entry,
    Event,
    Penalty,
    PlayerLink,
    Registration,
    Round,
    Scorecard,
    StandingsAdjustment,
)
from tournaments.text import ruleset_text

ACTION_LABELS = {
    "account.create": gettext_lazy("account created"),
    "announcement.post": gettext_lazy("notice to the hall posted"),
    "announcement.withdraw": gettext_lazy("notice to the hall withdrawn"),
    "cup.create": gettext_lazy("cup series created"),
    "cup.event.add": gettext_lazy("tournament added to the cup"),
    "cup.event.remove": gettext_lazy("tournament taken out of the cup"),
    "cup.points.set": gettext_lazy("cup points table changed"),
    "cup.update": gettext_lazy("cup series changed"),
    "dispute.decide": gettext_lazy("dispute decided"),
    "dispute.open": gettext_lazy("dispute opened"),
    "event.create": gettext_lazy("event created"),
    "event.update": gettext_lazy("event changed"),
    "event.status": gettext_lazy("event status followed its rounds"),
    "archive.import": gettext_lazy("restored from an archive"),
    "event.organiser.add": gettext_lazy("organiser added"),
    "event.organiser.remove": gettext_lazy("organiser removed"),
    "event.referee.add": gettext_lazy("referee added"),
    "event.referee.remove": gettext_lazy("referee removed"),
    "hand.confirm": gettext_lazy("hand confirmed"),
    "hand.create": gettext_lazy("hand entered"),
    "hand.delete": gettext_lazy("hand deleted"),
    "hand.update": gettext_lazy("hand changed"),
    "league.create": gettext_lazy("league created"),
    "league.drop_out": gettext_lazy("player left the league"),
    "league.final_order": gettext_lazy("final order written by hand"),
    "league.matchday.create": gettext_lazy("matchday created"),
    "league.matchday.seat": gettext_lazy("matchday seated"),
    "league.matchday.update": gettext_lazy("matchday changed"),
    "league.membership.add": gettext_lazy("player put in a division"),
    "league.membership.merge": gettext_lazy("membership moved to the merged player"),
    "league.membership.move": gettext_lazy("player moved to another seed position"),
    "league.membership.remove": gettext_lazy("player taken out of a division"),
    "league.membership.select": gettext_lazy("applicants placed"),
    "league.promote": gettext_lazy("player promoted"),
    "league.relegate": gettext_lazy("player relegated"),
    "league.qualify": gettext_lazy("player qualified"),
    "league.schedule.generate": gettext_lazy("schedule drawn"),
    "league.schedule.invalidate": gettext_lazy("schedule dropped"),
    "league.schedule.swap": gettext_lazy("players swapped in the schedule"),
    "league.season.advance": gettext_lazy("next season formed"),
    "league.season.create": gettext_lazy("season created"),
    "league.season.finish": gettext_lazy("season finished"),
    "league.season.update": gettext_lazy("season changed"),
    "league.update": gettext_lazy("league changed"),
    "money_sheet.save": gettext_lazy("money sheet entered"),
    "penalty.record": gettext_lazy("penalty recorded"),
    "player.career": gettext_lazy("career page hidden or shown"),
    "player.create": gettext_lazy("player added to the registry"),
    "player.merge": gettext_lazy("two records of a player merged"),
    "player.update": gettext_lazy("player's record corrected"),
    "referee_call.call": gettext_lazy("referee called from the table"),
    "referee_call.resolve": gettext_lazy("referee call resolved"),
    "referee_call.take": gettext_lazy("referee call taken"),
    "registry.manager": gettext_lazy("management of the player registry granted or taken back"),
    "registration.create": gettext_lazy("player registered"),
    "registration.import": gettext_lazy("players imported"),
    "registration.merge": gettext_lazy("registration moved to the merged player"),
    "registration.absent": gettext_lazy("rounds the player misses changed"),
    "registration.status": gettext_lazy("registration status changed"),
    "round.close": gettext_lazy("round closed"),
    "round.create": gettext_lazy("round seated"),
    "round.publish": gettext_lazy("round published"),
    "round.unpublish": gettext_lazy("round taken back to a draft"),
    "round.reopen": gettext_lazy("round opened again"),
    "round.start_clock": gettext_lazy("clock started"),
    "round.swap": gettext_lazy("players swapped"),
    "scorecard.annul": gettext_lazy("table's round annulled"),
    "scorecard.confirm": gettext_lazy("card confirmed"),
    "scorecard.submit": gettext_lazy("card submitted"),
    "scorecard.verify": gettext_lazy("card verified"),
    "standings.adjust": gettext_lazy("standing adjusted"),
    "standings.refresh": gettext_lazy("carried points recomputed"),
    "table_link.issue": gettext_lazy("table links issued"),
    "table_link.reissue": gettext_lazy("table link replaced"),
    "player_link.issue": gettext_lazy("personal links issued"),
    "player_link.reissue": gettext_lazy("personal link replaced"),
    "registration.messages": gettext_lazy("messages chosen on the personal page"),
    "entry.create": gettext_lazy("entered online"),
    "entry.confirm": gettext_lazy("online entry: e-mail address confirmed"),
    "entry.approve": gettext_lazy("online entry approved"),
    "entry.refuse": gettext_lazy("online entry refused"),
    "entry.withdraw": gettext_lazy("online entry withdrawn"),
    "entry.moved_up": gettext_lazy("moved up from the waiting list"),
    "venue.take": gettext_lazy("taken to the venue"),
    "venue.push": gettext_lazy("state received from the venue"),
    "venue.return": gettext_lazy("handed back by the venue"),
    "venue.force_back": gettext_lazy("taken back from the venue"),
    "venue.held": gettext_lazy("taken from the federation's server"),
    "venue.returned": gettext_lazy("handed back to the federation's server"),
    "venue.taken_back": gettext_lazy("taken back by the federation's server"),
}

FIELD_LABELS = {
    "announcements": gettext_lazy("announcements"),
    "bought": gettext_lazy("bought"),
    "called": gettext_lazy("called tarok"),
    "career_hidden": gettext_lazy("career page hidden"),
    "clock_started_at": gettext_lazy("clock started"),
    "club": gettext_lazy("club"),
    "code": gettext_lazy("code"),
    "compared_with_paper": gettext_lazy("compared with the signed paper sheet"),
    "confirmed_on_submitting_phone": gettext_lazy("confirmed on the phone that submitted it"),
    "country": gettext_lazy("country"),
    "registry_manager": gettext_lazy("manages the player registry"),
    "contras": gettext_lazy("contras"),
    "declarer": gettext_lazy("declarer"),
    "description": gettext_lazy("description"),
    "decision": gettext_lazy("decision"),
    "federation_id": gettext_lazy("federation id"),
    "first": gettext_lazy("first player"),
    "first_name": gettext_lazy("first name"),
    "forehand": gettext_lazy("forehand"),
    "game": gettext_lazy("game"),
    "hand": gettext_lazy("hand"),
    "hands": gettext_lazy("hands"),
    "kind": gettext_lazy("kind"),
    "last_name": gettext_lazy("last name"),
    "money": gettext_lazy("money"),
    "name": gettext_lazy("name"),
    "partner": gettext_lazy("partner"),
    "penalties": gettext_lazy("penalties"),
    "player": gettext_lazy("player"),
    "players": gettext_lazy("players"),
    "points": gettext_lazy("points"),
    "points_by_player": gettext_lazy("points of each player"),
    "points_delta": gettext_lazy("table points"),
    "resting": gettext_lazy("resting"),
    "role": gettext_lazy("role"),
    "rank": gettext_lazy("rank"),
    "round": gettext_lazy("round"),
    "season": gettext_lazy("season"),
    "division": gettext_lazy("division"),
    "duplicate": gettext_lazy("merged record"),
    "events": gettext_lazy("events"),
    "id": gettext_lazy("number in the registry"),
    "kept": gettext_lazy("kept record"),
    "leagues": gettext_lazy("leagues"),
    "reused_players": gettext_lazy("players already in the registry"),
    "schedules": gettext_lazy("schedules"),
    "seasons": gettext_lazy("seasons"),
    "user": gettext_lazy("account"),
    "rows": gettext_lazy("rows"),
    "ruleset": gettext_lazy("ruleset"),
    "score_delta": gettext_lazy("score"),
    "score": gettext_lazy("score"),
    "second": gettext_lazy("second player"),
    # The number the seating's random draw started from (not a seeded player).
    "seed": gettext_lazy("draw number"),
    "stake": gettext_lazy("stake"),
    "email_given": gettext_lazy("e-mail address given"),
    "table_messages": gettext_lazy("table by e-mail"),
    "correction_messages_wanted": gettext_lazy("corrections by e-mail"),
    "start_number": gettext_lazy("start number"),
    "start_numbers": gettext_lazy("start numbers"),
    "status": gettext_lazy("status"),
    "system": gettext_lazy("seating system"),
    "table": gettext_lazy("table"),
    "tables": gettext_lazy("tables"),
    "username": gettext_lazy("username"),
    "venue": gettext_lazy("venue"),
    "won": gettext_lazy("won"),
    "match": gettext_lazy("in the registry"),
    "holder": gettext_lazy("laptop"),
    "version": gettext_lazy("version"),
    "server": gettext_lazy("server"),
    "event": gettext_lazy("event"),
    "drafts_discarded": gettext_lazy("drafts of later rounds discarded"),
    # The fields of a hand as the scoring engine names them (its refusals name the field).
    "tricks_by_player": gettext_lazy("tricks of each player"),
    "blatt_by_player": gettext_lazy("Blatt of each player"),
    "conceded": gettext_lazy("given up"),
    "by": gettext_lazy("by player"),
    "on": gettext_lazy("contra on"),
    "level": gettext_lazy("contra level"),
    "against": gettext_lazy("against player"),
    "clause": gettext_lazy("clause"),
    "announced": gettext_lazy("announced"),
    "achieved": gettext_lazy("made"),
    "held": gettext_lazy("held from the start"),
    "mode": gettext_lazy("table form"),
    "options": gettext_lazy("options"),
    "order": gettext_lazy("order in the series"),
    "is_final": gettext_lazy("final"),
    "number": gettext_lazy("number"),
    "date": gettext_lazy("date"),
    "divisions": gettext_lazy("divisions"),
}

# Status codes of every model that has one, in words.
_STATUS_LABELS: dict[str, Any] = {}
for _choices in (Scorecard.Status, Round.Status, Registration.Status, Event.Status, Entry.Status):
    for _value, _label in _choices.choices:
        _STATUS_LABELS.setdefault(_value, _label)


def action_label(action: str) -> str:
    label = ACTION_LABELS.get(action)
    return str(label) if label is not None else action.replace("_", " ").replace(".", ": ")


def field_label(key: str) -> str:
    if key in FIELD_LABELS:
        return str(FIELD_LABELS[key])
    try:  # an event's settings, changed on its settings page
        return str(Event._meta.get_field(key).verbose_name)
    except FieldDoesNotExist:
        return key.replace("_", " ")


@dataclass(frozen=True)
class RulesWords:
    """What an event's ruleset calls its games, announcements and contra levels, and whether
    its scores are money: the stored codes of a hand ("berac", "pagat_ultimo", level 2) and
    amounts in haléř read as the sheet writes them."""

    code: str = ""
    games: dict[str, str] = field(default_factory=dict)
    announcements: dict[str, str] = field(default_factory=dict)
    levels: dict[int, str] = field(default_factory=dict)
    money: bool = False


@lru_cache(maxsize=32)
def _rules_words(code: str) -> RulesWords:
    ruleset = scoring.rules.get(code)
    if ruleset is None:
        return RulesWords(code=code)
    desc = ruleset.describe()
    return RulesWords(
        code=code,
        games={g["code"]: g["name"] for g in desc.get("games", [])},
        announcements={a["code"]: a["name"] for a in desc.get("announcements", [])},
        levels={c["level"]: c["name"] for c in desc.get("contra_levels", [])},
        money=desc.get("unit") == "haler")


def rules_words(event: Event | None) -> RulesWords:
    return _rules_words(event.ruleset_code) if event is not None else RulesWords()


# Amounts a money event stores in haléř (a money sheet's stake, top-ups and final money; a
# round's score), and the keys whose numbers are table points.
_MONEY_KEYS = frozenset({"stake", "bought", "money", "score", "score_delta"})
_TABLE_POINTS_KEYS = frozenset({"points", "points_delta"})
_CHOICE_KEYS = {"system": Event._meta.get_field("seating_system")}


def _player(value: Any) -> str:
    return _("player %(number)s") % {"number": value}


def _contra_text(contra: dict[str, Any], words: RulesWords) -> str:
    on = contra.get("on")
    target = pgettext("contra on", "the game") if on == "game" else words.announcements.get(on) or words.games.get(on) or on
    level = words.levels.get(contra.get("level", 1)) or _("contra")
    text = f"{level}: {target}"
    return f"{text} ({_player(contra['by'])})" if contra.get("by") else text


def _announcement_text(item: dict[str, Any], words: RulesWords) -> str:
    parts = [_player(item["by"])] if item.get("by") else []
    if item.get("announced"):
        parts.append(_("announced"))
    if "achieved" in item:
        parts.append(_("made") if item["achieved"] else _("failed"))
    if item.get("held"):
        parts.append(_("held from the start"))
    name = words.announcements.get(item.get("name"), item.get("name") or "")
    return f"{name} ({', '.join(parts)})" if parts else str(name)


def _penalty_text(item: dict[str, Any], words: RulesWords) -> str:
    name = ruleset_text.penalty_name(words.code, item.get("kind", ""))
    return f"{name} ({_player(item['player'])})" if item.get("player") else name


_ITEMS = {"contras": _contra_text, "announcements": _announcement_text, "penalties": _penalty_text}


def _number_text(key: str, value: Any, words: RulesWords) -> str | None:
    """A number under a key that says what it counts, as the standings and sheets write it;
    None where the key says nothing."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        return None
    try:
        exact = parse_points(value)
    except ValueError:
        return None
    if key in _MONEY_KEYS and words.money and exact.denominator == 1:
        return kc(int(exact), plus=key in ("score", "score_delta"))
    if key in _TABLE_POINTS_KEYS:
        return table_points_text(exact)
    return None


# A round's close and the carried totals store each start number's table points and score
# ({"7": {"points": "4.000", "score": 300}}, or [points, score]); a hand's "points" are card points.
_STANDINGS_ACTIONS = frozenset({"round.close", "standings.refresh"})


def _standing(value: Any, words: RulesWords) -> str:
    points, score = (value.get("points"), value.get("score")) if isinstance(value, dict) else value
    return (f"{FIELD_LABELS['points_delta']}: {value_text('points', points, words)}, "
            f"{FIELD_LABELS['score']}: {value_text('score', score, words)}")


def _is_standing(value: Any) -> bool:
    return ((isinstance(value, dict) and set(value) == {"points", "score"})
            or (isinstance(value, list) and len(value) == 2))


def value_text(key: str, value: Any, words: RulesWords | None = None) -> str:
    """A stored value as a person reads it: words for codes, the locale's numbers."""
    words = words or RulesWords()
    if value is None or value == "" or value == []:
        return "–"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if key == "status" and isinstance(value, str):
        return str(_STATUS_LABELS.get(value, value))
    if key == "match" and value in Entry.Match.values:
        return str(Entry.Match(value).label)
    if key in _CHOICE_KEYS and isinstance(value, str):
        return str(dict(_CHOICE_KEYS[key].flatchoices).get(value, value))
    if key == "date" and isinstance(value, str):
        try:
            return date_format(dt.date.fromisoformat(value), "DATE_FORMAT")
        except ValueError:
            return value
    if key in ("ruleset", "ruleset_code") and isinstance(value, str):
        return ruleset_text.title(value)
    if key == "ruleset_mode" and isinstance(value, str):
        return ruleset_text.mode_name(value)
    if key == "game" and isinstance(value, str):
        return words.games.get(value, value)
    if key == "kind" and isinstance(value, str) and words.code:
        return ruleset_text.penalty_name(words.code, value)
    if key in _ITEMS and isinstance(value, list) and all(isinstance(v, dict) for v in value):
        return "; ".join(_ITEMS[key](v, words) for v in value)
    if key == "tables" and isinstance(value, list) and all(isinstance(v, list) for v in value):
        return "; ".join(f"{n}: {', '.join(map(str, t))}" for n, t in enumerate(value, start=1))
    number = _number_text(key, value, words)
    if number is not None:
        return number
    if isinstance(value, dict):
        return "; ".join(f"{field_label(k) if limits.whole_number(k) is None else '#' + str(k)}: "
                         f"{value_text(k, v, words)}" for k, v in value.items())
    if isinstance(value, list):
        # Records (a money sheet's players) apart by a dot, plain values by commas.
        joint = " · " if any(isinstance(v, dict) for v in value) else ", "
        return joint.join(value_text(key, v, words) for v in value)
    return str(value)


@dataclass(frozen=True)
class Change:
    field: str
    before: str
    after: str


def changes(entry: AuditEntry) -> list[Change]:
    """The fields an entry changed, each with its value before and after in words."""
    words = rules_words(entry.event)
    before, after = entry.before, entry.after
    if not isinstance(before, dict) or not isinstance(after, dict):
        # A whole value (e.g. a hand's record) replaced, created or removed.
        before = before if isinstance(before, dict) else ({} if before is None else {"": before})
        after = after if isinstance(after, dict) else ({} if after is None else {"": after})
    out = []
    for key in list(dict.fromkeys([*before, *after])):
        old, new = before.get(key), after.get(key)
        if old == new and key in before and key in after:
            continue
        # A start number's key ("7"), read as the project reads numbers from outside.
        number = limits.whole_number(key)
        text = (_standing if entry.action in _STANDINGS_ACTIONS and number is not None
                and all(_is_standing(v) for v in (old, new) if v is not None)
                else lambda value, words, key=key: value_text(key, value, words))
        out.append(Change(field=_("No. %(number)s") % {"number": number} if number is not None
                          else field_label(key) if key else "",
                          before=text(old, words) if key in before else "",
                          after=text(new, words) if key in after else ""))
    return out


def where(entry: AuditEntry) -> str:
    """What an entry changed, in words: a round by its number, a dispute by its number, a
    penalty by its kind; the name recorded at the time (a player, an event, a league) where
    the thing is gone or has a name of its own."""
    target = entry.target
    if isinstance(target, Round):
        return _("round %(number)s") % {"number": target.number}
    if isinstance(target, Dispute):
        return _("dispute %(number)s") % {"number": target.pk}
    if isinstance(target, Penalty):
        name = ruleset_text.penalty_name(rules_words(entry.event).code, target.kind)
        return f"{name} – {target.registration}"
    if isinstance(target, Entry):
        return _("online entry: %(name)s") % {"name": target}
    if isinstance(target, StandingsAdjustment | PlayerLink):
        return str(target.registration)
    return entry.object_repr


def who(entry: AuditEntry) -> str:
    if entry.via == AuditEntry.Via.TABLE_LINK:
        return _("%(seat)s via the table link") % {"seat": entry.actor_label}
    if entry.actor_id is None and entry.action.startswith("entry.") and isinstance(entry.target, Entry):
        # The entrant himself, through his links: his label was written in his language.
        return _("online entry: %(name)s") % {"name": entry.target}
    return entry.actor_label or _("the system")
