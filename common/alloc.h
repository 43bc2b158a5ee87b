/*
 * alloc.h — allocation that exits on out-of-memory (sbase's e… helpers), for every layer.
 *
 * A program that measures has no useful way on when malloc fails: these never return NULL; on
 * failure they print "smtbench: out of memory (N bytes)" and exit with EXIT_FAILURE_RUNTIME.
 * The caller owns each result and frees it with free() (strings_free for string arrays).
 */
#ifndef SMTBENCH_COMMON_ALLOC_H
#define SMTBENCH_COMMON_ALLOC_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *ptr, size_t size);
/* count elements of size bytes: exits when count * size overflows, as on out of memory. */
void *xreallocarray(void *ptr, size_t count, size_t size);
char *xstrdup(const char *s);
/* printf into a new string. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* open_memstream(3) for a text being built: *text is set only when it is closed, by
 * xmemstream_close, which returns the text (the caller's to free). */
FILE *xmemstream(char **text, size_t *len);
char *xmemstream_close(FILE *out, char **text);
/* Grows the array at *array_ptr (a T **, of elem-byte items, capacity *cap) to hold at least
 * need items, doubling, so that appending one at a time costs O(1) on average. */
void xgrow(void *array_ptr, size_t *cap, size_t need, size_t elem);
/* Appends s (taken; a list's strings are its own) to the list *list of *count strings. */
void strings_push(char ***list, size_t *count, char *s);
/* Frees count strings and the list; sets *list NULL and *count 0. */
void strings_release(char ***list, size_t *count);
/* Frees a NULL-terminated array of strings and the strings in it; NULL is fine. */
void strings_free(char **strings);

#endif
