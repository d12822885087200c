"""Public, read-only pages: the event list, an event with its live standings, the standings
(and their CSV export), the seating of a round with "find my table", a table's scorecard hand
by hand, a player's history with his rank chart, and the projector screen of the hall.

What other pages share with these (finding an event a user may see, a table's sheet, the
standings' rows) is in `tournaments.pages.common`. Views only parse, call selectors or
services and render.
"""

from __future__ import annotations

import csv

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.decorators.vary import vary_on_headers

from tournaments import hooks, selectors, services
from tournaments.domain import lifecycle, rights
from tournaments.domain.standings import event_standings
from tournaments.errors import Forbidden
from tournaments.forms import is_money, score_label
from tournaments.models import Player, Round
from tournaments.pages.common import (
    LIVE_SECONDS,
    player_url_maker,
    sheet_context,
    standings_context,
    table_or_404,
    viewable_event,
)
from tournaments.runtime.spreadsheets import text_cell

PROJECTOR_SECONDS = 15


def event_list(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/event_list.html", {"events": selectors.public_events()})


def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    event = viewable_event(request, slug)
    standings = standings_context(event, user=request.user)
    player_url = player_url_maker()
    return render(request, "tournaments/event_detail.html", {
        "event": event,
        "current": selectors.current_round(event),
        # The standings read every registration already; the players list shows them.
        "players_list": [(reg, player_url(reg.player_id))
                         for reg in standings["standings"].registrations],
        # The list shows the withdrawn struck through; its count is of those who play.
        "players_count": sum(1 for reg in standings["standings"].registrations
                             if lifecycle.taking_places(reg.status)),
        "can_organise": rights.is_organiser(request.user, event),
        "can_referee": rights.is_official(request.user, event),
        "officials": rights.is_official(request.user, event),
        # While a venue's laptop holds the event, entries are made there, not here.
        "lent": (lent := lifecycle.lent_hold(event.pk)),
        "entry_open": lent is None and lifecycle.online_entry_refusal(event, timezone.now()) is None,
        **standings,
    })


def standings(request: HttpRequest, slug: str) -> HttpResponse:
    event = viewable_event(request, slug)
    return render(request, "tournaments/standings.html", {
        "event": event, "can_organise": rights.is_organiser(request.user, event),
        "officials": rights.is_official(request.user, event),
        **standings_context(event, user=request.user),
    })


def standings_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings table alone, polled by the event and standings pages."""
    event = viewable_event(request, slug)
    return render(request, "tournaments/_standings_live.html", {
        "event": event, "live_url": request.path, **standings_context(event, user=request.user),
    })


def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    event = viewable_event(request, slug)
    table = event_standings(event)
    rounds = [r.number for r in selectors.rounds_shown_to(
        event, with_drafts=rights.is_official(request.user, event))]
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-standings.csv"'
    writer = csv.writer(response)
    header = ["rank", "start_number", "first_name", "last_name", "club", "country"]
    if table.uses_points:
        header.append("table_points")
    header.append("score_haler" if table.unit == "haler" else "score")
    header += [f"round_{n}" for n in rounds]
    writer.writerow(header)
    for row in table.rows:
        player = row.registration.player
        line = [row.rank, row.start_number, text_cell(player.first_name),
                text_cell(player.last_name), text_cell(player.club), text_cell(player.country)]
        if table.uses_points:
            line.append(row.points)
        line.append(row.score)
        for n in rounds:
            points, score = row.per_round.get(n, (None, None))
            line.append("" if score is None else (points if table.uses_points else score))
        writer.writerow(line)
    return response


@vary_on_headers("HX-Request", "HX-History-Restore-Request")
def round_seating(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The seating of a round, with "find my table" by name or start number."""
    event = viewable_event(request, slug)
    rnd = selectors.round_with_seating(event, number)
    if rnd is None:
        raise Http404(_("No such round."))
    officials = rights.is_official(request.user, event)
    if rnd.status == Round.Status.DRAFT and not officials:
        raise Http404(_("This round is not published yet."))
    query = request.GET.get("q", "").strip()
    tables = list(rnd.tables.all())
    found: set[int] = set()
    found_seats: set[int] = set()
    if query:
        # Forgiving: case, diacritics and word order do not matter (tournaments.domain.search).
        matched = set(selectors.registrations_matching(event, query).values_list("pk", flat=True))
        for table in tables:
            for seat in table.seats.all():
                if seat.registration_id in matched:
                    found.add(table.pk)
                    found_seats.add(seat.pk)
        # On a phone the player's own table should be the first thing he sees.
        tables.sort(key=lambda t: (t.pk not in found, t.number))
    # htmx asks for the seating alone; a history restore needs the whole page.
    fragment = request.headers.get("HX-Request") and not request.headers.get("HX-History-Restore-Request")
    template = "tournaments/_seating.html" if fragment else "tournaments/round_seating.html"
    return render(request, template, {
        "event": event, "round": rnd, "tables": tables, "query": query, "found": found,
        "found_seats": found_seats, "live_seconds": LIVE_SECONDS,
        "rounds": list(selectors.rounds_shown_to(
            event, with_drafts=rights.is_official(request.user, event))),
        "officials": officials,
    })


def table_detail(request: HttpRequest, slug: str, number: int, table_number: int) -> HttpResponse:
    """A table's scorecard hand by hand, with the engine's breakdown of every hand."""
    event = viewable_event(request, slug)
    table = table_or_404(event, number, table_number)
    if table.round.status == Round.Status.DRAFT and not rights.is_official(request.user, event):
        raise Http404(_("This round is not published yet."))
    card = table.scorecard
    return render(request, "tournaments/table_detail.html", {
        "event": event, "round": table.round, "table": table,
        # A card still being played or checked refreshes itself, like the standings.
        "live": lifecycle.is_playable(table.round) or lifecycle.is_pending(card),
        "live_seconds": LIVE_SECONDS,
        "penalties": list(selectors.penalties_of_table(table)),
        "can_enter": rights.is_table_party(request.user, table),
        "can_referee": rights.is_official(request.user, event),
        "officials": rights.is_official(request.user, event),
        "rounds": list(selectors.rounds_shown_to(
            event, with_drafts=rights.is_official(request.user, event))),
        "score_label": score_label(event),
        **sheet_context(table, event=event),
    })


def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's events, round by round, with a chart of his rank after each round, and what
    other apps show of him (his leagues and cups). A player of whom the visitor may see
    nothing (he plays only in private events) does not exist for the visitor."""
    player = get_object_or_404(Player, pk=player_id)
    user = request.user
    # A player of private events only does not exist for outsiders (nor in the API).
    if not rights.can_view_player(user, player):
        raise Http404(_("No such player."))
    if not rights.can_view_career(user, player):
        # His name stays public in the events' standings; what he played there does not.
        return render(request, "tournaments/player_hidden.html", {"player": player})
    history = []
    for entry in selectors.player_history(player):
        event = entry["event"]
        if not rights.can_view_event(user, event):
            continue
        entry["rounds"] = [r for r in entry["rounds"] if rights.can_view_round(user, r["round"])]
        points, field = selectors.rank_history(event, entry["registration"])
        entry["chart"] = points
        entry["field"] = field
        entry["score_label"] = score_label(event)
        entry["money"] = is_money(event.ruleset_code)
        history.append(entry)
    sections = hooks.player_sections(player)
    is_me = user.is_authenticated and player.user_id == user.pk
    can_edit = rights.can_edit_player(user, player)
    return render(request, "tournaments/player_detail.html", {
        "player": player, "history": history, "is_me": is_me, "sections": sections,
        "can_edit_player": can_edit,
        "can_hide_career": is_me or can_edit,
    })


@require_POST
def player_career_visibility(request: HttpRequest, player_id: int) -> HttpResponse:
    """The player (or an organiser) hides his career page from visitors, or shows it again."""
    player = get_object_or_404(Player, pk=player_id)
    if not rights.can_view_player(request.user, player):
        raise Http404(_("No such player."))
    hidden = request.POST.get("hidden")
    if hidden not in ("0", "1"):
        return HttpResponseBadRequest(_("Say whether the career page is hidden."))
    try:
        services.player_career_hide(player=player, hidden=hidden == "1", actor=request.user)
    except Forbidden as exc:
        raise PermissionDenied(str(exc)) from exc
    messages.success(request, _("The career page is now hidden from visitors.")
                     if player.career_hidden else _("The career page is public again."))
    return redirect("player-detail", player.pk)


def after_login(request: HttpRequest) -> HttpResponse:
    """Where a login without a page to return to leads: a player seated in a round being
    played goes to his table, whoever runs events to his events, everybody else to the list."""
    user = request.user
    if not user.is_authenticated:
        return redirect("event-list")
    player = getattr(user, "player", None)
    table = selectors.current_table_of(player) if player is not None else None
    if table is not None:
        return redirect("manage-table", table.round.event.slug, table.round.number, table.number)
    if rights.can_create_events(user) or user.refereed_events.exists():
        return redirect("manage-dashboard" if rights.can_create_events(user) else "referee-dashboard")
    return redirect("event-list")


def projector(request: HttpRequest, slug: str) -> HttpResponse:
    """The hall's screen: the round clock, the seating of the current round with the tables
    still playing, and the whole field's standings; static/js/projector.js shows them a
    screenful at a time (as many rows as the screen holds) and pages on by itself."""
    event = viewable_event(request, slug)
    rnd = selectors.current_round(event)
    seated = selectors.round_with_seating(event, rnd.number) if rnd else None
    tables = list(seated.tables.all()) if seated else []
    context = standings_context(event, user=request.user)
    return render(request, "tournaments/projector.html", {
        "event": event, "round": seated, "tables": tables,
        "open_tables": [t for t in tables if lifecycle.is_pending(t.scorecard)],
        "refresh_seconds": PROJECTOR_SECONDS, **context, "rows": context["standings"].rows,
        # The organiser's notices to the hall (issue #33).
        "notices": selectors.hall_notices_of(event),
    })
