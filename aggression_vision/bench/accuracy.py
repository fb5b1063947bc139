"""Score a reading of a photo against its ground-truth state document.

Everything here is a pure function on state documents (plain dicts, as the
spec defines them), so that the scorer is tested without any reader.

Countries are matched one to one by polygon IoU (> ``match_iou``); every other
figure is computed on the matched countries:

- regions: precision = matched / predicted, recall = matched / truth;
- adjacency over matched pairs: only pairs whose two countries are matched
  count, so that a missed country is charged to region recall, not twice;
- armies, owner, conquered and letters on matched countries;
- a map is exactly right when every country is matched, none is extra, every
  field is right and the adjacency is exactly the ground truth's.

Counts are kept as integers per photo (:class:`PhotoScore`) and summed over a
set of photos (:func:`summarize`), so that rates are pooled over countries
(micro-averaged), not averaged over photos.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any, TypeAlias

import numpy as np

from aggression_vision.bench import BenchmarkError

CountryId: TypeAlias = str
Pair: TypeAlias = frozenset[CountryId]
Document: TypeAlias = Mapping[str, Any]


@dataclass(frozen=True)
class ScoreSettings:
    """Thresholds of the scorer.

    Attributes
    ----------
    match_iou : float
        A predicted country matches a true one when their IoU exceeds this.
    nested_fraction : float
        A polygon whose area lies at least this fraction inside a larger polygon
        of the same document is a country inside that one (an enclave): it is
        cut out of the larger polygon before IoUs are computed, so that an
        outline drawn around an enclave and one with a hole score the same.
    """

    match_iou: float = 0.5
    nested_fraction: float = 0.9


# ---------------------------------------------------------------- geometry


def polygon_of(points: Sequence[Sequence[float]], holes: Sequence[Any] | None = None) -> Any:
    """A shapely Polygon from ``[x, y]`` points and optional hole rings (``holes`` key).

    The spec's ``polygon`` is an outline; a generator or reader may add ``holes``
    (a list of rings) for a country with an enclave.
    """
    import shapely

    rings = [[(float(x), float(y)) for x, y in ring] for ring in holes or [] if len(ring) >= 3]
    return shapely.Polygon([(float(x), float(y)) for x, y in points], rings)


def country_shapes(
    countries: Sequence[Mapping[str, Any]], *, settings: ScoreSettings | None = None
) -> list[Any]:
    """Shapely geometries of the countries, enclaves cut out of their hosts.

    Parameters
    ----------
    countries : sequence of country dicts
        ``polygon`` is a list of ``[x, y]`` photo pixel points, or absent;
        ``holes``, when present, a list of such rings.
    settings : ScoreSettings, optional

    Returns
    -------
    list
        One valid shapely geometry per country, or None where the country has
        no polygon or a degenerate one (fewer than 3 points, zero area).
    """
    import shapely

    settings = settings or ScoreSettings()
    raw: list[Any] = []
    for country in countries:
        points = country.get("polygon")
        if not points or len(points) < 3:
            raw.append(None)
            continue
        shape = shapely.make_valid(polygon_of(points, country.get("holes")))
        # make_valid may leave lines next to the area; keep the area only.
        shape = shape.buffer(0)
        raw.append(shape if shape.area > 0 else None)

    shapes = list(raw)
    for i, host in enumerate(raw):
        if host is None:
            continue
        enclaves = [
            other
            for j, other in enumerate(raw)
            if j != i
            and other is not None
            and other.area < host.area
            # Cheap bounding-box test first: readers may return hundreds of regions.
            and _boxes_overlap(host.bounds, other.bounds)
            and host.intersection(other).area >= settings.nested_fraction * other.area
        ]
        if enclaves:
            shapes[i] = host.difference(shapely.union_all(enclaves))
    return shapes


def _boxes_overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return not (b[0] > a[2] or b[2] < a[0] or b[1] > a[3] or b[3] < a[1])


def iou_matrix(truth_shapes: Sequence[Any], predicted_shapes: Sequence[Any]) -> np.ndarray:
    """Intersection over union of every (truth, predicted) pair of geometries.

    Returns
    -------
    (n_truth, n_predicted) float64
        0 where either geometry is None or their bounding boxes are disjoint.
    """
    ious = np.zeros((len(truth_shapes), len(predicted_shapes)), dtype=np.float64)
    for i, t in enumerate(truth_shapes):
        if t is None:
            continue
        for j, p in enumerate(predicted_shapes):
            if p is None or not _boxes_overlap(t.bounds, p.bounds):
                continue
            inter = t.intersection(p).area
            if inter > 0:
                ious[i, j] = inter / (t.area + p.area - inter)
    return ious


def match_countries(
    truth: Document, predicted: Document, *, settings: ScoreSettings | None = None
) -> dict[CountryId, tuple[CountryId, float]]:
    """Match predicted countries to true ones, one to one, by polygon IoU.

    Greedy by decreasing IoU (ties broken by document order), keeping pairs
    with IoU > ``settings.match_iou``. Above an IoU of 0.5 a matching between
    two partitions of the plane is unique, so greedy equals optimal there.

    Returns
    -------
    dict
        true id -> (predicted id, IoU) for every matched true country.

    Examples
    --------
    >>> square = [[0, 0], [10, 0], [10, 10], [0, 10]]
    >>> truth = {"countries": [{"id": "A", "polygon": square}]}
    >>> moved = [[1, 0], [11, 0], [11, 10], [1, 10]]
    >>> match_countries(truth, {"countries": [{"id": "x", "polygon": moved}]})
    {'A': ('x', 0.8181818181818182)}
    """
    settings = settings or ScoreSettings()
    t_countries = list(truth.get("countries") or [])
    p_countries = list(predicted.get("countries") or [])
    ious = iou_matrix(
        country_shapes(t_countries, settings=settings),
        country_shapes(p_countries, settings=settings),
    )
    candidates = sorted(
        (
            (float(ious[i, j]), i, j)
            for i, j in zip(*np.nonzero(ious > settings.match_iou), strict=True)
        ),
        key=lambda c: (-c[0], c[1], c[2]),
    )
    matches: dict[CountryId, tuple[CountryId, float]] = {}
    used: set[int] = set()
    for iou, i, j in candidates:
        t_id = str(t_countries[i]["id"])
        if t_id in matches or j in used:
            continue
        matches[t_id] = (str(p_countries[j]["id"]), iou)
        used.add(j)
    return matches


# ------------------------------------------------------------------ counts


@dataclass
class PhotoScore:
    """Counts of one photo; see the module docstring for their meaning.

    ``failure`` is None when the reader returned a map, otherwise a one-line
    reason (the exception, or ``"no map"``); a failed photo contributes its true
    countries and adjacent pairs as misses and nothing else.
    """

    name: str
    seconds: float | None = None
    cpu_seconds: float | None = None
    failure: str | None = None
    truth_countries: int = 0
    predicted_countries: int = 0
    matched: int = 0
    # Adjacency restricted to pairs of matched countries.
    adjacency_truth: int = 0
    adjacency_predicted: int = 0
    adjacency_correct: int = 0
    # Every true adjacent pair, for the end-to-end recall.
    adjacency_truth_all: int = 0
    # Armies on matched countries that are occupied in truth.
    armies_total: int = 0
    armies_correct: int = 0
    # The same on crossed-out (conquered) numbers only.
    crossed_total: int = 0
    crossed_correct: int = 0
    # "Unoccupied" (armies null) as a detection on matched countries.
    unoccupied_truth: int = 0
    unoccupied_predicted: int = 0
    unoccupied_correct: int = 0
    owner_total: int = 0
    owner_correct: int = 0
    # Conquered flag on every matched country, and as a detection.
    conquered_total: int = 0
    conquered_correct: int = 0
    conquered_truth: int = 0
    conquered_predicted: int = 0
    conquered_tp: int = 0
    # Letters on matched countries that have one in truth; spurious = a letter
    # read where none is written.
    letter_total: int = 0
    letter_correct: int = 0
    letter_spurious: int = 0
    exact: bool = False
    mean_iou: float | None = None
    # What kind of photo this is (paper, pen...), from the ground truth's
    # generator metadata, for the per-factor breakdown.
    tags: dict[str, str] = field(default_factory=dict)
    # The reader's own warnings (the first few), to tell "read nothing" from "could not".
    warnings: list[str] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        """True when the reader raised or found no map."""
        return self.failure is not None

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form (one per-photo row of the report)."""
        return asdict(self)


