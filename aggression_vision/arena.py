"""The arena: whole games between phase-2 policies, phase 3 played exactly.

Every pairing plays the candidate policy (the first one named) against one
opponent on seeded random maps (:func:`~aggression_vision.game.mapgen.random_board`).
Games come in pairs on the same map with the seats swapped, so neither policy
profits from a lucky map or from moving first. Phase 2 is played by the
policies; phase 3 by perfect play for both sides, which ends with the margin
the exact solver gives for the position at the start of phase 3 (any optimal
line ends with that margin, so there is no need to play it move by move).

Results are counted from the candidate's side, with a 95% Wilson score
interval for its share of wins among decided (not drawn) games.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from aggression_vision.game.mapgen import random_board
from aggression_vision.game.moves import Placement
from aggression_vision.game.policies import Policy, make_policy
from aggression_vision.game.state import GameState

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion.

    >>> lo, hi = wilson_interval(7, 10)
    >>> round(lo, 3), round(hi, 3)
    (0.397, 0.892)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class GameTask:
    """One game to play: which policies, which map, which seat for the candidate."""

    candidate: str
    opponent: str
    game: int
    size: int
    map_seed: int
    candidate_first: bool
    policy_seed: int
    time_limit: float
    iterations: int | None


@dataclass(frozen=True)
class GameResult:
    """The outcome of one game, from the candidate's side."""

    candidate: str
    opponent: str
    game: int
    map_seed: int
    candidate_first: bool
    margin: int
    placements: list[str]
    candidate_seconds: list[float]
    opponent_seconds: list[float]
    solve_seconds: float
    #: Distinct phase-3 solves behind each of the candidate's placements (advisor only).
    candidate_solves: list[int] = field(default_factory=list)

    @property
    def candidate_margin(self) -> int:
        """Margin from the candidate's side (positive: the candidate won)."""
        return self.margin if self.candidate_first else -self.margin


def _exact_margin(state: GameState) -> int:
    from aggression_vision.game.solver import solve

    return solve(state).margin


def play_game(
    state: GameState,
    first: Policy,
    second: Policy,
    rng: random.Random,
    *,
    margin: Callable[[GameState], int] = _exact_margin,
) -> tuple[GameState, list[Placement], dict[str, list[float]], int]:
    """Play phase 2 with the two policies, then phase 3 exactly.

    Returns the position at the start of phase 3, the placements made, the
    seconds each seat spent per placement (keys ``first``/``second``) and the
    final margin (first minus second) under perfect phase-3 play.
    """
    seconds: dict[str, list[float]] = {"first": [], "second": []}
    placements: list[Placement] = []
    while state.phase == 2:
        assert state.to_move is not None
        policy = first if state.to_move == "first" else second
        t0 = time.perf_counter()
        move = policy.choose(state, rng)
        seconds[state.to_move].append(time.perf_counter() - t0)
        placements.append(move)
        state = state.apply(move)
    return state, placements, seconds, margin(state)


def warm_up() -> None:
    """Load the solver's compiled engine now, so that no placement is timed with it.

    The solver moves hard positions to numba, whose first use in a process
    loads compiled code (about a second); that is start-up, not thinking time.
    """
    try:
        from aggression_vision.game.solver import solve
    except ImportError:  # pragma: no cover - only before the fast solver exists
        return
    board = random_board(6, rng=0)
    state = GameState.initial(board)
    for c, n in zip(board.countries, (30, 20, 30, 20, 30, 20), strict=True):
        state = state.apply(Placement(c, n))
    # ValueError: numba is missing, and the pure-Python engine needs no warm-up.
    with contextlib.suppress(ValueError):
        solve(state, engine="numba")


def run_task(task: GameTask) -> GameResult:
    """Play one :class:`GameTask` (top level so that worker processes can run it)."""
    board = random_board(task.size, rng=task.map_seed)
    cand = make_policy(task.candidate, time_limit=task.time_limit, iterations=task.iterations)
    opp = make_policy(task.opponent, time_limit=task.time_limit, iterations=task.iterations)
    first, second = (cand, opp) if task.candidate_first else (opp, cand)
    rng = random.Random(task.policy_seed)
    solve_s = 0.0

    def timed_margin(state: GameState) -> int:
        nonlocal solve_s
        t0 = time.perf_counter()
        m = _exact_margin(state)
        solve_s = time.perf_counter() - t0
        return m

    _, placements, seconds, m = play_game(
        GameState.initial(board), first, second, rng, margin=timed_margin
    )
    cs, os_ = (
        (seconds["first"], seconds["second"])
        if task.candidate_first
        else (seconds["second"], seconds["first"])
    )
    return GameResult(
        candidate=task.candidate,
        opponent=task.opponent,
        game=task.game,
        map_seed=task.map_seed,
        candidate_first=task.candidate_first,
        margin=m,
        placements=[str(p) for p in placements],
        candidate_seconds=cs,
        opponent_seconds=os_,
        solve_seconds=solve_s,
        candidate_solves=list(getattr(cand, "solves", [])),
    )


def make_tasks(
    policies: Sequence[str],
    *,
    games: int,
    size: int,
    seed: int,
    time_limit: float,
    iterations: int | None = None,
) -> list[GameTask]:
    """The games of every pairing: the first policy against each of the others.

    Game ``g`` of every pairing is played on map ``g // 2`` with the candidate
    first when ``g`` is even, so each map is played from both seats and every
    pairing sees the same maps.
    """
    if len(policies) < 2:
        raise ValueError("the arena needs at least two policies: a candidate and an opponent")
    if games < 1:
        raise ValueError(f"games must be >= 1, got {games}")
    cand = policies[0]
    tasks = []
    for k, opp in enumerate(policies[1:]):
        for g in range(games):
            map_seed = seed * 100_003 + g // 2
            tasks.append(
                GameTask(
                    candidate=cand,
                    opponent=opp,
                    game=g,
                    size=size,
                    map_seed=map_seed,
                    candidate_first=g % 2 == 0,
                    policy_seed=(seed * 1_000_003 + k) * 100_003 + g,
                    time_limit=time_limit,
                    iterations=iterations,
                )
            )
    return tasks


