"""Present benchmark reports: rich tables for the terminal, markdown for the README.

Both report kinds (:class:`~aggression_vision.bench.accuracy.AccuracyReport`
and :class:`~aggression_vision.bench.sudoku.SudokuReport`) are handled; nothing
here computes a figure, it only formats what the report holds.
"""

from __future__ import annotations

from typing import Any

# (metric key, human name, "pct" | "sec" | "count")
SYNTHETIC_METRICS: list[tuple[str, str, str]] = [
    ("region_f1", "region F1", "pct"),
    ("region_precision", "region precision", "pct"),
    ("region_recall", "region recall", "pct"),
    ("adjacency_f1", "adjacency F1 (matched pairs)", "pct"),
    ("adjacency_precision", "adjacency precision", "pct"),
    ("adjacency_recall", "adjacency recall", "pct"),
    ("adjacency_recall_all", "adjacency recall, all true pairs", "pct"),
    ("armies_accuracy", "armies accuracy", "pct"),
    ("crossed_armies_accuracy", "armies accuracy, crossed-out numbers", "pct"),
    ("unoccupied_precision", "unoccupied precision", "pct"),
    ("unoccupied_recall", "unoccupied recall", "pct"),
    ("owner_accuracy", "owner accuracy", "pct"),
    ("conquered_accuracy", "conquered accuracy", "pct"),
    ("conquered_precision", "conquered precision", "pct"),
    ("conquered_recall", "conquered recall", "pct"),
    ("letter_accuracy", "letter accuracy", "pct"),
    ("exact_maps", "whole map exactly right", "pct"),
    ("failure_rate", "failures", "pct"),
    ("warning_rate", "photos with reader warnings", "pct"),
    ("seconds_median", "seconds per photo, median", "sec"),
    ("seconds_p90", "seconds per photo, p90", "sec"),
    ("cpu_seconds_median", "CPU seconds per photo, median", "sec"),
    ("cpu_seconds_p90", "CPU seconds per photo, p90", "sec"),
]

SUDOKU_METRICS: list[tuple[str, str, str]] = [
    ("cells_found", "cells found", "pct"),
    ("all_found_photos", "photos with all 81 cells found", "pct"),
    ("neighbour_adjacency_recall", "4-neighbour adjacency recall", "pct"),
    ("diagonal_false_adjacent", "diagonal pairs read as adjacent (count)", "count"),
    ("no_diagonal_photos", "photos with no diagonal adjacency", "pct"),
    ("map_right_photos", "photos with all cells found and no diagonal", "pct"),
    ("digit_accuracy", "digit cells read right", "pct"),
    ("blank_accuracy", "blank cells read as unoccupied", "pct"),
    ("false_underline_rate", "digit cells read as underlined (a sudoku has none)", "pct"),
    ("false_crossed_rate", "digit cells read as crossed out (a sudoku has none)", "pct"),
    ("failure_rate", "failures", "pct"),
    ("warning_rate", "photos with reader warnings", "pct"),
    ("seconds_median", "seconds per photo, median", "sec"),
    ("seconds_p90", "seconds per photo, p90", "sec"),
    ("cpu_seconds_median", "CPU seconds per photo, median", "sec"),
    ("cpu_seconds_p90", "CPU seconds per photo, p90", "sec"),
]

# Counts shown next to a rate, as "right / total".
_SUPPORT = {
    "region_precision": ("matched", "predicted_countries"),
    "region_recall": ("matched", "truth_countries"),
    "adjacency_precision": ("adjacency_correct", "adjacency_predicted"),
    "adjacency_recall": ("adjacency_correct", "adjacency_truth"),
    "adjacency_recall_all": ("adjacency_correct", "adjacency_truth_all"),
    "armies_accuracy": ("armies_correct", "armies_total"),
    "crossed_armies_accuracy": ("crossed_correct", "crossed_total"),
    "unoccupied_precision": ("unoccupied_correct", "unoccupied_predicted"),
    "unoccupied_recall": ("unoccupied_correct", "unoccupied_truth"),
    "owner_accuracy": ("owner_correct", "owner_total"),
    "conquered_accuracy": ("conquered_correct", "conquered_total"),
    "conquered_precision": ("conquered_tp", "conquered_predicted"),
    "conquered_recall": ("conquered_tp", "conquered_truth"),
    "letter_accuracy": ("letter_correct", "letter_total"),
    "cells_found": ("cells_found", "cells"),
    "neighbour_adjacency_recall": ("neighbour_adjacent", "neighbour_pairs"),
    "digit_accuracy": ("digit_correct", "digit_cells"),
    "blank_accuracy": ("blank_correct", "blank_cells"),
    "false_underline_rate": ("digits_underlined", "digit_cells"),
    "false_crossed_rate": ("digits_crossed", "digit_cells"),
}


