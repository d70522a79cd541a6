// SPDX-License-Identifier: MIT
// /projects/NAME/commits/SHA[?pr=N][&run=ID][&baseline=merge-base]: one commit (or pull request) against
// its baseline: the baseline and why, the commit impact on a gauge, every
// benchmark's impact (failed first, unchanged collapsed), with links to
// each benchmark's history and profile.  bm-check's summary links here.
//
// Data: GET /api/v1/projects/NAME/commits/SHA/report[?pr=N][&run=ID] (run:
// the report of that run's model and platform).  A slower
// benchmark can be acknowledged here (POST .../acknowledgements, any token
// of the project): the check then passes and shows the note.
import {h, fill} from '../dom.js';
import {get, post, paths, errorBox} from '../api.js';
import {render as renderAgain} from '../router.js';
import {readToken, keepToken} from '../tokens.js';
import * as f from '../format.js';
import * as urls from '../urls.js';
import {gauge} from '../gauge.js';
import {verdictBadge, statusBadge, impactCell, benchmarkTables, eventDeltas} from './common.js';

export const name = 'commit';

const VERDICT_WORDS = {
  failed: 'At least one benchmark failed.',
  'no-baseline': 'Nothing to compare with: there is no baseline.',
  regression: 'Regression beyond the threshold.',
  improvement: 'Improvement beyond the threshold.',
  neutral: 'Within the threshold.',
  acknowledged: 'Every regression beyond the threshold is acknowledged: the check passes.',
};


// "Acknowledged by Ada: why", or that the regression grew past it.
function ackNote(b) {
  const a = b.acknowledgement;
  if (!a) return null;
  const grown = !a.covers && b.impact !== null;
  return h('div', {class: ['ack', grown ? 'ack-stale' : null], title: `acknowledged ${a.at}`},
    grown ? `Acknowledged at ${f.pct(a.impact)} by ${a.by}, now ${f.pct(b.impact)}: no longer covered. ` : `Acknowledged by ${a.by}: `,
    h('q', null, a.reason));
}

// The form that acknowledges one of the slower benchmarks not yet covered.
function ackForm(project, r, run, rule) {
  const open = r.benchmarks.filter((b) => b.status === 'ok' && b.impact !== null && b.impact < 0 && !(b.acknowledgement && b.acknowledgement.covers));
  if (!open.length) return null;
  const which = h('select', {name: 'benchmark', 'aria-label': 'benchmark'},
    open.map((b) => h('option', {value: b.id}, `${b.id} (${f.pct(b.impact)})`)));
  const by = h('input', {type: 'text', name: 'by', required: true, maxlength: 200, placeholder: 'your name'});
  const reason = h('textarea', {name: 'reason', required: true, maxlength: 4000, rows: 2, placeholder: 'why this regression is expected'});
  const token = h('input', {type: 'password', name: 'token', required: true, autocomplete: 'off', spellcheck: 'false', placeholder: 'bm_…', value: readToken('any', project) || readToken('admin', project), 'aria-label': 'token'});
  const status = h('div', {class: 'ack-status', 'aria-live': 'polite'});
  async function send(e) {
    e.preventDefault();
    const t = token.value.trim();
    try {
      await post(paths.acknowledge(project, r.commit, r.pr, run, rule), {benchmark: which.value, by: by.value.trim(), reason: reason.value.trim()}, {token: t});
      keepToken('any', project, t);
      await renderAgain();
    } catch (err) {
      fill(status, errorBox(err, 'Not acknowledged'));
    }
  }
  return h('details', {class: 'ack-form-wrap'},
    h('summary', null, `Acknowledge a regression (${open.length} slower)`),
    h('p', {class: 'meta'}, r.pr ? `Holds for every push of pull request #${r.pr} while the benchmark gets no slower.` : 'Holds for this commit while the benchmark gets no slower.',
      ' Any token of the project will do; it is kept in this browser tab only.'),
    h('form', {class: 'controls ack-form', onsubmit: send},
      h('label', {class: 'field'}, h('span', null, 'Benchmark'), which),
      h('label', {class: 'field'}, h('span', null, 'By'), by),
      h('label', {class: 'field wide'}, h('span', null, 'Reason'), reason),
      h('label', {class: 'field'}, h('span', null, 'Token'), token),
      h('button', {type: 'submit'}, 'Acknowledge')),
    status);
}

