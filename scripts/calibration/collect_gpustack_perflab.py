#!/usr/bin/env python3
"""Rows for assets/calibration/serving_collected.jsonl from GPUStack's "performance lab" pages
(gpustack/gpustack docs/performance-lab/<model>/<gpu>.md): vLLM and SGLang (and TensorRT-LLM, not kept) served on the
same box, each measured with `vllm bench serve` (ShareGPT, 1000 prompts, no rate limit; random 32K/4K/2K/128 input).

Usage: python3 scripts/calibration/collect_gpustack_perflab.py <gpustack git dir> > gpustack_rows.jsonl
Reads the committed pages with `git show`; every number is copied from the printed benchmark block. Rows the
simulator cannot represent are left out and counted on stderr (DP attention, speculative decoding, crashes,
models not in the catalog)."""
import json, re, subprocess, sys

GIT = sys.argv[1]
PAGES = {   # page -> (catalog model id, catalog hardware id, hardware as written is read from the page)
    "qwen3-14b/h100": ("Qwen/Qwen3-14B", "h100-sxm"), "qwen3-14b/a100": ("Qwen/Qwen3-14B", "a100-sxm-80gb"),
    "qwen3-32b/h100": ("Qwen/Qwen3-32B", "h100-sxm"), "qwen3-32b/a100": ("Qwen/Qwen3-32B", "a100-sxm-80gb"),
    "gpt-oss-20b/h100": ("openai/gpt-oss-20b", "h100-sxm"), "gpt-oss-20b/a100": ("openai/gpt-oss-20b", "a100-sxm-80gb"),
    "gpt-oss-120b/h100": ("openai/gpt-oss-120b", "h100-sxm"), "gpt-oss-120b/a100": ("openai/gpt-oss-120b", "a100-sxm-80gb"),
    "qwen3-235b-a22b/h100": ("Qwen/Qwen3-235B-A22B-Instruct-2507", "h100-sxm"),
    "qwen3-235b-a22b/a100": ("Qwen/Qwen3-235B-A22B-Instruct-2507", "a100-sxm-80gb"),
    "glm-4.5-air/h100": ("zai-org/GLM-4.5-Air", "h100-sxm"), "glm-4.5-air/a100": ("zai-org/GLM-4.5-Air", "a100-sxm-80gb"),
    "deepseek-r1/h200": ("deepseek-ai/DeepSeek-R1", "h200-sxm"),
}
LABELS = {  # the "# random ..." comments -> nominal lengths (the page's "Benchmark Dataset" list)
    "random 32K input": (32000, 100), "random 4K input": (4000, 200), "random 2K input": (2000, 100),
    "random 128 input": (128, 4),
}
skipped = {}

def git(*a):
    return subprocess.run(["git", "-C", GIT] + list(a), capture_output=True, text=True, check=True).stdout

def num(block, label):
    m = re.search(re.escape(label) + r"\s+([-0-9.]+)", block)
    return float(m.group(1)) if m else None

def skip(why):
    skipped[why] = skipped.get(why, 0) + 1

def flags_of(cmd):
    f = {}
    m = re.search(r"(?:-tp|--tp-size|--tp|--tensor-parallel-size)[ =](\d+)", cmd); f["tp"] = int(m.group(1)) if m else 1
    m = re.search(r"(?:-pp|--pp-size|--pipeline-parallel-size)[ =](\d+)", cmd); f["pp"] = int(m.group(1)) if m else 1
    m = re.search(r"--ep-size[ =](\d+)", cmd); f["ep"] = int(m.group(1)) if m else None
    if "--enable-expert-parallel" in cmd: f["ep"] = f["tp"]
    m = re.search(r"--max-model-len[ =](\d+)", cmd); f["max_model_len"] = int(m.group(1)) if m else None
    m = re.search(r"--max-num-batched-tokens[ =](\d+)", cmd); f["mnbt"] = int(m.group(1)) if m else None
    m = re.search(r"--gpu-memory-utilization[ =]([0-9.]+)", cmd); f["gmu"] = float(m.group(1)) if m else None
    m = re.search(r"--mem-fraction-static[ =]([0-9.]+)", cmd); f["mfs"] = float(m.group(1)) if m else None
    return f

