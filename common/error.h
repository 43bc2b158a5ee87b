/*
 * error.h — the one error convention of every layer.
 *
 * A function that can fail takes `char *err, size_t err_size` last, returns -1 or NULL on
 * failure and leaves one line in err: what is wrong, naming the thing (file, CPU, option), and
 * what to do. err may be NULL or err_size 0 (the message is then dropped). Buffers of
 * ERR_LEN bytes hold any message this program writes.
 *
 * In common/, the layer every other one may include (docs/DESIGN.md, "Layers").
 */
#ifndef SMTBENCH_COMMON_ERROR_H
#define SMTBENCH_COMMON_ERROR_H

#include <stddef.h>

#define ERR_LEN 1024

/* The program's exit statuses (the man page's EXIT STATUS). */
enum {
	EXIT_OK = 0,
	EXIT_FAILURE_RUNTIME = 1, /* something failed while running: a syscall, a write, a child */
	EXIT_USAGE = 2,           /* bad input: option, value, file; nothing was written */
	EXIT_UNAVAILABLE = 3,     /* valid request this machine cannot satisfy (e.g. no placement left) */
	EXIT_INTERRUPTED = 130,   /* stopped by SIGINT/SIGTERM; the results folder is valid and resumable */
};

/* printf into err (truncated to err_size); nothing when err is NULL or err_size is 0. */
void set_error(char *err, size_t err_size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The line of every message on stderr, "smtbench: MESSAGE\n" (": CAUSE" before the newline when
 * cause is not NULL), stdout flushed first. MESSAGE is written as it is and nothing is allocated:
 * text_warnx and its kin (common/text.h) escape it first; out of memory is said through it. */
void error_say(const char *message, const char *cause);

#endif
