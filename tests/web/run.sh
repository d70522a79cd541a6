#!/bin/sh
# SPDX-License-Identifier: MIT
# The dashboard in a real browser (Debian's chromium driven by
# playwright-core, node --test) against the real bm-server with real
# uploaded runs: a main branch's history with a model and a platform
# change, a pull request with a failed and a new benchmark, a benchmark
# named like an XSS attack, profiles measured by bm-run, and (project
# "phone") a profile whose names and paths are too long for a phone.  The
# tests (tests/web/*.test.mjs) assert on the pages' DOM and write a
# screenshot of each page under tests/web/screenshots in the build tree.
#
# Environment: top_srcdir, top_builddir (make check); NODE_MODULES_DIR
# (where playwright-core is installed; default the build's
# dashboard/webroot-npm/node_modules), CHROMIUM (default
# /usr/bin/chromium), NODE (default node), BM_WEB_DIR (the files to
# serve; default the build's dashboard/webroot).  BM_WEB_SERVE=1: no
# tests, the server with the test data stays up until interrupted.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/server_lib.sh"

skip() {
	echo "1..0 # SKIP $*"
	exit 0
}

NODE=${NODE:-node}
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
NODE_MODULES_DIR=${NODE_MODULES_DIR:-$top_builddir/dashboard/webroot-npm/node_modules}
web=${BM_WEB_DIR:-$top_builddir/dashboard/webroot}
command -v "$NODE" >/dev/null 2>&1 || skip "node is not installed (Debian: apt-get install nodejs)"
[ -x "$CHROMIUM" ] || command -v "$CHROMIUM" >/dev/null 2>&1 ||
	skip "chromium is not installed (Debian: apt-get install chromium; or set CHROMIUM)"
[ -f "$NODE_MODULES_DIR/playwright-core/package.json" ] ||
	skip "playwright-core is not in '$NODE_MODULES_DIR' (build the dashboard: configure without --disable-web)"
[ -f "$web/index.html" ] || skip "the dashboard was not built in '$web' (configure --disable-web?)"
[ -f "$web/js/main.js" ] || skip "the dashboard's scripts are not in '$web/js'"

db=$(test_db bm)
project="web/demo" # a '/' in a name: every page address must encode it
penc="web%2Fdemo"
token=$("$BM_SERVER_BIN" --db "$db" project create "$project" 2>/dev/null) || exit 1
admin=$("$BM_SERVER_BIN" --db "$db" token create "$project" --admin 2>/dev/null) || exit 1
big_token=$("$BM_SERVER_BIN" --db "$db" project create big 2>/dev/null) || exit 1
# The settings tests change settings: a project of their own.
settings_token=$("$BM_SERVER_BIN" --db "$db" project create settings-test 2>/dev/null) || exit 1
settings_admin=$("$BM_SERVER_BIN" --db "$db" token create settings-test --admin 2>/dev/null) || exit 1
# A commit measured on two platforms (a CI matrix): a project of its own.
matrix_token=$("$BM_SERVER_BIN" --db "$db" project create matrix 2>/dev/null) || exit 1
# Names that do not break (a long C++ name, deep paths without a hyphen):
# the phone tests' project.
phone_token=$("$BM_SERVER_BIN" --db "$db" project create phone 2>/dev/null) || exit 1
start_server "$db" --web "$web" || exit 1

setup_failed=0
# up FILE: uploads a report to the demo project, complaining when refused.
up() {
	st=$(upload "$token" "$penc" "$1")
	case $st in 20?) ;; *)
		echo "# upload of $1: $st $(cat "$scratch/body")"
		setup_failed=1
		;;
	esac
}
sha() { printf '%s' "$1" | sha1sum | cut -c1-40; }

