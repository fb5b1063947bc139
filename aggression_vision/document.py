"""State documents (``aggression-vision/state`` v1): read, validate, write.

The document is the contract of ``../shared/spec/interface.md``. Validation
errors name the source file and the field, in one line.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aggression_vision.errors import InvalidDocumentError
from aggression_vision.game import PLAYERS, Board, CountryId, GameState, Player

FORMAT = "aggression-vision/state"
VERSION = 1


@dataclass
class Annotations:
    """What a document carries beside the game position."""

    polygons: dict[CountryId, list[list[float]]] = field(default_factory=dict)
    labels: dict[CountryId, str | None] = field(default_factory=dict)
    confidence: dict[CountryId, float] = field(default_factory=dict)
    players: dict[str, str] | None = None
    warnings: list[str] = field(default_factory=list)


def load_json(path: str | Path) -> Any:
    """Read a JSON file, with one-line errors naming the file.

    Raises
    ------
    InvalidDocumentError
        When the file is missing, unreadable or not JSON.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InvalidDocumentError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise InvalidDocumentError(f"{p}: is a directory, not a state document") from None
    except UnicodeDecodeError:
        raise InvalidDocumentError(f"{p}: not UTF-8 text (is it a photo?)") from None
    except OSError as e:
        raise InvalidDocumentError(f"{p}: cannot read: {e.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InvalidDocumentError(
            f"{p}: invalid JSON at line {e.lineno} column {e.colno}: {e.msg}"
        ) from None


def load_document(path: str | Path) -> dict[str, Any]:
    """Read and validate a state document; returns the raw (validated) dict."""
    doc = load_json(path)
    validate_document(doc, source=str(path))
    return doc  # type: ignore[no-any-return]


def _fail(source: str, where: str, what: str) -> InvalidDocumentError:
    return InvalidDocumentError(f"{source}: {where}: {what}")


def validate_document(doc: Any, *, source: str = "<document>", check_totals: bool = True) -> None:
    """Check a document's structure and values.

    Raises
    ------
    InvalidDocumentError
        Naming ``source`` and the offending field.
    """
    if not isinstance(doc, dict):
        raise _fail(source, "document", "must be a JSON object")
    if doc.get("format") != FORMAT:
        raise _fail(source, "format", f"expected {FORMAT!r}, got {doc.get('format')!r}")
    if doc.get("version") != VERSION or isinstance(doc.get("version"), bool):
        raise _fail(source, "version", f"expected {VERSION}, got {doc.get('version')!r}")
    if "phase" in doc and doc["phase"] is not None and doc["phase"] not in (2, 3):
        raise _fail(source, "phase", f"must be 2 or 3, got {doc['phase']!r}")
    if "to_move" in doc and doc["to_move"] not in (None, *PLAYERS):
        raise _fail(source, "to_move", f"must be 'first', 'second' or null, got {doc['to_move']!r}")
    countries = doc.get("countries")
    if not isinstance(countries, list):
        raise _fail(source, "countries", "must be a list")
    seen: set[str] = set()
    for i, c in enumerate(countries):
        where = f"countries[{i}]"
        if not isinstance(c, dict):
            raise _fail(source, where, "must be an object")
        cid = c.get("id")
        if not isinstance(cid, str) or not cid:
            raise _fail(source, f"{where}.id", f"must be a non-empty string, got {cid!r}")
        where = f"countries[{i}] ({cid})"
        if cid in seen:
            raise _fail(source, f"{where}.id", f"duplicate id {cid!r}")
        seen.add(cid)
        armies = c.get("armies")
        if armies is not None and (
            not isinstance(armies, int) or isinstance(armies, bool) or armies < 1
        ):
            raise _fail(
                source, f"{where}.armies", f"must be an integer >= 1 or null, got {armies!r}"
            )
        owner = c.get("owner")
        if owner not in (None, *PLAYERS):
            raise _fail(
                source, f"{where}.owner", f"must be 'first', 'second' or null, got {owner!r}"
            )
        if (armies is None) != (owner is None):
            what = "owner without armies" if armies is None else "armies without owner"
            raise _fail(source, f"{where}.owner", what)
        conquered = c.get("conquered", False)
        if not isinstance(conquered, bool):
            raise _fail(source, f"{where}.conquered", f"must be true or false, got {conquered!r}")
        if conquered and armies is None:
            raise _fail(source, f"{where}.conquered", "an unoccupied country cannot be conquered")
        label = c.get("label")
        if label is not None and not isinstance(label, str):
            raise _fail(source, f"{where}.label", f"must be a string or null, got {label!r}")
        poly = c.get("polygon")
        if poly is not None and not _is_polygon(poly):
            raise _fail(source, f"{where}.polygon", "must be a list of [x, y] number pairs")
        conf = c.get("confidence")
        if conf is not None and (
            not isinstance(conf, int | float) or isinstance(conf, bool) or not 0 <= conf <= 1
        ):
            raise _fail(source, f"{where}.confidence", f"must be a number in 0..1, got {conf!r}")
    adjacency = doc.get("adjacency")
    if not isinstance(adjacency, list):
        raise _fail(source, "adjacency", "must be a list of [id, id] pairs")
    for i, pair in enumerate(adjacency):
        where = f"adjacency[{i}]"
        if not isinstance(pair, list) or len(pair) != 2:
            raise _fail(source, where, f"must be a two-element list of ids, got {pair!r}")
        for x in pair:
            if x not in seen:
                raise _fail(source, where, f"unknown country id {x!r}")
        if pair[0] == pair[1]:
            raise _fail(source, where, f"country {pair[0]!r} is adjacent to itself")
    for p in PLAYERS:
        total = sum(
            c["armies"] for c in countries if c.get("owner") == p and c.get("armies") is not None
        )
        if check_totals and total > 100:
            raise _fail(source, "countries", f"{p} has {total} armies on the map, more than 100")
    players = doc.get("players")
    if players is not None and not (
        isinstance(players, dict) and all(isinstance(v, str) for v in players.values())
    ):
        raise _fail(source, "players", "must be an object of display names")


