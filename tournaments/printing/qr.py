"""QR codes for the sheets, as PNG data URIs of one pixel per module, drawn without smoothing.

Why a bitmap and not SVG: WeasyPrint draws an SVG's path by parsing it in Python, on every
sheet, and a code's path is hundreds of squares; a bitmap is embedded as it is. Printed with
the `image-rendering: pixelated` of templates/pdf/base.css, a viewer or printer enlarges each
module as a sharp square, as it would a vector, and no temporary file is written.
"""

from __future__ import annotations

import segno
import segno.helpers
from django.conf import settings


def qr_data_uri(url: str) -> str:
    # Error correction "M" survives a coffee stain or a fold across the code, and the URLs
    # are short enough that the code stays at version 3-4, readable at 2 cm.
    code = segno.make(url, error="m", micro=False)
    return code.png_data_uri(scale=1, border=0, dark="#000", light="#fff")


def venue_wifi_qr() -> str:
    """The join code of the venue's Wi-Fi (settings.VENUE_WIFI_SSID, docs/venue.md), as a data
    URI, or "" when none is set. segno writes the `WIFI:` text with its escapes (a ";" or ":"
    in a name or password)."""
    ssid = settings.VENUE_WIFI_SSID
    if not ssid:
        return ""
    password = settings.VENUE_WIFI_PASSWORD
    data = segno.helpers.make_wifi_data(ssid=ssid, password=password or None,
                                        security="WPA" if password else "nopass")
    return qr_data_uri(data)
