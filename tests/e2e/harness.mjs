// The browser e2e files' shared harness (e2e.mjs, site_e2e.mjs, hub_e2e.mjs): command-line arguments, the Node
// modules from tests/e2e/node_modules, a local static server for the built site, the check()/assert()/eq() runner
// that prints "ok"/"FAIL" per check and "N passed, N failed" at the end, headless Chromium, and the ImGui widget click.
//   import { parseArgs, e2eRequire, serve, Checks, loadDurations, assert, eq, launchChromium, clickWidget } from './harness.mjs';
//   const checks = new Checks(args.only, args.shard, loadDurations(table));  await checks.check('name', async () => { assert(x, 'why'); });
//   checks.finish();   // prints the tally and exits 1 on any failure
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

// `--key value` pairs of the command line as an object
export function parseArgs(argv = process.argv.slice(2)) {
  return Object.fromEntries(argv.reduce((acc, a, i, all) =>
    (a.startsWith('--') ? acc.concat([[a.slice(2), all[i + 1]]]) : acc), []));
}

// require() for tests/e2e/node_modules (npm ci, scripts/setup.sh test); LLMSIM_E2E_MODULES names another folder holding them
export const e2eRequire = createRequire(process.env.LLMSIM_E2E_MODULES ? path.join(process.env.LLMSIM_E2E_MODULES, 'x.js')
                                                                       : path.join(here, 'package.json'));

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css',
                '.json': 'application/json', '.jsonl': 'application/x-ndjson', '.png': 'image/png', '.xml': 'application/xml', '.txt': 'text/plain' };

// serve `dir` on 127.0.0.1 at a free port; rewrite(file, body) may replace a file's bytes (hub_e2e's endpoint meta).
// Paths outside dir get 403, missing files 404.
export function serve(dir, rewrite = null) {
  const server = createServer(async (req, res) => {
    try {
      let p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      if (p.endsWith('/')) p += 'index.html';
      const file = path.join(dir, path.normalize(p).replace(/^(\.\.[/\\])+/, ''));
      if (!file.startsWith(dir)) { res.writeHead(403); res.end(); return; }
      let body = await readFile(file);
      if (rewrite) body = rewrite(file, body);
      res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream', 'Content-Length': body.length });
      res.end(body);
    } catch { res.writeHead(404); res.end('not found'); }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// the check runner: each check() runs one named async test, records pass/fail and prints one line.
// only: run the checks whose name contains it. shard "k/n" (1 <= k <= n): n processes (ctest entries) share one suite,
// each running the k-th part; a check passed { always: true } runs in every shard. durations ({ name: ms }, a suite's
// checked-in table, e2e_durations.json): the parts are balanced by it (longest first, each to the part with the least
// so far), so the shards, which ctest runs side by side, end together; a check the table lacks goes round robin.
// durationsOut: write { name: ms } of the checks this process ran there at finish() (refreshes the table).
export class Checks {
  constructor(only = '', shard = '', durations = {}, durationsOut = '') {
    this.only = only || ''; this.results = []; this.seen = 0; this.ms = {}; this.durationsOut = durationsOut || '';
    const m = /^(\d+)\/(\d+)$/.exec(shard || '1/1');
    if (!m || +m[1] < 1 || +m[1] > +m[2]) throw new Error(`--shard wants k/n with 1 <= k <= n, got '${shard}'`);
    this.shardIndex = +m[1] - 1; this.shardCount = +m[2];
    this.partOf = new Map();
    const load = new Array(this.shardCount).fill(0);
    const names = Object.keys(durations || {}).sort((a, b) => durations[b] - durations[a] || (a < b ? -1 : 1));
    for (const n of names) {
      const k = load.indexOf(Math.min(...load));
      this.partOf.set(n, k); load[k] += durations[n];
    }
  }
  async check(name, fn, { always = false } = {}) {
    if (this.only && !name.includes(this.only)) return;
    if (!always) {
      const part = this.partOf.has(name) ? this.partOf.get(name) : this.seen++ % this.shardCount;
      if (part !== this.shardIndex) return;
    }
    const t0 = Date.now();
    try {
      await fn();
      this.results.push([name, true]);
      console.log(`ok   ${name} (${Date.now() - t0} ms)`);
    } catch (e) {
      this.results.push([name, false]);
      console.log(`FAIL ${name}: ${e && e.stack ? e.stack.split('\n').slice(0, 3).join(' | ') : e}`);
    }
    if (!always) this.ms[name] = Math.round((Date.now() - t0) / 100) * 100;
  }
  // print "N passed, N failed" and exit 1 on any failure
  finish() {
    const failed = this.results.filter((r) => !r[1]).length;
    console.log(`${this.results.length - failed} passed, ${failed} failed`);
    if (this.durationsOut) writeFileSync(this.durationsOut, JSON.stringify(this.ms, null, 1) + '\n');
    process.exit(failed ? 1 : 0);
  }
}

// a suite's duration table ({ name: ms }, for Checks); {} when the file is missing or unreadable (round robin then)
export function loadDurations(file) {
  try { return JSON.parse(readFileSync(file, 'utf8')); } catch { return {}; }
}

export function assert(cond, msg) { if (!cond) throw new Error(msg); }
export function eq(a, b, msg) { if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`${msg}: got ${JSON.stringify(a)}, want ${JSON.stringify(b)}`); }

// Debian's Chromium (or LLMSIM_CHROMIUM), headless, WebGL2 through SwiftShader, no background network traffic
export function launchChromium() {
  const { chromium } = e2eRequire('playwright-core');
  return chromium.launch({
    executablePath: process.env.LLMSIM_CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
           '--disable-component-update', '--disable-sync', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
  });
}

// window.llmsim usable (the first frame is drawn), then the measured rows and the serving accuracy report, which the
// page fetches after that frame (web/llmsim-page.js), parsed: results() then holds everything the sections show
export async function waitForLlmsim(page, timeout = 30000) {
  await page.waitForFunction(() => window.llmsim !== undefined, null, { timeout });
  await page.evaluate(() => window.llmsim.whenEvidenceLoaded());
}

// the widget's rectangle once the layout has settled: the rectangle is the one the last drawn frame recorded, so
// after a viewport or theme change it can still be the old layout's; read it until two reads a few frames apart agree
export async function stableWidgetRect(page, name, timeoutMs = 3000) {
  const read = () => page.evaluate((n) => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() =>
    done(window.llmsim._widgetRect(n))))), name);
  let r = await read();
  for (const until = Date.now() + timeoutMs; Date.now() < until;) {
    await page.waitForTimeout(50);
    const again = await read();
    if (JSON.stringify(again) === JSON.stringify(r)) return r;
    r = again;
  }
  return r;
}

// click an ImGui widget the app registered under `name` (mouse move, pause, down, pause, up, then settleMs)
export async function clickWidget(page, name, settleMs = 150) {
  const r = await stableWidgetRect(page, name);
  assert(r, `widget ${name} was not drawn`);
  await page.mouse.move((r[0] + r[2]) / 2, (r[1] + r[3]) / 2);
  await page.waitForTimeout(100);
  await page.mouse.down();
  await page.waitForTimeout(100);
  await page.mouse.up();
  await page.waitForTimeout(settleMs);
}
