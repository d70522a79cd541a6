/* SPDX-License-Identifier: MIT */
/* The JSON API's handlers (version 1); routes.c maps paths to them. */
#ifndef BM_API_H
#define BM_API_H

#include "http.h"

/* Every API path, in one table (routes.c), ended by an entry with a NULL
 * method: the server's routes (struct server). */
extern const struct route api_routes[];

void api_upload(struct request *req, struct response *res);        /* POST runs */
void api_commit_report(struct request *req, struct response *res); /* GET commits/SHA/report */
void api_commit_runs(struct request *req, struct response *res);   /* GET commits/SHA/runs */
void api_history(struct request *req, struct response *res);       /* GET benchmarks/ID/history */
void api_changes(struct request *req, struct response *res);       /* GET changes */
void api_profile(struct request *req, struct response *res);       /* GET runs/RUN/benchmarks/ID/profile */
void api_settings_get(struct request *req, struct response *res);
void api_settings_put(struct request *req, struct response *res);
void api_projects(struct request *req, struct response *res);
void api_branches(struct request *req, struct response *res);
void api_summary(struct request *req, struct response *res);       /* GET summary */
void api_benchmarks(struct request *req, struct response *res);    /* GET benchmarks?branch=B */
void api_tokens_list(struct request *req, struct response *res);   /* GET tokens (admin) */
void api_tokens_create(struct request *req, struct response *res); /* POST tokens (admin) */
void api_tokens_delete(struct request *req, struct response *res); /* DELETE tokens/ID (admin) */
void api_ack_create(struct request *req, struct response *res);    /* POST commits/SHA/acknowledgements */
void api_ack_list(struct request *req, struct response *res);      /* GET acknowledgements */
void api_ack_delete(struct request *req, struct response *res);    /* DELETE acknowledgements/ID (admin) */

/* The report of the commit a request names (param[1], ?pr=N) in *cr; or
 * -1 with res answered (400, 404 or 500).  api_report.c. */
struct commit_report;
int commit_report_open(struct request *req, struct response *res, struct commit_report *cr);

/* The platform key runs are matched on: compact JSON of the report's
 * {"arch", "compiler", "os"} with sorted keys (the caller owns it). */
struct bm_report;
char *platform_key(const struct bm_report *r);

#endif
