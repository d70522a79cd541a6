/* URLs between bm's tools and bm-server. */
#ifndef BM_URL_H
#define BM_URL_H

/* s percent-encoded as one URL path segment (every byte but unreserved
 * ASCII escaped, so a '/' in a name stays inside its segment); the caller
 * owns the result. */
char *url_escape_segment(const char *s);

#endif
