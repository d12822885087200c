"""The round clock service (`round_start_clock`) and the CSV import of registrations
(`registrations_import_csv`): the clock starts only on a published round and leaves an audit
entry; an import checks every row first and then registers all of them or none."""

from __future__ import annotations

import pytest

from sample_data.factories import EventFactory, PlayerFactory, RegistrationFactory, UserFactory
from tests.tournaments.api.test_roles import build_world
from tournaments import services
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Player, Registration, Round
from tournaments.services.round_jobs import round_close

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------------
# Round clock
# ---------------------------------------------------------------------------------------


@pytest.fixture
def draft_round():
    event = EventFactory(round_duration_minutes=90)
    for n in range(1, 5):
        RegistrationFactory(event=event, start_number=n)
    return services.round_store(event=event, number=1, seating_system="fixed", seed=0,
                                tables=[["1", "2", "3", "4"]], actor=None)


def test_the_clock_starts_only_once_on_a_published_round(draft_round):
    organiser = UserFactory()
    draft_round.event.organisers.add(organiser)
    with pytest.raises(ServiceError) as exc:
        services.round_start_clock(rnd=draft_round, actor=organiser)
    assert exc.value.errors[0]["code"] == "round_not_published"
    services.round_publish(rnd=draft_round, actor=organiser)

    rnd = services.round_start_clock(rnd=draft_round, actor=organiser)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PLAYING and rnd.clock_started_at is not None
    entry = AuditEntry.objects.get(action="round.start_clock")
    assert entry.actor == organiser
    assert entry.before == {"status": "published"} and entry.after["status"] == "playing"

    with pytest.raises(ServiceError) as exc:
        services.round_start_clock(rnd=rnd, actor=organiser)
    assert exc.value.errors[0]["code"] == "clock_running"
    started = rnd.clock_started_at
    rnd.refresh_from_db()
    assert rnd.clock_started_at == started


def test_a_playing_round_closes_and_a_closed_round_has_no_clock(draft_round):
    services.round_publish(rnd=draft_round, actor=None)
    services.round_start_clock(rnd=draft_round, actor=None)
    card = draft_round.tables.get().scorecard
    services.scorecard_annul(scorecard=card, actor=None, reason="test")
    round_close(rnd=draft_round, actor=None)
    with pytest.raises(ServiceError) as exc:
        services.round_start_clock(rnd=draft_round, actor=None)
    assert exc.value.errors[0]["code"] == "round_closed"


# ---------------------------------------------------------------------------------------
# CSV import
# ---------------------------------------------------------------------------------------


def test_an_import_registers_every_row_reusing_known_players():
    event = EventFactory()
    known_by_id = PlayerFactory(first_name="Janez", last_name="Novak", federation_id="SLO-17")
    known_by_name = PlayerFactory(first_name="Ana", last_name="Krajnc", club="TD Maribor")
    RegistrationFactory(event=event, start_number=1)
    text = ("\ufefffirst_name;last_name;club;country;federation_id;start_number;status\n"
            "Janez;Novak;TK Ljubljana;si;SLO-17;;checked in\n"
            "ana;KRAJNC;td maribor;SI;;10;\n"
            "\n"
            "Marko;Kovač;TK Kranj;SI;;;late_entry\n")
    user = UserFactory()
    event.organisers.add(user)
    created = services.registrations_import_csv(event=event, text=text, actor=user)

    assert [(r.player_id, r.start_number, r.status) for r in created] == [
        (known_by_id.pk, 11, "checked_in"),
        (known_by_name.pk, 10, "registered"),
        (Player.objects.get(last_name="Kovač").pk, 12, "late_entry"),
    ]
    assert Player.objects.get(last_name="Kovač").country == "SI"
    assert event.registrations.count() == 4
    summary = AuditEntry.objects.get(action="registration.import")
    # The player found by name and club is named in the summary (issue #14, finding 8).
    assert summary.after == {"rows": 3, "start_numbers": [11, 10, 12],
                             "reused_players": [known_by_name.pk]}
    assert AuditEntry.objects.filter(action="registration.create").count() == 3


