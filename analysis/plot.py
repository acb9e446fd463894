#!/usr/bin/env python3
"""Plots of mosim results, as PNG.

    plot.py metric RESULTS.h5 [...] --x AXIS --metric M --by AXIS [--over seed] [--row AXIS]
                   [--col AXIS] [--where AXIS=V,...] [--bootstrap N] [--logx] [--logy] --out P.png
        M against an axis, one line per value of --by with its confidence band (Student t, or
        --bootstrap) over the --over axes; --row and --col make a grid of panels. Every other
        axis must be fixed with --where.

    plot.py cdf SOURCE [SOURCE ...] [--by AXIS] [--where ...] [--column jct] [--logx] --out P.png
        Empirical CDFs of per-job JCT (or --column training / wait). A SOURCE is
        `[LABEL=]PATH[#FRAGMENT]`: a mosim jobs.csv or run folder, a testbed CSV (#PLACEMENT picks
        its rows), or a sweep file run with --per-job (#AXIS=V,AXIS=V picks points), whose jobs
        are pooled per value of --by (e.g. over seeds).

    plot.py heatmap FACTORS.csv --row measured --col corunner --value factor [--where COL=V,...]
                    [--order a,b,...] --out P.png
        A matrix of values from a long CSV (one row per cell), e.g. the pairwise contention
        factors of experiments/pairwise.
"""
from __future__ import annotations

import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402

import matplotlib  # noqa: E402
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from mosim_results import (TIME_METRICS, add_sweep_arguments, error_text, load_from_arguments,  # noqa: E402
                           open_source, parse_where)
from mosim_stats import summarize_groups  # noqa: E402


def _ylabel(metric: str) -> str:
    return f"{metric} (s)" if metric in TIME_METRICS else metric


# ---------------------------------------------------------------------------------------------
# metric against an axis

def metric_series(results, metric: str, x: str, by: str, row: str | None = None, col: str | None = None,
                  over: list[str] = ("seed",), confidence: float = 0.95, bootstrap: int = 0) -> dict:
    """{(row value, col value, by value): (x, mean, low, high)}, arrays in x-axis order; x in the
    axis' display units (bandwidths in Gbps), or positions for a non-numeric axis. Every axis
    other than x, by, row, col and over must have a single value left."""
    over = list(over)
    roles = [x, by] + [a for a in (row, col) if a]
    for name in roles + over:
        results.axis(name)
    loose = [a.name for a in results.axes if a.name not in roles + over
             and len(set(results.labels(a.name))) > 1]
    if loose:
        raise ValueError("axes with several values left: " + ", ".join(
            f"{n} ({', '.join(sorted(set(results.labels(n))))})" for n in loose)
            + ": fix them with --where, or name them in --over, --by, --row or --col")
    others = [a.name for a in results.axes if a.name not in roles + over]
    x_axis = results.axis(x)
    xs = x_axis.display_values()
    series: dict = {}
    for s in summarize_groups(results, over + others, [metric], confidence, bootstrap):
        key = (s.key.get(row) if row else None, s.key.get(col) if col else None, s.key[by])
        i = x_axis.values.index(s.key[x])
        series.setdefault(key, []).append((i if xs is None else xs[i], i, s.interval))
    out = {}
    for key, points in series.items():
        points.sort(key=lambda p: p[1])
        out[key] = (np.array([p[0] for p in points], dtype=float),
                    np.array([p[2].mean for p in points]), np.array([p[2].low for p in points]),
                    np.array([p[2].high for p in points]))
    return out


