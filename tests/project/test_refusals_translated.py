"""Refusals cross the boundary as codes and words in the reader's language (issue #17): a
service's refusal, raised while a request runs in Slovenian, Czech or German, reaches the page
and the API in that language with its code and field unchanged; and no refusal in the sources
of tournaments/, leagues/ or rankings/ is written as a bare English string, so none can come
back in English alone; nor is any problem the archive checker lists (tournaments.archive,
tournaments.archive.event_checks, leagues.archive, leagues.archive_cups)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from tests.tournaments.api.test_roles import CARD, E, build_world, draft_round_2, trojka
from tournaments.errors import ServiceError

ROOT = Path(__file__).resolve().parents[2]
REFUSALS = {"ServiceError", "Conflict", "NotFound", "Forbidden", "TooLarge", "TooManyLogins"}


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _english(node: ast.expr) -> bool:
    """A literal string, an f-string, or one of them formatted or added to: words that no
    catalogue sees."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):
        return _english(node.left) or (isinstance(node.op, ast.Add) and _english(node.right))
    return False


def english_refusals(paths: list[Path]) -> list[str]:
    found = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and _name(node.func) in REFUSALS and node.args
                    and _english(node.args[0])):
                found.append(f"{path.name if not path.is_relative_to(ROOT) else path.relative_to(ROOT)}:{node.lineno}")
    return found


# The archive checker lists its problems rather than raising them: `checker.add(path, code,
# message)`, `_error(path, code, message)` and dicts with a "message".
ARCHIVE_PROBLEMS = {"add", "_error"}


def _words(node: ast.expr) -> bool:
    """Like `_english`, but an f-string counts only when its own text has letters: the
    checker's f"{path}: {message}" puts a path before words already translated."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and any(c.isalpha() for c in node.value)
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(v, ast.Constant) and _words(v) for v in node.values)
    if isinstance(node, ast.BinOp):
        return _words(node.left) or (isinstance(node.op, ast.Add) and _words(node.right))
    return False


def english_archive_problems(paths: list[Path]) -> list[str]:
    found = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            messages: list[ast.expr] = []
            if isinstance(node, ast.Call) and _name(node.func) in ARCHIVE_PROBLEMS:
                messages = node.args[2:3] + [k.value for k in node.keywords if k.arg == "message"]
            elif isinstance(node, ast.Dict):
                messages = [v for k, v in zip(node.keys, node.values, strict=True)
                            if isinstance(k, ast.Constant) and k.value == "message"]
            if any(_words(m) for m in messages):
                found.append(f"{path.name if not path.is_relative_to(ROOT) else path.relative_to(ROOT)}:{node.lineno}")
    return found


def _archive_sources() -> list[Path]:
    return sorted([*(ROOT / "tournaments" / "archive").glob("*.py"),
                   ROOT / "leagues" / "archive.py", ROOT / "leagues" / "archive_cups.py"])


def _sources() -> list[Path]:
    return sorted(p for app in ("tournaments", "leagues", "rankings") for p in (ROOT / app).rglob("*.py")
                  if "migrations" not in p.parts)


def test_no_refusal_is_a_bare_english_string():
    sources = _sources()
    assert len(sources) > 100
    assert english_refusals(sources) == []


def test_the_scan_finds_english_refusals(tmp_path):
    # The scan itself can fail: each of these is an English refusal.
    bad = tmp_path / "bad.py"
    bad.write_text(
        'raise ServiceError("the round is closed", field="round", code="round_closed")\n'
        'raise errors.Conflict(f"round {n} exists", code="round_exists")\n'
        'raise NotFound("no hand %s" % n)\n'
        'raise Forbidden("only " + name)\n'
        'raise ServiceError(_("translated"), code="fine")\n'
        'raise ServiceError("; ".join(exc.messages), code="fine")\n', encoding="utf-8")
    found = english_refusals([bad])
    assert [line.rsplit(":", 1)[1] for line in found] == ["1", "2", "3", "4"]


def test_no_problem_of_the_archive_checker_is_a_bare_english_string():
    sources = _archive_sources()
    assert len(sources) >= 10 and all(p.exists() for p in sources)
    assert english_archive_problems(sources) == []


def test_the_scan_finds_english_problems_of_the_archive_checker(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        'checker.add(path, "missing", "is required")\n'
        'self.add(path, "wrong_type", f"must be {what}, got {got}")\n'
        'problems.append(_error(path, "duplicate", "round %s is given twice" % n))\n'
        'add(path, "score_mismatch", message="the stored " + name + " differ")\n'
        'errors.append({"hand": None, "field": path, "code": "x", "message": f"{path}: no such hand"})\n'
        'checker.add(path, "missing", _("is required"))\n'
        'errors.append({"hand": None, "field": path, "code": "x", "message": f"{path}: {message}"})\n'
        'add(path, "engine_refuses", message)\n', encoding="utf-8")
    found = english_archive_problems([bad])
    assert sorted(int(line.rsplit(":", 1)[1]) for line in found) == [1, 2, 3, 4, 5]


# ---------------------------------------------------------------------------------------
# The request's language reaches the refusals
# ---------------------------------------------------------------------------------------

def _in(lang: str, msgid: str, params: dict | None = None) -> str:
    """A refusal's words as the catalogue of `lang` has them; the catalogue must know them."""
    with translation.override(lang):
        text = translation.gettext(msgid)
    assert text != msgid, f"{lang} catalogue lacks {msgid!r}"
    return text % params if params else text


