/*
 * kernels.h — the table of NASM busy-loop kernels the runner can launch.
 *
 * Each kernel is a static executable built from asm/NAME.asm into build/kernels/NAME; it takes
 * its iteration count as argv[1], exits 0 when done, 2 on a bad argument, and
 * KERNEL_EXIT_UNSUPPORTED (77) when this CPU lacks what it needs.
 */
#ifndef SMTBENCH_RUNNER_KERNELS_H
#define SMTBENCH_RUNNER_KERNELS_H

#include <stddef.h>
#include <stdio.h>

#include "common/error.h"

struct kernel {
	const char *name;             /* as given to --kernel, and the file name under kernels/ */
	const char *bound_by;         /* what limits the loop: "front end", "ALU latency", ... */
	const char *summary;          /* one line for --list-kernels */
	unsigned long default_iters;  /* about 0.25 s of user time alone (measured: kernels.c) */
	int threads;                  /* threads of one process: 1, or 2 for the multi-threaded
	                               * member (run --one-process); a matrix leaves those out */
};

size_t kernel_count(void);
const struct kernel *kernel_at(size_t index);
/* NULL when no kernel has that name. */
const struct kernel *kernel_find(const char *name);
/* The message for a name that is no kernel, into buf: "unknown kernel 'nopp'; did you mean
 * nop? (`smtbench run --list-kernels` lists them)", the suggestion from text_suggest, left out
 * when no kernel is close. Returns buf. */
const char *kernel_unknown_message(const char *name, char *buf, size_t len);

/* The table for a person (run --list-kernels): name, what bounds it, its reference count and
 * what it does. 0, or -1 when out could not be written. */
int kernels_print(FILE *out);

/*
 * The executable of a kernel: next to the running program (<dir of /proc/self/exe>/kernels/NAME,
 * the build tree) or, once installed, under SMTBENCH_LIBEXECDIR. When the environment variable
 * SMTBENCH_KERNEL_DIR is set and not empty, it replaces that search: only DIR/NAME is tried (for
 * tests, whose binaries live elsewhere, and for running from unusual places). Returns a new
 * string the caller frees, or NULL with a one-line reason in err (an unknown name, or the paths
 * tried and "run make").
 */
char *kernel_path(const char *name, char *err, size_t err_size);

/* Where `make install` puts the kernels: $(PREFIX)/libexec/smtbench as the build was configured
 * (a static string). */
const char *kernel_install_dir(void);

#endif
