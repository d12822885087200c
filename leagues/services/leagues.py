"""Writes of a league: created and changed (its ruleset, divisions, movement, qualification
group, games per matchday), with its organisers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from leagues.models import (
    League,
)
from leagues.services.common import err, jsonable
from tournaments.domain.rulesets import ruleset_config_errors
from tournaments.errors import ServiceError, validation_errors
from tournaments.services import audit

LEAGUE_FIELDS = {
    "name", "slug", "description", "division_size", "movement_count", "ruleset_code",
    "ruleset_mode", "ruleset_options", "hands_per_matchday", "division_count",
    "qualification_group", "table_size", "min_table_size", "is_public", "language",
}


def _check_league(league: League) -> None:
    errors = [err(f, "invalid_ruleset", m)
              for f, ms in ruleset_config_errors(league.ruleset_code, league.ruleset_mode,
                                                 league.ruleset_options).items() for m in ms]
    if league.movement_count * 2 > league.division_size:
        errors.append(err("movement_count", "too_many_moves", _(
            "%(m)s up and %(m)s down do not fit in a division of %(s)s players")
            % {"m": league.movement_count, "s": league.division_size}))
    if league.hands_per_matchday < 1:
        errors.append(err("hands_per_matchday", "invalid", _("a matchday has at least one game")))
    try:
        league.full_clean(exclude=["organisers"])
    except ValidationError as exc:
        errors.extend(e for e in validation_errors(exc) if not e["field"].startswith("ruleset"))
    if errors:
        raise ServiceError(errors)


@transaction.atomic
def league_create(*, actor: Any, organisers: Sequence[Any] | None = None, **fields: Any) -> League:
    unknown = set(fields) - LEAGUE_FIELDS
    if unknown:
        raise ServiceError(_("unknown league fields: %(f)s") % {"f": ", ".join(sorted(unknown))})
    league = League(**fields)
    _check_league(league)
    league.save()
    for user in organisers or []:
        league.organisers.add(user)
    audit.record(actor=actor, action="league.create", target=league,
                 after={k: jsonable(v) for k, v in fields.items()})
    return league


@transaction.atomic
def league_update(*, league: League, actor: Any, **fields: Any) -> League:
    unknown = set(fields) - LEAGUE_FIELDS
    if unknown:
        raise ServiceError(_("unknown league fields: %(f)s") % {"f": ", ".join(sorted(unknown))})
    # The row as it is now, locked: save() writes every column, and the caller's copy may be
    # older than another organiser's change of the fields this one leaves alone.
    league.refresh_from_db(from_queryset=League.objects.select_for_update())
    before = {k: jsonable(getattr(league, k)) for k in fields}
    for k, v in fields.items():
        setattr(league, k, v)
    _check_league(league)
    league.save()
    audit.record(actor=actor, action="league.update", target=league, before=before,
                 after={k: jsonable(getattr(league, k)) for k in fields})
    return league