def adjacency_pairs(document: Document) -> set[Pair]:
    """The document's adjacency as a set of unordered id pairs (self-pairs dropped)."""
    pairs: set[Pair] = set()
    for pair in document.get("adjacency") or []:
        if len(pair) != 2:
            raise BenchmarkError(f"adjacency entry {pair!r} is not a pair of ids")
        a, b = str(pair[0]), str(pair[1])
        if a != b:
            pairs.add(frozenset((a, b)))
    return pairs


def _countries_by_id(document: Document, what: str) -> dict[CountryId, Mapping[str, Any]]:
    countries = document.get("countries")
    if not isinstance(countries, list):
        raise BenchmarkError(f"{what} document has no 'countries' list")
    by_id: dict[CountryId, Mapping[str, Any]] = {}
    for country in countries:
        if not isinstance(country, Mapping) or "id" not in country:
            raise BenchmarkError(f"{what} document has a country without an id: {country!r}")
        country_id = str(country["id"])
        if country_id in by_id:
            raise BenchmarkError(f"{what} document has two countries with id {country_id!r}")
        by_id[country_id] = country
    return by_id


def reader_warnings(document: Document, *, keep: int = 3) -> list[str]:
    """The first ``keep`` warnings a reader wrote into its document."""
    warnings = document.get("warnings")
    if not isinstance(warnings, list):
        return []
    return [str(w) for w in warnings[:keep]]


