// The arena's web page: plays and watches games through the server's JSON API; updates
// arrive as server-sent events (a game's at /api/play/<id>/events, the watched folders'
// at /api/live/events).
// Boards are drawn from the server's board view (rows of cells); legality always comes
// from the server, which uses the same rules library as the referee.
'use strict';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';

// The server's secret, which every request that changes something carries.
const TOKEN = (document.querySelector('meta[name="agon-token"]') || {}).content || '';

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Agon-Token': TOKEN },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  let data = null;
  try { data = await response.json(); } catch (e) { data = { error: `HTTP ${response.status}` }; }
  if (!response.ok) throw new Error(data && data.error ? data.error : `HTTP ${response.status}`);
  return data;
}

// ---- tabs ----
let activeTab = 'play';
for (const button of document.querySelectorAll('.tab')) {
  button.addEventListener('click', () => showTab(button.dataset.tab));
}
function showTab(name) {
  activeTab = name;
  if (name !== 'live') stopLive();
  for (const b of document.querySelectorAll('.tab')) b.classList.toggle('active', b.dataset.tab === name);
  for (const p of document.querySelectorAll('.panel')) p.classList.toggle('active', p.id === name);
  if (name === 'replay') loadJournals();
  if (name === 'live') refreshLive();
}

// ---- drawing ----
const COLOURS = { x: '#222', o: '#fafafa', w: '#fafafa', b: '#222', '1': '#f4efe4', '2': '#3b3b3b' };

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// Draws `view` into `container`; `marks` maps square names to a CSS class; `onClick(sq)`.
function drawBoard(container, view, marks, onClick, maxPx) {
  const rows = view.cells.length;
  const cols = rows ? view.cells[0].length : 0;
  const size = Math.max(14, Math.min(64, Math.floor((maxPx || 560) / Math.max(rows, cols, 1))));
  const margin = 18;
  const svg = el('svg', { width: cols * size + margin, height: rows * size + margin, 'data-game': view.game });
  view.cells.forEach((row, r) => row.forEach((cell, c) => {
    const x = margin + c * size, y = r * size;
    const cls = ['sq'];
    if (cell.camp) cls.push(cell.camp === 'p1' ? 'camp1' : 'camp2');
    if (marks && marks[cell.sq]) cls.push(marks[cell.sq]);
    const g = el('g', { 'data-sq': cell.sq, class: 'cell' }, svg);
    el('rect', { x, y, width: size, height: size, class: cls.join(' '), fill: cls.length > 1 ? '' : '#e8d9b5' }, g);
    drawPieces(g, view.game, cell, x, y, size);
    if (onClick) g.addEventListener('click', () => onClick(cell.sq));
  }));
  for (let c = 0; c < cols; c++) {
    el('text', { x: margin + c * size + size / 2, y: rows * size + 13, 'font-size': 11, 'text-anchor': 'middle' }, svg)
      .textContent = String.fromCharCode(97 + c);
  }
  for (let r = 0; r < rows; r++) {
    el('text', { x: 8, y: r * size + size / 2 + 4, 'font-size': 11, 'text-anchor': 'middle' }, svg)
      .textContent = String(rows - r);
  }
  container.replaceChildren(svg);
}

function drawPieces(g, game, cell, x, y, size) {
  if (!cell.stack) return;
  const cx = x + size / 2, cy = y + size / 2;
  if (game === 'tak') {
    drawStack(g, cell, x, y, size);
    return;
  }
  const piece = cell.stack;
  if (game === 'mnk') {
    const t = el('text', { x: cx, y: cy + size * 0.2, 'font-size': size * 0.6, 'text-anchor': 'middle',
      'font-weight': 'bold', fill: piece === 'x' ? '#c0392b' : '#1f5fa8', class: 'piece', 'data-piece': piece }, g);
    t.textContent = piece.toUpperCase();
    return;
  }
  el('circle', { cx, cy, r: size * 0.36, fill: COLOURS[piece] || '#888', stroke: '#333',
    'stroke-width': 1.2, class: 'piece', 'data-piece': piece }, g);
}

