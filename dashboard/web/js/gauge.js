// SPDX-License-Identifier: MIT
// The commit-impact gauge.
//
// Mapping (non-linear, so that small regressions show): the commit impact
// x (a fraction, -1 < x < +inf) is drawn at
//
//     g(x) = sign(x) * sqrt(min(|x|, 1))          (-1 <= g <= 1)
//
// on a half circle from g = -1 (left end: -100%) through g = 0 (top: no
// change) to g = +1 (right end: +100% or better; larger impacts stay at
// the end, the number is printed below).  The square root spreads out
// the small values that matter: a 1% change moves the needle a tenth of
// the way to the end (9 degrees), 10% a third (28 degrees), 50% 71%
// (64 degrees); on a linear scale a 1% regression would move it less than
// a degree.  The bands are the project's threshold: red below -t, green
// above +t, grey between.
import {s} from './dom.js';
import {pct} from './format.js';

export function gaugePosition(x) {
  if (x === null || x === undefined || !Number.isFinite(x)) return null;
  return Math.sign(x) * Math.sqrt(Math.min(Math.abs(x), 1));
}

const CX = 150, CY = 124, R = 100;

// The point at gauge position g (-1..1) on a circle of radius r.
function at(g, r) {
  const a = ((g + 1) / 2) * Math.PI; // 0 at the left end, pi at the right
  return [CX - r * Math.cos(a), CY - r * Math.sin(a)];
}

function arc(g1, g2, r) {
  const [x1, y1] = at(g1, r), [x2, y2] = at(g2, r);
  return `M ${x1.toFixed(2)} ${y1.toFixed(2)} A ${r} ${r} 0 0 1 ${x2.toFixed(2)} ${y2.toFixed(2)}`;
}

export function gauge(impact, threshold, verdict) {
  const g = gaugePosition(impact);
  const t = gaugePosition(Math.max(threshold, 1e-9));
  const parts = [
    s('title', null, impact === null || impact === undefined ? 'no commit impact' : `commit impact ${pct(impact)}`),
    s('path', {d: arc(-1, -t, R), class: 'band band-bad'}),
    s('path', {d: arc(-t, t, R), class: 'band band-neutral'}),
    s('path', {d: arc(t, 1, R), class: 'band band-good'}),
  ];
  for (const v of [-1, -0.5, -0.1, -0.01, 0, 0.01, 0.1, 0.5, 1]) {
    const p = gaugePosition(v);
    const [x1, y1] = at(p, R - 12), [x2, y2] = at(p, R + 12);
    parts.push(s('line', {x1, y1, x2, y2, class: 'tick'}));
    const inner = Math.abs(v) === 0.01;
    const [lx, ly] = at(p, inner ? R - 24 : R + 20);
    parts.push(s('text', {x: lx, y: ly, class: 'tick-label', 'text-anchor': 'middle', 'dominant-baseline': 'middle'},
      v === 0 ? '0' : pct(v).replace('.00', '').replace('.0', '')));
  }
  if (g !== null) {
    const [nx, ny] = at(g, R - 6);
    parts.push(s('line', {x1: CX, y1: CY, x2: nx, y2: ny, class: `needle needle-${verdict || 'neutral'}`}));
  }
  parts.push(s('circle', {cx: CX, cy: CY, r: 6, class: 'hub'}));
  return s('svg', {viewBox: '0 0 300 150', class: 'gauge', role: 'img',
    'aria-label': impact === null || impact === undefined ? 'no commit impact' : `commit impact ${pct(impact)}`,
    dataset: {position: g === null ? '' : g.toFixed(4)}}, parts);
}
