"""The printouts' own catalogue: every heading of the templates in templates/pdf/ has the
context "printout" and is listed in tournaments.printing.catalogue (so makemessages keeps it in
the printouts' catalogue), and the Slovenian, Czech and German catalogues translate every
entry."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation
from django.utils.translation.template import templatize

from tournaments.printing import selectors
from tournaments.printing.catalogue import DRAWING_LABELS, TEMPLATE_MESSAGES

TEMPLATES = Path(settings.BASE_DIR) / "templates" / "pdf"
LOCALE = Path(settings.BASE_DIR) / "tournaments" / "printing" / "locale"
CALL = re.compile(r"""(p?)gettext\(u(?:'([^']*)', u)?(['"])((?:\\.|(?!\3).)*)\3\)""")


def template_messages() -> set[tuple[str, str]]:
    """(context, message) of every translated string of the printout templates."""
    found = set()
    for path in TEMPLATES.glob("*.html"):
        for match in CALL.finditer(templatize(path.read_text(encoding="utf-8"))):
            message = match.group(4).replace("\\'", "'").replace('\\"', '"')
            found.add((match.group(2) or "", message))
    return found


def listed_messages() -> set[str]:
    with translation.override(None):
        return {str(m) for m in TEMPLATE_MESSAGES}


def test_every_template_string_is_a_printout_string_listed_in_the_catalogue():
    found = template_messages()
    assert {context for context, _ in found} == {"printout"}
    assert {message for _, message in found} == listed_messages()


@pytest.mark.parametrize("language", ["sl", "cs", "de"])
def test_every_printout_string_is_translated(language):
    catalogue = gettext.translation("django", str(LOCALE), languages=[language])
    with translation.override(None):
        python = {str(s) for s in [*selectors.CARD_STATUS.values(),
                                   *selectors.DISPUTE_STATUS.values(),
                                   *DRAWING_LABELS.values()]}
    wanted = listed_messages() | python
    missing = sorted(m for m in wanted if not catalogue._catalog.get(f"printout\x04{m}"))
    assert missing == []
    # Placeholders survive translation.
    for message in wanted:
        assert set(re.findall(r"%\(\w+\)s", message)) == set(
            re.findall(r"%\(\w+\)s", catalogue.pgettext("printout", message))), message


def test_the_printouts_catalogue_decides_their_wording():
    """A printout string reads as the printouts' catalogue says, even where the same English
    word is translated otherwise elsewhere in the UI."""
    with translation.override("cs"):
        assert translation.pgettext("printout", "Money sheet") == "Peněžní karta"
    with translation.override("de"):
        assert translation.pgettext("printout", "Sum of plus and minus") == (
            "Summe Plus und Minus")
