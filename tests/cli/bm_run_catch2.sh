#!/bin/sh
# SPDX-License-Identifier: MIT
# A Catch2 binary with benchmarks, unmodified, under bm-run (issue 24;
# docs/bm-run.md "Catch2"): recognised by itself or by --harness catch2,
# run once, each BENCHMARK a row "TEST CASE::NAME" with its cycles per
# iteration by the virtual clock and its iterations; a benchmark that
# throws failed with its message; its clock read a few million times at
# most, though Catch2 reads it for over a second of virtual time before
# its first benchmark.
. "$(dirname "$0")/lib.sh"

need_engine
cd "$scratch" || exit 1
cat >c2.cc <<'EOC'
#define CATCH_CONFIG_MAIN
#define CATCH_CONFIG_ENABLE_BENCHMARKING
#include <catch2/catch.hpp>
#include <algorithm>
#include <stdexcept>
#include <vector>
static int sort_n(int n)
{
	std::vector<int> v(n);
	for (int i = 0; i < n; i++)
		v[i] = (int)((i * 2654435761u) % 1000);
	std::sort(v.begin(), v.end());
	return v[n / 2];
}
TEST_CASE("sorting")
{
	BENCHMARK("sort 100") { return sort_n(100); };
	BENCHMARK("sort 1000") { return sort_n(1000); };
}
TEST_CASE("throwing")
{
	BENCHMARK("no input") { throw std::runtime_error("no input"); return 0; };
}
EOC
if ! ${CXX:-g++} -O1 -o c2 c2.cc 2>c2.cc.err; then
	echo "# no Catch2 (g++ and catch2): $(head -n 1 c2.cc.err)"
	not_ok "a Catch2 binary builds (./quickstart test installs g++ and catch2)"
	done_testing
fi

"$BM_RUN" -o c2.json --print-command -- ./c2 >cmd.out 2>&1
check "its options: the XML report, 10 samples, 1 ms of warm-up, no bootstrap" \
	grep -q -- "--benchmark-samples 10 --benchmark-warmup-time 1 --benchmark-no-analysis -r xml -o " cmd.out
"$BM_RUN" -o c2.json -- ./c2 'sorting,throwing' >c2.out 2>c2.err
check_eq "found by itself: a row per benchmark, the one that threw failed (exit 1)" \
	"1|sorting::sort 100 ok|sorting::sort 1000 ok|throwing::no input failed no input" \
	"$?|$(json_get c2.json 'join "|", map { join " ", grep { defined } $_->{id}, $_->{status}, $_->{reason} } @{$j->{benchmarks}}')"
check "... in the table too" grep -q "^sorting::sort 1000 " c2.out
check_eq "iterations: its 10 samples times its iterations per sample" "yes yes" \
	"$(json_get c2.json 'join " ", map { $_->{iterations} >= 10 && $_->{iterations} % 10 == 0 ? "yes" : "no" } grep { $_->{status} eq "ok" } @{$j->{benchmarks}}')"
cycles_of() { json_get c2.json "(grep { \$_->{id} eq '$1' } @{\$j->{benchmarks}})[0]{cycles}"; }
check "sort 1000 costs more than sort 100 ($(cycles_of 'sorting::sort 100'), $(cycles_of 'sorting::sort 1000')), as natively" \
	test "$(cycles_of 'sorting::sort 1000')" -gt "$(( $(cycles_of 'sorting::sort 100') * 5 ))"
check_eq "its cycles, without events (Catch2 times its samples inline)" "{}" \
	"$(json_get c2.json '"{" . join(",", keys %{$j->{benchmarks}[0]{events}}) . "}"')"
# Catch2 calibrates by reading its clock until enough virtual time has
# passed: a reading costs the virtual clock a microsecond (docs/engine.md),
# and the whole run reads it about 1.6 million times, each answered
# without a system call; at the few nanoseconds a reading's instructions
# took, it read it 50 million times under bm-model/1 (a minute here), 202
# million under bm-model/3 (4 to 7 minutes).  The whole process, with the
# options bm-run gives it:
"$BM_RUN" -q --whole --no-profile -o whole.json -- ./c2 sorting --benchmark-samples 10 --benchmark-warmup-time 1 \
	--benchmark-no-analysis
readings=$(json_get whole.json 'my ($f) = grep { $_->{function} =~ /^clock_gettime/ } @{$j->{benchmarks}[0]{syscalls}{by_function}}; $f ? $f->{count} : 0')
check "its clock read a few million times, not tens of millions ($readings)" test "$readings" -lt 5000000
"$BM_RUN" -q --engine callgrind -o refused.json -- ./c2 >refused.out 2>&1
check_eq "--engine callgrind: exit 2, naming the virtual clock" "2|1" \
	"$?|$(grep -c "Catch2 binary, whose benchmarks time themselves" refused.out)"

done_testing
