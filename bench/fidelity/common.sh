# SPDX-License-Identifier: MIT
# What bench/fidelity.sh and bench/fidelity_external.sh share (sourced;
# both define die): the clock, the CPU's description, and the
# configurations' file.

now() { date +%s.%N; }
elapsed() { echo "$1 $(now)" | awk '{ printf "%.1f", $2 - $1 }'; }

# "NAME (family F, model M), N CPUs", from /proc/cpuinfo.
cpu_description() {
	name=$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)
	family=$(sed -n 's/^cpu family[^:]*: //p' /proc/cpuinfo | head -n 1)
	model=$(sed -n 's/^model[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
	echo "$name (family $family, model $model), $(nproc) CPUs"
}

# write_configs CONFIGS VARIABLE DIR: the configurations CONFIGS
# (LABEL=BM-RUN OPTIONS, separated by ';' or lines; VARIABLE names where
# they came from, for the message) as LABEL<TAB>DIR/report.N.json<TAB>OPTIONS
# lines, options last: read collapses the tabs around an empty field.
write_configs() {
	n=0
	printf '%s\n' "$1" | tr ';' '\n' | while IFS= read -r line; do
		[ -n "$line" ] || continue
		case $line in
		*=*) ;;
		*) die "configuration '$line' in $2 has no label: write it LABEL=OPTIONS, e.g. 'cg=--engine callgrind'" ;;
		esac
		n=$((n + 1))
		printf '%s\t%s\t%s\n' "${line%%=*}" "$3/report.$n.json" "${line#*=}"
	done
}
