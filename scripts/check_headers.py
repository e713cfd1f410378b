#!/usr/bin/env python3
"""Check that every header of engine/, cli/ and net/ compiles on its own: a translation unit that includes only
that header passes `clang++ -fsyntax-only`. A header that uses size_t without <cstddef> (or any name it does
not include) builds fine wherever a source happens to include the missing header first, and unity builds hide it
further; a build without them (the README's run command builds the host CLI that way) then fails on a fresh
machine. ctest runs it as `headers_self_contained` in the native build (label check), the headers in parallel.

  python3 scripts/check_headers.py --cxx clang++ [--isystem DIR ...] [--jobs N]   # exit 0 clean, 1 with each error
  python3 scripts/check_headers.py --cxx clang++ --self-test    # plants a header that uses size_t unincluded
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys
import tempfile

FOLDERS = ("engine", "cli", "net")   # each is an include root of its own headers (engine: "core/units.h")


def headers(root):
    for folder in FOLDERS:
        for dirpath, _, names in os.walk(os.path.join(root, folder)):
            for name in sorted(names):
                if name.endswith(".h"):
                    yield os.path.join(dirpath, name)


def compile_alone(cxx, header, include_dirs, isystem):
    """'' when `#include "header"` alone passes -fsyntax-only, else the compiler's first lines."""
    args = [cxx, "-std=c++17", "-fsyntax-only", "-x", "c++", "-"]
    for d in include_dirs:
        args += ["-I", d]
    for d in isystem:
        args += ["-isystem", d]
    r = subprocess.run(args, input=f'#include "{header}"\n', capture_output=True, text=True)
    if r.returncode == 0:
        return ""
    return "\n".join((r.stderr or r.stdout).strip().splitlines()[:6])


def check(root, cxx, isystem, jobs, out=sys.stdout):
    include_dirs = [os.path.join(root, f) for f in FOLDERS]
    files = sorted(headers(root))
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        errors = list(pool.map(lambda h: compile_alone(cxx, h, include_dirs, isystem), files))
    bad = [(h, e) for h, e in zip(files, errors) if e]
    for h, e in bad:
        print(f"{os.path.relpath(h, root)}: does not compile on its own (include what it uses):\n{e}", file=out)
    print(f"check_headers: {len(files) - len(bad)} of {len(files)} headers of {', '.join(FOLDERS)} compile alone", file=out)
    return 1 if bad or not files else 0


def self_test(cxx):
    """serve_prefix_cache.h's bug: size_t with only <cstdint> and <vector> fails; the same header with <cstddef> passes."""
    import io
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        core = os.path.join(tmp, "engine", "core")
        os.makedirs(core)
        planted = os.path.join(core, "planted.h")
        with open(planted, "w") as f:
            f.write("#pragma once\n#include <cstdint>\n#include <vector>\nstruct Planted { std::vector<int> v; void init(int n) { v.assign((size_t)n, 0); } };\n")
        buf = io.StringIO()
        if check(tmp, cxx, [], 1, out=buf) != 1 or "engine/core/planted.h: does not compile on its own" not in buf.getvalue():
            failures.append("a header using size_t without <cstddef> passed:\n" + buf.getvalue())
        with open(planted, "w") as f:
            f.write("#pragma once\n#include <cstddef>\n#include <cstdint>\n#include <vector>\nstruct Planted { std::vector<int> v; void init(int n) { v.assign((size_t)n, 0); } };\n")
        buf = io.StringIO()
        if check(tmp, cxx, [], 1, out=buf) != 0:
            failures.append("the fixed header failed:\n" + buf.getvalue())
    for f in failures:
        print("self-test FAILED:", f)
    if not failures:
        print("check_headers self-test: a header using size_t without <cstddef> is caught; with it, it passes")
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--cxx", default="clang++")
    ap.add_argument("--isystem", action="append", default=[], help="a system include folder (nlohmann/json)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test:
        return self_test(a.cxx)
    return check(os.path.abspath(a.root), a.cxx, a.isystem, max(1, a.jobs))


if __name__ == "__main__":
    sys.exit(main())
