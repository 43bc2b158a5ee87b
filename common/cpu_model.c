#include "common/cpu_model.h"

#include <stdbool.h>
#include <string.h>

#include "common/alloc.h"

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

/* src with its blanks trimmed and runs of them made one space, into out (truncated). */
static void normalise(const char *src, char *out, size_t out_size)
{
	size_t n = 0;
	bool gap = false;
	for (; src && *src && n + 1 < out_size; src++) {
		if (blank(*src)) {
			gap = n > 0;
			continue;
		}
		if (gap) {
			if (n + 2 >= out_size)
				break; /* no room for the space and what follows it */
			out[n++] = ' ';
		}
		gap = false;
		out[n++] = *src;
	}
	if (out_size > 0)
		out[n] = '\0';
}

static bool names_one(const char *s)
{
	return s && s[strspn(s, " \t")];
}

/*
 * Why /proc/cpuinfo wins over hwloc:
 *   - it is the kernel's own record of the CPU, the string `lscpu` and /proc show, so the name
 *     a user already knows the machine by;
 *   - every results folder written before this rule holds it in meta.json's cpu_model (hwloc's
 *     only where /proc had none), so old and new folders of one cluster keep one fleet group
 *     without any folder being rewritten, and a report of an old folder says what it said.
 * hwloc's stays the answer where /proc has no "model name" (arm64 and POWER kernels write other
 * fields) and for a loaded topology (an XML export of another machine, where this machine's
 * /proc says nothing about it: the caller passes NULL for it).
 */
char *cpu_model_choose(const char *proc_cpuinfo, const char *hwloc, char *out, size_t out_size)
{
	normalise(names_one(proc_cpuinfo) ? proc_cpuinfo : hwloc, out, out_size);
	return out;
}

char *cpu_model_of_meta(const json_t *meta)
{
	const json_t *sources = json_object_get(meta, "cpu_model_sources");
	const char *proc = json_string_value(json_object_get(sources, "proc_cpuinfo"));
	const char *hwloc = json_string_value(json_object_get(sources, "hwloc"));
	if (!names_one(proc) && !names_one(hwloc))
		proc = json_string_value(json_object_get(meta, "cpu_model"));
	size_t size = (proc ? strlen(proc) : 0) + (hwloc ? strlen(hwloc) : 0) + 1;
	return cpu_model_choose(proc, hwloc, xmalloc(size), size);
}
