// The lobby (#/): forms for a new two-player game, a new table game (with the seat links it
// hands out) and a new playtest.

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
const personEngine = (id, chosen, generic) => el('select', { id, value: chosen },
  el('option', { value: 'person', text: 'person' }), el('option', { value: 'engine', text: 'engine' }),
  ...(generic ? [el('option', { value: 'mcts', text: 'engine: generic IS-MCTS' })] : []));

/**
 * A select per setting of the chosen game (its choices, the default first marked), kept in step
 * with the settings text input: a select writes its key into the text (dropped at the default),
 * and the text, typed by hand, sets the selects. Keys the game does not list stay in the text.
 */
function settingsPicker(box, input, game, onchange) {
  const entry = (catalogCache && catalogCache.tables || []).find((t) => t.name === game);
  const list = (entry && entry.settings) || [];
  const words = () => input.value.trim().split(/\s+/).filter((w) => w);
  const valueOf = (key) => {
    const w = words().filter((x) => x.startsWith(`${key}=`)).pop();
    return w ? w.slice(key.length + 1) : null;
  };
  const selects = list.map((s) => {
    const select = el('select', { id: `${input.id}-${s.key}`, title: s.about },
      s.choices.map((c) => el('option', { value: c, text: c === s.default ? `${c} (default)` : c })));
    select.value = s.choices.includes(valueOf(s.key)) ? valueOf(s.key) : s.default;
    select.addEventListener('change', () => {
      const rest = words().filter((w) => !w.startsWith(`${s.key}=`));
      if (select.value !== s.default) rest.push(`${s.key}=${select.value}`);
      input.value = rest.join(' ');
      if (onchange) onchange();
    });
    return field(`${s.key}: ${s.about}`, select);
  });
  input.oninput = () => {
    list.forEach((s, i) => {
      const v = valueOf(s.key);
      selects[i].querySelector('select').value = s.choices.includes(v) ? v : s.default;
    });
    if (onchange) onchange();
  };
  fill(box, selects.length ? selects : el('p', { class: 'muted', text: 'This game has no settings.' }));
}

function showLobby(r, view) {
  const error = el('div', { id: 'error', class: 'error' });
  view.append(el('div', { class: 'lobby' }, newBoardForm(), newTableForm(r), newPlaytestForm()), error);
  loadCatalog().then((cat) => {
    if (r !== current) return;
    // A variant that hides the board (RBC) is played as a table game.
    fill($('#new-variant'), (cat.variants || []).filter((v) => !v.hidden).map((v) =>
      el('option', { value: v.name, text: `${v.name} (${v.files}\u00d7${v.ranks})` })));
    // Strength levels (UCI_Elo, calibrated in BENCHMARKS.md) below full strength.
    $('#new-engine-level').append(...(cat.levels || []).map((e) =>
      el('option', { value: String(e), text: `level ${e} Elo` })));
    const tables = (cat.tables || []).map((t) => el('option', { value: t.name, text: t.name, title: t.about || '' }));
    fill($('#table-game'), tables);
    fill($('#pt-game'), tables.map((o) => o.cloneNode(true)));
    $('#table-game').dispatchEvent(new Event('change'));
    $('#pt-game').dispatchEvent(new Event('change'));
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
      engine_level: $('#new-engine-level').value ? Number($('#new-engine-level').value) : null,
    };
    const reply = await postOrReport('/api/boards', body, lobbyError);
    if (!reply) return;
    // The other person's invitation is shown on the board page, to this window only.
    keepInvitations(reply.id, 'board', reply.invitations || []);
    location.hash = reply.token
      ? `#/board/${encodeURIComponent(reply.id)}/${encodeURIComponent(reply.token)}`
      : `#/board/${encodeURIComponent(reply.id)}`;
  };
  return el('section', { class: 'card', id: 'lobby-board' },
    el('h2', { text: 'New game' }),
    field('Variant', el('select', { id: 'new-variant' })),
    el('div', { class: 'row' }, field('White', personEngine('new-white', 'person')), field('Black', personEngine('new-black', 'engine'))),
    el('div', { class: 'row' },
      field('Clock minutes', numberInput('new-clock-minutes', '5', { min: 0, step: 'any' })),
      field('Increment (s)', numberInput('new-clock-inc', '2', { min: 0, step: 'any' }))),
    el('label', { class: 'check' }, noClock, ' no clock'),
    el('div', { class: 'row' },
      field('Engine strength', el('select', { id: 'new-engine-level' }, el('option', { value: '', text: 'full strength' }))),
      field('Engine ms per move', numberInput('new-engine-ms', '1000', { min: 10, step: 10 }))),
    field('FEN (optional)', el('input', { id: 'new-fen', type: 'text', placeholder: 'start position', spellcheck: 'false' })),
    el('button', { id: 'new-board', type: 'button', class: 'primary', onclick: create }, 'Start game'));
}

