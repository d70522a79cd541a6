#!/bin/sh
# SPDX-License-Identifier: MIT
# Bash completion (lib/completion/bm): options from each command's own
# --help, so that every option a command documents is offered; values of
# the options that take a word from a list; sub-commands; the program after
# bm-run's "--".
. "$(dirname "$0")/lib.sh"

command -v bash >/dev/null 2>&1 || { echo "1..0 # SKIP no bash"; exit 0; }
# complete WORDS...: what completing the last word offers, on one line.
complete_words() {
	PATH="$top_builddir/instrument/bm-run:$top_builddir/simulator:$top_builddir/uploader:$top_builddir/dashboard:$PATH" \
		bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _bm_complete; echo "${COMPREPLY[*]}"' \
		sh "$top_srcdir/lib/completion/bm" "$@"
}

check_eq "bm-run --en: --engine --env" "--engine --env" "$(complete_words bm-run --en)"
check_eq "bm-run --engine: its two engines" "bm callgrind" "$(complete_words bm-run --engine '')"
check_eq "bm-run --cpu: the bm engine's virtual CPUs" "x86-64-v1 x86-64-v3" "$(complete_words bm-run --cpu '')"
check_eq "bm-run --clock: the two clocks" "virtual host" "$(complete_words bm-run --clock '')"
check_eq "bm-run --harness: the suites it recognises" "gbench catch2" "$(complete_words bm-run --harness '')"
check_eq "bm-run --model: the cost models" "bm-model/1 bm-model/2 bm-model/3" "$(complete_words bm-run --model '')"
check_eq "bm-check --metric: the gate metrics" "cycles instructions syscalls" "$(complete_words bm-check --metric '')"
check_eq "bm-server: its sub-commands" "serve project token migrate" "$(complete_words bm-server '')"
check_eq "bm-import: its formats" "chromium gbench qtestlib" "$(complete_words bm-import '' | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')"
check_eq "bm-upload --from: the formats it imports" "gbench" "$(complete_words bm-upload --from g)"
check_eq "bm-run after --: a command" "basename" "$(complete_words bm-run -q -- basenam)"
# Every option each command's --help names is offered.
for c in bm-run:instrument bm-profile:simulator bm-upload:uploader bm-check:uploader bm-import:uploader bm-server:dashboard; do
	cmd=${c%%:*}
	documented=$("$top_builddir/${c#*:}/$cmd" --help 2>/dev/null | grep -o -E '(^|[ [,])--[a-z][a-z0-9-]*' | sed 's/^[ [,]//' | sort -u)
	offered=$(complete_words "$cmd" -- | tr ' ' '\n' | grep -- '^--' | sort -u)
	check_eq "$cmd: every option its --help names is offered ($(echo "$documented" | wc -l | tr -d ' '))" \
		"$documented" "$(echo "$offered" | grep -x -F -- "$documented")"
done

done_testing
