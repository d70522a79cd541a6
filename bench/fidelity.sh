#!/bin/sh
# SPDX-License-Identifier: MIT
# The fidelity study (docs/fidelity.md): how well bm's numbers follow native
# time.  Builds the corpus (make fidelity: bench/fidelity/*.c), runs it
# under bm-run once per configuration, times it natively (each program's
# own calibrated loop, BM_FIDELITY_REPEATS times, interleaved), and prints
# Markdown tables: for Ir and each configuration's estimated time, the
# Spearman rank correlation with native time and, for every change pair,
# bm's ratio against the native one, per half (fit, validation) of the
# corpus.
#
# usage: bench/fidelity.sh [OPTIONS] [BUILD_DIR]     (default BUILD_DIR: build)
#   --check             only check what the corpus needs (exit 0, or 2 naming the packages)
#   --raw FILE          also write the raw data (bm-fidelity/1 JSON: every benchmark's
#                       events and estimates per configuration, native medians, pair
#                       ratios, halves) for a model-fitting step
#   --native-from DIR   do not time natively: take the native times recorded in
#                       DIR/native-times.tsv and DIR/native-ratios.tsv (bench/fidelity)
#   --record            write the native times measured now into bench/fidelity/
#   --record-to DIR     write them into DIR instead (another CPU's: bench/fidelity/zen5)
#   --from RAW          only print the tables of a raw file written before
# Environment:
#   BM_FIDELITY_CONFIGS   configurations, one per line or separated by ';', each
#                         LABEL=BM-RUN OPTIONS (split at white space), e.g.
#                         'bm-model/1=--model bm-model/1;callgrind=--engine callgrind'; default 'bm-model/1=--model bm-model/1'
#   BM_FIDELITY_RUN_ARGS  one configuration, labelled by its options (when
#                         BM_FIDELITY_CONFIGS is unset), e.g. '--model bm-model/2'
#   BM_FIDELITY_REPEATS   native runs of each program (default 5)
#   BM_FIDELITY_MIN_TIME  their --min-time (default 0.2)
#   BM_FIDELITY_JOBS      bm-run -j (default 2)
# Needs: valgrind, perl, pkg-config and the libraries' -dev packages
# (--check).  Run it on an otherwise idle machine: native times are only as
# good as the machine is quiet.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
analyze="$top/bench/fidelity/analyze.pl"
. "$top/bench/fidelity/common.sh"
programs="pairs compress sqlite json kernels"
repeats=${BM_FIDELITY_REPEATS:-5}
min_time=${BM_FIDELITY_MIN_TIME:-0.2}
jobs=${BM_FIDELITY_JOBS:-2}

die() { echo "fidelity.sh: $1" >&2; exit 2; }
say() { echo "fidelity.sh: $1" >&2; }

check=0 raw='' native_from='' record=0 record_dir=$top/bench/fidelity from=''
while [ $# -gt 0 ]; do
	case $1 in
	--check) check=1 ;;
	--raw) [ $# -ge 2 ] || die "--raw needs a file name"; raw=$2; shift ;;
	--native-from) [ $# -ge 2 ] || die "--native-from needs a directory"; native_from=$2; shift ;;
	--record) record=1 ;;
	--record-to) [ $# -ge 2 ] || die "--record-to needs a directory"; record=1 record_dir=$2; shift ;;
	--from) [ $# -ge 2 ] || die "--from needs a raw file"; from=$2; shift ;;
	-h | --help) sed -n '3,33p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) die "unknown option '$1' (see --help)" ;;
	*) break ;;
	esac
	shift
done
[ $# -le 1 ] || die "one build directory at most (see --help)"
case $repeats$jobs in
*[!0-9]* | '') die "BM_FIDELITY_REPEATS and BM_FIDELITY_JOBS must be whole numbers (they are '$repeats' and '$jobs')" ;;
esac
if [ "$repeats" -lt 1 ] || [ "$jobs" -lt 1 ]; then
	die "BM_FIDELITY_REPEATS and BM_FIDELITY_JOBS must be at least 1"
fi
[ -z "$native_from" ] || [ "$record" = 0 ] || die "--record needs native times measured now, not --native-from"

