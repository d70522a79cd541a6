/* SPDX-License-Identifier: MIT */
/* A report's series identity, and why two differ: see series_identity.h. */
#include "config.h"

#include "series_identity.h"

#include "xalloc.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How much of the input's SHA-256 names it: 64 bits. */
#define STDIN_DIGITS 16

/* Whether s is recorded and says something other than dflt (NULL: none). */
static int other_than(const char *s, const char *dflt)
{
	return s && *s && (!dflt || strcmp(s, dflt) != 0);
}

char *report_series_identity(const struct bm_report *r)
{
	int engine = other_than(r->engine, "bm"), cpu = other_than(r->model.cpu, REPORT_FIXED_CPU);
	char input[STDIN_DIGITS + 1] = "";
	if (r->stdin_sha256)
		snprintf(input, sizeof input, "%s", r->stdin_sha256);
	int valgrind = r->valgrind && *r->valgrind;
	return xasprintf("%s%s%s%s%s%s%s%s%s%s", r->model.id ? r->model.id : "", r->model.warm_caches ? "+warm" : "",
			 engine ? "+" : "", engine ? r->engine : "", valgrind ? "+valgrind=" : "",
			 valgrind ? r->valgrind : "", *input ? "+stdin=" : "", input, cpu ? "+cpu=" : "",
			 cpu ? r->model.cpu : "");
}

/* An identity taken apart. */
struct parts {
	char *model;
	int warm;
	char *engine; /* NULL: bm's own */
	char *cpu;    /* NULL: bm's fixed virtual CPU, or none recorded */
	char *input;  /* the standard input's digest, or NULL: none */
	char *valgrind; /* Valgrind's version, or NULL: none recorded */
};

/* The model is what comes before the first '+', the CPU what follows the
 * first "+cpu="; the input and Valgrind's version come before it, in
 * that order from the end; the engine is whatever is left after "+warm".
 * A model id with a '+' of its own is taken apart wrongly, but two
 * identities that differ still differ in some part (or in the
 * fallback). */
static void parse(const char *s, struct parts *p)
{
	const char *cpu = strstr(s, "+cpu="), *end = cpu ? cpu : s + strlen(s);
	const char *input = strstr(s, "+stdin="), *valgrind = strstr(s, "+valgrind=");
	memset(p, 0, sizeof *p);
	if (input && input < end) {
		p->input = xstrndup(input + 7, (size_t)(end - input - 7));
		end = input;
	}
	if (valgrind && valgrind < end) {
		p->valgrind = xstrndup(valgrind + 10, (size_t)(end - valgrind - 10));
		end = valgrind;
	}
	size_t m = strcspn(s, "+");
	const char *t = s + (s + m < end ? m : (size_t)(end - s));
	p->model = xstrndup(s, (size_t)(t - s));
	if (end - t >= 5 && !strncmp(t, "+warm", 5) && (t + 5 == end || t[5] == '+')) {
		p->warm = 1;
		t += 5;
	}
	if (t < end)
		p->engine = xstrndup(t + 1, (size_t)(end - t - 1));
	if (cpu)
		p->cpu = xstrdup(cpu + 5);
}

static void parts_release(struct parts *p)
{
	free(p->model);
	free(p->engine);
	free(p->cpu);
	free(p->input);
	free(p->valgrind);
}

static int same(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) == 0 : a == b;
}

static const char *engine_name(const struct parts *p)
{
	return p->engine ? p->engine : "bm";
}

/* The CPU in words: quoted when recorded. */
static char *cpu_text(const struct parts *p)
{
	if (p->cpu)
		return xasprintf("'%s'", p->cpu);
	return xstrdup(p->engine ? "none recorded" : "bm's fixed virtual CPU");
}

/* bm-run --cpu's name of the CPU, where it is one of the bm engine's
 * virtual CPUs (none recorded under bm: the default's), else NULL. */
