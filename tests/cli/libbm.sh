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
	"$(nm -g --defined-only "$top_builddir/instrument/.libs/libbm.a" | awk 'NF == 3 && $3 !~ /^bm_/ { print $3 }')"
check_eq "libbm.so exports exactly the interface of bm.h" \
	"bm_data bm_id bm_main bm_param bm_param_str bm_register bm_set_data bm_set_shared bm_shared" \
	"$(nm -D --defined-only "$top_builddir"/instrument/.libs/libbm.so | awk '{ print $3 }' | sort | tr '\n' ' ' | sed 's/ $//')"

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
	"${CC:-cc}" -O1 -I"$top_srcdir/instrument" -o "$1" "$1.c" "$top_builddir/instrument/.libs/libbm.a" -lm 2>"$1.cc"
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

done_testing
