// SPDX-License-Identifier: MIT
// Building the page's elements.  Every value goes in as text (textContent,
// createTextNode) or as an attribute value (setAttribute), never as HTML:
// whatever a database value holds (a benchmark named "<img src=x
// onerror=alert(1)>") shows as the characters it is.  There is no
// innerHTML anywhere in the dashboard.

const SVG_NS = 'http://www.w3.org/2000/svg';

// A link's target is one of ours (a path, a query, a fragment) or an http(s)
// address; anything else (javascript:, data:) is dropped.
function safeHref(v) {
  const s = String(v);
  return /^(\/(?!\/)|\?|#|https?:\/\/)/i.test(s) ? s : '#';
}

function setAttrs(el, attrs) {
  if (!attrs) return;
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.setAttribute('class', Array.isArray(v) ? v.filter(Boolean).join(' ') : v);
    else if (k === 'style') Object.assign(el.style, v); // CSSOM: allowed by the CSP, unlike style=""
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'href' || k === 'xlink:href') el.setAttribute(k, safeHref(v));
    else if (k === 'value' && 'value' in el) el.value = v;
    else if (k === 'checked' || k === 'selected' || k === 'disabled' || k === 'open') el[k] = !!v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

// h('a', {href: '/x', class: 'y'}, 'text', child, [more]): an element.
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

// The same for SVG elements.
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

export function text(v) {
  return document.createTextNode(v === null || v === undefined ? '' : String(v));
}

export function clear(el) {
  el.replaceChildren();
  return el;
}

export function frag(...children) {
  const f = document.createDocumentFragment();
  append(f, children);
  return f;
}

// A table from column definitions {title, class, cell(row) -> node|text,
// sort(row) -> comparable} and rows; headers with a sort function sort the
// body when clicked (again: the other way).  opts.limit shows the first
// rows and a button for the rest, so that a big table costs little until
// asked for.
export function table(columns, rows, opts = {}) {
  let sortCol = opts.sortColumn ?? -1;
  let desc = opts.sortDesc ?? true;
  let limit = opts.limit ?? Infinity;
  const tbody = h('tbody');
  const more = h('p', {class: 'more'});
  const ths = columns.map((c, i) =>
    h('th', {
      class: [c.class, c.sort ? 'sortable' : null],
      scope: 'col',
      title: c.help,
      'aria-sort': 'none',
      tabindex: c.sort ? '0' : null,
      onclick: c.sort ? () => sortBy(i) : null,
      onkeydown: c.sort ? (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); sortBy(i); } } : null,
    }, c.title));
  function sortBy(i) {
    if (sortCol === i) desc = !desc;
    else { sortCol = i; desc = columns[i].defaultDesc ?? true; }
    fill();
  }
  function fill() {
    let shown = rows;
    if (sortCol >= 0 && columns[sortCol].sort) {
      const key = columns[sortCol].sort;
      const keyed = rows.map((r, i) => [key(r), i, r]);
      keyed.sort((a, b) => {
        const x = a[0], y = b[0];
        let c = 0;
        if (x === y) c = 0;
        else if (x === null || x === undefined || Number.isNaN(x)) return 1;
        else if (y === null || y === undefined || Number.isNaN(y)) return -1;
        else c = typeof x === 'string' ? x.localeCompare(y) : x < y ? -1 : 1;
        return (desc ? -c : c) || a[1] - b[1];
      });
      shown = keyed.map((k) => k[2]);
    }
    ths.forEach((th, i) => th.setAttribute('aria-sort', i !== sortCol ? 'none' : desc ? 'descending' : 'ascending'));
    const f = document.createDocumentFragment();
    const n = Math.min(shown.length, limit);
    for (let i = 0; i < n; i++) {
      const r = shown[i];
      const tr = document.createElement('tr');
      if (opts.rowClass) { const c = opts.rowClass(r); if (c) tr.className = c; }
      if (opts.onRowClick) { tr.classList.add('clickable'); tr.addEventListener('click', () => opts.onRowClick(r, tr)); }
      for (const c of columns) {
        const td = document.createElement('td');
        if (c.class) td.className = c.class;
        const v = c.cell(r);
        if (v instanceof Node) td.appendChild(v);
        else if (v !== null && v !== undefined) td.textContent = String(v);
        tr.appendChild(td);
      }
      f.appendChild(tr);
    }
    tbody.replaceChildren(f);
    more.replaceChildren();
    if (shown.length > n)
      more.appendChild(h('button', {type: 'button', onclick: () => { limit = Infinity; fill(); }},
        `Show all ${shown.length} rows (${shown.length - n} more)`));
  }
  fill();
  const t = h('table', {class: ['data', opts.class]}, h('thead', null, h('tr', null, ths)), tbody);
  return h('div', {class: 'table-wrap'}, t, more);
}

// A <details> whose content is built only when first opened (a collapsed
// list of 900 unchanged benchmarks costs nothing until someone looks).
export function lazyDetails(summary, build, attrs = {}) {
  const d = h('details', attrs, h('summary', null, summary));
  let built = false;
  const fill = () => {
    if (d.open && !built) { built = true; d.appendChild(build()); }
  };
  d.addEventListener('toggle', fill);
  if (attrs.open) queueMicrotask(fill);
  return d;
}

// Replaces el's content with children (null, undefined and false are
// left out, arrays flattened: replaceChildren would write "null").
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}
