/* SPDX-License-Identifier: MIT */
/* The callgrind format reader; the contract is in callgrind.h.
 *
 * The parser is a line-at-a-time state machine.  A file holds one or more
 * parts; each part is a header (key: value lines) and a body (name lines
 * "key=value", cost lines starting with a subposition, calls=/jump=/jcnd=
 * lines and a final totals: line).  A header key met in a body starts the
 * next part.  Name tables live for the whole file, as the format says. */
#include "config.h"

#include "callgrind.h"

#include "error.h"
#include "idmap.h"
#include "strpool.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define READ_CHUNK (1u << 20)
#define MAX_POSITIONS 3

enum pending { PENDING_NONE, PENDING_CALL, PENDING_JUMP };

struct cg_parser {
	const char *path;
	const struct cg_sink *sink;
	void *ctx;
	unsigned long lineno;
	struct strpool *names[CG_NAME_KINDS];
	struct idmap *ids[CG_NAME_KINDS];

	char *creator;
	int by_callgrind; /* the creator is callgrind: it always writes totals: */
	int in_body;      /* the current part's body has begun (part_begin called) */
	int have_header;  /* a header line of the current part has been read */

	/* The current part's header. */
	struct cg_part part;
	char *cmd, *trigger, *nondeterministic, *cpu_askers;
	char *events[CG_MAX_EVENTS];
	unsigned npos;
	int line_pos; /* index of the line subposition, -1 when none */
	int have_totals;
	uint64_t totals[CG_MAX_EVENTS], sums[CG_MAX_EVENTS];

	/* Body state. */
	uint64_t pos[MAX_POSITIONS];
	uint32_t object, file;
	struct cg_func fn;
	int have_fn;
	uint32_t call_object, call_file, call_name;
	enum pending pending;
	uint64_t call_count;
	struct cg_func callee;
	uint64_t costs[CG_MAX_EVENTS];
};

static void reset_part(struct cg_parser *p)
{
	free(p->cmd);
	free(p->trigger);
	free(p->nondeterministic);
	free(p->cpu_askers);
	for (size_t i = 0; i < p->part.nevents; i++)
		free(p->events[i]);
	p->cmd = p->trigger = p->nondeterministic = p->cpu_askers = NULL;
	memset(&p->part, 0, sizeof p->part);
	p->part.parser = p;
	p->part.path = p->path;
	p->part.creator = p->creator;
	p->part.pid = p->part.part = p->part.thread = -1;
	p->part.events = (const char *const *)p->events;
	p->part.systime_ns = 1000000; /* callgrind < 3.15 wrote milliseconds */
	p->part.positions = CG_POS_LINE;
	p->npos = 1;
	p->line_pos = 0;
	p->have_totals = 0;
	p->in_body = 0;
	p->have_header = 0;
	memset(p->sums, 0, sizeof p->sums);
	memset(p->pos, 0, sizeof p->pos);
	p->object = p->file = CG_NO_NAME;
	p->have_fn = 0;
	p->call_object = p->call_file = p->call_name = CG_NO_NAME;
	p->pending = PENDING_NONE;
}

static struct cg_parser *parser_new(const char *path, const struct cg_sink *sink, void *ctx)
{
	struct cg_parser *p = xcalloc(1, sizeof *p);
	p->path = path;
	p->sink = sink;
	p->ctx = ctx;
	for (int k = 0; k < CG_NAME_KINDS; k++) {
		p->names[k] = strpool_new();
		p->ids[k] = idmap_new();
	}
	reset_part(p);
	return p;
}

static void parser_free(struct cg_parser *p)
{
	if (!p)
		return;
	for (int k = 0; k < CG_NAME_KINDS; k++) {
		strpool_free(p->names[k]);
		idmap_free(p->ids[k]);
	}
	reset_part(p); /* frees the part's strings */
	free(p->creator);
	free(p);
}

const char *cg_parser_name(const struct cg_parser *p, enum cg_name_kind kind, uint32_t idx)
{
	if (idx == CG_NO_NAME || (unsigned)kind >= CG_NAME_KINDS)
		return "";
	const char *s = strpool_get(p->names[kind], idx);
	return s ? s : "";
}

/* ---- lexing helpers: s always points into a NUL-terminated line ---- */

static inline int is_space(char c)
{
	return c == ' ' || c == '\t';
}

static inline const char *skip_space(const char *s)
{
	while (is_space(*s))
		s++;
	return s;
}

