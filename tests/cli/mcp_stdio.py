#!/usr/bin/env python3
"""`llmsim-cli mcp` over its real stdio: a plain JSON-RPC 2.0 exchange, one message per line, checked by hand-written
expectations (MCP 2025-11-25: basic/lifecycle, basic/transports stdio, server/tools). Tool answers are compared with
the other front door, `llmsim-cli memory|cost|recommend --json`, run on the same request.
    python3 tests/cli/mcp_stdio.py build/llmsim-cli
"""
import json
import subprocess
import sys

cli = sys.argv[1]
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def cli_json(*args):
    out = subprocess.run([cli, *args], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def req(i, method, params=None):
    m = {"jsonrpc": "2.0", "id": i, "method": method}
    if params is not None:
        m["params"] = params
    return json.dumps(m)


def call(i, name, arguments):
    return req(i, "tools/call", {"name": name, "arguments": arguments})


MEMORY = {"model": "Qwen/Qwen2.5-7B-Instruct", "quant": "Q4_K_M", "ctx": 32768, "hardware": "rtx-4090"}
COST = {"model": "Qwen/Qwen2.5-7B-Instruct", "hardware": "rtx-4090", "quant": "Q4_K_M", "hours_per_month": 365,
        "price_usd": 3650, "rent_usd_per_hour": 1.5, "kwh_price_usd": 0.2}
# issue 36's keys: Llama-3.1-8B on one H100, 2048-token prompts sharing 1843 (90 %), one client, 32 requests
# (tests/engine/test_serving_prefix.cpp works the same run out by hand)
SERVE_PREFIX = {"engine": "vllm", "model": "meta-llama/Llama-3.1-8B-Instruct", "hardware": "h100-sxm", "precision": "bf16",
                "max_model_len": 8192,
                "workload": {"input_len": 2048, "output_len": 16, "concurrency": 1, "num_prompts": 32, "shared_prefix_len": 1843}}


def with_workload(**keys):
    return dict(SERVE_PREFIX, workload=dict(SERVE_PREFIX["workload"], **keys))


lines = [
    req(1, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}),
    json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),       # a notification: no reply
    req(2, "tools/list"),
    call(3, "memory", MEMORY),
    '{"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "memory"',   # cut short: -32700
    call(5, "no_such_tool", {}),
    req(6, "resources/list"),
    call(7, "memory", {"model": "nobody/none"}),
    call(8, "memory", dict(MEMORY, ctx=0)),
    call(9, "cost", COST),
    call(10, "recommend_models", {"hardware": "rtx-4090", "ctx": 8192, "min_decode_tps": 20}),
    call(16, "best_models", {"hardware": "rtx-4090", "task": "coding", "ctx": 8192, "min_decode_tps": 10}),
    call(17, "best_models", {"hardware": "rtx-4090", "task": "poetry"}),
    "[" * 100 + "]" * 100,                                                          # deeper than 64 levels: -32700
    '{"jsonrpc": "2.0", "id": 11, "method": "ping", "pad": "' + "x" * (1 << 20) + '"}',   # over 1 MiB: -32600
    json.dumps([json.loads(req(12, "ping"))]),                                       # a batch: -32600
    json.dumps({"jsonrpc": "2.0", "id": 99, "result": {}}),                          # a response from the client: no reply
    call(15, "serve", {"engine": "tgi2", "model": "meta-llama/Llama-3.1-8B-Instruct", "hardware": "h100-sxm"}),
    call(20, "serve", SERVE_PREFIX),
    call(21, "serve", dict(SERVE_PREFIX, kv_offload={"cpu_gib": 64})),
    call(22, "serve", with_workload(shared_prefix_len=2048)),                       # not below input_len
    call(23, "serve", with_workload(turns=0)),
    call(24, "serve", with_workload(think_time_s=-1)),
    call(25, "serve", dict(SERVE_PREFIX, kv_offload={"cpu_gib": -1})),
    call(26, "serve", dict(SERVE_PREFIX, kv_offload={"ram_gib": 8})),
    call(27, "serve", dict(SERVE_PREFIX, kv_offload=8)),
    call(28, "serve", dict(SERVE_PREFIX, prefix_caching="yes")),
    call(29, "serve", dict(SERVE_PREFIX, engine="llamacpp", precision="Q4_K_M", kv_offload={"cpu_gib": 8})),
    call(30, "serve", dict(SERVE_PREFIX, disaggregation={"prefill_gpus": 0, "decode_gpus": 1})),
    call(31, "serve", dict(SERVE_PREFIX, disaggregation={"prefill_gpus": 1, "decode_gpus": 1, "pool": 2})),
    req("last", "ping"),
    req(13, "initialize", {"protocolVersion": "2024-11-05", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}),
    req(14, "initialize", {"protocolVersion": "1999-01-01", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}),
]
proc = subprocess.run([cli, "mcp"], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60)
check(proc.returncode == 0, f"exits 0 at the end of input (got {proc.returncode})")
replies = [json.loads(line) for line in proc.stdout.splitlines()]
check(all(r.get("jsonrpc") == "2.0" for r in replies), "every reply is JSON-RPC 2.0, one per line")
ids = [r.get("id") for r in replies]
expected_ids = [1, 2, 3, None, 5, 6, 7, 8, 9, 10, 16, 17, None, None, None, 15, *range(20, 32), "last", 13, 14]
check(ids == expected_ids, f"one reply per request, in order, none to notifications or responses: {ids}")
check(proc.stderr.startswith("llmsim-cli mcp: serving 7 tools"), "logs go to stderr")
by_id = {r["id"]: r for r in replies if r.get("id") is not None}
errors = [r["error"]["code"] for r in replies if r.get("id") is None]

