// Browser end-to-end test of the Hugging Face lookup against the local Hub stand-in (tests/hub_standin/): the page
// is served with its <meta name="llmsim-hf-endpoint"> and CSP connect-src pointed at the stand-in's two origins
// (the Hub and its file storage), exactly as a host of a mirror would change them. Never touches the internet.
//   node tests/e2e/hub_e2e.mjs --site build/web/site --out build/web/screenshots --work build/web/hub-e2e
import { spawn, execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, serve, Checks, assert, launchChromium, clickWidget as clickAndSettle, waitForLlmsim } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = parseArgs();
const site = path.resolve(args.site || 'build/web/site');
const out = path.resolve(args.out || 'build/web/screenshots');
const work = path.resolve(args.work || 'build/web/hub-e2e');
const standin = path.join(here, '..', 'hub_standin');

// the page, with the endpoint meta and connect-src rewritten to the stand-in (what a mirror's host does)
function rewriteIndex(hub, cdn) {
  return (file, body) => {
    if (!file.endsWith('index.html')) return body;
    let html = body.toString('utf8');
    const csp = html.match(/connect-src [^;]*;/);
    if (!csp) throw new Error('index.html has no connect-src');
    html = html.replace(csp[0], `connect-src 'self' ${hub} ${cdn};`)
               .replace(/(<meta name="llmsim-hf-endpoint" content=")[^"]*"/, `$1${hub}"`);
    return Buffer.from(html, 'utf8');
  };
}

const checks = new Checks();
const check = checks.check.bind(checks);
const clickWidget = (page, name) => clickAndSettle(page, name, 200);

async function openPage(browser, base, hash = '', viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const violations = [];
  await page.exposeFunction('__cspViolation', (uri) => violations.push(uri));
  await page.addInitScript(() => document.addEventListener('securitypolicyviolation', (e) => window.__cspViolation(e.blockedURI)));
  await page.goto(base + '/index.html' + hash);
  await waitForLlmsim(page);
  return { page, context, violations };
}

const hubQuants = (page) => page.evaluate(() => window.llmsim.results().quants.map((q) => [q.quant, q.weights_bytes]));

async function main() {
  await mkdir(out, { recursive: true });
  await mkdir(work, { recursive: true });
  const fx = path.join(work, 'fixtures');
  execFileSync('python3', [path.join(standin, 'fixtures.py'), fx]);
  const exp = JSON.parse(readFileSync(path.join(fx, 'expected.json'), 'utf8'));
  const portsFile = path.join(work, 'ports');
  rmSync(portsFile, { force: true });   // a stale file from an earlier run names dead ports
  const srv = spawn('python3', [path.join(standin, 'hub_standin.py'), path.join(fx, 'manifest.json'), '--ports-file', portsFile],
                    { stdio: 'ignore' });
  for (let i = 0; i < 100 && !existsSync(portsFile); ++i) await new Promise((r) => setTimeout(r, 50));
  const [hubPort, cdnPort] = readFileSync(portsFile, 'utf8').trim().split(' ');
  const hub = `http://127.0.0.1:${hubPort}`, cdn = `http://127.0.0.1:${cdnPort}`;
  const stats = async () => {   // what the stand-in served, its own /_stats requests left out
    const s = await (await fetch(hub + '/_stats')).json();
    s.requests = s.requests.filter((r) => r.path !== '/_stats');
    return s;
  };
  const server = await serve(site, rewriteIndex(hub, cdn));
  const base = `http://127.0.0.1:${server.address().port}`;
  const browser = await launchChromium();
  try {
    const { page, context, violations } = await openPage(browser, base);

    await check('ui: an id not in the catalog offers a Hub lookup, and only on that click', async () => {
      const before = (await stats()).requests.length;
      await clickWidget(page, 'model-picker');
      await page.keyboard.type('org/new-model');
      await page.waitForTimeout(300);
      assert((await stats()).requests.length === before, 'typing sent requests to the Hub');
      await page.screenshot({ path: path.join(out, 'hub-lookup-offer-1280-dark.png') });
      await clickWidget(page, 'hub-lookup');
      await page.waitForFunction(() => window.llmsim.getState().model === 'org/new-model', null, { timeout: 30000 });
    });

    await check('lookup: the quant table shows the repo\'s files at the header\'s tensor bytes', async () => {
      const q = Object.fromEntries(await hubQuants(page));
      assert(q.Q4_K_M === exp.q4_k_m.tensor_bytes, `Q4_K_M weights ${q.Q4_K_M}, header says ${exp.q4_k_m.tensor_bytes}`);
      assert(q.Q8_0 === exp.q8_0.tensor_bytes, `Q8_0 (split in two) weights ${q.Q8_0}, headers say ${exp.q8_0.tensor_bytes}`);
      assert(Object.keys(q).length === 2, `rows ${Object.keys(q)} (the repo has two GGUF models)`);
      const s = await stats();
      assert(s.cdn_bytes_served < exp.q4_k_m.header_bytes * 4, `storage served ${s.cdn_bytes_served} bytes`);
      assert(!s.requests.some((r) => r.cdn && r.auth), 'a token reached the storage origin');
      console.log(`  storage served ${s.cdn_bytes_served} bytes for files of ${exp.q4_k_m.file_bytes + exp.q8_0.file_bytes} bytes`);
      await page.screenshot({ path: path.join(out, 'hub-lookup-done-1280-dark.png') });
    });

    await check('url: the link carries the id, and a reload re-fetches it', async () => {
      const hash = await page.evaluate(() => window.location.hash);
      assert(hash.includes('model=org/new-model') || hash.includes('model=org%2Fnew-model'), `hash ${hash}`);
      assert(!/tok|gguf|bytes/.test(hash), `hash carries more than the id: ${hash}`);
      const p2 = await openPage(browser, base, hash);
      await p2.page.waitForFunction(() => (window.llmsim.results().quants || []).length === 2, null, { timeout: 30000 });
      const q = Object.fromEntries(await hubQuants(p2.page));
      assert(q.Q4_K_M === exp.q4_k_m.tensor_bytes, `after reload Q4_K_M weights ${q.Q4_K_M}`);
      await p2.context.close();
    });

    const lookup = (id, token) => page.evaluate(([i, t]) => window.llmsim.lookupHub(i, { token: t }), [id, token]);
    await check('errors: 404, gated 401 / token, 429, not a text model', async () => {
      let r = await lookup('org/nope');
      assert(!r.ok && r.message.includes('no model org/nope on the Hub'), `404: ${r.message}`);
      r = await lookup('org/gated-model');
      assert(!r.ok && r.message.includes('is gated: accept the licence on the Hub') && r.message.includes('or paste a token'),
             `401: ${r.message}`);
      await page.screenshot({ path: path.join(out, 'hub-lookup-gated-1280-dark.png') });
      r = await lookup('org/gated-model', exp.gated_token);
      assert(r.ok, `with the token: ${r.message}`);
      const url = await page.evaluate(() => window.location.href);
      assert(!url.includes(exp.gated_token), 'the token is in the URL');
      const stored = await page.evaluate(() => JSON.stringify(Object.assign({}, localStorage, sessionStorage)));
      assert(!stored.includes(exp.gated_token), 'the token is in storage');
      // huggingface.co exposes neither Retry-After nor RateLimit to a page (the stand-in copies its list): the page
      // cannot know the wait and says so (the CLI, without CORS, says "in 42 s": cli_hub_standin)
      r = await lookup('org/limited');
      assert(!r.ok && r.message.includes('try again in a minute') && r.message.includes('does not let a web page read how long to wait') &&
             r.retryAfter === -1, `429: ${r.message}`);
      r = await lookup('org/image-model');
      assert(!r.ok && r.message.includes('not a text-generation model'), `pipeline: ${r.message}`);
    });

    await check('paging, licence, hidden Content-Range, cancel', async () => {
      let r = await lookup('org/many-files');
      assert(r.ok, `a ${exp.many_files.listed}-entry listing: ${r.message}`);
      const pages = (await stats()).requests.filter((q) => q.path.startsWith('/api/models/org/many-files/tree/')).length;
      assert(pages === exp.many_files.pages, `tree pages fetched: ${pages}, want ${exp.many_files.pages}`);
      let q = Object.fromEntries(await hubQuants(page));
      assert(q.Q4_K_M === exp.q4_k_m.tensor_bytes, `many-files Q4_K_M weights ${q.Q4_K_M}`);
      r = await lookup('org/foreign-link');
      assert(!r.ok && r.message.includes('not the endpoint') && r.message.includes('not followed'), `foreign next page: ${r.message}`);
      r = await lookup('org/new-model');
      assert(r.ok && r.message.includes('licence ' + exp.license), `licence in the message: ${r.message}`);
      r = await lookup('org/hidden-range');
      q = Object.fromEntries(await hubQuants(page));
      assert(r.ok && q.Q4_K_M === exp.q4_k_m.tensor_bytes, `Content-Range hidden: ${r.message}, weights ${q.Q4_K_M}`);
      const running = page.evaluate(() => window.llmsim.lookupHub('org/slow-model'));
      await page.waitForTimeout(700);
      await page.evaluate(() => window.llmsim.cancelHub());
      const t0 = Date.now();
      r = await running;
      assert(!r.ok && r.message.includes('cancelled') && Date.now() - t0 < 1500, `cancel: ${r.message} after ${Date.now() - t0} ms`);
    });

    await check('errors: offline', async () => {
      await context.setOffline(true);
      const r = await lookup('org/st-model');
      await context.setOffline(false);
      assert(!r.ok && r.message.includes('could not be reached'), `offline: ${r.message}`);
    });

    await check('csp: a request to any other origin is blocked', async () => {
      const other = await serve(site, hub, cdn);
      const url = `http://127.0.0.1:${other.address().port}/index.html`;
      const res = await page.evaluate((u) => fetch(u).then(() => 'fetched', (e) => 'blocked: ' + e.message), url);
      other.close();
      assert(res.startsWith('blocked'), `fetch to ${url}: ${res}`);
      await page.waitForTimeout(200);
      assert(violations.some((v) => v.startsWith(url.slice(0, url.lastIndexOf('/')))), `no CSP violation for ${url}: ${violations}`);
    });

    await check('screenshots: phone width and the light theme', async () => {
      for (const [w, h, theme] of [[1280, 800, 'light'], [390, 844, 'dark'], [390, 844, 'light']]) {
        const p = await openPage(browser, base, `#model=org/new-model&theme=${theme}`, { width: w, height: h });
        await p.page.waitForFunction(() => (window.llmsim.results().quants || []).length === 2, null, { timeout: 30000 });
        await p.page.waitForTimeout(300);
        await p.page.screenshot({ path: path.join(out, `hub-lookup-done-${w}-${theme}.png`) });
        await clickWidget(p.page, 'model-picker');
        await p.page.keyboard.type('org/another-model');
        await p.page.waitForTimeout(300);
        await p.page.screenshot({ path: path.join(out, `hub-lookup-offer-${w}-${theme}.png`) });
        await p.context.close();
      }
    });
  } finally {
    await browser.close();
    server.close();
    srv.kill();
  }
  checks.finish();
}
main().catch((e) => { console.error(e); process.exit(1); });
