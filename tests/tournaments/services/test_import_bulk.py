"""The CSV import of an event's registrations writes in bulk (issue #29: 10,000 rows took over
a minute, a query or more per row and per audit entry): the same registrations, the same
audit rows as one `registration_create` and `player_create` per row wrote, all or nothing,
with the checks of `registration_create` kept by `registrations_create_many`, and an import
at the row limit done in a number of queries that does not grow with the file."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from sample_data.factories import EventFactory, PlayerFactory, RegistrationFactory, UserFactory
from tournaments import services
from tournaments.errors import Forbidden, ServiceError
from tournaments.models import AuditEntry, Event, Player, Registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    organiser = UserFactory(username="bulk-organiser")
    event = EventFactory(slug="bulk-import", name="Bulk import")
    event.organisers.add(organiser)
    RegistrationFactory(event=event, start_number=1,
                        player=PlayerFactory(first_name="Old", last_name="One"))
    return event


def _organiser(event: Event):
    return event.organisers.get()


def _audit_rows(since: int) -> list[tuple]:
    """What each audit row says, in a form independent of the order they were written in."""
    return sorted(((e.action, e.content_type.model, e.object_repr,
                    e.event.slug if e.event else None, e.actor.username if e.actor else None,
                    e.actor_label, e.before, e.after, e.reason, e.via, e.table_id)
                   for e in AuditEntry.objects.filter(pk__gt=since).select_related(
                       "content_type", "event", "actor")),
                  key=repr)


def test_the_audit_rows_are_those_one_write_per_row_left(event):
    """The expected rows are what the import wrote before it wrote in bulk (row by row through
    `player_create` and `registration_create`): none is lost, none is added."""
    known = PlayerFactory(first_name="Žiga", last_name="Čeh", club="TK Kranj")
    by_id = PlayerFactory(first_name="Ana", last_name="Bizjak", club="", federation_id="SLO-77")
    since = AuditEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    text = ("first_name;last_name;club;country;federation_id;start_number;status\n"
            "ziga;ceh;tk kranj;;;;\n"
            "Ana;Bizjak;;;SLO-77;7;checked_in\n"
            "Nova;Igralka;TK Celje;Slovenia;;;late_entry\n"
            "Peter;Kos;;AT;SLO-99;3;\n")
    created = services.registrations_import_csv(event=event, text=text, actor=_organiser(event))
    nova, kos = Player.objects.get(last_name="Igralka"), Player.objects.get(last_name="Kos")
    assert [r.start_number for r in created] == [8, 7, 9, 3] and created.reused == [known]
    assert [r.player for r in created] == [known, by_id, nova, kos]

    def row(action, model, text, in_event, after):
        return (action, model, text, "bulk-import" if in_event else None, "bulk-organiser",
                "bulk-organiser", None, after, "", "", None)

    assert _audit_rows(since) == sorted([
        row("registration.create", "registration", "8. Žiga Čeh", True,
            {"player": known.pk, "start_number": 8, "status": "registered"}),
        row("registration.create", "registration", "7. Ana Bizjak", True,
            {"player": by_id.pk, "start_number": 7, "status": "checked_in"}),
        row("player.create", "player", "Nova Igralka", False,
            {"name": "Nova Igralka", "club": "TK Celje", "federation_id": ""}),
        row("registration.create", "registration", "9. Nova Igralka", True,
            {"player": nova.pk, "start_number": 9, "status": "late_entry"}),
        row("player.create", "player", "Peter Kos", False,
            {"name": "Peter Kos", "club": "", "federation_id": "SLO-99"}),
        row("registration.create", "registration", "3. Peter Kos", True,
            {"player": kos.pk, "start_number": 3, "status": "registered"}),
        row("registration.import", "event", "Bulk import", True,
            {"rows": 4, "start_numbers": [8, 7, 9, 3], "reused_players": [known.pk]}),
    ], key=repr)
    # What Player.save() derives, which a bulk insert skips, is there.
    assert (nova.search_name, nova.country) == ("nova igralka", "SI")
    # The event's public pages hear of the change.
    assert Event.objects.get(pk=event.pk).results_version > event.results_version


def _csv(rows: int, tag: str) -> str:
    return "first_name,last_name,club,country,federation_id\n" + "".join(
        f"Igralec{n},{tag}{n},TK {n % 7},SI,{f'{tag}-{n}' if n % 3 == 0 else ''}\n"
        for n in range(rows))


def _queries(event: Event, text: str) -> tuple[int, int]:
    """(queries other than inserts, inserts) of one import."""
    with CaptureQueriesContext(connection) as captured:
        services.registrations_import_csv(event=event, text=text, actor=_organiser(event))
    inserts = sum(q["sql"].startswith("INSERT") for q in captured.captured_queries)
    return len(captured) - inserts, inserts


def test_an_import_of_500_rows_asks_what_an_import_of_5_asks(event):
    _queries(event, _csv(1, "Warm"))  # content types are looked up once per process
    few, many = _queries(event, _csv(5, "Few")), _queries(event, _csv(500, "Many"))
    assert many[0] == few[0], (few, many)
    # Inserts of many rows each (up to 500; SQLite's limit on the values of one statement
    # makes its batches smaller): 500 players, registrations, their personal links and 1,001
    # audit entries.
    assert many[1] <= 36, many


def test_an_import_at_the_row_limit_registers_every_row_and_audits_each(event):
    since = AuditEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    created = services.registrations_import_csv(event=event, text=_csv(5_000, "Limit"),
                                                actor=_organiser(event))
    assert len(created) == 5_000
    assert event.registrations.count() == 5_001
    assert sorted(event.registrations.values_list("start_number", flat=True)) == list(range(1, 5_002))
    actions = list(AuditEntry.objects.filter(pk__gt=since).values_list("action", flat=True))
    assert (actions.count("player.create"), actions.count("registration.create"),
            actions.count("registration.import")) == (5_000, 5_000, 1)
    assert Player.objects.filter(federation_id="Limit-4998").get().registrations.get().start_number == 5_000


# ---------------------------------------------------------------------------------------
# registrations_create_many: registration_create's checks over a list
# ---------------------------------------------------------------------------------------

def test_many_registrations_keep_the_checks_of_one(event):
    organiser = _organiser(event)
    registered = event.registrations.get().player
    new = [PlayerFactory(last_name=f"New{n}") for n in range(3)]
    cases = [
        ([(registered, 5, "registered")], "already_registered", "entries[0].player"),
        ([(new[0], 1, "registered")], "start_number_taken", "entries[0].start_number"),
        ([(new[0], 5, "registered"), (new[1], 5, "registered")], "start_number_taken",
         "entries[1].start_number"),
        ([(new[0], 5, "registered"), (new[0], 6, "registered")], "already_registered",
         "entries[1].player"),
        ([(new[0], 0, "registered")], "registration_start_number_positive",
         "entries[0].start_number"),
        ([(new[0], 5, "dancing")], "invalid_choice", "entries[0].status"),
    ]
    for entries, code, field in cases:
        with pytest.raises(ServiceError) as refused:
            services.registrations_create_many(event=event, entries=entries, actor=organiser)
        assert (code, field) in {(e["code"], e["field"]) for e in refused.value.errors}, refused.value.errors
    with pytest.raises(Forbidden):
        services.registrations_create_many(event=event, entries=[(new[2], 9, "registered")],
                                           actor=UserFactory(username="stranger"))
    assert event.registrations.count() == 1
    made = services.registrations_create_many(
        event=event, entries=[(new[0], 5, "registered"), (new[1], 2, "late_entry")], actor=organiser)
    assert [(r.start_number, r.status) for r in made] == [(5, "registered"), (2, "late_entry")]
    assert all(r.pk for r in made)


def test_a_knockout_takes_no_entries_after_its_draw_in_bulk_either(event):
    event.seating_system = "knockout"
    event.save()
    for n in range(2, 5):
        RegistrationFactory(event=event, start_number=n)
    services.round_store(event=event, number=1, seating_system="knockout", seed=0,
                         tables=[["1", "2", "3", "4"]], actor=None)
    with pytest.raises(ServiceError) as refused:
        services.registrations_create_many(event=event, entries=[(PlayerFactory(), 9, "registered")],
                                           actor=_organiser(event))
    assert refused.value.errors[0]["code"] == "entries_closed"
    assert Registration.objects.filter(event=event).count() == 4


def test_the_constraints_checked_over_the_list_are_all_of_registrations():
    from tournaments.services.registrations import BULK_CHECKED_CONSTRAINTS

    assert {c.name for c in Registration._meta.constraints} == BULK_CHECKED_CONSTRAINTS


def test_a_bulk_refusal_is_named_at_the_files_row_and_line():
    from tournaments.services.player_entry import refusals_at_rows

    rows = [(0, 2, {}), (2, 4, {})]  # the second row of the plan is the file's third data row
    with pytest.raises(ServiceError) as refused, refusals_at_rows("entries", rows):
        raise ServiceError([{"hand": None, "field": "entries[1].start_number", "code": "taken",
                             "message": "start number 3 is taken"},
                            {"hand": None, "field": "event", "code": "closed", "message": "no"}])
    assert refused.value.errors == [
        {"hand": None, "field": "rows[2].start_number", "code": "taken",
         "message": "line 4: start number 3 is taken"},
        {"hand": None, "field": "event", "code": "closed", "message": "no"}]
