"""Reading mosim's result files into numpy structures.

Shared by summarize.py, plot.py and fidelity.py:
- `load_sweep(paths)`: one or more `mosim sweep` HDF5 files (layout: README "Sweeps", The result
  file; include/mosim/sweep_file.hpp) as one `SweepResults`: axes, per-point coordinates, seeds,
  status, metrics and, with --per-job, the per-job table;
- `read_jobs(path)`: per-job results as a `JobTable`, from a `mosim run` jobs.csv (or its output
  folder), the artifact's 16gpu per-job testbed CSV or a 32gpu per-policy testbed CSV;
- the command-line pieces the scripts share: input sources, --where and --relabel.

Statistics (confidence intervals, aggregates, APE/KS/W1) live in mosim_stats.py.
"""
from __future__ import annotations

import csv
import os
import re
from dataclasses import dataclass, field, replace

import numpy as np

# /points/status
STATUS_OK, STATUS_NO_JOB, STATUS_FAILED = 0, 1, 2
STATUS_NAMES = {STATUS_OK: "ok", STATUS_NO_JOB: "no job placed", STATUS_FAILED: "failed"}
# Metrics of /metrics that are times in seconds (the others are counts).
TIME_METRICS = ["avg_training", "avg_jct", "median_jct", "p99_jct", "makespan", "avg_wait"]


# ---------------------------------------------------------------------------------------------
# Sweep files

@dataclass
class Axis:
    name: str
    values: list[str]             # labels, as written in the spec or generated
    numeric: np.ndarray | None    # the same as numbers, when every value is one
    unit: str = ""                # "" or "B/s"

    def display_values(self) -> np.ndarray | None:
        """Numbers for a plot axis: bandwidths in Gbps, other numeric axes as they are."""
        if self.numeric is None:
            return None
        return self.numeric * 8 / 1e9 if self.unit == "B/s" else self.numeric

    def display_name(self) -> str:
        return f"{self.name} (Gbps)" if self.unit == "B/s" else self.name


@dataclass
class SweepResults:
    """Rows are points; several files are stacked (`source` tells which file a row came from)."""
    paths: list[str]
    attrs: dict                      # root attributes of the first file
    axes: list[Axis]
    source: np.ndarray               # [P] file number
    index: np.ndarray                # [P] point index within its file's grid
    coords: np.ndarray               # [P, A] index on each axis (into Axis.values)
    seed: np.ndarray                 # [P]
    status: np.ndarray               # [P] STATUS_*
    error: list[str]                 # [P]
    metrics: dict[str, np.ndarray]   # name -> [P]
    jobs: dict[str, np.ndarray] | None = None  # column -> [J]; column "row" = the point's row
    spec_hash: list[str] = field(default_factory=list)  # per file

    @property
    def points(self) -> int:
        return len(self.index)

    @property
    def axis_names(self) -> list[str]:
        return [a.name for a in self.axes]

    def axis(self, name: str) -> Axis:
        for a in self.axes:
            if a.name == name:
                return a
        raise KeyError(f"no axis '{name}' (axes: {', '.join(self.axis_names)})")

    def axis_position(self, name: str) -> int:
        self.axis(name)
        return self.axis_names.index(name)

    def labels(self, name: str) -> list[str]:
        """Each row's value label on an axis."""
        a, k = self.axis(name), self.axis_position(name)
        return [a.values[c] for c in self.coords[:, k]]

    def describe_row(self, row: int, names: list[str] | None = None) -> dict[str, str]:
        names = self.axis_names if names is None else names
        return {n: self.axis(n).values[self.coords[row, self.axis_position(n)]] for n in names}

    def ok(self) -> np.ndarray:
        return self.status == STATUS_OK

    def subset(self, rows: np.ndarray) -> "SweepResults":
        """The given rows (a boolean mask or indices), with their jobs."""
        rows = np.flatnonzero(rows) if np.asarray(rows).dtype == bool else np.asarray(rows, dtype=int)
        jobs = None
        if self.jobs is not None:
            new_row = np.full(self.points, -1)
            new_row[rows] = np.arange(len(rows))
            keep = new_row[self.jobs["row"]] >= 0
            jobs = {k: v[keep] for k, v in self.jobs.items()}
            jobs["row"] = new_row[jobs["row"]]
        return replace(self, source=self.source[rows], index=self.index[rows],
                       coords=self.coords[rows], seed=self.seed[rows], status=self.status[rows],
                       error=[self.error[r] for r in rows],
                       metrics={k: v[rows] for k, v in self.metrics.items()}, jobs=jobs)

    def where(self, conditions: dict[str, list[str]]) -> "SweepResults":
        """The rows whose value on each named axis is one of the given values (see match_values)."""
        mask = np.ones(self.points, dtype=bool)
        for name, wanted in conditions.items():
            a, k = self.axis(name), self.axis_position(name)
            mask &= np.isin(self.coords[:, k], match_values(a, wanted))
        return self.subset(mask)

    def job_table(self, row: int) -> "JobTable":
        """The per-job results of one row (needs a sweep run with --per-job)."""
        if self.jobs is None:
            raise ValueError(f"{', '.join(self.paths)}: no per-job table (run the sweep with --per-job)")
        sel = self.jobs["row"] == row
        j = {k: v[sel] for k, v in self.jobs.items()}
        order = np.argsort(j["job_id"], kind="stable")
        return JobTable(job_id=j["job_id"][order], submit=j["submit"][order], start=j["start"][order],
                        end=j["end"][order], wait=j["wait"][order], training=j["training"][order],
                        jct=j["jct"][order], completed=j["status"][order] == 0,
                        num_gpus=j["num_gpus"][order])


