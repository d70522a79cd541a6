// SPDX-License-Identifier: MIT
// /projects/NAME/compare?a=BRANCH&b=BRANCH: the latest results of two
// branches side by side (b against a); and a bm-report/1 file dropped on
// the page (or chosen with the file button) compared against branch a's
// latest results.  The file is read in the browser and never uploaded.
//
// Data: GET .../branches (each branch's latest commit); GET
// .../commits/SHA/report of both latest commits (their results: the
// speeds are the report's "speed" column).
import {h, fill} from '../dom.js';
import {get, paths, errorBox} from '../api.js';
import * as f from '../format.js';
import * as urls from '../urls.js';
import {navigate, setUrl} from '../router.js';
import {select, statusBadge, impactCell, benchmarkTables} from './common.js';
import {readReport, seriesIdentity, speedOf} from '../localreport.js';

export const name = 'compare';

// The results a commit report gives for its own run (not the baseline's
// "missing" rows), by id.
function resultsOf(report) {
  const m = new Map();
  for (const b of report.benchmarks)
    if (b.status !== 'missing') m.set(b.id, {status: b.status, speed: b.speed, cycles: b.cycles, reason: b.reason});
  return m;
}

function fromLocal(report) {
  const m = new Map();
  for (const b of report.benchmarks)
    m.set(b.id, {status: b.status, speed: speedOf(b), cycles: b.cycles ?? undefined, reason: b.reason ?? null});
  return m;
}

// Rows for benchmarkTables: status failed when either side failed; the
// impact of B against A when both have a speed.
function join(A, B) {
  const ids = new Set([...A.keys(), ...B.keys()]);
  const rows = [];
  for (const id of ids) {
    const a = A.get(id), b = B.get(id);
    let status = 'ok';
    if ((a && a.status === 'failed') || (b && b.status === 'failed')) status = 'failed';
    else if (!a) status = 'new';
    else if (!b) status = 'missing';
    else if (a.status !== 'ok' || b.status !== 'ok') status = 'skipped';
    const impact = a && b && a.speed > 0 && b.speed > 0 ? (b.speed - a.speed) / a.speed : null;
    rows.push({id, status, a, b, impact, reason: (b && b.reason) || (a && a.reason) || null});
  }
  return rows;
}

function sideText(x) {
  if (!x) return 'absent';
  if (x.status !== 'ok') return x.status;
  return x.speed > 0 ? f.speed(x.speed) : '–';
}

function columns(project, labelA, labelB, historyBranch) {
  return [
    {title: 'Status', cell: (r) => statusBadge(r.status === 'new' ? `only in ${labelB}` : r.status === 'missing' ? `only in ${labelA}` : r.status), sort: (r) => r.status, defaultDesc: false},
    {title: 'Benchmark', class: 'bench-id', cell: (r) => h('span', null,
      historyBranch ? h('a', {href: urls.history(project, r.id, historyBranch), class: 'bench-name'}, r.id) : h('span', {class: 'bench-name'}, r.id),
      r.reason ? h('div', {class: 'reason'}, r.reason) : null), sort: (r) => r.id, defaultDesc: false},
    {title: labelA, class: 'num', cell: (r) => sideText(r.a), sort: (r) => r.a?.speed},
    {title: labelB, class: 'num', cell: (r) => sideText(r.b), sort: (r) => r.b?.speed},
    {title: `${labelB} vs ${labelA}`, class: 'impact-col', cell: (r) => impactCell(r.impact), sort: (r) => r.impact, defaultDesc: false},
  ];
}

function mismatch(modelA, platA, modelB, platB, labelA, labelB) {
  const notes = [];
  if (modelA !== modelB) notes.push(`they were measured differently (${modelA} in ${labelA}, ${modelB} in ${labelB})`);
  if (f.platformKey(platA) !== f.platformKey(platB))
    notes.push(`platforms differ (${f.platformText(platA)} in ${labelA}, ${f.platformText(platB)} in ${labelB})`);
  return notes.length ? h('p', {class: 'warning'}, 'These results do not compare exactly: ', notes.join('; '), '.') : null;
}

