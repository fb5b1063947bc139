"""A plausible game on a synthetic map, played with the rules engine.

Phase 2 is played by a simple human-like policy (spread the 100 armies over
roughly half the countries, some heavy and some light, often next to the
opponent); the photo may be taken before phase 2 ends. Phase 3 is played with
random legal conquests and stopped part way (or at the end). Every move goes
through :meth:`GameState.apply`, so the position is legal by construction.
"""

from __future__ import annotations

import math

import numpy as np

from aggression_vision.game import Board, Conquest, GameState, Move, Pass, Placement
from aggression_vision.synth.params import SynthParams


def _placement(state: GameState, rng: np.random.Generator, spread: float) -> Placement:
    """A human-like placement for the player to move."""
    p = state.to_move
    assert p is not None
    free = state.unoccupied()
    left = state.remaining(p)
    # Often next to a country already occupied (attack or defend), otherwise anywhere.
    near = [c for c in free if any(state.owner[n] is not None for n in state.board.neighbours(c))]
    pool = near if near and rng.random() < 0.6 else free
    country = pool[int(rng.integers(len(pool)))]
    if len(free) == 1 or rng.random() < 0.04:
        return Placement(country, left)  # everything left in one go
    share = left / max(1.0, math.ceil(len(free) / 2))
    n = int(round(share * float(rng.lognormal(0.0, spread))))
    return Placement(country, int(np.clip(n, 1, left)))


def random_conquest(state: GameState, rng: np.random.Generator) -> Move:
    """A random legal phase-3 move for the player to move: a conquest, or a pass when
    there is none.

    Greedy-ish: a conquest is drawn with weight sqrt(armies of its target), so big
    prizes are preferred, but not always. Draws from ``rng`` only when there is a
    conquest to choose.
    """
    options = state.legal_conquests()
    if not options:
        return Pass()
    weights = np.array([float(state.armies[c.target] or 1) for c in options]) ** 0.5
    return options[int(rng.choice(len(options), p=weights / weights.sum()))]


def play_game(
    board: Board, rng: np.random.Generator, params: SynthParams
) -> tuple[GameState, list[Move]]:
    """Play a random plausible game and stop where the photo is taken.

    Parameters
    ----------
    board : Board
    rng : numpy.random.Generator
    params : SynthParams
        ``unfinished_phase2_prob``, ``phase3_progress`` and ``placement_spread``.

    Returns
    -------
    state : GameState
        The position shown in the photo.
    moves : list of Move
        The moves from :meth:`GameState.initial` that lead to it (passes included).
    """
    spread = float(rng.uniform(*params.placement_spread))
    state = GameState.initial(board)
    moves: list[Move] = []
    while state.phase == 2 and state.to_move is not None:
        move = _placement(state, rng, spread)
        moves.append(move)
        state = state.apply(move)
    n_phase2 = len(moves)
    if rng.random() < params.unfinished_phase2_prob and n_phase2 > 1:
        stop = int(rng.integers(1, n_phase2))
        return replay(board, moves[:stop]), moves[:stop]
    while state.to_move is not None:
        move3 = random_conquest(state, rng)
        moves.append(move3)
        state = state.apply(move3)
    n_conquests = sum(isinstance(m, Conquest) for m in moves)
    keep = int(round(n_conquests * float(rng.uniform(*params.phase3_progress))))
    out: list[Move] = moves[:n_phase2]
    done = 0
    for m in moves[n_phase2:]:
        if isinstance(m, Conquest):
            if done == keep:
                break
            done += 1
        out.append(m)
    # A trailing pass is invisible on paper: drop it so the position matches the drawing.
    while out and isinstance(out[-1], Pass):
        out.pop()
    return replay(board, out), out


def replay(board: Board, moves: list[Move]) -> GameState:
    """The position after ``moves`` from the start (raises IllegalMoveError if illegal)."""
    state = GameState.initial(board)
    for m in moves:
        state = state.apply(m)
    return state
