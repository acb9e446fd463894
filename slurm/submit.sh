#!/usr/bin/env bash
# Checks a sweep spec, then submits it to Slurm in the right shape, and prints the job ids:
#   - one hybrid MPI + OpenMP job (slurm/sweep.sbatch), or
#   - with --array SHARDS: a job array of shards (slurm/array.sbatch), chunked to stay within the
#     cluster's MaxArraySize, and a merge job (slurm/merge.sbatch) that runs when all succeeded.
# Run it from the folder the jobs should work in: the spec's relative paths, the output and the
# jobs' logs (mosim-*.out) are relative to it. Run `slurm/submit.sh --help` for the options.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: slurm/submit.sh SPEC --nodes N [options] [-- SWEEP OPTIONS...]

  --nodes N             nodes per job (for an array: per array task)
  --tasks-per-node T    MPI ranks per node (default 1)
  --cpus-per-task C     CPUs, and so OpenMP threads, per rank (default 1)
  --time LIMIT          time limit per job or array task, as sbatch takes it (default 04:00:00)
  --out FILE            the result file (default: SPEC's name with .h5, in this folder)
  --array SHARDS        split the sweep into SHARDS shards run as a job array, then merge them
  --parts DIR           with --array: where the shards' files go (default OUT.parts)
  --max-running M       with --array: at most M array tasks at once (sbatch --array=...%M)
  --max-array-size S    with --array: the cluster's MaxArraySize (default: scontrol show config)
  --partition P, --account A, --qos Q, --job-name NAME
                        passed to sbatch
  --sbatch-arg ARG      any other sbatch option, for every job (repeatable: --sbatch-arg=--mem=8G)
  --mosim PATH          the mosim binary (default: $MOSIM, then mosim on PATH, then build/mosim
                        next to this folder); it must be reachable from the compute nodes
  --samples S           points the dry run simulates for its cost estimate (default 3, 0: none)
  -h, --help            this help

Options after -- go to `mosim sweep` in every job (e.g. -- --per-job).
Environment passed on to the jobs: MOSIM_SRUN_MPI (srun --mpi plugin, default pmix),
MOSIM_MAX_REQUEUES (default 10), MOSIM_REQUEUE_MIN_S (default 60).
EOF
}

die() { echo "submit.sh: error: $*" >&2; exit 2; }
positive() { [[ "$2" =~ ^[1-9][0-9]*$ ]] || die "$1 needs a positive integer, not '$2'"; }

# limit_seconds LIMIT: a Slurm time limit (MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS) in
# seconds; nothing for an unlimited one; status 1 when it is not one of these forms.
limit_seconds() {
  local limit=$1 days=0 h=0 m=0 s=0 a b c
  case "${limit^^}" in UNLIMITED | INFINITE | 0) return 0 ;; esac
  [[ "$limit" =~ ^([0-9]+-)?[0-9]+(:[0-9]+){0,2}$ ]] || return 1
  if [[ "$limit" == *-* ]]; then
    days=${limit%%-*}
    IFS=: read -r h m s <<<"${limit#*-}"
  else
    IFS=: read -r a b c <<<"$limit"
    if [ -n "$c" ]; then h=$a m=$b s=$c; elif [ -n "$b" ]; then m=$a s=$b; else m=$a; fi
  fi
  echo $(((((10#$days * 24 + 10#${h:-0}) * 60) + 10#${m:-0}) * 60 + 10#${s:-0}))
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
spec="" nodes="" tasks=1 cpus=1 time_limit=04:00:00 out="" shards="" parts="" max_running=""
max_array="" mosim=${MOSIM:-} samples=3
sbatch_args=()
sweep_args=()

while [ $# -gt 0 ]; do
  option=$1
  value=""
  case "$option" in
    --*=*) value=${option#*=}; option=${option%%=*} ;;
    -h | --help) usage; exit 0 ;;
    --) shift; sweep_args=("$@"); break ;;
    -*)
      [ $# -ge 2 ] || die "$option needs a value"
      value=$2
      shift
      ;;
  esac
  case "$option" in
    --nodes) positive "$option" "$value"; nodes=$value ;;
    --tasks-per-node) positive "$option" "$value"; tasks=$value ;;
    --cpus-per-task) positive "$option" "$value"; cpus=$value ;;
    --time) time_limit=$value ;;
    --out) out=$value ;;
    --array) positive "$option" "$value"; shards=$value ;;
    --parts) parts=$value ;;
    --max-running) positive "$option" "$value"; max_running=$value ;;
    --max-array-size) positive "$option" "$value"; max_array=$value ;;
    --partition | --account | --qos | --job-name) sbatch_args+=("$option=$value") ;;
    --sbatch-arg) sbatch_args+=("$value") ;;
    --mosim) mosim=$value ;;
    --samples) [[ "$value" =~ ^[0-9]+$ ]] || die "--samples needs a number, not '$value'"; samples=$value ;;
    -*) die "unknown option $option (see --help)" ;;
    *)
      [ -z "$spec" ] || die "one spec only: '$spec' and '$option'"
      spec=$option
      ;;
  esac
  shift
