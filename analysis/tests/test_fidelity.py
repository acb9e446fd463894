"""fidelity.py: the paper's Table II–IV metrics, cross-checked against `mosim compare --json`."""
import json
import math
import os
import subprocess

import pytest

from conftest import artifact_dir, run_process, run_script
from mosim_results import load_sweep, read_jobs
from mosim_stats import fidelity

TRUTH_32GPU = ("job_id,start_time_seconds,end_time_seconds,training_time,jcts,wait_times,arrival_times,"
               "training_time\n" + "".join(
                   f"id{i},{s},{e},{e - s},{e},{s},0,0\n"
                   for i, (s, e) in enumerate([(0, 700), (0, 1500), (200, 2600), (900, 4000), (1500, 2500),
                                               (2600, 9000), (3000, 3300), (3300, 12000), (4000, 4800),
                                               (4800, 30000), (5000, 7000), (7000, 7500)])))


def mosim_run(mosim, out, *options):
    subprocess.run([mosim, "run", "--quiet", "--out", str(out), *options], check=True,
                   capture_output=True)
    return out


def mosim_compare(mosim, truth, sim, placement=None):
    command = [mosim, "compare", "--json", "--truth", str(truth), "--sim", str(sim)]
    if placement:
        command += ["--placement", placement]
    return json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)


def assert_same(ours, theirs):
    assert set(ours) == set(theirs)
    for key, value in theirs.items():
        if isinstance(value, dict):
            for k, v in value.items():
                if v is None:   # JSON has no infinity: an APE against a zero truth prints as null
                    assert math.isinf(ours[key][k]), f"{key}.{k}"
                else:
                    assert ours[key][k] == pytest.approx(v, rel=1e-12, abs=1e-9), f"{key}.{k}"
        else:
            assert ours[key] == pytest.approx(value, rel=1e-12, abs=1e-12), key


@pytest.fixture(scope="module")
def runs(mosim, tmp_path_factory):
    """Three synthetic runs: 12 jobs (seed 1, no contention), 12 jobs (seed 2, fixed) and
    15 jobs (seed 3), on 2 x 8 GPUs."""
    folder = tmp_path_factory.mktemp("runs")
    common = ["--trace", "synthetic", "--servers", "2", "--gpus-per-server", "8"]
    return {
        "a": mosim_run(mosim, folder / "a", *common, "--jobs", "12", "--seed", "1", "--contention", "none"),
        "b": mosim_run(mosim, folder / "b", *common, "--jobs", "12", "--seed", "2", "--contention", "fixed"),
        "c": mosim_run(mosim, folder / "c", *common, "--jobs", "15", "--seed", "3", "--contention", "none"),
    }


def test_agrees_with_mosim_compare_equal_sizes(mosim, runs):
    """12 against 12 jobs: W1 on sorted samples."""
    ours = fidelity(read_jobs(str(runs["a"])), read_jobs(str(runs["b"] / "jobs.csv")))
    assert_same(ours, mosim_compare(mosim, runs["b"] / "jobs.csv", runs["a"]))
    assert ours["ks_jct"] > 0 and ours["avg_jct"]["ape"] > 0   # the runs do differ


def test_agrees_with_mosim_compare_other_sizes(mosim, runs):
    """15 against 12 jobs: W1 on a quantile grid of 15 points."""
    ours = fidelity(read_jobs(str(runs["c"])), read_jobs(str(runs["a"])))
    assert ours["jobs"] == {"simulated": 15, "truth": 12}
    assert_same(ours, mosim_compare(mosim, runs["a"] / "jobs.csv", runs["c"]))


def test_agrees_with_mosim_compare_on_a_32gpu_layout(mosim, runs, tmp_path):
    truth = tmp_path / "k8sbp.csv"
    truth.write_text(TRUTH_32GPU)
    done = run_script("fidelity.py", "--truth", truth, "--json", f"sim={runs['c']}")
    assert done.returncode == 0, done.stderr
    assert_same(json.loads(done.stdout)["sim"], mosim_compare(mosim, truth, runs["c"]))