// A Tak stack: the pieces below as thin layers, the top piece as flat, wall or capstone,
// and the height when above one.
function drawStack(g, cell, x, y, size) {
  const pieces = cell.stack.split('');
  const layer = Math.max(2, size * 0.06);
  const shown = pieces.slice(-8);
  shown.slice(0, -1).forEach((p, i) => {
    el('rect', { x: x + size * 0.12, y: y + size * 0.86 - (i + 1) * layer, width: size * 0.76, height: layer,
      fill: COLOURS[p], stroke: '#333', 'stroke-width': 0.6 }, g);
  });
  const top = pieces[pieces.length - 1];
  const base = y + size * 0.86 - shown.length * layer;
  const fill = COLOURS[top];
  const attrs = { class: 'piece', 'data-piece': top + (cell.top || 'F'), fill, stroke: '#333', 'stroke-width': 1.2 };
  if (cell.top === 'C') {
    el('circle', { ...attrs, cx: x + size / 2, cy: base - size * 0.2, r: size * 0.22 }, g);
  } else if (cell.top === 'S') {
    el('rect', { ...attrs, x: x + size * 0.42, y: base - size * 0.5, width: size * 0.16, height: size * 0.5 }, g);
  } else {
    el('rect', { ...attrs, x: x + size * 0.2, y: base - size * 0.3, width: size * 0.6, height: size * 0.3 }, g);
  }
  if (pieces.length > 1) {
    el('text', { x: x + size - 4, y: y + 11, 'font-size': 10, 'text-anchor': 'end' }, g).textContent = String(pieces.length);
  }
}

function scoreText(s) {
  if (!s) return '';
  if (s.cp !== undefined) return (s.cp >= 0 ? '+' : '') + (s.cp / 100).toFixed(2);
  if (s.win !== undefined) return `win in ${s.win}`;
  if (s.loss !== undefined) return `loss in ${s.loss}`;
  return JSON.stringify(s);
}
const fmt = (v) => (v === undefined || v === null ? '' : String(v));

// ---- play ----
let config = null;
let session = null;     // the latest state
let gameEvents = null;  // the EventSource of the game shown
let selection = null;   // clobber/halma: a square; tak: a pick-up in progress

async function loadConfig() {
  config = await api('/api/config');
  const games = $('game-name');
  const presets = [
    ['tictactoe', 'mnk', { m: 3, n: 3, k: 3 }], ['mnk 5x5 k=4', 'mnk', { m: 5, n: 5, k: 4 }],
    ['gomoku 15x15', 'mnk', { m: 15, n: 15, k: 5 }], ['clobber 5x6', 'clobber', { rows: 5, cols: 6 }],
    ['halma 16x16', 'halma', { size: 16 }], ['halma 8x8', 'halma', { size: 8 }],
    ['tak 5x5', 'tak', { size: 5 }], ['tak 6x6', 'tak', { size: 6 }], ['tak 4x4 line of four', 'tak', { size: 4, line: 1 }],
  ];
  for (const [label, name, params] of presets) {
    const o = document.createElement('option');
    o.value = JSON.stringify({ name, params });
    o.textContent = label;
    games.appendChild(o);
  }
  games.addEventListener('change', showParams);
  showParams();
  for (const id of ['p1', 'p2']) {
    const s = $(id);
    for (const name of ['human', ...config.engines]) {
      const o = document.createElement('option');
      o.value = name; o.textContent = name; s.appendChild(o);
    }
  }
  $('p2').value = config.engines[0] || 'human';
}

function showParams() {
  const { name, params } = JSON.parse($('game-name').value);
  const game = config.games.find((g) => g.name === name);
  const box = $('game-params');
  box.replaceChildren();
  for (const p of game.params) {
    const label = document.createElement('label');
    label.textContent = `${p.key} `;
    label.title = p.doc;
    const input = document.createElement('input');
    input.type = 'number'; input.min = p.min; input.max = p.max; input.style.width = '4em';
    input.value = params[p.key] !== undefined ? params[p.key] : p.default;
    input.dataset.key = p.key;
    label.appendChild(input);
    box.appendChild(label);
  }
}

