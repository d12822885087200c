"""A refused archive speaks the reader's language (issue #17): an import through the API with
Accept-Language sl, cs or de answers every problem in that language, with the same codes,
paths and hands as in English; the checker's words come from the catalogues (the archive's
own, the scoring engine's refusals and the ruleset check); and without a language asked for
the refusal is the English it always was."""

from __future__ import annotations

import json

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from tests.tournaments.archive.test_event import delete_events, small_event, user
from tournaments import archive, services
from tournaments.models import Event, Scorecard

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.tournaments.archive.test_api")]

IMPORT = "/api/v1/archive/events/"


def _in(lang: str, msgid: str, params: dict | None = None, context: str | None = None) -> str:
    """Words as the catalogue of `lang` has them; the catalogue must know them."""
    with translation.override(lang):
        text = translation.pgettext(context, msgid) if context else translation.gettext(msgid)
    assert text != msgid, f"{lang} catalogue lacks {msgid!r}"
    return text % params if params else text


def _value(lang: str, what: str) -> str:
    """What a JSON value is called in `lang` (Czech "text" is the English word)."""
    with translation.override(lang):
        return translation.pgettext("archive value", what)


def _refused(staff, doc: dict, lang: str | None) -> list[dict]:
    client = APIClient()
    client.force_authenticate(staff)
    headers = {"HTTP_ACCEPT_LANGUAGE": lang} if lang else {}
    response = client.post(IMPORT, data=json.dumps(doc), content_type="application/json", **headers)
    assert response.status_code == 400, response.content
    return response.json()["errors"]


@pytest.fixture
def played():
    """An exported event with one scored hand (the Styrian rules) and a staff member to import
    it; the event itself is deleted again, so only the archive's own problems are refused."""
    organiser = user("boss")
    event = small_event(slug="cup-leoben", ruleset="steirischer-tarockcup-2017", actor=organiser)
    card = Scorecard.objects.get(table__round__event=event)
    services.hand_save(scorecard=card, number=1, actor=organiser, expected_version=card.version,
                       record={"game": "rufer", "declarer": "1", "partner": "3", "won": True})
    doc = archive.export_event(Event.objects.get(pk=event.pk))
    delete_events()
    return doc, user("admin", is_staff=True)


def _damaged(doc: dict) -> dict:
    doc = json.loads(json.dumps(doc))
    body = doc["event"]
    body["sponsor"] = "Gostilna"                                          # unknown key
    body["name"] = 5                                                      # wrong type
    del body["registrations"][0]["status"]                                # missing key
    body["registrations"][1]["player"]["first_name"] = 7                  # wrong type
    body["rounds"][0]["tables"][0]["seats"][3]["start_number"] = 40       # dangling reference
    hand = body["rounds"][0]["tables"][0]["scorecard"]["hands"][0]
    hand["scores"] = {k: v + 5 for k, v in hand["scores"].items()}        # edited score
    return doc