def _is_polygon(poly: Any) -> bool:
    return isinstance(poly, list) and all(
        isinstance(pt, list)
        and len(pt) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in pt)
        for pt in poly
    )


def document_to_state(
    doc: Mapping[str, Any],
    *,
    source: str = "<document>",
    to_move: Player | None = None,
    check_totals: bool = True,
) -> tuple[GameState, Annotations]:
    """Turn a document into a game position and its annotations.

    ``to_move`` overrides the document's and the inferred player to move.
    ``check_totals=False`` accepts a player total over 100 (a photo's reading
    with a misread number: the rule warnings report it instead).
    Inference warnings are added to ``Annotations.warnings``.

    Raises
    ------
    InvalidDocumentError
        When the document is invalid (see :func:`validate_document`).
    """
    validate_document(doc, source=source, check_totals=check_totals)
    countries = doc["countries"]
    ids = [c["id"] for c in countries]
    board = Board.from_pairs(ids, [(a, b) for a, b in doc["adjacency"]])
    armies = {c["id"]: c.get("armies") for c in countries}
    owner = {c["id"]: c.get("owner") for c in countries}
    conquered = {c["id"] for c in countries if c.get("conquered")}
    doc_to_move = doc.get("to_move") if "to_move" in doc else None
    explicit = to_move is not None or "to_move" in doc
    try:
        state, warnings = GameState.from_position(
            board,
            armies,
            owner,
            conquered,
            phase=doc.get("phase"),
            to_move=to_move if to_move is not None else doc_to_move,
            infer_to_move=not explicit,
            check_totals=check_totals,
        )
    except InvalidDocumentError as e:
        raise InvalidDocumentError(f"{source}: {e}") from None
    ann = Annotations(
        polygons={c["id"]: c["polygon"] for c in countries if c.get("polygon") is not None},
        labels={c["id"]: c.get("label") for c in countries},
        confidence={c["id"]: c["confidence"] for c in countries if "confidence" in c},
        players=doc.get("players"),
        warnings=list(warnings),
    )
    return state, ann


def state_to_document(
    state: GameState,
    annotations: Annotations | None = None,
    *,
    polygons: Mapping[CountryId, Sequence[Sequence[float]]] | None = None,
    labels: Mapping[CountryId, str | None] | None = None,
    warnings: Sequence[str] = (),
) -> dict[str, Any]:
    """The state document of a position (spec v1), with score and warnings.

    >>> from aggression_vision.game import Board, GameState
    >>> doc = state_to_document(GameState.initial(Board.from_pairs(["A"], [])))
    >>> doc["phase"], doc["to_move"], doc["countries"][0]["armies"]
    (2, 'first', None)
    """
    ann = annotations or Annotations()
    polys = dict(ann.polygons)
    if polygons:
        polys.update({k: [list(map(float, p)) for p in v] for k, v in polygons.items()})
    labs = dict(ann.labels)
    if labels:
        labs.update(labels)
    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION, "phase": state.phase}
    doc["to_move"] = state.to_move
    if ann.players:
        doc["players"] = dict(ann.players)
    countries = []
    for c in state.board.countries:
        entry: dict[str, Any] = {
            "id": c,
            "label": labs.get(c),
            "armies": state.armies[c],
            "owner": state.owner[c],
            "conquered": c in state.conquered,
        }
        if c in polys:
            entry["polygon"] = [[float(x), float(y)] for x, y in polys[c]]
        if c in ann.confidence:
            entry["confidence"] = ann.confidence[c]
        countries.append(entry)
    doc["countries"] = countries
    doc["adjacency"] = [[a, b] for a, b in state.board.pairs()]
    doc["score"] = state.score()
    doc["warnings"] = list(dict.fromkeys([*ann.warnings, *warnings]))
    return doc


def dumps_document(doc: Mapping[str, Any]) -> str:
    """Serialise a document: two-space indent, polygons kept on one line each."""
    text = json.dumps(doc, indent=2, ensure_ascii=False)
    return text + "\n"


def write_atomic(path: str | Path, data: bytes | str) -> None:
    """Write ``data`` to ``path`` atomically (temporary file in the same folder + rename).

    The file gets the permissions a plain write would give it: those of the file it
    replaces, else the usual ``0o666`` less the process's umask (the temporary file
    is made private, ``0o600``).
    """
    p = Path(path)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    directory = p.parent if str(p.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=directory)
    except OSError as e:
        # Name the file the user asked for, not the temporary one.
        raise type(e)(e.errno, e.strerror, str(p)) from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
        os.chmod(tmp, _plain_mode(p))
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _plain_mode(path: Path) -> int:
    """The permission bits a plain ``open(path, "w")`` would leave on ``path``."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def save_document(doc: Mapping[str, Any], path: str | Path) -> None:
    """Validate and write a document atomically."""
    validate_document(doc, source=str(path))
    write_atomic(path, dumps_document(doc))
