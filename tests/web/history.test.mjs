// SPDX-License-Identifier: MIT
// The history chart: uPlot with one point per commit, markers where the
// model or platform changed, the value under the cursor, the commit on a
// click, several benchmarks on one chart, an event metric.
import test from 'node:test';
import {env, api, newPage, open, shot, texts, assert, assertNoInjection, XSS, P, enc} from './lib.mjs';

test('a benchmark\'s speed on main: every point, and markers for the model and platform changes', async () => {
  const {json: h} = await api(`/api/v1/projects/${P}/benchmarks/suite%3A%3Afast/history?branch=main`);
  assert.equal(h.points.length, 30);
  const page = await newPage();
  await open(page, `/projects/${P}/benchmarks/suite%3A%3Afast/history?branch=main`);
  const chart = page.locator('.chart[data-drawn="1"]');
  assert.equal(await chart.getAttribute('data-points'), String(h.points.length), 'one x value per point');
  assert.equal(await chart.locator('canvas').count(), 1, 'uPlot drew on a canvas');
  // The data uPlot was given: every value of the API, in order.
  const drawn = await page.evaluate(() => [...document.querySelectorAll('.chart .u-legend .u-series')].length);
  assert.equal(drawn, 2, 'the legend has the x series and one benchmark');
  const markers = await texts(page, 'ul.markers li');
  assert.equal(markers.length, 2);
  assert.match(markers[0], /model bm-model\/0\+valgrind=3\.19\.0 → bm-model\/1\+valgrind=3\.19\.0/);
  assert.match(markers[1], /platform aarch64 · Debian 12 · GCC 12\.2\.0 → x86_64 · Debian 12 · GCC 12\.2\.0/);
  assert.equal(await chart.getAttribute('data-markers'), '2');
  await shot(page, 'history');
  await page.done();
});

test('hovering shows the value under the cursor; a click shows the commit', async () => {
  const {json: h} = await api(`/api/v1/projects/${P}/benchmarks/suite%3A%3Afast/history?branch=main`);
  const page = await newPage();
  await open(page, `/projects/${P}/benchmarks/suite%3A%3Afast/history?branch=main`);
  const over = page.locator('.chart .u-over');
  const box = await over.boundingBox();
  // The right end is the newest commit: 120/s.
  await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
  await page.waitForFunction(() => /120\.0 \/s/.test(document.querySelector('.hover-readout').textContent));
  const last = h.points[h.points.length - 1];
  assert.match(await page.textContent('.hover-readout'), new RegExp(last.commit.slice(0, 10)));
  assert.match(await page.textContent('.chart .u-legend'), /120\.0 \/s/, 'the legend shows the value too');
  // The left end: the first commit, 100/s.
  await page.mouse.move(box.x + 2, box.y + box.height / 2);
  await page.waitForFunction(() => /100\.0 \/s/.test(document.querySelector('.hover-readout').textContent));
  await page.mouse.click(box.x + 2, box.y + box.height / 2);
  await page.waitForSelector('.point-details:not([hidden])');
  const link = page.locator('.point-details h2 a');
  assert.equal(await link.textContent(), h.points[0].commit.slice(0, 10));
  // (The report of the point's own run: the commit may have others.)
  assert.equal(await link.getAttribute('href'), `/projects/${P}/commits/${h.points[0].commit}?run=${encodeURIComponent(h.points[0].run_id)}`);
  assert.match(await page.textContent('.point-details'), /bm-model\/0/);
  await shot(page, 'history-clicked');
  await link.click();
  await page.waitForSelector('#app[data-state="ready"][data-page="commit"]');
  await page.done();
});

test('several benchmarks on one chart, with the XSS-named one as text', async () => {
  const page = await newPage();
  const path = `/projects/${P}/benchmarks/suite%3A%3Afast/history?branch=main&also=${enc(XSS)}&also=suite%3A%3Acrashy`;
  await open(page, path);
  const chart = page.locator('.chart[data-drawn="1"]');
  assert.equal(await chart.getAttribute('data-series'), '3');
  assert.equal(await chart.getAttribute('data-points'), '30', 'the same 30 commits');
  const legend = await texts(page, '.chart .u-legend .u-series .u-label');
  assert.deepEqual(legend, ['commit', 'suite::fast', XSS, 'suite::crashy']);
  assert.deepEqual(await texts(page, '.series-list .chip a'), ['suite::fast', XSS, 'suite::crashy']);
  await assertNoInjection(page);
  // crashy failed at the newest commit: no value there.
  const box = await page.locator('.chart .u-over').boundingBox();
  await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
  await page.waitForFunction(() => /crashy: failed/.test(document.querySelector('.hover-readout').textContent));
  await shot(page, 'history-several');
  // Removing one from the chart.
  await page.click('.series-list .chip:nth-child(3) button');
  await page.waitForSelector('.chart[data-series="2"]');
  assert.equal(new URL(page.url()).searchParams.getAll('also').join('|'), XSS);
  await page.done();
});

