#!/bin/sh
# SPDX-License-Identifier: MIT
# Output files never clobber what a path points at (SPEC 5.1), in every
# tool: a regular file is replaced atomically, a symbolic link is followed
# (its target written, the link kept), a device, FIFO or /dev/stdout is
# written directly and stays what it is, "-" is standard output, and a
# directory or a loop of links is an error.  Run as root (as on CI),
# /dev/null itself is checked.  One small bm-run per case; its first report
# is every other tool's input.
. "$(dirname "$0")/lib.sh"

BM_IMPORT="$top_builddir/uploader/bm-import"
BM_CHECK="$top_builddir/uploader/bm-check"
BM_UPLOAD="$top_builddir/uploader/bm-upload"
data="$top_srcdir/tests/cli/data/import"
unset GITHUB_STEP_SUMMARY

# write TOOL OUT [STDOUT]: runs TOOL writing its output file to OUT (its
# standard output appended to STDOUT, default /dev/null); prints its exit
# status.
write() {
	case $1 in
	bm-run) "$BM_RUN" -q -o "$2" -- "$PROGRAMS/whole" ;;
	bm-import) "$BM_IMPORT" gbench "$data/gbench.json" -o "$2" ;;
	bm-profile) "$BM_PROFILE" --json -o "$2" "$cg" ;;
	bm-check) env -u BM_SERVER "$BM_CHECK" --base "$scratch/report.json" --head "$scratch/report.json" --markdown "$2" ;;
	esac >>"${3:-/dev/null}" 2>"$scratch/err"
	echo $?
}
# complete TOOL FILE: whether FILE holds TOOL's whole output (a report
# from its first brace to its last, or the Markdown summary's table).
complete() {
	case $1 in
	bm-check) grep -q '^|' "$2" ;;
	*) grep -q '"schema": "bm-report/1"' "$2" && [ "$(tail -n 1 "$2")" = "}" ] ;;
	esac
}
# what_is PATH: "file", "link", "fifo", "char" or "missing".
what_is() {
	if [ -L "$1" ]; then echo link
	elif [ -p "$1" ]; then echo fifo
	elif [ -c "$1" ]; then echo char
	elif [ -f "$1" ]; then echo file
	else echo missing; fi
}
inode() {
	ls -i "$1" | cut -d' ' -f1
}
# yes_if COMMAND...: "yes" when the command succeeds, "no" otherwise.
yes_if() {
	if "$@"; then echo yes; else echo no; fi
}

# bm-run --keep's files too: here the kept callgrind file is a link.
mkdir "$scratch/kept"
ln -s ../whole.callgrind "$scratch/kept/whole.callgrind"
"$BM_RUN" -q --keep "$scratch/kept" -o "$scratch/report.json" -- "$PROGRAMS/whole" >/dev/null 2>&1
check "bm-run wrote a report to start from" test -s "$scratch/report.json"
cg="$scratch/kept/whole.callgrind"
check_eq "bm-run --keep: a kept file that is a link stays a link, its target gets the callgrind file" \
	"link yes" "$(what_is "$cg") $(yes_if grep -q '^events:' "$scratch/whole.callgrind")"

