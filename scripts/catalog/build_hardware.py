#!/usr/bin/env python3
"""Build assets/catalog/hardware.json from the reference data's hardware.json plus the additions and
corrections listed below (every value added here names its public source; estimates carry <field>_estimated).
The catalog copies each reference device's own `sources` (URLs, repo@commit:path), never the reference's path.

usage: python3 scripts/catalog/build_hardware.py [--ref DIR] [--seeds DIR] [--out FILE]
  --ref DIR    reference folder with hardware.json, hardware_added_2025.json, prices/gpu_hourly.json
               (default: ../shared/reference relative to the repository root)
  --seeds DIR  seed leaderboard pages *.txt (default: ../shared/seeds relative to the repository root)
"""
import argparse, json, os, re, sys, glob

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
_ap = argparse.ArgumentParser(description="build assets/catalog/hardware.json from the reference data")
_ap.add_argument("--ref", default=os.path.join(REPO, "..", "shared", "reference"))
_ap.add_argument("--seeds", default=os.path.join(REPO, "..", "shared", "seeds"))
_ap.add_argument("--out", default=os.path.join(REPO, "assets", "catalog", "hardware.json"))
_args = _ap.parse_args()
for _f in ("hardware.json", "hardware_added_2025.json", os.path.join("prices", "gpu_hourly.json")):
    if not os.path.isfile(os.path.join(_args.ref, _f)):
        sys.exit("build_hardware.py: %s not found in the reference folder %s (pass --ref DIR)" % (_f, _args.ref))
REF = os.path.join(_args.ref, "hardware.json")
OUT = _args.out
HOURLY = os.path.join(_args.ref, "prices", "gpu_hourly.json")
SEEDS = os.path.join(_args.seeds, "*.txt")

ref = json.load(open(REF))
R = {d["name"]: d for d in ref["devices"]}
hourly = json.load(open(HOURLY))

FS = "public repo files found by full-text code search (find_string; repo paths not exposed), ids "
PCIE4 = ("PCI-SIG PCIe 4.0: 16 GT/s per lane, 128b/130b encoding -> 1.97 GB/s per lane per direction, "
         "x16 = 31.5 GB/s per direction (commonly quoted 32 GB/s)")
PCIE5 = "PCI-SIG PCIe 5.0: 32 GT/s per lane, 128b/130b -> x16 = 63 GB/s per direction (commonly quoted 64 GB/s)"
APPLE_RULE_SRC = ("Apple Metal recommendedMaxWorkingSetSize rule, reference _memory_limit_rules.apple_metal_working_set "
                  "(16 GB 10922.67 MiB; 32 GB 21845.34 MiB; 64 GB 49152 MiB; 96 GB 73728 MiB; 256 GiB 228066 MiB; "
                  "512 GB 475136.2 MiB) plus " + FS + "63159938615 / 55272127659 (M4 Max 36 GB, macOS 15.7.7: "
                  "'recommendedMaxWorkingSetSize = 28991.03 MB' = 27648 MiB = 75%; rule '<= 32 GB: 2/3 of RAM, >= 36 GB: 3/4', "
                  "'a 48 GB Mac gets 36 GB', 'Leave ~8-16 GB for the OS', '512 GB owners raise to ~448-500 GB'), "
                  "62097273165 (Apple M4 Max 128 GB, llama.cpp build 8468: 'recommendedMaxWorkingSetSize = 103079.22 MB' "
                  "= 98304 MiB = 75%, 'MTL0: 98304 = ... free'), 56942489071 (8 GB Mac: 5461 MiB = 2/3)")

# ------------------------------------------------------------------------------------------------------
# cloud: cheapest on-demand per GPU from gpu_hourly.json (rows that price only the GPU component excluded)
def cloud(key, pred=None, note=None):
    rows = [r for r in hourly[key] if r.get("on_demand") and "GPU component only" not in r["provider"]
            and (pred is None or pred(r))]
    r = min(rows, key=lambda r: r["on_demand"])
    src = "%s: $%s/GPU-h on-demand (%s%s); %s; date: %s (gpu_hourly.json key '%s')" % (
        r["provider"], r["on_demand"], r.get("instance") or "", (" - " + r["note"]) if r.get("note") else "",
        r["source"], r.get("date"), key)
    if note: src += "; " + note
    return r["on_demand"], src

# ------------------------------------------------------------------------------------------------------
def base(refname):
    d = R[refname]
    return d

def mk(**kw):
    dev = {
        "id": None, "name": None, "vendor": None, "kind": None, "chip_family": None, "backends": None,
        "gpu_count": 1, "link": None, "link_gbs": None,
        "memory_mib": None, "memory_basis": None, "bandwidth_gbs": None, "memory_kind": None,
        "fp16_tflops": None, "fp16_tflops_basis": None, "fp16_tflops_estimated": False,
        "int8_tops": None, "tdp_w": None,
        "price_usd": None, "price_used_usd": None, "price_source": None,
        "cloud_usd_per_hour": None, "cloud_source": None,
        "gpu_limit_default_mib": None, "gpu_limit_max_mib": None, "gpu_limit_basis": None,
        "system_ram_gib": None, "system_ram_bandwidth_gbs": None,
        "seed_aliases": [], "calibration_names": [], "sources": [], "notes": [],
    }
    dev.update(kw)
    return dev

def from_ref(refname, **kw):
    d = R[refname]
    v = d["vendor"].lower()
    dev = mk(name=d["name"], vendor=v, kind=d["kind"],
             memory_mib=d["memory_reported_mib"], memory_basis=d["memory_reported_basis"],
             bandwidth_gbs=d["memory_bandwidth_gbs"], fp16_tflops=d["fp16_tflops_roofline"],
             fp16_tflops_basis=d["fp16_tensor_basis"] or d["fp16_tflops_roofline_basis"],
             int8_tops=d["int8_tops_dense"], tdp_w=d["tdp_w"], price_usd=d["launch_msrp_usd"],
             price_used_usd=d["street_price_usd"],
             seed_aliases=list(d["seed_aliases"]), sources=list(d["sources"]),
             notes=["reference: " + n for n in d["notes"]])
    if d["launch_msrp_usd"]:
        dev["price_source"] = "reference launch_msrp_usd (HF hub hardware.ts 'msrp', approximate; for datacenter parts a street price)"
    if d["street_price_usd"]:
        dev["price_source"] = (dev["price_source"] + "; " if dev["price_source"] else "") + \
            "used: reference street_price_usd (" + (d["street_price_basis"] or "") + ")"
    dev.update(kw)
    return dev

NV_DESKTOP_RAM = dict(system_ram_gib=64, system_ram_bandwidth_gbs=89.6, system_ram_gib_estimated=True,
                      system_ram_bandwidth_gbs_estimated=True)
RAM_NOTE = ("system_ram_gib / system_ram_bandwidth_gbs are an assumed typical desktop host (64 GiB DDR5-5600 dual channel "
            "= 5600 MT/s x 8 B x 2 = 89.6 GB/s), not a property of the card")

devices = []
def add(d):
    devices.append(d)
    return d

# ====================================================================================== datacenter (NVIDIA)
c, cs = cloud("H200")
add(from_ref("NVIDIA H200 SXM 141GB", id="h200-sxm", name="NVIDIA H200 SXM 141GB", backends=["cuda"],
             cloud_usd_per_hour=c, cloud_source=cs))
c, cs = cloud("H100 SXM")
add(from_ref("NVIDIA H100 SXM 80GB", id="h100-sxm", backends=["cuda"], cloud_usd_per_hour=c, cloud_source=cs))
c, cs = cloud("H100 PCIe")
add(from_ref("NVIDIA H100 PCIe 80GB", id="h100-pcie", backends=["cuda"], cloud_usd_per_hour=c, cloud_source=cs,
             calibration_names=["NVIDIA H100 PCIe 80GB"],
             notes=["reference price: none (launch_msrp_usd null); price_usd left null"]))
c, cs = cloud("H100 NVL")
add(mk(id="h100-nvl", name="NVIDIA H100 NVL 94GB", vendor="nvidia", kind="datacenter", backends=["cuda"],
       memory_mib=95830, memory_basis="nvidia-smi total ('NVIDIA H100 NVL, 95830 MiB')",
       bandwidth_gbs=3900, fp16_tflops=835.5, fp16_tflops_basis="dense FP16/BF16 tensor = NVIDIA datasheet 1,671 TFLOPS (with sparsity) / 2",
       int8_tops=1670.5, tdp_w=400, cloud_usd_per_hour=c, cloud_source=cs,
       sources=["NVIDIA H100 datasheet (H100 NVL column): 94 GB HBM3, 3.9 TB/s, FP16/BF16 Tensor 1,671 TFLOPS*, INT8 3,341 TOPS* (*with sparsity), 350-400 W configurable",
                FS + "55624420197, 58799136268, 60814705077 (nvidia-smi 'NVIDIA H100 NVL, 95830 MiB')", cs],
       notes=["tdp_w = top of NVIDIA's 350-400 W configurable range", "no sourced purchase price; price_usd null"]))
c, cs = cloud("A100 80GB", pred=lambda r: "SXM" in r["provider"] or "SXM" in (r.get("instance") or "") or "p4de" in r["provider"])
add(from_ref("NVIDIA A100 SXM 80GB", id="a100-sxm-80gb", backends=["cuda"], cloud_usd_per_hour=c, cloud_source=cs))
c, cs = cloud("A100 40GB")
add(from_ref("NVIDIA A100 SXM 40GB", id="a100-sxm-40gb", backends=["cuda"], cloud_usd_per_hour=c, cloud_source=cs))
c, cs = cloud("A100 80GB", pred=lambda r: "PCIe" in r["provider"] or "PCIE" in (r.get("instance") or "") or "PCIe" in (r.get("instance") or ""))
add(from_ref("NVIDIA A100 PCIe 80GB", id="a100-pcie-80gb", backends=["cuda"], cloud_usd_per_hour=c, cloud_source=cs,
             calibration_names=["NVIDIA A100 PCIe 80GB"]))
c, cs = cloud("L40S")
add(from_ref("NVIDIA L40S 48GB", id="l40s", backends=["cuda", "vulkan"], cloud_usd_per_hour=c, cloud_source=cs,
             calibration_names=["NVIDIA L40S"]))
c, cs = cloud("L4")
add(from_ref("NVIDIA L4 24GB", id="l4", backends=["cuda", "vulkan"], cloud_usd_per_hour=c, cloud_source=cs))
c, cs = cloud("A10G")
add(from_ref("NVIDIA A10G 24GB (AWS)", id="a10g", backends=["cuda", "vulkan"], cloud_usd_per_hour=c, cloud_source=cs,
             memory_mib=22731, memory_basis="nvidia-smi/torch total 'NVIDIA A10G, 22731 MiB' (one sourced output; a measured report of 22.1 GiB agrees); not the A10's 23028 MiB",
             tdp_w=None))
devices[-1]["sources"].append(FS + "62761274207 ('GPU Info: NVIDIA A10G, 22731 MiB'), 66843676290 ('NVIDIA A10G, 22.1 GiB')")
t4 = R["NVIDIA T4 16GB"]
add(from_ref("NVIDIA T4 16GB", id="t4", backends=["cuda", "vulkan"], cloud_usd_per_hour=t4["cloud_usd_per_hr"]["aws_g4dn.xlarge"],
             cloud_source="AWS EC2 g4dn.xlarge (1x T4) $0.526/h on-demand, reference cloud_prices (" +
             "; ".join(p["source"] for p in t4["cloud_prices"] if "g4dn" in p["instance"]) + "); not in gpu_hourly.json"))
c, cs = cloud("B200 (extra)")
add(from_ref("NVIDIA B200 (HGX/DGX)", id="b200", name="NVIDIA B200 180GB (HGX/DGX)", backends=["cuda"],
             memory_mib=183359, memory_basis="nvidia-smi total ('NVIDIA B200, 183,359 MiB'; NVIDIA exposes 180 GB of the 192 GB HBM3e)",
             cloud_usd_per_hour=c, cloud_source=cs))
devices[-1]["sources"].append(FS + "66855568803 ('1 x NVIDIA B200, 183,359 MiB')")
c, cs = cloud("GH200 (extra)")
gh = add(from_ref("NVIDIA GH200 Grace Hopper (GPU part)", id="gh200-96gb", name="NVIDIA GH200 Grace Hopper 96GB (GPU part)",
                  backends=["cuda"], memory_mib=97871, memory_basis="nvidia-smi total ('NVIDIA GH200 480GB, 97871 MiB'; 96 GB HBM3 variant)",
                  bandwidth_gbs=4000, cloud_usd_per_hour=c, cloud_source=cs))
gh["sources"].append(FS + "53660951180, 66196318461, 63088167599 ('NVIDIA GH200 480GB, 97871 MiB')")
gh["notes"].append("catalog entry = the 96 GB HBM3 / 4000 GB/s variant (what Lambda rents); the 141 GB HBM3e variant has 4800 GB/s. "
                   "tdp_w 900 is a module (CPU+GPU+memory) figure from the reference, not a GPU-only TDP")
c, cs = cloud("MI300X")
add(from_ref("AMD Instinct MI300X", id="mi300x", backends=["rocm"], cloud_usd_per_hour=c, cloud_source=cs))
m325 = add(from_ref("AMD Instinct MI325X", id="mi325x", backends=["rocm"], memory_mib=262128, memory_mib_estimated=True,
                    memory_basis="estimated: 256 GiB - 16 MiB, by analogy with MI300X (rocm-smi 196592 MiB = 192 GiB - 16 MiB)"))
m325["notes"].append("memory_mib estimated (no rocm-smi output found for MI325X)")
# fix (issue 13): the reference's 1300 is a rounded figure; the MI325X keeps the MI300X's CDNA3 compute
m325["fp16_tflops"] = 1307.4
m325["fp16_tflops_basis"] = "dense FP16/BF16 matrix peak, same CDNA3 compute as MI300X"
m325["sources"].append("https://awesomeagents.ai/hardware/amd-mi325x (key specifications: FP16 / BF16 1,307.4 TFLOPS, FP8 2,614.9, 256GB HBM3e, 6,000 GB/s); "
                       "https://yobitel.com/knowledge-base/amd-mi325x (BF16 matrix 1,307 TFLOPS for MI325X and MI300X)")
m325["notes"].append("fp16_tflops 1300 (reference, stas00/ml-engineering rounded) -> 1307.4 (sources above)")

# ====================================================================================== workstation
c, cs = cloud("RTX PRO 6000 (Blackwell, 96GB)")
p6 = add(from_ref("NVIDIA RTX PRO 6000 Blackwell 96GB (Workstation)", id="rtx-pro-6000", name="NVIDIA RTX PRO 6000 Blackwell 96GB",
                  backends=["cuda", "vulkan"], int8_tops=1007.6, int8_tops_estimated=True, cloud_usd_per_hour=c,
                  cloud_source=cs + "; note: the cheapest offer is the Server Edition (same GB202, 96 GB, 1792 GB/s); cheapest Workstation Edition offer is RunPod $1.89"))
p6["notes"].append("int8_tops estimated = 2 x dense FP16 (NVIDIA tensor-core INT8 rate; equals 4000 AI TOPS FP4-sparse / 4)")
c, cs = cloud("RTX 6000 Ada")
add(from_ref("NVIDIA RTX 6000 Ada 48GB", id="rtx-6000-ada", backends=["cuda", "vulkan"], cloud_usd_per_hour=c, cloud_source=cs,
             calibration_names=["NVIDIA RTX 6000 Ada", "NVIDIA RTX 6000 Ada Generation"]))
c, cs = cloud("RTX A6000")
add(from_ref("NVIDIA RTX A6000 48GB", id="rtx-a6000", backends=["cuda", "vulkan"], cloud_usd_per_hour=c, cloud_source=cs,
             calibration_names=["NVIDIA RTX A6000"]))
w79 = add(from_ref("AMD Radeon PRO W7900", id="radeon-pro-w7900", backends=["rocm", "vulkan"],
                   memory_mib=49136, memory_mib_estimated=True,
                   memory_basis="estimated: 48 GiB - 16 MiB, by analogy with RX 7900 XTX (rocm-smi 25753026560 B = 24 GiB - 16 MiB)",
                   fp16_tflops=122.6, fp16_tflops_estimated=True,
                   fp16_tflops_basis="estimated: RDNA3 WMMA FP16 runs at the packed-FP16 rate = 2 x FP32 (AMD lists 61.3 FP32 TFLOPS for W7900); no AMD matrix figure in the corpus"))

# ====================================================================================== consumer NVIDIA
def geforce(refname, gid, **kw):
    d = from_ref(refname, id=gid, backends=["cuda", "vulkan"], **NV_DESKTOP_RAM)
    d.update(kw)
    d["notes"].append(RAM_NOTE)
    return add(d)

