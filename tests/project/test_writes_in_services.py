"""Every write in a transaction lives in a services room (issue #30): a `services/` package or
an app's `services.py`, plus the job runner. A transaction anywhere else is a write that an
edge does on its own, past the checks of the services (as the API's register call once did,
never matching the registry). The few other places that open one say why below.

Migrations are Django's; tests open what they like."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("scoring", "guard", "tournaments", "leagues", "rankings", "config")

# path: why it opens transactions outside a services room.
ELSEWHERE = {
    # Finding or creating a job by its unique key, as a savepoint of its own (find_or_create).
    "tournaments/runtime/jobs.py": "the job runner",
    # "This package is a service of its own" (its docstring): the import writes the models
    # directly in one transaction across the check and the write, to bring an archive back
    # exactly as it was, which replaying the services would not.
    "tournaments/archive/importing.py": "the archive's import, a service of its own",
    # The demo of `make run`, seeded in one transaction so that a half-seeded demo is never left.
    "tournaments/demo.py": "the demo's seed",
    "leagues/demo.py": "the demo's seed",
    # A counter's row read and bumped under a lock: requests counted, not anybody's data.
    "guard/counters.py": "the guard's counts",
}


def in_services_room(relative: Path) -> bool:
    return "services" in relative.parts[:-1] or relative.name == "services.py"


def opens_transaction(tree: ast.AST) -> bool:
    """Whether the module uses `transaction.atomic` or an imported `atomic`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "atomic":
            return True
        if isinstance(node, ast.ImportFrom) and any(a.name == "atomic" for a in node.names):
            return True
    return False


def transactions_outside_services(root: Path = ROOT) -> set[str]:
    found = set()
    for app in APPS:
        for path in sorted((root / app).rglob("*.py")):
            relative = path.relative_to(root)
            if "migrations" in relative.parts or in_services_room(relative):
                continue
            if opens_transaction(ast.parse(path.read_text("utf-8"))):
                found.add(relative.as_posix())
    return found


def test_transactions_open_only_in_services_and_the_named_places():
    assert transactions_outside_services() - set(ELSEWHERE) == set()


def test_every_named_place_still_opens_one():
    # A reason outlives its place once the transaction has moved into a service: then it goes.
    assert transactions_outside_services() >= set(ELSEWHERE)


def test_a_transaction_in_a_view_is_found(tmp_path):
    (tmp_path / "tournaments" / "pages").mkdir(parents=True)
    (tmp_path / "tournaments" / "services").mkdir(parents=True)
    (tmp_path / "tournaments" / "pages" / "register.py").write_text(
        "from django.db import transaction\n\n@transaction.atomic\ndef view(request):\n    pass\n")
    (tmp_path / "tournaments" / "pages" / "other.py").write_text(
        "from django.db.transaction import atomic\n")
    (tmp_path / "tournaments" / "services" / "events.py").write_text(
        "from django.db import transaction\n\nwith transaction.atomic():\n    pass\n")
    assert transactions_outside_services(tmp_path) == {
        "tournaments/pages/register.py", "tournaments/pages/other.py"}
