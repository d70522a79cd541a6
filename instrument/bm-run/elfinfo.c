/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "elfinfo.h"

#include "error.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where Debian (and Valgrind, and gdb) keep separate debug files. */
#define DEBUG_ROOT "/usr/lib/debug"
#include <unistd.h>

static char *hex(const unsigned char *p, size_t n)
{
	char *s = xmalloc(2 * n + 1);
	for (size_t i = 0; i < n; i++)
		snprintf(s + 2 * i, 3, "%02x", p[i]);
	s[2 * n] = '\0';
	return s;
}

static void read_build_id(Elf_Data *d, struct elfinfo *out)
{
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;
	while (!out->build_id && (off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0)
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    memcmp((char *)d->d_buf + name_off, "GNU", 4) == 0)
			out->build_id = hex((unsigned char *)d->d_buf + desc_off, nh.n_descsz);
}

static void read_comment(Elf_Data *d, struct elfinfo *out)
{
	const char *s = d->d_buf;
	size_t n = d->d_size, i = 0;
	while (i < n && s[i] == '\0')
		i++;
	if (i < n && !out->compiler)
		out->compiler = xstrndup(s + i, strnlen(s + i, n - i));
}

/* What a read keeps: out's functions so far (alloc of them allocated),
 * and only those matching one of only's patterns when there are some. */
struct reading {
	size_t alloc;
	const char *const *only;
	size_t nonly;
};

static void add_function(struct elfinfo *out, struct reading *r, const char *name)
{
	if (!name || !*name)
		return;
	size_t i = 0;
	while (i < r->nonly && fnmatch(r->only[i], name, 0) != 0)
		i++;
	if (r->nonly && i == r->nonly)
		return;
	xgrow(&out->functions, &r->alloc, out->nfunctions + 1, sizeof *out->functions);
	out->functions[out->nfunctions++] = xstrdup(name);
}

static void read_symbols(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, struct elfinfo *out,
			 struct reading *r)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d || !sh->sh_entsize)
		return;
	size_t count = sh->sh_size / sh->sh_entsize;
	for (size_t i = 0; i < count; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(d, (int)i, &sym))
			continue;
		int type = GELF_ST_TYPE(sym.st_info);
		const char *sname = elf_strptr(elf, sh->sh_link, sym.st_name);
		/* What every benchmark loop of Google Benchmark calls. */
		if (sname && strcmp(sname, "_ZN9benchmark5State16StartKeepRunningEv") == 0)
			out->links_gbench = 1;
		/* Catch2 compiles its benchmarking only where it is used. */
		if (sname && strncmp(sname, "_ZN5Catch9Benchmark", 19) == 0)
			out->links_catch2 = 1;
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym.st_shndx == SHN_UNDEF)
			continue;
		add_function(out, r, sname);
		if (sname && strcmp(sname, "bm_main") == 0)
			out->links_libbm = 1;
	}
}

/* DT_NEEDED entries naming libbm.so or libbenchmark.so. */
static void read_dynamic(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, struct elfinfo *out)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d || !sh->sh_entsize)
		return;
	size_t count = sh->sh_size / sh->sh_entsize;
	for (size_t i = 0; i < count; i++) {
		GElf_Dyn dyn;
		if (!gelf_getdyn(d, (int)i, &dyn) || dyn.d_tag != DT_NEEDED)
			continue;
		const char *lib = elf_strptr(elf, sh->sh_link, dyn.d_un.d_val);
		if (lib && strncmp(lib, "libbm.so", 8) == 0)
			out->links_libbm = 1;
		if (lib && strncmp(lib, "libbenchmark.so", 15) == 0)
			out->links_gbench = 1;
	}
}

/* The function symbols of a separate debug file at path, if it is one:
 * whether it had a symbol table. */
static int read_symtab_of(const char *path, struct elfinfo *out, struct reading *r)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), found = 0;
	if (fd < 0)
		return 0;
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	Elf_Scn *scn = NULL;
	while (elf && elf_kind(elf) == ELF_K_ELF && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB) {
			read_symbols(elf, scn, &sh, out, r);
			found = 1;
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return found;
}

/* A stripped file's names from its separate debug file, where Valgrind
 * (and gdb) look for one: by build-id under /usr/lib/debug (Debian's
 * -dbgsym packages), then by its .gnu_debuglink name beside it, in .debug/
 * beside it, and under /usr/lib/debug.  Sets debug_file when found. */
