"""Algebraic schedules where every pair meets at most once, for the league system.

Two constructions, both computed (nothing is tabulated):

- 28 players: the Hermitian unital of PG(2, 9). The 28 points of the curve
  x^4 + y^4 + z^4 = 0 (x^4 is the norm x·x^3 of GF(9)) and its 63 secant lines, four points
  each, form a 2-(28, 4, 1) design: every pair of points lies on exactly one line. A search
  (exact cover) then splits the 63 lines into 9 parallel classes of 7 disjoint lines, which
  are the 9 matchdays on which every pair of the 28 players meets exactly once.
- 2^m players (16, 32, 64, ...): the points of GF(2)^m. A round is the set of cosets of a
  2-dimensional subspace {0, a, b, a+b}; two rounds never repeat a pair when their subspaces
  share only 0. A backtracking search finds the largest such family (a partial line spread
  of PG(m-1, 2)) within a fixed effort: 5 rounds for 16 players, 9 for 32.
"""

from __future__ import annotations

from functools import lru_cache

# GF(9) = GF(3)[i] with i^2 = -1; an element a + b·i is stored as the pair (a, b).
_GF9 = [(a, b) for a in range(3) for b in range(3)]


def _mul(x: tuple[int, int], y: tuple[int, int]) -> tuple[int, int]:
    return ((x[0] * y[0] - x[1] * y[1]) % 3, (x[0] * y[1] + x[1] * y[0]) % 3)


def _add(x: tuple[int, int], y: tuple[int, int]) -> tuple[int, int]:
    return ((x[0] + y[0]) % 3, (x[1] + y[1]) % 3)


def _norm(x: tuple[int, int]) -> int:
    # x^(q+1) = x · conjugate(x) = a^2 + b^2 in GF(3)
    return (x[0] * x[0] + x[1] * x[1]) % 3


def _projective_points() -> list[tuple[tuple[int, int], ...]]:
    """One representative per point of PG(2, 9): the first non-zero coordinate is 1."""
    zero, one = (0, 0), (1, 0)
    points = [(one, y, z) for y in _GF9 for z in _GF9]
    points += [(zero, one, z) for z in _GF9]
    points.append((zero, zero, one))
    return points


def _dot(u: tuple, p: tuple) -> tuple[int, int]:
    total = (0, 0)
    for a, b in zip(u, p, strict=True):
        total = _add(total, _mul(a, b))
    return total


@lru_cache(maxsize=1)
def hermitian_unital_blocks() -> tuple[tuple[int, ...], ...]:
    """The 63 blocks of the Hermitian unital of order 3 on points 0..27."""
    points = _projective_points()
    curve = [p for p in points if sum(_norm(c) for c in p) % 3 == 0]
    index = {p: i for i, p in enumerate(curve)}
    blocks = set()
    for line in points:
        on_line = tuple(sorted(index[p] for p in curve if _dot(line, p) == (0, 0)))
        if len(on_line) == 4:
            blocks.add(on_line)
    return tuple(sorted(blocks))


def _parallel_classes(blocks: tuple[tuple[int, ...], ...], points: int) -> list[frozenset[int]]:
    """Every set of pairwise disjoint blocks covering all points, as sets of block indices."""
    by_point: list[list[int]] = [[] for _ in range(points)]
    for b, block in enumerate(blocks):
        for p in block:
            by_point[p].append(b)
    found: list[frozenset[int]] = []

    def extend(covered: int, chosen: list[int]) -> None:
        if covered == (1 << points) - 1:
            found.append(frozenset(chosen))
            return
        first = next(p for p in range(points) if not covered >> p & 1)
        for b in by_point[first]:
            mask = sum(1 << p for p in blocks[b])
            if not covered & mask:
                chosen.append(b)
                extend(covered | mask, chosen)
                chosen.pop()

    extend(0, [])
    return found


def _exact_cover(classes: list[frozenset[int]], block_count: int) -> list[frozenset[int]] | None:
    """Pick parallel classes that use every block exactly once (Algorithm X, smallest column first)."""
    containing: list[list[int]] = [[] for _ in range(block_count)]
    for c, blocks in enumerate(classes):
        for b in blocks:
            containing[b].append(c)

    def search(used_blocks: set[int], chosen: list[int]) -> list[int] | None:
        if len(used_blocks) == block_count:
            return list(chosen)
        open_blocks = [b for b in range(block_count) if b not in used_blocks]
        column = min(open_blocks, key=lambda b: sum(1 for c in containing[b] if not classes[c] & used_blocks))
        for c in containing[column]:
            if classes[c] & used_blocks:
                continue
            chosen.append(c)
            answer = search(used_blocks | classes[c], chosen)
            if answer is not None:
                return answer
            chosen.pop()
        return None

    picked = search(set(), [])
    return None if picked is None else [classes[c] for c in picked]


@lru_cache(maxsize=1)
def resolvable_design_28() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """9 rounds of 7 tables of 4 on players 0..27, every pair together exactly once."""
    blocks = hermitian_unital_blocks()
    classes = _parallel_classes(blocks, 28)
    resolution = _exact_cover(classes, len(blocks))
    if resolution is None:
        return ()
    return tuple(tuple(blocks[b] for b in sorted(cls)) for cls in resolution)


SPREAD_SEARCH_NODES = 200_000


@lru_cache(maxsize=8)
def binary_spread_rounds(dimension: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Rounds on players 0..2^dimension-1 (tables of 4) in which no pair meets twice."""
    size = 1 << dimension
    subspaces = []
    for a in range(1, size):
        for b in range(a + 1, size):
            c = a ^ b
            if c > b:
                subspaces.append((a, b, c))
    best: list[tuple[int, int, int]] = []
    nodes = 0
    upper_bound = (size - 1) // 3

    def search(start: int, used: int, chosen: list[tuple[int, int, int]]) -> bool:
        nonlocal best, nodes
        nodes += 1
        if len(chosen) > len(best):
            best = list(chosen)
        if len(best) == upper_bound or nodes > SPREAD_SEARCH_NODES:
            return True
        for index in range(start, len(subspaces)):
            a, b, c = subspaces[index]
            mask = (1 << a) | (1 << b) | (1 << c)
            if used & mask:
                continue
            # Lines are tried in increasing order of their smallest vector, so the smallest
            # still unused vector must be covered now or never; that prunes the search hard.
            chosen.append(subspaces[index])
            if search(index + 1, used | mask, chosen):
                return True
            chosen.pop()
        return False

    search(0, 0, [])
    rounds = []
    for a, b, _c in best:
        seen: set[int] = set()
        tables = []
        for x in range(size):
            if x not in seen:
                coset = (x, x ^ a, x ^ b, x ^ a ^ b)
                seen.update(coset)
                tables.append(tuple(sorted(coset)))
        rounds.append(tuple(tables))
    return tuple(rounds)


def known_rounds(player_count: int, table_size: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The construction's rounds for this field, or () when none applies."""
    if table_size != 4:
        return ()
    if player_count == 28:
        return resolvable_design_28()
    if player_count >= 16 and player_count & (player_count - 1) == 0:
        return binary_spread_rounds(player_count.bit_length() - 1)
    return ()

