// SPDX-License-Identifier: MIT
// The projects page: every project, and per branch its latest run with
// platform, counts and verdict, from the real server's data.
import test from 'node:test';
import {env, api, newPage, open, shot, texts, assert, P} from './lib.mjs';

test('the projects page lists every project with its counts', async () => {
  const {json} = await api('/api/v1/projects');
  const page = await newPage();
  await open(page, '/');
  const names = await texts(page, 'section.project h2');
  assert.deepEqual(names, json.projects.map((p) => p.name));
  const demo = json.projects.find((p) => p.name === env.project);
  const meta = await page.textContent(`section.project[data-project="${env.project}"] .meta`);
  assert.match(meta, new RegExp(`${demo.runs} runs · ${demo.benchmarks} benchmarks`));
  await shot(page, 'projects');
  await page.done();
});

test('per branch and platform: the latest commit, benchmark count, regressions and verdict', async () => {
  const {json: sum} = await api(`/api/v1/projects/${P}/summary`);
  const page = await newPage();
  await open(page, '/');
  const sel = `section.project[data-project="${env.project}"] table.summary tbody tr`;
  // Each row as {column title: text}, or [text, second line] where a cell has one.
  const rows = await page.$$eval(`section.project[data-project="${env.project}"] table.summary`, ([t]) => {
    const heads = [...t.querySelectorAll('thead th')].map((th) => th.textContent.trim());
    const cell = (td) => {
      const second = td.querySelector('.reason');
      if (!second) return td.textContent.trim();
      const all = td.textContent.trim();
      return [all.slice(0, all.length - second.textContent.length).trim(), second.textContent.trim()];
    };
    return [...t.querySelectorAll('tbody tr')].map((tr) => Object.fromEntries([...tr.children].map((td, i) => [heads[i], cell(td)])));
  });
  assert.equal(rows.length, sum.rows.length, 'one row per branch, model and platform');
  // main ran on aarch64 (with two models) before x86_64: three rows.
  const mains = rows.filter((r) => r.Branch === 'main');
  assert.deepEqual(mains.map((r) => r.Platform.join(' ')).sort(), [
    'aarch64 · Debian 12 · GCC 12.2.0 bm-model/0+valgrind=3.19.0', 'aarch64 · Debian 12 · GCC 12.2.0 bm-model/1+valgrind=3.19.0',
    'x86_64 · Debian 12 · GCC 12.2.0 bm-model/1+valgrind=3.19.0']);
  const main = mains.find((r) => r.Platform[0].startsWith('x86_64'));
  const {json: rep} = await api(`/api/v1/projects/${P}/commits/${env.head}/report`);
  assert.deepEqual(main.Platform, ['x86_64 · Debian 12 · GCC 12.2.0', 'bm-model/1+valgrind=3.19.0'], 'the platform and model of main\'s latest run');
  assert.equal(main['Latest run'][0], env.head.slice(0, 10), 'the latest commit');
  assert.equal(main['Latest run'][1], '2026-01-02 06:00 UTC', 'its committer time');
  assert.equal(main.Benchmarks, String(rep.benchmarks.filter((b) => b.status !== 'missing').length), 'benchmark count');
  assert.equal(main.Regressed, '0');
  assert.equal(main.Failed, '1', 'one failed benchmark');
  assert.equal(main.Verdict, 'failed', 'the verdict');
  const feature = rows.find((r) => r.Branch === 'feature/faster');
  assert.equal(feature.Verdict, 'neutral', '+5% and -1% are within the 10% threshold');
  const profiled = rows.find((r) => r.Branch === 'profiled');
  if (env.realProfile) assert.equal(profiled.Regressed, '1', 'cases::compute got slower (n=4000 against n=1000)');
  // The latest commit links to its report.
  await page.click(`${sel} >> text=${env.head.slice(0, 10)}`);
  await page.waitForSelector('#app[data-state="ready"][data-page="commit"]');
  assert.equal(new URL(page.url()).pathname, `/projects/${P}/commits/${env.head}`);
  // Back: the projects page again, drawn by the router without a reload.
  await page.goBack();
  await page.waitForSelector('#app[data-state="ready"][data-page="projects"] table.summary');
  await page.done();
});
