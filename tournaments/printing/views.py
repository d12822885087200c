"""The printouts over HTTP: table sheets, a whole round's sheets, filled scorecards, the seating
list and the standings as PDF. Thin: they check who may download, call the printing
selectors, renderer or services, and answer. A PDF rendered in the background (a round's
sheets; a large event's seating list and standings, `tournaments.printing.public_pdfs`) is
answered with its progress (202) until it is there.

Who may download what (docs/printing.md):
- seating list and standings, and their rendering progress: anyone who may see the event
  (everyone for a public event; organisers and referees otherwise); a draft round's seating
  only officials;
- filled scorecard: the same, once the table's card is confirmed, verified or annulled;
  officials also before that, marked provisional;
- blank table sheets (one table or the whole round) and the rendering progress: only the
  event's organisers and referees (tournaments.domain.rights.is_official), because the sheets carry
  the link to the organiser-side entry page and are handed out by the officials.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.cache import patch_cache_control
from django.utils.functional import lazy
from django.utils.http import http_date
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments import selectors
from tournaments.domain import limits, rights
from tournaments.errors import ServiceError
from tournaments.models import Event, Job, Round
from tournaments.printing import links, public_pdfs
from tournaments.printing import selectors as printing_selectors
from tournaments.printing import services as printing
from tournaments.printing.pdf_cache import cached_pdf
from tournaments.runtime import jobs


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


def _render():
    """The renderer, imported by the views that render a PDF in the request: a web process
    loads WeasyPrint with its first printout, not at start (tournaments.printing.base)."""
    from tournaments.printing import render

    return render


def _round(request, event: Event, number: int) -> Round:
    """The round as the user may see it: a draft exists for the officials only."""
    rnd = selectors.visible_round(request.user, event, number)
    if rnd is None:
        raise Http404(f"round {number} does not exist")
    return rnd


def _pdf(pdf: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def _errors(exc: ServiceError) -> JsonResponse:
    return JsonResponse({"errors": exc.errors}, status=exc.status)


@require_GET
def table_sheet(request, slug: str, number: int, table: int):
    event = _event(request, slug)
    # A draft round does not exist for outsiders: 404 before asking them to sign in.
    _round(request, event, number)
    if (refused := _require_official(request, event)) is not None:
        return refused
    rnd = printing_selectors.round_for_print(event, number)
    if rnd is None:
        raise Http404(f"round {number} does not exist")
    pdf = _render().table_sheet_pdf(rnd, table, links.base_url_of(request))
    if pdf is None:
        raise Http404(f"round {number} has no table {table}")
    return _pdf(pdf, f"{slug}-round-{number}-table-{table}-sheet.pdf")


_job_message = lazy(jobs.job_message, str)


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
        # Said when it is shown: the progress page in the event's language, JSON in the reader's.
        "message": _job_message(job) if job is not None else "",
        # `url` only once the file is there, so a client can wait for it to appear.
        "url": links.round_sheets_url(event.slug, rnd.number) if ready else None,
        "download_url": links.round_sheets_url(event.slug, rnd.number),
        "status_url": links.round_sheets_status_url(event.slug, rnd.number),
    }


def _wants_json(request) -> bool:
    return (request.GET.get("format") == "json"
            or "application/json" in request.headers.get("Accept", ""))


def _progress(request, event: Event, state: dict, status: int,
              template: str = "pdf/sheets_progress.html") -> HttpResponse:
    if _wants_json(request) and not request.headers.get("HX-Request"):
        response = JsonResponse(state, status=status)
    else:
        with translation.override(event.language or "en"):
            response = render(request, template, {
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
    rnd = _round(request, event, number)  # a draft is 404 to outsiders, before the sign-in
    if (refused := _require_official(request, event)) is not None:
        return refused
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
    rnd = _round(request, event, number)  # a draft is 404 to outsiders, before the sign-in
    if (refused := _require_official(request, event)) is not None:
        return refused
    job = printing.sheets_job(rnd)
    if job is not None:
        # A job left waiting by a broker outage is handed to the queue again when polled.
        jobs.requeue_if_waiting(job)
    state = _job_state(event, rnd, job)
    if request.headers.get("HX-Request"):
        return _progress(request, event, state, 200)
    return JsonResponse(state)


# What the progress page says of a public PDF's job besides its status: lazy, so the page
# says it in the event's language.
SETTLING_LABEL = gettext_lazy("Waiting for the results to settle")
RENDERING_LABEL = gettext_lazy("Rendering")


def _public_label(status: str, settling: bool):
    if settling:
        return SETTLING_LABEL
    if status == Job.Status.RUNNING:
        return RENDERING_LABEL
    return Job.Status(status).label if status in Job.Status.values else Job.Status.QUEUED.label


def _public_state(event: Event, spec: public_pdfs.PublicPdf, job: Job | None,
                  download_url: str, status_url: str) -> dict:
    ready = public_pdfs.cached(spec) is not None
    status = job.status if job is not None else (Job.Status.DONE if ready else "not_started")
    if status == Job.Status.DONE and not ready:
        status = "not_started"
    settling = public_pdfs.settling(job)
    # While the newest standings wait or render, the last ones may be had at once.
    last = None if ready else public_pdfs.last_for_visitor(spec, asked=True)
    return {
        "job": job.pk if job is not None else None,
        "kind": spec.kind,
        "round": spec.round_number,
        "status": status,
        # Waiting for the results to stop changing before it renders (the standings).
        "settling": settling,
        "status_label": _public_label(status, settling),
        "progress": 1 if ready else 0,
        "total": 1,
        # Said when it is shown: the progress page in the event's language, JSON in the reader's.
        "message": _job_message(job) if job is not None else "",
        "url": download_url if ready else None,
        "download_url": download_url,
        "status_url": status_url,
        "last_url": _asking_last(download_url) if last is not None else None,
        "last_rendered_at": timezone.localtime(last.at, event.tz) if last is not None else None,
    }


def _asking_last(download_url: str) -> str:
    """The PDF's address asking for its last rendered version (`last=1`)."""
    parts = urlsplit(download_url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "last"] + [("last", "1")]
    return urlunsplit(parts._replace(query=urlencode(query)))


