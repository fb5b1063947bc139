"""The map: countries and which of them share a length of border."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TypeAlias

from aggression_vision.errors import InvalidDocumentError

CountryId: TypeAlias = str


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
