/* SPDX-License-Identifier: MIT */
/* Registered benchmarks and the plan built from them. */
#include "bm_internal.h"

#include "utf8.h"

#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static const struct bm_benchmark **registered;
static size_t nregistered;

static void *grow_or_die(void *p, size_t count, size_t size)
{
	p = realloc(p, count * size);
	if (!p) {
		fputs("bm: out of memory\n", stderr);
		exit(2);
	}
	return p;
}

/* The plan lives in an mmap'ed arena of fixed size, not on the malloc
 * heap: the heap that each benchmark's process starts with must not depend
 * on how many benchmarks the filter selected. */
#define ARENA_SIZE (8u << 20)
static char *arena;
static size_t arena_used;

static void *arena_alloc(size_t size)
{
	size = (size + 15) & ~(size_t)15;
	if (!arena) {
		void *p = mmap(NULL, ARENA_SIZE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		arena = p == MAP_FAILED ? NULL : p;
	}
	if (!arena || arena_used + size > ARENA_SIZE) {
		fputs("bm: too many benchmarks for the plan's memory\n", stderr);
		exit(2);
	}
	void *p = arena + arena_used;
	arena_used += size;
	return p;
}

void bm_complain(const char *fmt, ...)
{
	va_list ap;
	fputs("bm: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Prints "bm: FILE:LINE: ..." to stderr: where b was registered, when
 * bm_register was told. */
static void __attribute__((format(printf, 2, 3)))
complain_at(const struct bm_benchmark *b, const char *fmt, ...)
{
	va_list ap;
	fputs("bm: ", stderr);
	if (b->file)
		fprintf(stderr, "%s:%d: ", b->file, b->line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Text for a message: its first SHOWN bytes, control characters as '?',
 * and "..." when there is more. */
#define SHOWN 48
static const char *shown(const char *text, char buf[SHOWN + 4])
{
	size_t n = 0;
	for (; text && text[n] && n < SHOWN; n++)
		buf[n] = (unsigned char)text[n] < ' ' || text[n] == 0x7f ? '?' : text[n];
	const char *more = text && text[n] ? "..." : "";
	memcpy(buf + n, more, strlen(more) + 1);
	return buf;
}

/* The characters that delimit a part of an id, "suite::name[p=v,q=w]",
 * and the rule they make: the suite and name may not hold those of the
 * name, a parameter's name and string values those of the tag.  (Macros,
 * not a table of pointers: relocated data would move the program's own
 * data, which its measured runs read.) */
#define IN_NAME ":[]", "goes into the id: it may not hold white space, control characters, ':', '[' or ']'"
#define IN_TAG                                                                                     \
	",=[]", "goes into the id: it may not hold white space, control characters, ',', '=', '[' or ']'"

/* Why text cannot be part of an id, or NULL when it can.  No white space
 * or control characters anywhere: bm-run's control lines are split at
 * spaces, and the id names the benchmark's callgrind dump in a line of
 * that file (CALLGRIND_DUMP_STATS_AT); and UTF-8, as the JSON text of
 * reports must be. */
static const char *bad_text(const char *text, const char *delimiters, const char *rule)
{
	if (!text || !*text)
		return "is empty";
	if (!utf8_valid(text, strlen(text)))
		return "goes into the id, which reports carry as JSON text: it must be UTF-8";
	for (const unsigned char *c = (const unsigned char *)text; *c; c++)
		if (*c <= ' ' || *c == 0x7f || strchr(delimiters, *c))
			return rule;
	return NULL;
}

void bm_register(const struct bm_benchmark *b)
{
	registered = grow_or_die(registered, nregistered + 1, sizeof *registered);
	registered[nregistered++] = b;
}

/* The benchmarks marked by bm_warm_rerun (before main: the heap that the
 * benchmarks start from is made before main too). */
static const struct bm_benchmark **reruns;
static size_t nreruns;

void bm_warm_rerun(const struct bm_benchmark *b)
{
	reruns = grow_or_die(reruns, nreruns + 1, sizeof *reruns);
	reruns[nreruns++] = b;
}

int registry_warm_rerun(const struct bm_benchmark *b)
{
	for (size_t i = 0; i < nreruns; i++)
		if (reruns[i] == b)
			return 1;
	return 0;
}

static size_t count_params(const struct bm_benchmark *b)
{
	size_t n = 0;
	while (b->params && b->params[n].name)
		n++;
	return n;
}

/* Appends to the id being made in id (cap bytes), counting in *len what
 * does not fit too. */
static void __attribute__((format(printf, 4, 5)))
append(char *id, size_t cap, size_t *len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = *len < cap ? vsnprintf(id + *len, cap - *len, fmt, ap) : vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	*len += n > 0 ? (size_t)n : 0;
}

/* Writes "suite::name" or "suite::name[p=v,q=w]" into id (cap bytes);
 * returns its length, which is cap or more when it did not fit. */
static size_t make_id(char *id, size_t cap, const struct bm_benchmark *b, const size_t *index,
		      size_t nparams)
{
	size_t len = 0;
	append(id, cap, &len, "%s::%s", b->suite, b->name);
	for (size_t i = 0; i < nparams; i++) {
		const struct bm_param *p = &b->params[i];
		char sep = i ? ',' : '[';
		if (p->strings)
			append(id, cap, &len, "%c%s=%s", sep, p->name, p->strings[index[i]]);
		else
			append(id, cap, &len, "%c%s=%ld", sep, p->name, p->values[index[i]]);
	}
	if (nparams)
		append(id, cap, &len, "]");
	return len;
}

static int matches(const char *id, char *const *filters, size_t n)
{
	if (!n)
		return 1;
	for (size_t i = 0; i < n; i++)
		if (fnmatch(filters[i], id, 0) == 0)
			return 1;
	return 0;
}

/* The suite and name of b, checked before anything else: every other
 * message about b shows them. */
static int check_names(const struct bm_benchmark *b)
{
	char buf[SHOWN + 4];
	const char *why;
	if ((why = bad_text(b->suite, IN_NAME))) {
		complain_at(b, "suite name '%s' %s", shown(b->suite, buf), why);
		return -1;
	}
	if ((why = bad_text(b->name, IN_NAME))) {
		complain_at(b, "benchmark name '%s' in suite '%s' %s", shown(b->name, buf), b->suite, why);
		return -1;
	}
	return 0;
}

/* Two equal values would give two benchmarks the same id. */
static int check_unique(const struct bm_benchmark *b, const struct bm_param *p)
{
	for (size_t i = 0; i < p->count; i++)
		for (size_t j = 0; j < i; j++)
			if (p->strings ? strcmp(p->strings[i], p->strings[j]) == 0
				       : p->values[i] == p->values[j]) {
				complain_at(b, "parameter '%s' of %s::%s has the value at %zu twice", p->name,
					    b->suite, b->name, i + 1);
				return -1;
			}
	return 0;
}

static int check_param(const struct bm_benchmark *b, const struct bm_param *p)
{
	char buf[SHOWN + 4];
	const char *why;
	if ((why = bad_text(p->name, IN_TAG))) {
		complain_at(b, "parameter name '%s' of %s::%s %s", shown(p->name, buf), b->suite, b->name,
			    why);
		return -1;
	}
	if (!p->count || (!p->values && !p->strings)) {
		complain_at(b, "parameter '%s' of %s::%s has no values", p->name, b->suite, b->name);
		return -1;
	}
	for (size_t i = 0; p->strings && i < p->count; i++)
		if ((why = bad_text(p->strings[i], IN_TAG))) {
			complain_at(b, "value '%s' of parameter '%s' of %s::%s %s", shown(p->strings[i], buf),
				    p->name, b->suite, b->name, why);
			return -1;
		}
	return check_unique(b, p);
}

static int check(const struct bm_benchmark *b, size_t nparams)
{
	if (!b->run) {
		complain_at(b, "benchmark %s::%s has no .run function", b->suite, b->name);
		return -1;
	}
	if (nparams > BM_MAX_PARAMS) {
		complain_at(b, "benchmark %s::%s has more than %d parameters", b->suite, b->name,
			    BM_MAX_PARAMS);
		return -1;
	}
	for (size_t i = 0; i < nparams; i++)
		if (check_param(b, &b->params[i]) < 0)
			return -1;
	return 0;
}

/* Every combination of b's parameter values (the last parameter varying
 * fastest) that matches the filters: counts them, and when plan->entries
 * is set, fills them in too.  Returns -1 after saying so when an id is
 * too long, whatever the filters: a cut id could be another's. */
static int expand(struct bm_plan *plan, const struct bm_benchmark *b, size_t nparams,
		  char *const *filters, size_t nfilters)
{
	size_t index[BM_MAX_PARAMS] = {0};
	char id[BM_ID_MAX], buf[SHOWN + 4];
	for (;;) {
		size_t len = make_id(id, sizeof id, b, index, nparams);
		if (len >= sizeof id) {
			complain_at(b, "the id '%s' is %zu bytes long, over the limit of %d: shorten the "
				    "suite, name or parameters of this benchmark",
				    shown(id, buf), len, BM_ID_MAX - 1);
			return -1;
		}
		if (matches(id, filters, nfilters)) {
			if (plan->entries) {
				struct bm_entry *e = &plan->entries[plan->n];
				*e = (struct bm_entry){.bench = b, .nparams = nparams};
				size_t size = strlen(id) + 1;
				e->id = memcpy(arena_alloc(size), id, size);
				memcpy(e->index, index, sizeof index);
			}
			plan->n++;
		}
		size_t k = nparams;
		while (k > 0 && ++index[k - 1] == b->params[k - 1].count)
			index[--k] = 0;
		if (k == 0)
			return 0;
	}
}

static int by_id(const void *a, const void *b)
{
	const struct bm_benchmark *x = *(const struct bm_benchmark *const *)a,
				  *y = *(const struct bm_benchmark *const *)b;
	int c = strcmp(x->suite, y->suite);
	return c ? c : strcmp(x->name, y->name);
}

int plan_build(struct bm_plan *plan, char *const *filters, size_t nfilters)
{
	memset(plan, 0, sizeof *plan);
	for (size_t i = 0; i < nregistered; i++) {
		if (!registered[i]) {
			bm_complain("bm_register was given NULL, not a benchmark");
			return -1;
		}
		if (check_names(registered[i]) < 0)
			return -1;
	}
	/* Constructors run in an order the linker picks: sort, so that the
	 * plan is the same for every build. */
	qsort(registered, nregistered, sizeof *registered, by_id);
	for (size_t i = 0; i < nregistered; i++) {
		if (i && by_id(&registered[i - 1], &registered[i]) == 0) {
			complain_at(registered[i], "benchmark %s::%s is registered twice",
				    registered[i]->suite, registered[i]->name);
			return -1;
		}
		if (check(registered[i], count_params(registered[i])) < 0)
			return -1;
	}
	/* Count, then fill: the entries are one block of the arena. */
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			plan->entries = arena_alloc(plan->n ? plan->n * sizeof *plan->entries : 1);
			plan->n = 0;
		}
		for (size_t i = 0; i < nregistered; i++)
			if (expand(plan, registered[i], count_params(registered[i]), filters, nfilters) < 0)
				return -1;
	}
	return 0;
}

void plan_release(struct bm_plan *plan)
{
	/* The arena goes with the process. */
	memset(plan, 0, sizeof *plan);
}

static int same_except(const struct bm_entry *a, const struct bm_entry *b, size_t p)
{
	if (a->bench != b->bench)
		return 0;
	for (size_t i = 0; i < a->nparams; i++)
		if (i != p && a->index[i] != b->index[i])
			return 0;
	return 1;
}

void plan_skip_after(struct bm_plan *plan, size_t i, double seconds)
{
	const struct bm_entry *e = &plan->entries[i];
	for (size_t p = 0; p < e->nparams; p++) {
		const struct bm_param *param = &e->bench->params[p];
		if (param->limit_s <= 0 || seconds <= param->limit_s)
			continue;
		for (size_t j = i + 1; j < plan->n; j++) {
			struct bm_entry *later = &plan->entries[j];
			if (later->skipped_after || !same_except(e, later, p) || later->index[p] <= e->index[p])
				continue;
			later->skipped_after = e;
			later->skipped_param = p;
			later->skipped_s = seconds;
		}
	}
}

void plan_skip_reason(const struct bm_entry *e, char why[BM_REASON_MAX])
{
	/* Fits: an id and a parameter name are shorter than BM_ID_MAX, and
	 * "%.3g" is at most 10 bytes. */
	const struct bm_param *param = &e->bench->params[e->skipped_param];
	snprintf(why, BM_REASON_MAX, "%s took %.3g s, over the %.3g s limit of range '%s'",
		 e->skipped_after->id, e->skipped_s, param->limit_s, param->name);
}

/* The index of parameter name of s's benchmark, which must be a string
 * parameter or not; a programming error (exit 2) otherwise. */
static size_t param_index(const struct bm_state *s, const char *name, int string)
{
	const struct bm_entry *e = s->entry;
	for (size_t i = 0; i < e->nparams; i++) {
		const struct bm_param *p = &e->bench->params[i];
		if (strcmp(p->name, name) != 0)
			continue;
		if (!p->strings == !string)
			return i;
		complain_at(e->bench, "benchmark %s reads %s parameter '%s' with %s; use %s", e->id,
			    string ? "integer" : "string", name, string ? "bm_param_str" : "bm_param",
			    string ? "bm_param" : "bm_param_str");
		exit(2);
	}
	complain_at(e->bench, "benchmark %s asks for parameter '%s', which it does not declare", e->id,
		    name);
	exit(2);
}

/* A run calls these accessors while it is measured, and with cold caches
 * every line of code it touches counts.  They start on a cache line, where
 * they happened to be in every program before, so that their lines no
 * longer move with the size of the code linked before them: bm_param
 * first, the others after it unchanged.  (param_index, which bm_param
 * calls, still moves.) */
__attribute__((aligned(64))) long bm_param(const struct bm_state *s, const char *name)
{
	size_t i = param_index(s, name, 0);
	return s->entry->bench->params[i].values[s->entry->index[i]];
}

const char *bm_param_str(const struct bm_state *s, const char *name)
{
	size_t i = param_index(s, name, 1);
	return s->entry->bench->params[i].strings[s->entry->index[i]];
}

void bm_set_data(struct bm_state *s, void *data)
{
	s->data = data;
}

void *bm_data(const struct bm_state *s)
{
	return s->data;
}

void bm_set_shared(struct bm_state *s, void *shared)
{
	s->shared = shared;
}

void *bm_shared(const struct bm_state *s)
{
	return s->shared;
}

const char *bm_id(const struct bm_state *s)
{
	return s->entry->id;
}
