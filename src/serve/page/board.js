// The two-player board page (#/board/ID/TOKEN for a side's player, #/board/ID for a
// spectator): the board (moves by click-click or drag and drop), clocks, the move list in SAN
// (browsed by clicks, buttons or the arrow keys), typed moves, take back (asked of the other
// person), resign (both confirmed), flip, a sound on moves, "your turn" in the tab's title,
// PGN out and a new game from a FEN or a PGN.

/* ================================================================ two-player board */

function showBoard(r, view, id, token) {
  const base = `/api/boards/${encodeURIComponent(id)}${token ? `/${encodeURIComponent(token)}` : ''}`;
  // browse: null on the game's position, else the number of moves shown (0: the start).
  const st = { data: null, flipped: false, picker: null, choice: null, clockAt: 0, browse: null };
  const error = el('div', { id: 'error', class: 'error' });
  const setError = (text) => { error.textContent = text || ''; };

  // Accepts a board from a poll or a POST reply; older versions are ignored.
  const accept = (data) => {
    if (r !== current) return;
    if (st.data && data.version < st.data.version) return;
    const changed = !st.data || data.version !== st.data.version;
    const before = st.data ? (st.data.moves || []).length : null;
    st.data = data;
    if (before !== null && (data.moves || []).length > before) moveSound();
    // A take-back or a new game may leave fewer moves than the one browsed.
    if (st.browse !== null && st.browse >= (data.moves || []).length) st.browse = null;
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

  const myTurn = () => {
    const d = st.data;
    return d && !d.result && !d.thinking && d.you && d.you === d.side;
  };
  const canMove = () => myTurn() && st.browse === null;
  const lastPicked = () => (st.picker && st.picker.prefix.length ? st.picker.prefix[st.picker.prefix.length - 1] : null);
  // A piece may be dragged where a move starts, or on to the next step of a move begun.
  const canDrag = (sq) => canMove() && (pickerStarts(st.picker).has(sq) || lastPicked() === sq);
  const onDragStart = (sq) => { if (lastPicked() !== sq) onSquare(sq); };
  const takeBack = () => {
    const d = st.data;
    const accept = d && d.takeback && d.takeback !== d.you;
    if (!window.confirm(accept ? 'Accept the take-back?' : 'Take back your last move?')) return;
    post('undo', { confirm: true });
  };
  const resign = () => { if (window.confirm('Resign this game?')) post('resign', { confirm: true }); };

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
    const moves = d.moves || [];
    const shown = st.browse === null ? moves.length : st.browse;
    const last = shown ? parseSteps(moves[shown - 1]).squares : [];
    const history = d.history || [];
    const fen = st.browse === null ? d.fen : (shown ? history[shown - 1].fen : d.start_fen);
    const check = new Set(st.browse === null ? d.check || [] : []);
    const files = d.files, ranks = d.ranks;
    const board = drawBoard({
      id: 'board', files, ranks, flipped: st.flipped, names: d.pieces,
      cells: parsePlacement(fen || '', files, ranks),
      holes: new Set(d.holes || []), marked: new Set(d.marked || []),
      classes: (sq) => (last.includes(sq) ? ['last'] : []).concat(check.has(sq) ? ['check'] : [],
        canMove() ? pickerClasses(st.picker, sq, false) : []),
      onSquare, canDrag: canMove() ? canDrag : null, onDragStart,
    });
    board.classList.toggle('browsing', st.browse !== null);
    const extra = (d.legal || []).filter((m) => !parseSteps(m).squares.length);
    fill(area,
      el('div', { class: 'board-wrap' }, board,
        st.choice && canMove() ? chooserEl(st.choice, d.pieces, play, () => { st.choice = null; drawArea(); }, d.side === 'black') : null),
      extra.length && canMove() ? el('div', { class: 'other-moves' }, 'Other moves: ',
        extra.map((m) => el('button', { type: 'button', dataset: { choice: m }, onclick: () => play(m) }, m))) : null,
      binsEl(d.holdings || [], d.pieces));
  };

  const status = el('div', { class: 'status' });
  const clocks = el('div', { class: 'clocks' });
  const result = el('div', { id: 'result', class: 'result', hidden: true });
  const moves = el('div', { id: 'moves', class: 'moves' });
  const fenNow = el('div', { id: 'fen', class: 'fen' });
  const title = el('h2', {});
  const who = el('div', { id: 'you', class: 'players' });
  const offer = el('div', { id: 'takeback', class: 'note' });
  const invites = el('ul', { id: 'invitations', class: 'links' });
  const mine = el('div', { class: 'mine' });

  const render = () => {
    const d = st.data;
    if (!d) return;
    title.textContent = `${d.variant} \u00b7 ${d.id || id}`;
    who.textContent = d.you ? `You play ${d.you}` : 'You are watching (the players have their own links)';
    mine.hidden = !d.you;
    fill(offer, d.takeback && !d.result ? (d.takeback === d.you
      ? 'You asked to take back; waiting for the other player.'
      : [`${capital(d.takeback)} asks to take back. `, el('button', { id: 'accept-takeback', type: 'button', onclick: takeBack }, 'Accept')]) : null);
    fill(invites, keptInvitations(id, 'board').map((inv) => invitationItem('board', id, inv.side, `${capital(inv.side)}'s player`, inv.code)));
    drawArea();
    renderStatus(status, d);
    renderClocks(clocks, d, st.clockAt);
    result.hidden = !d.result;
    result.textContent = d.result ? `${d.result.result}${d.result.reason ? ` \u2014 ${d.result.reason}` : ''}` : '';
    renderMoveList(moves, d, st.browse, browse);
    fill(browsing, st.browse === null ? null : [`Move ${st.browse} of ${(d.moves || []).length} shown. `,
      el('button', { id: 'browse-now', type: 'button', onclick: () => browse(null) }, 'Back to the game')]);
    const shownFen = st.browse === null ? d.fen : (st.browse ? (d.history || [])[st.browse - 1].fen : d.start_fen);
    fenNow.textContent = shownFen || '';
    document.title = myTurn() ? `\u25cf Your turn \u00b7 ${d.variant} \u00b7 Menagerie` : `${d.variant} \u00b7 Menagerie`;
    document.body.dataset.version = String(d.version);
  };

  // Browsing earlier positions: n moves shown (null: the game as it stands).
  const browse = (n) => {
    const total = st.data ? (st.data.moves || []).length : 0;
    st.browse = n === null || n >= total ? null : Math.max(0, n);
    if (st.picker) st.picker.prefix = [];
    st.choice = null;
    render();
  };
  const shownNow = () => (st.browse === null ? (st.data.moves || []).length : st.browse);
  const step = (k) => { if (st.data) browse(shownNow() + k); };
  const onKey = (e) => {
    if (!st.data || r !== current || /^(INPUT|TEXTAREA|SELECT)$/.test((e.target && e.target.tagName) || '')) return;
    if (e.key === 'ArrowLeft') step(-1);
    else if (e.key === 'ArrowRight') step(1);
    else if (e.key === 'Home') browse(0);
    else if (e.key === 'End') browse(null);
    else return;
    e.preventDefault();
  };
  window.addEventListener('keydown', onKey);
  r.cleanup.push(() => window.removeEventListener('keydown', onKey));
  const browsing = el('div', { id: 'browsing', class: 'note' });
  const browseButtons = el('div', { class: 'row buttons browse' },
    el('button', { id: 'browse-first', type: 'button', title: 'the start (Home)', onclick: () => browse(0) }, '\u00ab'),
    el('button', { id: 'browse-prev', type: 'button', title: 'a move back (\u2190)', onclick: () => step(-1) }, '\u25c0'),
    el('button', { id: 'browse-next', type: 'button', title: 'a move on (\u2192)', onclick: () => step(1) }, '\u25b6'),
    el('button', { id: 'browse-last', type: 'button', title: 'the game now (End)', onclick: () => browse(null) }, '\u00bb'));
  const soundBox = el('input', { id: 'sound', type: 'checkbox' });
  soundBox.checked = soundOn();
  soundBox.addEventListener('change', () => setSoundOn(soundBox.checked));

  const moveInput = el('input', { id: 'move-input', type: 'text', placeholder: 'move, e.g. e2e4', spellcheck: 'false', autocomplete: 'off' });
  const sendTyped = () => {
    const text = moveInput.value.trim();
    if (!text) return;
    moveInput.value = '';
    play(text);
  };
  moveInput.addEventListener('keydown', (e) => { if (e.key === 'Enter') sendTyped(); });
  const fenInput = el('input', { id: 'fen-input', type: 'text', placeholder: 'FEN of a new game', spellcheck: 'false' });
  const pgnInput = el('textarea', { id: 'pgn-input', rows: '3', placeholder: 'PGN of a new game (its last position)', spellcheck: 'false' });
  const flip = () => { st.flipped = !st.flipped; if (st.data) drawArea(); };
  // The game as a PGN file (SAN where the variant has it, MMN otherwise).
  const savePgn = () => {
    if (!st.data || !st.data.pgn) return;
    const a = el('a', { href: URL.createObjectURL(new Blob([st.data.pgn], { type: 'application/x-chess-pgn' })) });
    a.download = `${st.data.variant}-${st.data.id || id}.pgn`;
    document.body.append(a);
    a.click();
    a.remove();
  };

  view.append(el('div', { class: 'game' },
    el('div', { class: 'game-board' }, area),
    el('div', { class: 'game-side card' },
      title, who, status, clocks, result, error, offer, invites,
      el('h3', { text: 'Moves' }), moves, browseButtons, browsing,
      mine,
      el('div', { class: 'row buttons' },
        el('button', { id: 'flip', type: 'button', onclick: flip }, 'Flip'),
        el('button', { id: 'save-pgn', type: 'button', onclick: savePgn }, 'Save PGN'),
        el('label', { class: 'sound' }, soundBox, ' Sound')),
      el('h3', { text: 'Position' }), fenNow)));
  mine.append(
    el('div', { class: 'row' }, moveInput, el('button', { id: 'move-send', type: 'button', onclick: sendTyped }, 'Move')),
    el('div', { class: 'row buttons' },
      el('button', { id: 'undo', type: 'button', onclick: takeBack }, 'Take back'),
      el('button', { id: 'resign', type: 'button', onclick: resign }, 'Resign')),
    el('div', { class: 'row' }, fenInput, el('button', {
      id: 'fen-send', type: 'button',
      onclick: () => { const fen = fenInput.value.trim(); if (fen) post('fen', { fen }); },
    }, 'New game from FEN')),
    el('div', { class: 'row' }, pgnInput, el('button', {
      id: 'pgn-send', type: 'button',
      onclick: () => { const pgn = pgnInput.value.trim(); if (pgn) post('pgn', { pgn }); },
    }, 'New game from PGN')));

  // Clocks count down locally between polls.
  r.timers.push(setInterval(() => { if (st.data) renderClocks(clocks, st.data, st.clockAt); }, 250));
  longPoll(r, base, () => (st.data ? st.data.version : null), accept, setError);
}

