// SPDX-License-Identifier: MIT
// The dashboard's speed with real volumes (bench/dashboard.sh runs it;
// make check does not: timings do not belong in the test suite), in
// project "big": a commit report of 1,000 benchmarks, and a history of
// 10,000 runs.  The pages must be drawn well under a second, and moving
// the cursor over 10,000 points must not stutter.  Each figure is also
// appended as a JSON line to $BM_BENCH_OUT.
import test, {before} from 'node:test';
import {appendFileSync} from 'node:fs';
import {env, api, newPage, open, shot, assert} from './lib.mjs';

const figure = (name, ms) => {
  console.log(`${name}: ${Math.round(ms * 10) / 10} ms`);
  if (process.env.BM_BENCH_OUT) appendFileSync(process.env.BM_BENCH_OUT, JSON.stringify({name, ms}) + '\n');
};

const N_BENCH = 1000;
const N_RUNS = 10000;
const sha = (s) => Buffer.from(s).toString('hex').padEnd(40, '0').slice(0, 40);

function report({branch, commit, ts, ancestors = [], benchmarks, runId}) {
  return {
    schema: 'bm-report/1', run_id: runId, created_at: '2026-11-22T10:00:00Z',
    tool: {name: 'bm-run', version: '0.1.0', valgrind: '3.19.0'},
    model: {id: 'bm-model/1', frequency_hz: 3e9, weights: {l1_hit: 1, ll_hit: 5, ram: 35},
      cache: {I1: [32768, 8, 64], D1: [32768, 8, 64], LL: [8388608, 16, 64]}},
    context: {platform: {compiler: 'GCC 12.2.0', os: 'Debian 12', arch: 'x86_64'}, host: 'ci-1', branch,
      commit: {sha: commit, timestamp: ts, ancestors}, pr: null},
    binary: {path: '/build/bench', build_id: 'ab12'},
    benchmarks,
  };
}

function bench(id, speed) {
  if (speed === null)
    return {id, status: 'failed', reason: 'exited with status 3', events: {}, cycles: null, time_s: null, speed: null, syscalls: null};
  const cycles = Math.round(3e9 / speed);
  return {id, status: 'ok', reason: null, events: {Ir: cycles, Dr: 10, Dw: 10, I1mr: 1, D1mr: 2, D1mw: 1, ILmr: 1, DLmr: 1, DLmw: 1, sysCount: 0, sysTime: 0, sysCpuTime: 0},
    cycles, time_s: cycles / 3e9, speed: 3e9 / cycles, syscalls: {count: 0, wall_ns: 0, cpu_ns: 0, by_function: []}};
}

async function upload(r) {
  const res = await api('/api/v1/projects/big/runs', {method: 'POST', body: r, token: env.bigToken});
  if (res.status !== 201 && res.status !== 200) throw new Error(`upload: ${res.status} ${res.text}`);
}

const iso = (s) => new Date(Date.UTC(2025, 0, 1) + s * 1000).toISOString().replace(/\.000Z$/, 'Z');

before(async () => {
  if (!env.bigToken) return;
  const t0 = Date.now();
  // Two commits of 1,000 benchmarks: 30 slower, 20 faster, 2 failed.
  const ids = Array.from({length: N_BENCH}, (_, i) => `wide::b${String(i).padStart(4, '0')}[n=${i}]`);
  await upload(report({branch: 'wide', commit: sha('wide-base'), ts: iso(0), runId: 'wide-base',
    benchmarks: ids.map((id, i) => bench(id, 1000 + i))}));
  await upload(report({branch: 'wide', commit: sha('wide-head'), ts: iso(60), ancestors: [sha('wide-base')], runId: 'wide-head',
    benchmarks: ids.map((id, i) => bench(id, i < 2 ? null : i < 32 ? (1000 + i) * 0.9 : i < 52 ? (1000 + i) * 1.05 : 1000 + i))}));
  // 10,000 runs of one benchmark on main.
  let next = 0;
  const worker = async () => {
    while (next < N_RUNS) {
      const i = next++;
      await upload(report({branch: 'main', commit: sha(`h${i}`), ts: iso(3600 + i * 60), runId: `hist-${i}`,
        benchmarks: [bench('hist::one', 1000 + 100 * Math.sin(i / 300) + (i > 7000 ? 50 : 0))]}));
    }
  };
  await Promise.all(Array.from({length: 16}, worker));
  figure(`storing ${N_RUNS + 2} runs through the API`, Date.now() - t0);
});

