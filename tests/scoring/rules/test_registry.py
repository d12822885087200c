"""The one shape of every ruleset: what the registry declares for the engine, the pages and the
printouts (modes and seat counts, options with labels, penalties, carried state, sheet kind,
score label, money, cup points), and the engine asking those declarations only."""

from __future__ import annotations

import importlib

import pytest

from scoring import ScorecardInvalid, evaluate, rules
from scoring.rules.base import PER_PLAYER, SHEET_KINDS, Ruleset

RULESETS = rules.all_rulesets()
FAMILIES = {"tarok_net": "TarokNetRuleset", "tarockcup": "TarockcupRuleset",
            "gp_vysociny": "GpVysocinyRuleset", "zei": "ZeiRuleset"}


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.code)
def test_every_ruleset_declares_what_the_pages_and_printouts_ask(ruleset: Ruleset):
    assert ruleset.modes and (ruleset.default_mode is None or ruleset.default_mode in ruleset.modes)
    for code, mode in ruleset.modes.items():
        assert mode.code == code and mode.seats in ruleset.seat_counts(code)
        assert ruleset.sheet_kind(code) in SHEET_KINDS
    for option in ruleset.options:
        assert option.label and option.description and option.clause
        assert option.accepts(option.default)
        assert all(choice.label for choice in option.choices)
    assert ruleset.penalties and all(p.kind and p.name and p.rule and p.clause
                                     for p in ruleset.penalties)
    assert (ruleset.unit == "haler") == (ruleset.money is not None) == ruleset.accepts_sheet
    if ruleset.money is not None:
        assert ruleset.score_label == ruleset.money.currency
    defaults = ruleset.option_defaults()
    assert bool(ruleset.state_fields(defaults)) == ruleset.carries_state
    players = ["A", "B", "C", "D"][:ruleset.modes[next(iter(ruleset.modes))].seats]
    for name, kind in ruleset.state_fields(defaults).items():
        start = ruleset.initial_state(players, defaults)[name]
        assert start == ({p: 0 for p in players} if kind == PER_PLAYER else 0)
    described = ruleset.describe()
    assert described["sheet_kinds"] == {m: ruleset.sheet_kind(m) for m in ruleset.modes}
    assert [o["label"] for o in described["options"]] == [o.label for o in ruleset.options]


def test_the_answers_the_rest_of_the_product_gets():
    kinds = {r.code: {m: r.sheet_kind(m) for m in r.modes} for r in RULESETS}
    assert kinds == {
        "gp-vysociny-2004": {"four": "money"},
        "slovenski-tarok-zei": {"three": "points", "four": "points"},
        "steirischer-tarockcup-2017": {"four": "schrift"},
        "tarok-net-2007": {"tri+1": "tri1", "two": "points", "three": "points", "four": "points"},
        "tarok-net-revised": {"tri+1": "tri1", "two": "points", "three": "points",
                              "four": "points"},
    }
    assert {r.code: r.score_label for r in RULESETS} == {
        "gp-vysociny-2004": "Kč", "slovenski-tarok-zei": "",
        "steirischer-tarockcup-2017": "Schrift", "tarok-net-2007": "", "tarok-net-revised": ""}
    assert {r.code for r in RULESETS if r.carries_state} == {
        "slovenski-tarok-zei", "tarok-net-2007", "tarok-net-revised"}
    # seed 000 §4.2: "Tarok se igra po sistemu tri + 1"
    assert rules.default().code == rules.DEFAULT_CODE
    assert rules.default().league_mode == "tri+1"
    cup = rules.cup_points()
    assert cup is not None and [r.code for r in RULESETS if r.cup_points is cup] == [
        "steirischer-tarockcup-2017"]
    assert rules.get("tarok-net-2007").seat_counts("tri+1") == (4, 3)


def test_every_family_is_a_package_of_the_same_layout():
    for family, class_name in FAMILIES.items():
        package = importlib.import_module(f"scoring.rules.{family}")
        for module in ("tables", "parse", "checks", "score"):
            importlib.import_module(f"scoring.rules.{family}.{module}")
        cls = getattr(package, class_name)
        assert issubclass(cls, Ruleset)
        assert {type(r) for r in RULESETS} >= {cls}


def test_a_ruleset_that_carries_nothing_refuses_an_initial_state():
    with pytest.raises(ScorecardInvalid) as exc:
        evaluate({"ruleset": "gp-vysociny-2004", "players": ["A", "B", "C", "D"],
                  "hands": [], "initial_state": {"radelci": {"A": 1}}})
    assert [(e["field"], e["code"]) for e in exc.value.errors] == [
        ("initial_state", "initial_state_not_supported")]


def test_a_second_cup_series_is_refused_by_the_registry():
    class OtherCup(Ruleset):
        code = "another-cup"
        cup_points = rules.cup_points()

    with pytest.raises(ValueError, match="cup points"):
        rules.register(OtherCup())
    assert rules.get("another-cup") is None


def test_every_ruleset_belongs_to_a_game_family_and_one_game_is_one_family():
    assert rules.families() == ["koenigrufen", "slovenian", "taroky"]
    assert rules.family_of("tarok-net-2007") == rules.family_of("slovenski-tarok-zei") == "slovenian"
    assert rules.family_of("steirischer-tarockcup-2017") == "koenigrufen"
    assert rules.family_of("no-such-ruleset") is None

    class Familyless(Ruleset):
        code = "no-family"

    with pytest.raises(ValueError, match="family"):
        rules.register(Familyless())
    assert rules.get("no-family") is None
