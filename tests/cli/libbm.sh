#!/bin/sh
# SPDX-License-Identifier: MIT
# libbm's harness features on a real program (tests/programs/inputs.c):
# the once-per-benchmark setup, string parameters, and the native report
# (--json), which bm-check and a real bm-server read; plus libbm's own
# namespace, and the mistakes in a benchmark's declaration that libbm
# turns into clear errors.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"

INPUTS="$PROGRAMS/inputs"
cd "$scratch" || exit 1
head -c 300 "$top_srcdir/README.md" >small.txt
head -c 20000 "$top_srcdir/Makefile.am" >large.txt

# -- libbm's names: bm_* only, so that no program's own xmalloc clashes --
check_eq "libbm.a defines no global name but bm_*" "" \
	"$(nm -g --defined-only "$top_builddir/instrument/libbm/.libs/libbm.a" | awk 'NF == 3 && $3 !~ /^bm_/ { print $3 }')"
check_eq "libbm.so exports exactly the interface of bm.h" \
	"bm_data bm_id bm_main bm_param bm_param_str bm_register bm_set_data bm_set_shared bm_shared bm_warm_rerun" \
	"$(nm -D --defined-only "$top_builddir"/instrument/libbm/.libs/libbm.so | awk '{ print $3 }' | sort | tr '\n' ' ' | sed 's/ $//')"

# -- string parameters: their values are the tag --
check_eq "--list: a BM_VALUES parameter's strings in the ids" \
	"inputs::checksum[input=small.txt] inputs::checksum[input=large.txt] inputs::copy[input=small.txt] inputs::copy[input=large.txt]" \
	"$("$INPUTS" --list | tr '\n' ' ' | sed 's/ $//')"
check_eq "--filter selects by a string value" "inputs::copy[input=large.txt]" \
	"$("$INPUTS" --list --filter '*large*' --filter 'inputs::copy*' | grep copy | grep large)"

# -- natively: setup_once once per benchmark, around all its timed runs --
INPUTS_LOG="$scratch/once.log" "$INPUTS" --min-time 0.01 >native.out 2>native.err
check_eq "a native run succeeds" "0 4" "$? $(grep -c '^inputs::' native.out)"
check_eq "setup_once and teardown_once ran once for each benchmark, in order" \
	"setup_once inputs::checksum[input=small.txt]|teardown_once inputs::checksum[input=small.txt]|setup_once inputs::checksum[input=large.txt]|teardown_once inputs::checksum[input=large.txt]|setup_once inputs::copy[input=small.txt]|teardown_once inputs::copy[input=small.txt]|setup_once inputs::copy[input=large.txt]|teardown_once inputs::copy[input=large.txt]" \
	"$(tr '\n' '|' <once.log | sed 's/|$//')"
check "... while each benchmark ran thousands of times" \
	awk '/^inputs::checksum\[input=small/ { exit !($NF > 1000) }' native.out

# -- under bm-run: setup_once outside the measured region --
"$BM_RUN" -q -o bm.json -- "$INPUTS" >/dev/null 2>bm.err
check_eq "bm-run measures every benchmark" "0 ok ok ok ok" \
	"$? $(json_get bm.json 'join " ", map { $_->{status} } @{$j->{benchmarks}}')"
check_eq "the tag of a string parameter in the report" "input=small.txt input=large.txt" \
	"$(json_get bm.json 'join " ", map { $_->{tag} } @{$j->{benchmarks}}[0, 1]')"
check_eq "reading the input (setup_once) is not measured: no system call, and the run alone counts" \
	"0 0 0 0" "$(json_get bm.json 'join " ", map { $_->{events}{sysCount} } @{$j->{benchmarks}}')"
check_eq "the shared input and a per-execution copy of it run the same instructions" \
	"$(json_get bm.json '$j->{benchmarks}[0]{events}{Ir} . " " . $j->{benchmarks}[1]{events}{Ir}')" \
	"$(json_get bm.json '$j->{benchmarks}[2]{events}{Ir} . " " . $j->{benchmarks}[3]{events}{Ir}')"

