#!/usr/bin/env python3
"""The web page's copy of a catalog file: the same devices and models with only what the page reads.

The page shows one source per device and model (explanations cite `sources[0]`, engine/sim/explain.cpp) and never
shows a device's notes, price and rent provenance, or the memory / GPU-limit basis; the native programs, the CLI and
the static site pages keep the whole file. Every number stays; nothing is added.
  scripts/page_catalog.py assets/catalog/hardware.json OUT.json     (models.json the same way)
"""
import json
import sys

# keys the page never reads, per catalog file (the "devices" / "models" entries)
DROP = {
    "devices": ("notes", "price_source", "cloud_source", "memory_basis", "gpu_limit_basis"),
    "models": ("notes",),
}


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        doc = json.load(f)
    for key, drop in DROP.items():
        for entry in doc.get(key, []):
            for k in drop:
                entry.pop(k, None)
            if isinstance(entry.get("sources"), list):
                entry["sources"] = entry["sources"][:1]
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, separators=(",", ":"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
