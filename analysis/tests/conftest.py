"""Shared fixtures: the analysis modules on sys.path, the mosim binary (MOSIM_BIN, set by CTest)
and small result files made by real `mosim sweep` and `mosim run` commands."""
import contextlib
import importlib
import io
import os
import subprocess
import sys

import pytest

ANALYSIS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ANALYSIS)

# A tiny sweep: 3 seeds x 3 traces x 2 models = 18 points of 10-job workloads on 2 x 8 GPUs.
# bad.csv has a negative duration, so its points fail (status 2, with the message); big.csv's
# only job needs 64 GPUs, so its points place no job (status 1).
SPEC = """\
seed: 7
base:
  jobs: 10
  servers: 2
  gpus-per-server: 8
axes:
  seed: {from: 1, to: 3}
  trace: [synthetic, bad.csv, big.csv]
  contention: [none, fixed]
"""
BAD_TRACE = "job_id,submit_time,num_gpus,duration\n0,0,4,100\n1,10,2,-5\n"
BIG_TRACE = "job_id,submit_time,num_gpus,duration\n0,0,64,100\n"


def script(name):
    return os.path.join(ANALYSIS, name)


def run_script(name, *args):
    """Runs an analysis script's main() in this process (starting Python with numpy, scipy and
    h5py takes seconds on a busy machine); returns (returncode, stdout, stderr) like a process."""
    module = importlib.import_module(name.removesuffix(".py"))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = module.main([str(a) for a in args])
        except SystemExit as e:   # argparse errors
            code = e.code
    return subprocess.CompletedProcess([name, *args], code, out.getvalue(), err.getvalue())


def run_process(name, *args):
    """Runs an analysis script as a command, as a user would."""
    return subprocess.run([sys.executable, script(name), *map(str, args)], capture_output=True, text=True)


@pytest.fixture(scope="session")
def mosim():
    path = os.environ.get("MOSIM_BIN")
    if not path or not os.access(path, os.X_OK):
        pytest.skip("MOSIM_BIN is not set to the mosim binary (CTest sets it): "
                    "skipping the tests that run mosim")
    return path


def sweep(mosim, folder, spec_text, name="results.h5", extra=()):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "spec.yaml").write_text(spec_text)
    (folder / "bad.csv").write_text(BAD_TRACE)
    (folder / "big.csv").write_text(BIG_TRACE)
    env = dict(os.environ, OMP_NUM_THREADS="1")
    done = subprocess.run([mosim, "sweep", "spec.yaml", "--out", name, "--quiet", *extra],
                          cwd=folder, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    return folder / name


@pytest.fixture(scope="session")
def sweep_file(mosim, tmp_path_factory):
    """The tiny sweep above, with per-job tables."""
    return sweep(mosim, tmp_path_factory.mktemp("sweep"), SPEC, extra=["--per-job"])


def artifact_dir():
    """The paper artifact's data (../shared/data/mosim-artifact), or None."""
    candidates = [os.environ.get("MOSIM_ARTIFACT_DIR", ""),
                  os.path.join(ANALYSIS, "..", "..", "shared", "data", "mosim-artifact")]
    for c in candidates:
        if c and os.path.isdir(os.path.join(c, "testbed")):
            return os.path.abspath(c)
    return None


def write_sweep_file(path, axes, coords, metrics, status=None, jobs=None):
    """A hand-built file in the sweep layout (README "The result file"): axes = [(name, values,
    numeric or None, unit)], coords = [[index per axis] per point], metrics = {name: [per point]}."""
    import h5py
    import numpy as np
    n = len(coords)
    text = h5py.string_dtype()
    with h5py.File(path, "w") as f:
        f.attrs["format"] = "mosim-sweep 1"
        f.attrs["spec"] = "hand-built"
        f.attrs["spec_hash"] = "0"
        f.attrs["axes"] = np.array([a[0] for a in axes], dtype=object)
        f.attrs["per_job"] = int(jobs is not None)
        for name, values, numeric, unit in axes:
            g = f.create_group(f"axes/{name}")
            g.create_dataset("values", data=np.array(values, dtype=object), dtype=text)
            if numeric is not None:
                g.create_dataset("numeric", data=np.array(numeric, dtype=float))
                g["numeric"].attrs["unit"] = unit
        f.create_dataset("points/index", data=np.arange(n, dtype=np.uint64))
        f.create_dataset("points/coords", data=np.array(coords, dtype=np.uint32).reshape(n, len(axes)))
        f.create_dataset("points/seed", data=np.arange(n, dtype=np.uint64))
        f.create_dataset("points/status", data=np.array(status or [0] * n, dtype=np.uint8))
        f.create_dataset("points/error", data=np.array([""] * n, dtype=object), dtype=text)
        for name, values in metrics.items():
            f.create_dataset(f"metrics/{name}", data=np.array(values, dtype=float))
        for name, values in (jobs or {}).items():
            f.create_dataset(f"jobs/{name}", data=np.array(values))
    return path