/** (b) A new table game: seats come from /api/table-info for the game and its settings. */
function newTableForm(r) {
  const seats = el('div', { id: 'table-seats', class: 'seats' });
  const about = el('p', { id: 'table-about', class: 'about' });
  const links = el('div', { id: 'table-links', class: 'links' });
  const picker = el('div', { id: 'table-settings-picker', class: 'settings' });
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
    if (game !== lastGame) {
      if (lastGame !== null) $('#table-settings').value = '';
      settingsPicker(picker, $('#table-settings'), game, later);
    }
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
      const select = personEngine(null, keep[i] || (i === 0 ? 'person' : 'engine'), true);
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
      // Empty: the server picks a secret seed. It takes one from here only with at most one person.
      seed: seed === '' ? null : Number(seed),
      // With several people hints are off unless asked for (with one person they are on).
      hints: $('#table-hints').checked ? true : null,
    };
    const reply = await postOrReport('/api/tables', body, lobbyError);
    if (reply) showSeatLinks(links, reply);
  };

  return el('section', { class: 'card', id: 'lobby-table' },
    el('h2', { text: 'New table game' }),
    field('Game', el('select', { id: 'table-game', onchange: refresh })),
    about,
    picker,
    field('Settings', el('input', { id: 'table-settings', type: 'text', placeholder: 'key=value key=value', spellcheck: 'false', oninput: later, onchange: refresh })),
    field('Seed', numberInput('table-seed', '', { min: 0, placeholder: 'random' })),
    el('p', { id: 'table-seed-note', class: 'note',
      text: "Only with at most one person seat: with several people a given seed would let them rebuild each other's cards." }),
    seats,
    el('label', { class: 'check' }, el('input', { id: 'table-hints', type: 'checkbox' }),
      ' engine hints for every person seat (with several people they are off unless ticked)'),
    el('button', { id: 'new-table', type: 'button', class: 'primary', onclick: create }, 'Create table'),
    links);
}

/** After creating a table: the creator's own seat (its secret link) and one invitation link
 * per other person seat, each good for one person once. */
function showSeatLinks(box, reply) {
  const rows = [];
  if (reply.token) {
    const hash = `#/table/${encodeURIComponent(reply.id)}/${encodeURIComponent(reply.token)}`;
    const url = `${location.origin}/${hash}`;
    rows.push(el('li', {},
      `Your seat, ${reply.seat}: `,
      el('a', { class: 'seat-link', href: url, target: '_blank', rel: 'noopener', dataset: { seat: reply.seat }, text: 'your secret link' }),
      ' \u00b7 ',
      el('a', { class: 'open-seat', href: hash, dataset: { seat: reply.seat }, text: `open seat ${reply.seat} here` })));
  }
  for (const inv of reply.invitations || []) rows.push(invitationItem('table', reply.id, inv.seat, `Seat ${inv.seat}`, inv.code));
  fill(box, el('p', { text: `Table ${reply.id}: your link is yours alone; send each invitation to one player. An invitation opens its seat once.` }),
    el('ul', {}, rows));
}

/** One invitation link, for a board side or a table seat. */
function invitationItem(kind, id, place, label, code) {
  const url = `${location.origin}/#/join/${kind}/${encodeURIComponent(id)}/${encodeURIComponent(code)}`;
  return el('li', {}, `${label}: invitation `,
    el('a', { class: 'invite-link', href: url, target: '_blank', rel: 'noopener', dataset: { place: String(place) }, text: url }));
}

/** Keeps a new game's invitations for this tab's page of the game (they are shown there). */
function keepInvitations(id, kind, invitations) {
  try { sessionStorage.setItem(`menagerie-invitations-${kind}-${id}`, JSON.stringify(invitations)); } catch (e) { /* private mode */ }
}

function keptInvitations(id, kind) {
  try { return JSON.parse(sessionStorage.getItem(`menagerie-invitations-${kind}-${id}`) || '[]'); } catch (e) { return []; }
}

/** #/join/KIND/ID/CODE: opens an invitation (once) and goes to the place it gives. */
async function showJoin(r, view, kind, id, code) {
  const box = el('div', { class: 'card' }, el('p', { text: 'Opening the invitation\u2026' }));
  view.append(box);
  const path = `/api/${kind === 'board' ? 'boards' : 'tables'}/${encodeURIComponent(id)}/invite/${encodeURIComponent(code)}`;
  const data = await postOrReport(path, {}, (e) => { if (e) fill(box, el('p', { id: 'error', class: 'error', text: e })); });
  if (!data || r !== current) return;
  const where = kind === 'board' ? 'board' : 'table';
  location.replace(`#/${where}/${encodeURIComponent(id)}/${encodeURIComponent(data.token)}`);
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
  const picker = el('div', { id: 'pt-settings-picker', class: 'settings' });
  const pick = () => {
    $('#pt-settings').value = '';
    settingsPicker(picker, $('#pt-settings'), $('#pt-game').value, null);
  };
  return el('section', { class: 'card', id: 'lobby-playtest' },
    el('h2', { text: 'Playtest' }),
    field('Game', el('select', { id: 'pt-game', onchange: pick })),
    el('div', { class: 'row' },
      field('Games', numberInput('pt-games', '200', { min: 1, max: 10000 })),
      field('Seed', numberInput('pt-seed', '1', { min: 0 }))),
    picker,
    field('Settings', el('input', { id: 'pt-settings', type: 'text', placeholder: 'key=value key=value', spellcheck: 'false' })),
    el('button', { id: 'new-playtest', type: 'button', class: 'primary', onclick: create }, 'Run playtest'));
}
