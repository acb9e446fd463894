#!/usr/bin/env python3
"""Pairwise NIC contention (paper §III-C, §V-C): how much a co-running job slows a measured job.

    run.py [DATA] [--mosim build/mosim] [--out DIR] [--jobs 2]

Two 8-GPU jobs on 2 servers x 8 GPUs, each split 4 + 4 across the servers, so that their
inter-server traffic shares both NICs. For every ordered pair (measured A, co-runner B) of the
paper's 12 models, the contention factor of A is its mean iteration time co-running with B over
its mean iteration time alone in the same placement:

    factor(A, B) = [(compute + comm) / iterations of A with B] / [the same of A alone]

from the jobs.csv of two `mosim run`s: a trace with B submitted at 0 (20,000 s alone) and A at
600 s (1,000 s alone), and a trace with A alone at 600 s. Placement k8s-load-balancing: the
round-robin over the two empty servers gives B 4 + 4, then A the other 4 + 4 (checked in each
jobs.csv). B is long enough to outlive A (checked), so A co-runs with B from its first to its
last iteration; A starts after B's loading, so B is training throughout.

Profiles: `characterized` (mosim's default GPU-free characterization, --profile auto, on the
artifact's 463 MB/s NIC), and with DATA (../shared/data/mosim-artifact) the artifact's
`astrasim` (ASTRA-sim) and `real-gpu` (profiling/) tables, with experiments/paper/reproduce.py's
options. Models: mosim (phase-level, the paper's MoSim) and paper (Eq. 2-10, job-level).
Writes OUT/factors.csv (profile, contention, measured, corunner, solo and co-running iteration
times, factor), OUT/summary.md and one heatmap per profile and model (analysis/plot.py).
"""
from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "experiments", "paper"))
from reproduce import profile_args  # noqa: E402

MODELS = ["alexnet", "resnet44", "resnet110", "densenet40_k12", "densenet100_k12", "resnet50", "vgg16",
          "googlenet", "inception3", "bert", "gpt2", "whisper"]
CONTENTION = ["mosim", "paper"]
B_SUBMIT, B_DURATION = 0, 20000     # the co-runner: first, and long
A_SUBMIT, A_DURATION = 600, 1000    # the measured job: after B's loading (at most ~250 s)
PAPER_AVERAGE, PAPER_MAX = 1.33, 2.14


def profiles(data: str | None) -> dict[str, list[str]]:
    out = {"characterized": ["--profile", "auto"]}
    if data:
        out["astrasim"] = profile_args(data, "astrasim")
        out["real-gpu"] = profile_args(data, "profiling")
    return out


def iteration_time(folder: str, job_id: int) -> tuple[float, dict]:
    """A job's mean iteration time from jobs.csv, and its row."""
    with open(os.path.join(folder, "jobs.csv"), newline="") as f:
        row = next(r for r in csv.DictReader(f) if int(r["job_id"]) == job_id)
    return (float(row["compute"]) + float(row["comm"])) / float(row["iterations"]), row


def split_4_4(row: dict) -> bool:
    servers = row["servers"].split("|")
    return len(servers) == 8 and servers.count("0") == 4 and servers.count("1") == 4


def simulate(mosim: str, work: str, name: str, jobs: list[tuple[str, int, int]], options: list[str]) -> str:
    folder = os.path.join(work, name)
    os.makedirs(folder, exist_ok=True)
    trace = os.path.join(folder, "trace.csv")
    with open(trace, "w") as f:
        f.write("job_id,submit_time,num_gpus,duration,model\n")
        for i, (model, submit, duration) in enumerate(jobs):
            f.write(f"{i},{submit},8,{duration},{model}\n")
    subprocess.run([mosim, "run", "--quiet", "--trace", trace, "--servers", "2", "--gpus-per-server", "8",
                    "--placement", "k8s-load-balancing", "--out", folder] + options,
                   check=True, capture_output=True)
    return folder


