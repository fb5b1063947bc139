"""Exact phase-3 solver: perfect play, fast, with bounds when time runs out.

The value of a phase-3 position is the final margin (first's retained countries
minus second's) under best play by both. :func:`solve` finds it with a
negamax alpha-beta search on null windows (MTD(f)) over bitmask positions, a
transposition table holding bounds, move ordering, and the sound reductions
below. :func:`aggression_vision.game.minimax.naive_solve` is the reference it
is tested against.

Facts the search relies on (``P`` is a player, ``Q`` the other)
----------------------------------------------------------------
1. **Legal sets only shrink.** ``P`` may conquer ``X`` (owned by ``Q``) when the
   armies of ``P``'s not-conquered countries adjacent to ``X`` exceed ``X``'s.
   A conquest by ``P`` removes one of ``Q``'s countries: it leaves ``P``'s
   attacks unchanged and removes a target. A conquest by ``Q`` can only remove
   one of ``P``'s attackers. So neither the targets nor the attack sums of
   ``P`` ever grow: ``L_P(later) ⊆ L_P(now)``. Once a player cannot conquer,
   they never can again.
2. **Solitaire end.** If ``Q`` has no legal conquest, ``Q`` passes for the rest
   of the game and nothing can weaken ``P``'s attacks (only ``Q`` conquers
   ``P``'s countries), so ``P`` conquers every target in ``L_P``: the value is
   known without search. Hence the search never meets a pass.
3. **Secure targets.** Only countries in ``L_Q(now)`` can ever be conquered by
   ``Q`` (fact 1). If ``P``'s attack on ``t`` stays above ``t``'s armies even
   without the attackers that lie in ``L_Q``, ``t`` stays legal until ``P``
   takes it, and the game cannot end before that: ``t`` is certainly lost by
   ``Q``. With ``S_P`` the secure targets of ``P``, the mover's future gain
   ``g`` (own future conquests minus the opponent's) satisfies
   ``|S_me| - |L_op| <= g <= |L_me| - |S_op|``; these bounds cut the search.
4. **Free moves wait.** Call a target ``t`` of the mover *harmless* when none
   of its neighbours is in ``L_op``: its armies help no attack that matters,
   so conquering it changes nothing but the score (+1) and removes ``t``. A
   harmless *secure* target is *free*: a +1 that can be cashed at any time.
   Claim: if ``h`` is harmless and ``f`` is free, conquering ``h`` is worth at
   least as much as conquering ``f``. Proof by strategy copying: from
   ``A`` (after ``h``) the mover copies an optimal strategy for ``B`` (after
   ``f``), playing ``f`` where it plays ``h``. Both conquests are harmless, so
   the opponent has the same moves in ``A`` and ``B``; ``f`` stays legal in
   ``A`` as long as ``h`` does in ``B`` (``f`` never stops being legal), so
   every copied move is legal. The copy breaks only when the mover must
   pass in ``B`` but still holds ``f`` in ``A``: it plays ``f`` (+1), and from
   then on nobody's moves differ (``h`` was dead in ``B``). So ``A >= B``. The
   search therefore tries a free move only when every other move is harmful
   (and then one free move: two free moves are equal by the same argument).
5. **The future depends on a small set.** Let ``R`` be the legal targets of
   both players plus the not-conquered countries that attack one of them. The
   game from here (as a change of the margin) is a function of ``R`` and the
   side to move: every future move is a target in ``R`` and every attack sum
   on it is made of countries in ``R``; conversely the legal targets are
   recovered from ``R`` because an attack summed inside ``R`` equals the true
   attack for a legal target and never exceeds it otherwise. The
   transposition table is keyed on ``(R, side)`` and stores the future
   change, so positions that differ in countries that no longer matter share
   one entry.

Tests in ``tests/game/test_solver.py`` check facts 1, 3, 4 and 5 directly on
every reachable position of random small maps, and the whole solver against
the reference.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from aggression_vision.game.minimax import Solution
from aggression_vision.game.moves import Conquest
from aggression_vision.game.state import GameState

#: Check the clock once every this many nodes in anytime mode.
_CLOCK_EVERY = 1024
#: Share of an anytime budget spent on the heuristic search that picks a fallback move.
_HEURISTIC_SHARE = 0.2
#: Depth of the shallow searches that extend a line in anytime mode.
_LINE_DEPTH = 2
_W_SAVED = 1 << 30
_W_HIT = 1 << 24
_W_INSECURE = 1 << 29
#: Nodes per call of the compiled search between two looks at the clock.
_NUMBA_CHUNK = 50_000
#: log2 of the smallest compiled transposition table.
_NUMBA_MIN_TT_BITS = 16
#: Shortest time limit worth loading numba for (importing it takes about a second).
_NUMBA_MIN_TIME = 3.0
#: Nodes the pure-Python search may spend before ``engine="auto"`` moves to numba.
_PYTHON_BUDGET = 1_000
#: The compiled engine's masks are int64 (see ``_solver_numba.MAX_COUNTRIES``).
_MAX_NUMBA_COUNTRIES = 62
#: Values are margins of at most 64 countries; this is "minus infinity".
_NEG_INF = -1000


Engine: TypeAlias = Literal["auto", "python", "numba"]


class _Timeout(Exception):
    """The time limit was reached inside the search."""


class _OutOfNodes(Exception):
    """The pure-Python search used its node budget (``engine="auto"``)."""


def _popcount(mask: int) -> int:
    return bin(mask).count("1")


class _Tables:
    """Bitmask tables of a phase-3 position, shared by the search engines.

    Country ``i`` is bit ``1 << i`` (board order). ``owner[i]`` is 0 (first),
    1 (second) or -1 (unoccupied).
    """

    def __init__(self, state: GameState) -> None:
        ids = state.board.countries
        index = {c: i for i, c in enumerate(ids)}
        self.ids = ids
        self.n = len(ids)
        self.armies = [state.armies[c] or 0 for c in ids]
        self.owner = [
            0 if state.owner[c] == "first" else 1 if state.owner[c] == "second" else -1 for c in ids
        ]
        nbr = [0] * self.n
        for c in ids:
            for d in state.board.neighbours(c):
                nbr[index[c]] |= 1 << index[d]
        side_mask = [0, 0]
        for i, o in enumerate(self.owner):
            if o >= 0:
                side_mask[o] |= 1 << i
        self.side_mask = side_mask
        # atk[i]: the countries that attack i (its neighbours owned by the other
        # player); dep[i]: the countries that i attacks. Empty when unoccupied.
        self.atk = [nbr[i] & side_mask[1 - o] if o >= 0 else 0 for i, o in enumerate(self.owner)]
        self.dep = self.atk[:]  # adjacency is symmetric, so "i attacks j" mirrors "j attacks i"
        conquered = 0
        for c in state.conquered:
            conquered |= 1 << index[c]
        self.start_unconquered = (side_mask[0] | side_mask[1]) & ~conquered

    def attack(self, unconquered: int, i: int) -> int:
        """Armies attacking ``i`` from not-conquered countries."""
        m = self.atk[i] & unconquered
        total = 0
        while m:
            b = m & -m
            total += self.armies[b.bit_length() - 1]
            m ^= b
        return total

    def targets(self, unconquered: int, side: int) -> int:
        """Mask of ``side``'s legal targets."""
        out = 0
        m = self.side_mask[1 - side] & unconquered
        while m:
            b = m & -m
            i = b.bit_length() - 1
            if self.attack(unconquered, i) > self.armies[i]:
                out |= b
            m ^= b
        return out

    def margin(self, unconquered: int) -> int:
        return _popcount(self.side_mask[0] & unconquered) - _popcount(
            self.side_mask[1] & unconquered
        )


