"""The money sheet of gp-vysociny-2004 read whole: its refusals in the order of the sheet
(unknown fields, table and round, stake, rows, written total, then the sums), amounts that
are no whole number of the bag's smallest coin, and the lines of a sheet that adds up."""

from __future__ import annotations

import pytest

from scoring import ScorecardInvalid, evaluate
from tests.scoring.rules.test_gp_vysociny_sheet import seed_rows


def refusals(sheet: dict) -> list[tuple]:
    with pytest.raises(ScorecardInvalid) as exc:
        evaluate({"ruleset": "gp-vysociny-2004", "sheet": sheet})
    return [(e["field"], e["code"], e["message"]) for e in exc.value.errors]


def test_the_fields_of_the_sheet_are_refused_in_order_and_amounts_lie_in_coins():
    sheet = {"table": 0, "round": "2", "stake": 2005, "players": seed_rows(), "total": 9005, "x": 1}
    assert refusals(sheet) == [
        ("sheet.x", "unknown_field", "unknown field 'x' in the money sheet"),
        ("sheet.table", "invalid_table", "table must be a whole number from 1, got 0"),
        ("sheet.round", "invalid_round", "round must be a whole number from 1, got '2'"),
        ("sheet.stake", "amount_not_in_coins", "sheet.stake must be a whole number of 0.10 Kč coins "
         "(the smallest coin of the bag), got 20.05 Kč"),
        ("sheet.total", "amount_not_in_coins", "sheet.total must be a whole number of 0.10 Kč coins "
         "(the smallest coin of the bag), got 90.05 Kč"),
    ]


def test_the_sums_are_checked_only_when_every_field_is_right():
    assert [r[:2] for r in refusals({"players": {}, "total": "9"})] == [
        ("sheet.players", "not_a_list"), ("sheet.total", "not_an_integer")]
    rows = seed_rows()
    rows[3]["money"] = 3900
    assert refusals({"players": rows, "total": 8990}) == [
        ("sheet.total", "total_mismatch", "the written total 89.90 Kč is not the sum of the money 89.80 Kč"),
        ("sheet.players", "sheet_does_not_add_up", "the money on the table 89.80 Kč must equal the "
         "stakes 80.00 Kč plus the top-ups 10.00 Kč = 90.00 Kč"),
    ]


def test_a_sheet_that_adds_up_has_a_line_per_player_and_the_table_line_last():
    out = evaluate({"ruleset": "gp-vysociny-2004", "sheet": {"table": 4, "round": 2,
                                                             "players": seed_rows(), "total": 9000}})
    assert [(ln["player"], ln["what"], ln["points"], ln["code"]) for ln in out["lines"]] == [
        ("8", "player 8: money 6.50 Kč - stake 20.00 Kč - bought 0.00 Kč = -13.50 Kč", -1350, "sheet_result"),
        ("23", "player 23: money 2.30 Kč - stake 20.00 Kč - bought 10.00 Kč = -27.70 Kč", -2770,
         "sheet_result"),
        ("45", "player 45: money 42.00 Kč - stake 20.00 Kč - bought 0.00 Kč = 22.00 Kč", 2200, "sheet_result"),
        ("98", "player 98: money 39.20 Kč - stake 20.00 Kč - bought 0.00 Kč = 19.20 Kč", 1920, "sheet_result"),
        (None, "table money 90.00 Kč = stakes 80.00 Kč + bought 10.00 Kč", 9000, "sheet_balanced"),
    ]
    assert list(out) == ["ruleset", "unit", "sheet", "totals", "lines"]
    assert list(out["sheet"]) == ["table", "round", "stake", "players", "total", "stakes_total",
                                  "bought_total"]