def plot_metric(args) -> None:
    results = load_from_arguments(args)
    over = [x for x in args.over.split(",") if x]
    series = metric_series(results, args.metric, args.x, args.by, args.row, args.col, over,
                           args.confidence, args.bootstrap)
    x_axis, by_axis = results.axis(args.x), results.axis(args.by)
    rows = [v for v in (results.axis(args.row).values if args.row else [None])
            if any(k[0] == v for k in series)]
    cols = [v for v in (results.axis(args.col).values if args.col else [None])
            if any(k[1] == v for k in series)]
    fig, grid = plt.subplots(len(rows), len(cols), figsize=(4.2 * len(cols) + 0.8, 3.3 * len(rows) + 0.6),
                             squeeze=False, sharex=True, sharey=args.sharey)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, r in enumerate(rows):
        for j, c in enumerate(cols):
            ax = grid[i][j]
            for k, b in enumerate(by_axis.values):
                if (r, c, b) not in series:
                    continue
                x, mean, low, high = series[(r, c, b)]
                color = colors[k % len(colors)]
                ax.plot(x, mean, marker="o", ms=3, color=color, label=b)
                ax.fill_between(x, low, high, color=color, alpha=0.2, linewidth=0)
            if x_axis.numeric is None:
                ax.set_xticks(range(len(x_axis.values)), x_axis.values, rotation=30)
            if args.logx:
                ax.set_xscale("log")
            if args.logy:
                ax.set_yscale("log")
            title = ", ".join(f"{n}={v}" for n, v in ((args.row, r), (args.col, c)) if v is not None)
            ax.set_title(title, fontsize=9)
            ax.grid(alpha=0.3)
            if i == len(rows) - 1:
                ax.set_xlabel(x_axis.display_name())
            if j == 0:
                ax.set_ylabel(f"{args.metric} / {args.relative_to.partition('=')[2]}" if args.relative_to
                              else _ylabel(args.metric))
    handles, labels = grid[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, title=args.by, loc="upper center", ncol=max(1, len(labels)), fontsize=8,
               bbox_to_anchor=(0.5, 1.0))
    interval = f"bootstrap {args.bootstrap}" if args.bootstrap else "Student t"
    fig.suptitle(args.title or f"{args.metric}: mean and {args.confidence:.0%} CI ({interval}) over "
                 f"{', '.join(over)}", y=0.005, va="bottom", fontsize=8)
    fig.tight_layout(rect=(0, 0.03, 1, 0.93))
    fig.savefig(args.out, dpi=args.dpi)


# ---------------------------------------------------------------------------------------------
# CDFs

def cdf_samples(sources: list[str], by: str | None, where: dict, column: str) -> list[tuple[str, np.ndarray]]:
    """(label, values) for each curve: a CSV source is one curve; a sweep file gives one curve
    per value of `by` (all its selected points pooled when `by` is not given)."""
    curves = []
    for text in sources:
        source = open_source(text, where)
        if source.sweep is None:
            jobs = source.jobs.done()
            curves.append((source.label or os.path.basename(source.path.rstrip("/")), getattr(jobs, column)))
            continue
        results = source.sweep
        if results.jobs is None:
            raise ValueError(f"{source.path}: no per-job table (run the sweep with --per-job)")
        done = results.jobs["status"] == 0
        groups = [(None, np.arange(results.points))] if by is None else [
            (v, np.flatnonzero(np.array(results.labels(by)) == v)) for v in results.axis(by).values]
        for value, rows in groups:
            sel = done & np.isin(results.jobs["row"], rows)
            if sel.any():
                name = " ".join(x for x in (source.label, None if value is None else f"{by}={value}") if x)
                curves.append((name or os.path.basename(source.path), results.jobs[column][sel]))
    return curves


def plot_cdf(args) -> None:
    curves = cdf_samples(args.sources, args.by, parse_where(args.where), args.column)
    fig, ax = plt.subplots(figsize=(6, 4))
    for label, values in curves:
        x = np.sort(values)
        ax.step(x, np.arange(1, len(x) + 1) / len(x), where="post", label=f"{label} (n={len(x)})")
    if args.logx:
        ax.set_xscale("log")
    ax.set_xlabel(f"{args.column} (s)")
    ax.set_ylabel("fraction of jobs")
    ax.set_ylim(0, 1.01)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    if args.title:
        ax.set_title(args.title, fontsize=9)
    fig.tight_layout()
    fig.savefig(args.out, dpi=args.dpi)


# ---------------------------------------------------------------------------------------------
# Heatmap