class _Search:
    """Negamax alpha-beta over ``(unconquered, L_me, L_op, side)`` with make/unmake.

    ``search`` returns the mover's future gain: own future conquests minus the
    opponent's, under best play (fail-soft with respect to the window).
    """

    def __init__(self, tables: _Tables, deadline: float | None = None) -> None:
        self.t = tables
        self.tt: dict[int, list[int]] = {}
        self.nodes = 0
        self.deadline = deadline
        self.att = [tables.attack(tables.start_unconquered, i) for i in range(tables.n)]
        self.hist = [[0] * tables.n, [0] * tables.n]
        self.node_limit: int | None = None
        self.check_at = _CLOCK_EVERY

    def check(self) -> None:
        """Stop the search when out of nodes or out of time (every few nodes)."""
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise _OutOfNodes
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _Timeout
        self.check_at = self.nodes + _CLOCK_EVERY
        if self.node_limit is not None:
            self.check_at = min(self.check_at, self.node_limit)

    def key(self, unconquered: int, me: int, op: int, side: int) -> int:
        """Transposition key of fact 5: the relevant set ``R`` and the side to move."""
        targets = me | op
        attackers = 0
        atk = self.t.atk
        m = targets
        while m:
            b = m & -m
            attackers |= atk[b.bit_length() - 1]
            m ^= b
        return ((targets | (attackers & unconquered)) << 1) | side

    def secure(self, me: int, op: int) -> int:
        """Mask of the targets in ``me`` that stay legal whatever the opponent does."""
        armies = self.t.armies
        atk = self.t.atk
        att = self.att
        out = 0
        m = me
        while m:
            b = m & -m
            i = b.bit_length() - 1
            m ^= b
            lost = 0
            w = atk[i] & op
            while w:
                c = w & -w
                lost += armies[c.bit_length() - 1]
                w ^= c
            if att[i] - lost > armies[i]:
                out |= b
        return out

    def search(self, unconquered: int, me: int, op: int, side: int, alpha: int, beta: int) -> int:
        if not me:
            return -_popcount(op)
        if not op:
            return _popcount(me)
        self.nodes += 1
        if self.nodes >= self.check_at:
            self.check()
        key = self.key(unconquered, me, op, side)
        entry = self.tt.get(key)
        sec_me = -1
        if entry is None:
            sec_me = self.secure(me, op)
            sec_op = self.secure(op, me)
            lo = _popcount(sec_me) - _popcount(op)
            hi = _popcount(me) - _popcount(sec_op)
            entry = [lo, hi, -1]
            self.tt[key] = entry
        lo, hi, hint = entry
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        if sec_me < 0:
            sec_me = self.secure(me, op)
        a = alpha if alpha > lo else lo
        bt = beta if beta < hi else hi

        armies = self.t.armies
        dep = self.t.dep
        att = self.att
        # Move list with ordering keys: the hint first, then moves that take the
        # most opponent targets away, then insecure before secure (a secure target
        # waits; an insecure one may be lost). Only one free move (fact 4).
        hist = self.hist[side]
        moves: list[tuple[int, int]] = []
        free = -1
        harmless_insecure = False
        m = me
        while m:
            b = m & -m
            i = b.bit_length() - 1
            m ^= b
            hit = dep[i] & op
            if not hit:
                if b & sec_me:
                    if free < 0:
                        free = i
                    continue
                harmless_insecure = True
            saved = 0
            w = hit
            ai = armies[i]
            while w:
                c = w & -w
                u = c.bit_length() - 1
                if att[u] - ai <= armies[u]:
                    saved += 1
                w ^= c
            score = (
                saved * _W_SAVED
                + (0 if b & sec_me else _W_INSECURE)
                + _popcount(hit) * _W_HIT
                + hist[i]
            )
            if i == hint:
                score = 1 << 40
            moves.append((score, i))
        if free >= 0 and not harmless_insecure:
            moves.append((1 << 40 if free == hint else hist[free], free))
        moves.sort(reverse=True)

        best = _NEG_INF
        best_move = -1
        for _, i in moves:
            b = 1 << i
            ai = armies[i]
            hit = dep[i] & op
            new_op = op
            w = hit
            while w:
                c = w & -w
                u = c.bit_length() - 1
                att[u] -= ai
                if att[u] <= armies[u]:
                    new_op ^= c
                w ^= c
            floor = a if a > best else best
            v = 1 - self.search(unconquered ^ b, new_op, me ^ b, 1 - side, 1 - bt, 1 - floor)
            w = hit
            while w:
                c = w & -w
                att[c.bit_length() - 1] += ai
                w ^= c
            if v > best:
                best = v
                best_move = i
                if best >= bt:
                    hist[i] += _popcount(me | op) ** 2
                    break
        if best <= a:
            if best < entry[1]:
                entry[1] = best
        elif best >= bt:
            if best > entry[0]:
                entry[0] = best
            entry[2] = best_move
        else:
            entry[0] = entry[1] = best
            entry[2] = best_move
        return best

    def static(self, me: int, op: int) -> int:
        """Heuristic future gain: the middle of the static bounds of fact 3."""
        if not me:
            return -_popcount(op)
        if not op:
            return _popcount(me)
        lo = _popcount(self.secure(me, op)) - _popcount(op)
        hi = _popcount(me) - _popcount(self.secure(op, me))
        return (lo + hi) // 2

    def limited(
        self, unconquered: int, me: int, op: int, side: int, depth: int, alpha: int, beta: int
    ) -> tuple[int, int]:
        """Depth-limited alpha-beta with :meth:`static` at the horizon: (value, move)."""
        if not me:
            return -_popcount(op), -1
        if not op:
            return _popcount(me), -1
        self.nodes += 1
        if self.nodes >= self.check_at:
            self.check()
        if depth == 0:
            return self.static(me, op), -1
        armies = self.t.armies
        dep = self.t.dep
        att = self.att
        best, best_move = _NEG_INF, -1
        m = me
        while m:
            b = m & -m
            i = b.bit_length() - 1
            m ^= b
            ai = armies[i]
            hit = dep[i] & op
            new_op = op
            w = hit
            while w:
                c = w & -w
                u = c.bit_length() - 1
                att[u] -= ai
                if att[u] <= armies[u]:
                    new_op ^= c
                w ^= c
            floor = alpha if alpha > best else best
            v = (
                1
                - self.limited(
                    unconquered ^ b, new_op, me ^ b, 1 - side, depth - 1, 1 - beta, 1 - floor
                )[0]
            )
            w = hit
            while w:
                c = w & -w
                att[c.bit_length() - 1] += ai
                w ^= c
            if v > best:
                best, best_move = v, i
                if best >= beta:
                    break
        return best, best_move

    # -- drivers ------------------------------------------------------------------------

    def root_bounds(self, unconquered: int, me: int, op: int) -> tuple[int, int]:
        """Static bounds of fact 3 on the mover's future gain."""
        if not me:
            return -_popcount(op), -_popcount(op)
        if not op:
            return _popcount(me), _popcount(me)
        lo = _popcount(self.secure(me, op)) - _popcount(op)
        hi = _popcount(me) - _popcount(self.secure(op, me))
        return lo, hi

    def mtdf(
        self,
        unconquered: int,
        me: int,
        op: int,
        side: int,
        bounds: list[int],
        guess: int = 0,
    ) -> int:
        """Exact future gain by null-window searches; ``bounds`` is narrowed in place.

        ``bounds`` is ``[lo, hi]`` on the value; it stays valid (and tightens)
        when a :class:`_Timeout` interrupts the search.
        """
        g = min(max(guess, bounds[0]), bounds[1])
        while bounds[0] < bounds[1]:
            beta = g + 1 if g == bounds[0] else g
            g = self.search(unconquered, me, op, side, beta - 1, beta)
            if g < beta:
                bounds[1] = min(bounds[1], g)
            else:
                bounds[0] = max(bounds[0], g)
        return bounds[0]

    def exact(self, unconquered: int, me: int, op: int, side: int) -> int:
        """Exact future gain of a position."""
        bounds = list(self.root_bounds(unconquered, me, op))
        return self.mtdf(unconquered, me, op, side, bounds)

    def child(self, unconquered: int, me: int, op: int, i: int) -> tuple[int, int, int]:
        """The position after the mover conquers ``i``: (unconquered, L_me', L_op') seen
        from the new mover (the opponent)."""
        t = self.t
        b = 1 << i
        unc = unconquered ^ b
        new_op = op
        w = t.dep[i] & op
        while w:
            c = w & -w
            u = c.bit_length() - 1
            if t.attack(unc, u) <= t.armies[u]:
                new_op ^= c
            w ^= c
        return unc, new_op, me ^ b

    def set_position(self, unconquered: int) -> None:
        """Reset the incremental attack sums to those of ``unconquered``."""
        self.att = [self.t.attack(unconquered, i) for i in range(self.t.n)]

    def hint(self, unconquered: int, me: int, op: int, side: int) -> int:
        """The best move stored for a position, or -1."""
        entry = self.tt.get(self.key(unconquered, me, op, side))
        return -1 if entry is None else entry[2]

    def node_count(self) -> int:
        """Positions searched so far."""
        return self.nodes


