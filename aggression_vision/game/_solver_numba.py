"""The exact search of :mod:`aggression_vision.game.solver`, compiled with numba.

A line-by-line port of ``_Search.search`` (same bounds, same move ordering,
same history updates, same tie-breaks), so that both engines visit the same
positions in the same order; ``tests/game/test_solver.py`` checks that they
give the same values and node counts. Imported lazily: importing it imports
numpy and numba. Masks are int64, so boards have at most 62 countries.

The transposition table is a fixed-size open-addressing hash (4 probes,
replace on a full bucket): an entry that is lost only costs a re-search, it
never changes an answer, because every stored bound is a proven bound for its
full key. A search stops early (``stats[ABORTED] = 1``) after
``stats[LIMIT]`` nodes, storing nothing from the interrupted nodes, so the
caller can check the clock and call again: the table keeps the work done.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

NODES, LIMIT, ABORTED = 0, 1, 2
#: Largest board the int64 masks can hold (the key is the mask shifted by one).
MAX_COUNTRIES = 62
#: log2 of the transposition-table size.
TT_BITS = 22
_PROBES = 4
_W_SAVED = 1 << 30
_W_INSECURE = 1 << 29
_W_HIT = 1 << 24
_HINT = 1 << 40

# (1 << k) % 67 is different for every k < 64 (2 is a primitive root mod 67).
_LOG67 = np.full(67, -1, dtype=np.int64)
for _k in range(63):
    _LOG67[(1 << _k) % 67] = _k


@numba.njit(cache=True, inline="always")  # type: ignore[misc]
def _lsb(b: int) -> int:
    return int(_LOG67[b % 67])


@numba.njit(cache=True, inline="always")  # type: ignore[misc]
def _pop(x: int) -> int:
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@numba.njit(cache=True)  # type: ignore[misc]
def _secure(me: int, op: int, armies: Any, atk: Any, att: Any) -> int:
    out = 0
    m = me
    while m:
        b = m & -m
        i = _lsb(b)
        m ^= b
        lost = 0
        w = atk[i] & op
        while w:
            c = w & -w
            lost += armies[_lsb(c)]
            w ^= c
        if att[i] - lost > armies[i]:
            out |= b
    return out


@numba.njit(cache=True)  # type: ignore[misc]
def _slot(tt_keys: Any, key: int) -> int:
    """Slot holding ``key``, else an empty slot of its bucket, else ``-1 - first slot``."""
    mask: int = tt_keys.shape[0] - 1
    h: int = (key ^ (key >> 23) ^ (key >> 41)) * 0x9E3779B1
    h = (h ^ (h >> 29)) & mask
    empty = -1
    for p in range(_PROBES):
        s: int = (h + p) & mask
        k = tt_keys[s]
        if k == key:
            return s
        if k == 0 and empty < 0:
            empty = s
    if empty >= 0:
        return empty
    return -1 - h


@numba.njit(cache=True)  # type: ignore[misc]
def search(
    armies: Any,
    atk: Any,
    dep: Any,
    tt_keys: Any,
    tt_lo: Any,
    tt_hi: Any,
    tt_move: Any,
    hist: Any,
    att: Any,
    move_buf: Any,
    score_buf: Any,
    stats: Any,
    unconquered: int,
    me: int,
    op: int,
    side: int,
    alpha: int,
    beta: int,
    ply: int,
) -> int:
    """Negamax alpha-beta; see ``_Search.search`` in solver.py for the meaning."""
    if me == 0:
        return -_pop(op)
    if op == 0:
        return _pop(me)
    if stats[NODES] >= stats[LIMIT]:
        stats[ABORTED] = 1
        return 0
    stats[NODES] += 1
    targets = me | op
    attackers = 0
    m = targets
    while m:
        b = m & -m
        attackers |= atk[_lsb(b)]
        m ^= b
    key = ((targets | (attackers & unconquered)) << 1) | side
    s = _slot(tt_keys, key)
    if s >= 0 and tt_keys[s] == key:
        lo = int(tt_lo[s])
        hi = int(tt_hi[s])
        hint = int(tt_move[s])
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        sec_me = _secure(me, op, armies, atk, att)
    else:
        sec_me = _secure(me, op, armies, atk, att)
        sec_op = _secure(op, me, armies, atk, att)
        lo = _pop(sec_me) - _pop(op)
        hi = _pop(me) - _pop(sec_op)
        hint = -1
        if s < 0:
            s = -1 - s
        tt_keys[s] = key
        tt_lo[s] = lo
        tt_hi[s] = hi
        tt_move[s] = -1
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
    a = alpha if alpha > lo else lo
    bt = beta if beta < hi else hi

    nmoves = 0
    free = -1
    harmless_insecure = False
    m = me
    while m:
        b = m & -m
        i = _lsb(b)
        m ^= b
        hit = dep[i] & op
        if hit == 0:
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
            u = _lsb(c)
            if att[u] - ai <= armies[u]:
                saved += 1
            w ^= c
        score = (
            saved * _W_SAVED
            + (0 if b & sec_me else _W_INSECURE)
            + _pop(hit) * _W_HIT
            + hist[side, i]
        )
        if i == hint:
            score = _HINT
        move_buf[ply, nmoves] = i
        score_buf[ply, nmoves] = score
        nmoves += 1
    if free >= 0 and not harmless_insecure:
        move_buf[ply, nmoves] = free
        score_buf[ply, nmoves] = _HINT if free == hint else hist[side, free]
        nmoves += 1
    # Insertion sort, descending on (score, move) like Python's sort(reverse=True).
    for x in range(1, nmoves):
        sc = score_buf[ply, x]
        mv = move_buf[ply, x]
        y = x - 1
        while y >= 0 and (
            score_buf[ply, y] < sc or (score_buf[ply, y] == sc and move_buf[ply, y] < mv)
        ):
            score_buf[ply, y + 1] = score_buf[ply, y]
            move_buf[ply, y + 1] = move_buf[ply, y]
            y -= 1
        score_buf[ply, y + 1] = sc
        move_buf[ply, y + 1] = mv

    best = -1000
    best_move = -1
    for x in range(nmoves):
        i = move_buf[ply, x]
        b = 1 << i
        ai = armies[i]
        hit = dep[i] & op
        new_op = op
        w = hit
        while w:
            c = w & -w
            u = _lsb(c)
            att[u] -= ai
            if att[u] <= armies[u]:
                new_op ^= c
            w ^= c
        floor = a if a > best else best
        v = 1 - search(
            armies, atk, dep, tt_keys, tt_lo, tt_hi, tt_move, hist, att, move_buf,
            score_buf, stats, unconquered ^ b, new_op, me ^ b, 1 - side, 1 - bt, 1 - floor,
            ply + 1,
        )  # fmt: skip
        w = hit
        while w:
            c = w & -w
            att[_lsb(c)] += ai
            w ^= c
        if stats[ABORTED]:
            return 0
        if v > best:
            best = v
            best_move = i
            if best >= bt:
                hist[side, i] += _pop(me | op) ** 2
                break
    new_lo, new_hi, move = lo, hi, hint
    if best <= a:
        if best < new_hi:
            new_hi = best
    elif best >= bt:
        if best > new_lo:
            new_lo = best
        move = best_move
    else:
        new_lo = new_hi = best
        move = best_move
    s = _slot(tt_keys, key)
    if s < 0:
        s = -1 - s
    elif tt_keys[s] == key:
        # Another path may have stored tighter bounds meanwhile (after an eviction).
        new_lo = max(new_lo, int(tt_lo[s]))
        new_hi = min(new_hi, int(tt_hi[s]))
    tt_keys[s] = key
    tt_lo[s] = new_lo
    tt_hi[s] = new_hi
    tt_move[s] = move
    return best


class Tables:
    """numpy copies of the solver's bitmask tables and the search's working arrays."""

    def __init__(self, armies: list[int], atk: list[int], dep: list[int], tt_bits: int) -> None:
        n = len(armies)
        if n > MAX_COUNTRIES:
            raise ValueError(f"the compiled solver handles at most {MAX_COUNTRIES} countries")
        self.armies = np.array(armies, dtype=np.int64)
        self.atk = np.array(atk, dtype=np.int64)
        self.dep = np.array(dep, dtype=np.int64)
        size = 1 << tt_bits
        self.tt_keys = np.zeros(size, dtype=np.int64)
        self.tt_lo = np.zeros(size, dtype=np.int8)
        self.tt_hi = np.zeros(size, dtype=np.int8)
        self.tt_move = np.full(size, -1, dtype=np.int8)
        self.hist = np.zeros((2, n), dtype=np.int64)
        self.att = np.zeros(n, dtype=np.int64)
        self.move_buf = np.zeros((n + 2, 64), dtype=np.int64)
        self.score_buf = np.zeros((n + 2, 64), dtype=np.int64)
        self.stats = np.zeros(3, dtype=np.int64)

    def run(
        self, unconquered: int, me: int, op: int, side: int, alpha: int, beta: int, limit: int
    ) -> tuple[int, bool]:
        """One search of at most ``limit`` more nodes: (value, finished)."""
        self.stats[LIMIT] = self.stats[NODES] + limit
        self.stats[ABORTED] = 0
        v = search(
            self.armies, self.atk, self.dep, self.tt_keys, self.tt_lo, self.tt_hi,
            self.tt_move, self.hist, self.att, self.move_buf, self.score_buf, self.stats,
            unconquered, me, op, side, alpha, beta, 0,
        )  # fmt: skip
        return int(v), not self.stats[ABORTED]

    def hint(self, key: int) -> int:
        """Best move stored for ``key`` (-1 when none)."""
        s = int(_slot(self.tt_keys, key))
        if s >= 0 and self.tt_keys[s] == key:
            return int(self.tt_move[s])
        return -1
