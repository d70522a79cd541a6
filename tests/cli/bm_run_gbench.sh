#!/bin/sh
# SPDX-License-Identifier: MIT
# A Google Benchmark binary, unmodified, under bm-run (issue 24;
# docs/bm-run.md "Google Benchmark"): recognised by itself or by
# --harness gbench, run once, each of its benchmarks a row of its own with
# its cycles per iteration by the virtual clock, its iterations and its
# events per iteration; the same in every run; ordered as the native times
# are; its failures failed, and a suite that ends early keeps what it
# finished; what cannot work refused before anything runs.
. "$(dirname "$0")/lib.sh"

need_engine
cd "$scratch" || exit 1
cat >gb.cc <<'EOC'
#include <benchmark/benchmark.h>
#include <algorithm>
#include <vector>
static void BM_sort(benchmark::State &state)
{
	std::vector<int> v(state.range(0));
	for (auto _ : state) {
		for (size_t i = 0; i < v.size(); i++)
			v[i] = (int)((i * 2654435761u) % 1000);
		std::sort(v.begin(), v.end());
		benchmark::DoNotOptimize(v.data());
	}
}
BENCHMARK(BM_sort)->Arg(100)->Arg(1000);
static void BM_sum(benchmark::State &state)
{
	std::vector<long> v(4096, 3);
	for (auto _ : state) {
		long s = 0;
		for (long x : v)
			s += x;
		benchmark::DoNotOptimize(s);
	}
}
BENCHMARK(BM_sum)->Threads(1)->Threads(2);
static void BM_fail(benchmark::State &state)
{
	for (auto _ : state)
		state.SkipWithError("no input");
}
BENCHMARK(BM_fail);
static void BM_alloc(benchmark::State &state)
{
	for (auto _ : state) {
		std::vector<int> v(100);
		benchmark::DoNotOptimize(v.data());
	}
}
BENCHMARK(BM_alloc);
BENCHMARK_MAIN();
EOC
if ! ${CXX:-g++} -O2 -o gb gb.cc -lbenchmark -lpthread 2>gb.cc.err; then
	echo "# no Google Benchmark (g++ and libbenchmark-dev): $(head -n 1 gb.cc.err)"
	not_ok "a Google Benchmark binary builds (./quickstart test installs g++ and libbenchmark-dev)"
	done_testing
fi

"$BM_RUN" -o one.json --keep kept -- ./gb >one.out 2>one.err
check_eq "found by itself: one row per benchmark, the failure failed (exit 1)" \
	"1|BM_sort/100 ok|BM_sort/1000 ok|BM_sum/threads:1 ok|BM_sum/threads:2 ok|BM_fail failed no input|BM_alloc ok" \
	"$?|$(json_get one.json 'join "|", map { join " ", grep { defined } $_->{id}, $_->{status}, $_->{reason} } @{$j->{benchmarks}}')"
check "... in the table too" grep -q "^BM_sort/1000 " one.out
"$BM_RUN" -q -o two.json -- ./gb
# (The benchmark of two threads too: the engine takes the threads' turns,
# docs/engine.md "Threads".)
check_eq "the same numbers in two runs, BM_sum/threads:2's too" "$(numbers one.json)" "$(numbers two.json)"
numbers one.json >one.numbers
check "... which has cycles" grep -q '^BM_sum/threads:2 ok .*cycles=[1-9]' one.numbers
# A benchmark alone, or beside others before it, starts from the same
# machine (every run of a timed loop from empty caches and predictors:
# --clear-before): the same numbers (issue 40: BM_sort/1000 counted
# 0.65% more beside BM_sort/10000).  Under bm-model/3 where the host runs
# x86-64-v3, whose predictor remembered most.
gb_model=
grep -q '^flags.* avx2' /proc/cpuinfo && grep -q '^flags.* bmi2' /proc/cpuinfo && gb_model="--model bm-model/3"
# shellcheck disable=SC2086
"$BM_RUN" -q $gb_model -o all.json -- ./gb >/dev/null 2>&1
# shellcheck disable=SC2086
"$BM_RUN" -q $gb_model -o alone.json -- ./gb --benchmark_filter='^BM_sort/1000$' >/dev/null 2>&1
# shellcheck disable=SC2086
"$BM_RUN" -q $gb_model -o later.json -- ./gb --benchmark_filter='BM_sum/threads:1|BM_alloc' >/dev/null 2>&1
check_eq "BM_sort/1000 alone: the numbers it has after BM_sort/100 ($gb_model)" \
	"$(numbers all.json | grep '^BM_sort/1000 ')" "$(numbers alone.json)"
