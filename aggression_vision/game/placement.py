"""Phase-2 placement advice: simulation search scored by the exact phase-3 solver.

How a placement is chosen
-------------------------
1. Candidates: every unoccupied country with a few army counts that matter
   (:func:`~aggression_vision.game.policies.candidate_amounts`: 1, just enough
   to hold against the enemy armies around it, just enough to bring each
   adjacent enemy country within reach, half/one/two fair shares). The rules'
   tips heuristic (:func:`~aggression_vision.game.policies.tips_score`) ranks
   them and the best ``settings.candidates`` are searched.
2. Simulations: each candidate is played; the opponent replies with the
   move the tips heuristic likes best (a sensible opponent, stronger than the
   rollout policy); the rest of phase 2 is finished for both players by a fast
   noisy policy (:func:`~aggression_vision.game.policies.rollout_choice`: the
   tips heuristic on a few sampled countries with noise, sometimes a quicker
   rule); and the complete allocation is scored by the exact phase-3 solver
   (perfect play by both).
   Round ``j`` uses the same random completion seed for every candidate
   (common random numbers), so candidates are compared on equal terms.
3. Sequential halving: after rounds 2, 4, 8, ... the worse half is dropped.
   The search stops at the time limit (anytime) or after ``iterations``
   simulations (deterministic given the seed), and returns the candidate with
   the best mean reward over the rounds all survivors played.

The reward of a simulation for the player to move is the final margin from
their side plus a bonus of ``settings.win_bonus`` for a win (minus for a
loss): the arena counts wins, the margin breaks ties and lowers the variance.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aggression_vision.game.board import CountryId
from aggression_vision.game.moves import PLAYERS, Placement, Player
from aggression_vision.game.policies import (
    Compact,
    RolloutSettings,
    candidate_amounts,
    finish,
    tips_choice,
    tips_score,
)
from aggression_vision.game.state import GameState


@dataclass(frozen=True)
class AdvisorSettings:
    """Knobs of the placement search."""

    #: Candidates (country, armies) kept after ranking by the tips heuristic.
    candidates: int = 16
    #: At most this many army counts per country among the candidates.
    per_country: int = 3
    #: Reward bonus for a simulated win (countries of margin).
    win_bonus: float = 2.0
    #: Weight of the heuristic prior, in simulations' worth (shrinks early means).
    prior_weight: float = 1.0
    #: Rounds after which the worse half of the candidates is dropped: 2, 4, 8, ...
    first_halving: int = 2
    #: The opponent's first reply is the (deterministic) tips heuristic's choice,
    #: a stronger reply than the rollout policy's.
    tips_reply: bool = True
    #: How the simulated players finish phase 2.
    rollout: RolloutSettings = RolloutSettings(quick_share=0.1)


@dataclass(frozen=True)
class CandidateResult:
    """What the search learnt about one candidate placement."""

    placement: Placement
    expected_margin: float
    win_rate: float
    simulations: int
    prior: float

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {
            "country": self.placement.country,
            "armies": self.placement.armies,
            "expected_margin": round(self.expected_margin, 3),
            "win_rate": round(self.win_rate, 3),
            "simulations": self.simulations,
        }


@dataclass(frozen=True)
class PlacementAdvice:
    """The advisor's answer for a phase-2 position.

    ``expected_margin`` is first's minus second's retained countries averaged
    over the simulations of the best placement (the phase-3 ``margin``
    convention); ``win_rate`` is the share of those simulations the player to
    move won (draws count one half). ``threatens`` are the adjacent enemy
    countries the placement brings within reach of an attack; ``protects`` are
    the adjacent own countries it shields as a buffer (an enemy placement
    there could have made them conquerable). ``alternatives`` lists the
    searched candidates, the best first, then by simulations and mean reward.
    ``exact`` is true only when every
    legal placement was scored by the exact solver (the last country of phase 2).
    """

    to_move: Player
    best: Placement
    expected_margin: float
    win_rate: float
    alternatives: list[CandidateResult]
    threatens: list[CountryId]
    protects: list[CountryId]
    exact: bool
    simulations: int
    seconds: float
    reasons: list[str] = field(default_factory=list)
    #: Distinct complete allocations solved (simulations that repeat one are memoised).
    solves: int = 0

    def to_json(self) -> dict[str, Any]:
        """The JSON of ``suggest --json`` in phase 2."""
        return {
            "phase": 2,
            "to_move": self.to_move,
            "best": {"country": self.best.country, "armies": self.best.armies},
            "expected_margin": round(self.expected_margin, 3),
            "win_rate": round(self.win_rate, 3),
            "threatens": list(self.threatens),
            "protects": list(self.protects),
            "exact": self.exact,
            "simulations": self.simulations,
            "solves": self.solves,
            "seconds": round(self.seconds, 3),
            "alternatives": [a.to_json() for a in self.alternatives],
            "reasons": list(self.reasons),
        }


def _solver() -> Callable[[GameState], int]:
    """The exact phase-3 margin function: the fast solver when present, else the reference."""
    try:
        from aggression_vision.game.solver import solve

        def fast(state: GameState) -> int:
            return solve(state).margin

        return fast
    except ImportError:  # pragma: no cover - only before the fast solver exists
        from aggression_vision.game.minimax import naive_solve

        def naive(state: GameState) -> int:
            return naive_solve(state).margin

        return naive


class _Evaluator:
    """Scores complete allocations with the exact solver, memoised."""

    def __init__(self, margin: Callable[[GameState], int] | None = None) -> None:
        self.margin = margin or _solver()
        self.cache: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
        self.solves = 0

    def __call__(self, x: Compact) -> int:
        key = (tuple(x.armies), tuple(x.owner))
        m = self.cache.get(key)
        if m is None:
            self.solves += 1
            m = self.margin(x.to_state())
            self.cache[key] = m
        return m


def _candidates(x: Compact, settings: AdvisorSettings) -> list[tuple[float, int, int]]:
    """(prior, country, armies) ranked by the tips heuristic, best first."""
    scored = []
    for c in x.free:
        per = sorted(((tips_score(x, c, a), c, a) for a in candidate_amounts(x, c)), reverse=True)
        scored.extend(per[: settings.per_country])
    # Stable order: prior, then board order, then fewer armies.
    scored.sort(key=lambda t: (-t[0], t[1], t[2]))
    return scored[: settings.candidates]


def _threatens_protects(x: Compact, c: int, a: int) -> tuple[list[CountryId], list[CountryId]]:
    p = x.to_move
    o = 1 - p
    ids = x.board.countries
    threatens = []
    protects = []
    for j in x.neigh[c]:
        if x.owner[j] == o:
            before = x.attack(p, j)
            if before + a > x.armies[j]:
                threatens.append(ids[j])
        elif x.owner[j] == p:
            enemy = x.attack(o, j)
            if enemy <= x.armies[j] < enemy + x.remaining[o]:
                protects.append(ids[j])
    return threatens, protects


def advise(
    state: GameState,
    *,
    time_limit: float = 3.0,
    rng: random.Random | int | None = 0,
    iterations: int | None = None,
    settings: AdvisorSettings = AdvisorSettings(),
    margin: Callable[[GameState], int] | None = None,
) -> PlacementAdvice:
    """The recommended placement for the player to move in phase 2.

    Parameters
    ----------
    state
        A phase-2 position with a player to move.
    time_limit
        Seconds of search (wall clock); the answer is anytime.
    rng
        ``random.Random`` or a seed for the simulations.
    iterations
        Stop after this many simulations instead (the result then depends only
        on ``rng``, not on the machine's speed); ``time_limit`` still applies.
    settings
        Search knobs.
    margin
        Phase-3 solver returning the exact margin (tests inject a cheap one).

    Returns
    -------
    PlacementAdvice

    Raises
    ------
    ValueError
        When ``state`` is not a phase-2 position with a player to move.
    """
    start = time.perf_counter()
    if state.phase != 2 or state.to_move is None:
        raise ValueError("placement advice needs a phase-2 position with a player to move")
    r = rng if isinstance(rng, random.Random) else random.Random(rng)
    x = Compact.from_state(state)
    p = x.to_move
    sign = 1 if p == 0 else -1
    evaluate = _Evaluator(margin)
    deadline = start + time_limit
    budget = iterations if iterations is not None else 1 << 62

    exact = False
    if len(x.free) == 1:
        # The last country of phase 2: every amount can be scored exactly.
        cands = [(0.0, x.free[0], a) for a in range(x.remaining[p], 0, -1)]
        exact = True
    else:
        cands = _candidates(x, settings)
    n = len(cands)
    rewards: list[list[float]] = [[] for _ in range(n)]
    margins: list[list[int]] = [[] for _ in range(n)]
    active = list(range(n))
    sims = 0
    rounds = 0
    halve_at = settings.first_halving
    stop = False
    while not stop:
        seed = r.getrandbits(32)
        for i in active:
            if sims >= budget or (sims > 0 and time.perf_counter() > deadline):
                stop = True
                break
            _, c, a = cands[i]
            y = x.copy()
            y.place(c, a)
            if settings.tips_reply and y.to_move == 1 - p:
                y.place(*tips_choice(y))
            finish(y, random.Random(seed), settings.rollout)
            m = evaluate(y)
            mine = sign * m
            margins[i].append(m)
            rewards[i].append(mine + settings.win_bonus * ((mine > 0) - (mine < 0)))
            sims += 1
        if stop:
            break
        rounds += 1
        # A lone candidate needs no comparison; the last country's amounts are
        # deterministic (the placement ends phase 2), so one round is exact.
        if len(active) <= 1 or exact:
            break
        if rounds == halve_at and len(active) > 2:
            active.sort(key=lambda i: (-_value(i, cands, rewards, settings, rounds), i))
            active = active[: max(2, (len(active) + 1) // 2)]
            halve_at *= 2
    if exact and rounds == 0:
        exact = False  # ran out of time before scoring every amount
    # Compare survivors on the rounds they all completed (common random numbers).
    done = min(len(rewards[i]) for i in active)
    ranked = sorted(active, key=lambda i: (-_value(i, cands, rewards, settings, done), i))
    best = ranked[0]
    _, c, a = cands[best]
    threatens, protects = _threatens_protects(x, c, a)

    def result(i: int) -> CandidateResult:
        ms = margins[i]
        mine = [sign * m for m in ms]
        wins = sum(1.0 if v > 0 else 0.5 if v == 0 else 0.0 for v in mine)
        return CandidateResult(
            placement=Placement(x.board.countries[cands[i][1]], cands[i][2]),
            expected_margin=sum(ms) / len(ms) if ms else 0.0,
            win_rate=wins / len(ms) if ms else 0.0,
            simulations=len(ms),
            prior=cands[i][0],
        )

    others = sorted(
        (i for i in range(n) if i != best and margins[i]),
        key=lambda i: (-len(margins[i]), -_value(i, cands, rewards, settings, None), i),
    )
    top = result(best)
    reasons = []
    if threatens:
        reasons.append(f"brings {', '.join(threatens)} within reach of an attack")
    if protects:
        reasons.append(f"shields {', '.join(protects)} as a buffer")
    reasons.append(
        f"{top.simulations} simulated completions of phase 2, each solved exactly: "
        f"mean margin {top.expected_margin:+.2f}, {PLAYERS[p]} wins {top.win_rate:.0%}"
    )
    return PlacementAdvice(
        to_move=PLAYERS[p],
        best=top.placement,
        expected_margin=top.expected_margin,
        win_rate=top.win_rate,
        alternatives=[top, *(result(i) for i in others[:8])],
        threatens=threatens,
        protects=protects,
        exact=exact and len(cands) == sum(1 for ms in margins if ms),
        simulations=sims,
        seconds=time.perf_counter() - start,
        reasons=reasons,
        solves=evaluate.solves,
    )


def _value(
    i: int,
    cands: list[tuple[float, int, int]],
    rewards: list[list[float]],
    settings: AdvisorSettings,
    rounds: int | None,
) -> float:
    """Mean reward of candidate ``i`` over its first ``rounds`` simulations, shrunk to its prior.

    Only the first ``rounds`` simulations share their random completions with
    the other candidates', so only they are compared.
    """
    rs = rewards[i] if rounds is None else rewards[i][:rounds]
    k = settings.prior_weight
    return (sum(rs) + k * cands[i][0]) / (len(rs) + k)


@dataclass
class AdvisorPolicy:
    """The advisor as an arena policy (see :func:`advise`)."""

    time_limit: float = 1.0
    iterations: int | None = None
    name: str = "advisor"
    settings: AdvisorSettings = AdvisorSettings()
    #: Distinct solved allocations behind each placement made so far (for reports).
    solves: list[int] = field(default_factory=list)

    def choose(self, state: GameState, rng: random.Random) -> Placement:
        """See :class:`~aggression_vision.game.policies.Policy`."""
        advice = advise(
            state,
            time_limit=self.time_limit,
            rng=rng.getrandbits(32),
            iterations=self.iterations,
            settings=self.settings,
        )
        self.solves.append(advice.solves)
        return advice.best
