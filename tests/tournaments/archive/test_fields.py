"""Every field of every archived model is either in the archive or deliberately left out
with a reason: a field added to a model later fails here until the archive (and
docs/archive-format.md) carry it, so backups cannot silently lose it."""

from __future__ import annotations

import pytest

from leagues import archive as season_archive
from leagues import archive_cups
from tournaments.archive import format as archive_format

FIELD_LISTS = {
    "tournaments.Event": archive_format.EVENT_FIELDS,
    "tournaments.Player": archive_format.PLAYER_FIELDS,
    "tournaments.Registration": archive_format.REGISTRATION_FIELDS,
    "tournaments.Round": archive_format.ROUND_FIELDS,
    "tournaments.Table": archive_format.TABLE_FIELDS,
    "tournaments.Seat": archive_format.SEAT_FIELDS,
    "tournaments.Scorecard": archive_format.SCORECARD_FIELDS,
    "tournaments.Hand": archive_format.HAND_FIELDS,
    "tournaments.MoneySheetRow": archive_format.MONEY_ROW_FIELDS,
    "tournaments.Penalty": archive_format.PENALTY_FIELDS,
    "tournaments.Dispute": archive_format.DISPUTE_FIELDS,
    "tournaments.StandingsAdjustment": archive_format.ADJUSTMENT_FIELDS,
    "tournaments.AuditEntry": archive_format.AUDIT_FIELDS,
    "leagues.League": season_archive.LEAGUE_FIELDS,
    "leagues.Season": season_archive.SEASON_FIELDS,
    "leagues.Division": season_archive.DIVISION_FIELDS,
    "leagues.SeasonMembership": season_archive.MEMBERSHIP_FIELDS,
    "leagues.Matchday": season_archive.MATCHDAY_FIELDS,
    "leagues.CupSeries": archive_cups.CUP_FIELDS,
    "leagues.CupSeriesEvent": archive_cups.CUP_EVENT_FIELDS,
    "leagues.CupPoints": archive_cups.CUP_POINTS_FIELDS,
}
MODULES = {"tournaments": archive_format, "leagues.Cup": archive_cups, "leagues": season_archive}


def _module_of(label):
    return next(module for prefix, module in MODULES.items() if label.startswith(prefix))


def _covered(module, model):
    return (set(FIELD_LISTS[model._meta.label]) | set(module.RELATION_KEYS.get(model, {}))
            | set(module.LEFT_OUT.get(model, {})))


@pytest.mark.parametrize("label", sorted(FIELD_LISTS))
def test_every_model_field_is_archived_or_left_out_for_a_reason(label):
    module = _module_of(label)
    model = next(m for m in {**module.RELATION_KEYS, **module.LEFT_OUT} if m._meta.label == label)
    fields = {f.name for f in model._meta.get_fields()
              if f.concrete or f.many_to_many and not f.auto_created}
    missing = fields - _covered(module, model)
    assert not missing, (f"{label}: {sorted(missing)} not in the archive: add to "
                         f"{module.__name__} and docs/archive-format.md")
    assert not set(FIELD_LISTS[label]) - fields, f"{label}: archive names fields the model lacks"