init = by_id[1]["result"]
check(init["protocolVersion"] == "2025-11-25", "initialize answers the asked 2025-11-25")
check(init["serverInfo"]["name"] == "llmsim" and "tools" in init["capabilities"], "serverInfo and the tools capability")
check(by_id[13]["result"]["protocolVersion"] == "2024-11-05", "an older revision it speaks is answered with itself")
check(by_id[14]["result"]["protocolVersion"] == "2025-11-25", "an unknown revision is answered with the newest")

tools = by_id[2]["result"]["tools"]
names = [t["name"] for t in tools]
check(names == ["memory", "predict", "recommend_hardware", "recommend_models", "best_models", "serve", "cost"], f"tools/list: {names}")
memory_schema = tools[0]["inputSchema"]
check(memory_schema["type"] == "object" and memory_schema["required"] == ["model"], "memory's schema requires model")
check("Q4_K_M" in memory_schema["properties"]["quant"]["enum"], "quant is an enum of the catalog's file types")
check("q8_0" in memory_schema["properties"]["kv_type"]["enum"], "kv_type is an enum of llama.cpp's cache types")

mem = by_id[3]["result"]
cli_mem = cli_json("memory", "--model", "Qwen/Qwen2.5-7B-Instruct", "--quant", "Q4_K_M", "--ctx", "32768",
                   "--hardware", "rtx-4090", "--json")
check(mem["isError"] is False and mem["structuredContent"] == cli_mem, "memory equals `llmsim-cli memory --json`")
check(json.loads(mem["content"][0]["text"]) == cli_mem, "memory's text content is the same JSON")
check(cli_mem["status"] == "COMFORTABLE" and cli_mem["max_context"] == 32768, "a 7B Q4_K_M at 32k fits a 24 GB card")
# by hand: f16 KV of Qwen2.5-7B = 28 layers x 4 KV heads x 128 dims x (K + V) x 2 bytes x 32768 tokens
check(mem["structuredContent"]["kv_cache_bytes"] == 28 * 4 * 128 * 2 * 2 * 32768, "memory's KV cache by hand (1.75 GiB)")

check(errors[0] == -32700, "a cut-short line is a parse error (-32700)")
check(by_id[5]["error"]["code"] == -32602 and "no_such_tool" in by_id[5]["error"]["message"],
      "an unknown tool is -32602 naming it")
check(by_id[6]["error"]["code"] == -32601, "an unknown method is -32601")
bad_model = by_id[7]["result"]
check(bad_model["isError"] is True and bad_model["content"][0]["text"].startswith("memory: unknown model 'nobody/none'"),
      "an unknown model is a tool error with the CLI's words")
cli_bad = subprocess.run([cli, "cost", "--model", "nobody/none", "--hardware", "rtx-4090"], capture_output=True, text=True)
check(cli_bad.returncode == 2 and "unknown model 'nobody/none' (not in the catalog" in cli_bad.stderr,
      "... which the CLI prints too")
bad_ctx = by_id[8]["result"]
check(bad_ctx["isError"] is True and "ctx" in bad_ctx["content"][0]["text"], "ctx 0 is a tool error naming ctx")

bad_engine = by_id[15]["result"]
cli_engine = subprocess.run([cli, "serve", "--engine", "tgi2", "--model", "meta-llama/Llama-3.1-8B-Instruct",
                             "--hardware", "h100-sxm", "--json"], capture_output=True, text=True)
check(bad_engine["isError"] is True and cli_engine.returncode == 2 and
      cli_engine.stderr.strip() == "llmsim-cli: " + bad_engine["content"][0]["text"],
      f"serve's unknown engine: the CLI's exact line ({bad_engine['content'][0]['text']})")

# issue 36: the serve tool's schema names the prefix / offload / disaggregation keys, the engine reads them and
# refuses bad values with a message naming the key (a tool error the model can correct)
serve_schema = tools[5]["inputSchema"]["properties"]
check(all(k in serve_schema["workload"]["properties"] for k in ("shared_prefix_len", "turns", "think_time_s", "session_prefix_len",
                                                                "prefix_groups", "prompts_per_group")),
      "serve's schema: workload.shared_prefix_len, turns, think_time_s, session_prefix_len, prefix_groups, prompts_per_group")
