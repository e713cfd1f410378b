#!/usr/bin/env python3
"""A local stand-in for the Hugging Face Hub's HTTP surface, for tests that must never touch the internet.

    python3 hub_standin.py MANIFEST.json [--port 0] [--cdn-port 0] [--ports-file F]

Implements what llmsim reads (engine/hub/hub_lookup.h), the way huggingface.co answers it:
  GET /api/models/{org}/{name}[?blobs=true]      model description: gated, pipeline_tag, siblings (+ sizes with blobs)
  GET /api/models/{org}/{name}/tree/{rev}        [{type, path, size}], paged like the Hub: `tree_page` entries a
                                                 page (default 1000), the next one named by `Link: <...&cursor=N>;
                                                 rel="next"` (on the stand-in's own origin; `link_origin: "cdn"` puts it
                                                 on the storage origin, which a client must refuse to follow)
  GET /{org}/{name}/resolve/{rev}/{file}         small files served here (Range honoured); .gguf/.safetensors get a
                                                 302 to a second port (a different origin, like the Hub's file storage)
  GET http://127.0.0.1:{cdn-port}/blob/...       the storage side: Range -> 206 + Content-Range, counts bytes served
  GET /_stats                                    {"bytes_served": N, "cdn_bytes_served": N, "requests": [...]}
Errors as the Hub sends them: 404 + X-Error-Code: RepoNotFound / EntryNotFound, 401 + X-Error-Code: GatedRepo for a
gated repo unless "Authorization: Bearer <its token>" is sent (403 for a wrong token), 429 + Retry-After for a repo
marked rate_limited. CORS headers on every answer so the browser test can call it cross-origin.

MANIFEST: {"repos": {"org/name": {"pipeline_tag": "...", "gated": false, "token": null, "rate_limited": 0,
           "blobs": true, "license": "apache-2.0", "filler_files": 0, "tree_page": 1000, "link_origin": "hub",
           "delay_s": 0, "files": {"path": {"head": "header.bin", "size": N} | {"text": "..."}}}}}
`rate_limited: T` answers 429 with `RateLimit: "api";r=0;t=T` and `Retry-After: T` (`no_retry_after`: the first only);
`hide_content_range` leaves Content-Range out of the storage's exposed headers (a browser cannot read it);
`license` appears as the model API's cardData.license and a "license:" tag; `filler_files` adds that many small
listed files (extra/file-N.txt) so a listing spans pages; `delay_s` holds every storage answer (a cancel test).
A file's bytes are `head` followed by zeros up to `size`: a 40 GB GGUF costs only its header on disk.
"""
import argparse
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit, unquote

STATS = {"bytes_served": 0, "cdn_bytes_served": 0, "requests": []}
LOCK = threading.Lock()


class Files:
    def __init__(self, manifest_path):
        with open(manifest_path) as f:
            self.m = json.load(f)
        self.base = os.path.dirname(os.path.abspath(manifest_path))
        self.heads = {}

    def repo(self, name):
        return self.m["repos"].get(name)

    def content(self, repo, path):
        """(head bytes, total size) of a file, or None"""
        r = self.repo(repo)
        f = r and r["files"].get(path)
        if f is None:
            return None
        if "text" in f:
            b = f["text"].encode("utf-8")
            return b, len(b)
        key = (repo, path)
        if key not in self.heads:
            with open(os.path.join(self.base, f["head"]), "rb") as h:
                self.heads[key] = h.read()
        head = self.heads[key]
        return head, max(f.get("size", len(head)), len(head))


def parse_range(value, size):
    # "bytes=B-E" or "bytes=B-"; one range only, as llmsim sends
    if not value or not value.startswith("bytes=") or "," in value:
        return None
    a, _, b = value[6:].partition("-")
    if not a.isdigit() or (b and not b.isdigit()):
        return None
    begin, end = int(a), (int(b) if b else size - 1)
    if begin >= size or end < begin:
        return "unsatisfiable"
    return begin, min(end, size - 1)


# huggingface.co's Access-Control-Expose-Headers as recorded in 2026 (engine/hub/README.md)
HUB_EXPOSED = ("X-Repo-Commit,X-Request-Id,X-Error-Code,X-Error-Message,X-Total-Count,ETag,Link,Accept-Ranges,"
               "Content-Range,X-Linked-Size,X-Linked-ETag,X-Xet-Hash")


