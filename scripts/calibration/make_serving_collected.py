#!/usr/bin/env python3
"""assets/calibration/serving_collected.jsonl: the GPUStack performance-lab rows (collect_gpustack_perflab.py) plus
the rows typed by hand below from GitHub issues/PRs, numbered c0001... in that order.

Usage: python3 scripts/calibration/make_serving_collected.py <gpustack git dir> > assets/calibration/serving_collected.jsonl
Every number below is copied as printed (thousands separators removed); nothing is estimated."""
import json, subprocess, sys, os

here = os.path.dirname(os.path.abspath(__file__))
gp = subprocess.run([sys.executable, os.path.join(here, "collect_gpustack_perflab.py"), sys.argv[1]],
                    capture_output=True, text=True, check=True).stdout.splitlines()
rows = [json.loads(l) for l in gp]

def row(engine, ver, model, prec, hw, hw_written, gpus, test, meas, source, date, notes):
    return {"id": None, "engine": engine, "engine_version": ver, "model": model, "config": None, "precision": prec,
            "kv_dtype": None, "hardware": hw, "hardware_as_written": hw_written, "gpus": gpus, "tp": gpus, "pp": 1,
            "interconnect": None, "test": test, "measured": meas, "source": source, "date": date, "notes": notes}

# ai-bot-pro/achatbot PR #183 (2025-08-10): SGLang serving gpt-oss-20b on one Modal H100, sglang.bench_serving
ACH = "https://github.com/ai-bot-pro/achatbot/pull/183"
ACH_VER = "v0.5.0rc0 (not printed in the PR; the default SGLANG_VER of deploy/modal/src/llm/sglang/openai_gpt_oss.py)"
for conc, n, dur, tin, tout, rps, out, tot, e2e_mean, e2e_med, ttft_mean, ttft_med, ttft_p99 in [
        (4, 20, 42.49, 10240, 20480, 0.47, 481.95, 722.93, 8432.23, 8560.30, 2731.00, 2465.51, 6884.07),
        (32, 160, 59.25, 81920, 163840, 2.70, 2765.40, 4148.10, 11769.33, 9837.10, 3721.89, 2106.69, 7713.94)]:
    rows.append(row("sglang", ACH_VER, "openai/gpt-oss-20b", "mxfp4", "h100-sxm", "H100 (Modal, SERVE_IMAGE_GPU=H100), TP=1", 1,
        {"kind": "serving", "input_len": 512, "output_len": 1024, "dataset": "random (sglang.bench_serving; the printed totals are exactly 512 / 1024 per request)",
         "concurrency": conc, "request_rate": "inf", "num_prompts": n},
        {"output_tok_s": out, "total_tok_s": tot, "req_s": rps, "ttft_ms_mean": ttft_mean, "ttft_ms_median": ttft_med, "ttft_ms_p99": ttft_p99},
        ACH, "2025-08-10",
        f"modal run src/llm/sglang/openai_gpt_oss.py::main --task benchmark --num-prompts {n} --max-concurrency {conc} (LLM_MODEL=openai/gpt-oss-20b TP=1); "
        f"backend sglang-oai; completed={n}; total_input_tokens={tin}, total_output_tokens={tout}; duration_s={dur}; "
        f"also printed (not in schema): e2e_ms_mean={e2e_mean}, e2e_ms_median={e2e_med}; the TPOT/ITL lines were not readable in the stored copy "
        "|| conversion: Modal's H100 is taken as SXM (Modal does not say in the PR); server flags are the script's defaults (not printed)"))

# SemiAnalysisAI/InferenceX PR #1061 (2026-04-17): vLLM v0.17.0, gpt-oss-120b on one MI300X, 1k/1k
IX = "https://github.com/SemiAnalysisAI/InferenceX/pull/1061"
for conc, out, tot, tpot in [(64, 2008, 4016, 31.4), (96, 2561, 5105, 36.6), (128, 2990, 5981, 41.3), (256, 4271, 8552, 58.3)]:
    rows.append(row("vllm", "0.17.0 (vllm/vllm-openai-rocm:v0.17.0)", "openai/gpt-oss-120b", "mxfp4", "mi300x", "single MI300X, TP=1", 1,
        {"kind": "serving", "input_len": 1024, "output_len": 1024,
         "dataset": "random (InferenceMAX client: --random-range-ratio 0.8, lengths uniform in [0.8 x len, len])", "dist": "uniform",
         "range_ratio": 0.2, "concurrency": conc, "request_rate": "inf", "num_prompts": 10 * conc},
        {"output_tok_s": out, "total_tok_s": tot, "tpot_ms_median": tpot},
        IX, "2026-04-17",
        "PR description table 'Results (single MI300X, vllm v0.17.0, ISL/OSL=1024)': Output TPS, Total TPS, Median TPOT as printed "
        "(thousands separators removed); config key gptoss-fp4 in .github/configs/amd-master.yaml || conversion: num_prompts = 10 x "
        "concurrency and --random-range-ratio 0.8 --ignore-eos per the InferenceMAX benchmark client (as for r0001); server flags not "
        "printed in this PR (PR #1092 lists the TP=8 flags: ROCM_AITER_UNIFIED_ATTN, --gpu-memory-utilization 0.95, --max-model-len 2248, "
        "--block-size 64, no prefix caching); no TTFT printed"))

for i, r in enumerate(rows): r["id"] = "c%04d" % (i + 1)
for r in rows: print(json.dumps(r, ensure_ascii=False))