export async function render(ctx) {
  const {project, sha} = ctx.params;
  const pr = ctx.query.get('pr');
  const run = ctx.query.get('run');
  const rule = ctx.query.get('baseline'); // the baseline rule bm-check --baseline linked with
  ctx.title(`${pr ? `#${pr} ` : ''}${f.shortSha(sha)} · ${project}`);
  const r = await get(paths.report(project, sha, pr, run, rule), {signal: ctx.signal});
  const base = r.baseline;
  // A pull request's branch has no history of its own (its runs are not
  // part of a branch's series): its benchmarks' history is the base's.
  const historyBranch = base ? base.branch : r.base_branch || r.branch;
  const t = r.threshold;

  const counts = {failed: 0, regressed: 0, improved: 0, unchanged: 0, other: 0};
  for (const b of r.benchmarks) {
    if (b.status === 'failed') counts.failed++;
    else if (b.impact === null) counts.other++;
    else if (b.impact < 0) counts.regressed++;
    else if (b.impact > 0) counts.improved++;
    else counts.unchanged++;
  }

  const head = h('header', {class: 'report-head'},
    h('h1', null, r.pr ? `Pull request #${r.pr}` : 'Commit', ' ', h('span', {class: 'sha', title: r.commit}, f.shortSha(r.commit))),
    h('dl', {class: 'facts'},
      h('dt', null, 'Branch'), h('dd', null, h('span', {class: 'branch'}, r.branch)),
      h('dt', null, 'Commit'), h('dd', null, h('code', {class: 'sha-full'}, r.commit)),
      h('dt', null, 'Run'), h('dd', null, h('code', null, r.run_id)),
      h('dt', null, 'Model'), h('dd', null, r.model),
      h('dt', null, 'Platform'), h('dd', null, f.platformText(r.platform))));

  const baseline = h('section', {class: ['baseline card', base ? null : 'no-baseline']},
    h('h2', null, 'Baseline'),
    base ? h('p', null, 'Compared with ', h('a', {href: urls.commit(project, base.sha, null, base.run_id), class: 'sha'}, f.shortSha(base.sha)),
      ' on ', h('span', {class: 'branch'}, base.branch), ' (run ', h('code', null, base.run_id), ').')
      : h('p', {class: 'bad'}, 'No baseline.'),
    h('p', {class: 'reason'}, r.baseline_reason));

  const impact = h('section', {class: 'impact-card card'},
    h('h2', null, 'Commit impact'),
    h('div', {class: 'gauge-wrap'},
      gauge(r.commit_impact, t, r.verdict),
      h('div', {class: 'gauge-text'},
        h('div', {class: 'big-number'}, r.commit_impact === null ? '–' : f.pct(r.commit_impact)),
        verdictBadge(r.verdict),
        h('p', null, VERDICT_WORDS[r.verdict] || ''),
        h('p', {class: 'meta'}, `Threshold ±${f.pct(t, false)}. The gauge's scale is a square root, so that a 1% change already moves it a tenth of the way.`))),
    h('p', {class: 'counts'},
      h('span', {class: counts.failed ? 'bad' : 'zero'}, `${counts.failed} failed`), ' · ',
      h('span', {class: counts.regressed ? 'bad' : 'zero'}, `${counts.regressed} slower`), ' · ',
      h('span', {class: counts.improved ? 'good' : 'zero'}, `${counts.improved} faster`), ' · ',
      `${counts.unchanged} unchanged`, counts.other ? ` · ${counts.other} without a comparison (new, missing or skipped)` : ''));

  const columns = [
    {title: 'Status', cell: (b) => statusBadge(b.status), sort: (b) => b.status, defaultDesc: false},
    {title: 'Benchmark', class: 'bench-id', cell: (b) => h('span', null,
      h('a', {href: urls.history(project, b.id, historyBranch), class: 'bench-name'}, b.id),
      b.reason ? h('div', {class: 'reason'}, b.reason) : null, ackNote(b)),
    sort: (b) => b.id, defaultDesc: false},
    {title: 'Impact', class: 'impact-col', cell: (b) => impactCell(b.impact), sort: (b) => b.impact, defaultDesc: false},
    {title: 'Speed', class: 'num', cell: (b) => (b.metric && b.value !== undefined ? `${f.si(b.value)} ${b.unit}` : f.speed(b.speed)), sort: (b) => b.speed},
    {title: 'Baseline', class: 'num', cell: (b) => (b.metric && b.base_value !== undefined ? `${f.si(b.base_value)} ${b.unit}` : f.speed(b.base_speed)), sort: (b) => b.base_speed},
    {title: 'Cycles', class: 'num wide-only', cell: (b) => (b.cycles !== undefined ? f.int(b.cycles) : '–'), sort: (b) => b.cycles},
    {title: 'Why', class: 'wide-only', help: 'instructions and cache misses against the baseline', cell: (b) => eventDeltas(b.events, b.base_events)},
    {title: '', cell: (b) => h('span', {class: 'links'},
      h('a', {href: urls.history(project, b.id, historyBranch)}, 'history'),
      b.status === 'ok' && !b.metric && b.profile !== false
        ? [' ', h('a', {href: urls.profile(project, b.run_id || r.run_id, b.id, base ? base.run_id : null)}, 'profile')]
        : null)},
  ];

  const list = h('section', {class: 'benchmarks-card'},
    h('h2', null, `Benchmarks (${r.benchmarks.length})`),
    ackForm(project, r, run, rule),
    ...benchmarkTables(r.benchmarks, columns));

  fill(ctx.root, head, h('div', {class: 'cards'}, impact, baseline), list);
}
