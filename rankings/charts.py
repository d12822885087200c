"""The rating-over-time plot of a player's page: an inline SVG drawn on the server, so it works
without JavaScript and in print; the page gives the same numbers as a table."""

from __future__ import annotations

from django.utils.formats import date_format, number_format
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _


def rating_chart(steps: list, width: int = 360, height: int = 180) -> SafeString | str:
    """A line of the conservative rating after each rated event (oldest left), with the
    scale's lowest, middle and highest values and the first and last dates."""
    if not steps:
        return ""
    pad_l, pad_r, pad_t, pad_b = 44, 16, 16, 28
    inner_w, inner_h = width - pad_l - pad_r, height - pad_t - pad_b
    values = [s.conservative for s in steps]
    low, high = min(min(values), 0.0), max(max(values), 0.0)
    if high - low < 1:
        high = low + 1

    def x(i: int) -> float:
        return pad_l + (inner_w / 2 if len(steps) == 1 else i * inner_w / (len(steps) - 1))

    def y(value: float) -> float:
        return pad_t + (high - value) * inner_h / (high - low)

    parts = [format_html(
        '<svg class="rank-chart rating-chart" viewBox="0 0 {} {}" width="{}" height="{}" '
        'role="img" aria-label="{}">', width, height, width, height,
        _("Rating after each rated event"))]
    for value in sorted({low, high, (low + high) / 2}):
        parts.append(format_html(
            '<line x1="{}" x2="{}" y1="{}" y2="{}" class="grid"/>'
            '<text x="{}" y="{}" class="axis" text-anchor="end">{}</text>',
            pad_l, width - pad_r, f"{y(value):.1f}", f"{y(value):.1f}", pad_l - 6,
            f"{y(value) + 4:.1f}", number_format(value, 1)))
    ends = [(0, "start"), (len(steps) - 1, "end")] if len(steps) > 1 else [(0, "middle")]
    for i, anchor in ends:
        parts.append(format_html('<text x="{}" y="{}" class="axis" text-anchor="{}">{}</text>',
                                 f"{x(i):.1f}", height - 8, anchor,
                                 date_format(steps[i].played_on, "SHORT_DATE_FORMAT")))
    line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    parts.append(format_html('<polyline points="{}" class="line"/>', line))
    for i, step in enumerate(steps):
        parts.append(format_html(
            '<circle cx="{}" cy="{}" r="4" class="dot"><title>{}: {}</title></circle>',
            f"{x(i):.1f}", f"{y(step.conservative):.1f}", step.event.name,
            number_format(step.conservative, 2)))
    parts.append(mark_safe("</svg>"))  # noqa: S308 - a constant closing tag
    return mark_safe("".join(parts))  # noqa: S308 - every part is escaped by format_html


def bar_chart(rows: list[tuple[str, int, int]], *, label: str, part_label: str,
              width: int = 360) -> SafeString | str:
    """Horizontal bars, one per row (name, total, part): the bar is the total, its filled
    share the part (games declared and won, hands played and won by the declarer). The
    numbers stand at the end of each bar; the page gives them as a table too."""
    if not rows:
        return ""
    bar_h, gap, pad_t, pad_b, name_w, pad_r = 16, 6, 8, 8, 112, 56
    height = pad_t + pad_b + len(rows) * (bar_h + gap) - gap
    inner_w = width - name_w - pad_r
    most = max(total for _name, total, _part in rows) or 1
    parts = [format_html(
        '<svg class="rank-chart bar-chart" viewBox="0 0 {} {}" width="{}" height="{}" '
        'role="img" aria-label="{}">', width, height, width, height, label)]
    for i, (name, total, part) in enumerate(rows):
        top = pad_t + i * (bar_h + gap)
        full = inner_w * total / most
        parts.append(format_html(
            '<g><title>{}: {} ({} {})</title>'
            '<text x="{}" y="{}" class="axis" text-anchor="end">{}</text>'
            '<rect x="{}" y="{}" width="{}" height="{}" class="bar"/>'
            '<rect x="{}" y="{}" width="{}" height="{}" class="bar part"/>'
            '<text x="{}" y="{}" class="label">{} / {}</text></g>',
            name, total, part, part_label,
            name_w - 6, f"{top + bar_h - 4:.1f}", name,
            name_w, top, f"{full:.1f}", bar_h,
            name_w, top, f"{inner_w * part / most:.1f}", bar_h,
            f"{name_w + full + 4:.1f}", f"{top + bar_h - 4:.1f}", part, total))
    parts.append(mark_safe("</svg>"))  # noqa: S308 - a constant closing tag
    return mark_safe("".join(parts))  # noqa: S308 - every part is escaped by format_html
