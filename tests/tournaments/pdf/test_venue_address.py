"""At a venue (issue #32): the printed QR codes lead to the address the phones reach this
installation at (PUBLIC_BASE_URL, the laptop's address on the venue's Wi-Fi), whatever address
the organiser's own browser used; every table sheet may carry the venue Wi-Fi's join code, so a
phone is on the laptop's network before it scans its table's code; and the organiser's event
page shows the address with a code to try it on a phone."""

from __future__ import annotations

import base64
import io

import pikepdf
import pytest
import segno
import segno.helpers
from django.test import RequestFactory
from PIL import Image

from tests.tournaments.pages.support import client_for
from tournaments.models import TableLink
from tournaments.printing import links, render, selectors

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

LAPTOP = "http://192.168.1.20:8000"


def _modules(data_uri: str) -> list[list[bool]]:
    bitmap = Image.open(io.BytesIO(base64.b64decode(data_uri.split(",", 1)[1]))).convert("1")
    return [[bitmap.getpixel((x, y)) == 0 for x in range(bitmap.width)] for y in range(bitmap.height)]


def test_the_sheets_lead_to_the_laptops_address_not_the_browsers(czech, settings):
    settings.PUBLIC_BASE_URL = LAPTOP
    event, _ = czech
    request = RequestFactory().get("/", HTTP_HOST="localhost:8000")
    rnd = selectors.round_for_print(event, 2)
    sheets = selectors.table_sheets(rnd, links.base_url_of(request))
    tokens = {link.table.number: link.token for link in TableLink.objects.filter(table__round=rnd)}
    assert [s.entry_url for s in sheets] == [f"{LAPTOP}/t/{tokens[t]}/" for t in range(1, 5)]
    assert sheets[0].code_url == f"{LAPTOP}/t/"
    settings.PUBLIC_BASE_URL = ""
    assert links.base_url_of(request) == "http://localhost:8000"


def test_each_sheet_carries_the_venue_wifis_join_code_when_it_is_set(czech, settings):
    event, _ = czech
    rnd = selectors.round_for_print(event, 2)
    assert all(not s.wifi_qr for s in selectors.table_sheets(rnd, LAPTOP))
    settings.VENUE_WIFI_SSID, settings.VENUE_WIFI_PASSWORD = "Pri Tarokistu; gostje", "tarok:2026"
    sheets = selectors.table_sheets(rnd, LAPTOP)
    # The code is the WIFI: text a phone's camera joins, its ";" and ":" escaped.
    expected = segno.make(segno.helpers.make_wifi_data(
        ssid="Pri Tarokistu; gostje", password="tarok:2026", security="WPA"), error="m", micro=False)
    assert _modules(sheets[2].wifi_qr) == [[bool(m) for m in row] for row in expected.matrix]
    html = render.sheet_html(sheets[2])
    assert sheets[2].wifi_qr in html and "Pri Tarokistu; gostje" in html
    # Still one page a table.
    pdf = pikepdf.open(io.BytesIO(render.round_sheets_pdf(rnd, LAPTOP)))
    assert len(pdf.pages) == 4


def test_the_organisers_event_page_shows_where_the_phones_reach_the_server(czech, settings):
    settings.PUBLIC_BASE_URL = LAPTOP
    settings.VENUE_WIFI_SSID = "Pri Tarokistu"
    event, _ = czech
    page = client_for(event.organisers.first()).get(f"/manage/e/{event.slug}/").content.decode()
    assert f'href="{LAPTOP}/e/{event.slug}/"' in page
    assert "Pri Tarokistu" in page and "PUBLIC_BASE_URL" in page
