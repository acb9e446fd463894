"""plot.py: the numbers behind each plot, and that each mode writes a PNG."""
import numpy as np
import pytest

from conftest import run_script, write_sweep_file
from mosim_results import load_sweep
from plot import cdf_samples, metric_series, read_matrix

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def bandwidth_file(tmp_path):
    """nic-bandwidth (1, 25 Gbps) x contention (none, mosim) x seed (1, 2, 3) x placement (one
    value). avg_jct = base + seed, base 100 (1 Gbps, none), 300 (1 Gbps, mosim), 100 (25 Gbps)."""
    base = {(0, 0): 100, (0, 1): 300, (1, 0): 100, (1, 1): 100}
    coords, jct = [], []
    for b in range(2):
        for c in range(2):
            for s in range(3):
                coords.append([b, c, s, 0])
                jct.append(base[(b, c)] + s + 1)
    return write_sweep_file(
        tmp_path / "bw.h5",
        [("nic-bandwidth", ["1 Gbps", "25 Gbps"], [125e6, 3.125e9], "B/s"),
         ("contention", ["none", "mosim"], None, ""), ("seed", ["1", "2", "3"], [1, 2, 3], ""),
         ("placement", ["k8s-bin-packing"], None, "")],
        coords, {"avg_jct": jct})


def test_metric_series_by_hand(bandwidth_file):
    series = metric_series(load_sweep(str(bandwidth_file)), "avg_jct", "nic-bandwidth", "contention")
    x, mean, low, high = series[(None, None, "mosim")]
    assert list(x) == [1, 25]                      # B/s shown in Gbps
    assert list(mean) == [302, 102]                # 300 + (1 + 2 + 3) / 3, 100 + 2
    # 1, 2, 3 around the mean: s = 1, t(0.975, 2) = 4.3027, half-width 4.3027 / sqrt(3) = 2.4841.
    assert high - mean == pytest.approx([2.4841, 2.4841], abs=1e-4)
    assert mean - low == pytest.approx([2.4841, 2.4841], abs=1e-4)
    assert list(series[(None, None, "none")][1]) == [102, 102]


def test_metric_png_and_errors(bandwidth_file, tmp_path):
    out = tmp_path / "m.png"
    done = run_script("plot.py", "metric", bandwidth_file, "--x", "nic-bandwidth", "--metric", "avg_jct",
                      "--by", "contention", "--logx", "--out", out)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes()[:8] == PNG
    # contention must be fixed, averaged over, or be --by/--row/--col.
    done = run_script("plot.py", "metric", bandwidth_file, "--x", "nic-bandwidth", "--metric", "avg_jct",
                      "--by", "placement", "--out", out)
    assert done.returncode == 2 and "contention (mosim, none)" in done.stderr
    done = run_script("plot.py", "metric", bandwidth_file, "--x", "nic-bandwidth", "--metric", "avg_jct",
                      "--by", "placement", "--where", "contention=mosim", "--out", out)
    assert done.returncode == 0, done.stderr


def test_metric_panels_on_a_real_sweep(sweep_file, tmp_path):
    out = tmp_path / "p.png"
    done = run_script("plot.py", "metric", sweep_file, "--x", "contention", "--metric", "p99_jct",
                       "--by", "trace", "--col", "seed", "--over", "", "--out", out)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes()[:8] == PNG
    series = metric_series(load_sweep(str(sweep_file)), "p99_jct", "contention", "trace", col="seed", over=[])
    # One point per panel and line: the mean is the value itself, without an interval.
    r = load_sweep(str(sweep_file)).where({"seed": ["2"], "trace": ["synthetic"]})
    x, mean, low, _ = series[(None, "2", "synthetic")]
    assert list(x) == [0, 1] and list(mean) == list(r.metrics["p99_jct"]) and np.isnan(low).all()


def test_cdf_samples(sweep_file, tmp_path):
    r = load_sweep(str(sweep_file)).where({"trace": ["synthetic"]})
    curves = cdf_samples([f"sweep={sweep_file}"], "contention", {"trace": ["synthetic"]}, "jct")
    assert [label for label, _ in curves] == ["sweep contention=none", "sweep contention=fixed"]
    # Pooled over the three seeds: every completed job of those points.
    for (label, values), contention in zip(curves, ["none", "fixed"]):
        assert len(values) == r.where({"contention": [contention]}).metrics["jobs"].sum()
    (label, values), = cdf_samples([f"one={sweep_file}#trace=synthetic,seed=1,contention=fixed"], None, {}, "jct")
    one = r.where({"seed": ["1"], "contention": ["fixed"]})
    assert label == "one" and sorted(values) == sorted(one.job_table(0).done().jct)
    out = tmp_path / "c.png"
    done = run_script("plot.py", "cdf", f"all={sweep_file}", "--where", "trace=synthetic", "--logx", "--out", out)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes()[:8] == PNG


def test_cdf_of_csv_sources(tmp_path):
    (tmp_path / "jobs.csv").write_text(
        "job_id,submit,start,end,wait,training,jct,status\n0,0,0,10,0,10,10,completed\n"
        "1,0,10,30,10,20,30,completed\n2,0,,,,,,unplaceable\n")
    (label, values), = cdf_samples([f"run={tmp_path}"], None, {}, "wait")
    assert label == "run" and sorted(values) == [0, 10]     # the unplaceable job is left out
    out = tmp_path / "c.png"
    assert run_script("plot.py", "cdf", tmp_path / "jobs.csv", "--out", out).returncode == 0


def test_heatmap(tmp_path):
    path = tmp_path / "f.csv"
    path.write_text("measured,corunner,model,factor\n"
                    "a,a,mosim,1.5\na,b,mosim,2.0\nb,a,mosim,1.0\nb,b,mosim,1.25\n"
                    "a,a,paper,9\n")
    rows, cols, m = read_matrix(str(path), "measured", "corunner", "factor", {"model": ["mosim"]}, None)
    assert rows == ["a", "b"] and cols == ["a", "b"]
    assert m.tolist() == [[1.5, 2.0], [1.0, 1.25]]
    rows, _, m = read_matrix(str(path), "measured", "corunner", "factor", {"model": ["mosim"]}, ["b", "a"])
    assert rows == ["b", "a"] and m.tolist() == [[1.25, 1.0], [2.0, 1.5]]
    with pytest.raises(ValueError, match="two rows for measured=a, corunner=a"):
        read_matrix(str(path), "measured", "corunner", "factor", {}, None)
    out = tmp_path / "h.png"
    done = run_script("plot.py", "heatmap", path, "--row", "measured", "--col", "corunner", "--value", "factor",
                      "--where", "model=mosim", "--vmin", "1", "--out", out)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes()[:8] == PNG