def summarise(results: Sequence[GameResult]) -> list[dict[str, Any]]:
    """Per pairing (in order of first appearance): the candidate's wins/draws/losses.

    Also by seat, with the 95% Wilson interval on the share of wins among
    decided games, the mean margin and the seconds per placement.
    """
    out = []
    keys = list(dict.fromkeys((r.candidate, r.opponent) for r in results))
    for cand, opp in keys:
        rs = [r for r in results if (r.candidate, r.opponent) == (cand, opp)]

        def wdl(rows: Sequence[GameResult]) -> tuple[int, int, int]:
            w = sum(1 for r in rows if r.candidate_margin > 0)
            d = sum(1 for r in rows if r.candidate_margin == 0)
            return w, d, len(rows) - w - d

        def seat(rows: Sequence[GameResult], first: bool) -> dict[str, int]:
            w, d, lo_ = wdl([r for r in rows if r.candidate_first == first])
            return {"wins": w, "draws": d, "losses": lo_}

        w, d, lo_ = wdl(rs)
        decided = w + lo_
        lo, hi = wilson_interval(w, decided)
        cs = [s for r in rs for s in r.candidate_seconds]
        os_ = [s for r in rs for s in r.opponent_seconds]
        sv = [n for r in rs for n in r.candidate_solves]
        out.append(
            {
                "candidate": cand,
                "opponent": opp,
                "games": len(rs),
                "wins": w,
                "draws": d,
                "losses": lo_,
                "win_share_decided": w / decided if decided else None,
                "ci95": [lo, hi],
                "as_first": seat(rs, True),
                "as_second": seat(rs, False),
                "mean_margin": statistics.fmean(r.candidate_margin for r in rs),
                "candidate_seconds_median": statistics.median(cs) if cs else None,
                "candidate_seconds_max": max(cs) if cs else None,
                "opponent_seconds_max": max(os_) if os_ else None,
                "solve_seconds_max": max(r.solve_seconds for r in rs),
                "candidate_solves_median": statistics.median(sv) if sv else None,
            }
        )
    return out


def run_arena(
    policies: Sequence[str] = ("advisor", "random", "concentrate", "spread", "tips"),
    *,
    games: int = 200,
    size: int = 20,
    seed: int = 0,
    time_limit: float = 0.5,
    iterations: int | None = None,
    workers: int = 2,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Play every pairing and return the report (JSON-ready).

    Parameters
    ----------
    policies
        Candidate first, then its opponents (names for
        :func:`~aggression_vision.game.policies.make_policy`).
    games
        Games per pairing (both seats: even games the candidate moves first).
    size
        Countries per map.
    seed
        Seed of the maps and of the policies' randomness.
    time_limit, iterations
        Search limits per placement of the advisor.
    workers
        Processes; 1 plays in this process.
    progress
        Called with (games done, games total) after every game.
    """
    for name in policies:
        make_policy(name)  # fail early on unknown names
    tasks = make_tasks(
        policies, games=games, size=size, seed=seed, time_limit=time_limit, iterations=iterations
    )
    t0 = time.perf_counter()
    results: list[GameResult] = []
    if workers <= 1:
        warm_up()
        for task in tasks:
            results.append(run_task(task))
            if progress:
                progress(len(results), len(tasks))
    else:
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(workers, initializer=warm_up) as pool:
            for res in pool.imap_unordered(run_task, tasks):
                results.append(res)
                if progress:
                    progress(len(results), len(tasks))
    rank = {name: i for i, name in enumerate(policies)}
    results.sort(key=lambda r: (rank[r.opponent], r.game))
    return {
        "policies": list(policies),
        "games_per_pairing": games,
        "size": size,
        "seed": seed,
        "time_limit": time_limit,
        "iterations": iterations,
        "workers": workers,
        "seconds": time.perf_counter() - t0,
        "pairings": summarise(results),
        "games": [asdict(r) for r in results],
    }


def to_markdown(report: dict[str, Any]) -> str:
    """The pairings of a report as a markdown table."""
    lines = [
        "| candidate | opponent | games | W | D | L | win share of decided (95% CI) "
        "| as first W-D-L | as second W-D-L | mean margin | s/placement median (max) "
        "| solves/placement median |",
        "|---|---|---:|---:|---:|---:|---|---|---|---:|---|---:|",
    ]
    for p in report["pairings"]:
        share = p["win_share_decided"]
        lo, hi = p["ci95"]
        f, s = p["as_first"], p["as_second"]
        med, mx = p["candidate_seconds_median"], p["candidate_seconds_max"]
        lines.append(
            f"| {p['candidate']} | {p['opponent']} | {p['games']} | {p['wins']} | {p['draws']} "
            f"| {p['losses']} | "
            + (f"{share:.1%} ({lo:.1%}-{hi:.1%})" if share is not None else "n/a")
            + f" | {f['wins']}-{f['draws']}-{f['losses']} | {s['wins']}-{s['draws']}-{s['losses']}"
            f" | {p['mean_margin']:+.2f} | "
            + (f"{med:.2f} ({mx:.2f})" if med is not None else "n/a")
            + " | "
            + (f"{sv:g}" if (sv := p["candidate_solves_median"]) is not None else "n/a")
            + " |"
        )
    return "\n".join(lines)
