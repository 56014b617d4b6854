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
const EDGE = { '1': '#555', '2': '#d8d8d8' };

// How a game's board is drawn, as the game itself says (GET /api/config): squares in two
// shades or not, pieces as letters, discs or stacks, the kinds a placement may have.
const PLAIN = { checkered: false, pieces: 'discs', kinds: [] };
function styleOf(view) {
  const game = config && config.games.find((g) => g.name === view.game);
  return game ? game.style : PLAIN;
}
let flipped = false;

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// Draws `view` into `container`. `marks` maps square names to CSS classes; `onClick(sq)`
// is called for a click on a square. `opts`: `dots` (squares to mark as legal
// destinations), `badges` (square -> a number drawn in its corner), `line` (squares joined
// by the winning line), `onDrag(from, to)`, `onHover(sq)`, `flip`.
function drawBoard(container, view, marks, onClick, maxPx, opts) {
  opts = opts || {};
  const flip = opts.flip !== undefined ? opts.flip : false;
  const rows = view.cells.length;
  const cols = rows ? view.cells[0].length : 0;
  const style = styleOf(view);
  const cap = style.pieces === 'stacks' ? 96 : 88;
  const size = Math.max(14, Math.min(cap, Math.floor((maxPx || 560) / Math.max(rows, cols, 1))));
  const margin = 18;
  const svg = el('svg', { width: cols * size + margin, height: rows * size + margin, 'data-game': view.game,
    'data-flipped': String(flip) });
  const place = (r, c) => [margin + (flip ? cols - 1 - c : c) * size, (flip ? rows - 1 - r : r) * size];
  const centre = {};
  view.cells.forEach((row, r) => row.forEach((cell, c) => {
    const [x, y] = place(r, c);
    centre[cell.sq] = [x + size / 2, y + size / 2];
    const cls = ['sq'];
    if ((r + c) % 2 === 1 && style.checkered) cls.push('dark');
    if (cell.camp) cls.push(cell.camp === 'p1' ? 'camp1' : 'camp2');
    if (marks && marks[cell.sq]) cls.push(marks[cell.sq]);
    const g = el('g', { 'data-sq': cell.sq, class: 'cell' }, svg);
    el('rect', { x, y, width: size, height: size, class: cls.join(' ') }, g);
    drawPieces(g, style, view, cell, x, y, size);
    if (opts.dots && opts.dots.has(cell.sq)) {
      if (cell.stack && style.pieces !== 'stacks') {
        el('circle', { cx: x + size / 2, cy: y + size / 2, r: size * 0.44, class: 'capture', 'stroke-width': Math.max(2, size * 0.07), 'data-dest': cell.sq }, g);
      } else {
        el('circle', { cx: x + size / 2, cy: y + size / 2, r: Math.max(3, size * 0.14), class: 'dest', 'data-dest': cell.sq }, g);
      }
    }
    if (opts.badges && opts.badges[cell.sq] !== undefined) {
      el('circle', { cx: x + size * 0.2, cy: y + size * 0.2, r: size * 0.15, class: 'badge' }, g);
      el('text', { x: x + size * 0.2, y: y + size * 0.2 + size * 0.07, 'font-size': size * 0.2, 'text-anchor': 'middle',
        class: 'badge-text', 'data-badge': String(opts.badges[cell.sq]) }, g).textContent = String(opts.badges[cell.sq]);
    }
    if (onClick || opts.onDrag) {
      g.addEventListener('pointerdown', (e) => { pointerFrom = { sq: cell.sq, x: e.clientX, y: e.clientY, svg }; });
      g.addEventListener('pointerup', () => {
        const from = pointerFrom;
        pointerFrom = null;
        svg.classList.remove('dragging');
        if (from && from.sq !== cell.sq && opts.onDrag) opts.onDrag(from.sq, cell.sq);
        else if (onClick) onClick(cell.sq);
      });
    }
    if (opts.onHover) g.addEventListener('pointerenter', () => opts.onHover(cell.sq));
  }));
  if (opts.hops && opts.hops.length > 1) {
    const points = opts.hops.map((sq) => centre[sq]).filter(Boolean).map((p) => p.join(',')).join(' ');
    el('polyline', { points, class: 'hops', 'data-hops': opts.hops.join(' ') }, svg);
  }
  svg.centre = centre;
  if (opts.line && opts.line.length > 1) {
    const points = opts.line.map((sq) => centre[sq]).filter(Boolean).map((p) => p.join(',')).join(' ');
    el('polyline', { points, class: 'winline', 'data-line': opts.line.join(' ') }, svg);
  }
  // Dragging: the piece follows the pointer and its legal destinations are dotted.
  svg.addEventListener('pointermove', (e) => {
    if (!pointerFrom || pointerFrom.svg !== svg || !opts.onDrag) return;
    const dx = e.clientX - pointerFrom.x, dy = e.clientY - pointerFrom.y;
    if (!pointerFrom.ghost) {
      if (Math.hypot(dx, dy) <= 6) return;
      const source = svg.querySelector(`g[data-sq="${pointerFrom.sq}"]`);
      const pieces = source ? [...source.querySelectorAll('.piece, .layer')] : [];
      if (!pieces.length) return;
      svg.classList.add('dragging');
      const ghost = el('g', { class: 'ghost' }, svg);
      for (const p of pieces) ghost.appendChild(p.cloneNode(true));
      for (const sq of (opts.dragTargets ? opts.dragTargets(pointerFrom.sq) : [])) {
        if (centre[sq]) el('circle', { cx: centre[sq][0], cy: centre[sq][1], r: Math.max(3, size * 0.14), class: 'dest drag-dest', 'data-drag-dest': sq }, svg);
      }
      pointerFrom.ghost = ghost;
    }
    pointerFrom.ghost.setAttribute('transform', `translate(${dx} ${dy})`);
  });
  for (let c = 0; c < cols; c++) {
    el('text', { x: margin + c * size + size / 2, y: rows * size + 13, 'font-size': 11, 'text-anchor': 'middle' }, svg)
      .textContent = String.fromCharCode(97 + (flip ? cols - 1 - c : c));
  }
  for (let r = 0; r < rows; r++) {
    el('text', { x: 8, y: r * size + size / 2 + 4, 'font-size': 11, 'text-anchor': 'middle' }, svg)
      .textContent = String(flip ? r + 1 : rows - r);
  }
  container.replaceChildren(svg);
}
let pointerFrom = null;
document.addEventListener('pointerup', () => {
  const from = pointerFrom;
  setTimeout(() => {
    if (from && from.ghost) {
      from.ghost.remove();
      for (const d of from.svg.querySelectorAll('.drag-dest')) d.remove();
      from.svg.classList.remove('dragging');
    }
    if (pointerFrom === from) pointerFrom = null;
  }, 0);
});

