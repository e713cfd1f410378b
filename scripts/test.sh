#!/usr/bin/env bash
# The README's test command: installs what is missing, builds everything (native app + CLI + tests, web page +
# wasm tests) and runs every test (engine native, engine wasm under node, CLI, desktop smoke, browser e2e), the
# ASan + UBSan build of the engine tests and CLI, and each libFuzzer target for 30 s.
# Ends with one summary line; exit code 0 only if everything passed. Prints the time of each stage.
#   scripts/test.sh            # everything
#   LLMSIM_SKIP_WEB=1 scripts/test.sh   # native only (quick local loop)
#   LLMSIM_SKIP_FUZZ=1 scripts/test.sh  # without the fuzz stage; LLMSIM_FUZZ_SECONDS=60 for longer fuzzing
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
jobs=$(nproc 2>/dev/null || echo 2)
declare -a stage_names stage_secs stage_status
failed=0

stage() {  # name command...
  local name=$1; shift
  local t0=$SECONDS
  echo "=== [$name] $*"
  if "$@"; then stage_status+=("ok"); else stage_status+=("FAILED"); failed=$((failed + 1)); fi
  stage_names+=("$name"); stage_secs+=($((SECONDS - t0)))
  echo "=== [$name] ${stage_status[-1]} in $((SECONDS - t0)) s"
}

stage setup scripts/setup.sh test
stage check-deps bash -c "python3 scripts/check_deps.py && python3 scripts/check_deps.py --self-test"
if [ "${stage_status[0]}" != ok ]; then echo "SUMMARY: setup failed; nothing was built"; exit 1; fi

stage configure-native cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release -DLLMSIM_BUILD_TESTS=ON
stage build-native cmake --build build/native -j"$jobs"
# the native tests declare their fixtures (tests/CMakeLists.txt): they run one per core
stage test-native ctest --test-dir build/native --output-on-failure -j"$jobs"

# ASan + UBSan build of the engine tests and the CLI (no UI), all native tests under the sanitizers
# (-O1 without debug info: the sanitizers still catch everything; it halves the build on 2 cores)
stage sanitize bash -c 'cmake -S . -B build/asan -DLLMSIM_SANITIZE=ON -DLLMSIM_BUILD_UI=OFF -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-O1 >/dev/null \
  && cmake --build build/asan -j"$1" && ctest --test-dir build/asan --output-on-failure -j"$1"' _ "$jobs"
# every libFuzzer target for 30 s on its seed corpus, one target per core (scripts/fuzz.sh 3600 for long runs)
if [ -z "${LLMSIM_SKIP_FUZZ:-}" ]; then
  stage fuzz env LLMSIM_FUZZ_JOBS="${LLMSIM_FUZZ_JOBS:-$jobs}" scripts/fuzz.sh "${LLMSIM_FUZZ_SECONDS:-30}"
fi

if [ -z "${LLMSIM_SKIP_WEB:-}" ]; then
  stage configure-web cmake -S . -B build/web -DCMAKE_TOOLCHAIN_FILE="$root/emsdk-toolchain.cmake" -DCMAKE_BUILD_TYPE=Release -DLLMSIM_BUILD_TESTS=ON
  stage build-web cmake --build build/web -j"$jobs"
  stage test-web ctest --test-dir build/web --output-on-failure -j1
fi

# Reports that print numbers (they pass unless the program itself fails): the speed model's
# leave-one-device-out accuracy next to the seed formula, and the engine sweep natively and as wasm under node.
speed_rows="assets/calibration/llamacpp_speed.jsonl assets/calibration/llamacpp_speed_2025.jsonl assets/calibration/llamacpp_speed_collected.jsonl"
# shellcheck disable=SC2086  # three file names, split on purpose
stage accuracy build/native/llmsim-cli accuracy $speed_rows
stage bench-native build/native/tests/llmsim_bench 3
if [ -z "${LLMSIM_SKIP_WEB:-}" ] && [ -f build/web/tests/llmsim_bench.js ]; then
  stage bench-wasm node --no-experimental-fetch build/web/tests/llmsim_bench.js 3
  cmake -DSITE=build/web/site -P cmake/report_sizes.cmake
fi

echo
echo "Stage times:"
for i in "${!stage_names[@]}"; do printf '  %-18s %-7s %5d s\n' "${stage_names[$i]}" "${stage_status[$i]}" "${stage_secs[$i]}"; done
passed=$(( ${#stage_names[@]} - failed ))
echo "SUMMARY: $passed stages passed, $failed failed (total ${SECONDS} s)"
[ "$failed" -eq 0 ]
