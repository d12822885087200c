"""A league season's CSV import writes in bulk (issue #29), like an event's: the same members
and the same audit rows as one `player_create` and `membership_add` per row wrote (a dropped
schedule once per division), all or nothing, with `membership_add`'s checks kept by
`memberships_add_many`, and an import at the row limit done in one request's worth of
queries."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from leagues import services
from leagues.models import SeasonMembership
from leagues.services.members_import import memberships_import_csv
from sample_data.factories import PlayerFactory, UserFactory, allow_event_creation
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def season():
    organiser = allow_event_creation(UserFactory(username="bulk-league"))
    league = services.league_create(actor=organiser, organisers=[organiser], name="Bulk league",
                                    slug="bulk-league", division_count=2, division_size=4,
                                    movement_count=1, qualification_group=True)
    return services.season_create(league=league, actor=organiser, name="2026", slug="2026")


def _audit_rows(since: int) -> list[tuple]:
    return sorted(((e.action, e.content_type.model, e.object_repr, e.event_id,
                    e.actor.username if e.actor else None, e.actor_label, e.before, e.after,
                    e.reason)
                   for e in AuditEntry.objects.filter(pk__gt=since).select_related("content_type",
                                                                                   "actor")),
                  key=repr)


def test_the_audit_rows_are_those_one_write_per_row_left(season):
    """The expected rows are what the import wrote before it wrote in bulk (row by row through
    `player_create` and `membership_add`): none is lost, none is added."""
    organiser = season.league.organisers.get()
    known = PlayerFactory(first_name="Žiga", last_name="Čeh", club="TK Kranj")
    by_id = PlayerFactory(first_name="Ana", last_name="Bizjak", club="", federation_id="SLO-77")
    season.schedule = {"divisions": {"1": {"rounds": []}, "2": {"rounds": []}}}
    season.save(update_fields=["schedule"])
    since = AuditEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    text = ("first_name;last_name;club;country;federation_id;division;seed_position\n"
            "ziga;ceh;tk kranj;SI;;1;2\n"
            "Ana;Bizjak;;;SLO-77;I;\n"
            "Nova;Igralka;TK Celje;Slovenia;;ii.  LEAGUE;\n"
            "Peter;Kos;;AT;;Qualification group;5\n")
    created = memberships_import_csv(season=season, text=text, actor=organiser)
    nova, kos = Player.objects.get(last_name="Igralka"), Player.objects.get(last_name="Kos")
    assert [(m.division.level, m.seed_position, m.player) for m in created] == [
        (1, 2, known), (1, 1, by_id), (2, 1, nova), (3, 5, kos)]
    assert created.reused == [known]

    def row(action, model, text, after, reason=""):
        return (action, model, text, None, "bulk-league", "bulk-league", None, after, reason)

    def added(division, position, player):
        return {"division": division, "player": player.pk, "seed_position": position, "origin": "new"}

    assert _audit_rows(since) == sorted([
        row("league.membership.add", "seasonmembership", "Bulk league 2026 – I. league: 2. Žiga Čeh",
            added("I. league", 2, known)),
        row("league.membership.add", "seasonmembership", "Bulk league 2026 – I. league: 1. Ana Bizjak",
            added("I. league", 1, by_id)),
        row("player.create", "player", "Nova Igralka",
            {"name": "Nova Igralka", "club": "TK Celje", "federation_id": ""}),
        row("league.membership.add", "seasonmembership",
            "Bulk league 2026 – II. league: 1. Nova Igralka", added("II. league", 1, nova)),
        row("player.create", "player", "Peter Kos", {"name": "Peter Kos", "club": "", "federation_id": ""}),
        row("league.membership.add", "seasonmembership",
            "Bulk league 2026 – Qualification group: 5. Peter Kos", added("Qualification group", 5, kos)),
        row("league.schedule.invalidate", "season", "Bulk league 2026", {"division": "I. league"},
            "the members of the division changed"),
        row("league.schedule.invalidate", "season", "Bulk league 2026", {"division": "II. league"},
            "the members of the division changed"),
        row("league.membership.import", "season", "Bulk league 2026",
            {"rows": 4, "members": [[1, 2, known.pk], [1, 1, by_id.pk], [2, 1, nova.pk], [3, 5, kos.pk]],
             "reused_players": [known.pk]}),
    ], key=repr)
    season.refresh_from_db()
    assert season.schedule == {"divisions": {}}


def test_an_import_at_the_row_limit_places_every_row(season):
    organiser = season.league.organisers.get()
    since = AuditEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    text = "first_name,last_name,division\n" + "".join(
        f"Igralec{n},Kval{n},Qualification group\n" for n in range(5_000))
    created = memberships_import_csv(season=season, text=text, actor=organiser)
    assert len(created) == 5_000
    assert sorted(SeasonMembership.objects.filter(season=season).values_list("seed_position", flat=True)
                  ) == list(range(1, 5_001))
    actions = list(AuditEntry.objects.filter(pk__gt=since).values_list("action", flat=True))
    assert (actions.count("player.create"), actions.count("league.membership.add"),
            actions.count("league.membership.import")) == (5_000, 5_000, 1)


def _queries(season, text: str) -> tuple[int, int]:
    """(queries other than inserts, inserts) of one import."""
    with CaptureQueriesContext(connection) as captured:
        memberships_import_csv(season=season, text=text, actor=season.league.organisers.get())
    inserts = sum(q["sql"].startswith("INSERT") for q in captured.captured_queries)
    return len(captured) - inserts, inserts


def test_an_import_of_500_rows_asks_what_an_import_of_5_asks(season):
    def rows(count: int, tag: str) -> str:
        return "first_name,last_name,division\n" + "".join(
            f"Igralec{n},{tag}{n},Qualification group\n" for n in range(count))

    _queries(season, rows(1, "Warm"))  # content types are looked up once per process
    few, many = _queries(season, rows(5, "Few")), _queries(season, rows(500, "Many"))
    assert many[0] == few[0], (few, many)
    assert many[1] <= 30, many  # batches of up to 500 rows (fewer on SQLite)


def test_many_members_keep_the_checks_of_one(season):
    organiser = season.league.organisers.get()
    first, second, qualification = season.divisions.order_by("level")
    member = PlayerFactory(last_name="Member")
    services.membership_add(division=first, player=member, actor=organiser, seed_position=1)
    new = [PlayerFactory(last_name=f"New{n}") for n in range(6)]
    other = services.season_create(league=season.league, actor=organiser, name="2027", slug="2027")
    cases = [
        ([(first, member, None)], "already_member", "entries[0].player"),
        ([(first, new[0], 1)], "seed_position_taken", "entries[0].seed_position"),
        ([(first, new[0], 2), (second, new[1], 2), (first, new[2], 2)], "seed_position_taken",
         "entries[2].seed_position"),
        ([(first, new[0], 9)], "out_of_range", "entries[0].seed_position"),
        ([(first, new[0], 0)], "out_of_range", "entries[0].seed_position"),
        ([(first, new[0], None), (second, new[0], None)], "already_member", "entries[1].player"),
        ([(first, p, None) for p in new[:4]], "division_full", "entries[3].division"),
        ([(other.divisions.get(level=1), new[0], None)], "unknown_division", "entries[0].division"),
    ]
    for entries, code, field in cases:
        with pytest.raises(ServiceError) as refused:
            services.memberships_add_many(season=season, entries=entries, actor=organiser)
        assert (code, field) in {(e["code"], e["field"]) for e in refused.value.errors}, refused.value.errors
    assert SeasonMembership.objects.filter(season=season).count() == 1
    # Positions left open take the free ones in order, as one call after another would.
    made = services.memberships_add_many(
        season=season, actor=organiser,
        entries=[(first, new[0], None), (first, new[1], 3), (first, new[2], None),
                 (qualification, new[3], None)])
    assert [(m.division.level, m.seed_position) for m in made] == [(1, 2), (1, 3), (1, 4), (3, 1)]