c, cs = cloud("RTX 5090")
geforce("NVIDIA GeForce RTX 5090", "rtx-5090", cloud_usd_per_hour=c, cloud_source=cs)
g = geforce("NVIDIA GeForce RTX 5080", "rtx-5080", memory_mib=16303, memory_basis="nvidia-smi total ('NVIDIA GeForce RTX 5080, 16303 MiB')")
g["sources"].append(FS + "59896807685, 70979047910 ('NVIDIA GeForce RTX 5080, 16303 MiB')")
geforce("NVIDIA GeForce RTX 5070 Ti", "rtx-5070-ti")
add(mk(id="rtx-5070", name="NVIDIA GeForce RTX 5070", vendor="nvidia", kind="consumer", backends=["cuda", "vulkan"],
       memory_mib=12227, memory_basis="nvidia-smi total ('NVIDIA GeForce RTX 5070, 12227 MiB')", bandwidth_gbs=672,
       fp16_tflops=123.5, fp16_tflops_estimated=True,
       fp16_tflops_basis="derived: NVIDIA '988 AI TOPS' (FP4, sparse) / 8 = dense FP16 tensor with FP16 accumulate (the same ratio gives the whitepaper values 5090 3352/8 = 419, 5080 1801/8 = 225); FP32-accumulate is half",
       int8_tops=247, int8_tops_estimated=True, tdp_w=250, price_usd=549,
       price_source="NVIDIA launch MSRP $549 (CES 2025 announcement)", **NV_DESKTOP_RAM,
       sources=["NVIDIA GeForce RTX 5070 family specs page: 12 GB GDDR7, 192-bit, 28 Gbps (672 GB/s), 988 AI TOPS, 250 W total graphics power",
                FS + "52462892002, 70375044307 ('NVIDIA GeForce RTX 5070, 12227 MiB')"],
       notes=[RAM_NOTE, "int8_tops estimated = 2 x FP16-accumulate dense (GeForce tensor INT8 rate)"]))
g = geforce("NVIDIA GeForce RTX 5060 Ti 16GB", "rtx-5060-ti-16gb", memory_mib=16311,
            memory_basis="nvidia-smi total ('NVIDIA GeForce RTX 5060 Ti, 16311 MiB')",
            fp16_tflops=94.9, fp16_tflops_estimated=True,
            fp16_tflops_basis="derived: NVIDIA '759 AI TOPS' (FP4, sparse; reference other_compute) / 8 = dense FP16 tensor with FP16 accumulate (ratio checked on 5090/5080 whitepaper values)",
            int8_tops=189.8, int8_tops_estimated=True)
g["sources"].append(FS + "70437801548, 68612646773 ('NVIDIA GeForce RTX 5060 Ti, 16311 MiB')")
c, cs = cloud("RTX 4090")
geforce("NVIDIA GeForce RTX 4090", "rtx-4090", cloud_usd_per_hour=c, cloud_source=cs, calibration_names=["NVIDIA GeForce RTX 4090"])
devices[-1]["sources"].append(FS + "70102106189, 30903103457 ('NVIDIA GeForce RTX 4090, 24564MiB')")
add(mk(id="rtx-4080-super", name="NVIDIA GeForce RTX 4080 SUPER", vendor="nvidia", kind="consumer", backends=["cuda", "vulkan"],
       memory_mib=16376, memory_basis="nvidia-smi total ('NVIDIA GeForce RTX 4080 SUPER, 16376 MiB')", bandwidth_gbs=736,
       fp16_tflops=209, fp16_tflops_estimated=True,
       fp16_tflops_basis="derived: NVIDIA '836 AI TOPS' (FP8, sparse) / 4 = dense FP16 tensor with FP16 accumulate (ratio checked: 4090 1321/4 = 330.3, 4080 780/4 = 195 whitepaper values)",
       int8_tops=418, int8_tops_estimated=True, tdp_w=320, price_usd=999, price_source="NVIDIA launch MSRP $999 (Jan 2024); reference 4080 entry note 'HF msrp 1000'",
       **NV_DESKTOP_RAM,
       sources=["NVIDIA GeForce RTX 4080 family specs page: 16 GB GDDR6X 256-bit 23 Gbps (736 GB/s), 836 AI TOPS, 320 W",
                "reference device 'NVIDIA GeForce RTX 4080' note: '4080 SUPER: 736 GB/s per llmfit, HF msrp 1000'",
                FS + "63279488231, 2900232160, 68925213521 ('NVIDIA GeForce RTX 4080 SUPER, 16376 MiB')"],
       notes=[RAM_NOTE]))
geforce("NVIDIA GeForce RTX 4080", "rtx-4080")
g = geforce("NVIDIA GeForce RTX 4070 Ti SUPER", "rtx-4070-ti-super", memory_mib=16376,
            memory_basis="nvidia-smi total ('NVIDIA GeForce RTX 4070 Ti SUPER, 16376 MiB')",
            fp16_tflops=176.5, fp16_tflops_estimated=True,
            fp16_tflops_basis="derived: NVIDIA '706 AI TOPS' (FP8, sparse) / 4 = dense FP16 tensor with FP16 accumulate (ratio checked on 4090/4080 whitepaper values)",
            int8_tops=353, int8_tops_estimated=True)
g["sources"] += [FS + "66086741699, 60500521979, 71447553765 ('NVIDIA GeForce RTX 4070 Ti SUPER, 16376 MiB')",
                 "NVIDIA GeForce RTX 4070 family specs page: RTX 4070 Ti SUPER 706 AI TOPS"]
add(mk(id="rtx-4070-ti", name="NVIDIA GeForce RTX 4070 Ti", vendor="nvidia", kind="consumer", backends=["cuda", "vulkan"],
       memory_mib=12282, memory_basis="nvidia-smi total ('NVIDIA GeForce RTX 4070 Ti, 12282')", bandwidth_gbs=504,
       fp16_tflops=160.4, fp16_tflops_basis="dense FP16 tensor with FP16 accumulate as in calibration/llamacpp_speed.jsonl (160.4 = 4 x 40.1 FP32 TFLOPS; NVIDIA '641 AI TOPS' FP8-sparse / 4 = 160.3)",
       int8_tops=320.8, int8_tops_estimated=True, tdp_w=285, price_usd=799, price_source="NVIDIA launch MSRP $799 (Jan 2023)",
       **NV_DESKTOP_RAM, calibration_names=["NVIDIA GeForce RTX 4070 Ti"],
       sources=["calibration/llamacpp_speed.jsonl hardware object 'NVIDIA GeForce RTX 4070 Ti' (12 GB, 504 GB/s, 160.4 TFLOPS)",
                "NVIDIA GeForce RTX 4070 family specs page: 12 GB GDDR6X 192-bit 21 Gbps (504 GB/s), 641 AI TOPS, 285 W",
                FS + "59226727508, 61122502178, 56692893068 ('RTX 4070 Ti, 12282 MiB')"],
       notes=[RAM_NOTE]))
add(mk(id="rtx-4070-super", name="NVIDIA GeForce RTX 4070 SUPER", vendor="nvidia", kind="consumer", backends=["cuda", "vulkan"],
       memory_mib=12282, memory_basis="nvidia-smi total ('NVIDIA GeForce RTX 4070 SUPER, 12282 MiB')", bandwidth_gbs=504,
       fp16_tflops=142, fp16_tflops_estimated=True,
       fp16_tflops_basis="derived: NVIDIA '568 AI TOPS' (FP8, sparse) / 4 = dense FP16 tensor with FP16 accumulate",
       int8_tops=284, int8_tops_estimated=True, tdp_w=220, price_usd=599, price_source="NVIDIA launch MSRP $599 (Jan 2024)",
       **NV_DESKTOP_RAM,
       sources=["NVIDIA GeForce RTX 4070 family specs page: RTX 4070 SUPER 12 GB GDDR6X 192-bit 21 Gbps (504 GB/s), 568 AI TOPS, 220 W",
                FS + "70988180960, 61474199329, 63006206779 ('NVIDIA GeForce RTX 4070 SUPER, 12282 MiB')"],
       notes=[RAM_NOTE]))
g = geforce("NVIDIA GeForce RTX 4060 Ti 16GB", "rtx-4060-ti-16gb", memory_mib=16380,
            memory_basis="nvidia-smi total ('NVIDIA GeForce RTX 4060 Ti, 16380 MiB')",
            fp16_tflops=88.3, fp16_tflops_estimated=True,
            fp16_tflops_basis="derived: NVIDIA '353 AI TOPS' (FP8, sparse; reference other_compute) / 4 = dense FP16 tensor with FP16 accumulate",
            int8_tops=176.5, int8_tops_estimated=True)
g["sources"].append(FS + "68909137057, 62932015117 ('NVIDIA GeForce RTX 4060 Ti, 16380 MiB')")
c, cs = cloud("RTX 3090")
r3090 = geforce("NVIDIA GeForce RTX 3090", "rtx-3090", cloud_usd_per_hour=c, cloud_source=cs,
                calibration_names=["NVIDIA GeForce RTX 3090"], price_used_usd=750,
                price_source="new: reference launch_msrp_usd 1499; used: reference 'NVIDIA GeForce RTX 3090 (used)' street price $750 (third-party used-market estimate, 2026-05-16)")
r3090["notes"].append("nvidia-smi total depends on driver/vBIOS: 24576 MiB on recent drivers (e.g. driver 580), 24268 MiB in many 2021-2023 outputs; "
                      "24576 kept (reference value)")
r3090["sources"].append(FS + "53788764358, 71164324276 ('NVIDIA GeForce RTX 3090, 24576MiB', driver 580) and 15039117129, 2562204, 20185048437 ('24268MiB')")
g = geforce("NVIDIA GeForce RTX 3090 Ti", "rtx-3090-ti", memory_mib=24564, memory_basis="nvidia-smi total ('NVIDIA GeForce RTX 3090 Ti, 24564 MiB')")
g["sources"].append(FS + "51916399494 ('NVIDIA GeForce RTX 3090 Ti, 24564 MiB')")
geforce("NVIDIA GeForce RTX 3080 10GB", "rtx-3080", calibration_names=["NVIDIA GeForce RTX 3080"])
add(mk(id="rtx-3070", name="NVIDIA GeForce RTX 3070", vendor="nvidia", kind="consumer", backends=["cuda", "vulkan"],
       memory_mib=8192, memory_basis="nvidia-smi total ('NVIDIA GeForce RTX 3070, 8192 MiB')", bandwidth_gbs=448,
       fp16_tflops=81.3, fp16_tflops_basis="dense FP16 tensor with FP16 accumulate as in calibration/llamacpp_speed.jsonl (= 4 x 20.3 FP32 TFLOPS; NVIDIA '163 tensor TFLOPS' FP16-sparse / 2 = 81.5)",
       int8_tops=162.6, int8_tops_estimated=True, tdp_w=220, price_usd=499, price_source="NVIDIA launch MSRP $499 (Sep 2020)",
       **NV_DESKTOP_RAM, calibration_names=["NVIDIA GeForce RTX 3070"],
       sources=["calibration/llamacpp_speed.jsonl hardware object 'NVIDIA GeForce RTX 3070' (8 GB, 448 GB/s, 81.3 TFLOPS)",
                "NVIDIA GeForce RTX 3070 specs: 8 GB GDDR6 256-bit 14 Gbps (448 GB/s), 220 W",
                FS + "69000024839, 68712350504 ('NVIDIA GeForce RTX 3070, 8192 MiB')"],
       notes=[RAM_NOTE]))
g = geforce("NVIDIA GeForce RTX 3060 12GB", "rtx-3060-12gb", fp16_tflops=50.5, fp16_tflops_estimated=True,
            fp16_tflops_basis="derived: NVIDIA '101 tensor TFLOPS' (FP16, sparse; reference other_compute) / 2 = dense FP16 tensor with FP16 accumulate; consistent with the reference int8 102")
add(mk(id="rtx-2080-ti", name="NVIDIA GeForce RTX 2080 Ti", vendor="nvidia", kind="consumer", backends=["cuda", "vulkan"],
       memory_mib=11264, memory_basis="nvidia-smi total ('NVIDIA GeForce RTX 2080 Ti, 11264 MiB')", bandwidth_gbs=616,
       fp16_tflops=107.6, fp16_tflops_basis="NVIDIA Turing whitepaper (Appendix, RTX 2080 Ti reference clocks): FP16 tensor with FP16 accumulate 107.6 TFLOPS (FP32 accumulate 53.8; Founders Edition 113.8)",
       int8_tops=215.2, tdp_w=250, price_usd=999, price_source="NVIDIA launch MSRP $999 (Founders Edition $1,199), Sep 2018; sold used today (no used price sourced)",
       **NV_DESKTOP_RAM,
       sources=["NVIDIA Turing GPU architecture whitepaper (2018), Table/Appendix for RTX 2080 Ti: 11 GB GDDR6 352-bit 14 Gbps (616 GB/s), 107.6 FP16-acc tensor TFLOPS, 215.2 INT8 TOPS, 250 W (FE 260 W)",
                FS + "57360265616, 62525336545, 15864383442 ('NVIDIA GeForce RTX 2080 Ti, 11264 MiB')"],
       notes=[RAM_NOTE, "Turing has no BF16; llama.cpp CUDA supports it (compute capability 7.5)"]))
r = R["NVIDIA GeForce RTX 3090 (used)"]
u = geforce("NVIDIA GeForce RTX 3090 (used)", "rtx-3090-used", name="NVIDIA GeForce RTX 3090 (used)",
            price_usd=None, price_used_usd=750, cloud_usd_per_hour=None,
            price_source="used: reference street_price_usd $750 (" + r["street_price_basis"] + ")")
u["notes"].append("same card as rtx-3090; separate device because the seed lists the used card as its own row; calibration rows for 'NVIDIA GeForce RTX 3090' map to rtx-3090")
add(mk(id="tesla-p40", name="NVIDIA Tesla P40 24GB", vendor="nvidia", kind="datacenter", backends=["cuda", "vulkan"],
       memory_mib=24576, memory_basis="nvidia-smi total ('Tesla P40 ... 0MiB / 24576MiB', ECC off; ECC on lowers it)",
       bandwidth_gbs=346, fp16_tflops=11.76, fp16_tflops_estimated=True,
       fp16_tflops_basis="no tensor cores and FP16 at 1/64 rate (0.18 TFLOPS): llama.cpp on Pascal computes in FP32 and DP4A INT8, so this is the FP32 peak 11.76 TFLOPS (NVIDIA P40 datasheet 12 TFLOPS FP32) used as the matmul rate; not an FP16 tensor figure",
       int8_tops=47, tdp_w=250, price_usd=None, price_used_usd=300, price_used_usd_estimated=True,
       price_source="used: estimated ~$300 (eBay range seen 2024-2025, unsourced here); no longer sold new",
       calibration_names=["NVIDIA Tesla P40"],
       sources=["NVIDIA Tesla P40 datasheet: 24 GB GDDR5, 346 GB/s, 12 TFLOPS FP32, 47 TOPS INT8, 250 W, passive",
                FS + "59719821347 ('Tesla P40 ... 0MiB /  24576MiB')",
                "calibration/llamacpp_speed.jsonl hardware object 'NVIDIA Tesla P40' (24 GB, fp16_tflops null)"],
       notes=["calibration/llamacpp_speed.jsonl gives bandwidth_gbs 694 for the P40, which is wrong: 384-bit GDDR5 at 7.2 Gbps = 345.6 GB/s (NVIDIA datasheet 346)",
              "passively cooled server card; people run it in desktops with added fans. system RAM left null"]))

# ====================================================================================== consumer AMD / Intel
amd_ram = dict(NV_DESKTOP_RAM)
x = add(from_ref("AMD Radeon RX 7900 XTX", id="rx-7900-xtx", backends=["rocm", "vulkan"], memory_mib=24560,
                 memory_basis="rocm-smi 'VRAM Total Memory (B): 25753026560' = 24560 MiB", calibration_names=["AMD Radeon RX 7900 XTX"],
                 fp16_tflops_estimated=False, **amd_ram))
x["sources"].append(FS + "26832242034, 68978239252, 70285684689 (rocm-smi 'VRAM Total Memory (B): 25753026560' for Radeon RX 7900 XTX)")
x["notes"].append(RAM_NOTE)
x = add(from_ref("AMD Radeon RX 9070 XT", id="rx-9070-xt", backends=["rocm", "vulkan"], memory_mib=16368, memory_mib_estimated=True,
                 memory_basis="estimated: 16 GiB - 16 MiB, by analogy with RX 7900 XTX (24 GiB - 16 MiB)",
                 fp16_tflops=194.7, fp16_tflops_estimated=True,
                 fp16_tflops_basis="derived: AMD '779 AI TOPS' (INT8 with sparsity; reference other_compute) / 2 = 389.5 dense INT8; RDNA4 WMMA FP16 dense = INT8 dense / 2 = 194.7",
                 int8_tops=389.5, int8_tops_estimated=True, **amd_ram))
x["notes"].append(RAM_NOTE)
add(mk(id="rx-7800-xt", name="AMD Radeon RX 7800 XT", vendor="amd", kind="consumer", backends=["rocm", "vulkan"],
       memory_mib=16368, memory_mib_estimated=True, memory_basis="estimated: 16 GiB - 16 MiB, by analogy with RX 7900 XTX (24 GiB - 16 MiB)",
       bandwidth_gbs=624, fp16_tflops=74.65, fp16_tflops_estimated=True,
       fp16_tflops_basis="AMD spec 'Peak Half Precision (FP16) 74.65 TFLOPs' (60 CU, dual-issue packed FP16); used as the WMMA matrix rate as for RX 7900 XTX; not verified in the corpus",
       tdp_w=263, price_usd=499, price_source="AMD launch MSRP $499 (Sep 2023)", **amd_ram,
       sources=["AMD Radeon RX 7800 XT product page: 16 GB GDDR6 256-bit 19.5 Gbps (624 GB/s), 60 CUs, 263 W typical board power"],
       notes=[RAM_NOTE, "gfx1101; ROCm/HIP and Vulkan backends in llama.cpp"]))
x = add(from_ref("Intel Arc B580", id="arc-b580", backends=["sycl", "vulkan"], memory_mib=12288, memory_mib_estimated=True,
                 memory_basis="estimated: 12 GiB nominal (no Level Zero / sycl-ls total found)", **amd_ram))
