#include "common/alloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

/* Said through error_say, which allocates nothing: text_errx would need memory to escape the
 * message, and a message of digits needs no escape. */
static void out_of_memory(size_t size)
{
	char message[64];
	snprintf(message, sizeof message, "out of memory (%zu bytes)", size);
	error_say(message, NULL);
	exit(EXIT_FAILURE_RUNTIME);
}

/* p, which an allocation of size bytes returned; exits when it is NULL. */
static void *checked(void *p, size_t size)
{
	if (!p)
		out_of_memory(size);
	return p;
}

void *xmalloc(size_t size)
{
	return checked(malloc(size ? size : 1), size);
}

void *xcalloc(size_t count, size_t size)
{
	return checked(calloc(count ? count : 1, size ? size : 1), count * size);
}

void *xrealloc(void *ptr, size_t size)
{
	return checked(realloc(ptr, size ? size : 1), size);
}

void *xreallocarray(void *ptr, size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		out_of_memory(SIZE_MAX);
	return xrealloc(ptr, count * size);
}

char *xstrdup(const char *s)
{
	return checked(strdup(s), strlen(s) + 1);
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
	return checked(open_memstream(text, len), BUFSIZ);
}

char *xmemstream_close(FILE *out, char **text)
{
	if (fclose(out) != 0 || !*text) /* a memstream's writes fail only for want of memory */
		out_of_memory(BUFSIZ);
	return *text;
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