# -- the native report --
"$INPUTS" --min-time 0.01 --json native.json >table.out 2>/dev/null
check_eq "--json: exit 0, the table still on stdout" "0 4" "$? $(grep -c '^inputs::' table.out)"
check_eq "the report: schema, tool, model, a walltime per benchmark in seconds" \
	"bm-report/1 libbm native/libbm walltime/s/ok walltime/s/ok walltime/s/ok walltime/s/ok" \
	"$(json_get native.json 'join " ", $j->{schema}, $j->{tool}{name}, $j->{model}{id}, map { "$_->{metric}/$_->{unit}/$_->{status}" } @{$j->{benchmarks}}')"
check "each value is a positive time below a second, with its spread and run count" json_get native.json \
	'(grep { $_->{value} > 0 && $_->{value} < 1 && $_->{runs} > 10 && $_->{extra_metrics}[0]{metric} eq "walltime_spread" && $_->{extra_metrics}[0]{value} >= 0 } @{$j->{benchmarks}}) == 4 or die'
# libbm writes its report by hand (it brings no Jansson into users'
# programs): lib's one reader, as bm-check uses it, takes it whole.
check_eq "the native report passes the report reader (bm-check on it)" "0 neutral" \
	"$("$top_builddir/uploader/bm-check" --base native.json --head native.json >check.out 2>&1; echo $?) $(sed -n 's/^verdict: //p' check.out)"
check_eq "the program's build id, as bm-run records it" "$(json_get bm.json '$j->{binary}{build_id}')" \
	"$(json_get native.json '$j->{binary}{build_id}')"
"$INPUTS" --min-time 0.01 --json - >stdout.json 2>stderr.out
check_eq "--json -: the report alone on stdout, the table on stderr" "bm-report/1 4" \
	"$(json_get stdout.json '$j->{schema}') $(grep -c '^inputs::' stderr.out)"
mkfifo fifo
(cat fifo >fifo.json) &
"$INPUTS" --min-time 0.01 --filter '*small*' --json fifo >/dev/null 2>&1
wait
check_eq "--json to a FIFO: written through it" "2" "$(json_get fifo.json 'scalar @{$j->{benchmarks}}')"
"$INPUTS" --min-time 0.01 --json "$scratch/no/such/dir/r.json" >nodir.out 2>nodir.err
check_eq "--json into a missing directory: exit 2 before any timing" "2 0" \
	"$? $(grep -c '^inputs::' nodir.out)"
check "... saying which file and why" grep -q "bm: --json: cannot write '$scratch/no/such/dir/r.json': No such file or directory" nodir.err
"$PROGRAMS/cases" --filter 'cases::limited*' --min-time 0.01 --json limited.json >/dev/null 2>&1
check_eq "a time-bounded range's skipped values are in the report, with the reason" "4 ok skipped" \
	"$(json_get limited.json 'join " ", scalar @{$j->{benchmarks}}, map { $_->{status} } @{$j->{benchmarks}}[0, 3]')"
check "... and no metric" json_get limited.json \
	'!defined $j->{benchmarks}[3]{metric} && $j->{benchmarks}[3]{reason} =~ /over the .* limit/ or die'
"$BM_RUN" -q -o x.json -- "$INPUTS" --json y.json >/dev/null 2>json-vg.err
check_eq "--json under Valgrind is a usage error" "2 no" "$? $(test -e y.json && echo yes || echo no)"
check "... pointing at bm-run -o" grep -q 'bm-run -o FILE writes the report' json-vg.err

# bm-check reads two native reports like imported ones.
# The head's first time doubled: half the speed, a regression of -50%.
"$INPUTS" --min-time 0.01 --filter '*small*' --json base.json >/dev/null 2>&1
perl -MJSON::PP -0pe '$j = decode_json($_); $j->{benchmarks}[0]{value} *= 2; $_ = encode_json($j)' \
	base.json >head.json