x["notes"].append(RAM_NOTE)
x = add(from_ref("Intel Arc A770", id="arc-a770-16gb", name="Intel Arc A770 16GB", backends=["sycl", "vulkan"], memory_mib=16384,
                 memory_mib_estimated=True, memory_basis="estimated: 16 GiB nominal (no Level Zero / sycl-ls total found)",
                 fp16_tflops=137.6, fp16_tflops_estimated=True,
                 fp16_tflops_basis="derived: 512 XMX engines x 128 FP16 ops/clk x 2.1 GHz (Xe-HPG XMX is half the width of Xe2's, whose 160 engines x 256 x 2.85 GHz = 117 matches Intel's B580 figure)",
                 int8_tops=275.2, int8_tops_estimated=True, **amd_ram))
x["notes"].append(RAM_NOTE)

# ====================================================================================== rigs
def rig(base_id, rid, name, n, link, link_gbs, link_src, **kw):
    b = next(d for d in devices if d["id"] == base_id)
    d = json.loads(json.dumps(b))
    d.update(id=rid, name=name, gpu_count=n, link=link, link_gbs=link_gbs, seed_aliases=[], calibration_names=[])
    d["sources"] = ["per-GPU values copied from device '%s'" % base_id] + b["sources"] + [link_src]
    d["notes"] = ["memory_mib, bandwidth_gbs, fp16_tflops, int8_tops, tdp_w and cloud_usd_per_hour are PER GPU (schema); "
                  "prices are for all %d GPUs (GPUs only, no host)" % n] + \
                 ["base: " + x for x in b["notes"] if not x.startswith("system_ram")]
    d.update(kw)
    return add(d)

r = R["2x NVIDIA GeForce RTX 3090 rig"]
x = rig("rtx-3090", "2x-rtx-3090", "2x NVIDIA GeForce RTX 3090 rig", 2, "pcie4-x16", 32, PCIE4,
        price_usd=None, price_used_usd=1500, price_source="used: reference street_price_usd $1,500 (" + r["street_price_basis"] + ")",
        link_gbs_estimated=True, seed_aliases=list(r["seed_aliases"]), system_ram_gib=64)
x["sources"] += [s for s in r["sources"] if s not in x["sources"]]  # the rig entry's own sources
x["notes"] += ["link assumed PCIe 4.0 x16 per card (many consumer boards give x8/x8 = 16 GB/s; an NVLink bridge gives ~56 GB/s per direction on the 3090)",
               "reference: " + r["notes"][2], "reference tdp_w 700 is the rig total; tdp_w here is per GPU", "cloud price: the cheapest RTX 3090 offer is itself a 2x instance ($0.33/h)",
               "calibration rows 'NVIDIA GeForce RTX 3090' with gpus = 2 describe this kind of rig (name matching stays on rtx-3090)"]
c, cs = cloud("RTX 3090")
x = rig("rtx-3090", "4x-rtx-3090", "4x NVIDIA GeForce RTX 3090 rig", 4, "pcie4-x16", 32, PCIE4,
        price_usd=None, price_used_usd=3000, price_used_usd_estimated=True,
        price_source="used: 4 x the reference $750 used-3090 price (GPUs only)", link_gbs_estimated=True,
        system_ram_gib=None, system_ram_bandwidth_gbs=None, cloud_usd_per_hour=0.1675,
        cloud_source="Vast.ai marketplace offer 4x RTX 3090 $0.67/h = $0.1675/GPU-h (gpu_hourly.json 'RTX 3090', skypilot-org/skypilot-catalog@01b8cdda287814b30ff0acb49746cca19fbd4355:catalogs/v8/vast/vms.csv, no date)")
x["notes"] += ["link assumed PCIe 4.0 x16 per card (server/workstation board); mining-style risers are x4/x1 and much slower",
               "calibration rows 'NVIDIA GeForce RTX 3090' with gpus = 4 describe this kind of rig"]
x = rig("rtx-4090", "2x-rtx-4090", "2x NVIDIA GeForce RTX 4090 rig", 2, "pcie4-x16", 32, PCIE4,
        price_usd=3198, price_source="2 x NVIDIA launch MSRP $1,599 (reference launch_msrp_usd)", link_gbs_estimated=True)
x["notes"] += ["RTX 4090 has no NVLink; GPU-to-GPU traffic goes over PCIe 4.0 (x16 assumed; x8/x8 boards give 16 GB/s)",
               "calibration rows 'NVIDIA GeForce RTX 4090' with gpus = 2 describe this kind of rig"]
x = rig("rtx-5090", "2x-rtx-5090", "2x NVIDIA GeForce RTX 5090 rig", 2, "pcie5-x16", 64, PCIE5,
        price_usd=3998, price_source="2 x NVIDIA launch MSRP $1,999 (reference launch_msrp_usd)", link_gbs_estimated=True)
x["notes"] += ["RTX 5090 has no NVLink; GPU-to-GPU over PCIe 5.0 (x16 per card assumed; most desktop boards split to x8/x8 = 32 GB/s)"]
x = rig("h100-sxm", "8x-h100-sxm", "8x NVIDIA H100 SXM 80GB (HGX, NVLink)", 8, "nvlink4", 450,
        "NVIDIA H100 datasheet: NVLink 900 GB/s per GPU (bidirectional total over 18 NVLink-4 links) -> 450 GB/s per direction; HGX H100 8-GPU uses NVSwitch (all-to-all)",
        price_usd=240000, price_usd_estimated=True, price_source="estimated: 8 x the reference approximate H100 SXM price $30,000 (GPUs only; an HGX/DGX system costs more)",
        cloud_usd_per_hour=2.0,
        cloud_source="Vast.ai marketplace offer 8x H100 SXM $16.00/h = $2.00/GPU-h (gpu_hourly.json 'H100 SXM', skypilot-org/skypilot-catalog@01b8cdda287814b30ff0acb49746cca19fbd4355:catalogs/v8/vast/vms.csv, no date); Lambda gpu_8x_h100_sxm5 $3.99/GPU-h")

# ====================================================================================== Apple
def apple_default(gb):
    mib = gb * 1024
    if gb == 256: return 228066.0, False, "measured: 239143780352 B = 228066 MiB (87%) on a 256 GiB Mac Studio (reference rule)"
    if gb == 512: return 475136.2, False, "measured: ggml 'recommendedMaxWorkingSetSize = 498216.21 MB' = 475136.2 MiB (90.6%) on a 512 GB M3 Ultra (reference rule)"
    measured = {8: "8 GB Mac 5461 MiB", 16: "M1 16 GB 10922.67 MiB", 32: "M1 Max / M2 Max 32 GB 21845.34 MiB",
                36: "M4 Max 36 GB 27648 MiB", 48: "'a 48 GB Mac gets 36 GB' (rule doc)", 64: "M1 Max 64 GB 49152 MiB",
                96: "M2 Max 96 GB 73728 MiB", 128: "M4 Max 128 GB 98304 MiB"}
    frac = 2.0 / 3.0 if gb <= 32 else 0.75
    v = round(mib * frac, 2)
    basis = ("macOS 13-15 default recommendedMaxWorkingSetSize: %s of RAM (<= 32 GB: 2/3, >= 36 GB: 3/4)" %
             ("2/3" if gb <= 32 else "3/4"))
    if gb in measured:
        return v, False, basis + "; measured at this RAM size: " + measured[gb]
    return v, True, basis + "; no measurement at %d GB (rule-derived)" % gb

def apple_max(gb):
    reserve = min(16, max(2, gb / 8.0))
    return (gb - reserve) * 1024

APPLE_MAX_BASIS = ("raised with 'sudo sysctl iogpu.wired_limit_mb=<MiB>' (resets on reboot): practical max = RAM - clamp(RAM/8, 2, 16) GiB "
                   "left to macOS (fits the sourced examples: 128 GB -> 114688 MiB = 112 GiB; 16 GB -> 14000 MiB works; 512 GB owners raise to ~448-500 GB; "
                   "'leave ~8-16 GB for the OS')")

SEED_LIMITS = {}
for f in sorted(glob.glob(SEEDS)):
    for line in open(f):
        m = re.match(r"\| (.+?) \| [A-Z_]+ \| [\d.]+ / ([\d.]+) GiB \|", line)
        if m: SEED_LIMITS[m.group(1)] = float(m.group(2))

def apple(refname, aid, name, gb, bw, gpu_cores, fp16, fp16_est, fp16_basis, price, price_est, price_src, chip_ref=None, **kw):
    d = from_ref(refname, id=aid, name=name, kind="apple", vendor="apple", backends=["metal", "cpu"],
                 memory_mib=gb * 1024, memory_basis="total unified RAM (hw.memsize / 2^20); Apple 'GB' = GiB",
                 bandwidth_gbs=bw, fp16_tflops=fp16, fp16_tflops_estimated=fp16_est, fp16_tflops_basis=fp16_basis,
                 int8_tops=None, price_usd=price, price_usd_estimated=price_est, price_source=price_src, price_used_usd=None,
                 system_ram_gib=gb, system_ram_bandwidth_gbs=bw)
    dv, dest, dbasis = apple_default(gb)
    d["gpu_limit_default_mib"] = dv
    d["gpu_limit_default_mib_estimated"] = dest
    d["gpu_limit_max_mib"] = round(apple_max(gb), 2)
    d["gpu_limit_max_mib_estimated"] = gb != 128
    d["gpu_limit_basis"] = "default: " + dbasis + ". max: " + APPLE_MAX_BASIS + \
        ". Newer macOS reports more by default (macOS 26: 24 GB M4 Pro 18186.25 MiB = 74%; 128 GB M5 Max / M1 Ultra 110100.48 MiB = 84%)."
    d["sources"].append(APPLE_RULE_SRC)
    if chip_ref:
        d["sources"].insert(1, "per-chip values from reference device '%s'" % chip_ref)
    d["notes"].insert(0, "GPU: %s-core; system_ram_* = the same unified pool" % gpu_cores)
    d.update(kw)
    return add(d)

APPLE_PRICE_EST = "estimated: Apple US configurator list price from Apple's published upgrade steps (not found in a stored source)"
ref_fp = lambda n: R[n]["fp16_tflops_roofline"]
PT = "philipturner/metal-benchmarks table (reference gpu_fp16_tflops): "
HF = "Hugging Face hub approximate GPU FP16 TFLOPS (reference fp16_tflops_roofline; no Apple or measured figure)"

apple("Apple M1", "m1-16", "Apple M1 (8-core GPU, 16 GB)", 16, 68.25, 8, 2.617, False, PT + "GPU FP16 peak = FP32 peak (no tensor units)",
      1250, False, "reference launch_msrp_usd (HF 'msrp' = Mac with this chip and largest memory option, approximate); discontinued")
apple("Apple M1 Pro", "m1-pro-32", "Apple M1 Pro (16-core GPU, 32 GB)", 32, 200, 16, 5.308, False, PT + "GPU FP16 peak (16-core)",
      2900, False, "reference launch_msrp_usd (HF approximate, largest memory option); discontinued")
apple("Apple M1 Max", "m1-max-64", "Apple M1 Max (32-core GPU, 64 GB)", 64, 400, 32, 10.62, False,
      PT + "GPU FP16 peak (32-core, clock x ALU); Apple quotes 10.4 TFLOPS (the calibration file uses 10.4)",
      3900, False, "reference launch_msrp_usd (HF approximate, largest memory option = 64 GB); discontinued",
      calibration_names=["Apple M1 Max (32-core GPU, 64GB)"])
x = apple("Apple M1 Ultra", "m1-ultra-128", "Apple Mac Studio M1 Ultra (64-core GPU, 128 GB)", 128, 800, 64, 21.23, False,
          PT + "GPU FP16 peak; 21.23 TFLOPS is the 64-core GPU (48-core: ~15.9)",
          6200, False, "reference launch_msrp_usd (HF approximate, largest memory option); discontinued")
x["notes"].append("reference lists gpu_cores [48] but its 21.23 TFLOPS is the 64-core figure; this entry is the 64-core GPU. "
                  "A 128 GB M1 Ultra was measured at 110100.48 MiB default working set (newer macOS); the 3/4 rule value is used")
apple("Apple M2", "m2-24", "Apple M2 (10-core GPU, 24 GB)", 24, 100, 10, 3.579, False, PT + "GPU FP16 peak (10-core)",
      1500, False, "reference launch_msrp_usd (HF approximate, largest memory option)")
apple("Apple M2 Pro", "m2-pro-32", "Apple M2 Pro (19-core GPU, 32 GB)", 32, 200, 19, 6.441, True,
      PT + "lower bound from leaked clocks (19-core)", 2800, False, "reference launch_msrp_usd (HF approximate, largest memory option)")
apple("Apple M2 Max", "m2-max-96", "Apple M2 Max (38-core GPU, 96 GB)", 96, 400, 38, 13.6, True,
      PT + "lower bound from leaked clocks (38-core)", 4500, False, "reference launch_msrp_usd (HF approximate, largest memory option = 96 GB)")
apple("Apple M2 Ultra", "m2-ultra-64", "Apple Mac Studio M2 Ultra (60-core GPU, 64 GB)", 64, 800, 60, round(27.2 * 60 / 76, 2), True,
      "scaled: " + PT + "27.2 TFLOPS lower bound for the 76-core GPU x 60/76 (base 60-core GPU)",
      3999, False, "reference note: 2023 Mac Studio M2 Ultra starts at $3,999 with 64 GB (24-core CPU, 60-core GPU)")
apple("Apple Mac Studio M2 Ultra 192GB", "m2-ultra-192", "Apple Mac Studio M2 Ultra (76-core GPU, 192 GB)", 192, 800, 76, 27.2, True,
      PT + "lower bound from leaked clocks (76-core)", 6599, True, APPLE_PRICE_EST + " ($3,999 + $1,000 76-core GPU + $1,600 192 GB)",
      chip_ref="Apple M2 Ultra")
apple("Apple M3", "m3-24", "Apple M3 (10-core GPU, 24 GB)", 24, 100, 10, 4.1, True, HF, 1500, False,
      "reference launch_msrp_usd (HF approximate, largest memory option)")
apple("Apple M3 Pro", "m3-pro-36", "Apple M3 Pro (18-core GPU, 36 GB)", 36, 150, 18, 7.4, True, HF, 2400, False,
      "reference launch_msrp_usd (HF approximate, largest memory option)")
apple("Apple M3 Max", "m3-max-48", "Apple M3 Max (40-core GPU, 48 GB)", 48, 400, 40, 14.2, True, HF, 3999, True,
      APPLE_PRICE_EST + " (14-inch MacBook Pro M3 Max 16-core CPU / 40-core GPU, 48 GB, 1 TB)")
apple("Apple MacBook Pro M3 Max 64GB", "m3-max-64", "Apple MacBook Pro M3 Max (40-core GPU, 64 GB)", 64, 400, 40, 14.2, True,
      HF + "; the calibration file uses 16.4 TFLOPS for this chip (unsourced there)", 4199, True, APPLE_PRICE_EST + " ($3,999 48 GB + $200)",
      chip_ref="Apple M3 Max", calibration_names=["Apple M3 Max (40-core GPU, 64GB)", "Apple M3 Max"])
apple("Apple MacBook Pro M3 Max 128GB", "m3-max-128", "Apple MacBook Pro M3 Max (40-core GPU, 128 GB)", 128, 400, 40, 14.2, True, HF,
      4999, True, APPLE_PRICE_EST + " ($3,999 48 GB + $1,000; consistent with the reference's maxed 16-inch 128 GB / 8 TB at $7,200)",
      chip_ref="Apple M3 Max")
apple("Apple M3 Ultra", "m3-ultra-96", "Apple Mac Studio M3 Ultra (60-core GPU, 96 GB)", 96, 819.2, 60, round(28.4 * 60 / 80, 2), True,
      "scaled: " + HF + " 28.4 for the 80-core GPU x 60/80 (base 60-core GPU)", 3999, False,
      "Macworld (via reference): Mac Studio M3 Ultra 28-core CPU / 60-core GPU / 96 GB / 1 TB $3,999")
x = apple("Apple Mac Studio M3 Ultra 256GB", "m3-ultra-256", "Apple Mac Studio M3 Ultra (80-core GPU, 256 GB)", 256, 819.2, 80, 28.4, True, HF,
          7099, True, APPLE_PRICE_EST + " ($3,999 + $1,500 32-core CPU/80-core GPU + $1,600 256 GB)", chip_ref="Apple M3 Ultra")
x["notes"].append("256 GB is also sold with the 60-core GPU ($5,599 est.); this entry assumes the 80-core GPU like the 512 GB one")
apple("Apple Mac Studio M3 Ultra 512GB", "m3-ultra-512", "Apple Mac Studio M3 Ultra (80-core GPU, 512 GB)", 512, 819.2, 80, 28.4, True, HF,
      9499, True, APPLE_PRICE_EST + " ($3,999 + $1,500 80-core GPU + $4,000 512 GB)", chip_ref="Apple M3 Ultra")
apple("Apple Mac mini M4 16GB", "m4-16", "Apple Mac mini M4 (10-core GPU, 16 GB)", 16, 120, 10, 4.6, True, HF,
      599, False, "reference: Mac mini M4 base (16 GB, 256 GB) $599", chip_ref="Apple M4")
apple("Apple Mac mini M4 24GB", "m4-24", "Apple Mac mini M4 (10-core GPU, 24 GB)", 24, 120, 10, 4.6, True, HF,
      799, False, "reference: $599 base + $200 for 24 GB", chip_ref="Apple M4")
apple("Apple M4", "m4-32", "Apple Mac mini M4 (10-core GPU, 32 GB)", 32, 120, 10, 4.6, True, HF,
      999, True, APPLE_PRICE_EST + " ($599 + $400 for 32 GB)")
apple("Apple M4 Pro", "m4-pro-24", "Apple Mac mini M4 Pro (16-core GPU, 24 GB)", 24, 273, 16, round(9.2 * 16 / 20, 2), True,
      "scaled: " + HF + " 9.2 for the 20-core GPU x 16/20 (base 16-core GPU)", 1399, False,
      "reference note: Mac mini M4 Pro starts at $1,399 with 24 GB")
