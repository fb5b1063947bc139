"""Phase-2 placement policies: the baselines of the arena and the rollout policy.

A policy looks at a phase-2 position and returns a legal :class:`Placement`
for the player to move. The baselines are deliberately simple, each a strategy
a human might follow:

- ``random``: a random unoccupied country, a random amount around a fair share;
- ``concentrate``: few strong countries (a quarter of the armies each), placed
  where they touch the most countries;
- ``spread``: as many countries as possible, an equal share in each;
- ``tips``: the rules' own tips as a one-move heuristic: buffer countries protect
  weak ones, do not crowd (stand weakly next to) strong enemy countries, and
  aim at the enemy countries whose conquest most damages the opponent.

All search-free code here works on :class:`Compact`, an index-based copy of
the position that is cheap to copy and mutate (the advisor's rollouts play
thousands of placements per second through it).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from aggression_vision.game.board import Board, CountryId
from aggression_vision.game.moves import PLAYERS, Placement
from aggression_vision.game.state import GameState

#: Owner codes of :class:`Compact`.
NOBODY = -1


class Compact:
    """Index-based, mutable copy of a phase-2 position.

    ``armies[i]`` is 0 for an unoccupied country; ``owner[i]`` is -1 (nobody),
    0 (first) or 1 (second); ``to_move`` is 0, 1 or -1 once phase 2 is over.
    """

    __slots__ = ("board", "neigh", "armies", "owner", "remaining", "to_move", "free", "att")

    board: Board
    neigh: list[list[int]]
    armies: list[int]
    owner: list[int]
    remaining: list[int]
    to_move: int
    free: list[int]
    #: ``att[p][i]``: sum of player ``p``'s armies adjacent to country ``i``, kept up to date.
    att: list[list[int]]

    @classmethod
    def from_state(cls, state: GameState) -> Compact:
        """Copy a phase-2 ``state`` (raises ValueError in phase 3)."""
        if state.phase != 2:
            raise ValueError(f"placement needs a phase-2 position, this is phase {state.phase}")
        ids = state.board.countries
        index = {c: i for i, c in enumerate(ids)}
        x = cls()
        x.board = state.board
        x.neigh = [sorted(index[d] for d in state.board.neighbours(c)) for c in ids]
        x.armies = [state.armies[c] or 0 for c in ids]
        x.owner = [
            NOBODY if state.owner[c] is None else PLAYERS.index(state.owner[c])  # type: ignore[arg-type]
            for c in ids
        ]
        x.remaining = [state.remaining("first"), state.remaining("second")]
        x.to_move = NOBODY if state.to_move is None else PLAYERS.index(state.to_move)
        x.free = [i for i in range(len(ids)) if x.armies[i] == 0]
        x.att = [
            [sum(x.armies[j] for j in x.neigh[i] if x.owner[j] == p) for i in range(len(ids))]
            for p in (0, 1)
        ]
        return x

    def copy(self) -> Compact:
        """An independent copy (the board and neighbour lists are shared)."""
        x = Compact()
        x.board = self.board
        x.neigh = self.neigh
        x.armies = self.armies[:]
        x.owner = self.owner[:]
        x.remaining = self.remaining[:]
        x.to_move = self.to_move
        x.free = self.free[:]
        x.att = [self.att[0][:], self.att[1][:]]
        return x

    def place(self, country: int, armies: int) -> None:
        """Play a placement for the player to move (checked by assertions only)."""
        p = self.to_move
        assert p >= 0 and self.armies[country] == 0 and 1 <= armies <= self.remaining[p]
        self.armies[country] = armies
        self.owner[country] = p
        self.remaining[p] -= armies
        self.free.remove(country)
        att = self.att[p]
        for j in self.neigh[country]:
            att[j] += armies
        o = 1 - p
        if not self.free or (self.remaining[0] == 0 and self.remaining[1] == 0):
            self.to_move = NOBODY
        elif self.remaining[o] > 0:
            self.to_move = o
        # else the opponent is exhausted and is skipped: p moves again.

    def attack(self, player: int, country: int) -> int:
        """Sum of ``player``'s armies in the countries adjacent to ``country``."""
        return self.att[player][country]

    def own_placements_left(self, player: int) -> int:
        """How many more placements ``player`` makes if nobody runs out early."""
        n = len(self.free)
        if self.remaining[player] == 0 or n == 0:
            return 0
        if self.remaining[1 - player] == 0:
            return n
        # Alternation: the player to move takes the odd-numbered of the remaining turns.
        return (n + 1) // 2 if self.to_move == player else n // 2 or 1

    def share(self, player: int) -> float:
        """A fair share: remaining armies over the placements still to make."""
        return self.remaining[player] / max(1, self.own_placements_left(player))

    def to_state(self) -> GameState:
        """The position as a :class:`GameState` (phase 3 once phase 2 is over)."""
        ids = self.board.countries
        armies = {c: (self.armies[i] or None) for i, c in enumerate(ids)}
        owner = {
            c: (PLAYERS[self.owner[i]] if self.owner[i] >= 0 else None) for i, c in enumerate(ids)
        }
        if self.to_move >= 0:
            state, _ = GameState.from_position(
                self.board, armies, owner, phase=2, to_move=PLAYERS[self.to_move]
            )
        else:
            state, _ = GameState.from_position(self.board, armies, owner, phase=3)
        return state