def measure(mosim: str, work: str, profile: str, options: list[str], contention: str) -> list[dict]:
    opts = options + ["--contention", contention]
    tag = f"{profile}-{contention}"
    solo = {}
    for a in MODELS:
        folder = simulate(mosim, work, f"{tag}-solo-{a}", [(a, A_SUBMIT, A_DURATION)], opts)
        solo[a], row = iteration_time(folder, 0)
        assert split_4_4(row), f"{tag} solo {a}: placed {row['servers']}, not 4 + 4"
    rows = []
    for a in MODELS:
        for b in MODELS:
            folder = simulate(mosim, work, f"{tag}-{a}-with-{b}",
                              [(b, B_SUBMIT, B_DURATION), (a, A_SUBMIT, A_DURATION)], opts)
            pair, row_a = iteration_time(folder, 1)
            _, row_b = iteration_time(folder, 0)
            assert split_4_4(row_a) and split_4_4(row_b), f"{tag} {a} with {b}: not 4 + 4 each"
            assert float(row_b["end"]) > float(row_a["end"]), f"{tag} {a} with {b}: B ends first"
            assert float(row_b["start"]) + float(row_b["loading"]) <= float(row_a["start"]), \
                f"{tag} {a} with {b}: B still loading when A starts"
            rows.append({"profile": profile, "contention": contention, "measured": a, "corunner": b,
                         "solo_iteration_s": solo[a], "pair_iteration_s": pair, "factor": pair / solo[a]})
    return rows


def summary_table(rows: list[dict]) -> str:
    lines = ["| profiles | model | mean factor | median | max factor (measured, co-runner) | pairs above 1.05 |",
             "|---|---|---|---|---|---|"]
    for profile in dict.fromkeys(r["profile"] for r in rows):
        for contention in CONTENTION:
            sel = [r for r in rows if r["profile"] == profile and r["contention"] == contention]
            if not sel:
                continue
            f = sorted(r["factor"] for r in sel)
            top = max(sel, key=lambda r: r["factor"])
            median = (f[len(f) // 2 - 1] + f[len(f) // 2]) / 2 if len(f) % 2 == 0 else f[len(f) // 2]
            lines.append(f"| {profile} | {contention} | {sum(f) / len(f):.2f} | {median:.2f} | {top['factor']:.2f} "
                         f"({top['measured']}, {top['corunner']}) | {sum(x > 1.05 for x in f)}/{len(f)} |")
    return "\n".join(lines)


def range_table(rows: list[dict], contention: str) -> str:
    """Per measured model, min-max of its 12 factors (the whiskers of the paper's Fig. 4a)."""
    profs = list(dict.fromkeys(r["profile"] for r in rows))
    lines = ["| measured | " + " | ".join(profs) + " |", "|---|" + "---|" * len(profs)]
    for a in MODELS:
        cells = []
        for p in profs:
            f = [r["factor"] for r in rows if r["profile"] == p and r["contention"] == contention
                 and r["measured"] == a]
            cells.append(f"{min(f):.2f}–{max(f):.2f} (mean {sum(f) / len(f):.2f})")
        lines.append(f"| {a} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("data", nargs="?", help="the artifact's data folder (for its profiles)")
    parser.add_argument("--mosim", default=os.path.join(ROOT, "build", "mosim"))
    parser.add_argument("--out", default=os.path.join(HERE, "results"))
    parser.add_argument("--jobs", type=int, default=2, help="simulations at a time")
    args = parser.parse_args()
    mosim = os.path.abspath(args.mosim)
    data = os.path.abspath(args.data) if args.data and os.path.isdir(args.data) else None
    if args.data and not data:
        print(f"note: {args.data} not found: only the characterized profiles")
    os.makedirs(args.out, exist_ok=True)

    start = time.time()
    cases = [(p, o, c) for p, o in profiles(data).items() for c in CONTENTION]
    with tempfile.TemporaryDirectory() as work, ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda case: measure(mosim, work, *case), cases))
    rows = [r for part in results for r in part]
    seconds = time.time() - start

    path = os.path.join(args.out, "factors.csv")
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows({k: (repr(v) if isinstance(v, float) else v) for k, v in r.items()} for r in rows)
    for profile, _, contention in cases:
        subprocess.run([sys.executable, os.path.join(ROOT, "analysis", "plot.py"), "heatmap", path,
                        "--row", "measured", "--col", "corunner", "--value", "factor",
                        "--where", f"profile={profile}", "--where", f"contention={contention}",
                        "--order", ",".join(MODELS), "--vmin", "1", "--title",
                        f"contention factor of the measured job: {profile} profiles, {contention} model",
                        "--out", os.path.join(args.out, f"heatmap-{profile}-{contention}.png")],
                       check=True, capture_output=True)
    text = "\n".join([
        f"{len(rows)} pairs ({len(cases)} profile x model combinations of 144) and "
        f"{len(cases) * len(MODELS)} solo runs in {seconds:.0f} s ({args.jobs} at a time).",
        f"Paper (measured on the testbed, §III-C): {PAPER_AVERAGE}x on average, up to {PAPER_MAX}x.", "",
        summary_table(rows), "", "Range of each measured job's factor over its 12 co-runners (mosim model):", "",
        range_table(rows, "mosim"), ""])
    print(text)
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
