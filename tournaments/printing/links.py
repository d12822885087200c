"""The URLs the printouts carry and the routes that serve them, built in one place.

A sheet's QR code leads to its table's link, `/t/<token>/`, the page where the players enter
their hands on their phones with no account; the sheet also prints the table's short code for
typing at `/t/`. A filled scorecard's QR code leads to the table's public scorecard. The paths
are written out here rather than reversed because they are part of what is printed: a sheet
handed out must keep pointing at the same place whatever the routing module is called.
"""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse

TABLE_LINK_PREFIX = "/t/"
PLAYER_LINK_PREFIX = "/p/"


def table_link_path(token: str) -> str:
    return f"{TABLE_LINK_PREFIX}{token}/"


def table_link_url(base_url: str, token: str) -> str:
    """Absolute URL of a table's link; `base_url` is scheme and host, no slash."""
    return base_url.rstrip("/") + table_link_path(token)


def player_link_path(token: str) -> str:
    """A player's personal page (tournaments.pages.player_link), printed as a QR code on his
    badge or entry confirmation."""
    return f"{PLAYER_LINK_PREFIX}{token}/"


def player_link_url(base_url: str, token: str) -> str:
    return base_url.rstrip("/") + player_link_path(token)


def entry_path(slug: str, token: str) -> str:
    """An online entry's own page (tournaments.pages.entries): its state, the confirmation of
    its address, withdrawing it while it waits."""
    return f"/e/{slug}/entry/{token}/"


def code_entry_url(base_url: str) -> str:
    """Where a player types his table's code."""
    return base_url.rstrip("/") + TABLE_LINK_PREFIX


def public_table_path(slug: str, round_number: int, table_number: int) -> str:
    return f"/e/{slug}/rounds/{round_number}/tables/{table_number}/"


def public_table_url(base_url: str, slug: str, round_number: int, table_number: int) -> str:
    return base_url.rstrip("/") + public_table_path(slug, round_number, table_number)


def base_url_of(request) -> str:
    """Scheme and host the printed and mailed links are built on: settings.PUBLIC_BASE_URL
    where it is set (at a venue, the laptop's address on its Wi-Fi, whatever address the
    organiser's own browser uses: docs/venue.md), else the request's, so the QR codes lead back
    to the server that printed them (behind a proxy Django's SECURE_PROXY_SSL_HEADER and
    ALLOWED_HOSTS decide both)."""
    if settings.PUBLIC_BASE_URL:
        return settings.PUBLIC_BASE_URL
    return request.build_absolute_uri("/").rstrip("/")


def round_sheets_url(slug: str, round_number: int) -> str:
    return reverse("pdf-round-sheets", kwargs={"slug": slug, "number": round_number})


def round_sheets_status_url(slug: str, round_number: int) -> str:
    return reverse("pdf-round-sheets-status", kwargs={"slug": slug, "number": round_number})
