#!/usr/bin/env bash
# The README's test command (what CI runs): installs what is missing, builds and runs every test in three builds,
# each compiling the engine once:
#   native  g++ Release: the desktop app (smoke test), the CLI, the calibration lab's tests and the accuracy gate
#           (held-out figures against tests/accuracy_gate.json), the data, layer and site checks, the bench
#   asan    clang with ASan + UBSan + libFuzzer coverage: the engine, message and CLI tests, then each fuzz target
#           (corpus replay + a short run) linked against the same engine
#   web     emscripten: the page, the engine tests as wasm under node, the browser end-to-end test of every section
#           (the static pages come from the native CLI, not a second host build)
# Prints the time of each stage and ends with one summary line; exit code 0 only if everything passed.
#   scripts/test.sh            # the quick tier (a clean clone on a quiet 2-core machine, 2026-12-07: 816 s = 13.6 min
#                              #   docs/building.md has the stage times)
#   scripts/test.sh --deep     # + every browser suite, the held-out refits, the full accuracy report, fuzzing
#                              #   300 s per target, the fresh-root check; writes docs/validation/deep-<date>.txt
#   LLMSIM_SKIP_WEB=1 scripts/test.sh   # native only (quick local loop); LLMSIM_SKIP_FUZZ=1 without fuzzing
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
deep=""
case "${1:-}" in
  --deep) deep=1 ;;
  "") ;;
  *) echo "usage: scripts/test.sh [--deep]"; exit 2 ;;
esac
if [ -n "$deep" ] && [ -z "${LLMSIM_DEEP_LOGGED:-}" ]; then   # the deep tier keeps its dated output
  mkdir -p docs/validation
  log="docs/validation/deep-$(date -u +%Y-%m-%d).txt"
  { echo "scripts/test.sh --deep at commit $(git rev-parse --short HEAD 2>/dev/null || echo '?') on $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores"; } >"$log"
  LLMSIM_DEEP_LOGGED=1 "$0" --deep 2>&1 | tee -a "$log"
  exit "${PIPESTATUS[0]}"
fi
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
# ctest label filter: the quick tier leaves out what is labelled deep (tests/CMakeLists.txt [SECTION] labels)
skip_deep=(-LE deep)
# unity builds (each target's sources batched, 8 to a compile): the headers (nlohmann/json, Catch2) parsed once a batch;
# a file-local name two sources of one target share fails here, not in a developer's default build
unity=(-DCMAKE_UNITY_BUILD=ON)
[ -n "$deep" ] && skip_deep=()

stage setup scripts/setup.sh test
stage check-deps bash -c "python3 scripts/check_deps.py && python3 scripts/check_deps.py --self-test"
if [ "${stage_status[0]}" != ok ]; then echo "SUMMARY: setup failed; nothing was built"; exit 1; fi

# native Release: the product as shipped (app, CLI, lab) and the checks a sanitizer adds nothing to
# (the lab's tests and the accuracy gate run here; --deep also registers the lab's long held-out refits)
# (-O2: the same numbers as -O3, no fast-math anywhere, for less compile time)
stage configure-native cmake -S . -B build/native "${unity[@]}" -DCMAKE_BUILD_TYPE=Release -DLLMSIM_BUILD_TESTS=ON -DLLMSIM_ENGINE_TESTS=OFF \
  -DLLMSIM_DEEP_TESTS="${deep:+ON}" "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG"
stage build-native cmake --build build/native -j"$jobs"
stage test-native ctest --test-dir build/native --output-on-failure -j"$jobs" "${skip_deep[@]}"

# clang + ASan + UBSan (-O1; the test code -O0): the engine, message and CLI tests, and the fuzz targets on the same
# engine (LLMSIM_FUZZ=ON instruments the whole build for libFuzzer). scripts/fuzz.sh's own build keeps line tables.
stage configure-asan env CC=clang CXX=clang++ cmake -S . -B build/asan "${unity[@]}" -DLLMSIM_FUZZ=ON -DLLMSIM_BUILD_UI=OFF -DLLMSIM_BUILD_SITE=OFF \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-O1 -DCMAKE_C_FLAGS_RELEASE=-O1
stage build-asan cmake --build build/asan -j"$jobs"
if [ -n "$deep" ]; then
  stage test-asan ctest --test-dir build/asan --output-on-failure -j"$jobs" -LE check