class _NumbaSearch(_Search):
    """The same search with :func:`search` compiled by numba (module ``_solver_numba``).

    The Python helpers (bounds, heuristic search, line following) are
    inherited; only the exact search runs compiled.
    """

    def __init__(self, tables: _Tables, deadline: float | None = None) -> None:
        super().__init__(tables, deadline)
        from aggression_vision.game import _solver_numba

        # A table in proportion to the board: allocating 4M entries for a
        # small map would cost more than its search.
        bits = min(_solver_numba.TT_BITS, max(_NUMBA_MIN_TT_BITS, tables.n - 10))
        self.nb = _solver_numba.Tables(tables.armies, tables.atk, tables.dep, bits)
        self.nb.att[:] = self.att

    def set_position(self, unconquered: int) -> None:
        super().set_position(unconquered)
        self.nb.att[:] = self.att

    def search(self, unconquered: int, me: int, op: int, side: int, alpha: int, beta: int) -> int:
        chunk = _NUMBA_CHUNK if self.deadline is not None else 1 << 62
        while True:
            value, done = self.nb.run(unconquered, me, op, side, alpha, beta, chunk)
            if done:
                return value
            # Interrupted: the table keeps the work, so calling again resumes.
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise _Timeout

    def hint(self, unconquered: int, me: int, op: int, side: int) -> int:
        return self.nb.hint(self.key(unconquered, me, op, side))

    def node_count(self) -> int:
        return self.nodes + int(self.nb.stats[0])


