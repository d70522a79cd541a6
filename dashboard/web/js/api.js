// SPDX-License-Identifier: MIT
// The server's JSON API (docs/bm-server.md), and showing its errors.
import {h} from './dom.js';

export class ApiError extends Error {
  constructor(status, message, path) {
    super(message);
    this.status = status;
    this.path = path;
  }
}

const enc = encodeURIComponent; // one path segment: '/' becomes %2F

function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {}))
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? '?' + s : '';
}

export const paths = {
  projects: () => '/api/v1/projects',
  branches: (p) => `/api/v1/projects/${enc(p)}/branches`,
  acknowledgements: (p) => `/api/v1/projects/${enc(p)}/acknowledgements`,
  acknowledgement: (p, id) => `/api/v1/projects/${enc(p)}/acknowledgements/${enc(String(id))}`,
  acknowledge: (p, sha, pr, run, baseline) =>
    `/api/v1/projects/${enc(p)}/commits/${enc(sha)}/acknowledgements${query({pr, run, baseline})}`,
  report: (p, sha, pr, run, baseline) =>
    `/api/v1/projects/${enc(p)}/commits/${enc(sha)}/report${query({pr, run, baseline})}`,
  // win: {from, to, limit, points} (docs/bm-server.md: a window, reduced
  // for a chart of that many points).
  history: (p, id, branch, metric, win) =>
    `/api/v1/projects/${enc(p)}/benchmarks/${enc(id)}/history${query({branch, metric, ...win})}`,
  benchmarks: (p, branch) => `/api/v1/projects/${enc(p)}/benchmarks${query({branch})}`,
  changes: (p, branch, metric, dt, st) => `/api/v1/projects/${enc(p)}/changes${query({branch, metric, dt, st})}`,
  profile: (p, run, id) => `/api/v1/projects/${enc(p)}/runs/${enc(run)}/benchmarks/${enc(id)}/profile`,
  summary: (p) => `/api/v1/projects/${enc(p)}/summary`,
  settings: (p) => `/api/v1/projects/${enc(p)}/settings`,
  tokens: (p) => `/api/v1/projects/${enc(p)}/tokens`,
  token: (p, id) => `/api/v1/projects/${enc(p)}/tokens/${enc(String(id))}`,
};

async function call(method, path, {body, token, signal} = {}) {
  const headers = {Accept: 'application/json'};
  if (token) headers.Authorization = 'Bearer ' + token;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, {method, headers, signal, body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store', credentials: 'same-origin'});
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError(0, `cannot reach the server (${e.message})`, path);
  }
  const textBody = await res.text();
  let json = null;
  try { json = textBody ? JSON.parse(textBody) : null; } catch { /* not JSON: said below */ }
  if (!res.ok) {
    const msg = json && typeof json.error === 'string' ? json.error : `${res.status} ${res.statusText}`.trim();
    throw new ApiError(res.status, msg, path);
  }
  if (json === null) throw new ApiError(res.status, 'the server answered something that is not JSON', path);
  return json;
}

export const get = (path, opts) => call('GET', path, opts);
export const put = (path, body, opts) => call('PUT', path, {...opts, body});
export const post = (path, body, opts) => call('POST', path, {...opts, body});
export const del = (path, opts) => call('DELETE', path, opts);

// GET, or null when the server answers 404 (a thing that may not exist:
// a profile, a report of a branch's commit).
export async function getOrNull(path, opts) {
  try {
    return await get(path, opts);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}

// Runs fn over items with at most `limit` in flight; results in order.
export async function mapLimit(items, limit, fn) {
  const out = new Array(items.length);
  let next = 0;
  async function worker() {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  }
  await Promise.all(Array.from({length: Math.min(limit, items.length)}, worker));
  return out;
}

// An error as the page shows it: what failed and the server's own words.
export function errorBox(err, what) {
  const status = err instanceof ApiError && err.status ? ` (HTTP ${err.status})` : '';
  return h('div', {class: 'error', role: 'alert'},
    h('strong', null, (what || 'Error') + status + ': '),
    h('span', {class: 'error-message'}, err && err.message ? err.message : String(err)),
    err instanceof ApiError && err.path ? h('div', {class: 'error-path'}, 'request: ', h('code', null, err.path)) : null);
}
