#!/usr/bin/env python3
"""Score the serving frontier's published measurements (assets/calibration/serving_frontier.jsonl, issue 36) with the
shipped model: each row through `llmsim-cli predict`, measured vs predicted, and whether the measurement falls inside
the band the prediction carries (the engine's held-out band on output tok/s, TTFT and TPOT: serving-model.md
"Accuracy and bands"). Nothing is fitted. Rows marked "scored": false (the setup is not stated well enough to predict
without invented inputs) are listed with the reason. --block picks the rows of one mechanism ("disaggregation", ...).

usage: scripts/calibration/score_frontier.py [--cli build/llmsim-cli] [--block disaggregation] [FILE]
"""
import argparse, json, statistics, subprocess, sys


def score_stages(r, p, inside, by_block):
    """A staged ladder (test.rate_stages): measured.stages[k] is stage stages_from + k of the run; each stage's output
    tok/s, TTFT mean and p90 against the prediction's stage, inside the band the whole run's prediction carries
    (its output band and its TTFT band as ratios, applied to the stage's figure)."""
    m0 = r["measured"].get("stages_from", 0)
    out_lo, out_hi = p["low"] / p["output_tok_s"], p["high"] / p["output_tok_s"]
    t_lo, t_hi = p["ttft_ms"]["low"] / p["ttft_ms"]["median"], p["ttft_ms"]["high"] / p["ttft_ms"]["median"]
    for k, m in enumerate(r["measured"]["stages"]):
        ps = p["stages"][m0 + k]
        parts = []
        for key, v, lo, hi in (("output_tok_s", ps["output_tok_s"], out_lo, out_hi),
                               ("ttft_ms_mean", ps["ttft_ms"]["mean"], t_lo, t_hi),
                               ("ttft_ms_p90", ps["ttft_ms"]["p90"], t_lo, t_hi)):
            if key not in m:
                continue
            ok = lo * v <= m[key] <= hi * v
            name = "stage " + key
            inside.setdefault(name, [0, 0])
            inside[name][0] += ok
            inside[name][1] += 1
            b = by_block.setdefault(r["block"].split(" (")[0] + " (" + r["id"] + " stages)", {}).setdefault(key, ([], []))
            b[0].append(v / m[key] - 1)
            b[1].append(ok)
            parts.append("%s measured %.1f predicted %.1f (%+.0f %%, %s)" % (key, m[key], v, 100 * (v / m[key] - 1), "in" if ok else "OUT"))
        print("%-6s stage %2d rate %g (hit %.0f %%): %s" % (r["id"], m0 + k, m["rate"], 100 * ps["prefix_cache_hit_rate"], "; ".join(parts)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default="build/llmsim-cli")
    ap.add_argument("--block", default="")
    ap.add_argument("file", nargs="?", default="assets/calibration/serving_frontier.jsonl")
    a = ap.parse_args()
    rows = []
    for line in open(a.file):
        if not line.strip():
            continue
        r = json.loads(line)
        if "_header" in r or not r.get("block", "").startswith(a.block):
            continue
        rows.append(r)
    scored = [r for r in rows if r.get("scored", True)]
    for r in rows:
        if not r.get("scored", True):
            print("%-6s not scored: %s" % (r["id"], r["notes"].split("Not scored: ")[-1]))
    req = "".join(json.dumps(r) + "\n" for r in scored)
    out = subprocess.run([a.cli, "predict", "-"], input=req, capture_output=True, text=True).stdout.splitlines()
    # measured key -> (the predict line's figure, its band's low / high keys)
    metrics = [("output_tok_s", lambda p: p["output_tok_s"], lambda p: (p["low"], p["high"])),
               ("ttft_ms_median", lambda p: p["ttft_ms"]["median"], lambda p: (p["ttft_ms"]["low"], p["ttft_ms"]["high"])),
               ("itl_ms_median", lambda p: p["itl_ms"]["median"], lambda p: (p["tpot_ms"]["low"] / p["tpot_ms"]["median"] * p["itl_ms"]["median"],
                                                                           p["tpot_ms"]["high"] / p["tpot_ms"]["median"] * p["itl_ms"]["median"])),
               # rows that publish means (the prefix-caching / offload block): the median's band scaled to the mean
               ("ttft_ms_mean", lambda p: p["ttft_ms"]["mean"], lambda p: (p["ttft_ms"]["low"] / p["ttft_ms"]["median"] * p["ttft_ms"]["mean"],
                                                                         p["ttft_ms"]["high"] / p["ttft_ms"]["median"] * p["ttft_ms"]["mean"])),
               ("tpot_ms_mean", lambda p: p["tpot_ms"]["mean"], lambda p: (p["tpot_ms"]["low"] / p["tpot_ms"]["median"] * p["tpot_ms"]["mean"],
                                                                         p["tpot_ms"]["high"] / p["tpot_ms"]["median"] * p["tpot_ms"]["mean"]))]
    inside = {m[0]: [0, 0] for m in metrics}
    by_block = {}   # mechanism -> metric -> [signed errors], [inside flags]
    for r, line in zip(scored, out):
        p = json.loads(line)
        if "error" in p:
            print("%-6s error: %s" % (r["id"], p["error"]))
            continue
        d = r.get("disaggregation") or {}
        if "stages" in r["measured"]:
            score_stages(r, p, inside, by_block)
            continue
        parts = []
        for key, pred, band in metrics:
            m = r["measured"].get(key)
            if m is None:
                continue
            v = pred(p)
            lo, hi = band(p)
            ok = lo <= m <= hi
            inside[key][0] += ok
            inside[key][1] += 1
            b = by_block.setdefault(r["block"].split(" (")[0], {}).setdefault(key, ([], []))
            b[0].append(v / m - 1)
            b[1].append(ok)
            parts.append("%s measured %.1f predicted %.1f (%+.0f %%, band %.1f..%.1f %s)" % (key, m, v, 100 * (v / m - 1), lo, hi, "in" if ok else "OUT"))
        print("%-6s %dP:%dD %s: %s" % (r["id"], d.get("prefill_gpus", 0), d.get("decode_gpus", 0), r["model"].split("/")[-1], "; ".join(parts)))
    print("inside the band: " + ", ".join("%s %d of %d" % (k, v[0], v[1]) for k, v in inside.items() if v[1]))
    # per mechanism: rows, and per metric the median signed error, the median absolute error and the rows in band
    for block, per in by_block.items():
        n = max(len(e) for e, _ in per.values())
        print("%s (%d rows): %s" % (block, n, "; ".join(
            "%s median %+.0f %% (|err| %.0f %%), %d of %d in band" % (k, 100 * statistics.median(e), 100 * statistics.median([abs(x) for x in e]),
                                                                      sum(f), len(f)) for k, (e, f) in per.items())))


if __name__ == "__main__":
    sys.exit(main())
