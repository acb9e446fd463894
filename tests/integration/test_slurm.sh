#!/usr/bin/env bash
# The Slurm scripts (slurm/) on a real, single-node Slurm cluster started for this test:
#   - slurmctld and slurmd (Debian's packages, installed here when missing) on this machine, with
#     a private slurm.conf in a temporary folder: no munge (auth/none), no accounting, own ports
#   - slurm/submit.sh refuses a bad spec before submitting anything
#   - one hybrid job (slurm/sweep.sbatch: srun --mpi=pmix, 1 rank x 2 threads) and an array of
#     5 shards chunked into 2 tasks of 2 ranks (MaxArraySize=2) plus its dependent merge job:
#     both results equal a direct `mosim sweep` of the same spec, dataset by dataset
#   - requeue: a running sweep job is requeued twice, by `scontrol requeue` (as preemption does)
#     and by the USR1 its script gets near the time limit, and still gives the complete result
#   - the daemons are stopped by their process ids, whatever happens (trap on EXIT)
# usage: test_slurm.sh MOSIM SWEEP_TOOL SOURCE_DIR [SANITIZE]
# TEST_SLURM_KEEP=1 keeps the temporary folder (configuration, logs, results) for a look.
# Exit status 77 (skipped): a sanitizer build (SANITIZE true), or no way to get Slurm here.
set -euo pipefail

mosim=$(realpath "$1")
tool=$(realpath "$2")
source_dir=$(realpath "$3")
sanitize=${4:-OFF}
slurm_dir=$source_dir/slurm
limit=250                              # seconds once Slurm is installed; CTest's TIMEOUT is 600
skip() { echo "test_slurm: skipped: $*"; exit 77; }
note() { echo "test_slurm: $*"; }

case "${sanitize^^}" in
  1 | ON | TRUE | YES) skip "sanitizer build: the Slurm test runs in the release build only" ;;
esac

# ---- Slurm itself -------------------------------------------------------------------------------
have_slurm() { command -v slurmctld && command -v slurmd && command -v sbatch && command -v srun; } >/dev/null
if ! have_slurm; then
  [ "$(id -u)" = 0 ] || skip "Slurm is not installed, and only root can install it (apt-get install slurmctld slurmd slurm-client)"
  command -v apt-get >/dev/null || skip "Slurm is not installed and there is no apt-get to install it"
  note "installing Debian's slurmctld, slurmd and slurm-client"
  apt_install() { DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends slurmctld slurmd slurm-client; }
  { apt_install || { apt-get update && apt_install; }; } >/tmp/test_slurm_apt.log 2>&1 ||
    skip "could not install Slurm (apt-get output in /tmp/test_slurm_apt.log)"
  have_slurm || skip "Slurm's commands are still missing after the installation"
fi
[ "$(id -u)" = 0 ] || skip "slurmd must run as root (SlurmUser=root, no munge)"
SECONDS=0                              # the limit counts from here, after any installation

# Nothing of an outer Slurm job (if this runs inside one) may leak into ours.
while read -r name; do unset "$name"; done < <(env | grep -oE '^(SLURM|SBATCH|SRUN|SALLOC)_[A-Za-z0-9_]*' || true)

work=$(mktemp -d /tmp/test_slurm.XXXXXX)
mkdir -p "$work/state" "$work/spool" "$work/log" "$work/tmp"
ctld_pid="" slurmd_pid="" failed=1