def match_values(axis: Axis, wanted: list[str]) -> list[int]:
    """Indices of the axis values named in `wanted`: by label, or by number on a numeric axis
    (a bandwidth axis also takes its numbers in Gbps, e.g. `5` for `5 Gbps`)."""
    found = []
    for w in wanted:
        hits = [i for i, v in enumerate(axis.values) if v == w or v.replace(" ", "") == w.replace(" ", "")]
        if not hits and axis.numeric is not None:
            try:
                x = float(w)
            except ValueError:
                x = None
            if x is not None:
                hits = [i for i, v in enumerate(axis.display_values()) if np.isclose(v, x, rtol=1e-9)]
        if not hits:
            raise ValueError(f"axis '{axis.name}' has no value '{w}' (values: {', '.join(axis.values)})")
        found += hits
    return found


def _strings(dataset) -> list[str]:
    return [s.decode() if isinstance(s, bytes) else str(s) for s in dataset[()]]


def _read_one(path: str, with_jobs: bool = True) -> SweepResults:
    import h5py  # only needed for sweep files
    with h5py.File(path, "r") as f:
        attrs = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in f.attrs.items()}
        if not str(attrs.get("format", "")).startswith("mosim-sweep"):
            raise ValueError(f"{path}: not a mosim sweep file (format attribute: {attrs.get('format')!r})")
        names = [n.decode() if isinstance(n, bytes) else str(n) for n in np.atleast_1d(attrs["axes"])]
        axes = []
        for name in names:
            group = f["axes"][name]
            numeric, unit = None, ""
            if "numeric" in group:
                numeric = group["numeric"][()].astype(float)
                u = group["numeric"].attrs.get("unit", "")
                unit = u.decode() if isinstance(u, bytes) else str(u)
            axes.append(Axis(name, _strings(group["values"]), numeric, unit))
        points = f["points"]
        n = len(points["index"])
        coords = points["coords"][()].astype(int).reshape(n, len(names))
        metrics = {name: f["metrics"][name][()] for name in f["metrics"]}
        metrics = {k: (v.astype(float) if v.dtype.kind == "f" else v) for k, v in metrics.items()}
        jobs = None
        if with_jobs and "jobs" in f:
            jobs = {name: f["jobs"][name][()] for name in f["jobs"]}
            # /points/index is ascending: a job's row is the position of its point.
            jobs["row"] = np.searchsorted(points["index"][()], jobs["point"]).astype(int)
        return SweepResults(paths=[path], attrs=attrs, axes=axes, source=np.zeros(n, dtype=int),
                            index=points["index"][()].astype(np.int64), coords=coords,
                            seed=points["seed"][()], status=points["status"][()].astype(int),
                            error=_strings(points["error"]) if "error" in points else [""] * n,
                            metrics=metrics, jobs=jobs, spec_hash=[str(attrs.get("spec_hash", ""))])


