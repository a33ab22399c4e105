'use strict';
// Menagerie's browser page: the lobby, a two-player board, one seat of a table game and a
// playtest. It speaks the JSON API of `menagerie serve` (docs/serve.md) and nothing else:
// no framework, no build step, nothing fetched from elsewhere. Server text only ever enters
// the page through textContent or attributes, never as HTML.

/* ================================================================ helpers */

const SQUARE_RE = /([>x]?)([a-p])(\d+)/g;
const CHESS_NAMES = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', P: 'pawn' };
// Filled glyphs for both colours (CSS colours them); U+FE0E asks for text, not emoji, style.
const GLYPHS = { K: '\u265A', Q: '\u265B', R: '\u265C', B: '\u265D', N: '\u265E', P: '\u265F' };
const TEXT_STYLE = '\uFE0E';

/** Creates an element. props: class, text, dataset, value, on<event>, other attributes. */
function el(tag, props, ...children) {
  const node = document.createElement(tag);
  let value;
  for (const [key, v] of Object.entries(props || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (key === 'class') node.className = v;
    else if (key === 'text') node.textContent = String(v);
    else if (key === 'dataset') Object.assign(node.dataset, v);
    else if (key === 'value') value = v;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), v);
    else node.setAttribute(key, v === true ? '' : String(v));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === 'string' || typeof child === 'number' ? String(child) : child);
  }
  if (value !== undefined) node.value = value; // after the options of a select exist
  return node;
}

/** Creates an SVG element with attributes. */
function svgEl(tag, attrs, ...children) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [key, v] of Object.entries(attrs || {})) node.setAttribute(key, String(v));
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

/** Replaces the children of a node. */
function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

