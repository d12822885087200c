"""A money sheet that does not add up says by how much (issue #33): the refusal names the money
the table wrote and what the stakes and the amounts bought make, in the reader's language and
number format, on the desk's sheet and on the table's phone (seed 004, "Samokontrola hry u
stolu": the money on the table is the stakes plus the top-ups)."""

from __future__ import annotations

import pytest

from tests.tournaments.pages.support import client_for, make_event, make_user, seat_round
from tournaments import services
from tournaments.services import table_links

pytestmark = pytest.mark.django_db


@pytest.fixture
def czech_table(django_capture_on_commit_callbacks):
    organiser = make_user("org-money", can_create=True)
    event = make_event(organiser, slug="money", ruleset_code="gp-vysociny-2004", ruleset_mode="four",
                       seating_system="random", stake_haler=2000, min_table_size=4, players=4)
    rnd = seat_round(event, organiser, django_capture_on_commit_callbacks)
    services.round_publish(rnd=rnd, actor=organiser)
    return organiser, rnd.tables.get(number=1)


def _sheet(card, money: list[str], bought: list[str]) -> dict[str, str]:
    p = card.player_ids
    return {"version": str(card.version), **{f"money-{x}": m for x, m in zip(p, money, strict=True)},
            **{f"bought-{x}": b for x, b in zip(p, bought, strict=True)}}


@pytest.mark.parametrize("language, words", [
    ("en", ("89.90 Kč", "90.00 Kč")),
    ("sl", ("89,90 Kč", "90,00 Kč", "skupaj")),
    ("cs", ("89,90 Kč", "90,00 Kč", "dohromady")),
    ("de", ("89,90 Kč", "90,00 Kč", "zusammen")),
])
def test_a_sheet_that_does_not_add_up_says_the_entered_and_the_expected_total(czech_table, language,
                                                                             words):
    organiser, table = czech_table
    card = table.scorecard
    # Stakes 4 × 20 Kč and 10 Kč bought make 90 Kč; the table wrote 89,90 Kč.
    data = _sheet(card, ["30", "20", "20", "19.90"], ["10", "0", "0", "0"])
    answer = client_for(organiser).post("/manage/e/money/rounds/1/tables/1/money/", data,
                                        HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 400
    page = answer.content.decode()
    for word in words:
        assert word in page, (language, word)
    card.refresh_from_db()
    assert not card.money_rows.exists()


def test_the_phone_says_the_two_totals_too(czech_table):
    organiser, table = czech_table
    card = table.scorecard
    link = table_links.links_ensure(rnd=table.round, actor=organiser)[table.number]
    phone = client_for(None)
    phone.post(f"/t/{link.token}/seat/", {"seat": card.player_ids[0]})
    data = _sheet(card, ["30", "20", "20", "20"], ["0", "0", "0", "0"])
    answer = phone.post(f"/t/{link.token}/money/", data, HTTP_ACCEPT_LANGUAGE="sl")
    assert answer.status_code == 400, answer.status_code
    page = answer.content.decode()
    assert "90,00 Kč" in page and "80,00 Kč" in page
