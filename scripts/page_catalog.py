#!/usr/bin/env python3
"""The web page's copy of a catalog file: the same devices and models with only what the page reads.

The page shows one source per device and model (explanations cite `sources[0]`, engine/sim/explain.cpp) and never
shows a device's notes, price and rent provenance, or the memory / GPU-limit basis; the native programs, the CLI and
the static site pages keep the whole file. Every number stays; nothing is added.
  scripts/page_catalog.py assets/catalog/hardware.json OUT.json     (models.json and quants.json the same way)
"""
import json
import sys

# keys the page never reads, per catalog file (the "devices" / "models" / quants.json entries)
DROP = {
    "devices": ("notes", "price_source", "cloud_source", "memory_basis", "gpu_limit_basis"),
    "models": ("notes",),
    # quants.json: the engine keeps no ggml type's sources, layout or role, and no file type's rules summary,
    # quality basis, notes or CLI description (engine/catalog/catalog.cpp parse_quants)
    "ggml_types": ("sources", "layout", "role", "notes", "bits_per_weight"),
    "file_types": ("rules_summary", "quality_basis", "notes", "cli_description"),
}
# whole top-level keys of a file that no program reads (quants.json's label rules and rule notes are prose for people)
DROP_TOP = ("quality_label_rules", "rules_notes")


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        doc = json.load(f)
    for key in DROP_TOP:
        doc.pop(key, None)
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