apple("Apple Mac mini M4 Pro 48GB", "m4-pro-48", "Apple Mac mini M4 Pro (20-core GPU, 48 GB)", 48, 273, 20, 9.2, True, HF,
      1999, True, APPLE_PRICE_EST + " ($1,399 + $200 14-core CPU/20-core GPU + $400 48 GB)", chip_ref="Apple M4 Pro")
apple("Apple Mac mini M4 Pro 64GB", "m4-pro-64", "Apple Mac mini M4 Pro (20-core GPU, 64 GB)", 64, 273, 20, 9.2, True, HF,
      2199, True, APPLE_PRICE_EST + " ($1,399 + $200 20-core GPU + $600 64 GB)", chip_ref="Apple M4 Pro")
apple("Apple M4 Max", "m4-max-36", "Apple Mac Studio M4 Max (32-core GPU, 36 GB)", 36, 410, 32, round(18.4 * 32 / 40, 2), True,
      "scaled: " + HF + " 18.4 for the 40-core GPU x 32/40", 1999, False,
      "Macworld (via reference): Mac Studio M4 Max 14-core CPU / 32-core GPU / 36 GB / 512 GB $1,999")
apple("Apple Mac Studio M4 Max 64GB", "m4-max-64", "Apple Mac Studio M4 Max (40-core GPU, 64 GB)", 64, 546, 40, 18.4, True, HF,
      2699, True, APPLE_PRICE_EST + " ($2,499 16-core CPU/40-core GPU 48 GB + $200)", chip_ref="Apple M4 Max")
apple("Apple Mac Studio M4 Max 128GB", "m4-max-128", "Apple Mac Studio M4 Max (40-core GPU, 128 GB)", 128, 546, 40, 18.4, True, HF,
      3499, True, APPLE_PRICE_EST + " ($2,499 48 GB + $1,000)", chip_ref="Apple M4 Max")

# ====================================================================================== AMD APUs
STRIX_SRC = "reference _memory_limit_rules.amd_apu_linux_gtt / amd_apu_windows_vgm"
def strix(refname, aid, name, gb, price, price_est, price_src, default_mib, default_est, max_mib, max_est, **kw):
    d = from_ref(refname, id=aid, name=name, kind="apu", vendor="amd", backends=["rocm", "vulkan"],
                 memory_mib=gb * 1024, memory_basis="total system RAM (LPDDR5X-8000 256-bit, unified); the OS shows less because of the BIOS carve-out",
                 bandwidth_gbs=256, fp16_tflops=59.39, int8_tops=59.39, tdp_w=120,
                 price_usd=price, price_usd_estimated=price_est, price_source=price_src,
                 gpu_limit_default_mib=default_mib, gpu_limit_default_mib_estimated=default_est,
                 gpu_limit_max_mib=max_mib, gpu_limit_max_mib_estimated=max_est,
                 system_ram_gib=gb, system_ram_bandwidth_gbs=256)
    d["gpu_limit_basis"] = ("Linux: default amdgpu GTT = 1/2 of RAM (dmesg '63968M of GTT memory ready' on 128 GB) plus a 512 MB BIOS carve-out; "
                            "max: raise GTT with ttm.pages_limit (4 KiB pages; 120 GiB = 31457280 documented for 128 GB, 96 GiB = 25165824 measured -> "
                            "llama.cpp HIP 'Total VRAM: 98304 MiB'); for other sizes max = RAM - 8 GiB (same headroom as the documented 120 of 128). "
                            "Windows: AMD Variable Graphics Memory dedicates up to 96 GB of 128 GB")
    d["sources"].append(STRIX_SRC + ": " + "; ".join(ref["_memory_limit_rules"]["amd_apu_linux_gtt"]["sources"][:4]))
    d.update(kw)
    return add(d)

strix("AMD Ryzen AI Max+ 395 (Strix Halo)", "strix-halo-96", "AMD Ryzen AI Max+ 395 (Strix Halo) 96GB", 96, None, False,
      "reference launch_msrp_usd 1500 is the HF chip-family figure, not a system price; left null",
      round(63968 * 96 / 128, 1), True, 90112, True)
strix("AMD Ryzen AI Max+ 395 (Strix Halo) 64GB", "strix-halo-64", "AMD Ryzen AI Max+ 395 (Strix Halo) 64GB", 64, 1599, True,
      "estimated: Framework Desktop Ryzen AI Max+ 395 64 GB mainboard/system list price (not in a stored source); systems vary by OEM",
      round(63968 / 2, 1), True, 57344, True)
strix("AMD Ryzen AI Max+ 395 (Strix Halo) 128GB", "strix-halo-128", "AMD Ryzen AI Max+ 395 (Strix Halo) 128GB", 128, 1999, True,
      "estimated: Framework Desktop Ryzen AI Max+ 395 128 GB list price (not in a stored source); systems vary by OEM",
      63968, False, 122880, False,
      calibration_names=["AMD Ryzen AI Max+ 395 (Strix Halo, Radeon 8060S gfx1151, 128GB LPDDR5X-8000)",
                         "AMD Ryzen AI Max+ 395 / Radeon 8060S (128GB)"])

# the GPU FP16 peak of RDNA 3/3.5 iGPUs (the APU convention): the WMMA rate, one rule for every such chip
RDNA3_WMMA_SOURCE = "https://gpuopen.com/learn/using_matrix_core_amd_rdna4 (theoretical FP16 FLOPS/clock/CU: RDNA 2 256, RDNA 3 512 with WMMA)"

def hx370(refname, aid, name, gb, **kw):
    d = from_ref(refname, id=aid, name=name, kind="apu", vendor="amd", backends=["vulkan", "rocm"],
                 memory_mib=gb * 1024, memory_basis="total system RAM (unified)",
                 bandwidth_gbs=120, bandwidth_gbs_estimated=True, fp16_tflops=23.76, fp16_tflops_estimated=True,
                 fp16_tflops_basis="derived: 16 CU x 512 FP16 ops/clk/CU (RDNA 3/3.5 WMMA, " + RDNA3_WMMA_SOURCE + ") x 2.9 GHz = "
                                   "23.76, the rule of the Strix Halo entries (40 x 512 x 2.9 = 59.39); the Hugging Face hub's 11.88 "
                                   "is the packed-FP16 VALU rate without dual issue (256 ops/clk/CU), half of it",
                 int8_tops=None, tdp_w=54, price_usd=None,
                 price_source="no system price sourced (reference 500 is the HF chip-family figure)",
                 gpu_limit_default_mib=round(63968 * gb / 128, 1), gpu_limit_default_mib_estimated=True,
                 gpu_limit_max_mib=(gb - 8) * 1024, gpu_limit_max_mib_estimated=True,
                 gpu_limit_basis="Linux default GTT = 1/2 of RAM (scaled from the 128 GB Strix Halo measurement 63968 MiB); max via ttm.pages_limit = RAM - 8 GiB (assumed headroom). Windows VGM can dedicate up to 75%",
                 system_ram_gib=gb, system_ram_bandwidth_gbs=120)
    d["notes"].append("bandwidth_gbs estimated: assumes LPDDR5X-7500 on a 128-bit bus = 120 GB/s (AMD HX 370 supports LPDDR5X-7500 or DDR5-5600; a DDR5-5600 SO-DIMM system has 89.6 GB/s)")
    d["notes"].append("default backend vulkan: gfx1150 is not an officially supported ROCm target")
    d.update(kw)
    return add(d)

hx370("AMD Ryzen AI 9 HX 370 (Strix Point)", "ryzen-ai-9-hx-370-32", "AMD Ryzen AI 9 HX 370 (Strix Point) 32GB laptop", 32)
hx370("AMD Ryzen AI 9 HX 370 mini-PC 64GB", "ryzen-ai-9-hx-370-64", "AMD Ryzen AI 9 HX 370 mini-PC 64GB", 64)

# ====================================================================================== NVIDIA APUs
sp = add(from_ref("NVIDIA DGX Spark (GB10)", id="dgx-spark", kind="apu", backends=["cuda"],
                  memory_mib=131072, memory_basis="total unified LPDDR5X (128 GB); CUDA-usable is lower (see gpu_limit)",
                  fp16_tflops=125, fp16_tflops_estimated=True,
                  fp16_tflops_basis="derived: NVIDIA '1 PFLOP FP4 with sparsity' (reference other_compute) / 8 = dense FP16 tensor with FP16 accumulate, the rule of the GeForce Blackwell entries (rtx-5070: 988 / 8 = 123.5; GB10 has the RTX 5070's 6,144 CUDA cores, NVIDIA DGX Spark product page); the reference's empirical mmapeak '~213 FP16' is not used: it equals its int8 214 and is half its FP4 427, where Blackwell runs int8 at 2x and FP4 at 4x FP16",
                  int8_tops=214, int8_tops_estimated=True,
                  price_source="NVIDIA DGX Spark Founders Edition $3,999 (reference launch_msrp_usd)",
                  gpu_limit_default_mib=122583.82, gpu_limit_max_mib=122583.82,
                  gpu_limit_basis="usable to CUDA per aiconfigurator gb10.yaml 128538451968 B = 122583.82 MiB (reference cites these bytes but lists 122070.3 MiB, which is 128.0e9 B); no separate raise knob (UMA)",
                  system_ram_gib=128, system_ram_bandwidth_gbs=273))
sp["notes"].append("reference fp16_tflops_roofline 29.71 is the HF-hub non-tensor approximation; replaced by the FP4-derived tensor figure (was 213, the empirical mmapeak figure, until 2026-12: prefill on the llama.cpp repo's benches/dgx-spark.md rows came out +34 %)")
jo = add(from_ref("NVIDIA Jetson AGX Orin 64GB", id="jetson-agx-orin-64gb", kind="apu", backends=["cuda"],
                  memory_mib=65536, memory_basis="total unified LPDDR5 (64 GB nominal); OS MemTotal is lower (carve-outs)",
                  fp16_tflops=42.5, fp16_tflops_estimated=True,
                  fp16_tflops_basis="derived: 275 INT8 TOPS (sparse, reference other_compute) includes ~105 from the two DLAs; GPU ~170 sparse -> 85 dense INT8 -> 42.5 dense FP16 tensor",
                  int8_tops=85, int8_tops_estimated=True, price_source="reference launch_msrp_usd 2000 (HF approximate; Jetson AGX Orin 64GB developer kit $1,999)",
                  system_ram_gib=64, system_ram_bandwidth_gbs=204.8))
jo["notes"].append("kind 'apu' (reference kind 'edge', which the schema lacks): unified memory shared with the CPU; no documented GPU allocation cap, gpu_limit left null")
jn = add(from_ref("NVIDIA Jetson Orin Nano Super 8GB", id="jetson-orin-nano-super", name="NVIDIA Jetson Orin Nano Super 8GB", kind="apu", backends=["cuda"],
                  memory_mib=8192, memory_basis="total unified LPDDR5 (8 GB nominal)",
                  fp16_tflops=16.75, fp16_tflops_estimated=True,
                  fp16_tflops_basis="derived: 67 INT8 TOPS (sparse, reference other_compute; Orin Nano has no DLA) -> 33.5 dense INT8 -> 16.75 dense FP16 tensor",
                  int8_tops=33.5, int8_tops_estimated=True, price_source="reference launch_msrp_usd 249 (developer kit)",
                  system_ram_gib=8, system_ram_bandwidth_gbs=102))
jn["notes"].append("kind 'apu' (reference kind 'edge', which the schema lacks)")

# ====================================================================================== CPU-only
add(mk(id="cpu-ryzen-9-7950x-ddr5", name="AMD Ryzen 9 7950X desktop, 64 GB DDR5-5600 dual-channel (CPU only)", vendor="amd", kind="cpu",
       backends=["cpu"], memory_mib=65536, memory_basis="installed RAM 2 x 32 GB (OS MemTotal is ~2-3% lower)",
       bandwidth_gbs=89.6, bandwidth_gbs_basis="theoretical: 5600 MT/s x 8 B x 2 channels (measured STREAM is ~60-70 GB/s)",
       fp16_tflops=2.6, fp16_tflops_estimated=True,
       fp16_tflops_basis="estimated CPU matmul peak: 16 Zen 4 cores x 32 FP32 FLOP/clk (2 x 256-bit FMA) x ~5.1 GHz; ggml computes F16 weights in F32",
       int8_tops=10.4, int8_tops_estimated=True, tdp_w=170, price_usd=699,
       cpu_cores=16, cpu_simd_bits=256, cpu_fma_pipes=2, boost_clock_mhz=5700,
       price_source="AMD launch price $699 (Sep 2022), CPU only (no RAM/board)",
       system_ram_gib=64, system_ram_bandwidth_gbs=89.6,
       sources=["AMD Ryzen 9 7950X product page: 16 cores, up to 5.7 GHz boost, 170 W TDP, 2-channel DDR5 (DDR5-5200 official; DDR5-5600 common EXPO)",
                "cpu_simd_bits 256, cpu_fma_pipes 2: Zen 4 runs AVX-512 on two 256-bit FMA pipes (numberworld.org, A. J. Yee, 'Zen5's AVX512 Teardown', 2024-08-07)",
                "JEDEC DDR5: 64-bit (8 B) per DIMM channel"],
       notes=["int8_tops estimated: AVX-512 VNNI at 128 INT8 ops/clk/core x 16 x 5.1 GHz", "memory_mib and system RAM are the same pool"]))
add(mk(id="cpu-epyc-9654-12ch", name="AMD EPYC 9654 (Genoa) server, 12-channel DDR5-4800, 384 GB (CPU only)", vendor="amd", kind="cpu",
       backends=["cpu"], memory_mib=393216, memory_basis="installed RAM 12 x 32 GB (OS MemTotal is slightly lower)",
       bandwidth_gbs=460.8, bandwidth_gbs_basis="theoretical: 4800 MT/s x 8 B x 12 channels",
       fp16_tflops=10.9, fp16_tflops_estimated=True,
       fp16_tflops_basis="estimated CPU matmul peak: 96 Zen 4 cores x 32 FP32 FLOP/clk x 3.55 GHz all-core boost",
       int8_tops=43.6, int8_tops_estimated=True, tdp_w=360, price_usd=11805,
       cpu_cores=96, cpu_simd_bits=256, cpu_fma_pipes=2, boost_clock_mhz=3700,
       price_source="AMD 1Ku list price $11,805 at launch (Nov 2022), CPU only",
       system_ram_gib=384, system_ram_bandwidth_gbs=460.8,
       sources=["AMD EPYC 9654 product page: 96 cores, 2.4 GHz base, 3.55 GHz all-core boost, up to 3.7 GHz max boost, 360 W default TDP, 12 channels DDR5-4800",
                "cpu_simd_bits 256, cpu_fma_pipes 2: Zen 4 runs AVX-512 on two 256-bit FMA pipes (numberworld.org, A. J. Yee, 'Zen5's AVX512 Teardown', 2024-08-07)",
                "JEDEC DDR5: 64-bit (8 B) per DIMM channel"],
       notes=["single socket; llama.cpp CPU decode typically reaches well under the theoretical bandwidth (NUMA/NPS settings matter)",
              "int8_tops estimated: AVX-512 VNNI 128 INT8 ops/clk/core"]))


# ====================================================================================== additions 2026-12 (issue 12)
# Devices people rent and buy that the catalog lacked. memory_mib is the nominal size (GiB x 1024, marked estimated)
# unless a driver total is cited; fp16_tflops follows the conventions above (GeForce: FP16-accumulate dense tensor;
# workstation/datacenter: dense FP16/BF16 tensor); null where no figure was found (the speed model then uses the
# chip family's TFLOPS per GB/s and says so).
ADD25 = {d["name"]: d for d in json.load(open(os.path.join(_args.ref, "hardware_added_2025.json")))["devices"]}

def new_dev(did, name, vendor, kind, backends, gib, bw, fp16, tdp, sources, memory_kind, fp16_basis=None,
            fp16_estimated=False, notes=None, **kw):
    return add(mk(id=did, name=name, vendor=vendor, kind=kind, backends=backends, memory_mib=gib * 1024,
                  memory_mib_estimated=True, memory_basis="nominal %d GB (driver total not sourced)" % gib,
                  bandwidth_gbs=bw, fp16_tflops=fp16, fp16_tflops_estimated=fp16_estimated,
                  fp16_tflops_basis=fp16_basis or ("no dense FP16 tensor figure found; the speed model estimates it" if fp16 is None
                                                   else "dense FP16 tensor figure of the source"),
                  tdp_w=tdp, memory_kind=memory_kind, sources=sources, notes=list(notes or []), **kw))

def from_added(refname, did, backends, memory_kind, tdp=None, **kw):
    a = ADD25[refname]
    src = ["memory: " + a["memory_gib_source"], "bandwidth: " + a["bandwidth_gbs_source"],
           "fp16: " + a["fp16_tflops_source"]]
    return new_dev(did, kw.pop("name", refname), a["vendor"], a["kind"], backends, a["memory_gib"], a["bandwidth_gbs"],
                   a["fp16_tflops"], tdp, src, memory_kind, **kw)

NVDS = "NVIDIA datasheet table as reproduced by "
# --- NVIDIA datacenter
new_dev("l40", "NVIDIA L40 48GB", "nvidia", "datacenter", ["cuda", "vulkan"], 48, 864, 181.05, 300,
        [NVDS + "https://www.mullet.se/product.html?product_id=355414 (L40: 48 GB GDDR6 ECC, 864 GB/s, FP16 Tensor Core 181.05 | 362.1* sparse, 300 W)"],
        "gddr", calibration_names=["NVIDIA L40"])
