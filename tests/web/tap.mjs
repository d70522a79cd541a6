// SPDX-License-Identifier: MIT
// A node --test reporter that writes flat TAP for automake's TAP driver:
// one "ok" / "not ok" line per test (node's own TAP reporter nests them),
// the failure's message and the tests' own output as "#" comments, the
// plan at the end.
import path from 'node:path';

function comment(text) {
  return String(text).split('\n').filter((l) => l.trim() !== '').map((l) => `# ${l}\n`).join('');
}

function describeError(err) {
  if (!err) return '';
  const e = err.cause && err.failureType === 'testCodeFailure' ? err.cause : err;
  let s = e.stack || e.message || String(e);
  if (e.actual !== undefined || e.expected !== undefined)
    s += `\nexpected: ${JSON.stringify(e.expected)}\nactual:   ${JSON.stringify(e.actual)}`;
  return s;
}

export default async function* tap(source) {
  let n = 0;
  for await (const event of source) {
    const d = event.data || {};
    switch (event.type) {
      case 'test:pass':
      case 'test:fail': {
        if (d.nesting !== 0) break;
        n++;
        const file = d.file ? path.basename(d.file) : '';
        const name = d.name === d.file ? `${file} (the file itself)` : `${file ? file.replace(/\.test\.mjs$/, '') + ': ' : ''}${d.name}`;
        const clean = name.replace(/[#\n]/g, ' ');
        let line = `${event.type === 'test:pass' ? 'ok' : 'not ok'} ${n} - ${clean}`;
        if (d.skip !== undefined && d.skip !== false) line += ` # SKIP ${d.skip === true ? '' : d.skip}`;
        else if (d.todo !== undefined && d.todo !== false) line += ` # TODO ${d.todo === true ? '' : d.todo}`;
        yield line + '\n';
        if (event.type === 'test:fail') yield comment(describeError(d.details && d.details.error));
        break;
      }
      case 'test:stdout':
      case 'test:stderr':
        yield comment(d.message);
        break;
      case 'test:diagnostic':
        if (d.nesting === 0 && !d.file) yield comment(d.message);
        break;
      default:
        break;
    }
  }
  yield `1..${n}\n`;
}