def photo_tags(truth: Document) -> dict[str, str]:
    """Factors of a synthetic photo worth a breakdown, from its ``synth`` metadata.

    Paper, map pen, ruler, written letters, and the photo's size and camera
    tilt in bands; absent fields are left out.

    >>> photo_tags({"synth": {"name": "s1", "paper": "squared", "ruler": False,
    ...             "pens": {"map": "pencil"}, "size": [4000, 3000], "tilt_deg": 31.0}})
    {'paper': 'squared', 'pen': 'pencil', 'ruler': 'no', 'megapixels': '8+', 'tilt': '30+ deg'}
    """
    meta = truth.get("synth")
    if not isinstance(meta, Mapping):
        return {}
    tags: dict[str, str] = {}
    if isinstance(meta.get("paper"), str):
        tags["paper"] = meta["paper"]
    pens = meta.get("pens")
    if isinstance(pens, Mapping) and isinstance(pens.get("map"), str):
        tags["pen"] = pens["map"]
    for key in ("ruler", "labelled"):
        if isinstance(meta.get(key), bool):
            tags[key] = "yes" if meta[key] else "no"
    size = meta.get("size")
    if isinstance(size, Sequence) and len(size) == 2:
        megapixels = float(size[0]) * float(size[1]) / 1e6
        tags["megapixels"] = _band(megapixels, (3, 8), "{}-{}", "<{}", "{}+")
    tilt = meta.get("tilt_deg")
    if isinstance(tilt, int | float):
        tags["tilt"] = _band(abs(float(tilt)), (15, 30), "{}-{} deg", "<{} deg", "{}+ deg")
    return tags


def writing_angle(quads: Iterable[Sequence[Sequence[float]]]) -> float | None:
    """The rotation (degrees, counter-clockwise) that makes a synthetic photo's writing
    upright, from its writing boxes (``synth.writing``) in some frame; None without any.

    Each box is the ring the generator writes (shapely's box: (x1, y0) (x1, y1) (x0, y1)
    (x0, y0) on the paper, image rows growing downwards): its edge from the third corner
    to the second is the writing's baseline. The angle is minus the mean direction of the
    baselines.

    >>> round(writing_angle([[(10, 0), (10, 5), (0, 5), (0, 0)]]), 6)
    -0.0
    >>> round(writing_angle([[(5, 10), (0, 10), (0, 0), (5, 0)]]), 6)  # baseline downwards
    90.0
    """
    angles = []
    for quad in quads:
        q = np.asarray(quad, float)
        d = q[1] - q[2]
        angles.append(math.atan2(-d[1], d[0]))
    if not angles:
        return None
    return -math.degrees(math.atan2(np.mean(np.sin(angles)), np.mean(np.cos(angles))))


def _band(value: float, edges: tuple[int, int], middle: str, low: str, high: str) -> str:
    if value < edges[0]:
        return low.format(edges[0])
    if value < edges[1]:
        return middle.format(*edges)
    return high.format(edges[1])


