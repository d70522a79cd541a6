# SPDX-License-Identifier: MIT
# Shared by the tests/cli/pg wrappers: the server tests again, on a
# throwaway PostgreSQL server (BM_TEST_DB=postgresql), unless bm-server
# was built without PostgreSQL (configure --without-postgresql), which
# the skip says.
: "${top_builddir:?run through make check}" "${top_srcdir:?run through make check}"
if ! grep -q '^#define HAVE_POSTGRESQL 1' "$top_builddir/config.h"; then
	echo "1..0 # SKIP bm-server was built without PostgreSQL (configure --without-postgresql)"
	exit 0
fi
BM_TEST_DB=postgresql
export BM_TEST_DB
