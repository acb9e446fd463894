#!/usr/bin/env bash
# The mosim command end to end: the built-in example, and bad input that must give a one-line
# error naming file, line and field with exit status 2 (never a crash or a hang).
# usage: test_cli.sh MOSIM TEST_DATA_DIR
set -u
mosim=$1
data=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# shellcheck source=tests/integration/expect.sh
source "$(dirname "$0")/expect.sh"

t=$data/traces
p=$data/profiles

# The built-in example: no arguments at all.
expect 0 'avg JCT' -- "$mosim"
[ -f "$work/mosim-out/summary.json" ] || fail "no mosim-out/summary.json from the built-in example"
[ "$(wc -l <"$work/mosim-out/jobs.csv")" = 41 ] || fail "built-in example: jobs.csv should have 40 rows"

# Bad traces: file:line and the field.
expect 2 'duration_zero.csv:3: field .duration.' -- "$mosim" run --trace "$t/duration_zero.csv"
expect 2 'duration_negative.csv:2: field .duration.' -- "$mosim" run --trace "$t/duration_negative.csv"
expect 2 'duration_nan.csv:2: field .duration.' -- "$mosim" run --trace "$t/duration_nan.csv"
expect 2 'duration_inf.csv:2: field .duration.' -- "$mosim" run --trace "$t/duration_inf.csv"
expect 2 'gpus_zero.csv:3: field .num_gpus.' -- "$mosim" run --trace "$t/gpus_zero.csv"
expect 2 'gpus_fractional.csv:4: field .num_gpus.' -- "$mosim" run --trace "$t/gpus_fractional.csv"
expect 2 'not_a_number.csv:3: field .submit_time.' -- "$mosim" run --trace "$t/not_a_number.csv"
expect 2 'duplicate_id.csv:[0-9]+: field .job_id.' -- "$mosim" run --trace "$t/duplicate_id.csv"
expect 2 'missing_column.csv' -- "$mosim" run --trace "$t/missing_column.csv"
expect 2 'empty.csv' -- "$mosim" run --trace "$t/empty.csv"
expect 2 'header_only.csv' -- "$mosim" run --trace "$t/header_only.csv"
expect 2 'no such file|cannot open' -- "$mosim" run --trace "$work/absent.csv"

# A model without a profile row names the trace line and the model field.
printf 'job_id,submit_time,num_gpus,duration,model\n0,0,2,100,bert\n1,5,4,100,bert\n' >"$work/bert4.csv"
expect 2 'bert4.csv:3: field .model.: no profile for model .bert. on 4 GPUs' -- \
  "$mosim" run --trace "$work/bert4.csv" --profile "$p/mosim_ok.csv"
sed -i 's/,4,100,bert/,2,100,bert/' "$work/bert4.csv"
expect 0 'avg JCT' -- "$mosim" run --trace "$work/bert4.csv" --profile "$p/mosim_ok.csv" --out ok \
  --placement colocate --contention paper

# Options.
expect 2 'nic-bandwidth.*unit' -- "$mosim" run --nic-bandwidth 463
expect 2 '--placement .spread.: unknown name' -- "$mosim" run --placement spread
expect 2 '--servers .0.: must be a positive whole number' -- "$mosim" run --servers 0
expect 2 'network-units is required' -- "$mosim" run --iteration-profile x.csv --network-profile y.csv
expect 0 'k8s-bin-packing' -- "$mosim" run --placement help
expect 0 'comms-iter-intra' -- "$mosim" run --contention help
expect 2 'unknown command' -- "$mosim" frobnicate

# A job that can never fit is reported and skipped, never a hang.
printf 'job_id,submit_time,num_gpus,duration\n0,0,64,100\n1,0,2,100\n' >"$work/huge.csv"
expect 0 'warning: job 0 \(64 GPUs\) can never be placed' -- "$mosim" run --trace "$work/huge.csv" --out big
grep -q '^0,.*,unplaceable$' "$work/big/jobs.csv" || fail "the skipped job should be in jobs.csv as unplaceable"

