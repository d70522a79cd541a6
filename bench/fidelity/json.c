/* SPDX-License-Identifier: MIT */
/* A JSON library (Jansson) at work on a generated document of about
 * 100 KiB: 500 records with strings, integers, reals, booleans and a
 * nested array.  Parsing it, writing it back as text, building it value by
 * value, and looking up members. */
#include "corpus.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#define RECORDS 500

/* Jansson seeds its hash tables from /dev/urandom unless told otherwise,
 * which would move every object's layout, and bm's counts, from run to
 * run: one fixed seed, before any value exists. */
__attribute__((constructor)) static void fixed_hash_seed(void)
{
	json_object_seed(CORPUS_SEED);
}

static void fail(const char *what)
{
	fprintf(stderr, "json: %s failed\n", what);
	abort();
}

static json_t *build_document(void)
{
	uint64_t state = CORPUS_SEED;
	char *words = corpus_text(RECORDS * 24);
	json_t *doc = json_array();
	for (int i = 0; i < RECORDS; i++) {
		json_t *rec = json_object(), *tags = json_array();
		char name[24];
		memcpy(name, words + 24 * i, 23);
		name[23] = '\0';
		for (int k = 0; k < 4; k++)
			json_array_append_new(tags, json_integer((json_int_t)(corpus_next(&state) % 1000)));
		json_object_set_new(rec, "id", json_integer(i));
		json_object_set_new(rec, "name", json_string(name));
		json_object_set_new(rec, "score", json_real((double)(corpus_next(&state) % 100000) / 7.0));
		json_object_set_new(rec, "active", json_boolean(corpus_next(&state) & 1));
		json_object_set_new(rec, "tags", tags);
		json_object_set_new(rec, "owner", json_string(name + 7));
		json_array_append_new(doc, rec);
	}
	free(words);
	return doc;
}

struct doc {
	json_t *tree;
	char *text;
};

static void make_doc(struct bm_state *s)
{
	struct doc *d = malloc(sizeof *d);
	d->tree = build_document();
	d->text = json_dumps(d->tree, JSON_COMPACT);
	if (!d->text)
		fail("json_dumps");
	bm_set_shared(s, d);
}

static void free_doc(struct bm_state *s)
{
	struct doc *d = bm_shared(s);
	json_decref(d->tree);
	free(d->text);
	free(d);
}

static void parse(struct bm_state *s)
{
	struct doc *d = bm_shared(s);
	json_t *tree = json_loads(d->text, 0, NULL);
	if (!tree)
		fail("json_loads");
	bm_black_box(json_array_size(tree));
	json_decref(tree);
}

static void dump(struct bm_state *s)
{
	struct doc *d = bm_shared(s);
	char *text = json_dumps(d->tree, JSON_COMPACT);
	bm_black_box(text[10]);
	free(text);
}

static void build(struct bm_state *s)
{
	json_t *tree = build_document();
	(void)s;
	bm_black_box(json_array_size(tree));
	json_decref(tree);
}

static void lookup(struct bm_state *s)
{
	struct doc *d = bm_shared(s);
	double sum = 0;
	for (int pass = 0; pass < 4; pass++) {
		for (size_t i = 0; i < json_array_size(d->tree); i++) {
			json_t *rec = json_array_get(d->tree, i);
			sum += json_real_value(json_object_get(rec, "score"));
			sum += (double)json_integer_value(json_array_get(json_object_get(rec, "tags"), 2));
			sum += json_is_true(json_object_get(rec, "active"));
		}
	}
	bm_black_box(sum);
}

BM_BENCHMARK(json, parse, .run = parse, .setup_once = make_doc, .teardown_once = free_doc);
BM_BENCHMARK(json, dump, .run = dump, .setup_once = make_doc, .teardown_once = free_doc);
BM_BENCHMARK(json, build, .run = build);
BM_BENCHMARK(json, lookup, .run = lookup, .setup_once = make_doc, .teardown_once = free_doc);

BM_MAIN()