check_eq "BM_sum and BM_alloc without the benchmarks before them: the same numbers" \
	"$(numbers all.json | grep '^BM_sum/threads:1 \|^BM_alloc ')" "$(numbers later.json)"
iterations() { json_get "$1" 'join " ", map { $_->{iterations} // "-" } grep { $_->{id} !~ /threads:2/ } @{$j->{benchmarks}}'; }
check_eq "... and the same iterations, each more than one" "$(iterations one.json)" \
	"$(json_get two.json 'join " ", map { $_->{status} ne "ok" ? "-" : $_->{iterations} > 1 ? $_->{iterations} : "few" } grep { $_->{id} !~ /threads:2/ } @{$j->{benchmarks}}')"

# Its numbers are per iteration: the events of the run it reported, over
# its iterations, give its cycles by the model (1 Ir + 1 Dr + 1 Dw ...).
cycles_of() { json_get one.json "(grep { \$_->{id} eq '$1' } @{\$j->{benchmarks}})[0]{cycles}"; }
from_events=$(json_get one.json '(map { my $e = $_->{events}; $e->{Ir} + $e->{Dr} + $e->{Dw} + 4 * ($e->{I1mr} + $e->{D1mr} + $e->{D1mw}) + 30 * ($e->{ILmr} + $e->{DLmr} + $e->{DLmw}) } grep { $_->{id} eq "BM_sort/1000" } @{$j->{benchmarks}})[0]')
check "BM_sort/1000: its events per iteration give its cycles ($from_events, $(cycles_of BM_sort/1000))" \
	sh -c "d=\$(( $from_events - $(cycles_of BM_sort/1000) )); [ \${d#-} -le $(( $(cycles_of BM_sort/1000) / 100 )) ]"
check_eq "a benchmark of two threads: cycles, no events (its threads' runs interleave)" "{}" \
	"$(json_get one.json 'my ($b) = grep { $_->{id} eq "BM_sum/threads:2" } @{$j->{benchmarks}}; join ",", "{" . join(",", keys %{$b->{events}}) . "}"')"
heap_of() { json_get one.json 'my ($b) = grep { $_->{id} eq "'"$1"'" } @{$j->{benchmarks}}; my $h = $b->{heap}; $h ? join " ", map { $h->{$_} // "null" } qw(allocations bytes_allocated peak_bytes) : "none"'; }
check_eq "the heap per iteration: BM_alloc's vector of 100 ints, one block of 400 bytes; no peak (the run's is over all iterations)" \
	"1 400 null" "$(heap_of BM_alloc)"
check_eq "... BM_sort allocates before its loop: nothing per iteration" "0 0 null" "$(heap_of BM_sort/1000)"
check "... and the table shows them" grep -q '^BM_alloc .*  1  *400  *-$' one.out
check "--keep: the run each benchmark reported, for KCachegrind" \
	grep -q "^desc: Trigger: Function entry: benchmark::State::FinishKeepRunning()" kept/BM_sort_1000.callgrind

# Ordered as its native times are: bm's cycles by the virtual clock and
# the suite's own nanoseconds on this machine.
./gb --benchmark_filter=BM_sort --benchmark_format=json --benchmark_min_time=0.05 >native.json 2>/dev/null
native=$(json_get native.json 'my @b = @{$j->{benchmarks}}; $b[0]{cpu_time} < $b[1]{cpu_time} ? "100<1000" : "100>=1000"')
check_eq "ordered as natively: BM_sort/100 under BM_sort/1000" "$native" \
	"$([ "$(cycles_of BM_sort/100)" -lt "$(cycles_of BM_sort/1000)" ] && echo "100<1000" || echo "100>=1000")"

