#!/bin/sh
# libbm as a user gets it: `make install`, then a benchmark built with
# `pkg-config --cflags --libs bm` against the shared library, run natively
# and under bm-run (which finds libbm through the program's DT_NEEDED).
. "$(dirname "$0")/lib.sh"

dest="$scratch/dest"
make -C "$top_builddir" install DESTDIR="$dest" >"$scratch/install.log" 2>&1
check_eq "make install succeeds" 0 $?
prefix=$(sed -n 's/^prefix=//p' "$top_builddir/instrument/bm.pc")
libdir=$(sed -n 's/^libdir=//p' "$top_builddir/instrument/bm.pc" | sed "s|\${exec_prefix}|$prefix|")
check "bm.h, bm.pc, libbm.so and libbm.a are installed" test -f "$dest$prefix/include/bm.h" -a \
	-f "$dest$libdir/pkgconfig/bm.pc" -a -e "$dest$libdir/libbm.so" -a -f "$dest$libdir/libbm.a"
check "bm-run and bm-profile are installed" test -x "$dest$prefix/bin/bm-run" -a -x "$dest$prefix/bin/bm-profile"

cat >"$scratch/mine.c" <<'EOC'
#include <bm.h>
static void work(struct bm_state *s)
{
	long acc = 0;
	for (long i = 0; i < bm_param(s, "n"); i++)
		acc += i * 3;
	bm_black_box(acc);
}
BM_BENCHMARK(mine, loop, .run = work, .params = BM_PARAMS(BM_RANGE("n", 10, 1000)));
BM_MAIN()
EOC
export PKG_CONFIG_PATH="$dest$libdir/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest"
flags=$(pkg-config --cflags --libs bm)
check_eq "pkg-config knows bm" 0 $?
${CC:-cc} -O2 -g -o "$scratch/mine" "$scratch/mine.c" $flags 2>"$scratch/cc.log"
check_eq "a benchmark compiles and links with pkg-config's flags" 0 $?
check_eq "it lists its benchmarks" "mine::loop[n=10] mine::loop[n=1000]" \
	"$(LD_LIBRARY_PATH="$dest$libdir" "$scratch/mine" --list | tr '\n' ' ' | sed 's/ $//')"
"$BM_RUN" -q --env "LD_LIBRARY_PATH=$dest$libdir" -o "$scratch/mine.json" -- "$scratch/mine" >/dev/null 2>&1
check_eq "bm-run finds libbm.so and measures each benchmark" "mine::loop[n=10] ok mine::loop[n=1000] ok" \
	"$(json_get "$scratch/mine.json" 'join " ", map { "$_->{id} $_->{status}" } @{$j->{benchmarks}}')"

done_testing
