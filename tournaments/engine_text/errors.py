"""The scoring engine's validation errors in the reader's language, rendered from each error's
`code` and `params` (its English `message` when a code or a parameter is not known here)."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import pgettext, pgettext_lazy

from tournaments.engine_text.common import english_reader, kc

logger = logging.getLogger(__name__)

_E = {
    "announcement_by_defender": pgettext_lazy("engine", "Only the playing side scores announcements in these "
                                       "rules."),
    "announcement_by_not_a_player": pgettext_lazy("engine", "%(field)s must be a player of this card."),
    "announcement_by_resting_player": pgettext_lazy("engine", "The resting player cannot make an announcement."),
    "announcement_by_wrong_player": pgettext_lazy("engine", "This player cannot make this announcement."),
    "announcement_by_wrong_side": pgettext_lazy("engine", "This announcement belongs to the other side."),
    "announcement_conflict": pgettext_lazy("engine", "These announcements cannot be listed together."),
    "announcement_not_allowed": pgettext_lazy("engine", "This announcement is not possible in this game."),
    "announcement_not_in_mode": pgettext_lazy("engine", "This announcement is not played at this table form."),
    "amount_not_in_coins": pgettext_lazy("engine", "The amount must be a whole number of coins of %(step)s."),
    "claim_by_renoncer": pgettext_lazy("engine", "The player who made the renons cannot claim this premium."),
    "claim_not_achieved": pgettext_lazy("engine", "After a renons, list a silent premium only when its loss is "
                                 "claimed (achieved)."),
    "conceded_and_won": pgettext_lazy("engine", "A conceded hand is lost."),
    "conceded_not_allowed": pgettext_lazy("engine", "This game cannot be given up here."),
    "conceded_with_renons": pgettext_lazy("engine", "A conceded hand is not played, so it has no renons."),
    "conflicting_penalties": pgettext_lazy("engine", "These penalties cannot both happen in one hand."),
    "contra_by_not_a_player": pgettext_lazy("engine", "%(field)s must be a player of this card."),
    "contra_by_wrong_side": pgettext_lazy("engine", "This contra comes from the wrong side."),
    "contra_level_not_allowed": pgettext_lazy("engine", "This contra level is not part of these rules."),
    "contra_not_allowed": pgettext_lazy("engine", "No contra is possible here."),
    "contra_on_missing_announcement": pgettext_lazy("engine", "The contra names an announcement that is not in "
                                             "this hand."),
    "contra_on_silent": pgettext_lazy("engine", "A silent announcement cannot be contra'd."),
    "contra_out_of_order": pgettext_lazy("engine", "The contras are not in the right order."),
    "declarer_not_a_player": pgettext_lazy("engine", "The declarer must be a player of this card."),
    "declarer_not_forehand": pgettext_lazy("engine", "In this game the declarer must be the forehand."),
    "druha_povinnost_needs_pagat": pgettext_lazy("engine", "A druhá povinnost needs the pagát: list it as the "
                                          "declarer's announced pagát."),
    "duplicate_announcement": pgettext_lazy("engine", "This announcement is listed twice."),
    "duplicate_penalty": pgettext_lazy("engine", "This penalty is listed twice."),
    "duplicate_player": pgettext_lazy("engine", "A player is listed twice."),
    "eyes_without_tricks": pgettext_lazy("engine", "A player without a trick cannot have eyes."),
    "field_not_allowed": pgettext_lazy("engine", "%(field)s is not used here."),
    "forehand_not_a_player": pgettext_lazy("engine", "The forehand must be a player of this card."),
    "game_not_in_mode": pgettext_lazy("engine", "This game is not played at this table form."),
    "hands_and_sheet": pgettext_lazy("engine", "Give either hands or a money sheet, not both."),
    "impossible_together": pgettext_lazy("engine", "%(first)s and %(second)s cannot both be true in one hand."),
    "held_announcement_cannot_fail": pgettext_lazy("engine", "A held announcement cannot fail."),
    "held_not_used": pgettext_lazy("engine", "%(field)s is not used in these rules."),
    "initial_state_not_supported": pgettext_lazy("engine", "This ruleset does not carry state between hands."),
    "invalid_called_tarok": pgettext_lazy("engine", "The called tarok is not valid."),
    "invalid_contra": pgettext_lazy("engine", "This contra is not valid."),
    "invalid_contra_level": pgettext_lazy("engine", "The contra level is not valid."),
    "invalid_count": pgettext_lazy("engine", "%(field)s must be a whole number, 0 or more."),
    "invalid_name": pgettext_lazy("engine", "The name must be text."),
    "invalid_option": pgettext_lazy("engine", "This value of the option is not allowed."),
    "invalid_penalty": pgettext_lazy("engine", "This penalty is not valid."),
    "invalid_player": pgettext_lazy("engine", "The player must be a start number."),
    "invalid_players": pgettext_lazy("engine", "The players must be a list of player ids."),
    "invalid_round": pgettext_lazy("engine", "The round must be a whole number from 1."),
    "invalid_stake": pgettext_lazy("engine", "The stake must be a positive whole amount."),
    "invalid_table": pgettext_lazy("engine", "The table must be a whole number from 1."),
    "klop_points_do_not_add_up": pgettext_lazy("engine", "The klop points must add up to 70, got %(total)s."),
    "missing": pgettext_lazy("engine", "%(field)s is required."),
    "more_errors": pgettext_lazy("engine", "Further errors not listed: %(count)s."),
    "named_vogerl_missing": pgettext_lazy("engine", "List the Vogerl named in the bid as the declarer's "
                                   "announcement."),
    "negative_money": pgettext_lazy("engine", "The money cannot be negative."),
    "negative_top_up": pgettext_lazy("engine", "The amount bought cannot be negative."),
    "no_tarok_on_played_hand": pgettext_lazy("engine", "A hand without a tarok is dealt again: it cannot also "
                                      "be played."),
    "not_a_boolean": pgettext_lazy("engine", "%(field)s must be yes or no."),
    "not_a_list": pgettext_lazy("engine", "%(field)s must be a list."),
    "not_a_player": pgettext_lazy("engine", "%(field)s must be a player of this card."),
    "not_a_string": pgettext_lazy("engine", "%(field)s must be text."),
    "not_allowed_after_misdeal": pgettext_lazy("engine", "A misdealt hand is dealt again and never played."),
    "not_an_integer": pgettext_lazy("engine", "%(field)s must be a whole number."),
    "not_an_object": pgettext_lazy("engine", "%(field)s does not have the expected form."),
    "out_of_range": pgettext_lazy("engine", "%(field)s is out of range."),
    "partner_is_declarer": pgettext_lazy("engine", "The partner cannot be the declarer: a declarer who called "
                                  "himself plays alone."),
    "partner_not_a_player": pgettext_lazy("engine", "The partner must be a player of this card."),
    "partner_not_allowed": pgettext_lazy("engine", "This game has no partner."),
    "penalty_not_allowed_in_game": pgettext_lazy("engine", "This penalty is not possible in this game."),
    "penalty_player_not_a_player": pgettext_lazy("engine", "The penalised player must be a player of this "
                                          "card."),
    "points_do_not_add_up": pgettext_lazy("engine", "The points must add up to %(expected)s, got %(got)s."),
    "points_out_of_range": pgettext_lazy("engine", "The points must be a whole number from 0 to 70."),
    "resting_not_a_player": pgettext_lazy("engine", "The resting player must be a player of this card."),
    "resting_not_allowed": pgettext_lazy("engine", "Nobody rests at this table."),
    "resting_player_declares": pgettext_lazy("engine", "The resting player does not play this hand."),
    "sechserdreier_not_forehand": pgettext_lazy("engine", "Only the Vorhand can play a Sechserdreier."),
    # The figures themselves, so the table sees what it wrote against what was expected.
    "sheet_does_not_add_up": pgettext_lazy("engine", "The money on the table adds up to %(money)s, but the "
                                           "stakes and the amounts bought make %(expected)s "
                                           "(stakes %(stakes)s + bought %(bought)s)."),
    "sheet_not_supported": pgettext_lazy("engine", "This ruleset scores hands, not a money sheet."),
    "silent_not_achieved": pgettext_lazy("engine", "A silent announcement that was not made scores nothing "
                                  "here: leave it out."),
    "silent_not_allowed": pgettext_lazy("engine", "This hláška cannot be silent."),
    "silent_not_realised": pgettext_lazy("engine", "A silent announcement is written only when it was made."),
    "silent_premium_cannot_fail": pgettext_lazy("engine", "A silent premium is written only when it was made: "
                                         "leave it out."),
    "solo_follows_game": pgettext_lazy("engine", "The solo is won or lost with the game."),
    "solo_is_announced": pgettext_lazy("engine", "The solo is always announced."),
    "solo_with_partner": pgettext_lazy("engine", "Solo means playing alone: there is no partner."),
    "too_many_contras": pgettext_lazy("engine", "Too many contras."),
    "top_up_not_in_steps": pgettext_lazy("engine", "The amount bought must be a multiple of %(step)s."),
    "total_mismatch": pgettext_lazy("engine", "The written total is %(written)s, but the money adds up to "
                                    "%(sum)s."),
    "tricks_contradict_points": pgettext_lazy("engine", "A player has no points exactly when he has no trick."),
    "tricks_do_not_add_up": pgettext_lazy("engine", "The tricks do not add up to the tricks of the deal."),
    "tricks_do_not_match_points": pgettext_lazy("engine", "A player has no points exactly when he has no "
                                         "trick."),
    "trischaken_blatt_needed": pgettext_lazy("engine", "Points are missing: say who dropped the Blatt "
                                      "(blatt_by_player)."),
    "trischaken_points_do_not_add_up": pgettext_lazy("engine", "The points and Blatt must add up to exactly 70 "
                                              "points."),
    "unknown_announcement": pgettext_lazy("engine", "Unknown announcement."),
    "unknown_field": pgettext_lazy("engine", "Unknown field %(field)s."),
    "unknown_game": pgettext_lazy("engine", "Unknown game."),
    "unknown_mode": pgettext_lazy("engine", "Unknown table form."),
    "unknown_option": pgettext_lazy("engine", "Unknown option."),
    "unknown_ruleset": pgettext_lazy("engine", "Unknown ruleset."),
    "valat_contradicts_points": pgettext_lazy("engine", "A valat takes every trick, so the game is won."),
    "valat_contradicts_won": pgettext_lazy("engine", "A side that takes every trick wins the game."),
    "valat_points_inconsistent": pgettext_lazy("engine", "The points do not fit the valat."),
    "valat_points_mismatch": pgettext_lazy("engine", "The points do not fit the valat."),
    "won_contradicts_points": pgettext_lazy("engine", "The points do not agree with whether the game was won."),
    "wrong_player_count": pgettext_lazy("engine", "%(expected)s players are needed, got %(got)s."),
}

# Params given in haléř, by the code whose params they are: shown as Kč.
_MONEY_PARAMS = {
    "amount_not_in_coins": frozenset({"step"}),
    "top_up_not_in_steps": frozenset({"step"}),
    "sheet_does_not_add_up": frozenset({"money", "stakes", "bought", "expected"}),
    "total_mismatch": frozenset({"written", "sum"}),
}

ERROR_CODES = frozenset(_E)


def _field_key(path: str) -> str:
    """The name of a field path's last part: hands[3].announcements[0].by → by."""
    return re.sub(r"\[\d+\]", "", path).rsplit(".", 1)[-1]


