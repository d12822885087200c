"""The registry of rulesets: every ruleset code maps to one `Ruleset` instance, and the rest
of the product asks the registry (never a family package) whatever it needs to know about a
ruleset: its declarations (`get(code)`), the default ruleset, the cup series.

Pure Python: nothing under `scoring.rules` may import Django, DRF or Celery (checked by
import-linter in `make lint`). Family packages (`scoring/rules/<family>/`) register their
rulesets when imported; the first lookup imports all of them (lazily, so that a family can
import this package).
"""

from __future__ import annotations

from scoring.rules.base import (
    Announcement,
    Card,
    Choice,
    ContraLevel,
    CupPoints,
    Game,
    Mode,
    Money,
    Option,
    Penalty,
    Ruleset,
)

_REGISTRY: dict[str, Ruleset] = {}

# The ruleset a new league starts with and by whose words a breakdown line of unknown origin
# is read: the Tarok.net rules of 2007 (seed 000), whose §4.2 the leagues follow.
DEFAULT_CODE = "tarok-net-2007"


def register(ruleset: Ruleset) -> Ruleset:
    if not ruleset.code:
        raise ValueError("a ruleset needs a code")
    if ruleset.code in _REGISTRY:
        raise ValueError(f"ruleset {ruleset.code} registered twice")
    if ruleset.cup_points is not None and any(r.cup_points is not None
                                              for r in _REGISTRY.values()):
        # cups rank across events, not per ruleset: one table of cup points for the registry
        raise ValueError(f"ruleset {ruleset.code}: only one ruleset may declare cup points")
    if not ruleset.family:
        raise ValueError(f"ruleset {ruleset.code} names no game family")
    _REGISTRY[ruleset.code] = ruleset
    return ruleset


def get(code: str) -> Ruleset | None:
    _load_families()
    return _REGISTRY.get(code)


def all_rulesets() -> list[Ruleset]:
    _load_families()
    return [_REGISTRY[c] for c in sorted(_REGISTRY)]


def families() -> list[str]:
    """The game families of the registered rulesets, sorted (see `Ruleset.family`)."""
    _load_families()
    return sorted({r.family for r in _REGISTRY.values() if r.family})


def family_of(code: str) -> str | None:
    """The game family of a ruleset code; None for an unknown code."""
    ruleset = get(code)
    return ruleset.family or None if ruleset else None


def default() -> Ruleset:
    """The default ruleset (`DEFAULT_CODE`)."""
    _load_families()
    return _REGISTRY[DEFAULT_CODE]


def cup_points() -> CupPoints | None:
    """The cup series' fixed points and counting rule, from the one ruleset that declares
    them (seed 001's Tarockcup); None when none does."""
    _load_families()
    return next((r.cup_points for r in all_rulesets() if r.cup_points is not None), None)


_FAMILIES = (
    "scoring.rules.tarok_net",
    "scoring.rules.tarockcup",
    "scoring.rules.gp_vysociny",
    "scoring.rules.zei",
)
_loaded = False


def _load_families() -> None:
    global _loaded
    if _loaded:
        return
    import importlib

    for name in _FAMILIES:
        importlib.import_module(name)
    _loaded = True


__all__ = [
    "DEFAULT_CODE",
    "Announcement",
    "Card",
    "Choice",
    "ContraLevel",
    "CupPoints",
    "Game",
    "Mode",
    "Money",
    "Option",
    "Penalty",
    "Ruleset",
    "all_rulesets",
    "cup_points",
    "default",
    "families",
    "family_of",
    "get",
    "register",
]
