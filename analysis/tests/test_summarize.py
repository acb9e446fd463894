"""summarize.py end to end: hand-built files with hand-worked intervals, and a real sweep."""
import csv

import numpy as np
import pytest

from conftest import run_process, run_script, write_sweep_file
from mosim_results import load_sweep


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture
def hand_file(tmp_path):
    """Axes seed (6 values) x placement (2). avg_jct: 1, 2, 3, 4, 5 over seeds 1-5 on bin packing
    and 10, 20, 30, 40, 50 on load balancing; seed 6 failed on bin packing (NaN) and has no job
    placed on load balancing."""
    coords, jct, status = [], [], []
    for s in range(6):
        for p in range(2):
            coords.append([s, p])
            jct.append(np.nan if s == 5 else (s + 1) * (1 if p == 0 else 10))
            status.append(0 if s < 5 else (2 if p == 0 else 1))
    return write_sweep_file(
        tmp_path / "hand.h5",
        [("seed", [str(s) for s in range(1, 7)], list(range(1, 7)), ""),
         ("placement", ["k8s-bin-packing", "k8s-load-balancing"], None, "")],
        coords, {"avg_jct": jct, "makespan": [2 * x for x in jct]}, status)


def test_student_t_interval_by_hand(hand_file, tmp_path):
    out = tmp_path / "s.csv"
    done = run_script("summarize.py", hand_file, "--over", "seed", "--csv", out)
    assert done.returncode == 0, done.stderr
    rows = {(r["placement"], r["metric"]): r for r in read_csv(out)}
    # 1, 2, 3, 4, 5: mean 3, s = 1.5811, t(0.975, 4) = 2.7764, half-width 2.7764 * 1.5811 / sqrt(5)
    # = 1.9632 -> [1.0368, 4.9632]. The failed sixth point is excluded and counted.
    bp = rows[("k8s-bin-packing", "avg_jct")]
    assert int(bp["n"]) == 5 and int(bp["excluded"]) == 1
    assert float(bp["mean"]) == pytest.approx(3)
    assert float(bp["std"]) == pytest.approx(1.5811, abs=1e-4)
    assert float(bp["half_width"]) == pytest.approx(1.9632, abs=1e-4)
    assert (float(bp["ci_low"]), float(bp["ci_high"])) == pytest.approx((1.0368, 4.9632), abs=1e-4)
    assert bp["interval"] == "t" and float(bp["confidence"]) == 0.95
    # 10, 20, ..., 50: ten times the above; the point without a placed job is excluded too.
    lb = rows[("k8s-load-balancing", "avg_jct")]
    assert int(lb["excluded"]) == 1
    assert float(lb["half_width"]) == pytest.approx(19.632, abs=1e-3)
    assert float(rows[("k8s-bin-packing", "makespan")]["mean"]) == pytest.approx(6)
    assert "2 excluded, 1 no job placed, 1 failed" in done.stdout
    # The printed table has the same numbers.
    assert "[1.037, 4.963]" in done.stdout


def test_other_confidence_and_bootstrap(hand_file, tmp_path):
    out = tmp_path / "s.csv"
    # 90%: t(0.95, 4) = 2.1318; half-width 2.1318 * 1.5811 / sqrt(5) = 1.5075.
    assert run_script("summarize.py", hand_file, "--confidence", "0.9", "--metrics", "avg_jct",
                      "--csv", out).returncode == 0
    bp = [r for r in read_csv(out) if r["placement"] == "k8s-bin-packing"][0]
    assert float(bp["half_width"]) == pytest.approx(1.5075, abs=1e-4)
    assert {r["metric"] for r in read_csv(out)} == {"avg_jct"}
    # Bootstrap: percentile interval of the resampled means, reproducible (fixed seed); for
    # 1..5 about 3 -+ 1.96 * sqrt(2 / 5) = [1.76, 4.24].
    assert run_script("summarize.py", hand_file, "--bootstrap", "4000", "--metrics", "avg_jct",
                      "--csv", out).returncode == 0
    first = read_csv(out)
    bp = [r for r in first if r["placement"] == "k8s-bin-packing"][0]
    assert bp["interval"] == "bootstrap 4000"
    assert (float(bp["ci_low"]), float(bp["ci_high"])) == pytest.approx((1.76, 4.24), abs=0.15)
    assert run_script("summarize.py", hand_file, "--bootstrap", "4000", "--metrics", "avg_jct",
                      "--csv", out).returncode == 0
    assert read_csv(out) == first