/** Side to move, players and the engine's thinking. */
function renderStatus(box, d) {
  const players = d.players || {};
  const who = (p) => (p === 'engine' && d.engine_level ? `engine (level ${d.engine_level})` : p || '?');
  fill(box,
    el('div', { id: 'side', class: 'side', text: d.result ? 'Game over' : `${capital(d.side || '')} to move` }),
    el('div', { id: 'players', class: 'players', text: `White: ${who(players.white)} \u00b7 Black: ${who(players.black)}` }),
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

/**
 * The move list in numbered pairs, in SAN where the variant has it (the board's history);
 * numbering follows the FEN's move number and side. A click shows the position after that
 * move; `shown` is the number of moves on the board (null: all).
 */
function renderMoveList(box, d, shown, onPick) {
  const list = d.moves || [];
  const names = (d.history || []).map((h) => h.move);
  const fields = (d.fen || '').split(' ');
  const fullmove = parseInt(fields[5], 10) || 1;
  const nowPly = (fullmove - 1) * 2 + (d.side === 'black' ? 1 : 0);
  const startPly = Math.max(0, nowPly - list.length);
  const at = shown === null || shown === undefined ? list.length : shown;
  const rows = [];
  let row = null;
  list.forEach((m, i) => {
    const ply = startPly + i;
    if (!row || ply % 2 === 0) {
      row = el('div', { class: 'move-row' }, el('span', { class: 'num', text: `${Math.floor(ply / 2) + 1}.` }));
      if (ply % 2 === 1) row.append(el('span', { class: 'mv-gap', text: '\u2026' }));
      rows.push(row);
    }
    const cls = `mv${i === list.length - 1 ? ' latest' : ''}${i === at - 1 ? ' shown' : ''}`;
    row.append(el('span', {
      class: cls, dataset: { move: m, ply: i + 1 }, title: m, text: names[i] || m,
      onclick: onPick ? () => onPick(i + 1) : null,
    }));
  });
  fill(box, rows);
  const mark = box.querySelector('.mv.shown');
  if (shown === null || shown === undefined) box.scrollTop = box.scrollHeight;
  else if (mark) mark.scrollIntoView({ block: 'nearest' });
}

/* ================================================================ sound */

const soundOn = () => localStorage.getItem('menagerie-sound') !== 'off';
const setSoundOn = (on) => localStorage.setItem('menagerie-sound', on ? 'on' : 'off');
let audio = null;

/** The page's audio, made or woken by a person's press (browsers start it muted before one). */
function unlockSound() {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === 'suspended') audio.resume();
  } catch (e) {
    audio = null; // no Web Audio here
  }
}
document.addEventListener('pointerdown', unlockSound, { capture: true });

