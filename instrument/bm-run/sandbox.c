/* SPDX-License-Identifier: MIT */
/* The sandbox; docs/determinism.md has the measurements behind each part. */
#include "config.h"

#include "sandbox.h"

#include "error.h"
#include "scratch.h"
#include "xalloc.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* The cache thresholds, fixed (the ones glibc computes under Valgrind's
 * synthetic CPU on an AVX2 host), for every CPU. */
#define GLIBC_THRESHOLDS                                                                           \
	"glibc.cpu.x86_data_cache_size=0x8000"                                                     \
	":glibc.cpu.x86_shared_cache_size=0x800000"                                                \
	":glibc.cpu.x86_non_temporal_threshold=0x200000"                                           \
	":glibc.cpu.x86_rep_movsb_threshold=0x2000"                                                \
	":glibc.cpu.x86_rep_stosb_threshold=0x800"

/* x86-64-v1: baseline x86-64 for glibc's ifunc selection: no AVX*,
 * SSSE3/SSE4, POPCNT, BMI, ERMS/FSRM, ..., none of the "preferred" tuning
 * bits that glibc derives from the CPU model, and the fixed thresholds.
 * Without it the same program counted 27.3M or 4.5M instructions
 * depending on the memcpy variant the host's CPU selected.
 *
 * The hwcaps list comes last and ends with a comma: glibc 2.36's parser
 * of that list steps one byte past the end of its value, and would read
 * on into whatever follows the environment (among it the random bytes of
 * AT_RANDOM), which made start-up cost a few instructions more now and
 * then.  With a final comma it stops on the value's own terminator. */
const char sandbox_glibc_tunables_v1[] =
	GLIBC_THRESHOLDS
	":glibc.cpu.hwcaps="
	"-AVX,-AVX2,-AVX512F,-AVX512CD,-AVX512BW,-AVX512DQ,-AVX512ER,-AVX512PF,-AVX512VL,"
	"-SSSE3,-SSE4_1,-SSE4_2,-POPCNT,-LZCNT,-MOVBE,-BMI1,-BMI2,-FMA,-FMA4,-F16C,-RTM,"
	"-ERMS,-FSRM,"
	"-Fast_Unaligned_Load,-Fast_Unaligned_Copy,-Fast_Rep_String,-Fast_Copy_Backward,"
	"-Prefer_PMINUB_for_stringop,-AVX_Fast_Unaligned_Load,-Slow_BSF,-Slow_SSE4_2,"
	"-Prefer_No_VZEROUPPER,-Prefer_ERMS,-Prefer_FSRM,-Prefer_No_AVX512,"
	"-MathVec_Prefer_No_AVX512,-Avoid_Short_Distance_REP_MOVSB,";

/* x86-64-v3: what the engine's x86-64-v3 offers stays (AVX2, BMI1/2,
 * FMA, ...: glibc's AVX2 string functions); what a host decides is off
 * even where the CPU says it (AVX-512, RTM, ERMS and FSRM, whose
 * rep movsb Valgrind counts per byte), and every "preferred" bit is set
 * as glibc 2.36 sets it for that CPU (an AMD family 0x19: only
 * AVX_Fast_Unaligned_Load, which AVX2's memmove needs), on or off here
 * whatever glibc derives from a vendor or model.  The same thresholds,
 * and a final comma, as x86-64-v1's. */
const char sandbox_glibc_tunables_v3[] =
	GLIBC_THRESHOLDS
	":glibc.cpu.hwcaps="
	"-AVX512F,-AVX512CD,-AVX512BW,-AVX512DQ,-AVX512ER,-AVX512PF,-AVX512VL,-FMA4,-RTM,"
	"-ERMS,-FSRM,"
	"-Fast_Unaligned_Load,-Fast_Unaligned_Copy,-Fast_Rep_String,-Fast_Copy_Backward,"
	"-Prefer_PMINUB_for_stringop,AVX_Fast_Unaligned_Load,-Slow_BSF,-Slow_SSE4_2,"
	"-Prefer_No_VZEROUPPER,-Prefer_ERMS,-Prefer_FSRM,-Prefer_No_AVX512,"
	"-MathVec_Prefer_No_AVX512,-Avoid_Short_Distance_REP_MOVSB,";