def test_over_several_axes(hand_file, tmp_path):
    out = tmp_path / "s.csv"
    assert run_script("summarize.py", hand_file, "--over", "seed,placement", "--metrics", "avg_jct",
                      "--csv", out).returncode == 0
    (row,) = read_csv(out)
    # 1..5 and 10..50 pooled: mean 16.5, 2 points excluded.
    assert int(row["n"]) == 10 and int(row["excluded"]) == 2
    assert float(row["mean"]) == pytest.approx(16.5)


def test_command_line(hand_file):
    done = run_process("summarize.py", hand_file, "--metrics", "avg_jct")
    assert done.returncode == 0 and "[1.037, 4.963]" in done.stdout


def test_errors(hand_file):
    done = run_script("summarize.py", hand_file, "--over", "speed")
    assert done.returncode == 2 and "no axis 'speed'" in done.stderr
    done = run_script("summarize.py", hand_file, "--metrics", "avg_speed")
    assert done.returncode == 2 and "no metric avg_speed" in done.stderr
    done = run_script("summarize.py", hand_file, "--where", "placement=spread")
    assert done.returncode == 2 and "no value 'spread'" in done.stderr


def test_real_sweep(sweep_file, tmp_path):
    out = tmp_path / "s.csv"
    done = run_script("summarize.py", sweep_file, "--over", "seed", "--csv", out)
    assert done.returncode == 0, done.stderr
    assert "12 excluded, 6 no job placed, 6 failed" in done.stdout
    assert "must be positive" in done.stdout       # the failure's message is shown
    rows = read_csv(out)
    r = load_sweep(str(sweep_file))
    for row in rows:
        if row["trace"] != "synthetic":
            assert int(row["n"]) == 0 and int(row["excluded"]) == 3
            continue
        assert int(row["n"]) == 3 and int(row["excluded"]) == 0
        values = r.where({"trace": ["synthetic"], "contention": [row["contention"]]}).metrics[row["metric"]]
        assert float(row["mean"]) == pytest.approx(np.mean(values), rel=1e-12)
        # 3 values: t(0.975, 2) = 4.3027
        assert float(row["half_width"]) == pytest.approx(4.3027 * np.std(values, ddof=1) / np.sqrt(3), rel=1e-4)
    assert {row["metric"] for row in rows} >= {"avg_jct", "p99_jct", "makespan", "jobs", "wall_seconds"}


def test_relative_to_pairs_points(tmp_path):
    """contention (none, mosim) x seed (1, 2, 3): avg_jct none 100, 200, 400; mosim 150, 220, 400
    -> ratios 1.5, 1.1, 1.0: mean 1.2, s = sqrt(((0.3)^2 + (0.1)^2 + (0.2)^2) / 2) = 0.26458.
    On seed 3 the reference (none) failed in the second file: that ratio is NaN, excluded."""
    def write(name, status):
        return write_sweep_file(
            tmp_path / name, [("contention", ["none", "mosim"], None, ""), ("seed", ["1", "2", "3"], [1, 2, 3], "")],
            [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2]],
            {"avg_jct": [100, 200, 400, 150, 220, 400]}, status)
    out = tmp_path / "s.csv"
    assert run_script("summarize.py", write("a.h5", None), "--relative-to", "contention=none",
                      "--csv", out).returncode == 0
    mosim = [r for r in read_csv(out) if r["contention"] == "mosim"][0]
    assert float(mosim["mean"]) == pytest.approx(1.2)
    assert float(mosim["std"]) == pytest.approx(0.26458, abs=1e-5)
    none = [r for r in read_csv(out) if r["contention"] == "none"][0]
    assert float(none["mean"]) == 1 and float(none["std"]) == 0
    failed = write("b.h5", [0, 0, 2, 0, 0, 0])
    assert run_script("summarize.py", failed, "--relative-to", "contention=none", "--csv", out).returncode == 0
    mosim = [r for r in read_csv(out) if r["contention"] == "mosim"][0]
    assert int(mosim["n"]) == 2 and int(mosim["excluded"]) == 1
    assert float(mosim["mean"]) == pytest.approx(1.3)          # (1.5 + 1.1) / 2
    done = run_script("summarize.py", failed, "--relative-to", "contention=paper")
    assert done.returncode == 2 and "no value 'paper'" in done.stderr
