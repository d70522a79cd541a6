#!/bin/sh
# SPDX-License-Identifier: MIT
# bm-run --cpu x86-64-v3-server: x86-64-v3 with PCLMULQDQ, AES and ADX
# (docs/engine.md, "The virtual CPUs").  tests/programs/server_cpu asks
# cpuid and dispatches as libraries do: its CRC-32 takes the PCLMULQDQ
# path, AES-128 gives FIPS-197's ciphertext, ADCX/ADOX add right, and
# libdeflate's libdeflate_crc32 (Debian's libdeflate0, where installed)
# takes its PCLMULQDQ path, a tenth of the fallback's instructions or
# fewer; on x86-64-v3 each takes the portable path, and bm-run names the
# code that asked and the CPU that has what it lacked.
. "$top_srcdir/tests/cli/lib.sh"

need_engine
unset BM_CPU BM_ENGINE
PROG="$PROGRAMS/server_cpu"
cd "$scratch" || exit 1

need_x86_64_v3

# -- what each CPU answers: leaf 1's ecx and leaf 7's ebx gain the bits,
# the brand says which; everything else is x86-64-v3's (cpu.sh) --
for cpu in x86-64-v3 x86-64-v3-server; do
	"$BM_RUN" -q -v --no-profile --whole --cpu $cpu -o cpuid.$cpu.json -- "$PROGRAMS/cpuid" >/dev/null 2>cpuid.$cpu.err
	check_eq "$cpu: the cpuid program ran" 0 $?
	sed -n 's/^  | //p' cpuid.$cpu.err | awk '/^path:/ { exit } { print }' >cpuid.$cpu.out
done
check_eq "x86-64-v3-server: leaf 1 adds PCLMULQDQ (bit 1) and AES (bit 25) to x86-64-v3's ecx" \
	"leaf 00000001.0: 00a00f11 00010800 7ed83203 078bfbff" "$(grep '^leaf 00000001' cpuid.x86-64-v3-server.out)"
check_eq "... leaf 7 adds ADX (bit 19) to its ebx" \
	"leaf 00000007.0: 00000000 00080128 00000000 00000000" "$(grep '^leaf 00000007' cpuid.x86-64-v3-server.out)"
check_eq "... the brand names it" "brand: bm virtual CPU x86-64-v3-server" "$(grep '^brand' cpuid.x86-64-v3-server.out)"
others() {
	grep -v -e '^leaf 00000001' -e '^leaf 00000007' -e '^leaf 8000000[234]' -e '^brand' "$1"
}
others cpuid.x86-64-v3.out >v3.rest
others cpuid.x86-64-v3-server.out >server.rest
check "... (the program printed its leaves)" grep -q '^leaf 80000008' v3.rest
check_output "... every other leaf, XGETBV, glibc's caches and __builtin_cpu_supports as x86-64-v3's" v3.rest server.rest

# -- code that dispatches on them --
for cpu in x86-64-v3 x86-64-v3-server; do
	"$BM_RUN" -v --verify --whole --cpu $cpu -o whole.$cpu.json -- "$PROG" >whole.$cpu.table 2>whole.$cpu.err
	check_eq "$cpu: the program ran twice, with the same events (--verify)" 0 $?
	# The first run's output (--verify runs it twice).
	sed -n 's/^  | //p' whole.$cpu.err | head -n 5 >$cpu.out
done
deflate=$(grep '^libdeflate:' x86-64-v3-server.out)
{
	echo "supports: pclmul 1 aes 1 adx 1"
	echo "crc32: pclmul, a5314c35, agrees"
	echo "aes: 69c4e0d86a7b0430d8cdb78070b4c55a"
	echo "adx: 00000000000000040000000000000000 000000000000000d0000000000000000"
	echo "$deflate"
} >x86-64-v3-server.expected
check_output "x86-64-v3-server: the PCLMULQDQ CRC agrees with the table's, AES-128 is FIPS-197's, ADCX/ADOX add right" \
	x86-64-v3-server.expected x86-64-v3-server.out
{
	echo "supports: pclmul 0 aes 0 adx 0"
	echo "crc32: table, a5314c35, agrees"
	echo "aes: not offered"
	echo "adx: not offered"
	echo "$deflate"
} >x86-64-v3.expected
check_output "x86-64-v3: the portable paths, the same CRC" x86-64-v3.expected x86-64-v3.out
check "x86-64-v3: bm-run names the code that asked cpuid and the CPU with what it lacked" grep -q \
	"^bm-run: code in server_cpu.* chose its path by what the CPU offers (cpuid), on bm's virtual CPU x86-64-v3, which lacks PCLMULQDQ, AES and ADX, .*measure with --cpu x86-64-v3-server" \
	whole.x86-64-v3.err
check "x86-64-v3-server: it names what that one lacks" grep -q \
	"on bm's virtual CPU x86-64-v3-server, which lacks AVX-512" whole.x86-64-v3-server.err
check "... and no other CPU to measure with" sh -c "! grep -q 'measure with --cpu' whole.x86-64-v3-server.err"
"$BM_RUN" -q --whole --cpu x86-64-v3 -o quiet.json -- "$PROGRAMS/fib" >/dev/null 2>quiet.err
check "a program that asks cpuid only through glibc: no word on it" sh -c "! grep -q cpuid quiet.err"
check_eq "x86-64-v3-server's report: its own CPU (its own series)" yes \
	"$(json_get whole.x86-64-v3-server.json '$j->{model}{cpu} =~ /^bm x86-64-v3-server: .*PCLMULQDQ AES ADX/ ? "yes" : "no"')"

# -- libdeflate, as a new user would measure it --
if [ "$deflate" = "libdeflate: absent" ]; then
	ok "# SKIP libdeflate's crc32: libdeflate0 is not installed (apt-get install libdeflate0)"
	ok "# SKIP ... agrees"
else
	for cpu in x86-64-v3 x86-64-v3-server; do
		"$BM_RUN" -q --no-profile --cpu $cpu --bench libdeflate_crc -o sym.$cpu.json -- "$PROG" >/dev/null 2>sym.$cpu.err
	done
	v3=$(json_get sym.x86-64-v3.json '$j->{benchmarks}[0]{events}{Ir}')
	server=$(json_get sym.x86-64-v3-server.json '$j->{benchmarks}[0]{events}{Ir}')
	check "libdeflate_crc32 of 1 MiB takes its PCLMULQDQ path: $server instructions on x86-64-v3-server, under a tenth of x86-64-v3's $v3" \
		test $((server * 10)) -lt "$v3"
	check_eq "... and agrees with the table's CRC" "agrees" "${deflate##*, }"
fi

# -- usage --
"$BM_RUN" -q --cpu x86-64-v4 -- "$PROG" >/dev/null 2>bad.err
check_eq "an unknown CPU: exit 2, the three named" \
	"2|bm-run: --cpu is x86-64-v1, x86-64-v3 or x86-64-v3-server, not 'x86-64-v4'" "$?|$(cat bad.err)"
BM_CPU=x86-64-v3-server "$BM_RUN" --print-command -- "$PROG" >env.cmd 2>&1
check "BM_CPU=x86-64-v3-server: the engine gets --cpu=x86-64-v3-server" grep -q -e '--cpu=x86-64-v3-server ' env.cmd

done_testing
