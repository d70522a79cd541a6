// SPDX-License-Identifier: MIT
// /projects/NAME/benchmarks/ID/history?branch=B[&metric=M][&also=ID2&also=ID3]:
// a uPlot chart of one or several benchmarks' series on a branch (speed
// or any event metric); the legend and the line above the chart show the
// values under the cursor, a click shows that commit, dashed lines mark
// where the cost model or the platform changed, red ticks at the bottom
// mark failed results.  Several benchmarks share the chart: the first in
// the path, the others as repeated also= parameters (an id may contain
// commas, so no comma list).
//
// The chart asks for what it draws: the newest commits (the server's
// default window), or those of from=T&to=T (commit times), or all=1 (the
// whole history), each at the chart's width in points: a long window comes
// reduced (its extremes, failures and model changes kept), and dragging
// across a reduced chart asks for the commits selected, at full
// resolution when they fit.  Older and Newest page through the history.
//
// Data: GET .../benchmarks/ID/history?branch=B&metric=M&points=WIDTH[&from
// &to|&limit=0] per benchmark; GET .../branches (the branch picker, and the
// branch when none is given); GET .../benchmarks?branch=B (every benchmark
// id of the branch, for adding one to the chart).
import {h, table, lazyDetails, fill} from '../dom.js';
import {get, paths, errorBox} from '../api.js';
import * as f from '../format.js';
import * as urls from '../urls.js';
import {navigate, setUrl} from '../router.js';
import {select} from './common.js';

export const name = 'history';

const COLORS = ['#2356c7', '#d1495b', '#2a9d5c', '#e08e0b', '#7b3fb5', '#0f8b8d', '#8c5a2b', '#c2185b'];

// The commits of every series in one order (committer time, then the order
// the series give them), and each series' points on it.
function align(series) {
  if (series.length === 1) {
    const pts = series[0].points;
    return {commits: pts.map((p) => ({sha: p.commit, timestamp: p.timestamp})), at: [pts.map((_, i) => i)]};
  }
  const bySha = new Map();
  let seq = 0;
  for (const s of series)
    for (const p of s.points)
      if (!bySha.has(p.commit)) bySha.set(p.commit, {sha: p.commit, timestamp: p.timestamp, seq: seq++});
  const commits = [...bySha.values()].sort((a, b) => a.timestamp - b.timestamp || a.seq - b.seq);
  const index = new Map(commits.map((c, i) => [c.sha, i]));
  return {commits, at: series.map((s) => s.points.map((p) => index.get(p.commit)))};
}

// Where a series' model or platform differs from its previous point.
function findMarkers(series, at) {
  const seen = new Map();
  series.forEach((s, k) => {
    let prev = null;
    s.points.forEach((p, i) => {
      const plat = f.platformKey(p.platform);
      if (prev) {
        const what = [];
        if (p.model !== prev.model) what.push(`model ${prev.model} → ${p.model}`);
        if (plat !== f.platformKey(prev.platform))
          what.push(`platform ${f.platformText(prev.platform)} → ${f.platformText(p.platform)}`);
        if (what.length) {
          const key = `${at[k][i]}|${what.join('; ')}`;
          if (!seen.has(key)) seen.set(key, {idx: at[k][i], sha: p.commit, timestamp: p.timestamp, what, kind: p.model !== prev.model ? 'model' : 'platform'});
        }
      }
      prev = p;
    });
  });
  return [...seen.values()].sort((a, b) => a.idx - b.idx);
}