def format_value(value: float | None, kind: str) -> str:
    """Text of one metric: ``"99.5%"``, ``"0.84 s"``, ``"3"``, or ``"-"`` when undefined.

    >>> format_value(0.995, "pct"), format_value(None, "pct"), format_value(0.8412, "sec")
    ('99.5%', '-', '0.84 s')
    """
    if value is None:
        return "-"
    if kind == "pct":
        return f"{100 * value:.1f}%"
    if kind == "sec":
        return f"{value:.2f} s"
    return f"{value:g}"


def _metric_spec(report: Any) -> list[tuple[str, str, str]]:
    return SUDOKU_METRICS if report.to_dict()["kind"] == "sudoku" else SYNTHETIC_METRICS


def _support(report: Any, key: str) -> str:
    if key in _SUPPORT:
        right, total = _SUPPORT[key]
        return f"{report.totals[right]} / {report.totals[total]}"
    if key in ("exact_maps",):
        return f"{report.totals['exact']} / {report.photos}"
    if key in ("all_found_photos", "no_diagonal_photos", "map_right_photos"):
        return f"{report.totals[key]} / {report.photos}"
    if key == "failure_rate":
        return f"{report.failures} / {report.photos}"
    if key == "warning_rate":
        return f"{report.totals['photos_with_warnings']} / {report.photos}"
    return ""


def summary_rows(report: Any) -> list[tuple[str, str, str]]:
    """(metric, value, support) text rows of a report's summary."""
    return [
        (name, format_value(report.metrics.get(key), kind), _support(report, key))
        for key, name, kind in _metric_spec(report)
    ]


def _title(report: Any) -> str:
    info = report.info
    kind = "sudoku photos" if report.to_dict()["kind"] == "sudoku" else "synthetic photos"
    return (
        f"{kind}: {report.photos} from {info.get('directory', '?')} "
        f"(ocr {info.get('ocr', '?')}, {info.get('workers', '?')} workers)"
    )


def to_markdown(report: Any, *, breakdown: bool = True) -> str:
    """Markdown tables of a report, for the README.

    Parameters
    ----------
    report : AccuracyReport or SudokuReport
    breakdown : bool
        Add one table per photo factor (paper, pen...) when the report has them.

    Returns
    -------
    str
        A caption line, a blank line, then a ``| metric | value | n |`` table,
        then the breakdown tables.
    """
    lines = [f"*{_title(report)}*", "", "| metric | value | n |", "|---|---:|---:|"]
    lines += [f"| {name} | {value} | {support} |" for name, value, support in summary_rows(report)]
    for key, header, rows in breakdown_rows(report) if breakdown else []:
        lines += ["", f"by {key}:", "", "| " + " | ".join(header) + " |"]
        lines.append("|---|" + "---:|" * (len(header) - 1))
        lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


_BREAKDOWN_COLUMNS = [
    ("photos", "photos", "count"),
    ("region_f1", "region F1", "pct"),
    ("adjacency_f1", "adjacency F1", "pct"),
    ("armies_accuracy", "armies", "pct"),
    ("owner_accuracy", "owner", "pct"),
    ("conquered_accuracy", "conquered", "pct"),
    ("exact_maps", "exact maps", "pct"),
    ("failure_rate", "failures", "pct"),
    ("seconds_median", "median s", "sec"),
]


