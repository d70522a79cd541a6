#!/bin/sh
# SPDX-License-Identifier: MIT
# The clients' command lines (bm-upload, bm-check, bm-import): every wrong
# use is exit 2 with a first line that names the program and what is
# wrong, before any file is read or any request sent; --version and --help
# answer on standard output with exit 0.
. "$(dirname "$0")/lib.sh"

BM_UPLOAD="$top_builddir/uploader/bm-upload"
BM_CHECK="$top_builddir/uploader/bm-check"
BM_IMPORT="$top_builddir/uploader/bm-import"
echo '{}' >"$scratch/r.json"
cd "$scratch" || exit 1
# refused MESSAGE COMMAND...: exit 2, MESSAGE the first line; run with no
# BM_* variables so that nothing comes from the environment.
refused() {
	msg=$1
	shift
	env -i PATH="$PATH" HOME="$scratch" "$@" >out 2>err
	check_eq "$(basename "$1") ${*#"$1"}: exit 2, '$msg'" "2 $msg" "$? $(head -n 1 err)"
}
refused "bm-upload: --pr needs a number from 1 to 1099511627776, not '0'" "$BM_UPLOAD" --pr 0 r.json
refused "bm-upload: --pr needs a number from 1 to 1099511627776, not 'x'" "$BM_UPLOAD" --pr x r.json
refused "bm-upload: --tries needs a number from 1 to 100, not '0'" "$BM_UPLOAD" --tries 0 r.json
refused "bm-upload: --timeout needs seconds from 1 to 3600, not '99999'" "$BM_UPLOAD" --timeout 99999 r.json
refused "bm-upload: unknown format 'junit'" "$BM_UPLOAD" --from junit r.json
refused "bm-upload: unrecognized option '--bogus'" "$BM_UPLOAD" --bogus
refused "bm-upload: --flush takes no report files (nor --from)" "$BM_UPLOAD" --flush r.json
refused "bm-upload: no report to upload" "$BM_UPLOAD"
refused "bm-upload: no server: give --server URL or set BM_SERVER" "$BM_UPLOAD" r.json
refused "bm-upload: no project: give --project NAME or set BM_PROJECT" "$BM_UPLOAD" --server http://x r.json
refused "bm-upload: no token: give --token T or set BM_TOKEN (bm-server project create prints one)" \
	"$BM_UPLOAD" --server http://x --project p r.json
refused "bm-upload: cannot open 'missing.json': No such file or directory" \
	"$BM_UPLOAD" --server http://x --project p --token t missing.json
refused "bm-check: unrecognized option '--bogus'" "$BM_CHECK" --bogus
refused "bm-check: --threshold needs a number from 0 to 0.5, not 'x'" "$BM_CHECK" --threshold x
refused "bm-check: --timeout needs seconds from 1 to 3600, not '0'" "$BM_CHECK" --timeout 0
refused "bm-check: no server: give --server URL or set BM_SERVER (or compare files with --base and --head)" "$BM_CHECK"
refused "bm-check: --pr needs a number from 1 to 2147483647, not '1.5'" "$BM_CHECK" --pr 1.5
refused "bm-check: --tries needs a number from 1 to 100, not '0'" "$BM_CHECK" --tries 0
refused "bm-check: --timeout needs seconds from 1 to 3600, not '1.5'" "$BM_CHECK" --timeout 1.5
refused "bm-check: unexpected arguments (reports are given with --base and --head)" "$BM_CHECK" extra
refused "bm-check: --run needs a run id (the report's run_id), not ''" "$BM_CHECK" --run ""
refused "bm-check: --base needs --head" "$BM_CHECK" --base a.json
refused "bm-check: --head needs --base" "$BM_CHECK" --head b.json
refused "bm-check: --base and --head compare two files: --server, --project, --pr, --run and --baseline do not apply" \
	"$BM_CHECK" --base a.json --head b.json --server http://x
refused "bm-check: --github-status needs GITHUB_TOKEN (a token that may write statuses) and GITHUB_REPOSITORY (OWNER/REPO)" \
	"$BM_CHECK" --base a.json --head b.json --github-status
refused "bm-check: --github-status needs GITHUB_REPOSITORY (OWNER/REPO)" \
	env GITHUB_TOKEN=x "$BM_CHECK" --base a.json --head b.json --github-status
refused "bm-check: --github-status needs GITHUB_TOKEN (a token that may write statuses)" \
	env GITHUB_REPOSITORY=o/r "$BM_CHECK" --base a.json --head b.json --github-status
refused "bm-check: no project: give --project NAME or set BM_PROJECT" "$BM_CHECK" --server http://x
refused "bm-check: cannot tell which commit to check: not in a git repository with a commit (give --commit SHA)" \
	"$BM_CHECK" --server http://x --project p
