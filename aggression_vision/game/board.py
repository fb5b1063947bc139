"""The map: countries and which of them share a length of border."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TypeAlias, TypeVar

from aggression_vision.errors import InvalidDocumentError

CountryId: TypeAlias = str

_K = TypeVar("_K", bound=Hashable)


@dataclass(frozen=True)
class Board:
    """Countries and their adjacency; immutable.

    >>> board = Board.from_pairs(["A", "B", "C"], [("A", "B"), ("B", "C")])
    >>> sorted(board.neighbours("B"))
    ['A', 'C']
    >>> board.is_adjacent("A", "C")
    False
    """

    countries: tuple[CountryId, ...]
    adjacency: Mapping[CountryId, frozenset[CountryId]] = field(repr=False)

    @classmethod
    def from_pairs(
        cls, countries: Iterable[CountryId], pairs: Iterable[tuple[CountryId, CountryId]]
    ) -> Board:
        """Build a board from country ids and adjacent pairs.

        Raises
        ------
        InvalidDocumentError
            On duplicate ids, unknown ids in a pair, or a country adjacent to itself.
        """
        ids = tuple(countries)
        seen: set[CountryId] = set()
        for c in ids:
            if c in seen:
                raise InvalidDocumentError(f"duplicate country id {c!r}")
            seen.add(c)
        neighbours: dict[CountryId, set[CountryId]] = {c: set() for c in ids}
        for a, b in pairs:
            for x in (a, b):
                if x not in neighbours:
                    raise InvalidDocumentError(f"adjacency names unknown country {x!r}")
            if a == b:
                raise InvalidDocumentError(f"country {a!r} is adjacent to itself")
            neighbours[a].add(b)
            neighbours[b].add(a)
        return cls(ids, {c: frozenset(n) for c, n in neighbours.items()})

    def neighbours(self, country: CountryId) -> frozenset[CountryId]:
        """The countries sharing a length of border with ``country``."""
        return self.adjacency[country]

    def is_adjacent(self, a: CountryId, b: CountryId) -> bool:
        """Whether ``a`` and ``b`` share a length of border."""
        return b in self.adjacency[a]

    def pairs(self) -> list[tuple[CountryId, CountryId]]:
        """Every adjacent pair once, in board order."""
        order = {c: i for i, c in enumerate(self.countries)}
        out = []
        for a in self.countries:
            for b in sorted(self.adjacency[a], key=order.__getitem__):
                if order[a] < order[b]:
                    out.append((a, b))
        return out

    def __contains__(self, country: object) -> bool:
        return country in self.adjacency

    def __len__(self) -> int:
        return len(self.countries)


def enemy_armies(
    armies: Mapping[_K, int | None],
    sides: Mapping[_K, object],
    pairs: Iterable[tuple[_K, _K]],
) -> dict[_K, int]:
    """For each country, the armies of its adjacent countries held by the other side.

    A pair counts when both countries hold a number and a side (``None``: none) and the
    sides differ; each pair once (a repeated or reversed pair is the same border). A
    country holding at least this many armies can never have been conquered: a
    conquest needs more armies in the attacker's adjacent countries.

    >>> enemy_armies({"A": 3, "B": 2, "C": 4}, {"A": "first", "B": "second", "C": "second"},
    ...              [("A", "B"), ("B", "A"), ("A", "C"), ("B", "C")])
    {'A': 6, 'B': 3, 'C': 3}
    """
    seen: set[frozenset[_K]] = set()
    out: dict[_K, int] = {}
    for a, b in pairs:
        key = frozenset((a, b))
        if a == b or key in seen:
            continue
        seen.add(key)
        na, nb = armies.get(a), armies.get(b)
        sa, sb = sides.get(a), sides.get(b)
        if na is None or nb is None or sa is None or sb is None or sa == sb:
            continue
        out[a] = out.get(a, 0) + nb
        out[b] = out.get(b, 0) + na
    return out