const $ = (sel) => document.querySelector(sel);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls the API; resolves to {ok, status, data}; rejects only on a network failure. */
async function api(method, path, body, signal) {
  const opts = { method, headers: {}, signal };
  if (body !== undefined) {
    opts.headers['Content-Type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(path, opts);
  let data;
  try {
    data = await res.json();
  } catch (e) {
    data = { error: `HTTP ${res.status}` };
  }
  if (!res.ok && (!data || typeof data.error !== 'string')) data = { error: `HTTP ${res.status}` };
  return { ok: res.ok, status: res.status, data };
}

/** This tab's client id for table seats (docs/serve.md: the window that holds a seat). */
function clientId() {
  let id = sessionStorage.getItem('menagerie-client');
  if (!id) {
    const bytes = new Uint8Array(16);
    if (window.crypto && crypto.getRandomValues) crypto.getRandomValues(bytes);
    else bytes.forEach((_, i) => { bytes[i] = Math.floor(Math.random() * 256); });
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    sessionStorage.setItem('menagerie-client', id);
  }
  return id;
}

/** Milliseconds as m:ss (h:mm:ss past an hour); rounds up so 0:00 means the flag fell. */
function formatClock(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${String(m).padStart(2, '0')}:${s}`;
}

/** A number for people: integers as they are, others with a few decimals. */
function formatNum(x) {
  if (typeof x !== 'number' || !Number.isFinite(x)) return String(x);
  if (Number.isInteger(x)) return String(x);
  const a = Math.abs(x);
  return x.toFixed(a >= 100 ? 1 : a >= 1 ? 2 : 3);
}

const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);

/* ================================================================ squares, moves, FEN */

const fileLetter = (f) => String.fromCharCode(97 + f);
const squareName = (f, r) => fileLetter(f) + (r + 1);

/** Is a square name on a files x ranks board? */
function onBoard(sq, files, ranks) {
  const f = sq.charCodeAt(0) - 97;
  const r = parseInt(sq.slice(1), 10) - 1;
  return f >= 0 && f < files && r >= 0 && r < ranks;
}

/**
 * Reads an MMN move or a table action: its squares in order and a trailing promotion letter.
 * With a board size, squares off the board are dropped (coop2's card positions `p2 i1`).
 */
function parseSteps(text, files, ranks) {
  const squares = [];
  for (const m of text.matchAll(SQUARE_RE)) {
    const sq = m[2] + m[3];
    if (files === undefined || onBoard(sq, files, ranks)) squares.push(sq);
  }
  const promo = /\d([a-z])$/.exec(text);
  return { text, squares, promo: squares.length && promo ? promo[1] : null };
}

/**
 * Reads a FEN placement (or an observation's board) into a Map square -> char:
 * a letter (piece), '' (empty), '*' (hole) or '?' (unknown). Top rank first; digit runs may
 * be several digits (`10`, `11`). Anything after '[' or a space is not placement.
 */
function parsePlacement(text, files, ranks) {
  const cells = new Map();
  const rows = text.split(/[\s[]/)[0].split('/');
  rows.forEach((row, i) => {
    const r = ranks - 1 - i;
    let f = 0;
    for (let j = 0; j < row.length; j++) {
      const ch = row[j];
      if (ch >= '0' && ch <= '9') {
        let run = ch;
        while (j + 1 < row.length && row[j + 1] >= '0' && row[j + 1] <= '9') run += row[++j];
        for (let k = 0; k < parseInt(run, 10); k++) cells.set(squareName(f++, r), '');
      } else if (ch === '*' || ch === '?' || /[A-Za-z]/.test(ch)) {
        cells.set(squareName(f++, r), ch);
      } // other marks (`~`, `+`) are not squares
    }
  });
  return cells;
}

/** The size of a placement when the server does not give it. */
function placementSize(text) {
  const rows = text.split(/[\s[]/)[0].split('/');
  const cells = parsePlacement(text, rows.length, rows.length);
  let files = 0;
  for (const sq of cells.keys()) files = Math.max(files, sq.charCodeAt(0) - 96);
  return { files, ranks: rows.length };
}

/** Remote Sensing's holding bins `[wl/wd/bl/bd]` after the board, or null. */
function parseBins(fen) {
  const m = /\[([^\]]*)\]/.exec(fen.split(' ')[0] || '');
  if (!m) return null;
  const parts = m[1].split('/');
  return parts.length === 4 ? parts.map((p) => (p === '-' ? '' : p)) : null;
}

/** A piece as an element: a chess glyph for K Q R B N P, a circled letter otherwise. */
function pieceEl(ch, names) {
  const upper = ch.toUpperCase();
  const white = ch === upper;
  const name = (names && names[upper]) || CHESS_NAMES[upper] || upper;
  const glyph = GLYPHS[upper];
  return el('span', {
    class: `piece ${white ? 'white' : 'black'} ${glyph ? 'glyph' : 'fairy'}`,
    dataset: { piece: ch },
    title: `${white ? 'white' : 'black'} ${name}`,
    text: glyph ? glyph + TEXT_STYLE : upper,
  });
}

/** A piece's picture for buttons and labels (not a piece on the board: no data-piece). */
function glyphEl(ch, names) {
  const node = pieceEl(ch, names);
  node.className = node.className.replace(/\bpiece\b/, 'glyph-mini');
  delete node.dataset.piece;
  return node;
}

/* ================================================================ drawing a board */

/**
 * Draws a board with coordinates on its edges.
 * opts: files, ranks, cells (Map from parsePlacement), holes (Set), marked (Set), flipped,
 * names (letter -> name), classes(sq) -> extra classes, onSquare(sq), id.
 */
function drawBoard(opts) {
  const { files, ranks, cells, flipped } = opts;
  const holes = opts.holes || new Set();
  const size = Math.max(files, ranks);
  const sq = Math.max(30, Math.min(64, Math.floor(600 / size)));
  const grid = el('div', { class: 'board', id: opts.id || null });
  grid.style.setProperty('--sq', `${sq}px`);
  grid.style.gridTemplateColumns = `1.4em repeat(${files}, var(--sq))`;
  grid.style.gridTemplateRows = `repeat(${ranks}, var(--sq)) 1.5em`;
  for (let row = 0; row < ranks; row++) {
    const r = flipped ? row : ranks - 1 - row;
    grid.append(el('div', { class: 'coord rank', text: r + 1 }));
    for (let col = 0; col < files; col++) {
      const f = flipped ? files - 1 - col : col;
      grid.append(squareEl(f, r, opts, holes));
    }
  }
  grid.append(el('div', { class: 'coord' }));
  for (let col = 0; col < files; col++) {
    grid.append(el('div', { class: 'coord file', text: fileLetter(flipped ? files - 1 - col : col) }));
  }
  return grid;
}

/** One square of a board: a gap for a hole, else a clickable square with its piece. */
function squareEl(f, r, opts, holes) {
  const name = squareName(f, r);
  const content = opts.cells.get(name) || '';
  if (holes.has(name) || content === '*') return el('div', { class: 'hole' });
  const classes = ['sq', (f + r) % 2 === 0 ? 'dark' : 'light'];
  if (opts.marked && opts.marked.has(name)) classes.push('marked');
  if (opts.classes) classes.push(...opts.classes(name));
  const node = el('div', { class: classes.join(' '), dataset: { square: name }, title: name });
  if (content === '?') node.append(el('span', { class: 'unknown', text: '?' }));
  else if (content) node.append(pieceEl(content, opts.names));
  if (opts.onSquare) node.addEventListener('click', () => opts.onSquare(name));
  return node;
}

/* ================================================================ picking by clicks */

// A picker narrows a list of moves or actions by the squares clicked so far (the prefix).

function makePicker(items) {
  return { items: items.filter((it) => it.squares.length > 0), prefix: [] };
}

/** Items whose squares start with the prefix. */
function pickerCandidates(p) {
  return p.items.filter((it) => p.prefix.every((sq, i) => it.squares[i] === sq));
}

/** The squares that may be clicked next (none while nothing is chosen). */
function pickerTargets(p) {
  const targets = new Set();
  if (!p.prefix.length) return targets;
  for (const it of pickerCandidates(p)) {
    if (it.squares.length > p.prefix.length) targets.add(it.squares[p.prefix.length]);
  }
  return targets;
}

/** Squares where some item starts. */
function pickerStarts(p) {
  return new Set(p.items.map((it) => it.squares[0]));
}

/**
 * A click on a square: extends the prefix when the square is a target, starts again when a
 * move starts there, else clears. Returns the items now complete and whether longer ones remain.
 */
function pickerClick(p, sq) {
  const again = p.prefix.length === 1 && p.prefix[0] === sq;
  if (pickerTargets(p).has(sq)) p.prefix.push(sq);
  else if (!again && pickerStarts(p).has(sq)) p.prefix = [sq];
  else p.prefix = [];
  if (!p.prefix.length) return { complete: [], longer: false };
  const cands = pickerCandidates(p);
  return {
    complete: cands.filter((it) => it.squares.length === p.prefix.length),
    longer: cands.some((it) => it.squares.length > p.prefix.length),
  };
}

/** Classes for a square from the picker's state. */
function pickerClasses(p, sq, withStarts) {
  const out = [];
  if (!p) return out;
  if (p.prefix.includes(sq)) out.push('selected');
  if (pickerTargets(p).has(sq)) out.push('target');
  if (withStarts && !p.prefix.length && pickerStarts(p).has(sq)) out.push('start');
  return out;
}

/**
 * The chooser shown when a click completes several moves or completes one while longer ones
 * go on. Buttons carry data-choice (the text) and, for promotions, data-promo.
 */
function chooserEl(choice, names, onPick, onContinue, black) {
  const promos = choice.complete.every((it) => it.promo);
  const box = el('div', { id: 'chooser', class: 'chooser' },
    el('div', { class: 'chooser-title', text: promos && !choice.longer ? 'Promote to' : 'Choose' }));
  for (const it of choice.complete) {
    const letter = black ? it.promo : it.promo && it.promo.toUpperCase();
    const label = it.promo ? [glyphEl(letter, names), ` ${it.text}`] : [it.text];
    box.append(el('button', {
      type: 'button', class: 'choice', dataset: it.promo ? { choice: it.text, promo: it.promo } : { choice: it.text },
      onclick: () => onPick(it.text),
    }, label));
  }
  if (choice.longer) {
    box.append(el('button', { type: 'button', id: 'chooser-continue', class: 'choice', onclick: onContinue }, 'continue'));
  }
  return box;
}

/* ================================================================ routing */

// Each visit to a route gets a token; loops and timers of an old route see it changed and stop.
let current = null;

function enterRoute() {
  if (current) {
    current.controller.abort();
    current.timers.forEach((t) => clearInterval(t));
  }
  current = { controller: new AbortController(), timers: [] };
  delete document.body.dataset.version;
  return current;
}

function route() {
  const r = enterRoute();
  const parts = location.hash.replace(/^#\/?/, '').split('/').map((p) => {
    try { return decodeURIComponent(p); } catch (e) { return p; }
  });
  const view = fill($('#view'));
  if (parts[0] === 'board' && parts[1]) showBoard(r, view, parts[1]);
  else if (parts[0] === 'table' && parts[1] && parts[2]) showTable(r, view, parts[1], parts[2]);
  else if (parts[0] === 'playtest' && parts[1]) showPlaytest(r, view, parts[1]);
  else showLobby(r, view);
}

/**
 * Long-polls `base?since=V` while the route lasts. version() gives the newest version shown
 * (replies to POSTs may have moved it on). Stops on 403/404; backs off 1 s on failures.
 */
async function longPoll(r, base, version, onData, onError) {
  let failed = false;
  while (r === current) {
    const since = version();
    const started = Date.now();
    let reply;
    try {
      reply = await api('GET', since === null ? base : `${base}?since=${since}`, undefined, r.controller.signal);
    } catch (e) {
      if (r !== current) return;
      onError('cannot reach the server; retrying');
      failed = true;
      await sleep(1000);
      continue;
    }
    if (r !== current) return;
    if (!reply.ok) {
      onError(reply.data.error);
      failed = true;
      if (reply.status === 403 || reply.status === 404) return;
      await sleep(1000);
      continue;
    }
    if (failed) onError('');
    failed = false;
    onData(reply.data);
    // A server that answers at once with nothing new must not make us spin.
    if (since !== null && reply.data.version === since && Date.now() - started < 200) await sleep(500);
  }
}

/* ================================================================ lobby */

let catalogCache = null;

async function loadCatalog() {
  if (catalogCache) return catalogCache;
  const reply = await api('GET', '/api/catalog');
  if (!reply.ok) throw new Error(reply.data.error);
  catalogCache = reply.data;
  return catalogCache;
}

const numberInput = (id, value, extra) => el('input', Object.assign({ id, type: 'number', value }, extra || {}));
const field = (label, control) => el('label', { class: 'field' }, el('span', { text: label }), control);
const personEngine = (id, chosen) => el('select', { id, value: chosen },
  el('option', { value: 'person', text: 'person' }), el('option', { value: 'engine', text: 'engine' }));

function showLobby(r, view) {
  const error = el('div', { id: 'error', class: 'error' });
  view.append(el('div', { class: 'lobby' }, newBoardForm(), newTableForm(r), newPlaytestForm()), error);
  loadCatalog().then((cat) => {
    if (r !== current) return;
    fill($('#new-variant'), (cat.variants || []).map((v) =>
      el('option', { value: v.name, text: `${v.name} (${v.files}\u00d7${v.ranks})` })));
    const tables = (cat.tables || []).map((t) => el('option', { value: t.name, text: t.name, title: t.about || '' }));
    fill($('#table-game'), tables);
    fill($('#pt-game'), tables.map((o) => o.cloneNode(true)));
    $('#table-game').dispatchEvent(new Event('change'));
  }).catch((e) => {
    if (r === current) error.textContent = `cannot load the catalog: ${e.message}`;
  });
}

/** Shows a lobby error (or clears it with ''). */
function lobbyError(text) {
  const node = $('#error');
  if (node) node.textContent = text || '';
}

/** (a) A new two-player game. */
function newBoardForm() {
  const noClock = el('input', { id: 'new-no-clock', type: 'checkbox' });
  const create = async () => {
    const minutes = $('#new-clock-minutes').value.trim();
    const clock = noClock.checked || minutes === '' || Number(minutes) <= 0
      ? null : { minutes: Number(minutes), increment: Number($('#new-clock-inc').value || 0) };
    const body = {
      variant: $('#new-variant').value, white: $('#new-white').value, black: $('#new-black').value,
      fen: $('#new-fen').value.trim(), clock, engine_ms: Number($('#new-engine-ms').value || 1000),
    };
    const reply = await postOrReport('/api/boards', body, lobbyError);
    if (reply) location.hash = `#/board/${encodeURIComponent(reply.id)}`;
  };
  return el('section', { class: 'card', id: 'lobby-board' },
    el('h2', { text: 'New game' }),
    field('Variant', el('select', { id: 'new-variant' })),
    el('div', { class: 'row' }, field('White', personEngine('new-white', 'person')), field('Black', personEngine('new-black', 'engine'))),
    el('div', { class: 'row' },
      field('Clock minutes', numberInput('new-clock-minutes', '5', { min: 0, step: 'any' })),
      field('Increment (s)', numberInput('new-clock-inc', '2', { min: 0, step: 'any' }))),
    el('label', { class: 'check' }, noClock, ' no clock'),
    field('Engine ms per move', numberInput('new-engine-ms', '1000', { min: 10, step: 10 })),
    field('FEN (optional)', el('input', { id: 'new-fen', type: 'text', placeholder: 'start position', spellcheck: 'false' })),
    el('button', { id: 'new-board', type: 'button', class: 'primary', onclick: create }, 'Start game'));
}

/** POSTs; on success returns the reply's data, else reports its error and returns null. */
async function postOrReport(path, body, report) {
  try {
    const reply = await api('POST', path, body);
    if (reply.ok) { report(''); return reply.data; }
    report(reply.data.error);
  } catch (e) {
    report('cannot reach the server');
  }
  return null;
}

/** (b) A new table game: seats come from /api/table-info for the game and its settings. */
function newTableForm(r) {
  const seats = el('div', { id: 'table-seats', class: 'seats' });
  const about = el('p', { id: 'table-about', class: 'about' });
  const links = el('div', { id: 'table-links', class: 'links' });
  let asked = 0;
  let lastGame = null;

  // Asks the server how many seats and which roles; keeps person/engine choices of the same game.
  const refresh = async () => {
    const game = $('#table-game').value;
    if (!game) return;
    const mine = ++asked;
    const entry = (catalogCache && catalogCache.tables || []).find((t) => t.name === game);
    about.textContent = entry && entry.about ? entry.about : '';
    const keep = game === lastGame
      ? Array.from(seats.querySelectorAll('select'), (s) => s.value) : [];
    lastGame = game;
    let info = { seats: entry ? entry.seats : 1, roles: [] };
    const query = new URLSearchParams({ game, settings: $('#table-settings').value.trim() });
    try {
      const reply = await api('GET', `/api/table-info?${query}`);
      if (mine !== asked || r !== current) return;
      if (reply.ok) { info = reply.data; lobbyError(''); } else lobbyError(reply.data.error);
    } catch (e) {
      if (mine !== asked) return;
      lobbyError('cannot reach the server');
    }
    fill(seats, Array.from({ length: info.seats }, (_, i) => {
      const roles = (info.roles && info.roles[i]) || [];
      const select = personEngine(null, keep[i] || (i === 0 ? 'person' : 'engine'));
      select.dataset.seatSelect = String(i);
      return field(`Seat ${i}${roles.length ? ` (${roles.join(', ')})` : ''}`, select);
    }));
  };

  let timer = null;
  const later = () => { clearTimeout(timer); timer = setTimeout(refresh, 300); };

  const create = async () => {
    const seed = $('#table-seed').value.trim();
    const body = {
      game: $('#table-game').value, settings: $('#table-settings').value.trim(),
      seats: Array.from(seats.querySelectorAll('select'), (s) => s.value),
      seed: seed === '' ? Math.floor(Math.random() * 1e9) : Number(seed),
    };
    const reply = await postOrReport('/api/tables', body, lobbyError);
    if (reply) showSeatLinks(links, reply);
  };

  return el('section', { class: 'card', id: 'lobby-table' },
    el('h2', { text: 'New table game' }),
    field('Game', el('select', { id: 'table-game', onchange: refresh })),
    about,
    field('Settings', el('input', { id: 'table-settings', type: 'text', placeholder: 'key=value key=value', spellcheck: 'false', oninput: later, onchange: refresh })),
    field('Seed', numberInput('table-seed', '1', { min: 0 })),
    seats,
    el('button', { id: 'new-table', type: 'button', class: 'primary', onclick: create }, 'Create table'),
    links);
}

/** After creating a table: every person seat's link (the only way in) and "open here". */
function showSeatLinks(box, reply) {
  const rows = (reply.links || []).map((link) => {
    if (!link.token) return el('li', { class: 'engine-seat', text: `Seat ${link.seat}: engine` });
    const hash = `#/table/${encodeURIComponent(reply.id)}/${encodeURIComponent(link.token)}`;
    const url = `${location.origin}/${hash}`;
    return el('li', {},
      `Seat ${link.seat}: `,
      el('a', { class: 'seat-link', href: url, target: '_blank', rel: 'noopener', dataset: { seat: link.seat }, text: url }),
      ' \u00b7 ',
      el('a', { class: 'open-seat', href: hash, dataset: { seat: link.seat }, text: `open seat ${link.seat} here` }));
  });
  fill(box, el('p', { text: `Table ${reply.id}: each link is the only way into its seat; give each player theirs.` }),
    el('ul', {}, rows));
}

/** (c) A new playtest. */
function newPlaytestForm() {
  const create = async () => {
    const body = {
      game: $('#pt-game').value, games: Number($('#pt-games').value || 100),
      seed: Number($('#pt-seed').value || 1), settings: $('#pt-settings').value.trim(),
    };
    const reply = await postOrReport('/api/playtests', body, lobbyError);
    if (reply) location.hash = `#/playtest/${encodeURIComponent(reply.id)}`;
  };
  return el('section', { class: 'card', id: 'lobby-playtest' },
    el('h2', { text: 'Playtest' }),
    field('Game', el('select', { id: 'pt-game' })),
    el('div', { class: 'row' },
      field('Games', numberInput('pt-games', '200', { min: 1, max: 10000 })),
      field('Seed', numberInput('pt-seed', '1', { min: 0 }))),
    field('Settings', el('input', { id: 'pt-settings', type: 'text', placeholder: 'key=value key=value', spellcheck: 'false' })),
    el('button', { id: 'new-playtest', type: 'button', class: 'primary', onclick: create }, 'Run playtest'));
}

/* ================================================================ two-player board */

function showBoard(r, view, id) {
  const base = `/api/boards/${encodeURIComponent(id)}`;
  const st = { data: null, flipped: false, picker: null, choice: null, clockAt: 0 };
  const error = el('div', { id: 'error', class: 'error' });
  const setError = (text) => { error.textContent = text || ''; };

  // Accepts a board from a poll or a POST reply; older versions are ignored.
  const accept = (data) => {
    if (r !== current) return;
    if (st.data && data.version < st.data.version) return;
    const changed = !st.data || data.version !== st.data.version;
    st.data = data;
    st.clockAt = performance.now();
    if (changed) {
      st.picker = makePicker((data.legal || []).map((m) => parseSteps(m)));
      st.choice = null;
    }
    render();
  };

  const post = async (path, body) => {
    if (st.picker) st.picker.prefix = [];
    st.choice = null;
    const data = await postOrReport(`${base}/${path}`, body, setError);
    if (data) accept(data); else render();
  };
  const play = (move) => post('move', { move });

  const canMove = () => {
    const d = st.data;
    return d && !d.result && !d.thinking && d.players && d.players[d.side] === 'person';
  };

  const onSquare = (sq) => {
    if (!canMove()) return;
    const res = pickerClick(st.picker, sq);
    st.choice = null;
    if (res.complete.length === 1 && !res.longer) return play(res.complete[0].text);
    if (res.complete.length) st.choice = res;
    drawArea();
  };

  // The board, the chooser, moves without squares and Remote Sensing's bins.
  const area = el('div', { class: 'board-area' });
  const drawArea = () => {
    const d = st.data;
    const last = d.moves && d.moves.length ? parseSteps(d.moves[d.moves.length - 1]).squares : [];
    const files = d.files, ranks = d.ranks;
    const board = drawBoard({
      id: 'board', files, ranks, flipped: st.flipped, names: d.pieces,
      cells: parsePlacement(d.fen || '', files, ranks),
      holes: new Set(d.holes || []), marked: new Set(d.marked || []),
      classes: (sq) => (last.includes(sq) ? ['last'] : []).concat(canMove() ? pickerClasses(st.picker, sq, false) : []),
      onSquare,
    });
    const extra = (d.legal || []).filter((m) => !parseSteps(m).squares.length);
    fill(area,
      el('div', { class: 'board-wrap' }, board,
        st.choice ? chooserEl(st.choice, d.pieces, play, () => { st.choice = null; drawArea(); }, d.side === 'black') : null),
      extra.length && canMove() ? el('div', { class: 'other-moves' }, 'Other moves: ',
        extra.map((m) => el('button', { type: 'button', dataset: { choice: m }, onclick: () => play(m) }, m))) : null,
      binsEl(d.fen || '', d.pieces));
  };

  const status = el('div', { class: 'status' });
  const clocks = el('div', { class: 'clocks' });
  const result = el('div', { id: 'result', class: 'result', hidden: true });
  const moves = el('div', { id: 'moves', class: 'moves' });
  const fenNow = el('div', { id: 'fen', class: 'fen' });
  const title = el('h2', {});

  const render = () => {
    const d = st.data;
    if (!d) return;
    title.textContent = `${d.variant} \u00b7 ${d.id || id}`;
    drawArea();
    renderStatus(status, d);
    renderClocks(clocks, d, st.clockAt);
    result.hidden = !d.result;
    result.textContent = d.result ? `${d.result.result}${d.result.reason ? ` \u2014 ${d.result.reason}` : ''}` : '';
    renderMoveList(moves, d);
    fenNow.textContent = d.fen || '';
    document.body.dataset.version = String(d.version);
  };

  const moveInput = el('input', { id: 'move-input', type: 'text', placeholder: 'move, e.g. e2e4', spellcheck: 'false', autocomplete: 'off' });
  const sendTyped = () => {
    const text = moveInput.value.trim();
    if (!text) return;
    moveInput.value = '';
    play(text);
  };
  moveInput.addEventListener('keydown', (e) => { if (e.key === 'Enter') sendTyped(); });
  const fenInput = el('input', { id: 'fen-input', type: 'text', placeholder: 'FEN of a new game', spellcheck: 'false' });
  const flip = () => { st.flipped = !st.flipped; if (st.data) drawArea(); };

  view.append(el('div', { class: 'game' },
    el('div', { class: 'game-board' }, area),
    el('div', { class: 'game-side card' },
      title, status, clocks, result, error,
      el('h3', { text: 'Moves' }), moves,
      el('div', { class: 'row' }, moveInput, el('button', { id: 'move-send', type: 'button', onclick: sendTyped }, 'Move')),
      el('div', { class: 'row buttons' },
        el('button', { id: 'undo', type: 'button', onclick: () => post('undo', {}) }, 'Take back'),
        el('button', { id: 'resign', type: 'button', onclick: () => post('resign', {}) }, 'Resign'),
        el('button', { id: 'flip', type: 'button', onclick: flip }, 'Flip')),
      el('h3', { text: 'Position' }), fenNow,
      el('div', { class: 'row' }, fenInput, el('button', {
        id: 'fen-send', type: 'button',
        onclick: () => { const fen = fenInput.value.trim(); if (fen) post('fen', { fen }); },
      }, 'New game from FEN')))));

  // Clocks count down locally between polls.
  r.timers.push(setInterval(() => { if (st.data) renderClocks(clocks, st.data, st.clockAt); }, 250));
  longPoll(r, base, () => (st.data ? st.data.version : null), accept, setError);
}

/** Side to move, players and the engine's thinking. */
function renderStatus(box, d) {
  const players = d.players || {};
  fill(box,
    el('div', { id: 'side', class: 'side', text: d.result ? 'Game over' : `${capital(d.side || '')} to move` }),
    el('div', { id: 'players', class: 'players', text: `White: ${players.white || '?'} \u00b7 Black: ${players.black || '?'}` }),
    d.thinking ? el('div', { id: 'thinking', class: 'thinking', text: 'engine is thinking\u2026' }) : null);
}

/** Both clocks; the running one is the reply's value less the time since it came. */
function renderClocks(box, d, at) {
  if (!d.clock) { fill(box); return; }
  const live = !d.result && d.clock.running;
  const left = (side) => {
    const ms = d.clock[`${side}_ms`];
    return live && d.clock.running === side ? ms - (performance.now() - at) : ms;
  };
  fill(box, ['white', 'black'].map((side) => el('div', {
    id: `clock-${side}`, class: `clock ${side}${live && d.clock.running === side ? ' running' : ''}`,
  }, el('span', { class: 'clock-side', text: capital(side) }), el('span', { class: 'clock-time', text: formatClock(left(side)) }))));
}

/** The move list in numbered pairs; numbering follows the FEN's move number and side. */
function renderMoveList(box, d) {
  const list = d.moves || [];
  const fields = (d.fen || '').split(' ');
  const fullmove = parseInt(fields[5], 10) || 1;
  const nowPly = (fullmove - 1) * 2 + (d.side === 'black' ? 1 : 0);
  const startPly = Math.max(0, nowPly - list.length);
  const rows = [];
  let row = null;
  list.forEach((m, i) => {
    const ply = startPly + i;
    if (!row || ply % 2 === 0) {
      row = el('div', { class: 'move-row' }, el('span', { class: 'num', text: `${Math.floor(ply / 2) + 1}.` }));
      if (ply % 2 === 1) row.append(el('span', { class: 'mv-gap', text: '\u2026' }));
      rows.push(row);
    }
    row.append(el('span', { class: `mv${i === list.length - 1 ? ' latest' : ''}`, dataset: { move: m }, text: m }));
  });
  fill(box, rows);
  box.scrollTop = box.scrollHeight;
}

/** Remote Sensing's four holding bins, or nothing for other variants. */
function binsEl(fen, names) {
  const bins = parseBins(fen);
  if (!bins) return null;
  const labels = ['White, light', 'White, dark', 'Black, light', 'Black, dark'];
  return el('div', { id: 'bins', class: 'bins' }, bins.map((content, i) => el('div', { class: 'bin', dataset: { bin: i } },
    el('div', { class: 'bin-label', text: labels[i] }),
    el('div', { class: 'bin-pieces' }, content ? Array.from(content, (ch) => pieceEl(ch, names)) : el('span', { class: 'empty', text: 'empty' })))));
}

/* ================================================================ table seat */

function showTable(r, view, id, token) {
  const base = `/api/tables/${encodeURIComponent(id)}/seat/${encodeURIComponent(token)}`;
  const st = { data: null, picker: null, choice: null, askKey: '', hint: null, localError: '', claim: false, filter: '' };

  const head = el('div', { class: 'table-head' });
  const fieldsBox = el('div', { class: 'fields' });
  const askBox = el('div', { class: 'ask-box' });
  const result = el('div', { id: 'result', class: 'result', hidden: true });
  const error = el('div', { id: 'error', class: 'error' });
  const events = el('ol', { id: 'events', class: 'events', reversed: true });
  const raw = el('pre', { id: 'observation', class: 'observation' });
  const rawBox = el('details', { class: 'raw' }, el('summary', { text: 'Observation text' }), raw);

  const accept = (data) => {
    if (r !== current) return;
    if (st.data && data.version < st.data.version) return;
    st.data = data;
    const key = JSON.stringify(data.ask);
    if (key !== st.askKey) { // a new question: start the clicking and the hint again
      st.askKey = key;
      st.choice = null;
      st.hint = null;
      st.filter = '';
      filterInput.value = '';
      const board = (data.fields || []).find((f) => f.kind === 'board');
      const size = boardSize(data, board);
      st.picker = data.ask ? makePicker(data.ask.actions.map((a) => parseSteps(a, size.files, size.ranks))) : null;
    }
    render();
  };

  const setError = (text) => { st.localError = text || ''; renderError(); };
  const renderError = () => {
    const d = st.data;
    fill(error, st.localError || (d && d.refused) || '',
      st.claim ? el('button', { id: 'claim', type: 'button', onclick: claim }, 'Take over') : null);
  };

  // Sends an action; 409 means another window holds the seat.
  const act = async (action) => {
    if (st.picker) st.picker.prefix = [];
    st.choice = null;
    try {
      const reply = await api('POST', `${base}/act`, { action, client: clientId() });
      st.claim = reply.status === 409;
      st.localError = reply.ok ? '' : reply.data.error;
    } catch (e) {
      st.localError = 'cannot reach the server';
    }
    render();
  };

  const claim = async () => {
    const data = await postOrReport(`${base}/claim`, { client: clientId() }, setError);
    if (data) { st.claim = false; st.localError = ''; render(); }
  };

  const askHint = async () => {
    const data = await postOrReport(`${base}/hint`, {}, setError);
    if (data && data.action) { st.hint = data.action; render(); }
  };

  const onSquare = (sq) => {
    if (!st.picker) return;
    const res = pickerClick(st.picker, sq);
    st.choice = null;
    if (res.complete.length === 1 && !res.longer) return act(res.complete[0].text);
    if (res.complete.length) st.choice = res;
    renderFields();
  };

  const renderFields = () => {
    const d = st.data;
    const hinted = st.hint ? parseSteps(st.hint).squares : [];
    let first = true;
    const nodes = (d.fields || []).map((f) => {
      if (f.kind === 'board') {
        const size = boardSize(d, f);
        const interactive = first;
        first = false;
        return el('div', { class: 'field-board' }, el('div', { class: 'field-label', text: f.label }),
          el('div', { class: 'board-wrap' }, drawBoard({
            id: interactive ? 'board' : null, files: size.files, ranks: size.ranks,
            cells: parsePlacement(f.text, size.files, size.ranks),
            classes: (sq) => (interactive ? pickerClasses(st.picker, sq, true) : []).concat(hinted.includes(sq) ? ['hint'] : []),
            onSquare: interactive ? onSquare : null,
          }), interactive && st.choice ? chooserEl(st.choice, null, act, () => { st.choice = null; renderFields(); }) : null));
      }
      if (f.kind === 'cards') return cardsEl(f);
      return el('div', { class: 'text-field' }, el('span', { class: 'field-label', text: `${f.label}: ` }), el('span', { class: 'field-value', text: f.text }));
    });
    // Boards first, the rest beside them.
    const boards = nodes.filter((n) => n.classList.contains('field-board'));
    const others = nodes.filter((n) => !n.classList.contains('field-board'));
    fill(fieldsBox, boards.length ? el('div', { class: 'field-boards' }, boards) : null,
      others.length ? el('div', { class: 'field-list' }, others) : null);
    raw.textContent = d.observation || '';
    if (!(d.fields || []).length) rawBox.open = true; // nothing else to show
  };

  // "Your turn", the action buttons (filtered past 60) and the hint. The parts stay in place
  // so the filter keeps its focus while the list under it changes.
  const askLine = el('div', { class: 'ask-line' });
  const filterInput = el('input', { id: 'action-filter', type: 'search', placeholder: 'filter actions', spellcheck: 'false' });
  const filterCount = el('span', { class: 'count' });
  const filterRow = el('div', { class: 'filter', hidden: true }, filterInput, filterCount);
  const actionsBox = el('div', { id: 'actions', class: 'actions' });
  const hintRow = el('div', { class: 'hint-row' });
  askBox.append(askLine, filterRow, actionsBox, hintRow);
  filterInput.addEventListener('input', () => { st.filter = filterInput.value; renderActions(); });

  const renderActions = () => {
    const d = st.data;
    const all = (d.ask && d.ask.actions) || [];
    const many = all.length > 60;
    const needle = st.filter.trim().toLowerCase();
    const matching = many && needle ? all.filter((a) => a.toLowerCase().includes(needle)) : all;
    const shown = many ? matching.slice(0, 60) : matching;
    filterRow.hidden = !many;
    filterCount.textContent = ` ${shown.length} of ${all.length} shown`;
    fill(actionsBox, shown.map((a) => el('button', {
      type: 'button', class: `action${a === st.hint ? ' hinted' : ''}`, dataset: { action: a }, onclick: () => act(a),
    }, a)));
  };

  const renderAsk = () => {
    const d = st.data;
    fill(askLine, d.ask ? el('div', { id: 'ask', class: 'ask', text: `Your turn: ${d.ask.kind}` }) : null);
    renderActions();
    fill(hintRow,
      d.hint ? el('button', { id: 'hint', type: 'button', disabled: !d.ask, onclick: askHint }, 'Hint') : null,
      st.hint ? el('div', { id: 'hint-result', class: 'hint-result' }, 'Suggested: ',
        el('strong', { text: st.hint }), ' ',
        el('button', { id: 'hint-play', type: 'button', dataset: { hintAction: st.hint }, onclick: () => act(st.hint) }, 'Play it')) : null);
  };

  const render = () => {
    const d = st.data;
    if (!d) return;
    const players = (d.players || []).map((p, i) => `${i}: ${p}${i === d.seat ? ' (you)' : ''}`).join(' \u00b7 ');
    fill(head,
      el('h2', { text: `${d.game} \u00b7 seat ${d.seat} of ${d.seats}` }),
      el('div', { class: 'roles', text: `Roles: ${(d.roles || []).join(', ') || '\u2014'}` }),
      el('div', { class: 'players', text: `Seats: ${players}` }),
      el('div', { id: 'actor', class: 'actor', text: `Acting: ${d.actor || '\u2014'}` }));
    renderFields();
    renderAsk();
    const o = d.outcome;
    result.hidden = !o;
    result.textContent = o ? [o.result, o.scores_text ? `scores ${o.scores_text}` : o.scores ? `scores ${o.scores.map(formatNum).join(', ')}` : '', o.reason || ''].filter(Boolean).join(' \u2014 ') : '';
    renderError();
    fill(events, (d.events || []).slice().reverse().map((e) => el('li', { text: e })));
    document.body.dataset.version = String(d.version);
  };

  view.append(el('div', { class: 'game table' },
    el('div', { class: 'game-board' }, fieldsBox, rawBox),
    el('div', { class: 'game-side card' }, head, result, askBox, error,
      el('h3', { text: 'Events' }), events)));
  longPoll(r, base, () => (st.data ? st.data.version : null), accept, setError);
}

/** The size of a table's board field: from the view, else counted from its text. */
function boardSize(view, boardField) {
  if (view.files && view.ranks) return { files: view.files, ranks: view.ranks };
  return boardField ? placementSize(boardField.text) : { files: 8, ranks: 8 };
}

/**
 * A cards field as chips. Groups are separated by ','; a label like "hands (white,black)"
 * names them. Tokens: a letter (upper case a white card), `?` face down, `-` none, `#N` a
 * pile of N, `3r` a numbered card.
 */
function cardsEl(f) {
  const m = /^(.*?)\s*\(([^)]*)\)\s*$/.exec(f.label);
  const title = m ? m[1] : f.label;
  const names = m ? m[2].split(',').map((s) => s.trim()) : [];
  const groups = f.text.split(',');
  return el('div', { class: 'cards-field' }, el('div', { class: 'field-label', text: title }),
    groups.map((g, i) => el('div', { class: 'card-group' },
      groups.length > 1 || names.length ? el('span', { class: 'group-label', text: names[i] || `#${i + 1}` }) : null,
      cardChips(g))));
}

