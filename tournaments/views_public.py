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
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template import TemplateDoesNotExist
from django.template.loader import select_template
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments import roles, selectors
from tournaments.forms import entry_context, is_money, score_label
from tournaments.models import Event, Player, Round, Scorecard, Table
from tournaments.standings import event_standings

try:  # The leagues app adds a player's league career when it provides it.
    from leagues.selectors import player_career as _player_career
except (ImportError, AttributeError):
    _player_career = None

LIVE_SECONDS = 5
PROJECTOR_SECONDS = 15


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
    if not roles.can_view_event(request.user, event):
        raise Http404(_("No such event."))
    return event


def login_redirect(request: HttpRequest) -> HttpResponse:
    return redirect_to_login(request.get_full_path(), login_url=reverse("login"))


def event_role_required(check):
    """Decorate a view of one event (`slug` in the URL) with a role check from
    `tournaments.roles`: anonymous visitors are sent to log in, others without the role get
    403. The view receives the event instead of the slug."""

    def decorator(view):
        @functools.wraps(view)
        def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
            if not request.user.is_authenticated:
                return login_redirect(request)
            event = event_or_404(slug)
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
        "money_rows": list(card.money_rows.select_related("registration__player"))
        if is_money(card.ruleset_code) else [],
        "pending_status": card.status in (Scorecard.Status.OPEN, Scorecard.Status.SUBMITTED),
    }


def standings_context(event: Event, *, up_to_round: int | None = None) -> dict[str, Any]:
    table = event_standings(event, up_to_round=up_to_round)
    rounds = list(selectors.rounds_of(event))
    return {
        "standings": table, "rounds": rounds, "round_numbers": [r.number for r in rounds],
        "score_label": score_label(event), "final": event.status == Event.Status.FINISHED,
        "live_seconds": LIVE_SECONDS,
    }


# ---------------------------------------------------------------------------------------
# Pages
# ---------------------------------------------------------------------------------------

def event_list(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/event_list.html", {"events": selectors.public_events()})


def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    event = viewable_event(request, slug)
    return render(request, "tournaments/event_detail.html", {
        "event": event,
        "current": selectors.current_round(event),
        "registrations": selectors.registrations_of(event),
        "can_organise": roles.can_organise(request.user, event),
        "can_referee": roles.can_referee(request.user, event),
        "officials": roles.can_referee(request.user, event),
        **standings_context(event),
    })


def standings(request: HttpRequest, slug: str) -> HttpResponse:
    event = viewable_event(request, slug)
    return render(request, "tournaments/standings.html", {
        "event": event, "can_organise": roles.can_organise(request.user, event),
        "officials": roles.can_referee(request.user, event),
        **standings_context(event),
    })


def standings_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings table alone, polled by the event and standings pages."""
    event = viewable_event(request, slug)
    return render(request, "tournaments/_standings_live.html", {
        "event": event, "live_url": request.path, **standings_context(event),
    })


def _csv_text(value: str) -> str:
    """A name or club as a spreadsheet cell: text starting with = + - @ would be read as a
    formula, so it is quoted the way spreadsheets quote text."""
    return f"'{value}" if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    event = viewable_event(request, slug)
    table = event_standings(event)
    rounds = [r.number for r in selectors.rounds_of(event)]
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
        line = [row.rank, row.start_number, _csv_text(player.first_name),
                _csv_text(player.last_name), _csv_text(player.club), player.country]
        if table.uses_points:
            line.append(row.points)
        line.append(row.score)
        for n in rounds:
            points, score = row.per_round.get(n, (None, None))
            line.append("" if score is None else (points if table.uses_points else score))
        writer.writerow(line)
    return response


def round_seating(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The seating of a round, with "find my table" by name or start number."""
    event = viewable_event(request, slug)
    rnd = selectors.round_with_seating(event, number)
    if rnd is None:
        raise Http404(_("No such round."))
    officials = roles.can_referee(request.user, event)
    if rnd.status == Round.Status.DRAFT and not officials:
        raise Http404(_("This round is not published yet."))
    query = request.GET.get("q", "").strip()
    tables = list(rnd.tables.all())
    found: set[int] = set()
    found_seats: set[int] = set()
    if query:
        needle = query.casefold()
        for table in tables:
            for seat in table.seats.all():
                reg = seat.registration
                if (needle == str(reg.start_number)
                        or needle in str(reg.player).casefold()
                        or needle in f"{reg.player.last_name} {reg.player.first_name}".casefold()):
                    found.add(table.pk)
                    found_seats.add(seat.pk)
        # On a phone the player's own table should be the first thing he sees.
        tables.sort(key=lambda t: (t.pk not in found, t.number))
    # htmx asks for the seating alone; a history restore needs the whole page.
    fragment = request.headers.get("HX-Request") and not request.headers.get("HX-History-Restore-Request")
    template = "tournaments/_seating.html" if fragment else "tournaments/round_seating.html"
    return render(request, template, {
        "event": event, "round": rnd, "tables": tables, "query": query, "found": found,
        "found_seats": found_seats, "rounds": list(selectors.rounds_of(event)),
        "officials": officials,
    })


def table_detail(request: HttpRequest, slug: str, number: int, table_number: int) -> HttpResponse:
    """A table's scorecard hand by hand, with the engine's breakdown of every hand."""
    event = viewable_event(request, slug)
    table = table_or_404(event, number, table_number)
    if table.round.status == Round.Status.DRAFT and not roles.can_referee(request.user, event):
        raise Http404(_("This round is not published yet."))
    return render(request, "tournaments/table_detail.html", {
        "event": event, "round": table.round, "table": table,
        "penalties": list(selectors.penalties_of_table(table)),
        "can_enter": roles.can_enter_hands(request.user, table),
        "can_referee": roles.can_referee(request.user, event),
        "officials": roles.can_referee(request.user, event),
        "rounds": list(selectors.rounds_of(event)),
        "score_label": score_label(event),
        **sheet_context(table, event=event),
    })


def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's events, round by round, with a chart of his rank after each round."""
    player = get_object_or_404(Player, pk=player_id)
    history = []
    for entry in selectors.player_history(player):
        event = entry["event"]
        if not roles.can_view_event(request.user, event):
            continue
        points, field = selectors.rank_history(event, entry["registration"])
        entry["chart"] = points
        entry["field"] = field
        entry["score_label"] = score_label(event)
        entry["money"] = is_money(event.ruleset_code)
        history.append(entry)
    context: dict[str, Any] = {
        "player": player, "history": history,
        "is_me": request.user.is_authenticated and player.user_id == request.user.pk,
    }
    if _player_career is not None:
        try:
            template = select_template(["leagues/_player_career.html"])
        except TemplateDoesNotExist:  # the function may land before its template
            template = None
        if template is not None:
            career = _player_career(player)
            context["career_template"] = "leagues/_player_career.html"
            context["career"] = career
            if isinstance(career, dict):
                context.update({k: v for k, v in career.items() if k not in context})
    return render(request, "tournaments/player_detail.html", context)


def projector(request: HttpRequest, slug: str) -> HttpResponse:
    """The hall's screen: the round clock, the seating of the current round and the
    standings, refreshed every few seconds."""
    event = viewable_event(request, slug)
    rnd = selectors.current_round(event)
    seated = selectors.round_with_seating(event, rnd.number) if rnd else None
    return render(request, "tournaments/projector.html", {
        "event": event, "round": seated, "tables": list(seated.tables.all()) if seated else [],
        "refresh_seconds": PROJECTOR_SECONDS, **standings_context(event),
    })
