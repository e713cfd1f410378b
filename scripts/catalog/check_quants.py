#!/usr/bin/env python3
"""Validate assets/catalog/quants.json (schema: assets/catalog/SCHEMA.md, structs GgmlType / FileType in engine/catalog/catalog.h).

Checks
  * document shape: schema tag, required keys and their types, non-empty sources on every entry
  * unique names (case-insensitive, aliases included), unique ggml ids, unique GGUF ftype ids
  * ggml ids and LLAMA_FTYPE ids against the upstream enums (tables below, with their sources)
  * block sizes divide QK_K = 256; k-quant / i-quant / ternary super-block types have block_size == 256
  * bits per weight computed from type_size / block_size against the values ggml-common.h's static_asserts give
  * every GGUF file type's base_type is a ggml type; non-GGUF formats have ftype_id -1, flat_bpw > 0, no base_type
  * the seed's eight `common` rows, the FP16 alias, and every quality_label reproduced by `quality_label_rules`
  * optional: --reference FILE compares block sizes / bytes with the reference data (../shared/reference/quants.json)

Usage: scripts/catalog/check_quants.py [--catalog PATH] [--reference PATH]
Exit status 0 = clean, 1 = errors (each printed as "error: <entry>: <what>").
"""
import argparse
import json
import math
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
QK_K = 256

# enum ggml_type — ggml-org/ggml@d99724f2:include/ggml.h (ids 0-39 also ggml-org/llama.cpp@004eaba8:ggml/include/ggml.h)
GGML_IDS = {
    "F32": 0, "F16": 1, "Q4_0": 2, "Q4_1": 3, "Q5_0": 6, "Q5_1": 7, "Q8_0": 8, "Q8_1": 9,
    "Q2_K": 10, "Q3_K": 11, "Q4_K": 12, "Q5_K": 13, "Q6_K": 14, "Q8_K": 15,
    "IQ2_XXS": 16, "IQ2_XS": 17, "IQ3_XXS": 18, "IQ1_S": 19, "IQ4_NL": 20, "IQ3_S": 21, "IQ2_S": 22, "IQ4_XS": 23,
    "I8": 24, "I16": 25, "I32": 26, "I64": 27, "F64": 28, "IQ1_M": 29, "BF16": 30,
    "TQ1_0": 34, "TQ2_0": 35, "MXFP4": 39, "NVFP4": 40, "Q1_0": 41, "Q2_0": 42,
}

# (block_size, bits per weight) — from the static_asserts in ggml-common.h (e.g. Q4_K: 2*2 + 12 + 128 = 144 B / 256 = 4.5)
KNOWN_BPW = {
    "F32": (1, 32.0), "F16": (1, 16.0), "BF16": (1, 16.0), "F64": (1, 64.0),
    "I8": (1, 8.0), "I16": (1, 16.0), "I32": (1, 32.0), "I64": (1, 64.0),
    "Q4_0": (32, 4.5), "Q4_1": (32, 5.0), "Q5_0": (32, 5.5), "Q5_1": (32, 6.0), "Q8_0": (32, 8.5), "Q8_1": (32, 9.0),
    "Q2_K": (256, 2.625), "Q3_K": (256, 3.4375), "Q4_K": (256, 4.5), "Q5_K": (256, 5.5), "Q6_K": (256, 6.5625),
    "Q8_K": (256, 9.125),
    "IQ2_XXS": (256, 2.0625), "IQ2_XS": (256, 2.3125), "IQ2_S": (256, 2.5625), "IQ3_XXS": (256, 3.0625),
    "IQ3_S": (256, 3.4375), "IQ1_S": (256, 1.5625), "IQ1_M": (256, 1.75), "IQ4_NL": (32, 4.5), "IQ4_XS": (256, 4.25),
    "TQ1_0": (256, 1.6875), "TQ2_0": (256, 2.0625),
    "MXFP4": (32, 4.25), "NVFP4": (64, 4.5), "Q1_0": (128, 1.125), "Q2_0": (64, 2.25),
}

