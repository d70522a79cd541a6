// SPDX-License-Identifier: MIT
// Every page on a phone-sized screen (390 px): nothing makes the page
// scroll sideways (wide tables and flame graphs scroll inside their own
// box), when drawn, once its fonts and animations have settled, and after
// the window narrowed.  The phone project (tests/web/run.sh) has names
// that do not break: a long C++ name, deep paths, a long branch.
import test from 'node:test';
import {env, api, newPage, open, shot, assert, enc, P} from './lib.mjs';

const PHONE_ID = 'containers::emplace_back_into_a_vector_of_maps_of_strings_to_shared_pointers';
const phoneProfile = `/projects/phone/runs/phone-run/benchmarks/${enc(PHONE_ID)}/profile`;

const pages = {
  projects: '/',
  commit: `/projects/${P}/commits/${env.prSha}?pr=7`,
  history: `/projects/${P}/benchmarks/suite%3A%3Afast/history?branch=main&also=suite%3A%3Aslow`,
  changes: `/projects/${P}/changes?branch=main`,
  compare: `/projects/${P}/compare?a=main&b=feature%2Ffaster`,
  profile: `/projects/${P}/runs/profile-run-4000/benchmarks/cases%3A%3Asleep%5Bms%3D10%5D/profile`,
  settings: `/projects/${P}/settings`,
  'long names\' profile': phoneProfile,
  'long names\' commit': async () => {
    const {json} = await api(`/api/v1/projects/phone/runs/phone-run/benchmarks/${enc(PHONE_ID)}/profile`);
    return `/projects/phone/commits/${json.commit}`;
  },
};

// In the page: how far the document is wider than the window, and what
// sticks out past the window's right edge without being clipped by the box
// it scrolls in.  An element is clipped only by a .table-wrap or .flame
// (the boxes meant to scroll) that contains it: an absolutely positioned
// element escapes boxes that are not positioned, a fixed one all of them.
// Text is checked too (a word that does not break sticks out of a box that
// fits), clipped by any box that hides or scrolls its overflow.
function overflowing() {
  const vw = document.documentElement.clientWidth; // the window less any scroll bar
  const style = (e) => getComputedStyle(e);
  const name = (e) => e.tagName.toLowerCase() + (e.id ? `#${e.id}` : '') +
    [...e.classList].map((c) => `.${c}`).join('');
  // The ancestors whose overflow clips E (or E's text: self = true).
  const clippers = (e, self) => {
    const out = [];
    let pos = self ? 'static' : style(e).position;
    for (let a = self ? e : e.parentElement; a; a = a.parentElement) {
      const s = style(a);
      const positioned = s.position !== 'static' || s.transform !== 'none';
      if (pos === 'fixed' ? s.transform === 'none' : pos === 'absolute' && !positioned) continue;
      if (s.overflowX !== 'visible') out.push(a);
      pos = s.position;
    }
    return out;
  };
  const scroller = (e) => {
    for (let a = e.parentElement; a; a = a.parentElement)
      if (/auto|scroll/.test(style(a).overflowX)) return a;
    return null;
  };
  const report = (what, e, right, clip) => {
    const s = scroller(e);
    return `${what} ends at ${Math.round(right)}px` + (s ? `, inside ${name(s)} (which ends at ${Math.round(s.getBoundingClientRect().right)}px)` : '') +
      (clip.length ? `, clipped only by ${clip.map(name).join(' < ')}` : '');
  };
  const out = [];
  for (const e of document.querySelectorAll('body *')) {
    const r = e.getBoundingClientRect();
    if (r.right <= vw + 1) continue;
    const clip = clippers(e, false).filter((a) => a.matches('.table-wrap, .flame'));
    if (Math.min(r.right, ...clip.map((a) => a.getBoundingClientRect().right)) > vw + 1)
      out.push(report(name(e), e, r.right, clip));
  }
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = walk.nextNode(); t; t = walk.nextNode()) {
    if (!t.nodeValue.trim() || !t.parentElement) continue;
    const range = document.createRange();
    range.selectNodeContents(t);
    const right = Math.max(...[...range.getClientRects()].map((r) => r.right));
    if (!(right > vw + 1)) continue;
    const clip = clippers(t.parentElement, true);
    if (Math.min(right, ...clip.map((a) => a.getBoundingClientRect().right)) > vw + 1)
      out.push(report(`the text ${JSON.stringify(t.nodeValue.trim().slice(0, 40))} in ${name(t.parentElement)}`, t.parentElement, right, clip));
  }
  const overflow = document.documentElement.scrollWidth - vw;
  // Nothing found, and yet too wide (a pseudo-element?): the innermost
  // boxes whose content is wider than they are.
  if (overflow > 0 && !out.length) {
    for (const e of document.querySelectorAll('body *'))
      if (style(e).overflowX === 'visible' && e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0 &&
        ![...e.children].some((c) => c.scrollWidth > c.clientWidth + 1 && style(c).overflowX === 'visible'))
        out.push(`the content of ${name(e)} is ${e.scrollWidth}px wide in a box of ${e.clientWidth}px`);
  }
  return {overflow, elements: out.slice(0, 8)};
}

// Both the document and each element, in one message that names the culprits.
async function assertFits(page, when) {
  const wide = await page.evaluate(overflowing);
  assert.deepEqual(wide, {overflow: 0, elements: []}, `the page is wider than the window ${when}`);
}

for (const [name, address] of Object.entries(pages)) {
  test(`the ${name} page fits a phone's width`, async () => {
    const page = await newPage({width: 390, height: 844});
    await open(page, typeof address === 'function' ? await address() : address);
    await assertFits(page, 'when drawn');
    // Web fonts, the flame graph's transitions (250 ms), late layout.
    await page.evaluate(() => document.fonts.ready);
    await page.waitForTimeout(800);
    await assertFits(page, 'once settled');
    await shot(page, `phone-${name.replace(/\W+/g, '-')}`, {full: false});
    await page.done();
  });
}

// A phone turned, a window narrowed: the flame graph follows its box.
for (const [name, address] of [['profile', pages.profile], ['long names\' profile', phoneProfile]]) {
  test(`the ${name} page loaded wide still fits once the window is a phone's`, async () => {
    const page = await newPage({width: 1280, height: 844});
    await open(page, address);
    await page.waitForSelector('#flame-head svg g.frame');
    await page.setViewportSize({width: 390, height: 844});
    await page.waitForFunction(() => {
      const box = document.querySelector('#flame-head');
      return Number(box.querySelector('svg').getAttribute('width')) <= box.clientWidth;
    }, null, {timeout: 5000}).catch(() => {});
    const sizes = await page.evaluate(() => {
      const box = document.querySelector('#flame-head');
      return {svg: Number(box.querySelector('svg').getAttribute('width')), box: box.clientWidth};
    });
    assert.ok(sizes.svg <= sizes.box && sizes.svg >= sizes.box - 1, `the flame graph is as wide as its box: ${JSON.stringify(sizes)}`);
    await page.waitForTimeout(600);
    await assertFits(page, 'after the window narrowed');
    await page.done();
  });
}
