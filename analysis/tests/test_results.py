"""mosim_results: reading sweep files (made by a real `mosim sweep`) and per-job CSVs."""
import h5py
import numpy as np
import pytest

from conftest import SPEC, sweep, write_sweep_file
from mosim_results import (STATUS_FAILED, STATUS_NO_JOB, STATUS_OK, group_rows, load_sweep,
                           parse_relabel, parse_where, read_jobs, split_source)
from mosim_stats import aggregates


def test_reads_a_real_sweep(sweep_file):
    r = load_sweep(str(sweep_file))
    assert r.axis_names == ["seed", "trace", "contention"]
    assert r.axis("trace").values == ["synthetic", "bad.csv", "big.csv"]
    assert list(r.axis("seed").numeric) == [1, 2, 3] and r.axis("contention").numeric is None
    assert r.points == 18 and r.coords.shape == (18, 3)
    # Point 7 = (seed 1, trace 0, contention 1): the last axis is the fastest.
    row = int(np.flatnonzero(r.index == 7)[0])
    assert r.describe_row(row) == {"seed": "2", "trace": "synthetic", "contention": "fixed"}
    traces = np.array(r.labels("trace"))
    assert (r.status[traces == "synthetic"] == STATUS_OK).all()
    assert (r.status[traces == "bad.csv"] == STATUS_FAILED).all()
    assert (r.status[traces == "big.csv"] == STATUS_NO_JOB).all()
    assert all("must be positive" in r.error[i] for i in np.flatnonzero(traces == "bad.csv"))
    assert np.isnan(r.metrics["avg_jct"][traces != "synthetic"]).all()


def test_per_job_table_gives_the_metrics(sweep_file):
    """Python's aggregates of a point's /jobs rows equal mosim's /metrics for that point."""
    r = load_sweep(str(sweep_file))
    for row in np.flatnonzero(r.ok()):
        table = r.job_table(row)
        assert len(table) == r.metrics["jobs"][row] + r.metrics["skipped"][row]
        a = aggregates(table)
        for m in ("avg_training", "avg_jct", "median_jct", "p99_jct", "makespan", "avg_wait"):
            assert a[m] == pytest.approx(r.metrics[m][row], rel=1e-12), m


def test_where_and_subset(sweep_file):
    r = load_sweep(str(sweep_file))
    s = r.where(parse_where(["trace=synthetic", "seed=1,3"]))
    assert s.points == 4
    assert sorted(set(s.labels("seed"))) == ["1", "3"]
    # The per-job table follows the rows.
    assert set(s.jobs["row"]) == {0, 1, 2, 3}
    assert s.job_table(0).jct.tolist() == r.job_table(int(np.flatnonzero(r.index == s.index[0])[0])).jct.tolist()
    with pytest.raises(ValueError, match="no value 'spread'"):
        r.where({"trace": ["spread"]})
    with pytest.raises(KeyError, match="no axis 'speed'"):
        r.where({"speed": ["1"]})


def test_group_rows(sweep_file):
    r = load_sweep(str(sweep_file))
    groups = group_rows(r, ["trace", "contention"])
    assert [g for g, _ in groups][:2] == [("synthetic", "none"), ("synthetic", "fixed")]
    assert all(len(rows) == 3 for _, rows in groups)
    for (trace, contention), rows in groups:
        assert set(np.array(r.labels("trace"))[rows]) == {trace}


def test_stacks_files_with_relabelled_axes(mosim, tmp_path):
    """Two sweeps whose arrival rates differ (as if scaled to two cluster sizes) line up as
    load = [moderate, high]."""
    spec = "base: {{trace: synthetic, jobs: 6, gpus-per-server: 8}}\naxes:\n  servers: [{s}]\n" \
           "  arrival-rate: [{a}, {b}]\n  seed: [1, 2]\n"
    small = sweep(mosim, tmp_path / "a", spec.format(s=2, a=0.001, b=0.002))
    large = sweep(mosim, tmp_path / "b", spec.format(s=4, a=0.002, b=0.004))
    relabel = parse_relabel(["arrival-rate=load:moderate,high"])
    r = load_sweep([str(small), str(large)], relabel)
    assert r.axis_names == ["servers", "load", "seed"]
    assert r.axis("servers").values == ["2", "4"] and r.axis("load").values == ["moderate", "high"]
    assert r.points == 8 and list(r.source) == [0] * 4 + [1] * 4
    with h5py.File(large) as f:
        rate = f["axes/arrival-rate/numeric"][()][f["points/coords"][:, 1]]
    assert list(rate[np.array(r.labels("load"))[4:] == "high"]) == [0.004, 0.004]
    # Without relabelling, the values are the union (numeric, in ascending order).
    plain = load_sweep([str(small), str(large)])
    assert plain.axis("arrival-rate").values == ["0.001", "0.002", "0.004"]
    with pytest.raises(ValueError, match="2 labels for 3 values|labels"):
        load_sweep([str(small)], parse_relabel(["arrival-rate=load:a,b,c"]))


