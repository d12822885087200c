"""A CSV file of players straight into a season's divisions on the season's players page:
registry players are found (forgiving case and diacritics, or by federation id) and not
created again, new ones are created, positions are given or the next free ones; one bad row
refuses the whole file with each problem under its row and column, and nothing is saved; the
import is audited; another league's organiser cannot import; a file over the byte limit (413)
or the row limit (400) is refused at its field, and nothing is stored."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from leagues import services
from leagues.models import SeasonMembership
from leagues.services.members_import import memberships_import_csv
from sample_data.factories import PlayerFactory, UserFactory, allow_event_creation
from tournaments.errors import ServiceError, TooLarge
from tournaments.models import AuditEntry, Player

pytestmark = pytest.mark.django_db

URL = "/manage/leagues/csv-league/2025/players/import/"


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def season():
    organiser = allow_event_creation(UserFactory(username="csv-organiser"))
    league = services.league_create(actor=organiser, organisers=[organiser], name="CSV league",
                                    slug="csv-league", division_count=2, division_size=4,
                                    movement_count=1, qualification_group=True)
    return services.season_create(league=league, actor=organiser, name="2025", slug="2025")


def _members(season):
    return [(m.division.level, m.seed_position, m.player.first_name, m.player.last_name)
            for m in SeasonMembership.objects.filter(season=season)
            .select_related("division", "player").order_by("division__level", "seed_position")]


def test_a_csv_file_puts_players_into_divisions_reusing_registry_players(season):
    organiser = season.league.organisers.get()
    known = PlayerFactory(first_name="Žiga", last_name="Čeh", club="TK Kranj")
    by_id = PlayerFactory(first_name="Ana", last_name="Bizjak", club="", federation_id="SLO-77")
    players_before = Player.objects.count()
    text = ("first_name;last_name;club;country;federation_id;division;seed_position\n"
            "ziga;ceh;tk kranj;SI;;1;2\n"          # the registry's Žiga Čeh, by name and club
            "Ana;Bizjak;;;SLO-77;I;\n"             # by federation id; the next free position
            "Nova;Igralka;TK Celje;Slovenia;;ii.  LEAGUE;\n"
            "Peter;Kos;;AT;;Qualification group;5\n")
    response = _client(organiser).post(URL, {"file": SimpleUploadedFile("p.csv", text.encode())},
                                       follow=True)
    page = response.content.decode()
    assert response.status_code == 200 and "4 players put into the divisions." in page
    assert "Žiga Čeh was already in the registry" in page
    assert _members(season) == [(1, 1, "Ana", "Bizjak"), (1, 2, "Žiga", "Čeh"),
                                (2, 1, "Nova", "Igralka"), (3, 5, "Peter", "Kos")]
    assert Player.objects.count() == players_before + 2
    assert SeasonMembership.objects.get(season=season, division__level=1, seed_position=2).player == known
    assert SeasonMembership.objects.get(season=season, division__level=1, seed_position=1).player == by_id
    entry = AuditEntry.objects.get(action="league.membership.import")
    assert entry.actor == organiser and entry.after["rows"] == 4
    assert entry.after["reused_players"] == [known.pk]
    assert AuditEntry.objects.filter(action="league.membership.add").count() == 4


def test_one_bad_row_refuses_the_file_naming_each_row_and_column(season):
    organiser = season.league.organisers.get()
    member = PlayerFactory(first_name="Already", last_name="In", club="")
    services.membership_add(division=season.divisions.get(level=1), player=member, actor=organiser,
                            seed_position=1)
    text = ("first_name,last_name,club,country,federation_id,division,seed_position\n"
            "Good,Row,,,,1,2\n"
            "No,Division,,,,,\n"
            "Bad,Level,,,,7,\n"
            "Taken,Place,,,,1,1\n"
            "Too,Far,,,,2,9\n"
            "Already,In,,,,2,\n"
            ",Nameless,,Atlantis,,2,\n")
    response = _client(organiser).post(URL, {"text": text})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Nothing was imported" in page
    for row, words in ((2, "the division is missing"), (3, "7 is not a division of this season"),
                       (4, "seed position 1 of I. league is taken"),
                       (5, "the seed position must be a whole number from 1"),
                       (6, "Already In is already in this season"),
                       (7, "the first name is missing"), (7, "Atlantis is not a country")):
        # One number, the line of the file (the header is line 1; issue #33).
        assert f"<strong>line {row + 1}</strong>: " in page and words in page, (row, words)
        assert f"line {row + 1}: {words}" not in page
    assert "<strong>line 2</strong>" not in page and "<strong>row" not in page
    assert _members(season) == [(1, 1, "Already", "In")]
    assert not Player.objects.filter(last_name="Row").exists()
    assert not AuditEntry.objects.filter(action="league.membership.import").exists()

    # The service names the row and the column of each problem.
    with pytest.raises(ServiceError) as exc:
        memberships_import_csv(season=season, text=text, actor=organiser)
    fields = {e["field"] for e in exc.value.errors}
    assert {"rows[1].division", "rows[2].division", "rows[3].seed_position", "rows[4].seed_position",
            "rows[5].last_name", "rows[6].first_name", "rows[6].country"} <= fields


def test_a_full_division_a_repeated_player_and_an_unknown_column_are_refused(season):
    organiser = season.league.organisers.get()
    client = _client(organiser)
    rows = "".join(f"P{n},Full,,,,1,\n" for n in range(5))
    response = client.post(URL, {"text": "first_name,last_name,club,country,federation_id,division,seed_position\n"
                                         + rows + "P0,Full,,,,2,\n"})
    page = response.content.decode()
    assert response.status_code == 400
    assert "I. league is full (4 players)" in page and "the same player as on line 2" in page
    response = client.post(URL, {"text": "first_name,last_name,start_number\nA,B,1\n"})
    assert response.status_code == 400 and "unknown columns: start_number" in response.content.decode()
    assert SeasonMembership.objects.count() == 0


def test_only_the_leagues_organisers_import_and_not_once_a_matchday_is_seated(season):
    other = allow_event_creation(UserFactory(username="other-organiser"))
    services.league_create(actor=other, organisers=[other], name="Other", slug="other")
    text = "first_name,last_name,division\nA,B,1\n"
    assert _client(other).post(URL, {"text": text}).status_code == 403
    assert Client().post(URL, {"text": text}).status_code == 302  # to the login page
    assert SeasonMembership.objects.count() == 0
    page = _client(season.league.organisers.get()).get("/manage/leagues/csv-league/2025/players/")
    assert 'action="/manage/leagues/csv-league/2025/players/import/"' in page.content.decode()


def _nothing_stored(season, players_before: int) -> None:
    assert SeasonMembership.objects.filter(season=season).count() == 0
    assert Player.objects.count() == players_before
    assert not AuditEntry.objects.filter(action__startswith="league.membership").exists()


def test_a_file_over_the_byte_limit_is_refused_with_413_at_its_field(season):
    players = Player.objects.count()
    big = "first_name,last_name,club,division\n" + "".join(
        f"Ana,Big{n},{'K' * 400},Qualification group\n" for n in range(2_600))
    assert len(big.encode()) > 1_048_576
    client = _client(season.league.organisers.get())
    client.cookies["django_language"] = "de"
    response = client.post(URL, {"file": SimpleUploadedFile("big.csv", big.encode())})
    assert response.status_code == 413
    form = response.context["import_form"]
    assert form.has_error("file", "too_large")
    assert form.errors["file"][0].startswith("die Datei ist größer als")
    pasted = client.post(URL, {"text": big})
    assert pasted.status_code == 413 and pasted.context["import_form"].has_error("text", "too_large")
    _nothing_stored(season, players)
    with pytest.raises(TooLarge):
        memberships_import_csv(season=season, text=big, actor=season.league.organisers.get())


def test_more_rows_than_the_limit_are_refused_at_the_field(season):
    players = Player.objects.count()
    text = "first_name,last_name,division\n" + "".join(
        f"Ana,Row{n},Qualification group\n" for n in range(5_001))
    response = _client(season.league.organisers.get()).post(
        URL, {"file": SimpleUploadedFile("rows.csv", text.encode())})
    assert response.status_code == 400
    assert response.context["import_form"].errors["file"] == [
        "the file has more than 5000 rows: import them in several files of at most 5000 rows"]
    _nothing_stored(season, players)
