// SPDX-License-Identifier: MIT
// Every page on a phone-sized screen (390 px): nothing makes the page
// scroll sideways (wide tables scroll inside their own box).
import test from 'node:test';
import {env, newPage, open, shot, assert, P} from './lib.mjs';

const pages = {
  projects: '/',
  commit: `/projects/${P}/commits/${env.prSha}?pr=7`,
  history: `/projects/${P}/benchmarks/suite%3A%3Afast/history?branch=main&also=suite%3A%3Aslow`,
  changes: `/projects/${P}/changes?branch=main`,
  compare: `/projects/${P}/compare?a=main&b=feature%2Ffaster`,
  profile: `/projects/${P}/runs/profile-run-4000/benchmarks/cases%3A%3Asleep%5Bms%3D10%5D/profile`,
  settings: `/projects/${P}/settings`,
};

for (const [name, address] of Object.entries(pages)) {
  test(`the ${name} page fits a phone's width`, async () => {
    const page = await newPage({width: 390, height: 844});
    await open(page, address);
    const wide = await page.evaluate(() => {
      const out = [];
      for (const e of document.querySelectorAll('body *')) {
        if (e.closest('.table-wrap, .flame')) continue; // these scroll in their box
        const r = e.getBoundingClientRect();
        if (r.right > window.innerWidth + 1) out.push(`${e.tagName.toLowerCase()}.${e.className} ends at ${Math.round(r.right)}px`);
      }
      return {overflow: document.documentElement.scrollWidth - window.innerWidth, elements: out.slice(0, 5)};
    });
    assert.deepEqual(wide, {overflow: 0, elements: []});
    await shot(page, `phone-${name}`, {full: false});
    await page.done();
  });
}