def _bit_list(mask: int) -> list[int]:
    out = []
    while mask:
        b = mask & -mask
        out.append(b.bit_length() - 1)
        mask ^= b
    return out


def _principal_line(s: _Search, unconquered: int, me: int, op: int, side: int) -> list[int]:
    """Follow moves that keep the exact value from a position to the end."""
    line: list[int] = []
    while True:
        if not me and not op:
            return line
        if not me or not op:
            # Solitaire end (fact 2): the player with targets takes all of them.
            return line + _bit_list(me or op)
        s.set_position(unconquered)
        value = s.exact(unconquered, me, op, side)
        hint = s.hint(unconquered, me, op, side)
        candidates = _bit_list(me)
        candidates.sort(key=lambda i: i != hint)
        for i in candidates:
            unc, cme, cop = s.child(unconquered, me, op, i)
            s.set_position(unc)
            # Every child is worth >= 1 - value to the opponent; equality marks a best move.
            if s.search(unc, cme, cop, 1 - side, 1 - value, 2 - value) <= 1 - value:
                line.append(i)
                unconquered, me, op, side = unc, cme, cop, 1 - side
                break
        else:  # pragma: no cover - the exact value is attained by some move
            raise AssertionError("no move attains the exact value")


def solve(
    state: GameState,
    *,
    time_limit: float | None = None,
    alternatives: bool = False,
    engine: Engine = "auto",
) -> Solution:
    """Best conquest and perfect-play margin of a phase-3 position.

    Parameters
    ----------
    state
        A phase-3 position. When ``state.to_move`` is None the game is over and
        the final margin is returned.
    time_limit
        Seconds to spend. When the exact search does not finish in time the
        best move found so far is returned with ``exact=False`` and the margin
        proven to lie in ``[lower, upper]``; ``margin`` is then an estimate.
    alternatives
        Also give the margin of every legal target (exact only when the whole
        solve is exact; ``alternatives_exact`` says so).
    engine
        ``"python"``, ``"numba"`` (compiled, optional dependency, at most 62
        countries) or ``"auto"``: numba when it is already loaded, otherwise
        pure Python for up to a few thousand positions, then numba when
        installed and the time limit (if any) leaves room to load it. Every
        engine gives the same answers.

    Returns
    -------
    Solution
        ``best`` is None when the player to move must pass; ``line`` is the
        expected sequence of conquered targets; ``nodes`` counts searched
        positions.

    Raises
    ------
    ValueError
        When ``state`` is not a phase-3 position, or ``engine="numba"`` cannot run.

    >>> from aggression_vision.game.board import Board
    >>> from aggression_vision.game.moves import Placement
    >>> b = Board.from_pairs(["A", "B", "C"], [("A", "B"), ("B", "C")])
    >>> s = GameState.initial(b)
    >>> for m in (Placement("A", 50), Placement("B", 40), Placement("C", 45)):
    ...     s = s.apply(m)
    >>> sol = solve(s)
    >>> sol.best, sol.margin, sol.line
    (Conquest(target='B', attackers=('A', 'C')), 2, ('B',))
    """
    if state.phase != 3:
        raise ValueError(f"the solver needs a phase-3 position, got phase {state.phase}")
    t = _Tables(state)
    unc = t.start_unconquered
    base = t.margin(unc)
    if state.to_move is None:
        return Solution(None, base, True, (), base, base, 0)
    side = 0 if state.to_move == "first" else 1
    sign = 1 if side == 0 else -1
    me, op = t.targets(unc, side), t.targets(unc, 1 - side)
    if not me:
        # The mover passes now and for ever (fact 1); the opponent takes every
        # target it has (fact 2).
        m = base - sign * _popcount(op)
        return Solution(None, m, True, tuple(t.ids[i] for i in _bit_list(op)), m, m, 0)

    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    s: _Search
    if engine == "numba":
        if not _numba_usable(t.n):
            raise ValueError(
                f"engine='numba' needs numba installed and at most {_MAX_NUMBA_COUNTRIES} countries"
            )
        s = _NumbaSearch(t)
        r = _run(s, unc, me, op, side, deadline, start)
    elif engine == "auto" and _numba_usable(t.n) and "numba" in sys.modules:
        # Already loaded (a long-running process): compiled from the start.
        s = _NumbaSearch(t)
        r = _run(s, unc, me, op, side, deadline, start)
    elif (
        engine == "auto"
        and _numba_usable(t.n)
        and (time_limit is None or time_limit >= _NUMBA_MIN_TIME)
    ):
        # Pure Python first: most positions end within the budget, and loading
        # numba costs about a second.
        s = _Search(t)
        s.node_limit = s.check_at = _PYTHON_BUDGET
        try:
            r = _run(s, unc, me, op, side, deadline, start)
        except _OutOfNodes:
            # Too big for Python in reasonable time: start again, compiled.
            spent = s.nodes
            s = _NumbaSearch(t)
            s.nodes = spent
            r = _run(s, unc, me, op, side, deadline, start)
    else:
        s = _Search(t)
        r = _run(s, unc, me, op, side, deadline, start)
    s.deadline = None
    s.node_limit = None
    s.check_at = s.nodes + _CLOCK_EVERY
    gains: dict[int, int] | None = None
    if alternatives and r.exact:
        gains = _alternatives(s, unc, me, op, side, deadline)
    alt_exact = gains is not None or not alternatives
    if alternatives and gains is None:
        # Out of time: the heuristic estimates of each move (anytime mode).
        gains = r.estimates
    alt = {t.ids[i]: base + sign * g for i, g in (gains or {}).items()}
    best_t = t.ids[r.line[0]]
    attackers = tuple(state.attack_on(best_t, state.to_move)[1])
    margins = sorted((base + sign * r.lo, base + sign * r.hi))
    return Solution(
        best=Conquest(best_t, attackers),
        margin=base + sign * r.value,
        exact=r.exact,
        line=tuple(t.ids[i] for i in r.line),
        lower=margins[0],
        upper=margins[1],
        nodes=s.node_count(),
        alternatives=alt,
        alternatives_exact=alt_exact,
    )


