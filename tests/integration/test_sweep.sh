#!/usr/bin/env bash
# mosim sweep and mosim merge end to end, with mpirun:
#   - bad input: one line naming file, line and key (or the option), exit status 2, no work done
#   - --dry-run
#   - determinism: 1 rank x 1 thread and 2 ranks x 2 threads give bit-identical datasets
#   - crash safety: SIGKILL part-way (the only process, or one of two ranks), --resume, and the
#     result is identical to the uninterrupted run's
#   - shards merged equal the whole; merge refuses another spec and overlapping points
# usage: test_sweep.sh MOSIM SWEEP_TOOL TEST_DATA_DIR [MPIRUN]
# wall_seconds is the one dataset allowed to differ between runs (sweep_tool compare skips it).
set -u
mosim=$1
tool=$2
data=$3/sweeps
mpirun=${4:-mpirun}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
# CI runs as root; Open MPI refuses that unless told. Oversubscribe: 2 ranks x 2 threads on 2 cores.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
mpi() { local ranks=$1 threads=$2; shift 2; OMP_NUM_THREADS=$threads timeout 300 "$mpirun" --bind-to none -np "$ranks" "$@"; }

# shellcheck source=tests/integration/expect.sh
source "$(dirname "$0")/expect.sh"
EXPECT_TIMEOUT=120
export OMP_NUM_THREADS=1    # commands that do not say otherwise (runs set it explicitly)
# The kill test's spec, with the absolute path of its trace.
sed "s|@DATA@|$data|" "$data/kill.yaml.in" >"$work/kill.yaml"
kill_spec=$work/kill.yaml
same() { "$tool" compare "$1" "$2" >"$work/compare.txt" 2>&1 || fail "$1 and $2 differ: $(cat "$work/compare.txt")"; }

# ---- Bad input: before any work, nothing written --------------------------------------------------
printf 'axes:\n  jobs: [1]\n  speed: [1, 2]\n' >"$work/unknown.yaml"
expect 2 'unknown.yaml:3: field .speed.: unknown option' -- "$mosim" sweep unknown.yaml --out x.h5
printf 'axes:\n  placement: []\n' >"$work/empty.yaml"
expect 2 'empty.yaml:2: field .placement.: the axis has no values' -- "$mosim" sweep empty.yaml --out x.h5
printf 'base: {trace: synthetic, jobs: 5}\naxes:\n  contention: [none, fixed]\n  placement: [colocate, spread]\n' >"$work/value.yaml"
expect 2 "value.yaml:4: field .placement.: axis value 'spread' is rejected, e.g. at point 1 \(contention=none, placement=spread\): --placement 'spread': unknown name" -- \
  "$mosim" sweep value.yaml --out x.h5
printf 'axes:\n  jobs: [1, 2\n  seed: [1]\n' >"$work/malformed.yaml"
expect 2 'malformed.yaml:[0-9]+: malformed YAML' -- "$mosim" sweep malformed.yaml --out x.h5
expect 2 'shard .2/2.' -- "$mosim" sweep "$data/small.yaml" --shard 2/2 --out x.h5
expect 2 'give --resume or --force, not both' -- "$mosim" sweep "$data/small.yaml" --resume --force --out x.h5
[ -e "$work/x.h5" ] || [ -e "$work/x.h5.journal" ] && fail "bad input must not create any file"

# ---- --dry-run ------------------------------------------------------------------------------------
expect 0 '^sweep .*small.yaml: 12 points' -- "$mosim" sweep "$data/small.yaml" --dry-run --samples 2
expect 0 'axis  placement +2 values: k8s-load-balancing, k8s-bin-packing' -- "$mosim" sweep "$data/small.yaml" --dry-run --samples 0
expect 0 'cost estimate: 2 sampled points took' -- "$mosim" sweep "$data/small.yaml" --dry-run --samples 2
[ -e "$work/sweep.h5" ] && fail "--dry-run must not write results"

# ---- Determinism across ranks and threads ---------------------------------------------------------
# small.yaml: synthetic traces, seeds and policies; kill.yaml: phase-level points with per-job tables.
for spec in "$data/small.yaml" "$kill_spec"; do
  name=$(basename "$spec" .yaml)
  (cd "$work" && mpi 1 1 "$mosim" sweep "$spec" --out "$name-1x1.h5" --per-job --quiet) || fail "$name: 1 x 1 run failed"
  (cd "$work" && mpi 2 2 "$mosim" sweep "$spec" --out "$name-2x2.h5" --per-job --quiet) || fail "$name: 2 x 2 run failed"
  same "$work/$name-1x1.h5" "$work/$name-2x2.h5"
done
[ -e "$work/kill-1x1.h5.journal" ] && fail "the journals should be gone once the file is written"

