"""League schedules in which no two players meet twice, built by construction (no search).

Every schedule here is developed from a small base by a group of translations, the way
resolvable designs are built in the literature (difference families, 1-rotational designs):

- `rbibd`, v ≡ 4 (mod 12) players (16, 28, 40, 52, 64, 76, 88, 100): the points are
  A × Z_3 plus one point ∞, where A is an abelian group of order u = (v − 1)/3. The base
  matchday holds the table {∞, (0,0), (0,1), (0,2)} and, for every base block B, the
  tables B + (0, s) for s in Z_3. When the base blocks' first coordinates run once through
  A ∖ {0} and their differences ±(x − y) run once through the elements of A × Z_3 outside
  {0} × Z_3, the u translates of the base matchday by (a, 0), a ∈ A, are u = (v − 1)/3
  matchdays on which every pair meets exactly once: a resolvable 2-(v, 4, 1) design, which
  exists for every v ≡ 4 (mod 12) (Hanani, Ray-Chaudhuri and Wilson, 1972). For q = 13, 25,
  29 the blocks are the orbits of one or two blocks under the multiplicative subgroup of
  GF(q)* of odd order (cyclotomy).
- `rgdd`, 12m players (24, 36, 48, 60): the points are A × Z_3 plus ∞_0, ∞_1, ∞_2 with
  |A| = u = 4m − 1; the base matchday holds {∞_s, a + (0,s), b + (0,s), c + (0,s)} and the
  B + (0, s). The players of {x} × Z_3 (and the three ∞) never meet; every other pair meets
  exactly once over the u = (v − 3)/3 matchdays, a resolvable 4-GDD of type 3^(v/3), which
  exists for every v ≡ 0 (mod 12) but 12 (α-resolvable group divisible designs with block
  size four and group size three, Utilitas Mathematica).
- `rtd`, 4q players with q = 5, 11, 25 (20, 44, 100): four groups of q, the q parallel
  classes of a resolvable transversal design TD(4, q) over GF(q); players of one group never
  meet. For 100 players this gives 25 of the 33 matchdays that a resolvable 2-(100,4,1)
  design has (no difference family for it is built here).
- `published`, 32 players: the 10-matchday schedule of the social golfer problem 8-4-10
  (first found by A. Aguado, 2004), as printed in the Wolfram Demonstrations Project's
  "Social Golfer Problem" (and in F. P. van Doorn's Dagstuhl tables, literature.md). It is
  embedded as data and proved here, at import, by the independent checker's own count.

The base blocks were found once, offline, by an exhaustive search over block representatives
(a search for the difference family, not for the schedule); each design is verified by the
checker's pair count before it is first used, so a wrong digit can never reach a league.
Fields that are 1, 2 or 3 short of a multiple of four use the design of the next multiple of
four with that many players left out (`deleted`): players who never sit together, so the
tables they leave become the tables of three the layout asks for.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from .checker import pair_counts

Point = tuple[tuple[int, ...], int]  # (element of A, level in Z_3)


@dataclass(frozen=True)
class Family:
    """A base matchday and the group A that translates it."""

    kind: str                      # "rbibd", "rgdd" or "rtd"
    group: tuple[int, ...]         # the moduli of A (a product of cyclic groups)
    blocks: tuple[tuple[tuple[tuple[int, ...], int], ...], ...]  # base blocks (4 points)
    infinity_block: tuple[tuple[tuple[int, ...], int], ...] = ()  # rgdd: a, b, c beside ∞_0
    source: str = ""


def _z(*pairs: tuple[int, int]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Points of Z_u × Z_3 written as (x, level)."""
    return tuple(((x,), level) for x, level in pairs)