def _relabel(results: SweepResults, relabel: dict[str, tuple[str, list[str]]]) -> SweepResults:
    """Renames an axis and replaces its values by position (see parse_relabel)."""
    axes = []
    for a in results.axes:
        if a.name in relabel:
            new_name, labels = relabel[a.name]
            if len(labels) != len(a.values):
                raise ValueError(f"{results.paths[0]}: --relabel {a.name}: {len(labels)} labels for "
                                 f"{len(a.values)} values ({', '.join(a.values)})")
            a = Axis(new_name, list(labels), None, "")
        axes.append(a)
    return replace(results, axes=axes)


def _stack(parts: list[SweepResults]) -> SweepResults:
    """Joins files with the same axis names; each axis' values become the union (numeric axes in
    ascending order, others in order of appearance) and coordinates are remapped to it."""
    names = parts[0].axis_names
    for p in parts[1:]:
        if sorted(p.axis_names) != sorted(names):
            raise ValueError(f"{p.paths[0]} has axes {p.axis_names}, {parts[0].paths[0]} has {names}: "
                             "files to combine need the same axes (see --relabel)")
    axes = []
    for name in names:
        values, numeric = [], []
        all_numeric = all(p.axis(name).numeric is not None for p in parts)
        for p in parts:
            a = p.axis(name)
            for i, v in enumerate(a.values):
                if v not in values:
                    values.append(v)
                    numeric.append(a.numeric[i] if all_numeric else None)
        unit = parts[0].axis(name).unit if all_numeric else ""
        if all_numeric:
            order = np.argsort(numeric, kind="stable")
            values, numeric = [values[i] for i in order], np.array([numeric[i] for i in order])
        axes.append(Axis(name, values, numeric if all_numeric else None, unit))
    coords = []
    for p in parts:
        c = np.empty_like(p.coords)
        for k, name in enumerate(names):
            mapping = np.array([axes[k].values.index(v) for v in p.axis(name).values])
            c[:, k] = mapping[p.coords[:, p.axis_position(name)]]
        coords.append(c)
    metric_names = [m for m in parts[0].metrics if all(m in p.metrics for p in parts)]
    jobs = None
    if all(p.jobs is not None for p in parts):
        offsets = np.cumsum([0] + [p.points for p in parts])
        jobs = {k: np.concatenate([p.jobs[k] + (offsets[i] if k == "row" else 0)
                                   for i, p in enumerate(parts)]) for k in parts[0].jobs}
    return SweepResults(
        paths=[p.paths[0] for p in parts], attrs=parts[0].attrs, axes=axes,
        source=np.concatenate([np.full(p.points, i) for i, p in enumerate(parts)]),
        index=np.concatenate([p.index for p in parts]), coords=np.concatenate(coords),
        seed=np.concatenate([p.seed for p in parts]), status=np.concatenate([p.status for p in parts]),
        error=[e for p in parts for e in p.error],
        metrics={m: np.concatenate([p.metrics[m].astype(float) for p in parts]) for m in metric_names},
        jobs=jobs, spec_hash=[p.spec_hash[0] for p in parts])


