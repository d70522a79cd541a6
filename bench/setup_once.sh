#!/bin/sh
# SPDX-License-Identifier: MIT
# What setup_once saves natively: one benchmark that checksums a file,
# registered twice, reading the file in .setup (before every timed run) and
# in .setup_once (once).  Both are timed natively with the same --min-time;
# the table gives each program run's wall time, their ratio, and the two
# medians (the same code on the same bytes; where they differ, the freshly
# read copy of each run was colder in the caches and TLB than the shared
# one).
#
# usage: bench/setup_once.sh [BUILD_DIR]   (default: build)
# Environment: BM_SETUP_KB (input size in KiB, default 1024), CC.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
libbm=$build/instrument/libbm/.libs/libbm.a
kb=${BM_SETUP_KB:-1024}
cc=${CC:-gcc}
[ -f "$libbm" ] || { echo "setup_once.sh: build bm first (make)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bm-bench-setup.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
head -c $((kb * 1024)) /dev/urandom >input.bin
cat >prog.c <<'EOC'
#include <bm.h>
#include <stdio.h>
#include <stdlib.h>

struct input { unsigned char *bytes; size_t len; };

static struct input *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	struct input *in = malloc(sizeof *in);
	fseek(f, 0, SEEK_END);
	in->len = (size_t)ftell(f);
	rewind(f);
	in->bytes = malloc(in->len);
	if (fread(in->bytes, 1, in->len, f) != in->len)
		abort();
	fclose(f);
	return in;
}

static void release(struct input *in) { free(in->bytes); free(in); }
static void setup_each(struct bm_state *s) { bm_set_data(s, read_file(bm_param_str(s, "input"))); }
static void teardown_each(struct bm_state *s) { release(bm_data(s)); }
static void setup_once(struct bm_state *s) { bm_set_shared(s, read_file(bm_param_str(s, "input"))); }
static void teardown_once(struct bm_state *s) { release(bm_shared(s)); }

static void checksum(const struct input *in)
{
	unsigned long sum = 0;
	for (size_t i = 0; i < in->len; i += 64)
		sum = sum * 31 + in->bytes[i];
	bm_black_box(sum);
}

static void run_each(struct bm_state *s) { checksum(bm_data(s)); }
static void run_once(struct bm_state *s) { checksum(bm_shared(s)); }

BM_BENCHMARK(each, checksum, .run = run_each, .setup = setup_each, .teardown = teardown_each,
	     .params = BM_PARAMS(BM_VALUES("input", "input.bin")));
BM_BENCHMARK(once, checksum, .run = run_once, .setup_once = setup_once,
	     .teardown_once = teardown_once, .params = BM_PARAMS(BM_VALUES("input", "input.bin")));
BM_MAIN()
EOC
$cc -O2 -I"$top/instrument" -o prog prog.c "$libbm" -lm

# run FILTER: the wall seconds of a native run, then its median in seconds.
run() {
	perl -MTime::HiRes=time -e '
		my $t0 = time; my $out = `./prog --filter "$ARGV[0]" --json -  2>/dev/null`;
		my $wall = time - $t0; my ($v) = $out =~ /"value": ([0-9.e+-]+)/;
		printf "%.3f %.3g\n", $wall, $v' "$1"
}
set -- $(run 'each::*') $(run 'once::*')
grep -m1 'model name' /proc/cpuinfo | sed 's/.*: /cpu: /'
printf 'input %d KiB, --min-time 0.2 (default)\n\n' "$kb"
printf '| setup | program run | median of one run |\n| --- | ---: | ---: |\n'
printf '| `.setup` (each run) | %.2f s | %s s |\n' "$1" "$2"
printf '| `.setup_once` | %.2f s | %s s |\n' "$3" "$4"
perl -e 'printf "\nratio (setup each run / setup once): %.1fx\n", $ARGV[0] / $ARGV[1]' "$1" "$3"
