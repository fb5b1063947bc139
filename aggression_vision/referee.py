"""Find the move made between two readings of the same map and judge it.

Pure logic on game positions: which countries correspond between the two
readings is decided elsewhere (by id, or by geometry in
:mod:`aggression_vision.vision.match`) and passed in as ``matching``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from aggression_vision.game import (
    Conquest,
    CountryId,
    GameState,
    Move,
    Pass,
    Placement,
    Player,
    opponent,
)


@dataclass(frozen=True)
class Verdict:
    """What happened between two photos and whether it was legal."""

    legal: bool
    move: Move | None
    player: Player | None
    reason: str
    irregularities: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """``{"legal", "move", "player", "reason", "irregularities"}``."""
        return {
            "legal": self.legal,
            "move": str(self.move) if self.move is not None else None,
            "player": self.player,
            "reason": self.reason,
            "irregularities": list(self.irregularities),
        }


def judge(
    before: GameState,
    after: GameState,
    matching: Mapping[CountryId, CountryId] | None = None,
) -> Verdict:
    """The move that turns ``before`` into ``after``, and whether it was legal.

    Parameters
    ----------
    before, after : GameState
        The two readings; ``before`` carries whose turn it was.
    matching : mapping, optional
        ``before`` id -> ``after`` id; by default countries match by id.

    Returns
    -------
    Verdict
        ``move`` is the single placement (phase 2) or conquest (phase 3) found;
        every other change is listed in ``irregularities`` and makes the
        verdict illegal.

    >>> from aggression_vision.game import Board
    >>> b = Board.from_pairs(["A", "B"], [("A", "B")])
    >>> s = GameState.initial(b)
    >>> judge(s, s.apply(Placement("A", 12))).reason
    'A was unoccupied and first had 100 armies left'
    """
    if matching is None:
        matching = {c: c for c in before.board.countries if c in after.board}
    irregular: list[str] = []
    for c in before.board.countries:
        if c not in matching:
            irregular.append(f"country {c} of the first reading is missing from the second")
    matched_after = set(matching.values())
    for c in after.board.countries:
        if c not in matched_after:
            irregular.append(f"country {c} of the second reading is new")

    placements: list[Placement] = []
    placed_by: list[Player] = []
    conquests: list[Conquest] = []
    for b_id, a_id in matching.items():
        name = b_id if a_id == b_id else f"{b_id} (now {a_id})"
        n0, n1 = before.armies[b_id], after.armies[a_id]
        o0, o1 = before.owner[b_id], after.owner[a_id]
        c0, c1 = b_id in before.conquered, a_id in after.conquered
        if n0 is None and n1 is not None:
            assert o1 is not None
            placements.append(Placement(b_id, n1))
            placed_by.append(o1)
            if c1:
                irregular.append(f"{name}: a new number is already crossed out")
            continue
        if n0 is not None and n1 is None:
            irregular.append(f"{name}: the number {n0} is gone")
            continue
        # A number crossed out in both readings takes no further part: a different
        # reading of it is not worth an irregularity.
        if n0 != n1 and not (c0 and c1):
            irregular.append(f"{name}: the number changed from {n0} to {n1}")
        if o0 != o1:
            irregular.append(f"{name}: the owner changed from {o0} to {o1} (underline)")
        if c0 and not c1:
            irregular.append(f"{name}: the number {n0} is no longer crossed out")
        if c1 and not c0:
            conquests.append(Conquest(b_id))

    moves: list[Placement | Conquest] = [*placements, *conquests]
    if len(moves) > 1:
        names = ", ".join(str(m) for m in moves)
        return Verdict(False, None, None, f"{len(moves)} moves at once: {names}", irregular)
    if not moves:
        reason = "no move was made"
        if before.phase == 3 and before.to_move is not None and not before.legal_conquests():
            return Verdict(
                not irregular,
                Pass(),
                before.to_move,
                f"{before.to_move} has no legal conquest and passes",
                irregular,
            )
        return Verdict(False, None, None, reason, irregular)

    move = moves[0]
    if isinstance(move, Placement):
        player = placed_by[0]
    else:
        target_owner = before.owner[move.target]
        assert target_owner is not None
        player = opponent(target_owner)
    if before.to_move is not None and player != before.to_move:
        why = f"it was {before.to_move}'s turn, not {player}'s"
        if isinstance(move, Placement):
            mark = "underlined" if player == "first" else "not underlined"
            why += f" (the new number in {move.country} is {mark})"
        return Verdict(False, move, player, why, irregular)
    state = before if before.to_move is not None else before.with_to_move(player)
    why_not = state.check(move)
    if why_not is not None:
        return Verdict(False, move, player, why_not, irregular)
    if isinstance(move, Placement):
        left = state.remaining(player)
        reason = f"{move.country} was unoccupied and {player} had {left} armies left"
    else:
        reason = state.describe_attack(move.target)
        attackers = tuple(state.attack_on(move.target, player)[1])
        move = Conquest(move.target, attackers[:1] if len(attackers) == 1 else attackers)
    if irregular:
        return Verdict(False, move, player, f"{reason}; but other things changed", irregular)
    return Verdict(True, move, player, reason, irregular)
