// Page-ready benchmark (a report, not a test): headless Chromium loads the llmsim page and the bare Dear ImGui +
// SDL2 page (tools/bare_page, the same toolchain and flags) alternately, each in a fresh browser context (empty
// cache), and times navigation start -> ready: llmsim's 'llmsim-ready' event (window.llmsim usable, after the first
// frame), the bare page's first frame. Prints each load, the medians and the ratio, then the median of each of the
// page's start-up marks ('llmsim:compile-start' ... 'llmsim:first-frame-drawn', performance.mark in
// web/llmsim-page.js and ui/platform_web.cpp): where the time between navigation and ready goes.
// Both pages start the same way: the wasm fetched and compiled (streaming) as soon as their first script runs, the
// module created at the load event, ready after the first frame has been drawn.
//   cmake --build build/web --target llmsim llmsim_bare_page
//   node scripts/page_ready_bench.mjs --site build/web/site --bare build/web/bare [--runs 7] [--label after]
//       [--before DIR]   # a second llmsim site (e.g. an older build's) loaded in the same rotation
// Served by tests/e2e/harness.mjs's local server (application/wasm, no compression): the figure is compile, start
// and first frame, not the network. Needs tests/e2e/node_modules (scripts/setup.sh test) or LLMSIM_E2E_MODULES.
import path from 'node:path';
import { parseArgs, serve, launchChromium } from '../tests/e2e/harness.mjs';

const args = parseArgs();
const runs = +(args.runs || 7);
const site = path.resolve(args.site || 'build/web/site');
const bare = path.resolve(args.bare || 'build/web/bare');
const before = args.before ? path.resolve(args.before) : '';
const scenario = '#model=Qwen/Qwen2.5-7B-Instruct&quant=Q4_K_M&ctx=32768';

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

async function loadOnce(browser, url, name) {
  const kind = name === 'bare' ? 'bare' : 'llmsim';
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.addInitScript(() => {
    document.addEventListener('llmsim-ready', () => { window.__readyMs = performance.now(); });
  });
  await page.goto(url);
  const ms = await page.waitForFunction((k) => {
    if (k === 'llmsim') return window.__readyMs !== undefined && window.llmsim && window.llmsim.getState() ? window.__readyMs : 0;
    return window.bareReady ? window.bareReadyMs : 0;
  }, kind, { timeout: 60000 }).then((h) => h.jsonValue());
  // the page's own performance marks ('llmsim:...': web/llmsim-page.js, ui/platform_web.cpp), ms from navigation start
  const marks = await page.evaluate(() => performance.getEntriesByType('mark')
    .filter((m) => m.name.startsWith('llmsim:')).map((m) => [m.name, m.startTime]));
  await context.close();
  if (errors.length) throw new Error(`${url}: ${errors.join('; ')}`);
  return { ms, marks };
}

const servers = { llmsim: await serve(site), bare: await serve(bare) };
if (before) servers.before = await serve(before);
const page = (k) => `http://127.0.0.1:${servers[k].address().port}/index.html${k === 'bare' ? '' : scenario}`;
const names = Object.keys(servers);
const browser = await launchChromium();
const times = Object.fromEntries(names.map((k) => [k, []]));
const marks = Object.fromEntries(names.map((k) => [k, {}]));   // name -> mark -> [ms of each load]
try {
  for (const k of names) await loadOnce(browser, page(k), k);   // one untimed load of each: Chromium's own start-up
  for (let i = 0; i < runs; i++) {
    const order = names.map((_, j) => names[(i + j) % names.length]);   // each page first in turn
    for (const k of order) {
      const r = await loadOnce(browser, page(k), k);
      times[k].push(r.ms);
      for (const [m, t] of r.marks) (marks[k][m] = marks[k][m] || []).push(t);
    }
    console.log(`run ${i + 1}: ` + names.map((k) => `${k} ${times[k][i].toFixed(0)} ms`).join(', '));
  }
} finally {
  await browser.close();
  for (const k of names) servers[k].close();
}
const mb = median(times.bare);
// where the time goes: the median of each mark, and the step from the one before (the marks in page order)
for (const k of names.filter((n) => Object.keys(marks[n]).length)) {
  const rows = Object.entries(marks[k]).map(([m, ts]) => [m, median(ts)]).sort((a, b) => a[1] - b[1]);
  console.log(`marks (${k}, median ms from navigation start; step from the mark before):`);
  rows.forEach(([m, t], i) => console.log(`  ${m.padEnd(28)} ${t.toFixed(0).padStart(6)}  +${(t - (i ? rows[i - 1][1] : 0)).toFixed(0)}`));
}
for (const k of names.filter((n) => n !== 'bare')) {
  const m = median(times[k]);
  console.log(`page ready${args.label ? ' (' + args.label + ')' : ''}, median of ${runs}: ${k === 'before' ? 'llmsim before ' + before : 'llmsim'} ` +
              `${m.toFixed(0)} ms, bare ImGui + SDL2 ${mb.toFixed(0)} ms, ratio ${(m / mb).toFixed(2)}x`);
}
