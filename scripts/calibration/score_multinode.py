#!/usr/bin/env python3
"""Score cross-node serving rows: each row of serving.jsonl format (assets/calibration/serving_multinode.jsonl, and the
interconnect == "network" rows of serving.jsonl) through `llmsim-cli predict`, measured vs predicted, one line each.

usage: scripts/calibration/score_multinode.py [--cli build/native/llmsim-cli] [FILE ...]
Nothing is fitted here: the rows are held out from every fit (serve_fit.cpp skips cross-node rows).
"""
import argparse, json, subprocess, statistics, sys

def rows_of(path, only_network):
    for line in open(path):
        if not line.strip():
            continue
        r = json.loads(line)
        if only_network and r.get("interconnect") != "network" and (r.get("tp") or 1) * (r.get("pp") or 1) <= 8:
            continue
        yield r

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default="build/native/llmsim-cli")
    ap.add_argument("files", nargs="*", default=["assets/calibration/serving_multinode.jsonl", "assets/calibration/serving.jsonl"])
    a = ap.parse_args()
    rows = []
    for f in a.files:
        rows += list(rows_of(f, only_network=not f.endswith("serving_multinode.jsonl")))
    req = "".join(json.dumps(r) + "\n" for r in rows)
    out = subprocess.run([a.cli, "predict", "-"], input=req, capture_output=True, text=True).stdout.splitlines()
    errs = {"out": [], "tpot": [], "ttft": []}
    print("%-6s %-28s %-10s %5s %5s %9s %9s %8s %8s %8s %8s" % ("id", "model", "ic", "C", "n", "out meas", "out pred", "TPOT m", "TPOT p", "TTFT m", "TTFT p"))
    for r, line in zip(rows, out):
        p = json.loads(line)
        m = r["measured"]
        if "error" in p:
            print("%-6s error: %s" % (r["id"], p["error"])); continue
        tpot_m = m.get("tpot_ms_median") or m.get("tpot_ms_mean")
        ttft_m = m.get("ttft_ms_median") or m.get("ttft_ms_mean")
        tpot_p = p["tpot_ms"]["median"]; ttft_p = p["ttft_ms"]["median"]
        t = r["test"]
        print("%-6s %-28s %-10s %5s %5s %9.1f %9.1f %8.1f %8.1f %8.1f %8.1f" % (r["id"], r["model"].split("/")[-1][:28], r["interconnect"],
              t.get("concurrency"), t.get("num_prompts"), m["output_tok_s"] or 0, p["output_tok_s"], tpot_m or 0, tpot_p, ttft_m or 0, ttft_p))
        if m.get("output_tok_s"): errs["out"].append(abs(p["output_tok_s"] / m["output_tok_s"] - 1))
        if tpot_m: errs["tpot"].append(abs(tpot_p / tpot_m - 1))
        if ttft_m: errs["ttft"].append(abs(ttft_p / ttft_m - 1))
    print("MdAPE: " + ", ".join("%s %.1f %% (%d rows)" % (k, 100 * statistics.median(v), len(v)) for k, v in errs.items() if v))

if __name__ == "__main__":
    sys.exit(main())