"$top_builddir/uploader/bm-check" --threshold 0.1 --base base.json --head head.json >check.out 2>check.err
check_eq "bm-check compares two native reports by their walltime: twice the time is -50%" \
	"1 regression -50.00%" \
	"$? $(sed -n 's/^verdict: //p' check.out) $(awk '/^inputs::checksum/ { print $NF }' check.out)"

# bm-upload stores them on a real server, where walltime has a history.
db="$scratch/bm.db"
tok=$("$BM_SERVER_BIN" --db "$db" project create native 2>/dev/null)
start_server "$db" || exit 1
repo="$scratch/repo"
git_repo "$repo"
c1=$(commit c1 2026-11-01T10:00:00Z)
env BM_SERVER="$server_url" BM_PROJECT=native BM_TOKEN="$tok" GITHUB_ACTIONS= \
	"$top_builddir/uploader/bm-upload" -q "$scratch/native.json" >/dev/null 2>"$scratch/upload.err"
check_eq "bm-upload stores a native report" 0 $?
cd "$scratch" || exit 1
api GET "/api/v1/projects/native/benchmarks/inputs%3A%3Achecksum%5Binput%3Dlarge.txt%5D/history?branch=main&metric=walltime" >/dev/null
check_eq "its walltime history holds the measured median" \
	"$(json_get native.json 'sprintf "%.6g", $j->{benchmarks}[1]{value}')" \
	"$(body 'sprintf "%.6g", $j->{points}[0]{value}')"
stop_server

# -- mistakes in a benchmark's declaration: exit 2, saying what --
# compile NAME: builds $scratch/NAME.c against the tree's libbm.
compile() {
	"${CC:-cc}" -O1 -I"$top_srcdir/instrument/libbm" -o "$1" "$1.c" "$top_builddir/instrument/libbm/.libs/libbm.a" -lm 2>"$1.cc"
}
cat >space.c <<'EOC'
#include <bm.h>
static void run(struct bm_state *s) { bm_black_box(bm_param_str(s, "mode")); }
BM_BENCHMARK(m, space, .run = run, .params = BM_PARAMS(BM_VALUES("mode", "fast", "very slow")));
BM_MAIN()
EOC
sed -e 's/"very slow"/"fast"/' -e 's/space/twice/g' space.c >twice.c
sed -e 's/bm_param_str(s, "mode")/bm_param(s, "mode")/' -e 's/space/kind/g' -e 's/"very slow"/"slow"/' space.c >kind.c
compile space && compile twice && compile kind
check_eq "the three programs compile (-Wall-clean macros)" 0 $?
./space --list >/dev/null 2>space.err
check_eq "a value with a space: exit 2" 2 $?
check "... naming it and what a value may not hold" \
	grep -q "space.c:3: value 'very slow' of parameter 'mode' of m::space goes into the id: it may not hold white space" space.err
./twice --list >/dev/null 2>twice.err
check_eq "a value given twice: exit 2" 2 $?
check "... naming the parameter" grep -q "twice.c:3: parameter 'mode' of m::twice has the value at 2 twice" twice.err
./kind --min-time 0.01 >/dev/null 2>kind.err
check_eq "bm_param on a string parameter: exit 2" 2 $?
check "... naming the accessor to use" \
	grep -q "kind.c:3: benchmark m::kind\[mode=fast\] reads string parameter 'mode' with bm_param; use bm_param_str" kind.err