function gameSpec() {
  const { name } = JSON.parse($('game-name').value);
  const params = [...$('game-params').querySelectorAll('input')].map((i) => `${i.dataset.key}=${i.value}`);
  return [name, ...params].join(' ');
}

$('new-game').addEventListener('submit', async (event) => {
  event.preventDefault();
  $('form-error').textContent = '';
  if (session && !session.over) await api(`/api/play/${session.id}/stop`, {}).catch(() => {});
  try {
    session = await api('/api/play', {
      game: gameSpec(), position: $('game-position').value, p1: $('p1').value, p2: $('p2').value,
      movetime_ms: Number($('movetime').value),
    });
  } catch (e) {
    $('form-error').textContent = e.message;
    return;
  }
  selection = null;
  $('stop').disabled = false;
  renderSession();
  follow(session.id);
});

$('stop').addEventListener('click', async () => {
  if (session) session = await api(`/api/play/${session.id}/stop`, {}).catch(() => session);
  renderSession();
});

// Follows game `id`: every change comes as a `state` event; the server ends the stream
// after the state that says the game is over.
function follow(id) {
  if (gameEvents) gameEvents.close();
  gameEvents = null;
  if (session.over) return;
  const events = new EventSource(`/api/play/${id}/events`);
  gameEvents = events;
  events.addEventListener('state', (event) => {
    // A new game started since: this one's events are stale.
    if (!session || session.id !== id) { events.close(); return; }
    const next = JSON.parse(event.data);
    if (next.over) { events.close(); if (gameEvents === events) gameEvents = null; }
    session = next;
    renderSession();
  });
  events.addEventListener('error', () => {
    if (events.readyState !== EventSource.CLOSED || gameEvents !== events) return;
    gameEvents = null;
    if (session && session.id === id && !session.over) $('status').textContent = 'lost the game: the server closed its updates';
  });
}

function renderSession() {
  const s = session;
  const v = s.view;
  $('players').textContent = `${v.sides[0]}: ${s.players[0]}   vs   ${v.sides[1]}: ${s.players[1]}`;
  $('status').textContent = s.over ? `Game over: ${s.over[0]} (${s.over[1]})` : s.status;
  $('stop').disabled = !!s.over;
  $('tak-controls').hidden = v.game !== 'tak';
  const marks = {};
  const last = s.moves[s.moves.length - 1];
  if (last) for (const sq of squaresOf(last.mv)) marks[sq] = 'last';
  if (selection) marks[selection.from] = 'sel';
  if (selection && selection.path) for (const sq of selection.path) marks[sq] = 'sel';
  drawBoard($('play-board'), v, marks, clickSquare);
  $('play-board').dataset.session = String(s.id);
  const list = $('moves');
  list.replaceChildren(...s.moves.map((m) => {
    const li = document.createElement('li');
    li.textContent = m.mv;
    li.title = m.depth !== undefined ? `depth ${m.depth}, score ${scoreText(m.score)}, ${fmt(m.nodes)} nodes, ${fmt(m.time_ms)} ms` : '';
    return li;
  }));
  const t = s.thinking || [...s.moves].reverse().find((m) => m.depth !== undefined || m.nodes !== undefined);
  const rows = $('thinking').rows;
  while (rows.length > 1) $('thinking').deleteRow(1);
  const row = $('thinking').insertRow();
  if (t) {
    for (const value of [t.depth, typeof t.score === 'string' ? t.score : scoreText(t.score), t.nodes, t.nps,
      t.elapsed_ms !== undefined ? t.elapsed_ms : t.time_ms]) {
      row.insertCell().textContent = fmt(value);
    }
    $('pv').textContent = t.pv && t.pv.length ? `pv ${t.pv.join(' ')}` : '';
    $('thinking').dataset.state = s.thinking ? 'thinking' : 'done';
  } else {
    const cell = row.insertCell(); cell.colSpan = 5; cell.textContent = 'idle';
    $('pv').textContent = '';
  }
  renderCarry();
}

