#!/usr/bin/env python3
"""What-if study: NIC bandwidth x cluster size x placement x contention model x load x 30 seeds.

    run.py [--mosim build/mosim] [--np 2] [--threads 1] [--out DIR] [--only sweep|analyse]
    run.py --derive-rates

Runs the three sweeps servers-4.yaml, servers-16.yaml and servers-64.yaml (2,160 points each)
under `mpirun -np NP`, with per-job tables, into OUT (default: this folder's results/; the .h5
files are git-ignored), recording each sweep's wall time in OUT/timing.json; then summarizes
them with analysis/summarize.py (95% Student-t intervals over the 30 trace seeds;
arrival-rate relabelled as load = moderate, high) into OUT/summary.csv and draws the plots with
analysis/plot.py. A sweep whose .h5 exists is not run again (delete it, or --force).

--derive-rates prints the arrival rates of the specs: for a cluster of G GPUs and N jobs per
point, the rate λ at which the GPUs the trace's jobs would hold at the end of its arrivals, had
none waited, are ρ·G: λ · E[g · min(D, N/λ)] = ρ G, with g, D the GPUs and run time of a
Philly-like job (a 50,000-job `mosim trace generate` sample) — for ρ = 0.5 (moderate) and 1.0
(high). With few jobs the cluster never reaches a steady state, so the usual λ E[g D] / G would
overstate the load (E[g D] is dominated by jobs that run for weeks).
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ANALYSIS = os.path.join(ROOT, "analysis")
CLUSTERS = {4: 100, 16: 200, 64: 400}          # servers -> jobs per point
LOADS = {"moderate": 0.5, "high": 1.0}
RELABEL = "arrival-rate=load:moderate,high"


def derive_rates(mosim: str) -> None:
    import numpy as np
    from scipy.optimize import brentq
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "jobs.csv")
        subprocess.run([mosim, "trace", "generate", "--jobs", "50000", "--seed", "11", "--pool", "none",
                        "--out", path], check=True, capture_output=True)
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    g = np.array([float(r["num_gpus"]) for r in rows])
    d = np.array([float(r["duration"]) for r in rows])
    print(f"Philly-like jobs: E[g] = {g.mean():.2f} GPUs, E[D] = {d.mean():,.0f} s, E[g D] = {(g * d).mean():,.0f} GPU-s")
    for servers, jobs in CLUSTERS.items():
        gpus = servers * 8
        rates = []
        for name, rho in LOADS.items():
            rate = brentq(lambda lam: lam * np.mean(g * np.minimum(d, jobs / lam)) - rho * gpus, 1e-8, 100)
            rates.append(f"{name} (rho {rho}) {rate:.3g}/s, arrivals over {jobs / rate:,.0f} s")
        print(f"{servers} servers ({gpus} GPUs), {jobs} jobs: " + "; ".join(rates))


def run_sweeps(args) -> dict:
    timing_path = os.path.join(args.out, "timing.json")
    timing = json.load(open(timing_path)) if os.path.exists(timing_path) else {}
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads), OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    for servers in CLUSTERS:
        name = f"servers-{servers}"
        out = os.path.join(args.out, f"{name}.h5")
        if os.path.exists(out) and not args.force:
            print(f"{out} exists: not run again")
            continue
        command = ["mpirun", "--bind-to", "none", "-np", str(args.np), args.mosim, "sweep",
                   os.path.join(HERE, f"{name}.yaml"), "--out", out, "--per-job", "--quiet"]
        command += ["--force"] if args.force else ["--resume"]
        print(" ".join(command), flush=True)
        start = time.time()
        subprocess.run(command, check=True, env=env)
        timing[name] = {"wall_seconds": time.time() - start, "ranks": args.np, "threads": args.threads}
        with open(timing_path, "w") as f:
            json.dump(timing, f, indent=2)
        print(f"{name}: {timing[name]['wall_seconds']:.0f} s", flush=True)
    return timing


def analyse(args) -> None:
    files = [os.path.join(args.out, f"servers-{s}.h5") for s in CLUSTERS]
    out = lambda name: os.path.join(args.out, name)  # noqa: E731

    def tool(*command):
        print(" ".join(command), flush=True)
        subprocess.run([sys.executable, os.path.join(ANALYSIS, command[0]), *command[1:]], check=True,
                       stdout=subprocess.DEVNULL)

    common = [*files, "--relabel", RELABEL]
    tool("summarize.py", *common, "--over", "seed", "--csv", out("summary.csv"),
         "--metrics", "avg_jct,p99_jct,makespan,avg_training,avg_wait,wall_seconds")
    # Paired ratios (common random numbers: every point of a seed replays the same trace).
    tool("summarize.py", *common, "--over", "seed", "--relative-to", "contention=none",
         "--metrics", "avg_jct,p99_jct,makespan,avg_training", "--csv", out("relative-to-none.csv"))
    tool("summarize.py", *common, "--over", "seed", "--relative-to", "placement=k8s-load-balancing",
         "--where", "placement=k8s-bin-packing", "--metrics", "avg_jct,p99_jct,makespan",
         "--csv", out("bin-packing-over-load-balancing.csv"))
    for load in LOADS:
        tool("plot.py", "metric", *common, "--where", f"load={load}", "--x", "nic-bandwidth",
             "--metric", "avg_jct", "--by", "contention", "--row", "placement", "--col", "servers",
             "--logx", "--title", f"avg JCT, {load} load: mean and 95% CI over 30 trace seeds",
             "--out", out(f"avg-jct-{load}.png"))
        tool("plot.py", "metric", *common, "--where", f"load={load}", "--relative-to", "contention=none",
             "--x", "nic-bandwidth", "--metric", "avg_jct", "--by", "contention", "--row", "placement",
             "--col", "servers", "--logx", "--sharey", "--title",
             f"avg JCT relative to no contention (same seed), {load} load: mean and 95% CI over 30 seeds",
             "--out", out(f"avg-jct-relative-{load}.png"))
    tool("plot.py", "metric", *common, "--relative-to", "placement=k8s-load-balancing",
         "--where", "placement=k8s-bin-packing", "--x", "nic-bandwidth", "--metric", "avg_jct",
         "--by", "contention", "--row", "load", "--col", "servers", "--logx", "--sharey", "--title",
         "avg JCT of bin packing / load balancing (same seed): mean and 95% CI over 30 seeds",
         "--out", out("bin-packing-over-load-balancing.png"))
    tool("plot.py", "cdf", f"16 servers={files[1]}", "--by", "contention", "--where", "nic-bandwidth=1 Gbps",
         "--where", "placement=k8s-load-balancing", "--where", "arrival-rate=0.00632", "--logx", "--title",
         "16 servers, 1 Gbps, load balancing, high load: JCTs of 30 seeds pooled",
         "--out", out("jct-cdf-16-servers-1gbps.png"))
    write_tables(args)


def _read(path: str) -> list[dict]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def _ci(r: dict, digits: int = 2) -> str:
    return f"{float(r['mean']):.{digits}f} [{float(r['ci_low']):.{digits}f}, {float(r['ci_high']):.{digits}f}]"


def write_tables(args) -> None:
    """Markdown tables for the README from the summaries."""
    rel = [r for r in _read(os.path.join(args.out, "relative-to-none.csv")) if r["metric"] == "avg_jct"]
    bw = list(dict.fromkeys(r["nic-bandwidth"] for r in rel))
    md = ["### avg JCT of `mosim` relative to `none` (same seed), mean [95% CI] over 30 seeds", "",
          "| servers | load | placement | " + " | ".join(bw) + " |", "|---|---|---|" + "---|" * len(bw)]
    for servers in CLUSTERS:
        for load in LOADS:
            for placement in ("k8s-bin-packing", "k8s-load-balancing"):
                cells = {r["nic-bandwidth"]: _ci(r) for r in rel if r["servers"] == str(servers)
                         and r["load"] == load and r["placement"] == placement and r["contention"] == "mosim"}
                md.append(f"| {servers} | {load} | {placement.removeprefix('k8s-')} | "
                          + " | ".join(cells[b] for b in bw) + " |")
    fixed = [r for r in rel if r["contention"] == "fixed"]
    md += ["", f"`fixed` (0.10 on network time) against `none`: {min(float(r['mean']) for r in fixed):.3f} to "
           f"{max(float(r['mean']) for r in fixed):.3f} over all {len(fixed)} cells.", ""]
    bp = [r for r in _read(os.path.join(args.out, "bin-packing-over-load-balancing.csv")) if r["metric"] == "avg_jct"]
    md += ["### avg JCT of bin packing / load balancing (same seed and model), mean [95% CI]", "",
           "| servers | load | model | " + " | ".join(bw) + " |", "|---|---|---|" + "---|" * len(bw)]
    for servers in CLUSTERS:
        for load in LOADS:
            for contention in ("none", "fixed", "mosim"):
                cells = {r["nic-bandwidth"]: _ci(r) for r in bp if r["servers"] == str(servers)
                         and r["load"] == load and r["contention"] == contention}
                md.append(f"| {servers} | {load} | {contention} | " + " | ".join(cells[b] for b in bw) + " |")
    absolute = [r for r in _read(os.path.join(args.out, "summary.csv")) if r["metric"] == "avg_jct"]
    md += ["", "### avg JCT (s) at 1 and 400 Gbps, mean [95% CI]", "",
           "| servers | load | placement | none | mosim 1 Gbps | mosim 400 Gbps |", "|---|---|---|---|---|---|"]
    for servers in CLUSTERS:
        for load in LOADS:
            for placement in ("k8s-bin-packing", "k8s-load-balancing"):
                sel = {(r["contention"], r["nic-bandwidth"]): r for r in absolute if r["servers"] == str(servers)
                       and r["load"] == load and r["placement"] == placement}
                md.append(f"| {servers} | {load} | {placement.removeprefix('k8s-')} | "
                          + " | ".join(_ci(sel[k], 0) for k in (("none", "1 Gbps"), ("mosim", "1 Gbps"),
                                                                 ("mosim", "400 Gbps"))) + " |")
    timing = json.load(open(os.path.join(args.out, "timing.json")))
    md += ["", "### Wall time", "", "| sweep | points | wall time | ranks x threads |", "|---|---|---|---|"]
    for name, t in timing.items():
        md.append(f"| {name} | 2,160 | {t['wall_seconds']:.0f} s | {t['ranks']} x {t['threads']} |")
    cost = {}
    for r in _read(os.path.join(args.out, "summary.csv")):
        if r["metric"] == "wall_seconds":
            key = (r["servers"], r["contention"])
            cost[key] = cost.get(key, 0) + float(r["mean"]) * int(r["n"])
    md += ["", "Simulation CPU time per cluster size and model (sum of the points' own times): " + "; ".join(
        f"{s} servers: " + ", ".join(f"{c} {cost[(str(s), c)]:.0f} s" for c in ("none", "fixed", "mosim"))
        for s in CLUSTERS) + "."]
    with open(os.path.join(args.out, "tables.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mosim", default=os.path.join(ROOT, "build", "mosim"))
    parser.add_argument("--np", type=int, default=2, help="MPI ranks")
    parser.add_argument("--threads", type=int, default=1, help="OpenMP threads per rank")
    parser.add_argument("--out", default=os.path.join(HERE, "results"))
    parser.add_argument("--only", choices=["sweep", "analyse"])
    parser.add_argument("--force", action="store_true", help="run the sweeps again")
    parser.add_argument("--derive-rates", action="store_true")
    args = parser.parse_args()
    args.mosim = os.path.abspath(args.mosim)
    if args.derive_rates:
        derive_rates(args.mosim)
        return 0
    os.makedirs(args.out, exist_ok=True)
    if args.only != "analyse":
        run_sweeps(args)
    if args.only != "sweep":
        analyse(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
