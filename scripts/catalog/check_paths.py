#!/usr/bin/env python3
"""Fail when a catalog file, script, source file or test carries an absolute local path.

A path such as /work/shared/reference/hardware.json names a folder on the machine that built the catalog; a reader
of the repository cannot follow it. Catalog values cite public sources (URL, repo@commit:path); scripts take their
input folders as arguments (default ../shared/... relative to the repository root); tests use paths from CMake.

Scanned: assets/ (catalog and calibration), scripts/, engine/, cli/, ui/, web/, cmake/, tests/ (without
node_modules), CMakeLists.txt. Flagged: /work/, /home/, /tmp/, /root/, /Users/, /mnt/, /var/tmp/, /private/,
C:\\Users\\ at the start of a path (not inside a URL or a longer path such as server/workstation).

usage: python3 scripts/catalog/check_paths.py [--root DIR] [--self-test]
exit status 1 when a path is found (each hit printed as FILE:LINE: text), 0 otherwise.
"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCAN = ["assets", "scripts", "engine", "cli", "ui", "web", "cmake", "tests", "CMakeLists.txt"]
SKIP_DIRS = {"node_modules", ".git", "third_party", "build", "__pycache__"}
# A path is local when it starts a token: not preceded by a letter, digit, '.', '/', ':', '-', '_', '~' or '\\'.
LOCAL = re.compile(r"(?<![A-Za-z0-9._/:~\\-])(/(?:work|home|tmp|root|Users|mnt|var/tmp|private)/|[A-Za-z]:\\\\?Users\\\\?)")
# Files whose absolute paths are deliberate, with the reason (checked to exist, so a stale entry fails too).
ALLOWED = {
    "scripts/fresh_root_check.sh": "paths inside the debootstrap root the script builds (/work/main, /tmp/run.log there)",
    "scripts/catalog/check_paths.py": "this checker's own pattern list and self-test",
}


def scan_text(text):
    """Return [(line_number, line)] of lines that contain a local absolute path."""
    return [(i + 1, line.strip()) for i, line in enumerate(text.splitlines()) if LOCAL.search(line)]


def files_under(root):
    for entry in SCAN:
        p = os.path.join(root, entry)
        if os.path.isfile(p):
            yield entry
        for d, dirs, names in os.walk(p):
            dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS and not os.path.islink(os.path.join(d, x)))
            for n in sorted(names):
                full = os.path.join(d, n)
                if os.path.isfile(full) and not os.path.islink(full):
                    yield os.path.relpath(full, root).replace(os.sep, "/")


def self_test():
    bad = ["/work/shared/reference/hardware.json", "see (/home/me/x.csv)", "'/tmp/run.log'", "C:\\Users\\me\\a.json",
           "\"/Users/me/Downloads/config.json\"", "x=/root/.cache/y"]
    good = ["https://huggingface.co/work/shared/x", "server/workstation board", "repo@abc:src/work/tmp/x.py",
            "../shared/reference", "assets/calibration/llamacpp_speed.jsonl", "github:org/home/tmp"]
    fails = [s for s in bad if not scan_text(s)] + [s for s in good if scan_text(s)]
    for s in fails:
        print("self-test: wrong verdict for %r" % s)
    return 1 if fails else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=ROOT)
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    hits, n = [], 0
    for rel in files_under(a.root):
        if rel in ALLOWED:
            continue
        n += 1
        with open(os.path.join(a.root, rel), "rb") as f:
            text = f.read().decode("utf-8", errors="replace")
        hits += ["%s:%d: %s" % (rel, ln, line[:160]) for ln, line in scan_text(text)]
    stale = [p for p in ALLOWED if not os.path.isfile(os.path.join(a.root, p))]
    for h in hits:
        print(h)
    for p in stale:
        print("check_paths.py: allowed file %s does not exist (remove it from ALLOWED)" % p)
    print("check_paths: %d files scanned, %d lines with an absolute local path" % (n, len(hits)))
    return 1 if hits or stale else 0


if __name__ == "__main__":
    sys.exit(main())
