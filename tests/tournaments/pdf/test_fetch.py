"""What WeasyPrint may read while rendering (tournaments.printing.fetch): data URIs and the
font files, judged by the file a URL names after `..`, `%2e%2e` and symbolic links are
resolved, not by how the URL starts; the event and the league printouts use the same fetcher."""

from __future__ import annotations

from pathlib import Path

import pytest
import weasyprint

from leagues import pdf as league_pdf
from tournaments.printing import base, fetch, render
from tournaments.printing.fetch import FONT_DIR, PrintFetcher

FONT = FONT_DIR / "DejaVuSans.ttf"
TRAVERSALS = [
    f"file://{FONT_DIR}/../../../../../etc/passwd",
    f"file://{FONT_DIR}/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    f"file://{FONT_DIR}/%2E%2E/%2E%2E/%2E%2E/%2E%2E/%2E%2E/etc/passwd",
    f"file://{FONT_DIR}/..%2f..%2f..%2f..%2f..%2fetc%2fpasswd",
    f"file://{FONT_DIR}/./../../../../../etc/passwd",
    f"file://{FONT_DIR}",
    f"file://{FONT_DIR}/",
    f"file://{FONT_DIR}-evil/DejaVuSans.ttf",
    f"file://evil.example{FONT}",
    "file:///etc/passwd",
    "http://127.0.0.1/",
    "https://example.com/font.ttf",
    "ftp://example.com/x",
]


def _read(url: str) -> bytes:
    response = PrintFetcher().fetch(url)
    try:
        return response.file_obj.read() if hasattr(response, "file_obj") else response.read()
    finally:
        response.close()


@pytest.mark.parametrize("url", TRAVERSALS)
def test_a_url_outside_the_font_folder_is_refused_however_it_is_spelled(url):
    assert fetch.font_file(url) is None
    with pytest.raises(ValueError, match="no external resources"):
        PrintFetcher().fetch(url)


def test_the_font_files_and_data_uris_are_read():
    assert fetch.font_file(f"file://{FONT}") == FONT.resolve()
    assert fetch.font_file(f"file://localhost{FONT}") == FONT.resolve()
    assert fetch.font_file(f"file://{FONT_DIR}/./DejaVuSans.ttf") == FONT.resolve()
    assert _read(f"file://{FONT}")[:4] == FONT.read_bytes()[:4]
    assert _read("data:text/plain;base64,dGFyb2s=") == b"tarok"


def test_a_symbolic_link_in_the_font_folder_leading_out_of_it_is_refused(tmp_path):
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    (fonts / "real.ttf").write_bytes(b"font")
    secret = tmp_path / "secret.txt"
    secret.write_text("not a font")
    (fonts / "link.ttf").symlink_to(secret)
    (fonts / "inside.ttf").symlink_to(fonts / "real.ttf")
    assert fetch.font_file(f"file://{fonts}/real.ttf", fonts) == fonts / "real.ttf"
    assert fetch.font_file(f"file://{fonts}/inside.ttf", fonts) == fonts / "real.ttf"
    assert fetch.font_file(f"file://{fonts}/link.ttf", fonts) is None
    assert fetch.font_file(f"file://{fonts}/../secret.txt", fonts) is None


def test_a_printout_naming_a_file_outside_the_fonts_renders_without_it(caplog):
    # A style sheet whose address leads out of the font folder: WeasyPrint asks the fetcher,
    # which refuses, and the page renders without it.
    html = f'<link rel="stylesheet" href="file://{FONT_DIR}/../../../../../etc/passwd"><p>x</p>'
    with caplog.at_level("WARNING", logger="weasyprint"):
        weasyprint.HTML(string=html, url_fetcher=PrintFetcher()).render()
    assert "no external resources" in caplog.text


def test_every_printout_uses_the_checking_fetcher():
    # The one pipeline lays every document out with the fetcher, and the sheets' stylesheets
    # are read with it too; the league and cup printouts have no WeasyPrint of their own.
    for module in (base, render):
        source = Path(module.__file__).read_text(encoding="utf-8")
        assert "url_fetcher=PrintFetcher()" in source
        assert "startswith(\"file://" not in source
    league_source = Path(league_pdf.__file__).read_text(encoding="utf-8")
    assert "weasyprint" not in league_source and "from tournaments.printing.base import" in league_source
