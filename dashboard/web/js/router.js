// SPDX-License-Identifier: MIT
// History-API routing: links inside the dashboard change the page without
// a reload; the server answers index.html for every page address.

const routes = [];
let current = null; // {abort: AbortController}
let renderInto = null;

// route('/projects/:name/commits/:sha', module): a pattern of path
// segments; ':x' captures one (percent-decoded) segment.
export function route(pattern, load) {
  const parts = pattern.split('/').filter(Boolean);
  routes.push({parts, load});
}

function match(pathname) {
  const segs = pathname.split('/').filter(Boolean);
  for (const r of routes) {
    if (r.parts.length !== segs.length) continue;
    const params = {};
    let ok = true;
    for (let i = 0; i < segs.length && ok; i++) {
      const p = r.parts[i];
      let seg;
      try { seg = decodeURIComponent(segs[i]); } catch { ok = false; break; }
      if (p.startsWith(':')) params[p.slice(1)] = seg;
      else ok = p === seg;
    }
    if (ok) return {route: r, params};
  }
  return null;
}

export function navigate(url, {replace = false} = {}) {
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  window.scrollTo(0, 0);
  return render();
}

// Changes the address without rendering again (a page that already shows
// what the new address says, such as a chosen default branch).
export function setUrl(url) {
  history.replaceState(null, '', url);
}

export async function render() {
  if (current) current.abort();
  const ctl = new AbortController();
  current = ctl;
  const url = new URL(location.href);
  const m = match(url.pathname);
  await renderInto(m, url, ctl.signal);
}

export function start(into) {
  renderInto = into;
  window.addEventListener('popstate', () => render());
  document.addEventListener('click', (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = e.target.closest && e.target.closest('a[href]');
    if (!a || a.target || a.hasAttribute('download')) return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin || url.pathname.startsWith('/api/') || url.pathname.startsWith('/static/')) return;
    if (url.pathname === location.pathname && url.search === location.search && url.hash) return;
    e.preventDefault();
    navigate(url.pathname + url.search + url.hash);
  });
  return render();
}