def read_matrix(path: str, row: str, col: str, value: str, where: dict,
                order: list[str] | None) -> tuple[list[str], list[str], np.ndarray]:
    with open(path, newline="") as f:
        records = list(csv.DictReader(f))
    for name in [row, col, value] + list(where):
        if records and name not in records[0]:
            raise ValueError(f"{path}: no column '{name}' (columns: {', '.join(records[0])})")
    records = [r for r in records if all(r[k] in v for k, v in where.items())]
    if not records:
        raise ValueError(f"{path}: no rows left after --where")
    rows = order or list(dict.fromkeys(r[row] for r in records))
    cols = order or list(dict.fromkeys(r[col] for r in records))
    matrix = np.full((len(rows), len(cols)), np.nan)
    for r in records:
        if r[row] in rows and r[col] in cols:
            i, j = rows.index(r[row]), cols.index(r[col])
            if not np.isnan(matrix[i, j]):
                raise ValueError(f"{path}: two rows for {row}={r[row]}, {col}={r[col]}: narrow with --where")
            matrix[i, j] = float(r[value])
    return rows, cols, matrix


def plot_heatmap(args) -> None:
    order = args.order.split(",") if args.order else None
    rows, cols, m = read_matrix(args.csv, args.row, args.col, args.value, parse_where(args.where), order)
    fig, ax = plt.subplots(figsize=(1.0 + 0.55 * len(cols), 1.0 + 0.45 * len(rows)))
    image = ax.imshow(m, cmap=args.cmap, vmin=args.vmin, vmax=args.vmax, aspect="auto")
    ax.set_xticks(range(len(cols)), cols, rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(len(rows)), rows, fontsize=8)
    ax.set_xlabel(args.col)
    ax.set_ylabel(args.row)
    high = np.nanmax(m) if np.isfinite(m).any() else 0
    for i in range(len(rows)):
        for j in range(len(cols)):
            if np.isfinite(m[i, j]):
                ax.text(j, i, f"{m[i, j]:.2f}", ha="center", va="center", fontsize=6.5,
                        color="white" if m[i, j] > (args.vmin or 0) + 0.6 * (high - (args.vmin or 0)) else "black")
    fig.colorbar(image, ax=ax, label=args.value)
    if args.title:
        ax.set_title(args.title, fontsize=9)
    fig.tight_layout()
    fig.savefig(args.out, dpi=args.dpi)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="mode", required=True)

    m = sub.add_parser("metric", help="a metric against an axis with confidence bands")
    add_sweep_arguments(m)
    m.add_argument("--x", required=True, help="axis on the x axis")
    m.add_argument("--metric", required=True, help="metric on the y axis, e.g. avg_jct")
    m.add_argument("--by", required=True, help="axis: one line per value (e.g. contention)")
    m.add_argument("--over", default="seed", help="axes to average over (default: seed)")
    m.add_argument("--row", help="axis: one row of panels per value")
    m.add_argument("--col", help="axis: one column of panels per value")
    m.add_argument("--confidence", type=float, default=0.95)
    m.add_argument("--bootstrap", type=int, default=0, metavar="N")
    m.add_argument("--logx", action="store_true")
    m.add_argument("--logy", action="store_true")
    m.add_argument("--sharey", action="store_true", help="the same y range in every panel")

    c = sub.add_parser("cdf", help="empirical CDFs of per-job JCT")
    c.add_argument("sources", nargs="+", metavar="SOURCE", help="[LABEL=]PATH[#FRAGMENT]")
    c.add_argument("--by", help="sweep files: one curve per value of this axis")
    c.add_argument("--where", action="append", metavar="AXIS=V[,V...]")
    c.add_argument("--column", default="jct", choices=["jct", "training", "wait"])
    c.add_argument("--logx", action="store_true")

    h = sub.add_parser("heatmap", help="a matrix from a long CSV")
    h.add_argument("csv")
    h.add_argument("--row", required=True, help="column giving the matrix row")
    h.add_argument("--col", required=True, help="column giving the matrix column")
    h.add_argument("--value", required=True, help="column giving the cell's value")
    h.add_argument("--where", action="append", metavar="COL=V[,V...]", help="rows to keep (repeatable)")
    h.add_argument("--order", help="comma-separated order of rows and columns")
    h.add_argument("--cmap", default="viridis")
    h.add_argument("--vmin", type=float)
    h.add_argument("--vmax", type=float)

    for p in (m, c, h):
        p.add_argument("--out", required=True, help="PNG file")
        p.add_argument("--title")
        p.add_argument("--dpi", type=int, default=120)
    args = parser.parse_args(argv)
    try:
        {"metric": plot_metric, "cdf": plot_cdf, "heatmap": plot_heatmap}[args.mode](args)
    except (ValueError, KeyError, OSError) as e:
        print(f"plot.py: error: {error_text(e)}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
