"""What docs/contracts/scorecard.md answers a client (issue #34), each answer pinned through
`scoring.evaluate`: options at the scorecard level, `held` per ruleset, the announcements a
game carries, the Czech `value` with its hlášky, the Königrufen Schrift and payout, how far
`points_by_player` may stray from 70, the tricks of a TRI+1 klop, a money sheet's rows, the
partner of a game played alone, and the fields a scorecard may have."""

from __future__ import annotations

import copy

import pytest

from scoring import ScorecardInvalid, evaluate

P4 = ["A", "B", "C", "D"]
TRI1 = {"ruleset": "tarok-net-2007", "mode": "tri+1", "players": P4,
        "hands": [{"game": "trojka", "declarer": "A", "resting": "D", "points": 40}]}
CZ = {"ruleset": "gp-vysociny-2004", "players": P4}
CUP = {"ruleset": "steirischer-tarockcup-2017", "players": P4}
ZEI = {"ruleset": "slovenski-tarok-zei", "mode": "four", "players": P4}
SHEET = {"ruleset": "gp-vysociny-2004", "sheet": {"stake": 2000, "players": [
    {"player": p, "bought": 0, "money": 2000} for p in ("1", "2", "3", "4")]}}


def refused(card: dict) -> list[tuple]:
    with pytest.raises(ScorecardInvalid) as exc:
        evaluate(card)
    return [(e["hand"], e["field"], e["code"]) for e in exc.value.errors]


def one(card: dict, hand: dict) -> dict:
    return evaluate({**card, "hands": [hand]})["hands"][0]


def ann(name, by, announced=True, achieved=True, **extra):
    return {"name": name, "by": by, "announced": announced, "achieved": achieved, **extra}


# -- 1. options ---------------------------------------------------------------------------

def test_options_are_passed_at_the_scorecard_level_and_echoed_with_the_defaults():
    out = evaluate({**TRI1, "options": {"klop_points_tolerance": 0}})
    assert out["options"]["klop_points_tolerance"] == 0
    assert out["options"]["rounding"] == "half_away_from_zero"  # a default filled in
    assert evaluate({**TRI1, "options": None})["options"] == evaluate(TRI1)["options"]


@pytest.mark.parametrize("options,expected", [
    ({"nope": 1}, (None, "options.nope", "unknown_option")),
    ({"rounding": "up"}, (None, "options.rounding", "invalid_option")),
    ({"klop_points_tolerance": True}, (None, "options.klop_points_tolerance", "invalid_option")),
    ({"radelci_after_renons": 1}, (None, "options.radelci_after_renons", "invalid_option")),
    ({"rounding": ["half_to_even"]}, (None, "options.rounding", "invalid_option")),
    ([1], (None, "options", "not_an_object")),
])
def test_an_unknown_option_or_a_value_not_among_its_choices_is_refused(options, expected):
    assert refused({**TRI1, "options": options}) == [expected]


def test_a_money_sheet_takes_options_too():
    assert refused({**SHEET, "options": {"x": 1}}) == [(None, "options.x", "unknown_option")]


# -- 2. held ------------------------------------------------------------------------------

def test_held_in_the_revision_scores_a_trula_from_the_deal_at_its_own_values():
    four = {"ruleset": "tarok-net-revised", "mode": "four", "players": P4}
    hand = {"game": "trojka", "declarer": "A", "partner": "C", "points": 40}
    plain = one(four, {**hand, "announcements": [ann("pagat_ultimo", "A", False)]})
    held = one(four, {**hand, "announcements": [ann("pagat_ultimo", "A", False, held=True)]})
    assert held["scores"]["A"] - plain["scores"]["A"] == 5 - 25  # 5 silent instead of 25
    announced = one(four, {**hand, "announcements": [ann("trula", "A", held=True)]})
    assert announced["scores"]["A"] == plain["scores"]["A"] - 25 + 10
    assert refused({**four, "hands": [{**hand, "announcements": [
        ann("kralji", "A", held=True)]}]}) == [(0, "announcements[0].held", "held_not_used")]