def test_one_bad_row_refuses_the_whole_file_and_every_problem_is_listed():
    event = EventFactory()
    taken = RegistrationFactory(event=event, start_number=5)
    PlayerFactory(first_name="Ivan", last_name="Twin", club="TK")
    PlayerFactory(first_name="Ivan", last_name="Twin", club="TK")
    PlayerFactory(first_name="Real", last_name="Owner", federation_id="F-1")
    players_before = Player.objects.count()
    text = ("first_name,last_name,club,country,federation_id,start_number,status\n"
            "Good,Row,TK,SI,,,\n"                                  # rows[0]: fine
            "Bad,Number,TK,SI,,x,\n"                               # rows[1]
            "Taken,Number,TK,SI,,5,\n"                             # rows[2]
            ",,TK,SI,,,\n"                                         # rows[3]
            "Odd,Status,TK,SI,,,sleeping\n"                        # rows[4]
            "Ivan,Twin,TK,SI,,,\n"                                 # rows[5]
            "Someone,Else,TK,SI,F-1,,\n"                           # rows[6]
            f"{taken.player.first_name},{taken.player.last_name},{taken.player.club},SI,,,\n"  # rows[7]
            "Good,Row,TK,SI,,,\n"                                  # rows[8]
            "Long,Country,TK,SVN,,,\n")                            # rows[9]
    with pytest.raises(ServiceError) as exc:
        services.registrations_import_csv(event=event, text=text, actor=None)
    found = {(e["field"], e["code"]) for e in exc.value.errors}
    assert found == {
        ("rows[1].start_number", "invalid"),
        ("rows[2].start_number", "start_number_taken"),
        ("rows[3].first_name", "required"),
        ("rows[3].last_name", "required"),
        ("rows[4].status", "invalid_choice"),
        ("rows[5].last_name", "ambiguous_player"),
        ("rows[6].federation_id", "federation_id_mismatch"),
        ("rows[7].last_name", "already_registered"),
        ("rows[8].last_name", "duplicate"),
        ("rows[9].country", "invalid"),
    }
    assert all(e["message"].startswith("line ") for e in exc.value.errors)
    assert event.registrations.count() == 1
    assert Player.objects.count() == players_before
    assert not AuditEntry.objects.filter(action__startswith="registration.").exists()


@pytest.mark.parametrize(("text", "code"), [
    ("", "empty"),
    ("first_name,last_name\n", "empty"),
    ("first_name,surname\nA,B\n", "unknown_column"),
    ("last_name,club\nB,TK\n", "missing_column"),
    ("first_name,last_name,last_name\nA,B,C\n", "repeated_column"),
])
def test_a_bad_header_or_an_empty_file_is_refused(text, code):
    event = EventFactory()
    with pytest.raises(ServiceError) as exc:
        services.registrations_import_csv(event=event, text=text, actor=None)
    assert code in {e["code"] for e in exc.value.errors}
    assert all(e["field"] == "header" for e in exc.value.errors)
    assert not Registration.objects.exists()


def test_a_row_with_more_cells_than_the_header_is_refused():
    event = EventFactory()
    with pytest.raises(ServiceError) as exc:
        services.registrations_import_csv(event=event, text="first_name,last_name\nA,B\nC,D,E\n",
                                          actor=None)
    assert [(e["field"], e["code"]) for e in exc.value.errors] == [("rows[1]", "too_many_cells")]
    assert not Registration.objects.exists()


def test_a_file_that_is_not_csv_is_refused_not_crashed_on():
    event = EventFactory()
    text = 'first_name,last_name\nA,B\n"' + "x" * 200_000 + '",C\n'
    with pytest.raises(ServiceError) as exc:
        services.registrations_import_csv(event=event, text=text, actor=None)
    assert [(e["field"], e["code"]) for e in exc.value.errors] == [("rows[1]", "malformed")]
    assert not Registration.objects.exists()


def test_a_plain_header_line_keeps_the_doubled_quotes_of_csv():
    world = build_world()
    text = 'first_name,last_name,club\nAna,Novak,"TK ""Kranj"""\nBor,Kos,"Ljubljana, center"\n'
    created = services.registrations_import_csv(event=world.event, text=text,
                                                actor=world.users["organiser"])
    assert [r.player.club for r in created] == ['TK "Kranj"', "Ljubljana, center"]
    semicolons = 'first_name;last_name;club\nCene;Zupan;"TK ""Piran"""\n'
    created = services.registrations_import_csv(event=world.event, text=semicolons,
                                                actor=world.users["organiser"])
    assert created[0].player.club == 'TK "Piran"'
