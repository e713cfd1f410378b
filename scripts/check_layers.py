#!/usr/bin/env python3
"""Check that the engine's folders are layers: every `#include "folder/file.h"` in engine/ names a folder of the
file's own layer or of a layer below it (engine/layers.txt, bottom to top), and the folders form no include cycle.

The build runs it before compiling the engine (CMakeLists.txt) and ctest runs it as `engine_layers`; a
back-include fails both with one line per include: file:line, what it includes and the layers it may use.

  python3 scripts/check_layers.py [--root DIR]     # exit 0 when clean, 1 with one line per problem
  python3 scripts/check_layers.py --graph          # the folder-level include graph (edge counts), then the check
  python3 scripts/check_layers.py --self-test      # plants a back-include, a cycle and an unplaced folder
"""
import argparse
import os
import re
import shutil
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"/]+)/[^"]*"')
FRONT_ENDS = ("ui", "cli", "net", "tests", "tools")   # the engine links none of them


def read_table(path):
    """[(layer, [folders])] bottom to top."""
    layers = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if ":" not in line:
                raise SystemExit(f"{path}:{n}: expected '<layer>: <folder> ...'")
            name, rest = (s.strip() for s in line.split(":", 1))
            layers.append((name, rest.split()))
    return layers


def engine_files(engine):
    for folder in sorted(os.listdir(engine)):
        d = os.path.join(engine, folder)
        if not os.path.isdir(d):
            continue
        for dirpath, _, names in os.walk(d):
            for name in sorted(names):
                if name.endswith((".h", ".hpp", ".cpp", ".inc")):
                    p = os.path.join(dirpath, name)
                    yield folder, os.path.relpath(p, engine).replace(os.sep, "/"), p


def check(engine, table_path, graph=False, out=sys.stdout):
    layers = read_table(table_path)
    level, layer_of = {}, {}
    for i, (name, folders) in enumerate(layers):
        for folder in folders:
            if folder in level:
                print(f"{table_path}: folder '{folder}' is in two layers", file=out)
                return 1
            level[folder], layer_of[folder] = i, name
    problems = []
    edges = {}   # (from, to) -> [file:line]
    folders_here = sorted(d for d in os.listdir(engine) if os.path.isdir(os.path.join(engine, d)))
    for folder in folders_here:
        if folder not in level:
            problems.append(f"engine/{folder}/: not in any layer of engine/layers.txt "
                            f"(add it to the line of the layer it belongs to)")
    for folder, rel, path in engine_files(engine):
        if folder not in level:
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = m.group(1)
                where = f"engine/{rel}:{n}"
                if target in FRONT_ENDS:
                    problems.append(f'{where}: includes "{target}/..." (the engine includes no front end)')
                    continue
                if target not in level or target == folder:
                    continue
                edges.setdefault((folder, target), []).append(where)
                if level[target] > level[folder]:
                    allowed = ", ".join(name for name, _ in layers[: level[folder] + 1])
                    problems.append(
                        f'{where}: includes "{m.group(0).split(chr(34))[1]}": layer \'{layer_of[target]}\' is above '
                        f"'{layer_of[folder]}' ({folder}/); {folder}/ may include the layers {allowed}")
    # folders of one layer may include each other, but not in a circle
    graph_out = {}
    for a, b in edges:
        graph_out.setdefault(a, set()).add(b)
    cycle = find_cycle(graph_out)
    if cycle:
        via = "; ".join(f"{a} -> {b} ({edges[(a, b)][0]})" for a, b in zip(cycle, cycle[1:]))
        problems.append("folder include cycle " + " -> ".join(cycle) + ": " + via)
    if graph:
        for folder in folders_here:
            outs = sorted((b, len(v)) for (a, b), v in edges.items() if a == folder)
            print(f"{folder} -> " + " ".join(f"{b}({k})" for b, k in outs), file=out)
    for p in problems:
        print(p, file=out)
    if problems:
        print(f"check_layers: {len(problems)} problem(s); the layers, bottom to top, are in "
              f"{os.path.relpath(table_path, os.path.dirname(os.path.abspath(engine)))}", file=out)
    return 1 if problems else 0


def find_cycle(g):
    """One cycle of the graph as [a, b, ..., a], or None."""
    state, stack = {}, []

    def visit(v):
        state[v] = 1
        stack.append(v)
        for w in sorted(g.get(v, ())):
            if state.get(w) == 1:
                return stack[stack.index(w):] + [w]
            if w not in state:
                c = visit(w)
                if c:
                    return c
        stack.pop()
        state[v] = 2
        return None

    for v in sorted(g):
        if v not in state:
            c = visit(v)
            if c:
                return c
    return None


def self_test():
    """A tiny engine: clean it passes; a planted back-include, a cycle inside a layer and an unplaced folder each fail."""
    import io
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        eng = os.path.join(tmp, "engine")
        for folder in ("core", "catalog", "spec", "vision"):
            os.makedirs(os.path.join(eng, folder))
        table = os.path.join(eng, "layers.txt")
        with open(table, "w") as f:
            f.write("core: core\ncatalog: catalog\nworkloads: spec vision\n")

        def write(rel, text):
            with open(os.path.join(eng, rel), "w") as f:
                f.write(text)

        def run(expect_rc, must_contain, what):
            buf = io.StringIO()
            rc = check(eng, table, out=buf)
            text = buf.getvalue()
            if rc != expect_rc or any(s not in text for s in must_contain):
                failures.append(f"{what}: rc {rc}, output:\n{text}")

        write("core/units.h", "#pragma once\n")
        write("catalog/catalog.h", '#pragma once\n#include "core/units.h"\n')
        write("spec/spec.h", '#pragma once\n#include "catalog/catalog.h"\n#include "vision/vision.h"\n')
        write("vision/vision.h", '#pragma once\n#include "core/units.h"\n')
        run(0, [], "a clean tree")
        write("core/format.cpp", '// planted\n#include "catalog/catalog.h"\n')
        run(1, ['engine/core/format.cpp:2: includes "catalog/catalog.h"', "may include the layers core"],
            "a planted back-include")
        os.remove(os.path.join(eng, "core/format.cpp"))
        write("vision/vision.cpp", '#include "spec/spec.h"\n')
        run(1, ["folder include cycle spec -> vision -> spec"], "a cycle inside one layer")
        os.remove(os.path.join(eng, "vision/vision.cpp"))
        os.makedirs(os.path.join(eng, "newfolder"))
        run(1, ["engine/newfolder/: not in any layer"], "a folder in no layer")
        shutil.rmtree(os.path.join(eng, "newfolder"))
        write("catalog/x.cpp", '#include "ui/app.h"\n')
        run(1, ['includes "ui/..."'], "an include of a front end")
    for f in failures:
        print("self-test FAILED:", f)
    if not failures:
        print("check_layers self-test: a planted back-include, a cycle, an unplaced folder and a front-end include "
              "are each caught; the clean tree passes")
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--graph", action="store_true", help="print the folder include graph first")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--stamp", help="write this file when the check passes (the build's output)")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    engine = os.path.join(a.root, "engine")
    rc = check(engine, os.path.join(engine, "layers.txt"), graph=a.graph)
    if rc == 0 and a.stamp:
        with open(a.stamp, "w") as f:
            f.write("engine layers checked\n")
    return rc


if __name__ == "__main__":
    sys.exit(main())
