"""Writes of a cup series (seed 001): created and changed, its points table (the seed's as the
default where the registry has one), its tournaments added and removed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from leagues import selectors
from leagues.models import (
    CupPoints,
    CupSeries,
    CupSeriesEvent,
)
from leagues.services.common import err, jsonable
from scoring import rules
from tournaments.domain import limits
from tournaments.domain import rights as tournament_rights
from tournaments.errors import Forbidden, NotFound, ServiceError, validation_errors
from tournaments.models import Event
from tournaments.services import audit
from tournaments.text import ruleset_text

CUP_FIELDS = {"name", "slug", "season_label", "best_results_counted", "final_counts_extra", "is_public"}


def seed_cup_points() -> dict[int, int]:
    """The cup points seed 001 names (223, 198, 180 for places 1-3 and 1 for place 50), as the
    registry's cup series holds them; nothing in between is filled in."""
    cup = rules.cup_points()
    return dict(cup.places) if cup is not None else {}


def _check_cup(series: CupSeries) -> None:
    try:
        series.full_clean(exclude=["organisers", "events"])
    except ValidationError as exc:
        raise ServiceError(validation_errors(exc)) from exc
    if series.best_results_counted < 1:
        raise ServiceError(_("at least one result counts"), field="best_results_counted", code="invalid")


@transaction.atomic
def cup_create(*, actor: Any, organisers: Sequence[Any] | None = None, seed_points: bool = False,
               **fields: Any) -> CupSeries:
    unknown = set(fields) - CUP_FIELDS
    if unknown:
        raise ServiceError(_("unknown cup fields: %(f)s") % {"f": ", ".join(sorted(unknown))})
    series = CupSeries(**fields)
    _check_cup(series)
    series.save()
    for user in organisers or []:
        series.organisers.add(user)
    table = seed_cup_points() if seed_points else {}
    CupPoints.objects.bulk_create(CupPoints(series=series, place=k, points=v) for k, v in sorted(table.items()))
    audit.record(actor=actor, action="cup.create", target=series,
                 after={**{k: jsonable(v) for k, v in fields.items()},
                        "points": {str(k): v for k, v in sorted(table.items())}})
    return series


@transaction.atomic
def cup_update(*, series: CupSeries, actor: Any, **fields: Any) -> CupSeries:
    unknown = set(fields) - CUP_FIELDS
    if unknown:
        raise ServiceError(_("unknown cup fields: %(f)s") % {"f": ", ".join(sorted(unknown))})
    # The row as it is now, locked: save() writes every column, and the caller's copy may be
    # older than another organiser's change of the fields this one leaves alone.
    series.refresh_from_db(from_queryset=CupSeries.objects.select_for_update())
    before = {k: getattr(series, k) for k in fields}
    for k, v in fields.items():
        setattr(series, k, v)
    _check_cup(series)
    series.save()
    audit.record(actor=actor, action="cup.update", target=series, before=before, after=fields)
    return series


@transaction.atomic
def cup_event_add(*, series: CupSeries, event: Event, actor: Any, is_final: bool = False,
                  order: int | None = None) -> CupSeriesEvent:
    """Add a tournament to the series: one its organiser may organise (another organiser's
    event, or a private one he may not see, is not his to put in a public ranking), of the
    game the series ranks (`selectors.cup_family`)."""
    if not tournament_rights.can_view_event(actor, event):
        raise NotFound(_("there is no event %(slug)s") % {"slug": event.slug}, field="event",
                       code="unknown_event")
    if not tournament_rights.is_organiser(actor, event):
        raise Forbidden(_("only the organisers of %(event)s may add it to a cup series")
                        % {"event": event.name}, field="event", code="not_organiser")
    if series.series_events.filter(event=event).exists():
        raise ServiceError(_("%(e)s is already in the series") % {"e": event}, field="event", code="already_in_series")
    family = selectors.cup_family(series)
    if not selectors.fits_cup(family, event):
        first = selectors.cup_events(series)[0].event
        raise ServiceError(_(
            "%(event)s is played under %(rules)s, another game than the tournaments of this cup "
            "series (%(cup_rules)s): a cup series ranks one game")
            % {"event": event.name, "rules": ruleset_text.title(event.ruleset_code),
               "cup_rules": ruleset_text.title(first.ruleset_code)},
            field="event", code="other_game")
    if is_final and series.series_events.filter(is_final=True).exists():
        raise ServiceError(_("the series already has its final"), field="is_final", code="final_exists")
    if order is None:
        order = (series.series_events.aggregate(m=Max("order"))["m"] or 0) + 1
    if not isinstance(order, int) or order < 0:
        raise ServiceError(_("the order is a whole number >= 0"), field="order", code="invalid")
    item = CupSeriesEvent.objects.create(series=series, event=event, order=order, is_final=is_final)
    audit.record(actor=actor, action="cup.event.add", target=series, event=event,
                 after={"event": event.slug, "order": order, "is_final": is_final})
    return item


@transaction.atomic
def cup_event_remove(*, series: CupSeries, event: Event, actor: Any, reason: str = "") -> None:
    item = series.series_events.filter(event=event).first()
    if item is None:
        raise NotFound(_("%(e)s is not in the series") % {"e": event}, field="event", code="not_in_series")
    before = {"event": event.slug, "order": item.order, "is_final": item.is_final}
    item.delete()
    audit.record(actor=actor, action="cup.event.remove", target=series, event=event, before=before,
                 reason=reason)


def _parse_table(table: Any) -> tuple[dict[int, int], list[dict[str, Any]]]:
    errors = []
    parsed: dict[int, int] = {}
    if not isinstance(table, dict):
        return {}, [err("points", "not_an_object", _("the table maps places to points"))]
    for key, value in table.items():
        place = limits.whole_number(key, high=limits.SMALL_MAX)
        if place is None:
            errors.append(err(f"points.{key}", "invalid_place", _("%(k)s is not a place") % {"k": key}))
            continue
        if place < 1:
            errors.append(err(f"points.{key}", "invalid_place", _("places start at 1")))
            continue
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            errors.append(err(f"points.{key}", "invalid_points", _("points are a whole number >= 0")))
            continue
        if place in parsed:
            errors.append(err(f"points.{key}", "duplicate_place", _("place %(p)s twice") % {"p": place}))
        parsed[place] = value
    ordered = sorted(parsed.items())
    for (p1, v1), (p2, v2) in zip(ordered, ordered[1:], strict=False):
        if v2 > v1:
            errors.append(err(f"points.{p2}", "not_decreasing", _(
                "place %(p2)s would get more points (%(v2)s) than place %(p1)s (%(v1)s)")
                % {"p1": p1, "v1": v1, "p2": p2, "v2": v2}))
    return parsed, errors


@transaction.atomic
def cup_points_set(*, series: CupSeries, table: dict[Any, Any], actor: Any, reason: str = "") -> dict[int, int]:
    """Replace the series' cup-points table (place -> points). The organiser completes what
    seed 001 leaves open; a better place never gets fewer points than a worse one."""
    parsed, errors = _parse_table(table)
    if errors:
        raise ServiceError(errors)
    before = selectors.cup_points_table(series)
    CupPoints.objects.filter(series=series).delete()
    CupPoints.objects.bulk_create(CupPoints(series=series, place=k, points=v) for k, v in sorted(parsed.items()))
    audit.record(actor=actor, action="cup.points.set", target=series,
                 before={str(k): v for k, v in before.items()},
                 after={str(k): v for k, v in sorted(parsed.items())}, reason=reason)
    return parsed
