"""QR codes for the sheets, as PNG data URIs of one pixel per module, drawn without smoothing.

Why a bitmap and not SVG: WeasyPrint draws an SVG's path by parsing it in Python, on every
sheet, and a code's path is hundreds of squares; a bitmap is embedded as it is. Printed with
the `image-rendering: pixelated` of templates/pdf/base.css, a viewer or printer enlarges each
module as a sharp square, as it would a vector, and no temporary file is written.
"""

from __future__ import annotations

import segno


def qr_data_uri(url: str) -> str:
    # Error correction "M" survives a coffee stain or a fold across the code, and the URLs
    # are short enough that the code stays at version 3-4, readable at 2 cm.
    code = segno.make(url, error="m", micro=False)
    return code.png_data_uri(scale=1, border=0, dark="#000", light="#fff")
