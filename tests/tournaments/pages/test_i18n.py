"""The pages speak Slovenian, Czech and German besides English: every UI string of the page
templates is in the catalogues, every catalogue entry is translated, the committed .mo files
match their .po files, and the language switcher changes the language of a page while the
rulesets' own terms (game names, radelci) stay as the players know them."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest

from tests.tournaments.pages.support import World, client_for, world_fixture, world_of_the_module  # noqa: F401
from tournaments.text import ruleset_text

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]
LANGS = ("sl", "cs", "de")
PAGE_TEMPLATES = [p for p in (ROOT / "templates").rglob("*.html")
                  if p.parts[len((ROOT / "templates").parts)] in ("tournaments", "registration", "base.html")]


def _entries(lang: str) -> list[tuple[str, str | None, list[str]]]:
    """(msgid, msgid_plural, translations) of a catalogue, read without polib."""
    text = (ROOT / "locale" / lang / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    out = []
    for block in text.strip().split("\n\n")[1:]:
        assert "#, fuzzy" not in block, block
        fields: dict[str, str] = {}
        key = None
        for line in block.splitlines():
            if line.startswith("#"):
                continue
            match = re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d\])?) "(.*)"$', line)
            if match:
                key = match.group(1)
                fields[key] = match.group(2)
            elif line.startswith('"') and key:
                fields[key] += line[1:-1]

        def unescape(s: str) -> str:
            escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
            return re.sub(r"\\(.)", lambda m: escapes.get(m.group(1), m.group(1)), s)

        strs = [unescape(v) for k, v in sorted(fields.items()) if k.startswith("msgstr")]
        # A message with a context (pgettext) is keyed "context\x04msgid", as in the .mo file.
        context = unescape(fields["msgctxt"]) + "\x04" if "msgctxt" in fields else ""
        out.append((context + unescape(fields["msgid"]), unescape(fields["msgid_plural"]) if "msgid_plural" in fields else None, strs))
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_every_catalogue_entry_is_translated_and_the_mo_file_is_current(lang: str):
    entries = _entries(lang)
    assert len(entries) > 300
    untranslated = [msgid for msgid, _plural, strs in entries if not all(s.strip() for s in strs)]
    assert not untranslated, untranslated[:10]
    with open(ROOT / "locale" / lang / "LC_MESSAGES" / "django.mo", "rb") as handle:
        catalogue = gettext.GNUTranslations(handle)
    for msgid, plural, strs in entries:
        if plural is None:
            assert catalogue.gettext(msgid) == strs[0], msgid
        else:
            assert catalogue.ngettext(msgid, plural, 1) in strs, msgid


@pytest.mark.parametrize("lang", LANGS)
def test_every_translation_fills_in_the_same_named_values_as_its_english(lang: str):
    """A translation that leaves out or misspells a %(name)s raises or loses the value when the
    message is filled in (msgfmt --check refuses such a catalogue too)."""
    def names(text: str) -> set[str]:
        return set(re.findall(r"%\((\w+)\)", text))

    wrong = []
    for msgid, plural, strs in _entries(lang):
        english = names(msgid.split("\x04")[-1])
        for form, text in enumerate(strs):
            if plural is None:
                expected = [english]
            elif form == 0 and lang != "sl":
                # Czech and German use their first form for 1 alone, which may say "one"
                # as the English singular does; Slovenian's first form is also 101, 201...
                expected = [english, names(plural)]
            else:
                expected = [names(plural)]
            if names(text) not in expected:
                wrong.append((msgid, form, text))
    assert not wrong, wrong[:5]


def test_every_ui_string_of_the_page_templates_is_in_the_catalogues():
    used: set[str] = set()
    for path in PAGE_TEMPLATES:
        text = path.read_text(encoding="utf-8")
        used.update(re.findall(r'{% translate "([^"]+)"', text))
        used.update(re.findall(r"{% translate '([^']+)'", text))
        for block in re.findall(r"{% blocktranslate[^%]*%}(.*?){% (?:plural|endblocktranslate)", text, re.S):
            used.add(re.sub(r"{{ (\w+) }}", r"%(\1)s", block))
    assert len(used) > 150
    for lang in LANGS:
        known = {msgid for msgid, _plural, _strs in _entries(lang)}
        missing = sorted(used - known)
        assert not missing, (lang, missing[:10])


@pytest.mark.parametrize(("lang", "words"), [
    ("sl", ["Lestvica", "Poišči svojo mizo", "Krogi"]),
    ("cs", ["Pořadí", "Najít můj stůl", "Kola"]),
    ("de", ["Rangliste", "Meinen Tisch finden", "Runden"]),
])
def test_the_language_switcher_translates_the_pages(world: World, lang: str, words: list[str]):
    client = client_for(None)
    response = client.post("/i18n/setlang/", {"language": lang, "next": "/e/event-a/"})
    assert response.status_code == 302
    page = client.get("/e/event-a/").content.decode()
    assert f'<html lang="{lang}">' in page
    for word in words:
        assert word in page
    table = client.get("/e/event-a/rounds/1/tables/1/").content.decode()
    # The rulesets' own words are not translated: trojka, klop, radelci as on the sheet.
    assert "trojka" in table and "klop" in table


def test_the_hand_form_keeps_the_game_names_in_every_language(world: World):
    client = client_for(world.other_player)
    client.cookies["django_language"] = "de"
    page = client.get("/manage/e/event-a/rounds/1/tables/2/").content.decode()
    assert "Partie 1 von 4" in page and "Vorhand" in page and "Pausiert" in page
    assert '<option value="trojka">trojka</option>' in page
    assert '<option value="1">kontra</option>' in page


def test_the_rulesets_texts_module_is_what_the_registry_writes_and_every_text_is_translated():
    """tournaments/text/ruleset_messages.py is written by `manage.py ruleset_messages` from the
    ruleset registry so that `makemessages` files every ruleset text; a ruleset that gains a
    text without the module written again would show it untranslated."""
    written = (ROOT / "tournaments" / "text" / "ruleset_messages.py").read_text(encoding="utf-8")
    assert written == ruleset_text.messages_module(), "run: manage.py ruleset_messages"
    for lang in ("sl", "cs", "de"):
        # Some texts read the same translated ("Radelci" in Slovenian): each must be an entry.
        msgids = {msgid for msgid, _plural, _strs in _entries(lang)}
        missing = [t for t in ruleset_text.registry_texts() if t not in msgids]
        assert not missing, (lang, missing[:5])
