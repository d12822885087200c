"""The money sheet of gp-vysociny-2004: the seed's sample card (seed 004, "Stůl číslo /
Tischnummer / Table number", table 4, round 2) and every way a sheet can be wrong, amounts
no coin makes among them."""

from __future__ import annotations

import pytest

from scoring import ScorecardInvalid, evaluate


def seed_rows():
    # seed 004, the filled-in sample: 8 Novák 6,50 / 23 Fric 10,00 bought 2,30 /
    # 45 Sobota 42,00 / 98 Skalský 39,20 / "Součet/Summe/Total 90,00"
    return [
        {"player": "8", "name": "Novák", "money": 650},
        {"player": "23", "name": "Fric", "bought": 1000, "money": 230},
        {"player": "45", "name": "Sobota", "money": 4200},
        {"player": "98", "name": "Skalský", "money": 3920},
    ]


def sheet_card(**sheet):
    base = {"table": 4, "round": 2, "players": seed_rows()}
    base.update(sheet)
    return {"ruleset": "gp-vysociny-2004", "sheet": base}


def codes(scorecard):
    with pytest.raises(ScorecardInvalid) as exc:
        evaluate(scorecard)
    return {(e["hand"], e["field"], e["code"]) for e in exc.value.errors}


def test_seed_sample_sheet():
    # 4 x 20 Kč stake + 10 Kč bought = 90 Kč on the table; result = money - stake - bought
    out = evaluate(sheet_card(total=9000))
    assert out["ruleset"] == "gp-vysociny-2004"
    assert out["unit"] == "haler"
    assert out["totals"] == {"8": -1350, "23": -2770, "45": 2200, "98": 1920}
    assert sum(out["totals"].values()) == 0
    sheet = out["sheet"]
    assert sheet["table"] == 4 and sheet["round"] == 2
    assert sheet["stake"] == 2000
    assert sheet["total"] == 9000
    assert sheet["stakes_total"] == 8000
    assert sheet["bought_total"] == 1000
    assert sheet["players"][1] == {"player": "23", "name": "Fric", "bought": 1000,
                                   "money": 230, "result": -2770}
    assert sheet["players"][0]["bought"] == 0
    results = [ln for ln in out["lines"] if ln["code"] == "sheet_result"]
    assert [ln["points"] for ln in results] == [-1350, -2770, 2200, 1920]
    assert results[1]["params"] == {"player": "23", "money": 230, "stake": 2000,
                                    "bought": 1000, "result": -2770}
    balanced = [ln for ln in out["lines"] if ln["code"] == "sheet_balanced"]
    assert balanced[0]["params"] == {"money": 9000, "stakes": 8000, "bought": 1000}


def test_sheet_without_table_round_and_total():
    out = evaluate({"ruleset": "gp-vysociny-2004", "sheet": {"players": seed_rows()}})
    assert out["sheet"]["table"] is None and out["sheet"]["round"] is None
    assert out["totals"]["45"] == 2200


def test_other_stake():
    rows = [{"player": p, "money": m} for p, m in (("1", 1000), ("2", 3000), ("3", 0),
                                                    ("4", 8000))]
    out = evaluate({"ruleset": "gp-vysociny-2004", "sheet": {"stake": 3000, "players": rows}})
    assert out["totals"] == {"1": -2000, "2": 0, "3": -3000, "4": 5000}


def test_top_up_not_in_10_kc_steps():
    # seed 004: "Dokup: násobky 10,-Kč"
    rows = seed_rows()
    rows[1]["bought"] = 500
    rows[1]["money"] = 230 - 500
    errs = codes(sheet_card(players=rows))
    assert (None, "sheet.players[1].bought", "top_up_not_in_steps") in errs
    assert (None, "sheet.players[1].money", "negative_money") in errs


def test_sheet_that_does_not_add_up():
    # seed 004, "Samokontrola hry u stolu": the table checks its final sum
    rows = seed_rows()
    rows[3]["money"] = 3930
    assert codes(sheet_card(players=rows)) == {(None, "sheet.players", "sheet_does_not_add_up")}


