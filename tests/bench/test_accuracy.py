"""The synthetic-photo scorer: 100% on the truth itself, less for each kind of error."""

from __future__ import annotations

import copy
import math
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aggression_vision.bench import BenchmarkError
from aggression_vision.bench.accuracy import (
    PhotoScore,
    ScoreSettings,
    country_shapes,
    match_countries,
    score_photo,
    summarize,
)

SIZE = 100.0


def square(x: float, y: float, w: float = SIZE, h: float = SIZE) -> list[list[float]]:
    return [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]


def truth_document() -> dict[str, Any]:
    """A 4x3 grid of square countries A-L plus Z, an enclave inside A.

    4-neighbours are adjacent, diagonal neighbours meet at a corner only.
    """
    countries = []
    names = "ABCDEFGHIJKL"
    owners = ["first", "second"]
    for k, name in enumerate(names):
        row, col = divmod(k, 4)
        occupied = k % 5 != 4  # E and J unoccupied
        countries.append(
            {
                "id": name,
                "label": name if k % 3 == 0 else None,
                "armies": (k + 1) * 3 if occupied else None,
                "owner": owners[k % 2] if occupied else None,
                "conquered": occupied and k in (2, 7),
                # A's outline is drawn around its enclave Z.
                "polygon": square(col * SIZE, row * SIZE),
            }
        )
    countries.append(
        {
            "id": "Z",
            "label": "Z",
            "armies": 7,
            "owner": "second",
            "conquered": False,
            "polygon": square(30, 30, 40, 40),
        }
    )
    adjacency = [["A", "Z"]]
    for k in range(12):
        row, col = divmod(k, 4)
        if col < 3:
            adjacency.append([names[k], names[k + 1]])
        if row < 2:
            adjacency.append([names[k], names[k + 4]])
    return {
        "format": "aggression-vision/state",
        "version": 1,
        "phase": 3,
        "to_move": "first",
        "countries": countries,
        "adjacency": adjacency,
    }


def country(doc: dict[str, Any], country_id: str) -> dict[str, Any]:
    return next(c for c in doc["countries"] if c["id"] == country_id)


def metrics(truth: dict[str, Any], predicted: dict[str, Any] | None) -> dict[str, Any]:
    return summarize([score_photo(truth, predicted, name="p")]).metrics


PERFECT = {
    "region_precision",
    "region_recall",
    "region_f1",
    "adjacency_precision",
    "adjacency_recall",
    "adjacency_f1",
    "adjacency_recall_all",
    "armies_accuracy",
    "crossed_armies_accuracy",
    "unoccupied_precision",
    "unoccupied_recall",
    "owner_accuracy",
    "conquered_accuracy",
    "conquered_precision",
    "conquered_recall",
    "letter_accuracy",
    "exact_maps",
}


def assert_drops(m: dict[str, Any], dropped: set[str]) -> None:
    """Exactly the metrics in ``dropped`` (and the exact-map rate) are below 100%."""
    below = {key for key in PERFECT if m[key] is not None and m[key] < 1.0}
    assert below == dropped | {"exact_maps"}, below


def test_truth_scores_100_percent() -> None:
    truth = truth_document()
    m = metrics(truth, copy.deepcopy(truth))
    assert {key: m[key] for key in PERFECT} == {key: 1.0 for key in PERFECT}
    assert m["failure_rate"] == 0.0


def test_matching_ignores_ids_and_order() -> None:
    truth = truth_document()
    predicted = copy.deepcopy(truth)
    rename = {c["id"]: f"x{i}" for i, c in enumerate(predicted["countries"])}
    for c in predicted["countries"]:
        c["id"] = rename[c["id"]]
    predicted["adjacency"] = [[rename[b], rename[a]] for a, b in reversed(predicted["adjacency"])]
    random.Random(3).shuffle(predicted["countries"])
    row = score_photo(truth, predicted)
    assert row.exact and row.matched == 13


