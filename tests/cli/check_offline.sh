#!/bin/sh
# SPDX-License-Identifier: MIT
# bm-check --base --head: the seed's worked examples, failed benchmarks,
# reports that cannot be compared, bad input, the table, the Markdown
# summary (golden files) and Chromium-style expectations.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"

BM_CHECK="$top_builddir/uploader/bm-check"
golden="$top_srcdir/tests/cli/data/check"
unset GITHUB_STEP_SUMMARY BM_PROJECT
cd "$scratch" || exit 1

# bmc ARGS...: runs bm-check; stdout to out, stderr to err, prints the
# exit code.  (Not the caller's BM_SERVER: --server is the tests' to give.)
bmc() {
	env -u BM_SERVER "$BM_CHECK" "$@" >out 2>err
	echo $?
}

# -- the seed's three worked examples (SPEC 4.1) --
make_report w0.json main e0e0e0 2026-11-01T10:00:00Z "" 100,100,100
make_report w1.json main e1e1e1 2026-11-02T10:00:00Z e0e0e0 110,100,70
make_report w2.json main e2e2e2 2026-11-03T10:00:00Z e0e0e0 110,130,80
check_eq "[0.1, 0, -0.3], t = 0.25: -0.3, a regression, exit 1" \
	"1|commit impact: -30.00% (threshold 25%)|verdict: regression" \
	"$(bmc --base w0.json --head w1.json --threshold 0.25)|$(sed -n 3,4p out | paste -sd'|')"
check_eq "the baseline is named with the reason it was chosen" \
	"commit e1e1e1 on x86_64-debian-12-gcc-12.2.0|baseline: e0e0e0 (the report 'w0.json' given with --base)" \
	"$(sed -n 1,2p out | paste -sd'|')"
check_eq "the table: worst first, signed percentages, speeds with units" \
	"benchmark  base speed   speed   impact  cause|suite::b3      100 /s   70 /s  -30.00%  more instructions (Ir +42.86%)|suite::b1      100 /s  110 /s  +10.00%|1 unchanged" \
	"$(sed -n '6,$p' out | paste -sd'|')"
check_eq "[0.1, 0.3, -0.2], t = 0.25: 0.3, an improvement, exit 0" \
	"0|commit impact: +30.00% (threshold 25%)|verdict: improvement" \
	"$(bmc --base w0.json --head w2.json --threshold 0.25)|$(sed -n 3,4p out | paste -sd'|')"
check_eq "[0.1, 0.3, -0.2], t = 0.5: the geometric mean ~0.0459, neutral, exit 0" \
	"0|commit impact: +4.59% (threshold 50%)|verdict: neutral" \
	"$(bmc --base w0.json --head w2.json --threshold 0.5)|$(sed -n 3,4p out | paste -sd'|')"
check_eq "the default threshold is 0.10" "1|commit impact: -20.00% (threshold 10%)" \
	"$(bmc --base w0.json --head w2.json)|$(sed -n 3p out)"
check_eq "nothing on stderr when all went well" "" "$(cat err)"

# -- failed benchmarks --
make_report f1.json main f1f1f1 2026-11-02T10:00:00Z e0e0e0 200,-,100
check_eq "a failed benchmark: exit 1, verdict failed, listed first with its reason" \
	"1|verdict: failed|suite::b2      100 /s       -    failed|suite::b2 failed: killed by signal 11 (Segmentation fault)" \
	"$(bmc --base w0.json --head f1.json)|$(sed -n 4p out)|$(sed -n 7p out)|$(tail -n 1 out)"

# -- reports that are not compared: exit 2, naming what differs and what to rerun --
make_report m2.json main d1d1d1 2026-11-02T10:00:00Z e0e0e0 50,50,50 model=bm-model/2
check_eq "another cost model: exit 2, one line naming the field" \
	"2|bm-check: 'w0.json' and 'm2.json' cannot be compared: cost model: bm-model/1 in 'w0.json', bm-model/2 in 'm2.json' (results of two cost models never compare: rerun one of them with the other's model: bm-run --model bm-model/1, or --model bm-model/2)|" \
	"$(bmc --base w0.json --head m2.json)|$(cat err)|$(cat out)"