def rows_of_page(page):
    model, hw = PAGES[page]
    path = f"docs/performance-lab/{page}.md"
    commit = git("log", "-1", "--format=%H", "HEAD", "--", path).strip()
    first = git("log", "--diff-filter=A", "--format=%cs", "--", path).strip().splitlines()[-1]
    text = git("show", f"{commit}:{path}")
    hw_written = re.search(r"### Hardware\s*\n\s*\n(.+)", text).group(1).strip()
    versions = dict(re.findall(r"^- (vLLM|SGLang|TensorRT-LLM): (\S+)", text, re.M))
    out, section = [], ""
    # a "Serving script" code block, then a "Benchmark result(s)" code block
    pat = re.compile(r"^(#{2,3} [^\n]+)$|\?\?\? info \"(?:Baseline |Optimized )?[Ss]erving script\"\s*\n\s*```bash\n(.*?)```"
                     r"\s*\n+\s*\?\?\? info \"[^\"]*[Bb]enchmark results?\"\s*\n\s*```(?:bash)?\n(.*?)```", re.S | re.M)
    for m in pat.finditer(text):
        if m.group(1): section = m.group(1).lstrip("# ").strip(); continue
        cmd = " ".join(l.strip() for l in m.group(2).splitlines() if l.strip() and not l.strip().startswith("#")).replace("\\ ", " ")
        engine = "vllm" if "vllm serve" in cmd else "sglang" if "sglang.launch_server" in cmd else "trtllm" if "trtllm-serve" in cmd else None
        if engine not in ("vllm", "sglang"): skip("engine " + str(engine)); continue
        if "--enable-dp-attention" in cmd: skip("DP attention (not modelled)"); continue
        if "--speculative" in cmd: skip("speculative decoding (not modelled)"); continue
        # glm-4.5-air/h100 "3. Parallelism": GLM-4.5-Air in BF16 (106B parameters, ~212 GB) at --tp-size 2 cannot fit
        # two 80 GB H100s as written; the page does not say which checkpoint really ran
        if page == "glm-4.5-air/h100" and re.search(r"--tp-size 2\b", cmd) and "FP8" not in cmd:
            skip("GLM-4.5-Air BF16 at TP 2 on 80 GB GPUs: does not fit as written"); continue
        # one code block may hold several results, each after a "# label" comment line
        parts = re.split(r"^\s*# (.+)$", m.group(3), flags=re.M)
        blocks = [(None, parts[0])] + [(parts[i].strip(), parts[i + 1]) for i in range(1, len(parts) - 1, 2)]
        for label, block in blocks:
            if "Serving Benchmark Result" not in block: 
                if label: skip("no result (" + label + ")")
                continue
            if page == "glm-4.5-air/a100" and section == "Other Benchmark Cases":
                skip("GLM-4.5-Air A100 'Other Benchmark Cases': the same numbers as the H100 page's"); continue
            out.append(make_row(page, model, hw, hw_written, versions, engine, cmd, section, label, block, commit, first))
    return out

