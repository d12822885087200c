"""Fixtures of the printout tests: every test stores rendered files under its own MEDIA_ROOT."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _media_root(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")
