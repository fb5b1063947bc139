"""The command line: exit codes, JSON outputs, one-line errors, corrections."""

from __future__ import annotations

import json
import shutil

import pytest
from typer.testing import CliRunner

from aggression_vision.cli import app
from aggression_vision.document import document_to_state, load_document
from aggression_vision.game import naive_solve

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def phase3(samples_dir, tmp_path):
    path = tmp_path / "phase3.json"
    shutil.copy(samples_dir / "napoleon-wellington-phase3.json", path)
    return path


@pytest.fixture
def midgame(samples_dir, tmp_path):
    path = tmp_path / "midgame.json"
    shutil.copy(samples_dir / "napoleon-wellington-midgame.json", path)
    return path


def test_moves_json_matches_spec(midgame):
    r = run("moves", midgame, "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["phase"] == 3 and out["to_move"] == "second"
    by_target = {m["target"]: m for m in out["moves"]}
    assert by_target["E"] == {
        "target": "E",
        "attackers": ["G", "L", "O"],
        "attack": 34,
        "defence": 10,
        "attacker_armies": {"G": 12, "L": 11, "O": 11},
    }


def test_moves_text_and_phase2(samples_dir):
    r = run("moves", samples_dir / "napoleon-wellington-midgame.json")
    assert r.exit_code == 0 and "G, L, O conquer E: attack 34" in r.stdout
    r = run("moves", samples_dir / "napoleon-wellington-phase2.json", "--json")
    out = json.loads(r.stdout)
    assert out["phase"] == 2 and out["to_move"] == "first" and out["remaining"] == 15
    assert "B" in out["unoccupied"]


def test_score(samples_dir):
    r = run("score", samples_dir / "napoleon-wellington-final.json", "--json")
    assert json.loads(r.stdout) == {"first": 4, "second": 6, "finished": True}
    r = run("score", samples_dir / "napoleon-wellington-final.json")
    assert r.stdout.strip() == "Napoleon 4, Wellington 6 (final)"


def test_suggest_matches_brute_force(phase3):
    r = run("suggest", phase3, "--json", "--all")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    state, _ = document_to_state(load_document(phase3))
    ref = naive_solve(state)
    assert out["margin"] == ref.margin and out["exact"] is True
    assert {a["target"]: a["margin"] for a in out["alternatives"]} == ref.alternatives
    assert ref.alternatives[out["best"]["target"]] == ref.margin
    assert out["line"][0] == out["best"]["target"]


def test_suggest_game_over_and_pass(samples_dir):
    r = run("suggest", samples_dir / "napoleon-wellington-final.json", "--json")
    out = json.loads(r.stdout)
    assert out["best"] is None and out["to_move"] is None and out["margin"] == -2
    r = run("suggest", samples_dir / "napoleon-wellington-final.json")
    assert "the game is over: second wins by 2" in r.stdout


def test_check_legal_and_illegal_exit_codes(midgame):
    r = run("check", midgame, "G conquers E", "--json")
    assert r.exit_code == 0
    assert json.loads(r.stdout) == {
        "legal": True,
        "move": "G conquers E",
        "player": "second",
        "reason": "G, L, O conquer E: attack 34 (G 12, L 11, O 11) > defence 10",
    }
    r = run("check", midgame, "H conquers M", "--json")
    assert r.exit_code == 1
    out = json.loads(r.stdout)
    assert out == {
        "legal": False,
        "move": "H conquers M",
        "player": "second",
        "reason": "M has 15 armies; second has only 15 in adjacent H",
    }
    r = run("check", midgame, "M")
    assert r.exit_code == 1
    assert "M has 15 armies; second has only 15 in adjacent H" in r.stdout


def test_apply_writes_new_document_and_never_touches_input(midgame, tmp_path):
    before = midgame.read_bytes()
    out = tmp_path / "after.json"
    r = run("apply", midgame, "G, O, L conquer E", "--out", out)
    assert r.exit_code == 0, r.output
    assert midgame.read_bytes() == before
    doc = load_document(out)
    assert next(c for c in doc["countries"] if c["id"] == "E")["conquered"] is True
    assert doc["to_move"] == "first"
    r = run("apply", midgame, "M")
    assert r.exit_code == 1 and "M is illegal" in r.stderr
    assert midgame.read_bytes() == before


def test_apply_prints_when_no_out(midgame):
    r = run("apply", midgame, "E")
    assert r.exit_code == 0 and json.loads(r.stdout)["format"] == "aggression-vision/state"


def test_to_move_override(midgame):
    r = run("moves", midgame, "--json", "--to-move", "first")
    assert json.loads(r.stdout)["to_move"] == "first"


def test_corrections_apply_to_every_command(midgame):
    r = run("check", midgame, "E", "--set", "E=5")
    assert r.exit_code == 0 and "> defence 5" in r.stdout
    r = run("check", midgame, "E", "--set", "E=40")
    assert r.exit_code == 1 and "first has 130 armies on the map" in r.stderr
    r = run("moves", midgame, "--json", "--not-adjacent", "E,G", "--not-adjacent", "E,O")
    moves = {m["target"]: m for m in json.loads(r.stdout)["moves"]}
    assert moves["E"]["attack"] == 11
    r = run("score", midgame, "--json", "--conquered", "M")
    assert json.loads(r.stdout)["first"] == 4
    r = run("score", midgame, "--json", "--unoccupied", "M", "--owner", "B=first", "--set", "B=5")
    assert r.exit_code == 0, r.output
    r = run("score", midgame, "--set", "Z=4")
    assert r.exit_code == 1 and "--set: no country 'Z'" in r.stderr
    r = run("score", midgame, "--set", "B=4")
    assert r.exit_code == 1 and "B was unoccupied; say whose armies" in r.stderr
    r = run("score", midgame, "--adjacent", "A")
    assert r.exit_code == 1 and "expected two ids" in r.stderr


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("score", "missing.json"), 1, "missing.json: no such file"),
        (("score", "missing.jpg"), 1, "missing.jpg: no such file"),
        (("check", "{doc}", "12 on F"), 1, "cannot parse move"),
        (("score", "{doc}", "--to-move", "third"), 2, ""),
        (("nonsense",), 2, ""),
    ],
)
def test_errors_are_one_line_with_exit_codes(midgame, args, code, message):
    args = [a.replace("{doc}", str(midgame)) for a in args]
    r = run(*args)
    assert r.exit_code == code
    if message:
        assert message in r.stderr
        assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_invalid_json_document(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    r = run("moves", bad)
    assert r.exit_code == 1 and "bad.json: invalid JSON at line 1" in r.stderr
    bad.write_text(
        '{"format": "aggression-vision/state", "version": 1, "countries": '
        '[{"id": "A", "armies": 0, "owner": "first"}], "adjacency": []}'
    )
    r = run("moves", bad)
    assert r.exit_code == 1 and "countries[0] (A).armies: must be an integer >= 1" in r.stderr


def test_output_to_missing_folder_is_an_error(midgame, tmp_path):
    r = run("apply", midgame, "E", "--out", tmp_path / "nope" / "x.json")
    assert r.exit_code == 1 and "Traceback" not in r.stderr


def test_bad_corners_is_a_usage_error(samples_dir):
    r = run("read", samples_dir / "synth-01.jpg", "--corners", "1,2,3")
    assert r.exit_code == 2 and "expected 8 numbers" in r.output


def test_photo_reading_over_100_warns_instead_of_blocking(monkeypatch, tmp_path):
    import aggression_vision.vision.pipeline as pipeline

    doc = {
        "format": "aggression-vision/state",
        "version": 1,
        "countries": [
            {"id": "A", "armies": 70, "owner": "first"},
            {"id": "B", "armies": 50, "owner": "first"},
            {"id": "C", "armies": 9, "owner": "second"},
        ],
        "adjacency": [["A", "C"], ["B", "C"]],
    }
    monkeypatch.setattr(pipeline, "read_photo", lambda path, **kw: doc)
    photo = tmp_path / "map.jpg"
    photo.write_bytes(b"\xff\xd8")
    r = run("moves", photo, "--json")
    assert r.exit_code == 0, r.output
    assert "first has 120 armies on the map, more than 100" in r.stderr
    typed = tmp_path / "map.json"
    typed.write_text(json.dumps(doc))
    r = run("moves", typed)
    assert r.exit_code == 1 and "first has 120 armies" in r.stderr


def test_unwritable_output_names_the_file(midgame, tmp_path):
    target = tmp_path / "nope" / "x.json"
    r = run("apply", midgame, "E", "--out", target)
    assert r.exit_code == 1
    assert r.stderr.strip() == f"error: {target}: No such file or directory"
