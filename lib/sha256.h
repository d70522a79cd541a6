/* SPDX-License-Identifier: MIT */
/* SHA-256 (FIPS 180-4), to name an input by its bytes the way sha256sum
 * does: bm-run records the digest of what it fed a program on standard
 * input, so that runs on other input are never compared. */
#ifndef BM_SHA256_H
#define BM_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t bytes;       /* fed so far */
	unsigned char block[64]; /* the bytes of a block not yet complete */
};

/* Starts a digest. */
void sha256_init(struct sha256 *s);
/* Adds len bytes. */
void sha256_update(struct sha256 *s, const void *data, size_t len);
/* The digest of everything added, as 64 lower-case hex digits and a NUL
 * in hex; s must be started again before further use. */
#define SHA256_HEX_SIZE 65
void sha256_final_hex(struct sha256 *s, char hex[SHA256_HEX_SIZE]);

#endif