def load_sweep(paths: str | list[str], relabel: dict[str, tuple[str, list[str]]] | None = None,
               with_jobs: bool = True) -> SweepResults:
    """One or more sweep files as one SweepResults. Files of different specs may be combined when
    they have the same axes, e.g. one per cluster size; `relabel` first renames an axis and
    replaces its values by position in every file, so that `arrival-rate` = [0.001, 0.002] in one
    file and [0.004, 0.008] in another both become `load` = [moderate, high]. `with_jobs=False`
    skips the per-job tables (the largest part of a file written with --per-job)."""
    paths = [paths] if isinstance(paths, str) else list(paths)
    if not paths:
        raise ValueError("no sweep file given")
    parts = [_read_one(p, with_jobs) for p in paths]
    if relabel:
        parts = [_relabel(p, relabel) for p in parts]
    return parts[0] if len(parts) == 1 else _stack(parts)


def group_rows(results: SweepResults, keys: list[str]) -> list[tuple[tuple[str, ...], np.ndarray]]:
    """The rows grouped by their values on the `keys` axes, in axis-value order:
    [((label, ...), row indices), ...]; groups without rows are left out."""
    positions = [results.axis_position(k) for k in keys]
    if not positions:
        return [((), np.arange(results.points))]
    sub = results.coords[:, positions]
    unique, inverse = np.unique(sub, axis=0, return_inverse=True)
    inverse = np.asarray(inverse).reshape(-1)
    groups = []
    for g, combo in enumerate(unique):
        labels = tuple(results.axes[p].values[c] for p, c in zip(positions, combo))
        groups.append((labels, np.flatnonzero(inverse == g)))
    return groups


# ---------------------------------------------------------------------------------------------
# Per-job tables

@dataclass
class JobTable:
    """Per-job results (seconds); `completed` is False for jobs that could never be placed."""
    job_id: np.ndarray
    submit: np.ndarray
    start: np.ndarray
    end: np.ndarray
    wait: np.ndarray
    training: np.ndarray
    jct: np.ndarray
    completed: np.ndarray
    num_gpus: np.ndarray | None = None
    model: list[str] | None = None

    def __len__(self) -> int:
        return len(self.job_id)

    def done(self) -> "JobTable":
        """Only the completed jobs."""
        m = self.completed
        return JobTable(self.job_id[m], self.submit[m], self.start[m], self.end[m], self.wait[m],
                        self.training[m], self.jct[m], self.completed[m],
                        None if self.num_gpus is None else self.num_gpus[m],
                        None if self.model is None else [x for x, k in zip(self.model, m) if k])


class _Csv:
    """A CSV file with a header; columns by name (the first one of a repeated name, as the
    artifact's run.sh reads its 32gpu files with two `training_time` columns)."""

    def __init__(self, path: str):
        self.path = path
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
        if not rows:
            raise ValueError(f"{path}: empty file")
        self.header = [h.strip() for h in rows[0]]
        self.rows = [r for r in rows[1:] if any(c.strip() for c in r)]

    def has(self, *names: str) -> bool:
        return all(n in self.header for n in names)

    def text(self, name: str) -> list[str]:
        if name not in self.header:
            raise ValueError(f"{self.path}: no column '{name}' (columns: {', '.join(self.header)})")
        k = self.header.index(name)
        return [r[k].strip() for r in self.rows]

    def numbers(self, name: str, empty_is_nan: bool = False) -> np.ndarray:
        values = []
        for line, text in enumerate(self.text(name), start=2):
            if empty_is_nan and text == "":
                values.append(np.nan)
                continue
            try:
                values.append(float(text))
            except ValueError:
                raise ValueError(f"{self.path}:{line}: field '{name}': expected a number, got '{text}'") from None
        return np.array(values, dtype=float)


