"""Moves in the notation of the rules: "12 in F" (phase 2), "C conquers D" (phase 3)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, TypeAlias

from aggression_vision.errors import InvalidMoveError
from aggression_vision.game.board import CountryId

Player: TypeAlias = Literal["first", "second"]
PLAYERS: tuple[Player, Player] = ("first", "second")


def opponent(player: Player) -> Player:
    """The other player.

    >>> opponent("first")
    'second'
    """
    return "second" if player == "first" else "first"


@dataclass(frozen=True)
class Placement:
    """Phase 2: write ``armies`` armies into the unoccupied ``country``.

    >>> str(Placement(country="F", armies=12))
    '12 in F'
    """

    country: CountryId
    armies: int

    def __str__(self) -> str:
        return f"{self.armies} in {self.country}"


@dataclass(frozen=True)
class Conquest:
    """Phase 3: conquer ``target``; ``attackers`` are the own countries named as attacking.

    All of the mover's not-conquered countries adjacent to the target count
    towards the attack; ``attackers`` only records which ones were named.

    >>> str(Conquest(target="D", attackers=("C",)))
    'C conquers D'
    >>> str(Conquest(target="D", attackers=("C", "G")))
    'C, G conquer D'
    >>> str(Conquest(target="D"))
    'D'
    """

    target: CountryId
    attackers: tuple[CountryId, ...] = ()

    def __str__(self) -> str:
        if not self.attackers:
            return self.target
        verb = "conquers" if len(self.attackers) == 1 else "conquer"
        return f"{', '.join(self.attackers)} {verb} {self.target}"


@dataclass(frozen=True)
class Pass:
    """Phase 3: the player to move has no legal conquest."""

    def __str__(self) -> str:
        return "pass"


Move: TypeAlias = Placement | Conquest | Pass

_ID = r"[A-Za-z0-9_]+"
_PLACEMENT = re.compile(rf"^\s*(\d+)\s+in\s+({_ID})\s*$")
_CONQUEST = re.compile(
    rf"^\s*((?:{_ID})(?:\s*(?:,|\band\b)\s*{_ID})*)\s+conquers?\s+({_ID})\s*$", re.IGNORECASE
)
_TARGET = re.compile(rf"^\s*({_ID})\s*$")


def parse_move(text: str) -> Move:
    """Parse a move in the rules' notation.

    >>> parse_move("12 in F")
    Placement(country='F', armies=12)
    >>> parse_move("C conquers D")
    Conquest(target='D', attackers=('C',))
    >>> parse_move("C and G conquer D")
    Conquest(target='D', attackers=('C', 'G'))
    >>> parse_move("D")
    Conquest(target='D', attackers=())

    Raises
    ------
    InvalidMoveError
        When ``text`` is none of these forms.
    """
    if text.strip().lower() == "pass":
        return Pass()
    m = _PLACEMENT.match(text)
    if m:
        armies = int(m.group(1))
        return Placement(country=m.group(2), armies=armies)
    m = _CONQUEST.match(text)
    if m:
        names = re.split(r"\s*(?:,|\band\b)\s*", m.group(1).strip())
        return Conquest(target=m.group(2), attackers=tuple(n for n in names if n))
    m = _TARGET.match(text)
    if m:
        return Conquest(target=m.group(1))
    raise InvalidMoveError(
        f"cannot parse move {text!r}: expected '12 in F', 'C conquers D', 'D' or 'pass'"
    )