# -- ids: what they may hold and how long they may be, checked before anything runs --
# a N: N letters a.
a() { printf "%${1}s" '' | tr ' ' a; }
# Two benchmarks registered with bm_register, named by the first two
# arguments of `registered NAME FIRST SECOND`.
registered() {
	cat >"$1.c" <<EOC
#include <bm.h>
static void run(struct bm_state *s) { bm_black_box(bm_id(s)[0]); }
static const struct bm_benchmark one = {.suite = "reg", .name = "$2", .run = run};
static const struct bm_benchmark two = {.suite = "reg", .name = "$3", .run = run};
__attribute__((constructor)) static void add(void) { bm_register(&one); bm_register(&two); }
BM_MAIN()
EOC
	compile "$1"
}
registered twins "$(a 600)x" "$(a 600)y"
check_eq "two 600-byte names that differ in their last byte compile" 0 $?
./twins --list >twins.out 2>twins.err
check_eq "... refused at registration: exit 2, nothing listed" "2 0" "$? $(wc -l <twins.out)"
check_eq "... naming the id by its first bytes, and the limit" \
	"bm: the id 'reg::$(a 43)...' is 606 bytes long, over the limit of 511: shorten the suite, name or parameters of this benchmark" \
	"$(cat twins.err)"
"$BM_RUN" -o twins.json -- ./twins >/dev/null 2>twins-run.err
check_eq "bm-run: exit 2, and the harness's reason" \
	"2 bm-run: 'twins': the id 'reg::$(a 43)...' is 606 bytes long, over the limit of 511: shorten the suite, name or parameters of this benchmark" \
	"$? $(cat twins-run.err)"
check "... no report: not one row for both" test ! -e twins.json

# An id of 511 bytes is whole, one of 512 refused, also when a parameter's
# value makes it so: "e::x[v=" and "]" are 8 bytes.
for n in 503 504; do
	printf '#include <bm.h>\nstatic void run(struct bm_state *s) { bm_black_box(bm_id(s)[0]); }\nBM_BENCHMARK(e, x, .run = run, .params = BM_PARAMS(BM_VALUES("v", "short", "%s")));\nBM_MAIN()\n' \
		"$(a $n)" >"edge$n.c"
	compile "edge$n"
done
check_eq "an id of 511 bytes is listed whole" "0 e::x[v=short] 511" \
	"$(./edge503 --list >edge.out; echo $?) $(head -n 1 edge.out) $(tail -n 1 edge.out | tr -d '\n' | wc -c)"
./edge504 --list >edge.out 2>edge.err
check_eq "one of 512 bytes, made by a parameter value: exit 2, nothing listed" "2 0" "$? $(wc -l <edge.out)"
check "... saying where, and how long" grep -q "^bm: edge504.c:3: the id 'e::x\[v=$(a 41)...' is 512 bytes long, over the limit of 511" edge.err

registered spaced "my bench" "other"
./spaced --list >/dev/null 2>spaced.err
check_eq "bm_register with a space in a name: exit 2, saying what a name may not hold" \
	"2 bm: benchmark name 'my bench' in suite 'reg' goes into the id: it may not hold white space, control characters, ':', '[' or ']'" \
	"$? $(cat spaced.err)"
"$BM_RUN" -o spaced.json -- ./spaced >/dev/null 2>spaced-run.err
check_eq "... and under bm-run, exit 2 and that reason, not an unusable callgrind file" \
	"2 bm-run: 'spaced': benchmark name 'my bench' in suite 'reg' goes into the id: it may not hold white space, control characters, ':', '[' or ']'" \
	"$? $(cat spaced-run.err)"
registered colon "a:b" "other"
./colon --list >/dev/null 2>colon.err
check_eq "a ':' in a name (suite::name would read otherwise): exit 2" \
	"2 bm: benchmark name 'a:b' in suite 'reg' goes into the id: it may not hold white space, control characters, ':', '[' or ']'" \
	"$? $(cat colon.err)"
registered latin1 "caf\\xe9" "other"
./latin1 --list >/dev/null 2>latin1.err
check_eq "a name that is not UTF-8 (reports are JSON text): exit 2" \
	"2 bm: benchmark name 'caf?' in suite 'reg' goes into the id, which reports carry as JSON text: it must be UTF-8" \
	"$? $(tr '\351' '?' <latin1.err)"