# enum llama_ftype — ggml-org/llama.cpp@0024aa74:gguf-py/gguf/constants.py LlamaFileType (= include/llama.h)
FTYPE_IDS = {
    "F32": 0, "F16": 1, "Q4_0": 2, "Q4_1": 3, "Q8_0": 7, "Q5_0": 8, "Q5_1": 9, "Q2_K": 10,
    "Q3_K_S": 11, "Q3_K_M": 12, "Q3_K_L": 13, "Q4_K_S": 14, "Q4_K_M": 15, "Q5_K_S": 16, "Q5_K_M": 17, "Q6_K": 18,
    "IQ2_XXS": 19, "IQ2_XS": 20, "Q2_K_S": 21, "IQ3_XS": 22, "IQ3_XXS": 23, "IQ1_S": 24, "IQ4_NL": 25, "IQ3_S": 26,
    "IQ3_M": 27, "IQ2_S": 28, "IQ2_M": 29, "IQ4_XS": 30, "IQ1_M": 31, "BF16": 32, "TQ1_0": 36, "TQ2_0": 37,
    "MXFP4_MOE": 38, "NVFP4": 39, "Q1_0": 40, "Q2_0": 41,
}
# the file types the brief requires (all must be present)
REQUIRED_FILE_TYPES = [
    "F32", "F16", "BF16", "Q8_0", "Q6_K", "Q5_K_M", "Q5_K_S", "Q5_0", "Q5_1", "Q4_K_M", "Q4_K_S", "Q4_0", "Q4_1",
    "IQ4_XS", "IQ4_NL", "Q3_K_L", "Q3_K_M", "Q3_K_S", "IQ3_M", "IQ3_S", "IQ3_XS", "IQ3_XXS", "Q2_K", "Q2_K_S",
    "IQ2_M", "IQ2_S", "IQ2_XS", "IQ2_XXS", "IQ1_M", "IQ1_S", "TQ1_0", "TQ2_0", "MXFP4_MOE",
    "MLX_4BIT", "MLX_8BIT", "GPTQ_INT4_G128", "AWQ_INT4_G128", "FP8",
]
# the seed's eight-row table and its labels
SEED = {
    "F16": "Lossless Reference", "Q8_0": "Near-Lossless", "Q6_K": "High Precision", "Q5_K_M": "Balanced High",
    "Q4_K_M": "Recommended 4-bit", "MLX_4BIT": "Apple Silicon Optimized", "IQ4_XS": "Compact 4-bit",
    "Q3_K_M": "Aggressive Compression",
}
KNOWN_FLAT_BPW = {"MLX_4BIT": 4.5, "MLX_8BIT": 8.5, "FP8": 8.0}


def is_superblock_type(name):
    """k-quants (*_K), i-quants other than IQ4_NL, and ternary TQ* use QK_K = 256 super-blocks."""
    return name.endswith("_K") or (name.startswith("IQ") and name != "IQ4_NL") or name.startswith("TQ")


class Checker:
    def __init__(self):
        self.errors = []
        self.warnings = []

    def err(self, where, what):
        self.errors.append(f"error: {where}: {what}")

    def warn(self, where, what):
        self.warnings.append(f"warning: {where}: {what}")

    def need(self, obj, key, types, where, nullable=False):
        if key not in obj:
            self.err(where, f"missing key '{key}'")
            return None
        v = obj[key]
        if v is None:
            if not nullable:
                self.err(where, f"'{key}' is null")
            return None
        if isinstance(v, bool) and bool not in (types if isinstance(types, tuple) else (types,)):
            self.err(where, f"'{key}' must be {types}, got bool")
            return None
        if not isinstance(v, types):
            self.err(where, f"'{key}' must be {types}, got {type(v).__name__}")
            return None
        return v

    def sources(self, obj, where):
        s = obj.get("sources")
        if not isinstance(s, list) or not s or not all(isinstance(x, str) and x.strip() for x in s):
            self.err(where, "sources must be a non-empty list of strings")


def label_from_rules(rules, ft, ggml_by_name):
    """Recompute a file type's quality label from quality_label_rules. Returns (label, estimated)."""
    name = ft["name"]
    if not ft.get("gguf", True) and name.upper().startswith("MLX"):
        return "Apple Silicon Optimized", False
    if ft.get("base_type") == "F32":
        return "Lossless Reference", False
    kld = ft.get("kld")
    if kld is not None:
        for band in rules["kld_bands"]:
            thr = band["kld_below"]
            if thr is None or kld < thr:
                return band["label"], False
    if ft.get("gguf", True):
        bt = ggml_by_name.get(ft.get("base_type"))
        bpw = 8.0 * bt["type_size"] / bt["block_size"] if bt else None
    else:
        bpw = ft.get("flat_bpw")
    if bpw is None:
        return None, True
    for band in rules["bpw_bands"]:
        if bpw >= band["bpw_at_least"]:
            return band["label"], True
    return None, True


