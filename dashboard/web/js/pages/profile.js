// SPDX-License-Identifier: MIT
// /projects/NAME/runs/RUN/benchmarks/ID/profile[?base=RUN2]: one
// benchmark's profile in one run: a flame graph by cycles (d3-flame-graph),
// a differential flame graph against the baseline run's profile (base=,
// which the commit report's links give), a sortable per-function table,
// the annotated source lines of a function, what the benchmark allocated
// (a memory flame graph by bytes or blocks and the allocation sites, where
// the bm engine counted the heap), and the system-call breakdown (not part
// of the speed).
//
// Data: GET .../runs/RUN/benchmarks/ID/profile (and the same for base=):
// {"profile": {events, totals, cycles, functions, calls, lines},
//  "syscalls": {count, wall_ns, cpu_ns, by_function: [{function, count,
//  wall_ns, cpu_ns, callers}]}}.
import {h, table, fill} from '../dom.js';
import {get, getOrNull, paths, errorBox} from '../api.js';
import * as f from '../format.js';
import * as urls from '../urls.js';
import {navigate} from '../router.js';
import {buildTree, countFrames, diffTrees, pruneTree, weighByEvent} from '../folded.js';

export const name = 'profile';

const L1 = ['I1mr', 'D1mr', 'D1mw'];
const LL = ['ILmr', 'DLmr', 'DLmw'];

function eventReader(profile) {
  const idx = new Map((profile.events || []).map((e, i) => [e, i]));
  const one = (arr, e) => (idx.has(e) && Array.isArray(arr) ? Number(arr[idx.get(e)] ?? 0) : null);
  const sum = (arr, es) => {
    let s = null;
    for (const e of es) { const v = one(arr, e); if (v !== null) s = (s ?? 0) + v; }
    return s;
  };
  return {one, sum, has: (e) => idx.has(e)};
}

function baseName(path) {
  if (!path) return '';
  const s = String(path);
  return s.slice(s.lastIndexOf('/') + 1);
}

// d3-flame-graph 4 is a function; the UMD build of later versions an
// object with it as "default".
function flamegraphFactory() {
  const fg = window.flamegraph;
  if (typeof fg === 'function') return fg;
  if (fg && typeof fg.default === 'function') return fg.default;
  if (fg && typeof fg.flamegraph === 'function') return fg.flamegraph;
  return null;
}

// Red where the head costs more than the base, blue where less, by how
// much relative to the frame's cycles; grey where the same.
function diffColor(d) {
  const delta = d.data.delta || 0;
  if (!delta) return '#c9ccd3';
  const ref = Math.max(d.data.value, d.data.baseValue || 0) || 1;
  const k = Math.min(1, Math.abs(delta) / ref);
  const light = Math.round(92 - 45 * Math.sqrt(k));
  return delta > 0 ? `hsl(4, 75%, ${light}%)` : `hsl(218, 75%, ${light}%)`;
}

function drawFlame(box, details, tree, {differential = false, onFunction = null, unit = (v) => `${f.int(v)} cycles`} = {}) {
  const make = flamegraphFactory();
  if (!make || !window.d3) {
    fill(box, errorBox(new Error('the flame graph libraries (d3, d3-flame-graph) did not load: is /static/vendor/ there?'), 'No flame graph'));
    return null;
  }
  const total = tree.value || 1;
  // Every frame is drawn up to a few thousand; beyond, those narrower than
  // a pixel wait until a click zooms in on them (SVG with tens of
  // thousands of elements is slow to draw).
  const frames = countFrames(tree);
  // As wide as its box, whole pixels (a fraction more would scroll), and
  // again whenever the box changes width: a phone turned, a window resized,
  // a scroll bar come, or the box measured before the styles applied.
  const boxWidth = () => Math.floor(box.getBoundingClientRect().width); // 0 while hidden
  const chart = make()
    .width(Math.max(100, boxWidth() || box.parentElement.clientWidth || 800))
    .cellHeight(18)
    .minFrameSize(frames > 5000 ? 1 : 0)
    .transitionDuration(250)
    .sort(true)
    .title('')
    .selfValue(false)
    .setDetailsElement(details)
    .setSearchMatch((d, term) => !!term && String(d.data.name).toLowerCase().includes(term.toLowerCase()))
    .setLabelHandler((d) => {
      const v = d.data.value;
      let s = `${d.data.name}: ${unit(v)} (${f.pct(v / total, false)})`;
      if (differential) s += `; baseline ${f.int(d.data.baseValue)} cycles, ${d.data.delta > 0 ? '+' : ''}${f.int(d.data.delta)}`;
      return s;
    });
  if (differential) chart.setColorMapper(diffColor);
  if (onFunction) chart.onClick((d) => { if (d.data.fn >= 0) onFunction(d.data.fn); });
  window.d3.select(box).datum(tree).call(chart);
  box.dataset.frames = String(frames);
  new ResizeObserver(() => {
    const w = boxWidth();
    if (w > 0 && Math.max(100, w) !== chart.width()) chart.width(Math.max(100, w)).update();
  }).observe(box);
  return chart;
}