"$BM_RUN" -q --verify -o /dev/null -- ./gb --benchmark_filter=BM_sort >verify.out 2>&1
check_eq "--verify: two runs, identical" "0" "$?"
"$BM_RUN" -q --model bm-model/2 -o m2.json -- ./gb --benchmark_filter=BM_sort
check "bm-model/2: numbers of its own, ordered the same" \
	test "$(json_get m2.json '$j->{benchmarks}[0]{cycles}')" -lt "$(json_get m2.json '$j->{benchmarks}[1]{cycles}')"
"$BM_RUN" -q --harness gbench -o forced.json -- ./gb '--benchmark_filter=BM_sort/100$'
check_eq "--harness gbench, and the program's own filter" "BM_sort/100 ok" \
	"$(json_get forced.json 'join " ", map { $_->{id}, $_->{status} } @{$j->{benchmarks}}')"
# --whole: the whole process, in three runs.  What the suite decided by
# the clock (its iterations and times, by its own report) and the whole
# process's count, with the load average and CPU frequency it prints and
# AT_RANDOM's guard on its stack: the same each time.
for i in 1 2 3; do
	"$BM_RUN" -q --whole --no-profile -o "whole$i.json" -- ./gb --benchmark_filter=BM_sort \
		--benchmark_min_time=0.002 --benchmark_out="$scratch/whole$i.out.json" --benchmark_out_format=json
done
check_eq "--whole: the whole process, as one benchmark" "gb" "$(json_get whole1.json '$j->{benchmarks}[0]{id}')"
runs() { json_get "$1" 'join " ", map { "$_->{name}:$_->{iterations}:$_->{cpu_time}" } @{$j->{benchmarks}}'; }
check_eq "... the suite's own iterations and times the same in three runs" \
	"$(runs whole1.out.json) $(runs whole1.out.json)" "$(runs whole2.out.json) $(runs whole3.out.json)"
check_eq "... two benchmarks, each iterated more than once" 2 \
	"$(json_get whole1.out.json 'scalar grep { $_->{iterations} > 1 } @{$j->{benchmarks}}')"
whole_cycles() { json_get "$1" '$j->{benchmarks}[0]{cycles} // "none"'; }
check_eq "... and the whole process's cycles" "$(whole_cycles whole1.json) $(whole_cycles whole1.json)" \
	"$(whole_cycles whole2.json) $(whole_cycles whole3.json)"
"$BM_RUN" -q -o none.json -- ./gb --benchmark_filter=nothing >none.out 2>&1
check_eq "a filter that matches nothing: failed, and why" \
	"1|gb failed its --benchmark_filter=nothing matches no benchmark (--benchmark_list_tests=true lists them)" \
	"$?|$(json_get none.json 'join " ", map { $_->{id}, $_->{status}, $_->{reason} } @{$j->{benchmarks}}')"

# A suite that ends before it finished (a benchmark that exits or
# crashes) keeps the benchmarks it finished; the program is a failed row
# that says when it ended.  Google Benchmark writes no name for the one
# it was running: the failed row names the one before it.
cat >stop.cc <<'EOC'
#include <benchmark/benchmark.h>
#include <csignal>
#include <cstdlib>
#include <cstring>
static void BM_a(benchmark::State &state)
{
	for (auto _ : state)
		benchmark::DoNotOptimize(state.iterations());
}
BENCHMARK(BM_a)->Arg(1)->Arg(2);
static void BM_stop(benchmark::State &state)
{
	const char *how = std::getenv("HOW");
	for (auto _ : state) {
		if (how && std::strcmp(how, "exit") == 0)
			std::exit(0);
		if (how && std::strcmp(how, "crash") == 0)
			std::raise(SIGSEGV);
	}
}
BENCHMARK(BM_stop);
static void BM_manual(benchmark::State &state)
{
	for (auto _ : state)
		state.SetIterationTime(1e-3);
}
BENCHMARK(BM_manual)->UseManualTime();
BENCHMARK_MAIN();
EOC
${CXX:-g++} -O2 -o stop stop.cc -lbenchmark -lpthread
rows() { json_get "$1" 'join "|", map { join " ", grep { defined } $_->{id}, $_->{status}, $_->{reason} } @{$j->{benchmarks}}'; }
"$BM_RUN" -q --env HOW=exit -o exit.json -- ./stop >exit.out 2>&1
check_eq "a benchmark that exits: the ones before it ok, the program failed, when (exit 1)" \
	"1|BM_a/1 ok|BM_a/2 ok|stop failed exited (status 0) during the benchmark after BM_a/2, before the suite finished" \
	"$?|$(rows exit.json)"
