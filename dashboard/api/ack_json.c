/* SPDX-License-Identifier: MIT */
/* An acknowledgement as the API shows it: see ack_json.h. */
#include "config.h"

#include "ack_json.h"

#include "report.h"
#include "store.h"

#include <time.h>

json_t *ack_json(const struct store_ack *a)
{
	char when[REPORT_TIME_SIZE];
	return json_pack("{s:I,s:s,s:s,s:o,s:f,s:s,s:s,s:s}", "id", (json_int_t)a->id, "benchmark", a->benchmark,
			 "commit", a->sha, "pr", a->pr ? json_integer(a->pr) : json_null(), "impact", a->impact, "by",
			 a->by, "reason", a->reason, "at", report_format_rfc3339(when, (time_t)a->created_at));
}