check(serve_schema["workload"]["properties"]["turns"]["minimum"] == 1, "turns: at least 1")
check(set(serve_schema["kv_offload"]["properties"]) == {"cpu_gib", "nvme_gib"} and
      serve_schema["kv_offload"]["additionalProperties"] is False, "serve's schema: kv_offload {cpu_gib, nvme_gib}, nothing else")
check(serve_schema["prefix_caching"]["type"] == ["boolean", "null"], "serve's schema: prefix_caching true / false / null")
check(set(serve_schema["disaggregation"]["properties"]) == {"prefill_gpus", "decode_gpus", "prefill_tp", "decode_tp", "link"},
      "serve's schema: the disaggregation block")
shared = by_id[20]["result"]
check(shared["isError"] is False, "serve with a shared prefix answers")
px = shared["structuredContent"]["prefix"]
# by hand: vLLM caches the prefix's full 16-token blocks, 1843 // 16 * 16 = 1840 tokens; the first request misses and
# the 31 after it find 1840 each
check(px["hit_tokens"] == 31 * 1840 and px["prompt_tokens"] == 32 * 2048, f"prefix hits by hand: 31 x 1840 ({px['hit_tokens']})")
cli_shared = cli_json("serve", "--engine", "vllm", "--model", "meta-llama/Llama-3.1-8B-Instruct", "--hardware", "h100-sxm",
                      "--precision", "bf16", "--max-model-len", "8192", "--input-len", "2048", "--output-len", "16",
                      "--concurrency", "1", "--num-prompts", "32", "--shared-prefix", "1843", "--json")
check(shared["structuredContent"]["prefix"] == cli_shared["prefix"] and
      shared["structuredContent"]["load"] == cli_shared["load"], "serve with a shared prefix equals `serve --shared-prefix --json`")
tiered = by_id[21]["result"]
# by hand: 64 GiB / (32 layers x 8 KV heads x 128 x 2 x 2 bytes = 131,072 bytes a token) = 524,288 tokens
check(tiered["isError"] is False and tiered["structuredContent"]["prefix"]["kv_pool_tokens_by_tier"]["cpu"] == 64 * 2**30 // 131072,
      "kv_offload.cpu_gib 64 is a 524,288-token CPU tier")
for i, key in ((22, "shared_prefix_len"), (23, "turns"), (24, "think_time_s"), (25, "kv_offload.cpu_gib"), (26, "kv_offload.ram_gib"),
               (27, "kv_offload"), (28, "prefix_caching"), (29, "kv_offload"), (30, "disaggregation.prefill_gpus"),
               (31, "disaggregation.pool")):
    r = by_id[i]["result"]
    check(r["isError"] is True and key in r["content"][0]["text"], f"a bad {key} is a tool error naming it: {r['content'][0]['text'][:110]}")

cost = by_id[9]["result"]["structuredContent"]
cli_cost = cli_json("cost", "--model", "Qwen/Qwen2.5-7B-Instruct", "--hardware", "rtx-4090", "--quant", "Q4_K_M",
                    "--hours-per-month", "365", "--price", "3650", "--rent", "1.5", "--kwh-price", "0.2", "--json")
check(cost == cli_cost, "cost equals `llmsim-cli cost --json`")
# by hand: 365 of 730 hours; rent 365 h x $1.50 = $547.50; owning 3650 / 36 months = $101.39 + power
check(cost["active_hours_per_month"] == 365 and abs(cost["rent_usd_per_month"] - 547.5) < 1e-9 and
      abs(cost["own_amortization_usd_per_month"] - 3650 / 36) < 1e-9, "cost's figures by hand (365 h, $547.50 rent)")

models = by_id[10]["result"]["structuredContent"]
cli_models = cli_json("recommend", "--hardware", "rtx-4090", "--ctx", "8192", "--min-decode", "20", "--format", "json")
check(models["models"] == cli_models and len(cli_models) > 0, "recommend_models equals `recommend --hardware --format json`")

best = by_id[16]["result"]["structuredContent"]
cli_best = cli_json("recommend-model", "--hardware", "rtx-4090", "--task", "coding", "--ctx", "8192", "--min-decode", "10",
                    "--format", "json")
check(best == cli_best and best["ranked"][0]["model"] == "Qwen/Qwen3-32B",
      "best_models equals `recommend-model --format json` (Aider polyglot: Qwen3-32B first on a 4090)")
check(by_id[17]["result"]["isError"] is True and "poetry" in by_id[17]["result"]["content"][0]["text"],
      "best_models with an unknown task is a tool error naming it")

check(errors[1:] == [-32700, -32600, -32600], f"too deep -32700, over 1 MiB -32600, a batch -32600: {errors}")
check(by_id["last"]["result"] == {}, "still serving after the bad lines (ping)")

if failures:
    print(f"{len(failures)} failed")
    sys.exit(1)
print("all passed")