static void read_debug_file(const char *path, const char *debuglink, struct elfinfo *out, struct reading *r)
{
	char *candidates[4] = {NULL}, *dir = xstrdup(path), *slash = strrchr(dir, '/');
	size_t n = 0;
	if (slash)
		*slash = '\0';
	if (out->build_id && strlen(out->build_id) > 2)
		candidates[n++] = xasprintf(DEBUG_ROOT "/.build-id/%.2s/%s.debug", out->build_id, out->build_id + 2);
	if (debuglink && slash) {
		candidates[n++] = xasprintf("%s/%s", dir, debuglink);
		candidates[n++] = xasprintf("%s/.debug/%s", dir, debuglink);
		candidates[n++] = xasprintf(DEBUG_ROOT "%s/%s", dir, debuglink);
	}
	for (size_t i = 0; i < n; i++)
		if (!out->debug_file && strcmp(candidates[i], path) != 0 && read_symtab_of(candidates[i], out, r)) {
			out->has_symtab = 1;
			out->debug_file = candidates[i];
			candidates[i] = NULL;
		}
	for (size_t i = 0; i < n; i++)
		free(candidates[i]);
	free(dir);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void unique_functions(struct elfinfo *out)
{
	if (out->nfunctions < 2)
		return;
	qsort(out->functions, out->nfunctions, sizeof *out->functions, by_name);
	size_t k = 1;
	for (size_t i = 1; i < out->nfunctions; i++) {
		if (strcmp(out->functions[i], out->functions[k - 1]) == 0)
			free(out->functions[i]);
		else
			out->functions[k++] = out->functions[i];
	}
	out->nfunctions = k;
}

static const char *machine_name(int m)
{
	switch (m) {
	case EM_X86_64:
		return "x86_64";
	case EM_386:
		return "i386";
	case EM_AARCH64:
		return "aarch64";
	default:
		return "unknown";
	}
}

int elfinfo_read(const char *path, struct elfinfo *out, char **err)
{
	return elfinfo_read_matching(path, NULL, 0, out, err);
}

int elfinfo_read_matching(const char *path, const char *const *globs, size_t nglobs, struct elfinfo *out,
			  char **err)
{
	memset(out, 0, sizeof *out);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return bm_error(err, "cannot open '%s': %s", path, strerror(errno));
	if (elf_version(EV_CURRENT) == EV_NONE) {
		close(fd);
		return bm_error(err, "libelf is out of date: %s", elf_errmsg(-1));
	}
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	GElf_Ehdr eh;
	size_t shstrndx;
	struct reading r = {0, globs, nglobs};
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) ||
	    elf_getshdrstrndx(elf, &shstrndx) != 0) {
		if (elf)
			elf_end(elf);
		close(fd);
		return 0; /* not ELF: a script, say */
	}
	char *debuglink = NULL;
	out->is_elf = 1;
	out->machine = xstrdup(machine_name(eh.e_machine));
	size_t nph = 0;
	GElf_Phdr ph;
	if (elf_getphdrnum(elf, &nph) == 0)
		for (size_t i = 0; i < nph; i++)
			if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_INTERP)
				out->dynamic = 1;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
		Elf_Data *d;
		if (sh.sh_type == SHT_SYMTAB)
			out->has_symtab = 1;
		if (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM)
			read_symbols(elf, scn, &sh, out, &r);
		else if (sh.sh_type == SHT_DYNAMIC)
			read_dynamic(elf, scn, &sh, out);
		else if (sh.sh_type == SHT_NOTE && (d = elf_getdata(scn, NULL)))
			read_build_id(d, out);
		else if (name && strcmp(name, ".comment") == 0 && (d = elf_getdata(scn, NULL)))
			read_comment(d, out);
		else if (name && strcmp(name, ".gnu_debuglink") == 0 && (d = elf_getdata(scn, NULL)) &&
			 memchr(d->d_buf, '\0', d->d_size))
			debuglink = xstrdup(d->d_buf);
	}
	elf_end(elf);
	close(fd);
	if (!out->has_symtab)
		read_debug_file(path, debuglink, out, &r);
	free(debuglink);
	unique_functions(out);
	return 0;
}

void elfinfo_release(struct elfinfo *e)
{
	free(e->build_id);
	free(e->debug_file);
	free(e->compiler);
	free(e->machine);
	for (size_t i = 0; i < e->nfunctions; i++)
		free(e->functions[i]);
	free(e->functions);
	memset(e, 0, sizeof *e);
}

const char **elfinfo_match(const struct elfinfo *e, const char *glob, size_t *n)
{
	const char **m = xcalloc(e->nfunctions ? e->nfunctions : 1, sizeof *m);
	*n = 0;
	for (size_t i = 0; i < e->nfunctions; i++)
		if (fnmatch(glob, e->functions[i], 0) == 0)
			m[(*n)++] = e->functions[i];
	return m;
}
