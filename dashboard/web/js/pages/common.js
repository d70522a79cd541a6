// SPDX-License-Identifier: MIT
// Pieces several pages share: verdict and status badges, impact bars, the
// benchmark comparison table (commit report, compare), branch pickers.
import {h, table, lazyDetails} from '../dom.js';
import * as f from '../format.js';
import {gaugePosition} from '../gauge.js';

const VERDICT_TEXT = {
  failed: 'failed', 'no-baseline': 'no baseline', regression: 'regression',
  improvement: 'improvement', neutral: 'neutral', acknowledged: 'acknowledged',
};

export function verdictBadge(v) {
  return h('span', {class: `badge verdict-${v}`}, VERDICT_TEXT[v] || String(v));
}

export function statusBadge(st) {
  return h('span', {class: `badge status-${st}`}, st);
}

// A signed bar on the gauge's square-root scale, and the percentage.
export function impactCell(x, higherIsBetter = true) {
  if (x === null || x === undefined || !Number.isFinite(x)) return h('span', {class: 'impact none'}, '–');
  const g = gaugePosition(x);
  const good = higherIsBetter ? x > 0 : x < 0;
  const bar = h('span', {class: `bar ${x === 0 ? '' : good ? 'good' : 'bad'}`});
  bar.style.width = `${(Math.abs(g) * 50).toFixed(2)}%`;
  if (g < 0) bar.style.right = '50%'; else bar.style.left = '50%';
  return h('span', {class: 'impact'},
    h('span', {class: 'bar-track', 'aria-hidden': 'true'}, bar),
    h('span', {class: `impact-text ${x === 0 ? '' : good ? 'good' : 'bad'}`}, f.pct(x)));
}

// Failed first, then by impact (worst first), then those without an
// impact (new, missing, skipped), by id.
export function sortBenchmarks(rows) {
  const rank = (r) => (r.status === 'failed' ? 0 : r.impact !== null && r.impact !== undefined ? 1 : 2);
  return rows.slice().sort((a, b) => rank(a) - rank(b) ||
    (rank(a) === 1 ? a.impact - b.impact : 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

// The rows of a comparison as a table, with those whose impact is exactly
// zero collapsed under one line (with deterministic numbers, zero means
// the same code ran the same way; any other number is a real change).
export function benchmarkTables(rows, columns, {unchangedLabel = 'unchanged'} = {}) {
  const sorted = sortBenchmarks(rows);
  const unchanged = sorted.filter((r) => r.status === 'ok' && r.impact === 0);
  const shown = sorted.filter((r) => !(r.status === 'ok' && r.impact === 0));
  const parts = [];
  if (shown.length)
    parts.push(table(columns, shown, {class: 'benchmarks', rowClass: (r) => `row-${r.status}`}));
  if (unchanged.length)
    parts.push(lazyDetails(`${f.plural(unchanged.length, 'benchmark')} ${unchangedLabel} (±0%)`,
      () => table(columns, unchanged, {class: 'benchmarks unchanged'}), {class: 'unchanged-group'}));
  if (!shown.length && !unchanged.length) parts.push(h('p', {class: 'empty'}, 'No benchmarks.'));
  return parts;
}

export function select(label, options, value, onchange, attrs = {}) {
  const sel = h('select', {onchange: (e) => onchange(e.target.value), ...attrs},
    options.map((o) => {
      const [v, t] = Array.isArray(o) ? o : [o, o];
      return h('option', {value: v, selected: v === value}, t);
    }));
  return h('label', {class: 'field'}, h('span', null, label), sel);
}

// A compact event summary: Ir and cache misses, head against base.
// The rule of uploader/gate.h (gate_layout_only, GATE_LAYOUT_MISSES_MAX):
// the same Ir, Dr and Dw, and at most 16 cache misses moved in all: what
// other code moving the benchmark's lines does.
export const LAYOUT_MISSES_MAX = 16;
export function layoutOnly(ev, base) {
  if (!ev || !base) return false;
  for (const k of ['Ir', 'Dr', 'Dw']) if (ev[k] === undefined || ev[k] !== base[k]) return false;
  let moved = 0;
  for (const k of ['I1mr', 'D1mr', 'D1mw', 'ILmr', 'DLmr', 'DLmw']) moved += Math.abs((ev[k] ?? 0) - (base[k] ?? 0));
  return moved > 0 && moved <= LAYOUT_MISSES_MAX;
}

export function eventDeltas(ev, base) {
  if (!ev || !base) return null;
  const l1 = (e) => (e.I1mr ?? 0) + (e.D1mr ?? 0) + (e.D1mw ?? 0);
  const ll = (e) => (e.ILmr ?? 0) + (e.DLmr ?? 0) + (e.DLmw ?? 0);
  const d = (a, b) => (b ? (a - b) / b : a ? Infinity : 0);
  const parts = [];
  const item = (name, a, b) => {
    if (a === b) return;
    const x = d(a, b);
    parts.push(h('span', {class: `delta ${a > b ? 'bad' : 'good'}`, title: `${f.int(b)} → ${f.int(a)}`},
      `${name} ${Number.isFinite(x) ? f.pct(x) : 'new'}`));
  };
  if (ev.Ir !== undefined) item('Ir', ev.Ir, base.Ir ?? 0);
  item('L1 miss', l1(ev), l1(base));
  item('LL miss', ll(ev), ll(base));
  if (ev.sysCount !== undefined && base.sysCount !== undefined) item('syscalls', ev.sysCount, base.sysCount);
  if (layoutOnly(ev, base))
    parts.unshift(h('span', {class: 'delta layout', title: 'the same instructions; only a few cache misses moved, as when other code moves this code'}, 'code layout'));
  return parts.length ? h('span', {class: 'deltas'}, parts) : h('span', {class: 'zero'}, 'same events');
}