def field_words(path: str) -> str:
    """A field's path as the engine gives it (hands[3].announcements[0].by) in words, quoted
    as the reader's language quotes: the name of its last part."""
    # The one list of fields in words is the history's (imported here: the models import
    # this package, and the history's module imports the models).
    from tournaments.text.audit_text import field_label

    key = _field_key(path)
    if not key:
        return path
    return pgettext("engine field", "“%(name)s”") % {"name": field_label(key)}


def error_text(error: Mapping[str, Any] | Any, ruleset: str | None = None) -> str:
    """One validation error of the engine in the active language (its English `message` when
    the code or a needed param is not known)."""
    if not isinstance(error, Mapping):
        return str(error or "")
    english = str(error.get("message") or "")
    msgid = _E.get(str(error.get("code") or ""))
    if msgid is None:
        return english
    if english_reader():
        # The engine's own words, the most specific ("won must be true or false, got 'yes'"),
        # but for a field they begin with by its code ("points_by_player is required"): in words.
        key = _field_key(str(error.get("field") or ""))
        if key and english.startswith(key + " ") and "%(field)s" in str(msgid):
            return field_words(key) + english[len(key):]
        return english
    params = error.get("params")
    values: dict[str, Any] = dict(params) if isinstance(params, Mapping) else {}
    try:
        for key in _MONEY_PARAMS.get(str(error.get("code")), frozenset()) & values.keys():
            values[key] = kc(values[key])
        values["field"] = field_words(str(error.get("field") or ""))
        return str(msgid) % values
    except (KeyError, IndexError, TypeError, ValueError, ArithmeticError):
        logger.debug("engine error %r not translated", error.get("code"), exc_info=True)
        return english
