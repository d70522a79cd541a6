/* SPDX-License-Identifier: MIT */
/* What x86-64-v3-server offers beyond x86-64-v3, as code that dispatches
 * on cpuid uses it (tests/cli/cpu_server.sh): a CRC-32 with a PCLMULQDQ
 * path and a table path, AES-128 by AES-NI on FIPS-197's example, a
 * 128-bit sum by ADCX and ADOX, and libdeflate's libdeflate_crc32 (loaded
 * at run time, where installed), which picks its PCLMULQDQ path as
 * production cores take it.  Every result is checked against the portable
 * one, so that a wrong emulation shows as "differs". */
#include "region.h"

#include <cpuid.h>
#include <dlfcn.h>
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define CRC_BYTES 4096
#define DEFLATE_BYTES (1 << 20)

static unsigned char crc_data[CRC_BYTES];
static unsigned char deflate_data[DEFLATE_BYTES];

static int has_pclmul, has_aes, has_adx;

static void ask_cpu(void)
{
	unsigned a, b, c, d;
	if (__get_cpuid(1, &a, &b, &c, &d)) {
		has_pclmul = !!(c & bit_PCLMUL);
		has_aes = !!(c & bit_AES);
	}
	if (__get_cpuid_count(7, 0, &a, &b, &c, &d))
		has_adx = !!(b & bit_ADX);
}

/* ---- CRC-32 (zlib's, reflected 0xedb88320) ---- */

static uint32_t crc_table[256];

static void crc_table_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[i] = c;
	}
}

static NOINLINE uint32_t crc32_table(const unsigned char *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	for (size_t i = 0; i < n; i++)
		c = crc_table[(c ^ p[i]) & 0xff] ^ (c >> 8);
	return ~c;
}

/* Four bytes at a time: the CRC of 32 more bits is a Barrett reduction
 * by two carry-less multiplications (the reflected constants of Linux's
 * crc32-pclmul: mu' = 0x1f7011641, P' = 0x1db710641). */
__attribute__((target("pclmul,sse4.1"))) static NOINLINE uint32_t crc32_pclmul(const unsigned char *p, size_t n)
{
	const __m128i mu = _mm_set_epi64x(0, 0x1f7011641ll), poly = _mm_set_epi64x(0, 0x1db710641ll);
	const __m128i low32 = _mm_set_epi32(0, 0, 0, -1);
	uint32_t c = 0xffffffffu;
	for (size_t i = 0; i + 4 <= n; i += 4) {
		uint32_t w;
		memcpy(&w, p + i, 4);
		__m128i x = _mm_cvtsi32_si128((int)(c ^ w));
		__m128i t = _mm_and_si128(_mm_clmulepi64_si128(x, mu, 0x00), low32);
		t = _mm_xor_si128(_mm_clmulepi64_si128(t, poly, 0x00), x);
		c = (uint32_t)_mm_extract_epi32(t, 1);
	}
	for (size_t i = n & ~(size_t)3; i < n; i++)
		c = crc_table[(c ^ p[i]) & 0xff] ^ (c >> 8);
	return ~c;
}

static NOINLINE uint32_t crc32_dispatch(const unsigned char *p, size_t n)
{
	return has_pclmul ? crc32_pclmul(p, n) : crc32_table(p, n);
}

/* ---- AES-128, FIPS-197 appendix C.1 ---- */

#define KEY_STEP(k, rcon)                                                                          \
	do {                                                                                       \
		__m128i g = _mm_shuffle_epi32(_mm_aeskeygenassist_si128(k, rcon), 0xff);           \
		k = _mm_xor_si128(k, _mm_slli_si128(k, 4));                                        \
		k = _mm_xor_si128(k, _mm_slli_si128(k, 8));                                        \
		k = _mm_xor_si128(k, g);                                                           \
	} while (0)

