"""What a newcomer reads first (issue #33): `make run`'s banner leads to the app's start and
says how to log in (it pointed at the Django admin, which the tournament day never needs); the
README keeps exactly its two set-up commands and says that the first start takes about a
minute and how to choose another port."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run_banner() -> list[str]:
    makefile = (ROOT / "Makefile").read_text()
    recipe = re.search(r"^run:.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    return [line.strip().removeprefix("@echo ").strip('"') for line in recipe.splitlines()
            if line.strip().startswith("@echo")]


def test_the_run_banner_leads_to_the_start_page_and_says_the_logins():
    banner = " ".join(_run_banner())
    assert "/admin/" not in banner
    assert "http://$(HOST)/ " in banner
    assert "log in as organiser, password organiser" in banner
    assert "referee, password referee-demo" in banner


def test_the_readme_keeps_two_commands_and_says_the_first_minute_and_the_port():
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"## Two commands\n\n```sh\n(.*?)```", readme, re.S).group(1)
    assert [line.split()[:2] for line in block.strip().splitlines()] == [["make", "run"],
                                                                        ["make", "test"]]
    assert "takes about a minute" in readme
    assert "make run HOST=127.0.0.1:8080" in readme