def test_enclave_does_not_steal_its_host() -> None:
    truth = truth_document()
    predicted = copy.deepcopy(truth)
    # A reader that outlines the host with the enclave's hole as a slit polygon.
    country(predicted, "A")["polygon"] = [
        [0, 0], [100, 0], [100, 100], [0, 100], [0, 50], [30, 50], [30, 70],
        [70, 70], [70, 30], [30, 30], [30, 50], [0, 50],
    ]  # fmt: skip
    matches = match_countries(truth, predicted)
    assert matches["A"][0] == "A" and matches["Z"][0] == "Z"
    assert matches["A"][1] == pytest.approx(1.0)
    assert score_photo(truth, predicted).exact


def test_explicit_holes_are_used() -> None:
    truth = truth_document()
    country(truth, "A")["holes"] = [square(30, 30, 40, 40)]
    predicted = copy.deepcopy(truth)
    del country(predicted, "A")["holes"]  # an outline only: the enclave is cut out anyway
    matches = match_countries(truth, predicted)
    assert matches["A"] == ("A", pytest.approx(1.0))
    shapes = country_shapes(truth["countries"])
    assert shapes[0].area == pytest.approx(SIZE * SIZE - 40 * 40)


def test_small_shift_still_matches() -> None:
    truth = truth_document()
    predicted = copy.deepcopy(truth)
    for point in country(predicted, "F")["polygon"]:
        point[0] += 0.2 * SIZE
    assert score_photo(truth, predicted).exact


def test_missing_country() -> None:
    truth = truth_document()
    predicted = copy.deepcopy(truth)
    predicted["countries"] = [c for c in predicted["countries"] if c["id"] != "F"]
    predicted["adjacency"] = [p for p in predicted["adjacency"] if "F" not in p]
    m = metrics(truth, predicted)
    assert m["region_recall"] == pytest.approx(12 / 13)
    assert m["region_precision"] == 1.0
    # Adjacency over matched pairs stays perfect; end to end it does not.
    assert m["adjacency_f1"] == 1.0
    assert m["adjacency_recall_all"] == pytest.approx(14 / 18)  # F had 4 neighbours
    assert_drops(m, {"region_recall", "region_f1", "adjacency_recall_all"})


def test_split_country() -> None:
    truth = truth_document()
    predicted = copy.deepcopy(truth)
    predicted["countries"] = [c for c in predicted["countries"] if c["id"] != "G"]
    predicted["countries"] += [
        {"id": "G1", "armies": 21, "owner": "second", "polygon": square(200, 100, 50, 100)},
        {"id": "G2", "armies": None, "owner": None, "polygon": square(250, 100, 50, 100)},
    ]
    m = metrics(truth, predicted)
    assert m["region_recall"] == pytest.approx(12 / 13)
    assert m["region_precision"] == pytest.approx(12 / 14)
    assert m["exact_maps"] == 0.0


def test_shifted_polygon() -> None:
    truth = truth_document()
    predicted = copy.deepcopy(truth)
    for point in country(predicted, "L")["polygon"]:
        point[0] += 0.6 * SIZE  # IoU 0.25: no longer the same country
    row = score_photo(truth, predicted)
    assert row.matched == 12 and not row.exact
    m = summarize([row]).metrics
    assert m["region_precision"] == pytest.approx(12 / 13)


@pytest.mark.parametrize(
    ("field", "cid", "value", "dropped"),
    [
        ("armies", "B", 99, {"armies_accuracy"}),
        ("armies", "C", 1, {"armies_accuracy", "crossed_armies_accuracy"}),
        ("owner", "B", "first", {"owner_accuracy"}),
        ("conquered", "B", True, {"conquered_accuracy", "conquered_precision"}),
        ("conquered", "C", False, {"conquered_accuracy", "conquered_recall"}),
        ("label", "D", "Q", {"letter_accuracy"}),
        ("label", "A", None, {"letter_accuracy"}),
    ],
)
def test_wrong_field(field: str, cid: str, value: Any, dropped: set[str]) -> None:
    truth = truth_document()
    predicted = copy.deepcopy(truth)
    country(predicted, cid)[field] = value
    assert_drops(metrics(truth, predicted), dropped)


