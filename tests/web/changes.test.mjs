// SPDX-License-Identifier: MIT
// The ranked changes: the BM ranking with DT and ST shown, stable changes
// first, unchanged collapsed, other tolerances tried from the page.
import test from 'node:test';
import {api, newPage, open, shot, texts, assert, assertNoInjection, XSS, P} from './lib.mjs';

test('the ranking of main: stable changes first, worst first, with DT and ST', async () => {
  const {json: c} = await api(`/api/v1/projects/${P}/changes?branch=main`);
  const page = await newPage();
  await open(page, `/projects/${P}/changes?branch=main`);
  const ids = await texts(page, 'table.changes tbody .bench-name');
  assert.deepEqual(ids, c.changes.map((x) => x.id));
  assert.deepEqual(ids, ['suite::slow', 'suite::fast', XSS], 'slow (-25%, stable), fast (+20%, stable), then the unstable +10%');
  const cells = await page.$$eval('table.changes tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent.trim())));
  assert.match(cells[0][2], /−25\.0%/);
  assert.equal(cells[0][3], '200.0 /s');
  assert.equal(cells[0][4], '150.0 /s');
  assert.match(cells[0][6], /^stable/);
  assert.match(cells[2][6], /^unstable/);
  assert.match(await page.textContent('.tolerances'), /DT = 1\.00%.*ST = 4/s);
  assert.match(await page.textContent('details.unchanged-group summary'), /^2 benchmarks without a change/);
  await assertNoInjection(page);
  await shot(page, 'changes');
  await page.done();
});

test('trying another ST from the page: the XSS-named change is stable with ST = 2', async () => {
  const page = await newPage();
  await open(page, `/projects/${P}/changes?branch=main`);
  await page.fill('input[name="st"]', '2');
  await page.click('form.controls button[type="submit"]');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('st') === '2' &&
    document.querySelector('#app').dataset.state === 'ready');
  assert.match(await page.textContent('.tolerances'), /ST = 2.*unchanged/s);
  const stab = await texts(page, 'table.changes tbody td:nth-child(7) .badge');
  assert.deepEqual(stab, ['stable', 'stable', 'stable']);
  const {json: s} = await api(`/api/v1/projects/${P}/settings`);
  assert.ok(s.st !== 2, 'the project\'s own ST did not change');
  await page.done();
});

test('a cost metric: more cycles is the regression', async () => {
  const {json: c} = await api(`/api/v1/projects/${P}/changes?branch=main&metric=cycles`);
  const page = await newPage();
  await open(page, `/projects/${P}/changes?branch=main&metric=cycles`);
  const rows = await page.$$eval('table.changes tbody tr', (trs) => trs.map((tr) => tr.className));
  assert.deepEqual(rows, c.changes.map((x) => (x.regression ? 'regression' : 'improvement')));
  const firstImpact = await page.textContent('table.changes tbody tr:first-child .impact-text');
  assert.ok(/bad/.test(await page.getAttribute('table.changes tbody tr:first-child .impact-text', 'class')), firstImpact);
  await page.done();
});