// The reference in the same run: the page's API answer alone, fetched
// and parsed in the same browser.
async function apiAlone(page, path) {
  return page.evaluate(async (u) => {
    const t0 = performance.now();
    await (await fetch(u)).json();
    return performance.now() - t0;
  }, path);
}

const skip = env.bigToken ? false : 'BM_BIG_TOKEN not set';

test('a commit report of 1,000 benchmarks is drawn well under a second', {skip}, async () => {
  const page = await newPage();
  await open(page, '/'); // the scripts in the cache, as for a person who clicks through
  const ms = await open(page, `/projects/big/commits/${sha('wide-head')}`);
  const drawn = await page.evaluate(() => performance.getEntriesByType('navigation')[0].toJSON());
  figure('commit report of 1,000 benchmarks, ready', ms);
  figure('commit report of 1,000 benchmarks, DOM content loaded', drawn.domContentLoadedEventEnd);
  figure('commit report of 1,000 benchmarks, its API answer alone', await apiAlone(page, `/api/v1/projects/big/commits/${sha('wide-head')}/report`));
  assert.ok(ms < 1000, `ready in ${ms} ms: not well under a second`);
  const shown = await page.locator('.benchmarks-card > .table-wrap tbody tr').count();
  assert.equal(shown, 52, '2 failed, 30 slower, 20 faster');
  assert.match(await page.textContent('details.unchanged-group summary'), /^948 benchmarks unchanged/);
  // Opening the 948 collapsed rows is quick too.
  const t0 = Date.now();
  await page.click('details.unchanged-group summary');
  await page.waitForSelector('details.unchanged-group table tbody tr:nth-child(948)');
  figure('948 unchanged rows opened', Date.now() - t0);
  await shot(page, 'perf-commit-1000', {full: false});
  await page.done();
});

test('a history of 10,000 points draws, and follows the cursor without stutter', {skip}, async () => {
  const page = await newPage();
  await open(page, '/');
  const ms = await open(page, '/projects/big/benchmarks/hist%3A%3Aone/history?branch=main');
  figure('history of 10,000 points, ready', ms);
  figure('history of 10,000 points, its API answer alone', await apiAlone(page, '/api/v1/projects/big/benchmarks/hist%3A%3Aone/history?branch=main'));
  assert.equal(await page.getAttribute('.chart', 'data-points'), String(N_RUNS));
  assert.ok(ms < 1000, `ready in ${ms} ms: not well under a second`);
  // 60 cursor moves across the chart, each waited for until the next frame.
  const times = await page.evaluate(async () => {
    const over = document.querySelector('.chart .u-over');
    const r = over.getBoundingClientRect();
    const out = [];
    for (let k = 0; k < 60; k++) {
      const t0 = performance.now();
      over.dispatchEvent(new MouseEvent('mousemove', {clientX: r.left + (r.width * k) / 60, clientY: r.top + r.height / 2, bubbles: true}));
      await new Promise((res) => requestAnimationFrame(res));
      out.push(performance.now() - t0);
    }
    return out;
  });
  times.sort((a, b) => a - b);
  const median = times[30], worst = times[59];
  figure('cursor over 10,000 points, median move to frame', median);
  figure('cursor over 10,000 points, worst move to frame', worst);
  assert.ok(median < 34, `median ${median} ms per move: more than two frames at 60 Hz`);
  await shot(page, 'perf-history-10000');
  await page.done();
});

test('the projects page and the ranking with 10,000 runs stored', {skip}, async () => {
  const page = await newPage();
  await open(page, '/');
  const ms = await open(page, '/');
  const ms2 = await open(page, '/projects/big/changes?branch=main');
  figure('projects page with 10,000 runs stored, ready', ms);
  figure('ranked changes over 10,000 runs, ready', ms2);
  assert.ok(ms < 1000 && ms2 < 1000, `${ms} and ${ms2} ms: not well under a second`);
  assert.equal(await page.locator('table.changes tbody tr').count(), 1);
  await page.done();
});
