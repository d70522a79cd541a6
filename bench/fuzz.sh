#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/fuzz.sh [MINUTES]: every libFuzzer harness of tests/fuzz/ for
# MINUTES each (default 10; CI runs each for a minute only), from a copy of
# its corpus, with ASan and UBSan.  Prints a Markdown table (executions,
# the coverage libFuzzer reports, corpus growth, findings) for
# docs/testing.md, and keeps what it found in build-fuzz/fuzz-long/.
# Needs clang (apt-get install clang libclang-rt-dev).
set -eu
minutes=${1:-10}
cd "$(dirname "$0")/.."
dir=build-fuzz
if [ ! -x "$dir/tests/fuzz/fuzz_report" ]; then
	[ -x configure ] || autoreconf -fi >/dev/null
	mkdir -p "$dir"
	(cd "$dir" && ../configure -q --enable-fuzzing --enable-sanitizers --disable-web --disable-engine CC=clang &&
		make -s -j"$(nproc)") >"$dir.bench.log" 2>&1 || {
		tail -n 20 "$dir.bench.log" >&2
		echo "bench/fuzz.sh: the fuzzing build failed (clang and libclang-rt-dev installed?)" >&2
		exit 2
	}
fi
printf '%s, %s minute(s) per harness, %s\n\n' "$(date -u +%Y-%m-%d)" "$minutes" \
	"$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
echo "| harness | executions | exec/s | coverage (edges) | corpus (start → end) | findings |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
status=0
for harness in "$dir"/tests/fuzz/fuzz_*; do
	[ -x "$harness" ] || continue
	name=$(basename "$harness")
	work="$dir/fuzz-long/$name"
	rm -rf "$work"
	mkdir -p "$work/corpus" "$work/crashes"
	cp "tests/fuzz/corpus/${name#fuzz_}"/* "$work/corpus/" 2>/dev/null || true
	start=$(ls "$work/corpus" | wc -l)
	"$harness" -max_total_time=$((minutes * 60)) -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$work/crashes/" "$work/corpus" >"$work/log" 2>&1 || status=1
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -n 1)
	speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/log" | tail -n 1)
	cov=$(grep -o 'cov: [0-9]*' "$work/log" | tail -n 1 | cut -d' ' -f2)
	found=$(ls "$work/crashes" | wc -l)
	echo "| ${name#fuzz_} | ${runs:-?} | ${speed:-?} | ${cov:-?} | $start → $(ls "$work/corpus" | wc -l) | $found |"
done
[ $status = 0 ] || echo "bench/fuzz.sh: a harness failed; see $dir/fuzz-long/*/log and crashes/" >&2
exit $status
