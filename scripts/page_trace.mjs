// Where the page's start-up CPU goes, per step (a report, not a test): headless Chromium loads the page in a fresh
// context with V8 tracing on, N times, and sums per step between the page's start-up marks ('llmsim:...'): the main
// thread's wasm lazy compiles (Liftoff on a function's first call: count and ms), the background tier-up compiles
// (TurboFan: ms). Medians over the loads. (The page's start-up from main() to the first frame is one task, so the
// main thread's own time cannot be split by step here; the marks of page_ready_bench.mjs give the wall time.)
//   node scripts/page_trace.mjs --site build/web/site [--runs 3] [--label branch]
// Needs tests/e2e/node_modules (scripts/setup.sh test) or LLMSIM_E2E_MODULES, like page_ready_bench.mjs.
import path from 'node:path';
import { parseArgs, serve, launchChromium } from '../tests/e2e/harness.mjs';

const args = parseArgs();
const runs = +(args.runs || 3);
const site = path.resolve(args.site || 'build/web/site');
const scenario = '#model=Qwen/Qwen2.5-7B-Instruct&quant=Q4_K_M&ctx=32768';
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
  const out = Object.fromEntries(steps.map((s) => [s.name, { lazyN: 0, lazyMs: 0, tierMs: 0 }]));
  for (const e of events) {
    if (e.pid !== pid || e.ph !== 'X' || e.dur === undefined) continue;
    const s = stepOf(e.ts + e.dur);
    if (!s) continue;
    const o = out[s.name];
    if (e.name === 'wasm.CompileLazy') { o.lazyN++; o.lazyMs += e.dur / 1e3; }
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
  console.log(`  ${name.padEnd(28)} lazy ${String(col('lazyN')).padStart(5)} fns ${col('lazyMs').toFixed(1).padStart(6)} ms` +
              `  tier-up ${col('tierMs').toFixed(1).padStart(6)} ms`);
}
