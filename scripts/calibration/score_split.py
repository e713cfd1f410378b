#!/usr/bin/env python3
"""Score measured llama.cpp rows through `llmsim-cli predict --params P`: the 2024 -> 2025-26 split of issue 12.

  build/native/llmsim-cli calibrate assets/calibration/llamacpp_speed.jsonl --write build/p2024.json
  scripts/calibration/score_split.py --params build/p2024.json [--rows] [assets/calibration/llamacpp_speed_2025.jsonl]

Prints MdAPE / share within +-25 % / signed median / band coverage (measured inside low..high) for decode and
prefill, overall, MoE vs dense (a row is MoE when its config names routed experts) and per hardware class.
Nothing is fitted here: the parameters come from a fit that never saw these rows.
"""
import argparse, json, statistics, subprocess

MOE_KEYS = ("num_experts", "num_local_experts", "n_routed_experts", "moe_num_experts")

def is_moe(cfg):
    cfg = cfg or {}
    inner = cfg.get("text_config") or {}
    return any((cfg.get(k) or inner.get(k) or 0) > 1 for k in MOE_KEYS)

def stats(rs):
    if not rs:
        return "-"
    e = [r["pred"] / r["meas"] - 1 for r in rs]
    a = [abs(x) for x in e]
    w = sum(1 for x in a if x <= 0.25) / len(a)
    cov = sum(1 for r in rs if r["low"] <= r["meas"] <= r["high"]) / len(rs)
    return "%3d rows  %6.1f %% / %3.0f %% / %+6.1f %% / cov %3.0f %%" % (
        len(rs), 100 * statistics.median(a), 100 * w, 100 * statistics.median(e), 100 * cov)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default="build/native/llmsim-cli")
    ap.add_argument("--params", help="speed_params.json to predict with (default: the embedded fit)")
    ap.add_argument("--rows", action="store_true", help="print every row")
    ap.add_argument("files", nargs="*", default=["assets/calibration/llamacpp_speed_2025.jsonl"])
    a = ap.parse_args()
    rows = [json.loads(l) for f in a.files for l in open(f) if l.strip()]
    cmd = [a.cli, "predict", "-"] + (["--params", a.params] if a.params else [])
    req = "".join(json.dumps(r) + "\n" for r in rows)
    out = subprocess.run(cmd, input=req, capture_output=True, text=True, check=True).stdout.splitlines()
    if len(out) != len(rows):
        raise SystemExit("predict answered %d lines for %d rows" % (len(out), len(rows)))
    scored = []
    for r, line in zip(rows, out):
        p = json.loads(line)
        if "tokens_per_s" not in p:
            print("no prediction for %s: %s" % (r["id"], p.get("error", line)))
            continue
        scored.append({"id": r["id"], "kind": r["test"]["kind"], "cls": r["hardware"].get("kind", "?"),
                       "moe": is_moe(r.get("config")), "meas": r["measured_tokens_per_s"], "pred": p["tokens_per_s"],
                       "low": p["low"], "high": p["high"], "model": r["model"], "dev": r["hardware"]["name"],
                       "backend": r.get("backend"), "test": r["test"], "quant": r.get("quant")})
    print("MdAPE / within +-25 %% / signed median / band coverage (%s)" % (a.params or "embedded fit"))
    for kind in ("decode", "prefill"):
        k = [s for s in scored if s["kind"] == kind]
        print("%-7s all      %s" % (kind, stats(k)))
        print("%-7s moe      %s" % ("", stats([s for s in k if s["moe"]])))
        print("%-7s dense    %s" % ("", stats([s for s in k if not s["moe"]])))
        for c in sorted({s["cls"] for s in k}):
            print("%-7s %-8s %s" % ("", c, stats([s for s in k if s["cls"] == c])))
    if a.rows:
        for s in scored:
            print("%s %-7s %-3s %-30.30s %-5s %-7s %-36.36s pp%-5d d%-6d meas %9.1f pred %9.1f %+6.0f %%" % (
                s["id"], s["kind"], "moe" if s["moe"] else "", s["model"], s["quant"], s["backend"], s["dev"],
                s["test"]["tokens"], s["test"].get("depth", 0), s["meas"], s["pred"], 100 * (s["pred"] / s["meas"] - 1)))

if __name__ == "__main__":
    main()
