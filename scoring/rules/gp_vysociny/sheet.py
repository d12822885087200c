"""The money sheet of the GP Vysočiny rules (seed 004): the trilingual card "Stůl číslo /
Tischnummer / Table number" on which a table writes, after the round, each player's money
and what he bought. Checked against the bag and the top-up step, and turned into each
player's result (money − stake − bought).

The personal money is coins ("5,- Kč 2x / 1,- Kč 6x / 50 hal 6x / 10 hal 10x" under the
sheet; "Osobní finance zůstávají po celou hru na stole!"), so no amount on the sheet is
finer than the smallest of them, 10 haléř (`amount_not_in_coins`).
"""

from __future__ import annotations

from typing import Any

from scoring.errors import ErrorCollector
from scoring.money import english_kc
from scoring.rules.base import Ruleset
from scoring.rules.checks import is_int as _is_int
from scoring.rules.gp_vysociny.score import _line
from scoring.rules.gp_vysociny.tables import SEATS, TOP_UP_STEP


def score_sheet(rs: Ruleset, sheet: dict[str, Any], options: dict[str, Any],
                errors: ErrorCollector) -> dict[str, Any] | None:
    """A round's money sheet: the result of every player, or None after its problems."""
    assert rs.money is not None
    coin = rs.money.smallest_coin
    table, rnd, stake = _sheet_head(rs, sheet, coin, errors)
    rows = _sheet_rows(rs, sheet.get("players"), coin, errors)
    total = _sheet_total(sheet.get("total"), coin, errors)
    if errors or stake is None:
        return None

    money_total = sum(r["money"] for r in rows)
    bought_total = sum(r["bought"] for r in rows)
    stakes_total = stake * len(rows)
    _check_sums(total, money_total, stakes_total, bought_total, errors)
    if errors:
        return None

    totals, lines = _results(rows, stake, money_total, stakes_total, bought_total)
    normalised = {
        "table": table,
        "round": rnd,
        "stake": stake,
        "players": rows,
        "total": money_total,
        "stakes_total": stakes_total,
        "bought_total": bought_total,
    }
    return {"sheet": normalised, "totals": totals, "lines": lines}


def _sheet_head(rs: Ruleset, sheet: dict[str, Any], coin: int,
                errors: ErrorCollector) -> tuple[Any, Any, int | None]:
    """The sheet's own fields: no unknown ones, the table and round numbers when written,
    and the stake (the ruleset's unless the sheet writes another) in coins; the stake is None
    when it is wrong."""
    assert rs.money is not None
    for key in sheet:
        if key not in ("table", "round", "stake", "players", "total"):
            errors.add(None, f"sheet.{key}", "unknown_field",
                       f"unknown field {key!r} in the money sheet")
    table = sheet.get("table")
    rnd = sheet.get("round")
    for key, value in (("table", table), ("round", rnd)):
        if value is not None and (not _is_int(value) or value < 1):
            errors.add(None, f"sheet.{key}", f"invalid_{key}",
                       f"{key} must be a whole number from 1, got {value!r}")
    stake = sheet.get("stake", rs.money.stake)
    if not _is_int(stake) or stake <= 0:
        errors.add(None, "sheet.stake", "invalid_stake",
                   f"stake must be a positive whole number of haléř, got {stake!r}")
        stake = None
    elif not _in_coins("sheet.stake", stake, coin, errors):
        stake = None
    return table, rnd, stake


def _sheet_rows(rs: Ruleset, raw_players: Any, coin: int,
                errors: ErrorCollector) -> list[dict[str, Any]]:
    """The players' rows that are right (a table of SEATS players, each once)."""
    rows: list[dict[str, Any]] = []
    if raw_players is None:
        errors.add(None, "sheet.players", "missing", "the sheet needs its players")
    elif not isinstance(raw_players, list):
        errors.add(None, "sheet.players", "not_a_list", "sheet.players must be a list")
    else:
        if len(raw_players) != SEATS:
            errors.add(None, "sheet.players", "wrong_player_count",
                       f"a table of {rs.code} has {SEATS} players, got "
                       f"{len(raw_players)}", expected=SEATS, got=len(raw_players))
        seen: set[str] = set()
        for k, row in enumerate(raw_players):
            row_out = _sheet_row(k, row, seen, coin, errors)
            if row_out is not None:
                rows.append(row_out)
    return rows


def _sheet_total(total: Any, coin: int, errors: ErrorCollector) -> int | None:
    """The total the table wrote under the sheet, if any and if right; else None."""
    if total is not None and not _is_int(total):
        errors.add(None, "sheet.total", "not_an_integer",
                   f"total must be a whole number of haléř, got {total!r}")
        return None
    if total is not None and not _in_coins("sheet.total", total, coin, errors):
        return None
    return total


