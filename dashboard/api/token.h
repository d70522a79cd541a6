/* SPDX-License-Identifier: MIT */
/* Upload and admin tokens: 32 random bytes shown once as "bm_" and 64 hex
 * digits; only their SHA-256 is stored.  A token carries 256 bits of
 * entropy, so a fast hash is enough (no salt or stretching needed: there
 * is nothing to guess that a dictionary could hold). */
#ifndef BM_TOKEN_H
#define BM_TOKEN_H

#define TOKEN_HASH_SIZE 32

/* A new random token (the caller owns it), or NULL with *err set when the
 * system has no randomness to give. */
char *token_new(char **err);

/* out = SHA-256 of the token's text. */
void token_hash(const char *token, unsigned char out[TOKEN_HASH_SIZE]);

#endif
