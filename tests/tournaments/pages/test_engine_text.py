"""The scoring engine's text in the reader's language (tournaments.engine_text): every line
code and error code the five rulesets can emit has a translation in Slovenian, Czech and
German, found both by reading the rulesets' source (so a new code without a translation fails
here) and by running the engines over representative scorecards; the rendering falls back to
the engine's English for what it does not know; every form of the seating engine's round
notes is translated too, and so is every form of the seating engine's refusals, its checker's
violations and the stages of a seating job (each code found by reading the seating engine's
source); and the pages show the translated breakdown, the translated error at the field, the
translated round notes and the translated reason of a failed seating job.

(Past 600 lines on purpose: every catalogue of the engines' text is held to the same source
scans and samples, which are built once here.)"""

from __future__ import annotations

import ast
import gettext
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

import scoring
from scoring import rules
from tests.tournaments.pages.support import (  # noqa: F401
    World,
    client_for,
    make_event,
    make_user,
    world_fixture,
    world_of_the_module,
)
from tournaments import engine_text
from tournaments.engine_text import (
    ERROR_CODES,
    LINE_CODES,
    SEATING_ERROR_CODES,
    VIOLATION_CODES,
    error_text,
    line_text,
    note_text,
    seating_error_text,
    stage_text,
    violation_text,
)
from tournaments.engine_text import errors as engine_errors
from tournaments.engine_text import lines as engine_lines
from tournaments.engine_text import notes as engine_notes
from tournaments.engine_text import seating_errors as engine_seating
from tournaments.models import Job, Scorecard
from tournaments.seating import SeatingInvalid, seat_round
from tournaments.seating.bounds import no_repeat_bound
from tournaments.seating.checker import check_seating
from tournaments.seating.notes import in_matchday, note, short_table
from tournaments.services import round_jobs

ROOT = Path(__file__).resolve().parents[3]
LANGS = ("sl", "cs", "de")
SOURCES = sorted((ROOT / "scoring" / "rules").rglob("*.py")) + [ROOT / "scoring" / "engine.py",
                                                               ROOT / "scoring" / "errors.py"]
CARDS = json.loads((Path(__file__).with_name("engine_text_cards.json")).read_text("utf-8"))

# Codes the source builds with an f-string, spelled out: a new such site fails the scan.
DYNAMIC_LINE_CODES = {
    'f"{kind}_{outcome}"': {f"{k}_{o}" for k in ("game", "announcement", "silent")
                            for o in ("won", "lost")},
    'f"game_{result}"': {"game_won", "game_lost"},
}
DYNAMIC_ERROR_CODES = {
    'f"{key}_not_a_player"': {"declarer_not_a_player", "partner_not_a_player",
                              "forehand_not_a_player"},
    'f"invalid_{key}"': {"invalid_table", "invalid_round"},
}


def _strings(node: ast.AST, src: str, dynamic: dict[str, set[str]]) -> set[str] | None:
    """The code(s) an expression can give: constants, both branches of `a if c else b`, the
    spelled-out f-strings; None for a plain name (resolved through assignments)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return (_strings(node.body, src, dynamic) or set()) | \
            (_strings(node.orelse, src, dynamic) or set())
    if isinstance(node, ast.JoinedStr):
        segment = ast.get_source_segment(src, node)
        assert segment in dynamic, f"unknown computed code {segment}: list it in this test"
        return dynamic[segment]
    return None


def _scan() -> tuple[set[str], set[str], set[str]]:
    """(line codes, error codes, codes assigned to a `code` variable) in the rulesets' source."""
    lines: set[str] = set()
    errors: set[str] = set()
    assigned: set[str] = set()
    for path in SOURCES:
        src = path.read_text("utf-8")
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, ast.Dict):
                keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
                if "what" in keys and "code" in keys:
                    value = node.values[keys.index("code")]
                    lines |= _strings(value, src, DYNAMIC_LINE_CODES) or set()
            elif isinstance(node, ast.Call):
                f = node.func
                name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
                args = node.args
                if name == "add" and len(args) >= 4:
                    errors |= _strings(args[2], src, DYNAMIC_ERROR_CODES) or set()
                elif name in ("_line", "pay") and len(args) >= 4:
                    lines |= _strings(args[3], src, DYNAMIC_LINE_CODES) or set()
                elif name in ("_Item", "Item") and args:
                    lines |= _strings(args[0], src, DYNAMIC_LINE_CODES) or set()
                elif name in ("_player", "player") and len(args) >= 6:
                    errors |= _strings(args[5], src, DYNAMIC_ERROR_CODES) or set()
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name) and target.id == "code":
                        assigned |= _strings(node.value, src, DYNAMIC_LINE_CODES) or set()
                    elif (isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple)
                          and any(isinstance(e, ast.Name) and e.id == "code"
                                  for e in target.elts)):
                        i = next(k for k, e in enumerate(target.elts)
                                 if isinstance(e, ast.Name) and e.id == "code")
                        assigned |= _strings(node.value.elts[i], src, DYNAMIC_LINE_CODES) or set()
    # ruleset codes ("tarok-net-2007") are class attributes named `code` too
    assigned = {c for c in assigned if "-" not in c}
    return lines, errors, assigned