test('a long history is asked for at the chart\'s size: reduced, a stretch dragged across in full, older and newest', async () => {
  const base = `/projects/${P}/benchmarks/suite%3A%3Afast/history?branch=main&points=8`;
  const apiBase = `/api/v1/projects/${P}/benchmarks/suite%3A%3Afast/history?branch=main&points=8`;
  const {json: h} = await api(apiBase);
  assert.equal(h.reduced.points, 30, 'the 30 commits, reduced');
  assert.ok(h.points.length <= 10, `at most the budget (8) and the two ends: ${h.points.length}`);
  const page = await newPage();
  await open(page, base);
  await page.waitForSelector('.window-bar[data-reduced="1"]');
  assert.equal(await page.getAttribute('.chart', 'data-points'), String(h.points.length), 'what the chart draws is what it asked for');
  assert.match(await page.textContent('.window-bar'), /30 points, reduced/);
  await shot(page, 'history-reduced');
  // Dragging across the middle asks for those commits.
  const box = await page.locator('.chart .u-over').boundingBox();
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, {steps: 5});
  await page.mouse.up();
  await page.waitForURL(/from=\d+.*to=\d+/);
  await page.waitForSelector('#app[data-state="ready"] .chart[data-drawn="1"]');
  const url = new URL(page.url());
  const {json: part} = await api(`${apiBase}&from=${url.searchParams.get('from')}&to=${url.searchParams.get('to')}`);
  assert.equal(await page.getAttribute('.chart', 'data-points'), String(part.points.length));
  const inPart = part.reduced ? part.reduced.points : part.points.length;
  assert.ok(inPart < 30 && inPart >= 2, `a stretch of the history: ${inPart} commits`);
  assert.equal(url.searchParams.get('points'), '8', 'the budget stays');
  // Newest: back to the server's default window; whole history: limit=0.
  await page.click('.window-bar button.newest');
  await page.waitForURL((u) => !u.searchParams.has('from'));
  await page.waitForSelector('#app[data-state="ready"] .window-bar');
  await page.click('.window-bar button.all');
  await page.waitForURL((u) => u.searchParams.get('all') === '1');
  await page.waitForSelector('#app[data-state="ready"] .chart[data-drawn="1"]');
  const {json: all} = await api(`${apiBase}&limit=0`);
  assert.equal(await page.getAttribute('.chart', 'data-points'), String(all.points.length));
  await page.done();
});

test('an event metric (Ir) on the chart', async () => {
  const {json: h} = await api(`/api/v1/projects/${P}/benchmarks/suite%3A%3Aslow/history?branch=main&metric=Ir`);
  const page = await newPage();
  await open(page, `/projects/${P}/benchmarks/suite%3A%3Aslow/history?branch=main`);
  await page.selectOption('select[name="metric"]', 'Ir');
  await page.waitForSelector('#app[data-state="ready"] .chart[data-drawn="1"]');
  assert.equal(new URL(page.url()).searchParams.get('metric'), 'Ir');
  assert.equal(await page.getAttribute('.chart', 'data-points'), String(h.points.length));
  const box = await page.locator('.chart .u-over').boundingBox();
  await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
  const last = h.points[h.points.length - 1].value;
  await page.waitForFunction((v) => document.querySelector('.hover-readout').textContent.includes(v),
    new Intl.NumberFormat('en-US').format(last));
  await shot(page, 'history-ir');
  await page.done();
});

test('the heap\'s counts (the bm engine\'s): bytes allocated, in binary units', {skip: env.realProfile ? false : 'no measured profiles'}, async () => {
  const id = 'heap%3A%3Amallocs';
  const {json: h} = await api(`/api/v1/projects/${P}/benchmarks/${id}/history?branch=profiled&metric=bytes_allocated`);
  assert.deepEqual(h.points.map((p) => p.value), [1045, 1045], 'tests/programs/heap.c: 10 blocks of 100 to 109 bytes, each run');
  const page = await newPage();
  await open(page, `/projects/${P}/benchmarks/${id}/history?branch=profiled`);
  await page.selectOption('select[name="metric"]', 'bytes_allocated');
  await page.waitForSelector('#app[data-state="ready"] .chart[data-drawn="1"]');
  assert.equal(new URL(page.url()).searchParams.get('metric'), 'bytes_allocated');
  assert.match(await page.textContent('p.meta'), /bytes_allocated \(heap bytes allocated\)/);
  const box = await page.locator('.chart .u-over').boundingBox();
  await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
  await page.waitForFunction(() => document.querySelector('.hover-readout').textContent.includes('1.02 KiB'));
  await page.done();
});

test('without a branch: the latest branch is chosen and put in the address', async () => {
  const {json: br} = await api(`/api/v1/projects/${P}/branches`);
  const page = await newPage();
  await open(page, `/projects/${P}/benchmarks/suite%3A%3Afast/history`);
  assert.equal(new URL(page.url()).searchParams.get('branch'), br.branches[0].name);
  await page.done();
});
