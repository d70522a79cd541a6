/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * The branch predictor of --branch-sim=yes: see branchsim.h.
 *
 * Notes (the assumptions, each with its reason):
 *
 * - Conditional branches: TAGE (Seznec and Michaud, "A case for (partially)
 *   TAgged GEometric history length branch prediction", JILP 2006), the
 *   design current cores build on (AMD has described its predictors since
 *   Zen 2 as TAGE; Intel's behave as one in published reverse-engineering).
 *   Callgrind's own predictor (cachegrind/cg_branchpred.c: one table of
 *   16K 2-bit counters indexed by 7 address and 7 history bits) learns
 *   neither long patterns nor which history matters for which branch.
 * - Its parts: a bimodal base of 8K 2-bit counters indexed by the
 *   branch's address, and 4 tagged tables of 2K entries each (a 16-bit
 *   tag, a 3-bit signed counter, a 2-bit useful counter), indexed and
 *   tagged by a hash of the address and of the last 5, 15, 44 and 128
 *   outcomes (geometric lengths, ratio about 3).  About 23 KB of
 *   state, the order of a current core's predictor; 128 outcomes cover
 *   the loops and correlations of benchmark code (a pattern repeating
 *   within 128 branches is learnt).
 *   Four tables rather than the 8 to 12 of the championship predictors:
 *   each costs the simulation a lookup on every branch, and the first
 *   four give most of the accuracy.
 * - The prediction is the longest matching table's, except that a new,
 *   still weak entry defers to the next longer match (or the base) while
 *   that has proved better (TAGE's USE_ALT_ON_NA counter).  A
 *   misprediction allocates one entry in a longer table than the one that
 *   predicted: the shortest whose entry is not useful (TAGE picks among
 *   them at random; the first is as good and deterministic), or else ages
 *   the useful counters of those entries.  Every 256K predictions all
 *   useful counters are halved, so that stale entries can be replaced.
 * - A branch that has gone only one way since the predictor was cleared
 *   is predicted that way, without TAGE and outside its history (a bias
 *   filter: a core's BTB predicts such branches, and keeping them out of
 *   the history helps, as in Gope and Lipasti's "Bias-free branch
 *   predictor", MICRO 2014); its first execution is predicted not taken
 *   (a branch not in the BTB falls through), its first change of way is
 *   a misprediction, and from then on TAGE predicts it.  The check is
 *   inline in the translation (instrument.c), so that such branches, a
 *   fifth to a quarter of gzip's and xz's, cost no call.
 * - The global history holds the directions of the conditional branches
 *   that went both ways (a real core's history is a path of taken
 *   branches' addresses, calls and jumps included).
 * - Indirect jumps and calls (not returns): ITTAGE (Seznec, "A 64-Kbytes
 *   ITTAGE indirect branch predictor", JWAC-2 2011) scaled down, as the
 *   indirect predictors since Intel's Haswell and AMD's Zen predict a
 *   target from the path that led to it: a BTB of 4K last targets by
 *   address (the fallback: a jump that always goes to one place), and 2
 *   tagged tables of 1K targets with a 2-bit confidence, indexed by the
 *   address and the path history (5 bits of each of the last 12 indirect
 *   targets): the last 3 targets, and all 12 with the last 16 conditional
 *   outcomes.  A switch over a repeating sequence, or calls through a
 *   table of functions in a repeating order, is learnt; a random one is
 *   not.  An indirect branch that has gone to one target only is
 *   predicted by the filter (inline, as above), its first execution is a
 *   misprediction.
 * - Returns are never mispredicted: a return stack predicts them (as
 *   callgrind and cachegrind assume too); only recursion deeper than its
 *   entries would miss.
 * - A rep-prefixed string instruction's exits are counted as conditional
 *   branches (callgrind counts them: Bc equals callgrind's) but never
 *   predicted or entered into the history: a core runs them as microcode,
 *   not through the predictor (instrument.c decides which exits those are).
 * - Everything learnt is forgotten at each start of instrumentation (the
 *   caches are emptied there too), so that a region's mispredictions do
 *   not depend on what ran before it; warm runs (libbm's default) train
 *   the predictor on the unmeasured first execution.
 */
#include "branchsim.h"

#include "pub_tool_hashtable.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"


/* A 64-bit multiplicative hash: its high bits depend on every bit of x. */
static inline ULong mix(ULong x)
{
	return x * 0x9E3779B97F4A7C15ULL;
}

/* ---- the filter: what each branch did so far ---- */

struct site {
	struct site *next; /* VgHashNode, keyed by */
	Addr pc;
	Addr only;   /* an indirect branch's only target, or 0, or BRANCH_TARGETS */
	UChar state; /* a conditional branch's BRANCH_* */
};
static VgHashTable *sites;

static struct site *site_of(Addr pc)
{
	if (!sites)
		sites = VG_(HT_construct)("bm.branch.sites");
	struct site *s = VG_(HT_lookup)(sites, pc);
	if (!s) {
		s = VG_(calloc)("bm.branch.site", 1, sizeof *s);
		s->pc = pc;
		VG_(HT_add_node)(sites, s);
	}
	return s;
}

UChar *branch_cond_site(Addr pc)
{
	return &site_of(pc)->state;
}

Addr *branch_indirect_site(Addr pc)
{
	return &site_of(pc)->only;
}

/* ---- conditional branches: TAGE ---- */

#define BIMODAL_BITS 13
#define TAGGED 4
#define TAGGED_BITS 11
#define NO_TAG 0xffff /* an empty entry (a tag can be 0xffff too: then it
		       * finds a weak new entry, which defers to the others) */
#define AGING_PERIOD (1u << 18)

struct tagged {
	UShort tag;
	signed char ctr; /* -4..3: taken when >= 0 */
	UChar u;         /* 0..3: how useful it proved */
};

/* An odd constant per table, so that the tables hash one history apart. */
static const ULong hist_mul[TAGGED] = {
	0xC2B2AE3D27D4EB4FULL, 0x165667B19E3779F9ULL, 0xD6E8FEB86659FD93ULL, 0xA0761D6478BD642FULL,
};

static UChar bimodal[1 << BIMODAL_BITS]; /* 0..3: taken when >= 2 */
static struct tagged tables[TAGGED][1 << TAGGED_BITS];
static ULong ghist[2]; /* the last 128 outcomes, the newest in bit 0 */
static UInt use_alt;   /* 0..15: a weak new entry defers from 8 up */
static UInt since_aging;

/* ---- indirect branches: ITTAGE ---- */

#define BTB_BITS 12
#define TARGET_TABLES 2
#define TARGET_BITS 10
#define PATH_BITS 5
#define PATH_MASK ((1ULL << 60) - 1) /* 12 targets */

struct target {
	Addr target;
	UShort tag;
	UChar ctr; /* 0..3: confidence */
};

static Addr btb[1 << BTB_BITS];
static struct target targets[TARGET_TABLES][1 << TARGET_BITS];
static ULong path;

void branch_clear(void)
{
	if (sites) {
		VG_(HT_ResetIter)(sites);
		for (struct site *s; (s = VG_(HT_Next)(sites));) {
			s->state = BRANCH_UNSEEN;
			s->only = 0;
		}
	}
	VG_(memset)(bimodal, 1, sizeof bimodal); /* weakly not taken */
	for (Int t = 0; t < TAGGED; t++)
		for (Int k = 0; k < 1 << TAGGED_BITS; k++)
			tables[t][k] = (struct tagged){NO_TAG, 0, 0};
	ghist[0] = ghist[1] = 0;
	use_alt = 8;
	since_aging = 0;
	VG_(memset)(btb, 0, sizeof btb);
	for (Int t = 0; t < TARGET_TABLES; t++)
		for (Int k = 0; k < 1 << TARGET_BITS; k++)
			targets[t][k] = (struct target){0, NO_TAG, 0};
	path = 0;
}

/* Saturating counters, moved by a table lookup rather than by branches on
 * the outcome (which the host would mispredict as often as the guest's
 * branch goes either way). */
static const signed char ctr_next[2][8] = {
	{-4, -4, -3, -2, -1, 0, 1, 2}, /* not taken: -4..3 one down */
	{-3, -2, -1, 0, 1, 2, 3, 3},   /* taken: one up */
};
static const UChar two_bit_next[2][4] = {{0, 0, 1, 2}, {1, 2, 3, 3}};

static inline void count_toward(signed char *ctr, Bool taken)
{
	*ctr = ctr_next[taken][*ctr + 4];
}

static inline void bimodal_toward(UChar *c, Bool taken)
{
	*c = two_bit_next[taken][*c];
}

static void age(void)
{
	for (Int t = 0; t < TAGGED; t++)
		for (Int k = 0; k < 1 << TAGGED_BITS; k++)
			tables[t][k].u >>= 1;
}

/* TAGE's prediction of the branch at pc, which went (taken) or not: it
 * learns, and returns whether it mispredicted. */
static inline Bool tage(Addr pc, Bool taken)
{
	ULong h = mix(pc), g0 = ghist[0];
	/* Each table's entry for the branch and its last 5, 15, 44 and 128
	 * outcomes, and whether its tag matches (unrolled by hand: this runs
	 * for most branches, and the compiler keeps it all in registers). */
	ULong v0 = h ^ (g0 & 0x1f) * hist_mul[0], v1 = h ^ (g0 & 0x7fff) * hist_mul[1];
	ULong v2 = h ^ (g0 & 0xfffffffffffULL) * hist_mul[2], v3 = h ^ (g0 ^ mix(ghist[1])) * hist_mul[3];
	struct tagged *e0 = &tables[0][v0 >> (64 - TAGGED_BITS)], *e1 = &tables[1][v1 >> (64 - TAGGED_BITS)];
	struct tagged *e2 = &tables[2][v2 >> (64 - TAGGED_BITS)], *e3 = &tables[3][v3 >> (64 - TAGGED_BITS)];
	Bool h0 = e0->tag == (UShort)(v0 >> 32), h1 = e1->tag == (UShort)(v1 >> 32);
	Bool h2 = e2->tag == (UShort)(v2 >> 32), h3 = e3->tag == (UShort)(v3 >> 32);
	/* The longest match provides; the next longest is the alternative. */
	struct tagged *p = NULL, *alt = NULL;
	Int provider = -1;
	if (h3) {
		p = e3, provider = 3, alt = h2 ? e2 : h1 ? e1 : h0 ? e0 : NULL;
	} else if (h2) {
		p = e2, provider = 2, alt = h1 ? e1 : h0 ? e0 : NULL;
	} else if (h1) {
		p = e1, provider = 1, alt = h0 ? e0 : NULL;
	} else if (h0) {
		p = e0, provider = 0;
	}
	UChar *base = &bimodal[h >> (64 - BIMODAL_BITS)];
	Bool pred = *base >= 2;
	ghist[1] = ghist[1] << 1 | g0 >> 63;
	ghist[0] = g0 << 1 | (ULong)taken;
	if (p) {
		Bool alt_pred = alt ? alt->ctr >= 0 : pred;
		Bool provider_pred = p->ctr >= 0;
		pred = provider_pred;
		if (p->u == 0) {
			if (p->ctr == 0 || p->ctr == -1) {
				/* A new entry: the alternative may know better. */
				if (use_alt >= 8)
					pred = alt_pred;
				if (provider_pred != alt_pred)
					use_alt += alt_pred == taken ? use_alt < 15 : -(use_alt > 0);
			}
			/* It learns along (TAGE). */
			if (alt)
				count_toward(&alt->ctr, taken);
			else
				bimodal_toward(base, taken);
		}
		if (provider_pred != alt_pred)
			p->u = two_bit_next[provider_pred == taken][p->u];
		count_toward(&p->ctr, taken);
	} else {
		bimodal_toward(base, taken);
	}
	Bool miss = pred != taken;
	if (miss && provider < TAGGED - 1) {
		/* A longer history might have told: one new entry there. */
		struct tagged *e[TAGGED] = {e0, e1, e2, e3};
		const ULong v[TAGGED] = {v0, v1, v2, v3};
		Int t = provider + 1;
		while (t < TAGGED && e[t]->u)
			t++;
		if (t < TAGGED)
			*e[t] = (struct tagged){(UShort)(v[t] >> 32), taken ? 0 : -1, 0};
		else
			for (t = provider + 1; t < TAGGED; t++)
				e[t]->u--;
	}
	if (++since_aging == AGING_PERIOD) {
		since_aging = 0;
		age();
	}
	return miss;
}

Bool branch_cond(UChar *site, Addr pc, Bool taken)
{
	UChar way = taken ? BRANCH_TAKEN : BRANCH_NOT_TAKEN;
	if (*site == BRANCH_UNSEEN) {
		/* Not in the BTB: predicted to fall through. */
		*site = way;
		return taken;
	}
	if (*site == way)
		return False;
	/* TAGE's from its first change of way on (which the filter
	 * mispredicted). */
	Bool changed = *site != BRANCH_BOTH;
	*site = BRANCH_BOTH;
	return tage(pc, taken) || changed;
}

/* ITTAGE's prediction of the indirect branch at pc, which went to
 * target: it learns, and returns whether it mispredicted. */
static Bool ittage(Addr pc, Addr target)
{
	ULong h = mix(pc ^ 0x5bd1e995ULL); /* apart from the conditional's */
	ULong keys[TARGET_TABLES] = {
		path & ((1ULL << (3 * PATH_BITS)) - 1),
		mix(path) ^ (ghist[0] & 0xffff),
	};
	UInt idx[TARGET_TABLES];
	UShort tag[TARGET_TABLES];
	Int provider = -1;
	for (Int t = TARGET_TABLES - 1; t >= 0; t--) {
		ULong v = h ^ keys[t] * hist_mul[t];
		idx[t] = (UInt)(v >> (64 - TARGET_BITS));
		tag[t] = (UShort)(v >> 32);
		if (provider < 0 && targets[t][idx[t]].tag == tag[t])
			provider = t;
	}
	Addr *last = &btb[h >> (64 - BTB_BITS)];
	Addr pred = provider >= 0 ? targets[provider][idx[provider]].target : *last;
	Bool miss = pred != target;

	if (provider >= 0) {
		/* A confident target is replaced only after it failed again. */
		struct target *e = &targets[provider][idx[provider]];
		if (e->target == target) {
			if (e->ctr < 3)
				e->ctr++;
		} else if (e->ctr > 0) {
			e->ctr--;
		} else {
			e->target = target;
		}
	}
	if (miss && provider < TARGET_TABLES - 1) {
		Int t = provider + 1;
		while (t < TARGET_TABLES && targets[t][idx[t]].ctr)
			t++;
		if (t < TARGET_TABLES)
			targets[t][idx[t]] = (struct target){target, tag[t], 0};
		else
			for (t = provider + 1; t < TARGET_TABLES; t++)
				targets[t][idx[t]].ctr--;
	}
	*last = target;
	path = ((path << PATH_BITS) ^ (mix(target) >> (64 - PATH_BITS))) & PATH_MASK;
	return miss;
}

Bool branch_indirect(Addr *site, Addr pc, Addr target, Addr canonical)
{
	if (*site == target)
		return False;
	if (*site == 0) {
		/* Its first execution: nothing to predict the target from. */
		*site = target;
		return True;
	}
	if (*site != BRANCH_TARGETS) {
		/* A second target: ITTAGE's from now on. */
		*site = BRANCH_TARGETS;
		ittage(pc, canonical);
		return True;
	}
	return ittage(pc, canonical);
}
