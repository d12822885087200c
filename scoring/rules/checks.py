"""Small validation checks shared by the ruleset families: whole numbers, player references
and per-player maps, each adding a contract error (hand, field, code, message) when wrong."""

from __future__ import annotations

from typing import Any

from scoring.errors import ErrorCollector


def is_int(value: Any) -> bool:
    """A whole number, and not a boolean (JSON true is no score)."""
    return isinstance(value, int) and not isinstance(value, bool)


def player(i: int, fname: str, value: Any, players: list[str], errors: ErrorCollector,
           code: str = "not_a_player") -> str | None:
    """The player id in `value`, or None after an error naming the field."""
    if not isinstance(value, str) or value not in players:
        errors.add(i, fname, code, f"{fname} must be one of the players {players}, got {value!r}",
                   value=value if isinstance(value, (str, int, float, bool)) else None)
        return None
    return value


def player_map(i: int, fname: str, value: Any, players: list[str], errors: ErrorCollector,
               maximum: int = 70) -> dict[str, int] | None:
    """{player: whole number 0..maximum} with every player of the card, or None after errors."""
    if not isinstance(value, dict):
        errors.add(i, fname, "not_an_object", f"{fname} must be an object {{player: number}}")
        return None
    ok = True
    for p in value:
        if p not in players:
            errors.add(i, f"{fname}.{p}", "not_a_player", f"{p!r} is not a player of this card")
            ok = False
    for p in players:
        if p not in value:
            errors.add(i, f"{fname}.{p}", "missing", f"{fname} needs a value for player {p}")
            ok = False
            continue
        v = value[p]
        if not is_int(v) or not 0 <= v <= maximum:
            errors.add(i, f"{fname}.{p}", "out_of_range",
                       f"{fname} of {p} must be a whole number 0..{maximum}, got {v!r}")
            ok = False
    return dict(value) if ok else None