check_eq "... the finished ones with their events" "yes yes" \
	"$(json_get exit.json 'join " ", map { $_->{events}{Ir} ? "yes" : "no" } grep { $_->{status} eq "ok" } @{$j->{benchmarks}}')"
"$BM_RUN" -q --env HOW=exit -o first.json -- ./stop --benchmark_filter=BM_stop >first.out 2>&1
check_eq "... in its first benchmark" "1|stop failed exited (status 0) during its first benchmark, before the suite finished" \
	"$?|$(rows first.json)"
"$BM_RUN" -q --env HOW=crash -o crash.json -- ./stop >crash.out 2>&1
check_eq "a benchmark that crashes: the same, and not the DEBUG banner of the library's header as why" \
	"1|BM_a/1 ok|BM_a/2 ok|stop failed killed by signal 11 (Segmentation fault) during the benchmark after BM_a/2, before the suite finished" \
	"$?|$(rows crash.json)"
"$BM_RUN" -q -o aggregates.json -- ./stop --benchmark_filter=BM_a/1 --benchmark_repetitions=3 \
	--benchmark_report_aggregates_only=true >aggregates.out 2>&1
check_eq "--benchmark_report_aggregates_only: failed, what to do" \
	"1|BM_a/1 failed its report has only its aggregates (--benchmark_report_aggregates_only or ->ReportAggregatesOnly()): drop that, every repetition counts the same under simulation" \
	"$?|$(rows aggregates.json)"
"$BM_RUN" -q -o manual.json -- ./stop --benchmark_filter=BM_manual >manual.out 2>&1
check_eq "->UseManualTime(): measured as CPU time, and the row says so" \
	"0|BM_manual/manual_time ok measured as CPU time: the time it reports itself (->UseManualTime()) is not taken" \
	"$?|$(rows manual.json)"
check "... as a warning that names it" grep -q "^bm-run: warning: 'BM_manual/manual_time' is measured as CPU time" manual.out

# Refused before anything runs (exit 2).
# refused REASON ARGS...: "status|whether the output says REASON|report"
refused() {
	reason=$1
	shift
	rm -f refused.json
	"$BM_RUN" -q -o refused.json "$@" >refused.out 2>&1
	echo "$?|$(grep -c -F "$reason" refused.out)|$([ -e refused.json ] && echo written || echo none)"
}
check_eq "--engine callgrind: exit 2, why" "2|1|none" \
	"$(refused "virtual clock (--engine bm)" --engine callgrind -- ./gb)"
check_eq "--clock host: exit 2, why" "2|1|none" \
	"$(refused "virtual clock (--clock virtual)" --clock host -- ./gb)"
check_eq "--filter: exit 2, what to use" "2|1|none" \
	"$(refused "pass its own --benchmark_filter" --filter 'BM_*' -- ./gb)"
check_eq "--harness nanobench: exit 2" "2|1|none" "$(refused "not 'nanobench'" --harness nanobench -- ./gb)"
check_eq "--harness gbench --whole: exit 2" "2|1|none" \
	"$(refused "does not go with --whole" --harness gbench --whole -- ./gb)"
REASON="it wrote no Google Benchmark report" "$BM_RUN" -q --harness gbench -o true.json -- /bin/true
check_eq "--harness gbench on a program that is not one: failed, and why" "1|true|it wrote no Google Benchmark report" \
	"$?|$(json_get true.json '$j->{benchmarks}[0]{id} . "|" . substr($j->{benchmarks}[0]{reason}, 0, 35)')"

done_testing