# compare: a run against itself is exact.
expect 0 'avg JCT +[0-9.]+ +[0-9.]+ +0.00' -- "$mosim" compare --truth mosim-out/jobs.csv --sim mosim-out

# ---- Workload sources and clusters (README "Workloads and clusters") ----
# Production formats: every skipped job is counted on stderr, even with --quiet.
expect 0 'ok.json \(philly\): 3 jobs kept, 5 skipped \(.*1 no attempts' -- \
  "$mosim" run --trace "$t/philly/ok.json" --quiet --out philly
expect 0 'warning: skipped .*ok.json:13: job application_1_0003: no attempts' -- \
  "$mosim" run --trace "$t/philly/ok.json" --quiet --out philly
expect 0 '2 jobs kept, 6 skipped \(.*2 status Killed' -- \
  "$mosim" run --trace "$t/philly/ok.json" --philly-status pass --quiet --out philly
expect 2 'malformed.json:4: malformed JSON' -- "$mosim" run --trace "$t/philly/malformed.json"
expect 2 'ok.csv:1: malformed JSON' -- "$mosim" run --trace "$t/tiresias/ok.csv" --trace-format philly
expect 2 '--trace-format .csv.: unknown trace format' -- "$mosim" run --trace "$t/tiresias/ok.csv" --trace-format csv
expect 2 'give --status or --philly-status' -- "$mosim" run --trace "$t/helios/ok.csv" --status a --philly-status b
expect 2 'bad_gpu_count.csv:3: field .gpu_num.' -- "$mosim" run --trace "$t/helios/bad_gpu_count.csv"
expect 2 'pollux/ok.csv:1: field .duration.: .*--pollux-duration' -- "$mosim" run --trace "$t/pollux/ok.csv"
expect 0 'avg JCT' -- "$mosim" run --trace "$t/pollux/ok.csv" --pollux-duration philly --seed 3 \
  --pool default --augment all --out pollux
expect 0 'muri/ok.csv \(tiresias\): 3 jobs kept, 1 skipped' -- \
  "$mosim" run --trace "$t/muri/ok.csv" --pool default --augment all --servers 8 --contention none --out muri
# Models the profiles lack (Muri's dqn) are an error until the pool replaces them.
expect 2 'muri/ok.csv:2: field .model.: no profile for model .dqn.' -- "$mosim" run --trace "$t/muri/ok.csv"

# Workload pools.
expect 0 'workloads from .*ok.yaml: 3 jobs kept' -- \
  "$mosim" run --trace "$t/tiresias/ok.csv" --pool "$data/pools/ok.yaml" --augment all --out pool
expect 2 'zero_weights.yaml: field .weight.: the weights sum to 0' -- \
  "$mosim" run --trace "$t/tiresias/ok.csv" --pool "$data/pools/zero_weights.yaml"
expect 2 'malformed.yaml:4: malformed YAML' -- "$mosim" run --pool "$data/pools/malformed.yaml"
printf 'job_id,submit_time,num_gpus,duration\n0,0,16,100\n1,5,2,100\n' >"$work/sixteen.csv"
expect 0 'no pool entry allows 16 GPUs' -- "$mosim" run --trace "$work/sixteen.csv" --pool "$data/pools/ok.yaml" --out six
expect 2 'sixteen.csv:2: field .num_gpus.: no pool entry allows 16 GPUs' -- \
  "$mosim" run --trace "$work/sixteen.csv" --pool "$data/pools/ok.yaml" --unmatched-gpus error

# Cluster files: the file's policies unless a flag says otherwise.
c=$data/clusters
expect 0 'on 2 x 8 V100-SXM2-16GB \+ 1 x 4 A100-SXM4-80GB \(20 GPUs\), k8s-bin-packing, backfill queue, paper' -- \
  "$mosim" run --cluster "$c/hetero.yaml" --trace "$t/mosim/gpu_types.csv" --out hetero
