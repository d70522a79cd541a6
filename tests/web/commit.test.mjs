// SPDX-License-Identifier: MIT
// The commit / pull-request report: the baseline and its reason, the
// gauge, benchmarks sorted failed first then by impact with the unchanged
// collapsed, links to history and profile; and the XSS-named benchmark
// stays text.
import test from 'node:test';
import {env, api, newPage, open, shot, texts, assert, assertNoInjection, XSS, P} from './lib.mjs';

test('the pull request report: baseline, gauge, failed first, then by impact, unchanged collapsed', async () => {
  const {json: r} = await api(`/api/v1/projects/${P}/commits/${env.prSha}/report?pr=7`);
  const page = await newPage();
  await open(page, `/projects/${P}/commits/${env.prSha}?pr=7`);
  assert.equal((await page.textContent('h1')).trim(), `Pull request #7 ${env.prSha.slice(0, 10)}`);
  assert.equal((await page.textContent('.baseline .reason')).trim(), r.baseline_reason);
  assert.match(await page.textContent('.baseline'), new RegExp(r.baseline.sha.slice(0, 10)));
  // The gauge: the needle where sign(x) * sqrt(|x|) puts it.
  const pos = Number(await page.getAttribute('svg.gauge', 'data-position'));
  const x = r.commit_impact;
  assert.ok(Math.abs(pos - Math.sign(x) * Math.sqrt(Math.abs(x))) < 1e-3, `gauge at ${pos} for ${x}`);
  assert.equal(await page.locator('svg.gauge line.needle').count(), 1);
  assert.equal((await page.textContent('.impact-card .badge')).trim(), 'failed');
  // The table: failed first, then worst impact first, then new; the two
  // unchanged ones (fast is +5%, steady -1%) behind a closed <details>.
  const ids = await texts(page, '.benchmarks-card > .table-wrap table.benchmarks tbody .bench-name');
  assert.deepEqual(ids, ['suite::crashy', 'suite::steady', 'suite::fast', 'suite::new']);
  const statuses = await texts(page, '.benchmarks-card > .table-wrap table.benchmarks tbody td:first-child');
  assert.deepEqual(statuses, ['failed', 'ok', 'ok', 'ok']);
  assert.match(await page.textContent('tr.row-failed'), /killed by signal 11/);
  const impacts = await texts(page, '.benchmarks-card > .table-wrap table.benchmarks tbody td.impact-col');
  assert.deepEqual(impacts, ['–', '−1.00%', '+5.00%', '–']);
  const details = page.locator('details.unchanged-group');
  assert.equal(await details.getAttribute('open'), null, 'unchanged benchmarks are collapsed');
  assert.match(await details.locator('summary').textContent(), /^2 benchmarks unchanged/);
  await details.locator('summary').click();
  // The table is built on the toggle event, which comes after the click.
  await page.waitForSelector('details.unchanged-group table tbody .bench-name');
  const unchanged = await texts(page, 'details.unchanged-group table tbody .bench-name');
  assert.deepEqual(unchanged.sort(), [XSS, 'suite::slow'].sort());
  // The XSS name is text, nothing ran.
  await assertNoInjection(page);
  const xss = page.locator('details.unchanged-group .bench-name', {hasText: 'onerror'});
  assert.equal(await xss.textContent(), XSS);
  // Links: history (of the base branch) and the profile against the baseline run.
  const hist = await page.getAttribute('.benchmarks-card tbody tr:nth-child(3) .links a:first-child', 'href');
  assert.equal(hist, `/projects/${P}/benchmarks/suite%3A%3Afast/history?branch=main`);
  const prof = await page.getAttribute('.benchmarks-card tbody tr:nth-child(3) .links a:nth-child(2)', 'href');
  assert.equal(prof, `/projects/${P}/runs/${encodeURIComponent(r.run_id)}/benchmarks/suite%3A%3Afast/profile?base=${encodeURIComponent(r.baseline.run_id)}`);
  await shot(page, 'commit-pr');
  await page.done();
});

