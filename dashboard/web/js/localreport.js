// SPDX-License-Identifier: MIT
// Reading a bm-report/1 file in the browser (the compare page's dropped
// file): never sent anywhere.

function fail(msg) {
  throw new Error(msg);
}

async function fileText(file) {
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  if (head[0] === 0x1f && head[1] === 0x8b) {
    if (typeof DecompressionStream !== 'function') fail('this browser cannot read gzip files; decompress it first');
    return new Response(file.stream().pipeThrough(new DecompressionStream('gzip'))).text();
  }
  return file.text();
}

// The report in a file, checked enough to compare: the schema, and per
// benchmark an id, a status and (when ok) a speed.
export async function readReport(file) {
  const text = await fileText(file);
  let r;
  try {
    r = JSON.parse(text);
  } catch (e) {
    fail(`${file.name} is not JSON (${e.message})`);
  }
  if (!r || typeof r !== 'object' || Array.isArray(r)) fail(`${file.name}: expected a JSON object (a bm-report/1 report)`);
  if (r.schema !== 'bm-report/1')
    fail(`${file.name}: schema is ${JSON.stringify(r.schema ?? null)}, expected "bm-report/1" (a report written by bm-run)`);
  if (!Array.isArray(r.benchmarks)) fail(`${file.name}: benchmarks: expected an array`);
  const seen = new Set();
  r.benchmarks.forEach((b, i) => {
    if (!b || typeof b.id !== 'string' || !b.id) fail(`${file.name}: benchmarks[${i}].id: expected a string`);
    if (seen.has(b.id)) fail(`${file.name}: benchmarks[${i}].id: '${b.id}' is given twice`);
    seen.add(b.id);
    if (!['ok', 'failed', 'skipped', 'not-run'].includes(b.status)) fail(`${file.name}: benchmarks[${i}].status: expected ok, failed, skipped or not-run`);
    if (b.status === 'ok' && !b.metric && !(typeof b.speed === 'number' && b.speed > 0))
      fail(`${file.name}: benchmarks[${i}].speed: expected a positive number`);
  });
  return r;
}

// A benchmark's speed as the server derives it (docs/bm-import.md): its
// own, or an imported one's from its primary metric (a rate as it is, any
// other unit inverted; none for a value of 0 or less).
export function speedOf(b) {
  if (b.status !== 'ok') return null;
  if (!b.metric) return typeof b.speed === 'number' ? b.speed : null;
  const v = Number(b.value), unit = String(b.unit ?? '');
  if (!(v > 0)) return null;
  const rate = unit.endsWith('/s') || unit === 'Hz' || unit === 'fps';
  const s = rate ? v : 1 / v;
  return Number.isFinite(s) ? s : null;
}

// The bm engine's fixed virtual CPU, as reports name it (REPORT_FIXED_CPU
// in lib/report.h).
const FIXED_CPU = 'VEX baseline x86-64: AuthenticAMD family 15 model 5, cpuid max leaf 1, SSE2 (no SSE3 or later)';

// What a report's results compare with, as the server stores it in a
// run's "model" (lib/series_identity.c, the same rule): the cost model,
// "+warm" for warm caches, "+ENGINE" for an engine other than bm's,
// "+valgrind=VERSION" for the Valgrind that ran it, "+stdin=DIGEST" for
// the input the programs read (its first 16 hex digits), and "+cpu=CPU"
// for a CPU other than the bm engine's fixed one.
export function seriesIdentity(rep) {
  const engine = rep.tool?.engine, valgrind = rep.tool?.valgrind, cpu = rep.model?.cpu;
  const input = rep.stdin?.sha256 ? rep.stdin.sha256.slice(0, 16) : '';
  return (rep.model?.id ?? '?') + (rep.model?.warm_caches ? '+warm' : '') +
    (engine && engine !== 'bm' ? `+${engine}` : '') + (valgrind ? `+valgrind=${valgrind}` : '') +
    (input ? `+stdin=${input}` : '') + (cpu && cpu !== FIXED_CPU ? `+cpu=${cpu}` : '');
}
