#!/bin/sh
# SPDX-License-Identifier: MIT
# The bm engine's virtual CPUs (bm-run --cpu x86-64-v1 and x86-64-v3):
# what a program sees of each (tests/programs/cpuid: every cpuid leaf,
# XGETBV, glibc's caches, __builtin_cpu_supports), exactly the answers
# docs/engine.md documents; which of glibc's string functions run; a hash
# that dispatches on AVX2 counted on each; the same events on every run;
# the report, bm-check refusing to compare the two, and the usage errors.
. "$top_srcdir/tests/cli/lib.sh"

need_engine
unset BM_CPU BM_ENGINE
BM_CHECK="$top_builddir/uploader/bm-check"
PROG="$PROGRAMS/cpuid"
cd "$scratch" || exit 1

# A host that cannot run x86-64-v3 is refused before anything runs; on
# such a host this test has nothing else to check.
need_x86_64_v3

# -- what the program sees: every answer, as documented --
cat >x86-64-v1.expected <<'EOF'
leaf 00000000.0: 00000001 68747541 444d4163 69746e65
leaf 00000001.0: 00000f5a 01000800 00000000 078bfbff
leaf 80000000.0: 80000018 68747541 444d4163 69746e65
leaf 80000001.0: 00000f5a 00000505 00000000 21d3fbff
leaf 80000002.0: 20444d41 6574704f 206e6f72 296d7428
leaf 80000003.0: 6f725020 73736563 3820726f 00003834
leaf 80000004.0: 00000000 00000000 00000000 00000000
leaf 80000005.0: ff08ff08 ff20ff20 40020140 40020140
leaf 80000006.0: 00000000 42004200 04008140 00000000
leaf 80000007.0: 00000000 00000000 00000000 0000000f
leaf 80000008.0: 00003028 00000000 00000000 00000000
EOF
for leaf in 09 0a 0b 0c 0d 0e 0f 10 11 12 13 14 15 16 17 18; do
	echo "leaf 800000$leaf.0: 00000000 00000000 00000000 00000000"
done >>x86-64-v1.expected
cat >>x86-64-v1.expected <<'EOF'
brand: AMD Opteron (tm) Processor 848
xgetbv: not offered
sysconf: L1d 65536 2-way 64 B, L1i 65536, L2 1048576, L3 0 0-way 0 B
supports: sse2 1 sse4.2 0 popcnt 0 avx 0 avx2 0 bmi 0 bmi2 0 fma 0 f16c 0 lzcnt 0 movbe 0 avx512f 0 x86-64-v2 0 x86-64-v3 0; amd 1 intel 0
path: sse2, hash e388f915e70bf500, length 4095
EOF
# x86-64-v3: AuthenticAMD family 0x19 model 1 stepping 1; leaf 1's ecx
# SSE3 SSSE3 FMA CX16 SSE4.1 SSE4.2 MOVBE POPCNT XSAVE OSXSAVE AVX F16C RDRAND;
# leaf 4 and 0x8000001d the simulated caches (L1d, L1i, LL as L3, then
# none); leaf 7 BMI1 AVX2 BMI2; leaf 0xd x87+SSE+AVX in 832 bytes, AVX's
# 256 at 576; 0x80000001 LAHF LZCNT TOPOEXT; the brand; 0x80000005/6 the
# same caches; 48 address bits; XCR0 7.  glibc reads the caches back.
zeros="00000000 00000000 00000000 00000000"
{
	echo "leaf 00000000.0: 0000000d 68747541 444d4163 69746e65"
	echo "leaf 00000001.0: 00a00f11 00010800 7cd83201 078bfbff"
	echo "leaf 00000002.0: $zeros"
	echo "leaf 00000003.0: $zeros"
	echo "leaf 00000004.0: 00000121 01c0003f 0000003f 00000000"
	echo "leaf 00000004.1: 00000122 01c0003f 0000003f 00000000"
	echo "leaf 00000004.2: 00000163 03c0003f 00001fff 00000000"
	echo "leaf 00000004.3: $zeros"
	echo "leaf 00000005.0: $zeros"
	echo "leaf 00000006.0: $zeros"
	echo "leaf 00000007.0: 00000000 00000128 00000000 00000000"
	for leaf in 08 09 0a 0b 0c; do echo "leaf 000000$leaf.0: $zeros"; done
	echo "leaf 0000000d.0: 00000007 00000340 00000340 00000000"
	echo "leaf 0000000d.1: $zeros"
	echo "leaf 0000000d.2: 00000100 00000240 00000000 00000000"
	echo "leaf 0000000d.3: $zeros"
	echo "leaf 80000000.0: 8000001d 68747541 444d4163 69746e65"
	echo "leaf 80000001.0: 00a00f11 00000000 00400021 21d3fbff"
	echo "leaf 80000002.0: 76206d62 75747269 43206c61 78205550"
	echo "leaf 80000003.0: 362d3638 33762d34 00000000 00000000"
	echo "leaf 80000004.0: $zeros"
	echo "leaf 80000005.0: 00000000 00000000 20080140 20080140"
	echo "leaf 80000006.0: 00000000 00000000 00000000 00408140"
	echo "leaf 80000007.0: $zeros"
	echo "leaf 80000008.0: 00003030 00000000 00000000 00000000"
	for leaf in 09 0a 0b 0c 0d 0e 0f 10 11 12 13 14 15 16 17 18 19 1a 1b 1c; do
		echo "leaf 800000$leaf.0: $zeros"
	done
	echo "leaf 8000001d.0: 00000121 01c0003f 0000003f 00000000"
	echo "leaf 8000001d.1: 00000122 01c0003f 0000003f 00000000"
	echo "leaf 8000001d.2: 00000163 03c0003f 00001fff 00000000"
	echo "leaf 8000001d.3: $zeros"
	echo "brand: bm virtual CPU x86-64-v3"
	echo "xgetbv 0: 00000000 00000007"
	echo "sysconf: L1d 32768 8-way 64 B, L1i 32768, L2 0, L3 8388608 16-way 64 B"
	echo "supports: sse2 1 sse4.2 1 popcnt 1 avx 1 avx2 1 bmi 1 bmi2 1 fma 1 f16c 1 lzcnt 1 movbe 1 avx512f 0 x86-64-v2 1 x86-64-v3 1; amd 1 intel 0"
	echo "path: avx2, hash e388f915e70bf500, length 4095"
} >x86-64-v3.expected

