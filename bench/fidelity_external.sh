#!/bin/sh
# SPDX-License-Identifier: MIT
# The fidelity study on code nobody here wrote (docs/fidelity.md, "On other
# people's code"): Debian's own programs, whole processes, in change pairs
# of the choices their users make (a compression level, one tool for
# another, a regular expression or a fixed string, an index in SQLite, a
# builtin in Python) and pairs that natively make no difference.  Each
# command runs natively (the whole process's user CPU time: bm's estimate
# leaves the kernel out; BM_EXTERNAL_REPEATS repeats interleaved, after a
# round that fills the page cache) and once under `bm-run --whole` per
# configuration; the tables are fidelity.sh's
# (bench/fidelity/analyze.pl), with every benchmark in the validation
# half: nothing was fitted on this corpus.
#
# usage: bench/fidelity_external.sh [OPTIONS] [BUILD_DIR]   (default: build)
#   --raw FILE          also write the raw data (bm-fidelity/1 JSON)
#   --record-to DIR     also keep the native runs measured now in DIR (made if
#                       missing): one file per repeat, the commands, the text
#                       size and the CPU
#   --native-from DIR   do not time natively: take the runs kept in DIR, whose
#                       commands and text size must be this run's; so that
#                       two models are compared on one timing
# Environment:
#   BM_EXTERNAL_CONFIGS   LABEL=BM-RUN OPTIONS, separated by ';' (default
#                         'bm-model/1=--model bm-model/1;bm-model/2=--model bm-model/2')
#   BM_EXTERNAL_REPEATS   native runs of each command (default 15)
#   BM_EXTERNAL_TEXT_KB   size of the generated text (default and least 1024; the
#                         scanners and hashes read it 16 times over, the slow
#                         compressors half a MiB)
# Needs: perl, and the programs (gzip xz zstd lz4 bzip2 sqlite3 /usr/bin/python3 mawk
# and coreutils); a pair whose program is missing is left out with a word.
# The inputs are read from the page cache, the output goes to a file, and
# no command only scans its input (wc -l and grep -c ^ of 16 MiB spent most
# of their time in the kernel's copies of it), so that what the programs
# compute is most of their time.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
analyze="$top/bench/fidelity/analyze.pl"
. "$top/bench/fidelity/common.sh"
repeats=${BM_EXTERNAL_REPEATS:-15}
text_kb=${BM_EXTERNAL_TEXT_KB:-1024}
configs=${BM_EXTERNAL_CONFIGS:-'bm-model/1=--model bm-model/1;bm-model/2=--model bm-model/2'}

die() { echo "fidelity_external.sh: $1" >&2; exit 2; }
say() { echo "fidelity_external.sh: $1" >&2; }

raw='' record_to='' native_from=''
while [ $# -gt 0 ]; do
	case $1 in
	--raw) [ $# -ge 2 ] || die "--raw needs a file name"; raw=$2; shift ;;
	--record-to) [ $# -ge 2 ] || die "--record-to needs a directory"; record_to=$2; shift ;;
	--native-from) [ $# -ge 2 ] || die "--native-from needs a directory"; native_from=$2; shift ;;
	-h | --help) sed -n '3,35p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) die "unknown option '$1' (see --help)" ;;
	*) break ;;
	esac
	shift
done
[ $# -le 1 ] || die "one build directory at most (see --help)"
[ -z "$native_from" ] || [ -z "$record_to" ] || die "--record-to keeps runs measured now, not --native-from's"
if [ -n "$native_from" ]; then
	for kept in commands cpu text_kb run.1.json; do
		[ -s "$native_from/$kept" ] ||
			die "'$native_from' holds no native runs (commands, cpu, text_kb, run.1.json): keep them with --record-to"
	done
	native_from=$(cd "$native_from" && pwd)
fi
case $repeats$text_kb in
*[!0-9]* | '') die "BM_EXTERNAL_REPEATS and BM_EXTERNAL_TEXT_KB must be whole numbers" ;;
esac
# (A smaller text may hold no word that grep's patterns match: grep then
# exits 1, a failed run.)
if [ "$repeats" -lt 1 ] || [ "$text_kb" -lt 1024 ]; then
	die "BM_EXTERNAL_REPEATS must be at least 1, BM_EXTERNAL_TEXT_KB at least 1024"
fi
command -v perl >/dev/null || die "'perl' not found (apt-get install perl)"
build=$(cd "${1:-$top/build}" 2>/dev/null && pwd) || die "no build directory '${1:-$top/build}': configure and build bm first"
bmrun=$build/instrument/bm-run/bm-run
[ -x "$bmrun" ] || die "'$bmrun' is missing: build bm first (make)"

work=$(mktemp -d "${TMPDIR:-/tmp}/bm-fidelity-external.XXXXXX")
trap 'rm -rf "$work"' EXIT

