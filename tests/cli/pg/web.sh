#!/bin/sh
# SPDX-License-Identifier: MIT
# The dashboard's browser tests (tests/web/run.sh) with bm-server on
# PostgreSQL.
. "$(dirname "$0")/lib.sh"
exec sh "$top_srcdir/tests/web/run.sh"
