/*
 * util.h — the runner's small helpers: strict number parsing for command-line values, and the
 * usage errors of a command line.
 *
 * Error policy (sbase style): x… functions exit the program on failure; parse_… functions
 * return 0 on success and -1 on failure, leaving the message to the caller, who knows which
 * option the text came from. Library modules (topology/, analysis/) never exit: they return
 * errors to the runner.
 */
#ifndef SMTBENCH_RUNNER_UTIL_H
#define SMTBENCH_RUNNER_UTIL_H

#include <stddef.h>

#include "common/alloc.h"
#include "common/error.h"

/* Kernels exit with this status when the CPU lacks what they need (e.g. AVX2). */
#define KERNEL_EXIT_UNSUPPORTED 77

/* Whole-string decimal integer in [min, max]; no sign, no spaces, no trailing text. */
int parse_ulong(const char *text, unsigned long min, unsigned long max, unsigned long *out);
/* "A,B": two CPU numbers (OS indexes), each in [0, 1<<20]. */
int parse_cpu_pair(const char *text, int out[2]);
/* Durations: "90" or "90s", "15m", "8h", "2d", also "1h30m"; result in seconds, > 0. */
int parse_duration_s(const char *text, double *out_s);

/* A bad command line: prints one line, "smtbench: MESSAGE (see 'smtbench COMMAND --help')",
 * and exits with EXIT_USAGE. */
void usage_exit(const char *command, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));
/* The same for what getopt_long returned as an error ('?' or ':', with opterr = 0 and an
 * optstring that starts with ':'): names the unknown option or the one that needs a value. */
void getopt_failure(const char *command, int c, char *const *argv) __attribute__((noreturn));

#endif
