#!/usr/bin/env bash
# The whole test suite: a release build with every test, then the same tests built with
# AddressSanitizer and UndefinedBehaviorSanitizer. Run from anywhere; builds into build/ and
# build-sanitize/ at the top of the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$jobs"
ctest --test-dir build --output-on-failure -j "$jobs"

cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Debug -DMOSIM_SANITIZE=ON -DMOSIM_BENCHMARKS=OFF
cmake --build build-sanitize -j "$jobs"
ctest --test-dir build-sanitize --output-on-failure -j "$jobs"
