#!/usr/bin/env python3
"""Fail when a C++ function in engine/, ui/, cli/, net/ or tools/ is longer than 120 lines.

Why: a function you can hold in your head is one screen; a long parser or panel is split along its natural
sub-headings (one function per rule it mirrors), so the limit is checked rather than remembered (issue 33).

How: a brace-matching scan, good enough for this codebase's style, not a C++ parser. Comments, string and
character literals (raw strings too) and preprocessor lines are blanked first. A '{' at namespace or class
scope opens a function body when the text before it (since the last ';', '{' or '}') has a parameter list and
is not an initializer ('= {'), a class/struct/union/enum head or a namespace / extern "C" block. Length is
counted from the line that starts the function's head (its return type) to the line of its closing '}',
both included. Lambdas and local classes count within their enclosing function.

usage: python3 scripts/check_function_length.py [--root DIR] [--max N] [--list N] [--self-test]
exit status 1 when a function is over the limit (each printed as FILE:LINE: NAME LINES lines), 0 otherwise.
--list N prints the N longest functions (no failure), to see what comes next.
"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SCAN = ["engine", "ui", "cli", "net", "tools"]
SKIP_DIRS = {"node_modules", ".git", "third_party", "build", "__pycache__"}
EXTS = (".cpp", ".cc", ".cxx", ".h", ".hpp", ".hh", ".inl")
MAX_LINES = 120

SCOPE_HEAD = re.compile(r"^\s*(template\s*<.*>\s*)?(class|struct|union|enum|namespace)\b|^\s*extern\s*\"C\"", re.S)
IDENT = re.compile(r"[A-Za-z_~][A-Za-z0-9_]*(?:\s*::\s*[A-Za-z_~][A-Za-z0-9_]*)*(?:\s*operator\s*[^\s(]+)?\s*$")


def blank_code(text):
    """Return text with comments, literals and preprocessor lines replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c == "#":
            # a preprocessor directive, with its backslash continuations
            j = i
            while j < n:
                k = text.find("\n", j)
                if k < 0:
                    k = n
                if text[j:k].rstrip().endswith("\\") and k < n:
                    j = k + 1
                    continue
                j = k
                break
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        if c == "\n":
            out.append(c)
            i += 1
            at_line_start = True
            continue
        if c in " \t\r":
            out.append(c)
            i += 1
            continue
        at_line_start = False
        if text.startswith("//", i):
            k = text.find("\n", i)
            k = n if k < 0 else k
            out.append(" " * (k - i))
            i = k
            continue
        if text.startswith("/*", i):
            k = text.find("*/", i + 2)
            k = n if k < 0 else k + 2
            out.append(re.sub(r"[^\n]", " ", text[i:k]))
            i = k
            continue
        m = re.match(r'(?:u8|u|U|L)?R"([^()\\ ]{0,16})\(', text[i:i + 24])
        if m and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            end = text.find(")" + m.group(1) + '"', i + m.end())
            k = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:k]))
            i = k
            continue
        if c == '"' or (c == "'" and not (i > 0 and text[i - 1].isalnum())):  # 1'000 digit separators stay
            k = i + 1
            while k < n and text[k] != c and text[k] != "\n":
                k += 2 if text[k] == "\\" else 1
            k = min(k + 1, n)
            out.append(c + " " * max(0, k - i - 2) + (c if k - i >= 2 else ""))
            i = k
            continue
        out.append(c)
        i += 1
    return "".join(out)


def function_name(head):
    """The name in a function head: the identifier right before its first top-level '('; None if not a function."""
    depth_angle = 0
    for idx, ch in enumerate(head):
        if ch == "<":
            depth_angle += 1
        elif ch == ">":
            depth_angle = max(0, depth_angle - 1)
        elif ch == "(" and depth_angle == 0:
            m = IDENT.search(head[:idx])
            if not m:
                return None
            name = re.sub(r"\s+", "", m.group(0))
            return name
    return None


def is_function_head(head):
    """True when the text before a '{' at namespace/class scope opens a function body."""
    h = head.strip()
    if not h or ")" not in h:
        return False
    if SCOPE_HEAD.search(h):
        return False
    # an initializer: '= {' or 'x = f() {' never happens; a '=' at paren depth 0 before the brace means data
    depth = 0
    for ch in h:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "=" and depth == 0:
            # operator= and friends are functions
            if re.search(r"operator\s*[=!<>+\-*/%&|^]*=", h):
                continue
            return False
    return function_name(h) is not None


