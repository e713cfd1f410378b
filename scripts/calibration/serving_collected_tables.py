#!/usr/bin/env python3
"""Per-engine tables of `llmsim-cli accuracy --serving <file> --shipped --rows` (held out: the shipped parameters never
saw these rows). Usage: serving_collected_tables.py <rows.jsonl> <scored.csv>   (markdown on stdout)
MdAPE = median |pred/meas - 1|; signed = median (pred/meas - 1); n = rows with that metric; s = sources."""
import csv, json, sys, statistics as st

rows = {json.loads(l)["id"]: json.loads(l) for l in open(sys.argv[1])}
pred = {}
for r in csv.reader(open(sys.argv[2])):
    if len(r) == 9 and r[0] in rows: pred[r[0]] = [float(x) for x in r[3:]]

def kind(r):
    t = r["test"]
    if t.get("input_len") is None: return "ShareGPT burst" if not t.get("concurrency") else "ShareGPT closed loop"
    return "random burst" if not t.get("concurrency") else "random closed loop"

def gcount(r): return "1 GPU" if r["gpus"] == 1 else "2-4 GPUs" if r["gpus"] <= 4 else "8 GPUs"

def stats(ids):
    out = []
    for k in range(3):   # out, tpot, ttft
        e = [pred[i][2 * k + 1] / pred[i][2 * k] - 1 for i in ids if pred[i][2 * k] > 0 and pred[i][2 * k + 1] > 0]
        srcs = {rows[i]["source"].split("/blob/")[0] for i in ids if pred[i][2 * k] > 0 and pred[i][2 * k + 1] > 0}
        if not e: out.append("–"); continue
        out.append(f"{100 * st.median([abs(x) for x in e]):.0f} % / {100 * st.median(e):+.0f} % (n={len(e)}, s={len(srcs)})")
    return out

def table(title, key):
    print(f"\n### {title}\n\n| engine | group | rows | output MdAPE / signed | TPOT MdAPE / signed | TTFT MdAPE / signed |\n|---|---|---|---|---|---|")
    for eng in ("sglang", "vllm"):
        groups = {}
        for i, r in rows.items():
            if r["engine"] == eng and i in pred: groups.setdefault(key(r), []).append(i)
        for g in sorted(groups):
            print(f"| {eng} | {g} | {len(groups[g])} | " + " | ".join(stats(groups[g])) + " |")

table("All rows per engine", lambda r: "all")
table("Per GPU count", gcount)
table("Per build era (the page's / PR's date)", lambda r: (r.get("date") or "?")[:4])
table("Per workload", kind)
MOE = ("gpt-oss", "Qwen3-235B", "GLM-4.5-Air", "DeepSeek-R1")
table("Dense vs MoE", lambda r: "MoE" if any(m in r["model"] for m in MOE) else "dense")
table("Per GPU model", lambda r: r["hardware"])
table("Per model (gpt-oss: SGLang 0.5.3-0.5.4 ran it 3-16x slower than vLLM on the same box)", lambda r: r["model"].split("/")[1])
table("Per source", lambda r: r["source"].split("/blob/")[0].replace("https://github.com/", ""))
