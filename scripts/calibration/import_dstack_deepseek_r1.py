#!/usr/bin/env python3
"""Convert dstackai/benchmarks' DeepSeek-R1 online serving results into serving.jsonl rows (issue 35).

  scripts/calibration/import_dstack_deepseek_r1.py online_results.csv --first-id 1405 > assets/calibration/serving_large_heldout.jsonl

Input: Deepseek-R1/raw_data/online_results.csv of github.com/dstackai/benchmarks @7f37e669 (the SGLang
bench_serving result files of 8x H200 and 8x MI300X runs with vLLM, SGLang and TensorRT-LLM); the servers' flags and
versions are the repository's Deepseek-R1/README.md @209ca6f9. Only the `random` rows are converted: the
`generated-shared-prefix` rows measure prefix-cache reuse (10 groups of 50 prompts sharing a 2000-token system
prompt), which the serving model does not simulate. Numbers are copied as printed (ms stay ms); nothing is averaged.
"""
import argparse, csv, json, sys

CSV_SRC = "dstackai/benchmarks/Deepseek-R1/raw_data/online_results.csv@7f37e6697725e58dd09b9ef190b62ce19f01d45e"
README_SRC = "dstackai/benchmarks/Deepseek-R1/README.md@209ca6f9c2f940314362d3e8dab59bf129a1a9a9"

# deepseek-ai/DeepSeek-R1 config.json (the same architecture fields as DeepSeek-V3, rows v0647.. of serving.jsonl)
CONFIG = {"model_type": "deepseek_v3", "num_hidden_layers": 61, "hidden_size": 7168, "intermediate_size": 18432,
          "num_attention_heads": 128, "num_key_value_heads": 128, "head_dim": None, "vocab_size": 129280,
          "tie_word_embeddings": False, "max_position_embeddings": 163840, "n_routed_experts": 256,
          "num_experts_per_tok": 8, "moe_intermediate_size": 2048, "n_shared_experts": 1, "first_k_dense_replace": 3,
          "q_lora_rank": 1536, "kv_lora_rank": 512, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64,
          "v_head_dim": 128}

# (GPU, backend) -> engine, version as the README prints it, hardware id, as written, the server command's notes
SETUPS = {
    ("h200", "vllm"): ("vllm", "0.7.4.dev181+gf35f8e22 (nightly wheel over vllm/vllm-openai:v0.7.3; VLLM_ATTENTION_BACKEND=FLASHMLA)",
                       "h200-sxm", "8x NVIDIA H200 SXM5 141GB",
                       "server: vllm serve deepseek-ai/DeepSeek-R1 --trust-remote-code --tensor-parallel-size 8 (defaults otherwise)"),
    ("mi300x", "vllm"): ("vllm", "0.7.3.dev138+g21f6ca217 (rocm/vllm-dev:vllm-ds3-staging-0217)",
                         "mi300x", "8x AMD MI300X 192GB",
                         "server: vllm serve deepseek-ai/DeepSeek-R1 --tensor-parallel-size 8 --trust-remote-code --max-model-len 32768; VLLM_FP8_PADDING=0 VLLM_USE_TRITON_FLASH_ATTN=0"),
    ("h200", "sglang"): ("sglang", "0.4.3.post2 (lmsysorg/sglang:latest; --enable-dp-attention)",
                         "h200-sxm", "8x NVIDIA H200 SXM5 141GB",
                         "server: python3 -m sglang.launch_server --model deepseek-ai/DeepSeek-R1 --tp 8 --trust-remote-code --enable-dp-attention (DP attention is not modelled)"),
    ("mi300x", "sglang"): ("sglang", "0.4.2.post4 (rocm/sglang-staging:20250212)",
                           "mi300x", "8x AMD MI300X 192GB",
                           "server: python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-R1 --tp 8 --trust-remote-code"),
    ("h200", "trt-llm"): ("trtllm", "0.17.post1.dev (PyTorch backend, built from commit 9b931c0f; trtllm-serve --ep_size 4)",
                          "h200-sxm", "8x NVIDIA H200 SXM5 141GB",
                          "server: trtllm-serve --backend pytorch --max_batch_size 512 --max_num_tokens 16384 --max_seq_len 16384 --tp_size 8 --ep_size 4 --pp_size 1 (EP 4 inside TP 8 is not modelled; in vLLM's names max-num-seqs=512, max-num-batched-tokens=16384)"),
}


