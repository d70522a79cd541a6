/* SPDX-License-Identifier: MIT */
/* bm-profile: callgrind files in, cycles, time, speed and profiles out.
 *
 * Every part of every file (one per callgrind dump; the threads of one
 * dump are joined) becomes one benchmark.  Everything is read and checked
 * before anything is printed, so a malformed file never yields a partial
 * result. */
#include "config.h"

#include "atomic_file.h"
#include "benchmark.h"
#include "error.h"
#include "fmt.h"
#include "folded.h"
#include "log.h"
#include "model.h"
#include "number.h"
#include "path.h"
#include "profile.h"
#include "profile_diff.h"
#include "report.h"
#include "syscalls.h"
#include "unnamed_code.h"
#include "xalloc.h"

#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum mode { MODE_TEXT, MODE_JSON, MODE_FOLDED, MODE_TSV };

struct options {
	enum mode mode;
	int diff;
	long top;
	int with_profile;
	const char *output;
};

/* One benchmark: a dump, with the other threads of the same dump merged in. */
struct dump {
	struct bm_profile *profile;
	char *name;
	int threads;
};

struct dumps {
	struct dump *d;
	size_t n, alloc;
};

static const struct bm_model *model = &model_v1;
static int model_given; /* by --model or BM_MODEL */

static void usage(FILE *out)
{
	fprintf(out,
		"usage: bm-profile [--json|--folded|--tsv] [--top N] [--model NAME] [-o FILE]\n"
		"                  CALLGRIND_FILE...\n"
		"       bm-profile --diff [--folded] [--top N] [--model NAME] BASE_FILE HEAD_FILE\n"
		"\n"
		"Reads callgrind output files and prints, for each dump, the events, the\n"
		"cycles of the cost model (%s), the estimated time and speed at %.1f GHz,\n"
		"the functions with the most self cycles and the system calls (which are\n"
		"never part of cycles, time or speed).\n"
		"\n"
		"  --model NAME   the cost model: bm-model/1, bm-model/2, bm-model/3 or\n"
		"                 bm-model/4, the one the files were counted for (bm-run\n"
		"                 --model); default\n"
		"                 bm-model/3 for files with its events (bm-run's default),\n"
		"                 else bm-model/1; or BM_MODEL\n"
		"  --json         print a bm-report/1 report, one benchmark per dump\n"
		"  --no-profile   with --json: leave out the per-function profiles\n"
		"  --folded       print folded stacks (\"main;f;g CYCLES\") for flame graphs\n"
		"  --tsv          print every function's self costs as tab-separated values\n"
		"  --top N        show the N functions with the most self cycles (default 20;\n"
		"                 0 shows all)\n"
		"  --diff         compare the dumps of BASE_FILE and HEAD_FILE by name: the\n"
		"                 change of cycles per function; with --folded, lines of\n"
		"                 \"STACK BASE HEAD\" for differential flame graphs\n"
		"  -o, --output FILE  write to FILE (complete or not at all) instead of stdout\n"
		"  -h, --help     show this help\n"
		"  --version      show the version\n"
		"\n"
		"Exit status: 0 on success, 2 when an input is unreadable or malformed.\n",
		model->id, model->frequency_hz / 1e9);
}

/* ---- loading ---- */

static int same_dump(const struct bm_profile *a, const struct bm_profile *b)
{
	return a->pid >= 0 && a->part >= 0 && a->pid == b->pid && a->part == b->part &&
	       a->thread != b->thread;
}

static int is_empty_termination(const struct bm_profile *p)
{
	return p->trigger && strcmp(p->trigger, "Program termination") == 0 && p->nfns == 0;
}

static void free_dumps(struct dumps *ds)
{
	for (size_t i = 0; i < ds->n; i++) {
		profile_free(ds->d[i].profile);
		free(ds->d[i].name);
	}
	free(ds->d);
	memset(ds, 0, sizeof *ds);
}

