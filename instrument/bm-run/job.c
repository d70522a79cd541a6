/* SPDX-License-Identifier: MIT */
/* Jobs and their benchmarks: see job.h. */
#include "config.h"

#include "job.h"

#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

void job_init(struct job *job, const char *program, char *const *args, size_t nargs,
	      enum run_mode mode, const char *symbol, const char *name)
{
	memset(job, 0, sizeof *job);
	job->program = xstrdup(program);
	job->args = xcalloc(nargs + 1, sizeof *job->args);
	for (size_t i = 0; i < nargs; i++)
		job->args[i] = xstrdup(args[i]);
	job->nargs = nargs;
	job->mode = mode;
	job->symbol = symbol ? xstrdup(symbol) : NULL;
	job->name = name ? xstrdup(name) : NULL;
}

void job_add_symbol(struct job *job, const char *fn)
{
	for (size_t i = 0; i < job->nsymbols; i++)
		if (strcmp(job->symbols[i], fn) == 0)
			return;
	job->symbols = xreallocarray(job->symbols, job->nsymbols + 1, sizeof *job->symbols);
	job->symbols[job->nsymbols++] = xstrdup(fn);
}

size_t job_functions(const struct job *job, char *const **fns)
{
	if (job->mode == MODE_SYMBOL) {
		*fns = &job->symbol;
		return 1;
	}
	*fns = job->symbols;
	return job->nsymbols;
}

void job_release(struct job *job)
{
	for (size_t i = 0; i < job->nsymbols; i++)
		free(job->symbols[i]);
	free(job->symbols);
	free(job->program);
	for (size_t i = 0; i < job->nargs; i++)
		free(job->args[i]);
	free(job->args);
	free(job->symbol);
	free(job->name);
	for (size_t i = 0; i < job->nentries; i++) {
		free(job->entries[i].id);
		free(job->entries[i].reason);
		free(job->entries[i].dump);
	}
	free(job->entries);
	free(job->warning);
	free(job->usage_error);
	free(job->resume_after);
	if (job->sb.dir)
		sandbox_remove(&job->sb);
	memset(job, 0, sizeof *job);
}

struct entry *job_entry_find(struct job *job, const char *id)
{
	for (size_t i = 0; i < job->nentries; i++)
		if (strcmp(job->entries[i].id, id) == 0)
			return &job->entries[i];
	return NULL;
}

struct entry *job_entry(struct job *job, const char *id)
{
	struct entry *e = job_entry_find(job, id);
	if (e)
		return e;
	xgrow(&job->entries, &job->entries_alloc, job->nentries + 1, sizeof *job->entries);
	e = &job->entries[job->nentries++];
	*e = (struct entry){.id = xstrdup(id), .state = ENTRY_PLANNED};
	return e;
}

void entry_set(struct entry *e, enum entry_state state, const char *reason)
{
	e->state = state;
	free(e->reason);
	e->reason = reason ? xstrdup(reason) : NULL;
}

int job_has_planned(const struct job *job)
{
	for (size_t i = 0; i < job->nentries; i++)
		if (job->entries[i].state == ENTRY_PLANNED)
			return 1;
	return 0;
}
