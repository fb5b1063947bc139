"""State documents: validation errors name the file and field; round trips."""

from __future__ import annotations

import copy
import json
import os
import stat

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aggression_vision.document import (
    document_to_state,
    load_document,
    save_document,
    state_to_document,
    validate_document,
    write_atomic,
)
from aggression_vision.errors import InvalidDocumentError
from aggression_vision.game import Board, GameState, Placement

GOOD = {
    "format": "aggression-vision/state",
    "version": 1,
    "countries": [
        {"id": "A", "armies": 12, "owner": "first"},
        {"id": "B", "armies": 7, "owner": "second", "conquered": False},
        {"id": "C", "armies": None, "owner": None},
    ],
    "adjacency": [["A", "B"], ["B", "C"]],
}


def mutate(path, value):
    doc = copy.deepcopy(GOOD)
    target = doc
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return doc


@pytest.mark.parametrize(
    ("path", "value", "match"),
    [
        (("format",), "other", r"x.json: format: expected 'aggression-vision/state'"),
        (("version",), 2, r"x.json: version: expected 1, got 2"),
        (("version",), True, r"version: expected 1"),
        (("phase",), 4, r"phase: must be 2 or 3"),
        (("to_move",), "third", r"to_move: must be"),
        (("countries",), {}, r"countries: must be a list"),
        (("countries", 0), "A", r"countries\[0\]: must be an object"),
        (("countries", 1, "id"), "A", r"countries\[1\] \(A\)\.id: duplicate id 'A'"),
        (("countries", 1, "id"), 5, r"countries\[1\]\.id: must be a non-empty string"),
        (("countries", 0, "armies"), 0, r"countries\[0\] \(A\)\.armies: must be an integer >= 1"),
        (("countries", 0, "armies"), 2.5, r"\.armies: must be an integer"),
        (("countries", 0, "owner"), "third", r"\(A\)\.owner: must be 'first', 'second' or null"),
        (("countries", 0, "owner"), None, r"\(A\)\.owner: armies without owner"),
        (("countries", 2, "owner"), "first", r"\(C\)\.owner: owner without armies"),
        (("countries", 0, "conquered"), "yes", r"\(A\)\.conquered: must be true or false"),
        (("countries", 2, "conquered"), True, r"\(C\)\.conquered: an unoccupied country"),
        (("countries", 0, "label"), 3, r"\(A\)\.label: must be a string or null"),
        (("countries", 0, "polygon"), [[1, 2, 3]], r"\(A\)\.polygon: must be a list of"),
        (("countries", 0, "confidence"), 1.5, r"\(A\)\.confidence: must be a number in 0..1"),
        (("adjacency",), None, r"adjacency: must be a list"),
        (("adjacency", 0), ["A"], r"adjacency\[0\]: must be a two-element list"),
        (("adjacency", 0), ["A", "Z"], r"adjacency\[0\]: unknown country id 'Z'"),
        (("adjacency", 0), ["A", "A"], r"adjacency\[0\]: country 'A' is adjacent to itself"),
        (("countries", 0, "armies"), 101, r"countries: first has 101 armies on the map"),
        (("players",), {"first": 3}, r"players: must be an object"),
    ],
)
def test_validation_errors_name_file_and_field(path, value, match):
    with pytest.raises(InvalidDocumentError, match=match):
        validate_document(mutate(path, value), source="x.json")


def test_not_an_object():
    with pytest.raises(InvalidDocumentError, match="x.json: document: must be a JSON object"):
        validate_document([], source="x.json")


def test_load_document_errors(tmp_path):
    with pytest.raises(InvalidDocumentError, match="nope.json: no such file"):
        load_document(tmp_path / "nope.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": ', encoding="utf-8")
    with pytest.raises(InvalidDocumentError, match=r"bad.json: invalid JSON at line 1 column"):
        load_document(bad)
    binary = tmp_path / "photo.json"
    binary.write_bytes(b"\xff\xd8\xff\xe0")
    with pytest.raises(InvalidDocumentError, match="not UTF-8 text"):
        load_document(binary)
    with pytest.raises(InvalidDocumentError, match="is a directory"):
        load_document(tmp_path)


def test_minimal_document_infers_phase_and_to_move():
    state, ann = document_to_state(GOOD)
    assert state.phase == 2 and state.to_move == "first" and ann.warnings == []


def test_to_move_override_and_document_value():
    state, _ = document_to_state(GOOD, to_move="second")
    assert state.to_move == "second"
    state, _ = document_to_state({**GOOD, "to_move": "second"})
    assert state.to_move == "second"


def test_round_trip_keeps_annotations(tmp_path):
    doc = mutate(("countries", 0, "polygon"), [[0, 0], [10, 0], [10, 10]])
    doc["countries"][0]["label"] = "A"
    doc["countries"][0]["confidence"] = 0.5
    doc["players"] = {"first": "Napoleon", "second": "Wellington"}
    state, ann = document_to_state(doc)
    out = state_to_document(state, ann)
    assert out["countries"][0]["polygon"] == [[0.0, 0.0], [10.0, 0.0], [10.0, 10.0]]
    assert out["countries"][0]["confidence"] == 0.5
    assert out["players"]["first"] == "Napoleon"
    assert out["score"] == {"first": 1, "second": 1}
    path = tmp_path / "out.json"
    save_document(out, path)
    again = load_document(path)
    assert again == json.loads(json.dumps(out))


def test_write_atomic_leaves_no_temp_files(tmp_path):
    path = tmp_path / "a.json"
    write_atomic(path, "one")
    write_atomic(path, "two")
    assert path.read_text() == "two" and [p.name for p in tmp_path.iterdir()] == ["a.json"]
    with pytest.raises(FileNotFoundError):
        write_atomic(tmp_path / "missing" / "a.json", "x")


def test_write_atomic_gives_a_plain_files_permissions(tmp_path):
    # A new file: 0o666 less the umask (not the temporary file's private 0o600).
    old = os.umask(0o022)
    try:
        fresh = tmp_path / "new.json"
        write_atomic(fresh, "x")
        assert stat.S_IMODE(fresh.stat().st_mode) == 0o644
    finally:
        os.umask(old)
    # A file replaced keeps its own permissions.
    kept = tmp_path / "kept.json"
    kept.write_text("old")
    kept.chmod(0o640)
    write_atomic(kept, "new")
    assert stat.S_IMODE(kept.stat().st_mode) == 0o640 and kept.read_text() == "new"


ids = st.lists(st.from_regex(r"[A-Z]{1,2}", fullmatch=True), min_size=1, max_size=8, unique=True)


@st.composite
def documents(draw):
    names = draw(ids)
    pairs = draw(
        st.lists(st.tuples(st.sampled_from(names), st.sampled_from(names)), max_size=12).map(
            lambda ps: sorted({tuple(sorted(p)) for p in ps if p[0] != p[1]})
        )
    )
    board = Board.from_pairs(names, pairs)
    state = GameState.initial(board)
    for name in names:
        if state.phase != 2 or draw(st.booleans()):
            continue
        left = state.remaining(state.to_move)
        state = state.apply(Placement(name, draw(st.integers(1, max(1, min(left, 30))))))
    return state


@given(documents())
@settings(derandomize=True, max_examples=100)
def test_document_round_trip_property(state):
    doc = state_to_document(state)
    again, ann = document_to_state(json.loads(json.dumps(doc)))
    assert state_to_document(again, ann) == doc