def _job_ids(path: str, texts: list[str]) -> np.ndarray:
    ids = []
    for line, t in enumerate(texts, start=2):
        t = t[2:] if t.startswith("id") else t
        try:
            ids.append(int(t))
        except ValueError:
            raise ValueError(f"{path}:{line}: expected a job id, got '{t}'") from None
    return np.array(ids, dtype=np.int64)


def read_jobs(path: str, placement: str | None = None) -> JobTable:
    """Per-job results from any of the layouts `mosim compare` reads (src/output/ground_truth.cpp):
    - a mosim jobs.csv, or the output folder holding one;
    - the artifact's 16gpu per-job testbed file (placement,job_ids,models,arrival_times,
      wait_times,training_time,jcts): the rows of `placement` (or of its only placement);
      start = arrival + wait and end = arrival + jct (mosim-reference.md §9.1);
    - a 32gpu per-policy testbed file (job_id with an optional "id" prefix, start_time_seconds,
      end_time_seconds, training_time (the first of two), jcts, wait_times, arrival_times)."""
    if os.path.isdir(path):
        path = os.path.join(path, "jobs.csv")
    t = _Csv(path)
    if t.has("placement", "job_ids"):
        present = list(dict.fromkeys(t.text("placement")))
        if placement is None and len(present) == 1:
            placement = present[0]
        if placement not in present:
            problem = "holds several placements; choose one" if placement is None else \
                f"has no rows for placement '{placement}'"
            raise ValueError(f"{path}: {problem} (present: {', '.join(present)})")
        keep = np.array(t.text("placement")) == placement
        arrival, wait, jct = (t.numbers(c)[keep] for c in ("arrival_times", "wait_times", "jcts"))
        return JobTable(job_id=_job_ids(path, t.text("job_ids"))[keep], submit=arrival,
                        start=arrival + wait, end=arrival + jct, wait=wait,
                        training=t.numbers("training_time")[keep], jct=jct,
                        completed=np.ones(int(keep.sum()), dtype=bool),
                        model=[m for m, k in zip(t.text("models"), keep) if k])
    if t.has("job_id", "start_time_seconds"):
        n = len(t.rows)
        return JobTable(job_id=_job_ids(path, t.text("job_id")), submit=t.numbers("arrival_times"),
                        start=t.numbers("start_time_seconds"), end=t.numbers("end_time_seconds"),
                        wait=t.numbers("wait_times"), training=t.numbers("training_time"),
                        jct=t.numbers("jcts"), completed=np.ones(n, dtype=bool),
                        model=t.text("models") if t.has("models") else None)
    if t.has("job_id", "jct"):
        # An unplaceable job has empty times.
        status = t.text("status") if t.has("status") else ["completed"] * len(t.rows)
        times = {c: t.numbers(c, empty_is_nan=True) for c in ("start", "end", "wait", "training", "jct")}
        return JobTable(job_id=_job_ids(path, t.text("job_id")), submit=t.numbers("submit"),
                        start=times["start"], end=times["end"], wait=times["wait"],
                        training=times["training"], jct=times["jct"],
                        completed=np.array([s == "completed" for s in status]),
                        num_gpus=t.numbers("num_gpus").astype(int) if t.has("num_gpus") else None,
                        model=t.text("model") if t.has("model") else None)
    raise ValueError(f"{path}: unknown per-job layout: expected a mosim jobs.csv, the artifact's 16gpu "
                     "per-job testbed file or a 32gpu per-policy testbed file")


# ---------------------------------------------------------------------------------------------
# Command-line pieces shared by the scripts

def parse_where(items: list[str] | None) -> dict[str, list[str]]:
    """--where AXIS=V1[,V2...] (repeatable) -> {AXIS: [V1, V2, ...]}."""
    conditions: dict[str, list[str]] = {}
    for item in items or []:
        name, sep, values = item.partition("=")
        if not sep or not name or not values:
            raise ValueError(f"--where '{item}': expected AXIS=VALUE[,VALUE...]")
        conditions.setdefault(name.strip(), []).extend(v.strip() for v in values.split(","))
    return conditions


