#!/usr/bin/env python3
"""Large dense deployments (Llama-3.1-405B on 8 GPUs) as never-fitted serving rows (issue 35).

  scripts/calibration/make_serving_dense_large.py GIT_DIR_OF_dstackai_benchmarks \
      > assets/calibration/serving_dense_large_heldout.jsonl

Reads, from a git directory of github.com/dstackai/benchmarks (HEAD 06c957ab51572ca18db9c1f4bb254a9eb86df4d7):
- nvidia/8xh100/charts/qps_output.csv: vLLM 0.6.3.post2.dev308 on 8x H100 SXM5, Llama-3.1-405B-FP8, ShareGPT V3,
  1000 prompts at request rate 16 / 32 / 1000, a sweep of server flags (num-scheduler-steps, chunked prefill,
  max-num-batched-tokens, max-num-seqs, max-seq-len-to-capture). The three rows with the flags of
  comparison/h100sxm5_vs_mi300x/csv_data/qps_comparison.csv (serving.jsonl v0218-v0220, the same runs) are left out.
- amd/tgi_vs_vllm/vllm/data/result_vllm_{short,long,single_prompt}.csv: vLLM 0.6.3.dev116+g151ef4ef (ROCm 6.1) on
  8x MI300X, meta-llama/Llama-3.1-405B-Instruct in BF16, vLLM's benchmark_serving.py sonnet dataset, num-prompts N
  sent at once (no --request-rate: inf). The QPS_high file is left out: its request rate is not stated.
and appends the rows typed by hand from one web page (ORACLE below). Numbers are copied as printed; nothing is
averaged or read off a chart.
"""
import csv, io, json, subprocess, sys

DSTACK = "dstackai/benchmarks"
HEAD = "06c957ab51572ca18db9c1f4bb254a9eb86df4d7"

L405 = {"model_type": "llama", "num_hidden_layers": 126, "hidden_size": 16384, "intermediate_size": 53248,
        "num_attention_heads": 128, "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 128256,
        "tie_word_embeddings": False, "max_position_embeddings": 131072}


def show(repo, path):
    return subprocess.run(["git", "-C", repo, "show", "HEAD:" + path], check=True, capture_output=True,
                          text=True).stdout


def f(x):
    x = (x or "").strip()
    return float(x) if x else None


def base(rid, engine_version, model, precision, hw, hw_as, test, measured, source, date, notes):
    return {"id": rid, "engine": "vllm", "engine_version": engine_version, "model": model, "config": L405,
            "precision": precision, "kv_dtype": None, "hardware": hw, "hardware_as_written": hw_as, "gpus": 8,
            "tp": 8, "pp": 1, "interconnect": "nvlink" if hw == "h100-sxm" else None, "test": test,
            "measured": measured, "source": source, "date": date, "notes": notes}


def h100_sweep(repo, out):
    path = "nvidia/8xh100/charts/qps_output.csv"
    rows = list(csv.DictReader(io.StringIO(show(repo, path))))
    for r in rows:
        steps, chunked = int(r["num-scheduler-step"]), r["enable-chunked-prefill"].strip().upper() == "TRUE"
        mbt, mns, cap = int(r["max-num-batched-tokens"]), int(r["max-num-seqs"]), int(r["max-seq-len-to-capture"])
        if steps == 1 and chunked and (mbt, mns, cap) == (512, 512, 8192):
            continue   # the runs of serving.jsonl v0218-v0220 (qps_comparison.csv)
        rate = int(float(r["request_rate"]))
        unmodelled = []
        if steps > 1: unmodelled.append("num-scheduler-steps=%d (multi-step scheduling)" % steps)
        if not chunked: unmodelled.append("chunked prefill off")
        notes = ("vLLM benchmark_serving.py --dataset-name sharegpt --request-rate %d (1000 ~ all at once); "
                 "completed=%s; total_input_tokens=%s, total_output_tokens=%s; duration=%s s; server flags: "
                 "num-scheduler-step=%d, enable-chunked-prefill=%s, max-num-batched-tokens=%d, max-num-seqs=%d, "
                 "max-seq-len-to-capture=%d, prefix-caching=%s; file %s; %s || conversion: version from "
                 "nvidia/8xh100/README.md (collect_env: vLLM Version 0.6.3.post2.dev308+gb489fc3c); also printed "
                 "(not in schema): tpot_ms_p99=%s, itl_ms_p99=%s") % (
            rate, r["completed"], r["total_input_tokens"], r["total_output_tokens"], r["duration"], steps,
            r["enable-chunked-prefill"], mbt, mns, cap, r["enable-prefix-caching"], r["filename"],
            ("flags this model does not simulate: " + ", ".join(unmodelled)) if unmodelled
            else "every flag is one the model simulates", r["p99_tpot_ms"], r["p99_itl_ms"])
        test = {"kind": "serving", "input_len": None, "output_len": None,
                "dataset": "sharegpt (ShareGPT_V3_unfiltered_cleaned_split)", "concurrency": None,
                "request_rate": rate, "num_prompts": int(r["num_prompts"])}
        m = {"output_tok_s": f(r["output_throughput"]), "total_tok_s": f(r["total_token_throughput"]),
             "req_s": f(r["request_throughput"]), "ttft_ms_mean": f(r["mean_ttft_ms"]),
             "ttft_ms_median": f(r["median_ttft_ms"]), "ttft_ms_p99": f(r["p99_ttft_ms"]),
             "tpot_ms_mean": f(r["mean_tpot_ms"]), "tpot_ms_median": f(r["median_tpot_ms"]),
             "itl_ms_mean": f(r["mean_itl_ms"]), "itl_ms_median": f(r["median_itl_ms"])}
        out.append(base(None, "0.6.3.post2.dev308+gb489fc3c (nightly wheel)", "meta-llama/Llama-3.1-405B-FP8",
                        "fp8", "h100-sxm", "8x NVIDIA H100 80GB HBM3 (SXM5)", test, m,
                        "%s/%s@%s" % (DSTACK, path, HEAD), "2024-11", notes))


