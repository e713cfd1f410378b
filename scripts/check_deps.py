#!/usr/bin/env python3
"""Check that every external program the scripts, CMake files and tests call comes from a package that
scripts/setup.sh installs (scripts/packages.txt) or from a Debian 12 `minbase` root.

A fresh machine has only `minbase` (Essential and Priority: required packages, plus apt); the developers'
machines have much more, so a missing entry in the install list goes unnoticed until a newcomer runs the
README's commands. This check reads the call sites statically, so it needs no fresh machine:

1. Collect the commands each file calls: shell scripts (words in command position, through `env`, `exec`,
   `as_root`, `stage NAME`, `bash -c '...'` ...), CMake (`find_program`, `COMMAND`, `execute_process`,
   `find_package(Python3)`), the browser test (its `executablePath`) and absolute files the build reads.
2. Each must be provided by an entry of scripts/packages.txt whose mode the caller can rely on (the run
   command may use only `run` packages; `--desktop` `run`+`desktop`; tests everything) — or be a program of
   the minbase set, or one the project builds itself.
3. Where a package of the list is installed here, its `provides` claim is verified with dpkg: the file must
   belong to that package or to one of its dependencies.

Exit 0 when all is well; otherwise one line per problem (file:line, the command, what to add) and exit 1.
  python3 scripts/check_deps.py [--root DIR] [--verbose]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

MODES = ("run", "desktop", "test")

# Programs a Debian 12 minbase root has without installing anything: the Essential and Priority: required
# packages (coreutils, bash, dash, grep, sed, mawk, findutils, tar, gzip, diffutils, dpkg, apt, util-linux,
# debianutils, hostname, login, ...). Listed by name rather than read from this machine, whose extra packages
# would otherwise count as "base".
MINBASE_COMMANDS = set("""
bash sh dash cat cp mv rm mkdir rmdir ln ls chmod chown touch echo printf test [ true false env id uname date
sleep head tail wc sort uniq cut tr tee basename dirname readlink realpath mktemp nproc seq expr yes stat du df
dd install sync timeout nice nohup stdbuf od md5sum sha256sum base64 split comm paste join fold fmt numfmt tac
grep egrep fgrep sed awk mawk find xargs tar gzip gunzip zcat diff cmp dpkg dpkg-query dpkg-deb apt apt-get
apt-cache apt-config apt-mark which hostname kill ps mount umount getopt more login su runuser chroot
""".split())

# Shell words that are not programs (builtins, keywords, and the scripts' own helper functions are found
# from the file itself).
SHELL_WORDS = set("""
if then else elif fi for in do done while until case esac function return local export declare readonly set
unset shift source . exit break continue eval exec trap wait cd pwd read mapfile readarray printf echo test
[ [[ ]] true false let command type hash shopt pushd popd time builtin alias jobs fg bg umask getopts
""".split())
WRAPPERS = {"env", "exec", "command", "nice", "nohup", "time", "sudo", "as_root", "timeout", "stdbuf"}


def parse_packages(path):
    pkgs = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            parts = line.split()
            if len(parts) < 4 or parts[1] not in MODES:
                sys.exit(f"{path}:{n}: expected 'package mode provides why...' with mode in {MODES}")
            provides = [] if parts[2] == "-" else parts[2].split(",")
            pkgs.append({"name": parts[0], "mode": parts[1], "provides": provides, "line": n})
    return pkgs


def strip_shell_comment(line):
    out, quote = [], None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t;"):
            break
        out.append(ch)
    return "".join(out)


def blank_strings(line):
    """The line with quoted text blanked (it is data, not commands), except what a shell would run: the
    inside of `$(...)` in double quotes, and the script of `bash -c '...'` / `sh -c "..."`."""
    out, i, n = [], 0, len(line)
    while i < n:
        ch = line[i]
        if ch in "'\"":
            j = line.find(ch, i + 1)
            j = n if j < 0 else j
            inner = line[i + 1:j]
            if re.search(r"\b(?:bash|sh)\s+-c\s*$", "".join(out)):
                out.append(" ; " + blank_strings(inner) + " ; ")
            elif ch == '"':
                subs = re.findall(r"\$\(([^()]*(?:\([^()]*\))?[^()]*)\)", inner)
                out.append(" " + " ; ".join("$(" + blank_strings(x) + ")" for x in subs) + " ")
            else:
                out.append(" ")
            i = j + 1
            continue
        out.append(ch)
        i += 1
    return re.sub(r"\$\(\([^)]*\)\)", " ", "".join(out))  # $(( arithmetic ))


def shell_commands(text, mode_of_line=None):
    """(line, word, mode) for each word in command position; functions defined in the file are skipped.
    A trailing `# check_deps: MODE` comment says the line runs only in that install mode."""
    functions = set(re.findall(r"^\s*([A-Za-z_][\w-]*)\s*\(\)\s*\{", text, re.M))
    found = []
    seg = re.compile(r"(?:^|;|\||&|\(|\$\(|`|\{|\bthen\b|\bdo\b|\belse\b|\bif\b|\bwhile\b|\buntil\b|!)\s*")
    for n, raw in enumerate(text.splitlines(), 1):
        note = re.search(r"#\s*check_deps:\s*(\w+)", raw)
        line = blank_strings(strip_shell_comment(raw))
        line = re.sub(r"[A-Za-z_]\w*\+?=\([^)]*\)?", " ", line)  # array literals (data)
        line = re.sub(r"(?:^|;;)\s*[^\s();]+\)\s", " ; ", line)  # `case` patterns
        for m in seg.finditer(line):
            words = re.findall(r"[^\s;|&()`]+", line[m.end():])
            i = 0
            while i < len(words):
                w = words[i]
                if re.match(r"^[A-Za-z_]\w*=", w) or w.startswith("-"):
                    i += 1
                    continue
                if w in WRAPPERS:
                    if w == "timeout" and i + 1 < len(words) and re.match(r"^\d", words[i + 1]):
                        i += 1
                    i += 1
                    continue
                if w == "stage":  # scripts/test.sh: stage NAME command...
                    i += 2
                    continue
                break
            if i >= len(words):
                continue
            w = words[i]
            if w in SHELL_WORDS or w in functions or w.startswith(("$", "{", "}", "[")) or "=" in w:
                continue
            if not re.match(r"^[\w./+-]+$", w) or re.match(r"^\d", w):
                continue
            found.append((n, w, note.group(1) if note else None))
    return found


def cmake_commands(text, targets):
    found = []
    for m in re.finditer(r"find_program\(\s*\w+\s+(?:NAMES\s+)?([\w.+-]+)", text):
        found.append((text.count("\n", 0, m.start()) + 1, m.group(1)))
    for m in re.finditer(r"\bCOMMAND\s+\"?([^\s\"$)][^\s\")]*)", text):
        w = m.group(1)
        if w not in targets:
            found.append((text.count("\n", 0, m.start()) + 1, w))
    for m in re.finditer(r"COMMAND\s+sh\s+-c\s+\"([^\"]*)\"", text):
        for _, w, _ in shell_commands(m.group(1)):
            found.append((text.count("\n", 0, m.start()) + 1, w))
    if re.search(r"find_package\(\s*Python3\b", text):
        found.append((text.count("\n", 0, text.find("find_package(Python3")) + 1, "python3"))
    for m in re.finditer(r"(/usr/(?:share|bin|lib)/[\w./+-]+\.(?:otf|ttf))", text):
        found.append((text.count("\n", 0, m.start()) + 1, m.group(1)))
    return found


def js_commands(text):
    found = []
    for m in re.finditer(r"['\"](/usr/bin/[\w.+-]+)['\"]", text):
        found.append((text.count("\n", 0, m.start()) + 1, m.group(1)))
    for m in re.finditer(r"\b(?:spawn|execFile|execFileSync|spawnSync)\(\s*['\"]([\w.+-]+)['\"]", text):
        found.append((text.count("\n", 0, m.start()) + 1, m.group(1)))
    return found


def python_commands(text):
    found = []
    for m in re.finditer(r"subprocess\.\w+\(\s*\[\s*['\"]([\w.+-]+)['\"]", text):
        found.append((text.count("\n", 0, m.start()) + 1, m.group(1)))
    return found


def build_targets(root):
    names = set()
    for dirpath, _, files in os.walk(root):
        if any(p in dirpath for p in ("/third_party", "/build", "/node_modules", "/.git")):
            continue
        for f in files:
            if f == "CMakeLists.txt" or f.endswith(".cmake"):
                text = open(os.path.join(dirpath, f), encoding="utf-8").read()
                names.update(re.findall(r"add_executable\(\s*([\w.+-]+)", text))
    return names


def sources(root):
    """(path, kind, mode) of every file whose calls are checked; mode = the least install it may rely on."""
    out = [("scripts/run.sh", "sh", "run"), ("scripts/setup.sh", "sh", "run"),
           ("scripts/test.sh", "sh", "test"), ("scripts/fuzz.sh", "sh", "test"), (".ci/run", "sh", "test")]
    for dirpath, _, files in sorted(os.walk(os.path.join(root, "scripts"))):
        for f in sorted(files):
            if f.endswith(".py"):
                out.append((os.path.relpath(os.path.join(dirpath, f), root), "py", "test"))
    out += [("CMakeLists.txt", "cmake", "run"), ("emsdk-toolchain.cmake", "cmake", "run"),
            ("cmake/app.cmake", "cmake", "run"), ("cmake/embed.cmake", "cmake", "run"),
            ("cmake/third_party.cmake", "cmake", "run")]
    for dirpath, _, files in os.walk(os.path.join(root, "tests")):
        if "node_modules" in dirpath:
            continue
        for f in sorted(files):
            rel = os.path.relpath(os.path.join(dirpath, f), root)
            if f == "CMakeLists.txt" or f.endswith(".cmake"):
                out.append((rel, "cmake", "test"))
            elif f.endswith(".mjs") or f.endswith(".js"):
                out.append((rel, "js", "test"))
            elif f.endswith(".sh"):
                out.append((rel, "sh", "test"))
    return [s for s in out if os.path.exists(os.path.join(root, s[0]))]


class Dpkg:
    """dpkg's database, read once: the installed packages with their dependencies (one dpkg-query call) and the
    owners of the files asked about (one `dpkg -S` call). A call per package cost ~0.4 s (`dpkg -S`) and ~2.8 s
    (`apt-cache depends --recurse`) each: 20-45 s of the test command's check stage, now about one second."""

    def __init__(self):
        self.deps, self.providers = {}, {}
        try:
            out = subprocess.run(["dpkg-query", "-W", "-f=${Package}\t${Status}\t${Depends}, ${Pre-Depends}\t${Provides}\n"],
                                 capture_output=True, text=True, check=False).stdout
        except OSError:
            out = ""
        for line in out.splitlines():
            parts = line.split("\t")
            if len(parts) != 4 or "install ok installed" not in parts[1]:
                continue
            name = parts[0]
            # "a (>= 1) | b, c:any" -> [["a", "b"], ["c"]]: a group is met by any installed alternative
            groups = [[alt.split()[0].split(":")[0] for alt in g.split("|") if alt.strip()]
                      for g in parts[2].split(",") if g.strip()]
            self.deps[name] = groups
            for v in parts[3].split(","):
                if v.strip():
                    self.providers.setdefault(v.split()[0].split(":")[0], []).append(name)
        self.owners = {}

    def installed(self, pkg):
        return pkg in self.deps

    def closure(self, pkg):
        """pkg and every installed package it depends on, recursively (Depends and Pre-Depends, all installed
        alternatives, virtual names through their installed providers): what `apt-cache depends --recurse
        --installed --no-recommends` lists"""
        seen, todo = set(), [pkg]
        while todo:
            n = todo.pop()
            if n in seen:
                continue
            seen.add(n)
            for group in self.deps.get(n, []):
                for alt in group:
                    todo.extend(a for a in [alt] + self.providers.get(alt, []) if a in self.deps)
        return seen

    def find_owners(self, paths):
        """the package owning each path (None: no package owns it, e.g. /usr/local), in one `dpkg -S` call"""
        ask = [p for p in dict.fromkeys(paths) if p not in self.owners]
        if not ask:
            return
        try:
            out = subprocess.run(["dpkg", "-S"] + ask, capture_output=True, text=True, check=False).stdout
        except OSError:
            out = ""
        for p in ask:
            self.owners[p] = None
        for line in out.splitlines():
            pkgs, _, path = line.partition(": ")
            if path in self.owners and self.owners[path] is None and not pkgs.startswith("diversion by"):
                self.owners[path] = pkgs.split(",")[0].split(":")[0].strip()

    def owner(self, path):
        self.find_owners([path])
        return self.owners.get(path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--packages", help="install list to check against (default: ROOT/scripts/packages.txt)")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--skip-claims", action="store_true",
                    help="check the call sites only, not the packages' claims against dpkg (the self-test's runs)")
    ap.add_argument("--self-test", action="store_true",
                    help="check that the checker fails when a needed package is dropped from the list")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    if args.self_test:
        return self_test(root)
    pkgs = parse_packages(args.packages or os.path.join(root, "scripts/packages.txt"))
    provider = {}
    for p in pkgs:
        for c in p["provides"]:
            provider.setdefault(c, p)
    targets = build_targets(root)
    problems, checked = [], 0

    for rel, kind, mode in sources(root):
        text = open(os.path.join(root, rel), encoding="utf-8", errors="replace").read()
        calls = {"sh": shell_commands, "py": python_commands, "js": js_commands}.get(kind)
        calls = cmake_commands(text, targets) if kind == "cmake" else calls(text)
        for call in calls:
            line, cmd = call[0], call[1]
            line_mode = call[2] if len(call) > 2 and call[2] else mode
            if line_mode not in MODES:
                problems.append(f"{rel}:{line}: unknown mode '{line_mode}' in a check_deps comment")
                continue
            allowed = MODES[: MODES.index(line_mode) + 1]
            checked += 1
            name = os.path.basename(cmd) if not cmd.startswith("/usr/share") else cmd
            if cmd.startswith(("scripts/", "build/", "tests/", "./", "$")) or name in targets:
                continue  # the project's own scripts and programs
            if name in MINBASE_COMMANDS:
                continue
            p = provider.get(cmd) or provider.get(name)
            if p is None:
                problems.append(f"{rel}:{line}: calls '{cmd}', which no package in scripts/packages.txt provides "
                                f"and a minbase Debian root does not have: add its package there")
            elif p["mode"] not in allowed:
                problems.append(f"{rel}:{line}: calls '{cmd}' (package {p['name']}, mode {p['mode']}), but this file "
                                f"runs with only the '{line_mode}' install: move the package to mode '{line_mode}'")
            elif args.verbose:
                print(f"ok  {rel}:{line}: {cmd} <- {p['name']} ({p['mode']})")

    # the claims: where the package is installed here, its provided files belong to it (or a dependency)
    dpkg = None if args.skip_claims else Dpkg()
    claims = []   # (package, provided command or file, its path here)
    for p in ([] if dpkg is None else pkgs):
        if not p["provides"] or not dpkg.installed(p["name"]):
            continue
        for c in p["provides"]:
            path = c if c.startswith("/") else shutil.which(c)
            if path is None:
                problems.append(f"scripts/packages.txt:{p['line']}: {p['name']} is installed but '{c}' is not found")
                continue
            claims.append((p, c, path))
    if dpkg is not None:
        dpkg.find_owners([q for _, _, path in claims for q in (os.path.realpath(path), path)])
    for p, c, path in claims:
        owner = dpkg.owner(os.path.realpath(path)) or dpkg.owner(path)
        if owner is None:
            continue  # a file outside dpkg (e.g. /usr/local): nothing to verify against
        if owner not in dpkg.closure(p["name"]):
            problems.append(f"scripts/packages.txt:{p['line']}: '{c}' belongs to package {owner}, "
                            f"not to {p['name']} or its dependencies")

    problems = list(dict.fromkeys(problems))
    for line in problems:
        print(line)
    print(f"check_deps: {checked} call sites in {len(sources(root))} files, {len(pkgs)} packages: "
          f"{'OK' if not problems else str(len(problems)) + ' problem(s)'}")
    return 1 if problems else 0


def self_test(root):
    """Drop one package at a time from the list (npm: the package whose absence broke a fresh machine; a font;
    the web compiler) and demand that the check fails and names what is missing; then the full list passes."""
    import tempfile
    lines = open(os.path.join(root, "scripts/packages.txt"), encoding="utf-8").read().splitlines(True)
    cases = {"npm": "'npm'", "fonts-inter": "Inter-Regular.otf", "emscripten": "'emcc'", "chromium": "chromium"}
    failures = 0
    for pkg, expect in cases.items():
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.writelines(l for l in lines if l.split()[:1] != [pkg])
        r = subprocess.run([sys.executable, os.path.abspath(__file__), "--root", root, "--packages", f.name, "--skip-claims"],
                           capture_output=True, text=True, check=False)
        os.unlink(f.name)
        ok = r.returncode == 1 and expect in r.stdout
        failures += not ok
        print(f"self-test: without {pkg}: {'fails as it should' if ok else 'NOT CAUGHT'} "
              f"({r.stdout.strip().splitlines()[0] if r.stdout.strip() else 'no output'})")
    r = subprocess.run([sys.executable, os.path.abspath(__file__), "--root", root], capture_output=True, text=True)
    failures += r.returncode != 0
    print(f"self-test: full list: {'passes' if r.returncode == 0 else 'FAILS'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