def _v(*pairs: tuple[tuple[int, ...], int]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Points of A × Z_3 with A a product of cyclic groups, written as ((x, y), level)."""
    return tuple((tuple(x), level) for x, level in pairs)


FAMILIES: dict[int, Family] = {
    16: Family("rbibd", (5,), (_z((1, 2), (2, 0), (3, 0), (4, 2)),),
               source="difference family over Z_5 × Z_3"),
    28: Family("rbibd", (3, 3), (_v(((0, 1), 1), ((0, 2), 1), ((1, 0), 1), ((2, 0), 0)),
                                 _v(((1, 1), 2), ((1, 2), 1), ((2, 1), 0), ((2, 2), 1))),
               source="difference family over Z_3 × Z_3 × Z_3"),
    40: Family("rbibd", (13,), (_z((1, 0), (5, 1), (12, 0), (8, 1)), _z((3, 0), (2, 1), (10, 0), (11, 1)),
                                _z((9, 0), (6, 1), (4, 0), (7, 1))),
               source="cyclotomic difference family over GF(13) × Z_3"),
    52: Family("rbibd", (17,), (_z((1, 0), (2, 1), (12, 0), (16, 2)), _z((3, 2), (8, 0), (11, 1), (15, 2)),
                                _z((4, 1), (6, 0), (9, 0), (10, 0)), _z((5, 0), (7, 0), (13, 1), (14, 0))),
               source="difference family over Z_17 × Z_3"),
    64: Family("rbibd", (21,), (_z((1, 1), (15, 0), (19, 1), (20, 0)), _z((2, 1), (7, 0), (12, 1), (16, 1)),
                                _z((3, 0), (5, 0), (11, 0), (18, 2)), _z((4, 2), (10, 1), (13, 2), (14, 0)),
                                _z((6, 2), (8, 1), (9, 1), (17, 0))),
               source="difference family over Z_21 × Z_3"),
    # GF(25) = GF(5)[x]/(x² − 2); (a, b) is a + b·x.
    76: Family("rbibd", (5, 5), (
        _v(((1, 0), 0), ((0, 1), 1), ((2, 0), 1), ((0, 2), 1)), _v(((2, 2), 0), ((4, 2), 1), ((4, 4), 1), ((3, 4), 1)),
        _v(((2, 3), 0), ((1, 2), 1), ((4, 1), 1), ((2, 4), 1)), _v(((3, 2), 0), ((1, 3), 2), ((3, 0), 1), ((2, 1), 0)),
        _v(((4, 0), 0), ((4, 3), 2), ((1, 1), 1), ((3, 1), 0)), _v(((3, 3), 0), ((0, 4), 2), ((1, 4), 1), ((0, 3), 0))),
        source="cyclotomic difference family over GF(25) × Z_3"),
    88: Family("rbibd", (29,), (
        _z((1, 0), (2, 1), (9, 1), (27, 0)), _z((7, 0), (14, 1), (5, 1), (15, 0)),
        _z((16, 0), (3, 1), (28, 1), (26, 0)), _z((20, 0), (11, 1), (6, 1), (18, 0)),
        _z((23, 0), (17, 1), (4, 1), (12, 0)), _z((24, 0), (19, 1), (13, 1), (10, 0)),
        _z((25, 0), (21, 1), (22, 1), (8, 0))),
        source="cyclotomic difference family over GF(29) × Z_3"),
    20: Family("rtd", (5,), (), source="resolvable transversal design over GF(5)"),
    44: Family("rtd", (11,), (), source="resolvable transversal design over GF(11)"),
    100: Family("rtd", (5, 5), (), source="resolvable transversal design over GF(25)"),
    24: Family("rgdd", (7,), (_z((2, 2), (4, 2), (5, 2), (6, 1)),),
               infinity_block=_z((0, 0), (1, 1), (3, 2)), source="difference family over Z_7 × Z_3"),
    36: Family("rgdd", (11,), (_z((1, 0), (2, 0), (3, 2), (6, 2)), _z((4, 1), (7, 0), (8, 1), (10, 1))),
               infinity_block=_z((0, 0), (5, 1), (9, 2)), source="difference family over Z_11 × Z_3"),
    48: Family("rgdd", (15,), (_z((1, 0), (5, 2), (8, 0), (11, 0)), _z((2, 1), (7, 0), (9, 2), (10, 2)),
                               _z((3, 2), (12, 2), (13, 1), (14, 2))),
               infinity_block=_z((0, 0), (4, 1), (6, 2)), source="difference family over Z_15 × Z_3"),
    60: Family("rgdd", (19,), (_z((1, 0), (11, 1), (12, 0), (17, 1)), _z((2, 2), (10, 1), (14, 0), (16, 0)),
                               _z((3, 1), (4, 1), (6, 2), (18, 1)), _z((5, 1), (7, 0), (8, 1), (15, 1))),
               infinity_block=_z((0, 0), (9, 1), (13, 2)), source="difference family over Z_19 × Z_3"),
}

# Social golfer problem 8-4-10: ten matchdays of 32 players (letters), no pair twice; the
# pairs A–a, B–b, ... never meet. Source: Wolfram Demonstrations Project, "Social Golfer
# Problem" (the first ten rows of its 11-round schedule for 32 players); first solved by
# Alejandro Aguado (2004), see M. Triska's social golfer pages.
GOLFERS_8_4_10 = (
    "ABCD EFGH IJKL MNOP abcd efgh ijkl mnop",
    "AEIm BcgH DFKp dfkP aeiM bCGh jLNo JlnO",
    "Aflo Bhkm DGiN aFLO bHKM CeJP cEjp dgIn",
    "AciL BdjK bDJk FgoP fGOp aCIl EhMn eHmN",
    "AgKN BElP DHIo dhiO beLp Cfjm cFJM aGkn",
    "AhJp BFin cDmO bfIN eGKl CdMo EgkL aHjP",
    "AdeF BGJo aDEf chlN iKmP CHLn bgjO IkMp",
    "AbnP aBNp DglM ceko fHiJ CEKO FhIj dGLm",
    "AGjM BeIO DhLP agJm cfKn CFkN bEio dHlp",
    "AHkO BfLM Dejn bFlm cGIP Cgip dEJN ahKo",
)
_LETTERS = "ABCDEFGHIJKLMNOPabcdefghijklmnop"

Schedule = tuple[tuple[tuple[int, ...], ...], ...]


def _elements(group: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [tuple(e) for e in product(*(range(m) for m in group))]


def _transversal(group: tuple[int, ...]) -> Schedule:
    """4q players in four groups of the field GF(q) (q = p prime ≥ 5, or q = 25 = GF(5)[x]/(x² − 2),
    `group` its additive moduli): on matchday i, table j seats player j + e_g·i of every group g,
    with four distinct field elements e_g. Two players of groups g ≠ h meet when
    i = (x − y)/(e_g − e_h), once; players of one group never meet (a resolvable transversal
    design TD(4, q))."""
    elements = _elements(group)
    index = {e: n for n, e in enumerate(elements)}
    size = len(elements)
    if len(group) == 1:
        slopes = [(g,) for g in range(4)]

        def times(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
            return ((a[0] * b[0]) % group[0],)
    else:
        slopes = [(0, 0), (1, 0), (0, 1), (1, 1)]

        def times(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
            return ((a[0] * b[0] + 2 * a[1] * b[1]) % 5, (a[0] * b[1] + a[1] * b[0]) % 5)

    def plus(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
        return tuple((x + y) % m for x, y, m in zip(a, b, group, strict=True))

    return tuple(tuple(tuple(g * size + index[plus(j, times(slopes[g], i))] for g in range(4)) for j in elements)
                 for i in elements)


def _develop(family: Family) -> Schedule:
    """The matchdays of a family, on points 0..v-1 (the ∞ points last)."""
    if family.kind == "rtd":
        return _transversal(family.group)
    elements = _elements(family.group)
    index = {(e, level): i * 3 + level for i, e in enumerate(elements) for level in range(3)}
    finite = len(index)

    def shift(point: tuple[tuple[int, ...], int], by: tuple[int, ...], level: int) -> int:
        x, lv = point
        moved = tuple((a + b) % m for a, b, m in zip(x, by, family.group, strict=True))
        return index[(moved, (lv + level) % 3)]

    zero = tuple(0 for _ in family.group)
    matchdays = []
    for a in elements:
        tables: list[tuple[int, ...]] = []
        if family.kind == "rbibd":
            tables.append((finite,) + tuple(shift((zero, s), a, 0) for s in range(3)))
        else:
            for s in range(3):
                tables.append((finite + s,) + tuple(shift(p, a, s) for p in family.infinity_block))
        for block in family.blocks:
            for s in range(3):
                tables.append(tuple(shift(p, a, s) for p in block))
        matchdays.append(tuple(tables))
    return tuple(matchdays)


def _golfers_8_4_10() -> Schedule:
    return tuple(tuple(tuple(_LETTERS.index(c) for c in table) for table in row.split())
                 for row in GOLFERS_8_4_10)


def _proved(matchdays: Schedule, players: int, label: str) -> Schedule:
    """The schedule, after the independent checker's count shows that it seats every player
    exactly once a matchday at tables of four and that no pair meets twice."""
    for tables in matchdays:
        seated = sorted(p for t in tables for p in t)
        if seated != list(range(players)) or any(len(t) != 4 for t in tables):
            raise AssertionError(f"the {label} design does not seat {players} players at tables of 4")
    if any(count > 1 for count in pair_counts(matchdays).values()):
        raise AssertionError(f"the {label} design repeats a pair")
    return matchdays


# The published schedule is data, so it is proved once, when this module is imported.
PUBLISHED_32 = _proved(_golfers_8_4_10(), 32, "8-4-10")


@lru_cache(maxsize=32)
def full_design(players: int) -> Schedule:
    """The constructed no-repeat schedule of a field that is a multiple of four, or ()."""
    if players == 32:
        return PUBLISHED_32
    family = FAMILIES.get(players)
    if family is None:
        return ()
    return _proved(_develop(family), players, family.source)


def design_source(players: int) -> str:
    """A short name of the construction behind `full_design(players)`."""
    if players == 32:
        return "published"
    family = FAMILIES.get(players)
    return family.kind if family else ""


def _left_out(matchdays: Schedule, size: int, players: int) -> tuple[int, ...]:
    """`size` points who never sit together if the design has such (the groups of an `rgdd`,
    the pairs A–a of 8-4-10), else `size` points of one table of the first matchday: in a
    schedule without repeats they sit together on that matchday only."""
    met = pair_counts(matchdays)
    unmet = {p: {q for q in range(players) if q != p and (min(p, q), max(p, q)) not in met}
             for p in range(players)}

    def clique(chosen: tuple[int, ...], candidates: list[int]) -> tuple[int, ...] | None:
        if len(chosen) == size:
            return chosen
        for i, q in enumerate(candidates):
            found = clique(chosen + (q,), [r for r in candidates[i + 1:] if r in unmet[q]])
            if found:
                return found
        return None

    return clique((), list(range(players))) or tuple(matchdays[0][0][:size])


@lru_cache(maxsize=64)
def construction(players: int) -> tuple[Schedule, str, int]:
    """(matchdays on points 0..players-1, source, players left out) for a field of `players`
    at tables of four and three, or ((), "", 0) when no construction applies.

    A field 1-3 short of a multiple of four uses that multiple's design without players who
    never meet, so that each leaves a table of three; matchdays where two of them would meet
    are dropped."""
    full = 4 * -(-players // 4)
    design = full_design(full)
    if not design:
        return (), "", 0
    missing = full - players
    if not missing:
        return design, design_source(full), 0
    if missing == 1:
        left_out: tuple[int, ...] = (full - 1,)
        kept = design
    else:
        left_out = _left_out(design, missing, full)
        kept = tuple(tables for tables in design
                     if all(len(set(left_out) & set(t)) <= 1 for t in tables))
    renumber = {}
    for p in range(full):
        if p not in left_out:
            renumber[p] = len(renumber)
    matchdays = tuple(
        tuple(sorted((tuple(renumber[p] for p in t if p not in left_out) for t in tables),
                     key=lambda table: -len(table)))
        for tables in kept)
    return matchdays, design_source(full), missing
