# shellcheck shell=bash
# Sourced by the end-to-end test scripts: `fail` counts a failure, `expect` runs a command in
# $work and checks its exit status and output. The script sets `work` and `failures=0` first;
# EXPECT_TIMEOUT (seconds, default 60) bounds each command, so that a hang is a failure.

fail() { echo "FAIL: $*"; failures=$((${failures:-0} + 1)); }

# expect STATUS PATTERN -- COMMAND...: the exit status, and the output (stderr and stdout) matching
# the extended regular expression; an error (status 2) must be a single line.
expect() {
  local status=$1 pattern=$2
  shift 3
  local out rc
  out=$(cd "${work:?set work before sourcing expect.sh}" && timeout "${EXPECT_TIMEOUT:-60}" "$@" 2>&1)
  rc=$?
  if [ "$rc" != "$status" ]; then
    fail "$* -> exit $rc, expected $status; output: $out"
  elif ! grep -Eq -- "$pattern" <<<"$out"; then
    fail "$* -> output does not match /$pattern/: $out"
  elif [ "$status" = 2 ] && [ "$(wc -l <<<"$out")" != 1 ]; then
    fail "$* -> the error should be one line: $out"
  fi
}