def f(x):
    return float(x) if x not in (None, "") else None


def row(r, rid):
    eng, ver, hw, hw_as, server = SETUPS[(r["GPU"], r["backend"])]
    out_tps, in_tps = f(r["output_throughput"]), f(r["input_throughput"])
    notes = ("SGLang bench_serving (dstack's copy with a TensorRT-LLM backend) --dataset-name random --random-input %s "
             "--random-output %s --random-range-ratio %s --num-prompts 500 --max-concurrency %s; completed=%s; "
             "duration=%s s; total_input_tokens=%s, total_output_tokens=%s (retokenized %s); mean concurrency %s; "
             "%s || conversion: versions and server flags from %s; total_tok_s = input_throughput + "
             "output_throughput; also printed (not in schema): tpot_ms_p99=%s, itl_ms_p99=%s, e2e_ms_mean=%s, "
             "e2e_ms_median=%s; the csv's generated-shared-prefix rows (prefix caching) were not converted; "
             "undated (versions are Feb-Mar 2025 builds)") % (
        r["random_input_len"], r["random_output_len"], r["random_range_ratio"], r["max_concurrency"], r["completed"],
        r["duration"], r["total_input_tokens"], r["total_output_tokens"], r["total_output_tokens_retokenized"],
        r["concurrency"], server, README_SRC, r["p99_tpot_ms"], r["p99_itl_ms"], r["mean_e2e_latency_ms"],
        r["median_e2e_latency_ms"])
    d = {
        "id": "v%04d" % rid, "engine": eng, "engine_version": ver, "model": "deepseek-ai/DeepSeek-R1", "config": CONFIG,
        "precision": "fp8", "kv_dtype": None, "hardware": hw, "hardware_as_written": hw_as, "gpus": 8, "tp": 8,
        "pp": 1, "interconnect": "nvlink" if hw == "h200-sxm" else None,
        "test": {"kind": "serving", "input_len": int(r["random_input_len"]), "output_len": int(r["random_output_len"]),
                 "dataset": "random (random_range_ratio 1: fixed lengths)",
                 "concurrency": int(r["max_concurrency"]), "request_rate": "inf", "num_prompts": 500},
        "measured": {"output_tok_s": out_tps, "total_tok_s": in_tps + out_tps, "req_s": f(r["request_throughput"]),
                     "ttft_ms_mean": f(r["mean_ttft_ms"]), "ttft_ms_median": f(r["median_ttft_ms"]),
                     "ttft_ms_p99": f(r["p99_ttft_ms"]), "tpot_ms_mean": f(r["mean_tpot_ms"]),
                     "tpot_ms_median": f(r["median_tpot_ms"]), "itl_ms_mean": f(r["mean_itl_ms"]),
                     "itl_ms_median": f(r["median_itl_ms"])},
        "source": CSV_SRC + " (dataset_name=random rows)", "date": None, "notes": notes,
    }
    if eng == "vllm":   # the context the server ran with (vLLM sizes its profile run from it when MLA turns chunked
        # prefill off): --max-model-len 32768 on MI300X, the config's max_position_embeddings without the flag
        d["max_model_len"] = 32768 if hw == "mi300x" else CONFIG["max_position_embeddings"]
    return d


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--first-id", type=int, required=True)
    a = ap.parse_args()
    rid = a.first_id
    for r in csv.DictReader(open(a.csv)):
        if r["dataset_name"] != "random":
            continue
        sys.stdout.write(json.dumps(row(r, rid)) + "\n")
        rid += 1


if __name__ == "__main__":
    main()
