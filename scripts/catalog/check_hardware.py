#!/usr/bin/env python3
"""Validate assets/catalog/hardware.json (schema llmsim-hardware/1, see assets/catalog/SCHEMA.md).

Checks: required keys and types, unique lower-case ids, every id / seed alias / calibration name naming one
device, enums (vendor, kind, chip_family, backends), positive numbers, gpu_count > 1 has a link, gpu limits
(default <= max <= memory for unified devices), and, when the shared inputs exist, that every seed leaderboard
row and every calibration hardware name resolves to a device. Prints counts per kind and the estimated fields.

usage: python3 scripts/catalog/check_hardware.py [hardware.json] [--seeds GLOB] [--calibration FILE]
exit status 1 on any error.
"""
import argparse, collections, glob, json, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT = os.path.join(os.path.dirname(os.path.dirname(HERE)), "assets/catalog/hardware.json")

REQUIRED = {  # key -> allowed types (None = null allowed)
    "id": (str,), "name": (str,), "vendor": (str,), "kind": (str,), "backends": (list,), "gpu_count": (int,),
    "memory_mib": (int, float), "memory_basis": (str,), "bandwidth_gbs": (int, float),
    "fp16_tflops": (int, float, type(None)), "fp16_tflops_basis": (str, type(None)), "fp16_tflops_estimated": (bool,),
    "int8_tops": (int, float, type(None)), "tdp_w": (int, float, type(None)),
    "price_usd": (int, float, type(None)), "price_used_usd": (int, float, type(None)), "price_source": (str, type(None)),
    "cloud_usd_per_hour": (int, float, type(None)), "cloud_source": (str, type(None)),
    "link": (str, type(None)), "link_gbs": (int, float, type(None)),
    "gpu_limit_default_mib": (int, float, type(None)), "gpu_limit_max_mib": (int, float, type(None)),
    "gpu_limit_basis": (str, type(None)),
    "system_ram_gib": (int, float, type(None)), "system_ram_bandwidth_gbs": (int, float, type(None)),
    "seed_aliases": (list,), "sources": (list,), "notes": (list,),
}
OPTIONAL_LISTS = ("calibration_names", "tool_names")
VENDORS = {"nvidia", "amd", "apple", "intel"}
KINDS = ["datacenter", "workstation", "consumer", "apple", "apu", "cpu"]
BACKENDS = {"cuda", "rocm", "metal", "vulkan", "sycl", "cpu"}
POSITIVE = ["memory_mib", "bandwidth_gbs", "fp16_tflops", "int8_tops", "tdp_w", "price_usd", "price_used_usd",
            "cloud_usd_per_hour", "link_gbs", "gpu_limit_default_mib", "gpu_limit_max_mib", "system_ram_gib",
            "system_ram_bandwidth_gbs"]
RECOMMENDED = ["fp16_tflops", "tdp_w"]  # warn when missing


def chip_families():
    """The chip_family spellings, read from the engine's table (engine/catalog/chip_family.cpp kChipFamilies): the
    one list the engine's catalog parser accepts."""
    src = open(os.path.join(os.path.dirname(os.path.dirname(HERE)), "engine", "catalog", "chip_family.cpp")).read()
    table = src[src.index("kChipFamilies[] = {"):]
    table = table[:table.index("};")]
    return re.findall(r'\{ChipFamily::\w+,\s*"([a-z0-9-]+)"', table)


