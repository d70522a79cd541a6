# SPDX-License-Identifier: MIT
# Shared by the shell tests: TAP output (one "ok"/"not ok" line per check,
# the plan at the end, so a test that dies early is an error), a scratch
# directory, and callgrind runs configured as bm-run configures them.
#
# The environment comes from `make check`: top_srcdir, top_builddir,
# VALGRIND (valgrind.bin), CALLGRIND_ANNOTATE.

set -u
: "${top_builddir:?run through make check}" "${top_srcdir:?run through make check}"
: "${VALGRIND:=valgrind}"

BM_PROFILE="$top_builddir/simulator/bm-profile"
PROGRAMS="$top_builddir/tests/programs"
tap_n=0
tap_failed=0

# bm-run feeds programs its own standard input: the tests' is nothing,
# whatever make's is (a test that feeds input says so).
exec </dev/null

scratch=$(mktemp -d "${TMPDIR:-/tmp}/bm-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $*"
}

not_ok() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $*"
}

# check DESCRIPTION COMMAND...: ok when the command succeeds.
check() {
	desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}

# check_eq DESCRIPTION EXPECTED ACTUAL
check_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		printf '# expected: %s\n#   actual: %s\n' "$2" "$3" | sed 's/^\([^#]\)/# \1/'
	fi
}

# check_output DESCRIPTION EXPECTED_FILE ACTUAL_FILE
check_output() {
	# BM_UPDATE_GOLDEN=1 rewrites the expected file (review the diff).
	[ -n "${BM_UPDATE_GOLDEN:-}" ] && case $2 in "$top_srcdir"/tests/*) cp "$3" "$2" ;; esac
	if cmp -s "$2" "$3"; then
		ok "$1"
	else
		not_ok "$1"
		diff -u "$2" "$3" | head -n 40 | sed 's/^/# /'
	fi
}

done_testing() {
	echo "1..$tap_n"
}

# callgrind OUT_PREFIX PROGRAM [ARGS...]: runs a test program under
# callgrind with the pinned caches, region-only collection and system-call
# times, writing OUT_PREFIX.<pid>.out[.N].  CALLGRIND_CACHE replaces the
# cache options; CALLGRIND_OPTS adds others.
callgrind() {
	prefix=$1
	program=$2
	shift 2
	# shellcheck disable=SC2086
	env -i LD_BIND_NOW=1 "$VALGRIND" --tool=callgrind --collect-systime=nsec --instr-atstart=no \
		${CALLGRIND_CACHE---cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64} \
		${CALLGRIND_OPTS:-} --callgrind-out-file="$prefix.%p.out" \
		"$PROGRAMS/$program" "$@" >"$prefix.stdout" 2>"$prefix.valgrind.log" || {
		echo "# callgrind failed for $program:" >&2
		sed 's/^/# /' "$prefix.valgrind.log" >&2
		return 1
	}
}

# json_get FILE PERL_EXPRESSION: evaluates an expression over the decoded
# JSON document $j (Perl's core JSON::PP), e.g. '$j->{benchmarks}[0]{cycles}'.
json_get() {
	perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $j = JSON::PP->new->decode(<$f>); my $v = eval $ARGV[1]; die $@ if $@; print defined $v ? $v : "null", "\n"' "$1" "$2"
}

BM_RUN="$top_builddir/instrument/bm-run/bm-run"

# host_lacks_v3: the first of x86-64-v3's features this host lacks (what
# bm's x86-64-v3 CPUs need of it under Valgrind), or nothing.
host_lacks_v3() {
	for flag in avx avx2 bmi1 bmi2 fma f16c movbe abm; do
		if ! grep -q "^flags.* $flag\( \|\$\)" /proc/cpuinfo; then
			echo "$flag"
			return
		fi
	done
}

# need_x86_64_v3: a host that can run x86-64-v3's code, or the whole
# script is skipped.
need_x86_64_v3() {
	lacks=$(host_lacks_v3)
	if [ -n "$lacks" ]; then
		echo "1..0 # SKIP this host is not x86-64-v3 (no $lacks)"
		exit 0
	fi
}

# need_engine: bm's Valgrind tool as this build made it (ENGINE_DIR, and
# BM_ENGINE_DIR for bm-run), or the whole script is skipped.
need_engine() {
	ENGINE_DIR="$top_builddir/simulator/engine"
	if [ ! -x "$ENGINE_DIR/bm-amd64-linux" ]; then
		echo "1..0 # SKIP bm's Valgrind tool is not built (--disable-engine)"
		exit 0
	fi
	export BM_ENGINE_DIR="$ENGINE_DIR"
}

# report_rows REPORT: "id status cycles reason" per benchmark, one a line.
report_rows() {
	json_get "$1" 'join "\n", map { join " ", $_->{id}, $_->{status}, $_->{cycles} // "-", $_->{reason} // "" } @{$j->{benchmarks}}'
}

# numbers REPORT: "id events... cycles" per benchmark, with every event but
# the system-call times (real clock readings): what must never change.
numbers() {
	json_get "$1" 'join "\n", map { my $b = $_; my $e = $b->{events}; join " ", $b->{id}, $b->{status}, (map { "$_=$e->{$_}" } grep { !/^sys(Cpu)?Time$/ } sort keys %$e), "cycles=" . ($b->{cycles} // "-") } @{$j->{benchmarks}}'
}

# git_repo DIR: a new git repository on branch main, with an identity,
# entered (cd).  Then `commit MESSAGE TIME` commits with that author and
# committer time and prints the SHA.
git_repo() {
	git init -q -b main "$1" && cd "$1" || exit 1
	git config user.email ci@example.com
	git config user.name ci
}
commit() { echo "$1" >file && git add file && GIT_COMMITTER_DATE="$2" git commit -q -m "$1" --date "$2" && git rev-parse HEAD; }