@pytest.fixture
def world():
    return build_world()


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["sl", "cs", "de"])
def test_the_api_refuses_in_the_language_of_the_request(world, lang):
    client = world.client("organiser")

    def refused(path: str, data: dict | None = None) -> dict:
        response = client.post(E + path, data or {}, format="json", HTTP_ACCEPT_LANGUAGE=lang)
        assert response.status_code == 400, response.content
        return response.json()["errors"][0]

    assert refused("rounds/generate/") == {
        "hand": None, "field": "round", "code": "previous_round_open",
        "message": _in(lang, "close round %(previous)s before seating round %(number)s",
                       {"previous": 1, "number": 2})}
    draft_round_2(world)
    assert refused("rounds/2/start-clock/") == {
        "hand": None, "field": "round", "code": "round_not_published",
        "message": _in(lang, "publish the round before starting its clock")}
    assert refused("rounds/2/swap/", {"first": "1", "second": "99"}) == {
        "hand": None, "field": "players", "code": "not_seated",
        "message": _in(lang, "start number %(number)s is not seated in round %(round)s",
                       {"number": "99", "round": 2})}
    assert client.post(E + "rounds/2/publish/").status_code == 200
    assert refused("rounds/2/publish/")["message"] == _in(lang, "the round is already published")
    assert client.post(E + "rounds/2/start-clock/").status_code == 200
    assert refused("rounds/2/start-clock/")["message"] == _in(
        lang, "the clock of round %(number)s is already running", {"number": 2})
    assert refused("rounds/2/close/") == {
        "hand": None, "field": "tables", "code": "tables_pending",
        "message": _in(lang, "tables not yet confirmed: %(tables)s", {"tables": "1, 2"})}
    # The same refusal without a language asked for is English, as before.
    english = client.post(E + "rounds/2/close/", {}, format="json").json()["errors"][0]
    assert english["message"] == "tables not yet confirmed: 1, 2"


@pytest.mark.django_db
def test_a_stale_scorecard_is_refused_in_slovenian(world):
    client = world.client("organiser")
    assert client.put(CARD + "hands/2/", {"version": 2, "record": trojka("2", 50)},
                      format="json").status_code == 201
    response = client.put(CARD + "hands/2/", {"version": 2, "record": trojka("3", 20)},
                          format="json", HTTP_ACCEPT_LANGUAGE="sl")
    assert response.status_code == 409, response.content
    assert response.json()["errors"][0] == {
        "hand": None, "field": "version", "code": "stale_version",
        "message": _in("sl", "the scorecard changed since you read it (version %(expected)s, now "
                             "%(current)s); reload and enter the hand again",
                       {"expected": 2, "current": 3})}


@pytest.mark.django_db
def test_an_organiser_page_shows_the_refusal_in_the_cookie_language(world):
    client = Client()
    client.force_login(world.users["organiser"])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "sl"
    page = client.post("/manage/e/cup/rounds/generate/", follow=True).content.decode()
    words = _in("sl", "close round %(previous)s before seating round %(number)s",
                {"previous": 1, "number": 2})
    assert words in page
    assert "close round 1 before seating round 2" not in page


def test_service_refusals_are_words_of_the_active_language():
    # Built when raised (gettext, not gettext_lazy): the language of the request that ran the
    # service, kept in the exception whatever language is active when it is shown.
    with translation.override("de"):
        try:
            raise ServiceError(translation.gettext("the round is already closed"), field="round",
                               code="round_closed")
        except ServiceError as exc:
            refusal = exc
    assert refusal.errors[0]["message"] == _in("de", "the round is already closed")
    assert str(refusal) == refusal.errors[0]["message"]
