// SPDX-License-Identifier: MIT
// /projects/NAME/settings: the project's regression threshold (0-50%),
// DT and ST, changed with an admin token pasted here; new tokens; and the
// acknowledged regressions, each of which an admin may withdraw.
// The token stays in this tab (sessionStorage) and goes only to this
// server, in the Authorization header.
//
// Data: GET .../settings; PUT .../settings (admin); GET .../tokens,
// POST .../tokens ({"admin": bool} -> {"id", "admin", "token"}) and
// DELETE .../tokens/ID (admin); GET .../acknowledgements and DELETE
// .../acknowledgements/ID (admin).  A token is checked by a PUT of
// no settings ({}), which changes nothing and answers 401 or 403 with the
// server's reason when the token is not an admin token of the project.
import {h, table, fill} from '../dom.js';
import {get, put, post, del, paths, errorBox, ApiError} from '../api.js';
import * as f from '../format.js';
import * as urls from '../urls.js';
import {readToken, keepToken} from '../tokens.js';

export const name = 'settings';

// A button that asks before it acts, without a dialog box: the first
// click turns its text into the question, the second calls act.  ready()
// may turn a click away (and say why) before the button arms.
function confirmButton(cls, label, question, act, ready = () => true) {
  let armed = false;
  const b = h('button', {type: 'button', class: cls}, label);
  b.addEventListener('click', async () => {
    if (!ready()) return;
    if (!armed) { armed = true; b.textContent = question; return; }
    await act();
  });
  return b;
}