def _catalogue(lang: str) -> gettext.GNUTranslations:
    with open(ROOT / "locale" / lang / "LC_MESSAGES" / "django.mo", "rb") as handle:
        return gettext.GNUTranslations(handle)


def _seating_msgids() -> list:
    """Every message of the seating engine's refusals, violations and job stages (the plural
    one apart, in PLURAL_MSGIDS)."""
    return [*(m for forms in engine_seating._ERRORS.values() for m in forms),
            *(m for forms in engine_seating._VIOLATIONS.values() for m in forms),
            *(m for code, m in engine_seating._STAGES.items()
              if code not in ("done", "sheets_done", "messages_done", "messages_failed")),
            engine_seating._MATCHDAY, engine_notes._CHECKER]


def _msgids() -> list[str]:
    """Every message of engine_text (context "engine")."""
    lazies = [*engine_lines._M.values(), *engine_errors._E.values(), *engine_notes._NOTES.values(),
              *engine_notes._SOURCES.values(),
              engine_notes._MATCHDAY, *_seating_msgids()]
    with translation.override("en"):
        return [str(lazy) for lazy in lazies]


# The plural messages of engine_text (npgettext: str() of a plural lazy string is no msgid).
PLURAL_MSGIDS = [", then %(late)s late entry", ", then %(missed)s who missed the last round",
                 "round %(round)s: %(tables)s table", "%(tables)s table, %(size)s bytes",
                 "%(sent)s message sent",
                 "%(failed)s messages could not be sent (%(sent)s sent); ask again to try them once more",
                 "%(count)s player goes straight into the main draw (a bye)",
                 "%(count)s available player went out in an earlier round",
                 "two players of one club sit at one table %(together)s time", "%(count)s player is absent",
                 "%(repeats)s pair of players meets again: no single swap of two players avoids it",
                 "%(rounds)s matchday: %(met)s of %(pairs)s pairs meet", "%(repeats)s repeat meeting",
                 "%(matchdays)s matchday: the first %(clean)s without a repeat meeting",
                 "%(repeats)s repeat meeting (at least %(floor)s unavoidable)", "no pair more than %(most)s time",
                 *(f"%(players)s players: at most %(upper)s matchday without any pair meeting twice{tail}"
                   for tail in (", and so many are possible", "; %(known)s are known to be possible", ""))]


def test_the_source_scan_finds_the_codes_and_every_one_has_a_renderer():
    lines, errors, assigned = _scan()
    # the scan sees what it should: a sample of each ruleset's codes
    assert {"game_won", "radelc", "klop_full", "trischaken_jungfrau", "cap_applied",
            "sheet_balanced", "mondfang", "premium_in_valat"} <= lines
    assert {"points_out_of_range", "resting_player_declares", "top_up_not_in_steps",
            "declarer_not_a_player", "not_a_player", "invalid_table"} <= errors
    assert not lines - LINE_CODES, sorted(lines - LINE_CODES)
    assert not errors - ERROR_CODES, sorted(errors - ERROR_CODES)
    assert not assigned - (LINE_CODES | ERROR_CODES), sorted(assigned - (LINE_CODES | ERROR_CODES))