test('bm-check --baseline merge-base links here with the rule: the page compares as the check did', async () => {
  const {json: r} = await api(`/api/v1/projects/${P}/commits/${env.prSha}/report?pr=7&baseline=merge-base`);
  assert.match(r.baseline_reason, /\(merge-base rule: /, 'this pull request was uploaded without its merge base');
  const page = await newPage();
  await open(page, `/projects/${P}/commits/${env.prSha}?pr=7&baseline=merge-base`);
  assert.equal((await page.textContent('.baseline .reason')).trim(), r.baseline_reason);
  await page.done();
});

test('a push without a comparable baseline says why', async () => {
  const {json: br} = await api(`/api/v1/projects/${P}/branches`);
  // main's fifth commit is the first on x86_64: its ancestors ran on aarch64.
  const {json: hist} = await api(`/api/v1/projects/${P}/benchmarks/suite%3A%3Asteady/history?branch=main`);
  const sha = hist.points[4].commit;
  const {json: r} = await api(`/api/v1/projects/${P}/commits/${sha}/report`);
  assert.equal(r.baseline, null);
  const page = await newPage();
  await open(page, `/projects/${P}/commits/${sha}`);
  assert.equal((await page.textContent('.baseline .reason')).trim(), r.baseline_reason);
  assert.equal((await page.textContent('.impact-card .badge')).trim(), 'no baseline');
  assert.equal(await page.locator('svg.gauge line.needle').count(), 0, 'no needle without an impact');
  assert.ok(br.branches.length > 0);
  await shot(page, 'commit-no-baseline');
  await page.done();
});

test('an unknown commit: the server\'s message', async () => {
  const page = await newPage();
  await open(page, `/projects/${P}/commits/deadbeef`);
  assert.match(await page.textContent('.error'), /HTTP 404.*no run of commit 'deadbeef'/s);
  await page.done();
});

test('acknowledging a regression from the page: the verdict becomes "acknowledged", the note stays text', async () => {
  // main's 25th commit makes suite::slow 25% slower than the 24th.
  const {json: hist} = await api(`/api/v1/projects/${P}/benchmarks/suite%3A%3Aslow/history?branch=main`);
  const sha = hist.points[24].commit;
  const page = await newPage();
  await open(page, `/projects/${P}/commits/${sha}`);
  assert.equal((await page.textContent('.impact-card .badge')).trim(), 'regression');
  await page.click('details.ack-form-wrap summary');
  assert.deepEqual(await texts(page, '.ack-form select[name="benchmark"] option'), ['suite::slow (−25.0%)']);
  await page.fill('.ack-form input[name="by"]', 'Ada');
  await page.fill('.ack-form textarea[name="reason"]', XSS);
  // A token that is not the project's: the server's refusal, nothing stored.
  await page.fill('.ack-form input[name="token"]', 'bm_nonsense');
  await page.click('.ack-form button[type="submit"]');
  await page.waitForSelector('.ack-status .error');
  assert.match(await page.textContent('.ack-status'), /HTTP 401/);
  await page.fill('.ack-form input[name="token"]', env.token);
  await page.click('.ack-form button[type="submit"]');
  await page.waitForFunction(() => document.querySelector('.impact-card .badge')?.textContent.trim() === 'acknowledged');
  const note = page.locator('.benchmarks-card tr:has(.bench-name:text-is("suite::slow")) .ack');
  assert.equal((await note.textContent()).trim(), `Acknowledged by Ada: ${XSS}`);
  assert.equal(await page.locator('details.ack-form-wrap').count(), 0, 'nothing left to acknowledge');
  await assertNoInjection(page);
  const {json: r} = await api(`/api/v1/projects/${P}/commits/${sha}/report`);
  assert.equal(r.verdict, 'acknowledged');
  await shot(page, 'commit-acknowledged');
  await page.done();
});

test('a commit measured on two platforms: each link shows its own platform\'s report', async () => {
  const sha = env.matrixSha;
  const page = await newPage();
  // Without ?run=: the newest upload's (aarch64, unchanged).
  await open(page, `/projects/matrix/commits/${sha}`);
  assert.match(await page.textContent('dl.facts'), /mx-arm-1.*aarch64/s);
  assert.equal((await page.textContent('.impact-card .badge')).trim(), 'neutral');
  // The projects page links each platform's row to its own run's report.
  await open(page, '/');
  const links = await page.$$eval('section.project[data-project="matrix"] table.summary tbody tr td:nth-child(2) a',
    (as) => as.map((a) => a.getAttribute('href')).sort());
  assert.deepEqual(links, [`/projects/matrix/commits/${sha}?run=mx-arm-1`, `/projects/matrix/commits/${sha}?run=mx-x86-1`]);
  // x86_64's: its regression, against x86_64's baseline, whose link keeps to it.
  await open(page, `/projects/matrix/commits/${sha}?run=mx-x86-1`);
  assert.match(await page.textContent('dl.facts'), /mx-x86-1.*x86_64/s);
  assert.equal((await page.textContent('.impact-card .badge')).trim(), 'regression');
  assert.match(await page.getAttribute('.baseline a.sha', 'href'), /\?run=mx-x86-0$/);
  await page.done();
});