function drawPieces(g, style, view, cell, x, y, size) {
  if (!cell.stack) return;
  const cx = x + size / 2, cy = y + size / 2;
  if (style.pieces === 'stacks') {
    drawStack(g, cell, x, y, size);
    return;
  }
  const piece = cell.stack;
  if (style.pieces === 'letters') {
    const first = piece === String(view.sides[0]).toLowerCase();
    const t = el('text', { x: cx, y: cy + size * 0.2, 'font-size': size * 0.6, 'text-anchor': 'middle',
      'font-weight': 'bold', fill: first ? '#c0392b' : '#1f5fa8', class: 'piece', 'data-piece': piece }, g);
    t.textContent = piece.toUpperCase();
    return;
  }
  el('circle', { cx, cy, r: size * 0.36, fill: COLOURS[piece] || '#888', stroke: '#333',
    'stroke-width': 1.2, class: 'piece', 'data-piece': piece }, g);
}

// A Tak stack, PTN Ninja style: every stone below the top as a full-width band in its
// colour with a contrasting edge (the top 8 of them; "+k" counts the ones not drawn), the
// top piece as a flat, wall or capstone above them, and the height in the corner.
function drawStack(g, cell, x, y, size) {
  const pieces = cell.stack.split('');
  const below = pieces.slice(0, -1);
  const shown = below.slice(-8);
  const hidden = below.length - shown.length;
  // Bands as thick as fit under the top piece inside the square.
  const topHeight = { C: 0.4, S: 0.46 }[cell.top] || 0.26;
  const layer = Math.max(3, Math.min(size * 0.085, (size * (0.88 - topHeight)) / Math.max(1, shown.length)));
  const bottom = y + size * 0.92;
  shown.forEach((p, i) => {
    el('rect', { x: x + size * 0.14, y: bottom - (i + 1) * layer, width: size * 0.72, height: layer - 1,
      fill: COLOURS[p], stroke: EDGE[p], 'stroke-width': 1, class: 'layer', 'data-layer': p }, g);
  });
  if (hidden > 0) {
    const more = el('text', { x: x + 4, y: y + 12, 'font-size': 11, 'text-anchor': 'start', fill: '#7a2e0e',
      'font-weight': 700, class: 'hidden-count' }, g);
    more.textContent = `+${hidden}`;
    el('title', {}, more).textContent = `${hidden} more stones below the ones drawn; hover to list them all`;
  }
  const top = pieces[pieces.length - 1];
  const base = bottom - shown.length * layer;
  const fill = COLOURS[top];
  const attrs = { class: 'piece', 'data-piece': top + (cell.top || 'F'), fill, stroke: top === '1' ? '#333' : '#ccc', 'stroke-width': 1.5 };
  if (cell.top === 'C') {
    el('circle', { ...attrs, cx: x + size / 2, cy: base - size * 0.2, r: size * 0.2 }, g);
  } else if (cell.top === 'S') {
    el('rect', { ...attrs, x: x + size * 0.4, y: base - size * 0.46, width: size * 0.2, height: size * 0.46 }, g);
  } else {
    el('rect', { ...attrs, x: x + size * 0.2, y: base - size * 0.26, width: size * 0.6, height: size * 0.26, rx: 2 }, g);
  }
  if (pieces.length > 1) {
    el('text', { x: x + size - 4, y: y + 12, 'font-size': 11, 'text-anchor': 'end', 'font-weight': 700, class: 'height' }, g)
      .textContent = String(pieces.length);
  }
}

// Every stone of a Tak stack, top first, in the side panel.
function showStack(box, cell, sides) {
  if (!cell || !cell.stack) { box.replaceChildren(); return; }
  const pieces = cell.stack.split('');
  const head = document.createElement('div');
  head.textContent = `${cell.sq}: ${pieces.length} stone${pieces.length > 1 ? 's' : ''}, top first`;
  const rows = pieces.map((p, i) => {
    const d = document.createElement('div');
    const isTop = i === pieces.length - 1;
    const kind = isTop ? ({ S: 'wall', C: 'capstone' }[cell.top] || 'flat') : 'flat';
    d.className = `stone p${p}`;
    d.dataset.stone = p;
    d.textContent = `${sides[Number(p) - 1]} ${kind}${isTop ? ' (top)' : ''}`;
    return d;
  }).reverse();
  box.replaceChildren(head, ...rows);
}

function scoreText(s) {
  if (!s) return '';
  if (s.cp !== undefined) return (s.cp >= 0 ? '+' : '') + (s.cp / 100).toFixed(2);
  if (s.win !== undefined) return `win in ${s.win}`;
  if (s.loss !== undefined) return `loss in ${s.loss}`;
  return JSON.stringify(s);
}
const PRETTY = { x: 'X', o: 'O', w: 'White', b: 'Black', white: 'White', black: 'Black' };
const sideName = (n) => PRETTY[n] || n;
const fmt = (v) => (v === undefined || v === null ? '' : String(v));

// ---- play ----
let config = null;
let session = null;     // the latest state
let gameEvents = null;  // the EventSource of the game shown
let selection = null;   // a picked piece ({ from }) or a stack picked up ({ from, carry, drops, path, dir })
let engineGames = {};   // engine name -> { games: [...] | null, source }
let info = null;        // the server's board info of the shown position (legal moves taken apart...)
let infoVersion = null; // the session version `info` belongs to
let infoWanted = null;
let infoSession = null; // the session `info` belongs to
// Board info changes only with a move or the end, not with every line of engine output.
const infoKey = (s) => `${s.id}/${s.moves.length}/${s.over ? 'over' : ''}`;
const infoFresh = () => !!(session && info && infoVersion === infoKey(session));

async function loadConfig() {
  config = await api('/api/config');
  const games = $('game-name');
  // Each game's own presets, in the registry's order.
  for (const game of config.games) {
    for (const { label, params } of game.presets) {
      const o = document.createElement('option');
      o.value = JSON.stringify({ name: game.name, params });
      o.textContent = label;
      games.appendChild(o);
    }
  }
  games.addEventListener('change', () => { showParams(); offerEngines(); preview(); });
  showParams();
  $('engine-note').textContent = 'Asking each engine which games it plays…';
  try {
    const answer = await api('/api/engines');
    for (const e of answer.engines) engineGames[e.name] = e;
  } catch (e) {
    $('engine-note').textContent = `cannot ask the engines which games they play: ${e.message}`;
  }
  offerEngines();
  preview();
}

