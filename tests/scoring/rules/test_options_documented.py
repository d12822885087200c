"""Every option of the rulesets of seeds 001, 003 and 004 is documented (issue #34): its
ruleset's docs page has a row in the "Options" table naming the option, its default and
every choice, with a quoted clause; and every choice is accepted by `scoring.evaluate`."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from scoring import evaluate
from scoring.rules import get

ROOT = Path(__file__).resolve().parents[3]
RULESETS = ("steirischer-tarockcup-2017", "slovenski-tarok-zei", "gp-vysociny-2004")


def options_rows(ruleset) -> dict[str, list[str]]:
    """option name -> the cells of its row in the page's "## Options" table."""
    page = (ROOT / ruleset.docs).read_text(encoding="utf-8")
    section = page.split("\n## Options", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        match = re.fullmatch(r"`(\w+)`", cells[0])
        if match:
            rows[match.group(1)] = cells
    return rows


def shown(value) -> str:
    return f"`{json.dumps(value)}`".replace('"', "")


@pytest.mark.parametrize("code", RULESETS)
def test_every_option_has_a_row_with_default_choices_and_clause(code):
    ruleset = get(code)
    rows = options_rows(ruleset)
    assert set(rows) == {o.name for o in ruleset.options}
    for option in ruleset.options:
        name, default, choices, why, clause = rows[option.name]
        assert default == shown(option.default), option.name
        assert choices == ", ".join(shown(v) for v in option.values), option.name
        assert why and re.search(r'"[^"]{8,}"|\*"[^"]{8,}"\*', clause), option.name


@pytest.mark.parametrize("code", RULESETS)
def test_every_choice_of_every_option_is_accepted(code):
    ruleset = get(code)
    mode = ruleset.default_mode or next(iter(ruleset.modes))
    players = ["A", "B", "C", "D"][:ruleset.modes[mode].seats]
    for option in ruleset.options:
        for value in option.values:
            card = {"ruleset": code, "mode": mode, "players": players, "hands": [],
                    "options": {option.name: value}}
            assert evaluate(card)["options"][option.name] == value
