// SPDX-License-Identifier: MIT
// Tokens pasted into a page stay in this browser tab (sessionStorage) and
// go only to this server, in the Authorization header.  kind 'admin' is
// the settings page's admin token; 'any' the commit page's token for
// acknowledging (any token of the project).
const key = (kind, p) => `bm.${kind === 'admin' ? 'adminToken' : 'token'}.${p}`;

export function readToken(kind, p) {
  try { return sessionStorage.getItem(key(kind, p)) || ''; } catch { return ''; }
}

// Keeps t ('' forgets it).
export function keepToken(kind, p, t) {
  try { if (t) sessionStorage.setItem(key(kind, p), t); else sessionStorage.removeItem(key(kind, p)); } catch { /* private mode */ }
}