@pytest.mark.parametrize("lang", LANGS)
def test_every_engine_message_is_translated(lang: str):
    catalogue = _catalogue(lang)._catalog  # type: ignore[attr-defined]
    missing = [m for m in _msgids() if not catalogue.get(f"engine\x04{m}", "").strip()]
    assert not missing, missing[:10]
    plural_forms = {"sl": 4, "cs": 4, "de": 2}[lang]
    for msgid in PLURAL_MSGIDS:
        for form in range(plural_forms):
            translated = catalogue.get((f"engine\x04{msgid}", form), "")
            assert translated.strip() and re.findall(r"%\(\w+\)s", translated) == \
                re.findall(r"%\(\w+\)s", msgid), (lang, msgid, form, translated)
    # same placeholders in the translation as in the English
    for msgid in _msgids():
        translated = catalogue[f"engine\x04{msgid}"]
        assert sorted(re.findall(r"%\(\w+\)s", translated)) == \
            sorted(re.findall(r"%\(\w+\)s", msgid)), (msgid, translated)


def _scored_lines() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for card in CARDS["scored"]:
        result = scoring.evaluate(card)
        for hand in result.get("hands", []):
            out.extend((card["ruleset"], line) for line in hand["lines"])
        out.extend((card["ruleset"], line) for line in result.get("lines", []) or [])
    return out


def _errors() -> list[dict[str, Any]]:
    out = []
    for card in CARDS["invalid"]:
        with pytest.raises(scoring.ScorecardInvalid) as exc:
            scoring.evaluate(card)
        out.extend(exc.value.errors)
    return out


def test_the_cards_reach_every_line_code_of_every_ruleset_family():
    lines, _errors_found, assigned = _scan()
    # a `code` variable holds line codes (zei's klop, tarok-net's items) or error codes
    static = lines | (assigned - ERROR_CODES)
    seen = {line["code"] for _ruleset, line in _scored_lines()}
    assert seen == static == set(LINE_CODES)
    assert {r for r, _line in _scored_lines()} == {r.code for r in rules.all_rulesets()}


@pytest.mark.parametrize("lang", LANGS)
def test_every_emitted_line_and_error_is_written_in_the_language(lang: str):
    with translation.override(lang):
        for ruleset, line in _scored_lines():
            text = line_text(line, ruleset)
            assert text and text != line["what"], (lang, ruleset, line)
            assert "%(" not in text and ")s" not in text, text
        codes = set()
        for error in _errors():
            codes.add(error["code"])
            text = error_text(error)
            assert text and text != error["message"], (lang, error)
            assert "%(" not in text, text
    assert len(codes) > 70


def test_english_keeps_the_meaning_and_the_names_stay_as_the_players_know_them():
    line = {"player": "A", "what": "trojka won, difference 5, kontra", "points": 30,
            "code": "game_won",
            "params": {"game": "trojka", "base": 10, "difference": 5, "points": 40,
                       "contra_level": 1, "role": "owner"}}
    with translation.override("en"):
        assert line_text(line, "tarok-net-2007") == "trojka won, difference 5, kontra"
    with translation.override("sl"):
        assert line_text(line, "tarok-net-2007") == "trojka: dobljeno, razlika 5, kontra"
    with translation.override("de"):
        assert line_text(line, "tarok-net-2007") == "trojka gewonnen, Differenz 5, kontra"
    klop = {"player": "B", "what": "klop: no trick", "points": 70, "code": "klop_no_trick",
            "params": {"contra_level": 0}}
    with translation.override("cs"):
        assert line_text(klop, "tarok-net-2007") == "klop: bez zdvihu"
    pays = {"player": "C", "what": "C pays A 12: loser, Vorhand, Bürgermeister", "points": -12,
            "code": "trischaken_loser", "params": {"to": "A", "amount": 12, "forehand": True,
                                                   "buergermeister": True}}
    with translation.override("sl"):
        assert line_text(pays) == "C plača igralcu A 12: poraženec, Vorhand, Bürgermeister"


def test_unknown_codes_and_missing_params_fall_back_to_the_english():
    with translation.override("sl"):
        assert line_text({"what": "something new", "code": "brand_new", "params": {}}) == \
            "something new"
        # a known code whose params lack what the sentence needs
        assert line_text({"what": "klop: 5 points", "code": "klop_full", "params": {}}) == \
            "klop: 5 points"
        assert line_text({"what": "radelc doubles +5", "code": "radelc"}) == "radelc doubles +5"
        assert line_text(None) == ""
        assert error_text({"hand": 0, "field": "x", "code": "brand_new",
                           "message": "new check"}) == "new check"
        assert error_text({"hand": 0, "field": "points_by_player", "code": "points_do_not_add_up",
                           "message": "must add up"}) == "must add up"
        assert error_text({"hand": 0, "field": "points", "code": "points_out_of_range",
                           "message": "points must be between 0 and 70, got 71"}) == \
            "Točke morajo biti celo število od 0 do 70."


