#!/usr/bin/env bash
# The README's run command: installs what is missing, builds the web page and serves it on 127.0.0.1.
#   scripts/run.sh [--port N]          # web page (default port 8080), URL printed
#   scripts/run.sh --desktop [keys]    # the native desktop app instead (e.g. --desktop model=Qwen/Qwen3-8B)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
port=8080
desktop=0
app_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --port) port=$2; shift 2;;
    --desktop) desktop=1; shift;;
    *) app_args+=("$1"); shift;;
  esac
done
# the run command installs only what running needs (no test-only packages: Chromium, clang, npm, Catch2)
if [ "$desktop" = 1 ]; then scripts/setup.sh desktop; else scripts/setup.sh run; fi
jobs=$(nproc 2>/dev/null || echo 2)
if [ "$desktop" = 1 ]; then
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release -DLLMSIM_BUILD_TESTS=OFF >/dev/null
  cmake --build build/native -j"$jobs" --target llmsim
  exec build/native/llmsim "${app_args[@]}"
fi
cmake -S . -B build/web -DCMAKE_TOOLCHAIN_FILE="$root/emsdk-toolchain.cmake" -DCMAKE_BUILD_TYPE=Release \
  -DLLMSIM_BUILD_TESTS=OFF >/dev/null
cmake --build build/web -j"$jobs" --target llmsim llmsim_site   # the app and the model pages (models/, sitemap.xml)
echo "llmsim: serving build/web/site at http://127.0.0.1:$port/  (Ctrl-C to stop)"
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory build/web/site
