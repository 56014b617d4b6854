// Browser tests of `arena serve` in Debian's headless Chromium, driven by playwright-core.
// Run by arena/tests/browser.rs:  node browser.mjs <base-url> <artifact-dir> <journal-path>
// with ARENA, SCRIPTED (binaries) and TIMED_OUT (a folder the server watches that does not
// exist yet: a 20-game match started there is timed from bestmove to page).
// Exits 0 when every check passes; otherwise prints the failed check and exits 1.
// Screenshots of every game's board (and of the replay, report and live views) go to
// <artifact-dir>.
import { chromium } from 'playwright-core';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { spawn } from 'node:child_process';

const [base, artifacts, journal] = process.argv.slice(2);
if (!base || !artifacts || !journal) {
  console.error('usage: node browser.mjs <base-url> <artifact-dir> <journal-path>');
  process.exit(2);
}
mkdirSync(artifacts, { recursive: true });
rmSync(join(artifacts, 'failure.png'), { force: true });
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
const userDataDir = mkdtempSync(join(tmpdir(), 'agon-chromium-'));

function check(condition, message) {
  if (!condition) throw new Error(`check failed: ${message}`);
  console.log(`ok - ${message}`);
}

const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath,
  headless: true,
  viewport: { width: 1300, height: 900 },
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const page = context.pages()[0] || await context.newPage();
const pageErrors = [];
page.on('pageerror', (e) => pageErrors.push(String(e)));
page.setDefaultTimeout(20000);

async function startGame(preset, p1, p2, movetime, position) {
  await page.click('#tab-play');
  await page.selectOption('#game-name', { label: preset });
  await page.fill('#game-position', position || '');
  await page.selectOption('#p1', p1);
  await page.selectOption('#p2', p2);
  await page.fill('#movetime', String(movetime));
  const before = await page.getAttribute('#play-board', 'data-session');
  await page.click('#start');
  // The new game's board, not the previous one's.
  await page.waitForFunction((id) => {
    const board = document.getElementById('play-board');
    return board.dataset.session && board.dataset.session !== id && board.querySelector('svg');
  }, before);
}

async function stopGame() {
  if (await page.locator('#stop').isEnabled()) await page.click('#stop');
}

const moveCount = () => page.locator('#moves li').count();
async function waitForMoves(n) {
  await page.waitForFunction((k) => document.querySelectorAll('#moves li').length >= k
    || document.getElementById('status').textContent.startsWith('Game over'), n);
}