def test_occupied_read_as_unoccupied() -> None:
    truth = truth_document()
    predicted = copy.deepcopy(truth)
    country(predicted, "B").update(armies=None, owner=None)
    assert_drops(
        metrics(truth, predicted), {"armies_accuracy", "owner_accuracy", "unoccupied_precision"}
    )


def test_unoccupied_read_as_occupied() -> None:
    truth = truth_document()
    predicted = copy.deepcopy(truth)
    country(predicted, "E").update(armies=4, owner="first")
    assert_drops(metrics(truth, predicted), {"unoccupied_recall"})


def test_spurious_letter_breaks_exactness_only() -> None:
    truth = truth_document()
    predicted = copy.deepcopy(truth)
    country(predicted, "B")["label"] = "B"
    row = score_photo(truth, predicted)
    assert row.letter_spurious == 1 and not row.exact
    assert_drops(summarize([row]).metrics, set())


def test_missing_adjacency() -> None:
    truth = truth_document()
    predicted = copy.deepcopy(truth)
    predicted["adjacency"].remove(["F", "G"])
    assert_drops(
        metrics(truth, predicted), {"adjacency_recall", "adjacency_f1", "adjacency_recall_all"}
    )


def test_extra_adjacency_at_a_corner() -> None:
    truth = truth_document()
    predicted = copy.deepcopy(truth)
    predicted["adjacency"].append(["F", "K"])  # diagonal: meet at a point only
    m = metrics(truth, predicted)
    assert m["adjacency_precision"] == pytest.approx(18 / 19)
    assert_drops(m, {"adjacency_precision", "adjacency_f1"})


def test_reader_failure_and_no_map() -> None:
    truth = truth_document()
    failed = score_photo(truth, None, failure="MapNotFoundError: nothing")
    assert failed.failed and failed.failure == "MapNotFoundError: nothing"
    assert failed.truth_countries == 13 and failed.matched == 0
    empty = score_photo(truth, {"countries": [], "adjacency": []})
    assert empty.failure == "no map"
    m = summarize([failed, empty, score_photo(truth, truth)]).metrics
    assert m["failure_rate"] == pytest.approx(2 / 3)
    assert m["region_recall"] == pytest.approx(1 / 3)
    assert m["exact_maps"] == pytest.approx(1 / 3)
    # Field accuracies are conditional on matching: failures do not dilute them.
    assert m["armies_accuracy"] == 1.0


def test_summary_pools_counts_and_times() -> None:
    truth = truth_document()
    rows = [score_photo(truth, truth, name=f"p{i}", seconds=float(i)) for i in range(1, 11)]
    report = summarize(rows, info={"ocr": "cnn"})
    assert report.totals["truth_countries"] == 130
    assert report.metrics["seconds_median"] == pytest.approx(5.5)
    assert report.metrics["seconds_p90"] == pytest.approx(9.1)
    as_json = report.to_dict()
    assert as_json["kind"] == "synthetic" and len(as_json["rows"]) == 10
    assert as_json["info"] == {"ocr": "cnn"}


def test_undefined_rates_are_none() -> None:
    report = summarize([])
    assert report.metrics["region_f1"] is None and report.metrics["seconds_median"] is None


def test_malformed_predicted_document() -> None:
    truth = truth_document()
    with pytest.raises(BenchmarkError, match="two countries with id 'A'"):
        score_photo(truth, {"countries": [{"id": "A"}, {"id": "A"}]})
    with pytest.raises(BenchmarkError, match="no 'countries' list"):
        score_photo(truth, {"adjacency": []})
    with pytest.raises(BenchmarkError, match="not a pair"):
        score_photo(truth, {**truth, "adjacency": [["A", "B", "C"]]})


def test_degenerate_polygons_never_match() -> None:
    shapes = country_shapes([{"polygon": [[0, 0], [1, 1]]}, {"polygon": [[0, 0], [5, 5], [9, 9]]}])
    assert shapes == [None, None]


def test_match_threshold_is_a_setting() -> None:
    truth = {"countries": [{"id": "A", "polygon": square(0, 0)}]}
    predicted = {"countries": [{"id": "a", "polygon": square(40, 0)}]}  # IoU 60/140
    assert match_countries(truth, predicted) == {}
    loose = match_countries(truth, predicted, settings=ScoreSettings(match_iou=0.4))
    assert loose["A"][0] == "a"


