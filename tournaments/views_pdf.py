"""The printouts over HTTP: table sheets, a whole round's sheets, filled scorecards, the seating
list and the standings as PDF. Thin: they check who may download, call the printing
selectors, renderer or services, and answer.

Who may download what (docs/printing.md):
- seating list and standings: anyone who may see the event (everyone for a public event;
  organisers and referees otherwise); a draft round's seating only officials;
- filled scorecard: the same, once the table's card is confirmed, verified or annulled;
  officials also before that, marked provisional;
- blank table sheets (one table or the whole round) and the rendering progress: only the
  event's organisers and referees (tournaments.rights.is_official), because the sheets carry
  the link to the organiser-side entry page and are handed out by the officials.
"""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments import jobs, rights, selectors
from tournaments.errors import ServiceError
from tournaments.models import Event, Job, Round
from tournaments.printing import links
from tournaments.printing import render as printing_render
from tournaments.printing import selectors as printing_selectors
from tournaments.printing import services as printing
from tournaments.printing.pdf_cache import cached_pdf


def _event(request, slug: str) -> Event:
    event = selectors.event_by_slug(slug)
    if event is None or not rights.can_view_event(request.user, event):
        raise Http404("no such event")
    return event


def _is_official(request, event: Event) -> bool:
    return rights.is_official(request.user, event)


def _require_official(request, event: Event):
    """None when the user is an organiser or referee of the event; otherwise the answer:
    the login page for an anonymous visitor, 403 for a logged-in one."""
    if _is_official(request, event):
        return None
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise PermissionDenied("only the event's organisers and referees print table sheets")


def _round(request, event: Event, number: int) -> Round:
    """The round as the user may see it: a draft exists for the officials only."""
    rnd = event.rounds.select_related("event").filter(number=number).first()
    if rnd is None or not rights.can_view_round(request.user, rnd):
        raise Http404(f"round {number} does not exist")
    return rnd


def _event_key(event: Event) -> tuple:
    # The creation time with the id: an id a deleted event had never finds its old PDFs.
    return (event.pk, int(event.created_at.timestamp() * 1_000_000))