// Offers as players only the engines that play the chosen game (by their own answer);
// the others are listed, disabled, with the games they do play.
function offerEngines() {
  const { name } = JSON.parse($('game-name').value);
  const plays = (e) => { const g = engineGames[e]; return !g || !g.games || g.games.includes(name); };
  const refused = [];
  for (const id of ['p1', 'p2']) {
    const s = $(id);
    const keep = s.value;
    s.replaceChildren();
    for (const e of ['human', ...config.engines]) {
      const o = document.createElement('option');
      o.value = e;
      o.textContent = e;
      if (e !== 'human' && !plays(e)) {
        const g = engineGames[e];
        o.disabled = true;
        o.textContent = g.games.length ? `${e} (plays ${g.games.join(', ')} only)` : `${e} (${g.source})`;
        if (id === 'p1') refused.push(e);
      } else if (e !== 'human' && engineGames[e] && !engineGames[e].games) {
        o.textContent = `${e} (did not say which games it plays)`;
      }
      s.appendChild(o);
    }
    const usable = [...s.options].filter((o) => !o.disabled).map((o) => o.value);
    if (keep && usable.includes(keep) && s.dataset.touched) s.value = keep;
    else s.value = id === 'p1' ? 'human' : (usable.find((v) => v !== 'human') || 'human');
  }
  $('engine-note').textContent = refused.length
    ? `Not offered for ${name}: ${refused.map((e) => `${e} (${engineGames[e].source})`).join('; ')}.` : '';
}
for (const id of ['p1', 'p2']) $(id).addEventListener('change', () => { $(id).dataset.touched = '1'; });

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
    input.addEventListener('change', preview);
    label.appendChild(input);
    box.append(' ', label);
  }
}

function gameSpec() {
  const { name } = JSON.parse($('game-name').value);
  const params = [...$('game-params').querySelectorAll('input')].map((i) => `${i.dataset.key}=${i.value}`);
  return [name, ...params].join(' ');
}

// The chosen game's start (or typed position) on the board before any game is started.
async function preview() {
  if (session && !session.over) return;
  const spec = gameSpec();
  const position = $('game-position').value;
  try {
    const data = await api(`/api/board?spec=${encodeURIComponent(spec)}&position=${encodeURIComponent(position)}`);
    if (session && !session.over) return;
    session = null;
    info = data;
    infoVersion = null;
    selection = null;
    drawPlay();
    tickClocks();
    $('status').textContent = 'Pick the players, then Start.';
    $('players').textContent = '';
    $('result').hidden = true;
    $('moves').replaceChildren();
  } catch (e) {
    $('form-error').textContent = e.message;
  }
}
$('game-position').addEventListener('change', preview);

// The time control: per engine move (the ms field), a clock (a preset or typed as
// `arena match` takes it) or none.
function showTimeControl() {
  const kind = $('tc-kind').value;
  $('movetime-box').hidden = kind !== 'move';
  $('clock-box').hidden = kind !== 'clock';
}
$('tc-kind').addEventListener('change', showTimeControl);
$('tc-preset').addEventListener('change', () => {
  if ($('tc-preset').value) $('tc-text').value = $('tc-preset').value;
  else $('tc-text').focus();
});
$('tc-text').addEventListener('input', () => {
  const preset = [...$('tc-preset').options].find((o) => o.value === $('tc-text').value.trim());
  $('tc-preset').value = preset ? preset.value : '';
});
showTimeControl();

function timeControl() {
  const kind = $('tc-kind').value;
  if (kind === 'move') return { movetime_ms: Number($('movetime').value) };
  if (kind === 'clock') return { tc: $('tc-text').value };
  return {};
}

// A state as received: the moment it came, to count the running clock down from.
function stamp(state) {
  if (state) state.receivedAt = performance.now();
  return state;
}