def _check_sums(total: int | None, money_total: int, stakes_total: int, bought_total: int,
                errors: ErrorCollector) -> None:
    """The table's own check (seed 004, "Samokontrola hry u stolu"): the written total is the
    sum of the money, and the money on the table is the stakes plus the top-ups."""
    if total is not None and total != money_total:
        errors.add(None, "sheet.total", "total_mismatch",
                   f"the written total {english_kc(total)} is not the sum of the money "
                   f"{english_kc(money_total)}", written=total, sum=money_total)
    if money_total != stakes_total + bought_total:
        errors.add(None, "sheet.players", "sheet_does_not_add_up",
                   f"the money on the table {english_kc(money_total)} must equal the stakes "
                   f"{english_kc(stakes_total)} plus the top-ups {english_kc(bought_total)} = "
                   f"{english_kc(stakes_total + bought_total)}",
                   money=money_total, stakes=stakes_total, bought=bought_total,
                   expected=stakes_total + bought_total)


def _results(rows: list[dict[str, Any]], stake: int, money_total: int, stakes_total: int,
             bought_total: int) -> tuple[dict[str, int], list[dict[str, Any]]]:
    """Each player's result (money − stake − bought, written into his row), and the lines
    that show it: one per player, then the table's balance."""
    lines: list[dict[str, Any]] = []
    totals: dict[str, int] = {}
    for r in rows:
        r["result"] = r["money"] - stake - r["bought"]
        totals[r["player"]] = r["result"]
        lines.append(_line(r["player"],
                           f"player {r['player']}: money {english_kc(r['money'])} - stake "
                           f"{english_kc(stake)} - bought {english_kc(r['bought'])} = {english_kc(r['result'])}",
                           r["result"], "sheet_result", player=r["player"],
                           money=r["money"], stake=stake, bought=r["bought"],
                           result=r["result"]))
    lines.append(_line(None, f"table money {english_kc(money_total)} = stakes {english_kc(stakes_total)} "
                             f"+ bought {english_kc(bought_total)}",
                       money_total, "sheet_balanced", money=money_total,
                       stakes=stakes_total, bought=bought_total))
    return totals, lines


def _sheet_row(k: int, row: Any, seen: set[str], coin: int, errors: ErrorCollector
               ) -> dict[str, Any] | None:
    where = f"sheet.players[{k}]"
    if not isinstance(row, dict):
        errors.add(None, where, "not_an_object", f"{where} must be an object")
        return None
    ok = True
    for key in row:
        if key not in ("player", "name", "bought", "money"):
            errors.add(None, f"{where}.{key}", "unknown_field",
                       f"unknown field {key!r} in a sheet row")
            ok = False
    player = row.get("player")
    if not isinstance(player, str) or not player:
        errors.add(None, f"{where}.player", "invalid_player",
                   f"player must be a non-empty string (start number), got {player!r}")
        ok = False
    elif player in seen:
        errors.add(None, f"{where}.player", "duplicate_player",
                   f"player {player} is on the sheet twice", player=player)
        ok = False
    else:
        seen.add(player)
    name = row.get("name")
    if name is not None and not isinstance(name, str):
        errors.add(None, f"{where}.name", "invalid_name", "name must be a string")
        ok = False
    bought = row.get("bought", 0)
    if not _is_int(bought):
        errors.add(None, f"{where}.bought", "not_an_integer",
                   f"bought must be a whole number of haléř, got {bought!r}")
        ok = False
    elif bought < 0:
        errors.add(None, f"{where}.bought", "negative_top_up",
                   f"bought cannot be negative, got {bought}")
        ok = False
    elif bought % TOP_UP_STEP:
        errors.add(None, f"{where}.bought", "top_up_not_in_steps",
                   f"top-ups are multiples of {english_kc(TOP_UP_STEP)}, got {english_kc(bought)}",
                   step=TOP_UP_STEP, got=bought)
        ok = False
    if "money" not in row:
        errors.add(None, f"{where}.money", "missing", "money is required")
        ok = False
    else:
        money = row["money"]
        if not _is_int(money):
            errors.add(None, f"{where}.money", "not_an_integer",
                       f"money must be a whole number of haléř, got {money!r}")
            ok = False
        elif money < 0:
            errors.add(None, f"{where}.money", "negative_money",
                       f"money cannot be negative, got {money}")
            ok = False
        elif not _in_coins(f"{where}.money", money, coin, errors):
            ok = False
    if not ok:
        return None
    out: dict[str, Any] = {"player": player}
    if name is not None:
        out["name"] = name
    out["bought"] = bought
    out["money"] = row["money"]
    return out


def _in_coins(where: str, amount: int, coin: int, errors: ErrorCollector) -> bool:
    """Whether `amount` can be laid out in coins; an error naming the field when not."""
    if amount % coin:
        errors.add(None, where, "amount_not_in_coins",
                   f"{where} must be a whole number of {english_kc(coin)} coins (the smallest coin "
                   f"of the bag), got {english_kc(amount)}", step=coin, got=amount)
        return False
    return True
