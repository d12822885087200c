"""What WeasyPrint may read while it renders a printout: data URIs (the QR codes) and the
DejaVu font files of Debian's fonts-dejavu-core, nothing else. Every printout passes
`PrintFetcher` as WeasyPrint's url_fetcher: the documents of the one pipeline
(tournaments.printing.base, used by the event printouts and the league and cup printouts) and
the table sheets' stylesheets (tournaments.printing.render).

A file URL is allowed by the file it names, not by how it is spelled: the path is decoded
once (as urllib decodes it when it opens the file), resolved (`..`, `%2e%2e`, symbolic links)
and must then lie inside the resolved font folder; the file opened is that resolved path. A
prefix check of the URL would let `file:///usr/share/fonts/truetype/dejavu/../../../../etc/passwd`
through.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit
from urllib.request import url2pathname

from weasyprint.urls import URLFetcher

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")


def font_file(url: str, font_dir: Path | None = None) -> Path | None:
    """The font file a `file:` URL names, resolved, when it is a file inside the font folder;
    None for anything else (another scheme, another host, a path leading out of the folder)."""
    parts = urlsplit(url)
    if parts.scheme.lower() != "file" or parts.netloc.lower() not in ("", "localhost"):
        return None
    root = Path(os.path.realpath(font_dir or FONT_DIR))
    path = Path(os.path.realpath(url2pathname(parts.path)))
    if path == root or not path.is_relative_to(root) or not path.is_file():
        return None
    return path


class PrintFetcher(URLFetcher):
    """WeasyPrint's fetcher, refusing every URL but data URIs and the font files."""

    def fetch(self, url, headers=None):
        if url.startswith("data:"):
            return super().fetch(url, headers)
        path = font_file(url)
        if path is None:
            raise ValueError(f"the printouts fetch no external resources ({url[:80]})")
        # The checked path itself, so that nothing between the check and the read spells it
        # differently.
        return super().fetch(path.as_uri(), headers)
