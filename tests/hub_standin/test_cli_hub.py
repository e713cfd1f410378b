#!/usr/bin/env python3
"""ctest: llmsim-cli memory against the local Hub stand-in (never the internet).

    python3 test_cli_hub.py PATH/TO/llmsim-cli WORK_DIR

Builds the fixtures (fixtures.py: every expected number computed there from the tensor lists), starts
hub_standin.py on free ports, and checks: a GGUF repo's weights equal the header's tensor bytes (one file, and a
split file summed); the file is read by Range and never downloaded whole (bytes served counted by the stand-in);
the token goes to the Hub only, never to the storage origin, and is never printed; 404 / gated 401 / 429 / offline /
not-a-text-model each give their message and exit 2.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from standin_run import StandIn, check, finish  # noqa: E402


def main(cli, work):
    with StandIn(work) as hub:
        exp = hub.exp
        port, cdn_port = hub.port, hub.cdn_port
        endpoint = "http://127.0.0.1:" + port

        def stats():
            out = subprocess.run(["python3", "-c", "import urllib.request,sys;sys.stdout.write(urllib.request.urlopen("
                                  "'%s/_stats').read().decode())" % endpoint], capture_output=True, text=True)
            return json.loads(out.stdout)

        def run(args, token=None, ep=endpoint):
            env = dict(os.environ, HF_ENDPOINT=ep)
            env.pop("HF_TOKEN", None)
            if token:
                env["HF_TOKEN"] = token
            p = subprocess.run([cli] + args, capture_output=True, text=True, env=env, timeout=120)
            return p.returncode, p.stdout, p.stderr

        # a 70B-shaped Q4_K_M file: weights = the header's tensor bytes, exactly; read by Range only
        before = stats()["cdn_bytes_served"]
        rc, out, err = run(["memory", "--model", "org/new-model", "--quant", "Q4_K_M", "--ctx", "8192", "--json"])
        check(rc == 0, "memory --model org/new-model --quant Q4_K_M exits 0 (%s)" % err.strip()[-200:])
        j = json.loads(out) if rc == 0 else {}
        check(j.get("weights_bytes") == exp["q4_k_m"]["tensor_bytes"],
              "weights_bytes %s == header tensor bytes %d" % (j.get("weights_bytes"), exp["q4_k_m"]["tensor_bytes"]))
        served = stats()["cdn_bytes_served"] - before
        size = exp["q4_k_m"]["file_bytes"]
        check(exp["q4_k_m"]["header_bytes"] <= served < exp["q4_k_m"]["header_bytes"] + (1 << 20),
              "storage served %d bytes: the %d-byte header plus less than 1 MiB" % (served, exp["q4_k_m"]["header_bytes"]))
        check(served * 10000 < size, "never downloaded whole: %d of %d bytes (%.4f %%)" % (served, size, 100.0 * served / size))
        said = [l for l in err.splitlines() if l.startswith("hub: read ")]
        check(len(said) == 1 and "GB download" in said[0], "says what it read: " + (said[0] if said else "nothing"))
        print("70B-shaped GGUF (%d tensors, header %d bytes): %d bytes from storage for a %d-byte file" %
              (exp["q4_k_m"]["n_tensors"], exp["q4_k_m"]["header_bytes"], served, size))

        check("hub: org/new-model licence: " + exp["license"] in err, "the model card's licence is shown")

        # a tree listing longer than one page (sizes only there): Link rel="next" followed on the endpoint only
        rc, out, err = run(["memory", "--model", "org/many-files", "--quant", "Q4_K_M", "--ctx", "8192", "--json"])
        j = json.loads(out) if rc == 0 else {}
        pages = [r for r in stats()["requests"] if "/api/models/org/many-files/tree/" in r["path"]]
        check(j.get("weights_bytes") == exp["q4_k_m"]["tensor_bytes"] and len(pages) == exp["many_files"]["pages"],
              "a %d-entry listing read over %d pages; weights from the last page's GGUF (%s)" %
              (exp["many_files"]["listed"], len(pages), err.strip()[-160:]))
        rc, out, err = run(["memory", "--model", "org/foreign-link", "--ctx", "8192"])
        check(rc == 2 and "not the endpoint" in err and "not followed" in err,
              "a next page on another origin is refused: " + err.strip().splitlines()[-1])

        # the text table, the same numbers
        rc, out, err = run(["memory", "--model", "org/new-model:Q4_K_M", "--ctx", "8192"])
        check(rc == 0 and out.startswith("org/new-model  Q4_K_M  ctx 8k"), "text output names the Hub id and quant")

        # a split Q8_0: both shards' headers summed
        rc, out, err = run(["memory", "--model", "org/new-model:Q8_0", "--ctx", "8192", "--json"])
        j = json.loads(out) if rc == 0 else {}
        check(j.get("weights_bytes") == exp["q8_0"]["tensor_bytes"],
              "split Q8_0: weights_bytes %s == sum of both headers' tensor bytes %d" % (j.get("weights_bytes"), exp["q8_0"]["tensor_bytes"]))

        # safetensors: config.json + index + shard headers
        rc, out, err = run(["memory", "--model", "org/st-model", "--quant", "Q8_0", "--ctx", "4096", "--json"])
        check(rc == 0 and ("safetensors checkpoint of %d bytes" % exp["safetensors_bytes"]) in err,
              "safetensors repo: dtype x shape bytes %d reported (%s)" % (exp["safetensors_bytes"], err.strip()[-160:]))

        # errors a user can act on
        rc, out, err = run(["memory", "--model", "org/nope", "--ctx", "8192"])
        check(rc == 2 and "no model org/nope on the Hub" in err and out == "", "unknown repo: " + err.strip().splitlines()[-1])
        rc, out, err = run(["memory", "--model", "org/gated-model", "--ctx", "8192"])
        check(rc == 2 and "accept the licence on the Hub" in err, "gated without a token: " + err.strip().splitlines()[-1])
        rc, out, err = run(["memory", "--model", "org/gated-model", "--ctx", "8192"], token="hf_wrong")
        check(rc == 2 and "gated" in err, "gated with a wrong token (403)")
        requests_before = len(stats()["requests"])
        rc, out, err = run(["memory", "--model", "org/gated-model", "--ctx", "8192", "--json"], token=exp["gated_token"])
        j = json.loads(out) if rc == 0 else {}
        check(j.get("weights_bytes") == exp["gated"]["tensor_bytes"], "gated with the right token: weights from the header")
        check(exp["gated_token"] not in out + err, "the token is never printed")
        reqs = stats()["requests"][requests_before:]
        check(all(r["auth"] for r in reqs if not r["cdn"] and r["path"] != "/_stats"), "the token goes to the Hub")
        check(not any(r["auth"] for r in reqs if r["cdn"]), "the token never goes to the storage origin")
        rc, out, err = run(["memory", "--model", "org/limited", "--ctx", "8192"])
        check(rc == 2 and "try again in 42 s" in err, "rate-limited: " + err.strip().splitlines()[-1])
        rc, out, err = run(["memory", "--model", "org/limited-ratelimit", "--ctx", "8192"])
        check(rc == 2 and "try again in 17 s" in err, "rate-limited, RateLimit header only: " + err.strip().splitlines()[-1])
        rc, out, err = run(["memory", "--model", "org/image-model", "--ctx", "8192"])
        check(rc == 2 and "text-to-image model, not a text-generation model" in err, "not a text model")
        rc, out, err = run(["memory", "--model", "org/new-model:IQ1_S", "--ctx", "8192"])
        check(rc == 2 and "has no GGUF file for IQ1_S; it has " in err and "Q4_K_M" in err and "Q8_0" in err,
              "missing quant lists the repo's quants: " + err.strip().splitlines()[-1])
        rc, out, err = run(["memory", "--model", "org/new-model", "--ctx", "8192"], ep="http://127.0.0.1:9")
        check(rc == 2 and "could not be reached" in err, "offline: " + err.strip().splitlines()[-1])
        rc, out, err = run(["memory", "--model", "org/new-model", "--ctx", "8192"], ep="ftp://example")
        check(rc == 2 and "HF_ENDPOINT must be" in err, "a bad HF_ENDPOINT is named")
        # the catalog wins: a catalog id never touches the Hub
        hub_requests = lambda: [r for r in stats()["requests"] if r["path"] != "/_stats"]
        n = len(hub_requests())
        rc, out, err = run(["memory", "--model", "Qwen/Qwen2.5-7B-Instruct", "--ctx", "8192"])
        check(rc == 0 and len(hub_requests()) == n and "hub:" not in err, "a catalog id is not looked up")
    return finish()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
