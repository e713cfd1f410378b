#!/usr/bin/env bash
# Install everything llmsim needs to build and test, from Debian's and npm's registries only.
# Idempotent: when everything is present it only checks and returns in a second or two.
#   scripts/setup.sh            # system packages + third-party sources + npm test deps
# Third-party sources land in third_party/ (ignored by git); nothing is vendored in the repo.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

APT_PKGS=(cmake g++ make dpkg-dev emscripten libsdl2-dev libgl-dev libegl-dev nlohmann-json3-dev catch2 libstb-dev
          fonts-inter fonts-jetbrains-mono fonts-dejavu-core chromium python3 clang libclang-rt-14-dev xz-utils)
IMGUI_VERSION=1.86
SDL2_VERSION=2.26.5

log() { printf '[setup] %s\n' "$*"; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
for p in "${APT_PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
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
    grep -E '^deb[[:space:]]' /etc/apt/sources.list | sed 's/^deb[[:space:]]/deb-src /' >/etc/apt/sources.list.d/llmsim-deb-src.list || true
  fi
  as_root cp "$tmp" "$out"; rm -f "$tmp"
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
  log "installing: ${missing[*]}"
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

# npm: playwright-core only (it drives Debian's chromium; it never downloads a browser).
if [ ! -d tests/e2e/node_modules/playwright-core ]; then
  log "npm ci (tests/e2e)"
  (cd tests/e2e && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --silent)
fi
log "ok"