# ---- the inputs, the same bytes on every machine (a seeded generator of
# our own, not perl's rand, whose sequence is perl's to change) ----
say "making the inputs ($text_kb KiB of text)"
perl - "$work" "$text_kb" <<'EOF'
use strict;
use warnings;
my ($dir, $kb) = @ARGV;
my $x = 20261126;
sub rnd { $x = ($x * 1103515245 + 12345) % 2147483648; $x / 2147483648 }
my @syl = qw(ka te ri so nu ma lo be di fa ge hu ji ko le mi no pa qu ra se ti vu wa xe yo ze an in on er al or es);
my @words = map { join '', map { $syl[int(rnd() * @syl)] } 1 .. 1 + int(rnd() * 4) } 1 .. 3000;
push @words, qw(the of and to in is that it for was on are as with tion ing nation station running);
open my $t, '>', "$dir/text" or die $!;
my ($size, $line) = (0, '');
while ($size < $kb * 1024) {
	my $n = 5 + int(rnd() * 15);
	my @s = map { $words[int(@words * rnd()**2.5)] } 1 .. $n;
	$s[0] = ucfirst $s[0];
	for my $w (@s, '.') {
		if (length($line) + length($w) > 72) { print $t "$line\n"; $size += length($line) + 1; $line = '' }
		$line .= ($line eq '' || $w eq '.' ? '' : ' ') . $w;
	}
	if (rnd() < 0.12) { print $t "$line\n\n"; $size += length($line) + 2; $line = '' }
}
print $t "$line\n";
close $t or die $!;
open my $n, '>', "$dir/numbers" or die $!;
print $n int(rnd() * 2147483648), "\n" for 1 .. 200000;
close $n or die $!;
for my $indexed (0, 1) {
	open my $q, '>', $indexed ? "$dir/index.sql" : "$dir/scan.sql" or die $!;
	print $q "CREATE TABLE t(k INTEGER, v TEXT);\n",
		"WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 20000) ",
		"INSERT INTO t SELECT (i * 7919) % 20011, 'row ' || i FROM c;\n";
	print $q "CREATE INDEX tk ON t(k);\n" if $indexed;
	print $q "SELECT count(*) FROM t WHERE k = ", int(rnd() * 20011), ";\n" for 1 .. 200;
	close $q or die $!;
}
open my $l, '>', "$dir/loop.py" or die $!;
print $l "s = 0\nfor i in range(1000000):\n    s += i\nprint(s)\n";
open my $b, '>', "$dir/builtin.py" or die $!;
print $b "print(sum(range(1000000)))\n";
open my $a, '>', "$dir/words.awk" or die $!;
print $a "{ n += NF } END { print n }\n";
close $_ or die $! for $l, $b, $a;
EOF
head -c 524288 "$work/text" >"$work/text512k"
for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do cat "$work/text"; done >"$work/big"
# (A compressor that is missing leaves its pairs out below.)
gzip -6 -c "$work/text" >"$work/text.gz"
if command -v zstd >/dev/null; then zstd -q -3 -c "$work/text" >"$work/text.zst"; fi
if command -v bzip2 >/dev/null; then bzip2 -9 -c "$work/text512k" >"$work/text512k.bz2"; fi
if command -v xz >/dev/null; then xz -6 -c "$work/text512k" >"$work/text512k.xz"; fi

# ---- the pairs: PAIR|SIDE|STDIN|ARGV (@ is the inputs' directory) ----
while IFS='|' read -r pair side stdin argv; do
	prog=${argv%% *}
	if ! command -v "$prog" >/dev/null; then
		echo "$pair" >>"$work/missing.$prog"
		continue
	fi
	printf 'pair::%s/%s\t%s\t%s\n' "$pair" "$side" "$(echo "$stdin" | sed "s|@|$work|")" "$(echo "$argv" | sed "s|@|$work|g")"
done >"$work/all" <<'EOF'
compress.gzip_level|before|-|gzip -9 -c @/text
compress.gzip_level|after|-|gzip -1 -c @/text
compress.xz_level|before|-|xz -6 -c @/text512k
compress.xz_level|after|-|xz -1 -c @/text512k
compress.zstd_level|before|-|zstd -q -12 -c @/text
compress.zstd_level|after|-|zstd -q -1 -c @/text
compress.gzip_to_zstd|before|-|gzip -6 -c @/text
compress.gzip_to_zstd|after|-|zstd -q -3 -c @/text
compress.gzip_to_lz4|before|-|gzip -4 -c @/text
compress.gzip_to_lz4|after|-|lz4 -q -1 -c @/text
compress.bzip2_to_gzip|before|-|bzip2 -9 -c @/text512k
compress.bzip2_to_gzip|after|-|gzip -9 -c @/text512k
decompress.gzip_to_zstd|before|-|gzip -d -c @/text.gz
decompress.gzip_to_zstd|after|-|zstd -q -d -c @/text.zst
decompress.bzip2_to_xz|before|-|bzip2 -d -c @/text512k.bz2
decompress.bzip2_to_xz|after|-|xz -d -c @/text512k.xz
hash.sha256_to_b2|before|-|sha256sum @/big
hash.sha256_to_b2|after|-|b2sum @/big
hash.sha1_to_md5|before|-|sha1sum @/big
hash.sha1_to_md5|after|-|md5sum @/big
count.awk_to_wc|before|-|mawk -f @/words.awk @/text
count.awk_to_wc|after|-|wc -w @/text
search.regex_to_fixed|before|-|grep -c -E [a-z]+ing[^a-z] @/big
search.regex_to_fixed|after|-|grep -c -F tion @/big
sort.text_to_numeric|before|-|sort --parallel=1 -S 64M @/numbers
sort.text_to_numeric|after|-|sort --parallel=1 -S 64M -n @/numbers
sql.index|before|@/scan.sql|sqlite3 :memory:
sql.index|after|@/index.sql|sqlite3 :memory:
python.builtin_sum|before|-|/usr/bin/python3 -E -S @/loop.py
python.builtin_sum|after|-|/usr/bin/python3 -E -S @/builtin.py
same.stdin|before|-|sha512sum @/big
same.stdin|after|@/big|sha512sum
same.no_name|before|-|gzip -5 -c @/text
same.no_name|after|-|gzip -5 -n -c @/text
EOF
for m in "$work"/missing.*; do
	[ -e "$m" ] || continue
	say "without $(sort -u "$m" | tr '\n' ' ')('${m##*/missing.}' is not installed)"
