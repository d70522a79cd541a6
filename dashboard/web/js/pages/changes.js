// SPDX-License-Identifier: MIT
// /projects/NAME/changes?branch=B[&metric=M][&dt=X][&st=N]: the BM
// ranking of every benchmark's current change on a branch (the last value
// against the latest one that differs from it by more than DT), stable
// changes first, each group worst first.  DT and ST are shown, and can be
// tried out here without changing the project's settings.
//
// Data: GET .../changes?branch=B&metric=M[&dt&st]; GET .../branches.
import {h, table, lazyDetails, fill} from '../dom.js';
import {get, paths} from '../api.js';
import * as f from '../format.js';
import * as urls from '../urls.js';
import {navigate, setUrl} from '../router.js';
import {select, impactCell} from './common.js';

export const name = 'changes';

const CHANGE_METRICS = f.BUILTIN_METRICS;

export async function render(ctx) {
  const {project} = ctx.params;
  const metric = ctx.query.get('metric') || 'speed';
  const dtQ = ctx.query.get('dt'), stQ = ctx.query.get('st');
  let branch = ctx.query.get('branch');
  ctx.title(`Changes · ${project}`);
  const {branches} = await get(paths.branches(project), {signal: ctx.signal});
  if (!branch) {
    if (!branches.length) {
      fill(ctx.root, h('h1', null, 'Ranked changes'), h('p', {class: 'empty'}, 'This project has no runs yet.'));
      return;
    }
    branch = branches[0].name;
    setUrl(urls.changes(project, branch, metric, dtQ, stQ));
  }
  const go = (o) => navigate(urls.changes(project, o.branch ?? branch, o.metric ?? metric,
    'dt' in o ? o.dt : dtQ, 'st' in o ? o.st : stQ));
  const c = await get(paths.changes(project, branch, metric, dtQ, stQ), {signal: ctx.signal});
  const better = f.higherIsBetter(metric);

  const dtInput = h('input', {type: 'number', min: 0, max: 100, step: 'any', value: String(+(c.dt * 100).toPrecision(6)), name: 'dt', 'aria-label': 'DT in percent'});
  const stInput = h('input', {type: 'number', min: 0, max: 100000, step: 1, value: String(c.st), name: 'st', 'aria-label': 'ST'});
  const branchNames = branches.map((b) => b.name);
  if (!branchNames.includes(branch)) branchNames.unshift(branch);
  const controls = h('div', {class: 'controls'},
    select('Branch', branchNames, branch, (v) => go({branch: v}), {name: 'branch'}),
    select('Metric', CHANGE_METRICS, metric, (v) => go({metric: v}), {name: 'metric'}),
    h('form', {class: 'controls inline', onsubmit: (e) => {
      e.preventDefault();
      const dt = Number(dtInput.value) / 100;
      go({dt: Number.isFinite(dt) ? String(+dt.toPrecision(6)) : null, st: stInput.value || null});
    }},
    h('label', {class: 'field'}, h('span', null, 'DT (%)'), dtInput),
    h('label', {class: 'field'}, h('span', null, 'ST (values)'), stInput),
    h('button', {type: 'submit'}, 'Apply'),
    dtQ !== null || stQ !== null ? h('button', {type: 'button', onclick: () => go({dt: null, st: null})}, 'Project settings') : null));

  const rules = h('p', {class: 'tolerances'},
    h('strong', null, `DT = ${f.pct(c.dt, false)}`), ': two values are significantly equal when they differ by at most DT. ',
    h('strong', null, `ST = ${c.st}`), ': a value is stable when the ST values before it equal it; a change is stable when the values on both sides are. ',
    dtQ !== null || stQ !== null ? h('em', null, '(Tried here; the project\'s own settings are unchanged.)') : h('span', {class: 'meta'}, '(the project\'s settings)'));

  const columns = [
    {title: '#', class: 'num', cell: (r) => String(r.rank), sort: (r) => r.rank, defaultDesc: false},
    {title: 'Benchmark', class: 'bench-id', cell: (r) => h('a', {href: urls.history(project, r.id, branch, metric), class: 'bench-name'}, r.id), sort: (r) => r.id, defaultDesc: false},
    {title: 'Change', class: 'impact-col', cell: (r) => impactCell(r.change, better), sort: (r) => (better ? r.change : -r.change), defaultDesc: false},
    {title: 'From', class: 'num', cell: (r) => f.metricValue(metric, r.from_value)},
    {title: 'To', class: 'num', cell: (r) => f.metricValue(metric, r.value)},
    {title: 'Changed at', cell: (r) => h('span', null, h('a', {href: urls.commit(project, r.commit), class: 'sha'}, f.shortSha(r.commit)),
      h('span', {class: 'meta'}, ' after '), h('a', {href: urls.commit(project, r.from_commit), class: 'sha'}, f.shortSha(r.from_commit)))},
    {title: 'Stability', cell: (r) => h('span', {title: `before the change: ${r.from_stable ? 'stable' : 'not stable'}; now: ${r.last_stable ? 'stable' : 'not stable'}`},
      h('span', {class: `badge ${r.stable ? 'stable-yes' : 'status-skipped'}`}, r.stable ? 'stable' : 'unstable'),
      r.stable ? null : h('span', {class: 'meta'}, ' ' + (r.from_stable ? 'not yet ST equal values since' : r.last_stable ? 'the values before were not stable' : 'neither side stable'))),
    sort: (r) => (r.stable ? 1 : 0)},
    {title: 'Points', class: 'num', cell: (r) => f.int(r.points), sort: (r) => r.points},
  ];

  const regressions = c.changes.filter((r) => r.regression).length;
  fill(ctx.root, 
    h('h1', null, 'Ranked changes'),
    h('p', {class: 'meta'}, `${metric} on `, h('span', {class: 'branch'}, branch), ': ',
      `${f.plural(c.changes.length, 'benchmark')} changed (${regressions} for the worse), ${c.unchanged.length} unchanged. Stable changes first, each group worst first.`),
    controls, rules,
    c.changes.length ? table(columns, c.changes, {class: 'changes', rowClass: (r) => (r.regression ? 'regression' : 'improvement')})
      : h('p', {class: 'empty'}, 'No benchmark has a current change on this branch.'),
    c.unchanged.length ? lazyDetails(`${f.plural(c.unchanged.length, 'benchmark')} without a change`, () =>
      h('ul', {class: 'unchanged-list'}, c.unchanged.map((id) => h('li', null, h('a', {href: urls.history(project, id, branch, metric), class: 'bench-name'}, id)))),
    {class: 'unchanged-group'}) : null);
}