MI300X_RUNS = [("short", "80-token sonnet prompts (--sonnet-input-len 80 --sonnet-prefix-len 50)"),
               ("long", "10000-token sonnet prompts (sonnet.txt repeated)"),
               ("single_prompt", "one sonnet prompt of 128000 / 64000 / 32000 / 16000 tokens")]


def mi300x_tgi_vs_vllm(repo, out):
    for name, what in MI300X_RUNS:
        path = "amd/tgi_vs_vllm/vllm/data/result_vllm_%s.csv" % name
        for r in csv.DictReader(io.StringIO(show(repo, path))):
            n = int(r["Successful requests"])
            notes = ("vLLM benchmark_serving.py (dstack's copy) --backend vllm --dataset-name sonnet --num-prompt %d, "
                     "no --request-rate (all at once); %s; --sonnet-output-len not passed (150 by default), outputs "
                     "end at EOS; completed=%d; total_input_tokens=%s, total_output_tokens=%s; duration=%s s; "
                     "server: vllm serve meta-llama/Llama-3.1-405B-Instruct --tensor-parallel-size=8 "
                     "--disable-log-requests --disable-frontend-multiprocessing (BF16 weights, defaults otherwise; "
                     "vLLM built from source on ROCm 6.1, hipBLAS rocm-6.1.0) || conversion: version from "
                     "amd/tgi_vs_vllm/README.md collect_env (vLLM Version 0.6.3.dev116+g151ef4ef); also printed (not "
                     "in schema): tpot_ms_p99=%s, itl_ms_p99=%s") % (
                n, what, n, r["Total input tokens"], r["Total generated tokens"], r["Benchmark duration (s)"],
                r["P99 TPOT (ms)"], r["P99 ITL (ms)"])
            test = {"kind": "serving", "input_len": None, "output_len": None, "dataset": "sonnet",
                    "concurrency": None, "request_rate": "inf", "num_prompts": n}
            m = {"output_tok_s": f(r["Output token throughput (tok/s)"]),
                 "total_tok_s": f(r["Total Token throughput (tok/s)"]), "req_s": f(r["Request throughput (req/s)"]),
                 "ttft_ms_mean": f(r["Mean TTFT (ms)"]), "ttft_ms_median": f(r["Median TTFT (ms)"]),
                 "ttft_ms_p99": f(r["P99 TTFT (ms)"]), "tpot_ms_mean": f(r["Mean TPOT (ms)"]),
                 "tpot_ms_median": f(r["Median TPOT (ms)"]), "itl_ms_mean": f(r["Mean ITL (ms)"]),
                 "itl_ms_median": f(r["Median ITL (ms)"])}
            out.append(base(None, "0.6.3.dev116+g151ef4ef (ROCm 6.1, built from source)",
                            "meta-llama/Llama-3.1-405B-Instruct", "bf16", "mi300x",
                            "8x AMD MI300X 192GB (Hot Aisle)", test, m, "%s/%s@%s" % (DSTACK, path, HEAD), "2024-10",
                            notes))


# blogs.oracle.com/cloud-infrastructure/serving-llama-31-405b-model-with-amd-mi300x-gpus (read 2026-12-07):
# "Offline benchmarks were measured using the scripts/benchmark_latency.py in the vLLM. Each test had input size 128
# and an output size 128 tokens." (batch size, output TPS, average latency in s)
ORACLE_URL = "https://blogs.oracle.com/cloud-infrastructure/serving-llama-31-405b-model-with-amd-mi300x-gpus"
ORACLE = [(1, 36, 3.530), (2, 71, 3.583), (4, 137, 3.734), (8, 258, 3.974), (16, 468, 4.375), (32, 798, 5.130),
          (64, 1184, 6.919), (128, 1585, 10.340), (256, 1846, 17.750)]


def oracle(out):
    for b, tps, lat in ORACLE:
        notes = ("vLLM benchmarks/benchmark_latency.py, batch %d, input 128, output 128 (a static batch: all %d "
                 "prompts at once, the batch's end-to-end latency %.3f s as printed); Llama 3.1 405B FP8 on one OCI "
                 "BM.GPU.MI300X.8 (all 8 GPUs); vLLM version and server flags not stated || conversion: output TPS as "
                 "printed; read %s on 2026-12-07") % (b, b, lat, ORACLE_URL)
        test = {"kind": "serving", "input_len": 128, "output_len": 128,
                "dataset": "fixed lengths (benchmark_latency.py --input-len 128 --output-len 128)",
                "concurrency": b, "request_rate": "inf", "num_prompts": b}
        m = {"output_tok_s": float(tps), "total_tok_s": None, "req_s": None, "ttft_ms_mean": None,
             "ttft_ms_median": None, "ttft_ms_p99": None, "tpot_ms_mean": None, "tpot_ms_median": None,
             "itl_ms_mean": None, "itl_ms_median": None}
        out.append(base(None, "not stated (vLLM benchmark_latency.py, 2024)", "meta-llama/Llama-3.1-405B-Instruct",
                        "fp8", "mi300x", "OCI BM.GPU.MI300X.8 (8x AMD MI300X 192GB)", test, m, ORACLE_URL, None,
                        notes))


def main():
    rows = []
    h100_sweep(sys.argv[1], rows)
    mi300x_tgi_vs_vllm(sys.argv[1], rows)
    oracle(rows)
    for i, r in enumerate(rows, 1):
        r["id"] = "d%04d" % i
        print(json.dumps(r))


if __name__ == "__main__":
    main()