def score_photo(
    truth: Document,
    predicted: Document | None,
    *,
    name: str = "",
    seconds: float | None = None,
    cpu_seconds: float | None = None,
    failure: str | None = None,
    settings: ScoreSettings | None = None,
) -> PhotoScore:
    """Score one reading against its ground truth.

    Parameters
    ----------
    truth : dict
        Ground-truth state document (polygons in photo pixels).
    predicted : dict or None
        The reader's document; None when the reader failed.
    name : str
        Photo name for the report row.
    seconds, cpu_seconds : float, optional
        Wall-clock and CPU time the reader took.
    failure : str, optional
        Why the reader failed (set when ``predicted`` is None).
    settings : ScoreSettings, optional

    Returns
    -------
    PhotoScore
    """
    t_by_id = _countries_by_id(truth, "ground-truth")
    t_adj = adjacency_pairs(truth)
    score = PhotoScore(
        name=name,
        seconds=seconds,
        cpu_seconds=cpu_seconds,
        truth_countries=len(t_by_id),
        adjacency_truth_all=len(t_adj),
        tags=photo_tags(truth),
    )
    if predicted is None:
        score.failure = failure or "no document"
        return score
    score.warnings = reader_warnings(predicted)
    p_by_id = _countries_by_id(predicted, "predicted")
    score.predicted_countries = len(p_by_id)
    if not p_by_id:
        score.failure = failure or "no map"
        return score

    matches = match_countries(truth, predicted, settings=settings)
    score.matched = len(matches)
    if matches:
        score.mean_iou = float(np.mean([iou for _, iou in matches.values()]))
    to_truth = {p_id: t_id for t_id, (p_id, _) in matches.items()}

    # Adjacency over pairs of matched countries, in true ids.
    p_adj = {
        frozenset(to_truth[i] for i in pair)
        for pair in adjacency_pairs(predicted)
        if all(i in to_truth for i in pair)
    }
    t_adj_matched = {pair for pair in t_adj if all(i in matches for i in pair)}
    score.adjacency_truth = len(t_adj_matched)
    score.adjacency_predicted = len(p_adj)
    score.adjacency_correct = len(t_adj_matched & p_adj)

    fields_right = True
    for t_id, (p_id, _) in matches.items():
        t, p = t_by_id[t_id], p_by_id[p_id]
        t_armies, p_armies = t.get("armies"), p.get("armies")
        t_conq, p_conq = bool(t.get("conquered", False)), bool(p.get("conquered", False))
        t_label, p_label = t.get("label"), p.get("label")

        if t_armies is not None:
            score.armies_total += 1
            score.armies_correct += p_armies == t_armies
            score.owner_total += 1
            score.owner_correct += p.get("owner") == t.get("owner")
            if t_conq:
                score.crossed_total += 1
                score.crossed_correct += p_armies == t_armies
        score.unoccupied_truth += t_armies is None
        score.unoccupied_predicted += p_armies is None
        score.unoccupied_correct += t_armies is None and p_armies is None

        score.conquered_total += 1
        score.conquered_correct += t_conq == p_conq
        score.conquered_truth += t_conq
        score.conquered_predicted += p_conq
        score.conquered_tp += t_conq and p_conq

        if t_label is not None:
            score.letter_total += 1
            score.letter_correct += p_label == t_label
        elif p_label is not None:
            score.letter_spurious += 1

        fields_right = fields_right and (
            p_armies == t_armies
            and p.get("owner") == t.get("owner")
            and p_conq == t_conq
            and p_label == t_label
        )

    score.exact = (
        fields_right
        and score.matched == score.truth_countries == score.predicted_countries
        and p_adj == t_adj
    )
    return score


# --------------------------------------------------------------- summaries


def ratio(numerator: int, denominator: int) -> float | None:
    """``numerator / denominator``, or None when there is nothing to count."""
    return numerator / denominator if denominator else None


def f1(precision: float | None, recall: float | None) -> float | None:
    """Harmonic mean of precision and recall (None when either is undefined)."""
    if precision is None or recall is None:
        return None
    if precision + recall == 0:
        return 0.0
    return 2 * precision * recall / (precision + recall)


def percentile(values: Iterable[float], q: float) -> float | None:
    """The q-th percentile (0..100, linear interpolation), None for no values."""
    data = [v for v in values if v is not None and math.isfinite(v)]
    return float(np.percentile(data, q)) if data else None