def parse_relabel(items: list[str] | None) -> dict[str, tuple[str, list[str]]]:
    """--relabel AXIS=NEWNAME:L1,L2,... (repeatable)."""
    relabel = {}
    for item in items or []:
        name, sep, rest = item.partition("=")
        new_name, sep2, labels = rest.partition(":")
        if not sep or not sep2 or not name or not new_name or not labels:
            raise ValueError(f"--relabel '{item}': expected AXIS=NEWNAME:LABEL,LABEL,...")
        relabel[name.strip()] = (new_name.strip(), [x.strip() for x in labels.split(",")])
    return relabel


def add_sweep_arguments(parser, files_help: str = "sweep result files (HDF5)") -> None:
    parser.add_argument("results", nargs="+", help=files_help)
    parser.add_argument("--where", action="append", metavar="AXIS=V[,V...]",
                        help="keep the points with these values (repeatable)")
    parser.add_argument("--relabel", action="append", metavar="AXIS=NAME:L1,L2,...",
                        help="rename an axis and its values by position in every file, so that files "
                             "with different values line up (repeatable)")
    parser.add_argument("--relative-to", metavar="AXIS=VALUE",
                        help="divide every metric by that of the same point with this value on AXIS "
                             "(paired ratios over common random numbers)")


def load_from_arguments(args) -> SweepResults:
    """The files, relabelled, as paired ratios with --relative-to, then filtered by --where (the
    reference points may be filtered out: the ratios are taken first)."""
    results = load_sweep(args.results, parse_relabel(args.relabel), with_jobs=False)
    if getattr(args, "relative_to", None):
        from mosim_stats import relative_to
        axis, sep, value = args.relative_to.partition("=")
        if not sep:
            raise ValueError(f"--relative-to '{args.relative_to}': expected AXIS=VALUE")
        results = relative_to(results, axis.strip(), value.strip())
    where = parse_where(args.where)
    return results.where(where) if where else results


def split_source(text: str) -> tuple[str | None, str, str | None]:
    """A source argument `[LABEL=]PATH[#FRAGMENT]` -> (label, path, fragment). The fragment is a
    placement for a testbed file with several (`#k8s-load-balancing`) or points of a sweep file
    (`#AXIS=V,AXIS=V`)."""
    fragment = None
    if "#" in text and not os.path.exists(text):
        text, fragment = text.rsplit("#", 1)
    label = None
    if "=" in text and not os.path.exists(text):
        label, text = text.split("=", 1)
    return label, text, fragment


@dataclass
class Source:
    """What a source argument names: a sweep file's points, or one per-job table."""
    label: str | None
    path: str
    sweep: SweepResults | None = None
    jobs: JobTable | None = None


def open_source(text: str, where: dict[str, list[str]] | None = None) -> Source:
    """Opens `[LABEL=]PATH[#FRAGMENT]`: a sweep file (its points after the fragment's and
    `where`'s conditions), or a per-job CSV or run folder (read_jobs; the fragment is a placement)."""
    label, path, fragment = split_source(text)
    if os.path.isfile(path) and is_sweep_file(path):
        results = load_sweep(path)
        conditions = dict(where or {})
        if fragment:
            for item in re.split(r",(?=[\w-]+=)", fragment):
                for name, values in parse_where([item]).items():
                    conditions[name] = values
        return Source(label, path, sweep=results.where(conditions) if conditions else results)
    return Source(label, path, jobs=read_jobs(path, fragment))


def error_text(e: Exception) -> str:
    """One line for an error the scripts report (KeyError's str() would add quotes)."""
    return str(e.args[0]) if isinstance(e, KeyError) and e.args else str(e)


def is_sweep_file(path: str) -> bool:
    with open(path, "rb") as f:
        return f.read(8) == b"\x89HDF\r\n\x1a\n"