CHIP_FAMILIES = chip_families()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("path", nargs="?", default=DEFAULT)
    ap.add_argument("--seeds", default=os.path.join(os.path.dirname(os.path.dirname(HERE)), "..", "shared", "seeds", "*.txt"),
                    help="seed pages (default ../shared/seeds/*.txt from the repo root; skipped when absent)")
    ap.add_argument("--calibration", default=os.path.join(os.path.dirname(os.path.dirname(HERE)), "assets", "calibration",
                                                          "llamacpp_speed.jsonl"))
    a = ap.parse_args()

    errors, warnings = [], []
    try:
        doc = json.load(open(a.path))
    except Exception as e:
        print("ERROR: %s: not valid JSON: %s" % (a.path, e))
        return 1
    if doc.get("schema") != "llmsim-hardware/1":
        errors.append("schema must be 'llmsim-hardware/1' (got %r)" % doc.get("schema"))
    devs = doc.get("devices")
    if not isinstance(devs, list) or not devs:
        print("ERROR: 'devices' must be a non-empty list")
        return 1

    names = {}  # lower-cased name -> device id
    estimated = collections.Counter()
    for i, d in enumerate(devs):
        w = "devices[%d] (%s)" % (i, d.get("id", "?"))
        if not isinstance(d, dict):
            errors.append(w + ": must be an object"); continue
        for k, types in REQUIRED.items():
            if k not in d:
                errors.append("%s: missing key '%s'" % (w, k))
            elif not isinstance(d[k], types) or (isinstance(d[k], bool) and bool not in types):
                errors.append("%s: '%s' has type %s" % (w, k, type(d[k]).__name__))
        for k in OPTIONAL_LISTS:
            if k in d and not (isinstance(d[k], list) and all(isinstance(x, str) and x for x in d[k])):
                errors.append("%s: '%s' must be a list of non-empty strings" % (w, k))
        for k in ("seed_aliases", "sources", "notes", "backends"):
            if isinstance(d.get(k), list) and not all(isinstance(x, str) and x for x in d[k]):
                errors.append("%s: '%s' must hold non-empty strings" % (w, k))
        if not d.get("sources"):
            errors.append(w + ": 'sources' must list at least one source")
        hid = d.get("id")
        if isinstance(hid, str):
            if hid != hid.lower() or not re.fullmatch(r"[a-z0-9][a-z0-9.+-]*", hid):
                errors.append("%s: id must be a lower-case slug" % w)
        if d.get("vendor") not in VENDORS:
            errors.append("%s: vendor %r not in %s" % (w, d.get("vendor"), sorted(VENDORS)))
        if d.get("kind") not in KINDS:
            errors.append("%s: kind %r not in %s" % (w, d.get("kind"), KINDS))
        if "chip_family" not in d:
            errors.append("%s: missing key 'chip_family' (one of %s)" % (w, ", ".join(CHIP_FAMILIES)))
        elif d["chip_family"] not in CHIP_FAMILIES:
            errors.append("%s: chip_family %r is unknown (valid: %s)" % (w, d["chip_family"], ", ".join(CHIP_FAMILIES)))
        bk = d.get("backends") or []
        if not bk or any(b not in BACKENDS for b in bk) or len(set(bk)) != len(bk):
            errors.append("%s: backends %r must be a non-empty list of distinct %s" % (w, bk, sorted(BACKENDS)))
        for k in POSITIVE:
            v = d.get(k)
            if v is not None and not isinstance(v, bool) and isinstance(v, (int, float)) and not v > 0:
                errors.append("%s: '%s' must be > 0 or null (got %r)" % (w, k, v))
        for k in RECOMMENDED:
            if d.get(k) is None:
                warnings.append("%s: '%s' is null" % (w, k))
        n = d.get("gpu_count")
        if isinstance(n, int) and n < 1:
            errors.append(w + ": gpu_count must be >= 1")
        if isinstance(n, int) and n > 1 and not (d.get("link") and d.get("link_gbs")):
            errors.append(w + ": gpu_count > 1 needs link and link_gbs")
        lo, hi = d.get("gpu_limit_default_mib"), d.get("gpu_limit_max_mib")
        mem = d.get("memory_mib")
        if lo and hi and lo > hi:
            errors.append("%s: gpu_limit_default_mib %s > gpu_limit_max_mib %s" % (w, lo, hi))
        for v, k in ((lo, "gpu_limit_default_mib"), (hi, "gpu_limit_max_mib")):
            if v and mem and v > mem:
                errors.append("%s: %s %s exceeds memory_mib %s" % (w, k, v, mem))
        if (lo or hi) and not d.get("gpu_limit_basis"):
            errors.append(w + ": gpu limits need gpu_limit_basis")
        if d.get("kind") == "apple" and not (lo and hi):
            errors.append(w + ": Apple devices need gpu_limit_default_mib and gpu_limit_max_mib")
        if d.get("cloud_usd_per_hour") and not d.get("cloud_source"):
            errors.append(w + ": cloud_usd_per_hour needs cloud_source")
        if (d.get("price_usd") or d.get("price_used_usd")) and not d.get("price_source"):
            errors.append(w + ": price needs price_source")
        if d.get("fp16_tflops") and not d.get("fp16_tflops_basis"):
            errors.append(w + ": fp16_tflops needs fp16_tflops_basis")
        for k, v in d.items():
            if k.endswith("_estimated"):
                base = k[: -len("_estimated")]
                if not isinstance(v, bool):
                    errors.append("%s: %s must be true/false" % (w, k))
                elif base not in d:
                    errors.append("%s: %s flags a missing field '%s'" % (w, k, base))
                elif v:
                    estimated[base] += 1
        for nm in [hid] + list(d.get("seed_aliases") or []) + list(d.get("calibration_names") or []) + list(d.get("tool_names") or []):
            if not isinstance(nm, str):
                continue
            key = nm.lower()
            if key in names and names[key] != hid:
                errors.append("%s: name %r also names device %r" % (w, nm, names[key]))
            names[key] = hid

    # the shared inputs, when present
    seed_rows = set()
    for f in glob.glob(a.seeds):
        for line in open(f, encoding="utf-8"):
            m = re.match(r"\| (.+?) \| [A-Z_]+ \| [\d.]+ / [\d.]+ GiB \|", line)
            if m:
                seed_rows.add(m.group(1))
    for r in sorted(seed_rows):
        if r.lower() not in names:
            errors.append("seed row %r is no device's seed alias" % r)
    cal = set()
    if os.path.exists(a.calibration):
        for line in open(a.calibration):
            if line.strip():
                cal.add(json.loads(line)["hardware"]["name"])
    for c in sorted(cal):
        if c.lower() not in names:
            errors.append("calibration hardware %r is no device's calibration name" % c)

    kinds = collections.Counter(d.get("kind") for d in devs if isinstance(d, dict))
    print("%s: %d devices" % (a.path, len(devs)))
    for k in KINDS:
        print("  %-12s %3d" % (k, kinds.get(k, 0)))
    print("  rigs (gpu_count > 1): %d" % sum(1 for d in devs if isinstance(d, dict) and (d.get("gpu_count") or 1) > 1))
    print("seed rows checked: %d, calibration names checked: %d" % (len(seed_rows), len(cal)))
    print("estimated values: " + (", ".join("%s %d" % kv for kv in sorted(estimated.items())) or "none"))
    for m in warnings:
        print("warning: " + m)
    for m in errors:
        print("ERROR: " + m)
    print("OK" if not errors else "%d error(s)" % len(errors))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
