"""The registry of rulesets: every ruleset code maps to one `Ruleset` instance.

Pure Python: nothing under `scoring.rules` may import Django, DRF or Celery (checked by
import-linter in `make lint`). Family modules register themselves when imported; the first lookup
imports all of them (lazily, so that a family module can import this package).
"""

from __future__ import annotations

from scoring.rules.base import Announcement, ContraLevel, Game, Option, Ruleset

_REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    if not ruleset.code:
        raise ValueError("a ruleset needs a code")
    if ruleset.code in _REGISTRY:
        raise ValueError(f"ruleset {ruleset.code} registered twice")
    _REGISTRY[ruleset.code] = ruleset
    return ruleset


def get(code: str) -> Ruleset | None:
    _load_families()
    return _REGISTRY.get(code)


def all_rulesets() -> list[Ruleset]:
    _load_families()
    return [_REGISTRY[c] for c in sorted(_REGISTRY)]


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
    "Announcement",
    "ContraLevel",
    "Game",
    "Option",
    "Ruleset",
    "all_rulesets",
    "get",
    "register",
]
