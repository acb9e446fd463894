#!/usr/bin/env bash
# Sweep benchmark: parallel efficiency of 2 ranks x 1 thread and of 1 rank x 2 threads against
# 1 x 1, and the share of the run spent writing the HDF5 file, on bench.yaml (400 points).
#
# usage: experiments/sweep/bench.sh [MOSIM] [REPEATS]     (defaults: build/mosim, 5)
#
# Every configuration runs under mpirun --bind-to none (so that 2 threads of one rank may use 2
# cores) REPEATS times, the configurations taking turns; the fastest run of each counts, since other
# load on a shared machine only ever adds time. Two efficiencies are printed, E = T(1 x 1) / (2 T(config)):
#   - "sweep": from the sweep's own compute phase (from the plan to the last journal record;
#     what more points would scale with),
#   - "process": from the whole command's wall time, including ~0.3 s of MPI start-up.
# The HDF5 share is the time to turn the journals into the .h5 file (read journals, write, fsync,
# rename) over the sweep's total time, without and with --per-job tables. "other load" is the CPU
# that other processes took during the best run: the efficiencies mean little unless it is ~0.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mosim=$(realpath "${1:-$here/../../build/mosim}")
repeats=${2:-5}
spec=$here/bench.yaml
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

# Busy CPU seconds of the whole machine so far (/proc/stat: user nice system irq softirq steal).
busy_s() { awk '/^cpu / { print ($2 + $3 + $4 + $7 + $8 + $9) / 100 }' /proc/stat; }

# once RANKS THREADS [extra options]: one run; prints "process_s compute_s write_s total_s
# other_cores busy%". other_cores is the CPU that other processes used meanwhile, in cores (near 0,
# or the efficiencies mean little); busy% is the share of the workers' time spent in points, as the
# sweep reports it: the dispatcher's own efficiency, which slower cores do not lower.
once() {
  local ranks=$1 threads=$2
  shift 2
  rm -rf "$work/out.h5" "$work/out.h5.journal"
  local start end busy_start busy_end line
  start=$(date +%s.%N)
  busy_start=$(busy_s)
  line=$(cd "$work" && OMP_NUM_THREADS=$threads /usr/bin/time -f "cpu %U %S" -o "$work/cpu.txt" \
           mpirun --bind-to none -np "$ranks" "$mosim" sweep "$spec" --out out.h5 "$@" 2>/dev/null | grep '^mosim sweep:')
  busy_end=$(busy_s)
  end=$(date +%s.%N)
  # "... in 12.345 s: computing 12.000 s (workers busy 99.1%), writing out.h5 0.020 s (0.16%)"
  awk -v start="$start" -v end="$end" -v busy_start="$busy_start" -v busy_end="$busy_end" \
      -v cpu="$(tail -1 "$work/cpu.txt")" '{
      for (i = 1; i <= NF; i++) {
        if ($i == "in") total = $(i + 1)
        if ($i == "computing") compute = $(i + 1)
        if ($i == "writing") write = $(i + 2)
        if ($i == "busy") busy = $(i + 1) + 0
      }
      split(cpu, c)
      other = (busy_end - busy_start - c[2] - c[3]) / (end - start)
      printf "%.3f %.3f %.4f %.3f %.2f %.1f\n", end - start, compute, write, total, other < 0 ? 0 : other, busy }' <<<"$line"
}

# The faster of two figure lines (by compute time).
faster() { awk -v a="$1" -v b="$2" 'BEGIN { split(a, x); split(b, y); print (b == "" || x[2] < y[2]) ? a : b }'; }

echo "mosim sweep benchmark: $("$mosim" sweep "$spec" --dry-run --samples 0 | head -1)"
echo "machine: $(nproc) cores; best of $repeats runs per configuration"
# The configurations take turns, so that a slow spell of the machine hits them alike.
one="" ranks="" threads="" per_job=""
for _ in $(seq 1 "$repeats"); do
  one=$(faster "$(once 1 1)" "$one")
  ranks=$(faster "$(once 2 1)" "$ranks")
  threads=$(faster "$(once 1 2)" "$threads")
  per_job=$(faster "$(once 2 1 --per-job)" "$per_job")
done

awk -v one="$one" -v ranks="$ranks" -v threads="$threads" -v per_job="$per_job" 'BEGIN {
  split(one, o); split(ranks, r); split(threads, t); split(per_job, p)
  # Sum of the point times: it grows when both cores compute at once (shared caches and
  # memory bandwidth), which no scheduling can win back.
  po = o[6] / 100 * o[2]; pr = r[6] / 100 * 2 * r[2]; pt = t[6] / 100 * 2 * t[2]
  printf "\n%-20s %9s %9s %8s %9s %11s %7s %9s %11s\n", "configuration", "process s", "compute s", "write s", "E (sweep)", "E (process)", "busy", "points s", "other load"
  printf "%-20s %9.2f %9.2f %8.4f %9s %11s %6.1f%% %9.2f %6.2f cores\n", "1 rank x 1 thread", o[1], o[2], o[3], "-", "-", o[6], po, o[5]
  printf "%-20s %9.2f %9.2f %8.4f %9.3f %11.3f %6.1f%% %9.2f %6.2f cores\n", "2 ranks x 1 thread", r[1], r[2], r[3], o[2] / (2 * r[2]), o[1] / (2 * r[1]), r[6], pr, r[5]
  printf "%-20s %9.2f %9.2f %8.4f %9.3f %11.3f %6.1f%% %9.2f %6.2f cores\n", "1 rank x 2 threads", t[1], t[2], t[3], o[2] / (2 * t[2]), o[1] / (2 * t[1]), t[6], pt, t[5]
  printf "\nHDF5 share of the sweep (write / total): 1x1 %.2f%%, 2x1 %.2f%%, 1x2 %.2f%%; 2x1 with --per-job %.2f%% (%.4f s of %.2f s)\n",
         100 * o[3] / o[4], 100 * r[3] / r[4], 100 * t[3] / t[4], 100 * p[3] / p[4], p[3], p[4]
  printf "targets: E >= 0.9, HDF5 share <= 2%%\n"
}'