def check(doc, ref=None):
    c = Checker()
    if doc.get("schema") != "llmsim-quants/1":
        c.err("document", f"schema must be 'llmsim-quants/1', got {doc.get('schema')!r}")
    for key in ("ggml_types", "file_types", "quality_label_rules", "per_tensor_rules_source", "rules_notes"):
        if key not in doc:
            c.err("document", f"missing top-level key '{key}'")
    if not isinstance(doc.get("per_tensor_rules_source"), str) or "llama-quant.cpp" not in doc.get("per_tensor_rules_source", ""):
        c.err("document", "per_tensor_rules_source must name the llama.cpp commit and src/llama-quant.cpp")
    if not isinstance(doc.get("rules_notes"), list) or not doc.get("rules_notes"):
        c.err("document", "rules_notes must be a non-empty list")

    # ---- ggml types
    ggml_by_name = {}
    seen_ids = {}
    for i, t in enumerate(doc.get("ggml_types", [])):
        name = t.get("name", f"#{i}")
        where = f"ggml_types[{name}]"
        c.need(t, "name", str, where)
        tid = c.need(t, "id", int, where)
        bs = c.need(t, "block_size", int, where)
        ts = c.need(t, "type_size", int, where)
        c.sources(t, where)
        key = name.upper()
        if key in ggml_by_name:
            c.err(where, "duplicate name")
        ggml_by_name[key] = t
        if tid is not None:
            if tid in seen_ids:
                c.err(where, f"id {tid} also used by {seen_ids[tid]}")
            seen_ids[tid] = name
            if name in GGML_IDS and GGML_IDS[name] != tid:
                c.err(where, f"id {tid} != enum ggml_type value {GGML_IDS[name]}")
            if name not in GGML_IDS:
                c.warn(where, "type not in the checker's ggml_type table (new upstream type?)")
        if bs is None or ts is None:
            continue
        if bs <= 0 or ts <= 0:
            c.err(where, "block_size and type_size must be positive")
            continue
        if QK_K % bs != 0:
            c.err(where, f"block_size {bs} does not divide QK_K = {QK_K}")
        if is_superblock_type(name) and bs != QK_K:
            c.err(where, f"super-block (k/i/ternary) type must have block_size {QK_K}, got {bs}")
        if t.get("k_quant_superblock") and bs != QK_K:
            c.err(where, f"flagged k_quant_superblock but block_size {bs}")
        bpw = 8.0 * ts / bs
        if name in KNOWN_BPW:
            kbs, kbpw = KNOWN_BPW[name]
            if kbs != bs:
                c.err(where, f"block_size {bs} != ggml-common.h value {kbs}")
            if not math.isclose(bpw, kbpw, abs_tol=1e-9):
                c.err(where, f"bits/weight from type_size {ts}/{bs} = {bpw} != known {kbpw}")
        if "bits_per_weight" in t and not math.isclose(t["bits_per_weight"], bpw, abs_tol=1e-9):
            c.err(where, f"stored bits_per_weight {t['bits_per_weight']} != 8*type_size/block_size = {bpw}")
    for name in GGML_IDS:
        if name not in ggml_by_name:
            c.err("ggml_types", f"missing ggml type {name}")

    # ---- file types
    names = {}
    ftype_seen = {}
    fts = doc.get("file_types", [])
    for i, ft in enumerate(fts):
        name = ft.get("name", f"#{i}")
        where = f"file_types[{name}]"
        c.need(ft, "name", str, where)
        fid = c.need(ft, "ftype_id", int, where)
        gguf = c.need(ft, "gguf", bool, where)
        c.need(ft, "quality_label", str, where)
        c.need(ft, "common", bool, where)
        c.need(ft, "kld", (int, float), where, nullable=True)
        c.need(ft, "ppl_delta_pct", (int, float), where, nullable=True)
        c.need(ft, "quality_source", str, where, nullable=True)
        c.sources(ft, where)
        for alias in [name] + list(ft.get("aliases", []) or []):
            k = alias.upper()
            if k in names:
                c.err(where, f"name/alias '{alias}' already used by {names[k]}")
            names[k] = name
        if gguf:
            bt = ft.get("base_type")
            if not isinstance(bt, str) or bt.upper() not in ggml_by_name:
                c.err(where, f"base_type {bt!r} is not a ggml type")
            if ft.get("flat_bpw") not in (None, 0):
                c.err(where, "GGUF file types take bpw from base_type/rules, flat_bpw must be null")
            if fid is not None:
                if fid < 0:
                    c.err(where, "GGUF file type needs ftype_id >= 0")
                if fid in ftype_seen:
                    c.err(where, f"ftype_id {fid} also used by {ftype_seen[fid]}")
                ftype_seen[fid] = name
                if name in FTYPE_IDS and FTYPE_IDS[name] != fid:
                    c.err(where, f"ftype_id {fid} != LLAMA_FTYPE value {FTYPE_IDS[name]}")
        elif gguf is False:
            if fid != -1:
                c.err(where, "non-GGUF format needs ftype_id -1")
            fb = ft.get("flat_bpw")
            if not isinstance(fb, (int, float)) or fb <= 0:
                c.err(where, "non-GGUF format needs flat_bpw > 0")
            elif name in KNOWN_FLAT_BPW and not math.isclose(fb, KNOWN_FLAT_BPW[name], abs_tol=1e-9):
                c.err(where, f"flat_bpw {fb} != expected {KNOWN_FLAT_BPW[name]}")
            elif name.endswith("INT4_G128") and not (4.125 <= fb <= 4.2):
                c.err(where, f"flat_bpw {fb} outside 4.125..4.2 for 4-bit group-128")
            if ft.get("base_type") not in (None, ""):
                c.err(where, "non-GGUF format has no ggml base_type (use null)")
        kld = ft.get("kld")
        if isinstance(kld, (int, float)) and not (0 <= kld < 10):
            c.err(where, f"kld {kld} out of range")
        if kld is not None and not ft.get("quality_source"):
            c.err(where, "kld given without quality_source")
        if ft.get("common") and name not in SEED:
            c.err(where, "common=true but not one of the seed's eight")
    by_name = {ft.get("name"): ft for ft in fts}
    for name in REQUIRED_FILE_TYPES:
        if name not in by_name:
            c.err("file_types", f"missing file type {name}")
    for name, label in SEED.items():
        ft = by_name.get(name)
        if ft is None:
            continue
        if not ft.get("common"):
            c.err(f"file_types[{name}]", "seed row must have common=true")
        if ft.get("quality_label") != label:
            c.err(f"file_types[{name}]", f"seed label {label!r} expected, got {ft.get('quality_label')!r}")
    if "FP16" not in [a.upper() for a in (by_name.get("F16", {}).get("aliases") or [])]:
        c.err("file_types[F16]", "needs aliases ['FP16']")

    # ---- quality labels reproduced by the stated rule
    rules = doc.get("quality_label_rules")
    if isinstance(rules, dict) and "kld_bands" in rules and "bpw_bands" in rules:
        prev = -1.0
        for band in rules["kld_bands"]:
            thr = band["kld_below"]
            if thr is not None:
                if thr <= prev:
                    c.err("quality_label_rules", "kld_bands must be increasing")
                prev = thr
        for ft in fts:
            lab, est = label_from_rules(rules, ft, ggml_by_name)
            if lab != ft.get("quality_label"):
                c.err(f"file_types[{ft.get('name')}]", f"quality_label {ft.get('quality_label')!r} but the rule gives {lab!r}")
            if est != bool(ft.get("quality_label_estimated", False)):
                c.err(f"file_types[{ft.get('name')}]", f"quality_label_estimated should be {est}")
    else:
        c.err("quality_label_rules", "needs kld_bands and bpw_bands")

    # ---- optional comparison with the shared reference
    if ref is not None:
        for rt in ref.get("ggml_block_types", []):
            t = ggml_by_name.get(rt["type"].upper())
            if t is None:
                c.warn("reference", f"ggml type {rt['type']} not in catalog")
                continue
            if (t["block_size"], t["type_size"]) != (rt["weights_per_block"], rt["bytes_per_block"]):
                c.err(f"ggml_types[{rt['type']}]", f"differs from reference: {(t['block_size'], t['type_size'])} vs "
                      f"{(rt['weights_per_block'], rt['bytes_per_block'])}")
        for rf in ref.get("llama_quantize_ftypes", []):
            ft = by_name.get(rf["ftype"])
            if ft is None:
                c.warn("reference", f"file type {rf['ftype']} not in catalog")
                continue
            if ft.get("base_type") != rf["default_tensor_type"]:
                c.err(f"file_types[{rf['ftype']}]", f"base_type {ft.get('base_type')} != reference default {rf['default_tensor_type']}")
            q = rf.get("llama3_8b_quality") or {}
            if q.get("kld") is not None and ft.get("kld") != q["kld"]:
                c.err(f"file_types[{rf['ftype']}]", f"kld {ft.get('kld')} != reference scoreboard {q['kld']}")
    return c, ggml_by_name, fts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--catalog", default=os.path.join(ROOT, "assets", "catalog", "quants.json"))
    ap.add_argument("--reference", default=None, help="optional reference quants.json to compare against")
    args = ap.parse_args()
    try:
        with open(args.catalog) as f:
            doc = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        print(f"error: {args.catalog}: {e}")
        return 1
    ref = None
    if args.reference:
        with open(args.reference) as f:
            ref = json.load(f)
    c, ggml_by_name, fts = check(doc, ref)
    for w in c.warnings:
        print(w)
    for e in c.errors:
        print(e)
    n_gguf = sum(1 for f in fts if f.get("gguf"))
    print(f"{os.path.relpath(args.catalog, ROOT)}: {len(ggml_by_name)} ggml types, {len(fts)} file types "
          f"({n_gguf} GGUF, {len(fts) - n_gguf} other), {len(c.errors)} errors, {len(c.warnings)} warnings")
    return 1 if c.errors else 0


if __name__ == "__main__":
    sys.exit(main())
