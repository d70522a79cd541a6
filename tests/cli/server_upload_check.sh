#!/bin/sh
# SPDX-License-Identifier: MIT
# What bm-server asks of an upload beyond its schema (dashboard/
# upload_check.c): each field wrong in a report that is otherwise valid is
# refused with 400 naming it (and what to do where bm-upload would have
# filled it in), and nothing is stored.
. "$(dirname "$0")/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"
trap 'server_cleanup; rm -rf "$scratch"' EXIT

db=$(test_db check)
token=$("$BM_SERVER_BIN" --db "$db" project create demo 2>/dev/null)
start_server "$db" || exit 1
make_report "$scratch/base.json" main abc123 2026-11-20T10:00:00Z "abc122,abc121" 100,110 pr=7 base=main

# refused DESCRIPTION PERL MESSAGE: the base report changed by PERL (on
# $r) is answered 400 with MESSAGE.
refused() {
	perl -MJSON::PP -e 'local $/; my $r = decode_json(<STDIN>); eval $ARGV[0]; die $@ if $@;
		print JSON::PP->new->canonical->encode($r)' "$2" <"$scratch/base.json" >"$scratch/bad.json"
	status=$(upload "$token" demo "$scratch/bad.json")
	check_eq "$1: 400, '$3'" "400 $3" "$status $(body '$j->{error}')"
}
refused "an empty run_id" '$r->{run_id} = ""' "run_id: expected 1 to 128 characters"
refused "a run_id of 129 bytes" '$r->{run_id} = "r" x 129' "run_id: expected 1 to 128 characters"
refused "no branch" 'delete $r->{context}{branch}' \
	"context.branch: missing (bm-upload fills it from git or CI; or pass --branch)"
refused "a branch of 1025 bytes" '$r->{context}{branch} = "b" x 1025' "context.branch: longer than 1024 bytes"
refused "no commit" 'delete $r->{context}{commit}' \
	"context.commit: missing (bm-upload fills it from git or CI; or pass --commit)"
refused "a commit that is no hexadecimal id" '$r->{context}{commit}{sha} = "main"' \
	"context.commit.sha: expected a hexadecimal commit id"
refused "no commit time" 'delete $r->{context}{commit}{timestamp}' \
	"context.commit.timestamp: missing (the committer time, RFC 3339)"
refused "a commit time that is no RFC 3339 time" '$r->{context}{commit}{timestamp} = "yesterday"' \
	"context.commit.timestamp: expected an RFC 3339 time, not 'yesterday'"
refused "1,001 ancestors" '$r->{context}{commit}{ancestors} = [map { sprintf "%x", $_ + 4096 } 1 .. 1001]' \
	"context.commit.ancestors: more than 1000"
refused "an ancestor that is no commit id" '$r->{context}{commit}{ancestors}[1] = "HEAD~1"' \
	"context.commit.ancestors[1]: expected a hexadecimal commit id"
refused "a pull request without a base branch" 'delete $r->{context}{pr}{base_branch}' \
	"context.pr.base_branch: missing (the branch the pull request merges into)"
refused "no benchmarks" '$r->{benchmarks} = []' "benchmarks: empty"
refused "a benchmark twice" '$r->{benchmarks}[1]{id} = $r->{benchmarks}[0]{id}' "benchmarks: 'suite::b1' appears twice"
refused "a metric name of 1025 bytes" '$r->{model}{id} = "import/gbench";
	@{$r->{benchmarks}[0]}{qw(metric unit value)} = ("m" x 1025, "s", 1)' \
	"benchmarks[0].metric: name or unit longer than 1024 bytes"
refused "a metric twice in one benchmark" '$r->{model}{id} = "import/gbench";
	@{$r->{benchmarks}[0]}{qw(metric unit value)} = ("walltime", "s", 1);
	$r->{benchmarks}[0]{extra_metrics} = [{ metric => "walltime", unit => "s", value => 2 }]' \
	"benchmarks[0]: metric 'walltime' appears twice"
check_eq "nothing was stored" 0 "$(run_count demo)"
check_eq "the report itself is taken" 201 "$(upload "$token" demo "$scratch/base.json")"

done_testing
