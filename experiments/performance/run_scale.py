#!/usr/bin/env python3
"""Scale benchmark: wall time, events, events per second and peak memory of `mosim run` per
contention model and input, each run in its own process (so peak memory is the run's own).

Inputs: the artifact's 32gpu trace (4 x 8 GPUs, ASTRA-sim profiles), the Philly-derived Muri
traces (Tiresias format, models attached from the default pool) on 256 GPUs, and Philly-like
synthetic traces (`mosim trace generate`) of 1,000 to 100,000 jobs on 256 and 2,048 GPUs, with the
arrival rate set for about 70% GPU load. Models: none, fixed, paper, mosim exact, mosim fast
(--fast-forward 0.01) and mosim fast with groups of more than 16 jobs in local mode
(--fast-forward-group 16). Runs longer than --timeout are recorded as such.

Writes results.json and scaling.png next to this script, and prints the table (markdown).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = {"none": ["--contention", "none"], "fixed": ["--contention", "fixed"],
          "paper": ["--contention", "paper"], "mosim exact": ["--contention", "mosim"],
          "mosim fast": ["--contention", "mosim", "--fast-forward", "0.01"],
          "mosim fast, group 16": ["--contention", "mosim", "--fast-forward", "0.01",
                                   "--fast-forward-group", "16"]}
# Philly-like jobs use about 69,000 GPU-seconds on average (mean run time ~14,900 s x ~4.6 GPUs).
GPU_SECONDS_PER_JOB = 69000.0
LOAD = 0.7


def run_measured(mosim, args, timeout_s):
    """One `mosim run` in its own process: its summary, and its peak resident memory (from wait4)."""
    with tempfile.TemporaryDirectory() as out:
        start = time.monotonic()
        process = subprocess.Popen([mosim, "run", "--quiet", "--out", out] + args,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = start + timeout_s
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                process.kill()
                os.wait4(process.pid, 0)
                return {"timeout": timeout_s}
            time.sleep(0.02)
        elapsed = time.monotonic() - start
        if os.waitstatus_to_exitcode(status) != 0:
            raise RuntimeError(f"mosim run {' '.join(args)} failed (status {status})")
        with open(os.path.join(out, "summary.json")) as f:
            summary = json.load(f)
    return {"wall_s": summary["wall_seconds"], "process_s": elapsed, "events": summary["events"],
            "peak_MiB": usage.ru_maxrss / 1024, "jobs": summary["jobs"] + summary["skipped"]}


def inputs(mosim, artifact, work, quick):
    """(name, jobs, gpus, mosim run arguments) for every input."""
    cases = []
    if os.path.isdir(artifact):
        single = os.path.join(artifact, "single_job_simulation")
        cases.append(("artifact 32gpu", 60, 32, [
            "--trace", os.path.join(artifact, "trace", "testbed-trace-32gpu.csv"),
            "--iteration-profile", os.path.join(single, "itertime_simulated-ar-v100-8gpu-ar-loading-time.csv"),
            "--network-profile", os.path.join(single, "network_chakra_ar_v100_8gpu_network_summary.csv"),
            "--network-units", "MB/s", "--placement", "k8s-bin-packing"]))
    muri = os.path.join(os.path.dirname(artifact.rstrip("/")), "muri-philly-traces")
    if os.path.isdir(muri) and not quick:
        for name in ("trace1", "trace2", "trace3", "trace4"):
            path = os.path.join(muri, name + ".csv")
            with open(path) as f:
                jobs = sum(1 for _ in f) - 1
            cases.append((f"Muri {name}", jobs, 256, [
                "--trace", path, "--pool", "default", "--augment", "all", "--servers", "32",
                "--placement", "k8s-bin-packing"]))
    sizes = [(1000, 256), (10000, 256)] if quick else [
        (1000, 256), (10000, 256), (1000, 2048), (10000, 2048), (100000, 2048)]
    for jobs, gpus in sizes:
        rate = LOAD * gpus / GPU_SECONDS_PER_JOB
        trace = os.path.join(work, f"synthetic-{jobs}-{gpus}.csv")
        subprocess.run([mosim, "trace", "generate", "--jobs", str(jobs), "--rate", f"{rate:.6g}",
                        "--seed", "1", "--max-gpus", str(gpus), "--out", trace, "--quiet"], check=True)
        cases.append((f"synthetic {jobs:,} jobs, {gpus:,} GPUs", jobs, gpus, [
            "--trace", trace, "--servers", str(gpus // 8), "--placement", "k8s-bin-packing"]))
    return cases


def plot(results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    colours = dict(zip(MODELS, plt.rcParams["axes.prop_cycle"].by_key()["color"]))
    for ax, gpus in zip(axes, (256, 2048)):
        for model in MODELS:
            points = sorted((r["jobs"], r["wall_s"]) for r in results
                            if r["model"] == model and r["gpus"] == gpus and "wall_s" in r
                            and r["input"].startswith("synthetic"))
            if points:
                ax.plot(*zip(*points), marker="o", label=model, color=colours[model])
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("jobs (Philly-like synthetic trace)")
        ax.set_title(f"{gpus:,} GPUs, bin packing, ~70% load")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("simulation wall time (s), one core")
    for ax in axes:
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def table(results):
    lines = ["| input | model | wall time | events | events/s | peak memory |",
             "|---|---|---|---|---|---|"]
    for r in results:
        if r.get("skipped"):
            lines.append(f"| {r['input']} | {r['model']} | not run (hours) | | | |")
            continue
        if "timeout" in r:
            lines.append(f"| {r['input']} | {r['model']} | > {r['timeout']:.0f} s (stopped) | | | |")
            continue
        rate = r["events"] / r["wall_s"] if r["wall_s"] > 0 else float("nan")
        lines.append(f"| {r['input']} | {r['model']} | {r['wall_s']:.3f} s | {r['events']:,} | "
                     f"{rate / 1e6:.2f} M | {r['peak_MiB']:.0f} MiB |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mosim", default="build/mosim")
    parser.add_argument("--artifact", default=os.path.join(HERE, "..", "..", "..", "shared", "data",
                                                           "mosim-artifact"))
    parser.add_argument("--timeout", type=float, default=300, help="seconds allowed per run")
    parser.add_argument("--quick", action="store_true", help="small inputs only")
    parser.add_argument("--table-only", action="store_true",
                        help="print the table and redraw the plot from results.json, run nothing")
    args = parser.parse_args()
    if args.table_only:
        with open(os.path.join(HERE, "results.json")) as f:
            results = json.load(f)
        plot(results, os.path.join(HERE, "scaling.png"))
        print(table(results))
        return 0

    results = []
    with tempfile.TemporaryDirectory() as work:
        for name, jobs, gpus, run_args in inputs(args.mosim, os.path.abspath(args.artifact), work, args.quick):
            for model, model_args in MODELS.items():
                # The exact phase-level model is out of reach beyond about a thousand long jobs.
                if model == "mosim exact" and not (name.startswith("artifact") or
                                                   name == "synthetic 1,000 jobs, 256 GPUs"):
                    results.append({"input": name, "model": model, "jobs": jobs, "gpus": gpus,
                                    "timeout": args.timeout, "skipped": True})
                    continue
                result = run_measured(args.mosim, run_args + model_args, args.timeout)
                result.update({"input": name, "model": model, "jobs": jobs, "gpus": gpus})
                results.append(result)
                print(f"{name:36s} {model:12s} " + (f"{result['wall_s']:9.3f} s {result['events']:>12,} events"
                      if "wall_s" in result else "timeout"), file=sys.stderr, flush=True)
    with open(os.path.join(HERE, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    plot(results, os.path.join(HERE, "scaling.png"))
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
