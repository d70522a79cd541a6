#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds SQLite's own benchmark, speedtest1, from Debian's source package
# of the libsqlite3 installed here, against that library, into DIR, and
# prints its path.  A code-heavy program with deep call chains, the kind
# where an engine's call graph shows (bench/engine.sh).  It needs
# libsqlite3-dev, a C compiler and deb.debian.org (the package's source
# is fetched with apt into DIR, never into the system's lists).
#
# usage: bench/speedtest1.sh DIR
set -eu
dir=${1:?usage: bench/speedtest1.sh DIR}
mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
dir=$(cd "$dir" && pwd)
version=$(dpkg-query -W -f='${Version}' libsqlite3-dev 2>/dev/null) ||
	{ echo "speedtest1.sh: libsqlite3-dev is not installed (apt-get install libsqlite3-dev)" >&2; exit 2; }
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
cat >"$dir/sources.list" <<EOF
deb-src http://deb.debian.org/debian $codename main
deb-src http://deb.debian.org/debian $codename-updates main
deb-src http://deb.debian.org/debian-security $codename-security main
EOF
apt_in_dir() {
	apt-get -q -o Dir::Etc::SourceList="$dir/sources.list" -o Dir::Etc::SourceParts=/nonexistent \
		-o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache" -o APT::Sandbox::User=root "$@"
}
(cd "$dir" && apt_in_dir update && apt_in_dir source --download-only "sqlite3=$version") >"$dir/apt.log" 2>&1 ||
	{ echo "speedtest1.sh: cannot fetch Debian's source of sqlite3 $version (see $dir/apt.log)" >&2; exit 1; }
upstream=${version%%-*}
tar -xJf "$dir/sqlite3_$upstream.orig.tar.xz" -C "$dir" "sqlite3-$upstream/test/speedtest1.c"
cc -O2 -g -o "$dir/speedtest1" "$dir/sqlite3-$upstream/test/speedtest1.c" -lsqlite3
echo "$dir/speedtest1"