$('new-game').addEventListener('submit', async (event) => {
  event.preventDefault();
  $('form-error').textContent = '';
  if (session && !session.over) await api(`/api/play/${session.id}/stop`, {}).catch(() => {});
  try {
    session = stamp(await api('/api/play', {
      game: gameSpec(), position: $('game-position').value, p1: $('p1').value, p2: $('p2').value,
      ...timeControl(),
    }));
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
  if (session) session = stamp(await api(`/api/play/${session.id}/stop`, {}).catch(() => session));
  renderSession();
});

// Takes `next` as the state shown unless it is older than the one shown: the answer to a
// move and the event stream race, and the engine's reply may come first.
function adopt(next) {
  if (session && next.id === session.id && next.version < session.version) return;
  session = stamp(next);
}

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
    adopt(next);
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
  $('players').textContent = `${sideName(v.sides[0])}: ${s.players[0]}   vs   ${sideName(v.sides[1])}: ${s.players[1]}`;
  $('status').textContent = s.over ? `Game over: ${resultWords()}` : s.status;
  $('stop').disabled = !!s.over;
  $('rematch').disabled = !s.over;
  const list = $('moves');
  // Numbered by move pairs, as PTN and PGN number them: "1. a1 e5 2. ...".
  const offset = s.moves.length && s.moves[0].side === 'p2' ? 1 : 0;
  list.replaceChildren(...s.moves.map((m, i) => {
    const li = document.createElement('li');
    li.textContent = m.mv;
    if ((i + offset) % 2 === 0) li.dataset.number = `${(i + offset) / 2 + 1}.`;
    else if (i === 0) li.dataset.number = '1. …';
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
    // Engines score from the side to move's view: say whose.
    const seat = s.thinking ? s.thinking.seat : t.side;
    const i = seat === 'p2' ? 1 : 0;
    $('score-side').textContent = `Score from ${sideName(v.sides[i])}'s side (${s.players[i]}, the engine that searched); + is good for ${sideName(v.sides[i])}.`;
  } else {
    const cell = row.insertCell(); cell.colSpan = 5; cell.textContent = 'idle';
    $('pv').textContent = '';
    $('score-side').textContent = '';
  }
  tickClocks();
  if (!infoFresh()) loadInfo();
  drawPlay();
}

// The server's board info for the session's current version (legal moves taken apart,
// the last move, the game's counts and records, the result); the board is redrawn when
// it arrives.
async function loadInfo() {
  const id = session.id;
  const key = infoKey(session);
  if (infoWanted === key) return;
  infoWanted = key;
  try {
    // The facts of the position the page shows (the game may be further on already).
    const data = await api(`/api/play/${id}/board?ply=${session.moves.length}`);
    if (!session || session.id !== id) return;
    if (data.info.ply !== session.moves.length) return;
    info = data.info;
    infoVersion = key;
    infoSession = id;
    $('status').textContent = session.over ? `Game over: ${resultWords()}` : session.status;
    drawPlay();
  } catch (e) {
    $('refusal').textContent = `cannot read the board: ${e.message}`;
  } finally {
    if (infoWanted === key) infoWanted = null;
    if (session && session.id === id && !infoFresh()) loadInfo();
  }
}

// The result in words: the rules' ending from the library, or why the game stopped.
function resultWords() {
  const s = session;
  if (!s || !s.over) return '';
  if (infoFresh() && info.result) return `${info.result.words} (${info.result.score})`;
  const [score, why] = s.over;
  const winner = score === '1-0' ? 0 : score === '0-1' ? 1 : -1;
  if (winner < 0) return `${score === '*' ? 'Stopped' : 'Draw'}: ${why}`;
  return `${sideName(s.view.sides[winner])} (${s.players[winner]}) wins: ${why} (${score})`;
}

function drawPlay() {
  const current = session ? (infoFresh() ? info : null) : info;
  const view = current ? current.view : session.view;
  const marks = {};
  const opts = { flip: flipped, onDrag: dragMove, onHover: hoverSquare, dragTargets };
  if (current && current.last) {
    if (current.last.from) marks[current.last.from] = 'lastfrom';
    for (const sq of current.last.to) marks[sq] = 'last';
    if (current.last.hops) opts.hops = [current.last.from, ...current.last.hops, ...current.last.to];
  }
  if (current && current.result) {
    for (const sq of current.result.line) marks[sq] = 'win';
    if (current.result.path) opts.line = current.result.line;
  }
  if (selection && current) {
    marks[selection.from] = 'sel';
    for (const sq of selection.path || []) marks[sq] = 'sel';
    const { dots, badges } = destinations(current);
    opts.dots = dots;
    opts.badges = badges;
  }
  // As large as fits beside the panel without scrolling.
  const style = styleOf(view);
  const room = Math.max(320, Math.min(style.pieces === 'stacks' ? 600 : 560, window.innerHeight - $('play-board').getBoundingClientRect().top - 40));
  drawBoard($('play-board'), view, marks, clickSquare, room, opts);
  const board = $('play-board');
  board.dataset.session = session ? String(session.id) : '';
  board.dataset.ply = current ? String(current.ply) : '';
  board.dataset.ready = infoFresh() ? 'yes' : 'no';
  $('how-to-move').textContent = current ? current.how_to_move : '';
  $('piece-controls').hidden = !(style.kinds.length || style.pieces === 'stacks');
  renderKinds(style);
  renderCounts(current, $('counts-panel'), session ? session.players : null);
  renderExports(current);
  const res = $('result');
  const over = session ? session.over : null;
  res.hidden = !over;
  if (over) res.textContent = resultWords();
  renderCarry();
}

// What the game counts per side (Tak: stones and capstones in hand, flats on top) and
// its standing in words, as the game gives them.
function renderCounts(current, panel, players) {
  const counts = current ? current.counts : [];
  panel.hidden = !counts.length;
  panel.replaceChildren();
  if (!counts.length) return;
  ['p1', 'p2'].forEach((seat, i) => {
    const line = document.createElement('div');
    line.className = 'reserve';
    line.dataset.seat = seat;
    const chip = document.createElement('span');
    chip.className = `chip ${seat}`;
    const name = document.createElement('b');
    name.className = 'name';
    name.textContent = `${current.sides[i]}${players && players[i] ? ` (${players[i]})` : ''}`;
    line.append(chip, ' ', name, ':');
    counts.forEach((c, k) => {
      const num = document.createElement('span');
      num.className = 'num';
      num.dataset.count = c.label;
      num.textContent = String(c.values[i]);
      line.append(k ? ', ' : ' ', num, ` ${c.label}`);
    });
    panel.append(line);
  });
  if (current.standing) {
    const standing = document.createElement('div');
    standing.className = 'standing';
    standing.textContent = current.standing;
    panel.append(standing);
  }
}

// The kinds a placement may have, as the game names them (Tak: flat, wall, capstone).
function renderKinds(style) {
  const box = $('kinds');
  const shown = [...box.querySelectorAll('input')].map((i) => i.value).join();
  if (shown === style.kinds.map((k) => k.code).join()) return;
  box.replaceChildren();
  if (!style.kinds.length) return;
  box.append('Place: ');
  style.kinds.forEach((k, i) => {
    const label = document.createElement('label');
    const input = document.createElement('input');
    input.type = 'radio'; input.name = 'piece'; input.value = k.code; input.checked = i === 0;
    label.append(input, ` ${k.name}`);
    box.append(label, ' ');
  });
}

// A copy button per record format of the game (Tak: TPS and PTN).
function renderExports(current) {
  const exports = current ? current.exports : [];
  $('export-controls').hidden = !exports.length;
  const box = $('export-buttons');
  if (box.dataset.formats !== exports.map((e) => e.format).join()) {
    box.dataset.formats = exports.map((e) => e.format).join();
    box.replaceChildren();
    for (const e of exports) {
      const b = document.createElement('button');
      b.type = 'button';
      b.id = `copy-${e.format.toLowerCase()}`;
      b.textContent = `Copy ${e.format}`;
      b.addEventListener('click', () => copyText(e.format));
      box.append(b, ' ');
    }
  }
  const shown = exports.find((e) => e.format === $('export-text').dataset.kind);
  if (shown) $('export-text').value = shown.text;
}

function hoverSquare(sq) {
  const current = info;
  if (current && selection) showHops(current, sq);
  if (!current || styleOf(current.view).pieces !== 'stacks') return;
  for (const row of current.view.cells) for (const c of row) if (c.sq === sq && c.stack) showStack($('stack-panel'), c, current.view.sides.map(sideName));
}

// Halma: the jumps to a marked square, drawn while the pointer is on it.
function showHops(current, sq) {
  const svg = $('play-board').querySelector('svg');
  if (!svg || !svg.centre) return;
  for (const old of svg.querySelectorAll('.hops-hover')) old.remove();
  const move = current.moves.find((m) => m.from === selection.from && m.to[0] === sq);
  if (!move || !move.hops) return;
  const points = [move.from, ...move.hops, sq].map((s) => svg.centre[s].join(',')).join(' ');
  el('polyline', { points, class: 'hops hops-hover', 'data-hops': [move.from, ...move.hops, sq].join(' ') }, svg);
}

// The squares where the picked piece may go (and, carrying a stack, the pieces that would
// still be in hand after a drop there), from the server's legal moves.
function destinations(current) {
  const dots = new Set();
  const badges = {};
  const sel = selection;
  if (sel.carry === undefined) {
    for (const m of current.moves) if (m.from === sel.from) dots.add(m.to[0]);
    return { dots, badges };
  }
  const dropped = sel.drops.reduce((a, b) => a + b, 0);
  for (const option of nextDrops(current)) {
    dots.add(option.sq);
    badges[option.sq] = sel.carry - dropped - 1;
  }
  return { dots, badges };
}

// A stack picked up: the legal spreads that agree with the drops so far.
function matchingSpreads(current) {
  const sel = selection;
  const k = sel.drops.length;
  return current.moves.filter((m) => m.from === sel.from && m.drops && m.drops.reduce((a, b) => a + b, 0) === sel.carry
    && sel.path.every((sq, i) => m.to[i] === sq)
    && sel.drops.every((d, i) => (i < k - 1 ? m.drops[i] === d : m.drops[i] >= d)));
}

// A stack picked up: where the next piece may drop: the current square again, or the
// next one.
function nextDrops(current) {
  const sel = selection;
  const k = sel.drops.length;
  const out = new Map();
  for (const m of matchingSpreads(current)) {
    if (k > 0 && m.drops[k - 1] > sel.drops[k - 1]) out.set(m.to[k - 1], { sq: m.to[k - 1], again: true });
    if (m.drops[k - 1] === sel.drops[k - 1] || k === 0) {
      if (m.to.length > k) out.set(m.to[k], { sq: m.to[k], again: false });
    }
  }
  return [...out.values()];
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
    adopt(answer.state);
  } catch (e) {
    refuse(`Refused: ${e.message}`);
  }
  renderSession();
}


function cellOf(sq) {
  for (const row of session.view.cells) for (const c of row) if (c.sq === sq) return c;
  return null;
}

function playable() {
  if (!session) { refuse('Start a game first.'); return false; }
  if (session.over) { refuse('The game is over.'); return false; }
  if (!humanToMove()) { refuse('Wait: it is the engine\'s turn.'); return false; }
  refuse('');
  return true;
}

const currentInfo = () => (infoFresh() ? info : null);

// Clicks by the shape of the legal moves, whatever the game: a square some placement
// goes to takes the piece (of the chosen kind, when placements have kinds); a stack with
// spreads is picked up (see spreadClick); a piece with moves is picked, then a click on
// a destination plays that move.
function clickSquare(sq) {
  if (!playable()) return;
  const current = currentInfo();
  const moves = current ? current.moves : [];
  if (selection && selection.carry !== undefined) { spreadClick(sq); return; }
  const movesFrom = (from) => moves.filter((m) => m.from === from);
  if (selection) {
    if (selection.from === sq) { selection = null; drawPlay(); return; }
    const legal = movesFrom(selection.from).find((m) => m.to[0] === sq);
    // Another of one's own pieces with moves: pick that one instead.
    if (!legal && movesFrom(sq).length && !movesFrom(selection.from).length) { selection = { from: sq }; drawPlay(); return; }
    // Anything else goes to the server, which plays it or says why not.
    submitMove(legal ? legal.mv : `${selection.from}-${sq}`);
    return;
  }
  const places = moves.filter((m) => !m.from && m.to[0] === sq);
  const cell = cellOf(sq);
  if (places.length || (!cell.stack && moves.some((m) => !m.from))) { place(sq, places); return; }
  if (movesFrom(sq).some((m) => m.drops) || (cell.stack && styleOf(session.view).pieces === 'stacks')) {
    spreadClick(sq);
    return;
  }
  if (!movesFrom(sq).length && moves.some((m) => !m.from)) { place(sq, places); return; }
  selection = { from: sq };
  drawPlay();
}

// A placement on `sq`: the legal one of the chosen kind, or (refused by the server with
// its reason) what the click asked for.
function place(sq, places) {
  const chosen = document.querySelector('input[name=piece]:checked');
  const kind = chosen ? chosen.value : null;
  const legal = places.find((m) => !kind || !m.kind || m.kind === kind);
  const first = styleOf(session.view).kinds[0];
  submitMove(legal ? legal.mv : `${kind && (!first || kind !== first.code) ? kind : ''}${sq}`);
}

// Where a dragged piece may go: the library's destinations from that square (a stack
// dragged moves whole, so one square away).
function dragTargets(from) {
  const current = currentInfo();
  if (!current || !humanToMove()) return [];
  return [...new Set(current.moves.filter((m) => m.from === from && (!m.drops || m.to.length === 1)).map((m) => m.to[0]))];
}

// Drag and drop: a piece onto a square, or a whole stack onto the next square.
function dragMove(from, to) {
  if (!playable()) return;
  const current = currentInfo();
  const moves = current ? current.moves : [];
  const cell = cellOf(from);
  if (!moves.some((m) => m.from === from) && moves.some((m) => !m.from)) {
    selection = null;
    clickSquare(to);
    return;
  }
  if (cell && cell.stack && (moves.some((m) => m.from === from && m.drops) || styleOf(session.view).pieces === 'stacks')) {
    const carry = Math.min(cell.stack.length, session.view.cells.length);
    const legal = moves.find((m) => m.from === from && m.to.length === 1 && m.to[0] === to && m.drops && m.drops[0] === carry);
    selection = null;
    submitMove(legal ? legal.mv : `${carry}${from}${direction(from, to) || '?'}`);
    return;
  }
  const legal = moves.find((m) => m.from === from && m.to[0] === to);
  selection = null;
  submitMove(legal ? legal.mv : `${from}-${to}`);
}

// A stack by clicks: it is picked up (the carry limit's worth; click it again to carry
// one fewer, or use -/+), then each click on a marked square drops one piece there (the
// mark's number: pieces still in hand after).
function spreadClick(sq) {
  const cell = cellOf(sq);
  const size = session.view.cells.length;
  if (!selection) {
    selection = { from: sq, carry: Math.min(cell.stack.length, size), drops: [], path: [], dir: null };
    drawPlay();
    return;
  }
  const sel = selection;
  const cur = sel.path.length ? sel.path[sel.path.length - 1] : sel.from;
  if (sq === sel.from && sel.drops.length === 0) {
    sel.carry -= 1;
    if (sel.carry < 1) selection = null;
    drawPlay();
    return;
  }
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
    const current = currentInfo();
    const legal = current && current.moves.find((m) => m.from === sel.from && m.to.join() === sel.path.join()
      && m.drops.join() === sel.drops.join());
    const drops = sel.drops.length > 1 ? sel.drops.join('') : '';
    submitMove(legal ? legal.mv : `${sel.carry}${sel.from}${sel.dir}${drops}`);
    return;
  }
  drawPlay();
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
  const box = $('carry');
  box.replaceChildren();
  const stacks = session && styleOf(session.view).pieces === 'stacks';
  if (!stacks || !selection || selection.carry === undefined) {
    if (stacks && !session.over && humanToMove()) {
      box.textContent = 'Your move: click an empty square to place, or one of your stacks to pick it up.';
    }
    return;
  }
  const sel = selection;
  const dropped = sel.drops.reduce((a, b) => a + b, 0);
  const next = currentInfo() ? nextDrops(currentInfo()).map((o) => o.sq) : [];
  box.append(`Carrying ${sel.carry - dropped} of ${sel.carry} from ${sel.from}` + (sel.drops.length ? ` (dropped ${sel.drops.join(',')} on ${sel.path.join(',')})` : '')
    + `. Next: click ${next.length ? next.join(' or ') : 'nothing: no legal spread carries this many'} to drop one stone. `);
  if (!sel.drops.length) {
    const height = cellOf(sel.from).stack.length;
    for (const [label, delta] of [['−', -1], ['+', 1]]) {
      const b = document.createElement('button');
      b.textContent = label; b.type = 'button';
      b.addEventListener('click', () => {
        sel.carry = Math.max(1, Math.min(sel.carry + delta, height, session.view.cells.length));
        drawPlay();
      });
      box.append(b);
    }
  }
  const cancel = document.createElement('button');
  cancel.type = 'button'; cancel.textContent = 'cancel';
  cancel.addEventListener('click', () => { selection = null; drawPlay(); });
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
  if (e.key === 'Escape' && selection) { selection = null; drawPlay(); }
  const typing = /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName);
  if ((activeTab === 'play' || activeTab === 'replay') && !typing && e.key === 'f') flipBoard();
  if (activeTab === 'replay' && !typing) replayKey(e);
});

