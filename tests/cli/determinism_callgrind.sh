#!/bin/sh
# SPDX-License-Identifier: MIT
# The determinism suite (determinism.sh) again, measuring with callgrind
# (BM_ENGINE=callgrind) where bm's own engine is the default; where it is
# not built (--disable-engine, sanitizer builds) determinism.sh itself
# measures with callgrind.
: "${top_builddir:?run through make check}" "${top_srcdir:?run through make check}"
if [ ! -x "$top_builddir/simulator/engine/bm-amd64-linux" ]; then
	echo "1..0 # SKIP bm's Valgrind tool is not built: determinism.sh measured with callgrind"
	exit 0
fi
BM_ENGINE=callgrind exec sh "$top_srcdir/tests/cli/determinism.sh"