def test_written_total_must_match():
    assert (None, "sheet.total", "total_mismatch") in codes(sheet_card(total=9010))


@pytest.mark.parametrize("change,expected", [
    (lambda rows: rows.pop(), (None, "sheet.players", "wrong_player_count")),
    (lambda rows: rows.append({"player": "99", "money": 0}),
     (None, "sheet.players", "wrong_player_count")),
    (lambda rows: rows[2].update(player="8"),
     (None, "sheet.players[2].player", "duplicate_player")),
    (lambda rows: rows[2].update(player=45), (None, "sheet.players[2].player", "invalid_player")),
    (lambda rows: rows[0].update(money=-650), (None, "sheet.players[0].money", "negative_money")),
    (lambda rows: rows[0].update(money="6,50"), (None, "sheet.players[0].money", "not_an_integer")),
    (lambda rows: rows[0].pop("money"), (None, "sheet.players[0].money", "missing")),
    (lambda rows: rows[1].update(bought=-1000),
     (None, "sheet.players[1].bought", "negative_top_up")),
    (lambda rows: rows[1].update(bought=10.0), (None, "sheet.players[1].bought", "not_an_integer")),
    (lambda rows: rows[1].update(name=7), (None, "sheet.players[1].name", "invalid_name")),
    (lambda rows: rows[1].update(signature="x"),
     (None, "sheet.players[1].signature", "unknown_field")),
    (lambda rows: rows.__setitem__(0, "8"), (None, "sheet.players[0]", "not_an_object")),
])
def test_invalid_rows(change, expected):
    rows = seed_rows()
    change(rows)
    assert expected in codes(sheet_card(players=rows))


@pytest.mark.parametrize("sheet,expected", [
    ({"table": 0}, (None, "sheet.table", "invalid_table")),
    ({"round": "2"}, (None, "sheet.round", "invalid_round")),
    ({"stake": 0}, (None, "sheet.stake", "invalid_stake")),
    ({"stake": True}, (None, "sheet.stake", "invalid_stake")),
    ({"players": None}, (None, "sheet.players", "missing")),
    ({"players": {}}, (None, "sheet.players", "not_a_list")),
    ({"total": "90"}, (None, "sheet.total", "not_an_integer")),
    ({"date": "2004-10-31"}, (None, "sheet.date", "unknown_field")),
])
def test_invalid_sheet_fields(sheet, expected):
    sc = sheet_card(**sheet)
    if sheet.get("players", 0) is None:
        del sc["sheet"]["players"]
    assert expected in codes(sc)


def test_several_sheet_errors_reported_together():
    rows = seed_rows()
    rows[0]["bought"] = 250
    rows[2]["player"] = "8"
    rows[3]["money"] = -1
    errs = codes(sheet_card(players=rows, table="four"))
    assert errs >= {
        (None, "sheet.players[0].bought", "top_up_not_in_steps"),
        (None, "sheet.players[2].player", "duplicate_player"),
        (None, "sheet.players[3].money", "negative_money"),
        (None, "sheet.table", "invalid_table"),
    }


def test_money_sheet_amounts_are_whole_ten_haler_coins():
    """Issue 15, finding 5. 004, the personal money under the sheet: "5,- Kč 2x / 1,- Kč 6x /
    50 hal 6x / 10 hal 10x" — the smallest coin is 10 haléř, so 6,55 Kč cannot lie on the
    table."""
    rows = [{"player": "8", "money": 655}, {"player": "23", "bought": 1000, "money": 230},
            {"player": "45", "money": 4200}, {"player": "98", "money": 3915}]
    with pytest.raises(ScorecardInvalid) as exc:
        evaluate({"ruleset": "gp-vysociny-2004", "sheet": {"table": 4, "round": 2, "players": rows}})
    assert [(e["field"], e["code"], e["params"]) for e in exc.value.errors] == [
        ("sheet.players[0].money", "amount_not_in_coins", {"step": 10, "got": 655}),
        ("sheet.players[3].money", "amount_not_in_coins", {"step": 10, "got": 3915})]