# Whole-process mode (its profile names glibc's functions), twice each
# (--verify: the same events on every run).
for cpu in x86-64-v1 x86-64-v3; do
	"$BM_RUN" -q -v --verify --cpu $cpu -o whole.$cpu.json -- "$PROG" >/dev/null 2>whole.$cpu.err
	check_eq "$cpu: the program ran twice, with the same events (--verify)" 0 $?
	sed -n 's/^  | //p' whole.$cpu.err | awk '{ print } /^path:/ { exit }' >$cpu.out
	check_output "$cpu: every cpuid leaf, XGETBV, glibc's caches and __builtin_cpu_supports, as documented" \
		$cpu.expected $cpu.out
done
echo "# natively this host says: $("$PROG" | grep -E '^(leaf 00000001|supports)' | tr '\n' ';')"

# glibc's string functions: its AVX2 variants on x86-64-v3 (not the ERMS
# ones, masked), its SSE2 ones on x86-64-v1.
functions() {
	json_get "$1" 'join " ", sort grep { /^__(mem|str)\w*_(sse2|avx|evex|erms)/ } map { $_->{name} } @{$j->{benchmarks}[0]{profile}{functions}}'
}
check_eq "x86-64-v1: glibc runs its SSE2 string functions" \
	"__mempcpy_sse2_unaligned __strchrnul_sse2 __strlen_sse2 __strnlen_sse2 __strrchr_sse2" \
	"$(functions whole.x86-64-v1.json)"
check_eq "x86-64-v3: glibc runs its AVX2 ones (memcpy too), none with ERMS or EVEX" \
	"__memcpy_avx_unaligned __mempcpy_avx_unaligned __strchrnul_avx2 __strlen_avx2 __strnlen_avx2 __strrchr_avx2" \
	"$(functions whole.x86-64-v3.json)"