def test_held_is_refused_where_a_ruleset_has_no_use_for_it():
    tn = {"ruleset": "tarok-net-2007", "mode": "four", "players": P4}
    hand = {"game": "trojka", "declarer": "A", "partner": "C", "points": 40}
    assert refused({**tn, "hands": [{**hand, "announcements": [
        ann("trula", "A", held=True)]}]}) == [(0, "announcements[0].held", "held_not_used")]
    assert one(tn, {**hand, "announcements": [ann("trula", "A", held=False)]})["scores"] == \
        one(tn, {**hand, "announcements": [ann("trula", "A")]})["scores"]
    assert refused({**ZEI, "hands": [{"game": "tri", "declarer": "A", "partner": "B", "points": 40,
                                      "announcements": [ann("trula", "A", held=True)]}]}) == \
        [(0, "announcements[0].held", "unknown_field")]
    assert refused({**CUP, "hands": [{"game": "rufer", "declarer": "A", "partner": "B", "won": True,
                                      "announcements": [ann("trull", "A", held=True)]}]}) == \
        [(0, "announcements[0].held", "unknown_field")]
    cz = {"game": "povinnost", "declarer": "A", "partner": "C", "points": 40}
    assert refused({**CZ, "hands": [{**cz, "announcements": [{"name": "trul", "by": "A",
                                                              "held": True}]}]}) == \
        [(0, "announcements[0].held", "field_not_allowed")]
    # a held hláška needs neither announced nor achieved, and cannot fail
    assert one(CZ, {**cz, "announcements": [{"name": "trul", "by": "A"}]})["value"] == 50
    assert (0, "announcements[0].achieved", "held_announcement_cannot_fail") in refused(
        {**CZ, "hands": [{**cz, "announcements": [{"name": "trul", "by": "A", "achieved": False}]}]})


# -- 3. announcements a game carries --------------------------------------------------------

def test_a_pagatrufer_lists_its_pagat_as_the_declarers_announcement():
    hand = {"game": "pagatrufer", "declarer": "A", "partner": "B", "won": True}
    assert refused({**CUP, "hands": [hand]}) == [(0, "announcements", "named_vogerl_missing")]
    silent = {**hand, "announcements": [ann("pagat", "A", announced=False)]}
    assert refused({**CUP, "hands": [silent]}) == [(0, "announcements", "named_vogerl_missing")]
    made = one(CUP, {**hand, "announcements": [ann("pagat", "A")]})
    lost = one(CUP, {**hand, "announcements": [ann("pagat", "A", achieved=False)]})
    assert made["value"] == lost["value"] == 3  # the tariff; the Vogerl on top
    assert made["scores"]["A"] - lost["scores"]["A"] == 4
    conceded = one(CUP, {"game": "pagatrufer", "declarer": "A", "partner": None, "conceded": True})
    assert conceded["value"] == 3


def test_a_druha_povinnost_lists_the_declarers_announced_pagat():
    hand = {"game": "druha_povinnost", "declarer": "A", "partner": "C", "points": 40}
    assert refused({**CZ, "hands": [hand]}) == \
        [(0, "announcements", "druha_povinnost_needs_pagat")]
    silent = {**hand, "announcements": [ann("pagat", "A", announced=False)]}
    assert refused({**CZ, "hands": [silent]}) == \
        [(0, "announcements", "druha_povinnost_needs_pagat")]
    assert one(CZ, {**hand, "announcements": [ann("pagat", "A")]})["value"] == 30 + 200


def test_zei_solo_may_be_said_alone_and_trulapagat_stands_alone():
    alone = {"game": "tri", "declarer": "A", "partner": None, "points": 40}
    assert one(ZEI, alone)["scores"]["A"] + 10 == \
        one(ZEI, {**alone, "announcements": [{"name": "solo", "by": "A", "announced": True}]})["scores"]["A"]
    assert refused({**ZEI, "hands": [{**alone, "partner": "B", "announcements": [
        {"name": "solo", "by": "A", "announced": True}]}]}) == \
        [(0, "announcements[0].name", "solo_with_partner")]
    assert refused({**ZEI, "hands": [{**alone, "announcements": [
        ann("trulapagat", "A"), ann("trula", "A")]}]}) == \
        [(0, "announcements[0].name", "announcement_conflict")]