make_report a2.json main d1d1d1 2026-11-02T10:00:00Z e0e0e0 50,50,50 arch=aarch64
check_eq "another platform: exit 2, naming both" \
	"2|bm-check: 'w0.json' and 'a2.json' cannot be compared: platform: x86_64-debian-12-gcc-12.2.0 in 'w0.json', aarch64-debian-12-gcc-12.2.0 in 'a2.json' (results of two platforms never compare: rerun one of them on the other's compiler, OS and architecture)" \
	"$(bmc --base w0.json --head a2.json)|$(cat err)"
# The issue's case: bm-run's default engine against bm-run --engine
# callgrind, whose guest sees the host's CPU (xxHash's run-time dispatch
# took another path: "+212.17%" was printed, exit 0).
make_report cg.json main d1d1d1 2026-11-02T10:00:00Z e0e0e0 300,300,300 engine=callgrind "cpu=host: AMD EPYC"
make_report bm.json main e0e0e0 2026-11-01T10:00:00Z "" 100,100,100 engine=bm "cpu=$(sed -n 's/^[[:space:]]*"\(VEX baseline[^"]*\)".*/\1/p' "$top_srcdir/lib/report.h")"
check_eq "the bm engine against callgrind: exit 2, the engine named (not the CPU that follows from it)" \
	"2|bm-check: 'bm.json' and 'cg.json' cannot be compared: engine: bm in 'bm.json', callgrind in 'cg.json' (rerun one of them with the other's engine: bm-run --engine bm, or --engine callgrind)|" \
	"$(bmc --base bm.json --head cg.json)|$(cat err)|$(cat out)"
check_eq "... and the other way round" "2|engine: callgrind in 'cg.json', bm in 'bm.json'" \
	"$(bmc --base cg.json --head bm.json)|$(sed 's/.*compared: \(.*\) (rerun.*/\1/' err)"
check_eq "a bm-engine report that names today's fixed CPU compares with one that names none (older reports)" "1" \
	"$(bmc --base bm.json --head w1.json)"
make_report cg2.json main d1d1d1 2026-11-02T10:00:00Z e0e0e0 300,300,300 engine=callgrind "cpu=host: Intel(R) Xeon(R)"
check_eq "callgrind on two CPUs: exit 2, the virtual CPU named" \
	"2|bm-check: 'cg.json' and 'cg2.json' cannot be compared: virtual CPU: 'host: AMD EPYC' in 'cg.json', 'host: Intel(R) Xeon(R)' in 'cg2.json' (code that dispatches on the CPU takes other paths: rerun one of them where the other ran, or both with one bm version and its engine, whose virtual CPU is fixed: bm-run --engine bm)" \
	"$(bmc --base cg.json --head cg2.json)|$(cat err)"
make_report cold.json main d1d1d1 2026-11-02T10:00:00Z e0e0e0 50,50,50
make_report warm.json main d2d2d2 2026-11-02T10:00:00Z e0e0e0 50,50,50 warm=1
check_eq "a cold baseline and a warm head: exit 2, the caches named" \
	"2|bm-check: 'cold.json' and 'warm.json' cannot be compared: simulated caches: cold in 'cold.json', warm in 'warm.json' (rerun one of them as the other was: bm-run --cold, or --warm)" \
	"$(bmc --base cold.json --head warm.json)|$(cat err)"
check_eq "... and no summary written" "2|no" \
	"$(bmc --base cold.json --head warm.json --markdown nobase.md)|$(test -e nobase.md && echo yes || echo no)"

# -- errors: exit 2 with a clear message --
check_eq "a missing file: exit 2" "2 bm-check: cannot open 'nope.json': No such file or directory" \
	"$(bmc --base nope.json --head w1.json) $(cat err)"
printf '{"schema": "bm-report/1",\n' >bad.json
check_eq "malformed JSON: exit 2, with the file, line and column" \
	"2 bm-check: bad.json:2:0: string or '}' expected near end of file" "$(bmc --base w0.json --head bad.json) $(cat err)"
echo '{"schema": "bm-report/9"}' >schema.json
check_eq "another schema: exit 2, naming the file" "2 bm-check: schema.json: " \
	"$(bmc --base w0.json --head schema.json) $(cut -c1-23 err)"
check_eq "--base without --head: usage, exit 2" "2 bm-check: --base needs --head" "$(bmc --base w0.json) $(head -n 1 err)"
check_eq "a threshold out of range: exit 2" "2 bm-check: --threshold needs a number from 0 to 0.5, not '0.9'" \
	"$(bmc --base w0.json --head w1.json --threshold 0.9) $(cat err)"
check_eq "online without a server: exit 2 and what to set" \
	"2 bm-check: no server: give --server URL or set BM_SERVER (or compare files with --base and --head)" \
	"$(bmc) $(head -n 1 err)"

# -- numbers that contradict themselves are refused: exit 2, naming the benchmark --
# with "KEY=VALUE...": w1.json with those numbers of suite::b1, as bad.json.
with() {
	SET=$1 perl -MJSON::PP -0pe '$j = decode_json($_); my $b = $j->{benchmarks}[0];
		for (split / /, $ENV{SET}) { my ($k, $v) = split /=/; $b->{$k} = $v + 0 }
		$_ = encode_json($j)' w1.json >bad.json
}
with "cycles=1000 time_s=5 speed=1e12"
check_eq "cycles 1000, time 5 s, speed 1e12: exit 2 (it was gated at +16547933233.33%)" \
	"2|bm-check: bad.json: benchmarks[0].speed: 1e+12 in benchmark 'suite::b1' contradicts its cycles: 1000 cycles at model.frequency_hz 3000000000 are 3000000 runs per second (speed = frequency_hz / cycles)" \
	"$(bmc --base w0.json --head bad.json)|$(cat err)"
with "speed=0"
check_eq "speed 0: exit 2 (it gave no impact and a neutral verdict)" "2|bm-check: bad.json: benchmarks[0].speed: 0 in benchmark" \
	"$(bmc --base bad.json --head w1.json)|$(cut -c1-55 err)"
with "speed=5e-324"
check_eq "speed 5e-324: exit 2 (it was a -100% regression ranked first)" "2|bm-check: bad.json: benchmarks[0].speed: 4.940656458e-324 in benchmark" \
	"$(bmc --base w0.json --head bad.json)|$(cut -c1-70 err)"
with "time_s=0.0091"
check_eq "a time that is not cycles / frequency: exit 2" \
	"2|bm-check: bad.json: benchmarks[0].time_s: 0.0091 in benchmark 'suite::b1' contradicts its cycles: 27272727 cycles at model.frequency_hz 3000000000 take 0.009090909 s (time_s = cycles / frequency_hz)" \
	"$(bmc --base w0.json --head bad.json)|$(cat err)"
with "cycles=0 speed=0"
check_eq "0 cycles with a time: exit 2" \
	"2|bm-check: bad.json: benchmarks[0].time_s: 0.009090909 in benchmark 'suite::b1' contradicts its cycles: 0 cycles take no time and have no speed (0 for both)" \
	"$(bmc --base w0.json --head bad.json)|$(cat err)"
with "cycles=0 time_s=0 speed=0"
check_eq "0 cycles, no time, no speed (bm-profile of a file that counted nothing): read, not compared" \
	"1|suite::b1      100 /s   0 /s        -" \
	"$(bmc --base w0.json --head bad.json)|$(grep '^suite::b1' out)"
perl -MJSON::PP -0pe '$j = decode_json($_); $j->{benchmarks}[1]{id} = $j->{benchmarks}[0]{id}; $_ = encode_json($j)' w1.json >dup.json
check_eq "a benchmark id twice: exit 2, as the server refuses it (it picked one silently)" \
	"2|bm-check: dup.json: benchmarks: 'suite::b1' appears twice" "$(bmc --base w0.json --head dup.json)|$(cat err)"
# imported FILE SHA SECONDS: a report of one imported benchmark whose
# walltime is SECONDS (a value of its own: any finite size).
imported() {
	make_report "$1" main "$2" 2026-11-01T10:00:00Z "" 100 ids=i::x model=import/gbench
	V=$3 perl -MJSON::PP -i -0pe '$j = decode_json($_); @{$j->{benchmarks}[0]}{qw(metric unit value)} = ("walltime", "s", $ENV{V} + 0);
		$_ = encode_json($j)' "$1"
}
imported i0.json 9a9a9a 1e100
imported i1.json 9b9b9b 1e-100
check_eq "an impact of 1e200: printed whole, in exponent notation (it was cut without its %)" \
	"0|commit impact: +1e+202% (threshold 10%)|i::x         1e+100 s  1e-91 ns  +1e+202%" \
	"$(bmc --base i0.json --head i1.json)|$(sed -n 3p out)|$(grep '^i::x' out)"
check_eq "... and in the Markdown summary" "1 1" \
	"$(bmc --base i0.json --head i1.json --markdown big.md >/dev/null; grep -c '+1e+202% (' big.md) $(grep -c ' 1e+100 s | 1e-91 ns | +1e+202% |' big.md)"

# -- unchanged benchmarks are collapsed into one line --
make_report u0.json main u0u0u0 2026-11-01T10:00:00Z "" 100,100,100,100,100
make_report u1.json main u1u1u1 2026-11-02T10:00:00Z u0u0u0 100,100.05,99.95,100,90
check_eq "|impact| below 0.1% or 0: one line 'N unchanged'" "0|suite::b5      100 /s  90 /s  -10.00%  more instructions (Ir +11.11%)|4 unchanged" \
	"$(bmc --base u0.json --head u1.json)|$(sed -n '7,$p' out | paste -sd'|')"

# -- the Markdown summary (golden files) --
make_report g0.json main 0a0a0a 2026-11-01T10:00:00Z "" 100,100,100,100,100,1000000 \
	'ids=sort::a|b<c>&d,sort::quick_sort[n=1000],sort::same,parse::json,parse::gone,io::big'
make_report g1.json main 1b1b1b 2026-11-02T10:00:00Z 0a0a0a 80,125,100,-,250,2500000 \
	'ids=sort::a|b<c>&d,sort::quick_sort[n=1000],sort::same,parse::json,parse::new
line,io::big'
check_eq "--markdown: exit 1 (a failed benchmark), written" "1" "$(bmc --base g0.json --head g1.json --markdown summary.md)"
check_output "--markdown: the summary, byte for byte" "$golden/summary.md" summary.md
check_output "the text table for the same reports" "$golden/summary.txt" out
printf 'earlier step\n' >step.md
GITHUB_STEP_SUMMARY="$scratch/step.md" "$BM_CHECK" --base g0.json --head g1.json >/dev/null 2>&1
GITHUB_STEP_SUMMARY="$scratch/step.md" "$BM_CHECK" --base w0.json --head w2.json --threshold 0.25 >/dev/null 2>&1
{
	printf 'earlier step\n'
	cat "$golden/summary.md" "$golden/improvement.md"
} >step.expected
check_output "GITHUB_STEP_SUMMARY: each check appended after what was there" step.expected step.md
check_eq "--markdown into a missing directory: exit 2" "2" "$(bmc --base w0.json --head w1.json --markdown no/such/dir.md)"

# -- expectations (Chromium style) --
make_report x0.json main 0c0c0c 2026-11-01T10:00:00Z "" 100,100,100,100,100 ids=sort::a,sort::b,sort::c,sort::d,sort::e
make_report x1.json main 1c1c1c 2026-11-02T10:00:00Z 0c0c0c 80,120,97,100,100 ids=sort::a,sort::b,sort::c,sort::d,sort::e
make_report x2.json main 2c2c2c 2026-11-02T10:00:00Z 0c0c0c 80,120,97,100,- ids=sort::a,sort::b,sort::c,sort::d,sort::e
cat >exp.json <<'EOF'
{"x86_64-debian-12-gcc-12.2.0/sort/a/speed": {"improve": 0.05, "regress": -0.05},
 "*/sort/b/speed": {"improve": 0.05, "regress": -0.05},
 "x86_64-debian-12-gcc-12.2.0/sort/c/speed": {"improve": 0.1, "regress": -0.1},
 "aarch64-debian-12-gcc-12.2.0/sort/d/speed": {"improve": 0.1, "regress": -0.1},
 "load": true}
EOF
check_eq "expectations: a regression beyond 'regress' is FAILURE, exit 1" "1" "$(bmc --base x0.json --head x1.json --expectations exp.json)"
check_output "expectations: FAILURE, WARNING (update them), SUCCESS; unlisted ones not shown" \
	"$golden/expectations.txt" out
sed 's|"improve": 0.05, "regress": -0.05}|"improve": 0.05, "regress": -0.25}|' exp.json >exp2.json
check_eq "expectations decide for the benchmarks they list: -20% within -25%, exit 0" \
	"0|verdict: regression|expectations (exp2.json): WARNING, 3 of 5 benchmarks judged|SUCCESS  x86_64-debian-12-gcc-12.2.0/sort/a/speed: impact -20.00% is within [-25.00%, +5.00%]" \
	"$(bmc --base x0.json --head x1.json --expectations exp2.json)|$(sed -n 4p out)|$(grep '^expectations' out)|$(grep 'sort/a/speed' out | sed 's/^ *//')"
check_eq "expectations: a failed benchmark is FAILURE even when unlisted, exit 1" "1|FAILURE  sort::e: failed: killed by signal 11 (Segmentation fault)" \
	"$(bmc --base x0.json --head x2.json --expectations exp2.json)|$(grep 'sort::e: failed' out | sed 's/^ *//')"
make_report x3.json main 3c3c3c 2026-11-02T10:00:00Z 0c0c0c 100,100,100,85,100 ids=sort::a,sort::b,sort::c,sort::d,sort::e
check_eq "expectations: an unlisted benchmark's regression is still judged by the threshold" "1" \
	"$(bmc --base x0.json --head x3.json --expectations exp2.json)"
check_output "expectations in the Markdown summary" "$golden/expectations.md" \
	"$(bmc --base x0.json --head x1.json --expectations exp.json --markdown exp.md >/dev/null; echo exp.md)"
printf '{"load": true, "x86_64-debian-12-gcc-12.2.0/sort/a/speed": {"improve": 0.05}}\n' >broken.json
check_eq "a malformed expectations file: a warning naming the problem, the check goes on" \
	"1|bm-check: warning: broken.json: key 'x86_64-debian-12-gcc-12.2.0/sort/a/speed': missing field 'regress'; going on without expectations|0" \
	"$(bmc --base x0.json --head x1.json --expectations broken.json)|$(cat err)|$(grep -c '^expectations' out)"
printf '{"load": true, "x86_64-debian-12-gcc-12/sort/a/speed": {"improve": 0.05, "regress": -0.05}}\n' >elsewhere.json
check_eq "expectations that judge no benchmark: a loud warning naming the key in use and the nearest in the file" \
	"bm-check: warning: elsewhere.json judges none of the 5 benchmarks: this run's platform key is 'x86_64-debian-12-gcc-12.2.0'; the nearest in the file is 'x86_64-debian-12-gcc-12'|  platform key: x86_64-debian-12-gcc-12.2.0" \
	"$(bmc --base x0.json --head x1.json --expectations elsewhere.json >/dev/null; cat err)|$(grep 'platform key' out)"
printf '{"load": true, "x/sort/a/cycles": {"improve": 0.05, "regress": -0.05}}\n' >metric.json
check_eq "expectations on another metric: a warning" \
	"bm-check: warning: metric.json: key 'x/sort/a/cycles': metric 'cycles' is not one bm-check gates on (speed, instructions, syscalls, allocations, bytes_allocated or peak_bytes); going on without expectations" \
	"$(bmc --base x0.json --head x1.json --expectations metric.json >/dev/null; cat err)"
printf '{"load": tru' >syntax.json
check "expectations that are not JSON: a warning with the line" \
	sh -c "'$BM_CHECK' --base x0.json --head x1.json --expectations syntax.json 2>&1 >/dev/null | grep -q '^bm-check: warning: syntax.json:1:'"
grep -v '"load"' exp.json | sed '$ s/,$/}/' >noload.json
check_eq "expectations without \"load\": true are ignored, with a warning" \
	"1|bm-check: warning: noload.json: no \"load\": true, so the expectations are not loaded; going on without expectations" \
	"$(bmc --base x0.json --head x1.json --expectations noload.json)|$(cat err)"
check_eq "a missing expectations file: a warning" \
	"bm-check: warning: cannot open 'none.json': No such file or directory; going on without expectations" \
	"$(bmc --base x0.json --head x1.json --expectations none.json >/dev/null; cat err)"

# -- per-benchmark thresholds (--config) --
make_report k0.json main 4a4a4a 2026-11-01T10:00:00Z "" 100,100,100 ids=sort::a,sort::b,parse::x
make_report k1.json main 4b4b4b 2026-11-02T10:00:00Z 4a4a4a 95,60,80 ids=sort::a,sort::b,parse::x
cat >bm.json <<'JSON'
{"benchmarks": {"sort::a": {"threshold": 0.02}, "sort::*": {"threshold": 0.5}, "parse::*": {"threshold": 0.3}}}
JSON
check_eq "--config: an exact id's own 2% fails -5%, patterns let -40% and -20% pass; the commit impact is the failing one" \
	"1|commit impact: -5.00% (threshold 10%)|verdict: regression|sort::b        100 /s  60 /s  -40.00% (own threshold 50%)" \
	"$(bmc --base k0.json --head k1.json --config bm.json)|$(sed -n 3,4p out | paste -sd'|')|$(grep '^sort::b' out | sed 's/  more.*//')"
printf '{"benchmarks": {"sort::*": {"threshold": 0.5}, "*": {"threshold": 0.01}, "parse::*": {"threshold": 0.3}}}' >loose.json
check_eq "--config: the longest matching pattern wins; nothing beyond its threshold is neutral (the geometric mean)" \
	"0|commit impact: -23.03% (threshold 10%)|verdict: neutral" \
	"$(bmc --base k0.json --head k1.json --config loose.json)|$(sed -n 3,4p out | paste -sd'|')"
printf '{"threshold": 0.3}' >t30.json
check_eq "--config: its threshold replaces the default; --threshold wins over it" "1 -40.00% (threshold 30%)|0" \
	"$(bmc --base k0.json --head k1.json --config t30.json) $(sed -n 3p out | cut -d' ' -f3-)|$(bmc --base k0.json --head k1.json --config t30.json --threshold 0.5)"
printf '{"treshold": 0.1}' >typo.json
check_eq "--config: an unknown key is an error (exit 2), not ignored" \
	"2|bm-check: typo.json: unknown key 'treshold' (known: threshold, metric, benchmarks)" \
	"$(bmc --base k0.json --head k1.json --config typo.json)|$(cat err)"
printf '{"benchmarks": {"sort::a": {"threshold": 2}}}' >range.json
check_eq "--config: a threshold out of range: exit 2 naming the benchmark" \
	"2|bm-check: range.json: benchmarks.\"sort::a\".threshold: expected a number from 0 to 1" \
	"$(bmc --base k0.json --head k1.json --config range.json)|$(cat err)"
printf '{"threshold": 0.1,' >cut.json
check_eq "--config: not JSON: exit 2 with the line and column" "2|bm-check: cut.json:1:18:" \
	"$(bmc --base k0.json --head k1.json --config cut.json)|$(cut -c1-24 err)"
check_eq "--config: a missing file: exit 2" "2|bm-check: cannot open 'no.json': No such file or directory" \
	"$(bmc --base k0.json --head k1.json --config no.json)|$(cat err)"

# -- the gate metric, and why a benchmark got slower --
make_report l0.json main 5a5a5a 2026-11-01T10:00:00Z "" 100,100 ev_Ir=20000000,20000000 ev_D1mr=12,12 ev_DLmr=10,10
make_report l1.json main 5b5b5b 2026-11-02T10:00:00Z 5a5a5a 80,50 ev_Ir=20000000,40000000 ev_D1mr=120012,12 ev_DLmr=120010,10
check_eq "cycles: the same instructions with more cache misses is named as such; more instructions too" \
	"1|suite::b2      100 /s  50 /s  -50.00%  more instructions (Ir +100.00%)|suite::b1      100 /s  80 /s  -20.00%  more cache misses (Ir +0.00%, L1 misses +120,000, LL misses +120,000)" \
	"$(bmc --base l0.json --head l1.json)|$(sed -n '7,8p' out | paste -sd'|')"
make_report m0.json main 7a7a7a 2026-11-01T10:00:00Z "" 100,100 ev_Ir=1000000,1000000 ev_D1mr=12,12 ev_DLmr=10,10
make_report m1.json main 7b7b7b 2026-11-02T10:00:00Z 7a7a7a 99,100 ev_Ir=1000000,1000000 ev_D1mr=14,12 ev_DLmr=12,10
check_eq "cycles: the same instructions and a few misses moved is named code layout, not more cache misses" \
	"1|suite::b1      100 /s  99 /s  -1.00%  code layout (Ir unchanged, L1 misses +2, LL misses +2)" \
	"$(bmc --base m0.json --head m1.json --threshold 0.001)|$(grep '^suite::b1' out)"
check_eq "--metric instructions: the layout-only change passes, the doubled Ir fails" \
	"1|commit impact: -50.00% (threshold 10%, metric instructions)|benchmark     base Ir          Ir   impact|suite::b2  20,000,000  40,000,000  -50.00%|1 unchanged" \
	"$(bmc --base l0.json --head l1.json --metric instructions)|$(sed -n 3p out)|$(sed -n '6,$p' out | paste -sd'|')"
printf '{"load": true, "*/suite/b2/instructions": {"improve": 0.1, "regress": -0.6}}' >ir-exp.json
check_eq "expectations in the gate metric: METRIC instructions judges the Ir impact" \
	"0|SUCCESS  */suite/b2/instructions: impact -50.00% is within [-60.00%, +10.00%]" \
	"$(bmc --base l0.json --head l1.json --metric instructions --expectations ir-exp.json)|$(grep 'suite/b2' out | sed 's/^ *//')"
make_report s0.json main 6a6a6a 2026-11-01T10:00:00Z "" 100,100,100 ev_sysCount=2,0,5
make_report s1.json main 6b6b6b 2026-11-02T10:00:00Z 6a6a6a 100,100,100 ev_sysCount=4,3,5
check_eq "--metric syscalls: counts, a count of zero compared as one call" \
	"1|suite::b2           0      3  -66.67%|suite::b1           2      4  -50.00%|1 unchanged" \
	"$(bmc --base s0.json --head s1.json --metric syscalls)|$(sed -n '7,$p' out | paste -sd'|')"
printf '{"metric": "syscalls"}' >sys.json
check_eq "the config may choose the metric; --metric wins" "1 0" \
	"$(bmc --base s0.json --head s1.json --config sys.json) $(bmc --base s0.json --head s1.json --config sys.json --metric cycles)"
# -- the heap's metrics (the bm engine's heap counts) --
make_report h0.json main 5a5a5a 2026-11-01T10:00:00Z "" 100,100,100 heap_allocations=10,0,4 heap_bytes_allocated=1000,0,64 heap_peak_bytes=500,0,64
make_report h1.json main 5b5b5b 2026-11-02T10:00:00Z 5a5a5a 90,100,100 heap_allocations=22,2,4 heap_bytes_allocated=5096,16,64 heap_peak_bytes=500,16,32
check_eq "--metric allocations: block counts, none compared as one" \
	"1|commit impact: -54.55% (threshold 10%, metric allocations)|benchmark  base blocks  blocks   impact|suite::b1           10      22  -54.55%|suite::b2            0       2  -50.00%|1 unchanged" \
	"$(bmc --base h0.json --head h1.json --metric allocations)|$(sed -n 3p out)|$(sed -n '6,9p' out | paste -sd'|')"
check_eq "... and what changed in each benchmark's allocations, under any metric" \
	"allocations changed: suite::b1: 10 -> 22 blocks (+12), 1,000 -> 5,096 bytes (+4,096)|allocations changed: suite::b2: 0 -> 2 blocks (+2), 0 -> 16 bytes (+16), peak 0 -> 16 bytes|allocations changed: suite::b3: 4 -> 4 blocks (+0), 64 -> 64 bytes (+0), peak 64 -> 32 bytes" \
	"$(bmc --base h0.json --head h1.json --threshold 0.5 >/dev/null; grep '^allocations changed' out | paste -sd'|')"
bmc --base h0.json --head h1.json --threshold 0.5 --markdown alloc.md >/dev/null
check_eq "the Markdown summary (and the pull-request comment) lists them too, though no speed moved beyond the threshold" \
	"**Allocations changed:**||- \`suite::b1\`: 10 -> 22 blocks (+12), 1,000 -> 5,096 bytes (+4,096)" \
	"$(grep -A2 '^\*\*Allocations changed' alloc.md | paste -sd'|')"
check_eq "--metric bytes_allocated and peak_bytes: bytes, the same way" \
	"1 suite::b1 -80.38%|1 suite::b3 +100.00%" \
	"$(bmc --base h0.json --head h1.json --metric bytes_allocated) $(grep '^suite::b1' out | awk '{ print $1, $4 }')|$(bmc --base h0.json --head h1.json --metric peak_bytes --threshold 0.5) $(grep '^suite::b3' out | awk '{ print $1, $4 }')"
check_eq "cycles: a slowdown with more blocks names them first" \
	"suite::b1      100 /s  90 /s  -10.00%  more allocations (+12, +4,096 bytes): more instructions (Ir +11.11%)" \
	"$(bmc --base h0.json --head h1.json --threshold 0.05 >/dev/null; grep '^suite::b1' out)"
make_report h2.json main 5c5c5c 2026-11-02T10:00:00Z 5a5a5a 100,100,100
check_eq "--metric allocations against reports without heap counts: exit 2, and why" \
	"2|bm-check: --metric allocations: no benchmark of the head report has heap counts (the bm engine counts the heap unless bm-run --no-heap; callgrind does not)" \
	"$(bmc --base h0.json --head h2.json --metric allocations)|$(cat err)"
printf '{"metric": "peak_bytes"}' >peak.json
check_eq "the config may choose a heap metric" "1" "$(bmc --base h0.json --head h1.json --config peak.json)"
check_eq "--metric: an unknown name is a usage error" "2|bm-check: --metric needs cycles, instructions, syscalls, allocations, bytes_allocated or peak_bytes, not 'walltime'" \
	"$(bmc --base s0.json --head s1.json --metric walltime)|$(head -n 1 err)"

done_testing