refused "bm-import: unrecognized option '--bogus'" "$BM_IMPORT" --bogus
refused "bm-import: expected a format and a file" "$BM_IMPORT" qtestlib -o x.json
check "none of them wrote a file" test ! -e x.json
# Where an unsent report is kept: $XDG_STATE_HOME/bm/spool when that is an
# absolute path (the XDG rule), else ~/.local/state/bm/spool, else (no
# HOME) ./.local/state/bm/spool; somewhere it cannot be, said, exit 2.
cp "$top_srcdir/tests/fuzz/corpus/upload/push.json" rep.json
mkdir home
unsent() {
	env -i PATH="$PATH" "$@" "$BM_UPLOAD" --server http://127.0.0.1:1 --project p --token t --tries 1 \
		--commit abc123 --commit-time 2026-11-20T10:00:00Z --branch main rep.json >out 2>err
	echo "$? $(sed -n "s/.*kept as '\(.*\)' (send.*/\1/p" err)"
}
check_eq "unsent, XDG_STATE_HOME absolute: exit 1, kept there" \
	"1 $scratch/state/bm/spool/run-c2c2c2-push-m1.json" "$(unsent HOME="$scratch/home" XDG_STATE_HOME="$scratch/state")"
check_eq "XDG_STATE_HOME relative: ignored, ~/.local/state" \
	"1 $scratch/home/.local/state/bm/spool/run-c2c2c2-push-m1.json" \
	"$(unsent HOME="$scratch/home" XDG_STATE_HOME=relative)"
check_eq "no HOME: ./.local/state" "1 ./.local/state/bm/spool/run-c2c2c2-push-m1.json" "$(unsent)"
touch afile
env -i PATH="$PATH" HOME="$scratch/home" "$BM_UPLOAD" --server http://127.0.0.1:1 --project p --token t --tries 1 \
	--spool afile/sub --commit abc123 --commit-time 2026-11-20T10:00:00Z --branch main rep.json >out 2>err
check_eq "a spool that cannot be made: exit 2, and why" \
	"2 bm-upload: rep.json: not sent, and cannot be spooled either: 'afile' is not a directory" "$? $(tail -n 1 err)"
env -i PATH="$PATH" "$BM_UPLOAD" --flush --spool "$scratch/none" --token t >out 2>err
check_eq "--flush of a spool that does not exist: exit 0, nothing sent" \
	"0 bm-upload: sent 0 of 0 spooled reports from '$scratch/none'" "$? $(cat err)"
mkdir badspool
echo '{"server":"","project":"p","report":{}}' >badspool/x.json
env -i PATH="$PATH" "$BM_UPLOAD" --flush --spool "$scratch/badspool" --token t >out 2>err
check_eq "--flush of an entry without a server: exit 2, not sent, named" \
	"2 bm-upload: $scratch/badspool/x.json: not sent: not a spooled report (no server, project or report)" \
	"$? $(head -n 1 err)"
# Every report read is bounded (lib/json_load.c): a sparse file just past
# 256 MiB is refused before it is read, as a report and as a spool entry.
truncate -s $((256 * 1024 * 1024 + 1)) huge.json
env -i PATH="$PATH" "$BM_UPLOAD" --server http://127.0.0.1:1 --project p --token t --tries 1 \
	--commit abc123 --commit-time 2026-11-20T10:00:00Z --branch main huge.json >out 2>err
check_eq "a report past 256 MiB: refused, never loaded" "2 bm-upload: 'huge.json' is larger than 256 MiB" \
	"$? $(head -n 1 err)"
mkdir hugespool
truncate -s $((256 * 1024 * 1024 + 1)) hugespool/x.json
env -i PATH="$PATH" "$BM_UPLOAD" --flush --spool "$scratch/hugespool" --token t >out 2>err
check_eq "--flush of an entry past 256 MiB: not sent, named" \
	"2 bm-upload: $scratch/hugespool/x.json: not sent: not a spooled report (larger than 256 MiB)" \
	"$? $(head -n 1 err)"
rm -f huge.json hugespool/x.json

for c in bm-upload bm-check bm-import; do
	"$top_builddir/uploader/$c" --version >out 2>err
	check_eq "$c --version: exit 0, the version" "0 $c $(sed -n 's/^PACKAGE_VERSION = //p' "$top_builddir/Makefile")" \
		"$? $(cat out)"
	"$top_builddir/uploader/$c" --help >out 2>err
	check_eq "$c --help: exit 0, the usage on standard output" "0 usage: $c" "$? $(head -n 1 out | cut -d' ' -f1-2)"
done

done_testing