@dataclass
class _Result:
    """What :func:`_run` found, as the mover's future gain."""

    exact: bool
    lo: int
    hi: int
    line: list[int]
    value: int
    #: Per-move estimates of the deepest completed heuristic iteration (anytime mode).
    estimates: dict[int, int] = field(default_factory=dict)


def _run(
    s: _Search, unc: int, me: int, op: int, side: int, deadline: float | None, start: float
) -> _Result:
    """Search a position with the mover to play."""
    estimates: dict[int, int] = {}
    if deadline is not None:
        # A shallow heuristic search first, so that a move is ready when the
        # exact search runs out of time.
        s.deadline = start + _HEURISTIC_SHARE * (deadline - start)
        estimates = _heuristic_values(s, unc, me, op, side)
    s.deadline = deadline
    s.set_position(unc)
    bounds = list(s.root_bounds(unc, me, op))
    guess = max(estimates.values()) if estimates else 0
    try:
        s.mtdf(unc, me, op, side, bounds, guess=guess)
        exact = True
    except _Timeout:
        exact = False
    s.deadline = None
    s.set_position(unc)
    lo, hi = bounds
    if exact:
        return _Result(True, lo, hi, _principal_line(s, unc, me, op, side), lo, estimates)
    # No move is worth more than the position (``hi``), and every move reaches
    # the static lower bound (fact 3 holds whatever the mover plays).
    static_lo = s.root_bounds(unc, me, op)[0]
    estimates = {i: min(max(v, static_lo), hi) for i, v in estimates.items()}
    # Best estimate first; ties go to the first move in board order.
    move = max(estimates, key=lambda i: (estimates[i], -i))
    proven = s.hint(unc, me, op, side)
    if proven >= 0 and lo > static_lo:
        # The root's last fail-high move is proven to reach ``lo``; any move
        # reaches the static lower bound, so the move returned always does.
        move = proven
        estimates[move] = max(estimates[move], lo)
    value = min(max(estimates[move], lo), hi)
    return _Result(False, lo, hi, _greedy_line(s, unc, me, op, side, move), value, estimates)


