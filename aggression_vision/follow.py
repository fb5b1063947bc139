"""Follow a game photo by photo: compare two readings, keep a game folder.

A game folder holds ``photos/`` (each photo copied in untouched, numbered),
``moves.jsonl`` (one JSON line per recorded photo, rewritten atomically) and
``state.json`` (the current state document, ids kept stable through the game).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aggression_vision.document import (
    Annotations,
    document_to_state,
    dumps_document,
    load_document,
    state_to_document,
    write_atomic,
)
from aggression_vision.errors import AggressionVisionError
from aggression_vision.game import GameState, Pass, Player
from aggression_vision.referee import Verdict, judge


@dataclass
class Comparison:
    """Two readings, how their countries correspond, and the verdict."""

    verdict: Verdict
    before: GameState
    after: GameState
    before_annotations: Annotations
    after_annotations: Annotations
    matching: dict[str, str]


def _has_polygons(doc: Mapping[str, Any]) -> bool:
    return sum(1 for c in doc.get("countries", []) if c.get("polygon")) >= 3


def match_documents(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, str]:
    """``before`` id -> ``after`` id: by written letters when both readings have them
    all, by geometry when both have outlines, otherwise by id."""
    labels_a = {c["id"]: c.get("label") for c in before.get("countries", [])}
    labels_b = {c.get("label"): c["id"] for c in after.get("countries", [])}
    if all(labels_a.values()) and set(labels_a.values()) == set(labels_b) - {None}:
        return {a: labels_b[label] for a, label in labels_a.items()}
    if _has_polygons(before) and _has_polygons(after):
        from aggression_vision.vision.match import match_countries

        return match_countries(before, after)
    ids_b = {c["id"] for c in after.get("countries", [])}
    return {c["id"]: c["id"] for c in before.get("countries", []) if c["id"] in ids_b}


def compare_documents(
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    *,
    before_source: str = "<before>",
    after_source: str = "<after>",
    to_move: Player | None = None,
    strict: tuple[bool, bool] = (True, True),
) -> Comparison:
    """Find and judge the move between two state documents (read from photos or typed).

    ``strict`` says, for before and after, whether a player total over 100 is
    an error (typed documents) or let through (photo readings).
    """
    b_state, b_ann = document_to_state(
        before, source=before_source, to_move=to_move, check_totals=strict[0]
    )
    a_state, a_ann = document_to_state(after, source=after_source, check_totals=strict[1])
    matching = match_documents(before, after)
    verdict = judge(b_state, a_state, matching)
    return Comparison(verdict, b_state, a_state, b_ann, a_ann, matching)


class GameFolder:
    """The record of one game on disk (see the module docstring)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.photos = self.path / "photos"
        self.log_path = self.path / "moves.jsonl"
        self.state_path = self.path / "state.json"
        if self.path.exists() and not self.path.is_dir():
            raise AggressionVisionError(f"{self.path}: is not a folder")

    def is_started(self) -> bool:
        """Whether a first photo has been recorded."""
        return self.state_path.exists()

    def entries(self) -> list[dict[str, Any]]:
        """The move log, one dict per recorded photo."""
        if not self.log_path.exists():
            return []
        out = []
        for i, line in enumerate(self.log_path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                raise AggressionVisionError(f"{self.log_path}: line {i} is not JSON") from None
        return out

    def state_document(self) -> dict[str, Any]:
        """The current state document."""
        return load_document(self.state_path)

    def _copy_photo(self, photo: Path) -> str:
        self.photos.mkdir(parents=True, exist_ok=True)
        n = len(list(self.photos.iterdir())) + 1
        name = f"{n:03d}-{photo.name}"
        tmp = self.photos / f".{name}.tmp"
        shutil.copyfile(photo, tmp)
        tmp.replace(self.photos / name)
        return f"photos/{name}"

    def _append(self, entry: Mapping[str, Any]) -> None:
        old = self.log_path.read_text(encoding="utf-8") if self.log_path.exists() else ""
        write_atomic(self.log_path, old + json.dumps(entry, ensure_ascii=False) + "\n")

    def start(self, photo: Path, doc: Mapping[str, Any], *, strict: bool = True) -> dict[str, Any]:
        """Record the first photo of the game; its reading becomes the state."""
        state, ann = document_to_state(doc, source=str(photo), check_totals=strict)
        self.path.mkdir(parents=True, exist_ok=True)
        new_doc = state_to_document(state, ann)
        stored = self._copy_photo(photo)
        write_atomic(self.state_path, dumps_document(new_doc))
        entry = {"n": 0, "photo": stored, "event": "start", "score": state.score()}
        self._append(entry)
        return entry

    def record(
        self,
        photo: Path,
        doc: Mapping[str, Any],
        *,
        to_move: Player | None = None,
        strict: bool = True,
    ) -> tuple[Comparison, dict[str, Any] | None]:
        """Judge ``doc`` (the reading of ``photo``) against the current state.

        A legal move is recorded (photo copied, log line appended, state
        updated, ids kept from the game's state); an illegal one is not, and
        the returned entry is None.
        """
        before = self.state_document()
        comp = compare_documents(
            before,
            doc,
            before_source=str(self.state_path),
            after_source=str(photo),
            to_move=to_move,
            strict=(True, strict),
        )
        v = comp.verdict
        if not v.legal or v.move is None:
            return comp, None
        new_state = comp.before.apply(v.move)
        polygons = {}
        for c in doc.get("countries", []):
            for b_id, a_id in comp.matching.items():
                if a_id == c["id"] and c.get("polygon"):
                    polygons[b_id] = c["polygon"]
        ann = comp.before_annotations
        ann.polygons.update(polygons)
        ann.warnings = []
        new_doc = state_to_document(new_state, ann)
        stored = self._copy_photo(photo)
        write_atomic(self.state_path, dumps_document(new_doc))
        entry = {
            "n": len(self.entries()),
            "photo": stored,
            "event": "pass" if isinstance(v.move, Pass) else "move",
            "player": v.player,
            "move": str(v.move),
            "reason": v.reason,
            "score": new_state.score(),
        }
        self._append(entry)
        return comp, entry

    def table(self) -> list[tuple[int, str, str]]:
        """Move table rows: (number, player, move) in the rules' notation."""
        names: dict[str, str] = {}
        if self.is_started():
            names = self.state_document().get("players") or {}
        return [
            (e["n"], names.get(e["player"], e["player"]), e["move"])
            for e in self.entries()
            if e.get("event") in ("move", "pass")
        ]
