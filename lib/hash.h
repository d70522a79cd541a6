/* SPDX-License-Identifier: MIT */
/* Hash functions shared by strpool and idmap. */
#ifndef BM_HASH_H
#define BM_HASH_H

#include <stddef.h>
#include <stdint.h>

/* A strong 64-bit mix (splitmix64's finaliser). */
static inline uint64_t hash_mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x;
}

/* FNV-1a over len bytes, finished with hash_mix64. */
static inline uint64_t hash_bytes(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ull;
	}
	return hash_mix64(h);
}

#endif
