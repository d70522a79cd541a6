/* SPDX-License-Identifier: MIT */
/* libFuzzer entry point, shared by the harnesses and the corpus replayer. */
#ifndef BM_FUZZ_H
#define BM_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Stops the process when a harness's oracle does not hold. */
#define FUZZ_ASSERT(cond)                                                                          \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: fuzz oracle failed: %s\n", __FILE__, __LINE__,   \
				#cond);                                                            \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

#endif
