/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 the bm authors.  GPL-2.0-or-later: see COPYING.
 *
 * output.c: the dumps. */
#ifndef BM_ENGINE_OUTPUT_H
#define BM_ENGINE_OUTPUT_H

#include "pub_tool_basics.h"

/* Writes the costs so far as a callgrind-format file (part n,
 * "desc: Trigger: ..." from trigger), and with collected each
 * --collect-in function's to a file of its own (contexts.h): PATH.fn.N for
 * the Nth, if it ran.  Returns False after saying why. */
Bool output_dump(const HChar *path, Int part, const HChar *trigger, const HChar *cmd, Bool collected);

#endif