static inline int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int hex_value(char c)
{
	if (is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Reads a decimal or 0x-hex number at *s.  Returns 0 and advances *s, or
 * -1 (no digits) or -2 (more than 64 bits). */
static int lex_number(const char **s, uint64_t *out)
{
	const char *c = *s;
	uint64_t v = 0;
	if (c[0] == '0' && (c[1] == 'x' || c[1] == 'X')) {
		const char *d = c + 2;
		int h;
		while ((h = hex_value(*d)) >= 0) {
			if (v >> 60)
				return -2;
			v = v << 4 | (uint64_t)h;
			d++;
		}
		if (d == c + 2)
			return -1;
		*out = v;
		*s = d;
	} else {
		if (!is_digit(*c))
			return -1;
		while (is_digit(*c)) {
			if (__builtin_mul_overflow(v, 10, &v) ||
			    __builtin_add_overflow(v, (uint64_t)(*c - '0'), &v))
				return -2;
			c++;
		}
		*out = v;
		*s = c;
	}
	return 0;
}

/* A quoted copy of the token at s for messages, cut at 40 bytes. */
static char *token_for_message(const char *s)
{
	size_t n = 0;
	while (s[n] && !is_space(s[n]) && n < 40)
		n++;
	return xstrndup(s, n);
}

static int bad_number(char **err, const char *what, const char *s, int code)
{
	char *tok = token_for_message(s);
	int r;
	if (code == -2)
		r = bm_error(err, "%s '%s' does not fit in 64 bits", what, tok);
	else if (!*tok)
		r = bm_error(err, "missing %s", what);
	else
		r = bm_error(err, "bad %s '%s'", what, tok);
	free(tok);
	return r;
}

/* Reads one number that must end the token. */
static int lex_field(const char **s, uint64_t *out, const char *what, char **err)
{
	const char *start = *s;
	int r = lex_number(s, out);
	if (r == 0 && **s && !is_space(**s))
		r = -1;
	if (r < 0)
		return bad_number(err, what, start, r);
	return 0;
}

/* Reads the costs that follow the subpositions into p->costs; *ncosts is
 * how many columns were given. */
static int lex_costs(struct cg_parser *p, const char *s, size_t *ncosts, char **err)
{
	size_t n = 0, max = p->part.nevents;
	for (;;) {
		s = skip_space(s);
		if (!*s)
			break;
		if (n == max)
			return bm_error(err, "too many cost columns: the 'events:' line names %zu event%s",
					max, max == 1 ? "" : "s");
		if (lex_field(&s, &p->costs[n], "cost", err) < 0)
			return -1;
		n++;
	}
	memset(p->costs + n, 0, (max - n) * sizeof p->costs[0]);
	*ncosts = n;
	return 0;
}

/* Reads npos subpositions at *s relative to p->pos into pos. */
static int lex_positions(struct cg_parser *p, const char **s, uint64_t *pos, char **err)
{
	const char *c = *s;
	for (unsigned i = 0; i < p->npos; i++) {
		c = skip_space(c);
		uint64_t v;
		if (*c == '*') {
			pos[i] = p->pos[i];
			c++;
			if (*c && !is_space(*c))
				return bad_number(err, "position", c - 1, -1);
			continue;
		}
		char sign = (*c == '+' || *c == '-') ? *c++ : 0;
		if (lex_field(&c, &v, "position", err) < 0)
			return -1;
		if (sign == '+') {
			if (__builtin_add_overflow(p->pos[i], v, &pos[i]))
				return bm_error(err, "relative position +%llu overflows",
						(unsigned long long)v);
		} else if (sign == '-') {
			if (v > p->pos[i])
				return bm_error(err, "relative position -%llu goes below zero",
						(unsigned long long)v);
			pos[i] = p->pos[i] - v;
		} else {
			pos[i] = v;
		}
	}
	*s = c;
	return 0;
}

/* ---- names ---- */

/* Resolves the value of a name line: "(id) name" defines id, "(id)" refers
 * to it, anything else is the name itself. */
static int resolve_name(struct cg_parser *p, enum cg_name_kind kind, const char *v, uint32_t *idx,
			char **err)
{
	static const char *const kind_word[] = {"object", "file", "function"};
	if (v[0] == '(' && is_digit(v[1])) {
		const char *c = v + 1;
		uint64_t id;
		int r = lex_number(&c, &id);
		if (r < 0 || *c != ')')
			return bm_error(err, "bad compressed %s name '%s'", kind_word[kind], v);
		c = skip_space(c + 1);
		uint32_t known;
		int defined = idmap_lookup(p->ids[kind], id, 0, &known);
		if (!*c) {
			if (!defined)
				return bm_error(err, "%s name id (%llu) is used before it is defined",
						kind_word[kind], (unsigned long long)id);
			*idx = known;
			return 0;
		}
		*idx = strpool_intern(p->names[kind], c, strlen(c));
		if (!defined)
			idmap_insert(p->ids[kind], id, 0, *idx);
		else if (known != *idx)
			return bm_error(err, "%s name id (%llu) is defined twice, as '%s' and '%s'",
					kind_word[kind], (unsigned long long)id,
					strpool_get(p->names[kind], known), c);
		return 0;
	}
	if (!*v)
		return bm_error(err, "empty %s name", kind_word[kind]);
	*idx = strpool_intern(p->names[kind], v, strlen(v));
	return 0;
}

/* ---- parts ---- */

static int begin_body(struct cg_parser *p, char **err)
{
	if (p->in_body)
		return 0;
	if (!p->part.nevents)
		return bm_error(err, "no 'events:' line before the profile data (is this a callgrind file?)");
	p->in_body = 1;
	p->part.cmd = p->cmd;
	p->part.trigger = p->trigger;
	p->part.nondeterministic = p->nondeterministic;
	p->part.cpu_askers = p->cpu_askers;
	return p->sink->part_begin ? p->sink->part_begin(p->ctx, &p->part, err) : 0;
}

static int end_part(struct cg_parser *p, char **err)
{
	if (p->pending != PENDING_NONE)
		return bm_error(err, "the last '%s' line has no position line (truncated file?)",
				p->pending == PENDING_CALL ? "calls=" : "jump=");
	if (!p->in_body) {
		if (!p->have_header)
			return 0;
		if (begin_body(p, err) < 0)
			return -1;
	}
	if (p->have_totals) {
		for (size_t i = 0; i < p->part.nevents; i++)
			if (p->totals[i] != p->sums[i])
				return bm_error(err,
						"the 'totals:' line gives %s %llu but the cost lines sum to %llu "
						"(truncated or edited file?)",
						p->events[i], (unsigned long long)p->totals[i],
						(unsigned long long)p->sums[i]);
	} else if (p->by_callgrind) {
		return bm_error(err, "no 'totals:' line at the end of the part: callgrind always writes "
				     "one, so the file is truncated");
	}
	int r = p->sink->part_end ? p->sink->part_end(p->ctx, &p->part, p->sums, err) : 0;
	reset_part(p);
	return r;
}

/* ---- header lines ---- */

static int parse_long(const char *v, long *out, const char *key, char **err)
{
	uint64_t n;
	const char *c = v;
	if (lex_number(&c, &n) < 0 || *skip_space(c) || n > (uint64_t)LONG_MAX)
		return bm_error(err, "bad '%s:' value '%s'", key, v);
	*out = (long)n;
	return 0;
}

static int parse_positions(struct cg_parser *p, const char *v, char **err)
{
	static const struct {
		const char *word;
		unsigned bit;
	} kinds[] = {{"instr", CG_POS_INSTR}, {"bb", CG_POS_BB}, {"line", CG_POS_LINE}};
	unsigned bits = 0, n = 0, k = 0;
	int line_pos = -1;
	const char *c = skip_space(v);
	while (*c) {
		size_t len = 0;
		while (c[len] && !is_space(c[len]))
			len++;
		while (k < 3 && !(strlen(kinds[k].word) == len && memcmp(kinds[k].word, c, len) == 0))
			k++;
		if (k == 3)
			return bm_error(err, "bad 'positions:' line '%s': expected 'instr', 'bb' and 'line' "
					     "in this order", v);
		bits |= kinds[k].bit;
		if (kinds[k].bit == CG_POS_LINE)
			line_pos = (int)n;
		n++;
		k++;
		c = skip_space(c + len);
	}
	if (!n)
		return bm_error(err, "empty 'positions:' line");
	p->part.positions = bits;
	p->npos = n;
	p->line_pos = line_pos;
	return 0;
}

static int parse_events(struct cg_parser *p, const char *v, char **err)
{
	if (p->part.nevents)
		return bm_error(err, "a second 'events:' line in one part");
	const char *c = skip_space(v);
	size_t n = 0;
	while (*c) {
		size_t len = 0;
		while (c[len] && !is_space(c[len]))
			len++;
		if (n == CG_MAX_EVENTS)
			return bm_error(err, "more than %d events on the 'events:' line", CG_MAX_EVENTS);
		for (size_t i = 0; i < n; i++)
			if (strlen(p->events[i]) == len && memcmp(p->events[i], c, len) == 0)
				return bm_error(err, "event '%.*s' is named twice on the 'events:' line",
						(int)len, c);
		p->events[n++] = xstrndup(c, len);
		p->part.nevents = n;
		c = skip_space(c + len);
	}
	if (!n)
		return bm_error(err, "empty 'events:' line");
	return 0;
}

/* "event: sysTime : sysTime (elapsed us)" gives the unit of sysTime. */
static void parse_event_definition(struct cg_parser *p, const char *v)
{
	static const struct {
		const char *suffix;
		uint64_t ns;
	} units[] = {{"(elapsed ns)", 1}, {"(elapsed us)", 1000}, {"(elapsed ms)", 1000000}};
	const char *c = skip_space(v);
	if (strncmp(c, "sysTime", 7) != 0 || (c[7] && !is_space(c[7]) && c[7] != ':'))
		return;
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strstr(c, units[i].suffix))
			p->part.systime_ns = units[i].ns;
}

/* Reads "N B, " at *s (N at most 2^40, a sane bound for caches and lines). */
static int lex_bytes(const char **s, uint64_t *out)
{
	if (lex_number(s, out) < 0 || *out > (1ull << 40) || strncmp(*s, " B, ", 4) != 0)
		return -1;
	*s += 4;
	return 0;
}

/* "I1 cache: 32768 B, 64 B, 8-way associative" (or "direct-mapped", or
 * "fully associative").  A description bm cannot read is ignored, as the
 * format asks of unknown descriptions: the geometry is then unknown. */
static void parse_cache(struct bm_cache_geometry *cache, const char *v)
{
	uint64_t size, line, assoc;
	if (lex_bytes(&v, &size) < 0 || lex_bytes(&v, &line) < 0)
		return;
	if (strncmp(v, "direct-mapped", 13) == 0)
		assoc = 1;
	else if (strncmp(v, "fully associative", 17) == 0)
		assoc = 0;
	else if (lex_number(&v, &assoc) < 0 || assoc > (1ull << 20) || strncmp(v, "-way", 4) != 0)
		return;
	*cache = (struct bm_cache_geometry){.size = size, .line = line, .assoc = assoc};
}

static void parse_desc(struct cg_parser *p, const char *v)
{
	static const char *const caches[] = {"I1 cache:", "D1 cache:", "LL cache:"};
	struct bm_cache_geometry *dst[] = {&p->part.i1, &p->part.d1, &p->part.ll};
	v = skip_space(v);
	for (int i = 0; i < 3; i++)
		if (strncmp(v, caches[i], strlen(caches[i])) == 0)
			parse_cache(dst[i], skip_space(v + strlen(caches[i])));
	/* The bm engine's heap (engine/heap.h); a line that does not read so
	 * is ignored, as unknown desc lines are. */
	uint64_t a, b;
	const char *s;
	if (strncmp(v, "Heap peak:", 10) == 0 && (s = skip_space(v + 10), lex_number(&s, &a) == 0) &&
	    strcmp(s, " bytes") == 0) {
		p->part.heap_peak_bytes = a;
		p->part.heap_known = 1;
	}
	if (strncmp(v, "Heap leaked:", 12) == 0 && (s = skip_space(v + 12), lex_number(&s, &a) == 0) &&
	    strncmp(s, " bytes in ", 10) == 0 && (s += 10, lex_number(&s, &b) == 0) && strcmp(s, " blocks") == 0) {
		p->part.heap_leaked_bytes = a;
		p->part.heap_leaked_blocks = b;
		p->part.heap_known = 1;
	}
	if (strncmp(v, "Heap freed:", 11) == 0 && (s = skip_space(v + 11), lex_number(&s, &a) == 0) &&
	    strncmp(s, " bytes in ", 10) == 0 && (s += 10, lex_number(&s, &b) == 0) && strcmp(s, " blocks") == 0) {
		p->part.heap_freed_bytes = a;
		p->part.heap_freed_blocks = b;
		p->part.heap_known = 1;
	}
	if (strncmp(v, "Heap system:", 12) == 0 && (s = skip_space(v + 12), lex_number(&s, &a) == 0) &&
	    strcmp(s, " bytes") == 0) {
		p->part.heap_system_bytes = a;
		p->part.heap_system_known = 1;
	}
	if (strncmp(v, "Trigger:", 8) == 0) {
		free(p->trigger);
		p->trigger = xstrdup(skip_space(v + 8));
	}
	if (strncmp(v, "Nondeterministic:", 17) == 0) {
		free(p->nondeterministic);
		p->nondeterministic = xstrdup(skip_space(v + 17));
	}
	if (strncmp(v, "Cpuid:", 6) == 0) {
		free(p->cpu_askers);
		p->cpu_askers = xstrdup(skip_space(v + 6));
	}
}

/* totals: and summary: give one cost per event, like a cost line with no
 * positions. */
static int parse_cost_header(struct cg_parser *p, const char *key, const char *v, char **err)
{
	size_t n;
	if (!p->part.nevents)
		return bm_error(err, "'%s:' line before the 'events:' line", key);
	if (lex_costs(p, v, &n, err) < 0)
		return -1;
	if (strcmp(key, "totals") == 0) {
		if (begin_body(p, err) < 0)
			return -1;
		memcpy(p->totals, p->costs, p->part.nevents * sizeof p->costs[0]);
		p->have_totals = 1;
	}
	return 0;
}

static int header_line(struct cg_parser *p, const char *key, size_t keylen, const char *v,
		       char **err)
{
#define KEY(k) (keylen == sizeof(k) - 1 && memcmp(key, k, keylen) == 0)
	if (KEY("totals") || KEY("summary"))
		return parse_cost_header(p, KEY("totals") ? "totals" : "summary", v, err);

	int known = KEY("version") || KEY("creator") || KEY("pid") || KEY("cmd") || KEY("part") ||
		    KEY("thread") || KEY("desc") || KEY("positions") || KEY("event") ||
		    KEY("events");
	if (p->in_body) {
		if (!known)
			return bm_error(err, "unknown line '%.*s:' in the profile data", (int)keylen, key);
		if (end_part(p, err) < 0)
			return -1;
	}
	if (!p->have_header)
		p->part.line = p->lineno;
	p->have_header = 1;

	if (KEY("version")) {
		long ver;
		if (parse_long(v, &ver, "version", err) < 0)
			return -1;
		if (ver > 1)
			return bm_error(err, "callgrind format version %ld is not supported (only 1)", ver);
	} else if (KEY("creator")) {
		free(p->creator);
		p->creator = xstrdup(v);
		p->part.creator = p->creator;
		p->by_callgrind = strncmp(v, "callgrind", 9) == 0;
	} else if (KEY("pid")) {
		return parse_long(v, &p->part.pid, "pid", err);
	} else if (KEY("part")) {
		return parse_long(v, &p->part.part, "part", err);
	} else if (KEY("thread")) {
		return parse_long(v, &p->part.thread, "thread", err);
	} else if (KEY("cmd")) {
		free(p->cmd);
		p->cmd = xstrdup(skip_space(v));
	} else if (KEY("desc")) {
		parse_desc(p, v);
	} else if (KEY("positions")) {
		return parse_positions(p, v, err);
	} else if (KEY("events")) {
		return parse_events(p, v, err);
	} else if (KEY("event")) {
		parse_event_definition(p, v);
	}
	/* Other keys are ignored, as the format asks of readers. */
	return 0;
#undef KEY
}

/* ---- body lines ---- */

static int cost_line(struct cg_parser *p, const char *s, char **err)
{
	uint64_t pos[MAX_POSITIONS];
	size_t ncosts;
	if (begin_body(p, err) < 0)
		return -1;
	if (lex_positions(p, &s, pos, err) < 0 || lex_costs(p, s, &ncosts, err) < 0)
		return -1;
	memcpy(p->pos, pos, p->npos * sizeof pos[0]);

	enum pending pending = p->pending;
	p->pending = PENDING_NONE;
	if (pending == PENDING_JUMP)
		return 0; /* the source position of a jump: no cost of its own */
	if (!p->have_fn) {
		if (!ncosts)
			return 0;
		return bm_error(err, "cost line before any 'fn=' line");
	}
	struct cg_site at = {
		.fn = p->fn,
		.file = p->file,
		.line = p->line_pos >= 0 ? pos[p->line_pos] : 0,
	};
	if (pending == PENDING_CALL) {
		p->call_object = p->call_file = p->call_name = CG_NO_NAME;
		return p->sink->call ? p->sink->call(p->ctx, &at, &p->callee, p->call_count, p->costs, err)
				     : 0;
	}
	if (!ncosts)
		return 0;
	for (size_t i = 0; i < ncosts; i++)
		if (__builtin_add_overflow(p->sums[i], p->costs[i], &p->sums[i]))
			return bm_error(err, "the sum of %s costs does not fit in 64 bits", p->events[i]);
	return p->sink->cost ? p->sink->cost(p->ctx, &at, p->costs, err) : 0;
}

static int calls_line(struct cg_parser *p, const char *v, char **err)
{
	uint64_t target[MAX_POSITIONS];
	const char *c = skip_space(v);
	if (!p->have_fn)
		return bm_error(err, "'calls=' line before any 'fn=' line");
	if (p->call_name == CG_NO_NAME)
		return bm_error(err, "'calls=' line without a 'cfn=' line naming the called function");
	if (lex_field(&c, &p->call_count, "call count", err) < 0 ||
	    lex_positions(p, &c, target, err) < 0)
		return -1;
	if (*skip_space(c))
		return bm_error(err, "unexpected text after the call's target position");
	p->callee.object = p->call_object != CG_NO_NAME ? p->call_object : p->object;
	p->callee.file = p->call_file != CG_NO_NAME ? p->call_file : p->file;
	p->callee.name = p->call_name;
	p->pending = PENDING_CALL;
	return 0;
}

/* jump=COUNT TARGET and jcnd=EXECUTED/JUMPED TARGET (also "EXECUTED JUMPED"):
 * checked and skipped, like the position line that follows them. */
static int jump_line(struct cg_parser *p, const char *v, int conditional, char **err)
{
	uint64_t n, target[MAX_POSITIONS];
	const char *c = skip_space(v);
	if (lex_number(&c, &n) < 0)
		return bad_number(err, "jump count", c, -1);
	if (conditional) {
		if (*c == '/')
			c++;
		else
			c = skip_space(c);
		if (lex_field(&c, &n, "jump count", err) < 0)
			return -1;
	} else if (*c && !is_space(*c)) {
		return bad_number(err, "jump count", v, -1);
	}
	if (lex_positions(p, &c, target, err) < 0)
		return -1;
	p->pending = PENDING_JUMP;
	return 0;
}

static int name_line(struct cg_parser *p, const char *key, size_t keylen, const char *v,
		     char **err)
{
#define KEY(k) (keylen == sizeof(k) - 1 && memcmp(key, k, keylen) == 0)
	uint32_t idx = CG_NO_NAME;
	if (begin_body(p, err) < 0)
		return -1;
	if (KEY("calls"))
		return calls_line(p, v, err);
	if (KEY("jump") || KEY("jcnd"))
		return jump_line(p, v, KEY("jcnd"), err);

	enum cg_name_kind kind;
	if (KEY("ob") || KEY("cob"))
		kind = CG_OBJECT;
	else if (KEY("fl") || KEY("fi") || KEY("fe") || KEY("cfi") || KEY("cfl") || KEY("jfi"))
		kind = CG_FILE;
	else if (KEY("fn") || KEY("cfn") || KEY("jfn"))
		kind = CG_FUNCTION;
	else
		return bm_error(err, "unknown line '%.*s='", (int)keylen, key);
	if (resolve_name(p, kind, v, &idx, err) < 0)
		return -1;

	if (KEY("ob")) {
		p->object = idx;
	} else if (KEY("fl") || KEY("fi") || KEY("fe")) {
		p->file = idx;
	} else if (KEY("fn")) {
		p->fn = (struct cg_func){.object = p->object, .file = p->file, .name = idx};
		p->have_fn = 1;
	} else if (KEY("cob")) {
		p->call_object = idx;
	} else if (KEY("cfi") || KEY("cfl")) {
		p->call_file = idx;
	} else if (KEY("cfn")) {
		p->call_name = idx;
	}
	/* jfi= and jfn= only define names. */
	return 0;
#undef KEY
}

static int is_key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_';
}

