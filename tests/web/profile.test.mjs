// SPDX-License-Identifier: MIT
// The profile view of real bm-run profiles: the flame graph has one frame
// per call stack prefix of `bm-profile --folded` (plus the root), the
// differential flame graph against the baseline run, the sortable
// function table, the source lines, and the system calls, marked as not
// part of the speed.
import test from 'node:test';
import {env, api, newPage, open, shot, texts, assert, P, enc} from './lib.mjs';

const profilePath = (run, id, base) => `/projects/${P}/runs/${enc(run)}/benchmarks/${enc(id)}/profile${base ? `?base=${enc(base)}` : ''}`;
const real = env.realProfile ? false : 'bm-run could not measure (see the runner\'s output)';

test('the flame graph of a whole program: every call stack of bm-profile --folded', {skip: real}, async () => {
  const {json} = await api(`/api/v1${profilePath('profile-run-4000', 'whole')}`);
  const page = await newPage();
  await open(page, profilePath('profile-run-4000', 'whole', 'profile-run-1000'));
  await page.waitForSelector('#flame-head svg g.frame');
  const frames = await page.locator('#flame-head svg g.frame').count();
  assert.equal(frames, env.framesWhole, 'one frame per distinct stack prefix, and the root');
  assert.equal(await page.getAttribute('#flame-head', 'data-frames'), String(env.framesWhole));
  // The root spans the profile's cycles.
  const root = await page.locator('#flame-head svg g.frame title').first().textContent();
  assert.match(root, new RegExp(`^whole: ${new Intl.NumberFormat('en-US').format(json.profile.cycles)} cycles \\(100%\\)`));
  assert.match(await page.textContent('#functions h2'), new RegExp(`Functions \\(${json.profile.functions.length}\\)`));
  await shot(page, 'profile-whole', {full: false});
  // A click on a frame zooms to it and shows its function below.
  await page.locator('#flame-head g.frame[name="main"]').first().click();
  await page.waitForSelector('#function-details h3:has-text("main")');
  await page.done();
});

test('the function table sorts, and a function shows its callers, callees and source lines', {skip: real}, async () => {
  const {json} = await api(`/api/v1${profilePath('profile-run-4000', 'whole')}`);
  const page = await newPage();
  await open(page, profilePath('profile-run-4000', 'whole'));
  const fns = json.profile.functions;
  const selfSorted = fns.map((f) => f.self_cycles).sort((a, b) => b - a);
  const fmt = (v) => new Intl.NumberFormat('en-US').format(v);
  const col = (n) => texts(page, `#functions table.functions tbody td:nth-child(${n})`);
  assert.equal((await col(3)).length, 100, 'the first 100 rows, the rest behind a button');
  assert.deepEqual((await col(3)).slice(0, 5), selfSorted.slice(0, 5).map(fmt), 'by self cycles, most first');
  await page.click('#functions th:has-text("Inclusive cycles")');
  const inclSorted = fns.map((f) => f.inclusive_cycles).sort((a, b) => b - a);
  assert.deepEqual((await col(5)).slice(0, 5), inclSorted.slice(0, 5).map(fmt), 'by inclusive cycles');
  await page.click('#functions th:has-text("Inclusive cycles")');
  assert.equal((await col(5))[0], fmt(Math.min(...fns.map((f) => f.inclusive_cycles))), 'and the other way');
  await page.click('#functions .more button');
  assert.equal((await col(3)).length, fns.length, 'all rows');
  // checksum (the program's own loop) has source lines.
  const i = fns.findIndex((f) => f.name === 'checksum');
  const lines = json.profile.lines.filter((l) => l.function === i);
  assert.ok(lines.length > 0, 'the profile has checksum\'s lines');
  await page.click('#functions table.functions tbody tr:has(.bench-name:text-is("checksum"))');
  await page.waitForSelector('#function-details h3:has-text("checksum")');
  const shown = await texts(page, '#function-details table.lines-table tbody td:first-child');
  assert.deepEqual(shown, lines.slice().sort((a, b) => a.line - b.line).map((l) => `whole.c:${l.line}`));
  assert.match(await page.textContent('#function-details'), /Called by \(1\)\s*Caller.*main/s);
  await page.locator('#function-details').scrollIntoViewIfNeeded();
  await shot(page, 'profile-functions', {full: false});
  await page.done();
});

