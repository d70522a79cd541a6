# SPDX-License-Identifier: MIT
# Shared by the server tests: a real bm-server on a free loopback port
# with a temporary database, reports made to order, and curl.
#
# The database is SQLite, or with BM_TEST_DB=postgresql one of a
# throwaway PostgreSQL server this test starts (pg_lib.sh; the tests/cli/pg
# wrappers run the server tests so): test_db gives one, db_query reads it.
#
# Source after lib.sh.

# The server's binary: not BM_SERVER, which bm-upload and bm-check read as
# the server's URL.
BM_SERVER_BIN="$top_builddir/dashboard/bm-server"
server_pid=
server_url=

# start_server DB [serve options]: starts bm-server and waits for its
# "serving" line; sets server_pid and server_url.  With server_preload
# set, that library is preloaded into it (tests/faults/dbfault.c).
server_preload=
start_server() {
	db=$1
	shift
	rm -f "$scratch/server.out"
	LD_PRELOAD=$server_preload "$BM_SERVER_BIN" --db "$db" serve --listen 127.0.0.1:0 "$@" >"$scratch/server.out" 2>>"$scratch/server.err" &
	server_pid=$!
	for _ in $(seq 600); do
		server_url=$(sed -n 's|^bm-server: serving \(http://[^ ]*\)/ .*|\1|p' "$scratch/server.out" 2>/dev/null)
		[ -n "$server_url" ] && return 0
		kill -0 "$server_pid" 2>/dev/null || break
		sleep 0.05
	done
	echo "# bm-server did not start:" >&2
	sed 's/^/# /' "$scratch/server.err" >&2
	return 1
}

case ${BM_TEST_DB:-sqlite} in
sqlite) ;;
postgresql)
	. "$top_srcdir/tests/cli/pg_lib.sh"
	if ! pg_start 2>"$scratch/pg.err"; then
		echo "Bail out! no PostgreSQL server for BM_TEST_DB=postgresql: $(tr '\n' ' ' <"$scratch/pg.err")"
		pg_stop
		exit 1
	fi
	;;
*)
	echo "Bail out! BM_TEST_DB is sqlite or postgresql, not '$BM_TEST_DB'"
	exit 1
	;;
esac

# test_db NAME: a new, empty database for this test to give bm-server's
# --db: a file in the scratch directory, or a PostgreSQL database.
test_db() {
	if [ "${BM_TEST_DB:-sqlite}" = postgresql ]; then
		pg_db "$1"
	else
		echo "$scratch/$1.db"
	fi
}

# db_query DB SQL: the rows of SQL (fields separated by '|'), whichever
# the backend.
db_query() {
	if [ "${BM_TEST_DB:-sqlite}" = postgresql ]; then
		pg_psql "$1" "$2"
	else
		sqlite3 "$1" "$2"
	fi
}

# on_sqlite: true when the tests run on SQLite (checks of its own files).
on_sqlite() {
	[ "${BM_TEST_DB:-sqlite}" = sqlite ]
}

