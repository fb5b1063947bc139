"""Following a game on photos: ``check BEFORE AFTER`` and ``track`` on synthetic photo sequences.

The photos come from :mod:`aggression_vision.synth.sequence`: one sheet, the writing
of each position laid on it stroke for stroke, a new camera for every photo. Two readers:

- the full reader (regions, then the marks CNN): needs ``models/marks_ctc.onnx`` and
  is skipped without it;
- "oracle marks": the real region stage, with what is written in each country taken
  from the photo's ground truth. It tests the region stage, the matching of countries
  between photos, the referee and the game folder on photos even without the model,
  and tells a region failure from a marks failure when the full reader fails.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from aggression_vision.cli import app
from aggression_vision.game import Conquest, Move, parse_move
from aggression_vision.synth.sequence import GamePhoto, SynthGame, drawing_of, synth_game
from aggression_vision.vision.digits import MODEL_PATH

# A game whose every photo the region stage reads right (10 countries, lettered):
# 9 placements, then 6 conquests, no pass.
SEED = 10
runner = CliRunner()


def _write(photo: GamePhoto, folder: Path, name: str) -> Path:
    path = photo.write(folder / f"{name}.jpg")
    # The truth beside the photo: the oracle reader and failure messages use it.
    path.with_suffix(".json").write_text(json.dumps(photo.document), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def game() -> SynthGame:
    return synth_game(SEED)


@pytest.fixture(scope="module")
def shots(game: SynthGame, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Photos by name: ``"k"`` is position k (camera k); the others are made below."""
    folder = tmp_path_factory.mktemp("photos")
    out = {str(k): _write(p, folder, f"{k:03d}") for k, p in enumerate(game.photos())}
    s = game.states

    # Position 6 again, from elsewhere: nothing changed.
    out["6-again"] = _write(game.photo(s[6], camera=106), folder, "006-again")
    # Move 4 is first's placement; here second writes it (no underline).
    assert s[4].to_move == "first"
    out["wrong-player"] = _write(game.photo(game.wrong_player(4), camera=104), folder, "004-wrong")
    # Position 12 with a cross-out on an enemy country that cannot be conquered.
    out["bad-conquest"] = _write(
        game.photo(game.impossible_conquest(12), camera=112), folder, "012-bad-conquest"
    )
    # Position 12 with the first conquest no longer crossed out.
    undone = game.moves[9]
    assert isinstance(undone, Conquest)
    d12 = drawing_of(s[12])
    uncrossed = {**d12, undone.target: replace(d12[undone.target], crossed=False)}
    out["uncrossed"] = _write(game.photo(uncrossed, camera=312), folder, "012-uncrossed")
    # Position 11 seen upside down and steeply (the phone across the table).
    steep = replace(
        game.params, roll_deg=(150.0, 210.0), roll_near_axis_prob=0.0, tilt_deg=(25.0, 30.0)
    )
    out["11-turned"] = _write(game.photo(s[11], camera=211, params=steep), folder, "011-turned")
    return out


def _truth(path: Path) -> dict[str, Any]:
    return json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))


def oracle_read_photo(path: str | Path, **_: Any) -> dict[str, Any]:
    """The reader with the marks stage replaced by the ground truth beside the photo."""
    from shapely.geometry import Polygon

    from aggression_vision.vision.load import load_image
    from aggression_vision.vision.pipeline import build_document
    from aggression_vision.vision.regions import segment
    from aggression_vision.vision.settings import ReaderSettings
    from aggression_vision.vision.types import CountryMarks

    truth = _truth(Path(path))
    settings = ReaderSettings()
    image, size = load_image(
        path,
        max_pixels=settings.max_pixels,
        min_long_side=int(settings.working_long_side * settings.decode_oversampling),
    )
    seg = segment(image, settings=settings, photo_size=size)
    countries = [(c, Polygon(c["polygon"]).buffer(0)) for c in truth["countries"]]
    marks = {}
    for region in seg.regions:
        p = Polygon(region.polygon).buffer(0)

        def iou(q: Any, p: Any = p) -> float:
            inter = q.intersection(p).area
            return float(inter / (q.area + p.area - inter))

        c, q = max(countries, key=lambda cq: iou(cq[1]))
        if iou(q) > 0.5:
            marks[region.index] = CountryMarks(
                c["armies"], c["owner"] == "first", c["conquered"], c["label"], 1.0
            )
    return build_document(seg, marks)


# Tests the shipped marks model still fails on these photos (misread numbers, missed
# underlines: issue 6 is open). Strict: when the reader improves, an unexpected pass fails the
# suite and this list must shrink. The oracle-marks variants test the same referee logic with
# the real region stage and the true writing.
KNOWN_MISREADS = {
    "test_legal_conquest",
    "test_conquest_seen_from_another_angle",
    "test_cross_out_undone",
    "test_track_replays_the_game",
}


