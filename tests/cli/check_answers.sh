#!/bin/sh
# SPDX-License-Identifier: MIT
# bm-check reads a server's commit report as outside input: each field
# that is missing or of the wrong type is named ("the server's answer:
# benchmarks[0].status: ..."), exit 2, and no verdict is made up.  A
# listener (tests/cli/listen.pl) answers each case.
. "$(dirname "$0")/lib.sh"
cd "$scratch" || exit 1
BM_CHECK="$top_builddir/uploader/bm-check"
: >headers
pid=
trap 'kill $pid 2>/dev/null; rm -rf "$scratch"' EXIT

# answer DESCRIPTION PERL MESSAGE: a valid commit report changed by PERL
# (on $r) makes bm-check exit 2 with MESSAGE.
answer() {
	perl -MJSON::PP -e '
		my $r = { commit => "abc123", run_id => "r1", branch => "main", pr => undef, model => "bm-model/1",
			platform => { arch => "x86_64", os => "Debian 12", compiler => "GCC 12" },
			baseline => { sha => "abc122", run_id => "r0", branch => "main", reason => "push: nearest ancestor" },
			baseline_reason => "push: nearest ancestor", threshold => 0.05, commit_impact => 0.0,
			verdict => "neutral",
			benchmarks => [{ id => "s::a", speed => 100, base_speed => 100, impact => 0, status => "ok",
				reason => undef, cycles => 30, events => { Ir => 30 }, base_cycles => 30,
				base_events => { Ir => 30 } }] };
		eval $ARGV[0]; die $@ if $@;
		print encode_json($r)' "$2" >body
	rm -rf l
	mkdir l
	perl "$top_srcdir/tests/cli/listen.pl" "$scratch/l" 200 headers body &
	pid=$!
	for _ in $(seq 600); do [ -s l/port ] && break; sleep 0.05; done
	env -i PATH="$PATH" "$BM_CHECK" --server "http://127.0.0.1:$(cat l/port)" --project p --commit abc123 \
		--tries 1 >out 2>err
	rc=$?
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null
	if [ -n "$2" ] && [ -z "$3" ]; then
		check_eq "$1: exit 2" 2 "$rc"
		return
	fi
	check_eq "$1" "$rc ${3:+the server's answer: }$3" "$(echo "$rc" "$(sed -n 's/^bm-check: [^ ]*: //p' err | head -n 1)")"
}
answer "the report itself: exit 0" '' ""
answer "not an object" '$r = [1]' "expected a JSON object"
answer "no commit" 'delete $r->{commit}' "missing field 'commit'"
answer "an unknown verdict" '$r->{verdict} = "fine"' \
	"verdict: expected one of regression, improvement, neutral, no-baseline, failed, acknowledged"
answer "no baseline reason" 'delete $r->{baseline_reason}' "missing field 'baseline_reason'"
answer "a baseline without its commit" 'delete $r->{baseline}{sha}' "missing field 'baseline.sha'"
answer "a threshold that is no number" '$r->{threshold} = "5%"' "threshold: expected a number"
answer "a commit impact that is no number" '$r->{commit_impact} = "0"' "commit_impact: expected a number or null"
answer "benchmarks not an array" '$r->{benchmarks} = {}' "benchmarks: expected an array"
answer "a benchmark that is no object" '$r->{benchmarks} = [1]' "benchmarks[0]: expected an object"
answer "a benchmark without an id" 'delete $r->{benchmarks}[0]{id}' "missing field 'benchmarks[0].id'"
answer "an acknowledgement without covers" '$r->{benchmarks}[0]{acknowledgement} = { by => "a", reason => "b" }' \
	"missing field 'benchmarks[0].acknowledgement.covers'"
answer "an unknown status" '$r->{benchmarks}[0]{status} = "great"' \
	'benchmarks[0].status: expected "ok", "failed", "skipped", "not-run" or "missing"'
answer "a reason that is no string" '$r->{benchmarks}[0]{reason} = 1' \
	"benchmarks[0].reason: expected a string"
answer "a speed that is no number" '$r->{benchmarks}[0]{speed} = "fast"' \
	"benchmarks[0].speed: expected a number or null"
answer "an impact that is no number" '$r->{benchmarks}[0]{impact} = []' \
	"benchmarks[0].impact: expected a number or null"
answer "cycles that are no count" '$r->{benchmarks}[0]{cycles} = -1' "benchmarks[0].cycles: expected a non-negative integer or null"
answer "events that are no object" '$r->{benchmarks}[0]{events} = [1]' \
	"benchmarks[0].events: expected an object"
answer "an event that is no count" '$r->{benchmarks}[0]{base_events}{Ir} = 1.5' \
	"benchmarks[0].base_events.Ir: expected a non-negative integer"
answer "a value that is no number" '$r->{benchmarks}[0]{unit} = "s"; $r->{benchmarks}[0]{value} = "1"' \
	"benchmarks[0].value: expected a number or null"
answer "an acknowledgement that is not one" '$r->{benchmarks}[0]{acknowledgement} = { by => 1 }' \
	'benchmarks[0].acknowledgement.by: expected a string'
answer "not JSON at all" 'print "<html>"; exit' ""
check_eq "... which says so" "the server's answer is not JSON (line 1: '[' or '{' expected near '<')" \
	"$(sed -n 's/^bm-check: [^ ]*: //p' err | head -n 1)"

done_testing