expect 0 'colocate, backfill queue, paper' -- \
  "$mosim" run --cluster "$c/hetero.yaml" --trace "$t/mosim/gpu_types.csv" --placement colocate --out hetero
expect 2 '--servers describes a homogeneous cluster' -- "$mosim" run --cluster "$c/hetero.yaml" --servers 2
expect 2 'bandwidth_without_unit.yaml:4: field .nic_bandwidth.: .*no unit' -- "$mosim" run --cluster "$c/bandwidth_without_unit.yaml"
expect 2 'unknown_gpu_type.yaml:3: field .gpu_type.: unknown GPU type' -- "$mosim" run --cluster "$c/unknown_gpu_type.yaml"
expect 2 'unknown_placement.yaml:3: field .placement.' -- "$mosim" run --cluster "$c/unknown_placement.yaml"
expect 2 'unknown_gpu_type.csv:3: field .gpu_type.: unknown GPU type .TPUv4.' -- \
  "$mosim" run --trace "$t/mosim/unknown_gpu_type.csv"
expect 2 '--gpu-type .TPUv4.: unknown GPU type' -- "$mosim" run --gpu-type TPUv4
# A job of a GPU type no server has is skipped with a warning; with --gpu-type both jobs run.
expect 0 'warning: skipped .*gpu_types.csv:2: job first: no server has GPU type V100-SXM2-16GB' -- \
  "$mosim" run --trace "$t/mosim/gpu_types.csv" --out untyped
[ "$(wc -l <"$work/untyped/jobs.csv")" = 2 ] || fail "the job without a matching server should not be simulated"
expect 0 '2 jobs completed, 0 skipped' -- "$mosim" run --trace "$t/mosim/gpu_types.csv" --gpu-type v100-sxm2-16gb --out typed

# mosim trace: the same seed gives the same file; the file runs.
expect 0 '50 jobs written' -- "$mosim" trace generate --jobs 50 --seed 3 --out gen1.csv
expect 0 '50 jobs written' -- "$mosim" trace generate --jobs 50 --seed 3 --out gen2.csv
cmp -s "$work/gen1.csv" "$work/gen2.csv" || fail "trace generate: the same seed gave different files"
head -1 "$work/gen1.csv" | grep -qx 'job_id,submit_time,num_gpus,duration,model' || fail "trace generate: header"
expect 0 '50 jobs completed' -- "$mosim" run --trace gen1.csv --servers 8 --contention none --out gen
expect 0 'jobs written' -- "$mosim" trace generate --horizon 20000 --rate 0.01 --max-gpus 8 --out gen3.csv
expect 2 'give either --jobs N or --horizon' -- "$mosim" trace generate
expect 2 'the arrival rate must be a positive number' -- "$mosim" trace generate --jobs 5 --rate 0
expect 0 '10 jobs written' -- "$mosim" trace resample --trace "$t/philly/ok.json" --jobs 10 --seed 1 --out r.csv
[ "$(wc -l <"$work/r.csv")" = 11 ] || fail "trace resample: 10 jobs expected"
expect 0 '^0,0,8,3600,,j1$' -- "$mosim" trace convert --trace "$t/helios/ok.csv" --status completed --quiet
expect 2 'give an action' -- "$mosim" trace
expect 2 'unknown action .frobnicate.' -- "$mosim" trace frobnicate

# A seeded synthetic trace, with the default pool's models.
expect 0 '' -- "$mosim" run --trace synthetic --jobs 60 --seed 3 --servers 16 --out synth -q
expect 0 '' -- "$mosim" run --trace synthetic --jobs 60 --seed 3 --servers 16 --out synth2 -q
cmp -s "$work/synth/jobs.csv" "$work/synth2/jobs.csv" || fail "the same seed should give the same jobs.csv"
expect 2 'needs --jobs N or --horizon' -- "$mosim" run --trace synthetic

echo "$failures failure(s)"
[ "$failures" = 0 ]
