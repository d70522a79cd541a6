// SPDX-License-Identifier: MIT
// A profile's call graph (functions and caller -> callee edges with their
// inclusive cycles) as a tree of call stacks, for the flame graphs.
//
// This is simulator/folded.c in JavaScript, step for step, so that the
// flame graph has exactly the stacks `bm-profile --folded` prints:
// callgrind keeps costs per call edge, not per stack, so a function's cost
// is shared among the paths that reach it in proportion to the cycles of
// the calls on each path; a function costing more than the calls into it
// is also a root; recursion back into a function on the stack is already
// counted further up; paths worth less than one cycle, deeper than 256
// frames or beyond two million visited paths stay with their caller; and
// the stacks' cycles are rounded so that the integers add up to the
// rounded exact total.

const MAX_DEPTH = 256;
const MAX_VISITS = 2000000;

const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

// Functions' self and inclusive cycles, whatever the profile calls them
// (a hand-made profile may have only "cycles").
function fnCycles(fn) {
  const self = num(fn.self_cycles ?? fn.cycles);
  const incl = num(fn.inclusive_cycles ?? fn.self_cycles ?? fn.cycles);
  return {self, incl};
}

// Returns the root {name, value, children} (value: inclusive cycles, the
// form d3-flame-graph reads), and the stack count.
export function buildTree(profile, rootName = 'all') {
  const fns = Array.isArray(profile?.functions) ? profile.functions : [];
  const calls = Array.isArray(profile?.calls) ? profile.calls : [];
  const nf = fns.length;
  const cyc = fns.map(fnCycles);
  const out = []; // edges per caller, recursion left out
  for (let f = 0; f < nf; f++) out.push([]);
  const incoming = new Float64Array(nf);
  for (const c of calls) {
    if (!(c.caller >= 0 && c.caller < nf && c.callee >= 0 && c.callee < nf) || c.caller === c.callee) continue;
    out[c.caller].push(c);
    incoming[c.callee] += num(c.cycles);
  }
  const shareBase = new Float64Array(nf);
  for (let f = 0; f < nf; f++) shareBase[f] = Math.max(cyc[f].incl, incoming[f]);

  // The stacks, each a node of the tree; `order` keeps them in the order
  // they were first given cycles (the C code's string pool), which the
  // rounding below follows.
  const root = {name: rootName, children: null, exact: 0, order: -1, fn: -1, self: 0, value: 0};
  const order = [];
  const onStack = new Uint32Array(nf);
  let visits = 0;

  // A frame's name: ';' would split the stack in folded text, so it is
  // ':' there, and here.
  const keyOf = fns.map((fn) => String(fn.name ?? '?').replaceAll(';', ':'));
  function child(node, fn) {
    const key = keyOf[fn];
    if (!node.children) node.children = new Map();
    let c = node.children.get(key);
    if (!c) {
      c = {name: key, children: null, exact: 0, order: -1, fn, self: 0, value: 0};
      node.children.set(key, c);
    }
    return c;
  }

  function emit(node, value) {
    if (value <= 0) return;
    if (node.order < 0) {
      node.order = order.length;
      order.push(node);
    }
    node.exact += value;
  }

  function walk(parent, fn, weight, depth) {
    const base = shareBase[fn];
    if (base <= 0) return;
    const share = weight / base;
    let here = cyc[fn].self * share;
    const node = child(parent, fn);
    onStack[fn]++;
    visits++;
    const stop = depth >= MAX_DEPTH || visits >= MAX_VISITS;
    for (const c of out[fn]) {
      const w = num(c.cycles) * share;
      if (onStack[c.callee]) continue;
      if (stop || w < 1.0) here += w;
      else walk(node, c.callee, w, depth + 1);
    }
    emit(node, here);
    onStack[fn]--;
  }

  for (let f = 0; f < nf; f++) {
    const r = cyc[f].incl - incoming[f];
    if (r > 0) walk(root, f, r, 0);
  }

  // Rounding as in folded_build: running sum, each stack gets what brings
  // the rounded sum up to date.
  let sum = 0, given = 0;
  for (const node of order) {
    sum += node.exact;
    const upto = Math.round(sum); // llround: exact sums here are never negative
    node.self = upto > given ? upto - given : 0;
    given += node.self;
  }

  // The nodes become d3-flame-graph's {name, value, children} in place
  // (a big profile has a million: no copies), without the stacks (and
  // their ancestors) that rounded to nothing.
  let stacks = 0;
  function finish(node) {
    let value = node.self || 0;
    if (node.self) stacks++;
    let kids = null;
    if (node.children) {
      for (const c of node.children.values()) {
        if (finish(c)) {
          (kids || (kids = [])).push(c);
          value += c.value;
        }
      }
    }
    node.children = kids || undefined;
    node.value = value;
    node.self = node.self || 0;
    return value > 0;
  }
  const tree = finish(root) ? root : {name: rootName, value: 0, self: 0, fn: -1};
  return {tree, stacks};
}

// The profile weighed by one event instead of cycles (its column of the
// functions' self and inclusive costs and of the calls' inclusive costs),
// for buildTree: a memory flame graph is the tree by allocBytes.
export function weighByEvent(profile, event) {
  const k = (profile?.events || []).indexOf(event);
  const at = (a) => (k >= 0 && Array.isArray(a) ? num(a[k]) : 0);
  return {
    ...profile,
    functions: (profile?.functions || []).map((fn) => ({...fn, self_cycles: at(fn.self), inclusive_cycles: at(fn.inclusive)})),
    calls: (profile?.calls || []).map((c) => ({...c, cycles: at(c.inclusive)})),
  };
}

// The tree without the frames worth less than minValue cycles: their
// cycles stay in their caller's frame (as its self cycles).  Returns the
// new tree and how many frames were folded away.
export function pruneTree(tree, minValue) {
  let folded = 0;
  function walk(t) {
    const o = {name: t.name, value: t.value, self: t.self, fn: t.fn};
    if (t.children) {
      const kids = [];
      for (const c of t.children) {
        if (c.value < minValue) {
          o.self += c.value;
          folded += countFrames(c);
        } else kids.push(walk(c));
      }
      if (kids.length) o.children = kids;
    }
    return o;
  }
  return {tree: walk(tree), folded};
}

// The number of frames a flame graph of the tree draws (every node).
export function countFrames(tree) {
  let n = 0;
  const stack = [tree];
  while (stack.length) {
    const t = stack.pop();
    n++;
    if (t.children) stack.push(...t.children);
  }
  return n;
}

// The head tree with, on every node, `delta`: its cycles minus those of
// the same stack in the base tree (0 where the base has none is not
// right: a new stack's delta is all of its cycles).  Returns also the base
// stacks that the head no longer has, as {path, value}.
export function diffTrees(head, base) {
  const gone = [];
  function index(t) {
    const m = new Map();
    for (const c of t?.children || []) m.set(c.name, c);
    return m;
  }
  function walk(h, b, path) {
    h.delta = h.value - (b ? b.value : 0);
    h.baseValue = b ? b.value : 0;
    const bk = index(b);
    for (const c of h.children || []) {
      walk(c, bk.get(c.name), path.concat(c.name));
      bk.delete(c.name);
    }
    for (const [name, c] of bk) gone.push({path: path.concat(name), value: c.value});
  }
  const clone = structuredClone(head);
  walk(clone, base, []);
  gone.sort((x, y) => y.value - x.value);
  return {tree: clone, gone};
}