def test_a_translation_with_a_broken_placeholder_falls_back(monkeypatch):
    monkeypatch.setitem(engine_lines._M, "klop_full", "klop: poln s %(tocke)s")
    line = {"what": "klop: full with 40 points", "code": "klop_full",
            "params": {"points": 40, "contra_level": 0}}
    assert line_text(line) == "klop: full with 40 points"


def _hand_post(card: Scorecard, number: int, **fields: Any) -> dict[str, str]:
    data = {"number": str(number), "version": str(card.version)}
    data.update({k: str(v) for k, v in fields.items()})
    return data


def test_a_slovenian_table_page_shows_the_breakdown_in_slovenian(world: World):
    client = client_for(None)
    client.cookies["django_language"] = "sl"
    page = client.get("/e/event-a/rounds/1/tables/1/").content.decode()
    # hand 3 of the table: a trojka won with 40 points (difference 5) against a kontra
    assert "trojka: dobljeno, razlika 5, kontra" in page
    assert "klop: točke" in page
    assert "trojka won" not in page and "klop: 10 points" not in page
    client.cookies["django_language"] = "en"
    english = client.get("/e/event-a/rounds/1/tables/1/").content.decode()
    assert "trojka won, difference 5, kontra" in english


def test_the_score_entry_shows_the_engine_error_at_the_field_in_slovenian(world: World):
    card = world.table2.scorecard
    resting = card.player_ids[0]
    client = client_for(world.other_player)
    client.cookies["django_language"] = "sl"
    html = client.post("/manage/e/event-a/rounds/1/tables/2/validate/",
                       _hand_post(card, 1, game="trojka", declarer=resting, points=40,
                                  resting=resting)).content.decode()
    assert re.search(r'id="err-declarer"[^>]*hx-swap-oob="true">[^<]*'
                     r"Igralec, ki počiva, te igre ne igra\.", html), html
    assert "rests this hand" not in html
    # the preview of a correct hand speaks Slovenian too
    html = client.post("/manage/e/event-a/rounds/1/tables/2/validate/",
                       _hand_post(card, 1, game="trojka", declarer=card.player_ids[1],
                                  points=44, resting=resting)).content.decode()
    assert "trojka: dobljeno, razlika 9" in html
    # a refused save puts the same text at the field of the entry form
    response = client.post("/manage/e/event-a/rounds/1/tables/2/",
                           _hand_post(card, 1, game="trojka", declarer=resting, points=40,
                                      resting=resting))
    assert response.status_code == 400
    assert "Igralec, ki počiva, te igre ne igra." in response.content.decode()
    assert card.hands.count() == 0


# Notes of every code the seating engine (tournaments.seating) writes, made by the engine's
# own note builder so that code, params and English text are the engine's.
SEATING_NOTES = [
    note("fixed_list", "the organiser's own table list"),
    short_table(3, 3, 11, 4),
    note("knockout_tie", "table {table}: {first} and {second} have the same total ({total}); the seeded "
         "draw puts {first} ahead", table=2, first="5", second="7", total=12),
    note("knockout_main_draw", "main draw of {count} players, tables in draw order (Tarok.net rules §4.1 a)",
         count=16),
    note("knockout_final_draw", "four players: this is the final"),
    note("knockout_pre_competition", "pre-competition: {count} registered, the main draw needs {target}, so "
         "{drop} must drop out; {playing} drawn players play it, two go through from each table "
         "(Tarok.net rules §4.1 a)", count=20, target=16, drop=4, playing=16),
    note("knockout_odd_drop", "table {table} has 3 players: one drops out there, because {drop} is odd",
         table=5, drop=3),
    note("knockout_byes", "{count} players go straight into the main draw (byes)", count=4),
    note("knockout_out_earlier", "{count} available players went out in an earlier round", count=2),
    note("knockout_after_pre_competition", "main draw of {count} players after the pre-competition, tables "
         "in draw order", count=8),
    note("knockout_halves", "next round from halves A and B of the winners' list (Tarok.net rules §4.1 a)"),
    note("knockout_final", "four players left: the final (Tarok.net rules §4.1 a)"),
    note("league_summary", "{rounds} matchdays: {met} of {pairs} pairs meet, {repeats} repeat meetings",
         rounds=7, met=100, pairs=120, repeats=3),
    note("league_construction", "{used} matchdays come from a construction ({source})", used=9, source="rbibd"),
    note("league_construction", "{used} matchdays come from a construction ({source})", used=7, source="rgdd"),
    note("league_construction", "{used} matchdays come from a construction ({source})", used=10,
         source="published"),
    note("league_clubs", "two players of one club sit at one table {together} times", together=3),
    in_matchday(2, note("league_absent", "{count} players are absent", count=2)),
    in_matchday(2, short_table(3, 3, 11, 4)),
    no_repeat_bound(32), no_repeat_bound(14), no_repeat_bound(44),
    note("schedule_distance", "{matchdays} matchdays", matchdays=10, clean=9, repeats=16, floor=0, most=2),
    note("points_first_round", "round 1: the players are drawn into tables (Tarok.net rules §4.1 b)"),
    note("points_order", "tables by points", late=0, missed=0),
    note("points_order", "tables by points", late=2, missed=1),
    note("random_draw", "the tables are drawn at random, as the Tarockcup rules say (“a random generator decides”)"),
    note("random_swapped", "players were swapped after the draw to avoid meeting earlier opponents"),
    note("random_repeats", "{repeats} pairs of players meet again: no single swap of two players avoids it",
         repeats=3),
]
SEATING_SOURCES = sorted((ROOT / "tournaments" / "seating").glob("*.py"))


