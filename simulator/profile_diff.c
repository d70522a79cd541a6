/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "profile_diff.h"

#include "idmap.h"
#include "path.h"
#include "strpool.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

/* The matching key of a function: its name and the basenames of its file
 * and object, interned in keys. */
static void key_of(struct strpool *keys, const struct bm_profile *p, const struct profile_fn *f,
		   uint64_t *a, uint64_t *b)
{
	const char *name = profile_str(p, f->name), *file = path_basename(profile_str(p, f->file)),
		   *obj = path_basename(profile_str(p, f->object));
	*a = strpool_intern(keys, name, strlen(name));
	*b = (uint64_t)strpool_intern(keys, file, strlen(file)) << 32 |
	     strpool_intern(keys, obj, strlen(obj));
}

static int64_t delta(const struct profile_diff_row *r)
{
	return (int64_t)(r->head_self - r->base_self);
}

static int by_change(const void *a, const void *b)
{
	int64_t x = llabs(delta(a)), y = llabs(delta(b));
	if (x != y)
		return x < y ? 1 : -1;
	return strcmp(((const struct profile_diff_row *)a)->name,
		      ((const struct profile_diff_row *)b)->name);
}

static struct profile_diff_row *row_for(struct profile_diff *d, struct idmap *index, size_t *alloc,
					struct strpool *keys, const struct bm_profile *p,
					const struct profile_fn *f)
{
	uint64_t a, b;
	uint32_t idx;
	key_of(keys, p, f, &a, &b);
	if (!idmap_lookup(index, a, b, &idx)) {
		xgrow(&d->rows, alloc, d->nrows + 1, sizeof *d->rows);
		idx = (uint32_t)d->nrows++;
		d->rows[idx] = (struct profile_diff_row){
			.name = profile_str(p, f->name),
			.file = profile_str(p, f->file),
			.object = profile_str(p, f->object),
		};
		idmap_insert(index, a, b, idx);
	}
	return &d->rows[idx];
}

void profile_diff(const struct bm_profile *base, const struct bm_profile *head,
		  struct profile_diff *out)
{
	struct strpool *keys = strpool_new();
	struct idmap *index = idmap_new();
	size_t alloc = 0;
	memset(out, 0, sizeof *out);
	out->base_cycles = base->cycles;
	out->head_cycles = head->cycles;
	for (size_t i = 0; i < base->nfns; i++) {
		struct profile_diff_row *r = row_for(out, index, &alloc, keys, base, &base->fns[i]);
		r->base_self += base->fns[i].self_cycles;
		r->base_inclusive += base->fns[i].inclusive_cycles;
		r->in_base = 1;
	}
	for (size_t i = 0; i < head->nfns; i++) {
		struct profile_diff_row *r = row_for(out, index, &alloc, keys, head, &head->fns[i]);
		r->head_self += head->fns[i].self_cycles;
		r->head_inclusive += head->fns[i].inclusive_cycles;
		r->in_head = 1;
	}
	if (out->nrows > 1)
		qsort(out->rows, out->nrows, sizeof *out->rows, by_change);
	strpool_free(keys);
	idmap_free(index);
}

void profile_diff_release(struct profile_diff *d)
{
	free(d->rows);
	memset(d, 0, sizeof *d);
}
