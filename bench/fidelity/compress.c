/* SPDX-License-Identifier: MIT */
/* Compression libraries at work on 128 KiB of generated text: zlib,
 * zstd and LZ4, each compressing (at two levels where the level changes
 * the algorithm) and decompressing.  Streams and contexts are made once
 * (setup_once), as a program that compresses often keeps them, so a run
 * is the library's work and not its allocations. */
#include "corpus.h"

#include <lz4.h>
#include <lz4hc.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#define TEXT_BYTES (128 * 1024)
#define ROOM (2 * TEXT_BYTES)

struct work {
	char *text;             /* the input */
	unsigned char *packed;  /* the input compressed once, for decompressing */
	size_t packed_len;
	unsigned char *out;     /* ROOM bytes for what a run makes */
	z_stream z;
	enum { NO_STREAM, DEFLATING, INFLATING } stream;
	ZSTD_CCtx *zc;
	ZSTD_DCtx *zd;
	void *lz4hc_state;
};

static void fail(const char *what)
{
	fprintf(stderr, "compress: %s failed\n", what);
	abort();
}

static struct work *make_work(void)
{
	struct work *w = calloc(1, sizeof *w);
	w->text = corpus_text(TEXT_BYTES);
	w->packed = malloc(ROOM);
	w->out = malloc(ROOM);
	return w;
}

static void free_work(struct bm_state *s)
{
	struct work *w = bm_shared(s);
	if (w->stream == DEFLATING)
		deflateEnd(&w->z);
	else if (w->stream == INFLATING)
		inflateEnd(&w->z);
	ZSTD_freeCCtx(w->zc);
	ZSTD_freeDCtx(w->zd);
	free(w->lz4hc_state);
	free(w->text);
	free(w->packed);
	free(w->out);
	free(w);
}

/* ---- zlib ---- */

static void make_deflate(struct bm_state *s)
{
	struct work *w = make_work();
	if (deflateInit(&w->z, (int)bm_param(s, "level")) != Z_OK)
		fail("deflateInit");
	w->stream = DEFLATING;
	bm_set_shared(s, w);
}

static void zlib_deflate(struct bm_state *s)
{
	struct work *w = bm_shared(s);
	deflateReset(&w->z);
	w->z.next_in = (unsigned char *)w->text;
	w->z.avail_in = TEXT_BYTES;
	w->z.next_out = w->out;
	w->z.avail_out = ROOM;
	if (deflate(&w->z, Z_FINISH) != Z_STREAM_END)
		fail("deflate");
	bm_black_box(w->z.total_out);
}

static void make_inflate(struct bm_state *s)
{
	struct work *w = make_work();
	uLongf len = ROOM;
	if (compress2(w->packed, &len, (unsigned char *)w->text, TEXT_BYTES, 6) != Z_OK)
		fail("compress2");
	w->packed_len = len;
	if (inflateInit(&w->z) != Z_OK)
		fail("inflateInit");
	w->stream = INFLATING;
	bm_set_shared(s, w);
}

static void zlib_inflate(struct bm_state *s)
{
	struct work *w = bm_shared(s);
	inflateReset(&w->z);
	w->z.next_in = w->packed;
	w->z.avail_in = (uInt)w->packed_len;
	w->z.next_out = w->out;
	w->z.avail_out = ROOM;
	if (inflate(&w->z, Z_FINISH) != Z_STREAM_END || w->z.total_out != TEXT_BYTES)
		fail("inflate");
	bm_black_box(w->out[100]);
}

BM_BENCHMARK(zlib, deflate, .run = zlib_deflate, .setup_once = make_deflate,
	     .teardown_once = free_work,
	     .params = BM_PARAMS(BM_RANGE("level", 1, 6)));
BM_BENCHMARK(zlib, inflate, .run = zlib_inflate, .setup_once = make_inflate,
	     .teardown_once = free_work);

/* ---- zstd ---- */

static void make_zstd(struct bm_state *s)
{
	struct work *w = make_work();
	w->zc = ZSTD_createCCtx();
	w->zd = ZSTD_createDCtx();
	size_t n = ZSTD_compress(w->packed, ROOM, w->text, TEXT_BYTES, 3);
	if (ZSTD_isError(n))
		fail("ZSTD_compress");
	w->packed_len = n;
	bm_set_shared(s, w);
}

static void zstd_compress(struct bm_state *s)
{
	struct work *w = bm_shared(s);
	size_t n = ZSTD_compressCCtx(w->zc, w->out, ROOM, w->text, TEXT_BYTES, (int)bm_param(s, "level"));
	if (ZSTD_isError(n))
		fail("ZSTD_compressCCtx");
	bm_black_box(n);
}

static void zstd_decompress(struct bm_state *s)
{
	struct work *w = bm_shared(s);
	size_t n = ZSTD_decompressDCtx(w->zd, w->out, ROOM, w->packed, w->packed_len);
	if (n != TEXT_BYTES)
		fail("ZSTD_decompressDCtx");
	bm_black_box(w->out[100]);
}

BM_BENCHMARK(zstd, compress, .run = zstd_compress, .setup_once = make_zstd,
	     .teardown_once = free_work,
	     .params = BM_PARAMS(BM_RANGE("level", 1, 3)));
BM_BENCHMARK(zstd, decompress, .run = zstd_decompress, .setup_once = make_zstd,
	     .teardown_once = free_work);

/* ---- LZ4 ---- */

static void make_lz4(struct bm_state *s)
{
	struct work *w = make_work();
	w->lz4hc_state = malloc((size_t)LZ4_sizeofStateHC());
	int n = LZ4_compress_default(w->text, (char *)w->packed, TEXT_BYTES, ROOM);
	if (n <= 0)
		fail("LZ4_compress_default");
	w->packed_len = (size_t)n;
	bm_set_shared(s, w);
}

static void lz4_compress(struct bm_state *s)
{
	struct work *w = bm_shared(s);
	bm_black_box(LZ4_compress_default(w->text, (char *)w->out, TEXT_BYTES, ROOM));
}

static void lz4_compress_hc(struct bm_state *s)
{
	struct work *w = bm_shared(s);
	bm_black_box(LZ4_compress_HC_extStateHC(w->lz4hc_state, w->text, (char *)w->out, TEXT_BYTES, ROOM,
						 LZ4HC_CLEVEL_DEFAULT));
}

static void lz4_decompress(struct bm_state *s)
{
	struct work *w = bm_shared(s);
	if (LZ4_decompress_safe((const char *)w->packed, (char *)w->out, (int)w->packed_len, ROOM) != TEXT_BYTES)
		fail("LZ4_decompress_safe");
	bm_black_box(w->out[100]);
}

BM_BENCHMARK(lz4, compress, .run = lz4_compress, .setup_once = make_lz4,
	     .teardown_once = free_work);
BM_BENCHMARK(lz4, compress_hc, .run = lz4_compress_hc, .setup_once = make_lz4,
	     .teardown_once = free_work);
BM_BENCHMARK(lz4, decompress, .run = lz4_decompress, .setup_once = make_lz4,
	     .teardown_once = free_work);

BM_MAIN()
