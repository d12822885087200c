"""A lone player's table (#21, seed 000 §4.1 b: 41 players are ten tables of four and one
player alone) as the day meets it: the round page, his table link on a phone, the printed
sheet and the public scorecard show a table of one without an error."""

from __future__ import annotations

from django.test import Client

from tests.tournaments.pages.support import client_for, make_event, make_user, seat_round
from tournaments import services
from tournaments.models import TableLink


def test_a_lone_players_table_shows_everywhere(db, django_capture_on_commit_callbacks):
    organiser = make_user("org-lone", can_create=True)
    event = make_event(organiser, slug="lone-day", players=5, min_table_size=1)
    rnd = seat_round(event, organiser, django_capture_on_commit_callbacks)
    services.round_publish(rnd=rnd, actor=organiser)
    lone = next(t for t in rnd.tables.all() if t.seats.count() == 1)
    lone.scorecard.refresh_from_db()
    assert lone.scorecard.status in ("confirmed", "verified")

    official = client_for(organiser)
    page = official.get("/manage/e/lone-day/rounds/1/").content.decode()
    assert f"Table {lone.number}" in page
    assert official.get(f"/manage/e/lone-day/rounds/1/tables/{lone.number}/").status_code == 200
    sheet = official.get(f"/e/lone-day/rounds/1/tables/{lone.number}/sheet.pdf")
    assert sheet.status_code == 200 and sheet["Content-Type"] == "application/pdf"

    phone = Client()
    link = TableLink.objects.get(table=lone, revoked_at__isnull=True)
    response = phone.get(f"/t/{link.token}/")
    assert response.status_code == 200
    public = phone.get(f"/e/lone-day/rounds/1/tables/{lone.number}/")
    assert public.status_code == 200
    scorecard = phone.get(f"/e/lone-day/rounds/1/tables/{lone.number}/scorecard.pdf")
    assert scorecard.status_code == 200