function flipBoard() {
  flipped = !flipped;
  if (session || info) drawPlay();
  if (replayGame) drawReplay();
}
$('flip').addEventListener('click', flipBoard);

$('rematch').addEventListener('click', () => {
  if (!session) return;
  const [p1, p2] = session.players;
  $('p1').value = p2; $('p2').value = p1;
  $('p1').dataset.touched = '1'; $('p2').dataset.touched = '1';
  $('new-game').requestSubmit();
});

// Copies the game in one of its record formats, shown in the box below in case the
// clipboard is not allowed.
async function copyText(format) {
  const current = currentInfo() || info;
  const found = current && current.exports.find((e) => e.format === format);
  if (!found) return;
  $('export-text').value = found.text;
  $('export-text').dataset.kind = format;
  try {
    await navigator.clipboard.writeText(found.text);
    $('copied').textContent = `${format} copied`;
  } catch (e) {
    $('export-text').select();
    $('copied').textContent = document.execCommand('copy') ? `${format} copied` : `select and copy the ${format} below`;
  }
}

// Clocks: each side's time used in this game and, for the side to move, this move's time
// (against the engine's move time); they tick while a side thinks.
let turnStart = { key: null, at: 0 };
let humanUsed = { p1: 0, p2: 0 };
function clockText(ms) {
  const s = Math.max(0, ms) / 1000;
  const m = Math.floor(s / 60);
  return `${m}:${(s - 60 * m).toFixed(1).padStart(4, '0')}`;
}
// Time left as m:ss, with tenths under 10 s.
function leftText(ms) {
  ms = Math.max(0, ms);
  if (ms < 10000) return `0:${(Math.floor(ms / 100) / 10).toFixed(1).padStart(4, '0')}`;
  const total = Math.floor(ms / 1000);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}
