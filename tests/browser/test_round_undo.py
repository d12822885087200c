"""Undo on a round from the organiser's browser (issue #33): a closed round opened again with a
reason, and a published round taken back to a draft with a reason; each asks first and leaves
its entry, in words, in the event's history."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.browser.helpers import PASSWORD, login
from tests.tournaments.pages.support import make_event, play_table
from tournaments import services
from tournaments.models import AuditEntry, Round
from tournaments.services import round_jobs

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _seat(event, organiser, number: int) -> Round:
    job = round_jobs.round_generation_queue(event=event, actor=organiser)
    job.refresh_from_db()
    if job.status != job.Status.DONE:
        round_jobs.round_generate(job.pk)
    return event.rounds.get(number=number)


def test_an_organiser_opens_a_closed_round_again_and_takes_a_published_one_back(live_server, new_page):
    users = get_user_model()
    organiser = users.objects.create_user("org-undo", password=PASSWORD)
    referee = users.objects.create_user("ref-undo", password=PASSWORD)
    event = make_event(organiser, slug="undo-day", referee=referee, planned_rounds=3)
    first = _seat(event, organiser, 1)
    services.round_publish(rnd=first, actor=organiser)
    for table in first.tables.all():
        play_table(table, organiser, referee, 4)
    round_jobs.round_close(rnd=first, actor=organiser)

    base = live_server.url
    page = new_page(390, 844)
    login(page, base, "org-undo")
    page.goto(f"{base}/manage/e/{event.slug}/rounds/1/")
    page.locator("details.undo summary").click()
    page.fill("#undo-reason", "table 2 wrote a hand on the wrong line")
    with page.expect_navigation():
        page.locator("details.undo button[type=submit]").click()
    assert page.confirms[-1] == "Open round 1 again?"
    assert "The round is open again" in page.content()
    first.refresh_from_db()
    assert first.status in (Round.Status.PUBLISHED, Round.Status.PLAYING)
    assert AuditEntry.objects.get(action="round.reopen").reason == "table 2 wrote a hand on the wrong line"

    round_jobs.round_close(rnd=first, actor=organiser)
    second = _seat(event, organiser, 2)
    services.round_publish(rnd=second, actor=organiser)
    page.goto(f"{base}/manage/e/{event.slug}/rounds/2/")
    page.locator("details.undo summary").click()
    page.fill("#undo-reason", "published before the late entries were in")
    with page.expect_navigation():
        page.locator("details.undo button[type=submit]").click()
    assert page.confirms[-1] == "Take round 2 back to a draft?"
    assert "The round is a draft again" in page.content()
    second.refresh_from_db()
    assert second.status == Round.Status.DRAFT

    page.goto(f"{base}/referee/e/{event.slug}/history/")
    history = page.inner_text("main")
    assert "round opened again" in history and "round taken back to a draft" in history
    assert "published before the late entries were in" in history
