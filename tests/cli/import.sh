#!/bin/sh
# bm-import on real-shaped output of QTestLib, Google Benchmark and
# Chromium's perf tests: ids, statuses, metrics and values; malformed
# input of each format gives exit 2, one message with the position and no
# report, and leaves an earlier report in place.
. "$top_srcdir/tests/cli/lib.sh"

BM_IMPORT="$top_builddir/uploader/bm-import"
data="$top_srcdir/tests/cli/data/import"
corpus="$top_srcdir/tests/fuzz/corpus/import_qtestlib"

# rows REPORT: "id status metric value unit" per benchmark, values as %.6g.
rows() {
	json_get "$1" 'join "\n", map { join " ", $_->{id}, $_->{status}, $_->{metric} // "-", defined $_->{value} ? sprintf("%.6g", $_->{value}) : "-", $_->{unit} // "-" } @{$j->{benchmarks}}'
}

# QTestLib
"$BM_IMPORT" qtestlib "$data/qtestlib.xml" -o "$scratch/qt.json" >"$scratch/out" 2>"$scratch/err"
check_eq "qtestlib: exit 0 and a summary" "0 imported 6 benchmarks (2 not ok) into '$scratch/qt.json'" \
	"$? $(cat "$scratch/out")"
check_eq "qtestlib: ids, statuses, walltime per iteration in seconds, other metrics as counted" \
	"tst_QString::append ok walltime 1.2207e-06 s
tst_QString::arg[short] ok walltime 0.00075 s
tst_QString::arg[a & b <AB>] ok walltime 0.0005 s
tst_QString::arg[long] failed - - -
tst_QString::split[csv] ok InstructionReads 1.23457e+06 instructions
tst_QString::toUpper failed - - -" "$(rows "$scratch/qt.json")"
check_eq "qtestlib: a failed data tag's reason is its incident" \
	"tst_qstring.cpp:212: 's.size() == 4096' returned FALSE. ()" \
	"$(json_get "$scratch/qt.json" '$j->{benchmarks}[3]{reason}')"
check_eq "qtestlib: suite, name and tag" "tst_QString arg short" \
	"$(json_get "$scratch/qt.json" 'join " ", map { $j->{benchmarks}[1]{$_} } qw(suite name tag)')"
check_eq "qtestlib: no simulated numbers, the source in model and tool" "{} null null import/qtestlib bm-import" \
	"$(json_get "$scratch/qt.json" 'my $b = $j->{benchmarks}[0]; join " ", (keys %{$b->{events}} ? "events" : "{}"), $b->{cycles} // "null", $b->{speed} // "null", $j->{model}{id}, $j->{tool}{name}')"

# Google Benchmark
"$BM_IMPORT" gbench "$data/gbench.json" -o "$scratch/gb.json" >/dev/null 2>"$scratch/err"
check_eq "gbench: exit 0" "0" "$?"
check_eq "gbench: one benchmark per run name, the median aggregate, walltime in seconds" \
	"BM_StringCopy/8 ok walltime 1.625e-08 s
BM_Sort/1024 ok walltime 4.2e-05 s
BM_Open/real_time failed - - -" "$(rows "$scratch/gb.json")"
check_eq "gbench: cpu_time kept as an extra metric" "cpu_time 4.15e-05 s" \
	"$(json_get "$scratch/gb.json" 'my $m = $j->{benchmarks}[1]{extra_metrics}[0]; join " ", $m->{metric}, $m->{value}, $m->{unit}')"
check_eq "gbench: error_occurred gives the error message" \
	"open('/data/fixture'): No such file or directory" \
	"$(json_get "$scratch/gb.json" '$j->{benchmarks}[2]{reason}')"
printf '{"benchmarks": [{"name": "BM_x", "run_type": "iteration", "real_time": 3, "cpu_time": 3, "time_unit": "ms"},
 {"name": "BM_x", "run_type": "iteration", "real_time": 1, "cpu_time": 1, "time_unit": "ms"},
 {"name": "BM_x", "run_type": "iteration", "real_time": 10, "cpu_time": 2, "time_unit": "ms"}]}' >"$scratch/reps.json"
"$BM_IMPORT" gbench "$scratch/reps.json" -o "$scratch/reps.out.json" >/dev/null
check_eq "gbench: repetitions without aggregates give their median" "BM_x ok walltime 0.003 s" \
	"$(rows "$scratch/reps.out.json")"

# Chromium
"$BM_IMPORT" chromium "$data/chromium.txt" -o "$scratch/cr.json" >/dev/null 2>"$scratch/err"
check_eq "chromium: exit 0" "0" "$?"
check_eq "chromium: graph::trace, a value, a list's mean, {mean,stddev}'s mean, units as the metric" \
	"url_parse::canonical ok ns 812.5 ns
