"""What the stand-in's ctest drivers share: the ok/FAIL check tally, and building the fixtures and starting
hub_standin.py on free ports (test_cli_hub.py, test_worker_hub.py).

    with StandIn(work) as hub:        # hub.exp (expected.json), hub.port, hub.cdn_port
        check(cond, "what was checked")
    return finish()                    # prints "N failed", 1 if any failed
"""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FAILS = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        FAILS.append(what)


def finish():
    print("%d failed" % len(FAILS))
    return 1 if FAILS else 0


class StandIn:
    """fixtures.py into WORK/fixtures, then hub_standin.py serving them until the with-block ends"""

    def __init__(self, work):
        self.work = work

    def __enter__(self):
        fx = os.path.join(self.work, "fixtures")
        subprocess.check_call([sys.executable, os.path.join(HERE, "fixtures.py"), fx])
        self.exp = json.load(open(os.path.join(fx, "expected.json")))
        ports = os.path.join(self.work, "ports")
        if os.path.exists(ports):
            os.remove(ports)
        self.srv = subprocess.Popen([sys.executable, os.path.join(HERE, "hub_standin.py"),
                                     os.path.join(fx, "manifest.json"), "--ports-file", ports],
                                    stdout=subprocess.DEVNULL)
        for _ in range(100):   # the stand-in writes its two ports once it listens (5 s at most)
            if os.path.exists(ports) and open(ports).read().split():
                break
            time.sleep(0.05)
        self.port, self.cdn_port = open(ports).read().split()
        return self

    def __exit__(self, *exc):
        self.srv.terminate()
        self.srv.wait()
        return False
