// SPDX-License-Identifier: MIT
// Compare: two branches' latest results side by side; a local report
// file (chosen with the file input, or dropped) compared against a branch
// in the browser, never uploaded.
import test from 'node:test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {env, api, newPage, open, shot, texts, assert, assertNoInjection, XSS, P} from './lib.mjs';

function localReport() {
  // main's newest report, as bm-run wrote it, with fast twice as fast and
  // one more benchmark.
  const r = JSON.parse(fs.readFileSync(env.reportFile, 'utf8'));
  r.run_id = 'local-run';
  for (const b of r.benchmarks) if (b.id === 'suite::fast') b.speed *= 2;
  r.benchmarks.push({...r.benchmarks.find((b) => b.id === 'suite::steady'), id: 'suite::local-only'});
  return r;
}

test('main against feature/faster, side by side', async () => {
  const page = await newPage();
  await open(page, `/projects/${P}/compare?a=main&b=${encodeURIComponent('feature/faster')}`);
  assert.match(await page.textContent('.cards .side:nth-child(1)'), new RegExp(env.head.slice(0, 10)));
  assert.match(await page.textContent('.cards .side:nth-child(2)'), new RegExp(env.feature.slice(0, 10)));
  const rows = await page.$$eval('#compare-branches > .table-wrap tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent.trim())));
  assert.deepEqual(rows.map((r) => r[1].replace(/killed.*/, '')), ['suite::crashy', 'suite::steady', 'suite::fast']);
  assert.deepEqual(rows.map((r) => [r[2], r[3], r[4]]), [
    ['failed', '80.00 /s', '–'],
    ['100.0 /s', '99.00 /s', '−1.00%'],
    ['120.0 /s', '126.0 /s', '+5.00%'],
  ]);
  assert.match(await page.textContent('#compare-branches details summary'), /^2 benchmarks the same on both/);
  await page.click('#compare-branches details summary');
  await page.waitForSelector('#compare-branches details .bench-name');
  assert.deepEqual((await texts(page, '#compare-branches details .bench-name')).sort(), [XSS, 'suite::slow'].sort());
  await assertNoInjection(page);
  await shot(page, 'compare');
  await page.done();
});

test('a local report chosen with the file input is compared with main, and not uploaded', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bm-web-'));
  const file = path.join(dir, 'report.json');
  fs.writeFileSync(file, JSON.stringify(localReport()));
  const page = await newPage();
  await open(page, `/projects/${P}/compare?a=main`);
  const before = page.requests.length;
  await page.setInputFiles('#compare-file input[type="file"]', file);
  await page.waitForSelector('#compare-file .local-result[data-rows]');
  assert.match(await page.textContent('#compare-file .notice'), /report\.json.*local-run.*Nothing was uploaded/s);
  const rows = await page.$$eval('#compare-file .local-result > .table-wrap tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent.trim())));
  const byId = Object.fromEntries(rows.map((r) => [r[1].replace(/killed.*/, ''), r]));
  assert.equal(byId['suite::fast'][4], '+100%');
  assert.equal(byId['suite::local-only'][0], 'only in file');
  assert.equal(byId['suite::crashy'][0], 'failed');
  assert.deepEqual(page.requests.slice(before), [], 'reading the file asked the server nothing');
  assert.equal(await page.locator('#compare-file .warning').count(), 0, 'measured as main was: nothing to warn of');
  await shot(page, 'compare-file');
  // The same report as callgrind would have measured it: another series.
  const cg = localReport();
  cg.tool.engine = 'callgrind';
  cg.model.cpu = 'host: AMD EPYC 7B13';
  fs.writeFileSync(file, JSON.stringify(cg));
  await page.setInputFiles('#compare-file input[type="file"]', []);
  await page.setInputFiles('#compare-file input[type="file"]', file);
  await page.waitForSelector('#compare-file .warning');
  assert.match(await page.textContent('#compare-file .warning'), /measured differently \(bm-model\/1\S* in main, bm-model\/1\S*\+callgrind\S*\+cpu=host: AMD EPYC 7B13 in file\)/);
  fs.rmSync(dir, {recursive: true});
  await page.done();
});

test('a report dropped on the page', async () => {
  const page = await newPage();
  await open(page, `/projects/${P}/compare?a=main`);
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'dropped.json', {type: 'application/json'}));
    const zone = document.getElementById('dropzone');
    zone.dispatchEvent(new DragEvent('dragover', {dataTransfer: dt, bubbles: true, cancelable: true}));
    zone.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
  }, JSON.stringify(localReport()));
  await page.waitForSelector('#compare-file .local-result[data-rows]');
  assert.match(await page.textContent('#compare-file .notice'), /dropped\.json/);
  assert.ok(!page.requests.some((r) => r.method !== 'GET'), 'nothing was sent but reads');
  await page.done();
});

test('a file that is not a bm-report/1 report: what is wrong with it', async () => {
  const page = await newPage();
  await open(page, `/projects/${P}/compare?a=main`);
  await page.setInputFiles('#compare-file input[type="file"]', {name: 'other.json', mimeType: 'application/json', buffer: Buffer.from('{"schema": "something/2"}')});
  await page.waitForSelector('#compare-file .error');
  assert.match(await page.textContent('#compare-file .error'), /schema is "something\/2", expected "bm-report\/1"/);
  await page.setInputFiles('#compare-file input[type="file"]', {name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"schema": ')});
  await page.waitForFunction(() => /broken\.json is not JSON/.test(document.querySelector('#compare-file .error')?.textContent || ''));
  await page.done();
});
