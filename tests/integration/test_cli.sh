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

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect STATUS PATTERN -- COMMAND...: runs the command and checks its exit status and that its
# stderr (or stdout for status 0) matches the extended regular expression.
expect() {
  local status=$1 pattern=$2
  shift 3
  local out rc
  out=$(cd "$work" && timeout 60 "$@" 2>&1)
  rc=$?
  if [ "$rc" != "$status" ]; then
    fail "$* -> exit $rc, expected $status; output: $out"
  elif ! grep -Eq -- "$pattern" <<<"$out"; then
    fail "$* -> output does not match /$pattern/: $out"
  elif [ "$status" = 2 ] && [ "$(wc -l <<<"$out")" != 1 ]; then
    fail "$* -> the error should be one line: $out"
  fi
}

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
expect 2 'placement policy: unknown name .spread.' -- "$mosim" run --placement spread
expect 2 'servers must be at least 1' -- "$mosim" run --servers 0
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

echo "$failures failure(s)"
[ "$failures" = 0 ]