def test_refuses_files_with_other_axes(tmp_path):
    a = write_sweep_file(tmp_path / "a.h5", [("seed", ["1"], [1], "")], [[0]], {"avg_jct": [1]})
    b = write_sweep_file(tmp_path / "b.h5", [("jobs", ["1"], [1], "")], [[0]], {"avg_jct": [1]})
    with pytest.raises(ValueError, match="same axes"):
        load_sweep([str(a), str(b)])
    (tmp_path / "x.h5").write_bytes(b"")
    with pytest.raises(Exception):
        load_sweep(str(tmp_path / "x.h5"))


def test_bandwidth_axis_matches_gbps(tmp_path):
    path = write_sweep_file(tmp_path / "bw.h5", [("nic-bandwidth", ["1 Gbps", "25 Gbps"], [125e6, 3.125e9], "B/s")],
                            [[0], [1]], {"avg_jct": [2, 1]})
    r = load_sweep(str(path))
    assert list(r.axis("nic-bandwidth").display_values()) == [1, 25]
    assert r.where({"nic-bandwidth": ["25"]}).points == 1
    assert r.where({"nic-bandwidth": ["1Gbps"]}).metrics["avg_jct"].tolist() == [2]


def test_read_testbed_16gpu(tmp_path):
    path = tmp_path / "perjob.csv"
    path.write_text("placement,job_ids,models,arrival_times,wait_times,training_time,jcts\n"
                    "k8s-load-balancing,0,bert,0,0,100,100\n"
                    "k8s-load-balancing,1,vgg16,10,5,20,26\n"
                    "colocate,0,bert,0,0,90,90\n")
    t = read_jobs(str(path), "k8s-load-balancing")
    assert t.job_id.tolist() == [0, 1] and t.model == ["bert", "vgg16"]
    # start = arrival + wait, end = arrival + JCT (the file's training is kept as it is).
    assert t.start.tolist() == [0, 15] and t.end.tolist() == [100, 36]
    assert t.training.tolist() == [100, 20] and t.jct.tolist() == [100, 26]
    assert read_jobs(str(path), "colocate").jct.tolist() == [90]
    with pytest.raises(ValueError, match="several placements"):
        read_jobs(str(path))
    with pytest.raises(ValueError, match="no rows for placement 'spread'"):
        read_jobs(str(path), "spread")


def test_read_testbed_32gpu(tmp_path):
    path = tmp_path / "k8sbp.csv"
    # Two training_time columns, as in the artifact: the first one counts.
    path.write_text("job_id,start_time_seconds,end_time_seconds,training_time,jcts,wait_times,"
                    "arrival_times,training_time\nid0,0,50,50,50,0,0,999\nid1,50,80,30,80,50,0,999\n")
    t = read_jobs(str(path))
    assert t.job_id.tolist() == [0, 1] and t.training.tolist() == [50, 30]
    assert t.end.tolist() == [50, 80] and t.wait.tolist() == [0, 50]


def test_read_mosim_jobs_csv(tmp_path):
    (tmp_path / "jobs.csv").write_text(
        "job_id,model,num_gpus,servers,submit,start,end,wait,training,jct,compute,comm,loading,iterations,status\n"
        "0,bert,2,0|1,0,1,11,1,10,11,6,3,1,2,completed\n"
        "1,vgg16,64,,5,,,,,,,,,,unplaceable\n")
    t = read_jobs(str(tmp_path))          # the run's folder
    assert t.completed.tolist() == [True, False] and t.num_gpus.tolist() == [2, 64]
    assert len(t.done()) == 1 and np.isnan(t.jct[1]) and t.submit[1] == 5
    (tmp_path / "other.csv").write_text("a,b\n1,2\n")
    with pytest.raises(ValueError, match="unknown per-job layout"):
        read_jobs(str(tmp_path / "other.csv"))
    (tmp_path / "broken.csv").write_text("job_id,jct,submit,start,end,wait,training\n0,x,0,0,1,0,1\n")
    with pytest.raises(ValueError, match="broken.csv:2: field 'jct'"):
        read_jobs(str(tmp_path / "broken.csv"))


def test_spec_is_what_the_file_records(sweep_file):
    assert load_sweep(str(sweep_file)).attrs["spec"] == SPEC


def test_split_source():
    assert split_source("runs/a") == (None, "runs/a", None)
    assert split_source("MoSim=runs/a/jobs.csv") == ("MoSim", "runs/a/jobs.csv", None)
    assert split_source("tb=perjob.csv#k8s-load-balancing") == ("tb", "perjob.csv", "k8s-load-balancing")
    assert split_source("r.h5#placement=colocate,seed=2") == (None, "r.h5", "placement=colocate,seed=2")
