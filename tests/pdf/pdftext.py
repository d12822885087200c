"""Reading generated PDFs back in the tests: their text (pypdf), pages and embedded fonts."""

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