new_dev("a40", "NVIDIA A40 48GB", "nvidia", "datacenter", ["cuda", "vulkan"], 48, 696, 149.7, 300,
        [NVDS + "https://www.ecer.com/corp/details-uuuedqa-p1bsay9-multi-display-setups-supported-by-48gb-gddr6-ecc-memory-nvidia-a40-gpu-and-vga-outputs.html "
         "(48 GB GDDR6 ECC, 696 GB/s, Peak FP16 Tensor TFLOPS with FP16 Accumulate 149.7 | 299.4*, BF16 with FP32 accumulate 149.7, 300 W)",
         "https://hmc-tech.com/gpu/nvidia-a16-vs-nvidia-a40 (149.67 TFLOPS tensor FP16, FP16 and FP32 accumulate)"],
        "gddr", calibration_names=["NVIDIA A40"])
new_dev("a10", "NVIDIA A10 24GB", "nvidia", "datacenter", ["cuda", "vulkan"], 24, 600, 125, 150,
        ["NVIDIA A10 datasheet https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a10/pdf/a10-datasheet.pdf (24 GB GDDR6, 600 GB/s, FP16 Tensor Core 125 TF | 250 TF sparse, 150 W)",
         "https://sysrqmts.com/ru/gpus/compare/nvidia-a10-pcie-vs-nvidia-quadro-rtx-4000 (GA102, 24 GB GDDR6, 384-bit, 600.2 GB/s)",
         "https://www.baseten.co/blog/nvidia-a10-vs-a10g-for-ml-model-inference/ (A10 and A10G: same 24 GB and 600 GB/s; the A10 has the higher tensor rate)"],
        "gddr", calibration_names=["NVIDIA A10"])
new_dev("a30", "NVIDIA A30 24GB", "nvidia", "datacenter", ["cuda"], 24, 933, 165, 165,
        ["NVIDIA A30 datasheet https://www.nvidia.com/content/dam/en-zz/Solutions/data-center/products/a30-gpu/pdf/a30-datasheet.pdf (24 GB HBM2, 933 GB/s, FP16 Tensor Core 165 TF | 330 TF sparse, 165 W)",
         "https://sysrqmts.com/en/gpus/compare/nvidia-a30-pcie-vs-nvidia-jetson-tx1-gpu (GA100, 24 GB HBM2, 3072-bit, 933.1 GB/s, 165 W)"],
        "hbm", calibration_names=["NVIDIA A30"])
from_added("NVIDIA Tesla V100 PCIe 16GB", "v100-pcie-16gb", ["cuda"], "hbm", tdp=250,
           calibration_names=["Tesla V100-PCIE-16GB"], notes=["tdp_w: NVIDIA V100 PCIe board power 250 W"])
from_added("NVIDIA Tesla V100 PCIe 32GB", "v100-pcie-32gb", ["cuda"], "hbm", tdp=250,
           calibration_names=["Tesla V100-PCIE-32GB"], notes=["tdp_w: NVIDIA V100 PCIe board power 250 W"])
from_added("NVIDIA Tesla P100 PCIe 16GB", "p100-pcie-16gb", ["cuda", "vulkan"], "hbm", tdp=250,
           fp16_basis="Pascal has no tensor cores: the FP16 vector rate (2x FP32)",
           notes=["tdp_w: NVIDIA P100 PCIe board power 250 W"])
# --- NVIDIA workstation
mq = from_added("NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition", "rtx-pro-6000-max-q", ["cuda", "vulkan"], "gddr",
                tdp=300, notes=["the 300 W Max-Q board: same memory as the 600 W RTX PRO 6000, lower clocks; no separate tensor figure found"])
# fix (issue 13): the driver total is sourced (same board memory as the Workstation/Server editions), not nominal
mq.update(memory_mib=97887, memory_mib_estimated=False,
          memory_basis="nvidia-smi total (the same 97887 MiB as the Workstation and Server editions)")
mq["sources"].append("nvidia-smi '97887MiB' on the 300 W Max-Q card in public repo files found by full-text code search "
                     "(repo paths not exposed; ids 40638937359, 55414006193); "
                     "ai-dynamo/aiconfigurator@5ecb4d604928893cfc59cadbda9457dd46fd8b5e:src/aiconfigurator/systems/rtx_pro_6000_server.yaml "
                     "('97887 MiB reported by nvidia-smi', Server Edition, same GB202 board memory)")
mq["notes"].append("memory_mib 98304 (nominal 96 GB, estimated) -> 97887 (nvidia-smi total)")
from_added("NVIDIA RTX 2000 Ada Generation", "rtx-2000-ada", ["cuda", "vulkan"], "gddr", tdp=70,
           name="NVIDIA RTX 2000 Ada Generation 16GB")
new_dev("rtx-4000-ada", "NVIDIA RTX 4000 Ada Generation 20GB", "nvidia", "workstation", ["cuda", "vulkan"], 20, 360, 106.91, 130,
        ["https://hmc-tech.com/gpu/nvidia-rtx-5000-ada-vs-nvidia-rtx-4000-ada (RTX 4000 Ada: 20 GB GDDR6, 106.91 TFLOPS tensor FP16 with FP32 accumulate, 130 W)",
         "https://topcpu.net/en/gpu-c/rtx-4000-ada-generation-vs-rtx-5000-ada-generation (160-bit GDDR6, 360.0 GB/s, 130 W)"], "gddr")
new_dev("rtx-4500-ada", "NVIDIA RTX 4500 Ada Generation 24GB", "nvidia", "workstation", ["cuda", "vulkan"], 24, 432, None, 210,
        ["https://askgeek.io/es/gpus/NVIDIA/RTX-4500-Ada-Generation (24 GB GDDR6, 192-bit, 18 Gbps, 432.0 GB/s)",
         "https://technical.city/en/video/RTX-4500-Ada-Generation-vs-RTX-PRO-5000-72-GB-Blackwell (AD104, 7680 CUDA cores, 240 tensor cores, 210 W)"], "gddr")
new_dev("rtx-5000-ada", "NVIDIA RTX 5000 Ada Generation 32GB", "nvidia", "workstation", ["cuda", "vulkan"], 32, 576, 261.12, 250,
        ["https://hmc-tech.com/gpu/nvidia-rtx-5000-ada-vs-nvidia-rtx-4000-ada (RTX 5000 Ada: 32 GB GDDR6, 261.12 TFLOPS tensor FP16 with FP32 accumulate, 250 W)",
         "https://topcpu.net/en/gpu-c/rtx-4000-ada-generation-vs-rtx-5000-ada-generation (256-bit GDDR6, 576.0 GB/s, 250 W)"], "gddr")
new_dev("rtx-a4000", "NVIDIA RTX A4000 16GB", "nvidia", "workstation", ["cuda", "vulkan"], 16, 448, None, 140,
        ["NVIDIA RTX A4000 datasheet https://www.nvidia.com/content/dam/en-zz/Solutions/gtcs21/rtx-a4000/nvidia-rtx-a4000-datasheet.pdf (16 GB GDDR6 ECC, 256-bit, 448 GB/s, 140 W)"], "gddr")
new_dev("rtx-a5000", "NVIDIA RTX A5000 24GB", "nvidia", "workstation", ["cuda", "vulkan"], 24, 768, None, 230,
        ["NVIDIA RTX A5000 datasheet https://www.nvidia.com/content/dam/en-zz/Solutions/gtcs21/rtx-a5000/nvidia-rtx-a5000-datasheet.pdf (24 GB GDDR6 ECC, 384-bit, 768 GB/s, 230 W)"], "gddr")
# --- NVIDIA laptop GPUs (TGP varies by laptop; the figures below are at the TGP named)
new_dev("rtx-4090-laptop", "NVIDIA GeForce RTX 4090 Laptop GPU 16GB", "nvidia", "consumer", ["cuda", "vulkan"], 16, 576, 141.25, 130,
        ["https://hmc-tech.com/gpu/nvidia-geforce-rtx-4090-laptop-130w-vs-nvidia-geforce-rtx-5090-laptop-140w (4090 Laptop 130 W: 16 GB GDDR6, 141.25 TFLOPS tensor FP16 with FP16 accumulate)",
         "https://hmc-tech.com/gpu/nvidia-geforce-rtx-5090-laptop-140w-vs-nvidia-geforce-rtx-4090-laptop-120w (4090 Laptop: 576 GB/s)"], "gddr",
        notes=["laptop TGP 80-175 W: tensor throughput scales with the laptop's power limit; the 130 W figure is shown"])
new_dev("rtx-5090-laptop", "NVIDIA GeForce RTX 5090 Laptop GPU 24GB", "nvidia", "consumer", ["cuda", "vulkan"], 24, 896, 215.38, 140,
        ["https://hmc-tech.com/gpu/nvidia-geforce-rtx-4090-laptop-130w-vs-nvidia-geforce-rtx-5090-laptop-140w (5090 Laptop 140 W: 24 GB GDDR7, 215.38 TFLOPS tensor FP16 with FP16 accumulate)",
         "https://hmc-tech.com/gpu/nvidia-geforce-rtx-5090-laptop-140w-vs-nvidia-geforce-rtx-4090-laptop-120w (5090 Laptop: 896 GB/s)"], "gddr",
        notes=["laptop TGP 95-175 W: tensor throughput scales with the laptop's power limit; the 140 W figure is shown"])
# --- AMD
new_dev("mi210", "AMD Instinct MI210 64GB", "amd", "datacenter", ["rocm"], 64, 1638.4, 181, 300,
        ["AMD Instinct MI210 product page https://www.amd.com/en/products/accelerators/instinct/mi200/mi210.html (64 GB HBM2e, 1.6384 TB/s, peak FP16 181 TFLOPS matrix, 300 W)"], "hbm")
new_dev("mi250x-gcd", "AMD Instinct MI250X (one of its two GCDs) 64GB", "amd", "datacenter", ["rocm"], 64, 1638.4, 191.5, 280,
        ["AMD Instinct MI250X product page https://www.amd.com/en/products/accelerators/instinct/mi200/mi250x.html (128 GB HBM2e, 3.2768 TB/s, peak FP16 383 TFLOPS, 560 W, two graphics compute dies)"],
        "hbm", notes=["the MI250X appears to ROCm and llama.cpp as two GPUs (one per GCD), each with half the memory, bandwidth, FP16 and power; "
                      "one GCD is listed, use gpus = 2 for the whole module"])
new_dev("mi355x", "AMD Instinct MI355X 288GB", "amd", "datacenter", ["rocm"], 288, 8000, 2516.6, 1400,
        ["https://www.theregister.com/2025/06/12/amd_mi355x/ (288 GB HBM3E, 8 TB/s, 1.4 kW; FP16/BF16 on a par with B200)",
         "https://wccftech.com/amd-instinct-mi350-gpuai-hardware-powerhouse-3nm-3d-chiplet-cdna-4-185-billion-transistors-1400w-tbp-over-4000b-llm-support//amp/ (MI355X 1400 W TBP, 2.4 GHz)"],
        "hbm", fp16_estimated=True,
        fp16_basis="AMD lists 2.5 PFLOPS dense FP16 (5 PFLOPS with sparsity) for the MI355X; not read from AMD's page in a stored source, so marked estimated")
new_dev("radeon-pro-w7800", "AMD Radeon PRO W7800 32GB", "amd", "workstation", ["rocm", "vulkan"], 32, 576, 90.5, 260,
        ["AMD Radeon PRO W7800 product page https://www.amd.com/en/products/graphics/workstations/radeon-pro/w7800.html (32 GB GDDR6, 256-bit, 576 GB/s, peak FP16 90.5 TFLOPS, 260 W)"],
        "gddr", fp16_basis="RDNA3 peak FP16 (dual-issue; WMMA runs at the same rate)")
from_added("AMD Radeon RX 7900 XT", "rx-7900-xt", ["rocm", "vulkan"], "gddr", tdp=315)
from_added("AMD Radeon RX 7900 GRE", "rx-7900-gre", ["rocm", "vulkan"], "gddr", tdp=260)
r9700 = from_added("AMD Radeon AI PRO R9700", "radeon-ai-pro-r9700", ["rocm", "vulkan"], "gddr", tdp=300,
                   fp16_estimated=True,
                   fp16_basis="estimated: 2 x the source's 95.7 TFLOPS vector FP16 peak = 191.4, the RDNA4 WMMA dense "
                              "FP16 rate (RDNA4 matrix FP16 is twice its vector rate; AMD lists 383 TFLOPS FP16 with sparsity)")
r9700["fp16_tflops"] = 191.4
# --- Intel
from_added("Intel Arc Pro B60 24GB", "arc-pro-b60", ["sycl", "vulkan"], "gddr", tdp=200, int8_tops=197)
from_added("Intel Arc Pro B70 32GB", "arc-pro-b70", ["sycl", "vulkan"], "gddr", tdp=230, int8_tops=367)

# ====================================================================================== additions of issue 13
# Devices people ask about that neither the reference data nor the earlier additions carried. memory_mib is the
# nominal size (GiB x 1024, marked estimated) unless the OS reports the GB label as GiB (Apple); fp16_tflops is
# null where no dense FP16 tensor figure was found in a stored source (the speed model then estimates it from the
# chip family and says so). memory_kind is explicit for each.
new_dev("h20", "NVIDIA H20 96GB", "nvidia", "datacenter", ["cuda"], 96, 4000, 148, 400,
        ["https://willitrunai.com/es/gpus/h20-96gb (96 GB HBM3, 4,000 GB/s, 148 TFLOPS FP16 / 296 INT8 TOPS, NVLink 900 GB/s, 400 W TDP)",
         "https://zangshuxian.com/new/674733024499207168 (H20: 78 SMs; FP16 dense 148 TFLOPS, INT8 296, 4.0 TB/s)"],
        "hbm", fp16_basis="dense FP16 tensor figure of the sources (the export-limited Hopper rate)", int8_tops=296,
        notes=["China-market Hopper part; a 141 GB HBM3e variant also exists (not listed: no sourced bandwidth)"])
new_dev("l20", "NVIDIA L20 48GB", "nvidia", "datacenter", ["cuda", "vulkan"], 48, 864, None, 275,
        ["https://www.topcpu.net/en/gpu-c/a40-pcie-vs-l20 (L20: AD102, 48 GB GDDR6, 384-bit, 864.0 GB/s, 368 tensor cores, 275 W, Nov 2023)",
         "https://technical.city/pl/video/L20 (48 GB GDDR6 2.25 GHz, 384-bit, 864.0 GB/s, 275 W)"],
        "gddr", notes=["China-market Ada part; the sources list only the 59.35 TFLOPS non-tensor FP16/FP32 rate, so fp16_tflops is null"])
new_dev("mi300a", "AMD Instinct MI300A 128GB (APU)", "amd", "datacenter", ["rocm"], 128, 5300, None, None,
        ["https://estaterule.ru/news/amd-vypuskaet-samyj-bolshoj-i-slozhnyj-v-mire-gpu-so-192-gb-pamjati-i-gigantskij-apu-so-128-gb-na-rynok-vyhodjat-chipy-instinct-mi300a-i-instinct-mi300x "
         "(MI300A: 24 Zen 4 cores, CDNA 3 with 228 CUs, 128 GB HBM3 at 5.3 TB/s)",
         "https://api.emergentmind.com/topics/mi300a-apus (24 Zen 4 cores, 228 CDNA 3 CUs, 128 GB HBM3, 5.3-5.6 TB/s, one physical address space for CPU and GPU)"],
        "hbm", notes=["an APU: the 128 GB HBM3 pool is shared with the 24 CPU cores and the OS, so less than 128 GB is free for the model",
                      "fp16_tflops null: no dense FP16 figure in a stored source (228 of the MI300X's 304 CUs)", "tdp_w not sourced"])
new_dev("jetson-agx-thor", "NVIDIA Jetson AGX Thor (T5000) 128GB", "nvidia", "apu", ["cuda"], 128, 273, None, 130,
        ["https://developer.ridgerun.com/wiki/index.php/NVIDIA_Jetson_AGX_Thor/Introduction/SoM_Overview (T5000: Blackwell GPU, 2560 CUDA cores, "
         "96 5th-gen tensor cores, 1.575 GHz; 128GB LPDDR5x 4266 MHz 256-bit, 273 GB/s; 2070 FP4 TFLOPS / 1035 FP8 TFLOPS)",
         "https://learnaivisually.com/ai-explained/jetson-thor-edge-blackwell (configurable 40-130 W)"],
        "unified", system_ram_gib=128, system_ram_bandwidth_gbs=273,
        notes=["unified LPDDR5X shared with the 14 Neoverse V3AE CPU cores; no documented GPU allocation cap, gpu_limit left null",
               "fp16_tflops null: NVIDIA quotes FP4/FP8 (with sparsity) only; tdp_w = the top of the 40-130 W range"])
new_dev("rx-9060-xt-16gb", "AMD Radeon RX 9060 XT 16GB", "amd", "consumer", ["rocm", "vulkan"], 16, 322.6, None, 182,
        ["https://mezha.media/en/reviews/oglyad-videokarti-asus-tuf-gaming-radeon-rx-9060-xt-16gb-oc-303374 (Navi 44, RDNA 4, 2048 SPs, 64 AI accelerators; "
         "GDDR6 20,100 MHz effective on 128 bits = 322 GB/s)",
         "https://techpowerup.com/review/asus-radeon-rx-9060-xt-prime-oc-16-gb (8 GB / 16 GB GDDR6, 128-bit; 16 GB MSRP $350)",
         "https://www.tweaktown.com/news/105296/amd-confirms-radeon-rx-9060-xt-8gb-and-16gb-models-coming/index.html (32 CUs, 3.13 GHz, up to 182 W)"],
        "gddr", price_usd=349, price_source="AMD launch MSRP $349 (16 GB; techpowerup review says $350, moneyoval $349)",
        notes=["bandwidth 322.6 GB/s = 20.16 Gbps x 128 bit / 8 (the review's 20,100 MHz effective rounds to 322 GB/s); tdp_w 182 = the top of AMD's 150-182 W range"])
