"""Undo on a round (issue #33): a closed round is opened again while no later round is
published (a draft of the next one is discarded), a published round goes back to a draft
before its tables write; each asks for a reason, which the history keeps; a closed round's
page offers no new table link and leads to seating the next round."""

from __future__ import annotations

import pytest

from tests.tournaments.pages.support import (
    client_for,
    make_event,
    make_user,
    play_table,
    seat_round,
    tri1_hands,
)
from tournaments import services
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Round, TableLink
from tournaments.services import round_jobs

pytestmark = pytest.mark.django_db


@pytest.fixture
def closed(django_capture_on_commit_callbacks):
    organiser = make_user("org-undo", can_create=True)
    referee = make_user("ref-undo")
    event = make_event(organiser, slug="undo", referee=referee, planned_rounds=3)
    rnd = seat_round(event, organiser, django_capture_on_commit_callbacks)
    services.round_publish(rnd=rnd, actor=organiser)
    for table in rnd.tables.all():
        play_table(table, organiser, referee, 4)
    round_jobs.round_close(rnd=rnd, actor=organiser)
    return {"event": event, "round": rnd, "organiser": organiser, "referee": referee,
            "capture": django_capture_on_commit_callbacks}


def test_a_closed_round_is_opened_again_with_a_reason_and_closed_again(closed):
    event, rnd, organiser = closed["event"], closed["round"], closed["organiser"]
    totals = dict(event.registrations.values_list("start_number", "score"))
    assert any(totals.values())
    page = client_for(organiser)
    url = f"/manage/e/{event.slug}/rounds/1/"
    html = page.get(url).content.decode()
    assert "Open this round again" in html and "Seat round 2" in html
    assert "new link" not in html  # a closed round's links are not reissued
    # No reason: refused, nothing changes.
    page.post(url + "reopen/", {"reason": " "})
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED
    answer = page.post(url + "reopen/", {"reason": "table 2 found a mistake on its sheet"}, follow=True)
    assert "The round is open again" in answer.content.decode()
    rnd.refresh_from_db()
    assert rnd.status in (Round.Status.PUBLISHED, Round.Status.PLAYING) and rnd.closed_at is None
    # The carried totals go back to the rounds still closed (none).
    assert set(event.registrations.values_list("score", flat=True)) == {0}
    entry = AuditEntry.objects.get(action="round.reopen")
    assert entry.reason == "table 2 found a mistake on its sheet"
    history = page.get(f"/referee/e/{event.slug}/history/").content.decode()
    assert "round opened again" in history
    round_jobs.round_close(rnd=rnd, actor=organiser)
    assert dict(event.registrations.values_list("start_number", "score")) == totals


def test_a_draft_of_the_next_round_is_discarded_and_a_published_one_forbids_the_reopening(closed):
    event, organiser = closed["event"], closed["organiser"]
    second = seat_round(event, organiser, closed["capture"])
    assert second.number == 2 and second.status == Round.Status.DRAFT
    services.round_reopen(rnd=closed["round"], actor=organiser, reason="mistake")
    assert not event.rounds.filter(number=2).exists()
    assert AuditEntry.objects.get(action="round.reopen").after["drafts_discarded"] == [2]
    round_jobs.round_close(rnd=closed["round"], actor=organiser)
    second = seat_round(event, organiser, closed["capture"])
    services.round_publish(rnd=second, actor=organiser)
    with pytest.raises(ServiceError) as refused:
        services.round_reopen(rnd=closed["round"], actor=organiser, reason="too late")
    assert "round 2 is published" in str(refused.value)
    assert "Open this round again" not in client_for(organiser).get(
        f"/manage/e/{event.slug}/rounds/1/").content.decode()


def test_a_published_round_goes_back_to_a_draft_before_its_tables_write(closed):
    event, organiser = closed["event"], closed["organiser"]
    second = seat_round(event, organiser, closed["capture"])
    services.round_publish(rnd=second, actor=organiser)
    link = TableLink.objects.filter(table__round=second, revoked_at__isnull=True).first()
    page = client_for(organiser)
    url = f"/manage/e/{event.slug}/rounds/2/"
    assert "Take this round back to a draft" in page.get(url).content.decode()
    answer = page.post(url + "unpublish/", {"reason": "published the wrong seating"}, follow=True)
    assert "The round is a draft again" in answer.content.decode()
    second.refresh_from_db()
    assert second.status == Round.Status.DRAFT and second.published_at is None
    assert AuditEntry.objects.get(action="round.unpublish").reason == "published the wrong seating"
    # The players no longer see it, on the public pages or through its table links.
    assert client_for(None).get(f"/e/{event.slug}/rounds/2/").status_code == 404
    assert client_for(None).get(f"/t/{link.token}/").status_code in (404, 410)
    # Published again: the same links work.
    services.round_publish(rnd=second, actor=organiser)
    assert client_for(None).get(f"/t/{link.token}/").status_code == 200
    # Once a table has written, it can no longer be unpublished.
    card = second.tables.get(number=1).scorecard
    services.hand_save(scorecard=card, number=1, record=tri1_hands(card, 1)[0], actor=organiser,
                       expected_version=card.version)
    with pytest.raises(ServiceError) as refused:
        services.round_unpublish(rnd=second, actor=organiser, reason="too late")
    assert "started writing" in str(refused.value)
    assert "Take this round back to a draft" not in page.get(url).content.decode()


def test_only_an_organiser_undoes(closed):
    event, referee = closed["event"], closed["referee"]
    answer = client_for(referee).post(f"/manage/e/{event.slug}/rounds/1/reopen/", {"reason": "x"})
    assert answer.status_code == 403
    closed["round"].refresh_from_db()
    assert closed["round"].status == Round.Status.CLOSED


def test_the_api_undoes_as_the_pages_do(closed):
    """POST …/rounds/N/reopen/ and …/unpublish/ ask the same rules (tournaments.domain.lifecycle
    and rights) and refuse in the same words: no reason, a referee, a stranger."""
    from rest_framework.test import APIClient

    event, organiser, referee = closed["event"], closed["organiser"], closed["referee"]
    base = f"/api/v1/events/{event.slug}/rounds/1/"

    def api(user):
        client = APIClient(HTTP_ACCEPT_LANGUAGE="sl")
        if user is not None:
            client.force_authenticate(user)
        return client

    assert api(None).post(base + "reopen/", {"reason": "x"}, format="json").status_code == 401
    assert api(referee).post(base + "reopen/", {"reason": "x"}, format="json").status_code == 403
    blank = api(organiser).post(base + "reopen/", {}, format="json")
    assert blank.status_code == 400
    assert [e["field"] for e in blank.json()["errors"]] == ["reason"]
    assert "razlog" in blank.json()["errors"][0]["message"]  # the reader's language
    closed["round"].refresh_from_db()
    assert closed["round"].status == Round.Status.CLOSED
    answer = api(organiser).post(base + "reopen/", {"reason": "a sheet was wrong"}, format="json")
    assert answer.status_code == 200 and answer.json()["status"] in ("published", "playing")
    assert AuditEntry.objects.get(action="round.reopen").reason == "a sheet was wrong"
    # Open and written: it cannot go back to a draft.
    refused = api(organiser).post(base + "unpublish/", {"reason": "wrong seating"}, format="json")
    assert refused.status_code == 400 and not AuditEntry.objects.filter(action="round.unpublish").exists()
