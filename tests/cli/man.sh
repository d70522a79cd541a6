#!/bin/sh
# SPDX-License-Identifier: MIT
# The man pages (made from docs/ by man/manpage.lua): each renders through
# man(1) without a warning, has NAME and SYNOPSIS, names every option its
# command's --help lists, and is found by `man` after `make install`.
. "$(dirname "$0")/lib.sh"

if ! grep -q '^man_MANS = ' "$top_builddir/Makefile"; then
	echo "1..0 # SKIP configured with --disable-man"
	exit 0
fi
if ! command -v man >/dev/null 2>&1; then
	echo "Bail out! man(1) is needed to check the man pages: apt-get install man-db groff-base"
	exit 1
fi

# page FILE: the page as the build has it (made in the build tree, or
# shipped in the source tree).
page() {
	if [ -f "$top_builddir/man/$1" ]; then echo "$top_builddir/man/$1"; else echo "$top_srcdir/man/$1"; fi
}
render() {
	MANWIDTH=80 man --warnings -l "$1" 2>"$scratch/warnings" | col -b
}

for p in bm-run.1 bm-profile.1 bm-upload.1 bm-check.1 bm-import.1 bm-server.8 libbm.3 bm-report.5; do
	name=${p%.*}
	file=$(page "$p")
	text=$(render "$file")
	check_eq "$p renders without a warning" "" "$(cat "$scratch/warnings")"
	check "$p: NAME says what $name is" sh -c 'printf "%s\n" "$1" | sed -n "/^NAME/{n;p;}" | grep -q "^ *$2 \\+- \\+[a-z]"' \
		- "$text" "$name"
	# A format (section 5) has no synopsis.
	case $p in *.5) sections="DESCRIPTION|SEE ALSO" ;; *) sections="SYNOPSIS|DESCRIPTION|SEE ALSO" ;; esac
	check "$p: $(echo "$sections" | sed 's/|/, /g')" sh -c 'IFS="|"; for s in $2; do
		printf "%s\n" "$1" | grep -q "^$s\$" || exit 1; done' - "$text" "$sections"
	check "$p: its footer names bm's version" sh -c 'printf "%s\n" "$1" | tail -n 1 | grep -q "^bm [0-9]"' - "$text"
	printf '%s\n' "$text" >"$scratch/$name.txt"
done

# Every option of every command (and bm-server's sub-commands) is in its page.
options() {
	"$@" --help 2>&1 | grep -o -- '--[a-z][a-z0-9-]*' | sort -u
}
missing_options() {
	name=$1
	shift
	for o in $(options "$@"); do
		grep -q -- "$o" "$scratch/$name.txt" || printf '%s ' "$o"
	done
}
for c in bm-run bm-profile bm-upload bm-check bm-import; do
	dir=$(dirname "$(find "$top_builddir" -name "$c" -type f -perm -u+x ! -path '*/.libs/*' | head -n 1)")
	check_eq "$c.1 names every option of $c --help" "" "$(missing_options "$c" "$dir/$c")"
done
check_eq "bm-server.8 names every option of bm-server --help" "" \
	"$(missing_options bm-server "$top_builddir/dashboard/bm-server")"
check "libbm.3 has the functions of bm.h" sh -c 'for f in bm_param bm_param_str bm_black_box bm_set_data BM_BENCHMARK BM_MAIN; do
	grep -q "$f" "$1" || exit 1; done' - "$scratch/libbm.txt"

# Installed: `man bm-run` finds the page under the prefix, by section.
dest="$scratch/dest"
make -C "$top_builddir" install-man install-dist_docDATA DESTDIR="$dest" >"$scratch/install.log" 2>&1
check_eq "make install-man install-dist_docDATA succeeds" 0 $?
prefix=$(sed -n 's/^prefix = //p' "$top_builddir/Makefile")
mandir="$dest$prefix/share/man"
check_eq "the pages are installed by section" \
	"man1/bm-check.1 man1/bm-import.1 man1/bm-profile.1 man1/bm-run.1 man1/bm-upload.1 man3/libbm.3 man5/bm-report.5 man8/bm-server.8" \
	"$(cd "$mandir" && find . -type f | sed 's|^\./||' | sort | tr '\n' ' ' | sed 's/ $//')"
check_eq "man -M finds bm-run, libbm(3) and bm-report(5)" \
	"$mandir/man1/bm-run.1 $mandir/man3/libbm.3 $mandir/man5/bm-report.5" \
	"$(man -M "$mandir" -w bm-run) $(man -M "$mandir" -w 3 libbm) $(man -M "$mandir" -w 5 bm-report)"
check "the installed manuals: the documentation directory" test -f "$dest$prefix/share/doc/bm/bm-run.md" -a \
	-f "$dest$prefix/share/doc/bm/LICENSE"

done_testing
