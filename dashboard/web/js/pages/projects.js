// SPDX-License-Identifier: MIT
// "/": every project, and per branch, cost model and platform its latest
// run against its baseline: when, how many benchmarks, how many failed,
// regressed or improved beyond the project's threshold, the commit impact
// and the verdict.  ?project=NAME shows one project.
//
// Data: GET /api/v1/projects; per project GET .../summary (the rows).  A
// server without .../summary (404): GET .../branches and the commit
// report of each branch's latest commit (then one row per branch, with
// the platform of its latest run), at most MAX_BRANCHES of them.
import {h, table, fill} from '../dom.js';
import {get, paths, mapLimit, errorBox, ApiError} from '../api.js';
import * as f from '../format.js';
import * as urls from '../urls.js';
import {verdictBadge, impactCell} from './common.js';

export const name = 'projects';
const MAX_BRANCHES = 12;

// The summary's rows, made from the branches and their commit reports.
async function rowsFromReports(project, signal) {
  const {branches} = await get(paths.branches(project), {signal});
  const shown = branches.slice(0, MAX_BRANCHES);
  const reports = await mapLimit(shown, 6, (b) => get(paths.report(project, b.latest.sha), {signal}).catch((e) => ({error: e})));
  let threshold = 0.1;
  const rows = shown.map((b, i) => {
    const r = reports[i];
    const row = {branch: b.name, runs: b.runs, latest: b.latest, model: null, platform: null, benchmarks: null,
      failed: null, regressions: null, improvements: null, commit_impact: null, verdict: null, error: r.error};
    if (r.error) return row;
    threshold = r.threshold;
    const t = r.threshold;
    const own = r.benchmarks.filter((x) => x.status !== 'missing');
    return {...row, model: r.model, platform: r.platform, benchmarks: own.length,
      failed: own.filter((x) => x.status === 'failed').length,
      regressions: r.benchmarks.filter((x) => x.impact !== null && x.impact < -t).length,
      improvements: r.benchmarks.filter((x) => x.impact !== null && x.impact > t).length,
      commit_impact: r.commit_impact, verdict: r.verdict};
  });
  return {threshold, rows, more: branches.slice(shown.length)};
}

async function summaryOf(project, signal) {
  try {
    const s = await get(paths.summary(project), {signal});
    return {threshold: s.threshold, rows: s.rows, more: []};
  } catch (e) {
    if (e instanceof ApiError && e.status === 404 && /API path/.test(e.message)) return rowsFromReports(project, signal);
    throw e;
  }
}

function projectSection(p, signal) {
  const body = h('div', {class: 'branches'}, h('p', {class: 'loading'}, 'Loading branches…'));
  const section = h('section', {class: 'project card', dataset: {project: p.name}},
    h('h2', null, p.name),
    h('p', {class: 'meta'},
      f.plural(p.runs, 'run'), ' · ', f.plural(p.benchmarks, 'benchmark'),
      ' · latest upload ', p.latest_upload ? f.date(p.latest_upload) : 'never', ' · ',
      h('a', {href: urls.changes(p.name)}, 'ranked changes'), ' · ',
      h('a', {href: urls.compare(p.name)}, 'compare branches'), ' · ',
      h('a', {href: urls.settings(p.name)}, 'settings')),
    body);
  const done = (async () => {
    try {
      const {threshold: t, rows, more} = await summaryOf(p.name, signal);
      if (!rows.length) {
        fill(body, h('p', {class: 'empty'}, 'No runs yet. Upload one with ', h('code', null, 'bm-upload'), '.'));
        return;
      }
      const num = (k, cls) => (r) => (r[k] === null || r[k] === undefined ? '–' : h('span', {class: r[k] ? cls : 'zero'}, f.int(r[k])));
      const cols = [
        {title: 'Branch', cell: (r) => h('span', {class: 'branch'}, r.branch), sort: (r) => r.branch, defaultDesc: false},
        {title: 'Latest run', class: 'nowrap', cell: (r) => h('span', null,
          h('a', {href: urls.commit(p.name, r.latest.sha, null, r.latest.run_id), class: 'sha'}, f.shortSha(r.latest.sha)),
          h('div', {class: 'reason'}, f.date(r.latest.timestamp))),
        sort: (r) => r.latest.timestamp},
        {title: 'Platform', class: 'platform', cell: (r) => h('span', null, f.platformText(r.platform),
          h('div', {class: 'reason'}, r.model ?? '')),
        sort: (r) => f.platformText(r.platform), defaultDesc: false},
        {title: 'Runs', class: 'num', cell: (r) => f.int(r.runs), sort: (r) => r.runs},
        {title: 'Benchmarks', class: 'num', cell: (r) => f.int(r.benchmarks), sort: (r) => r.benchmarks},
        {title: 'Regressed', help: `impact below −${f.pct(t, false)} (the project's threshold)`, class: 'num', cell: num('regressions', 'bad'), sort: (r) => r.regressions},
        {title: 'Improved', help: `impact above +${f.pct(t, false)}`, class: 'num', cell: num('improvements', 'good'), sort: (r) => r.improvements},
        {title: 'Failed', class: 'num', cell: num('failed', 'bad'), sort: (r) => r.failed},
        {title: 'Impact', class: 'impact-col wide-only', cell: (r) => impactCell(r.commit_impact), sort: (r) => r.commit_impact, defaultDesc: false},
        {title: 'Verdict', class: 'nowrap', cell: (r) => (r.error ? h('span', {class: 'bad'}, r.error.message) : r.verdict ? verdictBadge(r.verdict) : '–')},
        {title: '', cell: (r) => h('span', {class: 'links'}, h('a', {href: urls.changes(p.name, r.branch)}, 'changes'))},
      ];
      fill(body, table(cols, rows, {class: 'summary'}),
        more.length ? h('p', {class: 'meta'}, `${more.length} older branches: `,
          more.map((b, i) => [i ? ', ' : '', h('a', {href: urls.commit(p.name, b.latest.sha)}, b.name)])) : null);
    } catch (e) {
      if (e.name !== 'AbortError') fill(body, errorBox(e, 'Could not read the branches'));
    }
  })();
  return {section, done};
}

export async function render(ctx) {
  ctx.title('Projects');
  const only = ctx.query.get('project');
  const {projects} = await get(paths.projects(), {signal: ctx.signal});
  const list = only !== null ? projects.filter((p) => p.name === only) : projects;
  const head = h('h1', null, only !== null ? only : 'Projects');
  if (!list.length) {
    fill(ctx.root, head, h('p', {class: 'empty'}, only !== null ? `No project named “${only}”. ` : 'No projects yet. Create one on the server with ',
      only !== null ? h('a', {href: '/'}, 'All projects') : h('code', null, 'bm-server project create NAME')));
    return;
  }
  const sections = list.map((p) => projectSection(p, ctx.signal));
  fill(ctx.root, head, sections.map((x) => x.section));
  if (only !== null) ctx.title(only);
  await Promise.all(sections.map((x) => x.done));
}