function markersPlugin(markers, failed) {
  return {
    hooks: {
      draw: [(u) => {
        const {ctx, bbox} = u;
        const dpr = devicePixelRatio || 1;
        ctx.save();
        ctx.lineWidth = Math.max(1, dpr);
        ctx.font = `${Math.round(10 * dpr)}px system-ui, sans-serif`;
        ctx.textBaseline = 'top';
        let lastLabel = -Infinity;
        for (const m of markers) {
          const x = Math.round(u.valToPos(m.idx, 'x', true));
          if (x < bbox.left || x > bbox.left + bbox.width) continue;
          ctx.strokeStyle = '#a15c00';
          ctx.setLineDash([4 * dpr, 3 * dpr]);
          ctx.beginPath();
          ctx.moveTo(x, bbox.top);
          ctx.lineTo(x, bbox.top + bbox.height);
          ctx.stroke();
          ctx.fillStyle = '#a15c00';
          // A label where there is room for it (the list below names them all).
          if (x - lastLabel > 60 * dpr) {
            ctx.fillText(m.kind, x + 3 * dpr, bbox.top + 2 * dpr);
            lastLabel = x;
          }
        }
        ctx.setLineDash([]);
        ctx.fillStyle = '#c62828';
        const y = bbox.top + bbox.height;
        for (const idx of failed) {
          const x = u.valToPos(idx, 'x', true);
          if (x < bbox.left || x > bbox.left + bbox.width) continue;
          ctx.beginPath();
          ctx.moveTo(x, y - 8 * dpr);
          ctx.lineTo(x - 4 * dpr, y);
          ctx.lineTo(x + 4 * dpr, y);
          ctx.fill();
        }
        ctx.restore();
      }],
    },
  };
}

