"""The rulesets' words for people, in the reader's language: titles, mode names, option labels,
their choices and descriptions, penalty names.

The rulesets (pure Python in scoring/) declare these texts in English. `ruleset_messages`
lists every one of them as a gettext literal, so `makemessages` files them in the catalogues;
`manage.py ruleset_messages` writes that list again from the registry, and
tests/tournaments/pages/test_i18n.py fails when it is out of date or a text is not in a catalogue.
Game, announcement and contra names stay as the players know them (trojka, pagat ultimo,
Kontra) and are not translated.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import scoring.rules

# The table forms the rulesets know, by their code, in short words.
MODE_NAMES = {
    "tri+1": gettext_lazy("TRI + 1"),
    "two": gettext_lazy("two players"),
    "three": gettext_lazy("three players"),
    "four": gettext_lazy("four players"),
}



def text(value: str) -> str:
    """A ruleset's English text in the reader's language."""
    return _(value) if value else value


def mode_name(code: str) -> str:
    """A table form's short name: "TRI + 1", "four players"."""
    return str(MODE_NAMES.get(code, code))


def mode_label(mode: dict[str, Any]) -> str:
    """A table form in words: "TRI + 1: 4 at the table, 3 play each hand"."""
    code, seats, in_hand = mode_name(mode["code"]), mode["seats"], mode["players_in_hand"]
    if seats == in_hand:
        return _("%(code)s: %(n)s players, all play every hand") % {"code": code, "n": seats}
    return _("%(code)s: %(seats)s at the table, %(playing)s play each hand") % {
        "code": code, "seats": seats, "playing": in_hand}


def title(code: str) -> str:
    """A ruleset's title in the reader's language; an unknown code (an archive of a ruleset
    this server does not have) as it is."""
    ruleset = scoring.rules.get(code) if code else None
    return text(ruleset.title) if ruleset is not None else (code or "")


def penalty_name(code: str, kind: str) -> str:
    """A penalty kind of a ruleset in words."""
    try:
        ruleset = scoring.rules.get(code)
    except (KeyError, LookupError):
        return kind
    for penalty in getattr(ruleset, "penalties", ()):
        if penalty.kind == kind:
            return text(penalty.name)
    return kind


def options_in_words(code: str, options: dict[str, Any]) -> list[tuple[str, str]]:
    """An event's chosen ruleset options as (label, choice) in the reader's language."""
    try:
        declared = {o.name: o for o in scoring.rules.get(code).options}
    except (KeyError, LookupError):
        declared = {}
    out = []
    for name, value in (options or {}).items():
        option = declared.get(name)
        if option is None:
            out.append((name.replace("_", " "), str(value)))
            continue
        choice = next((c for c in option.choices if c.value == value), None)
        out.append((text(option.label), text(choice.label) if choice else str(value)))
    return out


def registry_texts() -> list[str]:
    """Every English text the registered rulesets show to people, sorted, without repeats."""
    texts: set[str] = set()
    for ruleset in scoring.rules.all_rulesets():
        texts.add(ruleset.title)
        for option in ruleset.options:
            texts.update([option.label, option.description])
            texts.update(str(choice.label) for choice in option.choices)
        for penalty in ruleset.penalties:
            texts.add(penalty.name)
    return sorted(t for t in texts if t)


MESSAGES_MODULE_HEADER = '''"""Every text the registered rulesets show to people, as literals for `makemessages`.

Written by `manage.py ruleset_messages` from the registry; do not edit by hand.
tests/tournaments/pages/test_i18n.py fails when it is out of date.
"""

from django.utils.translation import gettext_noop

MESSAGES = (
'''


def messages_module() -> str:
    """The text of tournaments/text/ruleset_messages.py for the registry as it is now."""
    body = "".join(f"    gettext_noop({text!r}),\n" for text in registry_texts())
    return MESSAGES_MODULE_HEADER + body + ")\n"
