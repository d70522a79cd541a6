/* SPDX-License-Identifier: MIT */
/* Inlined into sort.c, so its lines appear under fi=/fe= in the profile. */
static inline unsigned next_random(unsigned *state)
{
	*state = *state * 1103515245u + 12345u;
	return *state >> 8;
}

static inline int compare_ints(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}