// A clock's time left now: the server's time left, less (for the running clock) the time
// since it started, as the server counted it when it sent the state plus the time since
// the page received it.
function leftNow(left, running, sinceServer, receivedAt) {
  return running ? left - sinceServer - (performance.now() - receivedAt) : left;
}
// Clocks of a game on a clock (`tc=`): each side's time left, counting down for the side
// to move; a side whose time ran out is marked.
function tickGameClocks(s) {
  const c = s.clock;
  const lostOnTime = s.over && /lost on time/.test(s.over[1]) ? (s.over[0] === '1-0' ? 'p2' : 'p1') : null;
  ['p1', 'p2'].forEach((seat, i) => {
    const running = c.running === seat;
    const left = leftNow(c.left_ms[i], running, c.now_unix_ms - c.since_unix_ms, s.receivedAt || performance.now());
    const box = $(`clock-${seat}`);
    box.classList.toggle('running', running);
    box.classList.toggle('flagged', lostOnTime === seat);
    box.dataset.leftMs = String(Math.max(0, Math.round(left)));
    const togo = c.moves_to_go[i] ? ` (${c.moves_to_go[i]} moves to go)` : '';
    box.replaceChildren(`${sideName(s.view.sides[i])} ${s.players[i]}: `, Object.assign(document.createElement('span'),
      { className: 'left', textContent: leftText(left) }), `${togo}${lostOnTime === seat ? ' lost on time' : ''}`);
  });
}
function tickClocks() {
  const s = session;
  if (!s) { $('clock-p1').textContent = ''; $('clock-p2').textContent = ''; return; }
  if (s.clock) { tickGameClocks(s); return; }
  for (const seat of ['p1', 'p2']) { $(`clock-${seat}`).classList.remove('flagged'); delete $(`clock-${seat}`).dataset.leftMs; }
  const key = `${s.id}/${s.moves.length}`;
  if (turnStart.key !== key) {
    // A person's time is measured here (the server times engines only).
    if (turnStart.seat && turnStart.id === s.id) humanUsed[turnStart.seat] += performance.now() - turnStart.at;
    if (turnStart.id !== s.id) humanUsed = { p1: 0, p2: 0 };
    const seat = s.view.to_move_seat;
    turnStart = { key, at: performance.now(), id: s.id, seat: s.human[seat === 'p1' ? 0 : 1] ? seat : null };
  }
  const movetime = s.movetime_ms || Number($('movetime').value);
  ['p1', 'p2'].forEach((seat, i) => {
    const used = s.human[i] ? humanUsed[seat] : s.moves.filter((m) => m.side === seat).reduce((a, m) => a + (m.time_ms || 0), 0);
    const toMove = !s.over && s.view.to_move_seat === seat;
    const now = toMove ? performance.now() - turnStart.at : 0;
    const box = $(`clock-${seat}`);
    box.classList.toggle('running', toMove);
    let text = `${sideName(s.view.sides[i])} ${s.players[i]}: ${clockText(used + now)} used`;
    if (toMove && !s.human[i]) text += `, this move ${clockText(now)} of ${clockText(movetime)}`;
    else if (toMove) text += `, this move ${clockText(now)}`;
    box.textContent = text;
  });
}
setInterval(() => { if (session && !session.over) tickClocks(); }, 100);

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