export async function render(ctx) {
  const {project, id} = ctx.params;
  const metric = ctx.query.get('metric') || 'speed';
  const also = ctx.query.getAll('also').filter((x) => x && x !== id);
  const ids = [id, ...new Set(also)];
  let branch = ctx.query.get('branch');
  const win = {from: ctx.query.get('from'), to: ctx.query.get('to'), all: ctx.query.get('all')};
  const winNow = {...(win.all ? {all: 1} : {from: win.from, to: win.to}), points: ctx.query.get('points')};
  ctx.title(`${id} · history · ${project}`);

  const {branches} = await get(paths.branches(project), {signal: ctx.signal});
  if (!branch) {
    if (!branches.length) {
      fill(ctx.root, h('h1', null, id), h('p', {class: 'empty'}, 'This project has no runs yet.'));
      return;
    }
    branch = branches[0].name;
    setUrl(urls.history(project, id, branch, metric, ids.slice(1), winNow));
  }
  // (A branch or metric of its own starts at the newest commits again.)
  const go = (o) => navigate(urls.history(project, o.id ?? id, o.branch ?? branch, o.metric ?? metric, o.also ?? ids.slice(1),
    o.win ? {...o.win, points: winNow.points} : o.branch || o.metric ? {points: winNow.points} : winNow));

  // As many points as the chart has pixels across (the chart's box is not
  // laid out yet: the page's width stands for it), or points=N.
  const points = Math.max(8, Math.min(100000, Math.round(Number(ctx.query.get('points')) ||
    Math.max(200, Math.min(2000, ctx.root.clientWidth || window.innerWidth || 1000)))));
  const ask = win.all ? {limit: 0, points} : {from: win.from, to: win.to, points};
  const histories = await Promise.all(ids.map((x) => get(paths.history(project, x, branch, metric, ask), {signal: ctx.signal})));
  const reduced = histories.some((hh) => hh.reduced);
  const older = histories.map((hh) => hh.window?.older).filter((t) => t !== null && t !== undefined);

  // -- controls
  const branchNames = branches.map((b) => b.name);
  if (!branchNames.includes(branch)) branchNames.unshift(branch);
  const metricOptions = f.BUILTIN_METRICS.includes(metric) ? f.BUILTIN_METRICS : [...f.BUILTIN_METRICS, metric];
  const idList = h('datalist', {id: 'bench-ids'});
  const addInput = h('input', {type: 'text', list: 'bench-ids', placeholder: 'benchmark id', class: 'wide', 'aria-label': 'benchmark to add'});
  const otherMetric = h('input', {type: 'text', placeholder: 'imported metric', 'aria-label': 'imported metric name'});
  const controls = h('div', {class: 'controls'},
    select('Branch', branchNames, branch, (v) => go({branch: v}), {name: 'branch'}),
    select('Metric', metricOptions.map((m) => [m, f.METRIC_HELP[m] ? `${m} — ${f.METRIC_HELP[m]}` : m]), metric, (v) => go({metric: v}), {name: 'metric'}),
    h('form', {class: 'controls inline', onsubmit: (e) => { e.preventDefault(); if (otherMetric.value.trim()) go({metric: otherMetric.value.trim()}); }},
      h('label', {class: 'field'}, h('span', null, 'Other metric'), otherMetric), h('button', {type: 'submit'}, 'Show')),
    h('form', {class: 'controls inline', onsubmit: (e) => {
      e.preventDefault();
      const v = addInput.value.trim();
      if (v && !ids.includes(v)) go({also: [...ids.slice(1), v]});
    }}, h('label', {class: 'field'}, h('span', null, 'Add a benchmark to the chart'), addInput), h('button', {type: 'submit'}, 'Add')),
    idList);
  get(paths.benchmarks(project, branch), {signal: ctx.signal}).then((c) => {
    fill(idList, ...c.benchmarks.map((x) => h('option', {value: x})));
  }).catch(() => { /* only a convenience */ });

  const chips = h('div', {class: 'series-list'}, ids.map((x, k) => h('span', {class: 'chip'},
    (() => { const sw = h('span', {class: 'swatch'}); sw.style.background = COLORS[k % COLORS.length]; return sw; })(),
    h('a', {href: urls.history(project, x, branch, metric)}, x),
    k > 0 ? h('button', {type: 'button', title: `remove ${x}`, 'aria-label': `remove ${x}`, onclick: () => go({also: ids.slice(1).filter((y) => y !== x)})}, '×') : null)));

  const heading = h('h1', null, ids.length > 1 ? `${ids.length} benchmarks` : id);
  const sub = h('p', {class: 'meta'}, `${metric}${f.METRIC_HELP[metric] ? ` (${f.METRIC_HELP[metric]})` : ''} on `,
    h('span', {class: 'branch'}, branch), ', one point per commit, oldest first. Drag across the chart to zoom, double-click to zoom out.');

  // Which commits are shown, and the way to others.
  const windowed = reduced || older.length || win.from || win.to || win.all;
  const inWindow = histories.reduce((n, hh) => n + (hh.reduced ? hh.reduced.points : hh.points.length), 0);
  const windowBar = windowed ? h('div', {class: 'controls window-bar', dataset: {reduced: reduced ? '1' : '0'}},
    h('span', {class: 'meta'}, win.all ? 'The whole history' : win.from || win.to ? 'The commits selected' : 'The newest commits',
      reduced ? `: ${f.int(inWindow)} points, reduced to what the chart can show (each stretch's highest, lowest and failed points). Drag across the chart to see a stretch in full.` : '.'),
    older.length && !win.all ? h('button', {type: 'button', class: 'older', onclick: () => go({win: {to: String(Math.max(...older))}})}, '← Older') : null,
    win.from || win.to || win.all ? h('button', {type: 'button', class: 'newest', onclick: () => go({win: {}})}, 'Newest') : null,
    !win.all ? h('button', {type: 'button', class: 'all', onclick: () => go({win: {all: 1}})}, 'Whole history') : null) : null;

  const total = histories.reduce((n, hh) => n + hh.points.length, 0);
  if (!total) {
    fill(ctx.root, heading, sub, controls, chips, windowBar,
      h('p', {class: 'empty'}, `No results of ${ids.length > 1 ? 'these benchmarks' : 'this benchmark'} for ${metric} on this branch.`));
    return;
  }

  const {commits, at} = align(histories);
  const n = commits.length;
  const xs = Float64Array.from({length: n}, (_, i) => i);
  const ys = histories.map((hh, k) => {
    const y = new Array(n).fill(null);
    hh.points.forEach((p, i) => { y[at[k][i]] = p.value; });
    return y;
  });
  // The point of series k at commit index i, for the readout and details.
  const pointAt = histories.map((hh, k) => {
    const m = new Map();
    hh.points.forEach((p, i) => m.set(at[k][i], p));
    return m;
  });
  const markers = findMarkers(histories, at);
  const failed = [];
  histories.forEach((hh, k) => hh.points.forEach((p, i) => { if (p.status === 'failed') failed.push(at[k][i]); }));

  const hint = 'Hover over the chart to read its values; click a point to see its commit.';
  const readout = h('div', {class: 'hover-readout', 'aria-live': 'off'}, hint);
  const chartBox = h('div', {class: 'chart', dataset: {points: String(n), series: String(ids.length), markers: String(markers.length)}});
  const details = h('section', {class: 'point-details panel', hidden: true});

  function describe(i) {
    const c = commits[i];
    return `${f.shortSha(c.sha)} · ${f.date(c.timestamp)} · ` + ids.map((x, k) => {
      const p = pointAt[k].get(i);
      return `${ids.length > 1 ? x + ': ' : ''}${p ? (p.value === null ? p.status : f.metricValue(metric, p.value)) : '–'}`;
    }).join(' · ');
  }

  // The run a commit's point came from: its report is that run's platform's
  // and model's, whichever other ones the commit has.
  const runOf = (rows) => rows.find((r) => r.p)?.p.run_id;

  function showCommit(i) {
    const c = commits[i];
    const rows = ids.map((x, k) => ({id: x, k, p: pointAt[k].get(i)}));
    details.hidden = false;
    fill(details, 
      h('h2', null, 'Commit ', h('a', {href: urls.commit(project, c.sha, null, runOf(rows)), class: 'sha'}, f.shortSha(c.sha))),
      h('p', {class: 'meta'}, h('code', null, c.sha), ' · committed ', f.date(c.timestamp), ' · point ', String(i + 1), ' of ', String(n)),
      table([
        {title: 'Benchmark', class: 'bench-id', cell: (r) => r.id},
        {title: metric, class: 'num', cell: (r) => (r.p ? (r.p.value === null ? '–' : f.metricValue(metric, r.p.value)) : 'no result')},
        {title: 'Status', cell: (r) => (r.p ? r.p.status : '–')},
        {title: 'Model', cell: (r) => r.p?.model ?? '–'},
        {title: 'Platform', cell: (r) => (r.p ? f.platformText(r.p.platform) : '–')},
        {title: 'Run', cell: (r) => (r.p ? h('code', null, r.p.run_id) : '–')},
        {title: '', cell: (r) => {
          if (!r.p || r.p.status !== 'ok') return null;
          // The differential flame graph against the previous commit's run.
          let prev = null;
          for (let j = i - 1; j >= 0 && !prev; j--) {
            const q = pointAt[r.k].get(j);
            if (q && q.status === 'ok') prev = q;
          }
          return h('a', {href: urls.profile(project, r.p.run_id, r.id, prev ? prev.run_id : null),
            title: prev ? `against the previous commit ${f.shortSha(prev.commit)}` : null}, 'profile');
        }},
      ], rows),
      h('p', null, h('a', {href: urls.commit(project, c.sha, null, runOf(rows))}, 'The full report of this commit against its baseline →')));
  }

  const markerList = markers.length
    ? h('section', {class: 'panel'}, h('h2', null, `Model or platform changes (${markers.length})`),
      h('p', {class: 'meta'}, 'Values on either side of a dashed line were measured differently (another cost model, engine, CPU or simulated caches) or on another platform, and do not compare.'),
      h('ul', {class: 'markers'}, markers.map((m) => h('li', null,
        h('a', {href: urls.commit(project, m.sha), class: 'sha'}, f.shortSha(m.sha)), ` (${f.date(m.timestamp)}): `, m.what.join('; ')))))
    : null;

  const pointsTable = lazyDetails(`${reduced ? 'The' : 'All'} ${f.int(n)} points${reduced ? ' drawn' : ''} as a table`, () => {
    const rows = [];
    for (let i = n - 1; i >= 0; i--) rows.push(i);
    return table([
      {title: 'Commit', cell: (i) => h('a', {href: urls.commit(project, commits[i].sha), class: 'sha'}, f.shortSha(commits[i].sha))},
      {title: 'Committed', class: 'nowrap', cell: (i) => f.date(commits[i].timestamp)},
      ...ids.map((x, k) => ({title: ids.length > 1 ? x : metric, class: 'num', cell: (i) => {
        const p = pointAt[k].get(i);
        return p ? (p.value === null ? p.status : f.metricValue(metric, p.value)) : '';
      }})),
    ], rows, {limit: 200});
  }, {class: 'collapsible'});

  fill(ctx.root, heading, sub, controls, chips, windowBar, readout, chartBox, details, markerList, pointsTable);

  if (typeof window.uPlot !== 'function') {
    chartBox.replaceWith(errorBox(new Error('the chart library (uPlot) did not load: is /static/vendor/ there?'), 'No chart'));
    return;
  }
  const width = () => Math.max(280, chartBox.clientWidth);
  // Dates on the x axis; with the time of day when the labels are less
  // than two days apart.
  const axisValues = (u, splits) => {
    const at = splits.filter((i) => Number.isInteger(i) && commits[i]);
    const step = at.length > 1 ? (commits[at[at.length - 1]].timestamp - commits[at[0]].timestamp) / (at.length - 1) : Infinity;
    return splits.map((i) => (Number.isInteger(i) && commits[i]
      ? (step < 2 * 86400 ? f.date(commits[i].timestamp).slice(5, 16) : f.shortDate(commits[i].timestamp)) : ''));
  };
  const fmt = (v) => (v === null || v === undefined ? '–' : f.metricValue(metric, v));
  const opts = {
    width: width(),
    height: window.innerWidth < 640 ? 260 : 360,
    scales: {x: {time: false}},
    legend: {live: true},
    cursor: {drag: {x: true, y: false}, points: {size: 7}},
    axes: [
      {space: 90, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000],
        values: axisValues},
      {size: 80, values: (u, splits) => splits.map((v) => fmt(v))},
    ],
    series: [
      {label: 'commit', value: (u, i) => (i === null || !commits[i] ? '–' : f.shortSha(commits[i].sha))},
      ...ids.map((x, k) => ({
        label: x,
        stroke: COLORS[k % COLORS.length],
        width: 1.5,
        // (A reduced series has points at other commits than another's.)
        spanGaps: reduced,
        points: {show: n <= 200, size: 5},
        value: (u, v) => fmt(v),
      })),
    ],
    hooks: {
      setCursor: [(u) => {
        const i = u.cursor.idx;
        readout.textContent = i === null || i === undefined ? hint : describe(i);
      }],
      // A stretch of a reduced chart, dragged across: its commits, asked
      // for again (at full resolution when they fit).
      setSelect: [(u) => {
        if (!reduced || u.select.width < 2) return;
        const at = (x) => Math.max(0, Math.min(n - 1, Math.round(u.posToVal(x, 'x'))));
        const i0 = at(u.select.left), i1 = at(u.select.left + u.select.width);
        if (i1 > i0) go({win: {from: String(commits[i0].timestamp), to: String(commits[i1].timestamp)}});
      }],
    },
    plugins: [markersPlugin(markers, failed)],
  };
  const plot = new window.uPlot(opts, [xs, ...ys], chartBox);
  chartBox.dataset.drawn = '1';
  // A click (not the end of a drag to zoom) shows the commit under the cursor.
  let down = null;
  plot.over.addEventListener('mousedown', (e) => { down = [e.clientX, e.clientY]; });
  plot.over.addEventListener('click', (e) => {
    if (down && Math.hypot(e.clientX - down[0], e.clientY - down[1]) > 4) return;
    const i = plot.cursor.idx;
    if (i !== null && i !== undefined) showCommit(i);
  });
  const ro = new ResizeObserver(() => plot.setSize({width: width(), height: opts.height}));
  ro.observe(chartBox);
  ctx.signal.addEventListener('abort', () => { ro.disconnect(); plot.destroy(); });
}