// The squares a move touches, for highlighting (any game: every square name in the text).
function squaresOf(text) {
  return (text.match(/[a-z][0-9]+/g) || []);
}

function humanToMove() {
  if (!session || session.over) return false;
  return session.human[session.view.to_move_seat === 'p1' ? 0 : 1];
}

function refuse(message) {
  $('refusal').textContent = message;
}

async function submitMove(text) {
  selection = null;
  refuse('');
  try {
    const answer = await api(`/api/play/${session.id}/move`, { move: text });
    session = answer.state;
  } catch (e) {
    refuse(`Refused: ${e.message}`);
  }
  renderSession();
}

function cellOf(sq) {
  for (const row of session.view.cells) for (const c of row) if (c.sq === sq) return c;
  return null;
}

function clickSquare(sq) {
  if (!session) return;
  if (session.over) { refuse('The game is over.'); return; }
  if (!humanToMove()) { refuse('Wait: it is the engine\'s turn.'); return; }
  refuse('');
  const game = session.view.game;
  if (game === 'mnk') { submitMove(sq); return; }
  if (game === 'clobber' || game === 'halma') {
    if (!selection) { selection = { from: sq }; renderSession(); return; }
    if (selection.from === sq) { selection = null; renderSession(); return; }
    submitMove(`${selection.from}-${sq}`);
    return;
  }
  takClick(sq);
}

// Tak by clicks: an empty square takes the chosen piece; a stack is picked up (the carry
// limit's worth, change it with +/-), then each click on the next square of a straight
// line drops one piece (click the same square again to drop more there).
function takClick(sq) {
  const cell = cellOf(sq);
  const size = session.view.cells.length;
  if (!selection) {
    if (!cell.stack) {
      const kind = document.querySelector('input[name=piece]:checked').value;
      submitMove(kind + sq);
      return;
    }
    selection = { from: sq, carry: Math.min(cell.stack.length, size), drops: [], path: [], dir: null };
    renderSession();
    return;
  }
  const sel = selection;
  const cur = sel.path.length ? sel.path[sel.path.length - 1] : sel.from;
  if (sq === sel.from && sel.drops.length === 0) { selection = null; renderSession(); return; }
  if (sq === cur && sel.drops.length > 0) {
    sel.drops[sel.drops.length - 1] += 1;
  } else {
    const step = direction(cur, sq);
    if (!step || (sel.dir && step !== sel.dir)) {
      refuse(`Refused: drop on the next square in a straight line from ${cur}`);
      return;
    }
    sel.dir = step;
    sel.path.push(sq);
    sel.drops.push(1);
  }
  const dropped = sel.drops.reduce((a, b) => a + b, 0);
  if (dropped >= sel.carry) {
    const drops = sel.drops.length > 1 ? sel.drops.join('') : '';
    submitMove(`${sel.carry}${sel.from}${sel.dir}${drops}`);
    return;
  }
  renderSession();
}

function direction(from, to) {
  const f = [from.charCodeAt(0), Number(from.slice(1))];
  const t = [to.charCodeAt(0), Number(to.slice(1))];
  if (f[0] === t[0] && t[1] === f[1] + 1) return '+';
  if (f[0] === t[0] && t[1] === f[1] - 1) return '-';
  if (f[1] === t[1] && t[0] === f[0] + 1) return '>';
  if (f[1] === t[1] && t[0] === f[0] - 1) return '<';
  return null;
}

