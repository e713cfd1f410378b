#!/usr/bin/env bash
# Build the libFuzzer targets (tests/fuzz/fuzz_*.cpp, clang + ASan + UBSan) and run each for SECONDS (default 60)
# on its committed seed corpus (which it replays first). Prints executions and coverage per target; exits non-zero
# if any target crashes, leaks, times out or fails to build. The test command runs `scripts/fuzz.sh 10` on its
# sanitizer build (LLMSIM_FUZZ_BUILD=build/asan: the targets share that build's engine); `--deep` 300 s; long runs:
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#   LLMSIM_FUZZ_JOBS=2 scripts/fuzz.sh 600    # run targets two at a time (one core each)
#   LLMSIM_FUZZ_BUILD=build/asan scripts/fuzz.sh 10   # reuse a configured LLMSIM_FUZZ=ON build (default build/fuzz)
# New inputs found are kept in <build>/corpus/<target>/ (not committed); crash inputs in <build>/crashes/.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
secs=${1:-60}
shift || true
build=${LLMSIM_FUZZ_BUILD:-build/fuzz}
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for f in tests/fuzz/fuzz_*.cpp; do t=${f##*/}; targets+=("${t%.cpp}"); done
fi
jobs=${LLMSIM_FUZZ_JOBS:-1}

command -v clang++ >/dev/null || { echo "fuzz: clang++ not found (scripts/setup.sh installs clang)"; exit 1; }
mkdir -p "$build"
if [ -z "${LLMSIM_FUZZ_BUILD:-}" ]; then   # a build of its own: configure every time (cheap)
  CC=clang CXX=clang++ cmake -S . -B "$build" -DLLMSIM_FUZZ=ON -DLLMSIM_BUILD_UI=OFF -DLLMSIM_BUILD_TESTS=OFF \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -gline-tables-only" >"$build/configure.log" 2>&1 \
    || { tail -20 "$build/configure.log"; echo "fuzz: configure failed"; exit 1; }
fi
cmake --build "$build" -j"$(nproc 2>/dev/null || echo 2)" --target "${targets[@]}" >"$build/build.log" 2>&1 \
  || { tail -40 "$build/build.log"; echo "fuzz: build failed"; exit 1; }

mkdir -p "$build/crashes"
run_one() {  # target -> writes $build/logs/<target>.log
  local t=$1 corpus="$build/corpus/$t"
  mkdir -p "$corpus" "$build/logs"
  # -rss_limit_mb: the parsers must stay bounded; -timeout: any single input taking 10 s is a hang
  "$build/$t" "$corpus" "tests/fuzz/corpus/$t" -max_total_time="$secs" -print_final_stats=1 -timeout=10 \
    -rss_limit_mb=2048 -max_len=65536 -artifact_prefix="$build/crashes/$t-" -close_fd_mask=1 \
    >"$build/logs/$t.log" 2>&1
  echo $? >"$build/logs/$t.rc"
}
running=0
for t in "${targets[@]}"; do
  run_one "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
done
wait

failed=0
printf '%-18s %12s %8s %8s %8s %s\n' target executions exec/s cov ft result
for t in "${targets[@]}"; do
  log="$build/logs/$t.log"
  rc=$(cat "$build/logs/$t.rc" 2>/dev/null || echo 1)
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  result=ok
  if [ "$rc" != 0 ]; then
    result="CRASH (exit $rc; see $log, input in $build/crashes/)"
    failed=$((failed + 1))
  fi
  printf '%-18s %12s %8s %8s %8s %s\n' "$t" "${execs:-?}" "${speed:-?}" "${cov:-?}" "${ft:-?}" "$result"
  [ "$rc" != 0 ] && grep -E "ERROR: |SUMMARY: |runtime error|==ERROR" "$log" | head -5
done
echo "fuzz: ${#targets[@]} targets x ${secs} s, $failed failed"
[ "$failed" -eq 0 ]
