#!/bin/sh
# SPDX-License-Identifier: MIT
# Hermetic numbers (issue 40; docs/determinism.md "What else the host
# has"): a libbm program whose benchmarks call zlib and libc, measured in
# every mode (libbm, symbol, whole process) as it is, under a mount
# namespace whose /etc/ld.so.cache lists a directory of more libraries
# (as installing a package does), with a library directory on
# LD_LIBRARY_PATH, and with a larger environment: the same events and
# cycles every time.  Before the canonical layout, a cache a few pages
# larger moved every library and anonymous mapping, and with them the
# branch predictor's indices and L2's sets: zlib's compress2 counted
# other mispredictions.  Under bm-model/3 where the host runs x86-64-v3
# (the predictor, L2 and prefetchers), else bm-model/1 with --branch-sim.
. "$(dirname "$0")/lib.sh"

need_engine
cd "$scratch" || exit 1
prog="$PROGRAMS/hermetic"
model="--model bm-model/1 --branch-sim"
[ -z "$(host_lacks_v3)" ] && model="--model bm-model/3"
echo "# measured with $model"

# A directory of libraries the program never loads: 60 of them, with
# long names, so that a cache that lists them is pages larger.
mkdir libs
echo 'int f(void) { return 1; }' >lib.c
long=$(printf '%*s' 120 '' | tr ' ' x)
for i in $(seq 60); do
	${CC:-cc} -shared -fPIC -o "libs/lib$long$i.so.1" -Wl,-soname,"lib$long$i.so.1" lib.c || exit 1
done
printf '%s\ninclude /etc/ld.so.conf.d/*.conf\n' "$scratch/libs" >ld.conf

# numbers FILE: every benchmark's events (but the system calls' times)
# and cycles, a line each.
numbers() {
	json_get "$1" 'join "\n", map { my $b = $_; join " ", $b->{id}, $b->{status}, $b->{cycles} // "-",
		map { "$_=$b->{events}{$_}" } grep { !/^sys.*Time$/ } sort keys %{$b->{events} // {}} } @{$j->{benchmarks}}'
}

# measure NAME [BM-RUN OPTIONS...]: the three modes, into NAME.numbers.
measure() {
	name=$1
	shift
	# shellcheck disable=SC2086
	{ "$BM_RUN" -q $model "$@" -o "$name.h.json" -- "$prog" &&
		"$BM_RUN" -q $model "$@" --bench compress2 --bench qsort --bench sum_run -o "$name.s.json" -- "$prog" --plain &&
		"$BM_RUN" -q $model "$@" --whole -o "$name.w.json" -- "$prog" --plain; } >/dev/null 2>"$name.err" ||
		sed 's/^/# /' "$name.err"
	for m in h s w; do numbers "$name.$m.json"; done >"$name.numbers"
}

# Every run has one variable more than bm-run's own (a whole process's
# libc reads its environment at its start: a variable more is a few
# instructions more, the program's input like its arguments).
measure base --env BM_TEST=1
check_eq "the program's benchmarks, the functions and the whole process measured" \
	"libc::qsort ok|own::sum ok|zlib::compress ok|hermetic::compress2 ok|hermetic::qsort ok|hermetic::sum_run ok|hermetic ok" \
	"$(cut -d' ' -f1,2 base.numbers | tr '\n' '|' | sed 's/|$//')"
check "... with mispredictions (the predictor is on)" grep -q 'zlib::compress ok [0-9]* .*Bcm=[1-9]' base.numbers

measure path --env LD_LIBRARY_PATH="$scratch/libs"
check_output "a library directory on LD_LIBRARY_PATH: the same events and cycles" base.numbers path.numbers
measure env --env BM_TEST="$(printf '%*s' 3000 '' | tr ' ' x)"
check_output "an environment 3,000 bytes larger: the same" base.numbers env.numbers
measure again --env BM_TEST=1
check_output "a second run: the same" base.numbers again.numbers

# --verify's second run moves every mapping (Valgrind's --aspace-minaddr)
# and makes the environment larger: what moves is named.
for m in "" "--bench compress2 --bench qsort" --whole; do
	args=
	[ -n "$m" ] && args=--plain
	# shellcheck disable=SC2086
	"$BM_RUN" -q $model --verify $m -o /dev/null -- "$prog" $args >/dev/null 2>verify.err
	check_eq "--verify${m:+ $m}: the second run's other mappings and environment move nothing" "0|" "$?|$(cat verify.err)"
done
# ... which is no small change: the same run by hand, with the guest's own
# addresses (--layout=host, as callgrind has them), counts otherwise when
# the mappings move.
"$BM_RUN" $model --whole --print-command -- "$prog" --plain >cmd.sh 2>&1
by_hand() {
	sed "s|--layout=canonical|--layout=$1|; s|--tool=bm |--tool=bm ${2:-} |; s|mktemp -d /tmp/bm-run.XXXXXX|mkdir $scratch/hand \&\& echo $scratch/hand|" \
		cmd.sh >hand.sh
	rm -rf "$scratch/hand"
	sh hand.sh >/dev/null 2>&1
	sed -n 's/^totals: //p' "$scratch"/hand/cg.*.out | cut -d' ' -f1-21,24- # (not the system calls' times)
}
check "by hand, --layout=host: other mispredictions or misses once the mappings move" \
	test "$(by_hand host)" != "$(by_hand host --aspace-minaddr=0x40000000)"
check_eq "by hand, --layout=canonical: the same events" "$(by_hand canonical)" "$(by_hand canonical --aspace-minaddr=0x40000000)"

# Another /etc/ld.so.cache, as the host's packages make it: only where
# this user may make a mount namespace (root, as the quick start runs).
if ldconfig -C "$scratch/big.cache" -f "$scratch/ld.conf" 2>ldconfig.err &&
	unshare -m sh -c "mount --bind '$scratch/big.cache' /etc/ld.so.cache" 2>/dev/null; then
	grown=$(( $(wc -c <big.cache) - $(wc -c </etc/ld.so.cache) ))
	check "the other loader cache is pages larger ($grown bytes more)" test "$grown" -ge 8192
	# shellcheck disable=SC2086
	unshare -m sh -c "mount --bind '$scratch/big.cache' /etc/ld.so.cache &&
		cd '$scratch' && BM_RUN='$BM_RUN' prog='$prog' model='$model' sh -c '
		\"\$BM_RUN\" -q \$model --env BM_TEST=1 -o cache.h.json -- \"\$prog\" &&
		\"\$BM_RUN\" -q \$model --env BM_TEST=1 --bench compress2 --bench qsort --bench sum_run -o cache.s.json -- \"\$prog\" --plain &&
		\"\$BM_RUN\" -q \$model --env BM_TEST=1 --whole -o cache.w.json -- \"\$prog\" --plain'" >/dev/null 2>cache.err ||
		sed 's/^/# /' cache.err
	for m in h s w; do numbers "cache.$m.json"; done >cache.numbers
	check_output "another /etc/ld.so.cache (pages larger): the same events and cycles in every mode" base.numbers cache.numbers
else
	ok "# SKIP another /etc/ld.so.cache: no mount namespace here ($(head -n 1 ldconfig.err 2>/dev/null))"
fi

done_testing