def make_row(page, model, hw, hw_written, versions, engine, cmd, section, label, block, commit, first):
    if label and label.startswith("--"): cmd = re.sub(r"--(max-num-batched-tokens|attention-backend)[ =]\S+", "", cmd).strip() + " " + label
    f = flags_of(cmd)
    ckpt = re.search(r"(?:--model-path|--model|vllm serve)\s+(\S+)", cmd).group(1)
    prec = "mxfp4" if "gpt-oss" in ckpt else "fp8" if "DeepSeek-R1" in ckpt else "fp8" if ckpt.endswith("-FP8") else "int4-awq" if ckpt.endswith("-AWQ") else "bf16"
    n = int(num(block, "Successful requests:"))
    conc = num(block, "Max request concurrency:")
    tin, tout = int(num(block, "Total input tokens:")), int(num(block, "Total generated tokens:"))
    if label is None or label.startswith("ShareGPT") or label.startswith("--") or label in ("fa3",):
        test = {"kind": "serving", "input_len": None, "output_len": None,
                "dataset": "sharegpt (ShareGPT_V3_unfiltered_cleaned_split.json, vllm bench serve --num-prompts 1000)"}
    elif label in LABELS:
        i, o = LABELS[label]
        test = {"kind": "serving", "input_len": i, "output_len": o,
                "dataset": "random (vllm bench serve --dataset-name random, default --random-range-ratio 0: fixed lengths)"}
    else:
        test = {"kind": "serving", "input_len": None, "output_len": None, "dataset": "sharegpt (" + label + ")"}
    m = re.search(r"batch size (\d+)", label or "")
    c = int(m.group(1)) if m else (int(conc) if conc else None)
    test.update({"concurrency": c, "request_rate": "inf", "num_prompts": n})
    meas = {"output_tok_s": num(block, "Output token throughput (tok/s):"),
            "total_tok_s": num(block, "Total Token throughput (tok/s):") or num(block, "Total token throughput (tok/s):"),
            "req_s": num(block, "Request throughput (req/s):"),
            "ttft_ms_mean": num(block, "Mean TTFT (ms):"), "ttft_ms_median": num(block, "Median TTFT (ms):"),
            "ttft_ms_p99": num(block, "P99 TTFT (ms):"), "tpot_ms_mean": num(block, "Mean TPOT (ms):"),
            "tpot_ms_median": num(block, "Median TPOT (ms):"), "itl_ms_mean": num(block, "Mean ITL (ms):"),
            "itl_ms_median": num(block, "Median ITL (ms):")}
    ver = versions.get("vLLM" if engine == "vllm" else "SGLang")
    notes = (f"GPUStack performance lab, section '{section}'{', result ' + repr(label) if label else ''}; server: {cmd}; "
             f"client: vllm bench serve --backend openai-chat --endpoint /v1/chat/completions, no request rate (all prompts at t=0); "
             f"completed={n}; total_input_tokens={tin}, total_output_tokens={tout}; "
             f"also printed (not in schema): tpot_ms_p99={num(block, 'P99 TPOT (ms):')}, itl_ms_p99={num(block, 'P99 ITL (ms):')}, "
             f"peak output tok/s={num(block, 'Peak output token throughput (tok/s):')}, duration_s={num(block, 'Benchmark duration (s):')}"
             f" || conversion: checkpoint {ckpt}; hardware '{hw_written}' -> {hw}; precision from the checkpoint name "
             f"(no suffix = the release dtype; DeepSeek-R1-0528 ships block FP8 and is the R1 architecture); the page's version list gives the engine version; date = the page's first commit")
    row = {"id": None, "engine": engine, "engine_version": ver, "model": model, "config": None, "precision": prec,
           "kv_dtype": None, "hardware": hw, "hardware_as_written": hw_written, "gpus": f["tp"] * f["pp"], "tp": f["tp"], "pp": f["pp"],
           "interconnect": "nvlink" if f["tp"] * f["pp"] > 1 else None, "test": test, "measured": meas,
           "source": f"https://github.com/gpustack/gpustack/blob/{commit}/docs/performance-lab/{page}.md", "date": first, "notes": notes}
    if f["max_model_len"]: row["max_model_len"] = f["max_model_len"]
    if f["ep"] and f["ep"] > 1: row["ep"] = f["ep"]
    if f["mnbt"]: row["max_num_batched_tokens"] = f["mnbt"]
    if f["gmu"]: row["gpu_memory_utilization"] = f["gmu"]
    if f["mfs"]: row["mem_fraction_static"] = f["mfs"]
    return row

rows = []
for p in PAGES: rows += rows_of_page(p)
for r in rows: print(json.dumps(r))
print(f"{len(rows)} rows; skipped: {skipped}", file=sys.stderr)