for _gb in (16, 24, 32):
    _dv, _dest, _db = apple_default(_gb)
    add(mk(id="m5-%d" % _gb, name="Apple M5 (10-core GPU, %d GB)" % _gb, vendor="apple", kind="apple", backends=["metal", "cpu"],
           memory_mib=_gb * 1024, memory_basis="total unified RAM (hw.memsize / 2^20); Apple 'GB' = GiB", memory_kind="unified",
           bandwidth_gbs=153, fp16_tflops=None,
           fp16_tflops_basis="no GPU FP16 figure published for the M5 (Apple quotes '4x peak GPU compute for AI' vs M4 from its per-core Neural Accelerators)",
           gpu_limit_default_mib=_dv, gpu_limit_default_mib_estimated=True, gpu_limit_max_mib=round(apple_max(_gb), 2),
           gpu_limit_max_mib_estimated=True,
           gpu_limit_basis="default: " + _db + ". max: " + APPLE_MAX_BASIS + ". Not measured on an M5.",
           system_ram_gib=_gb, system_ram_bandwidth_gbs=153,
           sources=["https://the-decoder.com/apples-m5-chip-brings-faster-ai-to-macbook-ipad-and-vision-pro/ (10 GPU cores each with a Neural Accelerator; "
                    "153 GB/s unified memory bandwidth; up to 32 GB unified memory)",
                    "https://www.fonearena.com/blog/466700/apple-m5-specs-features.html (10-core CPU, 10-core GPU, 153GB/s unified memory bandwidth)",
                    APPLE_RULE_SRC],
           notes=["GPU: 10-core; system_ram_* = the same unified pool", "memory configurations 16 / 24 / 32 GB (Apple: 'up to 32 GB')"]))
new_dev("core-ultra-7-258v", "Intel Core Ultra 7 258V (Lunar Lake, Arc 140V) 32GB", "intel", "apu", ["sycl", "vulkan"], 32, 136.5, None, 30,
        ["https://www.notebookcheck.net/Intel-Core-Ultra-7-256V-Processor-Benchmarks-and-Specs.892554.0.html (Lunar Lake: Arc 140V iGPU, "
         "on-package LPDDR5x-8533; 'the only difference between this chip and the Ultra 7 258V is the amount of on-package RAM: 16 GB vs 32 GB')",
         "https://en.overclocking.com/intel-core-ultra-200v-lunar-lake-details/ (memory on package; 17-30 W for non-fanless designs)",
         "https://runlocalai.co/hardware/intel-lunar-lake-258v (136 GB/s)"],
        "unified", system_ram_gib=32, system_ram_bandwidth_gbs=136.5,
        notes=["bandwidth 136.5 GB/s = 8533 MT/s x 128-bit (16 B) bus, derived (runlocalai: 136 GB/s)",
               "tdp_w 30 = the top of Lunar Lake's 17-30 W range; fp16_tflops null (no sourced Arc 140V XMX figure)",
               "the GPU's share of the shared memory is set by the driver (not sourced here); gpu_limit left null"])

# ====================================================================================== additions of issue 12 (catalog12)
# Cards and chips people buy and rent that the catalog still lacked. Conventions as above: GeForce fp16_tflops = dense
# FP16 tensor with FP16 accumulate (FP32 accumulate is half); datacenter = the dense FP16/BF16 tensor figure; AMD
# RDNA2 (no WMMA) = the packed-FP16 vector rate; Intel = XMX rate. A derived figure is marked estimated and says how.
AMPERE_ADA_X4 = ("GeForce Ampere/Ada tensor cores run dense FP16 with FP16 accumulate at 4 x the FP32 shader rate "
                 "(the catalog's rtx-3070 81.3 = 4 x 20.3 and rtx-4070-ti 160.4 = 4 x 40.1 follow the same rule)")
BW_FP4_8 = "NVIDIA 'AI TOPS' (FP4, sparse) / 8 = dense FP16 tensor with FP16 accumulate (ratio checked on the 5090/5080 whitepaper values)"
new_dev("rtx-4070", "NVIDIA GeForce RTX 4070 12GB", "nvidia", "consumer", ["cuda", "vulkan"], 12, 504, 116.4, 200,
        ["https://www.club386.com/complete-geforce-rtx-4070-specifications-reveal-a-frugal-599-gpu/ (5,888 CUDA cores, 2,475 MHz boost, "
         "peak FP32 29.1 TFLOPS, 12 GB GDDR6X 192-bit 21 Gbps = 504 GB/s, 200 W, launch MSRP $599)",
         "https://www.thefpsreview.com/gpu-family/nvidia-geforce-rtx-4070-gpu-family-specifications (AD104, 504 GB/s, 12 GB, 192-bit GDDR6X, $599)"],
        "gddr", fp16_estimated=True, fp16_basis="derived: 4 x 29.1 FP32 TFLOPS; " + AMPERE_ADA_X4,
        price_usd=599, price_source="NVIDIA launch MSRP $599 (club386, thefpsreview)", **NV_DESKTOP_RAM, notes=[RAM_NOTE])
new_dev("rtx-4060-ti-8gb", "NVIDIA GeForce RTX 4060 Ti 8GB", "nvidia", "consumer", ["cuda", "vulkan"], 8, 288, 88.3, 160,
        ["https://www.guru3d.com/story/geforce-rtx-4060-ti-gpu-pictured/ (AD106, 4352 cores, 8 GB GDDR6 128-bit, 288 GB/s, 160 W, max FP32 22 TFLOPS)",
         "https://www.thefpsreview.com/?p=133840 (RTX 4060 Ti: 8 GB GDDR6 at 18 GHz on 128 bit = 288 GB/s, 160 W TGP, launch price $399)"],
        "gddr", fp16_estimated=True,
        fp16_basis="same AD106 chip and clocks as rtx-4060-ti-16gb (88.3 = NVIDIA '353 AI TOPS' FP8-sparse / 4); only the memory size differs",
        price_usd=399, price_source="NVIDIA launch price $399 (thefpsreview)", **NV_DESKTOP_RAM,
        notes=[RAM_NOTE, "nvidia-smi total not sourced; nominal 8 GiB (the 16 GB card reports 16380 MiB)"])
new_dev("rtx-4060", "NVIDIA GeForce RTX 4060 8GB", "nvidia", "consumer", ["cuda", "vulkan"], 8, 272, 60.4, 115,
        ["https://fpsbench.com/compare/gpu/nvidia-geforce-rtx-4060-vs-nvidia-t600 (AD107, 3,072 shaders, 96 tensor cores, 2460 MHz boost, "
         "8 GB GDDR6 128-bit 17 Gbps = 272.0 GB/s, FP32 15.11 TFLOPS, 115 W)",
         "https://www.guru3d.com/story/geforce-rtx-4060-ti-gpu-pictured/ (RTX 4060: 3072 cores, 8 GB, 128-bit, 115 W)"],
        "gddr", fp16_estimated=True, fp16_basis="derived: 4 x 15.11 FP32 TFLOPS; " + AMPERE_ADA_X4, **NV_DESKTOP_RAM, notes=[RAM_NOTE])
new_dev("rtx-5060", "NVIDIA GeForce RTX 5060 8GB", "nvidia", "consumer", ["cuda", "vulkan"], 8, 448, 76.75, 145,
        ["https://pcspecchart.com/pc_parts/gpu/74 (Blackwell, 3840 cores, 120 tensor cores, 2497 MHz boost, 8 GB GDDR7 128-bit, 448 GB/s, 145 W, $299)",
         "https://thefilibusterblog.com/nvidia-geforce-rtx-5060-8-gb-gpu-launches-for-299-achieving-100-fps-in-multiple-aaa-games-at-1080p-for-ideal-gaming-experience "
         "(614 AI TOPS, 8 GB GDDR7 28 Gbps 128-bit = 448 GB/s, $299)"],
        "gddr", fp16_estimated=True, fp16_basis="derived: 614 / 8; " + BW_FP4_8,
        price_usd=299, price_source="NVIDIA launch MSRP $299 (pcspecchart, thefilibusterblog)", **NV_DESKTOP_RAM, notes=[RAM_NOTE])
new_dev("rtx-5060-ti-8gb", "NVIDIA GeForce RTX 5060 Ti 8GB", "nvidia", "consumer", ["cuda", "vulkan"], 8, 448, 94.9, 180,
        ["https://hi-tech.ua/en/nvidia-geforce-rtx-5060-graphics-cards-will-go-on-sale-from-may-19/ (RTX 5060 Ti in 8 and 16 GB: 4608 CUDA cores, "
         "GDDR7 28 Gbit/s, 128-bit, 448 GB/s, 180 W)",
         "http://zhikuai.com/KuaiXun/202504/120005.html (RTX 5060 Ti 8GB / 16GB: 4608 cores, 2.57 GHz boost, 128-bit GDDR7 28 Gbps, 180 W; MSRP $379 / $429)"],
        "gddr", fp16_estimated=True,
        fp16_basis="same GB206 chip and clocks as rtx-5060-ti-16gb (94.9 = NVIDIA '759 AI TOPS' / 8); only the memory size differs",
        price_usd=379, price_source="NVIDIA launch MSRP $379 (zhikuai)", **NV_DESKTOP_RAM, notes=[RAM_NOTE])
new_dev("rtx-3060-ti", "NVIDIA GeForce RTX 3060 Ti 8GB", "nvidia", "consumer", ["cuda", "vulkan"], 8, 448, 64.8, 200,
        ["https://www.scan.co.uk/tekspek/gpu-graphics/nvidia-geforce-rtx-3060ti (GA104, 4,864 shaders, 16,197 GFLOPS FP32, 152 tensor cores, "
         "8 GB 256-bit 14 Gbps = 448 GB/s, starting at $399)",
         "https://www.guru3d.com/story/geforce-rtx-4060-ti-gpu-pictured/ (RTX 3060 Ti: 448 GB/s, 200 W)"],
        "gddr", fp16_estimated=True, fp16_basis="derived: 4 x 16.2 FP32 TFLOPS; " + AMPERE_ADA_X4,
        price_usd=399, price_source="NVIDIA launch price $399 (scan.co.uk); sold used today (no used price sourced)",
        **NV_DESKTOP_RAM, notes=[RAM_NOTE, "a later GDDR6X variant has 608 GB/s (not listed)"])
new_dev("rtx-3080-12gb", "NVIDIA GeForce RTX 3080 12GB", "nvidia", "consumer", ["cuda", "vulkan"], 12, 912, 122.5, 350,
        ["https://se7en.ws/nvidia-predstavila-videokarty-geforce-rtx-3080-12-gb-i-geforce-rtx-3070-ti-16-gb-banalnym-narashhivaniem-pamyati-delo-ne-ogranichilos "
         "(RTX 3080 12 GB: 8960 CUDA cores, 280 tensor cores, 384-bit GDDR6X 19 GHz = 912 GB/s, TDP 350 W vs 320 W for the 10 GB card)"],
        "gddr", fp16_estimated=True,
        fp16_basis="scaled: the catalog's rtx-3080 (10 GB) 119 x 8960 / 8704 cores (same boost clock assumed; no NVIDIA tensor figure found)",
        **NV_DESKTOP_RAM, notes=[RAM_NOTE, "a different board from the 10 GB RTX 3080: wider bus (384 vs 320 bit) and more cores"])
new_dev("rtx-4070-laptop", "NVIDIA GeForce RTX 4070 Laptop GPU 8GB", "nvidia", "consumer", ["cuda", "vulkan"], 8, 256, 80.2, 115,
        ["https://hmc-tech.com/gpu/nvidia-geforce-rtx-4070-laptop-60w-vs-nvidia-geforce-rtx-4070-max-q (4070 Laptop 60 W: 4608 shaders, 8 GB GDDR6, "
         "1620 MHz, FP16 59.72 TFLOPS tensor with FP16 accumulate, 29.86 with FP32 accumulate)",
         "https://oemdrivers.com/graphics-nvidia-rtx-4070-laptop (AD106, 4,608 cores, 128-bit, 8 GB GDDR6 at 16 Gbps; TGP 35-115 W plus 15-25 W Dynamic Boost)"],
        "gddr", fp16_estimated=True,
        fp16_basis="scaled: hmc-tech's 59.72 TFLOPS (FP16 accumulate) at the 60 W TGP's 1620 MHz x 2175 / 1620 MHz, the boost clock at the 115 W top TGP",
        notes=["bandwidth 256 GB/s = 16 Gbps x 128 bit / 8 (derived from the sourced bus and data rate)",
               "laptop TGP 35-115 W: tensor throughput scales with the laptop's power limit; the 115 W figure is shown (60 W: 59.72)",
               "boost clock 2175 MHz at 115 W: https://data-check.eu/en/nvidia-geforce-rtx-4070-laptop-gpu/ ('boost clock spans from 1230 MHz (at 35 Watt TGP) to 2175 MHz (115W)')"])
new_dev("a100-pcie-40gb", "NVIDIA A100 PCIe 40GB", "nvidia", "datacenter", ["cuda"], 40, 1555, 312, 250,
        ["https://sysrqmts.com/gpus/compare/nvidia-a100-pcie-vs-nvidia-tesla-v100-pcie-16-gb (A100 PCIe: GA100, 40 GB HBM2E, 5120-bit, 1,555 GB/s, 250 W)",
         "https://glennklockwood.com/garden/processors/A100 (A100 FP16 / BF16 tensor 312 TFLOPS dense, 624 sparse, from the NVIDIA A100 datasheet)"],
        "hbm", fp16_basis="dense FP16/BF16 tensor figure of the NVIDIA A100 datasheet (same GA100 compute as the SXM parts)",
        calibration_names=[], notes=["PCIe card at 250 W; sustained tensor clocks are lower than the 400 W SXM4 part's"])
new_dev("mi100", "AMD Instinct MI100 32GB", "amd", "datacenter", ["rocm"], 32, 1228.8, 184.6, 300,
        ["https://www.notebookcheck.net/AMD-announces-CDNA-based-Instinct-MI100-GPU-with-120-CUs-for-HPC-promises-up-to-2-1x-more-performance-per-dollar-compared-to-the-NVIDIA-A100.504329.0.html "
         "(120 CUs, FP16/FP16 Matrix peak 184.6 TFLOPS, 32 GB HBM2 4,096-bit 1.2 GHz, 1.23 TB/s, 300 W)",
         "https://www.tomshardware.com/uk/news/amd-announces-the-instinct-mi100-gpu-cdna-breaks-10-tflops-barrier (32 GB HBM2, 1.23 TB/s)"],
        "hbm", fp16_basis="AMD peak FP16 matrix figure (CDNA1 matrix cores)",
        notes=["bandwidth 1228.8 GB/s = 4096 bit x 2.4 Gbps / 8 (the sources' 1.2 GHz HBM2 clock, 1.23 TB/s)"])
# --- AMD consumer (RDNA2 has no WMMA: llama.cpp's matmul runs on the packed-FP16 vector rate = 2 x FP32)
RDNA2_FP16 = "derived: CUs x 64 lanes x 2 (FMA) x 2 (packed FP16) x boost clock; RDNA2 has no matrix units"
new_dev("rx-6900-xt", "AMD Radeon RX 6900 XT 16GB", "amd", "consumer", ["rocm", "vulkan"], 16, 512, 46.08, 300,
        ["https://custompc.raspberrypi.org/articles/amd-rx-6900-xt-rx-6800-xt-and-rx-6800-graphics-cards-announced (RX 6900 XT: 80 CUs, 2250 MHz boost, "
         "16 GB GDDR6, 300 W total board power, $999)",
         "https://www.financialexpress.com/industry/technology/amd-launches-radeon-rx-6000-series-gpus-to-take-on-nvidias-rtx-3000-cards-everything-to-know/2116713/ "
         "(RX 6000: 256-bit bus with 16 GB of 16 Gbps GDDR6 = 512 GB/s)"],
        "gddr", fp16_estimated=True, fp16_basis=RDNA2_FP16 + " (80 x 64 x 4 x 2.25 GHz)", price_usd=999,
        price_source="AMD launch price $999 (custompc); sold used today (no used price sourced)", **NV_DESKTOP_RAM, notes=[RAM_NOTE, "gfx1030"])
new_dev("rx-6800-xt", "AMD Radeon RX 6800 XT 16GB", "amd", "consumer", ["rocm", "vulkan"], 16, 512, 41.47, 300,
        ["https://custompc.raspberrypi.org/articles/amd-rx-6900-xt-rx-6800-xt-and-rx-6800-graphics-cards-announced (RX 6800 XT: 72 CUs, 2250 MHz boost, 16 GB GDDR6, 300 W, $649)",
         "https://www.financialexpress.com/industry/technology/amd-launches-radeon-rx-6000-series-gpus-to-take-on-nvidias-rtx-3000-cards-everything-to-know/2116713/ "
         "(RX 6800 XT: 256-bit bus, 16 GB of 16 Gbps GDDR6, 300 W)"],
        "gddr", fp16_estimated=True, fp16_basis=RDNA2_FP16 + " (72 x 64 x 4 x 2.25 GHz)", price_usd=649,
        price_source="AMD launch price $649 (custompc, financialexpress)", **NV_DESKTOP_RAM,
        notes=[RAM_NOTE, "bandwidth 512 GB/s = 16 Gbps x 256 bit / 8", "gfx1030"])