/* Handles one line, NUL-terminated in place, without its newline. */
static int parse_line(struct cg_parser *p, char *s, size_t len, char **err)
{
	if (len && s[len - 1] == '\r')
		s[--len] = '\0';
	if (memchr(s, '\0', len))
		return bm_error(err, "NUL byte in line");
	const char *c = skip_space(s);
	if (!*c || *c == '#')
		return 0;
	int is_position = is_digit(*c) || *c == '+' || *c == '-' || *c == '*';
	if (p->pending != PENDING_NONE && !is_position)
		return bm_error(err, "expected the position line of the preceding '%s' line",
				p->pending == PENDING_CALL ? "calls=" : "jump=");
	if (is_position)
		return cost_line(p, c, err);
	size_t k = 0;
	while (is_key_char(c[k]))
		k++;
	if (k && c[k] == '=')
		return name_line(p, c, k, c + k + 1, err);
	if (k && c[k] == ':')
		return header_line(p, c, k, skip_space(c + k + 1), err);
	char *tok = token_for_message(c);
	int r = bm_error(err, "unrecognised line starting with '%s'", tok);
	free(tok);
	return r;
}

static int finish(struct cg_parser *p, int saw_data, char **err)
{
	if (!saw_data)
		return bm_error(err, "empty file");
	if (!p->in_body && !p->part.nevents)
		return bm_error(err, "no 'events:' line (is this a callgrind file?)");
	return end_part(p, err);
}

