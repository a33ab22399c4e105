// One seat of a table game (#/table/ID/TOKEN): the fields of the seat's view (boards, cards,
// text), the actions asked for, a hint, taking the seat over and the events.

/* ================================================================ table seat */

function showTable(r, view, id, token) {
  const base = `/api/tables/${encodeURIComponent(id)}/seat/${encodeURIComponent(token)}`;
  const st = { data: null, picker: null, choice: null, askKey: '', hint: null, localError: '', claim: false, filter: '', arrange: null };

  const head = el('div', { class: 'table-head' });
  const fieldsBox = el('div', { class: 'fields' });
  const tableBox = el('div', { id: 'table-things', class: 'table-things', hidden: true });
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
      const size = boardSize(board);
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
      // The question answered: an answer to a question that has passed is refused.
      const ask = st.data && st.data.ask ? st.data.ask.id : null;
      const reply = await api('POST', `${base}/act`, { action, client: clientId(), ask });
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

  // The action a card chip plays: the one action without squares whose last word is the
  // card's token (Telepathy's `card N`), if exactly one is asked for.
  const chipAction = (token) => {
    const acts = (st.data.ask && st.data.ask.actions) || [];
    const found = acts.filter((a) => !parseSteps(a).squares.length && a.split(' ').pop() === token);
    return found.length === 1 ? found[0] : null;
  };

  const renderFields = () => {
    const d = st.data;
    const fields = d.fields || [];
    const hinted = st.hint ? parseSteps(st.hint).squares : [];
    // What the seat last saw (a `seen` field): the first board keeps it, the rest is fog.
    const seenField = fields.find((f) => f.kind === 'seen');
    const seen = seenField ? parseSeen(seenField.text) : null;
    // Badges (checkers) and rings (marks) are drawn on the first board.
    const badgeField = fields.find((f) => f.kind === 'badges');
    const badges = badgeField ? parseBadges(badgeField.text) : null;
    const ringField = fields.find((f) => f.kind === 'rings');
    const rings = ringField ? parseRings(ringField) : null;
    let first = true;
    const nodes = fields.map((f) => {
      if (f.kind === 'board') {
        const size = boardSize(f);
        const interactive = first;
        first = false;
        const cells = parsePlacement(f.text, size.files, size.ranks);
        const fog = interactive && seen ? seenOverlay(cells, seen, ownCase(d.roles)) : null;
        const board = drawBoard({
          id: interactive ? 'board' : null, files: size.files, ranks: size.ranks,
          cells,
          badges: interactive ? badges : null,
          rings: interactive ? rings : null,
          classes: (sq) => (interactive ? pickerClasses(st.picker, sq, true) : []).concat(hinted.includes(sq) ? ['hint'] : [],
            fog ? fog(sq) : []),
          onSquare: interactive ? onSquare : null,
        });
        // Asked to look (a seat that sees windows, asked for actions of one square each, a
        // pass aside): the window around the square under the pointer is previewed.
        const counts = d.ask ? d.ask.actions.map((a) => parseSteps(a, size.files, size.ranks).squares.length) : [];
        const looking = fog && counts.some((n) => n === 1) && counts.every((n) => n <= 1);
        if (looking) previewWindows(board);
        return el('div', { class: 'field-board' }, el('div', { class: 'field-label', text: f.label }),
          el('div', { class: 'board-wrap' }, board,
            interactive && st.choice ? chooserEl(st.choice, null, act, () => { st.choice = null; renderFields(); }) : null));
      }
      if (f.kind === 'cards') return cardsEl(f, chipAction, act, d.roles || []);
      if (f.kind.startsWith('track:')) return trackEl(f);
      if (f === ringField) return ringsLegendEl(f);
      const value = f.kind === 'badges' && badges && badges.size ? `${badges.size} on the board` : f.text;
      return el('div', { class: 'text-field' }, el('span', { class: 'field-label', text: `${f.label}: ` }), el('span', { class: 'field-value', text: value }));
    });
    // The board, the table (cards, tracks, marks) beside it in the side column, the other
    // fields under the board.
    const kindOf = (n) => (n.classList.contains('field-board') ? 'board' : n.classList.contains('text-field') ? 'text' : 'table');
    const boards = nodes.filter((n) => kindOf(n) === 'board');
    const table = nodes.filter((n) => kindOf(n) === 'table');
    const others = nodes.filter((n) => kindOf(n) === 'text');
    fill(fieldsBox, boards.length ? el('div', { class: 'field-boards' }, boards) : null,
      others.length ? el('div', { class: 'field-list' }, others) : null);
    fill(tableBox, table);
    tableBox.hidden = !table.length;
    raw.textContent = d.observation || '';
    if (!fields.length) rawBox.open = true; // nothing else to show
    renderArranger();
  };

  // Asked to choose an arrangement (every action `VERB WORD`, the words orderings of the same
  // pieces: Cloak's assignment), the seat arranges pieces in a row by swapping two at a time.
  const arrangeBox = el('div', { id: 'arranger', class: 'arranger', hidden: true });
  const renderArranger = () => {
    const d = st.data;
    const legal = arrangements((d.ask && d.ask.actions) || []);
    arrangeBox.hidden = !legal;
    if (!legal) { st.arrange = null; return; }
    if (!st.arrange || st.arrange.key !== st.askKey) {
      const start = st.hint && legal.words.has(st.hint.split(' ')[1]) ? st.hint.split(' ')[1] : legal.first;
      st.arrange = { key: st.askKey, word: start, picked: null };
    }
    const a = st.arrange;
    const black = (d.roles || []).includes('black');
    const swap = (i) => {
      if (a.picked === null) a.picked = i;
      else {
        const w = a.word.split('');
        [w[a.picked], w[i]] = [w[i], w[a.picked]];
        a.word = w.join('');
        a.picked = null;
      }
      renderArranger();
    };
    const action = `${legal.verb} ${a.word}`;
    const ok = legal.words.has(a.word);
    fill(arrangeBox,
      el('div', { class: 'field-label', text: `Arrange your pieces (files a to ${fileLetter(a.word.length - 1)}): click two to swap them` }),
      el('div', { class: 'arrange-row' }, a.word.split('').map((letter, i) => el('button', {
        type: 'button', class: `arrange-piece${a.picked === i ? ' picked' : ''}`, dataset: { slot: String(i), letter },
        title: `${fileLetter(i)}: ${CHESS_NAMES[letter] || letter}`, onclick: () => swap(i),
      }, glyphEl(black ? letter.toLowerCase() : letter), el('span', { class: 'slot-file', text: fileLetter(i) })))),
      el('div', { class: 'arrange-go' },
        el('button', { id: 'arrange-play', type: 'button', disabled: !ok, dataset: { action }, onclick: () => act(action) }, action),
        ok ? null : el('span', { class: 'arrange-why', text: ' not allowed by the rules: keep swapping' })));
  };

  // "Your turn", the action buttons (filtered past 60) and the hint. The parts stay in place
  // so the filter keeps its focus while the list under it changes.
  const askLine = el('div', { class: 'ask-line' });
  const filterInput = el('input', { id: 'action-filter', type: 'search', placeholder: 'filter actions', spellcheck: 'false' });
  const filterCount = el('span', { class: 'count' });
  const filterRow = el('div', { class: 'filter', hidden: true }, filterInput, filterCount);
  const actionsBox = el('div', { id: 'actions', class: 'actions' });
  const hintRow = el('div', { class: 'hint-row' });
  askBox.append(askLine, arrangeBox, filterRow, actionsBox, hintRow);
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
    result.textContent = o ? [o.result, o.scores ? `scores ${o.scores.map(formatNum).join(', ')}` : '', o.reason || ''].filter(Boolean).join(' \u2014 ') : '';
    renderError();
    fill(events, (d.events || []).slice().reverse().map((e) => el('li', { text: e })));
    document.body.dataset.version = String(d.version);
  };

  view.append(el('div', { class: 'game table' },
    el('div', { class: 'game-board' }, fieldsBox, rawBox),
    el('div', { class: 'game-side card' }, head, result, tableBox, askBox, error,
      el('h3', { text: 'Events' }), events)));
  longPoll(r, base, () => (st.data ? st.data.version : null), accept, setError);
}

