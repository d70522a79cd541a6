// SPDX-License-Identifier: MIT
// The pages' addresses (bm-server's upload answer and bm-check link to the
// commit page, so that one must not change).  NAME, SHA, ID and RUN are
// one percent-encoded path segment each ('/' is %2F).
const enc = encodeURIComponent;

function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) {
    if (Array.isArray(v)) v.forEach((x) => q.append(k, x));
    else if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  }
  const s = q.toString();
  return s ? '?' + s : '';
}

export const home = () => '/';
export const project = (p) => `/${query({project: p})}`;
// run: the report of that run's model and platform (a commit measured on
// several has one for each); without, the newest upload's.
export const commit = (p, sha, pr, run) => `/projects/${enc(p)}/commits/${enc(sha)}${query({pr, run})}`;
// Several benchmarks on one chart: the first in the path, the others as
// repeated also= parameters (an id may contain commas, so no list).  win:
// the commits shown, {from, to} (commit times) or {all: 1} (the whole
// history); without, the newest.
export const history = (p, id, branch, metric, also, win) =>
  `/projects/${enc(p)}/benchmarks/${enc(id)}/history${query({branch, metric: metric === 'speed' ? null : metric, also, ...win})}`;
export const changes = (p, branch, metric, dt, st) =>
  `/projects/${enc(p)}/changes${query({branch, metric: metric === 'speed' ? null : metric, dt, st})}`;
export const compare = (p, a, b) => `/projects/${enc(p)}/compare${query({a, b})}`;
export const profile = (p, run, id, base) => `/projects/${enc(p)}/runs/${enc(run)}/benchmarks/${enc(id)}/profile${query({base})}`;
export const settings = (p) => `/projects/${enc(p)}/settings`;
