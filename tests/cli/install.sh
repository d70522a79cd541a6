#!/bin/sh
# SPDX-License-Identifier: MIT
# libbm as a user gets it: `make install`, then a benchmark built with
# `pkg-config --cflags --libs bm` against the shared library, run natively
# and under bm-run (which finds libbm through the program's DT_NEEDED).
. "$(dirname "$0")/lib.sh"

dest="$scratch/dest"
make -C "$top_builddir" install DESTDIR="$dest" >"$scratch/install.log" 2>&1
check_eq "make install succeeds" 0 $?
prefix=$(sed -n 's/^prefix=//p' "$top_builddir/instrument/libbm/bm.pc")
libdir=$(sed -n 's/^libdir=//p' "$top_builddir/instrument/libbm/bm.pc" | sed "s|\${exec_prefix}|$prefix|")
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

# Outside the loader's own directories, pkg-config's flags give the
# program an rpath to libdir (here under DESTDIR: pkg-config puts the
# sysroot in front of it): it then runs without LD_LIBRARY_PATH, natively
# and under bm-run, with no extra flag.
case $libdir in
/usr/lib | /lib | /usr/lib/*-linux-gnu | /lib/*-linux-gnu) ok "# SKIP libdir $libdir: the loader looks there itself" ;;
*)
	check_eq "bm.pc adds an rpath to $libdir" "-Wl,-rpath,$dest$libdir" "$(echo "$flags" | grep -o -- '-Wl,-rpath,[^ ]*')"
	check "... which the program carries" sh -c "readelf -d '$scratch/mine' | grep -E 'R(UN)?PATH' | grep -q '$dest$libdir'"
	check_eq "it runs natively without LD_LIBRARY_PATH" 2 "$(env -u LD_LIBRARY_PATH "$scratch/mine" --list | wc -l)"
	env -u LD_LIBRARY_PATH "$BM_RUN" -q -o "$scratch/first.json" -- "$scratch/mine" >/dev/null 2>&1
	check_eq "... and under bm-run with no extra flag" "ok ok" \
		"$(json_get "$scratch/first.json" 'join " ", map { $_->{status} } @{$j->{benchmarks}}')"
	;;
esac

# bm's Valgrind tool, when built, with Valgrind's core preload beside it.
engine=$(find "$dest" -name bm-amd64-linux | head -n 1)
enginedir=$(dirname "${engine:-.}")
if [ -x "$top_builddir/simulator/engine/bm-amd64-linux" ]; then
	check_eq "the bm engine and the core preload are installed in pkglibexecdir/valgrind" \
		"$dest$prefix/libexec/bm/valgrind yes" \
		"$enginedir $(test -f "$enginedir/vgpreload_core-amd64-linux.so" && echo yes)"
	BM_ENGINE_DIR="$enginedir" "$BM_RUN" -q --engine bm --env "LD_LIBRARY_PATH=$dest$libdir" \
		-o "$scratch/mine-engine.json" -- "$scratch/mine" >/dev/null 2>&1
	check_eq "bm-run measures with the installed engine: the same cycles as callgrind" \
		"$(json_get "$scratch/mine.json" 'join " ", map { $_->{cycles} } @{$j->{benchmarks}}')" \
		"$(json_get "$scratch/mine-engine.json" 'join " ", map { $_->{cycles} } @{$j->{benchmarks}}')"
else
	ok "# SKIP the bm engine is not built"
fi

done_testing
