#!/usr/bin/env python3
"""Checks the static site `llmsim-cli site` writes (standard library only):
every catalog model has models/<org>/<name>/index.html, each page is at most 60 KB gzip, headings go in order
(one h1, no level skipped), every table has a caption and scoped header cells, units sit in the headers, the page
has a title, meta description, canonical link and Open Graph tags, the FAQPage JSON-LD holds exactly the visible FAQ
text, nothing is loaded from another origin, the CSP is the app's, and sitemap.xml lists every page.
Prints the page count, total size, the largest page gzip and the generation time.
  python3 tests/site_check.py build/native/llmsim-cli [--base-url https://example.org/llmsim/]
"""
import gzip
import html.parser
import json
import os
import re
import subprocess
import sys
import tempfile
import time

BUDGET_GZIP_BYTES = 60 * 1024  # issue 15: a page <= 60 KB gzip
CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'")


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.headings, self.meta, self.links, self.urls = [], {}, {}, []
        self.tables, self.jsonld, self.title = [], [], ""
        self._stack, self._text, self._in = [], [], None
        self.faq, self._faq_depth = [], None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for k in ("src", "href"):
            if k in a and a[k] is not None:
                self.urls.append(a[k])
        if tag == "meta":
            self.meta[a.get("name") or a.get("property") or a.get("http-equiv") or a.get("charset") and "charset"] = a.get("content")
        if tag == "link":
            self.links[a.get("rel")] = a.get("href")
        if tag == "section" and a.get("id") == "faq":
            self._faq_depth = len(self._stack)
        if tag == "table":
            self.tables.append({"caption": False, "th": 0, "th_scoped": 0, "headers": []})
        if tag == "caption" and self.tables:
            self.tables[-1]["caption"] = True
        if tag == "th" and self.tables:
            self.tables[-1]["th"] += 1
            self.tables[-1]["th_scoped"] += 1 if a.get("scope") in ("col", "row") else 0
        if tag in ("h1", "h2", "h3", "h4", "title", "th", "p") or (tag == "script" and a.get("type") == "application/ld+json"):
            self._in, self._text = (tag, a.get("scope")), []
        self._stack.append(tag)

    def handle_endtag(self, tag):
        if self._stack:
            self._stack.pop()
        if self._faq_depth is not None and tag == "section" and len(self._stack) == self._faq_depth:
            self._faq_depth = None
        if not self._in or self._in[0] != tag:
            return
        text = "".join(self._text)
        if tag in ("h1", "h2", "h3", "h4"):
            self.headings.append(int(tag[1]))
        if tag == "title":
            self.title = text
        if tag == "script":
            self.jsonld.append(text)
        if tag == "th" and self._in[1] == "col" and self.tables:
            self.tables[-1]["headers"].append(text)
        if self._faq_depth is not None and tag in ("h3", "p"):
            self.faq.append(text)
        self._in = None

    def handle_data(self, data):
        if self._in:
            self._text.append(data)


def check_page(path, rel, errors):
    raw = open(path, "rb").read()
    gz = len(gzip.compress(raw, 9))
    if gz > BUDGET_GZIP_BYTES:
        errors.append(f"{rel}: {gz} bytes gzip > {BUDGET_GZIP_BYTES}")
    p = Page()
    p.feed(raw.decode("utf-8"))
    if p.headings.count(1) != 1 or p.headings[0] != 1:
        errors.append(f"{rel}: headings {p.headings} (one h1 first)")
    for a, b in zip(p.headings, p.headings[1:]):
        if b > a + 1:
            errors.append(f"{rel}: heading h{a} followed by h{b}")
            break
    for i, t in enumerate(p.tables):
        if not t["caption"] or t["th"] != t["th_scoped"]:
            errors.append(f"{rel}: table {i} caption={t['caption']} th={t['th']} scoped={t['th_scoped']}")
        for h in t["headers"]:
            if re.search(r"GiB|GB|tok/s|\(s\)|tokens|USD|Bits", h) is None and h not in (
                    "Quantization", "Quality", "Hardware", "Status", "Simulate", "Measured runs", "Option", "How", "Model",
                    "Hugging Face id", "Family", "Release format", "Parameters (billions)"):
                errors.append(f"{rel}: column '{h}' names no unit")
    for key in ("description", "og:title", "og:description", "og:url", "Content-Security-Policy", "viewport"):
        if not p.meta.get(key):
            errors.append(f"{rel}: no meta {key}")
    if p.meta.get("Content-Security-Policy") != CSP:
        errors.append(f"{rel}: CSP differs from the app's")
    if not p.title or not p.links.get("canonical"):
        errors.append(f"{rel}: title '{p.title}', canonical {p.links.get('canonical')}")
    for u in p.urls:   # the page's own canonical URL (--base-url) is no request
        if re.match(r"^(https?:)?//", u) and u != p.links.get("canonical"):
            errors.append(f"{rel}: loads or links another origin: {u}")
    return gz, p


def check_faq(rel, p, errors):
    if len(p.jsonld) != 1:
        errors.append(f"{rel}: {len(p.jsonld)} JSON-LD blocks")
        return
    ld = json.loads(p.jsonld[0])
    ld_text = []
    for q in ld.get("mainEntity", []):
        ld_text += [q["name"], q["acceptedAnswer"]["text"]]
    if ld.get("@type") != "FAQPage" or ld_text != p.faq or not ld_text:
        errors.append(f"{rel}: FAQ JSON-LD differs from the visible FAQ ({len(ld_text)} vs {len(p.faq)} texts)")


def main():
    cli = sys.argv[1]
    extra = sys.argv[2:]
    out = tempfile.mkdtemp(prefix="llmsim-site-")
    t0 = time.time()
    r = subprocess.run([cli, "site", "--out", out] + extra, capture_output=True, text=True)
    secs = time.time() - t0
    print(r.stdout.strip())
    if r.returncode != 0:
        print("FAIL: site exited", r.returncode, r.stderr)
        return 1
    models = json.loads(subprocess.run([cli, "catalog", "--models", "--json"], capture_output=True, text=True, check=True).stdout)["models"]
    ids = [m["id"] if isinstance(m, dict) else m for m in models]
    errors, largest, total = [], (0, ""), 0
    for root, _, files in os.walk(out):
        total += sum(os.path.getsize(os.path.join(root, f)) for f in files)
    for mid in ids + [None]:
        rel = f"models/{mid}/index.html" if mid else "models/index.html"
        path = os.path.join(out, rel)
        if not os.path.exists(path):
            errors.append(f"missing {rel}")
            continue
        gz, p = check_page(path, rel, errors)
        largest = max(largest, (gz, rel))
        if mid:
            check_faq(rel, p, errors)
    sitemap = open(os.path.join(out, "sitemap.xml")).read()
    for mid in ids:
        if f"models/{mid}/</loc>" not in sitemap:
            errors.append(f"sitemap.xml lacks models/{mid}/")
    if "User-agent: *" not in open(os.path.join(out, "robots.txt")).read():
        errors.append("robots.txt")
    print(f"site_check: {len(ids)} model pages, {total} bytes in all, largest {largest[1]} {largest[0]} bytes gzip "
          f"(budget {BUDGET_GZIP_BYTES}), generated in {secs:.1f} s")
    for e in errors[:30]:
        print("FAIL:", e)
    print("site_check:", "ok" if not errors else f"{len(errors)} problems")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
