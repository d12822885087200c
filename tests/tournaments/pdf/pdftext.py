"""Reading generated PDFs back in the tests: their text (pypdf), pages, embedded fonts, and
page images (pypdfium2, a wheel, so no system tool is needed)."""

from __future__ import annotations

import io

from pypdf import PdfReader


def reader(pdf: bytes) -> PdfReader:
    assert pdf.startswith(b"%PDF-"), "not a PDF"
    return PdfReader(io.BytesIO(pdf))


def text(pdf: bytes) -> str:
    return "\n".join(page.extract_text() or "" for page in reader(pdf).pages)


def page_texts(pdf: bytes) -> list[str]:
    return [page.extract_text() or "" for page in reader(pdf).pages]


def fonts(pdf: bytes) -> set[str]:
    """Base names of the fonts embedded in the PDF (subset prefixes removed)."""
    names = set()
    for page in reader(pdf).pages:
        resources = page.get("/Resources") or {}
        for font in (resources.get("/Font") or {}).values():
            base = str(font.get_object().get("/BaseFont", ""))
            names.add(base.split("+", 1)[-1].lstrip("/"))
    return names


def page_image(pdf: bytes, *, page: int = 0, dpi: int = 50):
    """One page rasterised to a greyscale PIL image at `dpi`."""
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf)
    try:
        bitmap = document[page].render(scale=dpi / 72)
        return bitmap.to_pil().convert("L")
    finally:
        document.close()
