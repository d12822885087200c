"""Public, read-only pages: the event list, an event with its live standings, the standings
(and their CSV export), the seating of a round with "find my table", a table's scorecard hand
by hand, a player's history with his rank chart, and the projector screen of the hall.

Also the helpers the organiser and referee pages share: loading an event a user may see or
run, and building the sheet of a table as the paper sheet lays it out. Views only parse,
call selectors or services and render.
"""

from __future__ import annotations

import csv
import functools
from collections.abc import Callable
from html import escape
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.decorators.vary import vary_on_headers

from tournaments import hooks, selectors, services
from tournaments.domain import lifecycle, limits, rights
from tournaments.domain.standings import event_standings
from tournaments.errors import Forbidden, ServiceError
from tournaments.forms import entry_context, is_money, score_label
from tournaments.models import Event, Player, Round, Table
from tournaments.runtime.spreadsheets import text_cell
from tournaments.templatetags.tarok import score_in, table_points

LIVE_SECONDS = 5
PROJECTOR_SECONDS = 15
PROJECTOR_ROWS = 20


# ---------------------------------------------------------------------------------------
# Shared helpers
# ---------------------------------------------------------------------------------------

def event_or_404(slug: str) -> Event:
    event = selectors.event_by_slug(slug)
    if event is None:
        raise Http404(_("No such event."))
    return event


def viewable_event(request: HttpRequest, slug: str) -> Event:
    """An event the visitor may see: public ones, and private ones to their officials."""
    event = event_or_404(slug)
    if not rights.can_view_event(request.user, event):
        raise Http404(_("No such event."))
    return event


def raise_refusal(exc: ServiceError) -> None:
    """A service's refusal for a missing right becomes the page's 404 or 403; other refusals
    (the card's state, a bad value) are the caller's to show at their field."""
    if exc.status == 404:
        raise Http404(str(exc))
    if exc.status == 403:
        raise PermissionDenied(str(exc))


def login_redirect(request: HttpRequest) -> HttpResponse:
    return redirect_to_login(request.get_full_path(), login_url=reverse("login"))


def event_role_required(check):
    """Decorate a view of one event (`slug` in the URL) with a role check from
    `tournaments.domain.rights`: anonymous visitors are sent to log in; an event the user may not see
    does not exist for him (404); others without the role get 403. The view receives the event
    instead of the slug."""

    def decorator(view):
        @functools.wraps(view)
        def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
            if not request.user.is_authenticated:
                return login_redirect(request)
            event = viewable_event(request, slug)
            if "number" in kwargs:
                # A round the user may not see (a draft, or none) does not exist for him,
                # whatever role the page asks: as in the API, 404 comes before 403.
                rnd = event.rounds.filter(number=kwargs["number"]).first()
                if rnd is None or not rights.can_view_round(request.user, rnd):
                    raise Http404(_("No such round."))
            if not check(request.user, event):
                raise PermissionDenied(_("You do not run this event."))
            return view(request, event, *args, **kwargs)

        return wrapper

    return decorator


def round_or_404(event: Event, number: int) -> Round:
    rnd = event.rounds.filter(number=number).first()
    if rnd is None:
        raise Http404(_("No such round."))
    return rnd


def table_or_404(event: Event, number: int, table_number: int) -> Table:
    table = selectors.table_in_round(event, number, table_number)
    if table is None:
        raise Http404(_("No such table."))
    return table


def seat_labels(table: Table) -> list[tuple[str, str]]:
    """(start number, "7 · First Last") of a table's players in seat order."""
    return [(str(s.registration.start_number),
             f"{s.registration.start_number} · {s.registration.player}")
            for s in table.seats.all()]


def _hand_summary(record: dict[str, Any], game_name: str, ctx) -> str:
    """The hand as one line of the sheet: game, who played it, the points or the result,
    announcements and contras."""
    parts = [game_name]
    if record.get("declarer"):
        who = record["declarer"]
        if record.get("partner"):
            who += f" + {record['partner']}"
        elif "partner" in record:
            who += f" ({_('alone')})"
        parts.append(who)
    if record.get("called"):
        parts.append(record["called"])
    if "points" in record:
        parts.append(_("%(points)s points") % {"points": record["points"]})
    if "won" in record:
        parts.append(_("won") if record["won"] else _("lost"))
    if record.get("conceded"):
        parts.append(_("conceded"))
    if record.get("points_by_player"):
        parts.append(" / ".join(f"{p}: {v}" for p, v in record["points_by_player"].items()))
    ann_names = {a["code"]: a["name"] for a in ctx.announcements}
    for ann in record.get("announcements") or []:
        mark = "" if ann.get("achieved", True) else " ✗"
        parts.append(f"{ann_names.get(ann.get('name'), ann.get('name'))}{mark}")
    levels = {c["level"]: c["name"] for c in ctx.contra_levels}
    for con in record.get("contras") or []:
        parts.append(f"{levels.get(con.get('level'), con.get('level'))} ({con.get('by', '?')})")
    for pen in record.get("penalties") or []:
        parts.append(f"{pen.get('kind')} {pen.get('player', '')}".strip())
    return " · ".join(str(p) for p in parts if p != "")