else
  stage test-asan ctest --test-dir build/asan --output-on-failure -j"$jobs" -LE "check|deep"
fi
if [ -z "${LLMSIM_SKIP_FUZZ:-}" ]; then
  fuzz_secs=${LLMSIM_FUZZ_SECONDS:-5}   # the quick tier: the committed corpus replayed + 5 s of mutation each
  [ -n "$deep" ] && fuzz_secs=${LLMSIM_FUZZ_SECONDS:-300}
  stage fuzz env LLMSIM_FUZZ_BUILD=build/asan LLMSIM_FUZZ_JOBS="${LLMSIM_FUZZ_JOBS:-$jobs}" scripts/fuzz.sh "$fuzz_secs"
fi

if [ -z "${LLMSIM_SKIP_WEB:-}" ]; then
  stage configure-web cmake -S . -B build/web "${unity[@]}" -DCMAKE_TOOLCHAIN_FILE="$root/emsdk-toolchain.cmake" -DCMAKE_BUILD_TYPE=Release \
    -DLLMSIM_BUILD_TESTS=ON -DLLMSIM_HOST_CLI="$root/build/native/llmsim-cli"
  stage build-web cmake --build build/web -j"$jobs"
  # two wider than the cores: the browser test's three shards (split by measured time) and the wasm engine tests all
  # start at once (COST); the shards wait on frames much of the time. One wider left a shard waiting ~75 s for the
  # engine tests to finish: the stage was their 76 s + that shard's 79 s (the clean clone of 50c496c)
  stage test-web ctest --test-dir build/web --output-on-failure -j"$((jobs + 2))" "${skip_deep[@]}"
fi

# Reports that print numbers: the engine sweep natively and as wasm under node (a hash of every number in it)
stage bench-native build/native/tests/llmsim_bench 3
if [ -z "${LLMSIM_SKIP_WEB:-}" ] && [ -f build/web/tests/llmsim_bench.js ]; then
  stage bench-wasm node --no-experimental-fetch build/web/tests/llmsim_bench.js 3
  python3 scripts/web_size_report.py --site build/web/site --budget cmake/web_size_budget.txt   # the page's transfer
fi

if [ -n "$deep" ]; then
  # the full held-out reports the gate's figures come from (the refits themselves ran in test-native: lab_tests_slow)
  speed_rows="assets/calibration/llamacpp_speed.jsonl assets/calibration/llamacpp_speed_2025.jsonl assets/calibration/llamacpp_speed_collected.jsonl"
  # shellcheck disable=SC2086  # three file names, split on purpose
  stage accuracy-report build/native/llmsim-cli accuracy $speed_rows
  stage accuracy-serving build/native/llmsim-cli accuracy --serving assets/calibration/serving.jsonl
  if [ "$(id -u)" = 0 ] && [ -z "${LLMSIM_SKIP_FRESH_ROOT:-}" ]; then
    stage fresh-root scripts/fresh_root_check.sh "${LLMSIM_FRESH_ROOT_DIR:-/var/tmp/llmsim-fresh-root}"
  else
    echo "=== [fresh-root] skipped (not root, or LLMSIM_SKIP_FRESH_ROOT is set)"
  fi
fi

echo
echo "Stage times:"
for i in "${!stage_names[@]}"; do printf '  %-18s %-7s %5d s\n' "${stage_names[$i]}" "${stage_status[$i]}" "${stage_secs[$i]}"; done
passed=$(( ${#stage_names[@]} - failed ))
echo "SUMMARY: $passed stages passed, $failed failed (total ${SECONDS} s)"
[ "$failed" -eq 0 ]