def test_tarok_net_an_announced_valat_is_a_game_not_an_announcement():
    hand = {"game": "trojka", "declarer": "A", "resting": "D", "points": 70,
            "announcements": [ann("valat", "A")]}
    assert refused({**TRI1, "hands": [hand]}) == \
        [(0, "announcements[0].announced", "announcement_not_allowed")]


# -- 4. the Czech value includes the hlášky ---------------------------------------------------

def test_czech_value_is_one_payment_with_the_hlasky_netted():
    hand = {"game": "povinnost", "declarer": "A", "partner": "C", "called": "XIX", "points": 40}
    assert one(CZ, hand)["value"] == 30  # 5 eyes x 6 hal, rounded up to 10 hal
    ours = one(CZ, {**hand, "announcements": [{"name": "trul", "by": "A"}]})
    theirs = one(CZ, {**hand, "announcements": [{"name": "trul", "by": "B"}]})
    assert (ours["value"], theirs["value"]) == (50, 10)
    assert ours["scores"] == {"A": 50, "B": -50, "C": 50, "D": -50}
    capped = one(CZ, {**hand, "points": 70, "announcements": [
        {"name": "trul", "by": "A"}, ann("valat", "A")]})
    assert capped["value"] == 600  # the valát's own payment


# -- 5. Königrufen: the Schrift and the payout ---------------------------------------------

def test_koenigrufen_scores_are_the_schrift_and_a_contra_moves_only_the_payout():
    hand = {"game": "rufer", "declarer": "A", "partner": "B", "won": True}
    plain = evaluate({**CUP, "hands": [hand]})
    kontra = evaluate({**CUP, "hands": [{**hand, "contras": [{"on": "game", "by": "C", "level": 1}]}]})
    assert plain["hands"][0]["scores"] == kontra["hands"][0]["scores"] == \
        {"A": 1, "B": 1, "C": -1, "D": -1}
    assert kontra["hands"][0]["payout"]["A"] == 2 * plain["hands"][0]["payout"]["A"] > 0
    assert kontra["payout_totals"] == kontra["hands"][0]["payout"]
    assert "payout" not in evaluate(TRI1)["hands"][0] and "payout_totals" not in evaluate(TRI1)


# -- 6. points_by_player and the tricks of a TRI+1 klop -----------------------------------------

def _klop(total: int, players=P4) -> dict:
    pbp = {p: 10 for p in players}
    pbp[players[0]] = total - 10 * (len(players) - 1)
    return {"game": "klop", "points_by_player": pbp}


@pytest.mark.parametrize("card,extra,accepted", [
    (TRI1, {"resting": "D"}, (69, 70, 71)),
    ({**TRI1, "options": {"klop_points_tolerance": 0}}, {"resting": "D"}, (70,)),
    (ZEI, {}, (69, 70, 71, 72)),
])
def test_how_far_klop_points_may_stray_from_70(card, extra, accepted):
    for total in range(66, 75):
        hand = {**_klop(total), **extra}
        if total in accepted:
            evaluate({**card, "hands": [hand]})
        else:
            assert refused({**card, "hands": [hand]}) == \
                [(0, "points_by_player", "klop_points_do_not_add_up")], total


def test_trischaken_and_varsava_points():
    def trischaken(d):
        return {"game": "trischaken", "forehand": "A",
                "points_by_player": {"A": 10, "B": 15, "C": 20, "D": 25 + d}}
    evaluate({**CUP, "hands": [trischaken(0)]})
    evaluate({**CUP, "hands": [trischaken(-2)]})  # two points in dropped Blatt, loser plain
    assert refused({**CUP, "hands": [trischaken(1)]}) == \
        [(0, "points_by_player", "trischaken_points_do_not_add_up")]
    varsava = {"game": "varsava", "forehand": "A", "tricks_by_player": {"A": 3, "B": 3, "C": 3, "D": 3},
               "points_by_player": {"A": 10, "B": 20, "C": 20, "D": 20}}
    evaluate({**CZ, "hands": [varsava]})
    assert refused({**CZ, "hands": [{**varsava, "points_by_player": {**varsava["points_by_player"],
                                                                     "D": 21}}]}) == \
        [(0, "points_by_player", "points_do_not_add_up")]


