// Menagerie's browser page, shared parts: building elements, calling the API, numbers and
// clocks for people, squares, moves and FEN placements, drawing a board, picking moves by
// clicks, route tokens, long polling and POSTing. The page speaks the JSON API of
// `menagerie serve` (docs/serve.md) and nothing else: no framework, no build step, nothing
// fetched from elsewhere. Server text only ever enters the page through textContent or
// attributes, never as HTML.
//
// The server sends common.js, lobby.js, board.js, table.js, playtest.js and main.js joined in
// that order as one classic script (/app.js): no modules, one set of top-level names, and
// only main.js runs anything at load time.
'use strict';

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

/**
 * Calls the API; resolves to {ok, status, data}; rejects only on a network failure.
 * A POST is always JSON (the server requires the type): `{}` when there is nothing to send.
 */
async function api(method, path, body, signal) {
  const opts = { method, headers: {}, signal };
  if (method === 'POST' || body !== undefined) {
    opts.headers['Content-Type'] = 'application/json';
    opts.body = JSON.stringify(body === undefined ? {} : body);
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

/** The size of a placement: its ranks, and the squares of its top rank (a digit run counts as
 * that many squares, anything else as one). */
function placementSize(text) {
  const rows = text.split(/[\s[]/)[0].split('/');
  let files = 0;
  for (const run of rows[0].match(/\d+|./g) || []) files += /\d/.test(run) ? Number(run) : 1;
  return { files, ranks: rows.length };
}

// Our drawings of the fairy pieces, by the name engine.ini gives them, on a 45 x 45 grid:
// 'b' a filled body path, 'd' a detail line on the body, 'w' a line beside it (a sensor's
// waves), 'o' a filled circle "cx cy r". A compound of the
// knight (archbishop, princess, chancellor, fortress) wears the knight's ear.
const PLINTH = ['b', 'M10 37h25v4H10z'];
const MITRE = [['b', 'M17 30h11v7H17z'], ['b', 'M22.5 6c-5.5 4.5-9 10-9 15.5 0 4.2 2.3 7.5 4.5 8.5h9c2.2-1 4.5-4.3 4.5-8.5 0-5.5-3.5-11-9-15.5z'], ['d', 'M19.5 16.5l6 6']];
const TOWER = [['b', 'M12 9h4.5v3.5h4V9h4v3.5h4V9H33v8l-3.5 2.5V37h-14V19.5L12 17z'], ['d', 'M15.5 20h14']];
const EAR = ['b', 'M27.5 12.5L34 6.5l-0.5 8.5z'];
const DISH = [['b', 'M21 27h3v10h-3z'], ['b', 'M11.5 18a11 11 0 0 0 22 0z'], ['o', '22.5 18 2']];
const WAVE = ['w', 'M27 8.5a7 7 0 0 1 6 6M28.5 4.5a11 11 0 0 1 9 9'];
const WAVE_LEFT = ['w', 'M18 8.5a7 7 0 0 0-6 6M16.5 4.5a11 11 0 0 0-9 9'];
const CROSS = ['w', 'M6 5l6 6M12 5l-6 6'];
const OFF = ['w', 'M8 40L38 6'];
const FAIRY_ART = {
  archbishop: [PLINTH, ...MITRE, EAR],
  princess: [PLINTH, ...MITRE, EAR, ['b', 'M19 8l1.5-4 2 2.5 2-2.5 1.5 4z']],
  chancellor: [PLINTH, ...TOWER, EAR],
  fortress: [PLINTH, ...TOWER, EAR, ['b', 'M22.5 9V2l6 2.5-6 2.5']],
  beast: [['b', 'M10 38c-2-9 3-17 12.5-17S37 29 35 38z'], ['b', 'M17.5 11.5l-4-7 7.5 3.5zM27.5 11.5l4-7-7.5 3.5z'],
    ['o', '22.5 15 6.5'], ['d', 'M19.5 14.5h.1M25.5 14.5h.1M16 30c2 2 4 3 6.5 3s4.5-1 6.5-3']],
  duke: [['b', 'M9 31L7 14l8 7.5 7.5-13 7.5 13 8-7.5-2 17z'], ['b', 'M9 31h27v6H9z'], ['d', 'M12 34h21']],
  friendly: [PLINTH, ...DISH, WAVE],
  enemy: [PLINTH, ...DISH, WAVE, CROSS],
  mega: [PLINTH, ...DISH, WAVE, WAVE_LEFT],
  'friendly-off': [PLINTH, ...DISH, WAVE, OFF],
  'enemy-off': [PLINTH, ...DISH, WAVE, CROSS, OFF],
  'mega-off': [PLINTH, ...DISH, WAVE, WAVE_LEFT, OFF],
};

/** A fairy piece's drawing as an SVG element, or null when we have none for the name. */
function fairySvg(name) {
  const art = FAIRY_ART[name];
  if (!art) return null;
  return svgEl('svg', { viewBox: '0 0 45 45', 'aria-hidden': 'true' }, art.map(([kind, d]) => {
    if (kind === 'o') {
      const [cx, cy, r] = d.split(' ');
      return svgEl('circle', { class: 'body', cx, cy, r });
    }
    return svgEl('path', { class: { b: 'body', d: 'detail', w: 'outer' }[kind], d });
  }));
}

/**
 * A piece as an element: a chess glyph for K Q R B N P, our drawing for the fairy pieces we
 * have drawn, a circled letter otherwise; its colour and name on hover.
 */
function pieceEl(ch, names) {
  const upper = ch.toUpperCase();
  const white = ch === upper;
  const name = (names && names[upper]) || CHESS_NAMES[upper] || upper;
  const glyph = GLYPHS[upper];
  const art = glyph ? null : fairySvg(name);
  return el('span', {
    class: `piece ${white ? 'white' : 'black'} ${glyph ? 'glyph' : art ? 'drawn' : 'fairy'}`,
    dataset: { piece: ch, name },
    title: `${white ? 'white' : 'black'} ${name}`,
    text: glyph ? glyph + TEXT_STYLE : art ? null : upper,
  }, art);
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
 * Draws a board with coordinates on its edges. Its squares shrink with the window (a phone
 * shows the whole board).
 * opts: files, ranks, cells (Map from parsePlacement), holes (Set), marked (Set), flipped,
 * names (letter -> name), classes(sq) -> extra classes, onSquare(sq), id; with canDrag(sq) and
 * onDragStart(sq) the pieces are also dragged (see boardPointerDown).
 */
function drawBoard(opts) {
  const { files, ranks, cells, flipped } = opts;
  const holes = opts.holes || new Set();
  const size = Math.max(files, ranks);
  const sq = Math.max(30, Math.min(64, Math.floor(600 / size)));
  const grid = el('div', { class: `board${opts.canDrag ? ' draggable' : ''}`, id: opts.id || null });
  // The coordinates' column and the page's margins take about 3.4em of the window's width.
  grid.style.setProperty('--sq', `min(${sq}px, calc((100vw - 3.4em) / ${files}))`);
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
  // Rings (Split-Brain's marks) and badges (checkers standing under a piece) on the square.
  for (const ring of (opts.rings && opts.rings.get(name)) || []) {
    node.append(el('span', { class: `ring ring-${ring.index}`, title: ring.name, dataset: { ring: ring.name } }));
  }
  const badge = opts.badges && opts.badges.get(name);
  if (badge) node.append(badgeEl(badge));
  if (drag && drag.ghost && drag.from === name && drag.opts.id === opts.id) node.classList.add('drag-origin');
  if (opts.canDrag) node.addEventListener('pointerdown', (e) => boardPointerDown(e, name, opts));
  else if (opts.onSquare) node.addEventListener('click', () => opts.onSquare(name));
  return node;
}

/**
 * A badge on a square: `w2`/`b1` are that many White or Black checkers (Booster), anything
 * else is written as it is (Cloak's checker numbers).
 */
function badgeEl(label) {
  const m = /^([wb])(\d+)$/.exec(label);
  const side = m ? (m[1] === 'w' ? ' white' : ' black') : '';
  const title = m ? `${m[2]} ${m[1] === 'w' ? 'white' : 'black'} checker${m[2] === '1' ? '' : 's'}` : `checker ${label}`;
  return el('span', { class: `badge${side}`, title, dataset: { badge: label }, text: m ? m[2] : label });
}

/* ================================================================ dragging pieces */

// A press on a square of a draggable board: released where it was pressed, it is a click
// (opts.onSquare); moved first, the piece follows the pointer (mouse, pen or touch) and the
// drop is a click on the square under it. The state lives here, not in the squares, since the
// board is redrawn while a piece is dragged (the legal destinations appear).
let drag = null;

function boardPointerDown(e, name, opts) {
  if (e.button !== 0) return;
  dragCancel(); // a drag whose release was lost
  unlockSound();
  e.preventDefault();
  drag = { from: name, x: e.clientX, y: e.clientY, id: e.pointerId, opts, ghost: null, over: null };
  window.addEventListener('pointermove', dragMove);
  window.addEventListener('pointerup', dragEnd);
  window.addEventListener('pointercancel', dragEnd);
}

/** The square element under a point of the window, if any. */
function squareAt(x, y) {
  const under = document.elementFromPoint(x, y);
  return under ? under.closest('[data-square]') : null;
}

function boardSquare(opts, name) {
  const board = opts.id ? document.getElementById(opts.id) : null;
  return board ? board.querySelector(`[data-square="${name}"]`) : null;
}

function dragMove(e) {
  if (!drag || e.pointerId !== drag.id) return;
  if (!drag.ghost) {
    if (Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 6 || !drag.opts.canDrag(drag.from)) return;
    const from = boardSquare(drag.opts, drag.from);
    const piece = from && from.querySelector('.piece');
    if (!piece) return;
    const box = from.getBoundingClientRect();
    drag.ghost = piece.cloneNode(true);
    drag.ghost.classList.add('drag-ghost');
    drag.ghost.style.setProperty('--sq', `${box.width}px`);
    document.body.append(drag.ghost);
    drag.opts.onDragStart(drag.from); // selects the piece: the board is redrawn with its targets
    const origin = boardSquare(drag.opts, drag.from);
    if (origin) origin.classList.add('drag-origin');
  }
  drag.ghost.style.left = `${e.clientX}px`;
  drag.ghost.style.top = `${e.clientY}px`;
  const over = squareAt(e.clientX, e.clientY);
  if (drag.over && drag.over !== over) drag.over.classList.remove('drag-over');
  if (over) over.classList.add('drag-over');
  drag.over = over;
}

/** Ends a drag without a drop (a new press, or the page left). */
function dragCancel() {
  if (!drag) return;
  const d = drag;
  drag = null;
  window.removeEventListener('pointermove', dragMove);
  window.removeEventListener('pointerup', dragEnd);
  window.removeEventListener('pointercancel', dragEnd);
  if (d.ghost) d.ghost.remove();
  if (d.over) d.over.classList.remove('drag-over');
}

function dragEnd(e) {
  if (!drag || e.pointerId !== drag.id) return;
  const d = drag;
  drag = null;
  window.removeEventListener('pointermove', dragMove);
  window.removeEventListener('pointerup', dragEnd);
  window.removeEventListener('pointercancel', dragEnd);
  if (d.over) d.over.classList.remove('drag-over');
  if (!d.ghost) {
    if (e.type === 'pointerup') d.opts.onSquare(d.from);
    return;
  }
  d.ghost.remove();
  const origin = boardSquare(d.opts, d.from);
  if (origin) origin.classList.remove('drag-origin');
  const to = e.type === 'pointerup' ? squareAt(e.clientX, e.clientY) : null;
  // Dropped on another square: that square is the next click; elsewhere the piece stays chosen.
  const board = to && to.closest('.board');
  if (board && board.id === d.opts.id && to.dataset.square !== d.from) {
    d.opts.onSquare(to.dataset.square);
  }
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

/* ================================================================ routes, polling, posting */

// Each visit to a route gets a token; loops and timers of an old route see it changed and stop.
let current = null;

function enterRoute() {
  if (current) {
    current.controller.abort();
    current.timers.forEach((t) => clearInterval(t));
    current.cleanup.forEach((f) => f());
  }
  dragCancel();
  current = { controller: new AbortController(), timers: [], cleanup: [] };
  delete document.body.dataset.version;
  document.title = 'Menagerie';
  return current;
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
