#!/usr/bin/env python3
"""Accuracy of fast-forward against the exact phase-level model on busy Philly-like traces.

For each seed: a synthetic trace (`mosim trace generate`; 500 jobs, arrival rate for a 100% GPU load
on 256 GPUs by default), run under the exact `mosim` model, under the exact model with every submit time
shifted by 1 us (the model's own spread: it is chaotic), and under fast-forward (0.01) with the
default group limit and with --fast-forward-group 16 (local mode for groups of more than 16
jobs). Prints, per run, its events and each aggregate's deviation from the exact run (markdown).
Takes about a minute per seed on one core at the defaults; `--jobs 2000 --gpus 1024 --seeds 7`
(the larger case of experiments/performance/README.md) about three.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

from run_scale import GPU_SECONDS_PER_JOB  # gpus / this is the full-load arrival rate

AGGREGATES = ["avg_training", "avg_jct", "median_jct", "p99_jct", "makespan"]


def run(mosim, trace, out, servers, extra):
    subprocess.run([mosim, "run", "--quiet", "--out", out, "--trace", trace, "--servers", str(servers),
                    "--placement", "k8s-bin-packing", "--contention", "mosim"] + extra, check=True)
    with open(os.path.join(out, "summary.json")) as f:
        return json.load(f)


def shifted(trace, path, shift_s):
    with open(trace) as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        row["submit_time"] = repr(float(row["submit_time"]) + shift_s)
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        writer.writerows(rows)
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mosim", default="build/mosim")
    parser.add_argument("--seeds", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--jobs", type=int, default=500)
    parser.add_argument("--gpus", type=int, default=256, help="GPUs, in servers of 8")
    args = parser.parse_args()
    servers = args.gpus // 8
    print("| seed | run | events | " + " | ".join(AGGREGATES) + " |")
    print("|---|---|---|" + "---|" * len(AGGREGATES))
    with tempfile.TemporaryDirectory() as work:
        for seed in args.seeds:
            trace = os.path.join(work, f"trace-{seed}.csv")
            subprocess.run([args.mosim, "trace", "generate", "--jobs", str(args.jobs), "--rate",
                            f"{args.gpus / GPU_SECONDS_PER_JOB:.6g}", "--seed", str(seed),
                            "--max-gpus", str(args.gpus),
                            "--out", trace, "--quiet"], check=True)
            exact = run(args.mosim, trace, os.path.join(work, "exact"), servers, [])
            print(f"| {seed} | exact | {exact['events']:,} | " +
                  " | ".join(f"{exact[a]:,.0f} s" for a in AGGREGATES) + " |", flush=True)
            runs = [("exact, submit + 1 us", shifted(trace, trace + ".shifted", 1e-6), []),
                    ("fast (0.01)", trace, ["--fast-forward", "0.01"]),
                    ("fast (0.01), group 16", trace,
                     ["--fast-forward", "0.01", "--fast-forward-group", "16"])]
            for name, path, extra in runs:
                other = run(args.mosim, path, os.path.join(work, "other"), servers, extra)
                print(f"| {seed} | {name} | {other['events']:,} | " +
                      " | ".join(f"{100 * (other[a] - exact[a]) / exact[a]:+.2f}%"
                                 for a in AGGREGATES) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
