/* SPDX-License-Identifier: MIT */
/* Code without symbols in a profile: see unnamed_code.h. */
#include "config.h"

#include "unnamed_code.h"

#include "dynbuf.h"
#include "path.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

static int is_unnamed(const char *name)
{
	return strncmp(name, "0x", 2) == 0;
}

static void add_object(struct unnamed_code *u, const char *object)
{
	for (size_t i = 0; i < u->nobjects; i++)
		if (strcmp(u->objects[i], object) == 0)
			return;
	u->objects = xreallocarray(u->objects, u->nobjects + 1, sizeof *u->objects);
	u->objects[u->nobjects++] = xstrdup(object);
}

void unnamed_code_of(const struct bm_profile *p, struct unnamed_code *out)
{
	memset(out, 0, sizeof *out);
	/* The unnamed functions, most cycles first, for the objects' order. */
	uint32_t *order = xcalloc(p->nfns ? p->nfns : 1, sizeof *order);
	size_t n = 0;
	for (uint32_t i = 0; i < p->nfns; i++)
		if (p->fns[i].self_cycles && is_unnamed(profile_str(p, p->fns[i].name))) {
			size_t k = n++;
			for (; k > 0 && p->fns[order[k - 1]].self_cycles < p->fns[i].self_cycles; k--)
				order[k] = order[k - 1];
			order[k] = i;
			out->cycles += p->fns[i].self_cycles;
		}
	for (size_t k = 0; k < n; k++)
		add_object(out, path_basename(profile_str(p, p->fns[order[k]].object)));
	free(order);
	out->share = p->cycles ? (double)out->cycles / (double)p->cycles : 0;
}

void unnamed_code_add_objects(struct unnamed_code *into, const struct unnamed_code *from)
{
	for (size_t i = 0; i < from->nobjects; i++)
		add_object(into, from->objects[i]);
}

char *unnamed_code_objects_text(const struct unnamed_code *u)
{
	struct dynbuf b = DYNBUF_INIT(0);
	for (size_t i = 0; i < u->nobjects; i++) {
		const char *sep = i == 0 ? "" : i + 1 == u->nobjects ? " and " : ", ";
		dynbuf_add(&b, sep, strlen(sep));
		dynbuf_add(&b, u->objects[i], strlen(u->objects[i]));
	}
	size_t len;
	char *text = dynbuf_detach(&b, &len);
	return text ? text : xstrdup("");
}

void unnamed_code_release(struct unnamed_code *u)
{
	for (size_t i = 0; i < u->nobjects; i++)
		free(u->objects[i]);
	free(u->objects);
	memset(u, 0, sizeof *u);
}
