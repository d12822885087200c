"""The URLs the printouts carry and the routes that serve them, built in one place.

A sheet's QR code leads to its table's online entry page on the organiser side; that page is
routed by the pages of `/manage/` (tournaments.urls_organiser) at
`/manage/e/<slug>/rounds/<n>/tables/<t>/`. The path is written out here rather than reversed
because it is part of what is printed: a sheet handed out must keep pointing at the same
place whatever the routing module is called.
"""

from __future__ import annotations

from django.urls import reverse


def entry_path(slug: str, round_number: int, table_number: int) -> str:
    return f"/manage/e/{slug}/rounds/{round_number}/tables/{table_number}/"


def entry_url(base_url: str, slug: str, round_number: int, table_number: int) -> str:
    """Absolute URL of a table's entry page; `base_url` is scheme and host, no slash."""
    return base_url.rstrip("/") + entry_path(slug, round_number, table_number)


def base_url_of(request) -> str:
    """Scheme and host of the request, so the QR codes lead back to the server that printed
    them (behind a proxy Django's SECURE_PROXY_SSL_HEADER and ALLOWED_HOSTS decide both)."""
    return request.build_absolute_uri("/").rstrip("/")


def round_sheets_url(slug: str, round_number: int) -> str:
    return reverse("pdf-round-sheets", kwargs={"slug": slug, "number": round_number})


def round_sheets_status_url(slug: str, round_number: int) -> str:
    return reverse("pdf-round-sheets-status", kwargs={"slug": slug, "number": round_number})