export async function render(ctx) {
  const {project, run, id} = ctx.params;
  const baseParam = ctx.query.get('base');
  ctx.title(`${id} · profile · ${project}`);
  const baseOf = (r) => getOrNull(paths.profile(project, r, id), {signal: ctx.signal}).catch((e) => ({error: e}));
  // The baseline run is the one base= names, else the one the server
  // compares this run with (its answer's "baseline").
  const [data, given] = await Promise.all([get(paths.profile(project, run, id), {signal: ctx.signal}), baseParam ? baseOf(baseParam) : null]);
  const serverBase = data.baseline && typeof data.baseline === 'object' ? data.baseline : null;
  const baseRun = baseParam || (serverBase ? serverBase.run_id : null);
  const baseData = baseParam ? given : baseRun ? await baseOf(baseRun) : null;
  const profile = data.profile && typeof data.profile === 'object' ? data.profile : null;
  const sys = data.syscalls && typeof data.syscalls === 'object' ? data.syscalls : null;
  const baseProfile = baseData && !baseData.error && baseData.profile && typeof baseData.profile === 'object' ? baseData.profile : null;

  const parts = [
    h('h1', null, id),
    h('p', {class: 'meta'}, 'Run ', h('code', null, run),
      data.commit ? [' of commit ', h('a', {href: urls.commit(project, data.commit), class: 'sha'}, f.shortSha(data.commit))] : null,
      data.branch ? [' on ', h('span', {class: 'branch'}, data.branch)] : null,
      baseRun ? [' · baseline run ', h('code', null, baseRun)] : null,
      !baseParam && serverBase ? [' (commit ', h('a', {href: urls.commit(project, serverBase.sha), class: 'sha'}, f.shortSha(serverBase.sha)), ')'] : null),
    !baseParam && serverBase && serverBase.reason ? h('p', {class: 'meta reason'}, serverBase.reason) : null,
  ];

  if (profile) {
    const ev = eventReader(profile);
    const fns = Array.isArray(profile.functions) ? profile.functions : [];
    const built = buildTree(profile, id);
    const stacks = built.stacks;
    let tree = built.tree;
    const totalCycles = num(profile.cycles) || tree.value;
    // A big profile (a whole interpreter: a million stacks) keeps every
    // frame worth at least 1/PRUNE of the cycles, a twentieth of a pixel
    // or so; what the others cost stays with their callers.
    const PRUNE = 20000, allFrames = countFrames(tree);
    let folded = 0;
    if (allFrames > PRUNE) ({tree, folded} = pruneTree(tree, tree.value / PRUNE));
    const prune = (t) => (allFrames > PRUNE ? pruneTree(t, tree.value / PRUNE).tree : t);

    // -- summary
    const totals = (profile.events || []).map((e, i) => [e, Array.isArray(profile.totals) ? profile.totals[i] : null]);
    parts.push(h('section', {class: 'card'},
      h('h2', null, 'Summary'),
      h('p', null, h('strong', null, `${f.int(totalCycles)} cycles`), ` · ${f.plural(fns.length, 'function')} · ${f.plural(stacks, 'call stack')}`),
      totals.length ? h('p', {class: 'meta'}, totals.filter(([e]) => !e.startsWith('sys')).map(([e, v], i) => [i ? ' · ' : '', `${e} ${f.int(v)}`])) : null,
      h('p', {class: 'meta'}, 'Cycles are the cost model\'s estimate from the simulated CPU\'s events; system calls are counted apart (below).'),
      profile.call_graph === false
        ? h('p', {class: 'warning no-call-graph'}, 'This run has no call graph: the engine that measured it (bm-run --engine bm) keeps none. Costs are each function\'s own; inclusive costs equal them and the flame graph is flat.')
        : null));

    // -- flame graphs
    const headBox = h('div', {class: 'flame', id: 'flame-head'});
    const diffBox = h('div', {class: 'flame', id: 'flame-diff', hidden: true});
    const details = h('div', {class: 'flame-details', 'aria-live': 'polite'});
    const search = h('input', {type: 'search', placeholder: 'highlight functions', 'aria-label': 'highlight functions by name'});
    let diff = null;
    if (baseProfile) diff = diffTrees(tree, prune(buildTree(baseProfile, id).tree));
    const tabHead = h('button', {type: 'button', role: 'tab', 'aria-selected': 'true'}, 'Flame graph (cycles)');
    const tabDiff = h('button', {type: 'button', role: 'tab', 'aria-selected': 'false', disabled: !diff}, 'Differential, against the baseline');
    const charts = {};
    const legend = h('div', {class: 'legend-diff', hidden: true},
      h('span', {class: 'swatch more'}), 'more cycles than the baseline', h('span', {class: 'swatch less'}), 'fewer',
      h('span', {class: 'swatch same'}), 'the same; widths are this run\'s cycles');
    const goneBox = h('div', {class: 'gone', hidden: true});
    function show(which) {
      tabHead.setAttribute('aria-selected', String(which === 'head'));
      tabDiff.setAttribute('aria-selected', String(which === 'diff'));
      headBox.hidden = which !== 'head';
      diffBox.hidden = which !== 'diff';
      legend.hidden = goneBox.hidden = which !== 'diff';
      if (which === 'diff' && !charts.diff && diff) charts.diff = drawFlame(diffBox, details, diff.tree, {differential: true, onFunction: (i) => showFunction(rows[i], null)});
    }
    tabHead.addEventListener('click', () => show('head'));
    tabDiff.addEventListener('click', () => show('diff'));
    const otherBase = () => {
      const input = h('input', {type: 'text', placeholder: 'run id', 'aria-label': 'baseline run id', class: 'wide'});
      return h('form', {class: 'controls', onsubmit: (e) => { e.preventDefault(); if (input.value.trim()) navigate(urls.profile(project, run, id, input.value.trim())); }},
        h('label', {class: 'field'}, h('span', null, baseRun ? 'Compare with another run instead' : 'Compare with the profile of run'), input),
        h('button', {type: 'submit'}, 'Compare'));
    };
    let baseNote = null;
    if (!baseRun) {
      baseNote = h('div', null, h('p', {class: 'meta'}, 'This run has no baseline run to compare with (see its commit report for why).'), otherBase());
    } else if (baseData && baseData.error) {
      baseNote = errorBox(baseData.error, 'Could not read the baseline\'s profile');
    } else if (!baseProfile) {
      baseNote = h('div', null, h('p', {class: 'warning'}, `Run ${baseRun} has no profile of this benchmark: no differential flame graph.`), otherBase());
    }
    if (diff && diff.gone.length) {
      goneBox.append(h('h3', null, `Call stacks only in the baseline (${diff.gone.length})`),
        table([
          {title: 'Stack', class: 'bench-id', cell: (g) => g.path.join(' → ')},
          {title: 'Baseline cycles', class: 'num', cell: (g) => f.int(g.value)},
        ], diff.gone, {limit: 20}));
    }
    parts.push(h('section', {class: 'panel', id: 'flame-panel'},
      h('h2', null, 'Where the cycles go'),
      h('div', {class: 'tabs', role: 'tablist'}, tabHead, tabDiff),
      h('div', {class: 'controls'}, h('label', {class: 'field'}, h('span', null, 'Search'), search),
        h('button', {type: 'button', onclick: () => Object.values(charts).forEach((c) => c && c.resetZoom())}, 'Reset zoom')),
      baseNote, legend, details, headBox, diffBox, goneBox,
      folded ? h('p', {class: 'meta'}, `${f.int(folded)} of ${f.int(allFrames)} frames are worth less than 1/${f.int(PRUNE)} of the cycles each: they are counted in their callers' frames.`) : null,
      h('p', {class: 'meta'}, 'Each bar is a function on a call stack, as wide as its cycles; callers below callees. Click a bar to zoom. Stacks are rebuilt from the call graph as bm-profile --folded does.')));
    search.addEventListener('input', () => {
      for (const c of Object.values(charts)) if (c) { if (search.value) c.search(search.value); else c.clear(); }
    });

    // -- functions
    const baseByKey = new Map();
    if (baseProfile) for (const bf of baseProfile.functions || []) baseByKey.set(`${bf.name}\u0000${bf.file}`, bf);
    const rows = fns.map((fn, i) => {
      const self = num(fn.self_cycles ?? fn.cycles), incl = num(fn.inclusive_cycles ?? fn.self_cycles ?? fn.cycles);
      const bf = baseByKey.get(`${fn.name}\u0000${fn.file}`);
      return {i, fn, self, incl, ir: ev.one(fn.self, 'Ir'), l1: ev.sum(fn.self, L1), ll: ev.sum(fn.self, LL),
        irIncl: ev.one(fn.inclusive, 'Ir'),
        delta: baseProfile ? self - (bf ? num(bf.self_cycles ?? bf.cycles) : 0) : null};
    });
    const linesOf = new Map();
    for (const l of Array.isArray(profile.lines) ? profile.lines : []) {
      if (!linesOf.has(l.function)) linesOf.set(l.function, []);
      linesOf.get(l.function).push(l);
    }
    const fnDetails = h('div', {class: 'function-details', id: 'function-details'});
    const cols = [
      {title: 'Function', class: 'bench-id', cell: (r) => h('span', null, h('span', {class: 'bench-name'}, r.fn.name ?? '?'),
        r.fn.file ? h('div', {class: 'reason', title: `${r.fn.file}${r.fn.object ? ' in ' + r.fn.object : ''}`}, baseName(r.fn.file)) : null),
      sort: (r) => String(r.fn.name ?? ''), defaultDesc: false},
      {title: 'Calls', class: 'num', cell: (r) => f.int(r.fn.calls), sort: (r) => num(r.fn.calls)},
      {title: 'Self cycles', class: 'num', cell: (r) => f.int(r.self), sort: (r) => r.self},
      {title: 'Self %', class: 'num', cell: (r) => f.pct(r.self / (totalCycles || 1), false), sort: (r) => r.self},
      {title: 'Inclusive cycles', class: 'num', cell: (r) => f.int(r.incl), sort: (r) => r.incl},
      {title: 'Incl. %', class: 'num', cell: (r) => f.pct(r.incl / (totalCycles || 1), false), sort: (r) => r.incl},
      {title: 'Ir (self)', class: 'num', help: 'instructions executed in the function itself', cell: (r) => f.int(r.ir), sort: (r) => r.ir},
      {title: 'L1 misses', class: 'num', help: 'I1mr + D1mr + D1mw, self', cell: (r) => f.int(r.l1), sort: (r) => r.l1},
      {title: 'LL misses', class: 'num', help: 'ILmr + DLmr + DLmw, self', cell: (r) => f.int(r.ll), sort: (r) => r.ll},
    ];
    if (baseProfile)
      cols.push({title: 'Δ self cycles', class: 'num', help: 'against the same function in the baseline run',
        cell: (r) => h('span', {class: r.delta > 0 ? 'bad' : r.delta < 0 ? 'good' : 'zero'}, (r.delta > 0 ? '+' : '') + f.int(r.delta)), sort: (r) => r.delta});
    let selectedRow = null;
    // A function's callers, callees and lines, from a click on its row or
    // on one of its frames.
    const showFunction = (r, tr) => {
      if (selectedRow) selectedRow.classList.remove('selected');
      selectedRow = null;
      if (tr) { tr.classList.add('selected'); selectedRow = tr; }
      fill(fnDetails, functionDetails(r, fns, profile, ev, linesOf, totalCycles));
    };
    parts.push(h('section', {class: 'panel', id: 'functions'},
      h('h2', null, `Functions (${fns.length})`),
      h('p', {class: 'meta'}, 'Click a column to sort, a row for its callers, callees and source lines.'),
      table(cols, rows, {class: 'functions', sortColumn: 2, sortDesc: true, limit: 100, onRowClick: showFunction}),
      fnDetails));
    // The hottest function with source lines is shown to begin with.
    const first = rows.filter((r) => linesOf.has(r.i)).sort((a, b) => b.self - a.self)[0] || rows.slice().sort((a, b) => b.self - a.self)[0];
    if (first) showFunction(first, null);

    const memory = memorySection(profile, id, ev, (i) => showFunction(rows[i], null));
    if (memory) parts.push(memory.section);
    parts.push(syscallSection(sys));
    fill(ctx.root, ...parts);
    charts.head = drawFlame(headBox, details, tree, {onFunction: (i) => showFunction(rows[i], null)});
    if (memory) memory.draw();
  } else {
    parts.push(h('p', {class: 'empty'}, 'This result has no profile (bm-run --no-profile?); its system calls are below.'));
    parts.push(syscallSection(sys));
    fill(ctx.root, ...parts);
  }
}

