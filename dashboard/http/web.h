/* SPDX-License-Identifier: MIT */
/* The web dashboard's files, served by bm-server beside the API.
 *
 *   /static/PATH          the file DIR/PATH (scripts, styles, vendor/)
 *   /  and  /projects/... DIR/index.html: the pages route in the browser
 *
 * DIR is `serve --web DIR` (default: where `make install` puts the files,
 * BM_WEB_DIR).  Every page is sent with a Content-Security-Policy that
 * allows scripts, styles and connections from this server only and no
 * inline scripts, so that a name from the database can never run as code
 * even if a page forgot to escape it. */
#ifndef BM_WEB_H
#define BM_WEB_H

#include <microhttpd.h>
#include <stddef.h>

/* The policy sent with every page. */
#define WEB_CSP                                                                                               \
	"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " \
	"object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

/* Whether a request for these path segments is the dashboard's (not the
 * API's): none, or a first segment "static" or "projects". */
int web_path(char *const *segments, size_t n);

/* Answers a GET or HEAD for such a path from dir: the file, index.html,
 * or a 404 that says what is missing.  Segments are percent-decoded; one
 * that is empty, starts with '.' or holds a '/' is refused, so nothing
 * outside dir is reachable. */
enum MHD_Result web_serve(struct MHD_Connection *conn, const char *dir, char *const *segments, size_t n);

/* Whether dir holds the dashboard (its index.html). */
int web_present(const char *dir);

#endif
