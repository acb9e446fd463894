#!/usr/bin/env python3
"""Simulated against ground truth, in the layout of the paper's Tables II–IV.

    fidelity.py --truth TRUTH[#PLACEMENT] SIM [SIM ...] [--table 2|3|4|all] [--where AXIS=V,...]
                [--csv OUT.csv] [--json]

TRUTH and every SIM are `[LABEL=]PATH[#FRAGMENT]`, PATH one of:
- a mosim jobs.csv, or a `mosim run` output folder;
- the artifact's 16gpu per-job testbed CSV (placement,job_ids,models,arrival_times,wait_times,
  training_time,jcts; #PLACEMENT picks its rows, e.g. #k8s-load-balancing);
- a 32gpu per-policy testbed CSV (job_id,start_time_seconds,end_time_seconds,training_time,
  jcts,wait_times,arrival_times);
- a sweep file run with --per-job (SIM only): every point (after --where, and after the
  fragment's conditions, e.g. #placement=k8s-bin-packing,contention=mosim) is compared, and
  labelled by its values on the axes that vary.

Metrics (semantics.md §4, mosim-reference.md §9.2; computed in mosim_stats.py exactly as
`mosim compare`): APE of each aggregate, KS and Wasserstein-1 between the JCT distributions.
--table 2: APE of avg training, avg JCT, P99 JCT, makespan (Table II); 3: APE of avg training,
avg JCT, median JCT, P99 JCT, makespan (Table III); 4: KS and W in seconds (Table IV); all
(default): every column. --json prints, per SIM, the object `mosim compare --json` prints.
"""
from __future__ import annotations

import argparse
import csv
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mosim_results import JobTable, error_text, open_source, parse_where  # noqa: E402
from mosim_stats import fidelity  # noqa: E402

# column name -> (how to get it from a fidelity() result, printed format)
COLUMNS = {
    "avg_training": (lambda f: f["avg_training"]["ape"], "{:.2f}"),
    "avg_jct": (lambda f: f["avg_jct"]["ape"], "{:.2f}"),
    "median_jct": (lambda f: f["median_jct"]["ape"], "{:.2f}"),
    "p99_jct": (lambda f: f["p99_jct"]["ape"], "{:.2f}"),
    "makespan": (lambda f: f["makespan"]["ape"], "{:.2f}"),
    "avg_wait": (lambda f: f["avg_wait"]["ape"], "{:.2f}"),
    "ks": (lambda f: f["ks_jct"], "{:.2f}"),
    "wasserstein_s": (lambda f: f["wasserstein_jct"], "{:.0f}"),
}
TABLES = {
    "2": ["avg_training", "avg_jct", "p99_jct", "makespan"],
    "3": ["avg_training", "avg_jct", "median_jct", "p99_jct", "makespan"],
    "4": ["ks", "wasserstein_s"],
    "all": ["avg_training", "avg_jct", "median_jct", "p99_jct", "makespan", "avg_wait", "ks",
            "wasserstein_s"],
}
HEADINGS = {"avg_training": "APE train", "avg_jct": "APE JCT", "median_jct": "APE med",
            "p99_jct": "APE P99", "makespan": "APE mkspan", "avg_wait": "APE wait", "ks": "KS",
            "wasserstein_s": "W (s)"}


def load_sources(text: str, where: dict[str, list[str]] | None = None) -> list[tuple[str, JobTable]]:
    """The per-job tables a source argument names: one for a CSV, one per point of a sweep file
    (labelled by the axes whose values vary among them)."""
    source = open_source(text, where)
    if source.sweep is None:
        return [(source.label or text, source.jobs)]
    results = source.sweep
    varying = [a.name for a in results.axes if len(set(results.labels(a.name))) > 1]
    out = []
    for row in range(results.points):
        name = " ".join(f"{k}={v}" for k, v in results.describe_row(row, varying).items())
        name = f"{source.label} {name}".strip() if source.label else (name or f"point {results.index[row]}")
        out.append((name, results.job_table(row)))
    return out


def compare(truth: str, sims: list[str], where: dict[str, list[str]] | None = None) -> list[tuple[str, dict]]:
    """[(label, fidelity result)] for every simulation named by `sims` against `truth`."""
    truth_sources = load_sources(truth)
    if len(truth_sources) != 1:
        raise ValueError(f"--truth {truth}: names {len(truth_sources)} tables, expected one")
    truth_jobs = truth_sources[0][1]
    return [(label, fidelity(jobs, truth_jobs)) for sim in sims for label, jobs in load_sources(sim, where)]


def format_table(rows: list[tuple[str, dict]], columns: list[str]) -> str:
    width = max([len("simulation")] + [len(label) for label, _ in rows])
    lines = [f"{'simulation':{width}s}" + "".join(f"{HEADINGS[c]:>12s}" for c in columns)]
    for label, f in rows:
        cells = []
        for c in columns:
            value = COLUMNS[c][0](f)
            cells.append(f"{'inf' if math.isinf(value) else COLUMNS[c][1].format(value):>12s}")
        lines.append(f"{label:{width}s}" + "".join(cells))
    return "\n".join(lines)


def write_csv(path: str, rows: list[tuple[str, dict]]) -> None:
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["simulation"] + [f"{m}_{k}" for m in ("avg_training", "avg_jct", "median_jct",
                                                         "p99_jct", "makespan", "avg_wait")
                                     for k in ("simulated", "truth", "ape")]
                   + ["ks_jct", "wasserstein_jct_s", "jobs_simulated", "jobs_truth"])
        for label, r in rows:
            w.writerow([label] + [repr(r[m][k]) for m in ("avg_training", "avg_jct", "median_jct",
                                                          "p99_jct", "makespan", "avg_wait")
                                  for k in ("simulated", "truth", "ape")]
                       + [repr(r["ks_jct"]), repr(r["wasserstein_jct"]), r["jobs"]["simulated"],
                          r["jobs"]["truth"]])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sims", nargs="+", metavar="SIM", help="[LABEL=]PATH[#PLACEMENT]")
    parser.add_argument("--truth", required=True, help="[LABEL=]PATH[#PLACEMENT] of the ground truth")
    parser.add_argument("--table", choices=sorted(TABLES), default="all",
                        help="columns of Table II (2), III (3), IV (4) or all (default)")
    parser.add_argument("--where", action="append", metavar="AXIS=V[,V...]",
                        help="points of sweep files to compare (repeatable)")
    parser.add_argument("--csv", metavar="OUT.csv", help="write every value (simulated, truth, APE) as CSV")
    parser.add_argument("--json", action="store_true",
                        help="print {label: the object of mosim compare --json} instead of a table")
    args = parser.parse_args(argv)
    try:
        rows = compare(args.truth, args.sims, parse_where(args.where))
    except (ValueError, KeyError, OSError) as e:
        print(f"fidelity.py: error: {error_text(e)}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({label: r for label, r in rows}, indent=2))
    else:
        print(format_table(rows, TABLES[args.table]))
    if args.csv:
        write_csv(args.csv, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
