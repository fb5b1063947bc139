"""A plain memoised minimax over phase-3 positions.

It is the reference the fast solver is checked and benchmarked against: short,
obviously correct, and exponential. The value of a position is the final
margin, first's retained countries minus second's, under best play by both.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from aggression_vision.game.board import CountryId
from aggression_vision.game.moves import Conquest, Player
from aggression_vision.game.state import GameState


@dataclass(frozen=True)
class Solution:
    """The answer of a solver for a phase-3 position.

    ``margin`` is first's minus second's retained countries at the end under
    best play; when ``exact`` is False it is the best estimate and the true
    value lies in ``[lower, upper]``. ``line`` is the expected sequence of
    conquered targets; ``alternatives`` maps each legal target to its margin
    (filled when asked for); ``alternatives_exact`` says whether those are
    proven margins or estimates.
    """

    best: Conquest | None
    margin: int
    exact: bool
    line: tuple[CountryId, ...]
    lower: int
    upper: int
    nodes: int = 0
    alternatives: dict[CountryId, int] = field(default_factory=dict)
    #: False when ``alternatives`` are estimates (the time limit ran out first).
    alternatives_exact: bool = True


class _Position:
    """Bitmask view of a phase-3 position for the search."""

    def __init__(self, state: GameState) -> None:
        self.ids = state.board.countries
        index = {c: i for i, c in enumerate(self.ids)}
        n = len(self.ids)
        self.armies = [state.armies[c] or 0 for c in self.ids]
        self.owner = [
            0 if state.owner[c] == "first" else 1 if state.owner[c] == "second" else -1
            for c in self.ids
        ]
        self.neigh = [[index[d] for d in state.board.neighbours(c)] for c in self.ids]
        self.n = n
        self.start = sum(1 << index[c] for c in state.conquered)

    def moves(self, conquered: int, side: int) -> list[int]:
        out = []
        for t in range(self.n):
            if self.owner[t] != 1 - side or conquered >> t & 1:
                continue
            attack = sum(
                self.armies[a]
                for a in self.neigh[t]
                if self.owner[a] == side and not conquered >> a & 1
            )
            if attack > self.armies[t]:
                out.append(t)
        return out

    def margin(self, conquered: int) -> int:
        m = 0
        for i in range(self.n):
            if self.owner[i] >= 0 and not conquered >> i & 1:
                m += 1 if self.owner[i] == 0 else -1
        return m


def naive_solve(state: GameState) -> Solution:
    """Exact value and best conquest by plain memoised minimax.

    >>> from aggression_vision.game.board import Board
    >>> from aggression_vision.game.moves import Placement
    >>> b = Board.from_pairs(["A", "B"], [("A", "B")])
    >>> s = GameState.initial(b).apply(Placement("A", 60)).apply(Placement("B", 30))
    >>> naive_solve(s).margin
    1
    """
    if state.phase != 3:
        raise ValueError("naive_solve needs a phase-3 position")
    pos = _Position(state)
    memo: dict[tuple[int, int], int] = {}

    def value(conquered: int, side: int) -> int:
        key = (conquered, side)
        v = memo.get(key)
        if v is not None:
            return v
        ms = pos.moves(conquered, side)
        if not ms:
            if not pos.moves(conquered, 1 - side):
                v = pos.margin(conquered)
            else:
                v = value(conquered, 1 - side)
        else:
            vals = [value(conquered | 1 << t, 1 - side) for t in ms]
            v = max(vals) if side == 0 else min(vals)
        memo[key] = v
        return v

    if state.to_move is None:
        m = pos.margin(pos.start)
        return Solution(None, m, True, (), m, m, 0)
    side = 0 if state.to_move == "first" else 1
    margin = value(pos.start, side)
    alternatives = {
        pos.ids[t]: value(pos.start | 1 << t, 1 - side) for t in pos.moves(pos.start, side)
    }
    line = _principal_line(pos, value, pos.start, side)
    best = None
    if alternatives:
        best_t = line[0]
        best = Conquest(best_t, tuple(state.attack_on(best_t, state.to_move)[1]))
    return Solution(best, margin, True, tuple(line), margin, margin, len(memo), alternatives)


def _principal_line(pos: _Position, value: object, conquered: int, side: int) -> list[str]:
    assert callable(value)
    line: list[str] = []
    while True:
        ms = pos.moves(conquered, side)
        if not ms:
            if not pos.moves(conquered, 1 - side):
                return line
            side = 1 - side
            continue
        target_v = value(conquered, side)
        for t in ms:
            if value(conquered | 1 << t, 1 - side) == target_v:
                line.append(pos.ids[t])
                conquered |= 1 << t
                side = 1 - side
                break


def player_of(side: int) -> Player:
    """Map the search's side index to a player name."""
    return "first" if side == 0 else "second"