@dataclass
class AccuracyReport:
    """Totals and rates of a synthetic-photo benchmark run.

    ``metrics`` maps a metric name to its value (None when undefined);
    ``totals`` are the pooled counts; ``rows`` are the per-photo scores.
    """

    photos: int
    failures: int
    metrics: dict[str, float | None]
    totals: dict[str, int]
    rows: list[PhotoScore] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)
    breakdown: dict[str, dict[str, dict[str, float | None]]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form of the report."""
        return {
            "kind": "synthetic",
            "photos": self.photos,
            "failures": self.failures,
            "metrics": self.metrics,
            "totals": self.totals,
            "info": self.info,
            "breakdown": self.breakdown,
            "rows": [row.to_dict() for row in self.rows],
        }


_COUNT_FIELDS = [
    f.name
    for f in fields(PhotoScore)
    if f.type in ("int", int) and f.name not in ("seconds", "mean_iou")
]


def summarize(
    rows: Sequence[PhotoScore],
    *,
    info: Mapping[str, Any] | None = None,
    breakdown_by_tag: bool = True,
) -> AccuracyReport:
    """Pool per-photo counts into the benchmark's rates.

    Parameters
    ----------
    rows : sequence of PhotoScore
    info : mapping, optional
        Context to keep with the report (reader, OCR backend, workers...).
    breakdown_by_tag : bool
        Also compute the per-factor :func:`breakdown` (from the rows' tags).

    Returns
    -------
    AccuracyReport
    """
    t = {name: sum(int(getattr(row, name)) for row in rows) for name in _COUNT_FIELDS}
    region_p = ratio(t["matched"], t["predicted_countries"])
    region_r = ratio(t["matched"], t["truth_countries"])
    adj_p = ratio(t["adjacency_correct"], t["adjacency_predicted"])
    adj_r = ratio(t["adjacency_correct"], t["adjacency_truth"])
    unocc_p = ratio(t["unoccupied_correct"], t["unoccupied_predicted"])
    unocc_r = ratio(t["unoccupied_correct"], t["unoccupied_truth"])
    conq_p = ratio(t["conquered_tp"], t["conquered_predicted"])
    conq_r = ratio(t["conquered_tp"], t["conquered_truth"])
    seconds = [row.seconds for row in rows if row.seconds is not None]
    cpu = [row.cpu_seconds for row in rows if row.cpu_seconds is not None]
    metrics: dict[str, float | None] = {
        "region_precision": region_p,
        "region_recall": region_r,
        "region_f1": f1(region_p, region_r),
        "adjacency_precision": adj_p,
        "adjacency_recall": adj_r,
        "adjacency_f1": f1(adj_p, adj_r),
        "adjacency_recall_all": ratio(t["adjacency_correct"], t["adjacency_truth_all"]),
        "armies_accuracy": ratio(t["armies_correct"], t["armies_total"]),
        "crossed_armies_accuracy": ratio(t["crossed_correct"], t["crossed_total"]),
        "unoccupied_precision": unocc_p,
        "unoccupied_recall": unocc_r,
        "owner_accuracy": ratio(t["owner_correct"], t["owner_total"]),
        "conquered_accuracy": ratio(t["conquered_correct"], t["conquered_total"]),
        "conquered_precision": conq_p,
        "conquered_recall": conq_r,
        "letter_accuracy": ratio(t["letter_correct"], t["letter_total"]),
        "exact_maps": ratio(sum(row.exact for row in rows), len(rows)),
        "failure_rate": ratio(sum(row.failed for row in rows), len(rows)),
        "warning_rate": ratio(sum(bool(row.warnings) for row in rows), len(rows)),
        "seconds_median": percentile(seconds, 50),
        "seconds_p90": percentile(seconds, 90),
        "cpu_seconds_median": percentile(cpu, 50),
        "cpu_seconds_p90": percentile(cpu, 90),
    }
    t["exact"] = sum(row.exact for row in rows)
    t["photos_with_warnings"] = sum(bool(row.warnings) for row in rows)
    return AccuracyReport(
        photos=len(rows),
        failures=sum(row.failed for row in rows),
        metrics=metrics,
        totals=t,
        rows=list(rows),
        info=dict(info or {}),
        breakdown=breakdown(rows) if breakdown_by_tag else {},
    )


#: Metrics repeated per factor value in :func:`breakdown`.
BREAKDOWN_METRICS = (
    "region_f1",
    "adjacency_f1",
    "armies_accuracy",
    "owner_accuracy",
    "conquered_accuracy",
    "exact_maps",
    "failure_rate",
    "seconds_median",
)


def breakdown(rows: Sequence[PhotoScore]) -> dict[str, dict[str, dict[str, float | None]]]:
    """Key metrics per value of every tag: ``{"paper": {"squared": {...}, ...}, ...}``.

    Each entry also holds ``photos``, the number of photos with that value.
    """
    keys = sorted({key for row in rows for key in row.tags})
    result: dict[str, dict[str, dict[str, float | None]]] = {}
    for key in keys:
        values = sorted({row.tags[key] for row in rows if key in row.tags})
        result[key] = {}
        for value in values:
            subset = [row for row in rows if row.tags.get(key) == value]
            metrics = summarize(subset, breakdown_by_tag=False).metrics
            entry: dict[str, float | None] = {"photos": float(len(subset))}
            entry.update({name: metrics[name] for name in BREAKDOWN_METRICS})
            result[key][value] = entry
    return result
