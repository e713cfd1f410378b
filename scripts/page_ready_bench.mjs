// Page-ready benchmark (a report, not a test): headless Chromium loads the llmsim page and the bare Dear ImGui +
// SDL2 page (tools/bare_page, the same toolchain and flags) alternately, each in a fresh browser context (empty
// cache), and times navigation start -> ready: llmsim's 'llmsim-ready' event (window.llmsim usable, after the first
// frame), the bare page's first frame. Prints each load, the medians and the ratio.
//   cmake --build build/web --target llmsim llmsim_bare_page
//   node scripts/page_ready_bench.mjs --site build/web/site --bare build/web/bare [--runs 7] [--label after]
// Served by tests/e2e/harness.mjs's local server (application/wasm, no compression): the figure is compile, start
// and first frame, not the network. Needs tests/e2e/node_modules (scripts/setup.sh test) or LLMSIM_E2E_MODULES.
import path from 'node:path';
import { parseArgs, serve, launchChromium } from '../tests/e2e/harness.mjs';

const args = parseArgs();
const runs = +(args.runs || 7);
const site = path.resolve(args.site || 'build/web/site');
const bare = path.resolve(args.bare || 'build/web/bare');
const scenario = '#model=Qwen/Qwen2.5-7B-Instruct&quant=Q4_K_M&ctx=32768';

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

async function loadOnce(browser, url, kind) {
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
  await context.close();
  if (errors.length) throw new Error(`${kind}: ${errors.join('; ')}`);
  return ms;
}

const llmsimServer = await serve(site);
const bareServer = await serve(bare);
const urls = {
  llmsim: `http://127.0.0.1:${llmsimServer.address().port}/index.html${scenario}`,
  bare: `http://127.0.0.1:${bareServer.address().port}/index.html`,
};
const browser = await launchChromium();
const times = { llmsim: [], bare: [] };
try {
  await loadOnce(browser, urls.llmsim, 'llmsim');   // one untimed load of each: Chromium's own start-up costs
  await loadOnce(browser, urls.bare, 'bare');
  for (let i = 0; i < runs; i++) {
    const order = i % 2 ? ['bare', 'llmsim'] : ['llmsim', 'bare'];
    for (const k of order) times[k].push(await loadOnce(browser, urls[k], k));
    console.log(`run ${i + 1}: llmsim ${times.llmsim[i].toFixed(0)} ms, bare ${times.bare[i].toFixed(0)} ms`);
  }
} finally {
  await browser.close();
  llmsimServer.close();
  bareServer.close();
}
const ml = median(times.llmsim), mb = median(times.bare);
console.log(`page ready${args.label ? ' (' + args.label + ')' : ''}, median of ${runs}: llmsim ${ml.toFixed(0)} ms, ` +
            `bare ImGui + SDL2 ${mb.toFixed(0)} ms, ratio ${(ml / mb).toFixed(2)}x`);