class Handler(BaseHTTPRequestHandler):
    files = None
    cdn_port = 0
    is_cdn = False
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def cdn_repo(self):
        parts = unquote(urlsplit(self.path).path).split("/", 4)  # /blob/org/name/file
        return parts[2] + "/" + parts[3] if len(parts) >= 4 else ""

    def cors(self):
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Access-Control-Allow-Headers", "Authorization, Range")
        # exactly what each side of the real Hub exposes to a page (engine/hub/README.md): huggingface.co lists neither
        # Retry-After nor RateLimit; the storage lists Content-Range (a repo with hide_content_range: not even that)
        if self.is_cdn:
            hide = (self.files.repo(self.cdn_repo()) or {}).get("hide_content_range")
            self.send_header("Access-Control-Expose-Headers", "Accept-Ranges, Content-Type, Content-Disposition, ETag, X-Cache" +
                             ("" if hide else ", Content-Range"))
        else:
            self.send_header("Access-Control-Expose-Headers", HUB_EXPOSED)

    def answer(self, status, body=b"", ctype="application/json", headers=()):
        self.send_response(status)
        self.cors()
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        with LOCK:
            STATS["cdn_bytes_served" if self.is_cdn else "bytes_served"] += len(body)

    def error(self, status, code, message, headers=()):
        self.answer(status, json.dumps({"error": message}).encode(), headers=[("X-Error-Code", code)] + list(headers))

    def do_OPTIONS(self):
        self.send_response(204)
        self.cors()
        self.send_header("Access-Control-Allow-Methods", "GET, HEAD")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_HEAD(self):
        self.do_GET()

    def serve_bytes(self, head, size):
        rng = parse_range(self.headers.get("Range"), size)
        if rng == "unsatisfiable":
            return self.answer(416, b"", headers=[("Content-Range", "bytes */%d" % size)])
        begin, end = rng if rng else (0, size - 1)
        if not rng and size > 64 << 20:
            # a whole multi-GiB download is what the tests must never ask for: refuse loudly
            return self.error(500, "WholeDownload", "stand-in: refusing to send %d bytes without a Range" % size)
        body = head[begin:end + 1]
        body += b"\0" * (end + 1 - begin - len(body))
        extra = [("Accept-Ranges", "bytes")]
        if rng:
            extra.append(("Content-Range", "bytes %d-%d/%d" % (begin, end, size)))
        self.answer(206 if rng else 200, body, "application/octet-stream", extra)

    def do_GET(self):
        url = urlsplit(self.path)
        path = unquote(url.path)
        with LOCK:
            STATS["requests"].append({"cdn": self.is_cdn, "path": path, "range": self.headers.get("Range"),
                                      "auth": bool(self.headers.get("Authorization"))})
        if self.is_cdn:
            parts = path.split("/", 4)  # /blob/org/name/file
            if len(parts) < 5 or parts[1] != "blob":
                return self.error(404, "EntryNotFound", "no such blob")
            if self.headers.get("Authorization"):
                return self.error(400, "TokenLeak", "the storage side never needs the token")
            got = self.files.content(parts[2] + "/" + parts[3], parts[4])
            if got is None:
                return self.error(404, "EntryNotFound", "no such blob")
            delay = (self.files.repo(parts[2] + "/" + parts[3]) or {}).get("delay_s", 0)
            if delay:
                time.sleep(delay)
            return self.serve_bytes(*got)
        if path == "/_stats":
            with LOCK:
                body = json.dumps(STATS).encode()
            return self.answer(200, body)
        if path.startswith("/api/models/"):
            return self.api(path[len("/api/models/"):], url.query)
        parts = path.split("/", 5)  # /org/name/resolve/rev/file
        if len(parts) == 6 and parts[3] == "resolve":
            return self.resolve(parts[1] + "/" + parts[2], parts[4], parts[5])
        self.error(404, "RepoNotFound", "not a Hub path")

    def gate(self, name, r):
        if r.get("rate_limited"):
            t = str(r["rate_limited"])
            extra = [("RateLimit", '"api";r=0;t=' + t)] + ([] if r.get("no_retry_after") else [("Retry-After", t)])
            self.error(429, "RateLimited", "too many requests", extra)
            return False
        return True

    def api(self, rest, query):
        segs = rest.split("/")
        name = "/".join(segs[:2])
        r = self.files.repo(name)
        if r is None:
            return self.error(404 if self.headers.get("Authorization") else 401, "RepoNotFound", "Repository not found")
        if not self.gate(name, r):
            return
        listing = [(p, self.files.content(name, p)[1]) for p in sorted(r["files"])]
        listing = [("extra/file-%05d.txt" % i, 10) for i in range(r.get("filler_files", 0))] + listing
        if len(segs) >= 4 and segs[2] == "tree":
            return self.tree(name, r, listing, query, "/api/models/" + rest)
        sizes = r.get("blobs", True) and "blobs=true" in query
        sib = []
        for p, size in listing:
            e = {"rfilename": p}
            if sizes:
                e["size"] = size
            sib.append(e)
        desc = {"id": name, "gated": r.get("gated", False), "private": False, "siblings": sib}
        if r.get("pipeline_tag"):
            desc["pipeline_tag"] = r["pipeline_tag"]
        if r.get("license"):
            desc["cardData"] = {"license": r["license"]}
            desc["tags"] = ["gguf", "license:" + r["license"]]
        self.answer(200, json.dumps(desc).encode())

    def tree(self, name, r, listing, query, path):
        per = r.get("tree_page", 1000)
        q = dict(kv.partition("=")[::2] for kv in query.split("&") if kv)
        start = int(q.get("cursor", "0") or 0)
        page = listing[start:start + per]
        out = [{"type": "file", "path": p, "size": size} for p, size in page]
        headers = []
        if start + per < len(listing):
            port = self.cdn_port if r.get("link_origin") == "cdn" else self.server.server_address[1]
            q["cursor"] = str(start + per)
            headers.append(("Link", '<http://127.0.0.1:%d%s?%s>; rel="next"' % (port, path, "&".join("%s=%s" % kv for kv in q.items()))))
        self.answer(200, json.dumps(out).encode(), headers=headers)

    def resolve(self, name, rev, fpath):
        r = self.files.repo(name)
        if r is None:
            return self.error(404 if self.headers.get("Authorization") else 401, "RepoNotFound", "Repository not found")
        if not self.gate(name, r):
            return
        if r.get("gated"):
            auth = self.headers.get("Authorization")
            if not auth:
                return self.error(401, "GatedRepo", "Access to model %s is restricted" % name)
            if auth != "Bearer " + r.get("token", ""):
                return self.error(403, "GatedRepo", "Access to model %s is restricted" % name)
        got = self.files.content(name, fpath)
        if got is None:
            return self.error(404, "EntryNotFound", "Entry not found")
        if fpath.endswith(".gguf") or fpath.endswith(".safetensors"):
            loc = "http://127.0.0.1:%d/blob/%s/%s?X-Signature=standin" % (self.cdn_port, name, fpath)
            self.send_response(302)
            self.cors()
            self.send_header("Location", loc)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.serve_bytes(*got)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("manifest")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--cdn-port", type=int, default=0)
    ap.add_argument("--ports-file")
    a = ap.parse_args()
    files = Files(a.manifest)
    cdn_h = type("CdnHandler", (Handler,), {"files": files, "is_cdn": True})
    cdn = ThreadingHTTPServer(("127.0.0.1", a.cdn_port), cdn_h)
    hub_h = type("HubHandler", (Handler,), {"files": files, "cdn_port": cdn.server_address[1]})
    hub = ThreadingHTTPServer(("127.0.0.1", a.port), hub_h)
    threading.Thread(target=cdn.serve_forever, daemon=True).start()
    line = "%d %d\n" % (hub.server_address[1], cdn.server_address[1])
    if a.ports_file:
        with open(a.ports_file + ".tmp", "w") as f:
            f.write(line)
        os.replace(a.ports_file + ".tmp", a.ports_file)
    sys.stdout.write(line)
    sys.stdout.flush()
    try:
        hub.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