# -- main: 30 commits, an hour apart.  c1-c2 ran with another model and
# c1-c4 on another platform (the history marks both changes); "fast" gets
# 20% faster at c20, "slow" 25% slower at c25 (both stable by c30), the
# XSS-named one 10% faster at c28 (not yet stable), "crashy" fails at c30.
ids='suite::fast,suite::slow,suite::steady,<img src=x onerror=alert(1)>,suite::crashy'
anc=""
i=1
while [ $i -le 30 ]; do
	c=$(sha "main$i")
	fast=100
	[ $i -ge 20 ] && fast=120
	slow=200
	[ $i -ge 25 ] && slow=150
	xss=50
	[ $i -ge 28 ] && xss=55
	crashy=80
	[ $i -eq 30 ] && crashy=-
	arch=x86_64
	[ $i -le 4 ] && arch=aarch64
	model=bm-model/1
	[ $i -le 2 ] && model=bm-model/0
	ts=$(printf '2026-01-%02dT%02d:00:00Z' $((i / 24 + 1)) $((i % 24)))
	make_report "$scratch/m$i.json" main "$c" "$ts" "$anc" "$fast,$slow,100,$xss,$crashy" ids="$ids" arch=$arch model=$model
	up "$scratch/m$i.json"
	anc="$c${anc:+,$anc}"
	i=$((i + 1))
done
head=$(sha main30)

# -- a branch pushed from main's head, and a pull request from it into main.
feature=$(sha feature1)
make_report "$scratch/f1.json" feature/faster "$feature" 2026-01-05T01:00:00Z "$anc" 126,150,99,55,80 ids="$ids"
up "$scratch/f1.json"
prsha=$(sha pr7)
make_report "$scratch/p7.json" feature/faster "$prsha" 2026-01-05T02:00:00Z "$head" 126,150,99,55,-,300 \
	ids="$ids,suite::new" pr=7 base=main
up "$scratch/p7.json"

# -- the settings project: a regression acknowledged twice (the settings
# page lists acknowledgements and withdraws one).
make_report "$scratch/s1.json" main "$(sha set1)" 2026-01-07T00:00:00Z "" 100,100
make_report "$scratch/s2.json" main "$(sha set2)" 2026-01-07T01:00:00Z "$(sha set1)" 80,100
for f in s1 s2; do
	[ "$(upload "$settings_token" settings-test "$scratch/$f.json")" = 201 ] || setup_failed=1
done
for why in 'first: expected' 'second: <b>still</b> expected'; do
	st=$(api POST "/api/v1/projects/settings-test/commits/$(sha set2)/acknowledgements" \
		-H "Authorization: Bearer $settings_token" --data-binary "{\"benchmark\": \"suite::b1\", \"by\": \"Ada\", \"reason\": \"$why\"}")
	[ "$st" = 201 ] || { echo "# acknowledging: $st $(cat "$scratch/body")"; setup_failed=1; }
done