def _seating_note_codes() -> set[str]:
    """Every code the seating engine's sources pass to `note(...)` (first argument)."""
    codes = set()
    for path in SEATING_SOURCES:
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "note" and node.args:
                first = node.args[0]
                assert isinstance(first, ast.Constant), f"{path.name}: a note code must be a literal"
                codes.add(first.value)
    return codes


def test_every_seating_note_code_has_a_message_in_every_language():
    codes = _seating_note_codes()
    assert {"short_table", "knockout_halves", "league_summary", "no_repeat_bound", "random_draw"} <= codes
    assert codes <= engine_text.NOTE_CODES, sorted(codes - engine_text.NOTE_CODES)
    # each code appears among the sample notes, so the test below renders every one
    assert codes == {n["code"] for n in SEATING_NOTES}
    for lang in LANGS:
        catalogue = _catalogue(lang)._catalog  # type: ignore[attr-defined]
        with translation.override("en"):
            wanted = [str(m) for m in (*engine_notes._NOTES.values(), *engine_notes._SOURCES.values())]
        missing = [m for m in wanted if not catalogue.get(f"engine\x04{m}", "").strip()]
        assert not missing, (lang, missing)
        # A note about a number of things has the language's form for each number.
        for code, message in engine_notes._COUNTED.items():
            name = "together" if code == "league_clubs" else "repeats" if code == "random_repeats" else "count"
            for number in (1, 2, 3, 5, 10):
                with translation.override("en"):
                    english = message % {name: number}
                with translation.override(lang):
                    translated = message % {name: number}
                assert translated != english and str(number) in translated, (lang, code, number)
        # The field's bound says "matchday" or "matchdays" by its number: every form is there.
        values = {"players": 12, "known": 4}
        for message in engine_notes._BOUND.values():
            for upper in (1, 2, 3, 5, 10):
                with translation.override("en"):
                    english = message % {**values, "upper": upper}
                with translation.override(lang):
                    assert message % {**values, "upper": upper} != english, (lang, upper, english)


@pytest.mark.parametrize("lang", LANGS)
def test_every_seating_note_is_written_in_the_language(lang: str):
    with translation.override("en"):
        assert [note_text(n) for n in SEATING_NOTES] == [n["text"] for n in SEATING_NOTES]
    with translation.override(lang):
        for item in SEATING_NOTES:
            text = note_text(item)
            assert text != item["text"] and "%(" not in text and "{" not in text, (lang, item, text)
            for value in item["params"].values():
                if isinstance(value, int) and value > 1 and item["code"] != "league_construction":
                    assert str(value) in text, (lang, item, text)
    # A note of several numbers counts each in its own form.
    distance = note("schedule_distance", "x", matchdays=10, clean=1, repeats=1, floor=0, most=2)
    summary = note("league_summary", "x", rounds=1, met=6, pairs=6, repeats=2)
    with translation.override("de"):
        assert note_text(distance) == ("10 Spieltage: die ersten 1 ohne wiederholte Begegnung; 1 wiederholte "
                                       "Begegnung (mindestens 0 unvermeidlich), kein Paar öfter als 2-mal")
        assert note_text(summary) == ("1 Spieltag: 6 von 6 Paaren treffen sich, 2 wiederholte Begegnungen")
    with translation.override("sl"):
        # One of a number of things is one, in both the engine's English and the language.
        absent = [note("league_absent", "{count} player is absent", count=n) for n in (1, 2, 5)]
        assert [note_text(n) for n in absent] == ["1 igralec je odsoten", "2 igralca sta odsotna",
                                                  "5 igralcev je odsotnih"]
        assert note_text(note("points_order", "x", late=2, missed=0)) == \
            "mize po točkah: najprej tisti, ki so igrali zadnji krog (miza 1 = največ točk), " \
            "nato 2 pozni prijavi"
        # a round stored before notes had codes is shown as it was written
        old = "9 matchdays come from the Hermitian unital (a resolvable 2-(28,4,1) design)"
        assert note_text(old) == old
        # a code not known here shows the engine's English
        assert note_text({"code": "brand_new", "params": {}, "text": "a brand new kind of note"}) == \
            "a brand new kind of note"