done

[ -n "$spec" ] || { usage >&2; die "which spec?"; }
[ -r "$spec" ] || die "cannot read the spec '$spec'"
[ -n "$nodes" ] || die "give --nodes N"
limit_seconds "$time_limit" >/dev/null || die "--time '$time_limit' is not a Slurm time limit (MM, HH:MM:SS, D-HH:MM, ...)"
[ -z "$shards" ] && { [ -n "$parts" ] || [ -n "$max_running" ]; } && die "--parts and --max-running go with --array"
command -v sbatch >/dev/null || die "sbatch not found: run this on a Slurm login node"

# The mosim binary, as an absolute path: the jobs run it on the compute nodes.
if [ -z "$mosim" ]; then
  if command -v mosim >/dev/null; then
    mosim=mosim
  elif [ -x "$here/../build/mosim" ]; then
    mosim=$here/../build/mosim
  else
    die "no mosim binary: give --mosim PATH or set MOSIM"
  fi
fi
resolved=$(command -v "$mosim") || die "mosim binary '$mosim' not found"
mosim=$(realpath "$resolved")
spec=$(realpath "$spec")
[ -n "$out" ] || out=$(basename "${spec%.*}").h5
out=$(realpath -m "$out")

# 1. The spec, checked completely before anything is queued (exit status 2 on an error).
echo "submit.sh: checking $spec"
"$mosim" sweep "$spec" --dry-run --samples "$samples" || die "the spec does not check out: nothing submitted"

# The requeue warning: USR1 to the batch script 300 s before the time limit, or a fifth of the
# limit before it when that is shorter (a 10-minute job is warned after 8 minutes).
warn=300
if limit=$(limit_seconds "$time_limit") && [ -n "$limit" ]; then
  warn=$((limit / 5 < warn ? limit / 5 : warn))
fi

export MOSIM=$mosim
common=(--parsable --export=ALL)
shape=(--nodes="$nodes" --ntasks-per-node="$tasks" --cpus-per-task="$cpus" --time="$time_limit"
  --signal="B:USR1@$warn")
job_id() { local id=$1; echo "${id%%;*}"; }    # --parsable prints ID or ID;CLUSTER

# 2a. One hybrid job.
if [ -z "$shards" ]; then
  id=$(sbatch "${common[@]}" "${shape[@]}" "${sbatch_args[@]}" "$here/sweep.sbatch" "$spec" "$out" "${sweep_args[@]}")
  echo "sweep job $(job_id "$id"): $nodes node(s) x $tasks rank(s) x $cpus thread(s) -> $out"
  exit 0
fi

# 2b. An array of shards, then the merge. Array indices must stay below MaxArraySize: with more
# shards than that, each array task runs several shards (array.sbatch strides by the array size).
if [ -z "$max_array" ]; then
  max_array=$(scontrol show config 2>/dev/null | awk -F' *= *' '$1 == "MaxArraySize" { print $2 }')
  [[ "$max_array" =~ ^[1-9][0-9]*$ ]] || { max_array=1001; echo "submit.sh: MaxArraySize unknown, assuming 1001"; }
fi
array_tasks=$((shards < max_array ? shards : max_array))
per_task=$(((shards + array_tasks - 1) / array_tasks))
parts=$(realpath -m "${parts:-$out.parts}")
mkdir -p "$parts"
array="0-$((array_tasks - 1))${max_running:+%$max_running}"
export MOSIM_ARRAY_TASKS=$array_tasks

id=$(sbatch "${common[@]}" "${shape[@]}" --array="$array" "${sbatch_args[@]}" "$here/array.sbatch" "$spec" "$parts" "$shards" "${sweep_args[@]}")
array_id=$(job_id "$id")
echo "array job $array_id: $shards shard(s) in $array_tasks task(s) (up to $per_task each, MaxArraySize $max_array)," \
  "each $nodes node(s) x $tasks rank(s) x $cpus thread(s) -> $parts"
id=$(sbatch "${common[@]}" --dependency="afterok:$array_id" --kill-on-invalid-dep=yes "${sbatch_args[@]}" \
  "$here/merge.sbatch" "$parts" "$shards" "$out")
echo "merge job $(job_id "$id"): after $array_id -> $out"
