/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "events.h"

#include <string.h>

static const char *const names[BM_EV_COUNT] = {
	[BM_EV_IR] = "Ir",
	[BM_EV_DR] = "Dr",
	[BM_EV_DW] = "Dw",
	[BM_EV_I1MR] = "I1mr",
	[BM_EV_D1MR] = "D1mr",
	[BM_EV_D1MW] = "D1mw",
	[BM_EV_ILMR] = "ILmr",
	[BM_EV_DLMR] = "DLmr",
	[BM_EV_DLMW] = "DLmw",
	[BM_EV_BC] = "Bc",
	[BM_EV_BCM] = "Bcm",
	[BM_EV_BI] = "Bi",
	[BM_EV_BIM] = "Bim",
	[BM_EV_SYSCOUNT] = "sysCount",
	[BM_EV_SYSTIME] = "sysTime",
	[BM_EV_SYSCPUTIME] = "sysCpuTime",
	[BM_EV_CC] = "Cc",
	[BM_EV_I2MR] = "I2mr",
	[BM_EV_D2MR] = "D2mr",
	[BM_EV_D2MW] = "D2mw",
	[BM_EV_D1MC] = "D1mc",
	[BM_EV_D2MC] = "D2mc",
	[BM_EV_DLMC] = "DLmc",
	[BM_EV_ALLOC_COUNT] = "allocCount",
	[BM_EV_ALLOC_BYTES] = "allocBytes",
};

const char *events_name(enum bm_event ev)
{
	return (unsigned)ev < BM_EV_COUNT ? names[ev] : "?";
}

int events_lookup(const char *name)
{
	for (int i = 0; i < BM_EV_COUNT; i++)
		if (strcmp(names[i], name) == 0)
			return i;
	return -1;
}