@pytest.mark.parametrize("lang", ["sl", "cs", "de"])
def test_a_damaged_archive_is_refused_in_the_language_of_the_request(played, lang):
    doc, staff = played
    damaged = _damaged(doc)
    english = _refused(staff, damaged, None)
    words = _refused(staff, damaged, lang)
    # The same problems at the same paths with the same codes; every message in other words.
    assert [(e["hand"], e["field"], e["code"]) for e in words] == \
        [(e["hand"], e["field"], e["code"]) for e in english]
    assert len(english) >= 6
    for mine, theirs in zip(words, english, strict=True):
        assert mine["message"].startswith(f"{mine['field']}: ")
        assert mine["message"] != theirs["message"], theirs
    by_field = {e["field"]: e for e in words}
    assert by_field["event.sponsor"] == {
        "hand": None, "field": "event.sponsor", "code": "unknown_key",
        "message": "event.sponsor: " + _in(lang, "is not part of this archive format version")}
    text_not_number = _in(lang, "must be %(expected)s, got %(type)s", {
        "expected": _value(lang, "text"), "type": _in(lang, "a whole number", context="archive value")})
    assert by_field["event.name"]["message"] == f"event.name: {text_not_number}"
    assert by_field["event.registrations[0].status"]["message"] == (
        "event.registrations[0].status: " + _in(lang, "is required"))
    assert by_field["event.registrations[1].player.first_name"]["message"] == (
        f"event.registrations[1].player.first_name: {text_not_number}")
    seat = "event.rounds[0].tables[0].seats[3].start_number"
    assert by_field[seat] == {
        "hand": None, "field": seat, "code": "unknown_registration",
        "message": f"{seat}: " + _in(lang, "no registration has the start number %(number)s",
                                      {"number": "40"})}
    scores = "event.rounds[0].tables[0].scorecard.hands[0].scores"
    mismatch = by_field[scores]
    assert (mismatch["hand"], mismatch["code"]) == (0, "score_mismatch")
    where = _in(lang, "round %(round)s, table %(table)s", {"round": 1, "table": 1})
    note = _in(lang, "the archive is corrupt or comes from a different version of the scoring engine")
    assert mismatch["message"].startswith(f"{scores}: {where}")
    assert mismatch["message"].endswith(note)
    assert Event.objects.count() == 0


def test_without_a_language_the_refusal_is_the_english_it_was(played):
    doc, staff = played
    by_field = {e["field"]: e for e in _refused(staff, _damaged(doc), None)}
    assert by_field["event.name"]["message"] == "event.name: must be text, got a whole number"
    assert by_field["event.rounds[0].tables[0].seats[3].start_number"]["message"] == (
        "event.rounds[0].tables[0].seats[3].start_number: no registration has the start number 40")
    message = by_field["event.rounds[0].tables[0].scorecard.hands[0].scores"]["message"]
    assert message.startswith("event.rounds[0].tables[0].scorecard.hands[0].scores: round 1, "
                              "table 1, hand 1: the stored scores differ from what the scoring "
                              "engine computes: stored {")
    assert message.endswith("; the archive is corrupt or comes from a different version of the "
                            "scoring engine")


@pytest.mark.parametrize("lang", ["sl", "de"])
def test_the_engine_and_the_header_refuse_in_the_language_of_the_request(played, lang):
    doc, staff = played
    refused = json.loads(json.dumps(doc))
    refused["event"]["rounds"][0]["tables"][0]["scorecard"]["hands"][0]["record"]["game"] = "nonsense"
    refused["event"]["ruleset_code"] = "no-such-rules"
    english = _refused(staff, refused, None)
    words = _refused(staff, refused, lang)
    assert [(e["field"], e["code"]) for e in words] == [(e["field"], e["code"]) for e in english]
    by_field = {e["field"]: e for e in words}
    assert by_field["event.ruleset_code"] == {
        "hand": None, "field": "event.ruleset_code", "code": "invalid_ruleset",
        "message": "event.ruleset_code: " + _in(lang, "Unknown ruleset.", context="engine")}
    engine = [e for e in words if e["code"] == "engine_refuses"]
    assert engine and all(e["message"] != theirs["message"]
                          for e, theirs in zip(engine, [e for e in english if e["code"] == "engine_refuses"],
                                               strict=True))

    old = {**doc, "version": 7}
    assert _refused(staff, old, lang) == [{
        "hand": None, "field": "version", "code": "unsupported_version",
        "message": "version: " + _in(lang, "archive format version %(found)s is not supported; this "
                                           "application reads version %(version)s",
                                     {"found": "7", "version": 1})}]
    assert _refused(staff, {**doc, "kind": "season"}, lang)[0]["message"] == "kind: " + _in(
        lang, "this is an archive of a %(found)s, not of a %(kind)s",
        {"found": "'season'", "kind": "'event'"})
