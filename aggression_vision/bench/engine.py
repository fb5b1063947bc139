"""Speed of the phase-3 solver on seeded random maps, against a naive minimax.

Positions: planar maps of 20, 26, 30 and 36 countries (a Voronoi diagram of
well-spread random points, rasterised so that countries meeting at a corner
are not adjacent), every country occupied with 3-10 armies, owners shuffled
half and half, each player's total capped at 100 ("spread" allocations: the
hard case, where many attacks are possible at once).

For each position the fast solver (:func:`aggression_vision.game.solver.solve`)
runs to the exact answer, and a copy of the plain memoised minimax runs with a
cap on the number of states it may store; speed-ups are reported on the
positions where the naive search finished within its budget (and the answers
are cross-checked there). Pure Python apart from an optional rich progress
bar on stderr; :func:`main` prints nothing else.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from aggression_vision.game.board import Board, CountryId
from aggression_vision.game.state import ARMIES_PER_PLAYER, GameState

#: Raster cells per country of the Voronoi map.
CELLS_PER_COUNTRY = 100
#: Seeds closer than this fraction of the mean spacing are redrawn.
MIN_SPACING = 0.5
#: "Hard" positions of the issue's target: these sizes, and at least this many naive states.
HARD_SIZES = (26, 30)
HARD_STATES = 100_000
#: Armies per country in a spread allocation.
MIN_ARMIES, MAX_ARMIES = 3, 10


def _ids(n: int) -> list[CountryId]:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return [letters[i] if i < 26 else letters[i // 26 - 1] + letters[i % 26] for i in range(n)]


def random_board(n: int, rng: random.Random) -> Board:
    """A planar map of ``n`` countries: the rasterised Voronoi cells of spread points.

    Two countries are adjacent when their cells share a raster edge (a
    corner is not enough), so the adjacency graph is planar.
    """
    side = max(8, int((n * CELLS_PER_COUNTRY) ** 0.5))
    spacing = MIN_SPACING * side / n**0.5
    while True:
        seeds: list[tuple[float, float]] = []
        tries = 0
        while len(seeds) < n and tries < 10_000:
            tries += 1
            p = (rng.uniform(0, side), rng.uniform(0, side))
            if all((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 >= spacing**2 for q in seeds):
                seeds.append(p)
        label = []
        for y in range(side):
            row = []
            for x in range(side):
                cx, cy = x + 0.5, y + 0.5
                row.append(
                    min(range(n), key=lambda i: (seeds[i][0] - cx) ** 2 + (seeds[i][1] - cy) ** 2)
                )
            label.append(row)
        if len({v for row in label for v in row}) == n:
            break
    pairs: set[tuple[int, int]] = set()
    for y in range(side):
        for x in range(side):
            a = label[y][x]
            for b in (
                label[y][x + 1] if x + 1 < side else a,
                label[y + 1][x] if y + 1 < side else a,
            ):
                if a != b:
                    pairs.add((min(a, b), max(a, b)))
    ids = _ids(n)
    return Board.from_pairs(ids, [(ids[a], ids[b]) for a, b in sorted(pairs)])


def spread_position(board: Board, rng: random.Random) -> GameState:
    """Every country occupied with 3-10 armies, owners half and half, totals <= 100."""
    ids = list(board.countries)
    order = ids[:]
    rng.shuffle(order)
    owner = {c: ("first" if k % 2 == 0 else "second") for k, c in enumerate(order)}
    armies = {c: rng.randint(MIN_ARMIES, MAX_ARMIES) for c in ids}
    for p in ("first", "second"):
        mine = [c for c in ids if owner[c] == p]
        while sum(armies[c] for c in mine) > ARMIES_PER_PLAYER:
            c = rng.choice([c for c in mine if armies[c] > MIN_ARMIES])
            armies[c] -= 1
    state, _ = GameState.from_position(board, armies, owner, phase=3, to_move="first")  # type: ignore[arg-type]
    return state


class _Budget(Exception):
    """The naive search stored more states than allowed."""


def naive_value(state: GameState, budget: int) -> tuple[int, int]:
    """Plain memoised minimax (a copy of the reference), capped at ``budget`` states.

    Returns the final margin and the number of states stored.

    Raises
    ------
    _Budget
        When more than ``budget`` states would be stored.
    """
    ids = state.board.countries
    index = {c: i for i, c in enumerate(ids)}
    n = len(ids)
    armies = [state.armies[c] or 0 for c in ids]
    owner = [
        0 if state.owner[c] == "first" else 1 if state.owner[c] == "second" else -1 for c in ids
    ]
    neigh = [[index[d] for d in state.board.neighbours(c)] for c in ids]
    memo: dict[tuple[int, int], int] = {}

    def moves(conquered: int, side: int) -> list[int]:
        out = []
        for t in range(n):
            if owner[t] != 1 - side or conquered >> t & 1:
                continue
            attack = sum(armies[a] for a in neigh[t] if owner[a] == side and not conquered >> a & 1)
            if attack > armies[t]:
                out.append(t)
        return out

    def margin(conquered: int) -> int:
        return sum(
            (1 if owner[i] == 0 else -1)
            for i in range(n)
            if owner[i] >= 0 and not conquered >> i & 1
        )

    def value(conquered: int, side: int) -> int:
        key = (conquered, side)
        v = memo.get(key)
        if v is not None:
            return v
        ms = moves(conquered, side)
        if not ms:
            v = margin(conquered) if not moves(conquered, 1 - side) else value(conquered, 1 - side)
        else:
            vals = [value(conquered | 1 << t, 1 - side) for t in ms]
            v = max(vals) if side == 0 else min(vals)
        if len(memo) >= budget:
            raise _Budget
        memo[key] = v
        return v

    start = sum(1 << index[c] for c in state.conquered)
    side = 0 if state.to_move == "first" else 1
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * n + 100))
    try:
        return value(start, side), len(memo)
    finally:
        sys.setrecursionlimit(limit)


@dataclass
class _Row:
    size: int
    index: int
    margin: int
    seconds: float
    cpu_seconds: float
    nodes: int
    naive_seconds: float | None
    naive_cpu_seconds: float | None
    naive_states: int | None
    naive_margin: int | None


def _positions(sizes: Iterable[int], positions: int, seed: int) -> list[tuple[int, int, GameState]]:
    out = []
    for size in sizes:
        rng = random.Random(f"{seed}:{size}")
        for k in range(positions):
            board = random_board(size, rng)
            out.append((size, k, spread_position(board, rng)))
    return out


def _median_of(values: list[int | None] | list[float | None]) -> float | None:
    """The median of the values that are not None, or None when there are none."""
    known = [v for v in values if v is not None]
    return statistics.median(known) if known else None


def main(
    *,
    sizes: tuple[int, ...] = (20, 26, 30, 36),
    positions: int = 10,
    seed: int = 0,
    json_output: bool = False,
    naive_budget: int = 2_000_000,
    progress: bool = True,
) -> dict[str, Any]:
    """Run the engine benchmark and return its report.

    Parameters
    ----------
    sizes
        Map sizes (countries).
    positions
        Positions per size.
    seed
        Seed of the position generator (same seed, same positions).
    json_output
        Accepted for the CLI's sake; the report is returned either way and
        nothing is printed on stdout.
    naive_budget
        Most states the naive minimax may store per position (set to 0 to
        skip it); positions where it gives up get no speed-up.
    progress
        Show a progress bar on stderr.

    Returns
    -------
    dict
        ``{"config": {...}, "sizes": [per-size summary], "rows": [per position]}``.
    """
    from aggression_vision.game.solver import numba_available, solve

    todo = _positions(sizes, positions, seed)
    # Load (or compile, on the very first run) the numba engine before timing:
    # its one-off cost is reported separately, not charged to the first position.
    t0 = time.perf_counter()
    engine = "numba" if numba_available() else "python"
    if engine == "numba":
        solve(spread_position(random_board(8, random.Random(0)), random.Random(0)), engine="numba")
    warm_up = time.perf_counter() - t0
    rows: list[_Row] = []
    bar = _progress(len(todo)) if progress else None
    for size, k, state in todo:
        t0, c0 = time.perf_counter(), time.process_time()
        sol = solve(state)
        seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
        nsec = ncpu = nstates = nmargin = None
        if naive_budget > 0:
            t0, c0 = time.perf_counter(), time.process_time()
            try:
                nmargin, nstates = naive_value(state, naive_budget)
                nsec, ncpu = time.perf_counter() - t0, time.process_time() - c0
            except _Budget:
                pass
        if nmargin is not None and nmargin != sol.margin:
            raise AssertionError(
                f"solver and naive minimax disagree on size {size} position {k}: "
                f"{sol.margin} != {nmargin}"
            )
        rows.append(
            _Row(size, k, sol.margin, seconds, cpu, sol.nodes, nsec, ncpu, nstates, nmargin)
        )
        if bar is not None:
            bar(f"{size} countries #{k}: {seconds:.3f} s")
    if bar is not None:
        bar(None)
    summary = []
    for size in sizes:
        rs = [r for r in rows if r.size == size]
        done = [r for r in rs if r.naive_seconds is not None]
        # Speed-ups on CPU time: the machine may be shared, and CPU time is what
        # each search costs. Wall times are reported too.
        speedups = [
            r.naive_cpu_seconds / max(r.cpu_seconds, 1e-6)
            for r in done
            if r.naive_cpu_seconds is not None
        ]
        summary.append(
            {
                "size": size,
                "positions": len(rs),
                "median_seconds": statistics.median(r.seconds for r in rs),
                "max_seconds": max(r.seconds for r in rs),
                "median_cpu_seconds": statistics.median(r.cpu_seconds for r in rs),
                "max_cpu_seconds": max(r.cpu_seconds for r in rs),
                "median_nodes": statistics.median(r.nodes for r in rs),
                "naive_finished": len(done),
                "naive_median_states": _median_of([r.naive_states for r in done]),
                "naive_median_cpu_seconds": _median_of([r.naive_cpu_seconds for r in done]),
                "median_speedup": statistics.median(speedups) if speedups else None,
                "min_speedup": min(speedups) if speedups else None,
            }
        )
    hard = [
        r
        for r in rows
        if HARD_SIZES[0] <= r.size <= HARD_SIZES[1]
        and (r.naive_states is None or r.naive_states >= HARD_STATES)
    ]
    hard_speedups = [
        r.naive_cpu_seconds / max(r.cpu_seconds, 1e-6)
        for r in hard
        if r.naive_cpu_seconds is not None
    ]
    hard_summary = {
        "definition": f"{HARD_SIZES[0]}-{HARD_SIZES[1]} countries where the naive minimax "
        f"stores >= {HARD_STATES} states or exceeds its budget",
        "positions": len(hard),
        "naive_finished": len(hard_speedups),
        "median_speedup": statistics.median(hard_speedups) if hard_speedups else None,
        "min_speedup": min(hard_speedups) if hard_speedups else None,
    }
    return {
        "hard": hard_summary,
        "config": {
            "engine": f"auto: {engine}"
            + (" (loaded by the warm-up, so used from the start)" if engine == "numba" else ""),
            "warm_up_seconds": warm_up,
            "sizes": list(sizes),
            "positions": positions,
            "seed": seed,
            "naive_budget": naive_budget,
        },
        "sizes": summary,
        "rows": [r.__dict__ for r in rows],
    }


run = main


def _progress(total: int) -> Any:
    """A minimal progress callback on stderr (rich when available)."""
    try:
        from rich.progress import Progress
    except ImportError:  # pragma: no cover
        return None
    prog = Progress(transient=True, console=None)
    prog.console.file = sys.stderr
    prog.start()
    task = prog.add_task("engine", total=total)

    def step(text: str | None) -> None:
        if text is None:
            prog.stop()
            return
        prog.update(task, advance=1, description=text)

    return step


def to_markdown(report: dict[str, Any]) -> str:
    """The per-size summary as a markdown table (speed-ups on CPU time)."""
    lines = [
        "| countries | positions | median s | max s | median CPU s | max CPU s | median states "
        "| naive finished | naive median states | naive median CPU s "
        "| median speed-up | min speed-up |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]

    def f(x: Any, fmt: str) -> str:
        return "-" if x is None else format(x, fmt)

    for s in report["sizes"]:
        lines.append(
            f"| {s['size']} | {s['positions']} | {s['median_seconds']:.4f} | "
            f"{s['max_seconds']:.3f} | {s['median_cpu_seconds']:.4f} | "
            f"{s['max_cpu_seconds']:.3f} | {s['median_nodes']:.0f} | {s['naive_finished']} | "
            f"{f(s['naive_median_states'], '.0f')} | {f(s['naive_median_cpu_seconds'], '.2f')} | "
            f"{f(s['median_speedup'], '.0f')}x | {f(s['min_speedup'], '.0f')}x |"
        )
    h = report.get("hard")
    if h is not None:
        lines.append("")
        lines.append(
            f"Hard positions ({h['definition']}): {h['positions']}, naive finished on "
            f"{h['naive_finished']}; median speed-up there {f(h['median_speedup'], '.0f')}x "
            f"(min {f(h['min_speedup'], '.0f')}x)."
        )
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover
    report = main()
    print(to_markdown(report))
    json.dump(report, sys.stderr)
