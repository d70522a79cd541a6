# SPDX-License-Identifier: MIT
# A throwaway PostgreSQL 15 server for the tests (Debian's postgresql
# package): a new cluster in a temporary directory, listening on a Unix
# socket there only (no TCP port to collide with), trust authentication,
# stopped and removed by pg_stop.  initdb refuses root, so as root the
# cluster is made and run by the postgres user.  If it cannot start the
# caller fails: the tests that need it are never skipped silently.
#
# Source it; then pg_start, pg_db NAME (a new database's URL), pg_psql
# URL SQL, pg_stop.

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
pg_dir=

# as_pg CMD...: runs CMD as the cluster's owner.
as_pg() {
	if [ "$(id -u)" = 0 ]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

# pg_start: makes and starts the cluster; sets pg_dir.  Returns non-zero
# with the reason on stderr when it cannot.
pg_start() {
	if [ ! -x "$PG_BIN/initdb" ]; then
		echo "pg_start: no $PG_BIN/initdb: install Debian's postgresql package" >&2
		return 1
	fi
	pg_dir=$(mktemp -d /tmp/bm-pg.XXXXXX) || return 1
	chmod 755 "$pg_dir"
	[ "$(id -u)" = 0 ] && chown postgres "$pg_dir"
	if ! as_pg "$PG_BIN/initdb" -D "$pg_dir/data" -A trust -U bm -E UTF8 --locale=C.UTF-8 --no-sync \
		>"$pg_dir/initdb.log" 2>&1; then
		echo "pg_start: initdb failed:" >&2
		sed 's/^/  /' "$pg_dir/initdb.log" >&2
		return 1
	fi
	if ! as_pg "$PG_BIN/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/server.log" -w -t 60 \
		-o "-k $pg_dir -c listen_addresses= -c max_connections=200" start >/dev/null 2>&1; then
		echo "pg_start: the server did not start:" >&2
		sed 's/^/  /' "$pg_dir/server.log" >&2
		return 1
	fi
}

# pg_stop: stops the cluster (at once: nothing in it is kept) and removes
# it; nothing when none was started.
pg_stop() {
	[ -n "$pg_dir" ] || return 0
	as_pg "$PG_BIN/pg_ctl" -D "$pg_dir/data" -m immediate -w stop >/dev/null 2>&1
	rm -rf "$pg_dir"
	pg_dir=
}

# pg_url DBNAME: the libpq URI of database DBNAME of the cluster.
pg_url() {
	echo "postgresql://bm@/$1?host=$pg_dir"
}

# pg_db NAME: makes database NAME and prints its URI.
pg_db() {
	"$PG_BIN/psql" -q -X -v ON_ERROR_STOP=1 "$(pg_url postgres)" -c "CREATE DATABASE \"$1\"" >/dev/null || return 1
	pg_url "$1"
}

# pg_psql URL SQL: the rows SQL gives, unaligned, fields separated by '|'.
pg_psql() {
	"$PG_BIN/psql" -q -X -A -t -v ON_ERROR_STOP=1 "$1" -c "$2"
}