/* Adds a part: a new dump, or another thread of one already seen. */
static int add_part(struct dumps *ds, struct bm_profile *p, char **err)
{
	for (size_t i = 0; i < ds->n; i++) {
		if (!same_dump(ds->d[i].profile, p))
			continue;
		int r = profile_merge(ds->d[i].profile, p, model, err);
		profile_free(p);
		ds->d[i].threads++;
		return r;
	}
	xgrow(&ds->d, &ds->alloc, ds->n + 1, sizeof *ds->d);
	ds->d[ds->n++] = (struct dump){.profile = p, .threads = 1};
	return 0;
}

/* Names each dump after its trigger; repeated names get "#2", "#3", ... */
static void name_dumps(struct dumps *ds)
{
	for (size_t i = 0; i < ds->n; i++) {
		char *name = benchmark_name_of(ds->d[i].profile);
		int seen = 1;
		for (size_t j = 0; j < i; j++) {
			const char *other = ds->d[j].name;
			size_t len = strlen(name);
			if (strncmp(other, name, len) == 0 && (other[len] == '\0' || other[len] == '#'))
				seen++;
		}
		if (seen > 1) {
			char *n = xasprintf("%s#%d", name, seen);
			free(name);
			name = n;
		}
		ds->d[i].name = name;
	}
}

/* callgrind --separate-threads=yes leaves its main output file empty. */
static int is_empty_file(const char *path)
{
	struct stat st;
	return strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0;
}

/* Whether the callgrind file at path names event in its "events:" line
 * (standard input is not looked at: it can be read once). */
static int names_event(const char *path, const char *event)
{
	FILE *in = strcmp(path, "-") == 0 ? NULL : fopen(path, "r");
	if (!in)
		return 0;
	char line[4096];
	int found = 0;
	size_t n = strlen(event);
	while (fgets(line, sizeof line, in)) {
		if (strncmp(line, "events:", 7) != 0)
			continue;
		/* A word of the line: white space on both sides. */
		for (const char *w = line + 6; !found && (w = strstr(w + 1, event));)
			found = strchr(" \t", w[-1]) && strchr(" \t\n", w[n]);
		break;
	}
	fclose(in);
	return found;
}

/* Without --model or BM_MODEL, the model the files were counted for as
 * far as they tell: bm-model/3 (bm-run's default) where the first has its
 * core cycles (Cc), which bm-model/1's runs do not count.  bm-model/2's
 * files have them too, and need --model bm-model/2. */
static void default_model_of(char **files, int nfiles)
{
	if (model_given)
		return;
	for (int f = 0; f < nfiles; f++) {
		if (is_empty_file(files[f]))
			continue;
		if (names_event(files[f], "Cc"))
			model = &model_v3;
		return;
	}
}

static int load(char **files, int nfiles, struct dumps *ds)
{
	char *err = NULL;
	int loaded = 0;
	for (int f = 0; f < nfiles; f++) {
		struct bm_profile **parts;
		size_t n;
		if (is_empty_file(files[f])) {
			log_warn("'%s' is empty; skipped (callgrind leaves the main file empty with "
				 "--separate-threads=yes)",
				 files[f]);
			continue;
		}
		loaded++;
		if (profile_load(files[f], model, &parts, &n, &err) < 0)
			goto fail;
		int failed = 0;
		for (size_t i = 0; i < n; i++) {
			if (failed)
				profile_free(parts[i]);
			else if (add_part(ds, parts[i], &err) < 0)
				failed = 1;
		}
		free(parts);
		if (failed)
			goto fail;
	}
	if (!loaded) {
		err = xstrdup("no profile data: every file given is empty");
		goto fail;
	}
	/* An empty final dump says only that the program ended. */
	int any_work = 0;
	for (size_t i = 0; i < ds->n; i++)
		any_work |= !is_empty_termination(ds->d[i].profile);
	if (any_work) {
		size_t kept = 0;
		for (size_t i = 0; i < ds->n; i++) {
			if (is_empty_termination(ds->d[i].profile))
				profile_free(ds->d[i].profile);
			else
				ds->d[kept++] = ds->d[i];
		}
		ds->n = kept;
	}
	name_dumps(ds);
	return 0;
fail:
	log_error("%s", err);
	free(err);
	free_dumps(ds);
	return -1;
}

