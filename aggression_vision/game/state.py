"""Game state of phases 2 and 3 and the rules that move it forward."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from aggression_vision.errors import IllegalMoveError, InvalidDocumentError
from aggression_vision.game.board import Board, CountryId
from aggression_vision.game.moves import (
    PLAYERS,
    Conquest,
    Move,
    Pass,
    Placement,
    Player,
    opponent,
)

ARMIES_PER_PLAYER = 100


@dataclass(frozen=True)
class GameState:
    """A position of phase 2 or 3.

    Use :meth:`initial` for a fresh map, :meth:`from_position` for a position
    read from a document, and :meth:`apply` to move on.

    >>> board = Board.from_pairs(["A", "B"], [("A", "B")])
    >>> s = GameState.initial(board).apply(Placement("A", 60)).apply(Placement("B", 30))
    >>> s.phase, s.to_move
    (3, 'first')
    >>> [str(m) for m in s.legal_conquests()]
    ['A conquers B']
    >>> s.apply(Conquest("B")).score()
    {'first': 1, 'second': 0}
    """

    board: Board
    armies: Mapping[CountryId, int | None] = field(repr=False)
    owner: Mapping[CountryId, Player | None] = field(repr=False)
    conquered: frozenset[CountryId]
    phase: int
    to_move: Player | None

    # -- construction ---------------------------------------------------------------

    @classmethod
    def initial(cls, board: Board) -> GameState:
        """The start of phase 2: nothing placed, ``first`` to move."""
        empty: dict[CountryId, None] = dict.fromkeys(board.countries)
        return cls(
            board=board,
            armies=MappingProxyType(dict(empty)),
            owner=MappingProxyType(dict(empty)),
            conquered=frozenset(),
            phase=2,
            to_move="first",
        )

    @classmethod
    def from_position(
        cls,
        board: Board,
        armies: Mapping[CountryId, int | None],
        owner: Mapping[CountryId, Player | None],
        conquered: frozenset[CountryId] | set[CountryId] = frozenset(),
        *,
        phase: int | None = None,
        to_move: Player | None = None,
        infer_to_move: bool = True,
        check_totals: bool = True,
    ) -> tuple[GameState, list[str]]:
        """Build a position, inferring ``phase`` and ``to_move`` where not given.

        Returns the state and a list of warnings (the inference was ambiguous).
        ``check_totals=False`` lets a player have more than 100 armies on the
        map (a photo with a misread number), so that play is not blocked.

        Raises
        ------
        InvalidDocumentError
            When the position breaks the rules of the format (owner without
            armies, armies < 1, a total over 100, a conquered unoccupied country,
            conquests in phase 2).
        """
        a = {c: armies.get(c) for c in board.countries}
        o = {c: owner.get(c) for c in board.countries}
        for c in board.countries:
            if (a[c] is None) != (o[c] is None):
                what = "owner without armies" if a[c] is None else "armies without owner"
                raise InvalidDocumentError(f"country {c!r}: {what}")
            n = a[c]
            if n is not None and n < 1:
                raise InvalidDocumentError(f"country {c!r}: armies must be >= 1, got {n}")
        conq = frozenset(conquered)
        for c in conq:
            if c not in board:
                raise InvalidDocumentError(f"conquered names unknown country {c!r}")
            if a[c] is None:
                raise InvalidDocumentError(f"country {c!r}: conquered but unoccupied")
        for p in PLAYERS:
            total = sum(n for c, n in a.items() if n is not None and o[c] == p)
            if check_totals and total > ARMIES_PER_PLAYER:
                raise InvalidDocumentError(
                    f"{p} has {total} armies on the map, more than {ARMIES_PER_PLAYER}"
                )
        warnings: list[str] = []
        placement_done = all(n is not None for n in a.values()) or all(
            _remaining(a, o, p) == 0 for p in PLAYERS
        )
        if phase is None:
            phase = 3 if conq or placement_done else 2
        if phase not in (2, 3):
            raise InvalidDocumentError(f"phase must be 2 or 3, got {phase}")
        if phase == 2 and conq:
            raise InvalidDocumentError("phase 2 position has conquered countries")
        state = cls(
            board=board,
            armies=MappingProxyType(a),
            owner=MappingProxyType(o),
            conquered=conq,
            phase=phase,
            to_move="first",
        )
        if to_move is None and infer_to_move:
            inferred, why = state._infer_to_move()
            if why:
                warnings.append(why)
            state = replace(state, to_move=inferred)
        else:
            state = replace(state, to_move=to_move)
        return state, warnings

    def _infer_to_move(self) -> tuple[Player | None, str | None]:
        if self.phase == 2:
            if self._phase2_over():
                return None, "phase 2 is complete; the game continues in phase 3"
            can = [p for p in PLAYERS if self.remaining(p) > 0]
            if len(can) == 1:
                return can[0], None
            made = {p: sum(1 for c in self.board.countries if self.owner[c] == p) for p in PLAYERS}
            if made["first"] == made["second"]:
                return "first", None
            if made["first"] == made["second"] + 1:
                return "second", None
            mover: Player = "first" if made["first"] < made["second"] else "second"
            return mover, (
                f"cannot tell whose turn it is from the placements (first {made['first']}, "
                f"second {made['second']}); assuming {mover} (use --to-move to override)"
            )
        done = {p: sum(1 for c in self.conquered if self.owner[c] == opponent(p)) for p in PLAYERS}
        able = {p: bool(self._conquests_for(p)) for p in PLAYERS}
        if not able["first"] and not able["second"]:
            return None, None
        if done["first"] == done["second"]:
            guess: Player = "first"
        elif done["first"] == done["second"] + 1:
            guess = "second"
        else:
            guess = "first" if done["first"] < done["second"] else "second"
            return guess, (
                f"cannot tell whose turn it is from the conquests (first {done['first']}, "
                f"second {done['second']}: someone passed); assuming {guess} "
                "(use --to-move to override)"
            )
        return guess, None

    # -- queries ----------------------------------------------------------------------

    def remaining(self, player: Player) -> int:
        """Armies ``player`` has not placed yet."""
        return _remaining(self.armies, self.owner, player)

    def unoccupied(self) -> list[CountryId]:
        """Countries with no number, in board order."""
        return [c for c in self.board.countries if self.armies[c] is None]

    def attack_on(self, target: CountryId, player: Player) -> tuple[int, list[CountryId]]:
        """Sum of ``player``'s armies adjacent to ``target`` and the countries giving them.

        Only not-conquered countries owned by ``player`` count.
        """
        total = 0
        names = []
        near = self.board.neighbours(target)
        for c in self.board.countries:
            if c in near and self.owner[c] == player and c not in self.conquered:
                n = self.armies[c]
                assert n is not None
                total += n
                names.append(c)
        return total, names

    def describe_attack(self, target: CountryId, player: Player | None = None) -> str:
        """The attack on ``target`` in words, e.g. ``"C, G conquer D: attack 23 (C 12, G 11) >
        defence 12"``; ``player`` defaults to the player to move.

        >>> b = Board.from_pairs(["A", "B"], [("A", "B")])
        >>> s = GameState.initial(b).apply(Placement("A", 60)).apply(Placement("B", 30))
        >>> s.describe_attack("B")
        'A conquers B: attack 60 (A 60) > defence 30'
        """
        p = player or self.to_move
        assert p is not None
        attack, names = self.attack_on(target, p)
        defence = self.armies[target]
        parts = ", ".join(f"{c} {self.armies[c]}" for c in names)
        verb = "conquers" if len(names) == 1 else "conquer"
        relation = ">" if defence is not None and attack > defence else "<="
        who = ", ".join(names) or p
        return f"{who} {verb} {target}: attack {attack} ({parts}) {relation} defence {defence}"

    def _conquests_for(self, player: Player) -> list[Conquest]:
        out = []
        for t in self.board.countries:
            if self.owner[t] != opponent(player) or t in self.conquered:
                continue
            attack, names = self.attack_on(t, player)
            defence = self.armies[t]
            assert defence is not None
            if attack > defence:
                out.append(Conquest(target=t, attackers=tuple(names)))
        return out

    def legal_conquests(self) -> list[Conquest]:
        """Conquests open to the player to move (phase 3), with every attacker named."""
        if self.phase != 3 or self.to_move is None:
            return []
        return self._conquests_for(self.to_move)

    def legal_placements(self, *, max_armies: int | None = None) -> list[Placement]:
        """Placements open to the player to move (phase 2), up to ``max_armies`` each."""
        if self.phase != 2 or self.to_move is None:
            return []
        top = self.remaining(self.to_move)
        if max_armies is not None:
            top = min(top, max_armies)
        return [Placement(c, n) for c in self.unoccupied() for n in range(1, top + 1)]

    def _phase2_over(self) -> bool:
        return not self.unoccupied() or all(self.remaining(p) == 0 for p in PLAYERS)

    def is_over(self) -> bool:
        """Whether the game has ended (phase 3 and nobody can conquer)."""
        return self.phase == 3 and self.to_move is None

    def score(self) -> dict[Player, int]:
        """Own occupied countries not conquered, per player."""
        s: dict[Player, int] = {"first": 0, "second": 0}
        for c in self.board.countries:
            p = self.owner[c]
            if p is not None and c not in self.conquered:
                s[p] += 1
        return s

    def winner(self) -> Player | None:
        """The player with the higher score (None on a draw); meaningful when over."""
        s = self.score()
        if s["first"] == s["second"]:
            return None
        return "first" if s["first"] > s["second"] else "second"

    # -- moves --------------------------------------------------------------------------

    def check(self, move: Move) -> str | None:
        """Why ``move`` is illegal now, in words; None when it is legal."""
        if self.to_move is None:
            return "the game is over" if self.phase == 3 else "nobody is to move"
        p = self.to_move
        if isinstance(move, Placement):
            if self.phase != 2:
                return f"placements are made in phase 2; this is phase {self.phase}"
            if move.country not in self.board:
                return f"there is no country {move.country}"
            if self.armies[move.country] is not None:
                return f"{move.country} is already occupied"
            if move.armies < 1:
                return "a placement needs at least 1 army"
            if move.armies > self.remaining(p):
                return f"{p} has only {self.remaining(p)} armies left, not {move.armies}"
            return None
        if isinstance(move, Pass):
            if self.phase != 3:
                return "passing is only for phase 3"
            if self.legal_conquests():
                return f"{p} has a legal conquest and may not pass"
            return None
        if self.phase != 3:
            return f"conquests are made in phase 3; this is phase {self.phase}"
        t = move.target
        if t not in self.board:
            return f"there is no country {t}"
        if self.armies[t] is None:
            return f"{t} is unoccupied"
        if t in self.conquered:
            return f"{t} is already conquered"
        if self.owner[t] == p:
            return f"{t} belongs to {p}"
        for a in move.attackers:
            if a not in self.board:
                return f"there is no country {a}"
            if self.owner[a] != p:
                return f"{a} does not belong to {p}"
            if a in self.conquered:
                return f"{a} is conquered and cannot attack"
            if not self.board.is_adjacent(a, t):
                return f"{a} is not adjacent to {t}"
        attack, names = self.attack_on(t, p)
        defence = self.armies[t]
        assert defence is not None
        if attack <= defence:
            if not names:
                return f"{t} has {defence} armies; {p} has no country adjacent to it"
            return f"{t} has {defence} armies; {p} has only {attack} in adjacent {', '.join(names)}"
        return None

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` may be played now."""
        return self.check(move) is None

    def apply(self, move: Move) -> GameState:
        """The position after ``move``.

        Raises
        ------
        IllegalMoveError
            With the reason in words when the move is not legal here.
        """
        why = self.check(move)
        if why is not None:
            raise IllegalMoveError(f"{move} is illegal: {why}")
        p = self.to_move
        assert p is not None
        if isinstance(move, Placement):
            armies = dict(self.armies)
            owner = dict(self.owner)
            armies[move.country] = move.armies
            owner[move.country] = p
            nxt = replace(self, armies=MappingProxyType(armies), owner=MappingProxyType(owner))
            if nxt._phase2_over():
                return nxt._start_phase3()
            o = opponent(p)
            return replace(nxt, to_move=o if nxt.remaining(o) > 0 else p)
        if isinstance(move, Pass):
            return replace(self, to_move=opponent(p))._settle()
        nxt = replace(self, conquered=self.conquered | {move.target}, to_move=opponent(p))
        return nxt._settle()

    def _start_phase3(self) -> GameState:
        return replace(self, phase=3, to_move="first")._settle()

    def _settle(self) -> GameState:
        """End the game when neither player can conquer."""
        if not self._conquests_for("first") and not self._conquests_for("second"):
            return replace(self, to_move=None)
        return self

    def with_to_move(self, player: Player | None) -> GameState:
        """The same position with ``player`` to move (an override)."""
        return replace(self, to_move=player)


def _remaining(
    armies: Mapping[CountryId, int | None], owner: Mapping[CountryId, Player | None], p: Player
) -> int:
    # Never negative: a photo may be read with more than 100 (check_totals=False).
    placed = sum(n for c, n in armies.items() if n is not None and owner[c] == p)
    return max(0, ARMIES_PER_PLAYER - placed)