function renderCarry() {
  const box = $('tak-carry');
  box.replaceChildren();
  if (!selection || session.view.game !== 'tak') return;
  const sel = selection;
  box.append(`Carrying ${sel.carry} from ${sel.from}` + (sel.drops.length ? `, dropped ${sel.drops.join(',')} ` : ' '));
  if (!sel.drops.length) {
    const height = cellOf(sel.from).stack.length;
    for (const [label, delta] of [['−', -1], ['+', 1]]) {
      const b = document.createElement('button');
      b.textContent = label; b.type = 'button';
      b.addEventListener('click', () => {
        sel.carry = Math.max(1, Math.min(sel.carry + delta, height, session.view.cells.length));
        renderSession();
      });
      box.append(b);
    }
  }
  const cancel = document.createElement('button');
  cancel.type = 'button'; cancel.textContent = 'cancel';
  cancel.addEventListener('click', () => { selection = null; renderSession(); });
  box.append(cancel);
}

$('move-form').addEventListener('submit', (event) => {
  event.preventDefault();
  if (!session) return;
  const text = $('move-text').value.trim();
  if (text) submitMove(text);
  $('move-text').value = '';
});
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && selection) { selection = null; renderSession(); }
});

// ---- live ----
let liveEvents = null;
// While the live tab is shown, the server pushes a `live` event whenever a watched
// folder changes (and tells the matches there to publish their games).
function refreshLive() {
  if (activeTab !== 'live' || liveEvents) return;
  liveEvents = new EventSource('/api/live/events');
  liveEvents.addEventListener('live', (event) => renderLive(JSON.parse(event.data)));
  liveEvents.addEventListener('error', () => {
    if (liveEvents && liveEvents.readyState === EventSource.CLOSED) {
      $('live-folders').textContent = 'the server closed the live updates';
      liveEvents = null;
    }
  });
}
function stopLive() {
  if (liveEvents) liveEvents.close();
  liveEvents = null;
}

function renderLive(data) {
  const folders = $('live-folders');
  folders.replaceChildren(...data.folders.map((f) => {
    const div = document.createElement('div');
    const h = document.createElement('h3');
    h.textContent = f.exists === false ? `${f.dir}: does not exist yet; waiting for it` : `${f.dir}: ${f.games} games finished`;
    div.append(h, standingsTable(f.standings));
    return div;
  }));
  if (!data.folders.length) folders.textContent = 'No folder is watched: start the server with --watch OUT.';
  const games = $('live-games');
  games.replaceChildren(...data.games.map((g) => {
    const div = document.createElement('div');
    div.className = 'live-game';
    div.dataset.dir = g.dir;
    div.dataset.run = g.live.run;
    div.dataset.game = g.live.game;
    div.dataset.plies = g.live.moves.length;
    div.dataset.movedMs = g.live.moved_unix_ms;
    const title = document.createElement('p');
    const last = g.live.moves[g.live.moves.length - 1];
    title.textContent = `game ${g.live.game + 1}: ${g.live.p1} vs ${g.live.p2}, ${g.live.spec}, ply ${g.live.moves.length}` +
      (last && last.depth !== undefined ? `, last ${last.mv} (depth ${last.depth}, ${fmt(last.nodes)} nodes, ${scoreText(last.score)})` : '');
    const board = document.createElement('div');
    board.className = 'board';
    if (g.view) drawBoard(board, g.view, last ? Object.fromEntries(squaresOf(last.mv).map((s) => [s, 'last'])) : {}, null, 320);
    else board.textContent = g.error;
    const info = document.createElement('p');
    info.className = 'live-thinking';
    const t = g.live.thinking;
    if (t) {
      info.textContent = `${t.seat} thinking ${fmt(t.elapsed_ms)} ms: depth ${fmt(t.depth)}, score ${fmt(t.score)}, ` +
        `${fmt(t.nodes)} nodes, ${fmt(t.nps)} nps` + (t.pv && t.pv.length ? `, pv ${t.pv.join(' ')}` : '') + ` (${t.lines} info lines)`;
    }
    div.append(title, info, board);
    return div;
  }));
}