__attribute__((target("aes,sse4.1"))) static NOINLINE void aes128_encrypt(const unsigned char key[16],
									   const unsigned char in[16],
									   unsigned char out[16])
{
	__m128i k = _mm_loadu_si128((const __m128i *)key), s = _mm_xor_si128(_mm_loadu_si128((const __m128i *)in), k);
#define ROUND(rcon)                                                                                \
	do {                                                                                       \
		KEY_STEP(k, rcon);                                                                 \
		s = _mm_aesenc_si128(s, k);                                                        \
	} while (0)
	ROUND(0x01);
	ROUND(0x02);
	ROUND(0x04);
	ROUND(0x08);
	ROUND(0x10);
	ROUND(0x20);
	ROUND(0x40);
	ROUND(0x80);
	ROUND(0x1b);
	KEY_STEP(k, 0x36);
	s = _mm_aesenclast_si128(s, k);
	_mm_storeu_si128((__m128i *)out, s);
}

/* ---- ADCX and ADOX: two carry chains at once, as bignum code does ---- */

static NOINLINE void adx_add(uint64_t a[2], const uint64_t b[2], uint64_t c[2], const uint64_t d[2])
{
	__asm__("xor %%eax, %%eax\n\t" /* CF = OF = 0 */
		"adcx %[b0], %[a0]\n\t"
		"adox %[d0], %[c0]\n\t"
		"adcx %[b1], %[a1]\n\t"
		"adox %[d1], %[c1]"
		: [a0] "+r"(a[0]), [a1] "+r"(a[1]), [c0] "+r"(c[0]), [c1] "+r"(c[1])
		: [b0] "r"(b[0]), [b1] "r"(b[1]), [d0] "r"(d[0]), [d1] "r"(d[1])
		: "rax", "cc");
}

/* ---- libdeflate ---- */

typedef uint32_t (*crc32_fn)(uint32_t, const void *, size_t);
static crc32_fn deflate_crc32;

static NOINLINE uint32_t libdeflate_crc(const unsigned char *p, size_t n)
{
	return deflate_crc32(0, p, n);
}

static void hex(const char *what, const unsigned char *p, size_t n)
{
	printf("%s: ", what);
	for (size_t i = 0; i < n; i++)
		printf("%02x", p[i]);
	printf("\n");
}

int main(void)
{
	ask_cpu();
	crc_table_init();
	printf("supports: pclmul %d aes %d adx %d\n", has_pclmul, has_aes, has_adx);
	for (size_t i = 0; i < CRC_BYTES; i++)
		crc_data[i] = (unsigned char)(i * 2654435761u >> 13);
	uint32_t table = crc32_table(crc_data, CRC_BYTES - 3), got = crc32_dispatch(crc_data, CRC_BYTES - 3);
	printf("crc32: %s, %08x, %s\n", has_pclmul ? "pclmul" : "table", got, got == table ? "agrees" : "differs");

	if (has_aes) {
		unsigned char key[16], in[16], out[16];
		for (int i = 0; i < 16; i++) {
			key[i] = (unsigned char)i;
			in[i] = (unsigned char)(i * 0x11);
		}
		aes128_encrypt(key, in, out);
		hex("aes", out, 16);
	} else {
		printf("aes: not offered\n");
	}

	if (has_adx) {
		uint64_t a[2] = {~0ull, 1}, b[2] = {1, 2}, c[2] = {1ull << 63, 5}, d[2] = {1ull << 63, 7};
		adx_add(a, b, c, d);
		printf("adx: %016llx%016llx %016llx%016llx\n", (unsigned long long)a[1], (unsigned long long)a[0],
		       (unsigned long long)c[1], (unsigned long long)c[0]);
	} else {
		printf("adx: not offered\n");
	}

	void *lib = dlopen("libdeflate.so.0", RTLD_NOW);
	deflate_crc32 = lib ? (crc32_fn)dlsym(lib, "libdeflate_crc32") : NULL;
	if (deflate_crc32) {
		for (size_t i = 0; i < DEFLATE_BYTES; i++)
			deflate_data[i] = (unsigned char)(i * 2246822519u >> 11);
		uint32_t want = crc32_table(deflate_data, DEFLATE_BYTES), crc = libdeflate_crc(deflate_data, DEFLATE_BYTES);
		printf("libdeflate: %08x, %s\n", crc, crc == want ? "agrees" : "differs");
	} else {
		printf("libdeflate: absent\n");
	}
	return 0;
}