for tool in bm-run bm-import bm-profile bm-check; do
	d="$scratch/$tool"
	mkdir -p "$d"
	check_eq "$tool: a new file" "0 file yes" \
		"$(write $tool "$d/new.out") $(what_is "$d/new.out") $(yes_if complete $tool "$d/new.out")"

	printf 'old\n' >"$d/existing.out"
	chmod 640 "$d/existing.out"
	before=$(inode "$d/existing.out")
	check_eq "$tool: an existing file is replaced whole (a new inode), keeping its permissions" \
		"0 file yes yes -rw-r-----" \
		"$(write $tool "$d/existing.out") $(what_is "$d/existing.out") $(yes_if test "$(inode "$d/existing.out")" != "$before") $(yes_if complete $tool "$d/existing.out") $(ls -l "$d/existing.out" | cut -c1-10)"

	mkdir "$d/sub"
	printf 'old\n' >"$d/sub/target.out"
	ln -s sub/target.out "$d/link.out"
	check_eq "$tool: a symbolic link stays a link, its target gets the output" "0 link file yes" \
		"$(write $tool "$d/link.out") $(what_is "$d/link.out") $(what_is "$d/sub/target.out") $(yes_if complete $tool "$d/sub/target.out")"

	printf 'old\n' >"$d/sub/target.out"
	ln -s link.out "$d/chain.out"
	check_eq "$tool: a chain of links: each stays a link, the last target gets the output" "0 link link file yes" \
		"$(write $tool "$d/chain.out") $(what_is "$d/chain.out") $(what_is "$d/link.out") $(what_is "$d/sub/target.out") $(yes_if complete $tool "$d/sub/target.out")"

	ln -s made-by-link.out "$d/sub/dangling"
	ln -s sub/dangling "$d/to-dangling.out"
	check_eq "$tool: a dangling link: its target is made beside the link" "0 link file yes" \
		"$(write $tool "$d/to-dangling.out") $(what_is "$d/sub/dangling") $(what_is "$d/sub/made-by-link.out") $(yes_if complete $tool "$d/sub/made-by-link.out")"

	mkfifo "$d/fifo"
	cat "$d/fifo" >"$d/from-fifo" &
	reader=$!
	status=$(write $tool "$d/fifo")
	# Should the tool not have opened it, open and close it once so that the
	# reader ends (and does not wait for ever).
	exec 3<>"$d/fifo"
	exec 3>&-
	wait $reader
	check_eq "$tool: a FIFO: its reader gets the whole output, and it stays a FIFO" "0 fifo yes" \
		"$status $(what_is "$d/fifo") $(yes_if complete $tool "$d/from-fifo")"

	check_eq "$tool: /dev/null is written to and stays a character device" "0 char" \
		"$(write $tool /dev/null) $(what_is /dev/null)"

	printf 'before\n' >"$d/stdout.out"
	before=$(inode "$d/stdout.out")
	status=$(write $tool /dev/stdout "$d/stdout.out")
	check_eq "$tool: /dev/stdout is standard output, where it is (appended to, here), never replaced" \
		"0 before yes yes" \
		"$status $(head -n 1 "$d/stdout.out") $(yes_if test "$(inode "$d/stdout.out")" = "$before") $(yes_if complete $tool "$d/stdout.out")"

	n=$(ls -A "$d" | wc -l)
	check_eq "$tool: a directory: exit 2, why, nothing written" \
		"2|$tool: cannot write '$d': Is a directory|$n" \
		"$(write $tool "$d")|$(cat "$scratch/err")|$(ls -A "$d" | wc -l)"
	ln -s loop.out "$d/loop.out"
	check_eq "$tool: a link to itself: exit 2, why" \
		"2|$tool: cannot write '$d/loop.out': Too many levels of symbolic links" \
		"$(write $tool "$d/loop.out")|$(cat "$scratch/err")"
	check_eq "$tool: no temporary file left behind" 0 "$(find "$d" -name '*.tmp.*' | wc -l)"
done

# "-" is standard output wherever an output file is accepted.
check_eq "bm-run -o -: the report on standard output" "0 yes" \
	"$(write bm-run - "$scratch/run-dash") $(yes_if complete bm-run "$scratch/run-dash")"
check_eq "bm-import -o -: the report on standard output" "0 yes" \
	"$(write bm-import - "$scratch/import-dash") $(yes_if complete bm-import "$scratch/import-dash")"
check_eq "bm-profile -o -: on standard output" "0 yes" \
	"$(write bm-profile - "$scratch/profile-dash") $(yes_if complete bm-profile "$scratch/profile-dash")"
check_eq "bm-check --markdown -: the Markdown on standard output" "0 yes" \
	"$(write bm-check - "$scratch/check-dash") $(yes_if complete bm-check "$scratch/check-dash")"
check_eq "... and no file named '-' anywhere" "" "$(find "$scratch" -name -)"
"$BM_RUN" -o - -- "$PROGRAMS/whole" >"$scratch/run-dash-table.json" 2>"$scratch/run-dash-table.err"
check_eq "bm-run -o - without -q: the report alone on stdout (valid JSON), the table on stderr" "bm-report/1 1" \
	"$(json_get "$scratch/run-dash-table.json" '$j->{schema}') $(grep -c '^benchmark ' "$scratch/run-dash-table.err")"

# The spool: a spool directory that is a symbolic link is used, not replaced.
mkdir "$scratch/real-spool"
ln -s real-spool "$scratch/spool-link"
BM_SERVER=http://127.0.0.1:9 BM_PROJECT=app BM_TOKEN=t "$BM_UPLOAD" --tries 1 --spool "$scratch/spool-link" \
	--branch main --commit abc1234 --commit-time 2026-11-01T10:00:00Z "$scratch/report.json" >/dev/null 2>&1
check_eq "the spool: a linked spool directory stays a link, the report lands in its target" "link 1 0" \
	"$(what_is "$scratch/spool-link") $(ls "$scratch/real-spool" | grep -c '\.json$') $(ls -A "$scratch/real-spool" | grep -c 'tmp\.')"

if [ "$(id -u)" = 0 ]; then
	check "as root, after all of the above /dev/null is still a character device" test -c /dev/null
else
	ok "# SKIP /dev/null as root: not root (the checks above wrote to it as $(id -un))"
fi

done_testing
