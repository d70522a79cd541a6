#!/bin/sh
# SPDX-License-Identifier: MIT
# The fidelity study's arithmetic (bench/fidelity/analyze.pl, docs/fidelity.md)
# on reports made up here, with known answers: merge joins runs of one
# program each into one report per configuration (bench/fidelity_external.sh)
# and refuses two models; collect --one-half puts every benchmark in one
# half; report gives each pair's ratio, direction and error, and the
# Spearman correlation, for the halves there are.
. "$(dirname "$0")/lib.sh"
cd "$scratch"
analyze="$top_srcdir/bench/fidelity/analyze.pl"
if ! perl -MJSON::PP -e 1 2>/dev/null; then
	ok "# SKIP perl's JSON::PP is missing"
	done_testing
	exit 0
fi

# has DESCRIPTION TEXT FILE: ok when the file holds the text.
has() {
	if grep -qF -- "$2" "$3"; then ok "$1"; else not_ok "$1"; sed 's/^/# /' "$3" | head -n 30; fi
}

# One benchmark's report, as bm-run --whole --name writes it: ID MODEL TIME IR.
report() {
	printf '{"schema":"bm-report/1","model":{"id":"%s","frequency_hz":3e9},"benchmarks":[{"id":"%s","status":"ok","events":{"Ir":%s},"cycles":%s,"time_s":%s}]}\n' \
		"$2" "$1" "$4" "$4" "$3"
}
report 'pair::k.fast/before' bm-model/1 0.004 4000 >a.json
report 'pair::k.fast/after' bm-model/1 0.001 1000 >b.json
report 'pair::k.wrong/before' bm-model/1 0.002 2000 >c.json
report 'pair::k.wrong/after' bm-model/1 0.004 4000 >d.json
perl "$analyze" merge a.json b.json c.json d.json >merged.json
check "merge: one report, the benchmarks of all four in order" \
	test "$(perl -MJSON::PP -0777 -ne 'print join ",", map { $_->{id} } @{decode_json($_)->{benchmarks}}' merged.json)" \
	= 'pair::k.fast/before,pair::k.fast/after,pair::k.wrong/before,pair::k.wrong/after'
report 'pair::k.fast/before' bm-model/2 0.004 4000 >e.json
check "merge: reports of two models are refused" sh -c "! perl '$analyze' merge a.json e.json >/dev/null 2>refused.txt"
has "... naming both" "'e.json' is of model bm-model/2, 'a.json' of bm-model/1" refused.txt

# Native: three repeats; k.fast is 4 times faster natively (the model says
# 4), k.wrong 2 times faster (the model says 2 times slower).
for r in 1 2 3; do
	printf '{"benchmarks":[{"id":"pair::k.fast/before","status":"ok","value":0.004},{"id":"pair::k.fast/after","status":"ok","value":0.001},{"id":"pair::k.wrong/before","status":"ok","value":0.004},{"id":"pair::k.wrong/after","status":"ok","value":0.002}]}\n' \
		>"native.$r.json"
	printf '%s\tnative.%s.json\n' "$r" "$r" >>native-runs
done
printf 'm1\tmerged.json\t\n' >configs
perl "$analyze" collect --configs configs --native-runs native-runs --one-half validation >raw.json
check "collect --one-half: every benchmark in the validation half" \
	test "$(perl -MJSON::PP -0777 -ne 'print join ",", sort keys %{{ map { $_->{half} => 1 } @{decode_json($_)->{benchmarks}} }}' raw.json)" = validation
perl "$analyze" report raw.json >report.md
has "report: no fit half where there is none" 'validation half 4 (2 pairs)' report.md
check "... and no row of it" sh -c "! grep -q '| fit |' report.md"
has "report: the pair the model gets right" '| k.fast | validation | 4 (4-4) | 4 | yes | 1.00x | 4 | yes | 1.00x |' report.md
has "report: the pair it gets backwards, with its error" '| k.wrong | validation | 2 (2-2) | 0.5 | **no** | 4.00x | 0.5 | **no** | 4.00x |' report.md
has "report: the bars, one pair of two in the native direction" '| m1 | not met (1/2) | not met (1/2) |' report.md

done_testing