try {
  await page.goto(base);
  await page.waitForFunction(() => document.querySelectorAll('#p2 option').length > 1);
  check((await page.title()) === 'Agon arena', 'the page loads');

  // 1. Tic-tac-toe against agon: a legal click, the engine's reply, its search info.
  await startGame('tictactoe', 'human', 'agon', 200);
  await page.click('#play-board [data-sq="b2"]');
  await waitForMoves(2);
  const moves = await page.locator('#moves li').allTextContents();
  check(moves.length === 2 && moves[0] === 'b2', `the click played b2 (moves: ${moves.join(' ')})`);
  check(/^[a-c][1-3]$/.test(moves[1]) && moves[1] !== 'b2', `agon replied ${moves[1]}`);
  check(await page.locator('#play-board [data-sq="b2"] [data-piece="x"]').count() === 1, 'X stands on b2');
  check(await page.locator(`#play-board [data-sq="${moves[1]}"] [data-piece="o"]`).count() === 1,
    `O stands on ${moves[1]}`);
  const depth = await page.locator('#thinking tr:nth-child(2) td:first-child').textContent();
  check(Number(depth) >= 1, `the engine's search info is shown (depth ${depth})`);
  await page.screenshot({ path: join(artifacts, 'board-tictactoe.png') });

  // 2. An illegal click: the occupied square is refused with the rules' reason.
  await page.click('#play-board [data-sq="b2"]');
  await page.waitForFunction(() => document.getElementById('refusal').textContent.length > 0);
  const refusal = await page.locator('#refusal').textContent();
  check(/occupied/.test(refusal), `the illegal click is refused: "${refusal}"`);
  check(await moveCount() === 2, 'the refused click played nothing');
  await page.screenshot({ path: join(artifacts, 'refusal-tictactoe.png') });

  // 3. Clobber by clicks: a capture (from, to), then an illegal one refused.
  await startGame('clobber 5x6', 'human', 'agon', 100);
  await page.click('#play-board [data-sq="a1"]');
  await page.click('#play-board [data-sq="a2"]');
  await waitForMoves(2);
  const first = await page.locator('#moves li').first().textContent();
  check(first === 'a1-a2', `clobber a1-a2 played by two clicks (first move: ${first})`);
  await page.click('#play-board [data-sq="f5"]');
  await page.click('#play-board [data-sq="d5"]');
  await page.waitForFunction(() => document.getElementById('refusal').textContent.length > 0);
  check(/Refused/.test(await page.locator('#refusal').textContent()),
    `a clobber move two squares away is refused: "${await page.locator('#refusal').textContent()}"`);
  await page.locator('#play-board').screenshot({ path: join(artifacts, 'board-clobber-5x6.png') });

  // 4. Tak by clicks: pick up a 3-stack and drop one piece on each of three squares.
  await startGame('tak 5x5', 'human', 'agon', 200, 'x5/x5/x,12,2,x2/x,121,1,x2/x5 1 8');
  check(await page.locator('#play-board [data-sq="b2"] [data-piece="1F"]').count() === 1, 'the b2 stack shows a white flat on top');
  for (const sq of ['b2', 'b3', 'b4', 'b5']) await page.click(`#play-board [data-sq="${sq}"]`);
  await waitForMoves(2);
  check((await page.locator('#moves li').first().textContent()) === '3b2+111', 'the clicks played 3b2+111');
  await page.locator('#play-board').screenshot({ path: join(artifacts, 'board-tak-5x5.png') });
  // A wall placed by the piece selector.
  const empty = await page.evaluate(() => [...document.querySelectorAll('#play-board g.cell')]
    .find((g) => !g.querySelector('.piece')).dataset.sq);
  await page.check('input[name=piece][value=S]');
  await page.click(`#play-board [data-sq="${empty}"]`);
  await waitForMoves(4);
  check((await page.locator('#moves li').nth(2).textContent()) === `S${empty}`, `a wall placed on ${empty}`);
  check(await page.locator(`#play-board [data-sq="${empty}"] [data-piece="1S"]`).count() === 1, 'the wall is drawn');
  await page.locator('#play-board').screenshot({ path: join(artifacts, 'board-tak-wall.png') });

  // 5. Two engines on Halma 16x16 (camps marked) and on 7x7 k=5.
  await startGame('halma 16x16', 'agon-random', 'agon-random', 20);
  await waitForMoves(8);
  check(await page.locator('#play-board rect.camp1').count() === 19, 'halma 16x16 marks a 19-square camp for White');
  check(await page.locator('#play-board rect.camp2').count() === 19, 'and one for Black');
  await page.locator('#play-board').screenshot({ path: join(artifacts, 'board-halma-16x16.png') });
  await stopGame();

  await page.selectOption('#game-name', { label: 'mnk 5x5 k=4' });
  await startGame('mnk 5x5 k=4', 'agon', 'agon-easy', 100);
  await waitForMoves(6);
  check(await page.locator('#play-board [data-piece]').count() >= 6, 'agon vs agon-easy on 5x5: stones drawn');
  await page.locator('#play-board').screenshot({ path: join(artifacts, 'board-mnk-5x5.png') });
  await stopGame();

  // 6. Live: the running match's game and the standings.
  await page.click('#tab-live');
  await page.waitForSelector('#live-games .live-game svg', { timeout: 60000 });
  await page.waitForSelector('#live-folders table.standings');
  check(true, 'a game of the running match is shown live, with standings');
  await page.waitForFunction(() => [...document.querySelectorAll('#live-games .live-thinking')]
    .some((p) => /depth \d/.test(p.textContent)), null, { timeout: 30000 });
  const thinking = await page.evaluate(() => [...document.querySelectorAll('#live-games .live-thinking')]
    .map((p) => p.textContent).find((t) => /depth \d/.test(t)));
  check(true, `the engine's search in progress is shown live: "${thinking}"`);
  await page.screenshot({ path: join(artifacts, 'live.png'), fullPage: true });

  // 6b. A 20-game match started in a folder the page watched before it existed: every
  // move timed from the arena reading its bestmove to the page showing it.
  const timedOut = process.env.TIMED_OUT;
  await page.waitForFunction((dir) => [...document.querySelectorAll('#live-folders h3')]
    .some((h) => h.textContent.startsWith(dir) && /does not exist yet/.test(h.textContent)), timedOut);
  check(true, 'a watched folder that does not exist yet is shown as awaited');
  await page.evaluate((dir) => {
    window.latency = [];
    const seen = new Map();
    new MutationObserver(() => {
      const now = Date.now();
      for (const g of document.querySelectorAll('#live-games .live-game')) {
        if (g.dataset.dir !== dir) continue;
        const key = `${g.dataset.run}/${g.dataset.game}`;
        const plies = Number(g.dataset.plies);
        const before = seen.get(key);
        if (before !== undefined && plies === before + 1 && Number(g.dataset.movedMs) > 0) {
          window.latency.push(now - Number(g.dataset.movedMs));
        }
        seen.set(key, plies);
      }
    }).observe(document.getElementById('live-games'), { childList: true });
  }, timedOut);
  // Engines that take exactly their 50 ms a move, so that the page sees each move apart.
  const engine = (name) => ['--engine', `cmd=${process.env.SCRIPTED}`, 'args=use-exact-time', `name=${name}`, 'st=0.05'];
  const timed = spawn(process.env.ARENA, ['match', '--no-progress', '--game', 'tictactoe', '--games', '20',
    '--concurrency', '1', ...engine('a'), ...engine('b'), '--out', timedOut], { stdio: 'ignore' });
  const code = await new Promise((resolve) => timed.on('exit', resolve));
  check(code === 0, 'the timed match ran to its end');
  await page.waitForTimeout(300);
  const latency = (await page.evaluate(() => window.latency)).sort((a, b) => a - b);
  const median = latency.length ? latency[Math.floor((latency.length - 1) / 2)] : NaN;
  console.log(`bestmove to page: ${latency.length} moves of a 20-game watched match, median ${median} ms, ` +
    `worst ${latency[latency.length - 1]} ms`);
  check(latency.length >= 60, `the page saw ${latency.length} moves of the timed match one by one`);
  check(median <= 200, `bestmove to page in ${median} ms (median)`);

  // 7. Replay a journaled game move by move with its statistics.
  await page.click('#tab-replay');
  await page.waitForFunction((j) => [...document.querySelectorAll('#journal option')].some((o) => o.value === j), journal);
  await page.selectOption('#journal', journal);
  await page.waitForSelector('#journal-games tr.clickable');
  await page.click('#journal-games tr.clickable >> nth=0');
  await page.waitForSelector('#replay-board svg');
  check((await page.locator('#ply-label').textContent()).startsWith('ply 0 of'), 'the replay opens at the start');
  await page.click('#next');
  await page.waitForFunction(() => document.getElementById('ply-label').textContent.startsWith('ply 1 of'));
  await page.click('#next');
  await page.waitForFunction(() => document.getElementById('ply-label').textContent.startsWith('ply 2 of'));
  const current = await page.locator('#replay-moves tr.current td').allTextContents();
  check(current[0] === '2' && Number(current[5]) > 0, `ply 2's statistics are highlighted (${current.join(' | ')})`);
  check(await page.locator('#replay-board [data-piece]').count() > 0, 'the replayed board is drawn');
  await page.screenshot({ path: join(artifacts, 'replay.png'), fullPage: true });

  // 8. The report of the journal, from the page's link.
  const [report] = await Promise.all([context.waitForEvent('page'), page.click('#report-link')]);
  await report.waitForLoadState();
  const text = await report.textContent('body');
  check(/Nodes per move/.test(text) && /Standings/.test(text), 'the report opens from the page');
  check(await report.locator('svg').count() >= 4, 'the report has its charts');
  await report.screenshot({ path: join(artifacts, 'report.png'), fullPage: true });

  // 9. A page of another origin (a second loopback port) cannot start a game: not by
  // fetch (text/plain, sent without a preflight), not by JSON with a guessed token, not
  // by a form post; nor read the token.
  await stopGame();
  const sessions = async () => (await (await fetch(`${base}api/config`)).json()).sessions;
  const before = await sessions();
  const evilHtml = `<!DOCTYPE html><html><head><title>another site</title></head><body>
<form id="plain" method="POST" action="${base}api/play" enctype="text/plain">
<input name='{"game":"tictactoe","p1":"agon","p2":"agon","x":"' value='"}'><button>plain</button></form>
<form id="urlencoded" method="POST" action="${base}api/play"><input name="game" value="tictactoe">
<input name="p1" value="agon"><input name="p2" value="agon"><button>urlencoded</button></form>
<script>
window.results = {};
const body = JSON.stringify({ game: 'tictactoe', p1: 'agon', p2: 'agon' });
const tell = (key, p) => p.then((r) => { results[key] = 'read ' + r.status; }, (e) => { results[key] = 'failed: ' + e; });
window.attempts = Promise.all([
  fetch('${base}api/play', { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' }, body })
    .then((r) => { results.opaque = 'sent, ' + r.type; }, (e) => { results.opaque = 'failed: ' + e; }),
  tell('plain', fetch('${base}api/play', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body })),
  tell('json', fetch('${base}api/play', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Agon-Token': 'guess' }, body })),
  tell('token', fetch('${base}api/token')),
]);
</script></body></html>`;
  const evil = createServer((request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html' });
    response.end(evilHtml);
  });
  await new Promise((resolve) => evil.listen(0, '127.0.0.1', resolve));
  const evilUrl = `http://127.0.0.1:${evil.address().port}/`;
  const evilPage = await context.newPage();
  await evilPage.goto(evilUrl);
  await evilPage.evaluate(() => window.attempts);
  const results = await evilPage.evaluate(() => window.results);
  check(Object.values(results).every((r) => !r.startsWith('read')),
    `another origin reads no answer: ${JSON.stringify(results)}`);
  for (const form of ['plain', 'urlencoded']) {
    await evilPage.goto(evilUrl);
    await Promise.all([evilPage.waitForURL(`${base}api/play`), evilPage.click(`#${form} button`)]);
    const answer = await evilPage.textContent('body');
    check(/refused/.test(answer), `a ${form} form post from another origin is refused: ${answer}`);
  }
  await evilPage.screenshot({ path: join(artifacts, 'cross-origin-form.png') });
  await evilPage.close();
  evil.close();
  await page.waitForTimeout(500);
  const after = await sessions();
  check(after <= before, `no game started from another origin (games in progress: ${before} before, ${after} after)`);

  check(pageErrors.length === 0, `no script errors (${pageErrors.join('; ')})`);
  await context.close();
  console.log('all browser checks passed');
} catch (e) {
  console.error(String(e && e.stack ? e.stack : e));
  try { await page.screenshot({ path: join(artifacts, 'failure.png'), fullPage: true }); } catch (_) { /* ignore */ }
  await context.close();
  process.exit(1);
}