class Policy(Protocol):
    """Chooses a placement for the player to move in a phase-2 position."""

    name: str

    def choose(self, state: GameState, rng: random.Random) -> Placement:
        """A legal placement for ``state.to_move``."""
        ...


def _placement(x: Compact, country: int, armies: int) -> Placement:
    top = x.remaining[x.to_move]
    return Placement(x.board.countries[country], max(1, min(top, armies)))


def _cap(x: Compact, player: int) -> int:
    """Most armies one placement may take while keeping 1 for each later own placement."""
    return max(1, x.remaining[player] - (x.own_placements_left(player) - 1))


@dataclass
class RandomPolicy:
    """A random country and a random amount between 1 and twice the fair share."""

    name: str = "random"

    def choose(self, state: GameState, rng: random.Random) -> Placement:
        """See :class:`Policy`."""
        x = Compact.from_state(state)
        p = x.to_move
        c = rng.choice(x.free)
        top = min(_cap(x, p), max(1, round(2 * x.share(p))))
        if x.own_placements_left(p) == 1:
            return _placement(x, c, x.remaining[p])
        return _placement(x, c, rng.randint(1, top))


@dataclass
class ConcentratePolicy:
    """Few strong countries: a quarter of the armies each, in the best-connected countries.

    Among unoccupied countries it prefers those touching the most enemy
    countries (to attack them), then the most countries overall.
    """

    name: str = "concentrate"
    strongholds: int = 4

    def choose(self, state: GameState, rng: random.Random) -> Placement:
        """See :class:`Policy`."""
        x = Compact.from_state(state)
        p = x.to_move
        amount = math.ceil(100 / self.strongholds)

        def key(c: int) -> tuple[int, int, float]:
            enemy = sum(1 for j in x.neigh[c] if x.owner[j] == 1 - p)
            return (enemy, len(x.neigh[c]), rng.random())

        c = max(x.free, key=key)
        return _placement(x, c, amount)


@dataclass
class SpreadPolicy:
    """Many weak countries: an equal share of the armies in every country it can get.

    It prefers countries with few enemy neighbours (so the weak countries last).
    """

    name: str = "spread"

    def choose(self, state: GameState, rng: random.Random) -> Placement:
        """See :class:`Policy`."""
        x = Compact.from_state(state)
        p = x.to_move

        def key(c: int) -> tuple[int, int, float]:
            enemy = sum(1 for j in x.neigh[c] if x.owner[j] == 1 - p)
            own = sum(1 for j in x.neigh[c] if x.owner[j] == p)
            return (-enemy, own, rng.random())

        c = max(x.free, key=key)
        if x.own_placements_left(p) == 1:
            return _placement(x, c, x.remaining[p])
        return _placement(x, c, min(_cap(x, p), max(1, round(x.share(p)))))


# -- the rules' tips as a heuristic ---------------------------------------------------


@dataclass(frozen=True)
class TipsWeights:
    """Weights of the tips heuristic (units: countries of expected margin)."""

    #: An enemy country brought within reach of our attack.
    threaten: float = 1.0
    #: Extra per own country that a newly threatened enemy country itself attacks.
    damage: float = 0.3
    #: The placed country holds against the enemy armies already around it.
    safe: float = 1.0
    #: The placed country would be conquerable at once (crowding a strong enemy).
    crowded: float = -1.5
    #: An own weak neighbour shielded from an enemy placement here (a buffer).
    buffer: float = 0.5
    #: Cost of spending one fair share of armies.
    cost: float = 0.6


def candidate_amounts(x: Compact, country: int) -> list[int]:
    """The army counts worth considering for ``country``: an abstraction of 1..remaining.

    One army; just enough to hold against the enemy armies already adjacent;
    just enough to bring each adjacent enemy country within reach; half, one
    and two fair shares; everything on the player's last placement. All are
    capped so that every later own placement can still get one army.
    """
    p = x.to_move
    o = 1 - p
    cap = _cap(x, p)
    if x.own_placements_left(p) <= 1:
        return [x.remaining[p]]
    share = x.share(p)
    out = {1, round(share / 2), round(share), round(2 * share), x.attack(o, country) + 1}
    for j in x.neigh[country]:
        if x.owner[j] == o:
            out.add(x.armies[j] - x.attack(p, j) + 1)
    return sorted({min(cap, max(1, a)) for a in out})


def tips_score(x: Compact, country: int, armies: int, w: TipsWeights = TipsWeights()) -> float:
    """Heuristic value of placing ``armies`` in ``country`` for the player to move."""
    p = x.to_move
    o = 1 - p
    owner = x.owner
    arm = x.armies
    score = 0.0
    for j in x.neigh[country]:
        if owner[j] == o:
            before = x.attack(p, j)
            if before <= arm[j] < before + armies:
                score += w.threaten
                score += w.damage * sum(1 for k in x.neigh[j] if owner[k] == p)
        elif owner[j] == p:
            # A buffer: an enemy placement here could have made j conquerable.
            hold = arm[j]
            if x.attack(o, j) <= hold < x.attack(o, j) + x.remaining[o]:
                score += w.buffer
    enemy_now = x.attack(o, country)
    score += w.safe if armies > enemy_now else w.crowded
    score -= w.cost * armies / max(1.0, x.share(p))
    return score


