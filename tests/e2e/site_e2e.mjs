// The static site and the app as a web citizen, in Debian's Chromium: axe-core finds 0 violations on the models index,
// two model pages and the app shell; the index search works with JS and the table without; for a sample of models
// every number of a page's tables equals window.llmsim.results() of the app opened by that page's own "Open in the
// simulator" link; keyboard-only use of the top bar; the aria-live summary announces a changed verdict (and only on
// change); the title follows the scenario; a 100 px wheel event and a 10 x 10 px trackpad gesture scroll ~100 px;
// screenshots of a model page (1280 / 390 px, light / dark, print) into --out.
//   node tests/e2e/site_e2e.mjs --site build/web/site --out build/web/screenshots
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs, e2eRequire, serve, Checks, assert, launchChromium, waitForLlmsim } from './harness.mjs';

const { AxeBuilder } = e2eRequire('@axe-core/playwright');
const args = parseArgs();
const site = path.resolve(args.site || 'build/web/site');
const out = path.resolve(args.out || 'build/web/screenshots');
const checks = new Checks(args.only, args.shard);
const check = checks.check.bind(checks);
const frames = (page, n = 4) => page.evaluate((k) => new Promise((r) => { const f = () => (--k <= 0 ? r() : requestAnimationFrame(f)); requestAnimationFrame(f); }), n);

async function newPage(browser, opts = {}) {
  const context = await browser.newContext({ viewport: opts.viewport || { width: 1280, height: 800 }, deviceScaleFactor: opts.dpr || 1,
                                             colorScheme: opts.colorScheme || 'light', javaScriptEnabled: opts.js !== false });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('request', (r) => { if (!r.url().startsWith('http://127.0.0.1') && !r.url().startsWith('data:')) errors.push('external request ' + r.url()); });
  return { page, context, errors };
}
async function openApp(browser, url, opts) {
  const p = await newPage(browser, opts);
  await p.page.goto(url);
  await waitForLlmsim(p.page);
  await frames(p.page);
  return p;
}
async function axe(page, what) {
  const r = await new AxeBuilder({ page }).analyze();
  const v = r.violations.map((x) => `${x.id} (${x.impact}): ${x.nodes.slice(0, 2).map((n) => n.target.join(' ')).join(', ')}`);
  console.log(`  axe ${what}: ${r.violations.length} violations, ${r.passes.length} rules passed`);
  assert(r.violations.length === 0, `${what}: ${v.join(' | ')}`);
}
// a model page's tables as {table id: [[data-v of each cell]]}
const readTables = (page) => page.evaluate(() => {
  const o = {};
  document.querySelectorAll('table[id^="t-"]').forEach((t) => {
    o[t.id.slice(2)] = [...t.tBodies[0].rows].map((r) => [...r.cells].map((c) => c.dataset.v ?? null));
  });
  return o;
});
const close = (a, b, rel = 1e-6) => Math.abs(a - b) <= rel * Math.max(1, Math.abs(b));

