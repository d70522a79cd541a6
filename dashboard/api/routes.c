/* SPDX-License-Identifier: MIT */
/* Every API path, in one table (http.c matches them in order). */
#include "config.h"

#include "api.h"

const struct route api_routes[] = {
	{"GET", "api/v1/projects", ACCESS_NONE, api_projects},
	{"POST", "api/v1/projects/*/runs", ACCESS_UPLOAD, api_upload},
	{"GET", "api/v1/projects/*/commits/*/report", ACCESS_NONE, api_commit_report},
	{"GET", "api/v1/projects/*/commits/*/runs", ACCESS_NONE, api_commit_runs},
	{"GET", "api/v1/projects/*/benchmarks/*/history", ACCESS_NONE, api_history},
	{"GET", "api/v1/projects/*/changes", ACCESS_NONE, api_changes},
	{"GET", "api/v1/projects/*/runs/*/benchmarks/*/profile", ACCESS_NONE, api_profile},
	{"GET", "api/v1/projects/*/settings", ACCESS_NONE, api_settings_get},
	{"PUT", "api/v1/projects/*/settings", ACCESS_ADMIN, api_settings_put},
	{"GET", "api/v1/projects/*/branches", ACCESS_NONE, api_branches},
	{"GET", "api/v1/projects/*/summary", ACCESS_NONE, api_summary},
	{"GET", "api/v1/projects/*/benchmarks", ACCESS_NONE, api_benchmarks},
	{"GET", "api/v1/projects/*/tokens", ACCESS_ADMIN, api_tokens_list},
	{"POST", "api/v1/projects/*/tokens", ACCESS_ADMIN, api_tokens_create},
	{"DELETE", "api/v1/projects/*/tokens/*", ACCESS_ADMIN, api_tokens_delete},
	{"POST", "api/v1/projects/*/commits/*/acknowledgements", ACCESS_UPLOAD, api_ack_create},
	{"GET", "api/v1/projects/*/acknowledgements", ACCESS_NONE, api_ack_list},
	{"DELETE", "api/v1/projects/*/acknowledgements/*", ACCESS_ADMIN, api_ack_delete},
	{NULL, NULL, 0, NULL},
};
