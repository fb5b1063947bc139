"""Following a game: check BEFORE AFTER and the track game folder."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from aggression_vision.cli import app
from aggression_vision.document import document_to_state, load_document, state_to_document
from aggression_vision.game import GameState, parse_move
from aggression_vision.vision.match import match_countries

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def grid_polygons(ids, rng):
    """Each country a jittered cell of a 5-wide grid (photo pixels)."""
    polys = {}
    for k, cid in enumerate(ids):
        r, c = divmod(k, 5)
        x0, y0 = 100 + c * 160 + rng.uniform(-8, 8), 80 + r * 120 + rng.uniform(-8, 8)
        w, h = 150 + rng.uniform(-20, 0), 110 + rng.uniform(-15, 0)
        polys[cid] = [[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h]]
    return polys


def photographed(doc, rng, *, angle_deg):
    """The document as another photo would give it: moved camera, ids in a new order."""
    t = np.deg2rad(angle_deg)
    h = np.array(
        [
            [np.cos(t) * 0.9, -np.sin(t) * 0.9, 300],
            [np.sin(t) * 0.9, np.cos(t) * 0.9, 120],
            [2e-4, -1e-4, 1],
        ]
    )
    out = json.loads(json.dumps(doc))
    order = rng.permutation(len(out["countries"]))
    rename = {out["countries"][i]["id"]: f"X{k}" for k, i in enumerate(order)}
    for c in out["countries"]:
        pts = np.array(c["polygon"], float)
        homog = np.c_[pts, np.ones(len(pts))] @ h.T
        c["polygon"] = (homog[:, :2] / homog[:, 2:]).tolist()
        c["id"] = rename[c["id"]]
    out["adjacency"] = [[rename[a], rename[b]] for a, b in out["adjacency"]]
    out.pop("to_move")
    out.pop("phase")
    return out, rename


@pytest.fixture
def game_docs(samples_dir):
    final, ann = document_to_state(load_document(samples_dir / "napoleon-wellington-final.json"))
    lines = (samples_dir / "napoleon-wellington.moves").read_text().splitlines()
    moves = [parse_move(x) for x in lines if x.strip() and not x.startswith("#")]
    rng = np.random.default_rng(7)
    ann.polygons = grid_polygons(final.board.countries, rng)
    state = GameState.initial(final.board)
    docs = [state_to_document(state, ann)]
    for m in moves:
        state = state.apply(m)
        docs.append(state_to_document(state, ann))
    return docs, moves


def test_match_countries_survives_camera_move(game_docs):
    docs, _ = game_docs
    rng = np.random.default_rng(3)
    for angle in (0, 37, 90, 200):
        moved, rename = photographed(docs[-1], rng, angle_deg=angle)
        assert match_countries(docs[-1], moved) == rename


def test_check_before_after_photos_of_a_conquest(game_docs, tmp_path):
    docs, moves = game_docs
    i = [str(m) for m in moves].index("G, O, L conquer E")
    rng = np.random.default_rng(5)
    after, rename = photographed(docs[i + 1], rng, angle_deg=30)
    (tmp_path / "before.json").write_text(json.dumps(docs[i]))
    (tmp_path / "after.json").write_text(json.dumps(after))
    r = run("check", tmp_path / "before.json", tmp_path / "after.json", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout) == {
        "legal": True,
        "move": "G, L, O conquer E",
        "player": "second",
        "reason": "G, L, O conquer E: attack 34 (G 12, L 11, O 11) > defence 10",
        "irregularities": [],
    }
    # the same pair the other way round: a number is no longer crossed out
    r = run("check", tmp_path / "after.json", tmp_path / "before.json", "--json")
    assert r.exit_code == 1
    out = json.loads(r.stdout)
    assert out["legal"] is False and any(
        "no longer crossed out" in x for x in out["irregularities"]
    )


def test_check_pair_illegal_and_two_moves(game_docs, tmp_path):
    docs, _ = game_docs
    (tmp_path / "a.json").write_text(json.dumps(docs[18]))
    (tmp_path / "c.json").write_text(json.dumps(docs[20]))
    r = run("check", tmp_path / "a.json", tmp_path / "c.json")
    assert r.exit_code == 1 and "2 moves at once: A, K" in r.stdout
    r = run("check", tmp_path / "a.json", tmp_path / "a.json", "--json")
    assert r.exit_code == 1 and json.loads(r.stdout)["reason"] == "no move was made"
    r = run("check", tmp_path / "a.json", tmp_path / "missing.json")
    assert r.exit_code == 1 and "missing.json: no such file" in r.stderr


def test_track_replays_the_whole_game(game_docs, tmp_path):
    docs, moves = game_docs
    folder = tmp_path / "game"
    rng = np.random.default_rng(11)
    for k, doc in enumerate(docs):
        # the first photo names the countries for the whole game
        shot = doc if k == 0 else photographed(doc, rng, angle_deg=float(rng.uniform(0, 360)))[0]
        path = tmp_path / f"shot{k:02d}.json"
        path.write_text(json.dumps(shot))
        before = path.read_bytes()
        r = run("track", folder, path, "--json")
        assert r.exit_code == 0, (k, r.output)
        assert path.read_bytes() == before
    out = json.loads(r.stdout)
    assert [m["move"] for m in out["moves"]][-1] == "C conquers D"
    assert len(out["moves"]) == len(moves)
    assert out["moves"][0] == {"n": 1, "player": "Napoleon", "move": "25 in C"}
    assert out["score"] == {"first": 4, "second": 6}
    assert len(list((folder / "photos").iterdir())) == len(docs)
    state = load_document(folder / "state.json")
    assert {c["id"] for c in state["countries"]} == set("ABCDEFGHIJKLMNOPQRST")
    r = run("track", folder, path)
    assert r.exit_code == 1 and "not recorded" in r.stdout


def test_track_refuses_illegal_move_and_accepts_correction(game_docs, tmp_path):
    docs, _ = game_docs
    folder = tmp_path / "game"
    (tmp_path / "0.json").write_text(json.dumps(docs[0]))
    assert run("track", folder, tmp_path / "0.json").exit_code == 0
    misread = json.loads(json.dumps(docs[1]))
    c = next(c for c in misread["countries"] if c["id"] == "C")
    c["owner"] = "second"  # the underline was missed
    (tmp_path / "1.json").write_text(json.dumps(misread))
    r = run("track", folder, tmp_path / "1.json")
    assert r.exit_code == 1 and "it was first's turn" in r.stdout
    assert len((folder / "moves.jsonl").read_text().splitlines()) == 1
    r = run("track", folder, tmp_path / "1.json", "--owner", "C=first")
    assert r.exit_code == 0 and "25 in C" in r.stdout
    assert len((folder / "moves.jsonl").read_text().splitlines()) == 2


def test_track_errors(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    r = run("track", f, tmp_path / "x.json")
    assert r.exit_code == 1 and "is not a folder" in r.stderr