static void warn_about(const struct dumps *ds)
{
	int geometry = 0, caches = 0, counted = 0;
	for (size_t i = 0; i < ds->n; i++) {
		const struct dump *d = &ds->d[i];
		if (!geometry && !benchmark_geometry_matches(model, d->profile)) {
			geometry = 1;
			log_warn("'%s' was simulated with other caches than %s assumes (I1 %" PRIu64
				 ",%" PRIu64 ",%" PRIu64 " D1 %" PRIu64 ",%" PRIu64 ",%" PRIu64 " LL %" PRIu64
				 ",%" PRIu64 ",%" PRIu64 "); its cycles are not comparable with bm-run's",
				 d->profile->source, model->id, model->i1.size, model->i1.assoc,
				 model->i1.line, model->d1.size, model->d1.assoc, model->d1.line,
				 model->ll.size, model->ll.assoc, model->ll.line);
		}
		uint32_t missing = model_missing(model, &d->profile->total);
		if (!caches && missing & model_missing(&model_v1, &d->profile->total)) {
			caches = 1;
			log_warn("'%s' has no cache simulation: cycles count every access as an L1 hit "
				 "(run callgrind with --cache-sim=yes)",
				 d->profile->source);
		} else if (!caches && missing) {
			caches = 1;
			log_warn("'%s' lacks events %s counts (Cc, the L2's, the chained loads', the "
				 "mispredictions: bm-run --model %s counts them): its cycles leave them out",
				 d->profile->source, model->id, model->id);
		}
		if (!counted && model->version == 1 && (d->profile->total.present & (1u << BM_EV_CC))) {
			counted = 1;
			log_warn("'%s' was counted for bm-model/2, /3 or /4 (it has their events): these "
				 "cycles are %s's; give --model with the run's model",
				 d->profile->source, model->id);
		}
		if (d->threads > 1)
			log_warn("'%s' joins %d threads: multi-threaded counts vary slightly from run to run",
				 d->name, d->threads);
	}
}

/* ---- text ---- */

static int by_self_cycles(const void *a, const void *b, void *ctx)
{
	const struct bm_profile *p = ctx;
	const struct profile_fn *x = &p->fns[*(const uint32_t *)a], *y = &p->fns[*(const uint32_t *)b];
	if (x->self_cycles != y->self_cycles)
		return x->self_cycles < y->self_cycles ? 1 : -1;
	if (x->inclusive_cycles != y->inclusive_cycles)
		return x->inclusive_cycles < y->inclusive_cycles ? 1 : -1;
	return strcmp(profile_str(p, x->name), profile_str(p, y->name));
}

static uint64_t sum_of(const struct bm_profile *p, const uint64_t *cost, enum bm_event a,
		       enum bm_event b, enum bm_event c)
{
	int ca = profile_column(p, a), cb = profile_column(p, b), cc = profile_column(p, c);
	return (ca >= 0 ? cost[ca] : 0) + (cb >= 0 ? cost[cb] : 0) + (cc >= 0 ? cost[cc] : 0);
}