# An existing result needs --resume (complete: nothing to do) or --force.
expect 2 'kill-1x1.h5: exists: give --resume' -- "$mosim" sweep "$kill_spec" --out kill-1x1.h5 --per-job
expect 0 'already complete' -- "$mosim" sweep "$kill_spec" --out kill-1x1.h5 --per-job --resume
expect 2 'holds another sweep' -- "$mosim" sweep "$data/small.yaml" --out kill-1x1.h5 --resume
cp "$work/small-1x1.h5" "$work/forced.h5"
expect 0 '12 points \(12 computed' -- "$mosim" sweep "$data/small.yaml" --out forced.h5 --force

# ---- Crash safety ---------------------------------------------------------------------------------
# kill_after OUT N PID...: waits until the journals of OUT hold at least N points, then SIGKILLs
# the given processes and sets `killed_at` to the count it saw. Fails if the sweep finished first.
killed_at=0
kill_after() {
  local out=$1 wanted=$2
  shift 2
  killed_at=0
  for _ in $(seq 1 3000); do
    killed_at=$("$tool" journal-count "$kill_spec" "$work/$out.journal" per-job 2>/dev/null || echo 0)
    [ "${killed_at:-0}" -ge "$wanted" ] && break
    [ -e "$work/$out" ] && break
    sleep 0.02
  done
  kill -9 "$@" 2>/dev/null
  echo "$out: SIGKILL to $* with $killed_at points journaled"
  [ -e "$work/$out" ] && fail "$out was finished before the kill: make kill.yaml.in bigger"
}

# The only process (2 threads), killed after a few points; resumed with 2 ranks.
(cd "$work" && OMP_NUM_THREADS=2 exec "$mosim" sweep "$kill_spec" --out k1.h5 --per-job --quiet) &
pid=$!
kill_after k1.h5 3 "$pid"
wait "$pid" 2>/dev/null
after=$("$tool" journal-count "$kill_spec" "$work/k1.h5.journal" per-job)
[ "$after" -ge "$killed_at" ] || fail "points journaled before the kill were lost ($killed_at -> $after)"
expect 2 'k1.h5.journal: holds the journals of an interrupted sweep: give --resume' -- \
  "$mosim" sweep "$kill_spec" --out k1.h5 --per-job
(cd "$work" && mpi 2 1 "$mosim" sweep "$kill_spec" --out k1.h5 --per-job --resume) >"$work/resume.txt" 2>&1 ||
  fail "resume failed: $(cat "$work/resume.txt")"
grep -Eq "resuming: $after points journaled" "$work/resume.txt" ||
  fail "resume should report $after journaled points: $(cat "$work/resume.txt")"
same "$work/kill-1x1.h5" "$work/k1.h5"

# One rank of two killed (the later-started one, a worker): mpirun then ends the other. Resumed
# with one rank of 2 threads.
(cd "$work" && mpi 2 1 "$mosim" sweep "$kill_spec" --out k2.h5 --per-job --quiet) >/dev/null 2>&1 &
background=$!
rank=""
for _ in $(seq 1 500); do
  launcher=$(pgrep -f "^$mpirun .*--out k2.h5" | head -1)
  [ -n "$launcher" ] && rank=$(pgrep -P "$launcher" | tail -1)
  [ -n "$rank" ] && break
  sleep 0.02
done
if [ -z "$rank" ]; then
  fail "could not find a rank of the 2-rank run"
else
  kill_after k2.h5 3 "$rank"
fi
wait "$background" 2>/dev/null
(cd "$work" && OMP_NUM_THREADS=2 "$mosim" sweep "$kill_spec" --out k2.h5 --per-job --resume --quiet) ||
  fail "resume after killing a rank failed"
same "$work/kill-1x1.h5" "$work/k2.h5"

# ---- Shards and merge -----------------------------------------------------------------------------
# Shard k/3 of 12 points holds points k, k + 3, k + 6, k + 9.
for k in 0 1 2; do
  (cd "$work" && mpi 1 1 "$mosim" sweep "$data/small.yaml" --shard "$k/3" --out "s$k.h5" --per-job --quiet) ||
    fail "shard $k/3 failed"
done
expect 0 'mosim merge: 3 files, 12 of 12 points \(complete\)' -- "$mosim" merge s0.h5 s2.h5 s1.h5 -o all.h5
same "$work/small-1x1.h5" "$work/all.h5"
expect 0 '4 of 12 points \(8 missing\)' -- "$mosim" merge s0.h5 -o part.h5
expect 2 's1.h5: field .points.: point 1 is also in all.h5' -- "$mosim" merge all.h5 s1.h5 -o overlap.h5
expect 2 'kill-1x1.h5: field .spec.: comes from another sweep spec' -- "$mosim" merge s0.h5 kill-1x1.h5 -o mixed.h5
expect 2 'all.h5: exists: give --force' -- "$mosim" merge s0.h5 -o all.h5
expect 2 'not an HDF5 file' -- "$mosim" merge "$data/small.yaml" -o bad.h5

echo "test_sweep: $failures failure(s)"
[ "$failures" = 0 ]