def breakdown_rows(report: Any) -> list[tuple[str, list[str], list[list[str]]]]:
    """(factor, header, text rows) for each factor of a report's breakdown."""
    tables = []
    for key, values in (getattr(report, "breakdown", None) or {}).items():
        header = [key] + [title for _, title, _ in _BREAKDOWN_COLUMNS]
        rows = [
            [value] + [format_value(entry.get(name), kind) for name, _, kind in _BREAKDOWN_COLUMNS]
            for value, entry in values.items()
        ]
        tables.append((key, header, rows))
    return tables


def _photo_table(report: Any) -> Any:
    from rich.table import Table

    sudoku = report.to_dict()["kind"] == "sudoku"
    table = Table(title="per photo", show_lines=False)
    if sudoku:
        columns = ["photo", "s", "regions", "found", "4-adj", "diag", "digits", "blanks"]
    else:
        columns = ["photo", "s", "truth", "pred", "matched", "adj ok", "armies ok", "exact"]
    columns.append("failure")
    for column in columns:
        if column in ("photo", "failure"):
            # Names and reasons are what one reads the table for: fold, never truncate.
            width = min(32, max((len(row.name) for row in report.rows), default=5))
            table.add_column(column, overflow="fold", min_width=width if column == "photo" else 8)
        else:
            table.add_column(column, justify="right", no_wrap=True)
    for row in report.rows:
        seconds = "-" if row.seconds is None else f"{row.seconds:.2f}"
        if sudoku:
            cells = [
                row.name,
                seconds,
                str(row.predicted_countries),
                f"{row.cells_found}/{row.cells}",
                f"{row.neighbour_adjacent}/{row.neighbour_pairs}",
                str(row.diagonal_adjacent),
                f"{row.digit_correct}/{row.digit_cells}",
                f"{row.blank_correct}/{row.blank_cells}",
                row.failure or "",
            ]
        else:
            cells = [
                row.name,
                seconds,
                str(row.truth_countries),
                str(row.predicted_countries),
                str(row.matched),
                f"{row.adjacency_correct}/{row.adjacency_truth}",
                f"{row.armies_correct}/{row.armies_total}",
                "yes" if row.exact else "no",
                row.failure or "",
            ]
        table.add_row(*cells)
    return table


def render(report: Any, *, rows: bool = True) -> list[Any]:
    """Rich renderables of a report: summary, breakdown tables, then the per-photo table.

    Print them with ``rich.console.Console().print(*render(report))``.
    """
    from rich.table import Table

    summary = Table(title=_title(report))
    summary.add_column("metric")
    summary.add_column("value", justify="right")
    summary.add_column("n", justify="right")
    for name, value, support in summary_rows(report):
        summary.add_row(name, value, support)
    tables = [summary]
    for key, header, text_rows in breakdown_rows(report):
        table = Table(title=f"by {key}")
        for index, column in enumerate(header):
            table.add_column(column, justify="left" if index == 0 else "right")
        for text_row in text_rows:
            table.add_row(*text_row)
        tables.append(table)
    return [*tables, _photo_table(report)] if rows else tables


def comparison_markdown(reports: dict[str, Any]) -> str:
    """One markdown table comparing reports of the same kind side by side.

    Parameters
    ----------
    reports : dict
        Column title (e.g. the OCR backend) -> report, all synthetic or all sudoku.

    Returns
    -------
    str
        ``| metric | title1 | title2 ... |`` with every summary metric.

    Raises
    ------
    ValueError
        When the reports are of different kinds or there are none.
    """
    kinds = {report.to_dict()["kind"] for report in reports.values()}
    if len(kinds) != 1:
        raise ValueError(f"comparison needs reports of one kind, got {sorted(kinds) or 'none'}")
    titles = list(reports)
    lines = ["| metric | " + " | ".join(titles) + " |", "|---|" + "---:|" * len(titles)]
    spec = _metric_spec(next(iter(reports.values())))
    for key, name, kind in spec:
        values = [format_value(reports[t].metrics.get(key), kind) for t in titles]
        lines.append(f"| {name} | " + " | ".join(values) + " |")
    return "\n".join(lines) + "\n"
