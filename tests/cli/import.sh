#!/bin/sh
# SPDX-License-Identifier: MIT
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

# The QTestLib reader's every refusal, each at its position (a strict,
# bounded XML subset: no DOCTYPE, 32 levels, 16 attributes, 256-byte names).
bad_xml() {
	printf '%s' "$2" >"$scratch/x.xml"
	bad "qtestlib: $1" qtestlib "$scratch/x.xml" "bm-import: $scratch/x.xml:$3"
}
bench_xml() {
	printf '<TestCase name="t"><TestFunction name="f"><BenchmarkResult %s/></TestFunction></TestCase>' "$1"
}
bad_xml "a name over 256 bytes" "<$(printf '%300s' '' | tr ' ' a)/>" "1:258: name longer than 256 bytes"
bad_xml "the input ends in a tag" '<TestCase name="t"' "1:19: expected '>'"
bad_xml "no space before an attribute" '<TestCase name="t"x="1"></TestCase>' \
	"1:19: expected a space before an attribute"
bad_xml "a duplicate attribute" '<TestCase name="t" name="u"></TestCase>' "1:20: duplicate attribute 'name'"
bad_xml "an attribute without a value" '<TestCase name></TestCase>' "1:15: expected '='"
bad_xml "an unquoted value" '<TestCase name=t></TestCase>' "1:16: expected a quoted value"
bad_xml "'<' in a value" '<TestCase name="a<b"></TestCase>' "1:18: '<' in an attribute value"
bad_xml "an unterminated comment" '<TestCase name="t"><!-- never closed' "1:20: unterminated comment"
bad_xml "an unterminated CDATA section" '<TestCase name="t"><![CDATA[ never closed' \
	"1:29: unterminated CDATA section"
bad_xml "a control character" "$(printf '<TestCase name="t">\001</TestCase>')" "1:20: control character in text"
bad_xml "nesting beyond 32 levels" "<TestCase name=\"t\">$(printf '%70s' '' | sed 's/ /<a>/g')" \
	"1:113: elements nested deeper than 32"
bad_xml "more than 16 attributes" "<TestCase $(seq 40 | sed 's/.*/a&="1"/' | tr '\n' ' ')></TestCase>" \
	"1:130: more than 16 attributes"
bad_xml "an element left open" '<TestCase name="t"><TestFunction name="f">' "1:43: expected '</TestFunction>'"
bad_xml "a second root element" '<TestCase name="t"></TestCase><TestCase name="u"></TestCase>' \
	"1:31: content after the root element"
bad_xml "another root element" '<a></a>' "1:1: expected <TestCase> as the root element, not <a>"
bad_xml "text, no element" 'hello' "1:1: expected the root element"
bad_xml "an unterminated XML declaration" '<?xml version="1.0"' "1:1: unterminated XML declaration"
bad_xml "a DOCTYPE (entities are never expanded)" '<!DOCTYPE x [ <!ENTITY a "b"> ]><TestCase name="t"></TestCase>' \
	"1:1: DOCTYPE is not supported"
bad_xml "an end tag cut short" '<TestCase name="t"></TestCase' "1:30: expected '>'"
bad_xml "a character reference past U+10FFFF" "$(bench_xml 'metric="M" value="1" iterations="1" tag="&#x110000;"')" \
	"1:101: bad character reference"
bad_xml "a value that is no number" "$(bench_xml 'metric="M" value="abc" iterations="1" tag=""')" \
	"1:43: value: expected a number"
bad_xml "a value beyond a double" "$(bench_xml 'metric="M" value="1e999" iterations="1" tag=""')" \
	"1:43: value: expected a number"
bad_xml "a result without a metric" "$(bench_xml 'value="1" iterations="1" tag=""')" \
	"1:43: <BenchmarkResult> without a 'metric' attribute"

# Google Benchmark's JSON: each wrong field named by its path.
bad_gbench() {
	printf '%s' "$2" >"$scratch/g.json"
	bad "gbench: $1" gbench "$scratch/g.json" "bm-import: $scratch/g.json: $3"
}
run_json() {
	printf '{"benchmarks": [{"name": "a", %s"real_time": 1, "cpu_time": 1, "time_unit": "ns"}]}' "$1"
}
bad_gbench "not an object" '[1,2]' "expected a JSON object"
bad_gbench "no benchmarks member" '{"context":{}}' "benchmarks: missing"
bad_gbench "benchmarks not an array" '{"benchmarks": 5}' "benchmarks: expected an array"
bad_gbench "a run that is no object" '{"benchmarks": [5]}' "benchmarks[0]: expected an object"
bad_gbench "a run without a name" '{"benchmarks": [{"real_time": 1, "cpu_time": 1, "time_unit": "ns"}]}' \
	"benchmarks[0].name: missing"
bad_gbench "a name that is no string" '{"benchmarks": [{"name": 5, "real_time": 1, "cpu_time": 1, "time_unit": "ns"}]}' \
	"benchmarks[0].name: expected a string"
bad_gbench "a name over 4096 bytes" "$(printf '{"benchmarks": [{"name": "%s", "real_time": 1, "cpu_time": 1, "time_unit": "ns"}]}' \
	"$(printf '%5000s' '' | tr ' ' a)")" "benchmarks[0].name: longer than 4096 bytes or holds a NUL byte"
bad_gbench "a negative time" '{"benchmarks": [{"name": "a", "real_time": -1, "cpu_time": 1, "time_unit": "ns"}]}' \
	"benchmarks[0].real_time: expected a non-negative number"
bad_gbench "no real_time" '{"benchmarks": [{"name": "a", "cpu_time": 1, "time_unit": "ns"}]}' \
	"benchmarks[0].real_time: missing"
bad_gbench "an unknown run_type" "$(run_json '"run_type": "x", ')" \
	'benchmarks[0].run_type: expected "iteration" or "aggregate"'
bad_gbench "error_occurred not a boolean" "$(run_json '"error_occurred": "yes", ')" \
	"benchmarks[0].error_occurred: expected true or false"
bad_gbench "only a mean (no median, no iteration)" \
	'{"benchmarks": [{"name": "a_mean", "run_name": "a", "run_type": "aggregate", "aggregate_name": "mean", "real_time": 1, "cpu_time": 1, "time_unit": "ns"}]}' \
	"no benchmarks"
printf '{"benchmarks": [%s,%s,%s]}' \
	'{"name": "a", "run_name": "a", "run_type": "iteration", "real_time": 1, "cpu_time": 1, "time_unit": "ns"}' \
	'{"name": "a", "run_name": "a", "run_type": "iteration", "real_time": 3, "cpu_time": 1, "time_unit": "ns"}' \
	'{"name": "b", "error_occurred": true, "error_message": "boom", "real_time": 1, "cpu_time": 1, "time_unit": "ns"}' \
	>"$scratch/reps.json"
"$BM_IMPORT" gbench "$scratch/reps.json" -o "$scratch/reps.out.json" >/dev/null 2>&1
check_eq "gbench: repetitions without aggregates give their median; an error fails its benchmark" \
	"a ok walltime 2e-09 s
b failed - - -" "$(rows "$scratch/reps.out.json")"
run_json '"skipped": true, ' >"$scratch/skip.json"
"$BM_IMPORT" gbench "$scratch/skip.json" -o "$scratch/skip.out.json" >/dev/null 2>&1
check_eq "gbench: a skipped run is skipped" "a skipped - - -" "$(rows "$scratch/skip.out.json")"

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