def tips_choice(x: Compact, w: TipsWeights = TipsWeights()) -> tuple[int, int]:
    """The (country, armies) the tips heuristic likes best; ties to the first country."""
    best = (x.free[0], 1)
    best_s = -math.inf
    for c in x.free:
        for a in candidate_amounts(x, c):
            s = tips_score(x, c, a, w)
            if s > best_s:
                best_s = s
                best = (c, a)
    return best


@dataclass
class TipsPolicy:
    """The rules' tips as a one-move heuristic (see :func:`tips_score`)."""

    name: str = "tips"
    weights: TipsWeights = TipsWeights()

    def choose(self, state: GameState, rng: random.Random) -> Placement:
        """See :class:`Policy`."""
        x = Compact.from_state(state)
        c, a = tips_choice(x, self.weights)
        return _placement(x, c, a)


# -- the stochastic policy of the advisor's rollouts -------------------------------


def quick_choice(x: Compact, rng: random.Random) -> tuple[int, int]:
    """A very cheap, noisy, sensible placement.

    The country is the better of two random unoccupied ones by a one-line
    score (few enemy armies around, own countries around); the amount is a
    fair share with noise, raised to hold against the enemy armies already
    adjacent when that costs less than two shares.
    """
    p = x.to_move
    o = 1 - p
    left = x.own_placements_left(p)
    free = x.free
    owner = x.owner
    arm = x.armies
    share = x.remaining[p] / max(1, left)

    def quick(c: int) -> float:
        s = 0.0
        for j in x.neigh[c]:
            if owner[j] == o:
                s -= arm[j] / share
            elif owner[j] == p:
                s += 0.5
        return s

    c = rng.choice(free)
    if len(free) > 1:
        d = rng.choice(free)
        if quick(d) > quick(c):
            c = d
    if left <= 1:
        return c, x.remaining[p]
    cap = max(1, x.remaining[p] - (left - 1))
    a = max(1, round(share * (0.4 + 1.2 * rng.random())))
    hold = x.attack(o, c) + 1
    if a < hold <= 2 * share:
        a = hold
    return c, min(cap, a)


@dataclass(frozen=True)
class RolloutSettings:
    """Knobs of the advisor's rollout policy."""

    #: Share of placements made by :func:`quick_choice` (exploration).
    quick_share: float = 0.3
    #: Unoccupied countries sampled for the tips heuristic at each placement.
    sample: int = 6
    #: Uniform noise added to the tips score (countries of margin).
    noise: float = 0.5


def rollout_choice(
    x: Compact, rng: random.Random, settings: RolloutSettings = RolloutSettings()
) -> tuple[int, int]:
    """A noisy tips placement: the simulated players of the advisor's rollouts.

    With probability ``quick_share`` a :func:`quick_choice`; otherwise the best
    (country, armies) by :func:`tips_score` plus noise among a few random
    unoccupied countries. Both players of a simulation play this way.
    """
    if rng.random() < settings.quick_share:
        return quick_choice(x, rng)
    free = x.free
    sub = free if len(free) <= settings.sample else rng.sample(free, settings.sample)
    best = (sub[0], 1)
    best_s = -math.inf
    for c in sub:
        for a in candidate_amounts(x, c):
            s = tips_score(x, c, a) + settings.noise * rng.random()
            if s > best_s:
                best_s = s
                best = (c, a)
    return best


def finish(
    x: Compact, rng: random.Random, settings: RolloutSettings = RolloutSettings()
) -> Compact:
    """Play ``x`` (mutated) to the end of phase 2 with :func:`rollout_choice` for both."""
    while x.to_move >= 0:
        c, a = rollout_choice(x, rng, settings)
        x.place(c, a)
    return x


POLICY_NAMES = ("random", "concentrate", "spread", "tips")


def make_policy(name: str, *, time_limit: float = 1.0, iterations: int | None = None) -> Policy:
    """A policy by name: one of :data:`POLICY_NAMES` or ``advisor``.

    Raises
    ------
    ValueError
        For an unknown name.
    """
    makers: dict[str, Callable[[], Policy]] = {
        "random": RandomPolicy,
        "concentrate": ConcentratePolicy,
        "spread": SpreadPolicy,
        "tips": TipsPolicy,
    }
    if name == "advisor":
        from aggression_vision.game.placement import AdvisorPolicy

        return AdvisorPolicy(time_limit=time_limit, iterations=iterations)
    if name not in makers:
        raise ValueError(
            f"unknown policy {name!r}: expected one of {', '.join(('advisor', *POLICY_NAMES))}"
        )
    return makers[name]()


def country_index(board: Board) -> dict[CountryId, int]:
    """Country id to its index in ``board.countries``."""
    return {c: i for i, c in enumerate(board.countries)}