new_dev("rx-6800", "AMD Radeon RX 6800 16GB", "amd", "consumer", ["rocm", "vulkan"], 16, 512, 32.33, 250,
        ["https://www.financialexpress.com/industry/technology/amd-launches-radeon-rx-6000-series-gpus-to-take-on-nvidias-rtx-3000-cards-everything-to-know/2116713/ "
         "(RX 6800: 60 CUs, 2105 MHz boost, same 16 GB 16 Gbps GDDR6 on 256 bit as the 6800 XT, 250 W board power, $579)"],
        "gddr", fp16_estimated=True, fp16_basis=RDNA2_FP16 + " (60 x 64 x 4 x 2.105 GHz)", price_usd=579,
        price_source="AMD launch price $579 (financialexpress)", **NV_DESKTOP_RAM, notes=[RAM_NOTE, "gfx1030"])
new_dev("rx-7600", "AMD Radeon RX 7600 8GB", "amd", "consumer", ["rocm", "vulkan"], 8, 288, 43.5, 165,
        ["https://www.dexerto.com/tech/amd-rx-7600-finalized-specs-leak-days-before-launch-2153539/ (AMD spec table: 32 CUs, 64 AI accelerators, "
         "peak half precision up to 43.5 TFLOPS, 8 GB GDDR6 18 Gbps 128-bit, 165 W total board power)",
         "https://www.guru3d.com/articles-pages/radeon-rx-7600-review,4.html (RX 7600: 8 GB GDDR6, 128-bit, 18 Gbps, 288 GB/s)",
         "https://hardforum.com/threads/amd-launches-radeon-rx-7600-graphics-card-roundup.2028052/ (starting price USD $269)"],
        "gddr", fp16_estimated=True,
        fp16_basis="AMD 'peak half precision 43.5 TFLOPS' used as the WMMA matrix rate (as for rx-7800-xt); RDNA3 WMMA FP16 runs at the packed-FP16 rate",
        price_usd=269, price_source="AMD launch price $269 (hardforum roundup)", **NV_DESKTOP_RAM, notes=[RAM_NOTE, "gfx1102"])
# --- Intel Arc (XMX: Xe-HPG 128 FP16 ops/clk per engine, Xe2 256, as for arc-a770-16gb / arc-b580)
new_dev("arc-b570", "Intel Arc B570 10GB", "intel", "consumer", ["sycl", "vulkan"], 10, 380, 92.2, 150,
        ["https://fpsbench.com/compare/gpu/intel-arc-b570-vs-intel-iris-xe-max-graphics (BMG-G21, 144 XMX cores, 2500 MHz, 10 GB GDDR6 160-bit 19 Gbps = 380.0 GB/s, 150 W)",
         "https://phantasyhobbies.com/blog/news/intel-unveils-affordable-battlemage-gpus-arc-b580-and-b570-for-budget-gamers (Arc B570: 18 Xe-cores, 10 GB, $219)"],
        "gddr", fp16_estimated=True, fp16_basis="derived: 144 XMX engines x 256 FP16 ops/clk x 2.5 GHz (the rule that gives Intel's B580 figure)",
        price_usd=219, price_source="Intel launch price $219 (phantasyhobbies)", **NV_DESKTOP_RAM, notes=[RAM_NOTE])
new_dev("arc-a750", "Intel Arc A750 8GB", "intel", "consumer", ["sycl", "vulkan"], 8, 512, 117.6, 225,
        ["https://www.svethardware.cz/intel-zverejnil-oficialni-specifikace-grafickych-karet-arc/58344 (Intel's official Arc specs: A750 28 Xe-cores, 448 XMX, "
         "2050 MHz, 8 GB GDDR6 256-bit 512 GB/s, 225 W TBP)"],
        "gddr", fp16_estimated=True, fp16_basis="derived: 448 XMX engines x 128 FP16 ops/clk x 2.05 GHz (as arc-a770-16gb)",
        **NV_DESKTOP_RAM, notes=[RAM_NOTE])
new_dev("arc-a580", "Intel Arc A580 8GB", "intel", "consumer", ["sycl", "vulkan"], 8, 512, 83.6, None,
        ["https://www.svethardware.cz/intel-zverejnil-oficialni-specifikace-grafickych-karet-arc/58344 (Intel's official Arc specs: A580 24 Xe-cores, 384 XMX, "
         "1700 MHz, 8 GB GDDR6 256-bit 512 GB/s)"],
        "gddr", fp16_estimated=True, fp16_basis="derived: 384 XMX engines x 128 FP16 ops/clk x 1.7 GHz (as arc-a770-16gb)",
        **NV_DESKTOP_RAM, notes=[RAM_NOTE, "tdp_w not sourced"])
new_dev("rx-6700-xt", "AMD Radeon RX 6700 XT 12GB", "amd", "consumer", ["rocm", "vulkan"], 12, 384, 26.43, 230,
        ["https://hardware-helden.de/radeon-rx-6700-xt-mit-12-gb-release-am-18-maerz (AMD spec table: Navi 22, 40 CUs, 2,581 MHz boost, "
         "12 GB GDDR6 192-bit, 384 GB/s, 230 W TBP, $479)",
         "https://punto-informatico.it/amd-radeon-6700-xt-gpu-giocare-1440p (40 CUs, 2,581 MHz, 12 GB 192-bit, 230 W, $479)"],
        "gddr", fp16_estimated=True, fp16_basis=RDNA2_FP16 + " (40 x 64 x 4 x 2.581 GHz)", price_usd=479,
        price_source="AMD launch price $479 (hardware-helden, punto-informatico)", **NV_DESKTOP_RAM,
        notes=[RAM_NOTE, "gfx1031: not an official ROCm target (HSA_OVERRIDE_GFX_VERSION=10.3.0 is the usual workaround); Vulkan works"])
new_dev("rx-9070", "AMD Radeon RX 9070 16GB", "amd", "consumer", ["rocm", "vulkan"], 16, 640, 145.7, 220,
        ["https://multiplayer.it/notizie/amd-radeon-rx-9070-xt-rx-9070-specifiche.html (RX 9070: Navi 48, 56 CUs, 112 AI accelerators, "
         "2540 MHz boost, 16 GB GDDR6 20 Gbps 256-bit = 640 GB/s, 220 W TBP; RX 9070 XT 64 CUs at 2970 MHz)",
         "https://www.purepc.pl/amd-radeon-rx-9070-xt-oraz-radeon-rx-9070-specyfikacja-cena-i-wydajnosc-kart-graficznych-rdna-4 (MSRP $549 / $599)"],
        "gddr", fp16_estimated=True,
        fp16_basis="scaled: the catalog's rx-9070-xt WMMA FP16 194.7 x (56 CUs x 2.54 GHz) / (64 CUs x 2.97 GHz), same Navi 48 chip",
        price_usd=549, price_source="AMD launch MSRP $549 (purepc)", **NV_DESKTOP_RAM, notes=[RAM_NOTE, "gfx1201"])
new_dev("gtx-1080-ti", "NVIDIA GeForce GTX 1080 Ti 11GB", "nvidia", "consumer", ["cuda", "vulkan"], 11, 484, 11.47, 250,
        ["https://www.tomshardware.com/news/nvidia-geforce-gtx-1080-ti,33775.html (GP102, 3584 CUDA cores, 1.6 GHz boost, 11 GB GDDR5X 352-bit "
         "11 Gb/s = 484 GB/s, $700)",
         "https://www.latinpost.com/articles/138872/20170323/cheaper-better-nvidia-geforce-gtx-1080-ti-now-available.htm (250 W, MSRP $699)"],
        "gddr", fp16_estimated=True,
        fp16_basis="no tensor cores and FP16 at 1/64 rate: llama.cpp on Pascal computes in FP32 (as tesla-p40), so this is the FP32 peak "
                   "3584 x 2 x 1.6 GHz, not an FP16 tensor figure",
        price_usd=699, price_source="NVIDIA launch MSRP $699 (latinpost); sold used today (no used price sourced)", **NV_DESKTOP_RAM,
        notes=[RAM_NOTE, "Pascal (compute capability 6.1): no tensor cores; llama.cpp's CUDA backend still supports it"])
new_dev("quadro-rtx-6000", "NVIDIA Quadro RTX 6000 24GB", "nvidia", "workstation", ["cuda", "vulkan"], 24, 672, 130.5, 295,
        ["https://sysrqmts.com/fr/gpus/compare/nvidia-a40-pcie-vs-nvidia-quadro-rtx-6000 (TU102, 4608 shaders, 576 tensor cores, 1770 MHz boost, "
         "24 GB GDDR6 384-bit 14 Gbps = 672.0 GB/s, launch price 6,299 USD)",
         "https://chip.pl/2018/10/bestia-dla-profesjonalistow-quadro-rtx-6000 (24 GB GDDR6 384-bit, 16.3 TFLOPS FP32, max TDP 295 W, $6,300)"],
        "gddr", fp16_estimated=True,
        fp16_basis="derived: 576 tensor cores x 128 FP16 FLOP/clk x 1.77 GHz (the Turing per-core rate of the catalog's rtx-2080-ti whitepaper "
                   "figure, 107.6 = 544 x 128 x 1.545 GHz); Quadro runs FP32 accumulate at the full rate",
        price_usd=6299, price_source="NVIDIA launch price $6,299 (sysrqmts; chip.pl $6,300); sold used today",
        notes=["tdp_w 295 = the active card's maximum (chip.pl); sysrqmts lists 260 W",
               "the Quadro RTX 8000 is the same TU102 board with 48 GB (not listed: no stored source for its figures)"])

new_dev("rtx-a4500", "NVIDIA RTX A4500 20GB", "nvidia", "workstation", ["cuda", "vulkan"], 20, 640, 94.6, 200,
        ["https://chipversus.com/hardware/gpu/rtx-a4500 (GA102, 7168 shading units, 1650 MHz boost, FP32 23.65 TFLOPS, 200 W, MSRP $1699)",
         "https://cputronic.com/gpu/compare/nvidia-rtx-a4500-vs-nvidia-rtx-pro-2000-blackwell (RTX A4500: 20 GB GDDR6 320-bit, 640.0 GB/s, 224 tensor cores)"],
        "gddr", fp16_estimated=True,
        fp16_basis="derived: 4 x 23.65 FP32 TFLOPS, the Ampere workstation dense FP16 tensor rate (the catalog's rtx-a6000 154.8 = 4 x 38.7)",
        price_usd=1699, price_source="launch MSRP $1,699 (chipversus); sold used today")
new_dev("ryzen-7-7840u-32", "AMD Ryzen 7 7840U (Radeon 780M) 32GB laptop", "amd", "apu", ["vulkan", "rocm"], 32, 120, 16.59, 28,
        ["https://cputronic.com/cpu/amd-ryzen-7-7840u (Zen 4, 8 cores; Radeon 780M RDNA 3, 12 compute units, 768 stream processors, up to 2.7 GHz; "
         "DDR5-5600 and LPDDR5x-7500; TDP 28 W, 15-30 W configurable)",
         "https://www.io-tech.fi/uutinen/amd-julkaisi-ryzen-7040u-sarjan-zen-4-prosessorit-vahavirtaisiin-kannettaviin/ (7840U: full Phoenix die, 12 CU Radeon 780M at 2.7 GHz, 15-30 W)"],
        "unified", fp16_estimated=True,
        fp16_basis="derived: 12 CU x 512 FP16 ops/clk/CU (RDNA 3 WMMA, " + RDNA3_WMMA_SOURCE + ") x 2.7 GHz = 16.59, the rule of the Strix Halo and Radeon 890M entries",
        system_ram_gib=32, system_ram_bandwidth_gbs=120, system_ram_gib_estimated=True, system_ram_bandwidth_gbs_estimated=True,
        notes=["bandwidth 120 GB/s assumes LPDDR5X-7500 on the 128-bit bus (7500 MT/s x 16 B); DDR5-5600 SO-DIMM laptops have 89.6 GB/s",
               "memory 32 GB is a common laptop configuration, not a property of the chip; the GPU's share is set by the BIOS/driver (not sourced)",
               "also sold as Ryzen 7 8840U (same silicon and 780M); default backend vulkan (gfx1103 is not an official ROCm target)"])

# --- Apple: more memory sizes of chips the reference already describes (per-chip values from the reference device)
apple("Apple M1 Max", "m1-max-32", "Apple M1 Max (32-core GPU, 32 GB)", 32, 400, 32, 10.62, False,
      PT + "GPU FP16 peak (32-core)", None, False, None, seed_aliases=[])
apple("Apple M2", "m2-8", "Apple M2 (10-core GPU, 8 GB)", 8, 100, 10, 3.579, False, PT + "GPU FP16 peak (10-core)", None, False, None, seed_aliases=[])
apple("Apple M2", "m2-16", "Apple M2 (10-core GPU, 16 GB)", 16, 100, 10, 3.579, False, PT + "GPU FP16 peak (10-core)", None, False, None, seed_aliases=[])
apple("Apple M2 Pro", "m2-pro-16", "Apple M2 Pro (16-core GPU, 16 GB)", 16, 200, 16, round(6.441 * 16 / 19, 2), True,
      "scaled: " + PT + "6.441 lower bound for the 19-core GPU x 16/19 (base 16-core GPU)", None, False, None, seed_aliases=[])
apple("Apple M2 Max", "m2-max-32", "Apple M2 Max (30-core GPU, 32 GB)", 32, 400, 30, round(13.6 * 30 / 38, 2), True,
      "scaled: " + PT + "13.6 lower bound for the 38-core GPU x 30/38 (base 30-core GPU)", None, False, None, seed_aliases=[])
apple("Apple M2 Max", "m2-max-64", "Apple M2 Max (38-core GPU, 64 GB)", 64, 400, 38, 13.6, True,
      PT + "lower bound from leaked clocks (38-core)", None, False, None, seed_aliases=[])
apple("Apple M3", "m3-8", "Apple M3 (10-core GPU, 8 GB)", 8, 100, 10, 4.1, True, HF, None, False, None, seed_aliases=[])
apple("Apple M3", "m3-16", "Apple M3 (10-core GPU, 16 GB)", 16, 100, 10, 4.1, True, HF, None, False, None, seed_aliases=[])
apple("Apple Mac Studio M4 Max 64GB", "m4-max-48", "Apple Mac Studio M4 Max (40-core GPU, 48 GB)", 48, 546, 40, 18.4, True, HF,
      2499, True, APPLE_PRICE_EST + " (Mac Studio M4 Max 16-core CPU / 40-core GPU / 48 GB: the $2,499 step the m4-max-64 entry builds on)",
      chip_ref="Apple M4 Max", seed_aliases=[])

# explicit memory technology for every device (the speed model's bandwidth share depends on it)
HBM_IDS = {"h200-sxm", "h100-sxm", "h100-pcie", "h100-nvl", "a100-sxm-80gb", "a100-sxm-40gb", "a100-pcie-80gb", "b200",
           "gh200-96gb", "mi300x", "mi325x", "8x-h100-sxm"}
for d in devices:
    if d.get("memory_kind"):
        continue
    if d["kind"] in ("apple", "apu", "cpu"):
        d["memory_kind"] = "unified"
    elif d["id"] in HBM_IDS:
        d["memory_kind"] = "hbm"
    else:
        d["memory_kind"] = "gddr"

# streaming multiprocessors and boost clock of NVIDIA GPUs, for the speed model's per-SM decode read limit (llama.cpp's
# batch-1 mul_mat_vec_q kernels keep a limited number of loads in flight per SM, so the bandwidth they reach is at most
# SMs x clock x bytes per SM-clock; docs/speed-model.md). One cited public page per value; "derived" = CUDA cores / 128
# per SM (Ampere GA10x, Ada, Blackwell: 128 FP32 cores per SM, e.g. RTX 3080 8,704 cores over 68 SMs in TechPowerUp's
# Ampere architecture article). A device without an entry gets no limit. Rigs (Nx-...) take their GPU's figures.
TPU_AMPERE = ("https://www.techpowerup.com/review/nvidia-geforce-ampere-architecture-board-design-gaming-tech-software/2.html "
              "(RTX 3080: 8,704 CUDA cores across 68 SM; RTX 3090: 10,496 CUDA cores across 82 SM)")
GK_A100 = ("https://glennklockwood.com/garden/processors/A100 (A100 SXM4: 108 SMs, 64 FP32 cores per SM); "
           "https://www.thundercompute.com/blog/nvidia-a100-specs-full-guide (A100 PCIe 40GB / PCIe 80GB / SXM 40GB / "
           "SXM 80GB: GPU Boost Clock 1,410 MHz)")
GK_H100 = "https://glennklockwood.com/garden/processors/h100 (H100 SXM5: 132 SMs, 1.98 GHz high precision; H200: same GPU as H100 with 144 GB HBM3e)"
SV_SUPER = ("https://www.svethardware.cz/nvidia-geforce-rtx-4000-super-prichazi-vice-jader-vice-pameti-nebo-nizsi-cena/60300 "
            "(RTX 4070 Super 7168 CUDA cores, boost 2475 MHz; RTX 4070 Ti Super 8448, 2610 MHz)")