function num(v) {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

function functionDetails(r, fns, profile, ev, linesOf, totalCycles) {
  const calls = Array.isArray(profile.calls) ? profile.calls : [];
  const callers = calls.filter((c) => c.callee === r.i && c.caller !== r.i);
  const callees = calls.filter((c) => c.caller === r.i && c.callee !== r.i);
  const fname = (i) => fns[i]?.name ?? '?';
  const edgeTable = (list, key, title) => (list.length
    ? table([
      {title, class: 'bench-id', cell: (c) => fname(c[key])},
      {title: 'Calls', class: 'num', cell: (c) => f.int(c.count)},
      {title: 'Inclusive cycles', class: 'num', cell: (c) => f.int(c.cycles)},
    ], list.slice().sort((a, b) => num(b.cycles) - num(a.cycles)), {limit: 20})
    : h('p', {class: 'empty'}, `No ${title.toLowerCase()}s in the profile.`));
  const lines = (linesOf.get(r.i) || []).slice().sort((a, b) => String(a.file).localeCompare(String(b.file)) || a.line - b.line);
  const selfC = r.self || 1;
  const lineBar = (v) => {
    const b = h('span', {class: 'bar bad'});
    b.style.width = `${Math.min(100, (100 * num(v)) / selfC).toFixed(1)}%`;
    b.style.left = '0';
    return h('span', {class: 'bar-track plain'}, b);
  };
  return h('div', null,
    h('h3', null, 'Function ', h('span', {class: 'bench-name'}, r.fn.name ?? '?')),
    h('p', {class: 'meta'}, r.fn.file ? `${r.fn.file}` : 'no source file', r.fn.object ? ` · ${r.fn.object}` : '',
      ` · ${f.int(r.self)} self cycles, ${f.int(r.incl)} inclusive (${f.pct(r.incl / (totalCycles || 1), false)})`),
    h('div', {class: 'cards'},
      h('div', null, h('h3', null, `Called by (${callers.length})`), edgeTable(callers, 'caller', 'Caller')),
      h('div', null, h('h3', null, `Calls (${callees.length})`), edgeTable(callees, 'callee', 'Callee'))),
    h('h3', null, `Source lines (${lines.length})`),
    lines.length
      ? table([
        {title: 'Line', class: 'src', cell: (l) => `${baseName(l.file)}:${l.line}`, sort: (l) => l.line, defaultDesc: false},
        {title: 'Cycles', class: 'num', cell: (l) => f.int(l.cycles), sort: (l) => num(l.cycles)},
        {title: '', cell: (l) => lineBar(l.cycles)},
        {title: '% of self', class: 'num', cell: (l) => f.pct(num(l.cycles) / selfC, false)},
        {title: 'Ir', class: 'num', cell: (l) => f.int(ev.one(l.self, 'Ir')), sort: (l) => ev.one(l.self, 'Ir')},
        {title: 'L1 misses', class: 'num', cell: (l) => f.int(ev.sum(l.self, L1)), sort: (l) => ev.sum(l.self, L1)},
        {title: 'LL misses', class: 'num', cell: (l) => f.int(ev.sum(l.self, LL)), sort: (l) => ev.sum(l.self, LL)},
      ], lines, {class: 'lines-table', limit: 200})
      : h('p', {class: 'empty'}, 'No per-line costs for this function (no debug information, or no line positions in the dump).'),
    lines.length ? h('p', {class: 'meta'}, 'The source text itself is not stored with the profile: open the file at these lines, or the callgrind file (bm-run --keep) in KCachegrind.') : null);
}

// What the benchmark allocated (events allocCount and allocBytes, the bm
// engine's heap counts): a flame graph by bytes or by blocks, rebuilt from
// the call graph as the cycles' one is, and the allocation sites: the
// calls into a function that allocated itself (malloc, operator new, ...),
// by caller.  Null without those events.
function memorySection(profile, id, ev, onFunction) {
  if (!ev.has('allocCount') || !ev.has('allocBytes')) return null;
  const fns = Array.isArray(profile.functions) ? profile.functions : [];
  const calls = Array.isArray(profile.calls) ? profile.calls : [];
  const totalBlocks = ev.one(profile.totals, 'allocCount') ?? 0, totalBytes = ev.one(profile.totals, 'allocBytes') ?? 0;
  const section = h('section', {class: 'panel', id: 'memory'}, h('h2', null, 'What it allocated'));
  if (!totalBlocks) {
    section.append(h('p', {class: 'empty'}, 'No heap allocation in this benchmark (the bm engine counted malloc, calloc, realloc, the aligned ones and C++\'s new).'));
    return {section, draw: () => {}};
  }
  section.append(h('p', null, h('strong', null, f.plural(totalBlocks, 'block')), ` · ${f.bytes(totalBytes)} requested`));
  const details = h('div', {class: 'flame-details', 'aria-live': 'polite'});
  const byBytes = h('button', {type: 'button', role: 'tab', 'aria-selected': 'true'}, 'By bytes');
  const byBlocks = h('button', {type: 'button', role: 'tab', 'aria-selected': 'false'}, 'By blocks');
  const views = {
    bytes: {event: 'allocBytes', unit: (v) => f.bytes(v), tab: byBytes, box: h('div', {class: 'flame', id: 'flame-memory-bytes'})},
    blocks: {event: 'allocCount', unit: (v) => f.plural(v, 'block'), tab: byBlocks,
      box: h('div', {class: 'flame', id: 'flame-memory-blocks', hidden: true})},
  };
  // Each view's chart is drawn the first time it is shown.
  const show = (which) => {
    for (const [k, v] of Object.entries(views)) {
      v.tab.setAttribute('aria-selected', String(k === which));
      v.box.hidden = k !== which;
    }
    const v = views[which];
    if (!v.chart) v.chart = drawFlame(v.box, details, buildTree(weighByEvent(profile, v.event), id).tree, {unit: v.unit, onFunction});
  };
  byBytes.addEventListener('click', () => show('bytes'));
  byBlocks.addEventListener('click', () => show('blocks'));
  // The sites: calls into a function whose own code allocated.
  const allocates = fns.map((fn) => (ev.one(fn.self, 'allocCount') ?? 0) > 0);
  const sites = calls.filter((c) => allocates[c.callee] && c.caller !== c.callee && (ev.one(c.inclusive, 'allocCount') ?? 0) > 0)
    .map((c) => ({c, blocks: ev.one(c.inclusive, 'allocCount'), bytes: ev.one(c.inclusive, 'allocBytes')}));
  const name = (i) => fns[i]?.name ?? '?';
  section.append(h('div', {class: 'tabs', role: 'tablist'}, byBytes, byBlocks),
    h('div', {class: 'controls'}, h('button', {type: 'button', onclick: () => Object.values(views).forEach((v) => v.chart && v.chart.resetZoom())}, 'Reset zoom')),
    details, views.bytes.box, views.blocks.box,
    h('p', {class: 'meta'}, 'Each bar is a function on a call stack, as wide as what the calls made within it allocated; the allocation functions themselves are the tips.'),
    h('h3', null, `Allocation sites (${sites.length})`),
    table([
      {title: 'Caller', class: 'bench-id', cell: (s) => h('span', {class: 'bench-name'}, name(s.c.caller)), sort: (s) => String(name(s.c.caller)), defaultDesc: false},
      {title: 'Allocates with', class: 'bench-id', cell: (s) => name(s.c.callee), sort: (s) => String(name(s.c.callee)), defaultDesc: false},
      {title: 'Calls', class: 'num', cell: (s) => f.int(s.c.count), sort: (s) => num(s.c.count)},
      {title: 'Blocks', class: 'num', cell: (s) => f.int(s.blocks), sort: (s) => s.blocks},
      {title: 'Bytes', class: 'num', cell: (s) => f.bytes(s.bytes), sort: (s) => s.bytes},
    ], sites, {class: 'alloc-sites', sortColumn: 4, sortDesc: true, limit: 50}));
  return {section, draw: () => show('bytes')};
}

function syscallSection(sys) {
  const byFn = sys && Array.isArray(sys.by_function) ? sys.by_function : [];
  const section = h('section', {class: 'panel', id: 'syscalls'},
    h('h2', null, 'System calls'),
    h('p', {class: 'syscalls-note'}, h('strong', null, 'Not part of the speed figure. '),
      'Cycles, time and speed come from the simulated CPU only; time spent in the kernel is measured apart, in real (wall and CPU) time, which varies from run to run.'));
  if (!sys) {
    section.append(h('p', {class: 'empty'}, 'No system-call data in this result.'));
    return section;
  }
  section.append(h('p', null, h('strong', null, f.plural(num(sys.count), 'system call')), ` · ${f.ns(sys.wall_ns)} wall time · ${f.ns(sys.cpu_ns)} CPU time`));
  if (!byFn.length) {
    section.append(h('p', {class: 'empty'}, 'No function of this benchmark made a system call.'));
    return section;
  }
  section.append(table([
    {title: 'Function', class: 'bench-id', cell: (x) => h('span', {class: 'bench-name'}, x.function), sort: (x) => String(x.function), defaultDesc: false},
    {title: 'Count', class: 'num', cell: (x) => f.int(x.count), sort: (x) => num(x.count)},
    {title: 'Wall time', class: 'num', cell: (x) => f.ns(x.wall_ns), sort: (x) => num(x.wall_ns)},
    {title: 'CPU time', class: 'num', cell: (x) => f.ns(x.cpu_ns), sort: (x) => num(x.cpu_ns)},
    {title: 'Called by', cell: (x) => (Array.isArray(x.callers) && x.callers.length
      ? h('ul', {class: 'callers'}, x.callers.map((c) => h('li', null, h('span', {class: 'bench-name'}, c.function),
        ` — ${f.plural(num(c.calls), 'call')}, ${f.plural(num(c.count), 'system call')}, ${f.ns(c.wall_ns)} wall, ${f.ns(c.cpu_ns)} CPU`)))
      : h('span', {class: 'zero'}, 'unknown'))},
  ], byFn, {class: 'syscalls', sortColumn: 2, sortDesc: true}));
  return section;
}