def sheet_context(table: Table, *, event: Event | None = None) -> dict[str, Any]:
    """The scorecard of a table laid out as the paper sheet: a column per player with the
    hand's score, the running total and the open radelci, one row per hand."""
    event = event or table.round.event
    card = table.scorecard
    hands = selectors.hands_of(card)
    players = seat_labels(table)
    ctx = entry_context(code=card.ruleset_code, mode=card.ruleset_mode, players=players,
                        hands_per_round=event.hands_per_round)
    names = {g["code"]: g["name"] for g in ctx.games}
    rows = []
    radelci_now: dict[str, int] = {}
    for hand in hands:
        radelci_now = (hand.state or {}).get("radelci") or {}
        rows.append({
            "hand": hand,
            "summary": _hand_summary(hand.record, names.get(hand.record.get("game"), hand.record.get("game", "")), ctx),
            "cells": [{"pid": pid,
                       "score": (hand.scores or {}).get(pid, 0),
                       "total": (hand.running_totals or {}).get(pid, 0),
                       "radelci": radelci_now.get(pid, 0)} for pid, _label in players],
            "resting": hand.record.get("resting"),
        })
    pids = [pid for pid, _label in players]
    return {
        "card": card, "hands": hands, "sheet_rows": rows, "players": players, "pids": pids,
        "totals": [(pid, (card.totals or {}).get(pid, 0)) for pid in pids],
        "radelci_now": radelci_now, "entry": ctx, "money": is_money(card.ruleset_code),
        "any_radelci": any(cell["radelci"] for row in rows for cell in row["cells"]),
        "money_rows": list(card.money_rows.select_related("registration__player"))
        if is_money(card.ruleset_code) else [],
        "pending_status": lifecycle.is_pending(card),
    }


def standings_context(event: Event, *, user: Any = None, up_to_round: int | None = None) -> dict[str, Any]:
    table = event_standings(event, up_to_round=up_to_round)
    rounds = list(selectors.rounds_shown_to(event, with_drafts=rights.is_official(user, event)
                                            if user is not None else False))
    numbers = [r.number for r in rounds]
    return {
        "standings": table, "rounds": rounds, "round_numbers": numbers,
        "standings_rows": standings_rows_html(table, numbers),
        "score_label": score_label(event), "final": event.status == Event.Status.FINISHED,
        "live_seconds": LIVE_SECONDS,
    }


def player_url_maker() -> Callable[[int], str]:
    """The link to a player's page by his id, reversed once with a stand-in number and filled
    in per player: a page listing 1,024 players spent more on reversing than on anything else."""
    stand_in = 987654321
    parts = reverse("player-detail", args=[stand_in]).split(str(stand_in))
    return lambda player_id: str(player_id).join(parts)


def standings_rows_html(table: Any, numbers: list[int]) -> SafeString:
    """The rows of the standings table, written here rather than by the template: at 1,024
    players the template engine's cost per variable, filter and `{% url %}` (each a full
    reverse) was most of the page's rendering time, and the standings page is the one every
    phone in the hall polls. Every text is escaped here (the standard library's `escape`, which
    Django's wraps, without the lazy-string wrapper that costs more than the escaping)."""
    player_url = player_url_maker()
    adjusted_mark = format_html(' <span class="mark" title="{}">*</span>', _("Adjusted by a referee"))
    rows = []
    for row in table.rows:
        cells = []
        for n in numbers:
            cell = row.exact_per_round.get(n)
            if cell is None:
                cells.append('<td class="num hide-narrow"></td>')
            else:
                text = table_points(cell[0]) if table.uses_points else score_in(cell[1], table.unit)
                cells.append(f'<td class="num hide-narrow">{escape(text)}</td>')
        player = row.registration.player
        podium = f' class="podium rank-{row.rank}"' if row.rank <= 3 else ""
        url = player_url(row.registration.player_id)
        total = (f'<td class="num strong">{escape(table_points(row.exact_points))}</td>'
                 if table.uses_points else "")
        rows.append(
            f'<tr{podium}><td class="num">{int(row.rank)}.</td><td class="num">{int(row.start_number)}</td>'
            f'<td><a href="{escape(url)}">{escape(str(player))}</a>{adjusted_mark if row.adjusted else ""}</td>'
            f'<td class="hide-narrow">{escape(player.club)}</td>{"".join(cells)}{total}'
            f'<td class="num{"" if table.uses_points else " strong"}">{escape(score_in(row.score, table.unit))}</td></tr>')
    # Safe: every text in the rows went through `escape`, numbers through int().
    return mark_safe("\n".join(rows))  # noqa: S308


# ---------------------------------------------------------------------------------------
# Pages
# ---------------------------------------------------------------------------------------

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
        "can_organise": rights.is_organiser(request.user, event),
        "can_referee": rights.is_official(request.user, event),
        "officials": rights.is_official(request.user, event),
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
    still playing, and the standings a screenful at a time: each refresh shows the next
    PROJECTOR_ROWS places, then starts again from the top."""
    event = viewable_event(request, slug)
    rnd = selectors.current_round(event)
    seated = selectors.round_with_seating(event, rnd.number) if rnd else None
    tables = list(seated.tables.all()) if seated else []
    context = standings_context(event, user=request.user)
    rows = context["standings"].rows
    pages = max(1, -(-len(rows) // PROJECTOR_ROWS))
    page = limits.whole_number(request.GET.get("page"), low=1, high=pages, default=1)
    first = (page - 1) * PROJECTOR_ROWS
    return render(request, "tournaments/projector.html", {
        "event": event, "round": seated, "tables": tables,
        "open_tables": [t for t in tables if lifecycle.is_pending(t.scorecard)],
        "refresh_seconds": PROJECTOR_SECONDS, **context,
        "rows": rows[first:first + PROJECTOR_ROWS], "page": page, "pages": pages,
        "first_place": first + 1, "last_place": min(first + PROJECTOR_ROWS, len(rows)),
        "field": len(rows), "next_page": page % pages + 1, "page_numbers": range(1, pages + 1),
    })
