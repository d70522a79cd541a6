#!/bin/sh
# SPDX-License-Identifier: MIT
# bm-model/4 (bm-run --model bm-model/4, docs/cycle-model.md): bm-model/3
# with chains through memory and software prefetches, on
# x86-64-v3-server.  What the engine gets; a value that one pass of a
# loop stores and the next loads back (a volatile counter, a field
# updated in place, -O0 code) costs at least the forwarding's 4 cycles a
# pass, where bm-model/3 charges about 1.5, and the same sum in a
# register costs what it did; a prefetch of every addressing form brings
# its line, and a search that prefetches is faster, as natively; the
# same events on every run; the report's model and CPU; bm-check
# refusing to compare it with bm-model/3.
. "$top_srcdir/tests/cli/lib.sh"

need_engine
unset BM_CPU BM_ENGINE BM_MODEL
BM_CHECK="$top_builddir/uploader/bm-check"
PROG="$PROGRAMS/memory_chain"
cd "$scratch" || exit 1
need_x86_64_v3

# -- what runs: bm-model/3's command with its own core and CPU --
"$BM_RUN" --model bm-model/3 --print-command -- "$PROG" >m3.cmd 2>&1
"$BM_RUN" --model bm-model/4 --print-command -- "$PROG" >m4.cmd 2>&1
check_eq "bm-model/4: bm-model/3's command line with --core=bm-model/4 and --cpu=x86-64-v3-server" \
	"$(sed 's|--core=bm-model/3|--core=bm-model/4|; s|--cpu=x86-64-v3 |--cpu=x86-64-v3-server |' m3.cmd)" \
	"$(cat m4.cmd)"
"$BM_RUN" --model bm-model/4 --cpu x86-64-v3 --print-command -- "$PROG" >m4v3.cmd 2>&1
check "... --cpu still chooses" grep -q -e '--cpu=x86-64-v3 ' m4v3.cmd

# -- chains through memory --
benches="--bench volatile_counter --bench field_in_place --bench unoptimised_sum --bench register_sum"
for m in 3 4; do
	# shellcheck disable=SC2086
	"$BM_RUN" -q --verify --no-profile --model bm-model/$m $benches -o m$m.json -- "$PROG" >/dev/null 2>m$m.err
	check_eq "bm-model/$m: the four loops, twice the same events (--verify)" 0 $?
done
cycles() {
	json_get m$1.json '(map { $_->{cycles} } grep { $_->{id} eq "memory_chain::'"$2"'" } @{$j->{benchmarks}})[0]'
}
# 5,000 passes each; under a tenth of a cycle a pass is the call's own.
per_pass() {
	echo $(($(cycles "$1" "$2") / 500))
}
for f in volatile_counter field_in_place unoptimised_sum; do
	check "$f: at least 4 cycles a pass under bm-model/4 ($(cycles 4 $f) cycles for 5,000)" \
		test "$(per_pass 4 $f)" -ge 40
	check "... under 2 under bm-model/3 ($(cycles 3 $f)), which lets the passes overlap" \
		test "$(per_pass 3 $f)" -lt 20
done
check_eq "register_sum, whose sum no store carries: the same under both" "$(cycles 3 register_sum)" \
	"$(cycles 4 register_sum)"
sed 's/^/# /' m4.err

# -- software prefetches: a load of their line under bm-model/4 --
PF="$PROGRAMS/prefetch"
for m in 3 4; do
	# Not --verify: its second run moves the stack down three pages,
	# whose canonical place keeps its address modulo 1 MiB, so that its
	# lines meet the 16 MiB tree's in other LL sets: a few misses
	# otherwise (search_plain's DLmr 16,544 and 16,542), under bm-model/3
	# as under bm-model/4.  (Normal runs pad the stack to one place.)
	"$BM_RUN" -q --no-profile --model bm-model/$m --bench touch_lines --bench search_plain \
		--bench search_prefetch -o pf$m.json -- "$PF" >/dev/null 2>pf$m.err
	check_eq "bm-model/$m: the prefetching program ran" 0 $?
done
ev() {
	json_get pf$1.json '(map { $_->{'"$3"'} } grep { $_->{id} eq "prefetch::'"$2"'" } @{$j->{benchmarks}})[0]'
}
check_eq "bm-model/4: each of eleven prefetches (every addressing form, t0 t1 t2 nta w) brought its line: loading them misses none" \
	0 "$(ev 4 touch_lines 'events}{D1mr')"
check_eq "... under bm-model/3, which leaves prefetches out, all eleven miss" 11 "$(ev 3 touch_lines 'events}{D1mr')"
check_eq "... a prefetch counts as a load (Dr): 8,000 searches of 22 levels" 176000 \
	$(($(ev 4 search_prefetch 'events}{Dr') - $(ev 3 search_prefetch 'events}{Dr')))
plain4=$(ev 4 search_plain cycles) pref4=$(ev 4 search_prefetch cycles)
plain3=$(ev 3 search_plain cycles) pref3=$(ev 3 search_prefetch cycles)
check "an Eytzinger search over 16 MiB that prefetches four levels down: under half the cycles of the one that does not under bm-model/4 ($pref4 against $plain4; natively about 2x faster)" \
	test $((pref4 * 2)) -lt "$plain4"
check "... and no faster under bm-model/3 ($pref3 against $plain3: within a tenth)" \
	test $((pref3 * 10)) -gt $((plain3 * 9))

# -- the report --
check_eq "the report: bm-model/4 on x86-64-v3-server" "bm-model/4|yes" \
	"$(json_get m4.json '$j->{model}{id} . "|" . ($j->{model}{cpu} =~ /^bm x86-64-v3-server:/ ? "yes" : "no")')"
env -u BM_SERVER "$BM_CHECK" --base m3.json --head m4.json >check.out 2>check.err
check_eq "bm-check --base bm-model/3 --head bm-model/4: exit 2 (two models are two series)" 2 $?
sed 's/^/# /' check.err

# -- the engine by hand --
env -i VALGRIND_LIB="$ENGINE_DIR" "$VALGRIND" --tool=bm --block-cost=yes --core=bm-model/4 \
	--callgrind-out-file=/dev/null /bin/true >/dev/null 2>engine.err
check_eq "the engine takes --core=bm-model/4" 0 $?

done_testing
