// Where the page's start-up CPU goes, per step (a report, not a test): headless Chromium loads the page in a fresh
// context with V8 tracing on, N times, and sums per step between the page's start-up marks ('llmsim:...'): the main
// thread's wasm lazy compiles (Liftoff on a function's first call: count, KB of function bodies from llmsim.wasm, and
// ms), the background tier-up compiles (TurboFan: ms). Medians over the loads. (The page's start-up from main() to the
// first frame is one task, so the main thread's own time cannot be split by step here; the marks of
// page_ready_bench.mjs give the wall time.) Counts and KB are the same in every load; the ms move with the machine's load.
//   node scripts/page_trace.mjs --site build/web/site [--runs 3] [--label branch]
//        [--symbols build/web/llmsim.js.symbols [--list first-frame-drawn]]
// --symbols (the link's --emit-symbol-map: "index:name" per wasm function) also counts each step's lazy compiles by
// where the function comes from (nlohmann::json, ImGui + stb, libc++, llmsim, other), in the first traced load;
// --list STEP prints the names compiled in that step (the step is named by the mark that ends it).
// Needs tests/e2e/node_modules (scripts/setup.sh test) or LLMSIM_E2E_MODULES, like page_ready_bench.mjs.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs, serve, launchChromium } from '../tests/e2e/harness.mjs';

const args = parseArgs();
const runs = +(args.runs || 3);
const site = path.resolve(args.site || 'build/web/site');
const scenario = '#model=Qwen/Qwen2.5-7B-Instruct&quant=Q4_K_M&ctx=32768';
// the symbol map's names are demangled; wasm-opt folds identical functions, so a small helper may carry the name
// of any one of the templates it was folded from (a vector<json>::size() can be another vector's)
const groups = [['nlohmann', /nlohmann/], ['imgui+stb', /^(ImGui|ImFont|ImDraw|ImVec|ImVector|ImPool|ImChunk|ImStr|ImHash|ImFormat|ImTriangle|ImBezier|ImLine|ImRect|ImAbs|stbtt|stbrp|stb_)/],
  ['libc++', /^(std::|void std::|bool std::|unsigned int std::|__cxa|__cxx|operator new|operator delete)/], ['llmsim', /llmsim/]];
const groupOf = (name) => (groups.find(([, re]) => re.test(name)) || ['other'])[0];
const symbols = {};
if (args.symbols) {
  for (const line of readFileSync(args.symbols, 'utf8').split('\n')) {
    const at = line.indexOf(':');
    if (at > 0) symbols[+line.slice(0, at)] = line.slice(at + 1);
  }
}
// each wasm function's body size in bytes, by function index (imports first, as V8 and the symbol map count them):
// what Liftoff compiles is proportional to bytes more than to the number of functions
function bodySizes(file) {
  const b = readFileSync(file);
  let p = 8;
  const leb = () => { let x = 0, shift = 0, c; do { c = b[p++]; x += (c & 0x7f) * 2 ** shift; shift += 7; } while (c & 0x80); return x; };
  const skipName = () => { const n = leb(); p += n; };
  const sizes = {};
  let imported = 0;
  while (p < b.length) {
    const id = b[p++], len = leb(), end = p + len;
    if (id === 2) {
      for (let i = 0, n = leb(); i < n; i++) {
        skipName(); skipName();
        const kind = b[p++];
        if (kind === 0) { leb(); imported++; }
        else if (kind === 1) { p++; const f = leb(); leb(); if (f & 1) leb(); }
        else if (kind === 2) { const f = leb(); leb(); if (f & 1) leb(); }
        else if (kind === 3) p += 2;
        else if (kind === 4) { p++; leb(); }
      }
    } else if (id === 10) {
      for (let i = 0, n = leb(); i < n; i++) { const size = leb(); sizes[imported + i] = size; p += size; }
    }
    p = end;
  }
  return sizes;
}
const sizes = bodySizes(path.join(site, 'llmsim.wasm'));
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

