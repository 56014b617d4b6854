// Browser tests of `arena serve` in Debian's headless Chromium, driven by playwright-core.
// Run by arena/tests/browser.rs:
//   node browser.mjs <base-url> <artifact-dir> <journal-path> <many-games-journal>
// with ARENA, SCRIPTED (binaries) and TIMED_OUT (a folder the server watches that does not
// exist yet: a 20-game match started there is timed from bestmove to page).
// Exits 0 when every check passes; otherwise prints the failed check and exits 1.
// Screenshots of every screen go to <artifact-dir> (docs/web-board-compared.md names them).
import { chromium } from 'playwright-core';
import { mkdirSync, rmSync, mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import { spawn } from 'node:child_process';

const [base, artifacts, journal, manyJournal] = process.argv.slice(2);
if (!base || !artifacts || !journal || !manyJournal) {
  console.error('usage: node browser.mjs <base-url> <artifact-dir> <journal-path> <many-games-journal>');
  process.exit(2);
}
mkdirSync(artifacts, { recursive: true });
rmSync(join(artifacts, 'failure.png'), { force: true });
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
const userDataDir = mkdtempSync(join(tmpdir(), 'agon-chromium-'));
const started = Date.now();

function check(condition, message) {
  if (!condition) throw new Error(`check failed: ${message}`);
  console.log(`ok - ${message} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
const same = (a, b) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath,
  headless: true,
  viewport: { width: 1300, height: 900 },
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base.replace(/\/$/, '') });
const page = context.pages()[0] || await context.newPage();
const pageErrors = [];
page.on('pageerror', (e) => pageErrors.push(String(e)));
const iconFailures = [];
page.on('response', (r) => { if (/favicon/.test(r.url()) && r.status() !== 200) iconFailures.push(`${r.url()} ${r.status()}`); });
page.setDefaultTimeout(20000);
const shot = (name) => page.screenshot({ path: join(artifacts, name) });
const boardShot = (name) => page.locator('#play-board').screenshot({ path: join(artifacts, name) });

// The server's JSON (computed by the agon library) of the page's game.
const sessionId = () => page.getAttribute('#play-board', 'data-session');
async function serverBoard() {
  const id = await sessionId();
  return page.evaluate(async (i) => (await fetch(`/api/play/${i}/board`)).json(), id);
}
async function serverState() {
  const id = await sessionId();
  return page.evaluate(async (i) => (await fetch(`/api/play/${i}`)).json(), id);
}
// Waits until the page shows the board info of its game's latest move.
async function ready(plies) {
  await page.waitForFunction((k) => {
    const b = document.getElementById('play-board');
    return b.dataset.ready === 'yes' && (k === undefined || Number(b.dataset.ply) >= k);
  }, plies);
}

// Starts a game; `tc` (a clock as `arena match` takes it) instead of a time per move.
async function startGame(preset, p1, p2, movetime, position, tc) {
  await page.click('#tab-play');
  await page.selectOption('#game-name', { label: preset });
  await page.fill('#game-position', position || '');
  await page.selectOption('#p1', p1);
  await page.selectOption('#p2', p2);
  if (tc) {
    await page.selectOption('#tc-kind', 'clock');
    await page.fill('#tc-text', tc);
  } else {
    await page.selectOption('#tc-kind', 'move');
    await page.fill('#movetime', String(movetime));
  }
  const before = await page.getAttribute('#play-board', 'data-session');
  await page.click('#start');
  await page.waitForFunction((id) => {
    const board = document.getElementById('play-board');
    return board.dataset.session && board.dataset.session !== id && board.dataset.ready === 'yes';
  }, before);
}

async function stopGame() {
  // The game may end by itself meanwhile: then there is nothing to stop.
  if (await page.locator('#stop').isEnabled()) await page.click('#stop', { timeout: 3000 }).catch(() => {});
}

const moveCount = () => page.locator('#moves li').count();
async function waitForMoves(n) {
  await page.waitForFunction((k) => document.querySelectorAll('#moves li').length >= k
    || document.getElementById('status').textContent.startsWith('Game over'), n);
  await ready();
}
const marked = (cls) => page.evaluate((c) => [...document.querySelectorAll(`#play-board rect.${c}`)]
  .map((r) => r.parentNode.dataset.sq), cls);
const dots = () => page.evaluate(() => [...document.querySelectorAll('#play-board [data-dest]')].map((d) => d.dataset.dest));

// Stones and capstones each side starts with, by board size: the published Tak rules
// (ustak.org), not the library's table.
const TAK_START = { 3: [10, 0], 4: [15, 0], 5: [21, 1], 6: [30, 1], 7: [40, 2], 8: [50, 2] };

// Reserves and flats counted from a TPS string, independently of the server: every digit
// is a stone of that colour; a stack ending in C has a capstone on top.
function countTps(tps) {
  const start = TAK_START[tps.split(' ')[0].split('/').length];
  const board = tps.split(' ')[0];
  const placed = { 1: 0, 2: 0 }, caps = { 1: 0, 2: 0 }, flats = { 1: 0, 2: 0 };
  for (const square of board.replace(/\//g, ',').split(',')) {
    if (square.startsWith('x')) continue;
    const top = square.match(/[12]/g).pop();
    const kind = /[SC]$/.test(square) ? square.slice(-1) : 'F';
    for (const d of square.match(/[12]/g)) placed[d] += 1;
    if (kind === 'C') { caps[top] += 1; placed[top] -= 1; }
    if (kind === 'F') flats[top] += 1;
  }
  return { stones: [start[0] - placed[1], start[0] - placed[2]], caps: [start[1] - caps[1], start[1] - caps[2]], flats: [flats[1], flats[2]] };
}

// The Tak panel against the library's JSON and against the TPS count: the page's ply and
// numbers are read at once, then the library's facts of that same ply are asked for.
async function checkTakCounts(label, quiet, tries = 0) {
  await ready();
  const seen = await page.evaluate(() => ({
    ply: Number(document.getElementById('play-board').dataset.ply),
    ready: document.getElementById('play-board').dataset.ready,
    counts: ['p1', 'p2'].map((s) => [...document.querySelectorAll(`#counts-panel [data-seat="${s}"] .num`)].map((n) => Number(n.textContent))),
    labels: [...document.querySelectorAll('#counts-panel [data-seat="p1"] .num')].map((n) => n.dataset.count),
    // Null while the panel is being drawn again: read again once the board is ready.
    score: document.querySelector('#counts-panel .standing')?.textContent ?? null,
  }));
  if (seen.ready !== 'yes' || seen.score === null) {
    if (tries >= 100) throw new Error(`${label}: the Tak panel has no standing line on a ready board`);
    await page.waitForTimeout(50);
    return checkTakCounts(label, quiet, tries + 1);
  }
  const id = await sessionId();
  const json = await page.evaluate(async ([i, p]) => (await fetch(`/api/play/${i}/board?ply=${p}`)).json(), [id, seen.ply]);
  // The library's counts, by their labels.
  const byLabel = Object.fromEntries(json.info.counts.map((c) => [c.label, c.values]));
  const tak = {
    tps: json.info.exports.find((e) => e.format === 'TPS').text,
    stones: byLabel['stones left'], caps: byLabel['capstones left'], flats: byLabel['flats on top'],
    flat_score: json.info.standing,
  };
  const shown = seen.counts;
  const counted = countTps(tak.tps);
  const ok = json.info.ply === seen.ply
    && shown[0][0] === tak.stones[0] && shown[1][0] === tak.stones[1]
    && shown[0][1] === tak.caps[0] && shown[1][1] === tak.caps[1]
    && shown[0][2] === tak.flats[0] && shown[1][2] === tak.flats[1]
    && JSON.stringify(counted) === JSON.stringify({ stones: tak.stones, caps: tak.caps, flats: tak.flats })
    && seen.score === tak.flat_score
    && seen.labels.join() === 'stones left,capstones left,flats on top';
  const message = `${label} (ply ${seen.ply}): reserves ${shown[0][0]}/${shown[1][0]}, capstones ${shown[0][1]}/${shown[1][1]}, flats ${shown[0][2]}/${shown[1][2]} shown = library = counted from ${tak.tps}`;
  if (!ok) check(false, `${message} (library ${JSON.stringify(tak)}, shown ${JSON.stringify(seen)}, counted ${JSON.stringify(counted)})`);
  if (!quiet) check(true, message);
  return seen.ply;
}

try {
  // 0. First load: a board, the how-to-move line, and only engines that play the game.
  await page.goto(base);
  await page.waitForFunction(() => document.querySelector('#play-board svg') && !document.getElementById('engine-note').textContent.startsWith('Asking'));
  check((await page.title()) === 'Agon arena', 'the page loads');
  check(await page.locator('#play-board [data-sq="b2"]').count() === 1, 'a tic-tac-toe board is drawn on first load, before any game');
  check(/empty square/.test(await page.locator('#how-to-move').textContent()), 'with a line on how to move');
  const options = async (id) => page.evaluate((i) => [...document.getElementById(i).options].map((o) => ({ v: o.value, off: o.disabled })), id);
  let p2 = await options('p2');
  check(p2.find((o) => o.v === 'clobber-bot').off && p2.find((o) => o.v === 'agon-tei').off,
    'tic-tac-toe: the Clobber-only bot and the TEI (Tak-only) engine are not offered');
  check(await page.locator('#p2').inputValue() === 'agon', 'the second player defaults to an engine that plays tic-tac-toe');
  check(/clobber-bot/.test(await page.locator('#engine-note').textContent()), 'the page says why an engine is not offered');
  await shot('start.png');
  await page.selectOption('#game-name', { label: 'clobber 5x6' });
  p2 = await options('p2');
  check(!p2.find((o) => o.v === 'clobber-bot').off && p2.find((o) => o.v === 'agon-tei').off, 'clobber: the Clobber bot is offered, the TEI engine is not');
  // The board comes from /api/board, fetched when the game changes: wait for it (up to 5 s)
  // rather than count at once, which raced the fetch.
  await page.waitForSelector('#play-board [data-sq="f5"] [data-piece]', { timeout: 5000 }).catch(() => {});
  check(await page.locator('#play-board [data-sq="f5"] [data-piece]').count() === 1, 'the Clobber start is drawn on choosing the game');
  await page.selectOption('#game-name', { label: 'tak 6x6' });
  const labels = await page.locator('#game-params label').evaluateAll((ls) => ls.map((l) => l.getBoundingClientRect()));
  check(labels.length === 3 && labels.every((b, i) => i === 0 || b.left - labels[i - 1].right >= 8 || b.top > labels[i - 1].top),
    `tak 6x6: its three settings stand apart (${labels.map((b) => `${Math.round(b.left)}-${Math.round(b.right)}`).join(', ')})`);
  check(/size\s+halfkomi\s+line/.test((await page.locator('#game-params').textContent()).trim()), 'the settings read "size halfkomi line", words apart');
  const icon = await page.request.get(`${base.replace(/\/$/, '')}/favicon.ico`);
  check(icon.status() === 200 && /^image\//.test(icon.headers()['content-type']), `/favicon.ico answers 200 with an image (${icon.status()})`);
  p2 = await options('p2');
  check(!p2.find((o) => o.v === 'agon-tei').off && p2.find((o) => o.v === 'clobber-bot').off, 'tak: the TEI engine is offered, the Clobber bot is not');

  // 1. Tic-tac-toe against agon: a legal click, the engine's reply marked as last move.
  await startGame('tictactoe', 'human', 'agon', 200);
  await page.click('#play-board [data-sq="b2"]');
  await waitForMoves(2);
  const moves = await page.locator('#moves li').allTextContents();
  check(moves.length === 2 && moves[0] === 'b2', `the click played b2 (moves: ${moves.join(' ')})`);
  check(/^[a-c][1-3]$/.test(moves[1]) && moves[1] !== 'b2', `agon replied ${moves[1]}`);
  check(await page.locator(`#play-board [data-sq="${moves[1]}"] [data-piece="o"]`).count() === 1, `O stands on ${moves[1]}`);
  check(same(await marked('last'), [moves[1]]), `agon's reply ${moves[1]} is marked as the last move`);
  const depth = await page.locator('#thinking tr:nth-child(2) td:first-child').textContent();
  check(Number(depth) >= 1, `the engine's search info is shown (depth ${depth})`);
  check(/Score from O's side \(agon/.test(await page.locator('#score-side').textContent()), 'the score says whose side it is from');
  await shot('board-tictactoe.png');

  // An illegal click: the occupied square is refused with the rules' reason.
  await page.click('#play-board [data-sq="b2"]');
  await page.waitForFunction(() => document.getElementById('refusal').textContent.length > 0);
  const refusal = await page.locator('#refusal').textContent();
  check(/occupied/.test(refusal), `the illegal click is refused: "${refusal}"`);
  check(await moveCount() === 2, 'the refused click played nothing');
  // Keyboard entry in the game's notation.
  const free = (await serverBoard()).info.moves[0].mv;
  await page.fill('#move-text', free);
  await page.press('#move-text', 'Enter');
  await waitForMoves(3);
  check((await page.locator('#moves li').nth(2).textContent()) === free, `a typed move (${free}) is played`);
  await stopGame();

  // Game over: X completes a row; the line is drawn, the result said in words.
  await startGame('tictactoe', 'human', 'agon', 100, '3/oo1/xx1 x');
  await page.click('#play-board [data-sq="c1"]');
  await page.waitForFunction(() => !document.getElementById('result').hidden && /wins/.test(document.getElementById('result').textContent));
  await ready();
  const resultText = await page.locator('#result').textContent();
  check(/^X wins with 3 in a row/.test(resultText), `the result in words: "${resultText}"`);
  check(same(await marked('win'), ['a1', 'b1', 'c1']), 'the winning line a1 b1 c1 is marked');
  check((await page.getAttribute('#play-board polyline.winline', 'data-line')) === 'a1 b1 c1', 'and drawn through');
  check(await page.locator('#rematch').isEnabled(), 'rematch is offered');
  await shot('gameover-tictactoe.png');
  // Flip: a1 moves from the bottom left to the top right.
  const a1 = async () => page.locator('#play-board [data-sq="a1"] rect').boundingBox();
  const before = await a1();
  await page.click('#flip');
  const after = await a1();
  check(after.x > before.x && after.y < before.y, 'flip turns the board around (a1 at the top right)');
  await boardShot('flipped-tictactoe.png');
  await page.click('#flip');
  // Rematch with colours swapped.
  const oldId = await sessionId();
  await page.click('#rematch');
  await page.waitForFunction((id) => document.getElementById('play-board').dataset.session !== id && document.getElementById('play-board').dataset.ready === 'yes', oldId);
  const rematch = await serverState();
  check(rematch.players[0] === 'agon' && rematch.players[1] === 'human', `the rematch swaps colours (${rematch.players.join(' vs ')})`);
  await waitForMoves(1);
  await stopGame();

  // 2. Clobber: picking a stone shows its captures (the library's), a drag plays one.
  await startGame('clobber 5x6', 'human', 'agon', 100);
  await page.click('#play-board [data-sq="a1"]');
  const captures = await dots();
  const fromA1 = (await serverBoard()).info.moves.filter((m) => m.from === 'a1').map((m) => m.to[0]);
  check(same(captures, ['a2', 'b1']) && same(captures, fromA1), `a1's captures are marked: ${captures.join(' ')} (library: ${fromA1.join(' ')})`);
  await boardShot('clobber-captures.png');
  await page.click('#play-board [data-sq="a1"]'); // put it back
  const box = async (sq) => page.locator(`#play-board [data-sq="${sq}"] rect`).boundingBox();
  const [ba1, ba2] = [await box('a1'), await box('a2')];
  await page.mouse.move(ba1.x + ba1.width / 2, ba1.y + ba1.height / 2);
  await page.mouse.down();
  await page.mouse.move(ba2.x + ba2.width / 2, ba2.y + ba2.height / 2 - 10, { steps: 5 });
  const dragDots = await page.evaluate(() => [...document.querySelectorAll('#play-board [data-drag-dest]')].map((d) => d.dataset.dragDest));
  check(same(dragDots, ['a2', 'b1']) && await page.locator('#play-board .ghost .piece').count() === 1,
    `while dragging a1 the stone follows the pointer and its captures are dotted (${dragDots.join(' ')})`);
  await boardShot('clobber-drag.png');
  await page.mouse.move(ba2.x + ba2.width / 2, ba2.y + ba2.height / 2, { steps: 2 });
  await page.mouse.up();
  await waitForMoves(2);
  const first = await page.locator('#moves li').first().textContent();
  check(first === 'a1-a2', `clobber a1-a2 played by dragging (first move: ${first})`);
  const reply = (await serverState()).moves[1].mv;
  check(same(await marked('lastfrom'), [reply.split('-')[0]]) && same(await marked('last'), [reply.split('-')[1]]),
    `agon's reply ${reply} is marked from and to`);
  await page.click('#play-board [data-sq="f5"]');
  await page.click('#play-board [data-sq="d5"]');
  await page.waitForFunction(() => document.getElementById('refusal').textContent.length > 0);
  check(/Refused/.test(await page.locator('#refusal').textContent()),
    `a clobber move two squares away is refused: "${await page.locator('#refusal').textContent()}"`);
  await boardShot('board-clobber-5x6.png');
  await stopGame();

  // Clobber game over: the last capture, the result in words.
  await startGame('clobber 5x6', 'human', 'agon', 100, '6/6/6/6/wb4 w');
  await page.click('#play-board [data-sq="a1"]');
  await page.click('#play-board [data-sq="b1"]');
  await page.waitForFunction(() => !document.getElementById('result').hidden);
  await ready();
  check(/^White wins: Black has no capture left \(1-0\)/.test(await page.locator('#result').textContent()),
    `clobber: "${await page.locator('#result').textContent()}"`);
  await page.locator('.game').screenshot({ path: join(artifacts, 'gameover-clobber.png') });

  // 3. Halma: every square a piece can reach, jump chains included.
  await startGame('halma 8x8', 'human', 'human', 50, '8/8/8/8/3b4/8/1w6/w7 w 0');
  await page.click('#play-board [data-sq="a1"]');
  const reach = await dots();
  const libraryReach = (await serverBoard()).info.moves.filter((m) => m.from === 'a1').map((m) => m.to[0]);
  check(same(reach, ['a2', 'b1', 'c3', 'e5']) && same(reach, libraryReach),
    `a1 may step to a2, b1 or jump to c3 and on to e5: marked ${reach.join(' ')}`);
  await page.hover('#play-board [data-sq="e5"]');
  check((await page.getAttribute('#play-board polyline.hops-hover', 'data-hops')) === 'a1 c3 e5',
    'pointing at e5 draws the chain of jumps a1 c3 e5 (a path the library accepts hop by hop)');
  await boardShot('halma-jumps.png');
  await page.click('#play-board [data-sq="e5"]');
  await waitForMoves(1);
  check((await page.locator('#moves li').first().textContent()) === 'a1-e5', 'clicking e5 plays the two-jump chain a1-e5');
  await ready(1);
  check((await page.getAttribute('#play-board polyline.hops', 'data-hops')) === 'a1 c3 e5', 'the last move is drawn hop by hop');
  await boardShot('halma-last-chain.png');
  await stopGame();
  // Halma game over: the filled camp is drawn.
  await startGame('halma 8x8', 'human', 'agon-random', 50, '4wwww/5www/6w1/6ww/8/8/8/bbbb4 w 10');
  await page.click('#play-board [data-sq="g5"]');
  await page.click('#play-board [data-sq="h6"]');
  await page.waitForFunction(() => !document.getElementById('result').hidden);
  await ready();
  check(/White wins by filling Black's camp/.test(await page.locator('#result').textContent()), 'halma: "White wins by filling Black\'s camp"');
  check((await marked('win')).length === 10, 'the ten squares of the filled camp are marked');
  await boardShot('gameover-halma.png');

  // A tall stack: eight stones below the top drawn, "+3" for the rest, all twelve listed on hover.
  await stopGame();
  await page.selectOption('#game-name', { label: 'tak 5x5' });
  await page.fill('#game-position', 'x5/x5/x2,121212121212C,x2/x5/x5 1 10');
  await page.press('#game-position', 'Tab');
  await page.waitForSelector('#play-board [data-sq="c3"] [data-piece="2C"]');
  check(await page.locator('#play-board [data-sq="c3"] rect.layer').count() === 8
    && (await page.locator('#play-board [data-sq="c3"] text.hidden-count').textContent()).startsWith('+3'),
  'a 12-stone stack shows 8 bands under its capstone and +3 for the rest');
  await page.hover('#play-board [data-sq="c3"]');
  const tall = await page.locator('#stack-panel .stone').evaluateAll((d) => d.map((x) => x.dataset.stone).join(''));
  check(tall === '212121212121', `hovering it lists all 12 stones top first, alternating colours (${tall})`);
  await page.locator('.game').screenshot({ path: join(artifacts, 'tak-tall-stack.png') });

  // 4. Tak 5x5: pick up a stack, the drop squares with the stones left in hand, a spread
  // by clicks and its landing squares marked.
  await startGame('tak 5x5', 'human', 'agon', 1000, 'x5/x5/x,12,2,x2/x,121,1,x2/x5 1 8');
  check(await page.locator('#play-board [data-sq="b2"] [data-piece="1F"]').count() === 1, 'the b2 stack shows a white flat on top');
  check(await page.locator('#play-board [data-sq="b2"] rect.layer').count() === 2, 'and both stones below it as bands');
  await page.hover('#play-board [data-sq="b2"]');
  const stack = await page.locator('#stack-panel .stone').allTextContents();
  check(stack.join('|') === 'White flat (top)|Black flat|White flat', `hovering b2 lists its stones, top first: ${stack.join(', ')}`);
  await page.click('#play-board [data-sq="b2"]');
  const badges = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#play-board [data-badge]')]
    .map((t) => [t.parentNode.dataset.sq, t.dataset.badge])));
  const firstDrops = [...new Set((await serverBoard()).info.moves.filter((m) => m.from === 'b2' && m.drops.reduce((a, b) => a + b) === 3).map((m) => m.to[0]))];
  check(same(Object.keys(badges), firstDrops) && Object.values(badges).every((b) => b === '2'),
    `carrying 3 from b2: drop squares ${Object.keys(badges).join(' ')} each marked 2 (stones left in hand)`);
  check(/Carrying 3 of 3 from b2/.test(await page.locator('#carry').textContent()), 'the side panel says what is carried and where to click');
  await boardShot('tak-carry.png');
  for (const sq of ['b3', 'b4', 'b5']) await page.click(`#play-board [data-sq="${sq}"]`);
  await ready(1);
  check(same(await marked('last'), ['b3', 'b4', 'b5']) && same(await marked('lastfrom'), ['b2']),
    'the spread 3b2+111 is marked where it started and on every square it landed on (b3 b4 b5)');
  await boardShot('tak-spread-landing.png');
  await waitForMoves(2);
  const moveNumbers = await page.locator('#moves li').evaluateAll((ls) => ls.map((l) => getComputedStyle(l, '::before').content));
  check(moveNumbers[0] === '"1. "' && moveNumbers[1] === 'none',
    `the moves are numbered by pairs as PTN numbers them: "1. 3b2+111 <reply>" (${moveNumbers.join(' | ')})`);
  check((await page.locator('#moves li').first().textContent()) === '3b2+111', 'the clicks played 3b2+111');
  await checkTakCounts('tak 5x5 after a spread');
  // A wall placed by the piece selector.
  const empty = await page.evaluate(() => [...document.querySelectorAll('#play-board g.cell')]
    .find((g) => !g.querySelector('.piece')).dataset.sq);
  await page.check('input[name=piece][value=S]');
  await page.click(`#play-board [data-sq="${empty}"]`);
  await waitForMoves(4);
  check((await page.locator('#moves li').nth(2).textContent()) === `S${empty}`, `a wall placed on ${empty}`);
  check(await page.locator(`#play-board [data-sq="${empty}"] [data-piece="1S"]`).count() === 1, 'the wall is drawn');
  await page.check('input[name=piece][value=F]');
  // TPS and PTN copy buttons: the clipboard holds the library's text.
  await page.click('#copy-tps');
  await page.waitForFunction(() => /copied/.test(document.getElementById('copied').textContent));
  const tpsCopied = await page.evaluate(() => navigator.clipboard.readText());
  const takNow = (await serverBoard()).info;
  const tpsNow = takNow.exports.find((e) => e.format === 'TPS').text;
  check(tpsCopied === tpsNow && tpsCopied === takNow.view.position, `Copy TPS copies ${tpsCopied}`);
  await page.click('#copy-ptn');
  await page.waitForFunction(() => document.getElementById('export-text').dataset.kind === 'PTN');
  const ptn = await page.evaluate(() => navigator.clipboard.readText());
  check(/\[Size "5"\]/.test(ptn) && /\[TPS "x5\/x5\/x,12,2,x2\/x,121,1,x2\/x5 1 8"\]/.test(ptn) && /8\. 3b2\+111 /.test(ptn),
    `Copy PTN copies the game with its tags and moves (${ptn.split('\n').filter((l) => /^\d/.test(l)).join(' / ')})`);
  await shot('board-tak-5x5.png');
  await stopGame();
  // A Tak stack dragged onto the next square moves whole.
  await startGame('tak 5x5', 'human', 'human', 100, 'x5/x5/x5/x5/1,x4 1 3');
  // Measured in the page in one step: a state event may redraw the board at any time.
  const centre = (sq) => page.evaluate((s) => {
    const r = document.querySelector(`#play-board [data-sq="${s}"] rect.sq`).getBoundingClientRect();
    return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  }, sq);
  const [s1, s2] = [await centre('a1'), await centre('a2')];
  await page.mouse.move(s1.x, s1.y);
  await page.mouse.down();
  await page.mouse.move(s2.x, s2.y, { steps: 5 });
  await page.mouse.up();
  await waitForMoves(1);
  check((await page.locator('#moves li').first().textContent()) === 'a1+', 'dragging the a1 stone onto a2 plays a1+');
  await stopGame();
  // A road: drawn, said in words.
  await startGame('tak 5x5', 'human', 'agon', 100, 'x5/x5/2,2,2,x2/x5/1,1,1,1,x 1 6');
  await page.click('#play-board [data-sq="e1"]');
  await page.waitForFunction(() => !document.getElementById('result').hidden);
  await ready();
  check(/^White wins by road \(1-0\)/.test(await page.locator('#result').textContent()), `"${await page.locator('#result').textContent()}"`);
  check((await page.getAttribute('#play-board polyline.winline', 'data-line')) === 'e1 d1 c1 b1 a1', 'the road a1-e1 is drawn');
  await shot('gameover-tak-road.png');

  // 5. Tak 6x6 against agon, to the end, by clicks only; the reserves, capstones and flat
  // count shown are checked against the library (and a count of the TPS) after every ply.
  await startGame('tak 6x6', 'human', 'agon', 500);
  let humanMoves = 0, spreads = 0;
  const checked = new Set();
  for (let turn = 0; turn < 400; turn++) {
    const shown = await checkTakCounts('6x6', true);
    checked.add(shown);
    const json = await serverBoard();
    const state = await serverState();
    const plies = state.moves.length;
    // The page has not drawn the latest move yet: check again once it has.
    if (shown < plies) { await page.waitForTimeout(20); continue; }
    if (state.over) break;
    if (state.view.to_move_seat !== 'p1') {
      await page.waitForFunction((k) => Number(document.getElementById('play-board').dataset.ply) > k
        || document.getElementById('status').textContent.startsWith('Game over'), plies);
      continue;
    }
    if (json.info.ply !== plies) continue;
    const legal = json.info.moves;
    const spread = legal.find((m) => m.from);
    if (spread && humanMoves % 4 === 3) {
      // Pick up (the page takes the most it may carry; one more click on the stack per
      // stone fewer), then one click per stone dropped.
      const cell = json.info.view.cells.flat().find((c) => c.sq === spread.from);
      const count = spread.drops.reduce((a, b) => a + b, 0);
      await page.click(`#play-board [data-sq="${spread.from}"]`);
      for (let i = Math.min(cell.stack.length, 6); i > count; i--) await page.click(`#play-board [data-sq="${spread.from}"]`);
      for (let i = 0; i < spread.to.length; i++) {
        for (let k = 0; k < spread.drops[i]; k++) await page.click(`#play-board [data-sq="${spread.to[i]}"]`);
      }
      spreads += 1;
    } else {
      // Flats along the first rank, then anywhere.
      const place = legal.filter((m) => m.kind === 'F');
      const pick = place.find((m) => m.to[0].endsWith('1')) || place[0];
      await page.click(`#play-board [data-sq="${pick.to[0]}"]`);
    }
    humanMoves += 1;
    await page.waitForFunction((k) => Number(document.getElementById('play-board').dataset.ply) > k
      || document.getElementById('refusal').textContent.length > 0, plies);
    const refused = await page.locator('#refusal').textContent();
    if (refused) check(false, `move ${humanMoves} by clicks was refused: ${refused}`);
    const after = await checkTakCounts('6x6', true);
    checked.add(after);
  }
  await page.waitForFunction(() => !document.getElementById('result').hidden);
  await ready();
  checked.add(await checkTakCounts('6x6 final position'));
  const final = await serverBoard();
  check(final.info.result !== null, `the 6x6 game ended: ${final.info.result.words}`);
  const record = (await serverState()).moves;
  // A position the page never showed: agon answered before the page could draw it (it
  // plays at once when it sees a forced win); anything else is a missed check.
  const missed = [...Array(final.info.ply + 1).keys()].filter((p) => !checked.has(p));
  const unexplained = missed.filter((p) => !(record[p] && record[p].side === 'p2' && (record[p].time_ms || 0) < 100));
  check(checked.has(final.info.ply) && unexplained.length === 0,
    `reserves, capstones and flat count matched the library and the TPS after ${checked.size} of ${final.info.ply + 1} positions `
    + `(${humanMoves} moves by clicks, ${spreads} of them spreads; not shown because agon answered within 100 ms: ${missed.join(',') || 'none'})`);
  check((await page.locator('#result').textContent()).startsWith(final.info.result.words), 'the page states the result in words');
  await shot('tak-6x6-final.png');

  // 6. Two engines on Halma 16x16 (camps marked) and on 5x5 k=4 with ticking clocks.
  await startGame('halma 16x16', 'agon-random', 'agon-random', 20);
  await waitForMoves(8);
  check(await page.locator('#play-board rect.camp1').count() === 19, 'halma 16x16 marks a 19-square camp for White');
  check(await page.locator('#play-board rect.camp2').count() === 19, 'and one for Black');
  await boardShot('board-halma-16x16.png');
  await stopGame();
  // agon-easy moves at once; agon, second, then thinks its whole 600 ms (too early in the
  // game for its solver to prove anything and move sooner).
  await startGame('mnk 5x5 k=4', 'agon-easy', 'agon', 600);
  await waitForMoves(1);
  const clock1 = await page.locator('#clocks .clock.running').textContent();
  await page.waitForTimeout(250);
  const clock2 = await page.locator('#clocks .clock.running').textContent();
  check(clock1 !== clock2 && /this move/.test(clock2), `the clock of the engine to move ticks ("${clock1}" then "${clock2}")`);
  await shot('clocks.png');
  await waitForMoves(6);
  check(await page.locator('#play-board [data-piece]').count() >= 6, 'agon-easy vs agon on 5x5: stones drawn');
  await boardShot('board-mnk-5x5.png');
  await stopGame();

  {
    // 6c. A game on a clock started from the page: two clocks counting down (m:ss, tenths
    // under 10 s), the one to move highlighted and ticking, the increment added after a
    // move; a person who lets the clock run out loses on time (the server decides).
    await startGame('tictactoe', 'human', 'agon', 0, '', '10+3');
    const left = (seat) => page.evaluate((s) => Number(document.getElementById(`clock-${s}`).dataset.leftMs), seat);
    // The clocks start once the engine is ready.
    await page.waitForSelector('#clock-p1.running');
    const texts = await page.locator('#clocks .clock').allTextContents();
    check(texts.length === 2 && texts.every((t) => /\d:\d\d/.test(t)), `a game on a clock shows two clocks (${texts.join('; ')})`);
    check(await page.locator('#clock-p1.running').count() === 1 && await page.locator('#clock-p2.running').count() === 0,
      'the clock of the side to move is highlighted');
    const [text1, left1] = [await page.locator('#clock-p1').textContent(), await left('p1')];
    await page.waitForTimeout(400);
    const [text2, left2] = [await page.locator('#clock-p1').textContent(), await left('p1')];
    check(left2 <= left1 - 300 && text1 !== text2 && await left('p2') === 10000,
      `the clock to move counts down ("${text1}" then "${text2}"), the other stands at 10 s`);
    const beforeMove = await left('p1');
    await page.click('#play-board [data-sq="b2"]');
    await waitForMoves(2);
    const record = (await serverState()).moves;
    const afterMove = record[0].clock_ms;
    await page.waitForFunction((ms) => Number(document.getElementById('clock-p1').dataset.leftMs) > ms, beforeMove + 2000);
    check(afterMove > beforeMove + 2000 && afterMove <= 13000,
      `the increment is added after a move: ${beforeMove} ms shown just before it, ${afterMove} ms after (10+3)`);
    check(record[1].clock_ms > 0 && record[1].clock_ms <= 13000, `agon's clock after its reply: ${record[1].clock_ms} ms`);
    await shot('clock-game.png');
    await stopGame();
    await startGame('tictactoe', 'human', 'human', 0, '', '1+0');
    await page.waitForFunction(() => /lost on time/.test(document.getElementById('result').textContent), null, { timeout: 5000 });
    const flagged = await page.locator('#result').textContent();
    check(/^O \(human\) wins: X \(human\) lost on time/.test(flagged), `a person who does not move loses on time: "${flagged}"`);
    check(await page.locator('#clock-p1.flagged').count() === 1 && await left('p1') === 0, 'the flagged clock shows 0 and is marked');
    await shot('clock-flagged.png');
  }

  // 7. Live: the running match's game and the standings.
  await page.click('#tab-live');
  await page.waitForSelector('#live-games .live-game svg', { timeout: 60000 });
  await page.waitForSelector('#live-folders table.standings');
  check(true, 'a game of the running match is shown live, with standings');
  await page.waitForFunction(() => [...document.querySelectorAll('#live-games .live-thinking')]
    .some((p) => /depth \d/.test(p.textContent)), null, { timeout: 30000 });
  const thinking = await page.evaluate(() => [...document.querySelectorAll('#live-games .live-thinking')]
    .map((p) => p.textContent).find((t) => /depth \d/.test(t)));
  check(true, `the engine's search in progress is shown live: "${thinking}"`);
  {
    // The running match is on a clock: each side's time left, the engine to move's
    // counting down between the match's updates.
    const read = () => page.evaluate(() => {
      const c = document.querySelector('#live-games .live-clock.running');
      if (!c) return null;
      const g = c.closest('.live-game');
      return { key: `${g.dataset.run}/${g.dataset.game}/${g.dataset.plies}/${c.dataset.seat}`, left: Number(c.dataset.leftMs),
        clocks: [...g.querySelectorAll('.live-clock')].map((x) => x.textContent) };
    });
    let ticked = null;
    for (let i = 0; i < 20 && !ticked; i++) {
      const a = await read();
      await page.waitForTimeout(300);
      const b = await read();
      if (a && b && a.key === b.key && b.left <= a.left - 150) ticked = [a, b];
    }
    check(ticked && ticked[1].clocks.length === 2 && ticked[1].clocks.every((t) => /\d:\d\d/.test(t)),
      `the live view counts the clock of the engine to move down: ${ticked ? `${ticked[0].left} ms then ${ticked[1].left} ms (${ticked[1].clocks.join('; ')})` : 'never'}`);
  }
  await page.screenshot({ path: join(artifacts, 'live.png'), fullPage: true });

  {
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
  }


  // 8. Replay: games by number, a page at a time, filtered; the board in view; keys.
  await page.click('#tab-replay');
  await page.waitForFunction((j) => [...document.querySelectorAll('#journal option')].some((o) => o.value === j), manyJournal);
  await page.selectOption('#journal', manyJournal);
  await page.waitForFunction(() => /page 1 of [2-9]/.test(document.getElementById('page-label').textContent));
  const numbers = await page.evaluate(() => [...document.querySelectorAll('#journal-games tr.clickable')].map((r) => Number(r.dataset.game)));
  check(numbers.length === 12 && numbers.every((n, i) => n === i + 1), `page 1 lists games 1 to 12 by number (${numbers.join(',')})`);
  await page.click('#page-next');
  const page2 = await page.evaluate(() => [...document.querySelectorAll('#journal-games tr.clickable')].map((r) => Number(r.dataset.game)));
  check(page2[0] === 13, `page 2 starts at game 13 (${page2.join(',')})`);
  // Which results the journal holds, read from the file itself (30 games of two random
  // movers: which side wins none of them depends on the openings), and the filter shows
  // those games and no other (its first page: at most 12).
  const inFile = readFileSync(manyJournal, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l).result);
  const wanted = ['0-1', '1-0', '1/2-1/2'].find((r) => inFile.includes(r));
  const expected = inFile.filter((r) => r === wanted).length;
  await page.selectOption('#filter-result', wanted);
  const results = await page.evaluate(() => [...document.querySelectorAll('#journal-games tr.clickable')].map((r) => r.cells[3].textContent));
  check(results.length === Math.min(expected, 12) && results.every((r) => r === wanted), `the result filter keeps the ${expected} games ending ${wanted} (${results.length} on its first page)`);
  await page.selectOption('#filter-result', '');
  await page.selectOption('#filter-engine', 'random-b');
  const engines = await page.evaluate(() => [...document.querySelectorAll('#journal-games tr.clickable')].map((r) => [r.cells[1].textContent, r.cells[2].textContent]));
  check(engines.length > 0 && engines.every((e) => e.includes('random-b')), 'the engine filter keeps that engine\'s games');
  await page.selectOption('#filter-engine', '');
  await page.click('#journal-games tr.clickable >> nth=0');
  await page.waitForSelector('#replay-board svg');
  check((await page.locator('#ply-label').textContent()).startsWith('ply 0 of'), 'the replay opens at the start');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.getElementById('ply-label').textContent.startsWith('ply 1 of'));
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.getElementById('ply-label').textContent.startsWith('ply 2 of'));
  await page.keyboard.press('End');
  await page.waitForFunction(() => { const t = document.getElementById('ply-label').textContent.match(/ply (\d+) of (\d+)/); return t && t[1] === t[2]; });
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.getElementById('ply-label').textContent.startsWith('ply 0 of'));
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => /^Game 2:/.test(document.getElementById('replay-title').textContent));
  check(true, 'arrows, Home and End step through the game; down opens the next game');
  await page.keyboard.press('f');
  check((await page.getAttribute('#replay-board svg', 'data-flipped')) === 'true', 'f flips the replay board');
  await page.keyboard.press('f');
  const boardBox = await page.locator('#replay-board svg').boundingBox();
  check(boardBox.y + boardBox.height <= 900, `the replay board is in view (bottom at ${Math.round(boardBox.y + boardBox.height)} px of 900)`);
  await page.keyboard.press('End');
  await page.waitForFunction(() => { const t = document.getElementById('ply-label').textContent.match(/ply (\d+) of (\d+)/); return t && t[1] === t[2]; });
  const clocks = await page.locator('#replay-clocks .clock').allTextContents();
  check(clocks.length === 2 && clocks.every((c) => /\d:\d\d\.\d left$/.test(c)), `the replay shows each side's clock after its last move (${clocks.join('; ')})`);
  await shot('replay-list.png');
  // The Clobber journal's statistics per ply.
  await page.selectOption('#journal', journal);
  await page.waitForFunction(() => /page 1 of 1/.test(document.getElementById('page-label').textContent));
  await page.click('#journal-games tr.clickable >> nth=0');
  await page.waitForFunction(() => document.getElementById('ply-label').textContent.startsWith('ply 0 of'));
  await page.click('#next');
  await page.waitForFunction(() => document.getElementById('ply-label').textContent.startsWith('ply 1 of'));
  await page.click('#next');
  await page.waitForFunction(() => document.getElementById('ply-label').textContent.startsWith('ply 2 of'));
  const current = await page.locator('#replay-moves tr.current td').allTextContents();
  check(current[0] === '2' && Number(current[5]) > 0, `ply 2's statistics are highlighted (${current.join(' | ')})`);
  check(await page.locator('#replay-board rect.last').count() === 1, 'the replayed last move is marked');
  await shot('replay.png');

  // 9. The report of the journal, from the page's link.
  const [report] = await Promise.all([context.waitForEvent('page'), page.click('#report-link')]);
  await report.waitForLoadState();
  const text = await report.textContent('body');
  check(/Nodes per move/.test(text) && /Standings/.test(text), 'the report opens from the page');
  check(await report.locator('svg').count() >= 4, 'the report has its charts');
  await report.screenshot({ path: join(artifacts, 'report.png'), fullPage: true });

  {
    // 10. A page of another origin (a second loopback port) cannot start a game: not by
    // fetch (text/plain, sent without a preflight), not by JSON with a guessed token, not
    // by a form post; nor read the token.
    await stopGame();
    const sessions = async () => (await (await fetch(`${base}api/config`)).json()).sessions;
    const sessionsBefore = await sessions();
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
  check(after <= sessionsBefore, `no game started from another origin (games in progress: ${sessionsBefore} before, ${after} after)`);
  }

  check(pageErrors.length === 0, `no script errors (${pageErrors.join('; ')})`);
  check(iconFailures.length === 0, `every icon request of the browser succeeded (${iconFailures.join('; ')})`);
  await context.close();
  console.log(`all browser checks passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} catch (e) {
  console.error(String(e && e.stack ? e.stack : e));
  try { await page.screenshot({ path: join(artifacts, 'failure.png'), fullPage: true }); } catch (_) { /* ignore */ }
  await context.close();
  process.exit(1);
}