/* The program sees exactly these (plus --env): nothing of the caller's
 * environment, whose size would move the stack. */
static const char *const fixed_environment[] = {
	"PATH=/usr/local/bin:/usr/bin:/bin",
	"LC_ALL=C",
	"TZ=UTC",
	"LD_BIND_NOW=1", /* no lazy binding inside measured regions */
	"BM_CONTROL=3",  /* libbm's channel to bm-run; set in every mode */
};

int sandbox_create(struct sandbox *s, const char *program, char **err)
{
	memset(s, 0, sizeof *s);
	/* Always /tmp, never $TMPDIR: the path's length must not vary. */
	char dir[] = "/tmp/bm-run.XXXXXX";
	if (!mkdtemp(dir))
		return bm_error(err, "cannot create a scratch directory in /tmp: %s", strerror(errno));
	/* Known to be a live run's, even to a later bm-run after this one
	 * was killed (scratch.h). */
	if (scratch_claim(dir, err) < 0) {
		rmdir(dir);
		return -1;
	}
	s->dir = xstrdup(dir);
	s->argv0 = xasprintf("%s/p", dir);
	s->outfile = xasprintf("%s/cg.%%p.out", dir);
	s->log = xasprintf("%s/valgrind.log", dir);
	s->output = xasprintf("%s/program.out", dir);
	s->errors = xasprintf("%s/program.err", dir);
	if (symlink(program, s->argv0) != 0) {
		int e = errno;
		sandbox_remove(s);
		return bm_error(err, "cannot link '%s' into the scratch directory: %s", program, strerror(e));
	}
	return 0;
}

void sandbox_remove(struct sandbox *s)
{
	if (s->dir)
		scratch_remove(s->dir);
	free(s->dir);
	free(s->argv0);
	free(s->outfile);
	free(s->log);
	free(s->output);
	free(s->errors);
	memset(s, 0, sizeof *s);
}

/* Bytes that strings take above the stack, with their NULs. */
static size_t strings_size(char *const *v, size_t n)
{
	size_t size = 0;
	for (size_t i = 0; i < n; i++)
		size += strlen(v[i]) + 1;
	return size;
}

/* The strings of argv and the environment sit above the initial stack, so
 * their total length moves every address on the stack (and with them the
 * cache sets a whole-process run touches): the output file name alone moved
 * a run by 70 cycles.  One more variable fills them up to a fixed total.
 * It comes right after the last argument, so where it starts moves with
 * the arguments' lengths: its name is empty, so that the loader's look at
 * each variable's name reads one byte of it, never two cache lines. */
static char *padding(size_t used, size_t more)
{
	static const char name[] = "=";
	used += sizeof name;
	size_t total = (used + SANDBOX_STRINGS_ALIGN - 1) / SANDBOX_STRINGS_ALIGN * SANDBOX_STRINGS_ALIGN + more;
	char *pad = xmalloc(total - used + sizeof name);
	memcpy(pad, name, sizeof name - 1);
	memset(pad + sizeof name - 1, 'x', total - used);
	pad[sizeof name - 1 + total - used] = '\0';
	return pad;
}