async function compareWithApp(browser, base, model) {
  const { page, context, errors } = await newPage(browser);
  await page.goto(`${base}/models/${model}/index.html`);
  const tables = await readTables(page);
  const href = await page.getAttribute('a.open', 'href');
  assert(href && href.startsWith('../../../index.html#model='), `simulator link ${href}`);
  const app = await openApp(browser, new URL(href, page.url()).href);
  const res = await app.page.evaluate(() => window.llmsim.results());
  const state = await app.page.evaluate(() => window.llmsim.getState());
  assert(state.model === model, `the link opened ${state.model}`);
  let n = 0;
  const quants = Object.fromEntries(res.quants.map((q) => [q.quant, q]));
  for (const [name, , w, tb, ta] of tables.quants) {
    const q = quants[name];
    assert(q, `quant ${name} not in results()`);
    assert(+w === q.weights_bytes && +ta === q.total_a_bytes && +tb === q.total_b_bytes,
           `${model} ${name}: page ${w}/${ta}/${tb}, app ${q.weights_bytes}/${q.total_a_bytes}/${q.total_b_bytes}`);
    n += 3;
  }
  const lb = Object.fromEntries(res.leaderboard.map((r) => [r.hardware, r]));
  for (const [id, status, total, decode, , maxctx] of tables.leaderboard) {
    const r = lb[id];
    assert(r, `device ${id} not in results()`);
    assert(status === r.status && +total === r.total_bytes && +maxctx === r.max_context, `${model} on ${id}: page ${status} ${total} ${maxctx}, app ${r.status} ${r.total_bytes} ${r.max_context}`);
    assert(decode === null ? r.decode_tps === null : close(+decode, r.decode_full_tps), `${model} on ${id}: decode ${decode} vs ${r.decode_full_tps}`);
    n += 4;
  }
  assert(tables.leaderboard.length === res.leaderboard.length, `leaderboard rows ${tables.leaderboard.length} vs ${res.leaderboard.length}`);
  const ctx = Object.fromEntries(res.context.map((c) => [c.ctx, c]));
  for (const [c, kv, total] of tables.context) {
    assert(ctx[c] && +kv === ctx[c].kv_bytes && +total === ctx[c].total_bytes, `${model} context ${c}: page ${kv}/${total}`);
    n += 2;
  }
  const cost = Object.fromEntries(tables.cost.map((r) => [r[0], +r[1]]));
  assert(close(cost.own, res.cost.own_usd_per_month, 1e-5), `own ${cost.own} vs ${res.cost.own_usd_per_month}`);
  if (res.cost.api_usd_per_month !== null) assert(close(cost.api, res.cost.api_usd_per_month, 1e-5), `api ${cost.api} vs ${res.cost.api_usd_per_month}`);
  const cmd = await page.textContent('#command code');
  assert(cmd === res.command, `command: page '${cmd}', app '${res.command}'`);
  assert(errors.length === 0 && app.errors.length === 0, `errors: ${errors.concat(app.errors).join(' | ')}`);
  console.log(`  ${model}: ${n} numbers + cost + command equal to results()`);
  await app.context.close();
  await context.close();
}

