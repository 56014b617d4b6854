// The HTML report of a tournament journal in Debian's headless Chromium (playwright-core):
// the standings, the cross table in rank order and the SPRT trace with its bounds are
// on the page, and the charts have their axes.
// Run by arena/tests/browser_report.rs:  node report.mjs <report.html> <artifact-dir>
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';

const [report, artifacts] = process.argv.slice(2);
if (!report || !artifacts) {
  console.error('usage: node report.mjs <report.html> <artifact-dir>');
  process.exit(2);
}
mkdirSync(artifacts, { recursive: true });
const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'agon-report-')), {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1100, height: 900 },
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
function check(condition, message) {
  if (!condition) throw new Error(`check failed: ${message}`);
  console.log(`ok - ${message}`);
}
const page = context.pages()[0] || await context.newPage();
try {
  await page.goto(pathToFileURL(resolve(report)).href);
  check((await page.title()).startsWith('Arena report'), 'the report opens');
  // The cross table: a header row and one row per engine, in rank order.
  const cross = page.locator('#cross-table');
  check(await cross.isVisible(), 'the cross table is shown');
  const rows = await cross.locator('tr').allTextContents();
  check(rows.length === 3, `the cross table has two engine rows (${rows.length - 1})`);
  const ranked = await page.locator('#standings tr.standing td:nth-child(2)').allTextContents();
  const crossNames = (await cross.locator('tr td:first-child').allTextContents())
    .map((t) => t.replace(/^#\d+ /, ''));
  check(JSON.stringify(ranked) === JSON.stringify(crossNames),
    `the cross table is in rank order (${crossNames.join(', ')})`);
  const elos = (await page.locator('#standings tr.standing').evaluateAll(
    (rs) => rs.map((r) => Number(r.dataset.elo))));
  check(elos.every((e, i) => i === 0 || elos[i - 1] >= e), `ratings descend with the rank (${elos})`);
  // The SPRT trace: the LLR line and both bounds, with labelled axes.
  const sprt = page.locator('#sprt');
  check(await sprt.isVisible(), 'the SPRT trace is shown');
  const caption = await sprt.locator('figcaption').textContent();
  check(/SPRT \[0, 10\]/.test(caption), `the trace is of the tournament's SPRT: ${caption}`);
  const series = await sprt.locator('polyline.series').evaluateAll((ls) => ls.map((l) => l.dataset.series));
  check(series.includes('LLR') && series.includes('upper bound (H1)') && series.includes('lower bound (H0)'),
    `the LLR and both bounds are drawn (${series.join(', ')})`);
  const points = await sprt.locator('polyline[data-series="LLR"]').getAttribute('points');
  check(points.trim().split(/\s+/).length >= 10, 'the LLR has a point per game');
  check(await sprt.locator('.xlabel').textContent() === 'games', 'the x axis is labelled games');
  check(await sprt.locator('.ytick').count() >= 3, 'the y axis has ticks');
  // Every chart has labelled axes.
  for (const id of ['chart-nodes', 'chart-depth', 'chart-time', 'chart-score']) {
    const fig = page.locator(`#${id}`);
    check(await fig.locator('.xlabel').count() === 1 && await fig.locator('.ylabel').count() === 1,
      `${id} has labelled axes`);
  }
  await page.screenshot({ path: join(artifacts, 'report-tournament.png'), fullPage: true });
  console.log('all report checks passed');
} catch (e) {
  console.error(String(e));
  await page.screenshot({ path: join(artifacts, 'report-failure.png'), fullPage: true }).catch(() => {});
  await context.close();
  process.exit(1);
}
await context.close();