command -v perl >/dev/null || die "'perl' not found (apt-get install perl)"
if [ -n "$from" ]; then
	exec perl "$analyze" report "$from"
fi

# What the corpus links, by pkg-config module and the Debian package that
# has it.
missing=
for tool in valgrind:valgrind pkg-config:pkg-config make:make; do
	command -v "${tool%%:*}" >/dev/null || missing="$missing ${tool#*:}"
done
if command -v pkg-config >/dev/null; then
	for dep in zlib:zlib1g-dev libzstd:libzstd-dev liblz4:liblz4-dev libxxhash:libxxhash-dev \
		sqlite3:libsqlite3-dev jansson:libjansson-dev; do
		pkg-config --exists "${dep%%:*}" || missing="$missing ${dep#*:}"
	done
fi
[ -z "$missing" ] || die "the corpus needs Debian packages that are missing:$missing; apt-get install$missing"
[ "$check" = 0 ] || exit 0

work=$(mktemp -d "${TMPDIR:-/tmp}/bm-fidelity.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The configurations (common.sh's write_configs).
if [ -n "${BM_FIDELITY_CONFIGS:-}" ]; then
	configs=$BM_FIDELITY_CONFIGS
elif [ -n "${BM_FIDELITY_RUN_ARGS:-}" ]; then
	configs="$BM_FIDELITY_RUN_ARGS=$BM_FIDELITY_RUN_ARGS"
else
	configs="bm-model/1=--model bm-model/1"
fi
write_configs "$configs" BM_FIDELITY_CONFIGS "$work" >"$work/configs"
[ -s "$work/configs" ] || die "BM_FIDELITY_CONFIGS holds no configuration: give at least one LABEL=OPTIONS"

build=$(cd "${1:-$top/build}" 2>/dev/null && pwd) || die "no build directory '${1:-$top/build}': configure and build bm first"
bmrun=$build/instrument/bm-run/bm-run
[ -x "$bmrun" ] || die "'$bmrun' is missing: build bm first (make)"
say "building the corpus (make fidelity)"
make -C "$build" -s fidelity >&2 || die "make fidelity failed in '$build'"

for p in $programs; do echo "$build/bench/fidelity/$p"; done >"$work/manifest"

tab=$(printf '\t')
while IFS=$tab read -r label report options; do
	say "bm-run -j $jobs${options:+ $options} ($label)"
	start=$(now)
	set -f
	# shellcheck disable=SC2086
	"$bmrun" -q -j "$jobs" --no-profile $options --manifest "$work/manifest" -o "$report" ||
		die "bm-run failed for configuration '$label' (its message is above)"
	set +f
	say "bm-run ($label): $(elapsed "$start") s"
done <"$work/configs"

if [ -n "$native_from" ]; then
	native_opt=--native-from native_arg=$native_from
else
	start=$(now)
	: >"$work/native-runs"
	for r in $(seq "$repeats"); do
		say "timing natively, repeat $r of $repeats (--min-time $min_time; load average $(cut -d ' ' -f 1-3 /proc/loadavg))"
		for p in $programs; do
			"$build/bench/fidelity/$p" --min-time "$min_time" --json "$work/native.$r.$p.json" >/dev/null ||
				die "'$p' failed natively"
			printf '%s\t%s\n' "$r" "$work/native.$r.$p.json" >>"$work/native-runs"
		done
	done
	say "native timing: $(elapsed "$start") s"
	native_opt=--native-runs native_arg=$work/native-runs
fi

cc=$(sed -n 's/^CC = //p' "$build/Makefile")
compiler=$($cc --version 2>/dev/null | head -n 1 || echo "$cc")
perl "$analyze" collect --configs "$work/configs" "$native_opt" "$native_arg" \
	--cpu "$(cpu_description)" --compiler "$compiler -O2 -g" \
	--min-time "$min_time" --date "$(date -u +%Y-%m-%d)" >"$work/raw.json"
[ -z "$raw" ] || cp "$work/raw.json" "$raw"
[ "$record" = 0 ] || { mkdir -p "$record_dir" && perl "$analyze" record "$work/raw.json" "$record_dir" &&
	say "wrote $record_dir/native-times.tsv and native-ratios.tsv"; }
perl "$analyze" report "$work/raw.json"
