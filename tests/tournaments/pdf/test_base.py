"""The one PDF pipeline (tournaments.printing.base): the league and cup printouts come out of
it in the language asked for, whatever language is active, with the title they are given; and
a web process does not load WeasyPrint before its first printout."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.utils import translation

from leagues.models import CupSeries
from leagues.pdf import cup_ranking_pdf
from tests.tournaments.pdf import pdftext

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.django_db
def test_a_cup_ranking_is_printed_in_the_language_asked_for_not_the_active_one():
    series = CupSeries.objects.create(name="Štajerski pokal", slug="pokal", best_results_counted=2)
    with translation.override("en"):
        pdf = cup_ranking_pdf(series, language="sl")
    text = pdftext.text(pdf)
    assert "Mesto" in text and "Še ni rezultatov." in text
    assert "No results yet." not in text
    assert pdftext.reader(pdf).metadata.title == "Štajerski pokal"
    # The active language is left as it was.
    with translation.override("de"):
        cup_ranking_pdf(series, language="sl")
        assert translation.get_language() == "de"


START = """
import sys
import django
django.setup()
from django.urls import get_resolver
get_resolver().url_patterns  # every page module, the leagues' and the rankings' too
import config.wsgi
print(sorted(name for name in ("weasyprint", "pikepdf") if name in sys.modules))
"""


def test_a_web_process_starts_without_weasyprint():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    done = subprocess.run([sys.executable, "-c", START], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"
