#!/usr/bin/env bash
# Repeat the README's contract by hand on a fresh Debian 12 machine: a `debootstrap --variant=minbase bookworm`
# root with nothing else installed, a clean clone of this repository, then the README's two commands.
# Run as root on a Debian machine with network access to a Debian mirror (and the npm registry).
#   scripts/fresh_root_check.sh DIR [test|run|both]     (default both; DIR is created, ~2 GB after the run)
# Prints the time of each command; the run check fetches index.html, llmsim.js and llmsim.wasm from the server.
set -euo pipefail
dir=${1:?usage: fresh_root_check.sh DIR [test|run|both]}
what=${2:-both}
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap
if [ ! -x "$dir/bin/bash" ]; then
  t0=$SECONDS; debootstrap --variant=minbase bookworm "$dir" "$mirror" >/dev/null
  echo "fresh-root: debootstrap minbase in $((SECONDS - t0)) s"
fi
# the same apt sources a Debian 12 install has (main, updates, security)
cat >"$dir/etc/apt/sources.list" <<SRC
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb ${mirror%/debian}/debian-security bookworm-security main
SRC
cp /etc/resolv.conf "$dir/etc/resolv.conf"
# the host's own extra CA certificates (e.g. a network's TLS-inspecting proxy): a machine on that network has
# them, and npm cannot reach its registry without them; they are the network's, not the project's
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
  mkdir -p "$dir/usr/local/share/ca-certificates"; cp /usr/local/share/ca-certificates/*.crt "$dir/usr/local/share/ca-certificates/"
  [ -x "$dir/usr/sbin/update-ca-certificates" ] && chroot "$dir" update-ca-certificates >/dev/null 2>&1 || true
fi
for m in proc sys dev; do mountpoint -q "$dir/$m" || mount --bind "/$m" "$dir/$m"; done
trap 'for m in dev sys proc; do umount -l "$dir/$m" 2>/dev/null || true; done' EXIT
rm -rf "$dir/work/main"; mkdir -p "$dir/work"
git clone -q "$repo" "$dir/work/main"
[ -d "$repo/../shared" ] && { rm -rf "$dir/work/shared"; cp -a "$repo/../shared" "$dir/work/shared"; }
in_root() { chroot "$dir" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 bash -c "$1"; }
if [ "$what" = run ] || [ "$what" = both ]; then
  # the run command on a fresh root: install, build the page, serve; then fetch the three files
  t0=$SECONDS
  in_root 'cd /work/main && { scripts/run.sh --port 8093 >/tmp/run.log 2>&1 & echo $! >/tmp/run.pid; }; for i in $(seq 1 1800); do
             grep -q "serving build/web/site" /tmp/run.log 2>/dev/null && break; sleep 1; done; sleep 2
           for f in index.html llmsim.js llmsim.wasm; do
             python3 -c "import sys,urllib.request; b=urllib.request.urlopen(\"http://127.0.0.1:8093/$f\").read(); print(\"served\", \"$f\", len(b), \"bytes\")"
           done; kill "$(cat /tmp/run.pid)" 2>/dev/null || true'
  echo "fresh-root: run command (setup + web build + first page served) in $((SECONDS - t0)) s"
fi
if [ "$what" = test ] || [ "$what" = both ]; then
  t0=$SECONDS
  in_root 'cd /work/main && scripts/test.sh' | tee "$dir/test.log" | grep -E '^=== |SUMMARY|  [a-z-]+ +(ok|FAILED)'
  echo "fresh-root: test command in $((SECONDS - t0)) s"
fi
