#include "runner/util.h"
#include "common/number.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"

int parse_ulong(const char *text, unsigned long min, unsigned long max, unsigned long *out)
{
	/* The one number rule (common/number.h), without a sign. */
	long long v;
	if (!text || text[0] == '-' || number_parse_whole(text, &v) != NUMBER_OK
	    || (unsigned long long)v < min || (unsigned long long)v > max)
		return -1;
	*out = (unsigned long)v;
	return 0;
}

int parse_cpu_pair(const char *text, int out[2])
{
	const char *comma = text ? strchr(text, ',') : NULL;
	if (!comma || comma - text > 15)
		return -1;
	char first[16];
	memcpy(first, text, (size_t)(comma - text));
	first[comma - text] = '\0';
	unsigned long a, b;
	if (parse_ulong(first, 0, 1UL << 20, &a) || parse_ulong(comma + 1, 0, 1UL << 20, &b))
		return -1;
	out[0] = (int)a;
	out[1] = (int)b;
	return 0;
}

int parse_duration_s(const char *text, double *out_s)
{
	static const struct { char suffix; double seconds; } units[] = {
		{ 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 },
	};
	if (!text || !*text)
		return -1;
	double total = 0;
	const char *p = text;
	while (*p) {
		if (!isdigit((unsigned char)*p))
			return -1;
		errno = 0;
		char *end = NULL;
		unsigned long v = strtoul(p, &end, 10);
		if (errno || v > 100UL * 365 * 86400)
			return -1;
		double scale = 0;
		if (*end == '\0') {
			/* A bare number is seconds, and only allowed alone or last. */
			scale = 1;
			p = end;
		} else {
			for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
				if (*end == units[i].suffix)
					scale = units[i].seconds;
			if (scale == 0)
				return -1;
			p = end + 1;
		}
		total += (double)v * scale;
	}
	if (total <= 0)
		return -1;
	*out_s = total;
	return 0;
}

void usage_exit(const char *command, const char *fmt, ...)
{
	char message[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	text_errx(EXIT_USAGE, "%s (see 'smtbench %s --help')", message, command);
}

void getopt_failure(const char *command, int c, char *const *argv)
{
	const char *option = argv[optind - 1];
	if (c == ':')
		usage_exit(command, "option '%s' needs a value", option);
	if (optopt > 0 && strncmp(option, "--", 2) != 0)
		usage_exit(command, "unknown option '-%c'", optopt);
	usage_exit(command, "unknown option '%s'", option);
}
