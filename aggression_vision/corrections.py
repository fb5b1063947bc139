"""User corrections of a reading (``--set D=12`` ...) and rule checks that catch misreads."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from aggression_vision.errors import InvalidDocumentError
from aggression_vision.game import PLAYERS, opponent
from aggression_vision.game.board import enemy_armies


class CorrectionError(InvalidDocumentError):
    """A correction names an unknown country or has the wrong form."""


@dataclass(frozen=True)
class Corrections:
    """Corrections given on the command line, applied to a document in this order:
    unoccupied, set, owner, conquered, adjacent, not-adjacent."""

    set_armies: tuple[str, ...] = ()
    owner: tuple[str, ...] = ()
    conquered: tuple[str, ...] = ()
    unoccupied: tuple[str, ...] = ()
    adjacent: tuple[str, ...] = ()
    not_adjacent: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return any(
            (
                self.set_armies,
                self.owner,
                self.conquered,
                self.unoccupied,
                self.adjacent,
                self.not_adjacent,
            )
        )


def _assignment(text: str, option: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip() or not value.strip():
        raise CorrectionError(f"{option} {text!r}: expected COUNTRY=VALUE")
    return key.strip(), value.strip()


def _pair(text: str, option: str) -> tuple[str, str]:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2 or not all(parts):
        raise CorrectionError(f"{option} {text!r}: expected two ids as A,B")
    if parts[0] == parts[1]:
        raise CorrectionError(f"{option} {text!r}: a country cannot be adjacent to itself")
    return parts[0], parts[1]


def apply_corrections(doc: Mapping[str, Any], corr: Corrections) -> dict[str, Any]:
    """A copy of ``doc`` with the corrections applied; the reader's confidence
    of a corrected country becomes 1.

    >>> doc = {"countries": [{"id": "A", "armies": 7, "owner": "second"}], "adjacency": []}
    >>> apply_corrections(doc, Corrections(set_armies=("A=17",)))["countries"][0]["armies"]
    17

    Raises
    ------
    CorrectionError
        When a correction names an unknown country or has the wrong form.
    """
    out = copy.deepcopy(dict(doc))
    by_id = {c["id"]: c for c in out.get("countries", [])}

    def country(cid: str, option: str) -> dict[str, Any]:
        if cid not in by_id:
            known = ", ".join(sorted(by_id)) or "none"
            raise CorrectionError(f"{option}: no country {cid!r} (countries: {known})")
        c: dict[str, Any] = by_id[cid]
        c["confidence"] = 1.0
        return c

    for cid in corr.unoccupied:
        c = country(cid, "--unoccupied")
        c.update(armies=None, owner=None, conquered=False)
    for text in corr.set_armies:
        cid, value = _assignment(text, "--set")
        c = country(cid, "--set")
        try:
            n = int(value)
        except ValueError:
            raise CorrectionError(f"--set {text!r}: armies must be a whole number") from None
        if not 1 <= n <= 100:
            raise CorrectionError(f"--set {text!r}: armies must be 1..100")
        c["armies"] = n
    for text in corr.owner:
        cid, value = _assignment(text, "--owner")
        if value not in PLAYERS:
            raise CorrectionError(f"--owner {text!r}: owner must be 'first' or 'second'")
        country(cid, "--owner")["owner"] = value
    for text in corr.set_armies:
        cid, _ = _assignment(text, "--set")
        if by_id[cid].get("owner") is None:
            raise CorrectionError(
                f"--set {text!r}: {cid} was unoccupied; say whose armies with --owner {cid}=first "
                "or --owner {cid}=second".replace("{cid}", cid)
            )
    for cid in corr.conquered:
        c = country(cid, "--conquered")
        if c.get("armies") is None:
            raise CorrectionError(f"--conquered {cid}: {cid} is unoccupied")
        c["conquered"] = True
    adjacency = [list(p) for p in out.get("adjacency", [])]
    for text in corr.adjacent:
        a, b = _pair(text, "--adjacent")
        country(a, "--adjacent")
        country(b, "--adjacent")
        if not any({a, b} == set(p) for p in adjacency):
            adjacency.append([a, b])
    for text in corr.not_adjacent:
        a, b = _pair(text, "--not-adjacent")
        country(a, "--not-adjacent")
        country(b, "--not-adjacent")
        adjacency = [p for p in adjacency if {a, b} != set(p)]
    out["adjacency"] = adjacency
    return out


def rule_warnings(doc: Mapping[str, Any]) -> list[str]:
    """Warnings that point at likely misreads, from the rules of the game.

    Checks each player's total <= 100, crossed-out numbers only in phase 3
    (placement finished), and that each crossed-out country could have been
    conquered by the opponent's armies around it.

    >>> doc = {"countries": [{"id": "A", "armies": 70, "owner": "first"},
    ...                      {"id": "B", "armies": 50, "owner": "first"}], "adjacency": []}
    >>> rule_warnings(doc)
    ['first has 120 armies on the map, more than 100: a number is probably misread']
    """
    countries: Sequence[Mapping[str, Any]] = doc.get("countries", [])
    warnings = []
    totals = {p: 0 for p in PLAYERS}
    for c in countries:
        if c.get("owner") in totals and isinstance(c.get("armies"), int):
            totals[c["owner"]] += c["armies"]
    for p in PLAYERS:
        if totals[p] > 100:
            warnings.append(
                f"{p} has {totals[p]} armies on the map, more than 100: "
                "a number is probably misread"
            )
    crossed = [c for c in countries if c.get("conquered")]
    unoccupied = [c for c in countries if c.get("armies") is None]
    if crossed and unoccupied and all(totals[p] < 100 for p in PLAYERS):
        warnings.append(
            "numbers are crossed out but placement is not finished "
            f"({len(unoccupied)} unoccupied, first {totals['first']}, second {totals['second']} "
            "armies placed): a cross-out or a number may be misread"
        )
    attack_on = enemy_armies(
        {c["id"]: c["armies"] if isinstance(c.get("armies"), int) else None for c in countries},
        {c["id"]: c.get("owner") if c.get("owner") in PLAYERS else None for c in countries},
        [(a, b) for a, b in doc.get("adjacency", [])],
    )
    for c in crossed:
        owner = c.get("owner")
        if owner not in PLAYERS or not isinstance(c.get("armies"), int):
            continue
        enemy = opponent(owner)
        attack = attack_on.get(c["id"], 0)
        if attack <= c["armies"]:
            warnings.append(
                f"{c['id']} is crossed out with {c['armies']} armies but {enemy} has only "
                f"{attack} around it: it could never have been conquered (misread?)"
            )
    return warnings