class _ThenRender(HttpResponse):
    """A response that queues the newest version of its PDF once it has been sent: the WSGI
    server calls `close()` after the last byte, so the visitor does not wait for it."""

    def __init__(self, *args, after, **kwargs):
        super().__init__(*args, **kwargs)
        self._after = after

    def close(self):
        try:
            self._after()
        finally:
            super().close()


def _last_version(event: Event, spec: public_pdfs.PublicPdf, last: public_pdfs.Rendered,
                  filename: str) -> HttpResponse:
    """The last rendered version of a PDF whose newest is not rendered yet:
    marked with its time (its footer says when it was printed; `Last-Modified` and
    `X-PDF-As-Of` in the event's time zone say it to a program), and the newest rendered
    after this answer for the next visitor."""
    response = _ThenRender(last.pdf, content_type="application/pdf",
                           after=lambda: public_pdfs.queue_quietly(spec))
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Last-Modified"] = http_date(last.at.timestamp())
    response["X-PDF-As-Of"] = timezone.localtime(last.at, event.tz).strftime("%Y-%m-%d %H:%M")
    # Asked again each time: a browser would otherwise keep an old version for a while on the
    # strength of its Last-Modified (heuristic freshness) after the newest is there.
    patch_cache_control(response, no_cache=True)
    return response