NV_SM = {  # id: (SMs, boost MHz, source)
    "h100-sxm": (132, 1980, GK_H100),
    "h200-sxm": (132, 1980, GK_H100),
    "h100-pcie": (114, 1755, "https://llmperf.net/categories/gpu/Nvidia-H100-GPUs (H100 SXM 132 SMs, PCIe version 114 SMs, "
                  "citing NVIDIA's Hopper architecture blog); https://cputronic.com/de/gpu/nvidia-h100-pcie (Boost-Takt 1755MHz, 14592 shading units)"),
    "a100-sxm-80gb": (108, 1410, GK_A100), "a100-sxm-40gb": (108, 1410, GK_A100),
    "a100-pcie-80gb": (108, 1410, GK_A100), "a100-pcie-40gb": (108, 1410, GK_A100),
    "l40s": (142, 2520, "https://m.reach.dog/shop/computizer/products/nvidia-l40s-48gb-gddr6-graphics-card-for-ai-and-graphics-performance "
             "(L40S: Boost Clock 2520 MHz, SM Count 142, 18176 shading units)"),
    "t4": (40, 1590, "https://sysrqmts.com/en/gpus/nvidia/tesla/t4 (Tesla T4: boost clock 1590 MHz, SM count 40)"),
    "tesla-p40": (30, 1531, "https://sysrqmts.com/es/gpus/compare/nvidia-rtx-a6000-vs-nvidia-tesla-p40 (Tesla P40: boost 1531 MHz, SM count 30)"),
    "a40": (84, 1740, "https://sysrqmts.com/fr/gpus/compare/nvidia-a40-pcie-vs-nvidia-quadro-rtx-6000 (A40 PCIe: boost clock 1740 MHz, SM count 84)"),
    "quadro-rtx-6000": (72, 1770, "https://sysrqmts.com/fr/gpus/compare/nvidia-a40-pcie-vs-nvidia-quadro-rtx-6000 (Quadro RTX 6000: boost clock 1770 MHz, SM count 72)"),
    "rtx-a6000": (84, 1800, "https://sysrqmts.com/es/gpus/compare/nvidia-rtx-a6000-vs-nvidia-tesla-p40 (RTX A6000: boost 1800 MHz, SM count 84)"),
    "rtx-6000-ada": (142, 2505, "https://www.grafikkarten.com/de/news/nvidia-rtx-6000-grafikkarte-der-ada-generation (142 of AD102's 144 SMs active); "
                     "https://cputronic.com/de/gpu/nvidia-rtx-6000-ada-generation (Boost-Takt 2505MHz, 18176 shading units)"),
    "rtx-pro-6000": (188, 2597, "https://www.topcpu.net/es/news/nvidia-launches-96gb-rtx-5090-model-with-a-whopping-price-tag-of-10000 "
                     "(RTX Pro 6000: 188 SMs, 24,064 CUDA cores, FP32 up to 125 TFLOPS, boost around 2.6 GHz); boost derived "
                     "125 TFLOPS / (2 x 24,064 cores) = 2597 MHz"),
    "rtx-5090": (170, 2407, "https://pcspecchart.com/pc_parts/gpu/21/ (RTX 5090: 170 compute units (SMs), boost clock 2407 MHz)"),
    "rtx-5080": (84, 2620, "https://www.sipoch.com/en/articles/300330022705642 (RTX 5080: 10,752 CUDA cores, 84 calculation units, maximum clock 2.62 GHz)"),
    "rtx-4090": (128, 2520, "https://pcspecchart.com/pc_parts/gpu/25 (RTX 4090: 128 compute units (SMs), boost clock 2520 MHz)"),
    "rtx-4080-super": (80, 2550, "https://fpsbench.com/compare/gpu/intel-iris-xe-max-graphics-vs-nvidia-geforce-rtx-4080-super "
                       "(RTX 4080 SUPER: SM Count 80, Boost Clock 2550 MHz)"),
    "rtx-4080": (76, 2505, "https://www.holynerdvana.com/2022/10/nvidia-geforce-rtx-4080-specifications.html (Streaming Multiprocessors 76, Boost Clock 2505 MHz)"),
    "rtx-4070-ti-super": (66, 2610, SV_SUPER + "; 66 SMs derived (8448 / 128)"),
    "rtx-4070-ti": (60, 2610, "http://www.pc-boost.com/pages/news_1659334453_les-specifications-quot-presumees-quot-de-la-nvidia-geforce-rtx-4070-ti-ont-ete-devoilees.html "
                    "(AD104, 7680 cores or 60 SM units); https://purespecs.click/nvidia-geforce-rtx-4070-ti-gpu-specs/ (boost up to 2610 MHz)"),
    "rtx-4070-super": (56, 2475, SV_SUPER + "; 56 SMs derived (7168 / 128)"),
    "rtx-4070": (46, 2475, "https://www.thefpsreview.com/gpu-family/nvidia-geforce-rtx-4070-gpu-family-specifications (46 Streaming Multiprocessors, boost clock 2475MHz)"),
    "rtx-3090": (82, 1695, TPU_AMPERE + "; https://holynerdvana.blogspot.com/2022/10/nvidia-geforce-rtx-3090-specifications.html (Streaming Multiprocessors 82, Boost Clock 1695 MHz)"),
    "rtx-3090-used": (82, 1695, TPU_AMPERE + "; https://holynerdvana.blogspot.com/2022/10/nvidia-geforce-rtx-3090-specifications.html (Streaming Multiprocessors 82, Boost Clock 1695 MHz)"),
    "rtx-3080": (68, 1710, TPU_AMPERE + "; https://fudzilla.net/news/graphics/51457-nvidia-rtx-30-series-specifications-are-now-official (RTX 3080 boosts up to 1.71GHz)"),
    "rtx-3070": (46, 1730, "https://fudzilla.net/news/graphics/51457-nvidia-rtx-30-series-specifications-are-now-official (RTX 3070: 5888 CUDA cores, boosts up to 1.73GHz); 46 SMs derived (5888 / 128)"),
}
_ids = {d["id"] for d in devices}
for _k in NV_SM:
    if _k not in _ids:
        sys.exit("build_hardware.py: NV_SM names %s, which is no catalog device" % _k)
for d in devices:
    key = d["id"] if d["id"] in NV_SM else re.sub(r"^\d+x-", "", d["id"])
    if key not in NV_SM or d.get("vendor") != "nvidia":
        continue
    d["sm_count"], d["boost_clock_mhz"], src = NV_SM[key]
    d["sources"].append("sm_count %d, boost_clock_mhz %d: %s" % (d["sm_count"], d["boost_clock_mhz"], src))

# the chip family of every device (engine/catalog/chip_family.h: the speed model's per-generation rates key on it).
# Filled once from the name rules the engine used before the field existed, so every device kept its family; a
# multi-GPU rig (Nx-<id>) takes its GPU's. Some rows are the vendor/class median rather than a generation the model
# singles out (l20: nvidia-datacenter; dgx-spark and the Jetsons: apu): that is what they were computed with.
CHIP_FAMILY = {
    "nvidia-blackwell-geforce": ["rtx-5090", "rtx-5080", "rtx-5070-ti", "rtx-5070", "rtx-5060-ti-16gb",
                                "rtx-5090-laptop", "rtx-5060", "rtx-5060-ti-8gb"],
    "nvidia-blackwell-pro": ["b200", "rtx-pro-6000", "rtx-pro-6000-max-q"],
    "nvidia-ada-geforce": ["rtx-4090", "rtx-4080-super", "rtx-4080", "rtx-4070-ti-super", "rtx-4070-ti",
                          "rtx-4070-super", "rtx-4060-ti-16gb", "rtx-4090-laptop", "rtx-4070", "rtx-4060-ti-8gb",
                          "rtx-4060", "rtx-4070-laptop"],
    "nvidia-ada-pro": ["l40s", "l4", "rtx-6000-ada", "l40", "rtx-2000-ada", "rtx-4000-ada", "rtx-4500-ada",
                      "rtx-5000-ada"],
    "nvidia-hopper-h20": ["h20"],
    "nvidia-hopper": ["h200-sxm", "h100-sxm", "h100-pcie", "h100-nvl", "gh200-96gb"],
    "nvidia-ampere-geforce": ["rtx-3090", "rtx-3090-ti", "rtx-3080", "rtx-3070", "rtx-3060-12gb", "rtx-3090-used",
                             "rtx-3060-ti", "rtx-3080-12gb"],
    "nvidia-ampere-pro": ["a100-sxm-80gb", "a100-sxm-40gb", "a100-pcie-80gb", "a10g", "rtx-a6000", "a40", "a10",
                         "a30", "rtx-a4000", "rtx-a5000", "a100-pcie-40gb", "rtx-a4500"],
    "nvidia-turing": ["t4", "rtx-2080-ti", "quadro-rtx-6000"],
    "nvidia-volta": ["v100-pcie-16gb", "v100-pcie-32gb"],
    "nvidia-pascal-gp100": ["p100-pcie-16gb"],
    "nvidia-pascal": ["tesla-p40", "gtx-1080-ti"],
    "amd-rdna4": ["rx-9070-xt", "radeon-ai-pro-r9700", "rx-9060-xt-16gb", "rx-9070"],
    "amd-rdna3": ["radeon-pro-w7900", "rx-7900-xtx", "rx-7800-xt", "radeon-pro-w7800", "rx-7900-xt", "rx-7900-gre",
                 "rx-7600"],
    "amd-cdna4": ["mi355x"],
    "amd-cdna3": ["mi300x", "mi325x", "mi300a"],
    "amd-cdna2": ["mi210", "mi250x-gcd"],
    "amd-cdna1": ["mi100"],
    "amd-strix-halo": ["strix-halo-96", "strix-halo-64", "strix-halo-128"],
    "intel-xe2": ["arc-b580", "arc-pro-b60", "arc-pro-b70", "arc-b570"],
    "intel-alchemist": ["arc-a770-16gb", "arc-a750", "arc-a580"],
    "nvidia-datacenter": ["l20"],
    "amd-consumer": ["rx-6900-xt", "rx-6800-xt", "rx-6800", "rx-6700-xt"],
    "amd-apu": ["ryzen-ai-9-hx-370-32", "ryzen-ai-9-hx-370-64", "ryzen-7-7840u-32"],
    "intel": ["core-ultra-7-258v"],
    "apple": ["m1-16", "m1-pro-32", "m1-max-64", "m1-ultra-128", "m2-24", "m2-pro-32", "m2-max-96", "m2-ultra-64",
             "m2-ultra-192", "m3-24", "m3-pro-36", "m3-max-48", "m3-max-64", "m3-max-128", "m3-ultra-96",
             "m3-ultra-256", "m3-ultra-512", "m4-16", "m4-24", "m4-32", "m4-pro-24", "m4-pro-48", "m4-pro-64",
             "m4-max-36", "m4-max-64", "m4-max-128", "m5-16", "m5-24", "m5-32", "m1-max-32", "m2-8", "m2-16",
             "m2-pro-16", "m2-max-32", "m2-max-64", "m3-8", "m3-16", "m4-max-48"],
    "apu": ["dgx-spark", "jetson-agx-orin-64gb", "jetson-orin-nano-super", "jetson-agx-thor"],
    "cpu": ["cpu-ryzen-9-7950x-ddr5", "cpu-epyc-9654-12ch"],
}
_family_of = {}
for _f, _fids in CHIP_FAMILY.items():
    for _i in _fids:
        if _i not in _ids:
            sys.exit("build_hardware.py: CHIP_FAMILY %s names %s, which is no catalog device" % (_f, _i))
        if _i in _family_of:
            sys.exit("build_hardware.py: %s is in CHIP_FAMILY twice (%s, %s)" % (_i, _family_of[_i], _f))
        _family_of[_i] = _f
for d in devices:
    key = d["id"] if d["id"] in _family_of else re.sub(r"^\d+x-", "", d["id"])
    if key not in _family_of:
        sys.exit("build_hardware.py: %s has no chip family; add it to CHIP_FAMILY" % d["id"])
    d["chip_family"] = _family_of[key]

# names tools print for a device where the engine's name rule (engine/rig/resolve_device.h: vendor words, "(...)"
# details, memory sizes and the SXM form factor ignored; llama.cpp / nvidia-smi / rocm-smi line shapes parsed) does not
# reach the catalog name. Each with the tool and where it was printed; tests/engine/data/device_tool_names.jsonl checks
# these and the rule's cases against real strings. A generic name ("AMD Radeon Graphics", Jetson's "Orin") is never
# listed: it names no single device.
TOOL_NAMES = {  # id: [(name, "tool: where printed")]
    "dgx-spark": [("NVIDIA GB10",
                   "nvidia-smi table row '|   0  NVIDIA GB10   On  |' in ggml-org/llama.cpp@4c7e9893c4ca8eec35d032726d14b74fae76cff8:"
                   "benches/dgx-spark.md; llama.cpp CUDA 'Device 0: NVIDIA GB10, compute capability 12.1, VMM: yes' (" + FS +
                   "8851705666, 68853219273); vLLM collect_env 'GPU 0: NVIDIA GB10' https://github.com/vllm-project/vllm/issues/36835")],
    "h100-sxm": [("NVIDIA H100 80GB HBM3",
                  "nvidia-smi name of the SXM5 part (the PCIe and NVL parts say so): vLLM collect_env 'GPU 0: NVIDIA H100 80GB HBM3' "
                  "https://github.com/vllm-project/vllm/issues/8243; SkyPilot maps RunPod's 'H100-80GB-SXM' to it "
                  "https://github.com/skypilot-org/skypilot/pull/2945")],
    "h200-sxm": [("NVIDIA H200",
                  "nvidia-smi name of the SXM part (the NVL card prints 'NVIDIA H200 NVL'): SGLang check_env 'GPU 0,1,2,3,4,5,6,7: "
                  "NVIDIA H200' on an 8-GPU NVLink (NV18) board https://github.com/sgl-project/sglang/pull/9812")],
    "gh200-96gb": [("NVIDIA GH200 480GB",
                    "nvidia-smi name of the 96 GB HBM3 module ('480GB' is the module's LPDDR5X + HBM3), as in this entry's memory_basis: " +
                    FS + "53660951180, 66196318461, 63088167599")],
    "rtx-pro-6000": [("NVIDIA RTX PRO 6000 Blackwell Server Edition",
                      "PyTorch torch.cuda.get_device_name (the driver's name) https://github.com/zzc0721/torch-performance-test-data/issues/44; "
                      "https://github.com/antirez/ds4/pull/256 (97 GB, sm_120). The passive 600 W data-center board of the same GB202 "
                      "with 96 GB at 1792 GB/s; the cloud price above is already a Server Edition offer")],
    "mi300x": [("AMD Instinct MI300X OAM",
                "amd-smi / amdsmi board product_name ('market_name' prints 'AMD Instinct MI300X') https://github.com/ROCm/vllm/pull/359")],
}
for _tid, _names in TOOL_NAMES.items():
    if _tid not in _ids:
        sys.exit("build_hardware.py: TOOL_NAMES names %s, which is no catalog device" % _tid)
for d in devices:
    if d["id"] in TOOL_NAMES:
        d["tool_names"] = [n for n, _ in TOOL_NAMES[d["id"]]]
        d["sources"] += ["tool_names '%s': %s" % (n, src) for n, src in TOOL_NAMES[d["id"]]]

# ------------------------------------------------------------------------------------------------------
# seed notes
SEED_RULE = {
    "datacenter": "the seed's datacenter limits look like nominal GB - 0.6 GiB (H200 140.4 also equals nvidia-smi 143771 MiB)",
    "workstation": "the seed's discrete-GPU limits look like nominal GB - 1.0 GiB",
    "consumer": "the seed's discrete-GPU limits look like nominal GB - 1.0 GiB (2x rig: 46.6 = 2 x 23.3)",
    "apple": "the seed's Apple limits look like 0.78 x RAM for >= 48 GB and RAM - 6 GB for 16/24 GB",
    "apu": "the seed's AMD APU limits are 0.75 x RAM (for 128 GB this is AMD's Windows Variable Graphics Memory maximum of 96 GB)",
}
for d in devices:
    for a in d["seed_aliases"]:
        if a in SEED_LIMITS:
            lim = SEED_LIMITS[a]
            n = d["gpu_count"]
            ours = "memory %.1f GiB%s" % (n * d["memory_mib"] / 1024.0, (" (%d x %.1f)" % (n, d["memory_mib"] / 1024.0)) if n > 1 else "")
            if d.get("gpu_limit_default_mib"):
                ours += ", default GPU limit %.1f GiB, raised max %.1f GiB" % (d["gpu_limit_default_mib"] / 1024.0,
                                                                              (d.get("gpu_limit_max_mib") or 0) / 1024.0)
            d["notes"].append("seed row '%s' shows a usable limit of %.1f GiB (Total / Limit column); ours: %s. %s; "
                              "our limits come from the sourced rules, not from the seed" % (a, lim, ours, SEED_RULE[d["kind"]]))

order = {"datacenter": 0, "workstation": 1, "consumer": 2, "apple": 3, "apu": 4, "cpu": 5}
for d in devices:
    for k in ("calibration_names", "seed_aliases"):
        pass
doc = {"schema": "llmsim-hardware/1",
       "generated_by": "scripts/catalog/build_hardware.py from the reference data (hardware.json: 70 devices, hardware_added_2025.json; each device's own sources are copied) plus additions",
       "conventions": [
           "memory_mib, bandwidth_gbs, fp16_tflops, int8_tops, tdp_w, cloud_usd_per_hour are per GPU; price_usd / price_used_usd cover all gpu_count GPUs",
           "memory_kind: gddr | hbm | unified (LPDDR/DDR shared with the CPU), stated for every device",
           "chip_family: the silicon generation the speed model keys its per-family rates on (engine/catalog/chip_family.h), stated for every device",
           "fp16_tflops: GeForce = dense FP16 tensor with FP16 accumulate; workstation/datacenter = their dense FP16/BF16 tensor figure; Apple/APU = GPU FP16 peak; CPU = estimated FP32 FMA peak",
           "cloud_usd_per_hour: cheapest on-demand per-GPU price in reference/prices/gpu_hourly.json (GPU-component-only rows excluded), marketplace offers included",
           "<field>_estimated: true marks a value that is derived or assumed rather than read from a source; notes say how"],
       "devices": devices}
with open(OUT, "w") as f:
    json.dump(doc, f, indent=1, ensure_ascii=False)
    f.write("\n")
print("wrote %s: %d devices" % (OUT, len(devices)))