printf '#include <bm.h>\nstatic void run(struct bm_state *s) { bm_black_box(bm_param(s, "n m")); }\nBM_BENCHMARK(p, x, .run = run, .params = BM_PARAMS(BM_RANGE("n m", 1)));\nBM_MAIN()\n' >pname.c
compile pname
./pname --list >/dev/null 2>pname.err
check_eq "a parameter's name with a space: exit 2" \
	"2 bm: pname.c:3: parameter name 'n m' of p::x goes into the id: it may not hold white space, control characters, ',', '=', '[' or ']'" \
	"$? $(cat pname.err)"

# A skipped value's reason holds the id of the value that took too long
# and the range's name, whole: here 467 and 150 bytes, a control line of
# some 1200 (libbm's was 1024, the reason 255).
lname=$(a 300)
pname=$(a 150 | tr a p)
printf '#include <bm.h>\nstatic void run(struct bm_state *s) { long n = bm_param(s, "%s"), x = 0; for (long i = 0; i < n; i++) bm_black_box(x += i); }\nBM_BENCHMARK(lim, %s, .run = run, .params = BM_PARAMS(BM_RANGE_LIMITED("%s", 1e-12, 1000, 2000)));\nBM_MAIN()\n' \
	"$pname" "$lname" "$pname" >lim.c
compile lim
first="lim::$lname[$pname=1000]"
reason_is() { FIRST=$first PNAME=$pname json_get "$1" '$j->{benchmarks}[1]{reason} =~ /\A\Q$ENV{FIRST}\E took [0-9.e+-]+ s, over the 1e-12 s limit of range \x27\Q$ENV{PNAME}\E\x27\z/ ? "whole" : $j->{benchmarks}[1]{reason}'; }
./lim --min-time 0.001 --json lim-native.json >/dev/null 2>&1
check_eq "natively: the skipped value's reason is whole" "skipped whole" \
	"$(json_get lim-native.json '$j->{benchmarks}[1]{status}') $(reason_is lim-native.json)"
"$BM_RUN" -q -o lim.json -- ./lim >/dev/null 2>&1
check_eq "under bm-run: the skip line carries it whole" "0 skipped whole" \
	"$? $(json_get lim.json '$j->{benchmarks}[1]{status}') $(reason_is lim.json)"

# -- BM_WARM_RERUN: the measured run right after the warm-up, with no setup
# between them to sweep the caches (issue 23) --
cat >rerun.c <<'EOC'
#include <bm.h>
#include <stdlib.h>
#define SMALL 4096
#define SWEEP (16 << 20)
static char small[SMALL], *sweep;
static void evict(struct bm_state *s) { (void)s; if (!sweep) sweep = malloc(SWEEP); for (long i = 0; i < SWEEP; i += 64) ((volatile char *)sweep)[i] = 1; }
static void sum(struct bm_state *s) { long t = 0; for (int i = 0; i < SMALL; i += 64) t += ((volatile char *)small)[i]; (void)s; bm_black_box(t); }
BM_BENCHMARK(rerun, fresh, .run = sum, .setup = evict);
BM_BENCHMARK(rerun, rerun, .run = sum, .setup = evict);
BM_WARM_RERUN(rerun, rerun)
BM_MAIN()
EOC
compile rerun
"$BM_RUN" -q -o rerun.json -- ./rerun >/dev/null 2>&1
check_eq "BM_WARM_RERUN: the same instructions as with a setup between the runs" \
	"0 $(json_get rerun.json '$j->{benchmarks}[0]{events}{Ir}')" "$? $(json_get rerun.json '$j->{benchmarks}[1]{events}{Ir}')"
check_eq "BM_WARM_RERUN: the small array stays in the caches (a setup that sweeps 16 MiB between the runs made every line miss)" \
	"yes 0" "$(json_get rerun.json 'my ($f, $r) = map { $_->{events}{D1mr} } @{$j->{benchmarks}}; ($f >= 64 ? "yes" : $f) . " $r"')"

done_testing
