"""mosim_stats: confidence intervals, aggregates and fidelity metrics on hand-worked cases."""
import math

import numpy as np
import pytest

from mosim_results import JobTable
from mosim_stats import (aggregates, ape, bootstrap_interval, fidelity, ks_distance, median,
                         percentile, t_interval, wasserstein1)


def test_t_interval_by_hand():
    # 1, 2, 3, 4, 5: mean 3; s = sqrt(10 / 4) = 1.58114; t(0.975, 4) = 2.77645;
    # half-width = 2.77645 * 1.58114 / sqrt(5) = 1.96324 -> [1.03676, 4.96324].
    i = t_interval([1, 2, 3, 4, 5])
    assert i.n == 5 and i.mean == 3
    assert i.std == pytest.approx(1.58114, abs=1e-5)
    assert i.half_width == pytest.approx(1.96324, abs=1e-5)
    assert (i.low, i.high) == pytest.approx((1.03676, 4.96324), abs=1e-5)


def test_t_interval_other_confidence():
    # 2, 4, 6, 8 at 90%: mean 5; s = sqrt(20 / 3) = 2.58199; t(0.95, 3) = 2.35336;
    # half-width = 2.35336 * 2.58199 / 2 = 3.03818.
    i = t_interval([2, 4, 6, 8], confidence=0.90)
    assert i.half_width == pytest.approx(3.03818, abs=1e-5)


def test_t_interval_degenerate():
    one = t_interval([7.5])
    assert one.mean == 7.5 and math.isnan(one.std) and math.isnan(one.low)
    assert t_interval([]).n == 0
    same = t_interval([4, 4, 4])
    assert (same.low, same.high) == (4, 4)


def test_bootstrap_interval():
    # Resampled means of 1..5 have standard deviation sigma / sqrt(5), sigma^2 = 2 (the
    # population variance), i.e. 0.6325; the 95% percentile interval is about 3 -+ 1.96 * 0.6325
    # = [1.76, 4.24] (the resampled mean is discrete, so allow 0.1).
    i = bootstrap_interval([1, 2, 3, 4, 5], 20000)
    assert i.mean == 3
    assert (i.low, i.high) == pytest.approx((1.76, 4.24), abs=0.1)
    # A fixed seed: the same interval every time; another seed, (slightly) another interval.
    x = [1.3, 2.9, 3.1, 7.7, 4.2, 0.5, 9.9]
    assert bootstrap_interval(x, 2000) == bootstrap_interval(x, 2000)
    assert bootstrap_interval(x, 2000, seed=1) != bootstrap_interval(x, 2000)


def test_percentile_and_median():
    # 1..100: rank 0.99 * 99 = 98.01 -> 99 + 0.01 * (100 - 99) = 99.01
    assert percentile(np.arange(1, 101), 0.99) == pytest.approx(99.01)
    # [10, 20]: rank 0.99 -> 10 + 0.99 * 10 = 19.9
    assert percentile([20, 10], 0.99) == pytest.approx(19.9)
    assert median([4, 1, 3, 2]) == 2.5
    assert median([5, 1, 3]) == 3


def jobs(submit, start, end, completed=None):
    submit, start, end = (np.array(x, dtype=float) for x in (submit, start, end))
    return JobTable(job_id=np.arange(len(submit)), submit=submit, start=start, end=end,
                    wait=start - submit, training=end - start, jct=end - submit,
                    completed=np.ones(len(submit), bool) if completed is None else np.array(completed))


def test_aggregates_by_hand():
    # Job 0: submit 0, start 0, end 100 (training 100, JCT 100, wait 0).
    # Job 1: submit 10, start 20, end 50 (training 30, JCT 40, wait 10).
    # Job 2 never ran and is left out.
    a = aggregates(jobs([0, 10, 5], [0, 20, 0], [100, 50, 999], completed=[True, True, False]))
    assert a["jobs"] == 2
    assert a["avg_training"] == 65 and a["avg_jct"] == 70 and a["avg_wait"] == 5
    assert a["median_jct"] == 70
    assert a["p99_jct"] == pytest.approx(40 + 0.99 * 60)   # 99.4
    assert a["makespan"] == 100                              # last end 100 - first submit 0


def test_ape():
    assert ape(110, 100) == pytest.approx(10)
    assert ape(90, 100) == pytest.approx(10)
    assert ape(0, 0) == 0 and math.isinf(ape(1, 0))


def test_ks_by_hand():
    # a = 1, 2, 3 and b = 2, 4. Pooled points 1, 2, 3, 4: F_a = 1/3, 2/3, 1, 1; F_b = 0, 1/2,
    # 1/2, 1; gaps 1/3, 1/6, 1/2, 0 -> 0.5.
    assert ks_distance([1, 2, 3], [4, 2]) == pytest.approx(0.5)
    # Ties and right-continuity: a = 1, 1, 2 and b = 1, 2, 2. At 1: F_a = 2/3, F_b = 1/3 (every
    # sample equal to 1 counts) -> 1/3; at 2 both are 1.
    assert ks_distance([1, 1, 2], [1, 2, 2]) == pytest.approx(1 / 3)
    assert ks_distance([5, 6], [5, 6]) == 0
    assert ks_distance([1], [2]) == 1


def test_wasserstein_by_hand():
    # Equal n: sorted pairs (1, 2), (2, 4), (3, 9): (1 + 2 + 6) / 3 = 3.
    assert wasserstein1([3, 1, 2], [9, 2, 4]) == pytest.approx(3)
    # n = 2 against n = 3: grid q = 0, 1/2, 1. a = 0, 10: quantiles 0, 5, 10; b = 0, 0, 10:
    # quantiles 0, 0, 10 -> (0 + 5 + 0) / 3 = 5/3.
    assert wasserstein1([0, 10], [0, 0, 10]) == pytest.approx(5 / 3)
    # a = 0, 10 against b = 0, 5, 10 -> the same quantiles: 0.
    assert wasserstein1([0, 10], [10, 5, 0]) == pytest.approx(0)
    with pytest.raises(ValueError):
        wasserstein1([], [1])
    with pytest.raises(ValueError):
        ks_distance([1, float("nan")], [1])


def test_fidelity_layout():
    sim = jobs([0, 0], [0, 10], [100, 60])     # JCT 100, 60
    truth = jobs([0, 0], [0, 0], [80, 50])     # JCT 80, 50
    f = fidelity(sim, truth)
    assert f["avg_jct"] == {"simulated": 80, "truth": 65, "ape": pytest.approx(15 / 65 * 100)}
    assert f["makespan"]["ape"] == pytest.approx(25)       # 100 against 80
    # Pooled 50, 60, 80, 100: F_sim = 0, 1/2, 1/2, 1; F_truth = 1/2, 1/2, 1, 1 -> 1/2.
    assert f["ks_jct"] == pytest.approx(0.5)
    assert f["wasserstein_jct"] == pytest.approx(15)       # (|60 - 50| + |100 - 80|) / 2
    assert f["jobs"] == {"simulated": 2, "truth": 2}
