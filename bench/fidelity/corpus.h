/* SPDX-License-Identifier: MIT */
/* What the fidelity corpus's programs share: the id convention of a change
 * pair, and inputs made from a fixed seed, so that every run of every
 * program (natively and under bm-run) works on the same bytes.
 *
 * A change pair is two benchmarks of the suite "pair", named
 * KIND.NAME/before and KIND.NAME/after: the same work before and after one
 * change of the kind people make (docs/fidelity.md).  KIND groups pairs of
 * one kind of change (branch, simd, ...), so that the fit and validation
 * halves each get pairs of every kind; bench/fidelity/analyze.pl finds
 * pairs and kinds by these ids alone. */
#ifndef FIDELITY_CORPUS_H
#define FIDELITY_CORPUS_H

#include <bm.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* PAIR(kind, name, before|after, .run = f, ...): registers
 * pair::kind.name/side, as BM_BENCHMARK registers suite::name (whose name
 * must be an identifier). */
#define PAIR(kind_, name_, side_, ...)                                                             \
	static const struct bm_benchmark pair_##kind_##_##name_##_##side_ = {                      \
		.suite = "pair", .name = #kind_ "." #name_ "/" #side_, .file = __FILE__,          \
		.line = __LINE__, __VA_ARGS__};                                                    \
	__attribute__((constructor)) static void pair_register_##kind_##_##name_##_##side_(void)  \
	{                                                                                          \
		bm_register(&pair_##kind_##_##name_##_##side_);                                    \
	}

/* Makes x a value the compiler cannot know (bm_black_box keeps a result
 * alive, but the compiler still knows what it gave it): a divisor that
 * stays a division, a table size that stays a modulus. */
#define corpus_opaque(x) __asm__ volatile("" : "+r"(x))

/* splitmix64: one 64-bit state, good enough to make inputs, the same on
 * every host (no libc rand(), whose sequence is the C library's). */
static inline uint64_t corpus_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

#define CORPUS_SEED 20261126u

/* n random bytes from the fixed seed; the caller frees them. */
static inline unsigned char *corpus_random_bytes(size_t n)
{
	unsigned char *p = malloc(n ? n : 1);
	uint64_t state = CORPUS_SEED;
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(corpus_next(&state) >> 56);
	return p;
}

/* A random permutation of 0..n-1 (Fisher-Yates from the fixed seed). */
static inline size_t *corpus_permutation(size_t n)
{
	size_t *p = malloc((n ? n : 1) * sizeof *p);
	uint64_t state = CORPUS_SEED;
	for (size_t i = 0; i < n; i++)
		p[i] = i;
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(corpus_next(&state) % i), t = p[i - 1];
		p[i - 1] = p[j];
		p[j] = t;
	}
	return p;
}

/* n bytes of text that compresses as prose does (about 3:1 with zlib):
 * words drawn with a skewed distribution from a small vocabulary, with
 * numbers and punctuation.  NUL-terminated at p[n]; the caller frees it. */
static inline char *corpus_text(size_t n)
{
	static const char *const words[] = {
		"the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with",
		"be", "by", "on", "not", "he", "this", "are", "or", "his", "from", "at", "which",
		"but", "have", "an", "had", "they", "you", "were", "their", "one", "all", "we",
		"benchmark", "cycles", "memory", "branch", "cache", "latency", "throughput",
		"compression", "simulation", "instruction", "pipeline", "predictor", "register"};
	size_t nwords = sizeof words / sizeof words[0], len = 0;
	char *p = malloc(n + 1);
	uint64_t state = CORPUS_SEED;
	while (len < n) {
		uint64_t r = corpus_next(&state);
		/* the product of two uniforms favours the first words */
		size_t w = (size_t)(((r & 0xffff) * ((r >> 16) & 0xffff) * nwords) >> 32);
		const char *word = words[w];
		if ((r >> 40) % 23 == 0) {
			char num[12];
			int k = 0;
			for (unsigned v = (unsigned)(r >> 44) % 100000; k == 0 || v; v /= 10)
				num[k++] = (char)('0' + v % 10);
			while (k > 0 && len < n)
				p[len++] = num[--k];
		} else {
			while (*word && len < n)
				p[len++] = *word++;
		}
		if (len < n)
			p[len++] = (r >> 60) == 0 ? '.' : (r >> 58) == 1 ? '\n' : ' ';
	}
	p[n] = '\0';
	return p;
}

#endif