async function main() {
  await mkdir(out, { recursive: true });
  const server = await serve(site);
  const base = `http://127.0.0.1:${server.address().port}`;
  const browser = await launchChromium();
  const pages = ['Qwen/Qwen2.5-72B-Instruct', 'openai/gpt-oss-20b'];
  try {
    await check('site: axe-core finds 0 violations on the models index and two model pages (light and dark)', async () => {
      for (const scheme of ['light', 'dark']) {
        const { page, context, errors } = await newPage(browser, { colorScheme: scheme });
        await page.goto(`${base}/models/index.html`);
        await axe(page, `models/index.html (${scheme})`);
        for (const m of pages) {
          await page.goto(`${base}/models/${m}/index.html`);
          await axe(page, `models/${m}/ (${scheme})`);
        }
        assert(errors.length === 0, errors.join(' | '));
        await context.close();
      }
    });

    await check('app: axe-core finds 0 violations on the app shell', async () => {
      const { page, context, errors } = await openApp(browser, `${base}/index.html#model=Qwen/Qwen2.5-72B-Instruct`);
      await axe(page, 'index.html (app shell)');
      assert(errors.length === 0, errors.join(' | '));
      await context.close();
    });

    await check('app: axe-core finds 0 violations with the speculative decoding, LoRA and fine-tuning sections (issue 16)', async () => {
      for (const k of ['spec', 'lora', 'train']) {
        const { page, context, errors } = await openApp(browser, `${base}/index.html#model=Qwen/Qwen2.5-7B-Instruct&sp_draft=Qwen/Qwen2.5-0.5B-Instruct&lora_n=1&embed=${k}`);
        await axe(page, `index.html embed=${k}`);
        assert(errors.length === 0, errors.join(' | '));
        await context.close();
      }
    });

    await check('app: axe-core finds 0 violations with the vision and embeddings sections (issue 16)', async () => {
      for (const k of ['vision', 'embeddings']) {
        const { page, context, errors } = await openApp(browser, `${base}/index.html#model=google/gemma-3-4b-it&vi_n=1&em_model=Qwen/Qwen3-Embedding-0.6B&embed=${k}`);
        await axe(page, `index.html embed=${k}`);
        assert(errors.length === 0, errors.join(' | '));
        await context.close();
      }
    });

    await check('app: axe-core finds 0 violations with multi-LoRA serving, the phone-width tables and the Accuracy section (issues 14, 16)', async () => {
      for (const [k, vp] of [['serving', { width: 1280, height: 800 }], ['leaderboard', { width: 390, height: 844 }], ['recommend', { width: 390, height: 844 }],
                             ['context', { width: 390, height: 844 }], ['quants', { width: 390, height: 844 }],
                             ['accuracy', { width: 390, height: 844 }], ['accuracy', { width: 1280, height: 800 }]]) {
        const { page, context, errors } = await openApp(browser, `${base}/index.html#model=meta-llama/Llama-3.1-8B-Instruct&hardware=h100-sxm&sv_loras=4&embed=${k}`, { viewport: vp });
        await axe(page, `index.html embed=${k} at ${vp.width} px`);
        assert(errors.length === 0, errors.join(' | '));
        await context.close();
      }
    });

    await check('site: the index search filters with JS; without JS every model is listed and no dead search field', async () => {
      const { page, context } = await newPage(browser);
      await page.goto(`${base}/models/index.html`);
      const all = await page.locator('#models tbody tr').count();
      await page.fill('#q', 'qwen 72b');
      const shown = await page.locator('#models tbody tr:not([hidden])').count();
      assert(all > 50 && shown >= 1 && shown < 5, `${shown} of ${all} rows for 'qwen 72b'`);
      assert((await page.textContent('#count')) === `${shown} of ${all} models`, 'count text');
      await context.close();
      const nojs = await newPage(browser, { js: false });
      await nojs.page.goto(`${base}/models/index.html`);
      assert(await nojs.page.locator('#models tbody tr:visible').count() === all, 'without JS not all rows are visible');
      assert(!(await nojs.page.isVisible('#search')), 'the search field shows without JS');
      await nojs.page.click('text=Qwen2.5 72B Instruct');
      assert(nojs.page.url().endsWith('/models/Qwen/Qwen2.5-72B-Instruct/'), `link went to ${nojs.page.url()}`);
      await nojs.context.close();
    });

    await check('site: a model page works from file:// (relative CSS and links)', async () => {
      const { page, context } = await newPage(browser);
      await page.goto(pathToFileURL(path.join(site, 'models/Qwen/Qwen2.5-72B-Instruct/index.html')).href);
      const bg = await page.evaluate(() => getComputedStyle(document.querySelector('thead th')).backgroundColor);
      assert(bg !== 'rgba(0, 0, 0, 0)', 'site.css did not load from file://');
      const href = await page.evaluate(() => document.querySelector('a.open').href);
      assert(href.startsWith('file://') && href.includes(path.basename(site) + '/index.html#model='), `simulator link ${href}`);
      await context.close();
    });

    await check('site: page tables equal window.llmsim.results() for a sample of models', async () => {
      for (const m of ['Qwen/Qwen2.5-72B-Instruct', 'openai/gpt-oss-20b', 'google/gemma-2-9b-it', 'deepseek-ai/DeepSeek-V2-Lite'])
        await compareWithApp(browser, base, m);
    });

    const app = await openApp(browser, `${base}/index.html#model=Qwen/Qwen2.5-72B-Instruct&hardware=rtx-pro-6000&quant=Q4_K_M&ctx=32768`);
    const { page } = app;

    await check('app: the title follows the scenario', async () => {
      const t = await page.title();
      const res = await page.evaluate(() => window.llmsim.results());
      assert(t.startsWith('Qwen2.5 72B Instruct Q4_K_M on ') && t.endsWith(' — llmsim') && res.error === '', `title '${t}'`);
      await page.evaluate(() => window.llmsim.setState({ quant: 'Q8_0' }));
      await frames(page);
      assert((await page.title()).startsWith('Qwen2.5 72B Instruct Q8_0 on '), `title after Q8_0: '${await page.title()}'`);
    });

    await check('app: the aria-live region announces a changed verdict, and only on change', async () => {
      assert(await page.getAttribute('#summary', 'aria-live') === 'polite', 'aria-live');
      await page.evaluate(() => window.llmsim.setState({ hardware: 'h100-sxm', quant: 'Q4_K_M' }));
      await frames(page);
      const before = await page.textContent('#summary');
      assert(/COMFORTABLE/.test(before) && /Decode/.test(before), `summary on H100: '${before}'`);
      await page.evaluate(() => {
        window._mutations = 0;
        new MutationObserver((l) => { window._mutations += l.length; }).observe(document.getElementById('summary'), { childList: true, characterData: true, subtree: true });
      });
      await page.evaluate(() => window.llmsim.setState({ hardware: 'h100-sxm' }));   // same state: nothing to announce
      await page.mouse.move(600, 500);
      await frames(page, 6);
      assert(await page.evaluate(() => window._mutations) === 0, 'the summary was rewritten without a change');
      await page.evaluate(() => window.llmsim.setState({ hardware: 'rtx-3060-12gb' }));
      await frames(page);
      const after = await page.textContent('#summary');
      const status = (await page.evaluate(() => window.llmsim.results())).memory.status;
      assert(after !== before && after.includes(status) && status !== 'COMFORTABLE', `summary after RTX 3060 (${status}): '${after}'`);
      assert(await page.evaluate(() => window._mutations) >= 1, 'no mutation');
      const link = await page.getAttribute('#model-page', 'href');
      assert(link === 'models/Qwen/Qwen2.5-72B-Instruct/', `model page link ${link}`);
    });

    await check('app: keyboard only: Tab walks the top bar with visible focus, Space opens, type + Enter picks, Ctrl-K, Esc', async () => {
      await page.evaluate(() => window.llmsim.setState({ model: 'Qwen/Qwen2.5-7B-Instruct', hardware: 'rtx-4090' }));
      await frames(page);
      const bar = { x: 0, y: 0, width: 1280, height: 44 };
      const shot0 = await page.screenshot({ clip: bar });
      await page.keyboard.press('Tab');                       // the model search
      await frames(page);
      const shot1 = await page.screenshot({ clip: bar });
      assert(!shot0.equals(shot1), 'Tab left no visible focus in the top bar');
      await page.keyboard.press('Tab');                       // the hardware picker
      await frames(page);
      await page.keyboard.press('Space');                     // opens it; the search field has the keys
      await frames(page);
      await page.keyboard.type('h100 sxm');
      await frames(page);
      await page.keyboard.press('Enter');                     // Enter in the search field: the first match
      await frames(page, 6);
      const hw = (await page.evaluate(() => window.llmsim.getState())).hardware;
      assert(hw === 'h100-sxm', `hardware after Tab Tab Space 'h100 sxm' Enter: ${hw}`);
      const below = { x: 0, y: 44, width: 1280, height: 400 };
      const shotA = await page.screenshot({ clip: below });
      await page.keyboard.press('Control+k');                 // Ctrl-K: model search from anywhere
      await frames(page);
      await page.keyboard.type('gemma 2 9b');
      await frames(page);
      assert(!shotA.equals(await page.screenshot({ clip: below })), 'Ctrl-K opened no model search');
      await page.keyboard.press('Escape');                    // Esc closes it, nothing changes
      await frames(page, 6);
      assert((await page.evaluate(() => window.llmsim.getState())).model === 'Qwen/Qwen2.5-7B-Instruct', 'Esc changed the model');
      assert(shotA.equals(await page.screenshot({ clip: below })), 'the model search is still drawn after Esc');
      await page.keyboard.press('Control+k');
      await frames(page);
      await page.keyboard.type('gemma 2 9b');
      await frames(page);
      await page.keyboard.press('ArrowDown');                 // arrow keys move to the rows; Enter picks the focused one
      await frames(page);
      await page.keyboard.press('Enter');
      await frames(page, 6);
      const model = (await page.evaluate(() => window.llmsim.getState())).model;
      assert(/gemma-2-9b/.test(model), `model after Ctrl-K 'gemma 2 9b' Down Enter: ${model}`);
    });

    await check('app: a 100 px wheel event scrolls 100 px, a 10 x 10 px trackpad gesture ~100 px; Page Down, Home, End', async () => {
      await page.evaluate(() => window.llmsim.setState({ model: 'Qwen/Qwen2.5-72B-Instruct', hardware: 'rtx-4090' }));
      await page.mouse.click(900, 60);   // a quiet spot of the verdict: clears the keyboard focus
      await page.mouse.move(640, 500);   // the wheel scrolls the window under the mouse: the sections
      await page.keyboard.press('Home');
      await frames(page, 6);
      const y = async () => (await page.evaluate(() => window.llmsim._scroll())).y;
      const y0 = await y();
      assert(y0 === 0 && (await page.evaluate(() => window.llmsim._scroll())).max > 400, `start ${y0}`);
      await page.mouse.wheel(0, 100);
      await frames(page, 6);
      const y1 = await y();
      assert(Math.abs(y1 - y0 - 100) <= 10, `one 100 px wheel event scrolled ${y1 - y0} px`);
      for (let i = 0; i < 10; ++i) { await page.mouse.wheel(0, 10); await frames(page, 1); }
      await frames(page, 6);
      const y2 = await y();
      assert(Math.abs(y2 - y1 - 100) <= 10, `ten 10 px events scrolled ${y2 - y1} px`);
      await page.keyboard.press('PageDown');
      await frames(page, 6);
      const y3 = await y();
      assert(y3 > y2 + 300, `Page Down scrolled ${y3 - y2} px`);
      await page.keyboard.press('End');
      await frames(page, 6);
      const s = await page.evaluate(() => window.llmsim._scroll());
      assert(s.y === s.max, `End: ${s.y} of ${s.max}`);
      await page.keyboard.press('Home');
      await frames(page, 6);
      assert(await y() === 0, 'Home');
      console.log(`  wheel 100 px -> ${y1 - y0} px, 10 x 10 px -> ${y2 - y1} px, Page Down -> ${y3 - y2} px`);
    });

    await check('app: browser zoom / devicePixelRatio 2 scales the backing store, layout in CSS px', async () => {
      const z = await openApp(browser, `${base}/index.html`, { dpr: 2 });
      const dims = await z.page.evaluate(() => { const c = document.getElementById('canvas'); return [c.width, c.clientWidth, c.height, c.clientHeight]; });
      assert(dims[0] === 2 * dims[1] && dims[2] === 2 * dims[3], `canvas ${dims}`);
      await z.context.close();
    });
    assert(app.errors.length === 0, app.errors.join(' | '));
    await app.context.close();

    await check('site: screenshots of a model page at 1280 and 390 px, light and dark, and print', async () => {
      for (const [w, h] of [[1280, 900], [390, 844]]) {
        for (const scheme of ['light', 'dark']) {
          const { page: p, context } = await newPage(browser, { viewport: { width: w, height: h }, colorScheme: scheme });
          await p.goto(`${base}/models/Qwen/Qwen2.5-72B-Instruct/index.html`);
          await p.screenshot({ path: path.join(out, `model-page-${w}-${scheme}.png`) });
          if (w === 1280 && scheme === 'light') {
            await p.emulateMedia({ media: 'print' });
            await p.screenshot({ path: path.join(out, 'model-page-print.png'), fullPage: true });
            await p.pdf?.({ path: path.join(out, 'model-page.pdf') }).catch(() => {});
          }
          await context.close();
        }
      }
    });
  } finally {
    await browser.close();
    server.close();
  }
  checks.finish();
}

main().catch((e) => { console.error(e); process.exit(1); });
