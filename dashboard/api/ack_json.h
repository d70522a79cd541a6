/* SPDX-License-Identifier: MIT */
/* An acknowledgement as the API shows it: {"id", "benchmark", "commit",
 * "pr", "impact", "by", "reason", "at"}.  Shared by the acknowledgement
 * answers (api_ack.c) and the commit report (api_report.c). */
#ifndef BM_ACK_JSON_H
#define BM_ACK_JSON_H

#include <jansson.h>

struct store_ack;
json_t *ack_json(const struct store_ack *a);

#endif
