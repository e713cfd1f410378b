#!/usr/bin/env python3
"""The web page's size report: what a static host transfers (each file raw and gzip -9), the wasm by section, its
code by library (function bodies, named through emscripten's symbol map and each library's own symbols) and its
embedded assets and fonts, then the files the page fetches after its first view (--deferred: the measured rows and
the serving accuracy report), apart from it. With --budget it fails (exit 1) when the page's gzip total is over the budget file's
number, so the quick test tier catches growth (ctest web_size_budget); the budget only moves down.

  scripts/web_size_report.py --site build/web/site [--symbols build/web/site/llmsim.js.symbols]
      [--nm emnm --lib ui=libllmsim_ui.a ...] [--asset catalog/models.json=build/web/generated/min/models.json ...]
      [--deferred calibration/llamacpp_speed.jsonl ...] [--budget cmake/web_size_budget.txt]

Only the Python standard library; gzip sizes are zlib level 9 with no file name (a few bytes under `gzip -9 | wc -c`).
"""
import argparse
import gzip
import os
import re
import subprocess
import sys

# the files the first view loads (index.html and what it references); models/ (static pages) is not the app
PAGE_FILES = ["index.html", "llmsim.css", "llmsim-page.js", "llmsim.js", "llmsim.wasm"]
SECTION_NAMES = {0: "custom", 1: "type", 2: "import", 3: "function", 4: "table", 5: "memory", 6: "global",
                 7: "export", 8: "start", 9: "element", 10: "code", 11: "data", 12: "datacount"}


def gz(data):
    return len(gzip.compress(data, 9, mtime=0))


def leb(buf, pos, signed=False):
    """a LEB128 number at buf[pos]: (value, position after it); signed: sign-extended from its last byte's bit 6"""
    result = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            if signed and b & 0x40:
                result -= 1 << shift
            return result, pos


def uleb(buf, pos):
    return leb(buf, pos)


def sleb(buf, pos):
    return leb(buf, pos, signed=True)


def wasm_sections(buf):
    """[(id, name, payload_start, payload_end)] of a wasm binary"""
    if buf[:4] != b"\0asm":
        raise ValueError("not a wasm binary")
    pos, out = 8, []
    while pos < len(buf):
        sid = buf[pos]
        size, start = uleb(buf, pos + 1)
        name = SECTION_NAMES.get(sid, str(sid))
        if sid == 0:
            n, p = uleb(buf, start)
            name = "custom:" + buf[p:p + n].decode("utf-8", "replace")
        out.append((sid, name, start, start + size))
        pos = start + size
    return out


def imported_function_count(buf, start):
    count, pos = uleb(buf, start)
    funcs = 0
    for _ in range(count):
        for _field in range(2):   # module, name
            n, pos = uleb(buf, pos)
            pos += n
        kind = buf[pos]
        pos += 1
        if kind == 0:             # function: type index
            _, pos = uleb(buf, pos)
            funcs += 1
        elif kind == 1:           # table: reftype + limits
            pos += 1
            flags, pos = uleb(buf, pos)
            _, pos = uleb(buf, pos)
            if flags & 1:
                _, pos = uleb(buf, pos)
        elif kind == 2:           # memory: limits
            flags, pos = uleb(buf, pos)
            _, pos = uleb(buf, pos)
            if flags & 1:
                _, pos = uleb(buf, pos)
        elif kind == 3:           # global: valtype + mutability
            pos += 2
        else:
            raise ValueError("unknown import kind %d" % kind)
    return funcs


def function_bodies(buf, start):
    """[(bytes of one function body)] in the code section's order"""
    count, pos = uleb(buf, start)
    bodies = []
    for _ in range(count):
        size, body = uleb(buf, pos)
        bodies.append(buf[pos:body + size])
        pos = body + size
    return bodies


def unescape(name):
    """the symbol map's names escape some characters as \\XX (hex): 'f\\28int\\29' -> 'f(int)'"""
    return re.sub(r"\\([0-9a-fA-F]{2})", lambda m: chr(int(m.group(1), 16)), name)


def read_symbol_map(path):
    """{function index: demangled name} from emscripten's --emit-symbol-map (lines 'index:name')"""
    names = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            idx, _, name = line.rstrip("\n").partition(":")
            if idx.isdigit():
                names[int(idx)] = unescape(name)
    return names


def library_symbols(nm, libs):
    """{demangled symbol: library label} from `nm -C` over each static library (the first to define a name wins)"""
    owner = {}
    for label, path in libs:
        out = subprocess.run([nm, "--defined-only", "-C", "-P", path], capture_output=True, text=True)
        if out.returncode != 0:
            print("size report: %s failed on %s: %s" % (nm, path, out.stderr.strip()), file=sys.stderr)
            continue
        for line in out.stdout.splitlines():
            parts = line.rsplit(" ", 3)   # name (may hold spaces) type value size
            if len(parts) == 4 and parts[1] in ("T", "t", "W", "w"):
                owner.setdefault(parts[0], label)
    return owner


def system_label(name):
    # what no static library of the project defines: emscripten's system libraries, the app's own main file, glue
    if name.startswith(("std::", "void std::", "bool std::")) or "__cxxabiv1" in name or name.startswith("operator "):
        return "libc++, libc++abi"
    return "other: libc, malloc, platform_web.cpp, glue"


