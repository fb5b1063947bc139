"""Pure-Python rules engine and solvers for *Aggression* (phases 2 and 3).

Imports nothing outside the standard library.
"""

from aggression_vision.game.board import Board, CountryId
from aggression_vision.game.minimax import Solution, naive_solve
from aggression_vision.game.moves import (
    PLAYERS,
    Conquest,
    Move,
    Pass,
    Placement,
    Player,
    opponent,
    parse_move,
)
from aggression_vision.game.state import ARMIES_PER_PLAYER, GameState

__all__ = [
    "ARMIES_PER_PLAYER",
    "PLAYERS",
    "Board",
    "Conquest",
    "CountryId",
    "GameState",
    "Move",
    "Pass",
    "Placement",
    "Player",
    "Solution",
    "naive_solve",
    "opponent",
    "parse_move",
]