// The live games' clocks: the side to move's counts down from the last snapshot.
function liveClocks(g, sentUnixMs) {
  const live = g.live;
  if (!live.clocks_ms || live.clocks_ms.every((c) => c === null || c === undefined)) return null;
  const box = document.createElement('div');
  box.className = 'live-clocks';
  ['p1', 'p2'].forEach((seat, i) => {
    const left = live.clocks_ms[i];
    if (left === null || left === undefined) return;
    const div = document.createElement('div');
    const running = live.to_move === seat;
    div.className = 'clock live-clock' + (running ? ' running' : '');
    div.dataset.seat = seat;
    div.dataset.prefix = `${i === 0 ? live.p1 : live.p2}: `;
    div.dataset.left = String(running ? left - Math.max(0, sentUnixMs - live.turn_unix_ms) : left);
    div.dataset.at = String(performance.now());
    box.appendChild(div);
  });
  tickLiveClocks(box);
  return box;
}
function tickLiveClocks(root) {
  for (const div of (root || document).querySelectorAll('.live-clock')) {
    const running = div.classList.contains('running');
    const left = Number(div.dataset.left) - (running ? performance.now() - Number(div.dataset.at) : 0);
    div.dataset.leftMs = String(Math.max(0, Math.round(left)));
    div.textContent = div.dataset.prefix + leftText(left);
  }
}
setInterval(() => { if (activeTab === 'live') tickLiveClocks(); }, 100);

function renderLive(data) {
  const folders = $('live-folders');
  folders.replaceChildren(...data.folders.map((f) => {
    const div = document.createElement('div');
    const h = document.createElement('h3');
    h.textContent = f.exists === false ? `${f.dir}: does not exist yet; waiting for it` : `${f.dir}: ${f.games} games finished`;
    div.append(h, standingsTable(f.standings), ...figuresBlock(f.figures));
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
    const clocks = liveClocks(g, data.sent_unix_ms);
    div.append(title, ...(clocks ? [clocks] : []), info, board);
    return div;
  }));
}

function standingsTable(rows) {
  const table = document.createElement('table');
  table.className = 'stats standings';
  table.insertRow().innerHTML = '<th>engine</th><th>games</th><th>W</th><th>D</th><th>L</th><th>score</th>' +
    '<th title="Bradley-Terry ratings fitted jointly, centred on the field: not an Elo difference">rating ± 95% (joint, centred)</th>';
  for (const r of rows) {
    const tr = table.insertRow();
    const elo = r.elo === null ? '' : typeof r.elo === 'number' ? `${r.elo >= 0 ? '+' : ''}${r.elo.toFixed(1)}` + (r.error !== null ? ` ± ${r.error.toFixed(1)}` : '') : r.elo;
    for (const v of [r.engine, r.games, r.wins, r.draws, r.losses, `${(100 * r.score).toFixed(1)}%`, elo]) tr.insertCell().textContent = v;
  }
  return table;
}


// The match summary (the terminal's own text, two engines) and each engine's search
// figures, computed by the arena exactly as the terminal and `arena report` show them.
function figuresBlock(figures) {
  if (!figures) return [];
  const out = [];
  if (figures.summary) {
    const pre = document.createElement('pre');
    pre.className = 'match-summary';
    pre.textContent = figures.summary;
    out.push(pre);
  }
  if (figures.engines && figures.engines.length) {
    const table = document.createElement('table');
    table.className = 'stats figures';
    table.insertRow().innerHTML = '<th>engine</th><th>moves</th><th>depth</th><th title="deepest ply reached">seldepth</th>' +
      '<th>nodes/move</th><th title="the arena\'s wall time from go to bestmove">ms/move</th><th title="reported nodes over the arena\'s time for them">nps</th>';
    const cell = (v, digits) => (v === null || v === undefined ? '-' : v.toFixed(digits));
    for (const e of figures.engines) {
      const tr = table.insertRow();
      tr.dataset.engine = e.engine;
      for (const v of [e.engine, String(e.moves), cell(e.depth, 2), cell(e.seldepth, 2), cell(e.nodes_per_move, 0), cell(e.ms_per_move, 2), cell(e.nps, 0)]) tr.insertCell().textContent = v;
    }
    out.push(table);
  }
  return out;
}

// ---- replay ----
let replayGame = null; // { path, index, record, ply, info }
let journalGames = [];  // the journal's games, by number
let journalPage = 0;
const PAGE = 12;

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
$('journal').addEventListener('change', () => { journalPage = 0; loadJournal(); });

async function loadJournal() {
  const path = $('journal').value;
  $('report-link').href = `/report?path=${encodeURIComponent(path)}`;
  const data = await api(`/api/journal?path=${encodeURIComponent(path)}`);
  $('journal-standings').replaceChildren(standingsTable(data.standings), ...figuresBlock(data.figures));
  // By game number, not in the order they finished.
  journalGames = [...data.games].sort((a, b) => a.game - b.game || a.index - b.index);
  const engines = [...new Set(journalGames.flatMap((g) => [g.p1, g.p2]))].sort();
  const filter = $('filter-engine');
  const keep = filter.value;
  filter.replaceChildren(new Option('any', ''), ...engines.map((e) => new Option(e, e)));
  if (engines.includes(keep)) filter.value = keep;
  listGames();
}

function filteredGames() {
  const engine = $('filter-engine').value;
  const result = $('filter-result').value;
  return journalGames.filter((g) => (!engine || g.p1 === engine || g.p2 === engine) && (!result || g.result === result));
}

