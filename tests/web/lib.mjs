// SPDX-License-Identifier: MIT
// Shared by the browser tests: the environment tests/web/run.sh gives
// (the server's URL, tokens, what it uploaded), one Chromium per test
// file, pages that fail the test on any script error or dialog, and
// screenshots.
import {createRequire} from 'node:module';
import path from 'node:path';
import fs from 'node:fs';
import {after} from 'node:test';
import assert from 'node:assert/strict';

const require = createRequire(import.meta.url);
// An ES module does not read NODE_PATH; require does, and
// NODE_MODULES_DIR names the place outright.
const {chromium} = require(process.env.NODE_MODULES_DIR
  ? path.join(process.env.NODE_MODULES_DIR, 'playwright-core') : 'playwright-core');

function need(name) {
  const v = process.env[name];
  if (v === undefined || v === '') throw new Error(`${name} is not set: run the browser tests through tests/web/run.sh`);
  return v;
}

export const env = {
  url: need('BM_URL'),
  project: process.env.BM_PROJECT || 'web/demo',
  token: need('BM_TOKEN'),
  admin: need('BM_ADMIN_TOKEN'),
  bigToken: process.env.BM_BIG_TOKEN,
  settingsToken: process.env.BM_SETTINGS_TOKEN,
  settingsAdmin: process.env.BM_SETTINGS_ADMIN,
  shots: process.env.BM_SHOTS,
  head: process.env.BM_HEAD,
  feature: process.env.BM_FEATURE,
  prSha: process.env.BM_PR_SHA,
  profBase: process.env.BM_PROF_BASE,
  profHead: process.env.BM_PROF_HEAD,
  matrixSha: process.env.BM_MATRIX_SHA,
  realProfile: process.env.BM_REAL_PROFILE === '1',
  framesWhole: Number(process.env.BM_EXPECT_FRAMES_WHOLE || 0),
  framesCompute: Number(process.env.BM_EXPECT_FRAMES_COMPUTE || 0),
  reportFile: process.env.BM_REPORT_FILE,
};

export const XSS = '<img src=x onerror=alert(1)>';
export const enc = encodeURIComponent;
export const P = enc(env.project);

// The JSON API, from node.
export async function api(p, {method = 'GET', body, token} = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(env.url + p, {method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body)});
  const text = await res.text();
  let json = null;
  try { json = JSON.parse(text); } catch { /* not JSON */ }
  return {status: res.status, json, text};
}

// Debian's /usr/bin/chromium is a script that adds the flags of every file
// in /etc/chromium.d and loads the extensions other packages installed:
// the browser behind it runs as Playwright starts it, the same everywhere.
function chromiumBinary() {
  const given = process.env.CHROMIUM || '/usr/bin/chromium';
  const real = '/usr/lib/chromium/chromium';
  try {
    if (fs.realpathSync(given) === '/usr/bin/chromium' && fs.readFileSync(given, 'latin1').startsWith('#!') && fs.statSync(real).isFile())
      return real;
  } catch { /* not Debian's: run what was given */ }
  return given;
}

// What the host would otherwise decide is pinned: language and time zone
// (the browser's and fontconfig's, which picks fallback fonts by
// language), font hinting (which rounds glyph widths), and in each page
// the scale factor, screen, touch and colours.  The fonts themselves are
// the host's: the pages must fit with any (tests/web/phone.test.mjs).
let browser = null;
async function getBrowser() {
  if (!browser)
    browser = await chromium.launch({
      executablePath: chromiumBinary(),
      args: ['--no-sandbox', '--lang=en-US', '--font-render-hinting=none'],
      env: {...process.env, TZ: 'UTC', LANG: 'C.UTF-8', LANGUAGE: 'en', LC_ALL: 'C.UTF-8'},
    });
  return browser;
}
after(async () => { if (browser) await browser.close(); });

// A page that records what must never happen: a dialog (alert from an
// injected script), an uncaught error, a console error other than the
// failed requests a test provokes on purpose, and any request other than
// to the dashboard's own server.
export async function newPage({width = 1280, height = 900} = {}) {
  const b = await getBrowser();
  const context = await b.newContext({viewport: {width, height}, screen: {width, height}, deviceScaleFactor: 1,
    isMobile: false, hasTouch: false, locale: 'en-US', timezoneId: 'UTC', colorScheme: 'light', reducedMotion: 'no-preference'});
  const page = await context.newPage();
  page.setDefaultTimeout(10000);
  // Anything the Content-Security-Policy blocks (an inline style or
  // script) is a console error, and so a failure.
  await page.addInitScript(() => document.addEventListener('securitypolicyviolation',
    (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`)));
  const problems = [];
  const requests = [];
  page.on('dialog', async (d) => { problems.push(`dialog: ${d.type()} ${d.message()}`); await d.dismiss(); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource: the server responded with a status of (40[0-9])/.test(m.text()))
      problems.push(`console error: ${m.text()}`);
  });
  page.on('request', (r) => {
    requests.push({method: r.method(), url: r.url()});
    if (!r.url().startsWith(env.url) && !r.url().startsWith('data:')) problems.push(`request elsewhere: ${r.url()}`);
  });
  page.problems = problems;
  page.requests = requests;
  page.done = async () => {
    // No value went missing on the way to the page.
    const stray = await page.evaluate(() => {
      const out = [];
      const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = w.nextNode(); n; n = w.nextNode())
        if (/^\s*null\s*$|\bundefined\b|\bNaN\b|\[object /.test(n.nodeValue)) out.push(n.nodeValue);
      return out;
    }).catch(() => []);
    for (const t of stray) problems.push(`stray text on the page: ${JSON.stringify(t)}`);
    await context.close();
    assert.deepEqual(problems, [], 'no dialog, script error or outside request');
  };
  return page;
}

// Opens a page address and waits until the dashboard has drawn it;
// returns the milliseconds that took.
export async function open(page, address) {
  const t0 = Date.now();
  await page.goto(env.url + address);
  await page.waitForSelector('#app[data-state="ready"]', {timeout: 15000});
  return Date.now() - t0;
}

// The whole page, or (full: false) what the window shows.
export async function shot(page, name, {full = true} = {}) {
  if (!env.shots) return;
  fs.mkdirSync(env.shots, {recursive: true});
  await page.screenshot({path: path.join(env.shots, `${name}.png`), fullPage: full});
}

export async function texts(page, selector) {
  return page.$$eval(selector, (els) => els.map((e) => e.textContent.trim()));
}

// No element the page made from data became markup: no <img src=x>, and
// no element carries an event-handler attribute.
export async function assertNoInjection(page) {
  const found = await page.evaluate(() => ({
    imgs: document.querySelectorAll('img').length,
    handlers: [...document.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => a.name.startsWith('on'))).length,
  }));
  assert.equal(found.imgs, 0, 'no <img> element: a name was not parsed as HTML');
  assert.equal(found.handlers, 0, 'no on* attribute anywhere');
}

export {assert};
