#!/usr/bin/env python3
"""Check that assets/catalog/models.json and hardware.json are what the build scripts write from the reference data.

The two files are generated (scripts/catalog/build_models.py, build_hardware.py); a hand edit of the JSON would be
lost on the next rebuild and has no source in the scripts. This runs both scripts into a temporary folder and
compares byte for byte. Without the reference folder (a clone without ../shared) it exits 77, which ctest reports as
skipped.

usage: python3 scripts/catalog/check_generated.py [--ref DIR] [--seeds DIR]
  defaults: ../shared/reference and ../shared/seeds relative to the repository root
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SKIP = 77


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ref", default=os.path.join(ROOT, "..", "shared", "reference"))
    ap.add_argument("--seeds", default=os.path.join(ROOT, "..", "shared", "seeds"))
    a = ap.parse_args()
    if not os.path.isfile(os.path.join(a.ref, "hardware.json")) or not os.path.isfile(os.path.join(a.ref, "models.json")):
        print("check_generated: no reference data at %s; skipped (pass --ref DIR)" % os.path.normpath(a.ref))
        return SKIP
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        runs = [("models.json", [os.path.join(HERE, "build_models.py"), "--ref", a.ref]),
                ("hardware.json", [os.path.join(HERE, "build_hardware.py"), "--ref", a.ref, "--seeds", a.seeds])]
        for name, cmd in runs:
            out = os.path.join(tmp, name)
            r = subprocess.run([sys.executable] + cmd + ["--out", out], capture_output=True, text=True)
            if r.returncode != 0:
                print("check_generated: %s failed:\n%s%s" % (os.path.basename(cmd[0]), r.stdout, r.stderr))
                failed += 1
                continue
            with open(out, "rb") as f:
                fresh = f.read()
            with open(os.path.join(ROOT, "assets", "catalog", name), "rb") as f:
                committed = f.read()
            if fresh != committed:
                print("check_generated: assets/catalog/%s differs from what %s writes; rebuild it with the script "
                      "(never edit the JSON by hand)" % (name, os.path.basename(cmd[0])))
                failed += 1
            else:
                print("check_generated: assets/catalog/%s is what %s writes (%d bytes)" % (name, os.path.basename(cmd[0]), len(fresh)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
