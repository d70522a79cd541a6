/* SPDX-License-Identifier: MIT */
/* Tokens: see token.h.  Randomness and SHA-256 come from GnuTLS, which
 * libmicrohttpd already brings. */
#include "config.h"

#include "token.h"

#include "error.h"
#include "xalloc.h"

#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <string.h>

char *token_new(char **err)
{
	unsigned char raw[32];
	if (gnutls_rnd(GNUTLS_RND_KEY, raw, sizeof raw) < 0) {
		bm_error(err, "cannot get random bytes for a token");
		return NULL;
	}
	char *t = xmalloc(3 + 2 * sizeof raw + 1);
	memcpy(t, "bm_", 3);
	for (size_t i = 0; i < sizeof raw; i++) {
		t[3 + 2 * i] = "0123456789abcdef"[raw[i] >> 4];
		t[4 + 2 * i] = "0123456789abcdef"[raw[i] & 15];
	}
	t[3 + 2 * sizeof raw] = '\0';
	return t;
}

void token_hash(const char *token, unsigned char out[TOKEN_HASH_SIZE])
{
	gnutls_hash_fast(GNUTLS_DIG_SHA256, token, strlen(token), out);
}
