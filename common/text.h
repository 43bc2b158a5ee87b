/*
 * text.h — strings every layer builds: printf into a new string.
 */
#ifndef SMTBENCH_COMMON_TEXT_H
#define SMTBENCH_COMMON_TEXT_H

/* A new string from printf, owned by the caller (free()), or NULL on out of memory. Library
 * layers use it where the runner's x… helpers would exit: they return the error instead. */
char *text_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
