#!/usr/bin/env python3
"""Fit the grouped-GEMM law for routed experts (engine/serving/serve_step.cpp expert_step) on fused-MoE kernel
benchmarks (assets/calibration/moe_kernels.jsonl: benchmark_moe.py runs quoted from vLLM / SGLang PRs).

One MoE layer of b tokens, uniform routing (benchmark_moe.py draws random gating scores):
  touched  = E (1 - (1 - k/E)^b)                    experts with at least one token
  t        = b k / touched                          tokens per touched expert
  rows     = touched x max(block_m, t + block_m/2)  rows after moe_align_block_size pads each expert to block_m
                                                    (block_m 16 when b <= E else 64: fused_moe.py get_default_config)
  P        = 3 x hidden x inter_gpu                 one expert's gate+up+down parameters on one GPU
  read     = touched x P x bytes/param / (bandwidth x bw_eff)
  gemm     = 2 P rows / (tensor TFLOPS x c x P / (P + P0))
  kernel   = max(read, gemm) + 35 us                (kMoeLayerFixedUs)
c and P0 are fitted on the rows with role "fit" (least squares in log time); the "held-out" rows only check.
The old law (before this fit) is printed next to it: gemm = 2 P b k / (TFLOPS x 0.528 x t / (t + 16)).

usage: scripts/calibration/fit_moe_gemm.py [--data assets/calibration/moe_kernels.jsonl]
"""
import argparse, json, math, statistics

BW_EFF = 0.845          # vLLM's shipped bandwidth share (engine/serving/serve.cpp engine table)
COMPUTE_EFF = 0.528     # vLLM's shipped compute share (the old law's efficiency)
FIXED_US = 35.0         # kMoeLayerFixedUs (serving_internal.h)
FP8_TENSOR = {"h100-sxm", "h200-sxm", "l40s", "b200"}

def hardware():
    d = json.load(open("assets/catalog/hardware.json"))["devices"]
    return {h["id"]: h for h in d}

def shape(r, b):
    E, k = r["n_experts"], r["top_k"]
    touched = max(1.0, E * (1 - (1 - k / E) ** b))
    t = b * k / touched
    return E, k, touched, t

def tflops(r, hw):
    f = hw[r["device"]]["fp16_tflops"]
    return f * (2 if r["dtype"] == "fp8" and r["device"] in FP8_TENSOR else 1)

def predict_new(r, hw, b, c, p0):
    E, k, touched, t = shape(r, b)
    bm = 16 if b <= E else 64
    rows = touched * max(bm, t + bm / 2)
    P = 3 * r["hidden"] * r["expert_inter_gpu"]
    read = touched * P * r["weight_bytes_per_param"] / (hw[r["device"]]["bandwidth_gbs"] * 1e9 * BW_EFF)
    gemm = 2 * P * rows / (tflops(r, hw) * 1e12 * c * P / (P + p0))
    return (max(read, gemm) + FIXED_US * 1e-6) * 1e6

def predict_old(r, hw, b):
    E, k, touched, t = shape(r, b)
    P = 3 * r["hidden"] * r["expert_inter_gpu"]
    read = touched * P * r["weight_bytes_per_param"] / (hw[r["device"]]["bandwidth_gbs"] * 1e9 * BW_EFF)
    gemm = 2 * P * b * k / (tflops(r, hw) * 1e12 * COMPUTE_EFF * t / (t + 16))
    return (max(read, gemm) + FIXED_US * 1e-6) * 1e6

def loss(rows, hw, c, p0):
    return sum(math.log(predict_new(r, hw, b, c, p0) / us) ** 2 for r in rows for b, us in zip(r["batch"], r["kernel_us"]))

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="assets/calibration/moe_kernels.jsonl")
    a = ap.parse_args()
    hw = hardware()
    rows = [json.loads(l) for l in open(a.data) if l.strip()]
    fit = [r for r in rows if r["role"] == "fit"]
    best = None
    for ci in range(5, 101):
        c = ci / 100
        for pi in range(0, 201):
            p0 = pi * 0.5e6
            l = loss(fit, hw, c, p0)
            if best is None or l < best[0]: best = (l, c, p0)
    _, c, p0 = best
    print("fitted: c = %.2f, P0 = %.1f M parameters (on %s)" % (c, p0 / 1e6, ", ".join(r["id"] for r in fit)))
    for r in rows:
        P = 3 * r["hidden"] * r["expert_inter_gpu"]
        print("\n%s %s  %s %s E=%d k=%d hidden=%d inter/GPU=%d  P=%.2f M  shape factor P/(P+P0)=%.3f" % (
            r["id"], r["role"], r["device"], r["dtype"], r["n_experts"], r["top_k"], r["hidden"], r["expert_inter_gpu"],
            P / 1e6, P / (P + p0)))
        print("  %6s %10s %10s %7s %10s %7s" % ("batch", "meas us", "new us", "new", "old us", "old"))
        en, eo = [], []
        for b, us in zip(r["batch"], r["kernel_us"]):
            n, o = predict_new(r, hw, b, c, p0), predict_old(r, hw, b)
            en.append(abs(n / us - 1)); eo.append(abs(o / us - 1))
            print("  %6d %10.1f %10.1f %+6.0f%% %10.1f %+6.0f%%" % (b, us, n, 100 * (n / us - 1), o, 100 * (o / us - 1)))
        big = [i for i, b in enumerate(r["batch"]) if b >= 256]
        print("  MdAPE new %.1f %% old %.1f %%; batch >= 256: new %s old %s" % (
            100 * statistics.median(en), 100 * statistics.median(eo),
            "%.1f %%" % (100 * statistics.median([en[i] for i in big])) if big else "-",
            "%.1f %%" % (100 * statistics.median([eo[i] for i in big])) if big else "-"))

if __name__ == "__main__":
    main()
