#!/usr/bin/env bash
# mosim characterize end to end: listing, text and JSON results, pool tables that mosim run reads,
# ASTRA-sim files both ways, and bad input that must give one line naming the file, field or
# option, with exit status 2.
# usage: test_characterize_cli.sh MOSIM DATA_DIR (tests/data/characterize)
set -u
mosim=$1
data=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
# shellcheck source=tests/integration/expect.sh
source "$(dirname "$0")/expect.sh"

c=(characterize)
expect 0 'V100-SXM2-16GB' -- "$mosim" "${c[@]}" --list
expect 0 'resnet50 +25557032' -- "$mosim" "${c[@]}" --list
expect 0 'T_net' -- "$mosim" "${c[@]}" --model resnet50 --gpus 8 --servers 2
expect 0 '"net_rate_Bps"' -- "$mosim" "${c[@]}" --model vgg16 --gpus 4 --servers 2 --json
expect 0 'inside one server' -- "$mosim" "${c[@]}" --model vgg16 --gpus 4
expect 0 'T_comp' -- "$mosim" "${c[@]}" --model bert --seq-len 128 --gpus 2 --gpu A100-SXM4-80GB --precision amp
expect 0 'T_comp' -- "$mosim" "${c[@]}" --models "$data/toy.yaml" --model toy --gpus 2 --servers 2
expect 0 'L40S' -- "$mosim" "${c[@]}" --gpus-file "$data/gpus.yaml" --list
"$mosim" "${c[@]}" --model resnet50 --gpus 4 --servers 2 --json >"$work/r.json" 2>&1 ||
  fail "--json exited with an error"
/usr/bin/python3 - "$work/r.json" <<'PY' || fail "--json output lacks keys"
import json, sys
j = json.load(open(sys.argv[1]))
for key in ("t_comp_s", "t_net_s", "net_rate_Bps", "v_net_bytes", "grad_bytes", "loading_s"):
    assert key in j and j[key] >= 0, key
assert j["grad_bytes"] == 4 * 25557032
assert abs(j["v_net_bytes"] - 1.5 * j["grad_bytes"]) < 1
PY

# Pool tables that mosim run reads in both formats.
expect 0 'wrote' -- "$mosim" "${c[@]}" --pool --out "$work/pool"
[ -f "$work/pool/profiles-V100-SXM2-16GB.csv" ] || fail "--pool wrote no profiles-V100-SXM2-16GB.csv"
expect 0 '' -- "$mosim" run --quiet --out "$work/run1" --profile "$work/pool/profiles-V100-SXM2-16GB.csv"
[ -f "$work/run1/summary.json" ] || fail "mosim run with the characterized profiles wrote no summary"
expect 0 '' -- "$mosim" run --quiet --out "$work/run2" --iteration-profile "$work/pool/itertime-V100-SXM2-16GB.csv" \
  --network-profile "$work/pool/network-summary-V100-SXM2-16GB.csv" --network-units MB/s
[ -f "$work/run2/summary.json" ] || fail "mosim run with the artifact-format tables wrote no summary"

# ASTRA-sim both ways.
expect 0 'wrote' -- "$mosim" "${c[@]}" --model resnet50 --export-astra "$work/resnet50.txt"
expect 0 'ASTRA-sim workload' -- "$mosim" "${c[@]}" --import-astra "$work/resnet50.txt" --astra-compute-unit ns --gpus 4 --servers 2
expect 0 'T_net' -- "$mosim" "${c[@]}" --import-astra "$data/astra_toy.txt" --astra-compute-unit us --gpus 2 --servers 2

# Bad input: exit 2, one line naming what is wrong.
expect 2 "unknown model 'resnet18'" -- "$mosim" "${c[@]}" --model resnet18
expect 2 "unknown GPU 'TPUv4'" -- "$mosim" "${c[@]}" --model resnet50 --gpu TPUv4
expect 2 '--batch must be at least 1' -- "$mosim" "${c[@]}" --model resnet50 --batch 0
expect 2 '--batch 4096: vgg16 needs about' -- "$mosim" "${c[@]}" --model vgg16 --batch 4096
expect 2 '--servers must be between 1 and' -- "$mosim" "${c[@]}" --model vgg16 --gpus 2 --servers 3
expect 2 'bad_in.yaml:8: field .models\[0\].layers\[2\].in.' -- "$mosim" "${c[@]}" --models "$data/bad_in.yaml" --list
expect 2 'bad_gpus.yaml:5: field .gpus\[0\].memory_bandwidth.' -- "$mosim" "${c[@]}" --gpus-file "$data/bad_gpus.yaml" --list
expect 2 'astra-compute-unit' -- "$mosim" "${c[@]}" --import-astra "$data/astra_toy.txt"
expect 2 'astra_bad_comm.txt:3: field .wg_comm_type.' -- "$mosim" "${c[@]}" --import-astra "$data/astra_bad_comm.txt" --astra-compute-unit ns
expect 2 '--seq-len applies to' -- "$mosim" "${c[@]}" --model resnet50 --seq-len 128
expect 2 '--nic-bandwidth' -- "$mosim" "${c[@]}" --model resnet50 --nic-bandwidth 463
expect 2 '--precision' -- "$mosim" "${c[@]}" --model resnet50 --precision fp16
expect 2 '--model is required' -- "$mosim" "${c[@]}"

if [ "$failures" != 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all characterize CLI checks passed"
