// Browser end-to-end test (Playwright gives each run a fresh temporary profile): Playwright-core drives Debian's Chromium (headless, WebGL2 via SwiftShader) against
// the built page served from a local static server. Checks real state through window.llmsim, clicks ImGui
// widgets, saves screenshots into --out. Prints "N passed, N failed"; exit code 1 on any failure.
//   node tests/e2e/e2e.mjs --site build/web/site --out build/web/screenshots
import { readFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, serve, Checks, loadDurations, assert, eq, launchChromium, clickWidget, stableWidgetRect, waitForLlmsim } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = parseArgs();
const site = path.resolve(args.site || 'build/web/site');
const out = path.resolve(args.out || 'build/web/screenshots');
// the shards split the checks by their measured times (e2e_durations.json; refresh it with --shard 1/1
// --durations-out tests/e2e/e2e_durations.json after adding or changing a long check)
const checks = new Checks(args.only, args.shard, loadDurations(path.join(here, 'e2e_durations.json')), args['durations-out']);
const check = checks.check.bind(checks);

// scroll the sections (mouse wheel over the canvas) until widget `name` lies inside the viewport
async function scrollToWidget(page, name) {
  const vh = page.viewportSize().height;
  for (let i = 0; i < 30; ++i) {
    const r = await page.evaluate((n) => window.llmsim._widgetRect(n), name);
    if (r && r[1] >= 40 && r[3] <= vh - 10) return;
    await page.mouse.move(page.viewportSize().width / 2, vh / 2);
    // not drawn yet (a table below the fold is clipped whole): scroll down and look again
    await page.mouse.wheel(0, r ? Math.max(-600, Math.min(600, r[1] - vh / 3)) : 300);
    await page.waitForTimeout(150);
  }
  throw new Error(`could not scroll ${name} into view`);
}

async function openPage(browser, base, hash = '', viewport = { width: 1280, height: 800 }, dpr = 1) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: dpr });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  const t0 = Date.now();
  await page.goto(base + '/index.html' + hash);
  await waitForLlmsim(page);
  const readyMs = Date.now() - t0;
  return { page, context, errors, readyMs };
}

