"""Seeded random maps that look like the ones players draw: planar, 4-7 neighbours.

Countries are the cells of a Voronoi diagram of random points, rasterised on a
fine grid. Two countries are adjacent when their raster cells share an edge,
so countries that only meet at a corner are not adjacent, as in the rules, and
the adjacency graph is planar because it comes from a plane subdivision.
"""

from __future__ import annotations

import random
import string

from aggression_vision.game.board import Board, CountryId

#: Raster cells per country; enough that thin shared borders are not lost.
CELLS_PER_COUNTRY = 120
#: Seeds closer than this fraction of the mean spacing are redrawn (no slivers).
MIN_SPACING = 0.45


def country_ids(n: int) -> list[CountryId]:
    """Letters A..Z, then AA, AB, ... for larger maps.

    >>> country_ids(3)
    ['A', 'B', 'C']
    >>> country_ids(28)[-2:]
    ['AA', 'AB']
    """
    letters = string.ascii_uppercase
    out: list[CountryId] = []
    for i in range(n):
        if i < 26:
            out.append(letters[i])
        else:
            j = i - 26
            out.append(letters[j // 26] + letters[j % 26])
    return out


def random_board(n: int, rng: random.Random | int | None = 0) -> Board:
    """A random planar map of ``n`` countries.

    Parameters
    ----------
    n
        Number of countries (>= 2).
    rng
        ``random.Random`` or a seed; the same seed gives the same map.

    Returns
    -------
    Board
        Countries named by :func:`country_ids`, every country adjacent to at
        least one other.

    >>> b = random_board(20, rng=1)
    >>> len(b), b == random_board(20, rng=1)
    (20, True)
    """
    if n < 2:
        raise ValueError(f"a map needs at least 2 countries, got {n}")
    r = rng if isinstance(rng, random.Random) else random.Random(rng)
    side = max(8, round((n * CELLS_PER_COUNTRY) ** 0.5))
    spacing = 1.0 / n**0.5
    points: list[tuple[float, float]] = []
    tries = 0
    while len(points) < n:
        p = (r.random(), r.random())
        tries += 1
        # Poisson-disc-like rejection keeps countries of comparable size; after many
        # failed tries accept anything so the loop always ends.
        if tries > 50 * n or all(
            (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 >= (MIN_SPACING * spacing) ** 2 for q in points
        ):
            points.append(p)
    labels = [[0] * side for _ in range(side)]
    for row in range(side):
        y = (row + 0.5) / side
        for col in range(side):
            x = (col + 0.5) / side
            best = 0
            best_d = 9.0
            for k, (px, py) in enumerate(points):
                d = (px - x) ** 2 + (py - y) ** 2
                if d < best_d:
                    best_d = d
                    best = k
            labels[row][col] = best
    pairs: set[tuple[int, int]] = set()
    for row in range(side):
        for col in range(side):
            a = labels[row][col]
            for b in (
                labels[row][col + 1] if col + 1 < side else a,
                labels[row + 1][col] if row + 1 < side else a,
            ):
                if a != b:
                    pairs.add((min(a, b), max(a, b)))
    ids = country_ids(n)
    # Order countries by position (reading order) so that letters look like a drawn map.
    order = sorted(range(n), key=lambda k: (round(points[k][1] * 4), points[k][0]))
    name = {k: ids[i] for i, k in enumerate(order)}
    return Board.from_pairs([name[k] for k in order], sorted((name[a], name[b]) for a, b in pairs))
