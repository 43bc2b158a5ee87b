#include "common/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

void set_error(char *err, size_t err_size, const char *fmt, ...)
{
	if (!err || err_size == 0)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, err_size, fmt, ap);
	va_end(ap);
}

void error_say(const char *message, const char *cause)
{
	fflush(stdout);
	fprintf(stderr, "%s: %s%s%s\n", program_invocation_short_name, message, cause ? ": " : "",
	        cause ? cause : "");
}