# -- profiles measured by bm-run: the base commit runs cases::compute with
# n=1000, the head with n=4000 (so the differential flame graph has
# something to show), both a 10 ms sleep (system calls), the whole
# "whole" test program (a profile of a few hundred call paths) and two
# benchmarks whose allocations are known (tests/programs/heap).
prof_base=$(sha prof1)
prof_head=$(sha prof2)
# profile_report N OUT SHA TIME ANCESTORS: the measured benchmarks (compute
# with n=N, as "cases::compute") as a run of branch "profiled".
profile_report() {
	perl -MJSON::PP -e '
		my ($cases, $whole, $heap, $n, $out, $sha, $ts, $anc) = @ARGV;
		my $read = sub { local $/; open my $f, "<", $_[0] or die "$_[0]: $!"; JSON::PP->new->decode(<$f>) };
		my ($r, $w, $hp) = ($read->($cases), $read->($whole), $read->($heap));
		my @b = grep { $_->{id} eq "cases::compute[n=$n]" || $_->{id} eq "cases::sleep[ms=10]" } @{$r->{benchmarks}};
		$_->{id} =~ s/\[n=\d+\]// for @b;
		$r->{benchmarks} = [@b, @{$w->{benchmarks}}, @{$hp->{benchmarks}}];
		$r->{run_id} = "profile-run-$n";
		$r->{context}{branch} = "profiled";
		$r->{context}{commit} = { sha => $sha, timestamp => $ts, ancestors => [grep { length } split /,/, $anc] };
		open my $f, ">", $out or die "$out: $!";
		print $f JSON::PP->new->canonical->encode($r);
	' "$scratch/cases.json" "$scratch/whole.json" "$scratch/heap.json" "$@"
}
real_profile=0
mkdir -p "$scratch/keep"
"$BM_RUN" -q --keep "$scratch/keep" -o "$scratch/cases.json" -- "$PROGRAMS/cases" --filter 'cases::compute*' \
	--filter 'cases::sleep*' >"$scratch/bm-run.log" 2>&1 &&
	"$BM_RUN" -q --whole --name whole --keep "$scratch/keep" -o "$scratch/whole.json" -- "$PROGRAMS/whole" \
		>>"$scratch/bm-run.log" 2>&1 &&
	"$BM_RUN" -q -o "$scratch/heap.json" -- "$PROGRAMS/heap" --filter 'heap::mallocs' --filter 'heap::none' \
		>>"$scratch/bm-run.log" 2>&1 &&
	profile_report 1000 "$scratch/prof1.json" "$prof_base" 2026-01-06T00:00:00Z "" &&
	profile_report 4000 "$scratch/prof2.json" "$prof_head" 2026-01-06T01:00:00Z "$prof_base" &&
	real_profile=1
if [ $real_profile = 1 ]; then
	up "$scratch/prof1.json"
	up "$scratch/prof2.json"
else
	echo "# bm-run could not measure the profiles (no Valgrind?); the profile tests use make_report's:"
	sed 's/^/#   /' "$scratch/bm-run.log" 2>/dev/null | head -n 5
fi

# frames FOLDED_FILE: how many frames a flame graph of these folded stacks
# has: every distinct stack prefix, and the root.
frames() {
	awk '{ sub(/ [0-9]+$/, ""); n = split($0, f, ";"); p = ""; for (i = 1; i <= n; i++) { p = p ";" f[i]; if (!(p in seen)) { seen[p] = 1; c++ } } }
		END { print c + 1 }' "$1"
}
expect_whole=
expect_compute=
if [ $real_profile = 1 ]; then
	"$BM_PROFILE" --folded "$scratch/keep/whole.callgrind" >"$scratch/whole.folded" &&
		expect_whole=$(frames "$scratch/whole.folded")
	"$BM_PROFILE" --folded "$scratch/keep/cases::compute[n=4000].callgrind" >"$scratch/compute.folded" &&
		expect_compute=$(frames "$scratch/compute.folded")
fi

# -- the phone project: one run of a benchmark whose function, source file,
# binary, branch and callers are single words far wider than a phone.
long_fn='std::vector<std::map<std::basic_string<char>,std::shared_ptr<widget_factory_implementation>>>::emplace_back'
long_dir=/home/builder/workspace/benchmarks/projectwithaverylongnameindeed/build
make_report "$scratch/phone.json" feature/averyveryverylongbranchnamewithoutanyplacetobreakit "$(sha phone1)" \
	2026-01-08T00:00:00Z "" 100 ids=containers::emplace_back_into_a_vector_of_maps_of_strings_to_shared_pointers run_id=phone-run
