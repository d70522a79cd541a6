/* SPDX-License-Identifier: MIT */
/* SHA-256 (lib/sha256.c) against FIPS 180-4's examples, fed whole and a
 * byte at a time across block boundaries. */
#include "config.h"

#include "sha256.h"
#include "unit.h"

#include <string.h>

static void digest_is(const char *data, size_t len, size_t chunk, const char *want)
{
	struct sha256 s;
	char hex[SHA256_HEX_SIZE];
	sha256_init(&s);
	for (size_t off = 0; off < len; off += chunk)
		sha256_update(&s, data + off, len - off < chunk ? len - off : chunk);
	sha256_final_hex(&s, hex);
	ck_assert_str_eq(hex, want);
}

START_TEST(fips_examples)
{
	static const char two_blocks[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	for (size_t chunk = 1; chunk <= 70; chunk += 23) {
		digest_is("", 0, chunk, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
		digest_is("abc", 3, chunk, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
		digest_is(two_blocks, strlen(two_blocks), chunk,
			  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	}
}
END_TEST

START_TEST(a_million_a)
{
	static char a[1000];
	memset(a, 'a', sizeof a);
	struct sha256 s;
	char hex[SHA256_HEX_SIZE];
	sha256_init(&s);
	for (int i = 0; i < 1000; i++)
		sha256_update(&s, a, sizeof a);
	sha256_final_hex(&s, hex);
	ck_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
END_TEST

/* Every length around the padding's edges (55, 56, 63, 64 bytes) agrees
 * between one update and byte-at-a-time ones. */
START_TEST(padding_edges)
{
	char data[130], one[SHA256_HEX_SIZE], bytes[SHA256_HEX_SIZE];
	for (size_t i = 0; i < sizeof data; i++)
		data[i] = (char)(i * 7 + 1);
	for (size_t len = 0; len <= sizeof data; len++) {
		struct sha256 s;
		sha256_init(&s);
		sha256_update(&s, data, len);
		sha256_final_hex(&s, one);
		sha256_init(&s);
		for (size_t i = 0; i < len; i++)
			sha256_update(&s, data + i, 1);
		sha256_final_hex(&s, bytes);
		ck_assert_str_eq(one, bytes);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sha256");
	TCase *tc = tcase_create("sha256");
	tcase_add_test(tc, fips_examples);
	tcase_add_test(tc, a_million_a);
	tcase_add_test(tc, padding_edges);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