def test_the_round_page_shows_the_seating_notes_in_slovenian(world: World):
    assert "round 1: the players are drawn into tables (Tarok.net rules §4.1 b)" in [n["text"] for n in world.round.notes]
    client = client_for(world.organiser)
    client.cookies["django_language"] = "sl"
    page = client.get("/manage/e/event-a/rounds/1/").content.decode()
    assert "1. krog: igralci so izžrebani za mize (pravila Tarok.net §4.1 b)" in page
    assert "the players are drawn into tables" not in page


# -- the seating engine's refusals, its checker's violations and the seating job's stages -------

def _seating_refusal_codes() -> tuple[set[str], set[str]]:
    """(error codes, violation codes) the seating engine's sources can give: the code passed to
    `ErrorCollector.add` / `refuse` (second argument) and to the checker's `_violation` (first).
    A code must be a literal, and no error is written as a dict literal the scan cannot see."""
    errors: set[str] = set()
    violations: set[str] = set()
    for path in SEATING_SOURCES:
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            # errors.py builds what the others call with their codes
            if isinstance(node, ast.Call) and path.name != "errors.py":
                f = node.func
                name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
                if name in ("add", "refuse") and len(node.args) >= 3:
                    code = node.args[1]
                    target = errors
                elif name == "_violation" and node.args:
                    code = node.args[0]
                    target = violations
                else:
                    continue
                assert isinstance(code, ast.Constant) and isinstance(code.value, str), \
                    f"{path.name}:{node.lineno}: a seating error code must be a literal"
                target.add(code.value)
            elif isinstance(node, ast.Dict):
                keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
                if {"code", "message"} <= keys:
                    value = node.values[[getattr(k, "value", None) for k in node.keys].index("code")]
                    assert not isinstance(value, ast.Constant), \
                        f"{path.name}:{node.lineno}: write the error with ErrorCollector.add or refuse"
    return errors, violations


def test_every_seating_error_and_violation_code_has_a_message():
    errors, violations = _seating_refusal_codes()
    # the scan sees what it should: a sample of the request's, the systems' and the checker's codes
    assert {"cannot_seat", "duplicate_player", "no_such_table", "table_overfull", "bad_hands",
            "too_few_players", "field_not_main_draw_size", "unknown_field", "bad_reference"} <= errors
    assert {"table_too_big", "not_swap_optimal", "halves_rule", "known_schedule_missed",
            "request_invalid"} <= violations
    assert not errors - SEATING_ERROR_CODES, sorted(errors - SEATING_ERROR_CODES)
    assert not violations - VIOLATION_CODES, sorted(violations - VIOLATION_CODES)
    # and the catalogue says nothing the engine never says
    assert SEATING_ERROR_CODES == errors and VIOLATION_CODES == violations


def test_the_scan_of_seating_codes_finds_a_code_without_a_message(tmp_path, monkeypatch):
    bad = tmp_path / "bad.py"
    bad.write_text('errors.add("players", "brand_new_code", "something new")\n'
                   'problems.append(_violation("another_new_code", "something else"))\n', encoding="utf-8")
    monkeypatch.setattr(f"{__name__}.SEATING_SOURCES", [bad])
    assert _seating_refusal_codes() == ({"brand_new_code"}, {"another_new_code"})
    bad.write_text('raise SeatingInvalid([{"field": "x", "code": "hidden", "message": "m"}])\n', encoding="utf-8")
    with pytest.raises(AssertionError, match="ErrorCollector.add or refuse"):
        _seating_refusal_codes()


