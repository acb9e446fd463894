#!/usr/bin/env python3
"""Means and confidence intervals of a sweep's metrics over some of its axes.

    summarize.py RESULTS.h5 [MORE.h5 ...] --over seed [--metrics avg_jct,p99_jct]
                 [--bootstrap N] [--confidence 0.95] [--csv OUT.csv] [--where AXIS=V,...]

For every metric: the number of points, mean, sample standard deviation and confidence interval
(Student t by default; --bootstrap N: a percentile bootstrap of the mean with N resamples and a
fixed RNG seed), for every combination of the axes not named in --over. Points whose status is
not ok (no job placed, or failed) are left out of the statistics and counted per group.
Several files are stacked when they have the same axes (--relabel lines up differing values).
Prints one table per metric; --csv writes all of them as one long CSV.
"""
from __future__ import annotations

import argparse
import csv
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mosim_results import (STATUS_NAMES, STATUS_OK, add_sweep_arguments, error_text,  # noqa: E402
                           load_from_arguments)
from mosim_stats import GroupSummary, summarize_groups  # noqa: E402

CSV_COLUMNS = ["metric", "n", "excluded", "mean", "std", "ci_low", "ci_high", "half_width",
               "interval", "confidence"]


def write_csv(path: str, summaries: list[GroupSummary], interval: str, confidence: float) -> None:
    keys = list(summaries[0].key) if summaries else []
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(keys + CSV_COLUMNS)
        for s in summaries:
            i = s.interval
            w.writerow([s.key[k] for k in keys] + [
                s.metric, i.n, s.excluded, repr(i.mean), repr(i.std), repr(i.low), repr(i.high),
                repr(i.half_width), interval, confidence])


def _number(x: float) -> str:
    if math.isnan(x):
        return "-"
    return f"{x:.4g}" if abs(x) < 100 else f"{x:,.0f}"


def print_tables(summaries: list[GroupSummary], confidence: float, interval: str, out=None) -> None:
    out = out or sys.stdout
    metrics = list(dict.fromkeys(s.metric for s in summaries))
    keys = list(summaries[0].key) if summaries else []
    for metric in metrics:
        rows = [s for s in summaries if s.metric == metric]
        header = keys + ["n", "excl", "mean", "std", f"{confidence:.0%} CI ({interval})"]
        table = [[s.key[k] for k in keys] + [
            str(s.interval.n), str(s.excluded), _number(s.interval.mean), _number(s.interval.std),
            "-" if math.isnan(s.interval.low) else
            f"[{_number(s.interval.low)}, {_number(s.interval.high)}]"] for s in rows]
        widths = [max(len(h), *(len(r[c]) for r in table)) for c, h in enumerate(header)]
        print(f"\n{metric}", file=out)
        print("  ".join(h.ljust(w) if c < len(keys) else h.rjust(w)
                        for c, (h, w) in enumerate(zip(header, widths))), file=out)
        for r in table:
            print("  ".join(x.ljust(w) if c < len(keys) else x.rjust(w)
                            for c, (x, w) in enumerate(zip(r, widths))), file=out)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_sweep_arguments(parser)
    parser.add_argument("--over", default="seed",
                        help="comma-separated axes to average over (default: seed)")
    parser.add_argument("--metrics", help="comma-separated metrics (default: every metric of the file)")
    parser.add_argument("--bootstrap", type=int, default=0, metavar="N",
                        help="percentile bootstrap with N resamples instead of Student t")
    parser.add_argument("--confidence", type=float, default=0.95)
    parser.add_argument("--csv", metavar="OUT.csv", help="write the summaries as CSV")
    parser.add_argument("--quiet", action="store_true", help="no tables on stdout")
    args = parser.parse_args(argv)
    if not 0 < args.confidence < 1:
        parser.error("--confidence must be between 0 and 1")
    if args.bootstrap < 0:
        parser.error("--bootstrap must be positive")

    try:
        results = load_from_arguments(args)
        over = [x.strip() for x in args.over.split(",") if x.strip()]
        metrics = [m.strip() for m in args.metrics.split(",")] if args.metrics else list(results.metrics)
        summaries = summarize_groups(results, over, metrics, args.confidence, args.bootstrap)
    except (ValueError, KeyError, OSError) as e:
        print(f"summarize.py: error: {error_text(e)}", file=sys.stderr)
        return 2

    interval = f"bootstrap {args.bootstrap}" if args.bootstrap else "t"
    bad = results.status != STATUS_OK
    print(f"{results.points} points from {', '.join(results.paths)}; averaged over {', '.join(over)}; "
          f"{int(bad.sum())} excluded" + "".join(
              f", {int((results.status == s).sum())} {name}" for s, name in STATUS_NAMES.items()
              if s != STATUS_OK and (results.status == s).any()))
    shown = [row for row in range(results.points) if bad[row] and results.error[row]][:5]
    for row in shown:
        print(f"  point {results.index[row]} ({STATUS_NAMES.get(results.status[row], '?')}): "
              f"{results.error[row]}")
    if not args.quiet:
        print_tables(summaries, args.confidence, interval)
    if args.csv:
        write_csv(args.csv, summaries, interval, args.confidence)
        print(f"\nwrote {args.csv}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
