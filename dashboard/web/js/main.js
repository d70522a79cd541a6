// SPDX-License-Identifier: MIT
// The dashboard's entry point: the layout around every page, and which
// module draws which address.
import {h, clear, fill} from './dom.js';
import {errorBox, ApiError} from './api.js';
import * as router from './router.js';
import * as urls from './urls.js';

router.route('/', () => import('./pages/projects.js'));
router.route('/projects/:project/commits/:sha', () => import('./pages/commit.js'));
router.route('/projects/:project/benchmarks/:id/history', () => import('./pages/history.js'));
router.route('/projects/:project/changes', () => import('./pages/changes.js'));
router.route('/projects/:project/compare', () => import('./pages/compare.js'));
router.route('/projects/:project/runs/:run/benchmarks/:id/profile', () => import('./pages/profile.js'));
router.route('/projects/:project/settings', () => import('./pages/settings.js'));

const app = document.getElementById('app');
const crumbs = document.getElementById('crumbs');

function projectNav(project, page) {
  const item = (name, href, label) =>
    h('a', {href, class: page === name ? 'current' : null, 'aria-current': page === name ? 'page' : null}, label);
  return h('nav', {class: 'project-nav', 'aria-label': 'project'},
    h('span', {class: 'project-name'}, project),
    item('projects', urls.project(project), 'Summary'),
    item('changes', urls.changes(project), 'Changes'),
    item('compare', urls.compare(project), 'Compare'),
    item('settings', urls.settings(project), 'Settings'));
}

async function renderPage(m, url, signal) {
  const root = h('div', {class: 'page'});
  app.dataset.state = 'loading';
  if (!m) {
    clear(crumbs);
    fill(app, root);
    root.append(h('h1', null, 'Not found'),
      h('p', null, 'No page has the address ', h('code', null, url.pathname), '. ', h('a', {href: '/'}, 'All projects')));
    document.title = 'Not found · bm';
    app.dataset.state = 'ready';
    return;
  }
  let mod;
  try {
    mod = await m.route.load();
  } catch (e) {
    if (signal.aborted) return;
    fill(app, fill(root, errorBox(e, 'Could not load this page\'s script')));
    app.dataset.state = 'ready';
    return;
  }
  if (signal.aborted) return;
  const project = m.params.project;
  fill(crumbs, project !== undefined ? projectNav(project, mod.name) : []);
  root.append(h('p', {class: 'loading'}, 'Loading…'));
  fill(app, root);
  app.dataset.page = mod.name;
  const ctx = {
    params: m.params,
    query: url.searchParams,
    url,
    signal,
    root,
    title(t) { document.title = t + ' · bm'; },
  };
  try {
    await mod.render(ctx);
  } catch (e) {
    if (signal.aborted || e.name === 'AbortError') return;
    if (!(e instanceof ApiError)) console.error(e); // a bug here, not the server's answer
    fill(root, errorBox(e, 'Could not show this page'));
  }
  if (!signal.aborted) app.dataset.state = 'ready';
}

router.start(renderPage);
