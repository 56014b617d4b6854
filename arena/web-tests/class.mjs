// The results site of `arena class` in Debian's headless Chromium (playwright-core),
// opened from disk as a teacher opens it: the standings with their intervals, a student's
// page with its verdicts and stderr, a game's replay that steps through the moves.
// Run by arena/tests/class.rs:  node class.mjs <site-dir> <student> <artifact-dir>
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';

const [site, student, artifacts] = process.argv.slice(2);
if (!site || !student || !artifacts) {
  console.error('usage: node class.mjs <site-dir> <student> <artifact-dir>');
  process.exit(2);
}
mkdirSync(artifacts, { recursive: true });
const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'agon-class-')), {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1200, height: 1000 },
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
function check(condition, message) {
  if (!condition) throw new Error(`check failed: ${message}`);
  console.log(`ok - ${message}`);
}
const page = context.pages()[0] || await context.newPage();
const errors = [];
page.on('pageerror', (e) => errors.push(String(e)));
const requests = [];
page.on('request', (r) => { if (!r.url().startsWith('file:')) requests.push(r.url()); });
try {
  await page.goto(pathToFileURL(resolve(site, 'index.html')).href);
  check((await page.title()) === 'Class tournament', 'the standings open from disk');
  const rows = await page.locator('table').first().locator('tr').count();
  check(rows >= 3, `the standings have a row per player (${rows - 1})`);
  const first = await page.locator('table').first().locator('tr').nth(1).textContent();
  check(/±/.test(first), `each rating has its interval: ${first.trim().slice(0, 60)}`);
  await page.screenshot({ path: join(artifacts, 'class-standings.png'), fullPage: true });
  await page.locator(`a:text-is("${student}")`).first().click();
  await page.waitForLoadState();
  check((await page.locator('h1').textContent()) === student, `${student}'s page opens from the standings`);
  const verdicts = await page.locator('table').first().locator('tr').allTextContents();
  check(verdicts.length > 1, `the page lists ${student}'s games (${verdicts.length - 1})`);
  check(await page.locator('details').count() > 0, 'the page holds its stderr of each game');
  const report = await page.locator('pre').last().textContent();
  check(report.split('\n').length > 5 && !report.includes('\\n'),
    'the check report keeps its lines');
  await page.screenshot({ path: join(artifacts, 'class-student.png'), fullPage: true });
  await page.locator('a:text-is("replay")').first().click();
  await page.waitForLoadState();
  const stones = () => page.locator('#board .stone').count();
  const plies = (await page.locator('#moves span').count());
  check(plies > 0, `the replay has its moves (${plies})`);
  const atEnd = await stones();
  await page.click('#first');
  const atStart = await stones();
  await page.click('#next');
  await page.click('#next');
  const afterTwo = await stones();
  check(atStart === 0 && afterTwo === 2, `stepping from the start places stones one by one (${atStart}, ${afterTwo})`);
  check(atEnd >= afterTwo, `the last ply shows the final board (${atEnd} stones)`);
  check((await page.locator('#ply').textContent()).startsWith('2 /'), 'the ply counter follows');
  await page.click('#last');
  check(await stones() === atEnd, 'the end button shows the final board again');
  await page.screenshot({ path: join(artifacts, 'class-replay.png'), fullPage: true });
  check(errors.length === 0, `no script errors (${errors.join('; ')})`);
  check(requests.length === 0, `nothing is fetched from the network (${requests.join(', ')})`);
  console.log('all class site checks passed');
} finally {
  await context.close();
}
