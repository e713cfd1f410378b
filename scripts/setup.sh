#!/usr/bin/env bash
# Install what llmsim needs, from Debian's and npm's registries only. Idempotent: when everything is present it
# only checks and returns in a second or two.
#   scripts/setup.sh run        # the web page: emscripten, fonts, Dear ImGui + SDL2 sources   (scripts/run.sh)
#   scripts/setup.sh desktop    # + the native desktop app: g++, SDL2, OpenGL/EGL               (run.sh --desktop)
#   scripts/setup.sh [test]     # + everything the tests need: Catch2, clang, Chromium, npm + playwright-core, MCP SDK
# The Debian packages of each mode are listed, with what each is for, in scripts/packages.txt (the one list;
# scripts/check_deps.py checks that every command the scripts call comes from it). Third-party sources land in
# third_party/ (ignored by git); nothing is vendored in the repo.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

mode=${1:-test}
case "$mode" in
  run) modes="run";; desktop) modes="run desktop";; test) modes="run desktop test";;
  *) echo "setup.sh: unknown mode '$mode' (run, desktop or test)" >&2; exit 2;;
esac
mapfile -t APT_PKGS < <(awk -v modes=" $modes " '!/^#/ && NF >= 3 && index(modes, " " $2 " ") { print $1 "|" $3 }' scripts/packages.txt)
IMGUI_VERSION=1.86
SDL2_VERSION=2.26.5

log() { printf '[setup] %s\n' "$*"; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# a package is needed unless it is installed, or every command/file of it that we use is already there (e.g. npm
# comes with a Node.js from another repository, whose nodejs package conflicts with Debian's npm)
provided() {  # comma-separated commands or absolute paths; "-" (a library) is never provided by something else
  [ "$1" = - ] && return 1
  local item; local IFS=,
  for item in $1; do
    case "$item" in /*) [ -e "$item" ] || return 1;; *) command -v "$item" >/dev/null || return 1;; esac
  done
}
missing=()
for entry in "${APT_PKGS[@]}"; do
  p=${entry%%|*}; what=${entry#*|}
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" && continue
  if provided "$what"; then log "$p: not installed, but this machine already has $what"; continue; fi
  missing+=("$p")
done

# deb-src entries are derived from the machine's own deb entries (no mirror address is written here).
ensure_deb_src() {
  if grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ || grep -qs '^deb-src' /etc/apt/sources.list; then return; fi
  log "enabling deb-src entries derived from the existing apt sources"
  local out=/etc/apt/sources.list.d/llmsim-deb-src.sources
  local tmp; tmp=$(mktemp)
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    sed -n 's/^Types:[[:space:]]*deb[[:space:]]*$/Types: deb-src/;p' "$f" >>"$tmp"; echo >>"$tmp"
  done
  if [ -f /etc/apt/sources.list ]; then
    grep -E '^deb[[:space:]]' /etc/apt/sources.list | sed 's/^deb[[:space:]]/deb-src /' >"$tmp.list" || true
    [ -s "$tmp.list" ] && as_root cp "$tmp.list" /etc/apt/sources.list.d/llmsim-deb-src.list
    rm -f "$tmp.list"
  fi
  [ -s "$tmp" ] && as_root cp "$tmp" "$out"
  rm -f "$tmp"
  need_update=1
}

need_update=0
need_src=0
[ -f third_party/imgui/imgui.h ] || need_src=1
[ -f third_party/SDL2/include/SDL.h ] || need_src=1
[ "$need_src" = 1 ] && ensure_deb_src

if [ ${#missing[@]} -gt 0 ] || [ "$need_update" = 1 ]; then
  log "apt-get update"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
fi
if [ ${#missing[@]} -gt 0 ]; then
  log "installing ($mode): ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

fetch_source() { # name version dest
  local name=$1 ver=$2 dest=$3
  [ -d "third_party/$dest" ] && return
  log "apt-get source $name=$ver"
  local work; work=$(mktemp -d "$root/third_party/.src.XXXXXX")
  (cd "$work" && apt-get source -qq --download-only "$name" >/dev/null && dpkg-source -x --no-check ./*.dsc src >/dev/null)
  local v; v=$(cd "$work/src" && dpkg-parsechangelog -S Version)
  case "$v" in "$ver"*) ;; *) log "error: $name source is $v, expected $ver"; exit 1;; esac
  mv "$work/src" "third_party/$dest"; rm -rf "$work"
}
mkdir -p third_party
fetch_source imgui "$IMGUI_VERSION" imgui
fetch_source libsdl2 "$SDL2_VERSION" SDL2

# npm (test mode only): playwright-core, pinned to a version that runs on Debian 12's Node.js 18; it drives
# Debian's chromium and never downloads a browser. The MCP TypeScript SDK's client drives `llmsim-cli mcp`.
if [ "$mode" = test ] && { [ ! -d tests/e2e/node_modules/playwright-core ] ||
                           [ ! -d tests/e2e/node_modules/@modelcontextprotocol/sdk ]; }; then
  log "npm ci (tests/e2e)"
  (cd tests/e2e && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --silent)  # check_deps: test
fi
log "ok ($mode)"
