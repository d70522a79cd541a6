// SPDX-License-Identifier: MIT
// Settings: an upload token is refused with the server's message; an admin
// token changes the threshold, DT and ST; tokens are made and revoked.
// On a project of their own (the other tests read the demo's settings).
import test from 'node:test';
import {env as all, api, newPage, open, shot, assert} from './lib.mjs';

const env = {token: all.settingsToken, admin: all.settingsAdmin};
const P = 'settings-test';

test('an upload (non-admin) token is refused, with the server\'s reason', async () => {
  const before = (await api(`/api/v1/projects/${P}/settings`)).json;
  const page = await newPage();
  await open(page, `/projects/${P}/settings`);
  await page.fill('#token input[name="token"]', env.token);
  await page.click('#token button[type="submit"]');
  await page.waitForSelector('#token .error');
  const answer = await api(`/api/v1/projects/${P}/settings`, {method: 'PUT', body: {}, token: env.token});
  assert.equal(answer.status, 403);
  assert.equal((await page.textContent('#token .error .error-message')).trim(), answer.json.error);
  assert.match(await page.textContent('#token .error'), /HTTP 403/);
  // Saving with it: refused too, nothing changed.
  await page.fill('#settings input[name="threshold"]', '20');
  await page.click('#settings button[type="submit"]');
  await page.waitForSelector('#settings .error');
  assert.match(await page.textContent('#settings .error'), /HTTP 403.*admin token/s);
  assert.deepEqual((await api(`/api/v1/projects/${P}/settings`)).json, before);
  // A made-up token: 401.
  await page.fill('#token input[name="token"]', 'bm_nonsense');
  await page.click('#token button[type="submit"]');
  await page.waitForFunction(() => /HTTP 401/.test(document.querySelector('#token .error')?.textContent || ''));
  await shot(page, 'settings-refused');
  await page.done();
});

test('an admin token changes the settings', async () => {
  const before = (await api(`/api/v1/projects/${P}/settings`)).json;
  try {
    const page = await newPage();
    await open(page, `/projects/${P}/settings`);
    assert.equal(await page.inputValue('#settings input[name="threshold"]'), String(before.threshold * 100));
    await page.fill('#token input[name="token"]', env.admin);
    await page.click('#token button[type="submit"]');
    await page.waitForSelector('#token .success');
    await page.fill('#settings input[name="threshold"]', '12.5');
    await page.fill('#settings input[name="dt"]', '0.5');
    await page.fill('#settings input[name="st"]', '6');
    await page.click('#settings button[type="submit"]');
    await page.waitForSelector('#settings .success');
    assert.deepEqual((await api(`/api/v1/projects/${P}/settings`)).json, {threshold: 0.125, dt: 0.005, st: 6});
    assert.match(await page.textContent('#settings .current'), /threshold 12\.5%, DT 0\.50%, ST 6/);
    // Out of range: the server says so.
    await page.fill('#settings input[name="st"]', '1.5');
    await page.click('#settings button[type="submit"]');
    await page.waitForSelector('#settings .error');
    assert.match(await page.textContent('#settings .error'), /HTTP 400.*st: expected an integer/s);
    await shot(page, 'settings');
    await page.done();
  } finally {
    // Back as it was, for the other tests.
    const r = await api(`/api/v1/projects/${P}/settings`, {method: 'PUT', body: before, token: env.admin});
    assert.equal(r.status, 200);
  }
});

test('tokens: made (shown once), listed, revoked', async () => {
  const page = await newPage();
  await open(page, `/projects/${P}/settings`);
  await page.fill('#token input[name="token"]', env.admin);
  await page.click('#token button[type="submit"]');
  await page.waitForSelector('#tokens table.tokens');
  const before = (await api(`/api/v1/projects/${P}/tokens`, {token: env.admin})).json.tokens;
  assert.equal(await page.locator('#tokens table.tokens tbody tr').count(), before.length);
  await page.click('#tokens button[type="submit"]');
  await page.waitForSelector('#tokens .token-box');
  const made = (await page.textContent('#tokens .token-box')).trim();
  assert.match(made, /^\S{16,}$/, 'the new token is shown');
  assert.match(await page.textContent('#tokens .success'), /upload token \(id \d+\).*shown this once/);
  // It is an upload token: settings refuse it.
  assert.equal((await api(`/api/v1/projects/${P}/settings`, {method: 'PUT', body: {}, token: made})).status, 403);
  await page.waitForFunction((n) => document.querySelectorAll('#tokens table.tokens tbody tr').length === n, before.length + 1);
  const id = Number(/id (\d+)/.exec(await page.textContent('#tokens .success'))[1]);
  // Revoking takes two clicks, and no dialog.
  const row = page.locator('#tokens table.tokens tbody tr', {has: page.locator(`td:first-child:text-is("${id}")`)});
  await row.locator('button.revoke').click();
  assert.match(await row.locator('button.revoke').textContent(), /Really revoke/);
  await row.locator('button.revoke').click();
  await page.waitForFunction((n) => document.querySelectorAll('#tokens table.tokens tbody tr').length === n, before.length);
  assert.equal((await api(`/api/v1/projects/${P}/settings`, {method: 'PUT', body: {}, token: made})).status, 401, 'the revoked token is no token');
  await shot(page, 'settings-tokens');
  await page.done();
});

test('acknowledged regressions: listed for anyone, withdrawn with an admin token', async () => {
  const {json: {acknowledgements: acks}} = await api(`/api/v1/projects/${P}/acknowledgements`);
  assert.equal(acks.length, 2, 'run.sh acknowledged suite::b1 twice');
  const page = await newPage();
  await open(page, `/projects/${P}/settings`);
  await page.waitForSelector('#acknowledgements table.acks');
  const rows = await page.$$eval('#acknowledgements table.acks tbody tr', (trs) => trs.map((tr) => [...tr.children].slice(0, 5).map((td) => td.textContent.trim())));
  assert.deepEqual(rows, acks.map((a) => ['suite::b1', a.commit.slice(0, 10), '−20.0%', 'Ada', a.reason]));
  assert.equal(rows[0][4], 'second: <b>still</b> expected', 'newest first, and the reason is text');
  assert.equal(await page.locator('#acknowledgements b').count(), 0);
  // Without a token: asked for one; with the upload token: refused.
  await page.click('#acknowledgements tbody tr:first-child button.withdraw');
  await page.waitForSelector('#acknowledgements .ack-out .warning');
  await page.fill('#token input[name="token"]', env.token);
  await page.click('#acknowledgements tbody tr:first-child button.withdraw');
  await page.click('#acknowledgements tbody tr:first-child button.withdraw');
  await page.waitForSelector('#acknowledgements .ack-out .error');
  assert.match(await page.textContent('#acknowledgements .ack-out'), /HTTP 403/);
  // The admin token withdraws the newest; the older one covers again.
  await page.fill('#token input[name="token"]', env.admin);
  await page.click('#acknowledgements tbody tr:first-child button.withdraw');
  await page.waitForSelector('#acknowledgements .ack-out .success');
  await page.waitForFunction(() => document.querySelectorAll('#acknowledgements table.acks tbody tr').length === 1);
  const left = (await api(`/api/v1/projects/${P}/acknowledgements`)).json.acknowledgements;
  assert.deepEqual(left.map((a) => a.id), [acks[1].id]);
  const {json: r} = await api(`/api/v1/projects/${P}/commits/${acks[1].commit}/report`);
  assert.equal(r.verdict, 'acknowledged');
  await shot(page, 'settings-acknowledgements');
  await page.done();
});