perl -MJSON::PP -e '
	my ($fn, $dir, $file) = @ARGV;
	my $r = do { local $/; open my $f, "<", $file or die "$file: $!"; JSON::PP->new->decode(<$f>) };
	my @ev = qw(Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw);
	my $c = sub { [$_[0], 0, 0, 0, 0, 0, 0, 0, 0] };
	my $b = $r->{benchmarks}[0];
	$b->{profile} = { events => \@ev, totals => $c->(1000), cycles => 1000,
		functions => [
			{ name => $fn, file => "$dir/../src/containers/implementation.cpp", object => "$dir/bench/containersbenchmark",
			  calls => 1, self => $c->(900), inclusive => $c->(900), self_cycles => 900, inclusive_cycles => 900 },
			{ name => "main", file => "$dir/../src/main.cpp", object => "$dir/bench/containersbenchmark",
			  calls => 0, self => $c->(100), inclusive => $c->(1000), self_cycles => 100, inclusive_cycles => 1000 } ],
		calls => [{ caller => 1, callee => 0, count => 1, inclusive => $c->(900), cycles => 900 }],
		lines => [{ function => 0, file => "$dir/../src/containers/implementation.cpp", line => 12, self => $c->(900), cycles => 900 }] };
	$b->{syscalls}{by_function}[0]{function} = $fn;
	$b->{syscalls}{by_function}[0]{callers}[0]{function} = $fn;
	open my $f, ">", $file or die "$file: $!";
	print $f JSON::PP->new->canonical->encode($r);
' "$long_fn" "$long_dir" "$scratch/phone.json" || setup_failed=1
[ "$(upload "$phone_token" phone "$scratch/phone.json")" = 201 ] || setup_failed=1

if [ $setup_failed = 1 ]; then
	echo "Bail out! could not store the test data"
	exit 1
fi
# -- the matrix project: commits matrix1 and matrix2 on x86_64 and aarch64
# each, matrix2 slower on x86_64 only and uploaded there first.
upload_matrix "$matrix_token" matrix mx "$(sha matrix1)" "$(sha matrix2)" || setup_failed=1

shots="$top_builddir/tests/web/screenshots"
# What the tests are told: where the server is, its tokens, what was uploaded.
set -- BM_URL="$server_url" BM_PROJECT="$project" BM_TOKEN="$token" BM_ADMIN_TOKEN="$admin" BM_BIG_TOKEN="$big_token" \
	BM_SETTINGS_TOKEN="$settings_token" BM_SETTINGS_ADMIN="$settings_admin" \
	BM_SHOTS="$shots" BM_HEAD="$head" BM_FEATURE="$feature" BM_PR_SHA="$prsha" BM_PROF_BASE="$prof_base" \
	BM_PROF_HEAD="$prof_head" BM_MATRIX_SHA="$(sha matrix2)" BM_REAL_PROFILE="$real_profile" BM_EXPECT_FRAMES_WHOLE="$expect_whole" \
	BM_EXPECT_FRAMES_COMPUTE="$expect_compute" BM_REPORT_FILE="$scratch/m30.json" CHROMIUM="$CHROMIUM" \
	NODE_MODULES_DIR="$NODE_MODULES_DIR" NODE_PATH="$NODE_MODULES_DIR"

if [ -n "${BM_WEB_SERVE:-}" ]; then
	# For people: the test data served until interrupted, and what the
	# tests would be told (to run some of them by hand).
	echo "# serving $server_url/ (project '$project', upload token $token, admin token $admin)"
	for v in "$@"; do echo "# export '$v'"; done
	trap 'exit 0' INT TERM
	while kill -0 "$server_pid" 2>/dev/null; do sleep 1; done
	exit 0
fi

rm -rf "$shots"
mkdir -p "$shots"
cd "$top_srcdir/tests/web" || exit 1
# node's own TAP nests subtests; tests/web/tap.mjs reports one flat "ok" or
# "not ok" line per test and the plan, which the automake TAP driver reads.
# Two test files at a time where node can be told (node 18 cannot).
concurrency=
"$NODE" --help 2>/dev/null | grep -q -e --test-concurrency && concurrency=--test-concurrency=2
# shellcheck disable=SC2086
# BM_WEB_TESTS: other test files (bench/dashboard.sh runs perf.bench.mjs).
env "$@" "$NODE" --test $concurrency --test-reporter=./tap.mjs ${BM_WEB_TESTS:-./*.test.mjs}
status=$?
exit $status