@settings(max_examples=25, deadline=None)
@given(st.permutations(list(range(13))), st.integers(0, 12))
def test_any_single_wrong_armies_is_caught(order: list[int], victim: int) -> None:
    truth = truth_document()
    predicted = copy.deepcopy(truth)
    predicted["countries"] = [predicted["countries"][i] for i in order]
    target = predicted["countries"][victim]
    target["armies"] = (target["armies"] or 0) + 1
    target["owner"] = target["owner"] or "first"
    row = score_photo(truth, predicted)
    assert isinstance(row, PhotoScore) and row.matched == 13 and not row.exact


def test_breakdown_by_photo_factor() -> None:
    truth = truth_document()
    squared = {**truth, "synth": {"paper": "squared", "pens": {"map": "pencil"}, "ruler": True}}
    plain = {**truth, "synth": {"paper": "plain", "pens": {"map": "pencil"}, "ruler": False}}
    broken = copy.deepcopy(truth)
    country(broken, "B")["armies"] = 1
    rows = [
        score_photo(squared, broken, seconds=2.0),
        score_photo(squared, truth, seconds=4.0),
        score_photo(plain, truth, seconds=1.0),
    ]
    assert rows[0].tags == {"paper": "squared", "pen": "pencil", "ruler": "yes"}
    report = summarize(rows)
    paper = report.breakdown["paper"]
    assert set(paper) == {"plain", "squared"}
    assert paper["squared"]["photos"] == 2 and paper["squared"]["exact_maps"] == 0.5
    assert paper["squared"]["seconds_median"] == 3.0
    assert paper["plain"]["exact_maps"] == 1.0
    assert set(report.breakdown["pen"]) == {"pencil"}

    from aggression_vision.bench.report import to_markdown

    text = to_markdown(report)
    assert "by paper:" in text and "| squared | 2 | 100.0% |" in text
    assert "by paper:" not in to_markdown(report, breakdown=False)
    assert summarize([score_photo(truth, truth)]).breakdown == {}


def test_reader_warnings_are_kept() -> None:
    truth = truth_document()
    predicted = {**copy.deepcopy(truth), "warnings": ["numbers not read: no model", "b", "c", "d"]}
    row = score_photo(truth, predicted)
    assert row.warnings == ["numbers not read: no model", "b", "c"]
    report = summarize([row, score_photo(truth, truth)])
    assert report.totals["photos_with_warnings"] == 1
    assert report.metrics["warning_rate"] == 0.5


def test_comparison_table() -> None:
    from aggression_vision.bench.report import comparison_markdown
    from aggression_vision.bench.sudoku import summarize_sudoku

    truth = truth_document()
    worse = copy.deepcopy(truth)
    country(worse, "B")["armies"] = 1
    text = comparison_markdown(
        {
            "cnn": summarize([score_photo(truth, truth)]),
            "tesseract": summarize([score_photo(truth, worse)]),
        }
    )
    assert "| metric | cnn | tesseract |" in text
    assert "| armies accuracy | 100.0% | 90.9% |" in text
    with pytest.raises(ValueError, match="one kind"):
        comparison_markdown({"a": summarize([]), "b": summarize_sudoku([])})


def test_writing_angle_is_minus_the_mean_direction_of_the_baselines() -> None:
    from aggression_vision.bench.accuracy import writing_angle

    upright = [(10.0, 0.0), (10.0, 5.0), (0.0, 5.0), (0.0, 0.0)]  # the generator's ring
    assert writing_angle([upright]) == pytest.approx(0.0)
    # Baselines running down the image: writing turned a quarter turn clockwise.
    down = [(5.0, 10.0), (0.0, 10.0), (0.0, 0.0), (5.0, 0.0)]
    assert writing_angle([down]) == pytest.approx(90.0)
    assert writing_angle([upright, upright, down]) == pytest.approx(
        math.degrees(math.atan2(1 / 3, 2 / 3))
    )
    assert writing_angle([]) is None
