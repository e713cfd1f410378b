#!/usr/bin/env python3
"""ctest: the desktop app's Hub transport (net/hub_worker.h on libcurl) against the local Hub stand-in.

    python3 test_worker_hub.py PATH/TO/hub_worker_check WORK_DIR [PATH/TO/llmsim]

hub_worker_check runs the worker as the desktop app does (started, polled every 10 ms from the caller's thread).
Checks: the lookup runs off the calling thread (it keeps polling while requests are in flight); weights equal the
header's tensor bytes (expected.json from fixtures.py, computed from the tensor lists); the licence comes from the
model card; a tree listing of three pages is followed; a next page on another origin is refused; a cancelled
lookup ends within a second while the storage holds its answer; the app itself (llmsim, headless) looks a
model= id up at start and shows what it read.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from standin_run import StandIn, check, finish  # noqa: E402


def main(worker, work, app=None):
    with StandIn(work) as hub:
        exp = hub.exp
        port, _cdn = hub.port, hub.cdn_port
        env = dict(os.environ, HF_ENDPOINT="http://127.0.0.1:" + port)
        env.pop("HF_TOKEN", None)

        def run(*args):
            p = subprocess.run([worker] + list(args), capture_output=True, text=True, env=env, timeout=180)
            try:
                return json.loads(p.stdout)
            except ValueError:
                return {"state": "no output", "error": p.stderr.strip()[-300:]}

        j = run("lookup", "org/new-model:Q4_K_M")
        check(j["state"] == "done", "lookup org/new-model:Q4_K_M on the worker: %s %s" % (j["state"], j.get("error", "")))
        check(j.get("tensor_bytes") == exp["q4_k_m"]["tensor_bytes"],
              "weights %s == the header's tensor bytes %d" % (j.get("tensor_bytes"), exp["q4_k_m"]["tensor_bytes"]))
        check(j.get("variants_read") == 2, "every GGUF variant's header read (the quant table): %s" % j.get("variants_read"))
        check(j.get("license") == exp["license"], "licence from the model card: %r" % j.get("license"))
        check(j.get("progress_changes", 0) >= 2, "progress reported (%d changes)" % j.get("progress_changes", 0))
        check(j.get("second_start_refused") and j.get("idle_after_take"), "one lookup at a time; idle once taken")

        j = run("lookup", "org/many-files")
        check(j["state"] == "done" and j.get("tree_pages") == exp["many_files"]["pages"],
              "a %d-entry tree listing is read over %s pages (Link rel=next): %s %s" %
              (exp["many_files"]["listed"], j.get("tree_pages"), j["state"], j.get("error", "")))
        check(j.get("tensor_bytes") == exp["q4_k_m"]["tensor_bytes"], "the GGUF on the last page is found and sized")

        j = run("lookup", "org/foreign-link")
        check(j["state"] == "failed" and "not the endpoint" in j.get("error", "") and "not followed" in j["error"],
              "a next page on another origin is not followed: " + j.get("error", ""))

        j = run("cancel", "org/slow-model", "700")
        check(j["state"] == "cancelled" and j.get("ms_after_cancel", 9e9) < 1500,
              "cancelled while the storage holds its answer: ended %.0f ms after the cancel (%s)" %
              (j.get("ms_after_cancel", -1), j.get("error", "")))
        # the storage holds its answer for 3 s and the cancel comes at 700 ms: a caller polling every 10 ms that is
        # never blocked by the request in flight polls well over 30 times before the cancel (a local lookup without
        # a delay can finish between two polls, so that one says nothing about blocking)
        check(j.get("polls_while_running", 0) >= 30,
              "the caller kept polling while a request was held (%d polls before the lookup ended): the UI thread never waits" %
              j.get("polls_while_running", 0))

        j = run("lookup", "org/nope")
        check(j["state"] == "failed" and "no model org/nope on the Hub" in j.get("error", ""), "404: " + j.get("error", ""))
        j = run("lookup", "org/limited")
        check(j["state"] == "failed" and "try again in 42 s" in j.get("error", ""), "429: " + j.get("error", ""))

        if app:
            shot = os.path.join(work, "desktop-hub.png")
            p = subprocess.run([app, "model=org/new-model:Q4_K_M", "--screenshot", shot, "--frames", "3", "--size", "1280x800"],
                               capture_output=True, text=True, env=dict(env, SDL_VIDEODRIVER="offscreen"), timeout=180)
            said = [l for l in p.stdout.splitlines() if l.startswith("llmsim: hub: ")]
            check(p.returncode == 0 and "saved" in p.stdout, "desktop app: screenshot after the lookup (%s)" % p.stderr.strip()[-200:])
            check(len(said) == 1 and said[0].startswith("llmsim: hub: org/new-model: read ") and "licence llama3.1" in said[0],
                  "desktop app looked model= up at start: " + (said[0] if said else p.stdout.strip()[-200:]))
    return finish()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