def _sample(forms: tuple, english: str, **extra: Any) -> list[tuple[dict[str, Any], bool]]:
    """One item per form of a message, with the params that form names (and `extra`), and
    whether the form names any of them."""
    out = []
    with translation.override("en"):
        for msgid in forms:
            names = set(re.findall(r"%\((\w+)\)s", str(msgid))) - {"field"}
            out.append(({"field": "players[2]", "params": {**{n: 7 for n in names}, **extra},
                         "message": english}, bool(names)))
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_every_form_of_a_seating_refusal_is_written_in_the_language(lang: str):
    english = "THE ENGINE'S ENGLISH"
    with translation.override(lang):
        for code, forms in engine_seating._ERRORS.items():
            for item, named in _sample(forms, english):
                text = seating_error_text({"code": code, **item})
                assert text != english and "%(" not in text, (lang, code, item, text)
                assert "7" in text or not named, (lang, code, item, text)
        for code, forms in engine_seating._VIOLATIONS.items():
            for item, named in _sample(forms, english, matchday=3):
                text = violation_text({"code": code, **item})
                assert text != english and "%(" not in text and "3" in text, (lang, code, item, text)
                assert "7" in text or not named, (lang, code, item, text)
        for code in engine_seating.STAGE_CODES:
            item = {"code": code, "message": english,
                    "params": {"round": 2, "tables": 3, "size": 4096, "error": "x", "sent": 2, "failed": 1,
                               "errors": [{"code": "no_players", "params": {}, "message": "x"}]}}
            assert stage_text(item, english) not in ("", english), (lang, code)


def test_real_seating_refusals_in_slovenian_and_the_english_as_the_engine_wrote_it():
    def refused(request: dict[str, Any]) -> list[dict[str, Any]]:
        with pytest.raises(SeatingInvalid) as exc:
            seat_round(request)
        return exc.value.errors

    five = refused({"system": "random", "round": 1, "seed": 1, "players": [{"id": str(i)} for i in range(5)]})
    fixed = refused({"system": "fixed", "round": 1, "players": [{"id": p} for p in "abcdef"],
                     "tables": [["a", "b", "c", "x"], ["a", "d", "e"]]})
    with translation.override("en"):
        assert [seating_error_text(e) for e in five] == \
            ["5 players cannot sit at tables of 3 to 4: 2 tables would need at least 6"]
    with translation.override("sl"):
        assert [seating_error_text(e) for e in five] == [
            "igralcev (5) ni mogoče razporediti za mize po 3 do 4: število miz 2 bi zahtevalo "
            "vsaj 6 igralcev"]
        assert [seating_error_text(e) for e in fixed] == [
            "igralec x za mizo 1 ni med razpoložljivimi igralci", "igralec a sedi za mizo 1 in za mizo 2",
            "igralec f je razpoložljiv, a nima mize"]
        # a code not known here, and params that fit no form, show the engine's English
        assert seating_error_text({"code": "brand_new", "params": {}, "message": "new"}) == "new"
        assert seating_error_text({"code": "no_such_table", "params": {"table": 2}, "message": "old"}) == "old"
    # the checker: a league matchday's violation is said with its matchday
    league = {"system": "league", "rounds": 1, "seed": 1, "players": [{"id": str(i)} for i in range(8)]}
    violations = check_seating(league, {"rounds": [[["0", "1", "2", "3", "4"], ["5", "6", "7"]]],
                                        "repeat_pairs": 0, "byes": [], "eliminated": [], "notes": []})
    with translation.override("de"):
        assert "Spieltag 1: Tisch 1 hat 5 Spieler, mehr als 4" in [violation_text(v) for v in violations]