static void print_functions(FILE *out, const struct bm_profile *p, long top)
{
	uint32_t *order = xcalloc(p->nfns ? p->nfns : 1, sizeof *order);
	for (uint32_t i = 0; i < p->nfns; i++)
		order[i] = i;
	qsort_r(order, p->nfns, sizeof *order, by_self_cycles, (void *)p);
	size_t shown = top > 0 && (size_t)top < p->nfns ? (size_t)top : p->nfns;
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE], d[FMT_SIZE], e[FMT_SIZE], f[FMT_SIZE];
	fprintf(out, "\n  %15s %6s %15s %14s %10s %10s %10s  %s\n", "self cycles", "%", "incl. cycles",
		"Ir", "L1 misses", "LL misses", "calls", "function");
	for (size_t k = 0; k < shown; k++) {
		const struct profile_fn *fn = &p->fns[order[k]];
		const uint64_t *self = p->fn_self + (size_t)order[k] * p->nevents;
		int ir = profile_column(p, BM_EV_IR);
		double pct = p->cycles ? 100.0 * (double)fn->self_cycles / (double)p->cycles : 0;
		const char *file = path_basename(profile_str(p, fn->file));
		const char *obj = path_basename(profile_str(p, fn->object));
		fprintf(out, "  %15s %5.1f%% %15s %14s %10s %10s %10s  %s", fmt_count(a, fn->self_cycles),
			pct, fmt_count(b, fn->inclusive_cycles), fmt_count(c, ir >= 0 ? self[ir] : 0),
			fmt_count(d, sum_of(p, self, BM_EV_I1MR, BM_EV_D1MR, BM_EV_D1MW)),
			fmt_count(e, sum_of(p, self, BM_EV_ILMR, BM_EV_DLMR, BM_EV_DLMW)),
			fmt_count(f, fn->calls), profile_str(p, fn->name));
		if (*file)
			fprintf(out, " (%s)", file);
		if (*obj)
			fprintf(out, " [%s]", obj);
		fputc('\n', out);
	}
	if (shown < p->nfns)
		fprintf(out, "  ... %zu more function%s (--top 0 shows all)\n", p->nfns - shown,
			p->nfns - shown == 1 ? "" : "s");
	free(order);
}

/* A word on code without symbols, when 1% of the cycles or more are in it. */
static void print_unnamed(FILE *out, const struct bm_profile *p)
{
	struct unnamed_code u;
	unnamed_code_of(p, &u);
	if (u.share >= 0.01) {
		char *objects = unnamed_code_objects_text(&u);
		fprintf(out, "\n  %.1f%% of the cycles are in code without symbols (functions named by their address), in %s: "
			     "for names, " DEBUG_SYMBOLS_HINT "\n",
			100 * u.share, objects);
		free(objects);
	}
	unnamed_code_release(&u);
}

static void print_syscalls(FILE *out, const struct bm_syscalls *s)
{
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE];
	fprintf(out, "\n  system calls by function (not part of cycles, time or speed)\n");
	fprintf(out, "  %10s %12s %12s  %-24s %s\n", "count", "wall", "cpu", "function", "called from");
	for (size_t i = 0; i < s->nby_function; i++) {
		const struct bm_syscall_function *f = &s->by_function[i];
		fprintf(out, "  %10s %12s %12s  %-24s", fmt_count(a, f->count), fmt_ns(b, f->wall_ns),
			fmt_ns(c, f->cpu_ns), f->function);
		for (size_t k = 0; k < f->ncallers && k < 5; k++)
			fprintf(out, "%s%s (%s)", k ? ", " : " ", f->callers[k].function,
				fmt_count(a, f->callers[k].calls));
		if (f->ncallers > 5)
			fprintf(out, ", ... %zu more", f->ncallers - 5);
		fputc('\n', out);
	}
}