def test_agrees_with_mosim_compare_on_the_artifact(mosim, tmp_path):
    data = artifact_dir()
    if data is None:
        pytest.skip("the artifact's data (../shared/data/mosim-artifact) is absent")
    sim = mosim_run(
        mosim, tmp_path / "sim", "--trace", f"{data}/trace/testbed-trace-16gpu.csv", "--servers", "2",
        "--placement", "k8s-load-balancing", "--contention", "none",
        "--iteration-profile", f"{data}/profiling/itertime_wshark-v100-8gpu-ar-loading-time.csv",
        "--network-profile", f"{data}/profiling/network_ar_v100_8gpu_network_summary.csv",
        "--network-units", "MiB/s", "--nic-bandwidth", "463 MiB/s")
    truth = f"{data}/testbed/16gpu/5sched_v4_allreduce_phy_perjobresult.csv"
    done = run_script("fidelity.py", "--truth", f"{truth}#k8s-load-balancing", "--json", f"tiresias={sim}")
    assert done.returncode == 0, done.stderr
    ours = json.loads(done.stdout)["tiresias"]
    assert_same(ours, mosim_compare(mosim, truth, sim, "k8s-load-balancing"))
    # Table II, Tiresias (mosim-reference.md §9.3): 58.71 73.64 67.19 47.51.
    assert [round(ours[m]["ape"], 2) for m in ("avg_training", "avg_jct", "p99_jct", "makespan")] == \
        [58.71, 73.64, 67.19, 47.51]
    done = run_script("fidelity.py", "--truth", f"{truth}#k8s-load-balancing", "--table", "2", f"Tiresias={sim}")
    assert done.stdout.splitlines()[1].split() == ["Tiresias", "58.71", "73.64", "67.19", "47.51"]


def test_sweep_points_as_simulations(sweep_file, runs):
    """Every ok point of a sweep file (after --where) is one row, labelled by the varying axes."""
    done = run_script("fidelity.py", "--truth", runs["a"], "--json", "--where", "trace=synthetic",
                      "--where", "seed=2", str(sweep_file))
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert list(rows) == ["contention=none", "contention=fixed"]
    r = load_sweep(str(sweep_file)).where({"trace": ["synthetic"], "seed": ["2"]})
    expected = fidelity(r.job_table(1), read_jobs(str(runs["a"])))
    assert rows["contention=fixed"]["p99_jct"]["ape"] == pytest.approx(expected["p99_jct"]["ape"])
    # The same points named in the source: LABEL=PATH#AXIS=V,AXIS=V.
    done = run_script("fidelity.py", "--truth", runs["a"], "--json",
                      f"fixed={sweep_file}#trace=synthetic,seed=2,contention=fixed")
    assert json.loads(done.stdout)["fixed"] == rows["contention=fixed"]


def test_tables_and_errors(runs, tmp_path):
    done = run_script("fidelity.py", "--truth", runs["a"], "--table", "4", f"B={runs['b']}", f"C={runs['c']}")
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["simulation", "KS", "W", "(s)"]
    assert [line.split()[0] for line in lines[1:]] == ["B", "C"]
    ks = fidelity(read_jobs(str(runs["b"])), read_jobs(str(runs["a"])))["ks_jct"]
    assert lines[1].split()[1] == f"{ks:.2f}"
    out = tmp_path / "f.csv"
    assert run_script("fidelity.py", "--truth", runs["a"], "--csv", out, str(runs["b"])).returncode == 0
    header, row = out.read_text().splitlines()
    assert header.startswith("simulation,avg_training_simulated,avg_training_truth,avg_training_ape")
    assert math.isclose(float(row.split(",")[-4]), ks)
    done = run_script("fidelity.py", "--truth", tmp_path / "missing.csv", str(runs["b"]))
    assert done.returncode == 2 and "missing.csv" in done.stderr


def test_command_line(runs):
    done = run_process("fidelity.py", "--truth", runs["a"], "--table", "3", str(runs["b"]))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0].split()[1:] == ["APE", "train", "APE", "JCT", "APE", "med", "APE",
                                                     "P99", "APE", "mkspan"]
    assert os.path.basename(str(runs["b"])) in done.stdout