function standingsTable(rows) {
  const table = document.createElement('table');
  table.className = 'stats standings';
  table.insertRow().innerHTML = '<th>engine</th><th>games</th><th>W</th><th>D</th><th>L</th><th>score</th><th>Elo ± 95%</th>';
  for (const r of rows) {
    const tr = table.insertRow();
    const elo = r.elo === null ? '' : typeof r.elo === 'number' ? `${r.elo >= 0 ? '+' : ''}${r.elo.toFixed(1)}` + (r.error !== null ? ` ± ${r.error.toFixed(1)}` : '') : r.elo;
    for (const v of [r.engine, r.games, r.wins, r.draws, r.losses, `${(100 * r.score).toFixed(1)}%`, elo]) tr.insertCell().textContent = v;
  }
  return table;
}

// ---- replay ----
let replayGame = null; // { path, index, record, ply }

async function loadJournals() {
  const data = await api('/api/journals');
  const select = $('journal');
  const keep = select.value;
  select.replaceChildren(...data.journals.map((j) => {
    const o = document.createElement('option');
    o.value = j.path; o.textContent = `${j.path} (${j.games} games)`;
    return o;
  }));
  if (keep && data.journals.some((j) => j.path === keep)) select.value = keep;
  if (select.value) loadJournal();
  else $('journal-games').textContent = 'No journal: start the server with --watch OUT or --journal FILE.';
}
$('journal').addEventListener('change', loadJournal);

async function loadJournal() {
  const path = $('journal').value;
  $('report-link').href = `/report?path=${encodeURIComponent(path)}`;
  const data = await api(`/api/journal?path=${encodeURIComponent(path)}`);
  $('journal-standings').replaceChildren(standingsTable(data.standings));
  const table = $('journal-games');
  table.replaceChildren();
  table.insertRow().innerHTML = '<th>#</th><th>first</th><th>second</th><th>result</th><th>plies</th><th>how it ended</th>';
  for (const g of data.games) {
    const tr = table.insertRow();
    tr.className = 'clickable';
    tr.dataset.index = g.index;
    for (const v of [g.game + 1, g.p1, g.p2, g.result, g.plies, g.reason]) tr.insertCell().textContent = v;
    tr.addEventListener('click', () => openReplay(path, g.index, 0));
  }
}

async function openReplay(path, index, ply) {
  const data = await api(`/api/replay?path=${encodeURIComponent(path)}&game=${index}&ply=${ply}`);
  replayGame = { path, index, record: data.record, ply: data.ply };
  const r = data.record;
  $('replay-title').textContent = `${r.p1.name} vs ${r.p2.name}, ${r.spec}: ${r.result} (${r.reason})`;
  $('ply').max = r.moves.length;
  $('ply').value = data.ply;
  $('ply-label').textContent = `ply ${data.ply} of ${r.moves.length}`;
  const last = r.moves[data.ply - 1];
  drawBoard($('replay-board'), data.view, last ? Object.fromEntries(squaresOf(last.mv).map((s) => [s, 'last'])) : {}, null);
  const table = $('replay-moves');
  table.replaceChildren();
  table.insertRow().innerHTML = '<th>ply</th><th>side</th><th>move</th><th>depth</th><th>score</th><th>nodes</th><th>ms</th><th>nps</th>';
  r.moves.forEach((m, i) => {
    const tr = table.insertRow();
    tr.className = 'clickable' + (i + 1 === data.ply ? ' current' : '');
    for (const v of [m.ply, m.side, m.mv + (m.book ? ' (book)' : ''), m.depth, scoreText(m.score), m.nodes, m.time_ms, m.nps]) tr.insertCell().textContent = fmt(v);
    tr.addEventListener('click', () => openReplay(path, index, i + 1));
  });
}
const step = (to) => { if (replayGame) openReplay(replayGame.path, replayGame.index, Math.max(0, Math.min(to(replayGame), replayGame.record.moves.length))); };
$('first').addEventListener('click', () => step(() => 0));
$('prev').addEventListener('click', () => step((g) => g.ply - 1));
$('next').addEventListener('click', () => step((g) => g.ply + 1));
$('last').addEventListener('click', () => step((g) => g.record.moves.length));
$('ply').addEventListener('input', () => step(() => Number($('ply').value)));

loadConfig().catch((e) => { $('form-error').textContent = `cannot load the configuration: ${e.message}`; });