/** A `seen` field's words (`e6=.,e7=p`) as a Map square -> letter ('' for empty). */
function parseSeen(text) {
  const seen = new Map();
  for (const w of text.split(',')) {
    const [sq, l] = w.split('=');
    if (sq && l !== undefined && /^[a-p]\d+$/.test(sq)) seen.set(sq, l === '.' ? '' : l);
  }
  return seen;
}

/**
 * Puts what the seat last saw on its board: a seen square that the board shows empty gets the
 * letter seen there (faded: it may have moved since), and returns the classes of each square:
 * `seen` in the window, `fog` for the other empty squares.
 */
function seenOverlay(cells, seen, own) {
  const stale = new Set();
  for (const [sq, l] of seen) {
    // The seat's own pieces are always on its board: where one was seen and is gone, it moved.
    if (own && own(l)) continue;
    if (l && cells.has(sq) && !cells.get(sq)) { cells.set(sq, l); stale.add(sq); }
  }
  return (sq) => {
    if (seen.has(sq)) return stale.has(sq) ? ['seen', 'stale'] : ['seen'];
    return cells.get(sq) ? [] : ['fog'];
  };
}

/** Whether a piece letter is the seat's own, from its roles (`white`: upper case); null if unknown. */
function ownCase(roles) {
  const r = roles || [];
  if (r.includes('white')) return (l) => /[A-Z]/.test(l);
  if (r.includes('black')) return (l) => /[a-z]/.test(l);
  return null;
}