static int fail(struct cg_parser *p, char **err, char *msg, int at_line)
{
	if (err) {
		if (at_line)
			*err = xasprintf("%s:%lu: %s", p->path, p->lineno, msg);
		else
			*err = xasprintf("%s: %s", p->path, msg);
	}
	free(msg);
	parser_free(p);
	return -1;
}

int cg_parse_buffer(const char *name, const char *data, size_t size, const struct cg_sink *sink,
		    void *ctx, char **err)
{
	struct cg_parser *p = parser_new(name, sink, ctx);
	char *line = xmalloc(CG_MAX_LINE + 1);
	char *msg = NULL;
	size_t off = 0;
	while (off < size) {
		const char *nl = memchr(data + off, '\n', size - off);
		size_t len = nl ? (size_t)(nl - (data + off)) : size - off;
		p->lineno++;
		if (len > CG_MAX_LINE) {
			bm_error(&msg, "line longer than %u bytes", CG_MAX_LINE);
			break;
		}
		memcpy(line, data + off, len);
		line[len] = '\0';
		if (parse_line(p, line, len, &msg) < 0)
			break;
		off += len + (nl != NULL);
	}
	free(line);
	if (!msg)
		finish(p, size > 0, &msg);
	if (msg)
		return fail(p, err, msg, size > 0);
	parser_free(p);
	return 0;
}

