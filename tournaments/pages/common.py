"""The toolkit every page module shares (the public, organiser, referee, table, check-in,
officials' and players' pages, and the leagues' management pages): finding an event, round or
table a user may see or run (404 for what does not exist for him, 403 for a missing role,
the login page for an anonymous visitor), turning a service's refusal into the page's answer,
and building what several pages show alike: a table's sheet laid out as the paper sheet, and
the standings with their rows written once for every page that polls them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from html import escape
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.domain import lifecycle, rights
from tournaments.domain.standings import event_standings
from tournaments.errors import ServiceError
from tournaments.forms import entry_context, is_money, score_label
from tournaments.models import Event, Round, Table
from tournaments.templatetags.tarok import score_in, table_points

# How often the live pages (standings, seating, a card being played) ask again, in seconds.
LIVE_SECONDS = 5


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
                visible_round_or_404(request.user, event, kwargs["number"])
            if not check(request.user, event):
                # Who can let him in, not a bare "403 Forbidden" (issue #33).
                raise PermissionDenied(
                    _("You are not an official of this event: its organisers add referees and "
                      "other organisers on the event's Officials page. Ask one of them.")
                    if check is rights.is_official else
                    _("Only the organisers of this event manage it: an organiser adds another "
                      "on the event's Officials page. Ask one of them."))
            return view(request, event, *args, **kwargs)

        return wrapper

    return decorator


def visible_round_or_404(user: Any, event: Event, number: int) -> Round:
    """The round as the user may see it: a draft, like a round that does not exist, is 404
    for anyone but the event's officials (`tournaments.selectors.visible_round`)."""
    rnd = selectors.visible_round(user, event, number)
    if rnd is None:
        raise Http404(_("No such round."))
    return rnd


def round_or_404(event: Event, number: int) -> Round:
    """The round, drafts included: for pages whose role check already let only the
    officials in."""
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


def ruleset_fields_page(request: HttpRequest, form_class: type) -> HttpResponse:
    """The mode and option fields of the ruleset chosen in an event's or a league's form
    (htmx), with the presets its rulebook describes on a new one's form. Back to "choose the
    rules": no mode nor options until a ruleset is chosen."""
    if not request.user.is_authenticated:
        return login_redirect(request)
    code = request.GET.get("ruleset_code", "")
    form = form_class(initial={"ruleset_code": code})
    if code and not form.ruleset_info:
        raise Http404(_("No such ruleset."))
    # One being edited is offered no preset: presets fill a new form only.
    return render(request, "tournaments/manage/_ruleset_fields.html", {
        "form": form, "event": request.GET.get("editing") == "1"})


def back_or(request: HttpRequest, default: str) -> HttpResponse:
    """Back to the page that asked (a form's `next`, a path of this site only), or `default`:
    one form serves the table's entry page and the referee's."""
    back = request.POST.get("next", "")
    if back.startswith("/") and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        return HttpResponseRedirect(back)
    return redirect(default)