/** A short click for a move (made by us, no file); counted in body's data-sounds. */
function moveSound() {
  if (!soundOn()) return;
  document.body.dataset.sounds = String(Number(document.body.dataset.sounds || 0) + 1);
  try {
    unlockSound();
    if (!audio) return;
    const t = audio.currentTime;
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.setValueAtTime(660, t);
    osc.frequency.exponentialRampToValueAtTime(220, t + 0.08);
    gain.gain.setValueAtTime(0.15, t);
    gain.gain.exponentialRampToValueAtTime(0.001, t + 0.1);
    osc.connect(gain).connect(audio.destination);
    osc.start(t);
    osc.stop(t + 0.1);
  } catch (e) {
    // no audio here (a browser without Web Audio): the move stays silent
  }
}

/** The pieces the game holds off the board (Remote Sensing's bins), as the server names them. */
function binsEl(holdings, names) {
  if (!holdings.length) return null;
  return el('div', { id: 'bins', class: 'bins' }, holdings.map((h, i) => el('div', { class: 'bin', dataset: { bin: i } },
    el('div', { class: 'bin-label', text: h.label }),
    el('div', { class: 'bin-pieces' }, h.letters
      ? Array.from(h.letters, (ch) => pieceEl(h.owner === 'black' ? ch.toLowerCase() : ch.toUpperCase(), names))
      : el('span', { class: 'empty', text: 'empty' })))));
}
