#!/bin/sh
# SPDX-License-Identifier: MIT
# The C library calls git bans (its banned.h), absent from bm's own C:
# sprintf, vsprintf, strcpy, strcat, strncpy and strncat write past a
# buffer they cannot see the end of (snprintf with the buffer's size, or
# memcpy of a known length, instead); strtok and strtok_r keep hidden
# state and skip empty fields; gmtime, localtime, ctime and asctime
# return a shared buffer (their _r forms, or strftime).  The examples and
# bench/'s programs are a user's code, and left as written.
. "$(dirname "$0")/lib.sh"
cd "$scratch"

banned='sprintf|vsprintf|strcpy|strcat|strncpy|strncat|strtok|strtok_r|gmtime|localtime|ctime|ctime_r|asctime|asctime_r'
for dir in instrument lib simulator uploader dashboard tests/unit tests/fuzz tests/programs; do
	find "$top_srcdir/$dir" -name '*.[ch]' -type f | sort | while read -r f; do
		# Code only: block comments' lines and line comments blanked.
		sed -e 's,//.*,,' -e 's,^[[:space:]]*\*.*,,' -e 's,/\*.*\*/,,g' "$f" |
			grep -nE "(^|[^_A-Za-z0-9>.])($banned)[[:space:]]*\(" | sed "s,^,${f#"$top_srcdir/"}:,"
	done
done >found.txt
check_eq "no banned call in bm's C (its parts and its tests)" "" "$(cat found.txt)"

# The check itself finds one.
printf 'static void f(char *b)\n{\n\tstrcpy(b, "x"); /* no */\n}\n' >planted.c
sed -e 's,//.*,,' -e 's,^[[:space:]]*\*.*,,' -e 's,/\*.*\*/,,g' planted.c |
	grep -cE "(^|[^_A-Za-z0-9>.])($banned)[[:space:]]*\(" >planted.count
check_eq "... and it finds a planted strcpy" 1 "$(cat planted.count)"

done_testing