done
# A pair missing one side is left out whole.
cut -f 1 "$work/all" | sed 's|/[a-z]*$||' | sort | uniq -c | awk '$1 == 2 { print $2 "/" }' >"$work/whole-pairs"
grep -F -f "$work/whole-pairs" "$work/all" >"$work/commands" || die "no pair has both its programs installed"
say "$(wc -l <"$work/commands") commands in $(wc -l <"$work/whole-pairs") pairs"
# The commands as kept: the work directory's name is every run's own.
# Kept runs of other commands are refused before anything runs.
sed "s|$work|@|g" "$work/commands" >"$work/commands.kept"
if [ -n "$native_from" ]; then
	kept_kb=$(cat "$native_from/text_kb" 2>/dev/null || echo '?')
	[ "$kept_kb" = "$text_kb" ] ||
		die "'$native_from' timed a text of $kept_kb KiB, this run makes $text_kb (BM_EXTERNAL_TEXT_KB=$kept_kb, or time natively)"
	cmp -s "$work/commands.kept" "$native_from/commands" ||
		die "'$native_from' timed other commands than this run's (other programs installed): time natively, or record again"
fi

# ---- under bm-run, once per configuration ----
tab=$(printf '\t')
write_configs "$configs" BM_EXTERNAL_CONFIGS "$work" >"$work/configs"
[ -s "$work/configs" ] || die "BM_EXTERNAL_CONFIGS holds no configuration"
while IFS=$tab read -r label report options; do
	say "bm-run --whole${options:+ $options} ($label), one command after another"
	start=$(now)
	k=0
	while IFS=$tab read -r id stdin argv; do
		k=$((k + 1))
		in=/dev/null
		[ "$stdin" = - ] || in=$stdin
		set -f
		# shellcheck disable=SC2086
		"$bmrun" -q --whole --no-profile --name "$id" $options -o "$work/r.$k.json" -- $argv \
			<"$in" >/dev/null 2>"$work/err" ||
			{ cat "$work/err" >&2; die "bm-run failed on '$argv' ($label)"; }
		set +f
	done <"$work/commands"
	# shellcheck disable=SC2046
	perl "$analyze" merge $(seq -f "$work/r.%g.json" "$k") >"$report"
	say "bm-run ($label): $(elapsed "$start") s"
done <"$work/configs"

cpu=$(cpu_description)
if [ -n "$native_from" ]; then
	cpu=$(cat "$native_from/cpu")
	: >"$work/native-runs"
	r=1
	while [ -s "$native_from/run.$r.json" ]; do
		printf '%s\t%s\n' "$r" "$native_from/run.$r.json" >>"$work/native-runs"
		r=$((r + 1))
	done
	say "native runs: $((r - 1)) repeats kept in $native_from, on $cpu"
else
	say "timing natively: $repeats repeats (load average $(cut -d ' ' -f 1-3 /proc/loadavg))"
	start=$(now)
	perl "$top/bench/fidelity/time_whole.pl" "$work/commands" "$repeats" "$work/native" >"$work/native-runs"
	say "native timing: $(elapsed "$start") s (load average $(cut -d ' ' -f 1-3 /proc/loadavg))"
fi
if [ -n "$record_to" ]; then
	mkdir -p "$record_to" || die "cannot make '$record_to'"
	rm -f "$record_to"/run.*.json
	while IFS=$tab read -r r path; do
		cp "$path" "$record_to/run.$r.json"
	done <"$work/native-runs"
	cp "$work/commands.kept" "$record_to/commands"
	echo "$text_kb" >"$record_to/text_kb"
	echo "$cpu, $(date -u +%Y-%m-%d)" >"$record_to/cpu"
	say "native runs kept in $record_to"
fi

perl "$analyze" collect --configs "$work/configs" --native-runs "$work/native-runs" --one-half validation \
	--cpu "$cpu" --compiler "Debian's builds" \
	--date "$(date -u +%Y-%m-%d)" >"$work/raw.json"
[ -z "$raw" ] || cp "$work/raw.json" "$raw"
perl "$analyze" report "$work/raw.json"