async function main() {
  await mkdir(out, { recursive: true });
  const server = await serve(site);
  const base = `http://127.0.0.1:${server.address().port}`;
  const browser = await launchChromium();
  try {
    const { page, errors, readyMs } = await openPage(browser, base);
    console.log(`page ready in ${readyMs} ms`);
    // a serving link opened in a fresh page: the same state keys, request and result (serve()'s), no page error
    const checkServingReload = async (hash, st, want) => {
      const p2 = await openPage(browser, base, hash);
      await p2.page.waitForTimeout(300);
      const s2 = await p2.page.evaluate(() => window.llmsim.getState());
      for (const k of Object.keys(st)) eq(s2[k], st[k], `state key ${k} after reload`);
      const got = (await p2.page.evaluate(() => window.llmsim.results())).serving;
      eq(got.request, want.request, 'serving request after reload');
      eq(got.result, want.result, 'serving result after reload');
      eq(p2.errors, [], 'no page errors');
      await p2.context.close();
    };

    await check('api: version and initial state', async () => {
      const v = await page.evaluate(() => window.llmsim.version());
      assert(/^\d+\.\d+\.\d+/.test(v), `version ${v}`);
      const s = await page.evaluate(() => window.llmsim.getState());
      eq(s.model, 'Qwen/Qwen2.5-7B-Instruct', 'default model');
      eq(s.quant, 'Q4_K_M', 'default quant');
    });

    await check('api: setState round-trips and updates the URL hash', async () => {
      const s = await page.evaluate(() => window.llmsim.setState({ quant: 'Q8_0', ctx: 8192 }));
      eq(s.quant, 'Q8_0', 'quant after setState');
      eq(s.ctx, 8192, 'ctx after setState');
      await page.waitForFunction(() => window.location.hash.includes('quant=Q8_0'), null, { timeout: 5000 });
    });

    await check('api: setState rejects bad values and changes nothing', async () => {
      const before = await page.evaluate(() => window.llmsim.getState());
      const err = await page.evaluate(() => { try { window.llmsim.setState({ ctx: -1 }); return ''; } catch (e) { return e.message; } });
      assert(err.includes('ctx') && err.includes('out of range'), `error message: ${err}`);
      const s = await page.evaluate(() => window.llmsim.getState());
      eq(s, before, 'state unchanged');
      const err2 = await page.evaluate(() => { try { window.llmsim.setState({ bogus: 1 }); return ''; } catch (e) { return e.message; } });
      assert(err2.includes("unknown key 'bogus'"), `error message: ${err2}`);
    });

    await check('api: change listener fires', async () => {
      const got = await page.evaluate(() => new Promise((resolve) => {
        const off = window.llmsim.on('change', (s) => { off(); resolve(s.quant); });
        window.llmsim.setState({ quant: 'Q6_K' });
        setTimeout(() => resolve('timeout'), 3000);
      }));
      eq(got, 'Q6_K', 'listener saw the new state');
    });

    await check('ui: clicking the theme toggle changes the state', async () => {
      const before = (await page.evaluate(() => window.llmsim.getState())).theme;
      await clickWidget(page, 'theme-toggle');
      await page.waitForTimeout(200);
      const after = (await page.evaluate(() => window.llmsim.getState())).theme;
      assert(before !== after, `theme stayed ${before}`);
      await page.screenshot({ path: path.join(out, 'theme-toggled.png') });
      await clickWidget(page, 'theme-toggle');
    });

    await check('url: a shared link restores the state on load', async () => {
      const p2 = await openPage(browser, base, '#model=Qwen/Qwen2.5-72B-Instruct&quant=Q5_K_M&ctx=16384');
      const s = await p2.page.evaluate(() => window.llmsim.getState());
      eq([s.model, s.quant, s.ctx], ['Qwen/Qwen2.5-72B-Instruct', 'Q5_K_M', 16384], 'state from hash');
      await p2.page.screenshot({ path: path.join(out, 'from-link.png') });
      await p2.context.close();
    });

    await check('idle: no frames drawn while nobody touches the page', async () => {
      await page.mouse.move(5, 790);
      await page.waitForTimeout(500);
      const a = await page.evaluate(() => window.llmsim.stats());
      await page.waitForTimeout(2000);
      const b = await page.evaluate(() => window.llmsim.stats());
      console.log(`     idle: ${b.frames - a.frames} frames in 2 s; last frame ${a.last_frame_ms.toFixed(2)} ms`);
      eq(b.frames - a.frames, 0, 'frames drawn in a 2 s idle window');
    });

    await check('hidpi: the backing store follows devicePixelRatio', async () => {
      const p2 = await openPage(browser, base, '', { width: 800, height: 600 }, 2);
      const size = await p2.page.evaluate(() => { const c = document.getElementById('canvas'); return [c.width, c.height]; });
      eq(size, [1600, 1200], 'canvas backing size at 2x');
      await p2.page.screenshot({ path: path.join(out, 'hidpi-2x.png') });
      await p2.context.close();
    });

    await check('engine: the page shows what memory() computes', async () => {
      await page.evaluate(() => window.llmsim.setState({ model: 'Qwen/Qwen2.5-72B-Instruct', quant: 'Q4_K_M', ctx: 32768, hardware: 'rtx-pro-6000', kv: 'f16', fa: true }));
      const r = await page.evaluate(() => window.llmsim.results());
      const m = await page.evaluate(() => window.llmsim.memory({ model: 'Qwen/Qwen2.5-72B-Instruct', quant: 'Q4_K_M', ctx: 32768, hardware: 'rtx-pro-6000' }));
      eq(r.memory.total_bytes, m.total_bytes, 'total bytes shown vs memory()');
      eq(r.memory.status, m.status, 'status shown vs memory()');
      assert(m.total_bytes > 40 * 2 ** 30 && m.total_bytes < 70 * 2 ** 30, `72B Q4_K_M @ 32k total ${m.total_bytes}`);
      const p = await page.evaluate(() => window.llmsim.predict({ id: 'q', model: 'Qwen/Qwen2.5-72B-Instruct', quant: 'Q4_K_M', hardware: 'rtx-pro-6000',
                                                                  test: { kind: 'decode', tokens: 128, depth: 4096 } }));
      eq(p.id, 'q', 'predict echoes the id');
      assert(p.tokens_per_s > 5 && p.tokens_per_s < 100 && p.low <= p.tokens_per_s && p.high >= p.tokens_per_s, `predict(): ${JSON.stringify(p)}`);
      const perr = await page.evaluate(() => window.llmsim.predict({ id: 'e', model: 'x/y', hardware: 'rtx-4090', test: { kind: 'decode', tokens: 1 } }));
      assert(perr.error && perr.error.includes("unknown model 'x/y'"), `predict() error line: ${JSON.stringify(perr)}`);
      const bad = await page.evaluate(() => { try { window.llmsim.memory({ model: 'nope/nope' }); return ''; } catch (e) { return e.message; } });
      assert(bad.includes("unknown model 'nope/nope'"), `memory() error: ${bad}`);
    });

    await check('engine: spec(), lora() and train() answer with the CLI keys and throw on bad input', async () => {
      const s = await page.evaluate(() => window.llmsim.spec({ model: 'Qwen/Qwen2.5-72B-Instruct', draft: 'Qwen/Qwen2.5-0.5B-Instruct',
                                                               hardware: 'm2-ultra-192', draft_max: 8, accept: 0.8 }));
      eq(s.speed.k, 8, 'spec() draft tokens per round');
      assert(s.speed.speedup > 1 && s.command.includes(' -md Qwen2.5-0.5B-Instruct-Q8_0.gguf'), `spec(): ${JSON.stringify(s.speed)} ${s.command}`);
      const l = await page.evaluate(() => window.llmsim.lora({ model: 'meta-llama/Meta-Llama-3-8B', rank: 8, targets: 'q,v' }));
      eq(l.params, 3407872, 'lora() trainable parameters (PEFT print_trainable_parameters)');
      const t = await page.evaluate(() => window.llmsim.train({ model: 'Qwen/Qwen2.5-7B-Instruct', method: 'qlora', grad_ckpt: true, hardware: 'rtx-4090' }));
      assert(t.fits === true && t.total_bytes_per_gpu > 4 * 2 ** 30 && t.total_bytes_per_gpu < 24 * 2 ** 30, `train(): ${JSON.stringify(t)}`);
      const bad = await page.evaluate(() => { try { window.llmsim.train({ model: 'Qwen/Qwen2.5-7B-Instruct', zero: 7 }); return ''; } catch (e) { return e.message; } });
      eq(bad, 'zero must be a whole number from 0 to 3', 'train() error');
    });

    await check('leaderboard: the decode range is predict() at an empty and at the full context', async () => {
      await page.evaluate(() => window.llmsim.setState({ model: 'Qwen/Qwen2.5-7B-Instruct', quant: 'Q4_K_M', ctx: 32768, hardware: 'rtx-4090',
                                                         kv: 'f16', fa: true, np: 1, embed: 'leaderboard' }));
      await page.waitForTimeout(300);
      const r = await page.evaluate(() => window.llmsim.results());
      const row = r.leaderboard.find((x) => x.hardware === 'rtx-4090');
      // the engine's own predict() call for the two ends of the range: tg128 at depth 0 and at depth = ctx
      const ask = (depth) => page.evaluate((d) => window.llmsim.predict({ id: 'd' + d, model: 'Qwen/Qwen2.5-7B-Instruct', quant: 'Q4_K_M',
                                                                          hardware: 'rtx-4090', flash_attn: true,
                                                                          test: { kind: 'decode', tokens: 128, depth: d } }), depth);
      const p0 = await ask(0), pN = await ask(32768);
      const close = (a, b, what) => assert(Math.abs(a / b - 1) < 1e-9, `${what}: shown ${a}, predict() ${b}`);
      close(row.decode_empty_tps, p0.tokens_per_s, 'leaderboard decode at an empty context');
      close(row.decode_full_tps, pN.tokens_per_s, 'leaderboard decode at 32k context');
      eq(row.decode_full_depth, 32768, 'full-context depth of the leaderboard row');
      close(r.speed.decode_empty_tps, p0.tokens_per_s, 'simulator decode at an empty context');
      close(r.speed.decode_full_tps, pN.tokens_per_s, 'simulator decode at 32k context');
      assert(row.decode_full_tps < row.decode_empty_tps, `decode falls with the context: ${row.decode_empty_tps} -> ${row.decode_full_tps}`);
      const sig = (x) => String(Number(x.toPrecision(3)));
      eq(r.speed.decode_range_text, `${sig(p0.tokens_per_s)} \u2192 ${sig(pN.tokens_per_s)} tok/s (empty \u2192 32k context)`, 'decode range words');
      assert(r.speed.conditions.includes('prefill of a 4k prompt, flash attention on'), `conditions: ${r.speed.conditions}`);
      assert(r.llama_bench_command.includes(' -d 0,32768') && r.llama_bench_command.includes(' -fa 1'), `bench command: ${r.llama_bench_command}`);
      const head = await page.evaluate(() => window.llmsim._widgetRect('leaderboard-head-3'));
      assert(head && head[2] - head[0] > 150, `decode header drawn with its depth: ${JSON.stringify(head)}`);
      await page.evaluate(() => window.llmsim.setState({ embed: '' }));
    });

    await check('recommend + faq: the usable floor (10 tok/s at the full context, first token of 4k within 10 s)', async () => {
      await page.evaluate(() => window.llmsim.setState({ model: 'Qwen/Qwen2.5-72B-Instruct', quant: 'Q4_K_M', ctx: 32768, hardware: 'rtx-4090' }));
      const r = await page.evaluate(() => window.llmsim.results());
      eq(r.recommend_floor.min_decode_tps, 10, 'recommender opens at the usable decode floor');
      eq(r.recommend_floor.max_ttft_s, 10, 'recommender opens at the usable TTFT floor');
      r.recommend.forEach((c) => assert(c.decode_checked_depth === 32768 && c.decode_checked_tps >= 10 && c.ttft_s <= 10,
                                        `${c.hardware}: ${c.decode_checked_tps} tok/s at ${c.decode_checked_depth}, TTFT ${c.ttft_s}`));
      const c = r.cheapest_usable;
      assert(c && c.decode_checked_tps >= 10 && c.decode_checked_depth === 32768 && c.ttft_s <= 10, `cheapest usable: ${JSON.stringify(c)}`);
      // a 2x/4x/8x combination id is a hardware the page takes (URL, pickers, recommend rows)
      const s = await page.evaluate(() => window.llmsim.setState({ hardware: '2x-rtx-3090', ctx: 8192 }));
      eq(s.hardware, '2x-rtx-3090', 'combination id kept');
      const r2 = await page.evaluate(() => window.llmsim.results());
      eq(r2.error, '', 'combination id resolves');
      assert(r2.memory.devices.filter((d) => d.name.startsWith('CUDA')).length === 2, `two GPUs: ${JSON.stringify(r2.memory.devices.map((d) => d.name))}`);
      await page.waitForFunction(() => window.location.hash.includes('hardware=2x-rtx-3090'), null, { timeout: 5000 });
      await page.evaluate(() => window.llmsim.setState({ model: 'Qwen/Qwen2.5-7B-Instruct', hardware: 'rtx-4090', ctx: 32768 }));
    });

    await check('my runs: pasted llama-bench rows next to predict(), a device profile, nothing in the URL', async () => {
      const bench = await readFile(path.join(here, '..', 'corpus', 'bench', 'llama_bench.md'), 'utf8');   // RTX 4080 rows
      await page.evaluate(() => window.llmsim.setState({ model: 'Qwen/Qwen2.5-7B-Instruct', quant: 'Q4_K_M', ctx: 32768, hardware: 'rtx-4080', embed: 'myruns' }));
      await page.waitForTimeout(300);
      const hashBefore = await page.evaluate(() => window.location.hash);
      const before = await page.evaluate(() => window.llmsim.results());
      const paste = async (text) => {   // a real paste event on the page, as Ctrl+V in a browser sends, into the focused box
        if (await page.evaluate(() => window.llmsim._widgetRect('myruns-clear'))) await clickWidget(page, 'myruns-clear');
        await clickWidget(page, 'myruns-text');
        await page.evaluate((t) => {
          const dt = new DataTransfer();
          dt.setData('text/plain', t);
          document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
        }, text);
        await page.waitForTimeout(200);
        await clickWidget(page, 'myruns-read');
      };
      await paste(bench);
      let m = (await page.evaluate(() => window.llmsim.results())).my_runs;
      // rows as printed; each matched to a catalog model of the same shape (qwen2, 7.62 B: the engine's match)
      eq(m.rows.map((x) => [x.test, Number(x.measured_tps.toFixed(2))]), [['pp512', 7340.2], ['tg128', 120.6], ['pp512 @ d512', 6425.91], ['tg128 @ d512', 116.71]],
         `rows read from the fixture (${m.message})`);
      const matched = m.rows[0].model;
      assert(matched && m.rows.every((x) => x.model === matched), `one matched model: ${JSON.stringify(m.rows.map((x) => x.model))}`);
      // the row as predict() reads it: the size and backend llama-bench printed (4.36 GiB, CUDA)
      const p = await page.evaluate((id) => window.llmsim.predict({ id: 'tg', model: id, quant: 'Q4_K_M', hardware: 'rtx-4080', model_size_gib: 4.36,
                                                                    backend: 'cuda', test: { kind: 'decode', tokens: 128, depth: 512 } }), matched);
      assert(Math.abs(m.rows[3].predicted_tps / p.tokens_per_s - 1) < 1e-9, `tg128 @ d512 row ${m.rows[3].predicted_tps} vs predict() ${p.tokens_per_s}`);
      // the factor is the median in log space, so on its own rows it cannot do worse than no profile
      for (const kind of ['pp', 'tg']) {
        const rows = m.rows.filter((x) => x.test.startsWith(kind));
        const err = (key) => rows.reduce((a, x) => a + Math.abs(Math.log(x[key] / x.measured_tps)), 0);
        assert(err('with_profile_tps') <= err('predicted_tps') + 1e-12, `${kind}: ${err('with_profile_tps')} vs ${err('predicted_tps')}`);
      }
      await page.screenshot({ path: path.join(out, 'myruns-rows-1280x800.png') });
      await clickWidget(page, 'myruns-use');
      const r = await page.evaluate(() => window.llmsim.results());
      assert(r.speed.calibrated.includes('calibrated on your 4 rows'), `calibrated mark: ${r.speed.calibrated}`);
      const f = r.my_runs.fitted.decode.factor;
      assert(Math.abs(r.speed.decode_full_tps / before.speed.decode_full_tps / f - 1) < 1e-9, `decode scaled by ${f}`);
      const row = (res, id) => res.leaderboard.find((x) => x.hardware === id);
      assert(Math.abs(row(r, 'rtx-4080').decode_empty_tps / row(before, 'rtx-4080').decode_empty_tps / f - 1) < 1e-9, 'the device\'s leaderboard row is calibrated');
      eq(row(r, 'rtx-4090').decode_empty_tps, row(before, 'rtx-4090').decode_empty_tps, 'other devices unchanged');
      await page.screenshot({ path: path.join(out, 'myruns-profile-1280x800.png') });
      await page.evaluate(() => window.llmsim.setState({ embed: 'verdict' }));
      await page.waitForTimeout(200);
      await page.screenshot({ path: path.join(out, 'verdict-calibrated-1280x800.png') });
      await page.evaluate(() => window.llmsim.setState({ embed: 'myruns' }));
      await page.waitForTimeout(200);
      // nothing pasted reaches the URL, and nothing is stored until "keep" is ticked
      const href = await page.evaluate(() => window.location.href);
      for (const t of ['7340', 'qwen2', 'pp512', 'tg128', 'Medium']) assert(!decodeURIComponent(href).includes(t), `URL has '${t}': ${href}`);
      eq(await page.evaluate(() => window.location.hash), hashBefore, 'hash unchanged by the paste and the profile');
      eq(await page.evaluate(() => window.localStorage.getItem('llmsim-device-profile')), null, 'nothing stored without keep');
      await clickWidget(page, 'myruns-keep');
      const kept = await page.evaluate(() => window.localStorage.getItem('llmsim-device-profile'));
      assert(kept && JSON.parse(kept).format === 'llmsim-device-profile/1' && !kept.includes('7340'), `kept profile: ${kept}`);
      const page2 = await page.context().newPage();   // same browser profile: the kept profile is back in use
      await page2.goto(page.url());
      await waitForLlmsim(page2);
      const r2 = await page2.evaluate(() => window.llmsim.results());
      assert(r2.speed.calibrated.includes('calibrated on your 4 rows'), `kept profile restored: ${r2.speed.calibrated}`);
      await page2.close();
      await clickWidget(page, 'myruns-keep');
      eq(await page.evaluate(() => window.localStorage.getItem('llmsim-device-profile')), null, 'unticking keep forgets it');
      // bad input: a message naming the problem, and the rows and the profile stay as they were
      await paste('| model | size |\n| --- | --- |\n| qwen2 7B | lots |\n');
      m = (await page.evaluate(() => window.llmsim.results())).my_runs;
      assert(/^Not read: /.test(m.message), `bad paste message: ${m.message}`);
      eq(m.rows.length, 4, 'rows unchanged after a bad paste');
      await page.screenshot({ path: path.join(out, 'myruns-bad-1280x800.png') });
      for (const [w, h, theme] of [[390, 844, 'dark'], [390, 844, 'light'], [1280, 800, 'light']]) {   // the rows at phone width, both themes
        await page.setViewportSize({ width: w, height: h });
        await page.evaluate((t) => window.llmsim.setState({ theme: t }), theme);
        for (const k of ['myruns', 'leaderboard', 'verdict']) {
          await page.evaluate((key) => window.llmsim.setState({ embed: key }), k);
          await page.waitForTimeout(250);
          await page.screenshot({ path: path.join(out, `${k}-calibrated-${w}x${h}-${theme}.png`) });
        }
      }
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.evaluate(() => window.llmsim.setState({ theme: 'dark', embed: 'myruns' }));
      await page.waitForTimeout(250);
      await clickWidget(page, 'myruns-use');
      eq((await page.evaluate(() => window.llmsim.results())).speed.calibrated, '', 'profile off again');
      await page.evaluate(() => window.llmsim.setState({ hardware: 'rtx-4090', embed: '' }));
    });

    await check('ui: clicking a quant row selects it', async () => {
      await page.evaluate(() => window.llmsim.setState({ quant: 'Q4_K_M', embed: 'quants' }));
      await page.waitForTimeout(400);   // a few frames so the row's rectangle is where it is drawn
      await clickWidget(page, 'quant-row-Q8_0');
      eq((await page.evaluate(() => window.llmsim.getState())).quant, 'Q8_0', 'quant after click');
      await page.evaluate(() => window.llmsim.setState({ embed: '' }));
    });

    await check('ui: copy command puts the llama-server line on the clipboard', async () => {
      await page.evaluate(() => window.llmsim.setState({ embed: 'command' }));
      await page.waitForTimeout(300);
      await clickWidget(page, 'copy-command');
      const text = await page.evaluate(() => navigator.clipboard.readText());
      const shown = (await page.evaluate(() => window.llmsim.results())).command;
      eq(text, shown, 'clipboard vs the command the page shows');
      assert(text.startsWith('llama-server ') && text.includes(' -c 32768') && text.includes(' -fa on'), `command: ${text}`);
      await page.evaluate(() => window.llmsim.setState({ embed: '' }));
    });

    await check('import: a good config.json becomes the model everywhere', async () => {
      const cfg = { model_type: 'llama', architectures: ['LlamaForCausalLM'], hidden_size: 2048, intermediate_size: 8192,
        num_hidden_layers: 16, num_attention_heads: 32, num_key_value_heads: 8, vocab_size: 128256,
        max_position_embeddings: 131072, tie_word_embeddings: true, rope_theta: 500000 };
      const s = await page.evaluate((c) => window.llmsim.importConfig(JSON.stringify(c), 'me/my-1b'), cfg);
      eq(s.model, 'me/my-1b', 'model after import');
      const r = await page.evaluate(() => window.llmsim.results());
      assert(r.params.total > 1.1e9 && r.params.total < 1.3e9, `imported params ${r.params.total}`);
      assert(r.leaderboard.length > 70, 'leaderboard for the imported model');
    });

    await check('import: a bad config.json is refused with a message, through the UI', async () => {
      const before = (await page.evaluate(() => window.llmsim.getState())).model;
      await page.evaluate(() => window.llmsim.setState({ embed: 'import' }));
      await page.waitForTimeout(300);
      await clickWidget(page, 'import-text');
      await page.keyboard.type('{"model_type": "llama", "hidden_size": -5}');
      await page.waitForTimeout(200);
      await clickWidget(page, 'import-button');
      const r = await page.evaluate(() => window.llmsim.results());
      assert(/not imported/.test(r.import_message), `import message: ${r.import_message}`);
      eq((await page.evaluate(() => window.llmsim.getState())).model, before, 'model unchanged after a bad import');
      await page.screenshot({ path: path.join(out, 'import-error.png') });
      const err = await page.evaluate(() => { try { window.llmsim.importConfig('{"num_hidden_layers": 4}'); return ''; } catch (e) { return e.message; } });
      assert(err.length > 10, `importConfig error: ${err}`);
      await page.evaluate(() => window.llmsim.setState({ embed: '' }));
    });

    await check('explain: a memory number and a speed number open to how they are made', async () => {
      await page.evaluate(() => window.llmsim.setState({ model: 'Qwen/Qwen2.5-7B-Instruct', hardware: 'rtx-4090', quant: 'Q4_K_M', kv: 'q8_0', ctx: 16384, embed: 'simulator' }));
      await page.waitForTimeout(300);
      await clickWidget(page, 'explain-kv_cache');
      let r = await page.evaluate(() => window.llmsim.results());
      eq(r.pinned_explanation, 'kv_cache', 'pinned explanation after clicking the KV number');
      const st = await page.evaluate(() => window.llmsim.getState());
      const kv = r.explanations.find((e) => e.key === 'kv_cache');
      assert(kv.inputs.some((t) => t.includes(`KV type = ${st.kv}/${st.kv}`)), `KV inputs name the state's KV type: ${JSON.stringify(kv.inputs)}`);
      assert(kv.text.includes(`n_ctx ${st.ctx}`), `KV text uses the state's context: ${kv.text}`);
      await page.screenshot({ path: path.join(out, 'explain-kv.png') });
      await page.keyboard.press('Escape');
      await page.waitForTimeout(200);
      await clickWidget(page, 'explain-decode');
      r = await page.evaluate(() => window.llmsim.results());
      eq(r.pinned_explanation, 'decode', 'pinned explanation after clicking the decode number');
      const dec = r.explanations.find((e) => e.key === 'decode');
      assert(dec.inputs.some((t) => t.startsWith('bandwidth = 1010 GB/s') || t.startsWith('bandwidth = 1008 GB/s')), `decode inputs name the 4090's bandwidth: ${JSON.stringify(dec.inputs)}`);
      assert(dec.value.includes(r.speed.decode_tps.toPrecision(3).replace(/\.?0+$/, '')) || dec.value.length > 0, 'decode value');
      await page.screenshot({ path: path.join(out, 'explain-decode.png') });
      await page.keyboard.press('Escape');
      await page.evaluate(() => window.llmsim.setState({ embed: '', kv: 'f16', ctx: 32768 }));
    });

    await check('compare: three devices side by side round-trip through the URL', async () => {
      await page.evaluate(() => window.llmsim.setState({ model: 'Qwen/Qwen2.5-7B-Instruct', quant: 'Q4_K_M', compare: '~rtx-4090~,~rtx-3090-used~,~m4-max-128~Q8_0' }));
      await page.waitForFunction(() => window.location.hash.includes('compare='), null, { timeout: 5000 });
      const hash = await page.evaluate(() => window.location.hash);
      const r1 = await page.evaluate(() => window.llmsim.results());
      eq(r1.compare.length, 3, 'three setups');
      eq(r1.compare.map((c) => c.hardware), ['rtx-4090', 'rtx-3090-used', 'm4-max-128'], 'devices');
      eq(r1.compare[2].quant, 'Q8_0', 'per-setup quant');
      r1.compare.forEach((c) => assert(!c.error, `setup error: ${c.error}`));
      const p2 = await openPage(browser, base, hash);
      const r2 = await p2.page.evaluate(() => window.llmsim.results());
      eq(r2.compare, r1.compare, 'the same comparison from the link');
      await p2.page.evaluate(() => window.llmsim.setState({ embed: 'compare' }));
      await p2.page.waitForTimeout(200);
      await p2.page.screenshot({ path: path.join(out, 'compare-3.png') });
      await p2.context.close();
      await page.evaluate(() => window.llmsim.setState({ compare: '' }));
    });

    await check('ui: Copy link puts the page URL with the state on the clipboard', async () => {
      await page.evaluate(() => window.llmsim.setState({ embed: '', quant: 'Q5_K_M' }));
      await page.waitForTimeout(300);
      await clickWidget(page, 'copy-link');
      const text = await page.evaluate(() => navigator.clipboard.readText());
      const href = await page.evaluate(() => window.location.href);
      eq(text, href, 'copied link vs the address bar');
      assert(text.includes('quant=Q5_K_M'), `link carries the state: ${text}`);
    });

    await check('recommend: the page ranks hardware that meets the speed floor', async () => {
      await page.evaluate(() => window.llmsim.setState({ model: 'Qwen/Qwen2.5-72B-Instruct', quant: 'Q4_K_M', ctx: 32768, rec_tps: 20, rec_price: 0 }));
      const r = await page.evaluate(() => window.llmsim.results());
      assert(r.recommend.length > 0, 'some hardware meets 20 tok/s');
      r.recommend.forEach((c) => assert(c.decode_tps >= 20, `${c.hardware} decode ${c.decode_tps}`));
      for (let i = 1; i < r.recommend.length; ++i)
        assert(r.recommend[i].price_usd >= r.recommend[i - 1].price_usd || r.recommend[i].price_usd === 0, 'cheapest first');
    });

    await check('cost: a load above one device\'s 730-hour month is priced on the devices it takes', async () => {
      await page.evaluate(() => window.llmsim.setState({ model: 'Qwen/Qwen2.5-72B-Instruct', quant: 'Q4_K_M', ctx: 32768, hardware: 'rtx-4090', mtok: 60, embed: 'cost' }));
      const r = await page.evaluate(() => window.llmsim.results());
      const c = r.cost;
      assert(c && !c.error && r.speed.prefill_tps > 0, `cost: ${JSON.stringify(c)}`);
      // hours = tokens / rate: 45M input at prefill speed + 15M output at decode speed (the page splits 3:1)
      const hours = (45e6 / r.speed.prefill_tps + 15e6 / r.speed.decode_tps) / 3600;
      assert(Math.abs(c.hours_needed_per_month - hours) < 1e-6 * hours, `hours ${c.hours_needed_per_month} vs ${hours}`);
      assert(hours > 730, `the 4090 cannot serve 60M tokens of 72B a month alone (${hours} h)`);
      eq(c.devices_needed, Math.ceil(hours / 730), 'devices needed');
      assert(c.active_hours_per_month <= 730 && Math.abs(c.active_hours_per_month - hours / c.devices_needed) < 1e-6, `active ${c.active_hours_per_month}`);
      assert(c.capacity_note.includes(`${c.devices_needed} devices`), `note: ${c.capacity_note}`);
      assert(c.explanation.includes('utilisation') && c.explanation.includes('capacity'), `explanation: ${c.explanation}`);
      await page.waitForTimeout(200);
      await page.screenshot({ path: path.join(out, 'cost-above-capacity.png') });
      await page.evaluate(() => window.llmsim.setState({ embed: '' }));
    });

    await check('defaults: a model opens at its release format and a context that fits the device', async () => {
      const p2 = await openPage(browser, base, '#model=openai/gpt-oss-120b&hardware=h200-sxm');
      let s = await p2.page.evaluate(() => window.llmsim.getState());
      eq([s.quant, s.ctx], ['MXFP4_MOE', 131072], 'gpt-oss-120b from a link naming only model and device');
      const r = await p2.page.evaluate(() => window.llmsim.results());
      const gib = r.memory.weights_bytes / 2 ** 30;
      // llama-bench prints 59.02 GiB for gpt-oss-120b-mxfp4 (github:kyuz0/amd-strix-halo-toolboxes@d1a34bee09)
      assert(Math.abs(gib - 59.02) < 0.35, `gpt-oss-120b weights ${gib.toFixed(2)} GiB, published 59.02`);
      await p2.page.evaluate(() => window.llmsim.setState({ embed: 'quants' }));
      await p2.page.waitForTimeout(200);
      await p2.page.screenshot({ path: path.join(out, 'defaults-gpt-oss-120b-quants.png') });
      // a new model without quant/ctx takes its defaults; with them, keeps what was given
      s = await p2.page.evaluate(() => window.llmsim.setState({ model: 'meta-llama/Llama-3.1-70B-Instruct', hardware: 'rtx-4090' }));
      eq([s.quant, s.ctx], ['Q4_K_M', 4096], 'Llama 70B on 24 GB (never fits: the 4k floor)');
      s = await p2.page.evaluate(() => window.llmsim.setState({ model: 'openai/gpt-oss-20b', quant: 'Q8_0', ctx: 8192 }));
      eq([s.quant, s.ctx], ['Q8_0', 8192], 'explicit quant and ctx win');
      // the URL follows on the next frame; a link always names quant and ctx (their defaults depend on the model)
      await p2.page.waitForFunction(() => window.location.hash.includes('quant=Q8_0') && window.location.hash.includes('ctx=8192'),
                                    null, { timeout: 5000 });
      await p2.context.close();
    });

    await check('ngl: auto GPU layers show the placement the command uses', async () => {
      await page.evaluate(() => window.llmsim.setState({ model: 'Qwen/Qwen2.5-72B-Instruct', hardware: 'rtx-4090', quant: 'Q4_K_M', ctx: 32768, ngl: -1, embed: 'simulator' }));
      await page.waitForTimeout(300);
      const r = await page.evaluate(() => window.llmsim.results());
      eq(r.memory.status, 'PARTIAL_OFFLOAD', '72B Q4_K_M on a 24 GB card');
      assert(r.command.includes(` -ngl ${r.memory.gpu_layers} `), `command uses the auto placement ${r.memory.gpu_layers}: ${r.command}`);
      await page.screenshot({ path: path.join(out, 'ngl-auto-72b-4090.png') });
      await page.evaluate(() => window.llmsim.setState({ embed: '', model: 'Qwen/Qwen2.5-7B-Instruct', quant: 'Q4_K_M', ctx: 32768 }));
    });

    await check('layout: each number ends under its right-aligned header, at 1280 and 390 px', async () => {
      const tables = [['quants', 'quants', [1, 2, 3, 4]], ['context', 'ctxtable', [0, 1, 2, 3]], ['recommend', 'rec', [1, 2, 3, 4]]];
      for (const [w, h] of [[1280, 800], [390, 844]]) {
        const p2 = await openPage(browser, base, '#model=Qwen/Qwen2.5-7B-Instruct&hardware=rtx-4090', { width: w, height: h });
        for (const [embed, t, cols] of tables) {
          await p2.page.evaluate((k) => window.llmsim.setState({ embed: k }), embed);
          await p2.page.waitForTimeout(300);
          let checked = 0;
          for (const c of cols) {
            const head = await p2.page.evaluate((n) => window.llmsim._widgetRect(n), `${t}-head-${c}`);
            if (!head) continue;   // scrolled out of view at phone width
            for (let row = 0; row < 4; ++row) {
              const v = await p2.page.evaluate((n) => window.llmsim._widgetRect(n), `${t}-r${row}-c${c}`);
              if (!v) continue;
              checked++;
              assert(v[2] >= head[0] - 0.5 && v[2] <= head[2] + 0.5,
                     `${t} ${w}px row ${row} col ${c}: value right edge ${v[2].toFixed(1)} not under its header [${head[0].toFixed(1)}, ${head[2].toFixed(1)}]`);
              assert(Math.abs(v[2] - head[2]) <= 0.5, `${t} ${w}px row ${row} col ${c}: value ends at ${v[2].toFixed(1)}, header at ${head[2].toFixed(1)}`);
            }
          }
          assert(checked >= 4, `${t} at ${w}px: only ${checked} value rectangles to check`);
        }
        await p2.context.close();
      }
    });

    // the Serving section (ui/panel_serving.cpp): what it shows is what window.llmsim.serve() returns for the request
    // it reports, the format of the shown figures is re-derived here from serve()'s bytes and rates
    const sig3 = (x) => String(Number(x.toPrecision(3)));
    const gib2 = (b) => `${(b / 2 ** 30).toFixed(2)} GiB`;
    await check('serving: the section renders and its numbers equal serve() for the same request', async () => {
      await page.evaluate(() => window.llmsim.setState({ model: 'Qwen/Qwen2.5-7B-Instruct', hardware: 'rtx-4090', quant: 'Q4_K_M',
                                                         ctx: 32768, embed: 'serving', sv_c: 16, sv_in: 1000, sv_ttft: 1000, sv_tpot: 50 }));
      await page.waitForTimeout(300);
      for (const w of ['serving-engine', 'serving-kv-pool', 'serving-sla-max', 'serving-plot-throughput', 'serving-plot-ttft',
                       'serving-plot-tpot', 'serving-step-bar', 'serving-copy'])
        assert(await page.evaluate((n) => window.llmsim._widgetRect(n), w), `widget ${w} drawn`);
      const sv = (await page.evaluate(() => window.llmsim.results())).serving;
      eq(sv.error, '', 'no serving error');
      eq([sv.request.engine, sv.request.model, sv.request.hardware, sv.request.workload.concurrency], ['vllm', 'Qwen/Qwen2.5-7B-Instruct', 'rtx-4090', 16], 'request');
      const direct = await page.evaluate((q) => window.llmsim.serve(q), sv.request);
      eq(sv.result, direct, 'results().serving.result vs serve(request)');
      eq(sv.shown.kv_pool, gib2(direct.memory.kv_pool_bytes), 'KV pool shown');
      eq(sv.shown.weights, gib2(direct.memory.weights_bytes), 'weights shown');
      eq(sv.shown.output_tok_s, `${sig3(direct.load.output_tok_s)} tok/s`, 'output tok/s shown');
      eq(sv.shown.ttft_p90, `${sig3(direct.load.ttft_ms.p90)} ms`, 'TTFT p90 shown');
      eq(sv.shown.tpot_p90, `${sig3(direct.load.tpot_ms.p90)} ms`, 'TPOT p90 shown');
      eq(sv.shown.command, direct.command, 'command shown');
      assert(direct.command.startsWith('vllm serve Qwen/Qwen2.5-7B-Instruct'), `command ${direct.command}`);
      // each plotted point is serve() at that concurrency with the default request count (serving.h
      // default_num_prompts: 8 x C, at least 32 — the request JSON leaves num_prompts out)
      eq(sv.request.workload.num_prompts, undefined, 'the chosen point uses the default request count');
      eq(sv.result.load.completed, Math.max(32, 8 * 16), 'requests simulated at C=16');
      eq(sv.sweep.map((p) => p.concurrency), [1, 2, 4, 8, 16, 32, 64, 128, 256], 'sweep concurrencies');
      for (const p of [sv.sweep[0], sv.sweep[4], sv.sweep[7]]) {
        const q = { ...sv.request, workload: { ...sv.request.workload, concurrency: p.concurrency } };
        const at = await page.evaluate((x) => window.llmsim.serve(x), q);
        eq([p.output_tok_s, p.ttft_p90_ms, p.tpot_p90_ms], [at.load.output_tok_s, at.load.ttft_ms.p90, at.load.tpot_ms.p90], `sweep point C=${p.concurrency}`);
        eq(p.meets, at.load.ttft_ms.p90 <= 1000 && at.load.tpot_ms.p90 <= 50, `meets at C=${p.concurrency}`);
      }
      // the SLA answer meets the SLA when re-run, and the sweep's first miss lies above it
      const c = sv.sla_max_concurrency;
      assert(c >= 1, `some concurrency meets TTFT 1 s / TPOT 50 ms on a 4090 (got ${c})`);
      const atc = await page.evaluate((x) => window.llmsim.serve(x), { ...sv.request, workload: { ...sv.request.workload, concurrency: c } });
      assert(atc.load.ttft_ms.p90 <= 1000 && atc.load.tpot_ms.p90 <= 50, `C=${c} re-checked: TTFT ${atc.load.ttft_ms.p90}, TPOT ${atc.load.tpot_ms.p90}`);
      const firstMiss = sv.sweep.find((p) => !p.meets);
      assert(!firstMiss || firstMiss.concurrency > c, `first missing sweep point ${firstMiss && firstMiss.concurrency} above ${c}`);
      // a number opens to how it is made: the KV pool's explanation carries the engine's own rules
      // an explanation an earlier check left pinned (its window in the middle of the page) is closed first
      await page.mouse.move(640, 300); await page.keyboard.press('Escape'); await page.waitForTimeout(200);
      eq((await page.evaluate(() => window.llmsim.results())).pinned_explanation, '', 'no explanation pinned before the click');
      await clickWidget(page, 'explain-serve_kv_pool');
      const rx = await page.evaluate(() => window.llmsim.results());
      eq(rx.pinned_explanation, 'serve_kv_pool', 'pinned explanation after clicking the KV pool');
      const ekv = rx.serving.explanations.find((e) => e.key === 'serve_kv_pool');
      eq(ekv.inputs, direct.memory.rules, 'KV pool explanation lists the memory plan rules');
      assert(ekv.text.includes(`${direct.memory.kv_pool_blocks} blocks x ${direct.memory.block_size} tokens = ${direct.memory.kv_pool_tokens} tokens`), `KV text: ${ekv.text}`);
      await page.screenshot({ path: path.join(out, 'serving-explain-kv-pool.png') });
      await page.keyboard.press('Escape');
      await page.waitForTimeout(200);
      // the command line: optional comparison with the native CLI (--cli PATH)
      const cli = args.cli || process.env.LLMSIM_CLI;
      if (cli) {
        const { execFileSync } = await import('node:child_process');
        const { writeFileSync } = await import('node:fs');
        const f = path.join(out, 'serving-request.json');
        writeFileSync(f, JSON.stringify(sv.request));
        const fromCli = JSON.parse(execFileSync(cli, ['serve', '--request', f, '--json'], { encoding: 'utf8' }));
        const close = (a, b) => (typeof a === 'number' && typeof b === 'number' ? Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b))
          : a && typeof a === 'object' ? Object.keys(b).every((k) => close(a[k], b[k])) : JSON.stringify(a) === JSON.stringify(b));
        assert(close(fromCli, sv.result), `llmsim-cli serve --request --json differs from the page: ${JSON.stringify(fromCli.load)} vs ${JSON.stringify(sv.result.load)}`);
        console.log(`     serving: the CLI (${cli}) gives the page's numbers`);
      } else {
        console.log('     serving: CLI comparison not run (pass --cli build/native/llmsim-cli)');
      }
      console.log(`     serving: recompute ${sv.compute_ms.toFixed(1)} ms (chosen point + ${sv.sweep.length}-point sweep + SLA bisection + cost load)`);
      // another chosen load reruns only the chosen point and the cost load: the sweep and the SLA answer stay
      await page.evaluate(() => window.llmsim.setState({ sv_c: 24 }));
      const sv2 = (await page.evaluate(() => window.llmsim.results())).serving;
      eq([sv2.sweep, sv2.sla_max_concurrency], [sv.sweep, sv.sla_max_concurrency], 'sweep and SLA answer kept');
      eq(sv2.result, await page.evaluate((q) => window.llmsim.serve(q), sv2.request), 'chosen point C=24 vs serve()');
      console.log(`     serving: recompute after a new concurrency only ${sv2.compute_ms.toFixed(1)} ms`);
      await page.screenshot({ path: path.join(out, 'serving-1280x800.png') });
    });

    await check('serving: the URL holds the section and search inputs (round trip into a fresh page)', async () => {
      const st = { model: 'meta-llama/Llama-3.1-8B-Instruct', hardware: 'h100-sxm', embed: 'serving', sv_engine: 'sglang', sv_prec: 'fp8',
                   sv_c: 24, sv_in: 900, sv_out: 150, sv_ttft: 800, sv_tpot: 40, sv_len: 4096,
                   sv_s_dev: 'all', sv_s_eng: 'vllm,trtllm', sv_s_prec: 'bf16', sv_s_gpus: '1,2' };
      await page.evaluate((x) => window.llmsim.setState(x), st);
      await page.waitForFunction(() => window.location.hash.includes('sv_s_gpus=1,2'), null, { timeout: 5000 });
      const hash = await page.evaluate(() => window.location.hash);
      const want = (await page.evaluate(() => window.llmsim.results())).serving;
      await checkServingReload(hash, st, want);
    });

    // expert parallel (MoE only; physics only): the switch, the command, the explanation and the numbers are serve()'s and
    // the CLI's for the request the page reports; the URL carries it; a dense model hides it
    await check('serving: expert parallel on a MoE model equals serve() and the CLI, round-trips the URL, hidden for dense', async () => {
      // format_sig(x, 3) (engine/core/format.cpp) as the page prints it, trailing zeros kept ("22.0 ms")
      const sigText = (x) => { const d = 2 - Math.floor(Math.log10(Math.abs(x))); return d < 0 ? (Math.round(x / 10 ** -d) * 10 ** -d).toFixed(0) : x.toFixed(d); };
      const st = { model: 'mistralai/Mixtral-8x7B-Instruct-v0.1', hardware: 'h100-sxm', embed: 'serving', sv_engine: 'vllm', sv_prec: 'bf16',
                   sv_gpus: 2, sv_tp: 2, sv_pp: 1, sv_c: 16, sv_in: 1024, sv_out: 128, sv_len: 8192, sv_ttft: 1000, sv_tpot: 50, sv_ep: true };
      await page.evaluate((x) => window.llmsim.setState(x), st);
      await page.waitForTimeout(300);
      await scrollToWidget(page, 'serving-ep');
      assert(await page.evaluate(() => window.llmsim._widgetRect('serving-ep-help')), 'EP help marker drawn');
      const sv = (await page.evaluate(() => window.llmsim.results())).serving;
      eq(sv.error, '', 'no serving error');
      eq([sv.request.ep, sv.request.tp, sv.request.gpus], [true, 2, 2], 'the request carries ep');
      const direct = await page.evaluate((q) => window.llmsim.serve(q), sv.request);
      eq(sv.result, direct, 'results().serving.result vs serve(request) with ep');
      eq(sv.shown.output_tok_s, `${sigText(direct.load.output_tok_s)} tok/s`, 'output tok/s shown');
      eq(sv.shown.tpot_p90, `${sigText(direct.load.tpot_ms.p90)} ms`, 'TPOT p90 shown');
      eq(sv.shown.command, direct.command, 'command shown');
      assert(direct.command.startsWith('vllm serve mistralai/Mixtral-8x7B-Instruct-v0.1 --tensor-parallel-size 2 ') &&
             direct.command.includes(' --enable-expert-parallel'), `command ${direct.command}`);
      assert(direct.notes.some((n) => n.startsWith('expert parallel over 2 GPUs (physics only')), `engine note: ${JSON.stringify(direct.notes)}`);
      assert(sv.load_words.includes('expert parallel'), `load words: ${sv.load_words}`);
      // the explanation compares with the same request, experts sharded over TP (serve() with ep off)
      const off = await page.evaluate((q) => window.llmsim.serve(q), { ...sv.request, ep: false });
      assert(off.ok && off.step.step_s !== direct.step.step_s, `EP moves the step: ${direct.step.step_s} vs ${off.step.step_s}`);
      assert(!off.command.includes('expert-parallel'), `no flag without ep: ${off.command}`);
      const ex = sv.explanations.find((e) => e.key === 'serve_ep');
      assert(ex, 'serve_ep explanation');
      assert(ex.text.includes('Physics only: no published serving run uses EP'), `EP text: ${ex.text}`);
      assert(ex.text.includes(`${sigText(direct.step.step_s * 1e3)} ms with EP vs ${sigText(off.step.step_s * 1e3)} ms with the experts sharded over TP`), `EP text: ${ex.text}`);
      assert(ex.text.includes(`output ${sigText(direct.load.output_tok_s)} vs ${sigText(off.load.output_tok_s)} tok/s`), `EP text: ${ex.text}`);
      const step = sv.explanations.find((e) => e.key === 'serve_step');
      assert(step.inputs.some((i) => i.includes(`${sigText(direct.step.moe_fixed_s * 1e3)} ms of the overhead`)), `step inputs: ${JSON.stringify(step.inputs)}`);
      // the CLI: the page's request as a file, and the same request in the CLI's own flags (--enable-expert-parallel)
      const cli = args.cli || process.env.LLMSIM_CLI;
      if (cli) {
        const { execFileSync } = await import('node:child_process');
        const { writeFileSync } = await import('node:fs');
        const f = path.join(out, 'serving-ep-request.json');
        writeFileSync(f, JSON.stringify(sv.request));
        const close = (a, b) => (typeof a === 'number' && typeof b === 'number' ? Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b))
          : a && typeof a === 'object' ? Object.keys(b).every((k) => close(a[k], b[k])) : JSON.stringify(a) === JSON.stringify(b));
        const fromFile = JSON.parse(execFileSync(cli, ['serve', '--request', f, '--json'], { encoding: 'utf8' }));
        assert(close(fromFile, sv.result), `llmsim-cli serve --request differs: ${JSON.stringify(fromFile.step)} vs ${JSON.stringify(sv.result.step)}`);
        const flags = ['serve', '--engine', 'vllm', '--model', st.model, '--hardware', 'h100-sxm', '--precision', 'bf16', '--tp', '2', '--gpus', '2',
                       '--max-model-len', '8192', '--concurrency', '16', '--input-len', '1024', '--output-len', '128', '--enable-expert-parallel', '--json'];
        const fromFlags = JSON.parse(execFileSync(cli, flags, { encoding: 'utf8' }));
        assert(close(fromFlags, sv.result), `llmsim-cli serve --enable-expert-parallel differs: ${JSON.stringify(fromFlags.load)} vs ${JSON.stringify(sv.result.load)}`);
        console.log(`     serving EP: the CLI (--request and --enable-expert-parallel) gives the page's numbers`);
      } else {
        console.log('     serving EP: CLI comparison not run (pass --cli build/native/llmsim-cli)');
      }
      console.log(`     serving EP: Mixtral-8x7B TP 2 on H100, C=16: step ${sigText(direct.step.step_s * 1e3)} ms with EP vs ${sigText(off.step.step_s * 1e3)} ms without; ` +
                  `output ${sigText(direct.load.output_tok_s)} vs ${sigText(off.load.output_tok_s)} tok/s`);
      // the URL round trip into a fresh page
      await page.waitForFunction(() => window.location.hash.includes('sv_ep=on'), null, { timeout: 5000 });
      const hash = await page.evaluate(() => window.location.hash);
      await checkServingReload(hash, st, sv);
      // the help marker's tooltip says physics only
      await scrollToWidget(page, 'serving-ep-help');
      const hr = await page.evaluate(() => window.llmsim._widgetRect('serving-ep-help'));
      await page.mouse.move((hr[0] + hr[2]) / 2, (hr[1] + hr[3]) / 2);
      await page.waitForTimeout(250);
      await page.screenshot({ path: path.join(out, 'serving-ep-help-1280x800.png') });
      // a dense model: no switch, no ep in the request (vLLM ignores the flag without MoE layers)
      await page.evaluate(() => window.llmsim.setState({ model: 'meta-llama/Llama-3.1-8B-Instruct' }));
      await page.waitForTimeout(300);
      eq(await page.evaluate(() => window.llmsim._widgetRect('serving-ep')), null, 'no EP switch for a dense model');
      const dense = (await page.evaluate(() => window.llmsim.results())).serving;
      eq([dense.request.ep, dense.result.command.includes('expert-parallel')], [undefined, false], 'dense request without ep');
      // screenshots with EP on: the inputs and the step, desktop and phone width, both themes
      // (one page a width, the theme switched in place: a page load costs more than the screenshots)
      for (const vp of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
        const p3 = await openPage(browser, base, hash, vp, vp.width < 500 ? 2 : 1);
        for (const theme of ['dark', 'light']) {
          await p3.page.evaluate((t) => window.llmsim.setState({ theme: t }), theme);
          await p3.page.waitForTimeout(200);
          const away = async () => { await p3.page.mouse.move(vp.width - 2, vp.height / 2); await p3.page.waitForTimeout(150); };   // no plot read-out over the text
          await scrollToWidget(p3.page, 'serving-ep');
          await away();
          await p3.page.screenshot({ path: path.join(out, `serving-ep-${theme}-${vp.width}.png`) });
          await scrollToWidget(p3.page, 'serving-step-bar');
          await away();
          await p3.page.screenshot({ path: path.join(out, `serving-ep-step-${theme}-${vp.width}.png`) });
        }
        eq(p3.errors, [], `no page errors (${vp.width})`);
        await p3.context.close();
      }
      await page.evaluate(() => window.llmsim.setState({ sv_ep: false, sv_gpus: 0, sv_tp: 0 }));
    });

    await check('serving: the search panel runs on the button, equals serveSearch(), and a picked row becomes the configuration', async () => {
      await page.evaluate(() => window.llmsim.setState({ model: 'meta-llama/Llama-3.1-8B-Instruct', hardware: 'rtx-4090', embed: 'serving',
        sv_engine: 'vllm', sv_prec: 'bf16', sv_gpus: 0, sv_tp: 0, sv_pp: 1, sv_c: 16, sv_in: 1024, sv_out: 128, sv_len: 4096,
        sv_ttft: 1000, sv_tpot: 50, sv_s_dev: 'datacenter', sv_s_eng: 'vllm,sglang', sv_s_prec: 'bf16,fp8', sv_s_gpus: '1,2' }));
      await page.waitForTimeout(300);
      let ss = (await page.evaluate(() => window.llmsim.results())).serving_search;
      eq([ss.running, ss.done, ss.points.length], [false, false, 0], 'nothing searched before the button');
      await scrollToWidget(page, 'serving-search-run');
      await clickWidget(page, 'serving-search-run');
      await page.waitForFunction(() => window.llmsim.results().serving_search.done, null, { timeout: 60000 });
      ss = (await page.evaluate(() => window.llmsim.results())).serving_search;
      assert(ss.points.length >= 1, `some configuration serves 16 users of 8B within the SLA (${JSON.stringify(ss)})`);
      assert(ss.simulated + ss.pruned <= ss.candidates, `stats ${ss.simulated} + ${ss.pruned} <= ${ss.candidates}`);
      const direct = await page.evaluate((q) => window.llmsim.serveSearch(q),
        { ...ss.request, search: { devices: 'datacenter', engines: ['vllm', 'sglang'], precisions: ['bf16', 'fp8'], gpu_counts: [1, 2], limit: 20, exact_top: 0 } });
      eq(ss.points.map((p) => [p.hardware, p.gpus, p.engine, p.precision]), direct.points.map((p) => [p.hardware, p.gpus, p.engine, p.precision]), 'rows vs serveSearch()');
      eq(ss.points.map((p) => [p.usd_per_mtok, p.ttft_p90_ms, p.tpot_p90_ms, p.max_concurrency]),
         direct.points.map((p) => [p.usd_per_mtok, p.ttft_p90_ms, p.tpot_p90_ms, p.max_concurrency]), 'numbers vs serveSearch()');
      for (let i = 1; i < ss.points.length; ++i) assert(ss.points[i - 1].usd_per_mtok <= ss.points[i].usd_per_mtok, `row ${i} sorted by $/1M`);
      console.log(`     serving search: ${ss.points.length} rows, ${ss.candidates} candidates, ${ss.simulated} simulated, ${ss.pruned} pruned, ${ss.ms.toFixed(0)} ms over ${ss.frames} frames (page); serveSearch() ${direct.ms.toFixed(0)} ms`);
      await page.screenshot({ path: path.join(out, 'serving-search-1280x800.png') });
      // the first row's configuration becomes the Serving section's, and its numbers re-check with serve()
      const top = ss.points[0];
      await scrollToWidget(page, 'serving-search-use-0');
      await clickWidget(page, 'serving-search-use-0');
      const s = await page.evaluate(() => window.llmsim.getState());
      eq([s.hardware, s.sv_gpus, s.sv_tp, s.sv_engine, s.sv_prec], [top.hardware, top.gpus, top.tp, top.engine, top.precision], 'state after Use');
      const sv = (await page.evaluate(() => window.llmsim.results())).serving;
      eq([sv.request.hardware, sv.request.gpus, sv.request.engine, sv.request.precision], [top.hardware, top.gpus, top.engine, top.precision], 'serving request after Use');
      eq([sv.result.load.ttft_ms.p90, sv.result.load.tpot_ms.p90], [top.ttft_p90_ms, top.tpot_p90_ms], 'the chosen point is the search row');
      // a bad search key from a URL: a message naming it, nothing searched
      await page.evaluate(() => window.llmsim.setState({ sv_s_eng: 'tgi2' }));
      await page.waitForTimeout(200);
      await scrollToWidget(page, 'serving-search-run');
      await clickWidget(page, 'serving-search-run');
      ss = (await page.evaluate(() => window.llmsim.results())).serving_search;
      eq([ss.error, ss.points.length, ss.running], ["sv_s_eng: unknown engine 'tgi2' (vllm, sglang, trtllm, lmdeploy)", 0, false], 'bad engine key');
      await page.evaluate(() => window.llmsim.setState({ sv_s_eng: 'vllm,sglang' }));
      await page.waitForFunction(() => !window.location.hash.includes('sv_s_eng=tgi2'), null, { timeout: 5000 });   // the default leaves the hash
      // screenshots of the section with a finished search: desktop and phone width, both themes
      // (one page and one search a width, the theme switched in place)
      for (const vp of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
        const p2 = await openPage(browser, base, await page.evaluate(() => window.location.hash), vp, vp.width < 500 ? 2 : 1);
        await scrollToWidget(p2.page, 'serving-search-run');
        await clickWidget(p2.page, 'serving-search-run');
        await p2.page.waitForFunction(() => window.llmsim.results().serving_search.done, null, { timeout: 60000 });
        for (const theme of ['dark', 'light']) {
          await p2.page.evaluate((t) => window.llmsim.setState({ theme: t }), theme);
          await p2.page.waitForTimeout(200);
          await scrollToWidget(p2.page, 'serving-search-stats');
          await p2.page.screenshot({ path: path.join(out, `serving-search-${theme}-${vp.width}.png`) });
        }
        eq(p2.errors, [], `no page errors (${vp.width})`);
        await p2.context.close();
      }
    });

    // the deployment file (serve_deploy.cpp): serveDeploy() for the section's request is an NVIDIA Dynamo graph with that
    // request's model, TP and GPUs; an engine Dynamo does not run and a bad request are refused with a message
    await check('serving: serveDeploy() writes the Dynamo graph for the page request and refuses what Dynamo cannot run', async () => {
      await page.evaluate(() => window.llmsim.setState({ model: 'meta-llama/Llama-3.1-70B-Instruct', hardware: 'h100-sxm', embed: 'serving',
        sv_engine: 'vllm', sv_prec: 'bf16', sv_gpus: 4, sv_tp: 4, sv_pp: 1, sv_c: 32, sv_in: 2048, sv_out: 256, sv_len: 8192, sv_ep: false }));
      await page.waitForTimeout(300);
      const sv = (await page.evaluate(() => window.llmsim.results())).serving;
      eq(sv.error, '', 'no serving error');
      await scrollToWidget(page, 'serving-deploy');
      const d = await page.evaluate((q) => window.llmsim.serveDeploy(q), sv.request);
      eq([d.ok, typeof d.yaml], [true, 'string'], 'serveDeploy answers');
      const y = d.yaml;
      for (const want of ['apiVersion: nvidia.com/v1beta1', 'kind: DynamoGraphDeployment', 'backendFramework: vllm', 'type: frontend',
                          'command: ["python3", "-m", "dynamo.vllm"]', '- "meta-llama/Llama-3.1-70B-Instruct"',
                          '- "--tensor-parallel-size"\n          - "4"', 'nvidia.com/gpu: "4"', '- "--max-model-len"\n          - "8192"'])
        assert(y.includes(want), `the graph lacks ${JSON.stringify(want)}:\n${y}`);
      // the same request asked twice gives the same bytes (nothing in it depends on the page's state)
      eq((await page.evaluate((q) => window.llmsim.serveDeploy(q), sv.request)).yaml, y, 'serveDeploy is a function of its request');
      const trt = await page.evaluate((q) => window.llmsim.serveDeploy({ ...q, engine: 'trtllm' }), sv.request);
      eq(trt.ok, false, 'TensorRT-LLM: no Dynamo graph');
      assert(/trtllm|TensorRT/i.test(trt.error || ''), `the refusal names the engine: ${JSON.stringify(trt)}`);
      const bad = await page.evaluate((q) => window.llmsim.serveDeploy({ ...q, hardware: 'no-such-gpu' }), sv.request);
      eq([bad.ok, bad.error], [false, "deploy: hardware: unknown hardware 'no-such-gpu'"], 'a bad hardware id is refused by name');
      eq((await page.evaluate((q) => window.llmsim.serveDeploy(q), sv.request)).yaml, y, 'a refused call changes nothing');
    });

    await check('serving: the cost section shows single-stream and batched $/1M tokens from serve()', async () => {
      await page.evaluate(() => window.llmsim.setState({ embed: 'cost', model: 'Qwen/Qwen2.5-7B-Instruct', hardware: 'rtx-4090', sv_c: 32 }));
      await page.waitForTimeout(300);
      const r = await page.evaluate(() => window.llmsim.results());
      assert(r.cost.batched && !r.cost.batched.error, `batched cost: ${JSON.stringify(r.cost.batched)}`);
      assert(await page.evaluate(() => window.llmsim._widgetRect('cost-batched-payback')), 'batched table drawn');
      // the batched load is the Serving section's, at the cost section's 3:1 mix
      const q = { ...r.serving.request, workload: { ...r.serving.request.workload, input_len: 3 * r.serving.request.workload.output_len } };
      const at = await page.evaluate((x) => window.llmsim.serve(x), q);
      const mtok = (await page.evaluate(() => window.llmsim.getState())).mtok;
      const hours = mtok * 1e6 / at.load.total_tok_s / 3600;   // the month's tokens (in + out) at the box's batched rate
      assert(Math.abs(r.cost.batched.hours_needed_per_month - hours) < 1e-6 * hours, `batched hours ${r.cost.batched.hours_needed_per_month} vs ${hours}`);
      assert(at.cost.usd_per_mtok_own_batched < at.cost.usd_per_mtok_own_single / 5, `batching 32 streams is far cheaper per token: ${JSON.stringify(at.cost)}`);
      assert(r.cost.batched.hours_needed_per_month < r.cost.hours_needed_per_month, 'the batched box needs fewer hours for the same tokens');
      await page.screenshot({ path: path.join(out, 'cost-batched-1280x800.png') });
      await page.evaluate(() => window.llmsim.setState({ embed: '' }));
    });

    await check('serving: a URL with serving keys round-trips; bad values are refused', async () => {
      const hash = '#model=Qwen/Qwen2.5-7B-Instruct&hardware=h100-sxm&quant=Q4_K_M&ctx=8192&sv_engine=sglang&sv_prec=fp8&sv_kv=fp8' +
                   '&sv_gpus=2&sv_tp=2&sv_len=8192&sv_gmu=0.85&sv_in=2048&sv_out=256&sv_c=64&sv_ttft=2000&sv_tpot=40&section=serving';
      const p2 = await openPage(browser, base, hash);
      const s = await p2.page.evaluate(() => window.llmsim.getState());
      eq([s.sv_engine, s.sv_prec, s.sv_kv, s.sv_gpus, s.sv_tp, s.sv_len, s.sv_gmu, s.sv_in, s.sv_out, s.sv_c, s.sv_ttft, s.sv_tpot],
         ['sglang', 'fp8', 'fp8', 2, 2, 8192, 0.85, 2048, 256, 64, 2000, 40], 'state from the link');
      const sv = (await p2.page.evaluate(() => window.llmsim.results())).serving;
      eq([sv.request.engine, sv.request.precision, sv.request.kv_dtype, sv.request.gpus, sv.request.tp, sv.request.max_model_len,
          sv.request.mem_fraction_static, sv.request.workload.input_len, sv.request.workload.output_len, sv.request.workload.concurrency,
          sv.request.sla.ttft_p90_ms, sv.request.sla.tpot_p90_ms],
         ['sglang', 'fp8', 'fp8', 2, 2, 8192, 0.85, 2048, 256, 64, 2000, 40], 'the request the section computes');
      assert(sv.result && sv.result.command.startsWith('python -m sglang.launch_server') && sv.result.command.includes('--tp 2'), `command ${sv.result && sv.result.command}`);
      // the page writes the same keys back into its address
      const back = await p2.page.evaluate(() => window.location.hash);
      for (const kv of hash.slice(1).split('&').filter((k) => k.startsWith('sv_'))) assert(back.includes(kv), `${kv} in ${back}`);
      await p2.page.evaluate(() => window.llmsim.setState({ sv_rate: 5 }));
      const open = (await p2.page.evaluate(() => window.llmsim.results())).serving.request.workload;
      eq([open.request_rate, open.concurrency], [5, undefined], 'sv_rate switches to open-loop arrivals');
      const err = await p2.page.evaluate(() => { try { window.llmsim.setState({ sv_c: 0 }); return ''; } catch (e) { return e.message; } });
      assert(err.includes('sv_c') && err.includes('out of range'), `error: ${err}`);
      eq((await p2.page.evaluate(() => window.llmsim.getState())).sv_c, 64, 'sv_c unchanged after a bad value');
      // prefix groups, the prompt pool and a staged ladder (sv_groups, sv_ppg, sv_stages; serving.h prefix_groups,
      // prompts_per_group, rate_stages): the request carries them, the numbers are serve()'s, the stage table is drawn,
      // the link holds them; a bad ladder is refused by key with the state unchanged
      // (embed: the section fills the frame, so the stage table is a short scroll away; no SLA: the page then runs no
      // SLA bisection with and without the cache; the keys stay set to the end, which spares a second recompute)
      await p2.page.evaluate(() => window.llmsim.setState({ embed: 'serving', sv_ttft: 0, sv_tpot: 0, sv_prefix: 1024, sv_groups: 4, sv_ppg: 2,
                                                            sv_stages: '2:5, 4:5' }));
      const sg = (await p2.page.evaluate(() => window.llmsim.results())).serving;
      eq([sg.error, sg.request.workload.prefix_groups, sg.request.workload.prompts_per_group, sg.request.workload.rate_stages],
         ['', 4, 2, [{ duration_s: 5, rate: 2 }, { duration_s: 5, rate: 4 }]], 'groups, pool and stages in the request (keys sorted, as nlohmann writes them)');
      eq(sg.result.load.stages.map((g) => g.requests), [10, 20], 'int(rate x seconds) requests a stage');
      eq(sg.result, await p2.page.evaluate((q) => window.llmsim.serve(q), sg.request), 'staged result vs serve()');
      await p2.page.waitForFunction(() => window.location.hash.includes('sv_stages=2%3A5,%204%3A5'), null, { timeout: 5000 });
      await scrollToWidget(p2.page, 'serving-stages');   // the stage table (below the load table) is drawn
      eq((await p2.page.evaluate(() => window.llmsim.getState())).sv_stages, '2:5, 4:5', 'sv_stages as given');
      const badStages = await p2.page.evaluate(() => { try { window.llmsim.setState({ sv_stages: '2;5' }); return ''; } catch (e) { return e.message; } });
      assert(badStages.includes('sv_stages') && badStages.includes('rate:seconds'), `error: ${badStages}`);
      eq((await p2.page.evaluate(() => window.llmsim.getState())).sv_stages, '2:5, 4:5', 'sv_stages unchanged after a bad ladder');
      await p2.page.evaluate(() => window.llmsim.setState({ embed: 'serving', sv_rate: 0 }));
      await p2.page.waitForTimeout(200);
      await p2.page.screenshot({ path: path.join(out, 'serving-sglang-h100-from-link.png') });
      eq(p2.errors, [], 'console errors');
      await p2.context.close();
    });

    // Speculative decoding, LoRA and fine-tuning (ui/panel_spec.cpp, panel_lora.cpp, panel_train.cpp): each section
    // shows what window.llmsim.spec/lora/train returns for its request, and (with --cli) what `llmsim-cli ... --json` prints
    const cli = args.cli || process.env.LLMSIM_CLI;
    const near = (a, b) => (typeof a === 'number' && typeof b === 'number' ? Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b))
      : a && b && typeof a === 'object' ? Object.keys(b).every((k) => near(a[k], b[k])) && Object.keys(a).every((k) => k in b)
        : JSON.stringify(a) === JSON.stringify(b));
    async function fromCli(sub, flags, what) {
      if (!cli) { console.log(`     ${what}: CLI comparison not run (pass --cli build/native/llmsim-cli)`); return null; }
      const { execFileSync } = await import('node:child_process');
      return JSON.parse(execFileSync(cli, [sub, ...flags, '--json'], { encoding: 'utf8' }));
    }
    async function shots(p, key, name) {
      for (const [w, h, theme] of [[1280, 800, 'dark'], [390, 844, 'dark'], [1280, 800, 'light'], [390, 844, 'light']]) {
        await p.setViewportSize({ width: w, height: h });
        await p.evaluate(([k, t]) => window.llmsim.setState({ embed: k, theme: t }), [key, theme]);
        await p.waitForTimeout(250);
        await p.screenshot({ path: path.join(out, `${name}-${w}x${h}-${theme}.png`) });
      }
      await p.setViewportSize({ width: 1280, height: 800 });
      await p.evaluate(() => window.llmsim.setState({ theme: 'dark' }));
      await p.waitForTimeout(250);
    }

    // The measured rows and the serving accuracy report are not in llmsim.wasm: the page fetches them from its
    // calibration/ folder once the first frame is drawn (web/llmsim-page.js, core/assets.h). A host that lacks one
    // still shows every estimate, and the sections that need the file say which one did not come.
    await check('evidence: fetched from calibration/ after the first frame; a file that does not come is named', async () => {
      const deferred = ['/calibration/llamacpp_speed.jsonl', '/calibration/llamacpp_speed_2025.jsonl',
                        '/calibration/llamacpp_speed_collected.jsonl', '/calibration/serving_accuracy.json'];
      const c1 = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const p1 = await c1.newPage();
      const paths = [];
      p1.on('request', (r) => paths.push(new URL(r.url()).pathname));
      await p1.goto(base + '/index.html#model=Qwen/Qwen2.5-7B-Instruct&hardware=rtx-4090&quant=Q4_K_M&ctx=32768');
      await waitForLlmsim(p1);
      const r1 = await p1.evaluate(() => window.llmsim.results());
      eq([r1.evidence_loading, r1.evidence_error, r1.accuracy.serving.loaded, r1.accuracy.serving.error], [false, '', true, ''],
         'evidence loaded');
      const wasmAt = paths.indexOf('/llmsim.wasm');
      for (const f of deferred) assert(paths.indexOf(f) > wasmAt && wasmAt >= 0, `${f} fetched after llmsim.wasm: ${paths.join(' ')}`);
      await c1.close();
      const c2 = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const p2 = await c2.newPage();
      await p2.route('**/calibration/serving_accuracy.json', (route) => route.fulfill({ status: 404, body: 'not found' }));
      await p2.goto(base + '/index.html#model=Qwen/Qwen2.5-7B-Instruct&hardware=rtx-4090&quant=Q4_K_M&ctx=32768&embed=accuracy');
      await p2.waitForFunction(() => window.llmsim !== undefined, null, { timeout: 30000 });
      const why = await p2.evaluate(() => window.llmsim.whenEvidenceLoaded().then(() => '', (e) => e.message));
      assert(why.includes('calibration/serving_accuracy.json: HTTP 404'), `the failed file is named: '${why}'`);
      const r2 = await p2.evaluate(() => window.llmsim.results());
      eq([r2.evidence_loading, r2.error, r2.accuracy.serving.loaded], [true, '', false], 'estimates without the evidence');
      assert(r2.evidence_error.includes('serving_accuracy.json: HTTP 404'), `results().evidence_error: ${r2.evidence_error}`);
      eq(r1.memory, r2.memory, 'the same memory figures with or without the evidence');
      await c2.close();
    });

    // Accuracy, serving part (ui/panel_accuracy_serving.cpp): the held-out numbers `llmsim-cli accuracy --serving` printed,
    // shipped as assets/calibration/serving_accuracy.json. With --cli the file is checked current for this build
    // (--check-asset, ~2 s); LLMSIM_E2E_SERVING_ACCURACY=1 also reruns the full leave-one-source-out (~1 min) and
    // compares its printed table with the section.
    await check('accuracy: the serving part shows the CLI\'s leave-one-source-out numbers per engine; read-out names the row', async () => {
      const p2 = await openPage(browser, base, '#embed=accuracy');
      await p2.page.waitForTimeout(400);
      const acc = (await p2.page.evaluate(() => window.llmsim.results())).accuracy.serving;
      eq(acc.error, '', 'no error loading the embedded report');
      eq(acc.fold, 'source', 'held out by whole source');
      eq(acc.groups.map((g) => g.name), ['vllm', 'sglang', 'trtllm', 'lmdeploy', 'all'], 'engine rows, then overall');
      const { readFileSync } = await import('node:fs');
      const file = JSON.parse(readFileSync(path.join(here, '..', '..', 'assets', 'calibration', 'serving_accuracy.json'), 'utf8'));
      eq(acc.serving_jsonl_fnv1a, file.inputs.serving_jsonl_fnv1a, 'the page embeds the committed file');
      for (const g of file.groups) {
        const shown = acc.groups.find((x) => x.name === g.name);
        assert(shown && near(shown, g), `${g.name}: page ${JSON.stringify(shown)} vs file ${JSON.stringify(g)}`);
      }
      eq(acc.rows, file.rows.length, 'every row of the file');
      assert(acc.rows_plotted > 0.95 * acc.rows, `plotted ${acc.rows_plotted} of ${acc.rows}`);
      console.log(`     accuracy serving: embedded report parsed in ${acc.load_ms.toFixed(1)} ms; ${acc.rows_plotted} of ${acc.rows} rows plotted`);
      if (cli) {
        const { execFileSync } = await import('node:child_process');
        const jsonl = path.join(here, '..', '..', 'assets', 'calibration', 'serving.jsonl');
        const ok = execFileSync(cli, ['accuracy', '--serving', jsonl, '--check-asset'], { encoding: 'utf8' });
        assert(ok.includes('serving_accuracy.json is current'), `check-asset: ${ok}`);
        if (process.env.LLMSIM_E2E_SERVING_ACCURACY === '1') {
          const t0 = Date.now();
          const text = execFileSync(cli, ['accuracy', '--serving', jsonl], { encoding: 'utf8', maxBuffer: 1 << 24 });
          for (const g of acc.groups) {   // | vllm | 226 | 21.9 % | 221 | 36.0 % | 221 | 49.2 % | 51 % |
            const line = text.split('\n').find((l) => new RegExp(`^\\| ${g.name} +\\|`).test(l));
            assert(line, `CLI line for ${g.name}`);
            const c = line.split('|').slice(2, 9).map((x) => parseFloat(x));
            eq(c, [g.rows, +(g.out_mdape * 100).toFixed(1), g.tpot_rows, +(g.tpot_mdape * 100).toFixed(1), g.ttft_rows,
                   +(g.ttft_mdape * 100).toFixed(1), +(g.coverage * 100).toFixed(0)], `${g.name}: CLI printout vs the section`);
            if (g.band_low !== undefined) {   // "  vllm      bw_eff ... band -0.64..+0.75"
              const b = text.split('\n').find((l) => l.startsWith(`  ${g.name} `) && l.includes(' band '));
              const m = b && b.match(/band ([-+][0-9.]+)\.\.([-+][0-9.]+)/);
              eq(m && [parseFloat(m[1]), parseFloat(m[2])], [+g.band_low.toFixed(2), +g.band_high.toFixed(2)], `${g.name}: band`);
            }
          }
          console.log(`     accuracy serving: llmsim-cli accuracy --serving (${((Date.now() - t0) / 1000).toFixed(0)} s) prints the section's numbers`);
        } else console.log('     accuracy serving: the file is current (--check-asset); full CLI rerun skipped (LLMSIM_E2E_SERVING_ACCURACY=1)');
      } else console.log('     accuracy serving: CLI comparison not run (pass --cli build/native/llmsim-cli)');
      await scrollToWidget(p2.page, 'accsv-head-8');
      for (let i = 0; i < 9; ++i) assert(await p2.page.evaluate((n) => window.llmsim._widgetRect(n), `accsv-head-${i}`), `table column ${i} drawn`);
      // the read-out: hover the plot's middle; a screenshot shows the named row
      await scrollToWidget(p2.page, 'accuracy-serving-plot');
      const r = await stableWidgetRect(p2.page, 'accuracy-serving-plot');
      assert(r, 'serving plot drawn');
      await p2.page.mouse.move((r[0] + r[2]) / 2, (r[1] + r[3]) / 2);
      await p2.page.waitForTimeout(300);
      await p2.page.screenshot({ path: path.join(out, 'accuracy-serving-readout-1280x800.png') });
      await p2.page.mouse.move(1, 1);
      await shots(p2.page, 'accuracy', 'accuracy-serving');
      eq(p2.errors, [], 'console errors');
      await p2.context.close();
    });

    await check('spec: a link with sp_* keys; the section equals spec() and the CLI; the command gains -md', async () => {
      const hash = '#model=Qwen/Qwen2.5-7B-Instruct&hardware=rtx-4090&quant=Q4_K_M&ctx=32768&sp_draft=Qwen/Qwen2.5-0.5B-Instruct' +
                   '&sp_dq=Q8_0&sp_k=8&sp_kmin=2&sp_acc=0.75&sp_cd=4096&embed=spec';
      const p2 = await openPage(browser, base, hash);
      const s = await p2.page.evaluate(() => window.llmsim.getState());
      eq([s.sp_draft, s.sp_dq, s.sp_k, s.sp_kmin, s.sp_acc, s.sp_cd, s.sp_ngld], ['Qwen/Qwen2.5-0.5B-Instruct', 'Q8_0', 8, 2, 0.75, 4096, -1], 'state from the link');
      const back = await p2.page.evaluate(() => window.location.hash);
      for (const kv of hash.slice(1).split('&').filter((k) => k.startsWith('sp_'))) assert(back.includes(kv), `${kv} in ${back}`);
      await p2.page.waitForTimeout(300);
      for (const w of ['spec-draft', 'spec-k', 'spec-accept', 'spec-memory', 'spec-speed', 'spec-break-even', 'spec-plot'])
        assert(await p2.page.evaluate((n) => window.llmsim._widgetRect(n), w), `widget ${w} drawn`);
      const r = await p2.page.evaluate(() => window.llmsim.results());
      const sp = r.spec;
      eq(sp.error, '', 'no spec error');
      eq(sp.draft_suggested, false, 'the draft comes from the link');
      eq([sp.request.draft, sp.request.draft_max, sp.request.draft_min, sp.request.accept, sp.request.draft_ctx, sp.request.ctx],
         ['Qwen/Qwen2.5-0.5B-Instruct', 8, 2, 0.75, 4096, 32768], 'the request the section computes');
      const direct = await p2.page.evaluate((q) => window.llmsim.spec(q), sp.request);
      eq(sp.result, direct, 'results().spec.result vs spec(request)');
      // the curve: the round time does not depend on a, so each point must equal spec() at that acceptance
      for (const a of [0.3, 0.5, 0.9]) {
        const pt = sp.curve.find((c) => Math.abs(c.acceptance - a) < 1e-12);
        const at = await p2.page.evaluate(([q, acc]) => window.llmsim.spec({ ...q, accept: acc }), [sp.request, a]);
        assert(pt && near(pt.speedup, at.speed.speedup), `curve at a = ${a}: ${pt && pt.speedup} vs spec() ${at.speed.speedup}`);
      }
      const be = sp.result.speed.break_even_acceptance;
      assert(be > 0 && be <= 1 && (sp.result.speed.speedup > 1) === (0.75 > be), `break-even ${be} vs x${sp.result.speed.speedup} at 0.75`);
      const atBe = await p2.page.evaluate(([q, acc]) => window.llmsim.spec({ ...q, accept: acc }), [sp.request, be]);
      assert(Math.abs(atBe.speed.speedup - 1) < 1e-6, `speed-up at the break-even acceptance: ${atBe.speed.speedup}`);
      eq(sp.shown.speedup, `x${sp.result.speed.speedup.toFixed(2)}`, 'speed-up as shown');
      // the command section carries the draft's flags, the same the CLI prints
      const flags = sp.result.command.slice(sp.result.command.indexOf(' -md '));
      assert(flags.startsWith(' -md Qwen2.5-0.5B-Instruct-Q8_0.gguf --draft-max 8 --draft-min 2 -cd 4096'), `flags ${flags}`);
      assert(r.command.endsWith(flags), `page command ${r.command} ends with ${flags}`);
      const c = await fromCli('spec', ['--model', 'Qwen/Qwen2.5-7B-Instruct', '--draft', 'Qwen/Qwen2.5-0.5B-Instruct', '--hardware', 'rtx-4090',
        '--quant', 'Q4_K_M', '--draft-quant', 'Q8_0', '--ctx', '32768', '--draft-max', '8', '--draft-min', '2', '--accept', '0.75', '--draft-ctx', '4096'], 'spec');
      if (c) { assert(near(c, sp.result), `llmsim-cli spec --json differs: ${JSON.stringify(c.speed)} vs ${JSON.stringify(sp.result.speed)}`); console.log('     spec: the CLI gives the page\'s numbers'); }
      console.log(`     spec: x${sp.result.speed.speedup.toFixed(2)} at a = 0.75, k = 8, break-even a = ${be.toFixed(3)}, draft adds ${(sp.result.draft_extra_bytes / 2 ** 30).toFixed(2)} GiB`);
      await clickWidget(p2.page, 'explain-spec_speed');
      const rx = await p2.page.evaluate(() => window.llmsim.results());
      eq(rx.pinned_explanation, 'spec_speed', 'pinned explanation after clicking a speed number');
      await p2.page.screenshot({ path: path.join(out, 'spec-explain-1280x800.png') });
      await p2.page.keyboard.press('Escape');
      await shots(p2.page, 'spec', 'spec');
      // bad input: a value out of range changes nothing; an unknown draft is an error in the section, no -md
      const err = await p2.page.evaluate(() => { try { window.llmsim.setState({ sp_acc: 1.5 }); return ''; } catch (e) { return e.message; } });
      assert(err.includes('sp_acc') && err.includes('out of range'), `error: ${err}`);
      eq((await p2.page.evaluate(() => window.llmsim.getState())).sp_acc, 0.75, 'sp_acc unchanged');
      await p2.page.evaluate(() => window.llmsim.setState({ sp_draft: 'nobody/nothing' }));
      const bad = await p2.page.evaluate(() => window.llmsim.results());
      assert(bad.spec.error.includes("unknown draft 'nobody/nothing'"), `error ${bad.spec.error}`);
      assert(!bad.command.includes(' -md '), `no -md for a bad draft: ${bad.command}`);
      // no draft chosen: a suggestion is computed, the command has no -md
      await p2.page.evaluate(() => window.llmsim.setState({ sp_draft: '' }));
      const sug = await p2.page.evaluate(() => window.llmsim.results());
      eq([sug.spec.error, sug.spec.draft_suggested], ['', true], 'a suggested draft');
      assert(!sug.command.includes(' -md '), `no -md without sp_draft: ${sug.command}`);
      eq(p2.errors, [], 'console errors');
      await p2.context.close();
    });

    await check('spec: MTP heads from a link (sp_mtp=1); the section equals spec({mtp}) and the CLI; --spec-type draft-mtp', async () => {
      const hash = '#model=zai-org/GLM-4.5-Air&hardware=h200-sxm&quant=Q4_K_M&ctx=16384&sp_mtp=1&sp_k=3&sp_acc=0.75&embed=spec';
      const p2 = await openPage(browser, base, hash);
      const s = await p2.page.evaluate(() => window.llmsim.getState());
      eq([s.sp_mtp, s.sp_k, s.sp_acc], [1, 3, 0.75], 'state from the link');
      const back = await p2.page.evaluate(() => window.location.hash);
      assert(back.includes('sp_mtp=1'), `sp_mtp in ${back}`);
      await p2.page.waitForTimeout(300);
      for (const w of ['spec-memory', 'spec-speed'])
        assert(await p2.page.evaluate((n) => window.llmsim._widgetRect(n), w), `widget ${w} drawn`);
      const r = await p2.page.evaluate(() => window.llmsim.results());
      const sp = r.spec;
      eq(sp.error, '', 'no spec error');
      eq([sp.request.mtp, sp.request.draft_max, sp.request.accept, sp.request.ctx], [true, 3, 0.75, 16384], 'the MTP request');
      const direct = await p2.page.evaluate((q) => window.llmsim.spec(q), sp.request);
      eq(sp.result, direct, 'results().spec.result vs spec(request)');
      // GLM-4.5-Air ships one NextN layer (its config.json: num_nextn_predict_layers = 1)
      eq(direct.mtp.nextn_layers, 1, 'NextN layers of GLM-4.5-Air');
      eq(direct.draft, 'MTP heads', 'the draft is the model itself');
      assert(r.command.endsWith(' --spec-type draft-mtp --spec-draft-n-max 3'), `page command ${r.command}`);
      assert(!r.command.includes(' -md '), `no -md with MTP heads: ${r.command}`);
      const c = await fromCli('spec', ['--mtp', '--model', 'zai-org/GLM-4.5-Air', '--hardware', 'h200-sxm', '--quant', 'Q4_K_M',
        '--ctx', '16384', '--draft-max', '3', '--accept', '0.75'], 'spec --mtp');
      if (c) { assert(near(c, sp.result), `llmsim-cli spec --mtp --json differs: ${JSON.stringify(c.mtp)} vs ${JSON.stringify(sp.result.mtp)}`); console.log('     spec --mtp: the CLI gives the page\'s numbers'); }
      console.log(`     spec MTP: NextN weights ${(direct.mtp.nextn_weights_bytes / 2 ** 30).toFixed(2)} GiB, x${direct.speed.speedup.toFixed(2)} at a = 0.75, k = 3`);
      await shots(p2.page, 'spec', 'spec-mtp');
      // bad input changes nothing; a model without MTP heads is the section's error, and the command has no MTP flags
      const err = await p2.page.evaluate(() => { try { window.llmsim.setState({ sp_mtp: 2 }); return ''; } catch (e) { return e.message; } });
      assert(err.includes('sp_mtp') && err.includes('out of range'), `error: ${err}`);
      eq((await p2.page.evaluate(() => window.llmsim.getState())).sp_mtp, 1, 'sp_mtp unchanged');
      await p2.page.evaluate(() => window.llmsim.setState({ model: 'Qwen/Qwen2.5-7B-Instruct', hardware: 'rtx-4090' }));
      await p2.page.waitForTimeout(200);
      const bad = await p2.page.evaluate(() => window.llmsim.results());
      assert(bad.spec.error.includes('has no MTP heads'), `error ${bad.spec.error}`);
      assert(!bad.command.includes('--spec-type'), `no MTP flags: ${bad.command}`);
      eq(p2.errors, [], 'console errors');
      await p2.context.close();
    });

    await check('serving: two nodes over RoCE from a link (sv_net); the network term equals serve(), the CLI and the NCCL rule by hand', async () => {
      const hash = '#model=meta-llama/Llama-3.1-70B-Instruct&hardware=h100-sxm&quant=BF16&embed=serving&sv_gpus=16&sv_tp=16&sv_net=roce-200&sv_c=8';
      const p2 = await openPage(browser, base, hash);
      const s = await p2.page.evaluate(() => window.llmsim.getState());
      eq([s.sv_gpus, s.sv_tp, s.sv_net], [16, 16, 'roce-200'], 'state from the link');
      assert((await p2.page.evaluate(() => window.location.hash)).includes('sv_net=roce-200'), 'sv_net in the URL');
      await p2.page.waitForTimeout(300);
      const sv = (await p2.page.evaluate(() => window.llmsim.results())).serving;
      eq(sv.error, '', 'no serving error');
      eq([sv.request.interconnect, sv.request.tp, sv.request.gpus], ['roce-200', 16, 16], 'request');
      const direct = await p2.page.evaluate((q) => window.llmsim.serve(q), sv.request);
      eq(sv.result, direct, 'results().serving.result vs serve(request)');
      // TP16 over 2 nodes of 8: 2 all-reduces per layer x 80 layers of batch 8 x 8192 x 2 bytes, ring busbw rule
      // (nccl-tests PERFORMANCE.md) over 8 RoCE 200 GbE NICs at 0.71 (vllm#6610's nccl-tests), 45 us each (nccl-tests#182)
      const st = direct.step;
      eq(st.batch, 8, 'decode batch at C = 8');
      const hand = 2 * 80 * (45e-6 + 8 * 8192 * 2 * 2 * 15 / 16 / (8 * 25e9 * 0.71));
      assert(Math.abs(st.network_s - hand) <= 0.005 * hand, `network ${st.network_s} s vs ${hand} s by hand`);
      assert(Math.abs(st.network_share - st.network_s / st.step_s) < 1e-9, 'network share = network / step');
      assert(direct.network.some((l) => l.includes('RoCE 200 GbE')), `network lines ${JSON.stringify(direct.network)}`);
      const c = await fromCli('serve', ['--model', 'meta-llama/Llama-3.1-70B-Instruct', '--hardware', 'h100-sxm', '--gpus', '16', '--tp', '16',
        '--interconnect', 'roce-200', '--concurrency', '8'], 'serve over RoCE');
      if (c) { assert(Math.abs(c.step.network_s - st.network_s) <= 1e-9 * st.network_s, `CLI network ${c.step.network_s} vs ${st.network_s}`); console.log('     serving network: the CLI gives the page\'s network term'); }
      console.log(`     serving network: ${(st.network_s * 1e3).toFixed(2)} ms of a ${(st.step_s * 1e3).toFixed(2)} ms step (${(100 * st.network_share).toFixed(0)} %)`);
      await shots(p2.page, 'serving', 'serving-network');
      // an unknown fabric is the engine's error in the section, listing what it accepts
      await p2.page.evaluate(() => window.llmsim.setState({ sv_net: 'token-ring' }));
      await p2.page.waitForTimeout(200);
      const bad = (await p2.page.evaluate(() => window.llmsim.results())).serving;
      assert(bad.error.includes('token-ring') && bad.error.includes('ib-ndr'), `error ${bad.error}`);
      eq(p2.errors, [], 'console errors');
      await p2.context.close();
    });

    await check('lora: a link with lora_* keys; the section equals lora() and the CLI; the command gains --lora', async () => {
      const hash = '#model=Qwen/Qwen2.5-7B-Instruct&hardware=rtx-4090&quant=Q4_K_M&ctx=8192&lora_n=2&lora_r=8&lora_t=q,v&lora_type=f16&embed=lora';
      const p2 = await openPage(browser, base, hash);
      const s = await p2.page.evaluate(() => window.llmsim.getState());
      eq([s.lora_n, s.lora_r, s.lora_t, s.lora_type], [2, 8, 'q,v', 'f16'], 'state from the link');
      const back = await p2.page.evaluate(() => window.location.hash);
      for (const kv of hash.slice(1).split('&').filter((k) => k.startsWith('lora_'))) assert(back.includes(kv), `${kv} in ${back}`);
      await p2.page.waitForTimeout(300);
      for (const w of ['lora-n', 'lora-rank', 'lora-size', 'lora-speed'])
        assert(await p2.page.evaluate((n) => window.llmsim._widgetRect(n), w), `widget ${w} drawn`);
      const r = await p2.page.evaluate(() => window.llmsim.results());
      eq(r.lora.error, '', 'no lora error');
      const direct = await p2.page.evaluate((q) => window.llmsim.lora(q), r.lora.request);
      eq(r.lora.result, direct, 'results().lora.result vs lora(request)');
      // PEFT: r x (in + out) per targeted linear; Qwen2.5-7B q: 3584 -> 3584, v: 3584 -> 512, 28 layers
      eq(r.lora.result.params, 28 * 8 * ((3584 + 3584) + (3584 + 512)), 'adapter parameters');
      eq(r.lora.result.adapters_bytes, 2 * r.lora.result.bytes, 'two adapters loaded');
      assert(r.command.endsWith(' --lora adapter0-r8.gguf --lora adapter1-r8.gguf'), `page command ${r.command}`);
      const c = await fromCli('lora', ['--model', 'Qwen/Qwen2.5-7B-Instruct', '--rank', '8', '--targets', 'q,v', '--lora-type', 'f16', '--adapters', '2',
        '--hardware', 'rtx-4090', '--quant', 'Q4_K_M', '--ctx', '8192'], 'lora');
      if (c) { assert(near(c, r.lora.result), `llmsim-cli lora --json differs: ${JSON.stringify(c)} vs ${JSON.stringify(r.lora.result)}`); console.log('     lora: the CLI gives the page\'s numbers'); }
      await clickWidget(p2.page, 'explain-lora_size');
      eq((await p2.page.evaluate(() => window.llmsim.results())).pinned_explanation, 'lora_size', 'pinned explanation');
      await p2.page.keyboard.press('Escape');
      await shots(p2.page, 'lora', 'lora');
      await p2.page.evaluate(() => window.llmsim.setState({ lora_n: 0 }));
      const none = await p2.page.evaluate(() => window.llmsim.results());
      assert(!none.command.includes('--lora'), `no --lora with lora_n=0: ${none.command}`);
      await p2.page.evaluate(() => window.llmsim.setState({ lora_t: 'qkv_bogus' }));
      const bad = await p2.page.evaluate(() => window.llmsim.results());
      assert(bad.lora.error.length > 0 && !bad.lora.result, `a bad target list is an error: ${bad.lora.error}`);
      eq(p2.errors, [], 'console errors');
      await p2.context.close();
    });

    await check('train: a link with tr_* keys; the section equals train() and the CLI; stacked bars against micro-batch and sequence', async () => {
      const hash = '#model=Qwen/Qwen2.5-7B-Instruct&hardware=rtx-4090&tr_method=qlora&tr_opt=adamw8bit&tr_seq=4096&tr_mb=2&tr_ckpt=on&tr_r=32&tr_t=all&embed=train';
      const p2 = await openPage(browser, base, hash);
      const s = await p2.page.evaluate(() => window.llmsim.getState());
      eq([s.tr_method, s.tr_opt, s.tr_seq, s.tr_mb, s.tr_ckpt, s.tr_r, s.tr_gpus, s.tr_zero], ['qlora', 'adamw8bit', 4096, 2, true, 32, 1, 0], 'state from the link');
      await p2.page.waitForTimeout(300);
      for (const w of ['train-method', 'train-mb', 'train-ckpt', 'train-total', 'train-speed', 'train-bars'])
        assert(await p2.page.evaluate((n) => window.llmsim._widgetRect(n), w), `widget ${w} drawn`);
      const r = await p2.page.evaluate(() => window.llmsim.results());
      eq(r.train.error, '', 'no train error');
      const direct = await p2.page.evaluate((q) => window.llmsim.train(q), r.train.request);
      eq(r.train.result, direct, 'results().train.result vs train(request)');
      eq(r.train.bars.axis, 'micro_batch', 'bars against micro-batch');
      const mine = r.train.bars.points.find((b) => b.x === 2);
      eq(mine.total_bytes, r.train.result.total_bytes_per_gpu, 'the chosen micro-batch bar');
      const at8 = await p2.page.evaluate((q) => window.llmsim.train({ ...q, micro_batch: 8 }), r.train.request);
      eq(r.train.bars.points.find((b) => b.x === 8).total_bytes, at8.total_bytes_per_gpu, 'the micro-batch 8 bar vs train()');
      const c = await fromCli('train', ['--model', 'Qwen/Qwen2.5-7B-Instruct', '--method', 'qlora', '--optimizer', 'adamw8bit', '--seq', '4096',
        '--micro-batch', '2', '--gpus', '1', '--zero', '0', '--grad-ckpt', '--rank', '32', '--targets', 'all', '--hardware', 'rtx-4090', '--mfu', '0.4'], 'train');
      if (c) { assert(near(c, r.train.result), `llmsim-cli train --json differs: ${JSON.stringify(c)} vs ${JSON.stringify(r.train.result)}`); console.log('     train: the CLI gives the page\'s numbers'); }
      console.log(`     train: QLoRA 7B seq 4096 x 2, checkpointing: ${(r.train.result.total_bytes_per_gpu / 2 ** 30).toFixed(2)} GiB per GPU, ${Math.round(r.train.result.tokens_per_s)} tok/s`);
      await clickWidget(p2.page, 'train-bars-axis');
      const bySeq = (await p2.page.evaluate(() => window.llmsim.results())).train;
      eq(bySeq.bars.axis, 'seq', 'bars against sequence length after the click');
      eq(bySeq.bars.points.find((b) => b.x === 4096).total_bytes, r.train.result.total_bytes_per_gpu, 'the chosen sequence bar');
      await clickWidget(p2.page, 'explain-train_total');
      eq((await p2.page.evaluate(() => window.llmsim.results())).pinned_explanation, 'train_total', 'pinned explanation');
      await p2.page.keyboard.press('Escape');
      await shots(p2.page, 'train', 'train');
      const err = await p2.page.evaluate(() => { try { window.llmsim.setState({ tr_zero: 4 }); return ''; } catch (e) { return e.message; } });
      assert(err.includes('tr_zero') && err.includes('out of range'), `error: ${err}`);
      await p2.page.evaluate(() => window.llmsim.setState({ tr_method: 'magic' }));
      const bad = (await p2.page.evaluate(() => window.llmsim.results())).train;
      eq(bad.error, 'method must be full, lora or qlora', 'a bad method is an error in the section');
      eq(p2.errors, [], 'console errors');
      await p2.context.close();
    });

    // Vision and embeddings (ui/panel_vision.cpp, panel_embed.cpp): each section shows what window.llmsim.vision/embed
    // returns for its request, and (with --cli) what `llmsim-cli vision|embed --json` prints
    await check('vision: a link with vi_* keys; the section equals vision() and the CLI; the command gains --mmproj', async () => {
      const hash = '#model=google/gemma-3-4b-it&hardware=rtx-4090&quant=Q4_K_M&ctx=8192&vi_n=2&vi_w=1024&vi_h=768&embed=vision';
      const p2 = await openPage(browser, base, hash);
      const s = await p2.page.evaluate(() => window.llmsim.getState());
      eq([s.vi_n, s.vi_w, s.vi_h], [2, 1024, 768], 'state from the link');
      const back = await p2.page.evaluate(() => window.location.hash);
      for (const kv of hash.slice(1).split('&').filter((k) => k.startsWith('vi_'))) assert(back.includes(kv), `${kv} in ${back}`);
      await p2.page.waitForTimeout(300);
      for (const w of ['vision-images', 'vision-w', 'vision-tokens', 'vision-encode'])
        assert(await p2.page.evaluate((n) => window.llmsim._widgetRect(n), w), `widget ${w} drawn`);
      const r = await p2.page.evaluate(() => window.llmsim.results());
      eq(r.vision.error, '', 'no vision error');
      const direct = await p2.page.evaluate((q) => window.llmsim.vision(q), r.vision.request);
      eq(r.vision.result, direct, 'results().vision.result vs vision(request)');
      // Gemma 3: every image is resized to 896x896 and pooled to 256 soft tokens (Gemma 3 technical report)
      eq(r.vision.result.image.tokens, 256, 'Gemma 3 tokens per image');
      eq(r.vision.result.image_tokens_total, 512, 'two images');
      assert(r.vision.result.image_kv_bytes > 0 && r.vision.result.image_kv_bytes < r.vision.result.kv_cache_bytes, 'the images fill a share of the KV cache');
      assert(r.command.endsWith(' --mmproj ' + r.vision.result.command.split(' --mmproj ')[1]), `page command ${r.command}`);
      const c = await fromCli('vision', ['--model', 'google/gemma-3-4b-it', '--hardware', 'rtx-4090', '--quant', 'Q4_K_M', '--ctx', '8192',
        '--images', '2', '--image', '1024x768'], 'vision');
      if (c) { assert(near(c, r.vision.result), `llmsim-cli vision --json differs: ${JSON.stringify(c)} vs ${JSON.stringify(r.vision.result)}`); console.log('     vision: the CLI gives the page\'s numbers'); }
      console.log(`     vision: Gemma 3 4B, 2 images 1024x768: ${r.vision.result.image.tokens} tokens each, mmproj ${(r.vision.result.weights_bytes / 2 ** 20).toFixed(1)} MiB, compute ${(r.vision.result.gpu_compute_bytes / 2 ** 20).toFixed(1)} MiB, encode ${(r.vision.result.encode_s * 1000).toFixed(1)} ms`);
      await clickWidget(p2.page, 'explain-vision_tokens');
      eq((await p2.page.evaluate(() => window.llmsim.results())).pinned_explanation, 'vision_tokens', 'pinned explanation');
      await p2.page.keyboard.press('Escape');
      await shots(p2.page, 'vision', 'vision');
      await p2.page.evaluate(() => window.llmsim.setState({ vi_n: 0 }));
      const none = await p2.page.evaluate(() => window.llmsim.results());
      assert(!none.command.includes('--mmproj'), `no --mmproj with vi_n=0: ${none.command}`);
      const err = await p2.page.evaluate(() => { try { window.llmsim.setState({ vi_n: -1 }); return ''; } catch (e) { return e.message; } });
      assert(err.includes('vi_n') && err.includes('out of range'), `error: ${err}`);
      eq((await p2.page.evaluate(() => window.llmsim.getState())).vi_n, 0, 'a bad value changes nothing');
      await p2.page.evaluate(() => window.llmsim.setState({ model: 'Qwen/Qwen2.5-7B-Instruct', vi_n: 1 }));
      const text = await p2.page.evaluate(() => window.llmsim.results());
      assert(text.vision.not_vlm && text.vision.error.includes('no vision encoder') && !text.vision.result, `a text model is not a VLM: ${text.vision.error}`);
      assert(!text.command.includes('--mmproj'), `no --mmproj for a text model: ${text.command}`);
      await shots(p2.page, 'vision', 'vision-not-vlm');
      eq(p2.errors, [], 'console errors');
      await p2.context.close();
    });

    // Audio in the Vision & audio section (ui/panel_audio.cpp): what window.llmsim.audio returns for its request, and
    // (with --cli) what `llmsim-cli audio --json` prints; token counts worked out by hand from llama.cpp's source
    await check('audio: a link with au_s; the section equals audio() and the CLI; the command gains --mmproj for audio', async () => {
      const hash = '#model=Qwen/Qwen2.5-Omni-7B&hardware=rtx-4090&quant=Q4_K_M&ctx=8192&au_s=60&embed=vision';
      const p2 = await openPage(browser, base, hash);
      eq((await p2.page.evaluate(() => window.llmsim.getState())).au_s, 60, 'state from the link');
      assert((await p2.page.evaluate(() => window.location.hash)).includes('au_s=60'), 'au_s in the link');
      await p2.page.waitForTimeout(300);
      for (const w of ['audio-seconds', 'audio-tokens'])
        assert(await p2.page.evaluate((n) => window.llmsim._widgetRect(n), w), `widget ${w} drawn`);
      const r = await p2.page.evaluate(() => window.llmsim.results());
      eq(r.audio.error, '', 'no audio error');
      const direct = await p2.page.evaluate((q) => window.llmsim.audio(q), r.audio.request);
      eq(r.audio.result, direct, 'results().audio.result vs audio(request)');
      // mtmd-audio.cpp: 60 s -> (960,000 + 480,000) / 160 + 1 = 9001 mel frames = 3 chunks of 3000; qwen2a: 3000 / 2 / 2 = 750
      eq([r.audio.result.clip.chunks, r.audio.result.clip.tokens_per_chunk, r.audio.result.audio_tokens_total], [3, 750, 2250], 'Qwen2.5-Omni 60 s');
      assert(r.audio.result.audio_kv_bytes > 0 && r.audio.result.audio_kv_bytes < r.audio.result.kv_cache_bytes, 'the audio fills a share of the KV cache');
      assert(r.audio.result.vision_tower_bytes > 0, 'the qwen2.5o file carries the vision tower too');
      assert(r.command.endsWith(' --mmproj ' + r.audio.result.command.split(' --mmproj ')[1]), `page command ${r.command}`);
      const c = await fromCli('audio', ['--model', 'Qwen/Qwen2.5-Omni-7B', '--hardware', 'rtx-4090', '--quant', 'Q4_K_M', '--ctx', '8192',
        '--seconds', '60', '--clips', '1'], 'audio');
      if (c) { assert(near(c, r.audio.result), `llmsim-cli audio --json differs: ${JSON.stringify(c)} vs ${JSON.stringify(r.audio.result)}`); console.log('     audio: the CLI gives the page\'s numbers'); }
      console.log(`     audio: Qwen2.5-Omni 7B, 60 s: ${r.audio.result.audio_tokens_total} tokens, mmproj ${(r.audio.result.weights_bytes / 2 ** 20).toFixed(1)} MiB, compute ${(r.audio.result.gpu_compute_bytes / 2 ** 20).toFixed(1)} MiB, encode ${(r.audio.result.encode_s * 1000).toFixed(1)} ms`);
      await clickWidget(p2.page, 'explain-audio_tokens');
      eq((await p2.page.evaluate(() => window.llmsim.results())).pinned_explanation, 'audio_tokens', 'pinned explanation');
      await p2.page.keyboard.press('Escape');
      await shots(p2.page, 'vision', 'audio');
      // the ultravox mmproj on Meta's Llama 3.2 1B: 10 s = 2 chunks (the second silent) x 187 tokens (stack 8)
      await p2.page.evaluate(() => window.llmsim.setState({ model: 'meta-llama/Llama-3.2-1B-Instruct', au_s: 10 }));
      const u = await p2.page.evaluate(() => window.llmsim.results());
      eq(u.audio.result.audio_tokens_total, 374, 'ultravox 10 s');
      assert(u.command.includes(' --mmproj mmproj-ultravox-v0_5-llama-3_2-1b-f16.gguf'), `ultravox command ${u.command}`);
      assert(u.vision.not_vlm, 'Llama 3.2 1B takes no images');
      const err = await p2.page.evaluate(() => { try { window.llmsim.setState({ au_s: -1 }); return ''; } catch (e) { return e.message; } });
      assert(err.includes('au_s') && err.includes('out of range'), `error: ${err}`);
      eq((await p2.page.evaluate(() => window.llmsim.getState())).au_s, 10, 'a bad value changes nothing');
      await p2.page.evaluate(() => window.llmsim.setState({ au_s: 0 }));
      assert(!(await p2.page.evaluate(() => window.llmsim.results())).command.includes('--mmproj'), 'no --mmproj with au_s=0');
      await p2.page.evaluate(() => window.llmsim.setState({ model: 'Qwen/Qwen2.5-7B-Instruct', au_s: 30 }));
      const text = await p2.page.evaluate(() => window.llmsim.results());
      assert(text.audio.no_audio && text.audio.error.includes('no audio encoder') && !text.audio.result, `a text model takes no audio: ${text.audio.error}`);
      assert(!text.command.includes('--mmproj'), `no --mmproj for a text model: ${text.command}`);
      eq(p2.errors, [], 'console errors');
      await p2.context.close();
    });

    await check('best models (issue 38): bm_task from the link; the section equals bestModels(); a bad task throws', async () => {
      const p2 = await openPage(browser, base, '#model=Qwen/Qwen2.5-7B-Instruct&hardware=rtx-4090&ctx=8192&rec_tps=10&bm_task=coding&embed=best');
      eq((await p2.page.evaluate(() => window.llmsim.getState())).bm_task, 'coding', 'state from the link');
      await p2.page.waitForTimeout(300);
      assert(await p2.page.evaluate(() => window.llmsim._widgetRect('bm-task')), 'task picker drawn');
      const r = (await p2.page.evaluate(() => window.llmsim.results())).best_models;
      const direct = await p2.page.evaluate(() => window.llmsim.bestModels({ hardware: 'rtx-4090', task: 'coding', ctx: 8192, min_decode_tps: 10 }));
      eq(r, direct, 'results().best_models vs bestModels()');
      // Aider polyglot (polyglot_leaderboard.yml): Qwen3 32B 40.0 first of the models that fit 24 GB
      eq([r.ranked[0].model, r.ranked[0].score, r.benchmark.name], ['Qwen/Qwen3-32B', 40, 'Aider polyglot'], 'first entry');
      let threw = '';
      try { await p2.page.evaluate(() => window.llmsim.bestModels({ hardware: 'rtx-4090', task: 'poetry' })); } catch (e) { threw = String(e); }
      assert(threw.includes("unknown task 'poetry'"), `a bad task throws: ${threw}`);
      await shots(p2.page, 'best', 'best');
      eq(p2.errors, [], 'console errors');
      await p2.context.close();
    });

    await check('embeddings: a link with em_* keys; the section equals embed() and the CLI; --embedding / --reranking', async () => {
      const hash = '#model=Qwen/Qwen2.5-7B-Instruct&hardware=rtx-4090&em_model=Qwen/Qwen3-Embedding-0.6B&em_q=Q8_0&em_batch=16&em_doc=1024&embed=embeddings';
      const p2 = await openPage(browser, base, hash);
      const s = await p2.page.evaluate(() => window.llmsim.getState());
      eq([s.em_model, s.em_q, s.em_batch, s.em_doc], ['Qwen/Qwen3-Embedding-0.6B', 'Q8_0', 16, 1024], 'state from the link');
      const back = await p2.page.evaluate(() => window.location.hash);
      for (const kv of hash.slice(1).split('&').filter((k) => k.startsWith('em_'))) assert(back.includes(kv), `${kv} in ${back}`);
      await p2.page.waitForTimeout(300);
      for (const w of ['embed-model', 'embed-batch', 'embed-total', 'embed-speed', 'embed-copy'])
        assert(await p2.page.evaluate((n) => window.llmsim._widgetRect(n), w), `widget ${w} drawn`);
      const r = await p2.page.evaluate(() => window.llmsim.results());
      eq(r.embed.error, '', 'no embed error');
      const direct = await p2.page.evaluate((q) => window.llmsim.embed(q), r.embed.request);
      eq(r.embed.result, direct, 'results().embed.result vs embed(request)');
      eq(r.embed.request.hardware, 'rtx-4090', 'the app\'s device');
      // Qwen3-Embedding-0.6B: 0.6B parameters (its model card; 596M on the Hugging Face page)
      assert(Math.abs(r.embed.result.params / 595776512 - 1) < 0.02, `params ${r.embed.result.params}`);
      assert(r.embed.result.command.includes('--embedding') && r.embed.result.command.includes('--pooling last'), `command ${r.embed.result.command}`);
      // the RTX 4090 has 24 GiB; usable is less
      assert(r.embed.usable_bytes > 20 * 2 ** 30 && r.embed.usable_bytes <= 24 * 2 ** 30, `usable ${r.embed.usable_bytes}`);
      const c = await fromCli('embed', ['--model', 'Qwen/Qwen3-Embedding-0.6B', '--quant', 'Q8_0', '--batch', '16', '--doc-tokens', '1024', '--hardware', 'rtx-4090'], 'embed');
      if (c) { assert(near(c, r.embed.result), `llmsim-cli embed --json differs: ${JSON.stringify(c)} vs ${JSON.stringify(r.embed.result)}`); console.log('     embed: the CLI gives the page\'s numbers'); }
      console.log(`     embed: Qwen3-Embedding-0.6B Q8_0, 16 x 1024 tokens on rtx-4090: total ${(r.embed.result.total_bytes / 2 ** 20).toFixed(1)} MiB, ${Math.round(r.embed.result.tokens_per_s)} tok/s, ${r.embed.result.docs_per_s.toFixed(1)} docs/s`);
      await clickWidget(p2.page, 'explain-embed_total');
      eq((await p2.page.evaluate(() => window.llmsim.results())).pinned_explanation, 'embed_total', 'pinned explanation');
      await p2.page.keyboard.press('Escape');
      await shots(p2.page, 'embeddings', 'embeddings');
      await p2.page.evaluate(() => window.llmsim.setState({ em_model: 'BAAI/bge-reranker-v2-m3', em_q: 'F16' }));
      const rr = (await p2.page.evaluate(() => window.llmsim.results())).embed;
      assert(rr.result && rr.result.command.includes('--reranking'), `reranker command ${rr.result && rr.result.command}`);
      await p2.page.evaluate(() => window.llmsim.setState({ em_model: 'nobody/no-such-embedder' }));
      const bad = (await p2.page.evaluate(() => window.llmsim.results())).embed;
      eq(bad.error, "unknown embedding model 'nobody/no-such-embedder' (llmsim-cli embed --list)", 'an unknown model is an error in the section');
      assert(!bad.result, 'no result for an unknown model');
      eq(p2.errors, [], 'console errors');
      await p2.context.close();
    });

    // Serving section, vLLM multi-LoRA (issue 16): the slots are in the memory plan, the command and the URL
    await check('serving: multi-LoRA slots equal serve() and the CLI; --enable-lora in the command; URL round trip; bad input refused', async () => {
      const hash = '#model=meta-llama/Llama-3.1-8B-Instruct&hardware=h100-sxm&sv_loras=3&sv_lora_r=32&sv_c=16&embed=serving';
      const p2 = await openPage(browser, base, hash);
      const s = await p2.page.evaluate(() => window.llmsim.getState());
      eq([s.sv_loras, s.sv_lora_r], [3, 32], 'state from the link');
      await p2.page.waitForTimeout(300);
      const back = await p2.page.evaluate(() => window.location.hash);
      for (const kv of ['sv_loras=3', 'sv_lora_r=32']) assert(back.includes(kv), `${kv} in ${back}`);
      for (const w of ['serving-lora-on', 'serving-lora-slots', 'serving-lora-rank', 'serving-lora'])
        assert(await p2.page.evaluate((n) => window.llmsim._widgetRect(n), w), `widget ${w} drawn`);
      const sv = (await p2.page.evaluate(() => window.llmsim.results())).serving;
      eq(sv.error, '', 'no serving error');
      eq([sv.request.max_loras, sv.request.max_lora_rank], [3, 32], 'the request carries the LoRA slots');
      const direct = await p2.page.evaluate((q) => window.llmsim.serve(q), sv.request);
      eq(sv.result, direct, 'results().serving.result vs serve(request)');
      // Llama-3.1-8B, TP 1: r x (in + out) per wrapped linear (qkv as 3 slices, o, gate_up as 2, down) x 32 layers =
      // 41,943,040 x (r / 16) elements per slot (PEFT's all-linear count at r = 16), 2 bytes (bf16), 3 slots
      eq(direct.memory.lora_bytes, 3 * 41943040 * 2 * 2, 'LoRA slot bytes at rank 32');
      eq(sv.shown.lora, gib2(direct.memory.lora_bytes), 'LoRA slots shown');
      assert(direct.command.includes(' --enable-lora --max-loras 3 --max-lora-rank 32'), `command ${direct.command}`);
      eq(sv.shown.command, direct.command, 'command shown');
      const off = await p2.page.evaluate((q) => window.llmsim.serve({ ...q, max_loras: 0 }), sv.request);
      const freed = off.memory.kv_pool_bytes - direct.memory.kv_pool_bytes;
      assert(Math.abs(freed - direct.memory.lora_bytes) <= off.memory.kv_bytes_per_token * off.memory.block_size,
             `the slots come off the KV pool: ${freed} vs ${direct.memory.lora_bytes}`);
      if (cli) {
        const { execFileSync } = await import('node:child_process');
        const { writeFileSync } = await import('node:fs');
        const f = path.join(out, 'serving-lora-request.json');
        writeFileSync(f, JSON.stringify(sv.request));
        const viaFile = JSON.parse(execFileSync(cli, ['serve', '--request', f, '--json'], { encoding: 'utf8' }));
        assert(near(viaFile, sv.result), `llmsim-cli serve --request --json differs: ${JSON.stringify(viaFile.memory)} vs ${JSON.stringify(sv.result.memory)}`);
        const viaFlags = JSON.parse(execFileSync(cli, ['serve', '--model', 'meta-llama/Llama-3.1-8B-Instruct', '--hardware', 'h100-sxm',
          '--max-loras', '3', '--max-lora-rank', '32', '--concurrency', '16', '--json'], { encoding: 'utf8' }));
        eq([viaFlags.memory.lora_bytes, viaFlags.memory.kv_pool_bytes], [sv.result.memory.lora_bytes, sv.result.memory.kv_pool_bytes], 'CLI flags: LoRA slots and KV pool');
        console.log(`     serving LoRA: the CLI (--request and --max-loras flags) gives the page's numbers`);
      } else console.log('     serving LoRA: CLI comparison not run (pass --cli build/native/llmsim-cli)');
      console.log(`     serving LoRA: 3 slots x rank 32 on Llama-3.1-8B / H100: ${gib2(direct.memory.lora_bytes)}, KV pool ${gib2(direct.memory.kv_pool_bytes)} (${gib2(off.memory.kv_pool_bytes)} without)`);
      await clickWidget(p2.page, 'explain-serve_lora');
      eq((await p2.page.evaluate(() => window.llmsim.results())).pinned_explanation, 'serve_lora', 'pinned explanation');
      const ex = (await p2.page.evaluate(() => window.llmsim.results())).serving.explanations.find((e) => e.key === 'serve_lora');
      assert(ex && ex.text.includes('3 slots (--max-loras)') && ex.text.includes('rank 32'), `explanation ${ex && ex.text}`);
      await p2.page.keyboard.press('Escape');
      await shots(p2.page, 'serving', 'serving-lora');
      // a fresh page from the address computes the same
      const p3 = await openPage(browser, base, await p2.page.evaluate(() => window.location.hash));
      await p3.page.waitForTimeout(300);
      const again = (await p3.page.evaluate(() => window.llmsim.results())).serving;
      eq([again.request, again.result], [sv.request, sv.result], 'request and result after reload');
      await p3.context.close();
      // bad input: out of range is refused with the state unchanged; a rank vLLM rejects or another engine is an error
      const err = await p2.page.evaluate(() => { try { window.llmsim.setState({ sv_loras: 5000 }); return ''; } catch (e) { return e.message; } });
      assert(err.includes('sv_loras') && err.includes('out of range'), `error: ${err}`);
      eq((await p2.page.evaluate(() => window.llmsim.getState())).sv_loras, 3, 'sv_loras unchanged after a bad value');
      eq((await p2.page.evaluate(() => window.llmsim.results())).serving.result, sv.result, 'result unchanged after a bad value');
      await p2.page.evaluate(() => window.llmsim.setState({ sv_lora_r: 7 }));
      let bad = (await p2.page.evaluate(() => window.llmsim.results())).serving;
      eq([bad.error, bad.result], ['max_lora_rank: vLLM accepts 1, 8, 16, 32, 64, 128, 256, 320 or 512', undefined], 'rank 7 is an error in the section');
      await p2.page.evaluate(() => window.llmsim.setState({ sv_lora_r: 32, sv_engine: 'sglang' }));
      bad = (await p2.page.evaluate(() => window.llmsim.results())).serving;
      eq(bad.error, 'max_loras: multi-LoRA serving is modelled for vLLM only', 'LoRA slots under SGLang');
      // the checkbox turns it off: no slots, no --enable-lora
      await p2.page.evaluate(() => window.llmsim.setState({ sv_engine: 'vllm' }));
      await p2.page.waitForTimeout(300);
      await clickWidget(p2.page, 'serving-lora-on');
      eq((await p2.page.evaluate(() => window.llmsim.getState())).sv_loras, 0, 'unticked: LoRA off');
      const plain = (await p2.page.evaluate(() => window.llmsim.results())).serving;
      assert(!plain.result.command.includes('--enable-lora') && plain.result.memory.lora_bytes === 0, `off: ${plain.result.command}`);
      eq(p2.errors, [], 'console errors');
      await p2.context.close();
    });

    // Vision section, a real mmproj file (issue 16): the page reads its header locally through the same path as the
    // Import section and sizes the file's own tensors; the CLI reads the same file
    await check('vision: an mmproj GGUF opened in the section equals llmsim-cli vision --mmproj on the same file; nothing sent', async () => {
      const { execFileSync } = await import('node:child_process');
      const fx = path.join(out, 'mmproj-fixture');
      const made = JSON.parse(execFileSync('python3', [path.join(here, 'make_mmproj.py'), fx], { encoding: 'utf8' }));
      const p2 = await openPage(browser, base, '#model=google/gemma-3-4b-it&hardware=rtx-4090&quant=Q4_K_M&ctx=8192&vi_n=1&embed=vision');
      await p2.page.waitForTimeout(300);
      const stateBefore = await p2.page.evaluate(() => window.llmsim.getState());
      const table = (await p2.page.evaluate(() => window.llmsim.results())).vision.result;
      const sent = [];
      p2.page.on('request', (r) => sent.push(r.url()));
      const pick = async (file) => {
        // the browser opens its file chooser only inside a user gesture; a click that landed on a stale layout (the
        // screenshots just resized the page) opens nothing, so click again, at most three times
        let chooser = null;
        for (let attempt = 0; attempt < 3 && !chooser; ++attempt) {
          const [c] = await Promise.all([p2.page.waitForEvent('filechooser', { timeout: 5000 }).catch(() => null), clickWidget(p2.page, 'vision-open-mmproj')]);
          chooser = c;
          if (!chooser) console.log(`     vision mmproj: click ${attempt + 1} on "Open mmproj .gguf…" opened no file chooser`);
        }
        assert(chooser, 'the "Open mmproj .gguf…" button opened no file chooser in three clicks');
        await chooser.setFiles(path.join(fx, file));
        await p2.page.waitForFunction((f) => { const m = window.llmsim.results().vision.mmproj; return m.message.includes(f); }, file, { timeout: 10000 });
        await p2.page.waitForTimeout(200);
        return (await p2.page.evaluate(() => window.llmsim.results())).vision;
      };
      const v = await pick(made.mmproj);
      eq([v.mmproj.loaded, v.mmproj.ok, v.mmproj.file], [true, true, made.mmproj], `file taken (${v.mmproj.message})`);
      eq(v.error, '', 'no vision error');
      eq(v.result.weights_bytes, made.mmproj_tensor_bytes, 'mmproj weights = the file\'s tensor bytes (F16 + F32 + Q8_0, summed by the fixture)');
      eq(v.mmproj.tensor_bytes, made.mmproj_tensor_bytes, 'tensor bytes of the header');
      assert(v.result.weights_bytes !== table.weights_bytes, 'not the table\'s F16 layout');
      assert(v.result.command.endsWith(' --mmproj ' + made.mmproj), `command ${v.result.command}`);
      const r = await p2.page.evaluate(() => window.llmsim.results());
      assert(r.command.endsWith(' --mmproj ' + made.mmproj), `the command section names the file: ${r.command}`);
      if (cli) {
        const c = JSON.parse(execFileSync(path.resolve(cli), ['vision', '--model', 'google/gemma-3-4b-it', '--hardware', 'rtx-4090', '--quant', 'Q4_K_M', '--ctx', '8192',
          '--images', '1', '--mmproj', made.mmproj, '--json'], { encoding: 'utf8', cwd: fx }));
        assert(near(c, v.result), `llmsim-cli vision --mmproj --json differs: ${JSON.stringify(c)} vs ${JSON.stringify(v.result)}`);
        eq(v.shown.weights, `${(c.weights_bytes / 2 ** 20).toFixed(1)} MiB`, 'weights shown vs the CLI');
        console.log('     vision mmproj: the CLI on the same file gives the page\'s numbers');
      } else console.log('     vision mmproj: CLI comparison not run (pass --cli build/native/llmsim-cli)');
      console.log(`     vision mmproj: ${made.mmproj} weights ${v.shown.weights} (table layout ${(table.weights_bytes / 2 ** 20).toFixed(2)} MiB), compute ${v.shown.compute}`);
      await shots(p2.page, 'vision', 'vision-mmproj');
      // a text model's GGUF from the Vision button: refused, the mmproj and the model stay
      const t = await pick(made.text);
      assert(t.mmproj.message.includes('not an mmproj') && !t.mmproj.ok, `text GGUF message: ${t.mmproj.message}`);
      eq([t.mmproj.loaded, t.mmproj.file, t.result.weights_bytes], [true, made.mmproj, made.mmproj_tensor_bytes], 'the opened mmproj stays');
      eq((await p2.page.evaluate(() => window.llmsim.getState())).model, 'google/gemma-3-4b-it', 'the model stays');
      await p2.page.screenshot({ path: path.join(out, 'vision-mmproj-refused-1280x800.png') });
      eq(sent, [], 'no request while reading the files');
      eq(await p2.page.evaluate(() => window.llmsim.getState()), stateBefore, 'the scenario (the URL state) is unchanged by the files');
      const href = decodeURIComponent(await p2.page.evaluate(() => window.location.href));
      for (const t of ['mmproj', 'tiny', 'gguf']) assert(!href.includes(t), `URL has '${t}': ${href}`);
      await clickWidget(p2.page, 'vision-clear-mmproj');
      const cleared = (await p2.page.evaluate(() => window.llmsim.results())).vision;
      eq([cleared.mmproj.loaded, cleared.result.weights_bytes], [false, table.weights_bytes], 'back to the table');
      eq(p2.errors, [], 'console errors');
      await p2.context.close();
    });

    // Phone width (390 px): the leaderboard, recommend, context and quants tables keep their essential columns on
    // screen (the others stacked under the name), and the leaderboard's row menu has a button
    await check('phone: the four tables fit 390 px without sideways scrolling; the leaderboard row menu has a button', async () => {
      const p2 = await openPage(browser, base, '#model=Qwen/Qwen2.5-7B-Instruct&hardware=rtx-4090&quant=Q4_K_M&ctx=32768&embed=leaderboard', { width: 390, height: 844 });
      const tables = { leaderboard: ['leaderboard-head-0', 'leaderboard-head-3'], recommend: ['rec-head-0', 'rec-head-3'],
                       context: ['ctxtable-head-0', 'ctxtable-head-1', 'ctxtable-head-2', 'ctxtable-head-3', 'ctxtable-head-4'],
                       quants: ['quants-head-0', 'quants-head-2', 'quants-head-3'] };
      const hidden = { leaderboard: ['leaderboard-head-1', 'leaderboard-head-2', 'leaderboard-head-6'], recommend: ['rec-head-1', 'rec-head-5'],
                       context: [], quants: ['quants-head-1', 'quants-head-5'] };
      for (const k of Object.keys(tables)) {
        await p2.page.evaluate((key) => window.llmsim.setState({ embed: key }), k);
        await p2.page.waitForTimeout(300);
        for (const h of tables[k]) {
          const r = await p2.page.evaluate((n) => window.llmsim._widgetRect(n), h);
          assert(r && r[0] >= 0 && r[2] <= 390, `${k}: ${h} inside the 390 px screen: ${JSON.stringify(r)}`);
        }
        for (const h of hidden[k]) eq(await p2.page.evaluate((n) => window.llmsim._widgetRect(n), h), null, `${k}: ${h} stacked, not a column`);
      }
      await p2.page.evaluate(() => window.llmsim.setState({ embed: 'leaderboard', compare: '' }));
      await p2.page.waitForTimeout(300);
      const rows = (await p2.page.evaluate(() => window.llmsim.results())).leaderboard;
      let id = null;
      for (const row of rows) {
        const r = await p2.page.evaluate((n) => window.llmsim._widgetRect(n), 'leaderboard-menu-' + row.hardware);
        if (r && r[1] > 40 && r[3] < 800 && r[2] <= 390) { id = row.hardware; break; }
      }
      assert(id, 'a row menu button on screen');
      const name = await p2.page.evaluate((n) => window.llmsim._widgetRect(n), 'leaderboard-row-' + id);
      assert(name && name[2] <= 390, `row ${id} inside the screen: ${JSON.stringify(name)}`);
      await clickWidget(p2.page, 'leaderboard-menu-' + id);
      await clickWidget(p2.page, 'leaderboard-menu-compare');
      const st = await p2.page.evaluate(() => window.llmsim.getState());
      assert(st.compare.includes(id), `"Add to compare" from the row button: compare = ${st.compare}`);
      for (const [w, h, theme] of [[1280, 800, 'dark'], [390, 844, 'dark'], [1280, 800, 'light'], [390, 844, 'light']]) {
        await p2.page.setViewportSize({ width: w, height: h });
        await p2.page.evaluate((t) => window.llmsim.setState({ theme: t, compare: '' }), theme);
        for (const k of Object.keys(tables)) {
          await p2.page.evaluate((key) => window.llmsim.setState({ embed: key }), k);
          await p2.page.waitForTimeout(250);
          await p2.page.screenshot({ path: path.join(out, `tables-${k}-${w}x${h}-${theme}.png`) });
        }
      }
      eq(p2.errors, [], 'console errors');
      await p2.context.close();
    });

    await check('budgets: frame time per section (printed, not asserted)', async () => {
      const keys = ['verdict', 'simulator', 'quants', 'leaderboard', 'recommend', 'best', 'context', 'accuracy', 'serving', 'spec', 'lora', 'train', 'vision', 'embeddings'];
      const out = [];
      for (const k of keys) {
        await page.evaluate((key) => window.llmsim.setState({ embed: key }), k);
        await page.mouse.move(600, 400); await page.waitForTimeout(120); await page.mouse.move(610, 410); await page.waitForTimeout(120);
        const st = await page.evaluate(() => window.llmsim.stats());
        out.push(`${k} ${st.last_frame_ms.toFixed(2)} ms (recompute ${st.derive_ms.toFixed(1)} ms)`);
      }
      console.log('     frame: ' + out.join(', '));
      await page.evaluate(() => window.llmsim.setState({ embed: '' }));
    });

    await check('screenshots: every section at 1280x800 and 390x844, dark and light', async () => {
      const keys = ['verdict', 'model', 'simulator', 'quants', 'leaderboard', 'recommend', 'best', 'compare', 'context', 'command', 'serving', 'spec', 'lora', 'train', 'vision', 'embeddings', 'cost', 'faq', 'accuracy', 'import', 'myruns'];
      // one page (the theme from the link, then switched in place; the width by resizing): a load costs more than
      // the screenshots
      const p2 = await openPage(browser, base, '#model=Qwen/Qwen2.5-7B-Instruct&hardware=rtx-4090&theme=light', { width: 1280, height: 800 });
      eq((await p2.page.evaluate(() => window.llmsim.getState())).theme, 'light', 'theme from the link');
      for (const [w, h, theme] of [[1280, 800, 'light'], [390, 844, 'light'], [1280, 800, 'dark'], [390, 844, 'dark']]) {
        await p2.page.setViewportSize({ width: w, height: h });
        await p2.page.evaluate((t) => window.llmsim.setState({ theme: t }), theme);
        const suffix = theme === 'dark' ? '' : '-light';
        for (const k of keys) {
          await p2.page.evaluate((key) => window.llmsim.setState({ embed: key }), k);
          await p2.page.waitForTimeout(150);
          await p2.page.screenshot({ path: path.join(out, `section-${k}-${w}x${h}${suffix}.png`) });
        }
        await p2.page.evaluate(() => window.llmsim.setState({ embed: '' }));
        await p2.page.waitForTimeout(150);
        await p2.page.screenshot({ path: path.join(out, `page-${w}x${h}${suffix}.png`) });
        eq(p2.errors, [], `console errors at ${w}x${h} ${theme}`);
      }
      await p2.context.close();
    });

    await check('machine: the offer from the browser probe, Use it, a typed rig id (issue 13)', async () => {
      await page.keyboard.press('Escape');   // close an explanation a check before left open
      // headless Chromium draws with SwiftShader: the probe ran and says the GPU is hidden
      const probed = (await page.evaluate(() => window.llmsim.results())).machine;
      assert(probed.probed, 'the page reported what the browser reveals');
      eq(probed.gpu_hidden, true, `SwiftShader hides the GPU (${probed.detected})`);
      const offer = (info) => page.evaluate((i) => window.llmsim._module.ccall('llmsim_set_machine_info', 'string', ['string'], [JSON.stringify(i)]), info);
      eq(await offer({ webgl: { renderer: 'ANGLE (NVIDIA, NVIDIA GeForce RTX 4080 Direct3D11 vs_5_0 ps_5_0, D3D11)' }, deviceMemory: 8, hardwareConcurrency: 16 }), '', 'machine info accepted');
      await page.evaluate(() => window.llmsim.setState({ model: 'Qwen/Qwen2.5-7B-Instruct', hardware: 'rtx-4090', embed: 'simulator' }));
      for (const [w, h, theme] of [[1280, 800, 'dark'], [1280, 800, 'light'], [390, 844, 'dark'], [390, 844, 'light']]) {
        await page.setViewportSize({ width: w, height: h });
        await page.evaluate((t) => window.llmsim.setState({ theme: t }), theme);
        await page.waitForTimeout(250);
        await page.screenshot({ path: path.join(out, `machine-offer-${w}x${h}-${theme}.png`) });
      }
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.evaluate(() => window.llmsim.setState({ theme: 'dark' }));
      await page.waitForTimeout(200);
      await clickWidget(page, 'machine-offer-use');
      eq((await page.evaluate(() => window.llmsim.getState())).hardware, 'rtx-4080', 'Use it takes the matched device');
      eq((await page.evaluate(() => window.llmsim.results())).machine.answered, true, 'the offer is gone');
      eq(await offer({ webgl: { renderer: 'Apple GPU', vendor: 'Apple Inc.' }, deviceMemory: 8 }), '', 'Safari-style info accepted');
      await page.waitForTimeout(250);
      await page.screenshot({ path: path.join(out, 'machine-hidden-1280x800-dark.png') });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.evaluate(() => window.llmsim.setState({ theme: 'light' }));
      await page.waitForTimeout(250);
      await page.screenshot({ path: path.join(out, 'machine-hidden-390x844-light.png') });
      await page.setViewportSize({ width: 1280, height: 800 });
      const m = (await page.evaluate(() => window.llmsim.results())).machine;
      eq(m.gpu_hidden, true, 'Apple GPU: hidden');
      eq(m.match, null, 'no device assumed');
      await clickWidget(page, 'machine-offer-other');
      // a mixed rig typed as the hardware id: per-device memory and the -ts of the command
      await page.evaluate(() => window.llmsim.setState({ theme: 'dark', hardware: 'rtx-5080+rtx-5060-ti-16gb', model: 'Qwen/Qwen2.5-32B-Instruct', ctx: 8192 }));
      await page.waitForTimeout(250);
      const r = await page.evaluate(() => window.llmsim.results());
      eq(r.memory.devices.map((d) => d.hardware || d.name), ['rtx-5080', 'rtx-5060-ti-16gb', 'host'], 'devices of the rig');
      await page.screenshot({ path: path.join(out, 'machine-rig-1280x800-dark.png') });
      await page.evaluate(() => window.llmsim.setState({ embed: '', hardware: 'rtx-4090', model: 'Qwen/Qwen2.5-7B-Instruct' }));
    });

    await check('embed: a section alone, from the URL', async () => {
      const p2 = await openPage(browser, base, '#model=Qwen/Qwen2.5-7B-Instruct&embed=leaderboard', { width: 900, height: 600 });
      eq((await p2.page.evaluate(() => window.llmsim.getState())).embed, 'leaderboard', 'embed key');
      await p2.page.screenshot({ path: path.join(out, 'embed-leaderboard.png') });
      await p2.context.close();
    });

    await check('no page errors', async () => { eq(errors, [], 'console errors'); }, { always: true });
    await page.screenshot({ path: path.join(out, 'main-1280x800.png') });
  } finally {
    await browser.close();
    server.close();
  }
  checks.finish();
}

main().catch((e) => { console.error(e); process.exit(1); });