# The reports: model.cpu the CPU's description (lib/report.h), glibc's
# mask for it in model.cpu_features.
described() {
	sed -n "/define REPORT_CPU_$1/{n;s/^[[:space:]]*\"\\(.*\\)\"[[:space:]]*\$/\\1/p;}" "$top_srcdir/lib/report.h"
}
check_eq "x86-64-v1's report: its CPU, glibc masked to the baseline" \
	"$(described X86_64_V1)|yes" \
	"$(json_get whole.x86-64-v1.json '$j->{model}{cpu} . "|" . ($j->{model}{cpu_features} =~ /hwcaps=-AVX,-AVX2,/ ? "yes" : "no")')"
check_eq "x86-64-v3's report: its CPU, glibc keeping AVX2 (AVX_Fast_Unaligned_Load on, ERMS off)" \
	"$(described X86_64_V3)|yes" \
	"$(json_get whole.x86-64-v3.json '$j->{model}{cpu} . "|" . ($j->{model}{cpu_features} =~ /,AVX_Fast_Unaligned_Load,/ && $j->{model}{cpu_features} =~ /-ERMS,/ && $j->{model}{cpu_features} !~ /-AVX2/ ? "yes" : "no")')"

# The hash, measured alone (symbol mode): the AVX2 path counts other
# (fewer) instructions than the SSE2 one, for the same result.
for cpu in x86-64-v1 x86-64-v3; do
	"$BM_RUN" -q --verify --no-profile --cpu $cpu --bench hash --bench copy_and_measure -o sym.$cpu.json \
		-- "$PROG" >/dev/null 2>sym.$cpu.err
	check_eq "$cpu: symbol mode, twice the same" 0 $?
	json_get sym.$cpu.json 'join "\n", map { "$_->{id} $_->{events}{Ir}" } @{$j->{benchmarks}}' |
		sed "s/^/# $cpu: /"
done
ir() {
	json_get sym.$1.json '(map { $_->{events}{Ir} } grep { $_->{id} eq "cpuid::'"$2"'" } @{$j->{benchmarks}})[0]'
}
check "the dispatching hash: fewer instructions on x86-64-v3 ($(ir x86-64-v3 hash)) than on x86-64-v1 ($(ir x86-64-v1 hash))" \
	test "$(ir x86-64-v3 hash)" -lt "$(ir x86-64-v1 hash)"
check "memcpy and strlen: other instructions on each ($(ir x86-64-v1 copy_and_measure), $(ir x86-64-v3 copy_and_measure))" \
	test "$(ir x86-64-v3 copy_and_measure)" -ne "$(ir x86-64-v1 copy_and_measure)"

# BM_CPU chooses as --cpu does; the default is x86-64-v1.
BM_CPU=x86-64-v3 "$BM_RUN" --print-command -- "$PROG" >env.cmd 2>&1
check "BM_CPU=x86-64-v3: the engine gets --cpu=x86-64-v3" grep -q -e '--cpu=x86-64-v3 ' env.cmd
check "... and glibc x86-64-v3's mask" grep -q ',AVX_Fast_Unaligned_Load,' env.cmd
"$BM_RUN" --print-command -- "$PROG" >default.cmd 2>&1
check "no --cpu: x86-64-v1" grep -q -e '--cpu=x86-64-v1 ' default.cmd

# bm-check refuses to compare runs of two CPUs, naming them.
env -u BM_SERVER "$BM_CHECK" --base sym.x86-64-v1.json --head sym.x86-64-v3.json >check.out 2>check.err
check_eq "bm-check --base v1 --head v3: exit 2" 2 $?
check "... naming the CPUs and how to rerun" grep -q \
	"cannot be compared: virtual CPU: bm's fixed virtual CPU in 'sym.x86-64-v1.json', '$(described X86_64_V3)' in 'sym.x86-64-v3.json' (code that dispatches on the CPU takes other paths: rerun one of them on the other's CPU: bm-run --cpu x86-64-v1, or --cpu x86-64-v3)" \
	check.err
sed 's/^/# /' check.err

# Usage errors: exit 2, nothing run.
"$BM_RUN" -q --cpu x86-64-v2 -- "$PROG" >/dev/null 2>bad.err
check_eq "an unknown CPU: exit 2, the choices named" \
	"2|bm-run: --cpu is x86-64-v1, x86-64-v3 or x86-64-v3-server, not 'x86-64-v2'" "$?|$(cat bad.err)"