char **sandbox_environment(const char *glibc_tunables, char *const *extra, size_t nextra, char *const *argv,
			   size_t argc, size_t more)
{
	size_t nfixed = sizeof fixed_environment / sizeof fixed_environment[0], n = 0;
	char **fixed = xcalloc(nfixed + 3, sizeof *fixed);
	for (size_t i = 0; i < nfixed; i++)
		fixed[n++] = xstrdup(fixed_environment[i]);
	fixed[n++] = xasprintf("GLIBC_TUNABLES=%s", glibc_tunables);
	/* --env K=V replaces a fixed K in place, or is added (once per K). */
	char **env = xcalloc(n + nextra + 3, sizeof *env);
	size_t added = 0;
	for (size_t i = 0; i < nextra; i++) {
		size_t key = strcspn(extra[i], "=") + 1, k = 0, a = 0;
		while (k < n && strncmp(fixed[k], extra[i], key) != 0)
			k++;
		while (k == n && a < added && strncmp(env[a], extra[i], key) != 0)
			a++;
		char **slot = k < n ? &fixed[k] : &env[a];
		if (k == n && a == added)
			added++;
		free(*slot);
		*slot = xstrdup(extra[i]);
	}
	/* Valgrind puts its core preload (named by its directory) in front of
	 * LD_PRELOAD's value, or adds LD_PRELOAD after every variable: it is
	 * given one between the padding and the fixed variables, and the
	 * padding takes up its length too, so that neither the fixed
	 * variables nor the stack move with the directory's name. */
	const char *libdir = SANDBOX_VALGRIND_LIBDIR;
	int has_preload = 0;
	for (size_t i = 0; i < added; i++) {
		if (strncmp(env[i], "VALGRIND_LIB=", 13) == 0)
			libdir = env[i] + 13;
		has_preload |= strncmp(env[i], "LD_PRELOAD=", 11) == 0;
	}
	size_t preload = strlen(libdir) + sizeof "/vgpreload_core-amd64-linux.so:" - 1;
	if (!has_preload) {
		memmove(fixed + 1, fixed, n * sizeof *fixed);
		fixed[0] = xstrdup("LD_PRELOAD=");
		n++;
	}
	/* Order: the padding, the added variables, the fixed ones.  The
	 * padding takes up what the lengths of argv, the added variables and
	 * Valgrind's preload leave, so the added and fixed variables
	 * (GLIBC_TUNABLES, which glibc reads whole at start-up) and the stack
	 * always sit at the same addresses, whatever the arguments and
	 * wherever Valgrind's and bm's tools are installed: an added variable
	 * before it (VALGRIND_LIB, 72 bytes in one build tree) moved with the
	 * arguments, and the loader's reads of its name with it. */
	size_t used = strings_size(argv, argc) + strings_size(env, added) + strings_size(fixed, n) + preload;
	memmove(env + 1, env, added * sizeof *env);
	env[0] = padding(used, more);
	memcpy(env + 1 + added, fixed, n * sizeof *env);
	env[1 + added + n] = NULL;
	free(fixed);
	return env;
}

void sandbox_free_environment(char **env)
{
	for (size_t i = 0; env && env[i]; i++)
		free(env[i]);
	free(env);
}

/* Closes [from, to]: close_range, or on a kernel before 5.9 each one up
 * to the limit of descriptors. */
static void close_span(unsigned from, unsigned to)
{
	if (from > to || close_range(from, to, 0) == 0)
		return;
	struct rlimit r;
	rlim_t max = getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur != RLIM_INFINITY ? r.rlim_cur : 1 << 20;
	for (rlim_t fd = from; fd <= to && fd < max && fd <= INT_MAX; fd++)
		close((int)fd);
}

void sandbox_close_except(int first, const int *keep, size_t nkeep)
{
	unsigned from = (unsigned)first;
	for (;;) {
		/* The lowest kept descriptor at from or above. */
		unsigned next = ~0U;
		for (size_t i = 0; i < nkeep; i++)
			if (keep[i] >= 0 && (unsigned)keep[i] >= from && (unsigned)keep[i] < next)
				next = (unsigned)keep[i];
		if (next == ~0U) {
			close_span(from, ~0U);
			return;
		}
		if (next > from)
			close_span(from, next - 1);
		from = next + 1;
	}
}
