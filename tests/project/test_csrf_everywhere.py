"""CSRF on every form: every page URL refuses a POST without a token, even from a logged-in
organiser, and every POST form in the templates carries its token."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import get_resolver

from sample_data.factories import UserFactory

ROOT = Path(__file__).resolve().parents[2]
# Stand-ins for the URL parameters: the CSRF check runs before any view looks them up.
SAMPLE = {"slug": "demo", "season": "2025-26", "uidb64": "MQ", "token": "set-password"}


def _page_urls() -> list[str]:
    urls = []

    def walk(patterns, prefix=""):
        for p in patterns:
            if hasattr(p, "url_patterns"):
                walk(p.url_patterns, prefix + str(p.pattern))
                continue
            route = prefix + str(p.pattern)
            if route.startswith(("admin/", "api/", "static/")):
                continue  # the admin is Django's own; the API has its own CSRF tests
            urls.append("/" + re.sub(r"<(?:(\w+):)?(\w+)>",
                                     lambda m: SAMPLE.get(m.group(2), "1"), route))

    walk(get_resolver().url_patterns)
    return sorted(set(urls))


@pytest.mark.django_db
def test_every_page_refuses_a_post_without_a_csrf_token():
    organiser = UserFactory(is_staff=True)
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    urls = _page_urls()
    assert len(urls) > 50  # the walk found the organiser, referee and public pages
    unprotected = [u for u in urls if client.post(u, {"x": "1"}).status_code != 403]
    assert unprotected == []


def test_every_post_form_in_the_templates_carries_its_token():
    missing = []
    for path in (ROOT / "templates").rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        for form in re.finditer(r"<form\b[^>]*>(.*?)</form>", text, re.S | re.I):
            opening = form.group(0)[: form.group(0).index(">") + 1]
            if re.search(r'method\s*=\s*["\']?post', opening, re.I) and "csrf_token" not in form.group(1):
                missing.append(f"{path.relative_to(ROOT)}: {opening[:80]}")
    assert missing == []