static const char *cpu_name(const struct parts *p)
{
	if (p->engine)
		return NULL;
	if (!p->cpu || !strcmp(p->cpu, REPORT_CPU_X86_64_V1))
		return "x86-64-v1";
	if (!strcmp(p->cpu, REPORT_CPU_X86_64_V3))
		return "x86-64-v3";
	if (!strcmp(p->cpu, REPORT_CPU_X86_64_V3_SERVER))
		return "x86-64-v3-server";
	return NULL;
}

/* Whether a model id is one that bm-run can measure under (bm-run
 * --model): then the way to compare is to rerun under the other. */
static bool is_bm_model(const char *model)
{
	return !strncmp(model, "bm-model/", 9);
}

char *series_identity_difference(const char *there, const char *here, const char *there_label,
				 const char *here_label)
{
	if (!strcmp(there, here))
		return NULL;
	struct parts a, b;
	parse(there, &a);
	parse(here, &b);
	char *why;
	if (strcmp(a.model, b.model) && is_bm_model(a.model) && is_bm_model(b.model)) {
		why = xasprintf("cost model: %s %s, %s %s (results of two cost models never compare: rerun one of them "
				"with the other's model: bm-run --model %s, or --model %s)",
				a.model, there_label, b.model, here_label, a.model, b.model);
	} else if (strcmp(a.model, b.model)) {
		why = xasprintf("cost model: %s %s, %s %s (results of two cost models never compare: rerun one of them "
				"with the bm version, or the tool, that measured the other)",
				*a.model ? a.model : "none", there_label, *b.model ? b.model : "none", here_label);
	} else if (!same(a.engine, b.engine)) {
		why = xasprintf("engine: %s %s, %s %s (rerun one of them with the other's engine: bm-run --engine %s, "
				"or --engine %s)",
				engine_name(&a), there_label, engine_name(&b), here_label, engine_name(&a),
				engine_name(&b));
	} else if (!same(a.valgrind, b.valgrind)) {
		why = xasprintf("Valgrind: %s %s, %s %s (another Valgrind translates the program otherwise, and its "
				"counts may differ: rerun one of them under the other's Valgrind)",
				a.valgrind ? a.valgrind : "none recorded", there_label,
				b.valgrind ? b.valgrind : "none recorded", here_label);
	} else if (!same(a.cpu, b.cpu)) {
		char *x = cpu_text(&a), *y = cpu_text(&b);
		if (cpu_name(&a) && cpu_name(&b))
			why = xasprintf("virtual CPU: %s %s, %s %s (code that dispatches on the CPU takes other paths: "
					"rerun one of them on the other's CPU: bm-run --cpu %s, or --cpu %s)",
					x, there_label, y, here_label, cpu_name(&a), cpu_name(&b));
		else
			why = xasprintf("virtual CPU: %s %s, %s %s (code that dispatches on the CPU takes other paths: "
					"rerun one of them where the other ran, or both with one bm version and its "
					"engine, whose virtual CPU is fixed: bm-run --engine bm)",
					x, there_label, y, here_label);
		free(x);
		free(y);
	} else if (a.warm != b.warm) {
		why = xasprintf("simulated caches: %s %s, %s %s (rerun one of them as the other was: bm-run --%s, or "
				"--%s)",
				a.warm ? "warm" : "cold", there_label, b.warm ? "warm" : "cold", here_label,
				a.warm ? "warm" : "cold", b.warm ? "warm" : "cold");
	} else if (!same(a.input, b.input)) {
		why = xasprintf("standard input: %s%s%s %s, %s%s%s %s (the programs read other input: rerun one of them "
				"with the other's, bm-run --stdin FILE)",
				a.input ? "'" : "", a.input ? a.input : "none", a.input ? "'" : "", there_label,
				b.input ? "'" : "", b.input ? b.input : "none", b.input ? "'" : "", here_label);
	} else {
		why = xasprintf("series: '%s' %s, '%s' %s (rerun one of them as the other was measured)", there,
				there_label, here, here_label);
	}
	parts_release(&a);
	parts_release(&b);
	return why;
}
