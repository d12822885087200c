"""How many players an event has, where the pages say it (issue #33: "18 igralcev" with a
withdrawn player counted, and the organiser's heading keeping its old count after a
withdrawal until a reload): every count is of the registrations not withdrawn, and the
players page's row answer (htmx) carries the heading's new count out of band."""

from __future__ import annotations

import re

from tests.tournaments.pages.support import client_for, make_event, make_user
from tournaments.models import Registration


def _heading_count(html: str) -> str:
    return re.search(r'<small class="muted" id="players-count"[^>]*>([^<]*)</small>', html).group(1)


def test_a_withdrawal_answers_the_row_and_the_headings_new_count(db):
    organiser = make_user("count-org", can_create=True)
    event = make_event(organiser, slug="count", players=5)
    client = client_for(organiser)
    assert _heading_count(client.get("/manage/e/count/players/").content.decode()) == "5 playing"
    reg = event.registrations.order_by("start_number").last()
    answer = client.post(f"/manage/e/count/players/{reg.pk}/status/", {"status": "withdrawn"},
                         HTTP_HX_REQUEST="true").content.decode()
    assert answer.strip().startswith(f'<tr id="reg-{reg.pk}"')
    oob = re.search(r'<small[^>]*id="players-count"[^>]*>([^<]*)</small>', answer)
    assert oob and 'hx-swap-oob="true"' in oob.group(0) and oob.group(1) == "4 playing"
    # Reinstated, he counts again.
    answer = client.post(f"/manage/e/count/players/{reg.pk}/status/", {"status": "registered"},
                         HTTP_HX_REQUEST="true").content.decode()
    assert re.search(r'id="players-count"[^>]*>5 playing<', answer)
    # The whole page (no htmx) has no out-of-band copy.
    page = client.get("/manage/e/count/players/").content.decode()
    assert page.count('id="players-count"') == 1 and "hx-swap-oob" not in page


def test_the_public_pages_count_the_players_who_have_not_withdrawn(db):
    organiser = make_user("count-pub", can_create=True)
    event = make_event(organiser, slug="pub-count", players=6, online_entry=True, is_public=True,
                       status="registration")
    event.registrations.filter(start_number=6).update(status=Registration.Status.WITHDRAWN)
    anonymous = client_for(None)
    detail = anonymous.get("/e/pub-count/").content.decode()
    assert re.search(r"<summary>\s*5 players\s*</summary>", detail), detail
    # The withdrawn player is still listed, struck through.
    assert detail.count('class="withdrawn"') == 1
    entries = anonymous.get("/e/pub-count/entries/").content.decode()
    assert re.search(r'id="places-h">Entered <small class="muted">5 players</small>', entries)