stop_server() {
	[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
	server_pid=
}

# What a test that sets its own EXIT trap calls there too.
server_cleanup() {
	stop_server
	[ "${BM_TEST_DB:-sqlite}" = sqlite ] || pg_stop
	rm -rf "$scratch"
}
trap server_cleanup EXIT

# api METHOD PATH [curl options]: the answer's body goes to $scratch/body,
# its status is printed.
api() {
	method=$1
	path=$2
	shift 2
	curl -s -o "$scratch/body" -w '%{http_code}' -X "$method" "$@" "$server_url$path"
}

# upload TOKEN PROJECT FILE [curl options]: POSTs a report, prints the status.
upload() {
	token=$1
	project=$2
	file=$3
	shift 3
	api POST "/api/v1/projects/$project/runs" -H "Authorization: Bearer $token" --data-binary "@$file" "$@"
}

# answer METHOD PATH [curl options]: "== METHOD PATH STATUS" and the body,
# with what changes from run to run as placeholders: the times the server
# takes from its clock, and its address.
answer() {
	method=$1
	path=$2
	shift 2
	status=$(api "$method" "$path" "$@")
	last_answer "$method" "$path" "$status"
}

# last_answer METHOD PATH STATUS: the last answer (api's), as answer
# prints it.
last_answer() {
	printf '== %s %s %s\n' "$1" "$2" "$3"
	sed -e 's#"\(at\|created_at\)":"[-0-9T:Z]*"#"\1":"TIME"#g' -e 's#"latest_upload":[0-9][0-9]*#"latest_upload":TIME#g' \
		-e "s|$server_url|SERVER|g" "$scratch/body"
	echo
}

# body EXPRESSION: evaluates a Perl expression over the last answer ($j).
body() {
	json_get "$scratch/body" "$1"
}

# make_report FILE BRANCH SHA TIMESTAMP ANCESTORS SPEEDS [KEY=VALUE...]:
# a bm-report/1 with benchmarks b1, b2, ... at about the given speeds
# ("100,110,-" : "-" is a failed benchmark): as in a real report, cycles
# are 3e9 / SPEED rounded down, and time and speed follow from them at
# 3 GHz (3e9 / 27272727 = 110.0000011 for 110; 100 stays 100).
# ANCESTORS is a comma list, nearest first ("" for none).  KEY=VALUE:
# pr=N base=BRANCH merge_base=SHA model=ID arch=ARCH run_id=ID ids=ID1,ID2,... (ids
# instead of b1, b2, ...); engine=NAME (tool.engine) and cpu=TEXT
# (model.cpu), both absent otherwise, as in a report of the bm engine's
# default CPU; ev_NAME=V1,V2,... sets event NAME of each benchmark (Ir is
# the cycles otherwise, sysCount 1); heap_NAME=V1,V2,... gives each a heap
# object (allocations, bytes_allocated, peak_bytes, ...; unnamed counts 0,
# peak and leaks 0 when one of them is named, else null).
make_report() {
	perl -MJSON::PP -e '
		my ($file, $branch, $sha, $ts, $anc, $speeds, @kv) = @ARGV;
		my %o = map { split /=/, $_, 2 } @kv;
		my @ids = $o{ids} ? split(/,/, $o{ids}) : ();
		my @speeds = split /,/, $speeds;
		my $i = 0;
		my @b = map {
			my $s = $_; my $id = $ids[$i] // "suite::b" . ($i + 1); $i++;
			$s eq "-" ? { id => $id, status => "failed", reason => "killed by signal 11 (Segmentation fault)",
				      events => {}, cycles => undef, time_s => undef, speed => undef, syscalls => undef }
			: { id => $id, status => "ok", reason => undef,
			    events => { Ir => int(3e9 / $s), Dr => 10, Dw => 10, I1mr => 1, D1mr => 2, D1mw => 1, ILmr => 1,
					DLmr => 1, DLmw => 1, sysCount => 1, sysTime => 1000, sysCpuTime => 500 },
			    cycles => int(3e9 / $s), time_s => int(3e9 / $s) / 3e9, speed => 3e9 / int(3e9 / $s),
			    syscalls => { count => 1, wall_ns => 1000, cpu_ns => 500,
					  by_function => [{ function => "read", count => 1, wall_ns => 1000, cpu_ns => 500,
							    callers => [{ function => "main", calls => 1, count => 1,
									  wall_ns => 1000, cpu_ns => 500 }] }] },
			    profile => { functions => [{ name => "main", cycles => 10 }] } }
		} @speeds;
		for my $k (grep { /^ev_/ } keys %o) {
			my @v = split /,/, $o{$k};
			$b[$_]{events}{substr $k, 3} = $v[$_] + 0 for grep { $b[$_]{status} eq "ok" } 0 .. $#v;
		}
		for my $k (grep { /^heap_/ } keys %o) {
			my @v = split /,/, $o{$k};
			$b[$_]{heap}{substr $k, 5} = $v[$_] + 0 for grep { $b[$_]{status} eq "ok" } 0 .. $#v;
		}
		for my $h (map { $_->{heap} // () } @b) {
			$h->{$_} //= 0 for qw(allocations bytes_allocated);
			my $peak = grep { defined $h->{$_} } qw(peak_bytes leaked_bytes leaked_blocks);
			$h->{$_} //= $peak ? 0 : undef for qw(peak_bytes leaked_bytes leaked_blocks);
		}
		my $r = { schema => "bm-report/1", run_id => $o{run_id} // "run-$sha-" . ($o{pr} // "push") . "-" . ($o{model} // "m1"),
			created_at => "2026-11-22T10:00:00Z",
			tool => { name => "bm-run", version => "0.1.0", valgrind => "3.19.0",
				  defined $o{engine} ? (engine => $o{engine}) : () },
			model => { id => $o{model} // "bm-model/1", frequency_hz => 3e9,
				   defined $o{cpu} ? (cpu => $o{cpu}) : (),
				   weights => { l1_hit => 1, ll_hit => 5, ram => 35 },
				   cache => { I1 => [32768, 8, 64], D1 => [32768, 8, 64], LL => [8388608, 16, 64] },
				   warm_caches => ($o{warm} ? JSON::PP::true : JSON::PP::false) },
			context => { platform => { compiler => "GCC 12.2.0", os => "Debian 12", arch => $o{arch} // "x86_64" },
				     host => "ci-1", branch => $branch,
				     commit => { sha => $sha, timestamp => $ts, ancestors => [grep { length } split /,/, $anc] },
				     pr => $o{pr} ? { number => $o{pr} + 0, base_branch => $o{base},
						     ($o{merge_base} ? (merge_base => $o{merge_base}) : ()) } : undef },
			binary => { path => "/build/bench", build_id => "ab12" },
			benchmarks => \@b };
		open my $f, ">", $file or die "$file: $!";
		print $f JSON::PP->new->canonical->encode($r);
	' "$@"
}

# upload_matrix TOKEN PROJECT PREFIX SHA0 SHA1: a commit measured on two
# platforms (a CI matrix) on branch matrix: SHA0, then its child SHA1, each
# on x86_64 (runs PREFIX-x86-0 and -1) and aarch64 (PREFIX-arm-0 and -1),
# uploaded in that order.  suite::b1 of SHA1 is twice as slow on x86_64
# only; nothing else changes.  Fails when an upload is not stored.  (A
# subshell: the caller's variables stay as they are.)
upload_matrix() (
	token=$1 project=$2 prefix=$3 stored=0
	for n in 0 1; do
		if [ $n = 0 ]; then sha=$4 anc= slow=100; else sha=$5 anc=$4 slow=50; fi
		make_report "$scratch/matrix-x86-$n.json" matrix "$sha" "2026-11-1${n}T10:00:00Z" "$anc" "$slow,100" \
			run_id="$prefix-x86-$n"
		make_report "$scratch/matrix-arm-$n.json" matrix "$sha" "2026-11-1${n}T10:00:00Z" "$anc" 100,100 arch=aarch64 \
			run_id="$prefix-arm-$n"
		for f in x86 arm; do
			[ "$(upload "$token" "$project" "$scratch/matrix-$f-$n.json")" = 201 ] && stored=$((stored + 1))
		done
	done
	[ $stored = 4 ]
)

# run_count PROJECT: how many runs the server has for a project.
run_count() {
	api GET /api/v1/projects >/dev/null
	body "my (\$p) = grep { \$_->{name} eq '$1' } @{\$j->{projects}}; \$p ? \$p->{runs} : 0"
}