/** Previews on `board` the 3x3 window around the square under the pointer (class `preview`). */
function previewWindows(board) {
  const show = (name) => {
    board.querySelectorAll('.sq.preview').forEach((n) => n.classList.remove('preview'));
    if (!name) return;
    const f = name.charCodeAt(0) - 97;
    const r = parseInt(name.slice(1), 10) - 1;
    for (let df = -1; df <= 1; df++) {
      for (let dr = -1; dr <= 1; dr++) {
        if (f + df < 0 || r + dr < 0) continue;
        const node = board.querySelector(`[data-square="${squareName(f + df, r + dr)}"]`);
        if (node) node.classList.add('preview');
      }
    }
  };
  board.querySelectorAll('[data-square]').forEach((node) => {
    node.addEventListener('pointerenter', () => show(node.dataset.square));
  });
  board.addEventListener('pointerleave', () => show(null));
}

/** A `badges` field's words (`a1=1,d4=w2`) as a Map square -> label. */
function parseBadges(text) {
  const out = new Map();
  for (const w of text.split(',')) {
    const [sq, label] = w.split('=');
    if (sq && label && /^[a-p]\d+$/.test(sq)) out.set(sq, label);
  }
  return out;
}

/** The names of a field's parts from its label (`marks (piece,target)`); [] without brackets. */
function labelNames(label) {
  const m = /\(([^)]*)\)\s*$/.exec(label);
  return m ? m[1].split(',').map((s) => s.trim()) : [];
}

/** A `rings` field (one square, `-` or `?` per name of the label) as a Map square -> rings. */
function parseRings(f) {
  const names = labelNames(f.label);
  const out = new Map();
  f.text.split(',').forEach((sq, index) => {
    if (!/^[a-p]\d+$/.test(sq)) return;
    const name = names[index] || `mark ${index + 1}`;
    out.set(sq, (out.get(sq) || []).concat([{ index, name }]));
  });
  return out;
}

