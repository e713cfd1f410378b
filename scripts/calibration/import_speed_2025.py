#!/usr/bin/env python3
"""Copy ../shared/calibration/llamacpp_speed_2025.jsonl (relative to the repo root; recent llama.cpp builds, flash
attention on by default; how it was made: that folder's README.md) into assets/calibration/llamacpp_speed_2025.jsonl.

Rows are copied as they are, plus one field: "ubatch" (llama-bench -ub) where the row's own "notes" say
"n_ubatch=N" (the collector put the run's -ub there; rows without it ran llama-bench's default 512).

usage: python3 scripts/calibration/import_speed_2025.py [in.jsonl] [out.jsonl]
"""
import json, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SRC = sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "..", "shared", "calibration", "llamacpp_speed_2025.jsonl")
OUT = sys.argv[2] if len(sys.argv) > 2 else os.path.join(REPO, "assets/calibration/llamacpp_speed_2025.jsonl")

n = ub = 0
with open(SRC) as f, open(OUT, "w") as o:
    for line in f:
        if not line.strip():
            continue
        r = json.loads(line)
        m = re.search(r"n_ubatch\s*=\s*(\d+)", r.get("notes") or "")
        if m:
            r["ubatch"] = int(m.group(1))
            ub += 1
        o.write(json.dumps(r, ensure_ascii=False) + "\n")
        n += 1
print("wrote %s: %d rows, %d with ubatch from notes" % (OUT, n, ub))
