#!/usr/bin/env python3
"""Per-source tables of serving_dense_large_heldout.jsonl (issue 35; docs/validation/2026-12-07-dense-large.md).

  build/llmsim-cli accuracy --serving assets/calibration/serving_dense_large_heldout.jsonl --shipped --rows > rows.csv
  scripts/calibration/dense_large_tables.py assets/calibration/serving_dense_large_heldout.jsonl rows.csv

One line per group (source and GPU; dstack's H100 rows split by whether every server flag of the run is one the model
simulates, as each row's notes say): rows, then MdAPE / signed median of predicted / measured - 1 for output tok/s,
TPOT and TTFT. Nothing is fitted here.
"""
import csv, json, statistics as st, sys


def group(r):
    if "oracle" in r["source"]: return "Oracle MI300X FP8 static batches"
    if "tgi_vs_vllm" in r["source"]: return "dstack MI300X BF16 sonnet bursts"
    return "dstack H100 FP8 ShareGPT, " + ("flags modelled" if "every flag" in r["notes"] else "multi-step or chunked off")


def cell(pred, ids, k):
    e = [pred[i][2 * k + 1] / pred[i][2 * k] - 1 for i in ids if pred[i][2 * k] > 0 and pred[i][2 * k + 1] > 0]
    if not e: return "-"
    return "%.1f %% / %+.1f %% (n=%d)" % (100 * st.median(abs(x) for x in e), 100 * st.median(e), len(e))


rows = {json.loads(l)["id"]: json.loads(l) for l in open(sys.argv[1]) if l.strip()}
pred = {c[0]: [float(x) for x in c[3:]] for c in csv.reader(open(sys.argv[2])) if len(c) == 9 and c[0] in rows}
groups = {}
for i in pred: groups.setdefault(group(rows[i]), []).append(i)
print("| group | rows | output MdAPE / signed | TPOT | TTFT |\n|---|---|---|---|---|")
for g in sorted(groups):
    ids = groups[g]
    print("| %s | %d | %s | %s | %s |" % (g, len(ids), cell(pred, ids, 0), cell(pred, ids, 1), cell(pred, ids, 2)))
