"""tournaments.domain.rulesets, the bridge from events to the scoring registry: the penalty
amount the referee's adjustment is offered comes from the rulebook only where the rulebook
fixes it in points."""

from __future__ import annotations

from tournaments.domain.rulesets import penalty_points


def test_the_proposed_penalty_amount_comes_from_the_rulebook_only_where_it_is_fixed_points():
    assert penalty_points("tarok-net-2007", "mond") == -21
    assert penalty_points("tarok-net-2007", "renons") == 0  # depends on the hand
    assert penalty_points("gp-vysociny-2004", "misdeal") == 0  # money: paid, not scored
    assert penalty_points("no-such-ruleset", "mond") == 0
