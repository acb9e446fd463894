"""Statistics shared by summarize.py, plot.py and fidelity.py.

- Confidence intervals of a mean: Student t, or a percentile bootstrap with a fixed RNG seed;
  `summarize_groups` applies them to a sweep's points grouped by the axes not averaged over.
- The aggregates and fidelity metrics of semantics.md §4 and mosim-reference.md §9.2, exactly as
  `mosim compare` computes them (src/metrics/): mean training, JCT and wait; median JCT (the mean
  of the two middle values); P99 JCT by linear interpolation between order statistics (numpy's
  default, k = 0.99 (n − 1)); makespan = last end − first submit; APE; KS over the pooled sample
  points with right-continuous ECDFs; Wasserstein-1 on sorted samples when both have n values,
  else on a quantile grid of max(n_a, n_b) points q = i / (G − 1).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
from scipy import stats as sps

from mosim_results import STATUS_OK, JobTable, SweepResults, group_rows

BOOTSTRAP_SEED = 20260401   # fixed, so that bootstrap intervals are reproducible


# ---------------------------------------------------------------------------------------------
# Confidence intervals

@dataclass
class Interval:
    n: int
    mean: float
    std: float        # sample standard deviation (n − 1); NaN for n < 2
    low: float        # NaN for n < 2
    high: float

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


def t_interval(values, confidence: float = 0.95) -> Interval:
    """mean ± t((1 + c) / 2, n − 1) · s / √n."""
    x = np.asarray(values, dtype=float)
    n = len(x)
    if n == 0:
        return Interval(0, math.nan, math.nan, math.nan, math.nan)
    mean = float(np.mean(x))
    if n < 2:
        return Interval(n, mean, math.nan, math.nan, math.nan)
    s = float(np.std(x, ddof=1))
    h = float(sps.t.ppf((1 + confidence) / 2, n - 1)) * s / math.sqrt(n)
    return Interval(n, mean, s, mean - h, mean + h)


def bootstrap_interval(values, resamples: int, confidence: float = 0.95,
                       seed: int = BOOTSTRAP_SEED) -> Interval:
    """Percentile bootstrap of the mean: `resamples` resamples with replacement drawn by
    numpy's default_rng(seed); the interval is the (1 − c)/2 and (1 + c)/2 quantiles (linear
    interpolation) of the resampled means."""
    x = np.asarray(values, dtype=float)
    n = len(x)
    if n < 2:
        return t_interval(x, confidence)   # no interval from fewer than two values
    rng = np.random.default_rng(seed)
    means = x[rng.integers(0, n, size=(resamples, n))].mean(axis=1)
    low, high = np.quantile(means, [(1 - confidence) / 2, (1 + confidence) / 2])
    return Interval(n, float(np.mean(x)), float(np.std(x, ddof=1)), float(low), float(high))


def relative_to(results: SweepResults, axis: str, value: str) -> SweepResults:
    """Paired ratios: every metric of every point divided by that of the point with `value` on
    `axis` and the same values on every other axis (in the same file). Sweeps give such points
    the same seed, hence the same trace and workloads (common random numbers), so the ratios
    cancel most of the variation between seeds. A point whose reference is not ok gets NaN."""
    a = results.axis(axis)
    k = results.axis_position(axis)
    if value not in a.values:
        raise ValueError(f"axis '{axis}' has no value '{value}' (values: {', '.join(a.values)})")
    ref = a.values.index(value)
    others = [i for i in range(len(results.axes)) if i != k]
    reference_row = {}
    for row in np.flatnonzero((results.coords[:, k] == ref) & (results.status == STATUS_OK)):
        reference_row[(results.source[row], *results.coords[row, others])] = row
    rows = np.array([reference_row.get((results.source[r], *results.coords[r, others]), -1)
                     for r in range(results.points)])
    found = rows >= 0
    metrics = {}
    for name, values in results.metrics.items():
        values = values.astype(float)
        ratio = np.full(results.points, np.nan)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio[found] = values[found] / values[rows[found]]
        metrics[name] = ratio
    return replace(results, metrics=metrics)


@dataclass
class GroupSummary:
    key: dict[str, str]     # the group's value on each remaining axis
    metric: str
    interval: Interval
    excluded: int           # points of the group left out: status not ok, or no value (NaN)


def summarize_groups(results: SweepResults, over: list[str], metrics: list[str],
                     confidence: float = 0.95, bootstrap: int = 0,
                     seed: int = BOOTSTRAP_SEED) -> list[GroupSummary]:
    """For every metric, the mean and confidence interval over the `over` axes (e.g. seed), for
    every combination of the remaining axes. Points whose status is not ok (no job placed,
    failed), or whose value is NaN (see relative_to), are left out and counted."""
    for name in over:
        results.axis(name)  # raises for an unknown axis
    unknown = [m for m in metrics if m not in results.metrics]
    if unknown:
        raise ValueError(f"no metric {', '.join(unknown)} (metrics: {', '.join(results.metrics)})")
    keys = [n for n in results.axis_names if n not in over]
    summaries = []
    for labels, rows in group_rows(results, keys):
        ok = rows[results.status[rows] == STATUS_OK]
        for metric in metrics:
            values = results.metrics[metric][ok].astype(float)
            values = values[~np.isnan(values)]
            interval = (bootstrap_interval(values, bootstrap, confidence, seed) if bootstrap
                        else t_interval(values, confidence))
            summaries.append(GroupSummary(dict(zip(keys, labels)), metric, interval,
                                          len(rows) - len(values)))
    return summaries


# ---------------------------------------------------------------------------------------------
# Aggregates and fidelity (semantics.md §4)

def percentile(values, q: float) -> float:
    """Linear interpolation between order statistics at rank q (n − 1), q in [0, 1]."""
    return float(np.quantile(np.asarray(values, dtype=float), q))


def median(values) -> float:
    """The middle value, or the mean of the two middle ones (Python's statistics.median)."""
    return float(np.median(np.asarray(values, dtype=float)))


AGGREGATES = ["avg_training", "avg_jct", "median_jct", "p99_jct", "makespan", "avg_wait"]


def aggregates(jobs: JobTable) -> dict[str, float]:
    """The aggregates of summary.json over the completed jobs."""
    done = jobs.done()
    if len(done) == 0:
        raise ValueError("no completed job")
    return {"avg_training": float(np.mean(done.training)), "avg_jct": float(np.mean(done.jct)),
            "median_jct": median(done.jct), "p99_jct": percentile(done.jct, 0.99),
            "makespan": float(np.max(done.end) - np.min(done.submit)),
            "avg_wait": float(np.mean(done.wait)), "jobs": len(done)}


def ape(simulated: float, truth: float) -> float:
    """Absolute percentage error |sim − truth| / |truth| · 100; a zero truth gives 0 when matched
    and infinity otherwise (as mosim compare)."""
    if truth == 0:
        return 0.0 if simulated == 0 else math.inf
    return abs(simulated - truth) / abs(truth) * 100


def _sample(values, what: str) -> np.ndarray:
    x = np.sort(np.asarray(values, dtype=float))
    if len(x) == 0:
        raise ValueError(f"{what} of an empty sample")
    if np.isnan(x).any():
        raise ValueError(f"{what} of a sample containing NaN")
    return x


def ks_distance(a, b) -> float:
    """max over the pooled sample values v of |F_a(v) − F_b(v)|, F(v) = #{x ≤ v} / n."""
    a, b = _sample(a, "KS"), _sample(b, "KS")
    v = np.union1d(a, b)
    fa = np.searchsorted(a, v, side="right") / len(a)
    fb = np.searchsorted(b, v, side="right") / len(b)
    return float(np.max(np.abs(fa - fb)))


def wasserstein1(a, b) -> float:
    """Mean |a_(i) − b_(i)| of the sorted samples when both have n values; otherwise the mean
    absolute difference of their linearly interpolated quantiles on the grid q = i / (G − 1),
    i = 0 .. G − 1, G = max(n_a, n_b)."""
    a, b = _sample(a, "Wasserstein"), _sample(b, "Wasserstein")
    if len(a) == len(b):
        return float(np.mean(np.abs(a - b)))
    q = np.arange(max(len(a), len(b))) / (max(len(a), len(b)) - 1)
    return float(np.mean(np.abs(np.quantile(a, q) - np.quantile(b, q))))


def fidelity(simulated: JobTable, truth: JobTable) -> dict:
    """Simulated against ground truth, in the layout of `mosim compare --json`: for every
    aggregate {simulated, truth, ape}, then ks_jct, wasserstein_jct and the job counts."""
    s, t = aggregates(simulated), aggregates(truth)
    out = {m: {"simulated": s[m], "truth": t[m], "ape": ape(s[m], t[m])} for m in AGGREGATES}
    out["ks_jct"] = ks_distance(simulated.done().jct, truth.done().jct)
    out["wasserstein_jct"] = wasserstein1(simulated.done().jct, truth.done().jct)
    out["jobs"] = {"simulated": s["jobs"], "truth": t["jobs"]}
    return out