@pytest.mark.parametrize("tricks,ok", [
    ({"A": 3, "B": 3, "C": 3, "D": 3}, True),
    ({"A": 5, "B": 5, "C": 5, "D": 1}, True),
    ({"A": 5, "B": 5, "C": 5, "D": 5}, False),
    ({"A": 50, "B": 5, "C": 5, "D": 5}, False),
])
def test_the_tricks_of_a_tri1_klop_add_up_to_either_deal(tricks, ok):
    hand = {"game": "klop", "resting": "D", "tricks_by_player": tricks,
            "points_by_player": {"A": 20, "B": 20, "C": 20, "D": 10}}
    if ok:
        evaluate({**TRI1, "hands": [hand]})
    else:
        assert refused({**TRI1, "hands": [hand]}) == \
            [(0, "tricks_by_player", "tricks_do_not_add_up")]
    mismatch = {**hand, "tricks_by_player": {"A": 0, "B": 4, "C": 4, "D": 4}}
    assert refused({**TRI1, "hands": [mismatch]}) == \
        [(0, "tricks_by_player.A", "tricks_do_not_match_points")]


# -- 7. a money sheet's rows ------------------------------------------------------------------

def _sheet(change: dict) -> dict:
    card = copy.deepcopy(SHEET)
    for (k, field), value in change.items():
        card["sheet"]["players"][k][field] = value
    return card


def test_a_money_sheet_refuses_a_player_twice_and_negative_amounts():
    assert refused(_sheet({(1, "player"): "1"})) == \
        [(None, "sheet.players[1].player", "duplicate_player")]
    assert refused(_sheet({(0, "money"): -10, (1, "money"): 2010})) == \
        [(None, "sheet.players[0].money", "negative_money")]
    assert refused(_sheet({(0, "bought"): -1000})) == \
        [(None, "sheet.players[0].bought", "negative_top_up")]
    stake = copy.deepcopy(SHEET)
    stake["sheet"]["stake"] = -2000
    assert refused(stake) == [(None, "sheet.stake", "invalid_stake")]
    # only the result may be negative
    out = evaluate(_sheet({(0, "money"): 0, (1, "money"): 4000}))
    assert out["totals"] == {"1": -2000, "2": 2000, "3": 0, "4": 0}


def test_a_money_sheet_takes_no_card_fields_and_only_the_rulesets_mode():
    assert refused({**SHEET, "players": P4}) == [(None, "players", "field_not_allowed")]
    assert refused({**SHEET, "mode": "three"}) == [(None, "mode", "unknown_mode")]
    assert evaluate({**SHEET, "mode": "four"})["totals"] == evaluate(SHEET)["totals"]


# -- 8. the partner of a game played alone ------------------------------------------------------

@pytest.mark.parametrize("card,game,result", [
    ({"ruleset": "tarok-net-2007", "mode": "four", "players": P4}, "solo_tri", {"points": 40}),
    ({"ruleset": "tarok-net-2007", "mode": "four", "players": P4}, "berac", {"won": True}),
    (ZEI, "solo_tri", {"points": 40}),
    (CUP, "dreier", {"won": True}),
    (CZ, "solo", {"points": 40}),
])
def test_a_solo_needs_no_partner_and_refuses_one(card, game, result):
    hand = {"game": game, "declarer": "A", **result}
    assert one(card, hand) == one(card, {**hand, "partner": None})
    assert refused({**card, "hands": [{**hand, "partner": "B"}]}) == \
        [(0, "partner", "partner_not_allowed")]


def test_a_called_game_names_its_partner_null_included():
    for card, game, result in ((ZEI, "tri", {"points": 40}), (CUP, "rufer", {"won": True}),
                               (CZ, "povinnost", {"points": 40})):
        assert refused({**card, "hands": [{"game": game, "declarer": "A", **result}]}) == \
            [(0, "partner", "missing")]
    # tarok-net reads a called game without partner as null, as stored cards were written
    tn = {"ruleset": "tarok-net-2007", "mode": "four", "players": P4}
    hand = {"game": "trojka", "declarer": "A", "points": 40}
    assert one(tn, hand) == one(tn, {**hand, "partner": None})


# -- the fields of a scorecard -----------------------------------------------------------------

def test_a_field_the_contract_does_not_name_is_refused():
    assert refused({**TRI1, "option": {"rounding": "half_to_even"}}) == \
        [(None, "option", "unknown_field")]
