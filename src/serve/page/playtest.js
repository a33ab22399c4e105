// A playtest's page (#/playtest/ID): progress, results and histograms as SVG bar charts,
// means and ratios.

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
  const questions = el('div', { id: 'pt-questions' });
  stop.addEventListener('click', async () => {
    await postOrReport(`${base}/stop`, {}, (text) => { error.textContent = text || ''; });
  });

  const render = (d) => {
    title.textContent = `Playtest ${d.id || id}: ${d.game} (${d.settings || 'default'})`;
    fill(questions, questionsTable(d.questions || []),
      el('p', {}, el('a', { id: 'pt-report', href: `${base}/report`, target: '_blank', rel: 'noopener',
        text: 'The design report of these games (a page to save or print)' })));
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
    fill(tables,
      statsTable('pt-means', ['Key', 'Mean \u00b1 se', 'Total'], (d.means || []).map((m) => [m.key, m.mean, m.se, m.total])),
      statsTable('pt-ratios', ['Ratio', 'Value \u00b1 se', 'Of'], (d.ratios || []).map((x) => [x.label, x.value, x.se, x.of])));
    document.body.dataset.version = String(d.done);
  };

  view.append(el('div', { class: 'playtest card' }, title,
    el('div', { class: 'progress' }, el('div', { class: 'bar' }, barFill),
      el('div', { class: 'progress-text' }, progress, seconds, state, ' ', stop)),
    error, questions, charts, tables));

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

/** The game's design questions, each with its figure and 95 % interval (as in the HTML report). */
function questionsTable(rows) {
  if (!rows.length) return null;
  return el('table', { id: 'pt-questions-table', class: 'stats' },
    el('thead', {}, el('tr', {}, ['Question', 'Figure', 'Value (95 %)'].map((h) => el('th', { text: h })))),
    el('tbody', {}, rows.map((q) => el('tr', {},
      el('td', { text: q.question }), el('td', { class: 'muted', text: q.key }),
      el('td', { text: q.value === null ? 'not measured' : `${formatNum(q.value)} \u00b1 ${formatNum(q.half)}` })))));
}

/** A table of figures with their standard errors: rows of [label, value, se, last column]. */
function statsTable(id, headers, rows) {
  if (!rows.length) return null;
  return el('table', { id, class: 'stats' },
    el('thead', {}, el('tr', {}, headers.map((h) => el('th', { text: h })))),
    el('tbody', {}, rows.map(([label, value, se, last]) => el('tr', {},
      el('td', { text: label }), el('td', { text: `${formatNum(value)} \u00b1 ${formatNum(se)}` }),
      el('td', { text: formatNum(last) })))));
}
