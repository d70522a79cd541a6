#!/bin/sh
# SPDX-License-Identifier: MIT
# Malformed callgrind files through bm-profile: each class of damage gets
# exit status 2, one "FILE:LINE: what is wrong" line on stderr, and nothing
# on stdout (no partial result).
. "$(dirname "$0")/lib.sh"

callgrind "$scratch/fib" fib || exit 1
good=$(ls "$scratch"/fib.*.out.1)
nlines=$(wc -l <"$good")

# expect_error NAME FILE EXPECTED_STDERR
expect_error() {
	"$BM_PROFILE" --json "$2" >"$scratch/out" 2>"$scratch/err"
	status=$?
	check_eq "$1: exit status 2" 2 "$status"
	check_eq "$1: the message" "$3" "$(cat "$scratch/err")"
	check_eq "$1: nothing on stdout" "" "$(cat "$scratch/out")"
}

f=$scratch/no-totals.out
sed '$d' "$good" >"$f"
expect_error "truncated before the totals line" "$f" \
	"bm-profile: $f:$((nlines - 1)): no 'totals:' line at the end of the part: callgrind always writes one, so the file is truncated"

f=$scratch/cut-call.out
n=$(grep -n '^calls=' "$good" | head -n 1 | cut -d: -f1)
head -n "$n" "$good" >"$f"
expect_error "truncated after a calls= line" "$f" \
	"bm-profile: $f:$n: the last 'calls=' line has no position line (truncated file?)"

f=$scratch/cut-number.out
head -c "$(($(wc -c <"$good") - 3))" "$good" >"$f"
# The exact numbers depend on where the cut fell: check the message's shape.
"$BM_PROFILE" "$f" >/dev/null 2>"$scratch/err"
check "cut in the middle of the totals line: totals disagree with the costs" \
	grep -q "^bm-profile: $f:$nlines: the 'totals:' line gives .* but the cost lines sum to .* (truncated or edited file?)$" "$scratch/err"

f=$scratch/bad-number.out
n=$(grep -n '^[0-9+*-]' "$good" | head -n 1 | cut -d: -f1)
awk -v n="$n" 'NR == n { $2 = "12x4" } { print }' "$good" >"$f"
expect_error "a bad number" "$f" "bm-profile: $f:$n: bad cost '12x4'"

f=$scratch/overflow.out
awk -v n="$n" 'NR == n { $2 = "18446744073709551616" } { print }' "$good" >"$f"
expect_error "a number over 64 bits" "$f" \
	"bm-profile: $f:$n: cost '18446744073709551616' does not fit in 64 bits"

f=$scratch/over-int64.out
printf 'events: Ir\nfn=a\n1 9223372036854775808\ntotals: 9223372036854775808\n' >"$f"
"$BM_PROFILE" --json "$f" >"$scratch/out" 2>"$scratch/err"
check_eq "a count of 2^63 (beyond JSON's integers): exit status 2" 2 $?
check "a count of 2^63: says it is not supported" grep -q "^bm-profile: $f:4: counts of 2^63 or more are not supported$" "$scratch/err"

f=$scratch/unknown-name.out
n=$(grep -n '^cfn=([0-9]*) ' "$good" | head -n 1 | cut -d: -f1)
awk -v n="$n" 'NR == n { print "cfn=(999)"; next } { print }' "$good" >"$f"
expect_error "a reference to an undefined name" "$f" \
	"bm-profile: $f:$n: function name id (999) is used before it is defined"

f=$scratch/huge-line.out
{
	head -n 20 "$good"
	printf 'fn='
	head -c 2000000 /dev/zero | tr '\0' x
	echo
} >"$f"
expect_error "a huge line" "$f" "bm-profile: $f:21: line longer than 1048576 bytes"

f=$scratch/extra-column.out
n=$(grep -n '^[0-9+*-]' "$good" | head -n 1 | cut -d: -f1)
nevents=$(sed -n 's/^events: //p' "$good" | wc -w)
awk -v n="$n" -v k="$nevents" 'NR == n { line = $1; for (i = 0; i <= k; i++) line = line " 1"; print line; next } { print }' "$good" >"$f"
expect_error "more cost columns than events" "$f" \
	"bm-profile: $f:$n: too many cost columns: the 'events:' line names $nevents events"

f=$scratch/edited.out
awk '/^totals:/ { $2 = $2 + 1 } { print }' "$good" >"$f"
expect_error "an edited totals line" "$f" \
	"bm-profile: $f:$nlines: the 'totals:' line gives Ir $(($(sed -n 's/^totals: \([0-9]*\).*/\1/p' "$good") + 1)) but the cost lines sum to $(sed -n 's/^totals: \([0-9]*\).*/\1/p' "$good") (truncated or edited file?)"

f=$scratch/not-callgrind.json
echo '{"schema": "bm-report/1"}' >"$f"
expect_error "not a callgrind file" "$f" "bm-profile: $f:1: unrecognised line starting with '{\"schema\":'"

f=$scratch/binary.out
printf 'events: Ir\nfn=a\000b\n' >"$f"
expect_error "binary data" "$f" "bm-profile: $f:2: NUL byte in line"

f=$scratch/empty.out
: >"$f"
"$BM_PROFILE" "$f" >"$scratch/out" 2>"$scratch/err"
check_eq "an empty file alone: exit status 2" 2 $?

expect_error "a directory" "$scratch" "bm-profile: $scratch: cannot read: Is a directory"
expect_error "a missing file" "$scratch/nothing-here" \
	"bm-profile: cannot open '$scratch/nothing-here': No such file or directory"

# One bad file among good ones spoils the whole run: no partial output.
"$BM_PROFILE" --json "$good" "$scratch/bad-number.out" >"$scratch/out" 2>/dev/null
check_eq "a bad file among good ones: exit status 2" 2 $?
check_eq "a bad file among good ones: nothing printed" "" "$(cat "$scratch/out")"
"$BM_PROFILE" --json -o "$scratch/partial.json" "$good" "$scratch/bad-number.out" 2>/dev/null
check "a bad file among good ones: no report file written" test ! -e "$scratch/partial.json"

done_testing