def _pdf(pdf: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def _errors(exc: ServiceError) -> JsonResponse:
    return JsonResponse({"errors": exc.errors}, status=exc.status)


@require_GET
def table_sheet(request, slug: str, number: int, table: int):
    event = _event(request, slug)
    if (refused := _require_official(request, event)) is not None:
        return refused
    rnd = printing_selectors.round_for_print(event, number)
    if rnd is None:
        raise Http404(f"round {number} does not exist")
    pdf = printing_render.table_sheet_pdf(rnd, table, links.base_url_of(request))
    if pdf is None:
        raise Http404(f"round {number} has no table {table}")
    return _pdf(pdf, f"{slug}-round-{number}-table-{table}-sheet.pdf")


def _job_state(event: Event, rnd: Round, job: Job | None) -> dict:
    ready = printing.current_sheets_file(rnd) is not None
    if job is not None:
        status = job.status
    else:
        status = Job.Status.DONE if ready else "not_started"
    if status == Job.Status.DONE and not ready:
        # The job finished for this version but the file is gone: the next download
        # request renders it again.
        status = "not_started"
    return {
        "job": job.pk if job is not None else None,
        "round": rnd.number,
        "seating_version": rnd.seating_version,
        "status": status,
        "progress": job.progress if job is not None else 0,
        "total": job.total if job is not None else rnd.tables.count(),
        "message": job.message if job is not None else "",
        # `url` only once the file is there, so a client can wait for it to appear.
        "url": links.round_sheets_url(event.slug, rnd.number) if ready else None,
        "download_url": links.round_sheets_url(event.slug, rnd.number),
        "status_url": links.round_sheets_status_url(event.slug, rnd.number),
    }


def _wants_json(request) -> bool:
    return (request.GET.get("format") == "json"
            or "application/json" in request.headers.get("Accept", ""))


def _progress(request, event: Event, state: dict, status: int) -> HttpResponse:
    if _wants_json(request) and not request.headers.get("HX-Request"):
        response = JsonResponse(state, status=status)
    else:
        with translation.override(event.language or "en"):
            response = render(request, "pdf/sheets_progress.html", {
                "event": event, "state": state,
                # A browser that opened sheets.pdf directly gets a whole page that reloads
                # itself; htmx gets the fragment and polls the status URL.
                "standalone": not request.headers.get("HX-Request"),
            }, status=status)
    if status == 202:
        response["Retry-After"] = "2"
    return response


@require_GET
def round_sheets(request, slug: str, number: int):
    """All tables of a round in one PDF: the stored file when it matches the present seating,
    otherwise the rendering is queued and the answer is 202 with its progress."""
    event = _event(request, slug)
    if (refused := _require_official(request, event)) is not None:
        return refused
    rnd = _round(request, event, number)
    path = printing.current_sheets_file(rnd)
    if path is None:
        try:
            job = printing.round_sheets_queue(rnd=rnd, actor=request.user,
                                              base_url=links.base_url_of(request))
        except ServiceError as exc:
            return _errors(exc)
        # Without a broker the task ran when the queueing committed: serve it right away.
        path = printing.current_sheets_file(rnd)
        if path is None:
            job.refresh_from_db()
            return _progress(request, event, _job_state(event, rnd, job), 202)
    response = FileResponse(path.open("rb"), content_type="application/pdf")
    response["Content-Disposition"] = (
        f'inline; filename="{slug}-round-{number}-sheets-v{rnd.seating_version}.pdf"')
    return response


@never_cache
@require_GET
def round_sheets_status(request, slug: str, number: int):
    """Progress of the round's sheets: JSON {status, progress, total, url, ...}, or the
    progress fragment for htmx (HX-Request)."""
    event = _event(request, slug)
    if (refused := _require_official(request, event)) is not None:
        return refused
    rnd = _round(request, event, number)
    job = printing.sheets_job(rnd)
    if job is not None:
        # A job left waiting by a broker outage is handed to the queue again when polled.
        jobs.requeue_if_waiting(job)
    state = _job_state(event, rnd, job)
    if request.headers.get("HX-Request"):
        return _progress(request, event, state, 200)
    return JsonResponse(state)


@require_GET
def seating(request, slug: str, number: int):
    event = _event(request, slug)
    shown = _round(request, event, number)
    pdf = cached_pdf("seating", (*_event_key(event), event.results_version, number, shown.seating_version),
                     lambda: printing_render.seating_pdf(
                         printing_selectors.round_for_print(event, number)))
    return _pdf(pdf, f"{slug}-round-{number}-seating.pdf")


@require_GET
def standings(request, slug: str):
    event = _event(request, slug)
    raw = request.GET.get("round")
    up_to = None
    if raw not in (None, ""):
        try:
            up_to = int(raw)
        except ValueError:
            up_to = 0
        if up_to < 1:
            return _errors(ServiceError("round must be a round number (1, 2, ...)",
                                        field="round", code="invalid"))
        _round(request, event, up_to)
    pdf = cached_pdf("standings", (*_event_key(event), event.results_version, up_to),
                     lambda: printing_render.standings_pdf(event, up_to_round=up_to))
    suffix = f"-after-round-{up_to}" if up_to else ""
    return _pdf(pdf, f"{slug}-standings{suffix}.pdf")


@require_GET
def scorecard(request, slug: str, number: int, table: int):
    event = _event(request, slug)
    _round(request, event, number)
    card = printing_selectors.filled_scorecard(event, number, table, links.base_url_of(request))
    if card is None:
        raise Http404(f"round {number} has no table {table}")
    if not card.finished and not _is_official(request, event):
        raise Http404("the table's scorecard is not confirmed yet")
    # Officials see unfinished cards marked provisional: those are rendered each time.
    pdf = (cached_pdf("scorecard", (*_event_key(event), event.results_version, number, table,
                                    links.base_url_of(request)),
                      lambda: printing_render.scorecard_pdf(card))
           if card.finished else printing_render.scorecard_pdf(card))
    return _pdf(pdf, f"{slug}-round-{number}-table-{table}-scorecard.pdf")