test('the differential flame graph against the baseline run', {skip: real}, async () => {
  const page = await newPage();
  await open(page, profilePath('profile-run-4000', 'cases::compute', 'profile-run-1000'));
  assert.equal(await page.locator('#flame-head svg g.frame').count(), env.framesCompute);
  await page.click('button[role="tab"]:has-text("Differential")');
  await page.waitForSelector('#flame-diff svg g.frame');
  assert.equal(await page.locator('#flame-diff svg g.frame').count(), env.framesCompute, 'the head\'s stacks');
  // compute costs more with n=4000: its frame is red; its title says by how much.
  const title = await page.locator('#flame-diff g.frame[name="compute"] title').textContent();
  const {json: head} = await api(`/api/v1${profilePath('profile-run-4000', 'cases::compute')}`);
  const {json: base} = await api(`/api/v1${profilePath('profile-run-1000', 'cases::compute')}`);
  const incl = (p) => p.profile.functions.find((f) => f.name === 'compute').inclusive_cycles;
  const fmt = (v) => new Intl.NumberFormat('en-US').format(v);
  assert.match(title, new RegExp(`baseline ${fmt(incl(base))} cycles, \\+${fmt(incl(head) - incl(base))}`));
  const fill = await page.getAttribute('#flame-diff g.frame[name="compute"] rect', 'fill');
  assert.match(fill, /^hsl\(4,/, 'red: more cycles');
  const delta = await page.textContent('#functions table.functions tbody tr:has(.bench-name:text-is("compute")) td:last-child');
  const self = (p) => p.profile.functions.find((f) => f.name === 'compute').self_cycles;
  assert.equal(delta, '+' + fmt(self(head) - self(base)));
  await shot(page, 'profile-differential');
  await page.done();
});

test('without base=: the baseline run the server compares this run with', {skip: real}, async () => {
  const {json} = await api(`/api/v1${profilePath('profile-run-4000', 'cases::compute')}`);
  const page = await newPage();
  await open(page, profilePath('profile-run-4000', 'cases::compute'));
  if (!json.baseline) {
    // A server that does not name the baseline: the page offers to enter a run.
    assert.equal(await page.locator('button[role="tab"]:has-text("Differential")').isDisabled(), true);
    await page.done();
    return;
  }
  assert.equal(json.baseline.run_id, 'profile-run-1000');
  assert.match(await page.textContent('h1 + p.meta'), new RegExp(`of commit ${env.profHead.slice(0, 10)} on profiled · baseline run profile-run-1000 \\(commit ${env.profBase.slice(0, 10)}\\)`));
  assert.equal((await page.textContent('p.meta.reason')).trim(), json.baseline.reason);
  await page.click('button[role="tab"]:has-text("Differential")');
  assert.equal(await page.locator('#flame-diff svg g.frame').count(), env.framesCompute);
  await page.done();
});

test('the system calls, by function with their callers, not part of the speed', {skip: real}, async () => {
  const {json} = await api(`/api/v1${profilePath('profile-run-4000', 'cases::sleep[ms=10]')}`);
  const page = await newPage();
  await open(page, profilePath('profile-run-4000', 'cases::sleep[ms=10]'));
  assert.match(await page.textContent('#syscalls .syscalls-note'), /Not part of the speed figure/);
  const rows = await page.$$eval('#syscalls table.syscalls tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent.trim())));
  assert.equal(rows.length, json.syscalls.by_function.length);
  const sleep = json.syscalls.by_function.find((f) => /nanosleep/.test(f.function));
  const row = rows.find((r) => r[0] === sleep.function);
  assert.equal(row[1], String(sleep.count));
  assert.match(row[2], / ms$/, 'about 10 ms of wall time');
  assert.match(row[4], new RegExp(`^${sleep.callers[0].function} — 1 call, 1 system call`));
  await page.locator('#syscalls').scrollIntoViewIfNeeded();
  await shot(page, 'profile-syscalls', {full: false});
  await page.done();
});

test('what a benchmark allocated: a memory flame graph by bytes and by blocks, and the allocation sites', {skip: real}, async () => {
  const {json} = await api(`/api/v1${profilePath('profile-run-4000', 'heap::mallocs')}`);
  const page = await newPage();
  await open(page, profilePath('profile-run-4000', 'heap::mallocs'));
  // tests/programs/heap.c: 10 blocks of 100 to 109 bytes, from mallocs.
  assert.match(await page.textContent('#memory'), /10 blocks · 1\.02 KiB requested/);
  await page.waitForSelector('#flame-memory-bytes svg g.frame');
  const malloc = await page.locator('#flame-memory-bytes g.frame[name="malloc"] title').first().textContent();
  assert.match(malloc, /^malloc: 1\.02 KiB \(100%\)/, 'the allocation function is the tip, with every byte');
  const mallocs = await page.locator('#flame-memory-bytes g.frame[name="mallocs"] title').first().textContent();
  assert.match(mallocs, /^mallocs: 1\.02 KiB/, 'its caller carries them');
  await page.click('#memory button[role="tab"]:has-text("By blocks")');
  await page.waitForSelector('#flame-memory-blocks svg g.frame');
  assert.equal(await page.locator('#flame-memory-bytes').isHidden(), true);
  assert.match(await page.locator('#flame-memory-blocks g.frame[name="malloc"] title').first().textContent(), /^malloc: 10 blocks/);
  const rows = await page.$$eval('#memory table.alloc-sites tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent.trim())));
  assert.deepEqual(rows, [['mallocs', 'malloc', '10', '10', '1.02 KiB']], 'one site: mallocs calls malloc');
  const k = json.profile.events.indexOf('allocBytes');
  assert.equal(json.profile.totals[k], 1045, 'the profile\'s own total');
  await page.locator('#memory').scrollIntoViewIfNeeded();
  await shot(page, 'profile-memory', {full: false});
  await page.done();
});

test('a benchmark that allocated nothing says so', {skip: real}, async () => {
  const page = await newPage();
  await open(page, profilePath('profile-run-4000', 'heap::none'));
  assert.match(await page.textContent('#memory'), /No heap allocation in this benchmark/);
  assert.equal(await page.locator('#memory svg').count(), 0);
  await page.done();
});

test('a report\'s small profile (make_report): its system calls and callers', async () => {
  const {json: r} = await api(`/api/v1/projects/${P}/commits/${env.head}/report`);
  const page = await newPage();
  await open(page, profilePath(r.run_id, 'suite::fast'));
  const rows = await page.$$eval('#syscalls table.syscalls tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent.trim())));
  assert.deepEqual(rows, [['read', '1', '1.000 µs', '500.0 ns', 'main — 1 call, 1 system call, 1.000 µs wall, 500.0 ns CPU']]);
  await page.done();
});

test('a result without a profile: the server\'s message', async () => {
  const {json: r} = await api(`/api/v1/projects/${P}/commits/${env.head}/report`);
  const page = await newPage();
  await open(page, profilePath(r.run_id, 'suite::crashy'));
  assert.match(await page.textContent('.error'), /HTTP 404.*no profile of 'suite::crashy'/s);
  await page.done();
});
