/*
 * kernels.c — the table of NASM kernels (asm/NAME.asm → build/kernels/NAME) and where to find
 * their executables.
 */
#include "runner/kernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/alloc.h"
#include "common/text.h"

#ifndef SMTBENCH_LIBEXECDIR
#define SMTBENCH_LIBEXECDIR "/usr/local/libexec/smtbench"
#endif

/*
 * One entry per asm/NAME.asm, in the order --list-kernels shows them (tests/unit/test_kernels.c
 * checks that the two lists match). default_iters makes one process alone take about 0.25 s of
 * user time; the per-iteration cost beside each was measured from wait4's ru_utime on a
 * 2.6 GHz (nominal) AMD EPYC Zen 4 KVM guest, one process alone, best of three runs, minus the
 * time of a run of one iteration. Other machines differ by 2x either way: --iters adjusts.
 */
static const struct kernel kernel_table[] = {
	{ "nop", "front end",
	  "the seed's loop: 2048 one-byte NOPs, a decrement and a branch per iteration",
	  5000000, 1 },      /* ~48 ns/iter (2048 NOPs: ~11 per cycle on Zen 4) */
	{ "mul-latency", "ALU latency",
	  "one dependent chain of splitmix64's mix (shift, xor, multiply); SMT may help it",
	  75000000, 1 },     /* ~3.3 ns/iter, ~12 cycles: the chain's latency */
	{ "mul-throughput", "ALU throughput",
	  "the same mix as 8 independent chains: the ports are busy; SMT should hurt it",
	  35000000, 1 },     /* ~7.2 ns/iter for 8 mixes: ~0.9 ns per mix */
	{ "pause", "pause delay",
	  "16 pause instructions per iteration: the spin-wait hint, which yields to the sibling",
	  625000, 1 },       /* ~0.40 us/iter: ~25 ns per pause */
	{ "l1-load", "L1 load throughput",
	  "12 independent loads from a 4 KiB buffer that stays in the L1 data cache",
	  210000000, 1 },    /* ~1.2 ns/iter: ~3 loads per cycle */
	{ "mem-chase", "memory latency",
	  "a pointer chase through a 64 MiB random cycle, one cache line per step",
	  1400000, 1 },      /* ~165 ns/iter, plus ~20 ms of set-up */
	{ "avx2-fma", "FMA throughput",
	  "12 independent chains of 256-bit vfmadd231pd; exits 77 on a CPU without AVX2+FMA",
	  150000000, 1 },    /* ~1.64 ns/iter: ~2 FMAs per cycle */
	{ "nop-2t", "front end",
	  "one process of two threads, each the nop loop (count per thread): for --one-process",
	  2500000, 2 },      /* two of nop's ~48 ns/iter: the process's CPU time, both threads */
};

size_t kernel_count(void)
{
	return sizeof kernel_table / sizeof kernel_table[0];
}

const struct kernel *kernel_at(size_t index)
{
	return index < kernel_count() ? &kernel_table[index] : NULL;
}

const struct kernel *kernel_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < kernel_count(); i++)
		if (strcmp(kernel_table[i].name, name) == 0)
			return &kernel_table[i];
	return NULL;
}

const char *kernel_unknown_message(const char *name, char *buf, size_t len)
{
	const char *names[TEXT_SUGGEST_MAX];
	size_t count = 0;
	for (size_t i = 0; i < kernel_count() && count < TEXT_SUGGEST_MAX; i++)
		names[count++] = kernel_table[i].name;
	char near[256];
	text_suggest(name, names, count, "", near, sizeof near);
	snprintf(buf, len, "unknown kernel '%s'; %s%s%s`smtbench run --list-kernels` lists them%s",
	         name, *near ? "did you mean " : "", near, *near ? "? (" : "", *near ? ")" : "");
	return buf;
}

/* A regular file this process may execute. */
static int is_executable_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

char *kernel_path(const char *name, char *err, size_t err_size)
{
	if (!kernel_find(name)) {
		set_error(err, err_size, "unknown kernel '%s'", name ? name : "(null)");
		return NULL;
	}

	/* An explicit directory replaces the search, so that a wrong one is an error rather
	 * than a silent fallback to another build. */
	const char *override = getenv("SMTBENCH_KERNEL_DIR");
	if (override && *override) {
		char *path = xasprintf("%s/%s", override, name);
		if (is_executable_file(path))
			return path;
		set_error(err, err_size, "kernel %s: %s is not an executable file (SMTBENCH_KERNEL_DIR=%s); "
		          "run make, or unset SMTBENCH_KERNEL_DIR", name, path, override);
		free(path);
		return NULL;
	}

	/* Beside the program's own file (the target of /proc/self/exe). */
	char *exe = realpath("/proc/self/exe", NULL);
	char *slash = exe ? strrchr(exe, '/') : NULL;
	char *beside = slash ? xasprintf("%.*s/kernels/%s", (int)(slash - exe), exe, name) : NULL;
	free(exe);
	if (beside && is_executable_file(beside))
		return beside;

	char *installed = xasprintf("%s/%s", kernel_install_dir(), name);
	if (is_executable_file(installed)) {
		free(beside);
		return installed;
	}

	set_error(err, err_size, "kernel %s not found: tried %s and %s; run make (or make install)",
	          name, beside ? beside : "(/proc/self/exe unreadable)", installed);
	free(beside);
	free(installed);
	return NULL;
}

const char *kernel_install_dir(void)
{
	return SMTBENCH_LIBEXECDIR;
}

int kernels_print(FILE *out)
{
	/* Not a default: run calibrates its count unless --iters is given. This one took about
	 * 0.25 s alone where the table was measured, and only scales --beside-kernel's count. */
	fprintf(out, "%-16s %-26s %15s  %s\n", "kernel", "bound by", "reference iters",
	        "what it does");
	for (size_t i = 0; i < kernel_count(); i++) {
		const struct kernel *k = kernel_at(i);
		fprintf(out, "%-16s %-26s %15lu  %s\n", k->name, k->bound_by, k->default_iters,
		        k->summary);
	}
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