BM_CPU=v3 "$BM_RUN" -q -- "$PROG" >/dev/null 2>bad.err
check_eq "an unknown BM_CPU: exit 2" "2|bm-run: BM_CPU is x86-64-v1, x86-64-v3 or x86-64-v3-server, not 'v3'" "$?|$(cat bad.err)"
"$BM_RUN" -q --engine callgrind --cpu x86-64-v3 -- "$PROG" >/dev/null 2>bad.err
check_eq "--cpu with --engine callgrind: exit 2 (callgrind's program sees the host's CPU)" \
	"2|bm-run: --cpu is the bm engine's virtual CPU, and callgrind's program sees the host's: measure with --engine bm, or without --cpu" \
	"$?|$(cat bad.err)"
BM_CPU=x86-64-v1 "$BM_RUN" -q --engine callgrind -- "$PROG" >/dev/null 2>bad.err
check_eq "BM_CPU with --engine callgrind: exit 2" 2 $?
check "... naming BM_CPU" grep -q "without BM_CPU" bad.err

# The engine by hand: x86-64-v3's cpuid describes the simulated caches,
# whatever they are, as long as AMD's leaves can say them (ways 2, 4, 8
# or 16); a 12-way LL is refused.
env -i VALGRIND_LIB="$ENGINE_DIR" "$VALGRIND" --tool=bm --cpu=x86-64-v3 --LL=4194304,16,64 \
	--callgrind-out-file=/dev/null /bin/true >/dev/null 2>engine.err
check_eq "the engine with --cpu=x86-64-v3 and a 4 MiB LL: runs" 0 $?
env -i VALGRIND_LIB="$ENGINE_DIR" "$VALGRIND" --tool=bm --cpu=x86-64-v3 --LL=6291456,12,64 \
	--callgrind-out-file=/dev/null /bin/true >/dev/null 2>engine.err
check_eq "the engine with --cpu=x86-64-v3 and a 12-way LL: refused" 1 $?
check "... saying which caches it can describe" grep -q "their ways must be 2, 4, 8 or 16" engine.err

# A host without AVX2 (QEMU's Ivy Bridge, where Valgrind runs AVX2 code
# but TZCNT and LZCNT as BSF and BSR): bm-run refuses x86-64-v3, exit 2,
# before anything runs.
# AddressSanitizer's shadow memory is more than qemu-user can map.
sanitized=$(sed -n 's/^BM_SANITIZE_CFLAGS = *//p' "$top_builddir/Makefile")
if [ -n "$sanitized" ]; then
	ok "# SKIP a host without AVX2: qemu-user cannot run a sanitizer build"
	ok "# SKIP ... naming what it lacks and --cpu x86-64-v1"
	ok "# SKIP ... under the default model (bm-model/3): exit 2, saying why and both ways out"
elif command -v qemu-x86_64 >/dev/null 2>&1; then
	qemu-x86_64 -cpu IvyBridge "$BM_RUN" -q --cpu x86-64-v3 -- "$PROG" >/dev/null 2>qemu.err
	check_eq "a host without AVX2: exit 2" 2 $?
	check "... naming what it lacks and --cpu x86-64-v1" grep -q \
		"bm-run: --cpu x86-64-v3: this host cannot run x86-64-v3's code under Valgrind (it lacks MOVBE, FMA, AVX2, BMI1, BMI2, LZCNT): measure with --cpu x86-64-v1" \
		qemu.err
	# The default model's CPU, asked for by no option.
	env -u BM_MODEL -u BM_CPU qemu-x86_64 -cpu IvyBridge "$BM_RUN" -q -- "$PROG" >/dev/null 2>qemu.err
	check_eq "... under the default model (bm-model/3): exit 2, saying why and both ways out" \
		"2|bm-run: bm-model/3 runs on x86-64-v3, and this host cannot run x86-64-v3's code under Valgrind (it lacks MOVBE, FMA, AVX2, BMI1, BMI2, LZCNT): measure with --cpu x86-64-v1 (the same model on SSE2 code), or --model bm-model/1" \
		"$?|$(grep "^bm-run:" qemu.err)"
else
	ok "# SKIP a host without AVX2: no qemu-x86_64 (apt-get install qemu-user)"
	ok "# SKIP ... naming what it lacks and --cpu x86-64-v1"
	ok "# SKIP ... under the default model (bm-model/3): exit 2, saying why and both ways out"
fi

done_testing