def scan_functions(text):
    """Return [(name, first_line, last_line)] of every function body at namespace or class scope."""
    code = blank_code(text)
    line_of = []  # line number of each character offset, computed lazily by counting
    functions = []
    # stack of scopes: 'ns' (namespace, class, extern "C") where function heads may appear, or 'other'
    stack = []
    head_start = 0  # offset where the current head begins (after the last ';', '{' or '}')
    i, n = 0, len(code)
    while i < n:
        c = code[i]
        in_decl_scope = all(s == "ns" for s in stack)
        if c == ";":
            head_start = i + 1
        elif c == "{":
            head = code[head_start:i]
            if in_decl_scope and is_function_head(head):
                # skip to the matching brace: lambdas and local classes are inside
                depth, j = 0, i
                while j < n:
                    if code[j] == "{":
                        depth += 1
                    elif code[j] == "}":
                        depth -= 1
                        if depth == 0:
                            break
                    j += 1
                lead = len(head) - len(head.lstrip())
                first = code.count("\n", 0, head_start + lead) + 1
                last = code.count("\n", 0, j) + 1
                functions.append((function_name(head.strip()), first, last))
                i = j + 1
                head_start = i
                continue
            stack.append("ns" if in_decl_scope and SCOPE_HEAD.search(head.strip() or "x") and
                         not re.match(r"^\s*(template\s*<.*>\s*)?enum\b", head.strip(), re.S) and
                         "=" not in head else "other")
            head_start = i + 1
        elif c == "}":
            if stack:
                stack.pop()
            head_start = i + 1
        elif c == ":" and in_decl_scope and re.search(r"\b(public|private|protected)\s*$", code[head_start:i]):
            head_start = i + 1
        i += 1
    del line_of
    return functions


def files_under(root):
    for entry in SCAN:
        for d, dirs, names in os.walk(os.path.join(root, entry)):
            dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS and not os.path.islink(os.path.join(d, x)))
            for name in sorted(names):
                if name.endswith(EXTS):
                    yield os.path.relpath(os.path.join(d, name), root).replace(os.sep, "/")


def measure(root):
    rows = []
    for rel in files_under(root):
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            text = f.read()
        for name, first, last in scan_functions(text):
            rows.append((last - first + 1, rel, first, name))
    return rows


def self_test():
    """A planted long function must fail; data tables, classes, lambdas and comments must be counted right."""
    body = "\n".join("    x += %d;  // a { brace in a comment" % k for k in range(125))
    planted = (
        "namespace a {\n"
        "static const int kTable[] = {\n" + ",\n".join(str(k) for k in range(200)) + "\n};\n"
        "struct S {\n"
        "  int short_member() const { return 1; }\n"
        "};\n"
        "int long_one(int x) {\n" + body + "\n"
        "  auto f = [&](int y) { return y + 1; };\n"
        "  const char* s = \"}\"; (void)s;\n"
        "  return f(x);\n"
        "}\n"
        "std::string raw() { return R\"(}}})\"; }\n"
        "}  // namespace a\n")
    got = {name: last - first + 1 for name, first, last in scan_functions(planted)}
    want = {"short_member": 1, "long_one": 130, "raw": 1}
    ok = got == want
    if not ok:
        print("self-test: scanned %r, want %r" % (got, want))
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=ROOT)
    ap.add_argument("--max", type=int, default=MAX_LINES)
    ap.add_argument("--list", type=int, default=0, metavar="N", help="print the N longest functions and exit 0")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    rows = sorted(measure(args.root), key=lambda r: (-r[0], r[1], r[2]))
    if args.list:
        for lines, rel, first, name in rows[:args.list]:
            print("%s:%d: %s %d lines" % (rel, first, name, lines))
        return 0
    long_ones = [r for r in rows if r[0] > args.max]
    for lines, rel, first, name in long_ones:
        print("%s:%d: %s %d lines (limit %d): split it along its sub-headings" % (rel, first, name, lines, args.max))
    if not long_ones:
        print("%d functions, none over %d lines" % (len(rows), args.max))
    return 1 if long_ones else 0


if __name__ == "__main__":
    sys.exit(main())
