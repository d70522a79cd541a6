// SPDX-License-Identifier: MIT
// How numbers, times and names read on the pages.

const nf = new Intl.NumberFormat('en-US');

export function int(v) {
  return v === null || v === undefined || !Number.isFinite(Number(v)) ? '–' : nf.format(Math.round(Number(v)));
}

// 3 significant digits with an SI prefix: 1.17 k, 566.7, 52.8 M.
export function si(v, unit = '') {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  const a = Math.abs(v);
  const prefixes = [[1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k'], [1, ''], [1e-3, 'm'], [1e-6, 'µ'], [1e-9, 'n']];
  for (const [f, p] of prefixes) {
    if (a >= f || f === 1e-9) {
      const x = v / f;
      const d = Math.abs(x) >= 100 ? 1 : Math.abs(x) >= 10 ? 2 : 3;
      // Beyond the largest prefix: exponent notation, not 300 digits.
      const s = Math.abs(x) >= 1e6 ? x.toPrecision(3) : x.toFixed(a === 0 ? 0 : d);
      return `${s} ${p}${unit}`.trim();
    }
  }
  return String(v);
}

export const speed = (v) => si(v, '/s');

export function seconds(v) {
  return si(v, 's');
}

export function ns(v) {
  if (v === null || v === undefined || !Number.isFinite(Number(v))) return '–';
  return si(Number(v) / 1e9, 's');
}

// A fraction as a signed percentage: +1.23%, −30.0%, +0.0412%; small
// changes keep three significant digits so that they do not read as 0,
// huge ones (a million percent and up) read in exponent notation,
// +1.65e+10%, never as a row of digits.
export function pct(v, signed = true) {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  const p = v * 100;
  const a = Math.abs(p);
  let s;
  if (a === 0) s = '0';
  else if (a >= 1e6) s = a.toPrecision(3);
  else if (a >= 100) s = a.toFixed(0);
  else if (a >= 10) s = a.toFixed(1);
  else if (a >= 0.1) s = a.toFixed(2);
  else s = a.toPrecision(3);
  if (!signed) return (p < 0 ? '−' : '') + s + '%';
  return (p > 0 ? '+' : p < 0 ? '−' : '±') + s + '%';
}

// Bytes in binary units: 512 B, 4.00 KiB, 31.1 MiB.
export function bytes(v) {
  if (v === null || v === undefined || !Number.isFinite(Number(v))) return '–';
  const n = Number(v);
  const units = [[2 ** 40, 'TiB'], [2 ** 30, 'GiB'], [2 ** 20, 'MiB'], [2 ** 10, 'KiB']];
  for (const [f, u] of units) if (Math.abs(n) >= f) return `${(n / f).toFixed(Math.abs(n / f) >= 100 ? 1 : 2)} ${u}`;
  return `${nf.format(Math.round(n))} B`;
}

// The heap's counts (the bm engine's): blocks and bytes.
export const HEAP_METRICS = ['allocations', 'bytes_allocated', 'peak_bytes', 'leaked_bytes', 'leaked_blocks', 'frees',
  'bytes_freed', 'system_bytes'];
const BYTE_METRICS = ['bytes_allocated', 'peak_bytes', 'leaked_bytes', 'bytes_freed', 'system_bytes', 'allocBytes'];

// A metric's value in its unit: speed per second, time in seconds, sys
// times in ns, bytes in binary units, counts as integers.
export function metricValue(metric, v) {
  if (v === null || v === undefined) return '–';
  if (metric === 'speed') return speed(v);
  if (metric === 'time_s') return seconds(v);
  if (metric === 'sysTime' || metric === 'sysCpuTime') return ns(v);
  if (BYTE_METRICS.includes(metric)) return bytes(v);
  if (BUILTIN_METRICS.includes(metric)) return int(v);
  return si(v);
}

export const BUILTIN_METRICS = ['speed', 'cycles', 'time_s', 'Ir', 'Dr', 'Dw', 'I1mr', 'D1mr', 'D1mw', 'ILmr', 'DLmr',
  'DLmw', 'sysCount', 'sysTime', 'sysCpuTime', 'Bc', 'Bcm', 'Bi', 'Bim', ...HEAP_METRICS];

export const METRIC_HELP = {
  speed: 'executions per second (higher is better)',
  cycles: 'estimated cycles (bm-model)',
  time_s: 'estimated time, seconds',
  Ir: 'instructions executed', Dr: 'data reads', Dw: 'data writes',
  I1mr: 'L1 instruction-cache misses', D1mr: 'L1 data-read misses', D1mw: 'L1 data-write misses',
  ILmr: 'last-level instruction misses', DLmr: 'last-level data-read misses', DLmw: 'last-level data-write misses',
  sysCount: 'system calls (not part of speed)', sysTime: 'system-call wall time, ns (not part of speed)',
  sysCpuTime: 'system-call CPU time, ns (not part of speed)',
  allocations: 'heap blocks allocated', bytes_allocated: 'heap bytes allocated',
  peak_bytes: 'most heap bytes held at once', leaked_bytes: 'heap bytes left allocated',
  leaked_blocks: 'heap blocks left allocated', frees: 'heap blocks freed', bytes_freed: 'heap bytes freed',
  system_bytes: 'what the heap took from the kernel (brk, mmap)',
  allocCount: 'heap blocks allocated (profile)', allocBytes: 'heap bytes allocated (profile)',
};

// Higher is better for speed only; for cycles, time and events lower is.
export const higherIsBetter = (metric) => metric === 'speed';

// Seconds since the epoch (or RFC 3339) as "2026-11-22 10:00 UTC".
export function date(v) {
  if (v === null || v === undefined) return '–';
  const d = typeof v === 'number' ? new Date(v * 1000) : new Date(v);
  if (Number.isNaN(d.getTime())) return String(v);
  return d.toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
}

export function shortDate(v) {
  const d = new Date(v * 1000);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().slice(0, 10);
}

export const shortSha = (sha) => (sha ? String(sha).slice(0, 10) : '–');

export function platformText(p) {
  if (!p || typeof p !== 'object') return '–';
  const parts = [p.arch, p.os, p.compiler].filter((x) => x !== null && x !== undefined && x !== '');
  return parts.length ? parts.join(' · ') : '–';
}

export function platformKey(p) {
  return JSON.stringify([p?.arch ?? null, p?.os ?? null, p?.compiler ?? null]);
}

export function plural(n, one, many) {
  return `${int(n)} ${n === 1 ? one : many || one + 's'}`;
}