function listGames() {
  const games = filteredGames();
  const pages = Math.max(1, Math.ceil(games.length / PAGE));
  journalPage = Math.max(0, Math.min(journalPage, pages - 1));
  const table = $('journal-games');
  table.replaceChildren();
  table.insertRow().innerHTML = '<th>#</th><th>first</th><th>second</th><th>result</th><th>plies</th><th>how it ended</th>';
  for (const g of games.slice(journalPage * PAGE, (journalPage + 1) * PAGE)) {
    const tr = table.insertRow();
    tr.className = 'clickable' + (replayGame && replayGame.index === g.index ? ' current' : '');
    tr.dataset.index = g.index;
    tr.dataset.game = g.game + 1;
    for (const v of [g.game + 1, g.p1, g.p2, g.result, g.plies, g.reason]) tr.insertCell().textContent = v;
    tr.addEventListener('click', () => openReplay($('journal').value, g.index, 0));
  }
  $('page-label').textContent = `page ${journalPage + 1} of ${pages} (${games.length} of ${journalGames.length} games)`;
  $('page-prev').disabled = journalPage === 0;
  $('page-next').disabled = journalPage >= pages - 1;
}
$('filter-engine').addEventListener('change', () => { journalPage = 0; listGames(); });
$('filter-result').addEventListener('change', () => { journalPage = 0; listGames(); });
$('page-prev').addEventListener('click', () => { journalPage -= 1; listGames(); });
$('page-next').addEventListener('click', () => { journalPage += 1; listGames(); });

async function openReplay(path, index, ply) {
  let record = replayGame && replayGame.path === path && replayGame.index === index ? replayGame.record : null;
  if (!record) {
    const data = await api(`/api/replay?path=${encodeURIComponent(path)}&game=${index}&ply=0`);
    record = data.record;
  }
  const boardInfo = await api(`/api/replay/board?path=${encodeURIComponent(path)}&game=${index}&ply=${ply}`);
  replayGame = { path, index, record, ply: boardInfo.ply, info: boardInfo };
  const r = record;
  $('replay-title').textContent = `Game ${r.game + 1}: ${r.p1.name} vs ${r.p2.name}, ${r.spec}: ${r.result} (${r.reason})`;
  $('ply').max = r.moves.length;
  $('ply').value = boardInfo.ply;
  $('ply-label').textContent = `ply ${boardInfo.ply} of ${r.moves.length}`;
  drawReplay();
  const table = $('replay-moves');
  table.replaceChildren();
  table.insertRow().innerHTML = '<th>ply</th><th>side</th><th>move</th><th>depth</th><th>score</th><th>nodes</th><th>ms</th><th>nps</th>';
  r.moves.forEach((m, i) => {
    const tr = table.insertRow();
    tr.className = 'clickable' + (i + 1 === boardInfo.ply ? ' current' : '');
    for (const v of [m.ply, m.side, m.mv + (m.book ? ' (book)' : ''), m.depth, scoreText(m.score), m.nodes, m.time_ms, m.nps]) tr.insertCell().textContent = fmt(v);
    tr.addEventListener('click', () => openReplay(path, index, i + 1));
  });
  const current = table.querySelector('tr.current');
  if (current) current.scrollIntoView({ block: 'nearest' });
  for (const tr of $('journal-games').querySelectorAll('tr.clickable')) tr.classList.toggle('current', Number(tr.dataset.index) === index);
}

function drawReplay() {
  const g = replayGame;
  const current = g.info;
  const marks = {};
  const opts = { flip: flipped };
  if (current.last) {
    if (current.last.from) marks[current.last.from] = 'lastfrom';
    for (const sq of current.last.to) marks[sq] = 'last';
    if (current.last.hops) opts.hops = [current.last.from, ...current.last.hops, ...current.last.to];
  }
  if (current.result) {
    for (const sq of current.result.line) marks[sq] = 'win';
    if (current.result.path) opts.line = current.result.line;
  }
  drawBoard($('replay-board'), current.view, marks, null, 480, opts);
  const res = $('replay-result');
  res.hidden = !current.result;
  if (current.result) res.textContent = `${current.result.words} (${current.result.score})`;
  renderCounts(current, $('replay-counts'), [g.record.p1.name, g.record.p2.name]);
  // The clock each side had left after its last move so far (timed games record it).
  const clocks = ['p1', 'p2'].map((seat, i) => {
    const mine = g.record.moves.slice(0, g.ply).filter((m) => m.side === seat);
    const last = mine[mine.length - 1];
    const name = i === 0 ? g.record.p1.name : g.record.p2.name;
    const used = mine.reduce((a, m) => a + (m.time_ms || 0), 0);
    const div = document.createElement('div');
    div.className = 'clock';
    div.dataset.seat = seat;
    div.textContent = last && last.clock_ms !== undefined && last.clock_ms !== null
      ? `${sideName(current.view.sides[i])} ${name}: ${clockText(last.clock_ms)} left` : `${sideName(current.view.sides[i])} ${name}: ${clockText(used)} used`;
    return div;
  });
  $('replay-clocks').replaceChildren(...clocks);
}

const step = (to) => { if (replayGame) openReplay(replayGame.path, replayGame.index, Math.max(0, Math.min(to(replayGame), replayGame.record.moves.length))); };
$('first').addEventListener('click', () => step(() => 0));
$('prev').addEventListener('click', () => step((g) => g.ply - 1));
$('next').addEventListener('click', () => step((g) => g.ply + 1));
$('last').addEventListener('click', () => step((g) => g.record.moves.length));
$('ply').addEventListener('input', () => step(() => Number($('ply').value)));

// Arrows step a move, Home and End jump, up and down open the neighbouring game.
function replayKey(e) {
  if (!replayGame) return;
  const moves = { ArrowLeft: (g) => g.ply - 1, ArrowRight: (g) => g.ply + 1, Home: () => 0, End: (g) => g.record.moves.length };
  if (moves[e.key]) { e.preventDefault(); step(moves[e.key]); return; }
  if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
    e.preventDefault();
    const games = filteredGames();
    const at = games.findIndex((g) => g.index === replayGame.index);
    const next = games[at + (e.key === 'ArrowDown' ? 1 : -1)];
    if (next) {
      journalPage = Math.floor(games.indexOf(next) / PAGE);
      openReplay(replayGame.path, next.index, 0).then(listGames);
    }
  }
}

loadConfig().catch((e) => { $('form-error').textContent = `cannot load the configuration: ${e.message}`; });
