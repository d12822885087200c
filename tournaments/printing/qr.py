"""QR codes for the sheets, as SVG data URIs that WeasyPrint draws as vectors (sharp at any
printer resolution, and no temporary files)."""

from __future__ import annotations

import segno


def qr_data_uri(url: str) -> str:
    # Error correction "M" survives a coffee stain or a fold across the code, and the URLs
    # are short enough that the code stays at version 3-4, readable at 2 cm.
    code = segno.make(url, error="m", micro=False)
    return code.svg_data_uri(scale=4, border=0, dark="#000", light=None)