static void print_dump(FILE *out, const struct dump *d, long top)
{
	const struct bm_profile *p = d->profile;
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE];
	fprintf(out, "== %s\n", d->name);
	fprintf(out, "  source     %s", p->source);
	if (p->part >= 0)
		fprintf(out, ", part %ld", p->part);
	if (d->threads > 1)
		fprintf(out, ", %d threads", d->threads);
	else if (p->thread >= 0)
		fprintf(out, ", thread %ld", p->thread);
	if (p->trigger)
		fprintf(out, " (%s)", p->trigger);
	fputc('\n', out);
	if (p->cmd)
		fprintf(out, "  command    %s\n", p->cmd);
	fprintf(out, "  events    ");
	for (size_t i = 0; i < p->nevents; i++)
		fprintf(out, " %s %s", p->events[i], fmt_count(a, p->totals[i]));
	fputc('\n', out);
	fprintf(out, "  cycles     %s   time %s   speed %s   (%s at %.1f GHz)\n", fmt_count(a, p->cycles),
		fmt_seconds(b, model_time_s(model, p->cycles)), fmt_rate(c, model_speed(model, p->cycles)),
		model->id, model->frequency_hz / 1e9);

	struct bm_syscalls s;
	syscalls_from_profile(p, &s);
	if (profile_column(p, BM_EV_SYSCOUNT) >= 0)
		fprintf(out, "  syscalls   %s calls, %s wall, %s cpu (not part of speed)\n",
			fmt_count(a, s.count), fmt_ns(b, s.wall_ns), fmt_ns(c, s.cpu_ns));
	print_functions(out, p, top);
	print_unnamed(out, p);
	if (s.nby_function)
		print_syscalls(out, &s);
	syscalls_release(&s);
}

/* ---- machine-readable ---- */

static void print_tsv(FILE *out, const struct dumps *ds)
{
	fprintf(out, "benchmark\tfunction\tfile\tobject\tcalls\tself_cycles\tinclusive_cycles");
	for (int e = 0; e < BM_EV_COUNT; e++)
		fprintf(out, "\t%s", events_name(e));
	fputc('\n', out);
	for (size_t i = 0; i < ds->n; i++) {
		const struct bm_profile *p = ds->d[i].profile;
		for (size_t f = 0; f < p->nfns; f++) {
			const struct profile_fn *fn = &p->fns[f];
			struct bm_events ev;
			profile_events(p, p->fn_self + f * p->nevents, &ev);
			fprintf(out, "%s\t%s\t%s\t%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64, ds->d[i].name,
				profile_str(p, fn->name), profile_str(p, fn->file),
				profile_str(p, fn->object), fn->calls, fn->self_cycles,
				fn->inclusive_cycles);
			for (int e = 0; e < BM_EV_COUNT; e++) {
				if (events_has(&ev, e))
					fprintf(out, "\t%" PRIu64, ev.v[e]);
				else
					fputs("\t", out);
			}
			fputc('\n', out);
		}
	}
}

static void print_folded(FILE *out, const struct dumps *ds)
{
	for (size_t i = 0; i < ds->n; i++) {
		struct folded *f = folded_build(ds->d[i].profile);
		for (size_t k = 0; k < folded_count(f); k++) {
			if (ds->n > 1)
				fprintf(out, "%s;", ds->d[i].name);
			fprintf(out, "%s %" PRIu64 "\n", folded_stack(f, k), folded_cycles(f, k));
		}
		folded_free(f);
	}
}

static const char *valgrind_version(const struct bm_profile *p)
{
	static const char prefix[] = "callgrind-";
	if (p->creator && strncmp(p->creator, prefix, sizeof prefix - 1) == 0)
		return p->creator + sizeof prefix - 1;
	return NULL;
}

static int write_json(const struct dumps *ds, const struct options *o, char **err)
{
	struct bm_report r;
	report_init(&r);
	r.tool_name = xstrdup("bm-profile");
	r.tool_version = xstrdup(PACKAGE_VERSION);
	const struct bm_profile *first = ds->n ? ds->d[0].profile : NULL;
	if (first && valgrind_version(first))
		r.valgrind = xstrdup(valgrind_version(first));
	benchmark_fill_model(&r.model, model, first);
	for (size_t i = 0; i < ds->n; i++) {
		struct bm_result *b = report_add_benchmark(&r);
		benchmark_set_id(b, ds->d[i].name);
		benchmark_fill(b, ds->d[i].profile, model, o->with_profile);
	}
	int ret = report_write_file(&r, o->output ? o->output : "-", err);
	report_release(&r);
	return ret;
}

/* ---- diff ---- */

