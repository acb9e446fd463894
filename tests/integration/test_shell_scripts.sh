#!/usr/bin/env bash
# Every shell script of the repository (slurm/, tests/, experiments/, .ci/run) parses (bash -n)
# and, when shellcheck is installed, passes it with no warning.
# usage: test_shell_scripts.sh SOURCE_DIR
set -uo pipefail
cd "$1" || exit 1
mapfile -t scripts < <({ find slurm tests experiments -name '*.sh' -o -name '*.sbatch'; echo .ci/run; } | sort)
[ "${#scripts[@]}" -gt 5 ] || { echo "FAIL: only ${#scripts[@]} scripts found"; exit 1; }
failures=0
for script in "${scripts[@]}"; do
  bash -n "$script" || { echo "FAIL: bash -n $script"; failures=$((failures + 1)); }
done
if command -v shellcheck >/dev/null; then
  shellcheck -s bash "${scripts[@]}" || failures=$((failures + 1))
else
  echo "shellcheck is not installed: bash -n only"
fi
echo "test_shell_scripts: ${#scripts[@]} scripts, $failures failure(s)"
[ "$failures" = 0 ]