function cardChips(text) {
  const tokens = text.match(/#\d+|\d+[a-z]|[A-Za-z]|\?|-/g) || [];
  if (!tokens.length) return [el('span', { class: 'chip raw', text })];
  return tokens.map((t) => {
    if (t === '?') return el('span', { class: 'chip down', title: 'face down', text: '?' });
    if (t === '-') return el('span', { class: 'chip none', text: 'none' });
    if (t[0] === '#') return el('span', { class: 'chip pile', title: `${t.slice(1)} cards`, text: `${t.slice(1)} cards` });
    if (/\d/.test(t)) return el('span', { class: `chip number ${t.endsWith('r') ? 'red' : 'blackish'}`, text: t });
    const upper = t.toUpperCase();
    const white = t === upper;
    const glyph = GLYPHS[upper];
    return el('span', {
      class: `chip ${white ? 'white' : 'black'}`, dataset: { card: t },
      title: `${white ? 'white' : 'black'} ${CHESS_NAMES[upper] || upper}`,
    }, glyph ? el('span', { class: 'chip-glyph', text: glyph + TEXT_STYLE }) : null, el('span', { class: 'chip-letter', text: t }));
  });
}

/* ================================================================ playtest */

function showPlaytest(r, view, id) {
  const base = `/api/playtests/${encodeURIComponent(id)}`;
  const title = el('h2', { text: `Playtest ${id}` });
  const barFill = el('div', { class: 'bar-fill' });
  const progress = el('span', { id: 'pt-progress', text: '\u2026' });
  const seconds = el('span', { id: 'pt-seconds', class: 'muted' });
  const state = el('span', { id: 'pt-state', class: 'muted' });
  const stop = el('button', { id: 'pt-stop', type: 'button' }, 'Stop');
  const error = el('div', { id: 'error', class: 'error' });
  const charts = el('div', { id: 'charts', class: 'charts' });
  const tables = el('div', { class: 'pt-tables' });
  stop.addEventListener('click', async () => {
    await postOrReport(`${base}/stop`, {}, (text) => { error.textContent = text || ''; });
  });

  const render = (d) => {
    title.textContent = `Playtest ${d.id || id}: ${d.game}`;
    const frac = d.games ? Math.min(1, d.done / d.games) : 0;
    barFill.style.width = `${(frac * 100).toFixed(1)}%`;
    progress.textContent = `${d.done} / ${d.games}`;
    seconds.textContent = ` \u00b7 ${formatNum(d.seconds || 0)} s`;
    state.textContent = d.finished ? ' \u00b7 finished' : ' \u00b7 running';
    stop.disabled = !!d.finished;
    error.textContent = d.error || '';
    fill(charts,
      (d.results || []).length ? chartBox('Results', barChart((d.results || []).map((x) => ({ label: x.result, count: x.count })))) : null,
      (d.histograms || []).map((h) => chartBox(h.key, barChart(histogramBins(h.values || [])))));
    fill(tables, meansTable(d.means || []), ratiosTable(d.ratios || []));
    document.body.dataset.version = String(d.done);
  };

  view.append(el('div', { class: 'playtest card' }, title,
    el('div', { class: 'progress' }, el('div', { class: 'bar' }, barFill),
      el('div', { class: 'progress-text' }, progress, seconds, state, ' ', stop)),
    error, charts, tables));

  // Polls every 500 ms until the playtest is finished (1 s after a failure).
  (async () => {
    while (r === current) {
      let wait = 500;
      try {
        const reply = await api('GET', base, undefined, r.controller.signal);
        if (r !== current) return;
        if (reply.ok) {
          render(reply.data);
          if (reply.data.finished) return;
        } else {
          error.textContent = reply.data.error;
          if (reply.status === 404) return;
          wait = 1000;
        }
      } catch (e) {
        if (r !== current) return;
        error.textContent = 'cannot reach the server; retrying';
        wait = 1000;
      }
      await sleep(wait);
    }
  })();
}

function chartBox(title, svg) {
  return el('figure', { class: 'chart-box' }, el('figcaption', { text: title }), svg);
}

/** Counts per distinct value, or 30 equal bins when there are more distinct values than that. */
function histogramBins(values) {
  const nums = values.filter((v) => typeof v === 'number' && Number.isFinite(v));
  const counts = new Map();
  for (const v of nums) counts.set(v, (counts.get(v) || 0) + 1);
  const distinct = Array.from(counts.keys()).sort((a, b) => a - b);
  if (distinct.length <= 30) return distinct.map((v) => ({ label: formatNum(v), count: counts.get(v) }));
  const lo = distinct[0], hi = distinct[distinct.length - 1], n = 30, width = (hi - lo) / n;
  // The axis shows each bin's lower bound; the tooltip its whole range.
  const bins = Array.from({ length: n }, (_, i) => ({
    label: `${formatNum(lo + i * width)}\u2013${formatNum(lo + (i + 1) * width)}`, tick: formatNum(lo + i * width), count: 0,
  }));
  for (const v of nums) bins[Math.min(n - 1, Math.floor((v - lo) / width))].count += 1;
  return bins;
}

/** A vertical bar chart as SVG: bars [{label, count}], counts above, some labels below. */
function barChart(bars) {
  const W = 520, H = 210, left = 40, right = 10, top = 16, bottom = 28;
  const max = Math.max(1, ...bars.map((b) => b.count));
  const slot = (W - left - right) / Math.max(1, bars.length);
  const every = Math.max(1, Math.ceil(bars.length / 10)); // at most about 10 labels
  const y = (c) => top + (H - top - bottom) * (1 - c / max);
  const parts = [
    svgEl('line', { x1: left, y1: H - bottom, x2: W - right, y2: H - bottom, class: 'axis' }),
    svgEl('text', { x: left - 4, y: top + 4, 'text-anchor': 'end', class: 'tick' }, String(max)),
    svgEl('text', { x: left - 4, y: H - bottom, 'text-anchor': 'end', class: 'tick' }, '0'),
  ];
  bars.forEach((b, i) => {
    const x = left + i * slot;
    const bw = Math.max(1, slot * 0.8);
    parts.push(svgEl('rect', { x: x + slot * 0.1, y: y(b.count), width: bw, height: H - bottom - y(b.count), class: 'bar-rect' },
      svgEl('title', {}, `${b.label}: ${b.count}`)));
    if (bars.length <= 30 && b.count) {
      parts.push(svgEl('text', { x: x + slot / 2, y: y(b.count) - 3, 'text-anchor': 'middle', class: 'count' }, String(b.count)));
    }
    if (i % every === 0) {
      parts.push(svgEl('text', { x: x + slot / 2, y: H - bottom + 14, 'text-anchor': 'middle', class: 'tick' }, b.tick || b.label));
    }
  });
  return svgEl('svg', { class: 'chart', viewBox: `0 0 ${W} ${H}`, role: 'img' }, parts);
}

function meansTable(means) {
  if (!means.length) return null;
  return el('table', { id: 'pt-means', class: 'stats' },
    el('thead', {}, el('tr', {}, ['Key', 'Mean \u00b1 se', 'Total'].map((h) => el('th', { text: h })))),
    el('tbody', {}, means.map((m) => el('tr', {},
      el('td', { text: m.key }), el('td', { text: `${formatNum(m.mean)} \u00b1 ${formatNum(m.se)}` }),
      el('td', { text: formatNum(m.total) })))));
}

function ratiosTable(ratios) {
  if (!ratios.length) return null;
  return el('table', { id: 'pt-ratios', class: 'stats' },
    el('thead', {}, el('tr', {}, ['Ratio', 'Value \u00b1 se', 'Of'].map((h) => el('th', { text: h })))),
    el('tbody', {}, ratios.map((x) => el('tr', {},
      el('td', { text: x.label }), el('td', { text: `${formatNum(x.value)} \u00b1 ${formatNum(x.se)}` }),
      el('td', { text: formatNum(x.of) })))));
}

/* ================================================================ start */

window.addEventListener('hashchange', route);
route();