async function traceOnce(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.addInitScript(() => { document.addEventListener('llmsim-ready', () => { window.__readyMs = performance.now(); }); });
  await browser.startTracing(page, { categories: ['devtools.timeline', 'v8.wasm', 'disabled-by-default-v8.wasm.detailed',
    'blink.user_timing', 'toplevel', 'disabled-by-default-devtools.timeline'] });
  await page.goto(url);
  await page.waitForFunction(() => window.__readyMs !== undefined && window.llmsim && window.llmsim.getState(), null, { timeout: 60000 });
  const buf = await browser.stopTracing();
  await context.close();
  const events = JSON.parse(buf.toString()).traceEvents;
  // the renderer's main thread: where the page's user-timing marks were recorded
  const marks = events.filter((e) => e.cat && e.cat.includes('blink.user_timing') && e.name.startsWith('llmsim:') && e.ph !== 'e');
  const byName = {};
  for (const m of marks) if (!(m.name in byName)) byName[m.name] = m.ts;
  const pid = marks.length ? marks[0].pid : 0;
  const mainTid = events.find((e) => e.pid === pid && e.name === 'thread_name' && e.args.name === 'CrRendererMain')?.tid;
  const order = Object.entries(byName).sort((a, b) => a[1] - b[1]);
  const steps = order.map(([n, t], i) => ({ name: n, from: i ? order[i - 1][1] : 0, to: t }));
  const stepOf = (ts) => steps.find((s) => ts > s.from && ts <= s.to);
  const out = Object.fromEntries(steps.map((s) => [s.name, { lazyN: 0, lazyKB: 0, lazyMs: 0, tierMs: 0, fns: [] }]));
  for (const e of events) {
    if (e.pid !== pid || e.ph !== 'X' || e.dur === undefined) continue;
    const s = stepOf(e.ts + e.dur);
    if (!s) continue;
    const o = out[s.name];
    if (e.name === 'wasm.CompileLazy') {
      o.lazyN++; o.lazyMs += e.dur / 1e3; o.fns.push(e.args?.func_index); o.lazyKB += (sizes[e.args?.func_index] || 0) / 1024;
    }
    else if (e.name === 'wasm.ExecuteCompilationUnits' && e.tid !== mainTid) o.tierMs += e.dur / 1e3;
  }
  return out;
}

const server = await serve(site);
const browser = await launchChromium();
const all = [];
try {
  await traceOnce(browser, `http://127.0.0.1:${server.address().port}/index.html${scenario}`);   // Chromium's own start-up
  for (let i = 0; i < runs; i++) all.push(await traceOnce(browser, `http://127.0.0.1:${server.address().port}/index.html${scenario}`));
} finally {
  await browser.close();
  server.close();
}
console.log(`page trace${args.label ? ' (' + args.label + ')' : ''}, median of ${runs} loads, per step (ms; lazy = Liftoff compiles on the main thread, tier-up = background TurboFan):`);
for (const name of Object.keys(all[0])) {
  const col = (k) => median(all.map((r) => (r[name] ? r[name][k] : 0)));
  console.log(`  ${name.padEnd(28)} lazy ${String(col('lazyN')).padStart(5)} fns ${col('lazyKB').toFixed(1).padStart(6)} KB ${col('lazyMs').toFixed(1).padStart(6)} ms` +
              `  tier-up ${col('tierMs').toFixed(1).padStart(6)} ms`);
}
if (args.symbols) {   // where each step's lazily compiled functions come from (the first traced load)
  console.log('lazy compiles by origin, first traced load (--symbols):');
  for (const [name, o] of Object.entries(all[0])) {
    const n = {};
    for (const f of o.fns) { const g = groupOf(symbols[f] || ''); n[g] = (n[g] || 0) + 1; }
    console.log(`  ${name.padEnd(28)} ` + ['nlohmann', 'imgui+stb', 'libc++', 'llmsim', 'other'].map((g) => `${g} ${n[g] || 0}`).join(', '));
  }
  if (args.list && all[0][args.list]) for (const f of all[0][args.list].fns) console.log(`    ${f} ${symbols[f] || '?'}`);
}
