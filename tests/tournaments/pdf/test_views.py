"""The PDF routes: who may download what, and the whole round's sheets rendered in the
background (Job with progress per table, stored per round and seating version, 202 while it
renders, the stored file once it is there)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from sample_data import printouts
from sample_data.factories import UserFactory
from tests.tournaments.pdf.pdftext import page_texts, reader, text
from tournaments import services, tasks
from tournaments.models import Job
from tournaments.printing import render
from tournaments.printing import services as printing
from tournaments.runtime import jobs

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


@pytest.fixture
def event():
    event = printouts.slovenian_event(slug="open", tables=4)
    printouts.seat(event, 1)
    return event


@pytest.fixture
def organiser(event):
    client = Client()
    client.force_login(event.organisers.first())
    return client


@pytest.fixture
def referee(event):
    client = Client()
    client.force_login(event.referees.first())
    return client


@pytest.fixture
def outsider():
    client = Client()
    client.force_login(UserFactory(username="someone-else"))
    return client


def _is_pdf(response) -> bytes:
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/pdf"
    return b"".join(response.streaming_content) if response.streaming else response.content


# ---------------------------------------------------------------------------------------
# Who may download what
# ---------------------------------------------------------------------------------------

def test_blank_table_sheets_are_for_the_events_officials_only(event, organiser, referee,
                                                             outsider):
    url = "/e/open/rounds/1/tables/2/sheet.pdf"
    # Round 1 is a draft: it does not exist for outsiders (issue #29, finding 6).
    assert Client().get(url).status_code == 404
    assert outsider.get(url).status_code == 404
    assert outsider.get("/e/open/rounds/1/sheets.pdf").status_code == 404
    services.round_publish(rnd=event.rounds.get(number=1), actor=event.organisers.first())
    anonymous = Client().get(url)
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    assert outsider.get(url).status_code == 403
    for official in (organiser, referee):
        pdf = _is_pdf(official.get(url))
        assert len(reader(pdf).pages) == 1
        assert "Jože Zupančič" in text(pdf)  # start number 5 sits at table 2
    assert organiser.get("/e/open/rounds/1/tables/9/sheet.pdf").status_code == 404
    assert organiser.get("/e/open/rounds/7/tables/1/sheet.pdf").status_code == 404
    assert outsider.get("/e/open/rounds/1/sheets.pdf").status_code == 403
    assert outsider.get("/e/open/rounds/1/sheets/status/").status_code == 403


def test_seating_is_public_once_the_round_is_published(event, organiser):
    url = "/e/open/rounds/1/seating.pdf"
    assert Client().get(url).status_code == 404  # a draft seating is not public
    assert "Po abecedi" in text(_is_pdf(organiser.get(url)))
    services.round_publish(rnd=event.rounds.get(number=1), actor=event.organisers.first())
    body = text(_is_pdf(Client().get(url)))
    assert "Razpored, 1. krog" in body and "Marija Horvat" not in body  # listed surname first
    assert "Horvat Marija" in body


def test_standings_are_public_and_the_round_parameter_is_checked(event):
    client = Client()
    assert "Lestvica" in text(_is_pdf(client.get("/e/open/standings.pdf")))
    # Round 1 is a draft: the standings after it do not exist for the public yet.
    assert client.get("/e/open/standings.pdf?round=1").status_code == 404
    services.round_publish(rnd=event.rounds.get(number=1), actor=event.organisers.first())
    assert _is_pdf(client.get("/e/open/standings.pdf?round=1"))
    bad = client.get("/e/open/standings.pdf?round=first")
    assert bad.status_code == 400
    assert bad.json()["errors"][0]["field"] == "round"
    assert client.get("/e/open/standings.pdf?round=0").status_code == 400
    assert client.get("/e/open/standings.pdf?round=5").status_code == 404


def test_a_private_event_prints_nothing_for_the_public(event, organiser):
    services.event_update(event=event, actor=event.organisers.first(), is_public=False)
    services.round_publish(rnd=event.rounds.get(number=1), actor=event.organisers.first())
    for url in ["/e/open/standings.pdf", "/e/open/rounds/1/seating.pdf",
                "/e/open/rounds/1/tables/1/scorecard.pdf"]:
        assert Client().get(url).status_code == 404, url
    assert _is_pdf(organiser.get("/e/open/standings.pdf"))
    assert _is_pdf(organiser.get("/e/open/rounds/1/seating.pdf"))


def test_a_filled_scorecard_is_public_once_confirmed_and_provisional_for_officials(
        event, referee):
    url = "/e/open/rounds/1/tables/1/scorecard.pdf"
    assert Client().get(url).status_code == 404
    provisional = text(_is_pdf(referee.get(url)))
    assert "Začasno: še ni potrjeno." in provisional
    services.round_publish(rnd=event.rounds.get(number=1), actor=event.organisers.first())
    card = printouts.play_tri1_table(event.rounds.get(number=1).tables.get(number=1))
    body = text(_is_pdf(Client().get(url)))
    assert "POTRJEN" in body
    assert "Skupaj" in body
    for total in card.totals.values():
        assert f"{total:+d}".replace("-", "−").replace("+0", "0") in body


# ---------------------------------------------------------------------------------------
# A whole round's sheets: background rendering with progress, stored per seating version
# ---------------------------------------------------------------------------------------

def test_sheets_pdf_renders_in_the_background_and_then_serves_the_stored_file(
        event, organiser, django_capture_on_commit_callbacks, monkeypatch):
    rnd = event.rounds.get(number=1)
    with django_capture_on_commit_callbacks(execute=False) as queued:
        first = organiser.get("/e/open/rounds/1/sheets.pdf", HTTP_ACCEPT="application/json")
    assert first.status_code == 202
    state = first.json()
    job = Job.objects.get(pk=state["job"])
    assert job.key == f"render_sheets:{rnd.pk}:1"
    assert state | {"message": ""} == {
        "job": job.pk, "round": 1, "seating_version": 1, "status": "queued", "progress": 0,
        "total": 4, "message": "", "url": None,
        "download_url": "/e/open/rounds/1/sheets.pdf",
        "status_url": "/e/open/rounds/1/sheets/status/"}
    assert len(queued) == 1
    # Asking again while it is queued finds the same job and queues nothing more.
    with django_capture_on_commit_callbacks(execute=False) as again:
        assert organiser.get("/e/open/rounds/1/sheets.pdf").status_code == 202
    assert len(again) == 0 and Job.objects.filter(kind="render_sheets").count() == 1
    # htmx polls the status URL and gets the fragment.
    fragment = organiser.get("/e/open/rounds/1/sheets/status/", HTTP_HX_REQUEST="true")
    assert 'hx-get="/e/open/rounds/1/sheets/status/"' in fragment.content.decode()
    assert "0 od 4 miz" in fragment.content.decode()

    progress = []
    real_update = printing._update

    def spy(job_id, **fields):
        if "progress" in fields:
            progress.append(fields["progress"])
        real_update(job_id, **fields)

    monkeypatch.setattr(printing, "_update", spy)
    monkeypatch.setattr(render, "SHEETS_PER_DOCUMENT", 2)
    result = tasks.render_round_sheets.apply(args=[job.pk]).get()
    assert result["status"] == "done"
    assert progress == [0, 2, 4, 4]  # reset, after each batch of sheets, and the final count

    status = organiser.get("/e/open/rounds/1/sheets/status/").json()
    assert (status["status"], status["progress"], status["total"], status["url"]) == (
        "done", 4, 4, "/e/open/rounds/1/sheets.pdf")
    stored = Path(settings.MEDIA_ROOT) / "sheets" / f"round-{rnd.pk}-v1.pdf"
    assert stored.is_file()
    pdf = _is_pdf(organiser.get("/e/open/rounds/1/sheets.pdf"))
    assert pdf == stored.read_bytes()
    assert len(reader(pdf).pages) == 4
    assert Job.objects.filter(kind="render_sheets").count() == 1


@pytest.mark.django_db(transaction=True)
def test_without_a_broker_the_first_request_already_gets_the_pdf(event, organiser):
    # Autocommit as in production: the eager task runs when the queueing commits, so the
    # view finds the file and serves it at once.
    response = organiser.get("/e/open/rounds/1/sheets.pdf")
    assert len(reader(_is_pdf(response)).pages) == 4
    job = Job.objects.get(kind="render_sheets")
    assert (job.status, job.progress, job.total) == ("done", 4, 4)


def test_a_changed_seating_renders_a_new_file_and_drops_the_old_one(
        event, organiser, django_capture_on_commit_callbacks):
    rnd = event.rounds.get(number=1)
    with django_capture_on_commit_callbacks(execute=True):
        assert organiser.get("/e/open/rounds/1/sheets.pdf").status_code == 202
    before = page_texts(_is_pdf(organiser.get("/e/open/rounds/1/sheets.pdf")))
    old = printing.sheets_path(rnd.pk, 1)
    assert old.is_file()
    services.round_swap_players(rnd=rnd, first="1", second="5", actor=event.organisers.first())
    rnd.refresh_from_db()
    assert rnd.seating_version == 2 and printing.current_sheets_file(rnd) is None
    with django_capture_on_commit_callbacks(execute=True):
        assert organiser.get("/e/open/rounds/1/sheets.pdf").status_code == 202
    after = page_texts(_is_pdf(organiser.get("/e/open/rounds/1/sheets.pdf")))
    assert printing.sheets_path(rnd.pk, 2).is_file() and not old.exists()
    assert Job.objects.filter(key=f"render_sheets:{rnd.pk}:2", status="done").exists()
    # Janez Novak (1) and Jože Zupančič (5) changed places between tables 1 and 2.
    assert "Janez Novak" in before[0] and "Jože Zupančič" in before[1]
    assert "Janez Novak" in after[1] and "Jože Zupančič" in after[0]
    assert "Janez Novak" not in after[0]


def test_a_job_queued_before_the_seating_changed_fails_and_the_next_request_renders_anew(
        event, organiser, django_capture_on_commit_callbacks):
    rnd = event.rounds.get(number=1)
    with django_capture_on_commit_callbacks(execute=False):
        job_id = organiser.get("/e/open/rounds/1/sheets.pdf", HTTP_ACCEPT="application/json"
                               ).json()["job"]
    services.round_swap_players(rnd=rnd, first="1", second="5", actor=event.organisers.first())
    stale = printing.round_sheets_render(job_id)
    assert stale.status == "failed" and "seating changed" in stale.message
    assert not any(Path(settings.MEDIA_ROOT, "sheets").glob("*.pdf"))
    # Stored in English with its code; each reader reads it in his language.
    with translation.override("sl"):
        assert jobs.job_message(stale) == ("razpored se je spremenil, potem ko so bili listi "
                                           "naročeni; naročite jih znova")
    with django_capture_on_commit_callbacks(execute=True):
        assert organiser.get("/e/open/rounds/1/sheets.pdf").status_code == 202
    assert Job.objects.get(key=f"render_sheets:{rnd.pk}:2").status == "done"
    assert _is_pdf(organiser.get("/e/open/rounds/1/sheets.pdf"))


def test_a_failed_rendering_is_queued_again_by_the_next_request(
        event, organiser, django_capture_on_commit_callbacks):
    rnd = event.rounds.get(number=1)
    with django_capture_on_commit_callbacks(execute=False):
        job_id = organiser.get("/e/open/rounds/1/sheets.pdf", HTTP_ACCEPT="application/json"
                               ).json()["job"]
    Job.objects.filter(pk=job_id).update(status="failed", message="rendering failed: boom")
    failed = organiser.get("/e/open/rounds/1/sheets/status/").json()
    assert failed["status"] == "failed" and "boom" in failed["message"]
    # A failure the job said itself is read in the page's language, its error as it was.
    printing._failed(job_id, RuntimeError("boom"))
    fragment = organiser.get("/e/open/rounds/1/sheets/status/", HTTP_HX_REQUEST="true")
    assert "<p class=\"error\">Izdelava ni uspela: boom</p>" in fragment.content.decode()
    with django_capture_on_commit_callbacks(execute=False) as queued:
        retry = organiser.get("/e/open/rounds/1/sheets.pdf", HTTP_ACCEPT="application/json")
    assert retry.status_code == 202 and retry.json()["status"] == "queued"
    assert retry.json()["job"] == job_id and len(queued) == 1
    printing.round_sheets_render(job_id)
    assert printing.current_sheets_file(rnd) is not None


def test_rendering_twice_is_harmless(event):
    rnd = event.rounds.get(number=1)
    job = printing.round_sheets_queue(rnd=rnd, actor=None, base_url="https://x.example.org")
    first = printing.round_sheets_render(job.pk)
    stored = printing.current_sheets_file(rnd).read_bytes()
    second = printing.round_sheets_render(job.pk)
    assert first.status == second.status == "done"
    assert printing.current_sheets_file(rnd).read_bytes() == stored
    assert second.attempts == first.attempts  # the second run found the file and stopped


def test_a_browser_opening_sheets_pdf_gets_a_page_that_reloads_itself(
        event, organiser, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        page = organiser.get("/e/open/rounds/1/sheets.pdf", HTTP_ACCEPT="text/html")
    assert page.status_code == 202 and page["Retry-After"] == "2"
    html = page.content.decode()
    assert '<meta http-equiv="refresh" content="2">' in html
    assert "<progress max=\"4\" value=\"0\">" in html


# ---------------------------------------------------------------------------------------
# Rendered once per version (#18)
# ---------------------------------------------------------------------------------------

def test_public_pdfs_are_rendered_once_per_version(event, organiser, monkeypatch):
    from tournaments.printing import render as printing_render

    calls: list[str] = []
    for name in ("seating_pdf", "standings_pdf"):
        original = getattr(printing_render, name)
        monkeypatch.setattr(printing_render, name,
                            lambda *a, _o=original, _n=name, **k: (calls.append(_n), _o(*a, **k))[1])
    actor = event.organisers.first()
    services.round_publish(rnd=event.rounds.get(number=1), actor=actor)
    phones = [Client() for _ in range(3)]
    seating = [_is_pdf(phone.get("/e/open/rounds/1/seating.pdf")) for phone in phones]
    standings = [_is_pdf(phone.get("/e/open/standings.pdf")) for phone in phones]
    assert calls == ["seating_pdf", "standings_pdf"]
    assert seating[0] == seating[1] == seating[2] and standings[0] == standings[2]
    # Any audited change of the event (here a withdrawal) is a new results version: the next
    # request renders the standings anew. The seating list shows who sits where, which a
    # withdrawal does not change: it stays.
    registration = event.registrations.order_by("start_number").last()
    services.registration_set_status(registration=registration, status="withdrawn", actor=actor)
    _is_pdf(Client().get("/e/open/rounds/1/seating.pdf"))
    _is_pdf(Client().get("/e/open/standings.pdf"))
    assert calls == ["seating_pdf", "standings_pdf", "standings_pdf"]
    # A player's corrected name is a new seating list.
    player = event.registrations.get(start_number=1).player
    player.last_name = "Novakovič"
    player.save()
    renamed = _is_pdf(Client().get("/e/open/rounds/1/seating.pdf"))
    assert calls == ["seating_pdf", "standings_pdf", "standings_pdf", "seating_pdf"]
    assert "Novakovič" in text(renamed) and "Novakovič" not in text(seating[0])