int cg_parse_file(const char *path, const struct cg_sink *sink, void *ctx, char **err)
{
	int fd = strcmp(path, "-") == 0 ? 0 : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return bm_error(err, "cannot open '%s': %s", path, strerror(errno));

	struct cg_parser *p = parser_new(path, sink, ctx);
	size_t cap = CG_MAX_LINE + 1 + READ_CHUNK, have = 0, total = 0;
	char *buf = xmalloc(cap);
	char *msg = NULL;
	int at_line = 1;
	for (;;) {
		ssize_t n = read(fd, buf + have, cap - have - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			bm_error(&msg, "cannot read: %s", strerror(errno));
			at_line = 0;
			break;
		}
		total += (size_t)n;
		size_t end = have + (size_t)n, off = 0;
		/* At end of file the last line may lack its newline. */
		int eof = n == 0;
		while (off < end) {
			char *nl = memchr(buf + off, '\n', end - off);
			if (!nl && !eof)
				break;
			size_t len = nl ? (size_t)(nl - (buf + off)) : end - off;
			p->lineno++;
			if (len > CG_MAX_LINE) {
				bm_error(&msg, "line longer than %u bytes", CG_MAX_LINE);
				break;
			}
			buf[off + len] = '\0';
			if (parse_line(p, buf + off, len, &msg) < 0)
				break;
			off += len + 1;
		}
		if (msg || eof)
			break;
		have = end - off;
		if (have > CG_MAX_LINE) {
			p->lineno++;
			bm_error(&msg, "line longer than %u bytes", CG_MAX_LINE);
			break;
		}
		memmove(buf, buf + off, have);
	}
	free(buf);
	if (fd != 0)
		close(fd);
	if (!msg)
		finish(p, total > 0, &msg);
	if (msg)
		return fail(p, err, msg, at_line && total > 0);
	parser_free(p);
	return 0;
}
