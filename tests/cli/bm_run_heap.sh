#!/bin/sh
# SPDX-License-Identifier: MIT
# Heap profiles (issue 25): the bm engine counts what a program asks its
# allocator for, in the measured run itself.  Exact on benchmarks whose
# allocations are known by construction (tests/programs/heap.c), equal to
# Valgrind's DHAT on real programs measured whole, and no other number
# moves: every event and cycle count is the one of a run without it.
. "$(dirname "$0")/lib.sh"
need_engine

# heap_of REPORT ID: "allocations bytes peak leaked_bytes leaked_blocks".
heap_of() {
	json_get "$1" 'my ($b) = grep { $_->{id} eq "'"$2"'" } @{$j->{benchmarks}}; my $h = $b->{heap};
		$h ? join " ", map { $h->{$_} // "null" } qw(allocations bytes_allocated peak_bytes leaked_bytes leaked_blocks) : "none"'
}

"$BM_RUN" -o "$scratch/heap.json" -- "$PROGRAMS/heap" >"$scratch/heap.out" 2>/dev/null
check_eq "harness mode: every benchmark ran" 0 $?
check "the table: allocations, their bytes and the peak, where something allocated" \
	grep -q '^benchmark .* sys time  *allocs  *bytes  *peak bytes$' "$scratch/heap.out"
check "... a benchmark's row: 10 blocks, 1,045 bytes, 1,045 at most" \
	grep -q '^heap::mallocs  .*  10  *1,045  *1,045$' "$scratch/heap.out"
check "... and what the columns are" grep -q "^(allocs: the blocks it allocated" "$scratch/heap.out"
check_eq "heap::mallocs: 10 blocks of 100 to 109 bytes, freed" "10 1045 1045 0 0" "$(heap_of "$scratch/heap.json" heap::mallocs)"
check_eq "heap::realloc_chain: each realloc a new block and its old one's free (DHAT's count)" \
	"6 504 256 0 0" "$(heap_of "$scratch/heap.json" heap::realloc_chain)"
check_eq "heap::calloc_zero: calloc(4, 25) and malloc(0), which counts 1 byte" \
	"2 101 101 0 0" "$(heap_of "$scratch/heap.json" heap::calloc_zero)"
check_eq "heap::leak: 800 bytes in 2 blocks left allocated (the warm-up run's own are not the measured run's)" \
	"2 800 800 800 2" "$(heap_of "$scratch/heap.json" heap::leak)"
check_eq "heap::setup_block: the setup's block freed in the run changes nothing; the run's block is left allocated" \
	"1 64 64 64 1" "$(heap_of "$scratch/heap.json" heap::setup_block)"
check_eq "heap::aligned: aligned_alloc, posix_memalign and strdup" "3 774 774 0 0" \
	"$(heap_of "$scratch/heap.json" heap::aligned)"
check_eq "heap::none: all zero" "0 0 0 0 0" "$(heap_of "$scratch/heap.json" heap::none)"
freed_of() { json_get "$1" 'my ($b) = grep { $_->{id} eq "'"$2"'" } @{$j->{benchmarks}}; "$b->{heap}{frees} $b->{heap}{bytes_freed}"'; }
check_eq "frees: each block freed and its bytes; the setup's block freed in the run counts too (the engine saw it allocated)" \
	"10 1045|6 504|0 0|1 4096" \
	"$(freed_of "$scratch/heap.json" heap::mallocs)|$(freed_of "$scratch/heap.json" heap::realloc_chain)|$(freed_of "$scratch/heap.json" heap::leak)|$(freed_of "$scratch/heap.json" heap::setup_block)"
check_eq "heap::big: a block of 1 MiB, and nothing more from the kernel in a warm run" "1 1048576 1048576 0 0 0" \
	"$(heap_of "$scratch/heap.json" heap::big) $(json_get "$scratch/heap.json" 'my ($b) = grep { $_->{id} eq "heap::big" } @{$j->{benchmarks}}; $b->{heap}{system_bytes}')"
check_eq "the events allocCount and allocBytes are the heap's counts" "10 1045" \
	"$(json_get "$scratch/heap.json" 'my ($b) = grep { $_->{id} eq "heap::mallocs" } @{$j->{benchmarks}}; "$b->{events}{allocCount} $b->{events}{allocBytes}"')"
check_eq "the profile charges them to the allocation function, and its callers carry them" "malloc 10 1045; mallocs 10 1045" \
	"$(json_get "$scratch/heap.json" 'my ($b) = grep { $_->{id} eq "heap::mallocs" } @{$j->{benchmarks}}; my $p = $b->{profile};
		my ($c) = grep { $p->{events}[$_] eq "allocCount" } 0 .. $#{$p->{events}};
		my %f = map { $_->{name} => $_ } @{$p->{functions}};
		join "; ", "malloc $f{malloc}{self}[$c] $f{malloc}{self}[$c + 1]", "mallocs $f{mallocs}{inclusive}[$c] $f{mallocs}{inclusive}[$c + 1]"')"

# No perturbation: the same numbers without heap counting, but for the
# two events.
without_heap() {
	numbers "$1" | sed 's/ alloc\(Bytes\|Count\)=[0-9]*//g'
}
"$BM_RUN" -q --no-heap -o "$scratch/noheap.json" -- "$PROGRAMS/heap" >/dev/null 2>&1
check_eq "--no-heap: no heap object and no allocation events" "none 0" \
	"$(heap_of "$scratch/noheap.json" heap::mallocs) $(grep -c allocCount "$scratch/noheap.json")"
check_eq "harness mode: every event and cycle count the same with heap counting" \
	"$(without_heap "$scratch/noheap.json")" "$(without_heap "$scratch/heap.json")"
for prog in whole sort fib syscalls signals branches; do
	"$BM_RUN" -q --no-profile --whole -o "$scratch/$prog.on.json" -- "$PROGRAMS/$prog" >/dev/null 2>&1
	"$BM_RUN" -q --no-profile --whole --no-heap -o "$scratch/$prog.off.json" -- "$PROGRAMS/$prog" >/dev/null 2>&1
	check_eq "whole process, tests/programs/$prog: the same numbers with heap counting" \
		"$(without_heap "$scratch/$prog.off.json")" "$(without_heap "$scratch/$prog.on.json")"
done
"$BM_RUN" -q --no-profile -o "$scratch/cases.on.json" -- "$PROGRAMS/cases" --filter 'cases::compute*' --filter 'cases::memory*' >/dev/null 2>&1
"$BM_RUN" -q --no-profile --no-heap -o "$scratch/cases.off.json" -- "$PROGRAMS/cases" --filter 'cases::compute*' --filter 'cases::memory*' >/dev/null 2>&1
check_eq "harness mode, tests/programs/cases: the same numbers with heap counting" \
	"$(without_heap "$scratch/cases.off.json")" "$(without_heap "$scratch/cases.on.json")"
"$BM_RUN" -q --no-profile --model bm-model/2 -o "$scratch/m2.on.json" -- "$PROGRAMS/heap" >/dev/null 2>&1
"$BM_RUN" -q --no-profile --model bm-model/2 --no-heap -o "$scratch/m2.off.json" -- "$PROGRAMS/heap" >/dev/null 2>&1
check_eq "bm-model/2: the same numbers with heap counting" \
	"$(without_heap "$scratch/m2.off.json")" "$(without_heap "$scratch/m2.on.json")"

# What the heap took from the kernel: a whole process allocating 1 MiB
# twice takes it once by mmap and once by brk (glibc's mmap threshold
# grows at the first free).
cat >"$scratch/grow.c" <<'EOC'
#include <stdlib.h>
void *volatile sink;
int main(void)
{
	sink = malloc(1 << 20);
	free(sink);
	sink = malloc(1 << 20);
	free(sink);
	return 0;
}
EOC
if ${CC:-cc} -O1 -o "$scratch/grow" "$scratch/grow.c"; then
	"$BM_RUN" -q --no-profile --name grow -o "$scratch/grow.json" -- "$scratch/grow" >/dev/null 2>&1
	check "whole process: system_bytes counts the mmap and the brk (2 MiB and more)" test \
		"$(json_get "$scratch/grow.json" '$j->{benchmarks}[0]{heap}{system_bytes}')" -ge 2097152
else
	not_ok "a C compiler builds the heap-growth test program"
fi

# Symbol mode: what the function's calls allocated (no peak or leaks:
# those are a dump's).
cat >"$scratch/sym.c" <<'EOC'
#include <stdlib.h>
__attribute__((noinline)) void **build(int n)
{
	void **v = malloc((size_t)n * sizeof *v);
	for (int i = 0; i < n; i++)
		v[i] = malloc(32);
	return v;
}
__attribute__((noinline)) void drop(void **v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
int main(void)
{
	void **a = build(4), **b = build(2);
	drop(a, 4);
	drop(b, 2);
	return 0;
}
EOC
if ${CC:-cc} -O1 -g -o "$scratch/sym" "$scratch/sym.c"; then
	"$BM_RUN" -q --no-profile --bench build --bench drop -o "$scratch/sym.json" -- "$scratch/sym" >/dev/null 2>&1
	check_eq "symbol mode: the blocks of a function's calls (2 calls: 5 and 3 blocks), no peak; none in another" \
		"8 240 null null null; 0 0 null null null; null" \
		"$(heap_of "$scratch/sym.json" sym::build); $(heap_of "$scratch/sym.json" sym::drop); $(json_get "$scratch/sym.json" '$j->{benchmarks}[0]{heap}{system_bytes}')"
else
	not_ok "a C compiler builds the symbol-mode test program"
fi

# C++: new[], a vector's growth and nothrow new counted once each (their
# malloc inside is not a second block); placement new allocates nothing.
cat >"$scratch/cxx.cc" <<'EOC'
#include <new>
#include <vector>
int main()
{
	int *a = new int[10];
	delete[] a;
	std::vector<long> v;
	for (long i = 0; i < 5; i++)
		v.push_back(i);
	int *n = new (std::nothrow) int(1);
	delete n;
	alignas(int) char buf[sizeof(int)];
	int *p = new (buf) int(3);
	return *p == 3 ? 0 : 1;
}
EOC
if ${CXX:-g++} -O0 -o "$scratch/cxx" "$scratch/cxx.cc" 2>"$scratch/cxx.err"; then
	"$BM_RUN" -q --no-profile --name cxx -o "$scratch/cxx.json" -- "$scratch/cxx" >/dev/null 2>&1
	# libstdc++'s emergency pool (72704 bytes) is allocated at start-up and
	# never freed; then 40 (new int[10]), 8 16 32 64 (the vector), 4.
	check_eq "C++ whole process: new[], a vector's growth, nothrow new; not placement new" \
		"7 72868 72800 72704 1" "$(heap_of "$scratch/cxx.json" cxx)"
else
	not_ok "g++ builds a C++ test program (./quickstart test installs g++): $(head -n 1 "$scratch/cxx.err")"
fi

# operator new that throws std::bad_alloc allocated nothing: the unwinder
# returns to the catch, not to new's return address (issue 39), whether
# the catch is new's caller or further up; a call after it is counted.
cat >"$scratch/bad_alloc.cc" <<'EOC'
#include <new>
static const unsigned long huge = 1UL << 50; /* more than any allocator gives */
__attribute__((noinline)) static void fail()
{
	::operator delete(::operator new(huge));
}
__attribute__((noinline)) static int *ten()
{
	return new int[10];
}
int main()
{
	int caught = 0;
	for (int i = 0; i < 3; i++) {
		try {
			char *volatile p = new char[huge];
			delete[] p;
		} catch (const std::bad_alloc &) {
			caught++;
		}
		try {
			fail();
		} catch (const std::bad_alloc &) {
			caught++;
		}
	}
	char *volatile n = new (std::nothrow) char[huge];
	delete[] ten();
	return caught == 6 && !n ? 0 : 1;
}
EOC
if ${CXX:-g++} -O0 -o "$scratch/bad_alloc" "$scratch/bad_alloc.cc" 2>"$scratch/bad_alloc.err"; then
	"$BM_RUN" -q --no-profile --name bad_alloc -o "$scratch/bad_alloc.json" -- "$scratch/bad_alloc" >/dev/null 2>&1
	rc=$?
	check_eq "C++: 6 new of 2^50 bytes caught as bad_alloc and a nothrow one allocate nothing; new int[10] after them counts" \
		"0 2 72744 72744 72704 1" "$rc $(heap_of "$scratch/bad_alloc.json" bad_alloc)"
else
	not_ok "g++ builds a C++ test program (./quickstart test installs g++): $(head -n 1 "$scratch/bad_alloc.err")"
fi

# A longjmp out of an allocation function (the program's own, here)
# allocated nothing either: the next return above its frame is another
# call's, whose result is no block.
cat >"$scratch/longjmp.c" <<'EOC'
#include <setjmp.h>
#include <stdlib.h>
static jmp_buf env;
void *aligned_alloc(size_t align, size_t size)
{
	(void)align;
	(void)size;
	longjmp(env, 1);
}
__attribute__((noinline)) static void *pointer(void)
{
	return &env;
}
int main(void)
{
	if (!setjmp(env))
		aligned_alloc(64, 4096);
	void *volatile p = pointer();
	free(malloc(40));
	return p != &env;
}
EOC
if ${CC:-cc} -O0 -fno-builtin -o "$scratch/longjmp" "$scratch/longjmp.c"; then
	"$BM_RUN" -q --no-profile --name longjmp -o "$scratch/longjmp.json" -- "$scratch/longjmp" >/dev/null 2>&1
	rc=$?
	check_eq "a longjmp out of aligned_alloc(64, 4096): no block; the malloc(40) after it is the one" \
		"0 1 40 40 0 0" "$rc $(heap_of "$scratch/longjmp.json" longjmp)"
else
	not_ok "a C compiler builds the longjmp test program"
fi

# A program's own posix_memalign that succeeds without writing: the
# engine must not read where it did not write (issue 39).
cat >"$scratch/own_memalign.c" <<'EOC'
#include <stddef.h>
int posix_memalign(void **where, size_t align, size_t size)
{
	(void)where;
	(void)align;
	(void)size;
	return 0;
}
int main(void)
{
	return posix_memalign((void **)16, 64, 64);
}
EOC
if ${CC:-cc} -O0 -fno-builtin -o "$scratch/own_memalign" "$scratch/own_memalign.c"; then
	"$BM_RUN" -q --no-profile --name own_memalign -o "$scratch/own_memalign.on.json" -- "$scratch/own_memalign" >/dev/null 2>&1
	rc=$?
	"$BM_RUN" -q --no-profile --no-heap --name own_memalign -o "$scratch/own_memalign.off.json" -- "$scratch/own_memalign" >/dev/null 2>&1
	check_eq "a posix_memalign returning 0 without writing its (unmapped) first argument: the program runs as without --heap" \
		"0 $(without_heap "$scratch/own_memalign.off.json")" "$rc $(without_heap "$scratch/own_memalign.on.json")"
else
	not_ok "a C compiler builds the posix_memalign test program"
fi

# Real programs, whole: the totals and the peak DHAT gives for the same
# run (DHAT frees glibc's own memory before its end, so leaks differ).
head -c 200000 "$top_srcdir/docs/performance.md" >"$scratch/input"
for cmd in "xz -3 -c" "sqlite3 :memory:" "zstd -3 -c"; do
	prog=${cmd%% *}
	path=$(command -v "$prog") || { echo "# $prog is not installed: not compared with DHAT"; continue; }
	set -- $cmd
	shift
	if [ "$prog" = sqlite3 ]; then
		printf 'create table t(a, b);\ninsert into t values (1, 2), (3, 4);\nselect sum(a) from t;\n' >"$scratch/in.$prog"
	else
		cp "$scratch/input" "$scratch/in.$prog"
	fi
	"$BM_RUN" -q --no-profile --name "$prog" -o "$scratch/$prog.json" -- "$path" "$@" <"$scratch/in.$prog" >/dev/null 2>&1
	dhat=$(env -i LC_ALL=C "$VALGRIND" --tool=dhat --dhat-out-file=/dev/null "$path" "$@" <"$scratch/in.$prog" 2>&1 >/dev/null |
		perl -ne 's/,//g; $t = "$2 $1" if /Total:\s+(\d+) bytes in (\d+) blocks/; $p = $1 if /At t-gmax:\s+(\d+) bytes/; END { print "$t $p" }')
	check_eq "$cmd, whole process: blocks, bytes and peak as DHAT counts them" "$dhat" \
		"$(heap_of "$scratch/$prog.json" "$prog" | cut -d' ' -f1-3)"
done

# zlib: a program of ours compressing the same input at level 9.
cat >"$scratch/zdeflate.c" <<'EOC'
#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>
int main(int argc, char **argv)
{
	FILE *f = fopen(argv[1], "rb");
	if (!f)
		return 2;
	static unsigned char in[1 << 18];
	size_t n = fread(in, 1, sizeof in, f);
	fclose(f);
	uLongf out_len = compressBound(n);
	unsigned char *out = malloc(out_len);
	int rc = compress2(out, &out_len, in, n, 9);
	free(out);
	return rc != Z_OK;
}
EOC
if ${CC:-cc} -O1 -o "$scratch/zdeflate" "$scratch/zdeflate.c" -lz 2>"$scratch/z.err"; then
	"$BM_RUN" -q --no-profile --name zdeflate -o "$scratch/zdeflate.json" -- "$scratch/zdeflate" "$scratch/input" >/dev/null 2>&1
	dhat=$(env -i LC_ALL=C "$VALGRIND" --tool=dhat --dhat-out-file=/dev/null "$scratch/zdeflate" "$scratch/input" 2>&1 >/dev/null |
		perl -ne 's/,//g; $t = "$2 $1" if /Total:\s+(\d+) bytes in (\d+) blocks/; $p = $1 if /At t-gmax:\s+(\d+) bytes/; END { print "$t $p" }')
	check_eq "zlib's compress2 at level 9, whole process: blocks, bytes and peak as DHAT counts them" "$dhat" \
		"$(heap_of "$scratch/zdeflate.json" zdeflate | cut -d' ' -f1-3)"
else
	not_ok "a zlib program builds (./quickstart test installs zlib1g-dev): $(head -n 1 "$scratch/z.err")"
fi

"$BM_RUN" -q --no-profile --engine callgrind -o "$scratch/cg.json" -- "$PROGRAMS/heap" >/dev/null 2>&1
check_eq "--engine callgrind: no heap counts" "none" "$(heap_of "$scratch/cg.json" heap::mallocs)"

done_testing
