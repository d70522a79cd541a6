#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/cli/server_heap.sh with bm-server on PostgreSQL (tests/cli/server_lib.sh).
. "$(dirname "$0")/lib.sh"
exec sh "$top_srcdir/tests/cli/server_heap.sh"
