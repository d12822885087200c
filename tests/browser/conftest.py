"""Browser tests: real headless Chromium (Debian's /usr/bin/chromium) driven by Playwright
against pytest-django's live server.

Without Chromium the tests are skipped with the reason, unless EXPECT_BROWSER=1 says the
machine must have it (CI): then they fail. Playwright's sync API runs an event loop in this
thread, and Django refuses ORM calls from a thread with a running loop; the tests read and
set up data through the ORM between browser steps, so that check is switched off here, for
these tests only (left set, it would leak into the rest of the session, where
`check --deploy` rightly refuses it).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def chromium():
    """The browser, for one test module. DJANGO_ALLOW_ASYNC_UNSAFE is set exactly while
    Playwright's loop runs (database flushes at teardown included) and restored after."""
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing: install Debian's chromium to run the browser tests"
        if os.environ.get("EXPECT_BROWSER") == "1":
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            try:
                yield browser
            finally:
                browser.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def new_page(chromium, request):
    """Pages in fresh browser contexts (separate cookies: one per person at the table)."""
    contexts = []
    request.node._browser_pages = []

    def make(width: int = 1280, height: int = 900):
        context = chromium.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(15000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        # Destructive buttons ask first (window.confirm): a person says yes; the question is
        # kept so that a test can check it was asked.
        page.confirms = []
        page.on("dialog", lambda dialog: (page.confirms.append(dialog.message), dialog.accept()))
        request.node._browser_pages.append(page)
        return page

    errors: list[str] = []
    yield make
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors on the pages: {errors}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """On a failure, keep a screenshot of every open page for the report."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    pages = getattr(item, "_browser_pages", [])
    folder = Path(os.environ.get("BROWSER_FAILURE_DIR", "/tmp/browser-failures"))
    folder.mkdir(parents=True, exist_ok=True)
    for i, page in enumerate(pages):
        try:
            page.screenshot(path=str(folder / f"{item.name}-{i}.png"), full_page=True)
            (folder / f"{item.name}-{i}.html").write_text(page.content(), encoding="utf-8")
        except Exception as exc:  # a closed page has nothing to show; say so and go on
            report.sections.append(("browser", f"page {i}: no screenshot ({exc})"))