logs() {
  for file in "$work"/mosim-*.out; do
    [ -e "$file" ] && { echo "---- $(basename "$file")"; cat "$file"; }
  done
  for file in "$work/log"/*; do
    echo "---- $(basename "$file") (last 30 lines)"
    tail -n 30 "$file"
  done
}
# stop PID...: SIGTERM, then SIGKILL after 10 s.
stop() {
  local pid
  for pid in "$@"; do kill -TERM "$pid" 2>/dev/null || true; done
  for _ in $(seq 100); do
    local alive=0
    for pid in "$@"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && return
    sleep 0.1
  done
  for pid in "$@"; do kill -KILL "$pid" 2>/dev/null || true; done
}
cleanup() {
  if [ -n "$ctld_pid" ] && kill -0 "$ctld_pid" 2>/dev/null; then
    # Cancel our jobs first, so that no job step outlives slurmd.
    scancel --quiet --full "--user=$(id -un)" 2>/dev/null || true
    for _ in $(seq 150); do
      [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
      sleep 0.2
    done
  fi
  [ "$failed" = 0 ] || logs
  local pids=()
  [ -n "$slurmd_pid" ] && pids+=("$slurmd_pid")
  [ -n "$ctld_pid" ] && pids+=("$ctld_pid")
  [ "${#pids[@]}" = 0 ] || stop "${pids[@]}"
  if [ -n "${TEST_SLURM_KEEP:-}" ]; then echo "test_slurm: kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

die() {
  echo "test_slurm: FAIL: $*"
  exit 1
}
deadline() { [ "$SECONDS" -lt "$limit" ] || die "out of time ($limit s) $*"; }

# Two free TCP ports (nothing answers on them) for slurmctld and slurmd.
free_port() {
  local port
  for _ in $(seq 100); do
    port=$((20000 + RANDOM % 30000))
    [ "$port" != "${1:-}" ] && ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && { echo "$port"; return; }
  done
  die "no free port found"
}
ctld_port=$(free_port)
slurmd_port=$(free_port "$ctld_port")
node=$(hostname -s)

# A one-node cluster on this machine. The daemons and the jobs run as root, so no munge is
# needed (auth/none, cred/none). MaxArraySize=2 makes submit.sh chunk an array of 5 shards into
# 2 tasks. config_overrides: the node is taken as the 2 CPUs written here, whatever the machine
# has. KillWait=5: cancelled and requeued jobs end quickly. The state, spool and temporary
# folders (PMIx's too) are private, so several such clusters may run at once.
export SLURM_CONF=$work/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=mosimtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/none
CredType=cred/none
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
TmpFS=$work/tmp
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
SlurmdParameters=config_overrides
KillWait=5
MinJobAge=600
MaxArraySize=2
FirstJobId=$((RANDOM + 1000))
NodeName=$node NodeAddr=127.0.0.1 CPUs=2 RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF

# The daemons in the foreground (-D), in the background of this script; `timeout` ends them even
# if this script is killed before its trap can run.
timeout -k 5 290 slurmctld -D -c -f "$SLURM_CONF" >"$work/log/slurmctld.out" 2>&1 &
ctld_pid=$!
timeout -k 5 290 slurmd -D -N "$node" -f "$SLURM_CONF" >"$work/log/slurmd.out" 2>&1 &
slurmd_pid=$!
until [ "$(sinfo -h -N -o %t 2>/dev/null)" = idle ]; do
  kill -0 "$ctld_pid" 2>/dev/null || die "slurmctld exited"
  kill -0 "$slurmd_pid" 2>/dev/null || die "slurmd exited"
  [ "$SECONDS" -lt 60 ] || die "the node is not idle after 60 s: $(sinfo -N 2>&1)"
  sleep 0.2
done
note "slurmctld (pid $ctld_pid, port $ctld_port) and slurmd (pid $slurmd_pid, port $slurmd_port) up, node $node idle after $SECONDS s"

# Open MPI starts under srun only with PMIx (Debian's is not built for pmi2). Without the PMIx
# plugin, run one task without MPI support (the scripts still default to pmix).
ranks=2
if ! srun --mpi=list 2>&1 | grep -qw pmix; then
  export MOSIM_SRUN_MPI=none
  ranks=1
  note "srun has no pmix plugin here: jobs run srun --mpi=none with one task"
fi

# ---- Specs and the reference results ------------------------------------------------------------
cd "$work"
# 6 seeds x 2 placements x 2 models = 24 points of 20 jobs: a few seconds in all.
cat >small.yaml <<'EOF'
seed: 11
base: {trace: synthetic, jobs: 20, servers: 2}
axes:
  seed: {from: 1, to: 6}
  placement: [k8s-load-balancing, k8s-bin-packing]
  contention: [none, fixed]
EOF
# 60 phase-level points of about 0.1 s each: long enough to requeue a job while it runs.
cat >slow.yaml <<'EOF'
seed: 5
base: {trace: synthetic, jobs: 12, servers: 2, contention: mosim}
axes:
  seed: {from: 1, to: 30}
  placement: [k8s-load-balancing, k8s-bin-packing]
EOF
printf 'axes:\n  placement: [spread]\n' >bad.yaml
for spec in small slow; do
  OMP_NUM_THREADS=2 "$mosim" sweep "$spec.yaml" --out "direct-$spec.h5" --per-job --quiet ||
    die "the direct run of $spec.yaml failed"
done
note "direct runs done after $SECONDS s"

# The jobs here run for seconds: a time-limit warning (USR1) must requeue them all the same.
export MOSIM_REQUEUE_MIN_S=0
submit() { "$slurm_dir/submit.sh" --mosim "$mosim" --samples 1 --time 30 "$@"; }
# The job id on the line of submit.sh's output that starts with WHAT ("sweep job 12: ...").
job_of() { awk -v what="$1 job" 'index($0, what " ") == 1 { sub(":", "", $3); print $3 }' <<<"$2"; }
field() { scontrol show job -o "$1" | head -1 | grep -oE "(^| )$2=[^ ]*" | cut -d= -f2-; }
# wait_gone ID...: until squeue no longer lists the jobs (done, whatever the outcome).
wait_gone() {
  while [ -n "$(squeue -h -j "$(IFS=,; echo "$*")" -o %i 2>/dev/null)" ]; do
    deadline "waiting for jobs $*: $(squeue 2>&1)"
    sleep 0.2
  done
}
# succeeded ID: every record of the job (all tasks of an array) COMPLETED with exit code 0:0.
succeeded() {
  local records
  records=$(scontrol show job -o "$1")
  [ -n "$records" ] || die "job $1 is unknown"
  if grep -vq 'JobState=COMPLETED .*ExitCode=0:0' <<<"$records"; then
    die "job $1 did not succeed: $(grep -oE '(JobId|ArrayTaskId|JobState|Reason|ExitCode)=[^ ]*' <<<"$records" | tr '\n' ' ')"
  fi
}
same() { "$tool" compare "$1" "$2" >compare.txt 2>&1 || die "$2 differs from $1: $(cat compare.txt)"; }
journaled() { "$tool" journal-count slow.yaml "$1.journal" per-job 2>/dev/null || echo 0; }
# wait_journaled OUT N ID: until the journals of job ID's OUT hold N points (it must still be running).
wait_journaled() {
  until [ "$(journaled "$1")" -ge "$2" ]; do
    [ -e "$1" ] && die "job $3 finished before it could be signalled: make slow.yaml bigger"
    deadline "waiting for $2 journaled points of job $3"
    sleep 0.1
  done
}
# release ID: Slurm holds a requeued job back for two minutes (Reason=BeginTime); start it now.
release() {
  until [ "$(field "$1" JobState)" = PENDING ]; do
    deadline "waiting for job $1 to be pending again"
    sleep 0.1
  done
  scontrol update "JobId=$1" StartTime=now
}

# ---- submit.sh checks the spec first ------------------------------------------------------------
set +e
out=$("$slurm_dir/submit.sh" bad.yaml --nodes 1 --mosim "$mosim" 2>&1)
status=$?
set -e
[ "$status" = 2 ] || die "submit.sh on a bad spec should exit 2, not $status: $out"
grep -q "nothing submitted" <<<"$out" || die "submit.sh on a bad spec: $out"
[ -z "$(squeue -h -o %i)" ] || die "submit.sh submitted a job for a bad spec"

# ---- The jobs -----------------------------------------------------------------------------------
# First the one to requeue: it runs first, alone, while we watch its journals.
out=$(submit slow.yaml --nodes 1 --tasks-per-node "$ranks" --cpus-per-task 1 --out requeue.h5 -- --per-job)
requeue_job=$(job_of sweep "$out")
[ -n "$requeue_job" ] || die "no job id from submit.sh: $out"
out=$(submit small.yaml --nodes 1 --tasks-per-node 1 --cpus-per-task 2 --out hybrid.h5 -- --per-job)
hybrid_job=$(job_of sweep "$out")
out=$(submit small.yaml --nodes 1 --tasks-per-node "$ranks" --cpus-per-task 1 --array 5 --out array.h5 -- --per-job)
echo "$out"
array_job=$(job_of array "$out")
merge_job=$(job_of merge "$out")
if [ -z "$hybrid_job" ] || [ -z "$array_job" ] || [ -z "$merge_job" ]; then die "missing job ids: $out"; fi
grep -q '5 shard(s) in 2 task(s) (up to 3 each, MaxArraySize 2)' <<<"$out" || die "the array was not chunked: $out"
[ "$(field "$merge_job" Dependency)" = "afterok:${array_job}_*(unfulfilled)" ] ||
  die "the merge job's dependency: $(field "$merge_job" Dependency)"

# Requeue 1, from outside (as preemption or a node failure would): scontrol requeue.
wait_journaled requeue.h5 5 "$requeue_job"
first=$(journaled requeue.h5)
scontrol requeue "$requeue_job"
note "requeued job $requeue_job with $first points journaled"
release "$requeue_job"
# Requeue 2, near the time limit: Slurm's --signal=B:USR1@300 sends USR1 to the batch shell,
# whose trap requeues the job.
until [ "$(field "$requeue_job" JobState)" = RUNNING ] && [ "$(field "$requeue_job" Restarts)" = 1 ]; do
  deadline "waiting for job $requeue_job to run again"
  sleep 0.1
done
# Counted once the second start runs: the first went on journaling until the requeue ended it, and
# a warning before the second start's own points would hit srun while it launches the step.
restarted=$(journaled requeue.h5)
wait_journaled requeue.h5 $((restarted + 3)) "$requeue_job"
second=$(journaled requeue.h5)
scancel --batch --signal=USR1 "$requeue_job"
note "sent USR1 to job $requeue_job with $second points journaled"
release "$requeue_job"

wait_gone "$requeue_job" "$hybrid_job" "$array_job" "$merge_job"
note "all jobs done after $SECONDS s"
for job in "$requeue_job" "$hybrid_job" "$array_job" "$merge_job"; do succeeded "$job"; done

# A warning once the requeues are used up (MOSIM_MAX_REQUEUES=0): the job carries on and completes.
out=$(MOSIM_MAX_REQUEUES=0 submit slow.yaml --nodes 1 --tasks-per-node "$ranks" --cpus-per-task 1 --out keep.h5 -- --per-job)
keep_job=$(job_of sweep "$out")
[ -n "$keep_job" ] || die "no job id from submit.sh: $out"
wait_journaled keep.h5 5 "$keep_job"
scancel --batch --signal=USR1 "$keep_job"
wait_gone "$keep_job"
succeeded "$keep_job"
grep -q "already requeued 0 times" "mosim-sweep-$keep_job.out" || die "job $keep_job ignored USR1: $(cat "mosim-sweep-$keep_job.out")"
same direct-slow.h5 keep.h5

# ---- The results --------------------------------------------------------------------------------
[ "$(field "$requeue_job" Restarts)" = 2 ] || die "job $requeue_job should have restarted twice: Restarts=$(field "$requeue_job" Restarts)"
log=mosim-sweep-$requeue_job.out
grep -q "time limit near: requeueing job $requeue_job" "$log" || die "the USR1 trap did not requeue: $(cat "$log")"
# The second start computed points (the journals grew from $restarted to $second while it ran);
# the third must take at least those from the journals. (Not counted from the starts' "resuming" lines:
# srun may drop the last output of a step that a requeue kills.)
from_journals=$(grep -oE '[0-9]+ from journals' "$log" | tail -1 | cut -d' ' -f1)
[ "${from_journals:-0}" -ge "$second" ] ||
  die "the last start should have taken at least $second points from the journals: $(cat "$log")"
grep -q "on $ranks rank(s) x 1 thread(s)" "$log" || die "job $requeue_job did not run $ranks rank(s): $(cat "$log")"
same direct-slow.h5 requeue.h5

grep -q "on 1 rank(s) x 2 thread(s)" "mosim-sweep-$hybrid_job.out" ||
  die "the hybrid job did not run 2 threads: $(cat "mosim-sweep-$hybrid_job.out")"
same direct-small.h5 hybrid.h5

for k in 0 1 2 3 4; do [ -f "array.h5.parts/part-$k.h5" ] || die "part $k of the array is missing"; done
grep -q "on $ranks rank(s) x 1 thread(s)" "mosim-array-${array_job}_1.out" ||
  die "array task 1 did not run $ranks rank(s): $(cat "mosim-array-${array_job}_1.out")"
grep -q 'shard 4/5' "mosim-array-${array_job}_0.out" || die "array task 0 should run shards 0, 2 and 4"
grep -q '5 files, 24 of 24 points (complete)' "mosim-merge-$merge_job.out" ||
  die "the merge: $(cat "mosim-merge-$merge_job.out")"
same direct-small.h5 array.h5

failed=0
note "all checks passed in $SECONDS s"