@pytest.mark.django_db
def test_a_failed_seating_job_shows_its_reason_in_slovenian(django_capture_on_commit_callbacks):
    organiser = make_user("seating-refused")
    event = make_event(organiser, slug="five", players=5, seating_system="random")
    with django_capture_on_commit_callbacks(execute=True):
        job = round_jobs.round_generation_queue(event=event, actor=organiser)
    job.refresh_from_db()
    # the worker has no request language: the job keeps the engine's English, code and params
    assert job.status == Job.Status.FAILED
    assert job.message == ("the seating was refused: 5 players cannot sit at tables of 3 to 4: "
                           "2 tables would need at least 6")
    assert job.result["stage"]["code"] == "seating_refused"
    assert job.result["stage"]["params"]["errors"][0]["params"]["count"] == 5
    slovenian = ("razporejanje je bilo zavrnjeno: igralcev (5) ni mogoče razporediti za mize po 3 do "
                 "4: število miz 2 bi zahtevalo vsaj 6 igralcev")
    client = client_for(organiser)
    client.cookies["django_language"] = "sl"
    page = client.get(f"/manage/e/five/jobs/{job.pk}/").content.decode()
    assert slovenian in page and "cannot sit" not in page
    status = client.get(f"/manage/e/five/jobs/{job.pk}/status/").content.decode()
    assert slovenian in status
    answer = client.get(f"/api/v1/jobs/{job.pk}/", HTTP_ACCEPT_LANGUAGE="sl")
    assert answer.status_code == 200 and answer.json()["message"] == slovenian
    assert answer.json()["result"]["stage"]["code"] == "seating_refused"
    client.cookies["django_language"] = "en"
    assert job.message in client.get(f"/manage/e/five/jobs/{job.pk}/").content.decode()
    # asked again, the job is queued afresh: its old reason is not said as if it were new
    Job.objects.filter(pk=job.pk).update(message="the task queue is unavailable")
    job.refresh_from_db()
    client.cookies["django_language"] = "sl"
    assert "the task queue is unavailable" in client.get(f"/manage/e/five/jobs/{job.pk}/status/").content.decode()


def test_the_stages_of_a_seating_job_and_the_checker_notes_in_the_language():
    building = engine_seating.stage("building_request", "building the seating request for round 3", round=3)
    done = engine_seating.stage("done", "round 2: 5 tables", round=2, tables=5)
    with translation.override("sl"):
        assert stage_text(building, building["message"]) == "pripravljanje zahteve za razporejanje 3. kroga"
        assert stage_text(done, done["message"]) == "2. krog: 5 miz"
        # a stage that is no longer the job's message is not said
        assert stage_text(building, "something else") == "something else"
        checker = {"code": "checker", "params": {"violation": "points_order", "player": "5", "table": 2,
                                                 "other": "3"},
                   "text": "checker: 5 at table 2 ranks ahead of 3 at an earlier table (...)"}
        assert note_text(checker) == \
            "preverjanje: igralec 5 za mizo 2 je na lestvici pred igralcem 3, ki sedi za mizo z nižjo številko"
        # a round swapped before the checker's notes had codes keeps its plain string
        assert note_text("checker: 5 at table 2 ranks ahead") == "checker: 5 at table 2 ranks ahead"
        assert note_text({**checker, "params": {"violation": "brand_new"}}) == checker["text"]
    with translation.override("cs"):
        assert stage_text(done, done["message"]) == "2. kolo: 5 stolů"


def test_the_contract_lists_every_error_code_the_engine_gives():
    """docs/contracts/scorecard.md (Error codes) is the one list of codes a client meets
    (issue #34): every code the rulesets' source gives is in it, and it lists no code the
    engine cannot give."""
    contract = (Path(__file__).resolve().parents[3] / "docs/contracts/scorecard.md").read_text("utf-8")
    section = contract.split("### Error codes", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `([a-z_]+)` \|", section, re.M))
    _lines, errors, _assigned = _scan()
    assert errors and not errors - listed, sorted(errors - listed)
    assert not listed - errors - set(engine_errors._E), sorted(listed - errors - set(engine_errors._E))


def test_a_refusal_names_its_field_in_words_in_every_language():
    """Issue #33: "points_by_player je obvezno." named the field by its code; the refusal
    names it in words, quoted as the language quotes, in English too."""
    error = {"hand": 2, "field": "hands[2].points_by_player", "code": "missing",
             "message": "points_by_player is required"}
    expected = {"en": "“points of each player” is required", "sl": "»točke posameznih igralcev« je obvezno.",
                "cs": "„body jednotlivých hráčů“", "de": "„Punkte jedes Spielers“"}
    for lang, words in expected.items():
        with translation.override(lang):
            text = error_text(error)
        assert words in text and "points_by_player" not in text, (lang, text)
    with translation.override("en"):  # the engine's own words where no field is named
        assert error_text({"hand": 0, "field": "points", "code": "points_out_of_range",
                           "message": "points must be between 0 and 70, got 71"}) == \
            "points must be between 0 and 70, got 71"