def _public_pdf(request, event: Event, spec: public_pdfs.PublicPdf, filename: str,
                status_url: str) -> HttpResponse:
    """The PDF from the cache; rendered here for a small event; the last rendered version of
    the standings without a task queue, or when asked for (`?last=1`), while the newest is
    rendered after the answer; otherwise queued, and the progress (202) until the background
    rendering has put it in the cache."""
    pdf = public_pdfs.cached(spec)
    if pdf is None and public_pdfs.renders_inline(event):
        pdf = public_pdfs.render_inline(spec)
    asked = request.GET.get("last") == "1"
    if pdf is None and (last := public_pdfs.last_for_visitor(spec, asked=asked)) is not None:
        return _last_version(event, spec, last, filename)
    if pdf is None:
        job = public_pdfs.public_pdf_queue(pdf=spec, actor=request.user)
        # Without a broker the job ran when the queueing committed: serve it right away.
        pdf = public_pdfs.cached(spec)
        if pdf is None:
            job.refresh_from_db()
            state = _public_state(event, spec, job, request.get_full_path(), status_url)
            return _progress(request, event, state, 202, "tournaments/public_pdf_progress.html")
    return _pdf(pdf, filename)


def _public_status(request, event: Event, spec: public_pdfs.PublicPdf, download_url: str
                   ) -> HttpResponse:
    job = public_pdfs.pdf_job(spec)
    if job is not None:
        # A job left waiting by a broker outage, or whose worker died, is queued again.
        if jobs.is_stale(job):
            jobs.retry(job)
        else:
            jobs.requeue_if_waiting(job)
    state = _public_state(event, spec, job, download_url, request.get_full_path())
    if request.headers.get("HX-Request"):
        return _progress(request, event, state, 200, "tournaments/public_pdf_progress.html")
    return JsonResponse(state)


@require_GET
def seating(request, slug: str, number: int):
    event = _event(request, slug)
    spec = public_pdfs.seating_of(event, _round(request, event, number))
    return _public_pdf(request, event, spec, f"{slug}-round-{number}-seating.pdf",
                       reverse("pdf-seating-status", kwargs={"slug": slug, "number": number}))


@never_cache
@require_GET
def seating_status(request, slug: str, number: int):
    """Progress of a round's seating list: JSON, or the progress fragment for htmx."""
    event = _event(request, slug)
    spec = public_pdfs.seating_of(event, _round(request, event, number))
    return _public_status(request, event, spec,
                          reverse("pdf-seating", kwargs={"slug": slug, "number": number}))


def _up_to(request, event: Event) -> int | None:
    """The standings' `round` parameter: None (all rounds) or a round the user may see."""
    raw = request.GET.get("round")
    if raw in (None, ""):
        return None
    up_to = limits.whole_number(raw, low=1, high=limits.SMALL_MAX)
    if up_to is None:
        raise ServiceError(_("round must be a round number (1, 2, ...)"), field="round",
                           code="invalid")
    _round(request, event, up_to)
    return up_to


def _with_round(url: str, up_to: int | None) -> str:
    return f"{url}?round={up_to}" if up_to else url


@require_GET
def standings(request, slug: str):
    event = _event(request, slug)
    try:
        up_to = _up_to(request, event)
    except ServiceError as exc:
        return _errors(exc)
    suffix = f"-after-round-{up_to}" if up_to else ""
    return _public_pdf(request, event, public_pdfs.standings_of(event, up_to),
                       f"{slug}-standings{suffix}.pdf",
                       _with_round(reverse("pdf-standings-status", kwargs={"slug": slug}), up_to))


@never_cache
@require_GET
def standings_status(request, slug: str):
    """Progress of the standings PDF: JSON, or the progress fragment for htmx."""
    event = _event(request, slug)
    try:
        up_to = _up_to(request, event)
    except ServiceError as exc:
        return _errors(exc)
    return _public_status(request, event, public_pdfs.standings_of(event, up_to),
                          _with_round(reverse("pdf-standings", kwargs={"slug": slug}), up_to))


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
    pdf = (cached_pdf("scorecard", (*public_pdfs.event_key(event), event.results_version, number, table,
                                    links.base_url_of(request)),
                      lambda: _render().scorecard_pdf(card))
           if card.finished else _render().scorecard_pdf(card))
    return _pdf(pdf, f"{slug}-round-{number}-table-{table}-scorecard.pdf")
