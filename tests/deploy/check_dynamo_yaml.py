#!/usr/bin/env python3
"""serve --deploy emits an NVIDIA Dynamo DynamoGraphDeployment that a real YAML parser reads and that has the fields
Dynamo documents (https://docs.nvidia.com/dynamo/dev/kubernetes/disaggregated-serving/overview and the
nvidia.com/v1beta1 DynamoGraphDeployment reference, read 2026-12-07): apiVersion / kind, a frontend, a prefill and a
decode component with their replicas, each worker's image, its command (python3 -m dynamo.vllm), the engine's TP
flag and resources.limits nvidia.com/gpu. The case is the issue's: 2 nodes of 8x H100, 1 prefill : 3 decode
(4 GPUs per instance: 1 prefill instance, 3 decode instances), and the aggregated form of the same GPUs.

usage: check_dynamo_yaml.py PATH/TO/llmsim-cli
"""
import subprocess
import sys

import yaml  # python3-yaml (scripts/packages.txt, mode test)

MODEL = "meta-llama/Llama-3.1-70B-Instruct"


def deploy(cli, extra):
    cmd = [cli, "serve", "--model", MODEL, "--hardware", "h100-sxm", "--input-len", "2048", "--output-len", "256",
           "--concurrency", "32", "--deploy", "-"] + extra
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        sys.exit("FAIL: %s exited %d: %s" % (" ".join(cmd), out.returncode, out.stderr))
    return yaml.safe_load(out.stdout)


def component(doc, kind):
    found = [c for c in doc["spec"]["components"] if c.get("type") == kind]
    if len(found) != 1:
        sys.exit("FAIL: expected one component of type %s, got %d" % (kind, len(found)))
    return found[0]


def main_container(c):
    containers = c["podTemplate"]["spec"]["containers"]
    main = [x for x in containers if x["name"] == "main"]
    if len(main) != 1:
        sys.exit("FAIL: %s has no container named main" % c["name"])
    return main[0]


def flag(args, name):
    if name not in args:
        sys.exit("FAIL: %s not in %s" % (name, args))
    return args[args.index(name) + 1]


def check(cond, what):
    if not cond:
        sys.exit("FAIL: " + what)
    print("ok  " + what)


def check_worker(c, replicas, tp, role):
    m = main_container(c)
    check(c["replicas"] == replicas, "%s replicas = %d" % (c["name"], replicas))
    check(m["image"].startswith("nvcr.io/nvidia/ai-dynamo/vllm-runtime:"), "%s image is Dynamo's vLLM runtime" % c["name"])
    check(m["command"] == ["python3", "-m", "dynamo.vllm"], "%s runs python3 -m dynamo.vllm" % c["name"])
    args = m["args"]
    check(flag(args, "--model") == MODEL, "%s --model %s" % (c["name"], MODEL))
    check(flag(args, "--tensor-parallel-size") == str(tp), "%s --tensor-parallel-size %d" % (c["name"], tp))
    if role:
        check(flag(args, "--disaggregation-mode") == role, "%s --disaggregation-mode %s" % (c["name"], role))
    check(str(m["resources"]["limits"]["nvidia.com/gpu"]) == str(tp), "%s resources.limits nvidia.com/gpu = %d" % (c["name"], tp))
    return args


def main():
    cli = sys.argv[1]
    d = deploy(cli, ["--prefill-gpus", "4", "--decode-gpus", "12", "--prefill-tp", "4", "--decode-tp", "4", "--kv-link", "ib-ndr"])
    check(d["apiVersion"] == "nvidia.com/v1beta1", "apiVersion nvidia.com/v1beta1")
    check(d["kind"] == "DynamoGraphDeployment", "kind DynamoGraphDeployment")
    name = d["metadata"]["name"]
    check(len(name) <= 63 and name == name.lower() and all(ch.isalnum() or ch == "-" for ch in name), "metadata.name is a DNS label: " + name)
    check(d["spec"]["backendFramework"] == "vllm", "backendFramework vllm")
    f = component(d, "frontend")
    check(main_container(f)["image"].startswith("nvcr.io/nvidia/ai-dynamo/"), "frontend image")
    pa = check_worker(component(d, "prefill"), 1, 4, "prefill")
    check("NixlConnector" in flag(pa, "--kv-transfer-config"), "prefill worker's KV connector is NIXL")
    check_worker(component(d, "decode"), 3, 4, "decode")
    gpus = sum(int(main_container(c)["resources"]["limits"]["nvidia.com/gpu"]) * c["replicas"]
               for c in d["spec"]["components"] if c["type"] in ("prefill", "decode"))
    check(gpus == 16, "16 GPUs in all (2 nodes of 8x H100)")
    a = deploy(cli, ["--gpus", "16", "--tp", "4"])
    check(len([c for c in a["spec"]["components"] if c["type"] in ("prefill", "decode")]) == 0, "aggregated: no prefill / decode roles")
    check_worker(component(a, "worker"), 4, 4, None)
    print("check_dynamo_yaml: all checks passed")


if __name__ == "__main__":
    main()
