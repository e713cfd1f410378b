#!/usr/bin/env python3
"""Per-engine held-out scores of serving rows the shipped parameters never saw (issue 35), with band coverage.

  build/llmsim-cli accuracy --serving assets/calibration/serving_large_heldout.jsonl --shipped --rows > rows.csv
  scripts/calibration/score_serving_heldout.py assets/calibration/serving_large_heldout.jsonl rows.csv [--gpus 1]

For output tok/s, TPOT and TTFT: rows, MdAPE (median |pred/meas - 1|), signed median (pred/meas - 1) and band
coverage: the share of rows whose measured value lies inside the shipped band, pred x (1 + low) .. pred x (1 + high),
the band fractions read from engine/serving/engines.cpp (the engine's speed row: compute, bandwidth, overhead, then
output / TPOT / TTFT low, high), exactly what serve() and predict print. --gpus N keeps the rows with that GPU count.
Nothing is fitted here.
"""
import argparse, csv, json, re, statistics as st

ap = argparse.ArgumentParser()
ap.add_argument("rows_jsonl")
ap.add_argument("scored_csv")
ap.add_argument("--gpus", type=int, default=0)
ap.add_argument("--engines", default="engine/serving/engines.cpp")
a = ap.parse_args()

# {EngineId::Vllm, "vllm", ... {c, b, o, out_lo, out_hi, tpot_lo, tpot_hi, ttft_lo, ttft_hi}, ...}
bands = {}
src = open(a.engines).read()
for m in re.finditer(r'\{EngineId::\w+, "(\w+)".*?\{([-0-9., ]+)\},\s*serving::', src, re.S):
    v = [float(x) for x in m.group(2).split(",")]
    if len(v) == 9: bands[m.group(1)] = [(v[3], v[4]), (v[5], v[6]), (v[7], v[8])]

rows = {}
for line in open(a.rows_jsonl):
    if line.strip():
        r = json.loads(line)
        if not a.gpus or r.get("gpus") == a.gpus: rows[r["id"]] = r
pred = {}
for c in csv.reader(open(a.scored_csv)):
    if len(c) == 9 and c[0] in rows: pred[c[0]] = (c[1], [float(x) for x in c[3:]])

print("| engine | metric | rows | MdAPE | signed | band coverage |\n|---|---|---|---|---|---|")
for eng in sorted({e for e, _ in pred.values()}):
    for k, name in enumerate(("output tok/s", "TPOT", "TTFT")):
        e, inside = [], 0
        for i, (en, v) in pred.items():
            meas, p = v[2 * k], v[2 * k + 1]
            if en != eng or meas <= 0 or p <= 0: continue
            e.append(p / meas - 1)
            lo, hi = bands.get(eng, [(0, 0)] * 3)[k]
            inside += p * (1 + lo) <= meas <= p * (1 + hi)
        if not e: continue
        print(f"| {eng} | {name} | {len(e)} | {100 * st.median(abs(x) for x in e):.1f} % | {100 * st.median(e):+.1f} % | "
              f"{inside}/{len(e)} |")