/** The legend of a rings field: each mark's colour, name and square (or not yet, or hidden). */
function ringsLegendEl(f) {
  const names = labelNames(f.label);
  const title = f.label.replace(/\s*\([^)]*\)\s*$/, '');
  const parts = f.text.split(',');
  return el('div', { class: 'rings-field' }, el('div', { class: 'field-label', text: title }),
    parts.map((sq, index) => el('div', { class: 'ring-line' },
      el('span', { class: `ring-key ring-${index}` }),
      el('span', { text: `${names[index] || `mark ${index + 1}`}: ` }),
      el('strong', { dataset: { mark: names[index] || String(index) }, text: sq === '-' ? 'not yet' : sq === '?' ? 'hidden' : sq }))));
}

/**
 * A `track:MIN:MAX` field: a row of places from MIN to MAX with the marker on its value; the
 * label's names (`marker (black,white)`) are the sides at the MIN and MAX ends.
 */
function trackEl(f) {
  const [, lo, hi] = f.kind.split(':').map(Number);
  const value = Number(f.text);
  const names = labelNames(f.label);
  const title = f.label.replace(/\s*\([^)]*\)\s*$/, '');
  const places = [];
  for (let v = lo; v <= hi; v++) {
    places.push(el('span', { class: `track-place${v === value ? ' here' : ''}${v === 0 ? ' middle' : ''}`, dataset: { place: String(v) }, title: String(v) },
      v === value ? el('span', { class: 'track-marker' }) : null));
  }
  const end = (name, side) => el('span', { class: `track-end ${side}`, text: name ? `${name}'s side` : '' });
  return el('div', { class: 'track-field', dataset: { value: f.text } }, el('div', { class: 'field-label', text: `${title}: ${f.text}` }),
    el('div', { class: 'track' }, end(names[0], 'lo'), places, end(names[1], 'hi')));
}

/**
 * The arrangements asked for, if every action is `VERB WORD` with one verb and the words are
 * orderings of the same letters (more than one): { verb, words, first }; else null.
 */
function arrangements(actions) {
  if (actions.length < 2) return null;
  const split = actions.map((a) => a.split(' '));
  const verb = split[0][0];
  const sorted = (w) => w.split('').sort().join('');
  const key = split[0].length === 2 ? sorted(split[0][1]) : null;
  if (!key || key.length < 2) return null;
  if (!split.every((p) => p.length === 2 && p[0] === verb && /^[A-Za-z]+$/.test(p[1]) && sorted(p[1]) === key)) return null;
  return { verb, words: new Set(split.map((p) => p[1])), first: split[0][1] };
}

/** The size of a table's board field, counted from its text. */
function boardSize(boardField) {
  return boardField ? placementSize(boardField.text) : { files: 8, ranks: 8 };
}

/**
 * A cards field as chips. Groups are separated by ','; a label like "hands (white,black)"
 * names them. Tokens: a letter (upper case a white card), `?` face down, `-` none, `#N` a
 * pile of N, `3r` a numbered card.
 */
function cardsEl(f, chipAction, act, roles) {
  const m = /^(.*?)\s*\(([^)]*)\)\s*$/.exec(f.label);
  const title = m ? m[1] : f.label;
  const names = m ? m[2].split(',').map((s) => s.trim()) : [];
  const groups = f.text.split(',');
  // Only the cards of the seat's own group of a field named by sides (`hands (white,black)`)
  // are its to play: never a discard, a line or a pile.
  const mine = names.findIndex((n) => (roles || []).includes(n));
  const playable = (i) => mine >= 0 && i === mine;
  return el('div', { class: 'cards-field' }, el('div', { class: 'field-label', text: title }),
    groups.map((g, i) => el('div', { class: 'card-group' },
      groups.length > 1 || names.length ? el('span', { class: 'group-label', text: names[i] || `#${i + 1}` }) : null,
      cardChips(g).map((chip) => {
        // A card that an asked action plays is played by a click on it.
        const action = chipAction && chip.dataset.card && playable(i) ? chipAction(chip.dataset.card) : null;
        if (action) {
          chip.classList.add('playable');
          chip.dataset.action = action;
          chip.title = `${chip.title}: ${action}`;
          chip.addEventListener('click', () => act(action));
        }
        return chip;
      }))));
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