static void print_diff_table(FILE *out, const char *name, const struct profile_diff *d, long top)
{
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE];
	int64_t total = (int64_t)(d->head_cycles - d->base_cycles);
	fprintf(out, "== %s\n  cycles     %s -> %s (%+.2f%%)\n", name, fmt_count(a, d->base_cycles),
		fmt_count(b, d->head_cycles),
		d->base_cycles ? 100.0 * (double)total / (double)d->base_cycles : 0.0);
	fprintf(out, "\n  %15s %15s %15s  %s\n", "base self", "head self", "change", "function");
	size_t shown = 0;
	for (size_t i = 0; i < d->nrows; i++) {
		const struct profile_diff_row *r = &d->rows[i];
		if (r->base_self == r->head_self || (top > 0 && shown == (size_t)top))
			continue;
		int64_t delta = (int64_t)(r->head_self - r->base_self);
		fprintf(out, "  %15s %15s %+15" PRId64 "  %s%s\n", fmt_count(a, r->base_self),
			fmt_count(c, r->head_self), delta, r->name,
			!r->in_base ? " (new)" : !r->in_head ? " (gone)" : "");
		shown++;
	}
	if (!shown)
		fprintf(out, "  no function changed\n");
}

static void print_diff_folded(FILE *out, const char *prefix, const struct bm_profile *base,
			      const struct bm_profile *head)
{
	struct folded *fb = folded_build(base), *fh = folded_build(head);
	uint64_t v;
	for (size_t k = 0; k < folded_count(fb); k++) {
		const char *s = folded_stack(fb, k);
		fprintf(out, "%s%s %" PRIu64 " %" PRIu64 "\n", prefix, s, folded_cycles(fb, k),
			folded_find(fh, s, &v) ? v : 0);
	}
	for (size_t k = 0; k < folded_count(fh); k++) {
		const char *s = folded_stack(fh, k);
		if (!folded_find(fb, s, &v))
			fprintf(out, "%s%s 0 %" PRIu64 "\n", prefix, s, folded_cycles(fh, k));
	}
	folded_free(fb);
	folded_free(fh);
}

static int print_diff(FILE *out, const struct dumps *base, const struct dumps *head,
		      const struct options *o)
{
	int matched = 0;
	for (size_t i = 0; i < head->n; i++) {
		const struct dump *h = &head->d[i], *b = NULL;
		for (size_t k = 0; k < base->n && !b; k++)
			if (strcmp(base->d[k].name, h->name) == 0 || (base->n == 1 && head->n == 1))
				b = &base->d[k];
		if (!b) {
			log_warn("'%s' is only in the head; nothing to compare it with", h->name);
			continue;
		}
		matched++;
		if (o->mode == MODE_FOLDED) {
			char *prefix = head->n > 1 ? xasprintf("%s;", h->name) : xstrdup("");
			print_diff_folded(out, prefix, b->profile, h->profile);
			free(prefix);
		} else {
			struct profile_diff d;
			profile_diff(b->profile, h->profile, &d);
			print_diff_table(out, h->name, &d, o->top);
			profile_diff_release(&d);
		}
	}
	if (!matched) {
		log_error("no dump of the head has a namesake in the base");
		return -1;
	}
	return 0;
}

/* ---- main ---- */