url_parse::relative ok ns 250 ns
peak_memory::browser ok bytes 5.24288e+07 bytes
frame_rate::scroll ok runs/s 59.8 runs/s" "$(rows "$scratch/cr.json")"

# Malformed input: exit 2, the position, no report.
bad() {
	desc=$1 format=$2 file=$3 expected=$4
	rm -f "$scratch/bad.json"
	"$BM_IMPORT" "$format" "$file" -o "$scratch/bad.json" >"$scratch/out" 2>"$scratch/err"
	check_eq "$desc: exit 2 and the position" "2 $expected" "$? $(cat "$scratch/err")"
	check "$desc: no report written" test ! -e "$scratch/bad.json"
}
bad "qtestlib: an unclosed tag" qtestlib "$data/bad.xml" "bm-import: $data/bad.xml:5:3: expected '>'"
bad "gbench: a trailing comma" gbench "$data/bad.json" \
	"bm-import: $data/bad.json:2:94: string or '}' expected near '}'"
bad "chromium: a bad number" chromium "$data/bad.txt" "bm-import: $data/bad.txt:2:22: expected a number"
printf '<TestCase name="t"><TestFunction name="f"><BenchmarkResult metric="M" value="1" iterations="1" tag="&bogus;"/></TestFunction></TestCase>' >"$scratch/ent.xml"
bad "qtestlib: an unknown entity" qtestlib "$scratch/ent.xml" \
	"bm-import: $scratch/ent.xml:1:101: unknown entity (only &amp; &lt; &gt; &quot; &apos; and &#N;)"
bad "qtestlib: an iteration count beyond 2^53" qtestlib "$corpus/regress-huge-iterations.xml" \
	"bm-import: $corpus/regress-huge-iterations.xml:1:43: iterations: expected a positive integer"
printf '<TestCase name="t">\n<TestFunction name="f">\n</TestCase>\n' >"$scratch/nest.xml"
bad "qtestlib: a mismatched end tag" qtestlib "$scratch/nest.xml" \
	"bm-import: $scratch/nest.xml:3:1: '</TestCase>' does not close '<TestFunction>'"
printf '<TestCase name="t"><TestFunction name="f"><Incident type="pass" file="" line="0"/></TestFunction></TestCase>\n' >"$scratch/none.xml"
bad "qtestlib: no benchmark" qtestlib "$scratch/none.xml" "bm-import: $scratch/none.xml: no <BenchmarkResult> elements"
: >"$scratch/empty.txt"
bad "chromium: empty input" chromium "$scratch/empty.txt" "bm-import: $scratch/empty.txt: no RESULT lines"
printf 'RESULT g: t= 1 ms\nRESULT g: t= 2 ms\n' >"$scratch/dup.txt"
bad "chromium: a duplicate result" chromium "$scratch/dup.txt" "bm-import: $scratch/dup.txt:2: duplicate benchmark 'g::t'"
printf '{"benchmarks": [{"name": "BM_a", "real_time": 1, "cpu_time": 1, "time_unit": "ps"}]}' >"$scratch/unit.json"
bad "gbench: an unknown time unit" gbench "$scratch/unit.json" \
	"bm-import: $scratch/unit.json: benchmarks[0].time_unit: expected ns, us, ms or s"
printf '{"benchmarks": []}' >"$scratch/nobench.json"
bad "gbench: no benchmarks" gbench "$scratch/nobench.json" "bm-import: $scratch/nobench.json: no benchmarks"

# A failing run over an existing report leaves it intact.
cp "$scratch/cr.json" "$scratch/keep.json"
"$BM_IMPORT" chromium "$data/bad.txt" -o "$scratch/keep.json" 2>/dev/null
check_eq "a failed import: exit 2" "2" "$?"
check "a failed import leaves the earlier report intact" cmp -s "$scratch/cr.json" "$scratch/keep.json"
check_eq "no temporary file left beside it" "keep.json" "$(cd "$scratch" && ls keep.json*)"

# Usage
"$BM_IMPORT" junit "$data/bad.txt" -o "$scratch/u.json" 2>"$scratch/err"
check_eq "an unknown format: exit 2" "2 bm-import: unknown format 'junit'" "$? $(head -n 1 "$scratch/err")"
"$BM_IMPORT" chromium "$data/chromium.txt" 2>"$scratch/err"
check_eq "no -o: exit 2" "2 bm-import: missing -o REPORT.json" "$? $(head -n 1 "$scratch/err")"

done_testing