def numba_available() -> bool:
    """Whether numba is installed (the compiled engine is optional).

    Looks without importing: importing numba takes about a second, paid only
    when a position is big enough to need it.
    """
    import importlib.util

    return importlib.util.find_spec("numba") is not None


def _numba_usable(n: int) -> bool:
    """Whether the compiled engine can run: numba installed and masks fit in int64."""
    return n <= _MAX_NUMBA_COUNTRIES and numba_available()


def _alternatives(
    s: _Search, unc: int, me: int, op: int, side: int, deadline: float | None
) -> dict[int, int] | None:
    """Exact future gain after each legal target, or None when time runs out."""
    out: dict[int, int] = {}
    s.deadline = deadline
    try:
        for i in _bit_list(me):
            cu, cme, cop = s.child(unc, me, op, i)
            s.set_position(cu)
            out[i] = 1 - s.exact(cu, cme, cop, 1 - side)
    except _Timeout:
        return None
    finally:
        s.deadline = None
        s.set_position(unc)
    return out


def _heuristic_values(s: _Search, unc: int, me: int, op: int, side: int) -> dict[int, int]:
    """Iterative deepening with a static evaluation until the deadline.

    Every root move is searched with a full window, so the values of the
    deepest completed iteration are comparable estimates of each move.
    """
    moves = _bit_list(me)
    values: dict[int, int] = {}
    for depth in range(_popcount(me | op)):
        try:
            new = {}
            for i in moves:
                cu, cme, cop = s.child(unc, me, op, i)
                new[i] = 1 - _shallow(s, cu, cme, cop, 1 - side, depth)[0]
            values = new
        except _Timeout:
            if values:
                break
            # Not even one static evaluation per move in time: finish depth 0.
            s.deadline = None
    s.set_position(unc)
    return values


def _shallow(s: _Search, unc: int, me: int, op: int, side: int, depth: int) -> tuple[int, int]:
    """(value, best move) of a depth-limited search, values exact at solitaire ends."""
    s.set_position(unc)
    return s.limited(unc, me, op, side, depth, _NEG_INF, -_NEG_INF)


def _greedy_line(s: _Search, unc: int, me: int, op: int, side: int, first: int) -> list[int]:
    """The line after ``first``: shallow searches move by move (anytime mode)."""
    line = [first]
    unc, me, op = s.child(unc, me, op, first)
    side = 1 - side
    while me and op:
        s.set_position(unc)
        i = s.limited(unc, me, op, side, _LINE_DEPTH, _NEG_INF, -_NEG_INF)[1]
        line.append(i)
        unc, me, op = s.child(unc, me, op, i)
        side = 1 - side
    return line + _bit_list(me or op)