export async function render(ctx) {
  const {project} = ctx.params;
  ctx.title(`Settings · ${project}`);
  let current = await get(paths.settings(project), {signal: ctx.signal});

  // -- the token
  const tokenInput = h('input', {type: 'password', name: 'token', autocomplete: 'off', spellcheck: 'false', placeholder: 'bm_…', value: readToken('admin', project), 'aria-label': 'admin token'});
  const tokenStatus = h('div', {class: 'token-status', 'aria-live': 'polite'});
  async function checkToken() {
    const t = tokenInput.value.trim();
    if (!t) {
      fill(tokenStatus, h('p', {class: 'warning'}, 'Paste an admin token first.'));
      return false;
    }
    try {
      await put(paths.settings(project), {}, {token: t});
      keepToken('admin', project, t);
      fill(tokenStatus, h('p', {class: 'success'}, 'This is an admin token of the project.'));
      listTokens();
      return true;
    } catch (e) {
      keepToken('admin', project, '');
      fill(tokenStatus, errorBox(e, 'Token refused'));
      return false;
    }
  }
  const tokenSection = h('section', {class: 'panel', id: 'token'},
    h('h2', null, 'Admin token'),
    h('p', {class: 'meta'}, 'Changing settings and making tokens needs an admin token of this project (', h('code', null, `bm-server token create ${project} --admin`),
      '). It is kept in this browser tab only.'),
    h('form', {class: 'controls', onsubmit: (e) => { e.preventDefault(); checkToken(); }},
      h('label', {class: 'field'}, h('span', null, 'Token'), tokenInput),
      h('button', {type: 'submit'}, 'Check'),
      h('button', {type: 'button', onclick: () => { tokenInput.value = ''; keepToken('admin', project, ''); tokenStatus.replaceChildren(); }}, 'Forget')),
    tokenStatus);

  // -- the settings
  const pctValue = (x) => String(+(x * 100).toPrecision(8));
  const thr = h('input', {type: 'number', name: 'threshold', min: 0, max: 50, step: 'any', required: true, value: pctValue(current.threshold)});
  const dt = h('input', {type: 'number', name: 'dt', min: 0, max: 100, step: 'any', required: true, value: pctValue(current.dt)});
  const st = h('input', {type: 'number', name: 'st', min: 0, max: 100000, step: 1, required: true, value: String(current.st)});
  const saveStatus = h('div', {class: 'save-status', 'aria-live': 'polite'});
  const currentText = h('p', {class: 'current'});
  const showCurrent = () => fill(currentText, 'Now: threshold ', h('strong', null, f.pct(current.threshold, false)),
    ', DT ', h('strong', null, f.pct(current.dt, false)), ', ST ', h('strong', null, String(current.st)), '.');
  showCurrent();
  async function save() {
    const t = tokenInput.value.trim();
    if (!t) {
      fill(saveStatus, h('p', {class: 'warning'}, 'Paste an admin token above first.'));
      return;
    }
    const body = {threshold: Number(thr.value) / 100, dt: Number(dt.value) / 100, st: Number(st.value)};
    if (!(body.threshold >= 0 && body.threshold <= 0.5)) {
      fill(saveStatus, h('p', {class: 'warning'}, 'The threshold is a percentage from 0 to 50.'));
      return;
    }
    try {
      current = await put(paths.settings(project), body, {token: t});
      keepToken('admin', project, t);
      showCurrent();
      fill(saveStatus, h('p', {class: 'success'}, 'Saved.'));
    } catch (e) {
      fill(saveStatus, errorBox(e, 'Not saved'));
    }
  }
  const settingsSection = h('section', {class: 'panel', id: 'settings'},
    h('h2', null, 'Comparison settings'),
    currentText,
    // novalidate: the server checks the values and says what is wrong.
    h('form', {class: 'controls', novalidate: true, onsubmit: (e) => { e.preventDefault(); save(); }},
      h('label', {class: 'field'}, h('span', null, 'Regression threshold (%, 0–50)'), thr),
      h('label', {class: 'field'}, h('span', null, 'DT: difference tolerance (%)'), dt),
      h('label', {class: 'field'}, h('span', null, 'ST: stability (values)'), st),
      h('button', {type: 'submit', class: 'primary'}, 'Save')),
    saveStatus,
    h('ul', {class: 'meta'},
      h('li', null, 'Threshold: a commit whose worst benchmark is slower by more than this is a regression (and one faster by more, an improvement); the pull-request check fails on a regression.'),
      h('li', null, 'DT: two values of a benchmark\'s history are the same when they differ by at most DT (ranked changes).'),
      h('li', null, 'ST: a value is stable when the ST values before it are the same.')));

  // -- tokens
  const adminBox = h('input', {type: 'checkbox', name: 'admin'});
  const tokenOut = h('div', {class: 'new-token', 'aria-live': 'polite'});
  const tokenList = h('div', {class: 'token-list'});
  const noApi = (e) => e instanceof ApiError && (e.status === 404 || e.status === 405) && /API path|method/i.test(e.message);
  // The project's tokens (ids and ages; the tokens themselves are never
  // shown again), each with a button to revoke it: a first click asks, a
  // second revokes (no dialog box).
  async function listTokens() {
    const t = tokenInput.value.trim();
    if (!t) return;
    try {
      const {tokens} = await get(paths.tokens(project), {token: t});
      const revoke = (tok) => confirmButton('revoke', 'Revoke', `Really revoke token ${tok.id}?`, async () => {
        try {
          await del(paths.token(project, tok.id), {token: t});
          await listTokens();
        } catch (e) {
          fill(tokenOut, errorBox(e, 'Not revoked'));
        }
      });
      fill(tokenList, tokens.length
        ? table([
          {title: 'Id', class: 'num', cell: (x) => String(x.id)},
          {title: 'Kind', cell: (x) => (x.admin ? 'admin' : 'upload')},
          {title: 'Created', cell: (x) => f.date(x.created_at)},
          {title: '', cell: (x) => revoke(x)},
        ], tokens, {class: 'tokens'})
        : h('p', {class: 'empty'}, 'No tokens.'));
    } catch (e) {
      fill(tokenList, noApi(e) ? h('p', {class: 'meta'}, 'This server does not list tokens.') : errorBox(e, 'Cannot list the tokens'));
    }
  }
  async function createToken() {
    const t = tokenInput.value.trim();
    if (!t) {
      fill(tokenOut, h('p', {class: 'warning'}, 'Paste an admin token above first.'));
      return;
    }
    try {
      const r = await post(paths.tokens(project), {admin: adminBox.checked}, {token: t});
      const box = h('div', {class: 'token-box'}, r.token);
      fill(tokenOut,
        h('p', {class: 'success'}, `A new ${r.admin ?? adminBox.checked ? 'admin' : 'upload'} token${r.id !== undefined ? ` (id ${r.id})` : ''}. It is shown this once: only its hash is stored.`),
        box,
        navigator.clipboard ? h('button', {type: 'button', onclick: () => navigator.clipboard.writeText(r.token)}, 'Copy') : null);
      listTokens();
    } catch (e) {
      if (noApi(e))
        fill(tokenOut, h('p', {class: 'warning'}, 'This server cannot make tokens over the API; on the server run ',
          h('code', null, `bm-server token create ${project}${adminBox.checked ? ' --admin' : ''}`), '.'));
      else fill(tokenOut, errorBox(e, 'No token made'));
    }
  }
  const tokensSection = h('section', {class: 'panel', id: 'tokens'},
    h('h2', null, 'Tokens'),
    h('p', {class: 'meta'}, 'An upload token lets CI upload runs (bm-upload); an admin token also changes these settings and manages tokens.'),
    h('form', {class: 'controls', onsubmit: (e) => { e.preventDefault(); createToken(); }},
      h('label', {class: 'field checkbox'}, adminBox, h('span', null, 'an admin token (settings and tokens too)')),
      h('button', {type: 'submit'}, 'Create a token')),
    tokenOut, tokenList);
  if (tokenInput.value) listTokens();

  // -- acknowledgements: anyone may read them, an admin withdraws one
  // (a first click asks, a second withdraws).
  const ackOut = h('div', {class: 'ack-out', 'aria-live': 'polite'});
  const ackList = h('div', {class: 'ack-list'});
  async function listAcks() {
    try {
      const {acknowledgements: acks} = await get(paths.acknowledgements(project), {signal: ctx.signal});
      const tokenGiven = () => {
        if (tokenInput.value.trim()) return true;
        fill(ackOut, h('p', {class: 'warning'}, 'Paste an admin token above first.'));
        return false;
      };
      const withdraw = (a) => confirmButton('withdraw', 'Withdraw', `Really withdraw ${a.id}?`, async () => {
        try {
          await del(paths.acknowledgement(project, a.id), {token: tokenInput.value.trim()});
          fill(ackOut, h('p', {class: 'success'}, `Acknowledgement ${a.id} withdrawn.`));
          await listAcks();
        } catch (e) {
          fill(ackOut, errorBox(e, 'Not withdrawn'));
        }
      }, tokenGiven);
      fill(ackList, acks.length
        ? table([
          {title: 'Benchmark', cell: (a) => h('span', {class: 'bench-name'}, a.benchmark)},
          {title: 'Where', cell: (a) => h('a', {href: urls.commit(project, a.commit, a.pr), class: 'sha'}, a.pr ? `#${a.pr}` : f.shortSha(a.commit))},
          {title: 'At', class: 'num', cell: (a) => f.pct(a.impact)},
          {title: 'By', cell: (a) => a.by},
          {title: 'Why', cell: (a) => h('span', {class: 'ack-reason'}, a.reason)},
          {title: 'When', cell: (a) => f.date(a.at)},
          {title: '', cell: (a) => withdraw(a)},
        ], acks, {class: 'acks'})
        : h('p', {class: 'empty'}, 'No regression has been acknowledged.'));
    } catch (e) {
      if (e.name !== 'AbortError') fill(ackList, errorBox(e, 'Cannot list the acknowledgements'));
    }
  }
  const acksSection = h('section', {class: 'panel', id: 'acknowledgements'},
    h('h2', null, 'Acknowledged regressions'),
    h('p', {class: 'meta'}, 'Made on a commit\'s page; each covers its benchmark while it gets no slower. Withdrawing one needs an admin token.'),
    ackOut, ackList);
  listAcks();

  fill(ctx.root, h('h1', null, 'Settings'), tokenSection, settingsSection, tokensSection, acksSection);
}