export async function render(ctx) {
  const {project} = ctx.params;
  ctx.title(`Compare · ${project}`);
  const {branches} = await get(paths.branches(project), {signal: ctx.signal});
  if (!branches.length) {
    fill(ctx.root, h('h1', null, 'Compare'), h('p', {class: 'empty'}, 'This project has no runs yet.'));
    return;
  }
  const byName = new Map(branches.map((b) => [b.name, b]));
  let a = ctx.query.get('a'), b = ctx.query.get('b');
  if (!a || !byName.has(a)) a = byName.has('main') ? 'main' : byName.has('master') ? 'master' : branches[0].name;
  if (!b || !byName.has(b)) b = (branches.find((x) => x.name !== a) || branches[0]).name;
  setUrl(urls.compare(project, a, b));
  const go = (o) => navigate(urls.compare(project, o.a ?? a, o.b ?? b));

  const [ra, rb] = await Promise.all([a, b].map((n) => get(paths.report(project, byName.get(n).latest.sha), {signal: ctx.signal})));
  const names = branches.map((x) => x.name);

  const side = (label, n, r) => h('div', {class: 'card side'},
    h('h2', null, label, ': ', h('span', {class: 'branch'}, n)),
    h('p', null, 'Latest commit ', h('a', {href: urls.commit(project, r.commit), class: 'sha'}, f.shortSha(r.commit)),
      ' · committed ', f.date(byName.get(n).latest.timestamp)),
    h('p', {class: 'meta'}, `${r.model} · ${f.platformText(r.platform)} · ${f.plural(r.benchmarks.filter((x) => x.status !== 'missing').length, 'benchmark')}`));

  const branchRows = join(resultsOf(ra), resultsOf(rb));
  const branchSection = h('section', {class: 'benchmarks-card', id: 'compare-branches'},
    h('h2', null, `${b} against ${a}`),
    mismatch(ra.model, ra.platform, rb.model, rb.platform, a, b),
    ...benchmarkTables(branchRows, columns(project, a, b, a), {unchangedLabel: 'the same on both'}));

  // -- a local report, dropped or chosen
  const localOut = h('div', {class: 'local-result'});
  const fileInput = h('input', {type: 'file', accept: '.json,.gz,application/json,application/gzip', 'aria-label': 'a bm-report/1 file to compare', name: 'report'});
  async function compareFile(file) {
    fill(localOut, h('p', {class: 'loading'}, `Reading ${file.name}…`));
    try {
      const rep = await readReport(file);
      const rows = join(resultsOf(ra), fromLocal(rep));
      const label = 'file';
      fill(localOut, 
        h('p', {class: 'notice'}, 'Read in your browser: ', h('strong', null, file.name), ` (${f.plural(rep.benchmarks.length, 'benchmark')}, run `,
          h('code', null, String(rep.run_id ?? '?')), `), compared with the latest results of `, h('span', {class: 'branch'}, a),
          '. Nothing was uploaded or stored.'),
        mismatch(ra.model, ra.platform, seriesIdentity(rep), rep.context?.platform ?? {}, a, label),
        ...benchmarkTables(rows, columns(project, a, label, a), {unchangedLabel: 'the same as ' + a}));
      localOut.dataset.rows = String(rows.length);
    } catch (e) {
      fill(localOut, errorBox(e, 'Cannot compare this file'));
    }
  }
  fileInput.addEventListener('change', () => { if (fileInput.files[0]) compareFile(fileInput.files[0]); });
  const drop = h('div', {class: 'dropzone', id: 'dropzone'},
    h('p', null, h('strong', null, 'Drop a bm-report/1 file here'), ' (the report bm-run writes with -o), or choose one: '),
    fileInput,
    h('p', {class: 'meta'}, `It is compared with the latest results of ${a}, read in this browser, and never uploaded.`));
  drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    const file = e.dataTransfer && e.dataTransfer.files[0];
    if (file) compareFile(file);
  });
  // A file dropped anywhere on the page goes to the drop zone rather than
  // replacing the page.
  const stray = (e) => { if (!drop.contains(e.target)) e.preventDefault(); };
  window.addEventListener('dragover', stray);
  window.addEventListener('drop', stray);
  ctx.signal.addEventListener('abort', () => { window.removeEventListener('dragover', stray); window.removeEventListener('drop', stray); });

  fill(ctx.root, 
    h('h1', null, 'Compare'),
    h('div', {class: 'controls'},
      select('A (reference)', names, a, (v) => go({a: v}), {name: 'a'}),
      select('B', names, b, (v) => go({b: v}), {name: 'b'}),
      h('button', {type: 'button', onclick: () => go({a: b, b: a})}, 'Swap')),
    h('div', {class: 'cards'}, side('A', a, ra), side('B', b, rb)),
    branchSection,
    h('section', {class: 'panel', id: 'compare-file'}, h('h2', null, `A local report against ${a}`), drop, localOut));
}
