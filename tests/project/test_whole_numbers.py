"""One reading of whole numbers from outside (issue #29): `tournaments.domain.limits.whole_number`
takes ASCII digits only, within bounds, and answers its default for anything else; and no
module of tournaments/, leagues/, rankings/ or config/ pairs str.isdigit(), isdecimal() or
isnumeric() with int() in one function, the pair that answered 500 to "?page=²" (isdigit() is
True for "²", int() refuses it) and read "١٢" as 12."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tournaments.domain.limits import INT_MAX, SMALL_MAX, whole_number

ROOT = Path(__file__).resolve().parents[2]
APPS = ("tournaments", "leagues", "rankings", "config")
DIGIT_TESTS = {"isdigit", "isdecimal", "isnumeric"}

# (file, function) pairs allowed to pair a digit test with int(), each with its reason. Empty:
# numbers from outside are read by `whole_number`, and the pure-Python engines that may not
# import it (rankings.hand_statistics) match `[0-9]` instead.
ALLOWED: set[tuple[str, str]] = set()


# ---------------------------------------------------------------------------------------
# The helper
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("raw", "number"), [
    ("0", 0), ("7", 7), ("0042", 42), (str(INT_MAX), INT_MAX), (12, 12),
])
def test_ascii_digits_are_a_whole_number(raw, number):
    assert whole_number(raw) == number


def test_twenty_digits_are_read_when_the_bounds_allow_them():
    assert whole_number("9" * 20, high=10**20) == 10**20 - 1


@pytest.mark.parametrize("raw", [
    "²", "①", "١٢", "۱۲", "१२", "１２",      # digits that are not ASCII: isdigit() is True for all
    "-1", "+1", " 1", "1 ", "1\n", "\t1",    # a sign, spaces: int() takes them, nobody typed them
    "1_000", "1e3", "1.0", "0x1f", "",       # int() reads "1_000"; the rest are no whole numbers
    None, True, False, 1.0, b"12", ["1"],    # not text nor int
    # Longer than any column: refused before int() reads it (int() refuses 4,300 digits itself).
    pytest.param("9" * 21, id="21 digits"), pytest.param("9" * 5000, id="5000 digits"),
    pytest.param("9" * 1_000_000, id="a million digits"),
])
def test_anything_else_is_no_whole_number(raw):
    assert whole_number(raw) is None
    assert whole_number(raw, default=1) == 1


def test_the_bounds_hold_for_text_and_for_ints():
    assert whole_number("0", low=1) is None
    assert whole_number("5", low=1, high=5) == 5
    assert whole_number("6", low=1, high=5, default=1) == 1
    assert whole_number(str(INT_MAX + 1)) is None
    assert whole_number(SMALL_MAX + 1, high=SMALL_MAX) is None
    assert whole_number(-3) is None
    assert whole_number(-3, low=-5) == -3


# ---------------------------------------------------------------------------------------
# The scan
# ---------------------------------------------------------------------------------------

def _scopes(tree: ast.Module) -> list[tuple[str, list[ast.AST]]]:
    """The module's own statements and each function's, every scope without the functions
    nested in it (an inner function's digit test is no pair with the outer one's int())."""
    scopes: list[tuple[str, list[ast.AST]]] = []

    def collect(name: str, body: list[ast.AST]) -> None:
        nodes: list[ast.AST] = []
        todo = list(body)
        while todo:
            node = todo.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                collect(node.name, node.body)
                todo.extend(node.decorator_list)
                continue
            nodes.append(node)
            todo.extend(ast.iter_child_nodes(node))
        scopes.append((name, nodes))

    collect("<module>", tree.body)
    return scopes


def _digit_test(node: ast.AST) -> bool:
    """`s.isdigit()`, and `str.isdigit` handed on (to filter(), say)."""
    return isinstance(node, ast.Attribute) and node.attr in DIGIT_TESTS


def _int_call(node: ast.AST) -> bool:
    """`int(s)`, and `int` handed on (to map(), say); not `int` in an annotation."""
    if not isinstance(node, ast.Call):
        return False
    if isinstance(node.func, ast.Name) and node.func.id == "int":
        return True
    return any(isinstance(arg, ast.Name) and arg.id == "int" for arg in node.args)


def digit_int_pairs(paths: list[Path], allowed: set[tuple[str, str]] = ALLOWED
                    ) -> list[tuple[str, str, int]]:
    """(file, function, line of the digit test) of each function pairing the two."""
    found = []
    for path in paths:
        name = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for function, nodes in _scopes(tree):
            tests = [n for n in nodes if _digit_test(n)]
            if tests and any(_int_call(n) for n in nodes) and (name, function) not in allowed:
                found.append((name, function, min(n.lineno for n in tests)))
    return sorted(found)


def _sources() -> list[Path]:
    return sorted(p for app in APPS for p in (ROOT / app).rglob("*.py")
                  if "migrations" not in p.parts)


def test_no_function_pairs_a_digit_test_with_int():
    sources = _sources()
    assert len(sources) > 100
    found = [f"{file}:{line} {function}()" for file, function, line in digit_int_pairs(sources)]
    assert found == [], ("read whole numbers with tournaments.domain.limits.whole_number, not "
                         "isdigit() and int():\n" + "\n".join(found))
    # An allowance outlives its reason silently: each must still name a pair.
    every = {(file, function) for file, function, _line in digit_int_pairs(sources, set())}
    assert ALLOWED <= every


def test_the_scan_finds_the_pairs(tmp_path):
    # The scan itself can fail: each function but `fine`, `typed` and `outer` pairs them.
    bad = tmp_path / "bad.py"
    bad.write_text(
        "def projector(raw):\n"
        "    return int(raw) if raw.isdigit() else 1\n"
        "def ids(values):\n"
        "    return list(map(int, filter(str.isdecimal, values)))\n"
        "def seat(raw):\n"
        "    if not raw.isnumeric():\n"
        "        return None\n"
        "    return int(raw)\n"
        "def fine(raw):\n"
        "    return raw.isdigit()\n"
        "def typed(raw: str) -> int | None:\n"
        "    return None if raw.isdigit() else 0\n"
        "def outer(raw):\n"
        "    def inner():\n"
        "        return raw.isdigit()\n"
        "    return int(inner())\n"
        "page = int(RAW) if RAW.isdigit() else 1\n", encoding="utf-8")
    assert digit_int_pairs([bad]) == [("bad.py", "<module>", 17), ("bad.py", "ids", 4),
                                      ("bad.py", "projector", 2), ("bad.py", "seat", 6)]