def memory_image(buf, start):
    """the bytes the data section's active segments write, as one image of linear memory (wasm-opt splits segments
    at runs of zeros, so an embedded file can span several segments)"""
    count, pos = uleb(buf, start)
    pieces = []
    for _ in range(count):
        flags, pos = uleb(buf, pos)
        offset = 0
        if flags in (0, 2):
            if flags == 2:
                _, pos = uleb(buf, pos)
            if buf[pos] != 0x41:
                raise ValueError("data segment offset is not an i32.const")
            offset, pos = sleb(buf, pos + 1)
            pos += 1   # end
        size, pos = uleb(buf, pos)
        if flags != 1:
            pieces.append((offset, buf[pos:pos + size]))
        pos += size
    if not pieces:
        return b""
    base = min(o for o, _ in pieces)
    image = bytearray(max(o + len(b) for o, b in pieces) - base)
    for o, b in pieces:
        image[o - base:o - base + len(b)] = b
    return bytes(image)


def fmt(n):
    return "{:,}".format(n)


def report_code(buf, sections, args):
    imports = next((s for s in sections if s[0] == 2), None)
    code = next((s for s in sections if s[0] == 10), None)
    if not code or not args.symbols or not os.path.exists(args.symbols):
        return
    first = imported_function_count(buf, imports[2]) if imports else 0
    names = read_symbol_map(args.symbols)
    owner = library_symbols(args.nm, [tuple(x.split("=", 1)) for x in args.lib]) if args.nm else {}
    groups = {}
    for i, body in enumerate(function_bodies(buf, code[2])):
        name = names.get(first + i, "")
        label = owner.get(name) or system_label(name)
        groups.setdefault(label, []).append(body)
    print("  code by library (function bodies; gzip of each group alone):")
    for label, bodies in sorted(groups.items(), key=lambda kv: -sum(len(b) for b in kv[1])):
        blob = b"".join(bodies)
        print("    %-34s %10s raw %9s gzip  %5d functions" % (label, fmt(len(blob)), fmt(gz(blob)), len(bodies)))


def report_data(buf, sections, args):
    data = next((s for s in sections if s[0] == 11), None)
    if not data or not args.asset:
        return
    seg = memory_image(buf, data[2])
    print("  data by part (embedded assets as the build embeds them):")
    found = 0
    for item in args.asset:
        label, path = item.split("=", 1)
        with open(path, "rb") as f:
            blob = f.read()
        where = seg.find(blob)
        found += len(blob) if where >= 0 else 0
        print("    %-34s %10s raw %9s gzip%s" % (label, fmt(len(blob)), fmt(gz(blob)),
                                                   "" if where >= 0 else "  (not found in the data section)"))
    print("    %-34s %10s raw" % ("other data (strings, tables)", fmt(max(0, data[3] - data[2] - found))))


def report_deferred(args):
    """the files the page fetches once the verdict is on screen: transferred, but not before the first view. Returns
    how many are missing (the page would say it could not load them)"""
    missing = 0
    if not args.deferred:
        return 0
    print("  fetched after the first frame (not in the first view):")
    raw_sum = gz_sum = 0
    for name in args.deferred:
        path = os.path.join(args.site, name)
        if not os.path.exists(path):
            print("    %-34s MISSING from %s" % (name, args.site))
            missing += 1
            continue
        with open(path, "rb") as f:
            blob = f.read()
        raw_sum += len(blob)
        gz_sum += gz(blob)
        print("    %-34s %10s raw %9s gzip" % (name, fmt(len(blob)), fmt(gz(blob))))
    print("    %-34s %10s raw %9s gzip" % ("total (after the first view)", fmt(raw_sum), fmt(gz_sum)))
    return missing


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--site", required=True)
    ap.add_argument("--symbols", help="llmsim.js.symbols (emscripten --emit-symbol-map)")
    ap.add_argument("--nm", help="nm that reads the static libraries (emnm, llvm-nm)")
    ap.add_argument("--lib", action="append", default=[], help="LABEL=path/to/lib.a (repeatable)")
    ap.add_argument("--asset", action="append", default=[], help="LABEL=path of an embedded file (repeatable)")
    ap.add_argument("--deferred", action="append", default=[],
                    help="a file under --site the page fetches after its first frame (repeatable; not in the budget)")
    ap.add_argument("--budget", help="file holding the page's gzip budget in bytes (its first line not a # comment)")
    args = ap.parse_args()

    total_raw = total_gz = 0
    print("web size report (%s):" % args.site)
    for n in PAGE_FILES:
        path = os.path.join(args.site, n)
        if not os.path.exists(path):
            continue
        with open(path, "rb") as f:
            blob = f.read()
        raw, z = len(blob), gz(blob)
        total_raw += raw
        total_gz += z
        print("  %-36s %10s raw %9s gzip" % (n, fmt(raw), fmt(z)))
    print("  %-36s %10s raw %9s gzip" % ("total (the first view)", fmt(total_raw), fmt(total_gz)))

    wasm_path = os.path.join(args.site, "llmsim.wasm")
    if os.path.exists(wasm_path):
        with open(wasm_path, "rb") as f:
            buf = f.read()
        sections = wasm_sections(buf)
        print("  llmsim.wasm by section:")
        for _sid, name, a, b in sorted(sections, key=lambda s: -(s[3] - s[2])):
            if b - a >= 1024:
                print("    %-34s %10s raw %9s gzip" % (name, fmt(b - a), fmt(gz(buf[a:b]))))
        report_code(buf, sections, args)
        report_data(buf, sections, args)
    missing = report_deferred(args)

    if args.budget:
        with open(args.budget) as f:   # the first line that is not a '#' comment: the budget in bytes
            budget = int(next(line for line in f if line.strip() and not line.startswith("#")).split()[0])
        verdict = "within" if total_gz <= budget else "OVER"
        print("size total: %s bytes gzip, budget %s (%s): %s" % (fmt(total_gz), fmt(budget), args.budget, verdict))
        if total_gz > budget:
            print("The page grew past its budget. Cut it back (docs/web.md, 'Size'); the budget only moves down.")
            return 1
    if missing:
        print("%d file(s) the page fetches after its first frame are missing from the site" % missing)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
