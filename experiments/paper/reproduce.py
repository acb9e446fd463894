#!/usr/bin/env python3
"""Reproduce the paper's simulations from the artifact's public data.

Runs the artifact's 48 configurations (mosim-reference.md §1): traces 32gpu (4 x 8 GPUs) and
16gpu (2 x 8), profiles `astrasim` (ASTRA-sim, MB/s) and `profiling` (real V100s, MiB/s),
models none / fixed (0.25) / fixed-10 (0.10) / mosim, placements colocate / k8s-bin-packing /
k8s-load-balancing. Prints every simulated aggregate and the paper's Table II (16gpu, load
balancing, Tiresias = profiling + none, Pollux = profiling + fixed-10, against the testbed).
Tables III and IV need the 32gpu testbed ground truth, which is held out of the public data;
give it with --truth32 DIR (k8sbp.csv, k8slb.csv) to print them too.

With --check, compares with mosim-reference.md §11 and §9.3 (expected.json) and exits non-zero
on any difference larger than the printed precision. Exits 77 (skipped) when the data is absent.

The artifact uses the numbers of its network files as they are and compares them with
--bandwidth 463; its real-GPU file is in MiB/s, so for that profile the NIC, intra-server and
MIN_BW figures are stated in MiB/s too (463 MiB/s etc.): the same numbers, the same arithmetic.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
METRICS = ["avg_training", "avg_jct", "median_jct", "p99_jct", "makespan"]
PLACEMENTS = ["colocate", "k8s-bin-packing", "k8s-load-balancing"]
MODELS = {"none": ["--contention", "none"],
          "fixed": ["--contention", "fixed", "--fixed-ratio", "0.25"],
          "fixed-10": ["--contention", "fixed", "--fixed-ratio", "0.10"],
          "mosim": ["--contention", "mosim"]}
TRACES = {"32gpu": 4, "16gpu": 2}
METHODS = {"Tiresias": ("profiling", "none"), "Pollux": ("profiling", "fixed-10"),
           "MoSim": ("astrasim", "mosim")}


def profile_args(data, profile):
    if profile == "astrasim":
        folder, files, unit = "single_job_simulation", (
            "itertime_simulated-ar-v100-8gpu-ar-loading-time.csv",
            "network_chakra_ar_v100_8gpu_network_summary.csv"), "MB/s"
    else:
        folder, files, unit = "profiling", (
            "itertime_wshark-v100-8gpu-ar-loading-time.csv",
            "network_ar_v100_8gpu_network_summary.csv"), "MiB/s"
    return ["--iteration-profile", os.path.join(data, folder, files[0]),
            "--network-profile", os.path.join(data, folder, files[1]),
            "--network-units", unit, "--nic-bandwidth", f"463 {unit}",
            "--intra-bandwidth", f"16384 {unit}", "--min-bandwidth", f"10 {unit}"]


def run(mosim, data, out, trace, profile, model, placement):
    folder = os.path.join(out, trace, profile, model, placement)
    subprocess.run([mosim, "run", "--quiet", "--out", folder,
                    "--trace", os.path.join(data, "trace", f"testbed-trace-{trace}.csv"),
                    "--servers", str(TRACES[trace]), "--gpus-per-server", "8",
                    "--placement", placement] + MODELS[model] + profile_args(data, profile),
                   check=True)
    with open(os.path.join(folder, "summary.json")) as f:
        return folder, json.load(f)


def compare(mosim, truth, sim_folder, placement=None):
    command = [mosim, "compare", "--json", "--truth", truth, "--sim", sim_folder]
    if placement:
        command += ["--placement", placement]
    return json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("data", help="the artifact's data folder (../shared/data/mosim-artifact)")
    parser.add_argument("--mosim", default="build/mosim", help="the mosim binary")
    parser.add_argument("--out", help="where to keep the runs (default: a temporary folder)")
    parser.add_argument("--truth32", help="folder with the 32gpu testbed files k8sbp.csv, k8slb.csv")
    parser.add_argument("--check", action="store_true", help="compare with expected.json")
    args = parser.parse_args()
    if not os.path.isdir(args.data):
        print(f"SKIP: artifact data not found at {args.data}")
        return 77

    out = args.out or tempfile.mkdtemp(prefix="mosim-paper-")
    runs = {}
    print(f"{'trace/profile/model/placement':45s}" + "".join(f"{m:>14s}" for m in METRICS))
    for trace in TRACES:
        for profile in ("profiling", "astrasim"):
            for model in MODELS:
                for placement in PLACEMENTS:
                    key = f"{trace}/{profile}/{model}/{placement}"
                    runs[key] = run(args.mosim, args.data, out, trace, profile, model, placement)
                    summary = runs[key][1]
                    print(f"{key:45s}" + "".join(f"{summary[m]:14.2f}" for m in METRICS))

    truth16 = os.path.join(args.data, "testbed", "16gpu", "5sched_v4_allreduce_phy_perjobresult.csv")
    table2 = {}
    print("\nTable II: 16gpu, k8s-load-balancing, APE (%) against the testbed")
    print(f"{'method':10s}{'avg train':>12s}{'avg JCT':>12s}{'P99 JCT':>12s}{'makespan':>12s}")
    for method in ("Tiresias", "Pollux"):
        profile, model = METHODS[method]
        result = compare(args.mosim, truth16, runs[f"16gpu/{profile}/{model}/k8s-load-balancing"][0],
                         "k8s-load-balancing")
        table2[method] = {m: result[m]["ape"] for m in ("avg_training", "avg_jct", "p99_jct", "makespan")}
        print(f"{method:10s}" + "".join(f"{v:12.2f}" for v in table2[method].values()))

    if args.truth32:
        print("\nTables III and IV: 32gpu, APE (%) of avg train, avg JCT, median, P99, makespan; KS, W (s)")
        for placement, file in (("k8s-bin-packing", "k8sbp.csv"), ("k8s-load-balancing", "k8slb.csv")):
            for method, (profile, model) in METHODS.items():
                r = compare(args.mosim, os.path.join(args.truth32, file),
                            runs[f"32gpu/{profile}/{model}/{placement}"][0])
                print(f"{placement:20s}{method:10s}" + "".join(f"{r[m]['ape']:9.2f}" for m in METRICS)
                      + f"{r['ks_jct']:8.2f}{r['wasserstein_jct']:8.0f}")
    else:
        print("\nTables III and IV need the 32gpu testbed ground truth (held out); see --truth32.")

    if not args.check:
        return 0
    with open(os.path.join(HERE, "expected.json")) as f:
        expected = json.load(f)
    failures = []
    for key, values in expected["aggregates"].items():
        summary = runs[key][1]
        for metric, want in zip(METRICS, values):
            # The reference prints 2 decimals: agree to half a unit of the last place, plus 1e-6.
            if abs(summary[metric] - want) > 0.005 + 1e-6 * abs(want):
                failures.append(f"{key} {metric}: {summary[metric]:.6f}, expected {want}")
    for method, values in expected["table2"].items():
        for metric, want in values.items():
            if abs(table2[method][metric] - want) > 0.005:
                failures.append(f"Table II {method} {metric}: {table2[method][metric]:.4f}, expected {want}")
    checked = sum(len(v) for v in expected["aggregates"].values()) + 8
    print(f"\ncheck: {checked - len(failures)}/{checked} reference values reproduced")
    for failure in failures:
        print("  MISMATCH", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