def _use_reader(name: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if name == "cnn":
        if not MODEL_PATH.exists():
            pytest.skip(
                f"{MODEL_PATH.name} is not in models/ (train it with scripts/train_digits.py)"
            )
        if request.node.originalname in KNOWN_MISREADS:
            request.node.add_marker(
                pytest.mark.xfail(
                    strict=True, reason="the shipped marks model misreads these photos (issue 6)"
                )
            )
    else:
        monkeypatch.setattr("aggression_vision.vision.pipeline.read_photo", oracle_read_photo)
    return name


@pytest.fixture(params=["cnn", "oracle-marks"])
def reader(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    return _use_reader(str(request.param), request, monkeypatch)


@pytest.fixture(params=["cnn", "oracle-marks"])
def cnn(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The full reader, and the region stage with the true writing (oracle marks)."""
    return _use_reader(str(request.param), request, monkeypatch)


def same(move: Move | str) -> object:
    """A move in a form that ignores the order of the attackers."""
    m = parse_move(move) if isinstance(move, str) else move
    return (m.target, sorted(m.attackers)) if isinstance(m, Conquest) else str(m)


def explain(*photos: Path) -> str:
    """What the reader got wrong on these photos, stage by stage (for failure messages)."""
    from aggression_vision.bench.accuracy import adjacency_pairs, match_countries
    from aggression_vision.vision import pipeline

    lines = []
    for path in photos:
        truth, read = _truth(path), pipeline.read_photo(path)
        matched = match_countries(truth, read)
        found = {c["id"]: c for c in read["countries"]}
        n_true, n_read = len(truth["countries"]), len(read["countries"])
        if len(matched) < n_true or n_read != n_true:
            lines.append(f"{path.name}: regions: {n_read} read, {len(matched)} of {n_true} matched")
        to_true = {p: t for t, (p, _) in matched.items()}
        true_adj = {frozenset(x) for x in adjacency_pairs(truth)}
        read_adj = {frozenset(to_true.get(i, "?" + i) for i in x) for x in adjacency_pairs(read)}
        for pair in sorted(map(sorted, true_adj ^ read_adj)):
            what = "missed" if frozenset(pair) in true_adj else "extra"
            lines.append(f"{path.name}: adjacency: {what} {'-'.join(pair)}")
        for c in truth["countries"]:
            if c["id"] not in matched:
                continue
            got = found[matched[c["id"]][0]]
            for key in ("armies", "owner", "conquered", "label"):
                if c[key] != got[key]:
                    lines.append(
                        f"{path.name}: marks: {c['id']} {key} {c[key]!r} read {got[key]!r} "
                        f"(confidence {got.get('confidence')})"
                    )
    return "\n".join(lines) or "every photo read right"


def check(before: Path, after: Path) -> tuple[int, dict[str, Any]]:
    r = runner.invoke(app, ["check", str(before), str(after), "--json"])
    assert r.exit_code in (0, 1), r.output
    try:
        return r.exit_code, json.loads(r.stdout)
    except json.JSONDecodeError:
        raise AssertionError(f"{r.output}\n{explain(before, after)}") from None


# -- check BEFORE AFTER ---------------------------------------------------------------


def test_legal_placement(game: SynthGame, shots: dict[str, Path], cnn: str) -> None:
    code, out = check(shots["3"], shots["4"])
    move = game.moves[3]
    assert out == {
        "legal": True,
        "move": str(move),
        "player": game.states[3].to_move,
        "reason": out["reason"],
        "irregularities": [],
    }, explain(shots["3"], shots["4"])
    assert code == 0


def test_legal_conquest(game: SynthGame, shots: dict[str, Path], cnn: str) -> None:
    code, out = check(shots["9"], shots["10"])
    move = game.moves[9]
    assert isinstance(move, Conquest)
    why = explain(shots["9"], shots["10"])
    assert (code, out["legal"], out["player"]) == (0, True, game.states[9].to_move), why
    assert same(out["move"]) == same(move), why
    assert out["irregularities"] == []


def test_conquest_seen_from_another_angle(
    game: SynthGame, shots: dict[str, Path], cnn: str
) -> None:
    # The after-photo is upside down and steep: countries match by letters or geometry.
    code, out = check(shots["10"], shots["11-turned"])
    why = explain(shots["10"], shots["11-turned"])
    assert (code, out["legal"]) == (0, True), why
    assert same(out["move"]) == same(game.moves[10]), why


def test_number_by_the_wrong_player(game: SynthGame, shots: dict[str, Path], cnn: str) -> None:
    code, out = check(shots["4"], shots["wrong-player"])
    move = game.moves[4]
    why = explain(shots["4"], shots["wrong-player"])
    assert (code, out["legal"], out["move"], out["player"]) == (1, False, str(move), "second"), why
    assert out["reason"].startswith("it was first's turn, not second's"), why


def test_conquest_that_was_not_possible(game: SynthGame, shots: dict[str, Path], cnn: str) -> None:
    state = game.states[12]
    (target,) = [
        c for c, m in game.impossible_conquest(12).items() if m.crossed and c not in state.conquered
    ]
    code, out = check(shots["12"], shots["bad-conquest"])
    assert (code, out["legal"], out["move"], out["player"]) == (
        1,
        False,
        target,
        state.to_move,
    ), explain(shots["12"], shots["bad-conquest"])
    assert out["reason"] == state.check(Conquest(target))


def test_no_move(shots: dict[str, Path], cnn: str) -> None:
    code, out = check(shots["6"], shots["6-again"])
    why = explain(shots["6"], shots["6-again"])
    assert (code, out["legal"], out["move"], out["reason"]) == (
        1,
        False,
        None,
        "no move was made",
    ), why
    assert out["irregularities"] == [], why


def test_two_moves(game: SynthGame, shots: dict[str, Path], cnn: str) -> None:
    code, out = check(shots["5"], shots["7"])
    why = explain(shots["5"], shots["7"])
    assert (code, out["legal"], out["move"]) == (1, False, None), why
    head, _, listed = out["reason"].partition(": ")
    assert head == "2 moves at once", why
    assert sorted(listed.split(", ")) == sorted(str(m) for m in game.moves[5:7]), why


def test_cross_out_undone(game: SynthGame, shots: dict[str, Path], cnn: str) -> None:
    undone = game.moves[9]
    assert isinstance(undone, Conquest)
    target, n = undone.target, game.states[12].armies[undone.target]
    code, out = check(shots["12"], shots["uncrossed"])
    why = explain(shots["12"], shots["uncrossed"])
    assert (code, out["legal"], out["move"]) == (1, False, None), why
    assert out["irregularities"] == [f"{target}: the number {n} is no longer crossed out"], why


# -- track ---------------------------------------------------------------------------


def test_track_replays_the_game(
    game: SynthGame, shots: dict[str, Path], reader: str, tmp_path: Path
) -> None:
    first = 5  # 11 photos: positions 5..15 (4 placements, then the 6 conquests)
    positions = range(first, len(game.states))
    folder = tmp_path / "game"
    out: dict[str, Any] = {}
    for k in positions:
        r = runner.invoke(app, ["track", str(folder), str(shots[str(k)]), "--json"])
        assert r.exit_code == 0, f"photo {k} ({reader}): {r.output}\n{explain(shots[str(k)])}"
        out = json.loads(r.stdout)
    assert len(positions) >= 10
    assert [same(m["move"]) for m in out["moves"]] == [same(m) for m in game.moves[first:]]
    assert [m["player"] for m in out["moves"]] == [s.to_move for s in game.states[first:-1]]
    assert out["score"] == game.states[-1].score()
    assert out["to_move"] is None
    assert len(list((folder / "photos").iterdir())) == len(positions)


def test_track_refuses_an_illegal_photo(
    shots: dict[str, Path], reader: str, tmp_path: Path
) -> None:
    if reader == "cnn":
        pytest.skip("covered by the check tests with the full reader")
    folder = tmp_path / "game"
    assert runner.invoke(app, ["track", str(folder), str(shots["12"])]).exit_code == 0
    r = runner.invoke(app, ["track", str(folder), str(shots["bad-conquest"])])
    assert r.exit_code == 1 and "not recorded" in r.stdout, r.output
    assert len(list((folder / "photos").iterdir())) == 1


# -- countries matched by geometry -----------------------------------------------------


def test_countries_match_across_cameras(shots: dict[str, Path]) -> None:
    """Two readings of the same sheet (one upside down and steep) pair up by outline alone."""
    from aggression_vision.bench.accuracy import match_countries as to_truth
    from aggression_vision.vision.match import match_countries
    from aggression_vision.vision.pipeline import read_photo

    a_path, b_path = shots["11"], shots["11-turned"]
    a, b = read_photo(a_path), read_photo(b_path)
    in_a, in_b = to_truth(_truth(a_path), a), to_truth(_truth(b_path), b)
    n = len(_truth(a_path)["countries"])
    assert (len(in_a), len(in_b), len(a["countries"]), len(b["countries"])) == (n, n, n, n)
    expected = {in_a[t][0]: in_b[t][0] for t in in_a}
    for doc in (a, b):  # letters would make this easy: geometry only
        for c in doc["countries"]:
            c["label"] = None
    assert match_countries(a, b) == expected
