// Screenshots of every section of the app at desktop (1280x800) and phone (390x844) width in both themes, for a
// person to look at (readability, clipping, overlap); checks only that each section's header is drawn and the page
// logs no errors. Scrolls to a section with the mouse wheel (as a reader does) until its header is at the top.
//   node tests/e2e/sections_shots.mjs --site build/web/site --out build/web/screenshots/sections [--only KEY] [--hash '&model=…']
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs, serve, Checks, assert, launchChromium } from './harness.mjs';

const args = parseArgs();
const site = path.resolve(args.site || 'build/web/site');
const out = path.resolve(args.out || 'build/web/screenshots/sections');
const extraHash = args.hash || '';
const checks = new Checks();
const SECTIONS = ['verdict', 'model', 'simulator', 'quants', 'leaderboard', 'recommend', 'compare', 'context', 'command',
                  'serving', 'cost', 'faq', 'accuracy', 'myruns', 'import'];

// wheel until the section's header sits just below the top bar (a few steps: the layout above may reflow)
async function scrollTo(page, key) {
  for (let i = 0; i < 6; ++i) {
    const r = await page.evaluate((k) => window.llmsim._widgetRect('section-' + k), key);
    if (!r) { await page.mouse.wheel(0, 400); await page.waitForTimeout(150); continue; }
    const target = 90;
    if (Math.abs(r[1] - target) < 8) return true;
    await page.mouse.wheel(0, r[1] - target);
    await page.waitForTimeout(200);
  }
  return !!(await page.evaluate((k) => window.llmsim._widgetRect('section-' + k), key));
}

async function main() {
  await mkdir(out, { recursive: true });
  const server = await serve(site);
  const base = `http://127.0.0.1:${server.address().port}`;
  const browser = await launchChromium();
  try {
    for (const [w, h] of [[1280, 800], [390, 844]]) {
      for (const theme of ['light', 'dark']) {
        await checks.check(`sections at ${w}x${h}, ${theme}`, async () => {
          const context = await browser.newContext({ viewport: { width: w, height: h } });
          const page = await context.newPage();
          const errors = [];
          page.on('pageerror', (e) => errors.push(String(e)));
          page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
          await page.goto(`${base}/index.html#theme=${theme}${extraHash}`);
          await page.waitForFunction(() => window.llmsim !== undefined, null, { timeout: 30000 });
          await page.waitForTimeout(500);
          const wheelAt = [w - 6, h / 2];   // over the page's scrollbar: a table under the pointer would scroll instead
          await page.mouse.move(...wheelAt);
          for (const key of SECTIONS) {
            if (args.only && key !== args.only) continue;
            assert(await scrollTo(page, key), `section ${key} was not drawn`);
            await page.mouse.move(w - 2, h - 2);   // no hover tooltip in the picture
            await page.waitForTimeout(150);
            await page.screenshot({ path: path.join(out, `${key}-${w}-${theme}.png`) });
            await page.mouse.move(...wheelAt);
          }
          assert(errors.length === 0, `page errors: ${errors.join(' | ')}`);
          await context.close();
        });
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
  checks.finish();
}

main().catch((e) => { console.error(e); process.exit(1); });
