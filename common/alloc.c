#include "common/alloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/text.h"

static void out_of_memory(size_t size)
{
	text_errx(EXIT_FAILURE_RUNTIME, "out of memory (%zu bytes)", size);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		out_of_memory(size);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		out_of_memory(count * size);
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);
	if (!p)
		out_of_memory(size);
	return p;
}

void *xreallocarray(void *ptr, size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		out_of_memory(SIZE_MAX);
	return xrealloc(ptr, count * size);
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);
	if (!p)
		out_of_memory(strlen(s) + 1);
	return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *s = NULL;
	if (vasprintf(&s, fmt, ap) < 0)
		out_of_memory(strlen(fmt));
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

FILE *xmemstream(char **text, size_t *len)
{
	FILE *out = open_memstream(text, len);
	if (!out)
		out_of_memory(BUFSIZ);
	return out;
}

char *xmemstream_close(FILE *out, char **text)
{
	if (fclose(out) != 0 || !*text) /* a memstream's writes fail only for want of memory */
		out_of_memory(BUFSIZ);
	return *text;
}

char *xescaped(const char *text)
{
	char *shown = text_escape(text);
	if (!shown)
		out_of_memory(4 * strlen(text) + 1);
	return shown;
}

void strings_free(char **strings)
{
	if (strings)
		for (char **p = strings; *p; p++)
			free(*p);
	free(strings);
}

void xgrow(void *array_ptr, size_t *cap, size_t need, size_t elem)
{
	void **array = array_ptr;
	if (need <= *cap)
		return;
	size_t grown = *cap ? *cap : 8;
	while (grown < need)
		grown = grown > SIZE_MAX / 2 ? need : 2 * grown;
	*array = xreallocarray(*array, grown, elem);
	*cap = grown;
}

void strings_push(char ***list, size_t *count, char *s)
{
	*list = xreallocarray(*list, *count + 1, sizeof **list);
	(*list)[(*count)++] = s;
}

void strings_release(char ***list, size_t *count)
{
	for (size_t i = 0; i < *count; i++)
		free((*list)[i]);
	free(*list);
	*list = NULL;
	*count = 0;
}
