/* SPDX-License-Identifier: MIT */
/* The native report: what a benchmark program run without Valgrind measured,
 * as a bm-report/1 that bm-upload, bm-check and the server read like an
 * imported one (docs/bm-import.md): each benchmark's "metric" is
 * "walltime", its "value" the median seconds of one run, and its spread
 * (half the interquartile range, in seconds) the extra metric
 * "walltime_spread".  model.id "native/libbm" keeps these numbers from
 * ever being compared with simulated ones.
 *
 * The JSON is written by hand (lib/json_buf.c): libbm is linked into
 * users' programs and does not bring Jansson along. */
#include "config.h"

#include "bm_internal.h"

#include "json_buf.h"
#include "platform.h"
#include "report_identity.h"
#include "xalloc.h"

#include <elf.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MODEL_ID "native/libbm"

static void member(struct json_buf *b, const char *key, const char *value)
{
	json_buf_string(b, key);
	json_buf_lit(b, ": ");
	json_buf_string(b, value);
}

/* The GNU build id of the program, from its note in memory. */
static int find_build_id(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	char *hex = data;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_NOTE)
			continue;
		const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;
		while (p + sizeof(ElfW(Nhdr)) <= end) {
			const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
			const unsigned char *desc =
				(const unsigned char *)p + sizeof *n + ((n->n_namesz + 3) & ~3u);
			if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
			    memcmp(p + sizeof *n, "GNU", 4) == 0 && n->n_descsz <= 64) {
				for (unsigned k = 0; k < n->n_descsz; k++)
					snprintf(hex + 2 * k, 3, "%02x", desc[k]);
				return 1;
			}
			p = (const char *)desc + ((n->n_descsz + 3) & ~3u);
		}
	}
	return 1; /* only the first object: the program itself */
}

void native_report_begin(struct json_buf *b)
{
	char *run_id = report_new_uuid(), *created = report_now_rfc3339();
	char *os = platform_os(), *arch = platform_arch(), *host = platform_host();
	char build_id[129] = "";
	char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
	path[n > 0 ? n : 0] = '\0';
	dl_iterate_phdr(find_build_id, build_id);

	json_buf_lit(b, "{\n  ");
	member(b, "schema", "bm-report/1");
	json_buf_lit(b, ",\n  ");
	member(b, "run_id", run_id);
	json_buf_lit(b, ",\n  ");
	member(b, "created_at", created);
	json_buf_lit(b, ",\n  \"tool\": {");
	member(b, "name", "libbm");
	json_buf_lit(b, ", ");
	member(b, "version", PACKAGE_VERSION);
	json_buf_lit(b, "},\n  \"model\": {");
	member(b, "id", MODEL_ID);
	/* The reader requires a frequency; it means nothing here. */
	json_buf_lit(b, ", \"frequency_hz\": 1},\n  \"context\": {\"platform\": {\"compiler\": null, ");
	member(b, "os", os);
	json_buf_lit(b, ", ");
	member(b, "arch", arch);
	json_buf_lit(b, "}, ");
	member(b, "host", host);
	json_buf_lit(b, ", \"branch\": null, \"commit\": null, \"pr\": null},\n  \"binary\": {");
	member(b, "path", path[0] ? path : NULL);
	json_buf_lit(b, ", ");
	member(b, "build_id", build_id[0] ? build_id : NULL);
	json_buf_lit(b, "},\n  \"benchmarks\": [");
	free(run_id);
	free(created);
	free(os);
	free(arch);
	free(host);
}

void native_report_add(struct json_buf *b, size_t index, const struct bm_entry *e,
		       const struct native_result *r)
{
	const char *tag = strchr(e->id, '[');
	char *tag_text = tag ? xstrndup(tag + 1, strcspn(tag + 1, "]")) : NULL;
	json_buf_raw(b, index ? ",\n    {" : "\n    {");
	member(b, "id", e->id);
	json_buf_lit(b, ", ");
	member(b, "suite", e->bench->suite);
	json_buf_lit(b, ", ");
	member(b, "name", e->bench->name);
	json_buf_lit(b, ", ");
	member(b, "tag", tag_text);
	free(tag_text);
	json_buf_lit(b, ",\n     \"events\": {}, \"cycles\": null, \"time_s\": null, \"speed\": null, "
			"\"syscalls\": null, \"profile\": null,\n     ");
	if (!r) {
		char why[BM_REASON_MAX];
		plan_skip_reason(e, why);
		member(b, "status", "skipped");
		json_buf_lit(b, ", ");
		member(b, "reason", why);
		json_buf_lit(b, ", \"metric\": null}");
		return;
	}
	member(b, "status", "ok");
	json_buf_lit(b, ", \"reason\": null, \"metric\": \"walltime\", \"value\": ");
	json_buf_real(b, r->median_s);
	json_buf_lit(b, ", \"unit\": \"s\", \"runs\": ");
	json_buf_int(b, (int64_t)r->runs);
	json_buf_lit(b, ",\n     \"extra_metrics\": [{\"metric\": \"walltime_spread\", \"value\": ");
	json_buf_real(b, r->spread * r->median_s);
	json_buf_lit(b, ", \"unit\": \"s\"}]}");
}

void native_report_end(struct json_buf *b)
{
	json_buf_lit(b, "\n  ]\n}\n");
}
