"""Template filters and tags of the tournament pages: numbers as a tarok sheet writes them
(signed scores, table points in thirds, money in Kč, radelci as circles), dictionary look-ups
for per-player columns, the navigation of the signed-in user, and the inline SVG chart of a
player's rank round by round."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import template
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.timesince import timesince
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournaments import hooks, selectors
from tournaments.domain import rights
from tournaments.engine_text.common import kc, table_points_text
from tournaments.text import audit_text, ruleset_text

register = template.Library()

@register.filter
def get(mapping: Any, key: Any) -> Any:
    """`{{ totals|get:pid }}`: a dictionary value by a variable key (None when absent)."""
    if mapping is None:
        return None
    try:
        return mapping.get(key) if hasattr(mapping, "get") else mapping[key]
    except (KeyError, IndexError, TypeError):
        return None


@register.filter
def signed(value: Any) -> str:
    """A hand score as written on the sheet: +15, −35, 0."""
    if value is None or value == "":
        return ""
    try:
        n = int(value)
    except (TypeError, ValueError):
        return str(value)
    if n > 0:
        return f"+{n}"
    if n < 0:
        return f"−{-n}"
    return "0"


@register.filter
def minus(value: Any) -> str:
    """A running total with a typographic minus: −206, 24."""
    if value is None or value == "":
        return ""
    try:
        n = int(value)
    except (TypeError, ValueError):
        return str(value)
    return f"−{-n}" if n < 0 else str(n)


@register.filter
def table_points(value: Any) -> str:
    """Table points of the points system in thirds: 10⅓ rather than 10.333."""
    return table_points_text(value)


@register.filter
def money(value: Any) -> str:
    """Haléř as Kč with two decimals in the current language's format: 1250 → 12,50 Kč."""
    if value is None or value == "":
        return ""
    return kc(value, plus=True)


@register.filter
def amount(value: Any) -> str:
    """Haléř as an unsigned Kč amount (a stake, a price): 2000 → 20,00 Kč."""
    if value is None or value == "":
        return ""
    # Unsigned: a negative amount (never a stake) keeps number_format's plain hyphen.
    return kc(value, minus="-")


@register.filter
def score_in(value: Any, unit: str) -> str:
    """A standings score in the event's unit: haléř as Kč, points signed."""
    if unit == "haler":
        return money(value)
    return signed(value)


@register.filter
def radelci(count: Any) -> str:
    """Open radelci as the sheet draws them: one circle each."""
    try:
        n = int(count or 0)
    except (TypeError, ValueError):
        return ""
    return "○" * n


@register.simple_tag(takes_context=True)
def nav_links(context: dict) -> dict[str, bool]:
    """What the header offers the signed-in user: two queries, only when signed in."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"manage": False, "referee": False, "player": None, "my_table": None}
    manage = rights.can_create_events(user)
    referee = user.is_staff or user.refereed_events.exists()
    player = getattr(user, "player", None)
    my_table = selectors.current_table_of(player) if player is not None else None
    return {"manage": manage, "referee": referee, "player": player, "my_table": my_table}


@register.simple_tag
def rank_chart(points: list[tuple[int, int]], field_size: int, width: int = 360,
               height: int = 180) -> str:
    """An inline SVG line chart of rank (1 at the top) against round number.

    `points` is [(round, rank), ...] in round order; `field_size` the number of ranked
    players, the bottom of the scale.
    """
    if not points:
        return ""
    pad_l, pad_r, pad_t, pad_b = 36, 16, 22, 28
    inner_w, inner_h = width - pad_l - pad_r, height - pad_t - pad_b
    rounds = [r for r, _rank in points]
    first, last = min(rounds), max(rounds)
    worst = max(field_size, max(rank for _r, rank in points), 2)

    # Coordinates go into the markup as text with one decimal.
    def x(rnd: int) -> str:
        if last == first:
            return f"{pad_l + inner_w / 2:.1f}"
        return f"{pad_l + (rnd - first) * inner_w / (last - first):.1f}"

    def y(rank: int) -> str:
        return f"{pad_t + (rank - 1) * inner_h / (worst - 1):.1f}"

    parts = [format_html(
        '<svg class="rank-chart" viewBox="0 0 {} {}" width="{}" height="{}" role="img" '
        'aria-label="{}">', width, height, width, height, _("Rank after each round"))]
    for rank in sorted({1, worst, (worst + 1) // 2}):
        parts.append(format_html(
            '<line x1="{}" x2="{}" y1="{}" y2="{}" class="grid"/>'
            '<text x="{}" y="{}" class="axis" text-anchor="end">{}</text>',
            pad_l, width - pad_r, y(rank), y(rank), pad_l - 6, float(y(rank)) + 4, rank))
    for rnd in rounds:
        parts.append(format_html('<text x="{}" y="{}" class="axis" text-anchor="middle">{}</text>',
                                 x(rnd), height - 8, rnd))
    line = " ".join(f"{x(r)},{y(k)}" for r, k in points)
    parts.append(format_html('<polyline points="{}" class="line"/>', line))
    for rnd, rank in points:
        parts.append(format_html(
            '<circle cx="{}" cy="{}" r="4" class="dot"><title>{}</title></circle>'
            '<text x="{}" y="{}" class="label" text-anchor="middle">{}</text>',
            x(rnd), y(rank), _("Round %(round)s: rank %(rank)s") % {"round": rnd, "rank": rank},
            x(rnd), f"{float(y(rank)) - 8:.1f}", rank))
    parts.append(mark_safe("</svg>"))
    return mark_safe("".join(str(p) for p in parts))


@register.filter
def waited(since: Any) -> str:
    """How long something has waited, as "waiting …" goes on: Django's timesince, but for
    the first minute, which it calls "0 minutes"."""
    if since is None:
        return ""
    if timezone.now() - since < dt.timedelta(minutes=1):
        return pgettext("waited", "less than a minute")
    return timesince(since)


@register.filter
def audit_action(action: str) -> str:
    """An audit action in the reader's language."""
    return audit_text.action_label(action)


@register.filter
def audit_changes(entry: Any) -> list[audit_text.Change]:
    return audit_text.changes(entry)


@register.filter
def audit_where(entry: Any) -> str:
    return audit_text.where(entry)


@register.filter
def audit_who(entry: Any) -> str:
    return audit_text.who(entry)


@register.filter
def ruleset_title(code: str) -> str:
    """A ruleset's title in the reader's language."""
    return ruleset_text.title(code)


@register.filter
def mode_name(code: str) -> str:
    return ruleset_text.mode_name(code) if code else ""


@register.filter
def penalty_name(penalty: Any) -> str:
    """A recorded penalty's kind in words, as its event's ruleset names it."""
    return ruleset_text.penalty_name(penalty.event.ruleset_code, penalty.kind)


@register.filter
def options_in_words(event: Any) -> list[tuple[str, str]]:
    """An event's ruleset options as (label, choice) in the reader's language."""
    return ruleset_text.options_in_words(event.ruleset_code, event.ruleset_options)


@register.simple_tag
def event_tabs(event: Any) -> list[dict[str, Any]]:
    """The event's public pages other apps add to its tabs (tournaments.hooks.EventTab), with
    their URLs: `{% event_tabs event as tabs %}`."""
    return [{"url": reverse(t.url_name, args=[event.slug]), "label": t.label, "tab": t.tab}
            for t in hooks.event_tabs()]