static int set_model(const char *name, const char *what)
{
	char *err = NULL;
	const struct bm_model *m = model_named(name, what, &err);
	if (!m) {
		log_error("%s", err);
		free(err);
		return -1;
	}
	model = m;
	model_given = 1;
	return 0;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	enum { OPT_JSON = 256, OPT_FOLDED, OPT_TSV, OPT_TOP, OPT_DIFF, OPT_NO_PROFILE, OPT_VERSION, OPT_MODEL };
	static const struct option longopts[] = {
		{"json", no_argument, NULL, OPT_JSON},
		{"folded", no_argument, NULL, OPT_FOLDED},
		{"tsv", no_argument, NULL, OPT_TSV},
		{"top", required_argument, NULL, OPT_TOP},
		{"diff", no_argument, NULL, OPT_DIFF},
		{"no-profile", no_argument, NULL, OPT_NO_PROFILE},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, OPT_VERSION},
		{"model", required_argument, NULL, OPT_MODEL},
		{NULL, 0, NULL, 0},
	};
	*o = (struct options){.mode = MODE_TEXT, .top = 20, .with_profile = 1};
	int c, modes = 0;
	long long top;
	char *err = NULL;
	const char *env = getenv("BM_MODEL");
	if (env && *env && set_model(env, "BM_MODEL") < 0)
		return -1;
	while ((c = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_MODEL:
			if (set_model(optarg, "--model") < 0)
				return -1;
			break;
		case OPT_JSON:
			o->mode = MODE_JSON;
			modes++;
			break;
		case OPT_FOLDED:
			o->mode = MODE_FOLDED;
			modes++;
			break;
		case OPT_TSV:
			o->mode = MODE_TSV;
			modes++;
			break;
		case OPT_TOP:
			if (number_option("--top", "a number of functions", optarg, 0, LONG_MAX, &top, &err))
				return log_refusal(err);
			o->top = (long)top;
			break;
		case OPT_DIFF:
			o->diff = 1;
			break;
		case OPT_NO_PROFILE:
			o->with_profile = 0;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case OPT_VERSION:
			printf("bm-profile %s (%s)\n", PACKAGE_VERSION, model->id);
			exit(0);
		default:
			fprintf(stderr, "Try 'bm-profile --help'.\n");
			return -1;
		}
	}
	if (modes > 1) {
		log_error("--json, --folded and --tsv exclude each other");
		return -1;
	}
	if (o->diff && (o->mode == MODE_JSON || o->mode == MODE_TSV)) {
		log_error("--diff prints a table or, with --folded, folded stacks; not --json or --tsv");
		return -1;
	}
	int files = argc - optind;
	if (o->diff ? files != 2 : files < 1) {
		log_error(o->diff ? "--diff needs two files: BASE HEAD" : "no callgrind file given");
		fprintf(stderr, "Try 'bm-profile --help'.\n");
		return -1;
	}
	return 0;
}

static int run(const struct options *o, char **files, int nfiles)
{
	struct dumps ds = {0}, base = {0};
	char *err = NULL;
	default_model_of(files, nfiles);
	if (o->diff) {
		if (load(files, 1, &base) < 0)
			return 2;
		files++;
		nfiles--;
	}
	if (load(files, nfiles, &ds) < 0) {
		free_dumps(&base);
		return 2;
	}
	warn_about(&base);
	warn_about(&ds);
	int status = 0;
	if (o->mode == MODE_JSON) {
		if (write_json(&ds, o, &err) < 0)
			status = 2;
		goto out;
	}
	struct atomic_file *af = atomic_file_open(o->output ? o->output : "-", &err);
	if (!af) {
		status = 2;
		goto out;
	}
	FILE *out = atomic_file_stream(af);
	if (o->diff) {
		if (print_diff(out, &base, &ds, o) < 0)
			status = 2;
	} else if (o->mode == MODE_FOLDED) {
		print_folded(out, &ds);
	} else if (o->mode == MODE_TSV) {
		print_tsv(out, &ds);
	} else {
		for (size_t i = 0; i < ds.n; i++) {
			if (i)
				fputc('\n', out);
			print_dump(out, &ds.d[i], o->top);
		}
	}
	if (status)
		atomic_file_abort(af);
	else if (atomic_file_commit(af, &err) < 0)
		status = 2;
out:
	if (err)
		log_error("%s", err);
	free(err);
	free_dumps(&ds);
	free_dumps(&base);
	return status;
}

int main(int argc, char **argv)
{
	struct options o;
	log_take_progname(argv);
	if (parse_options(argc, argv, &o) < 0)
		return 2;
	return run(&o, argv + optind, argc - optind);
}
