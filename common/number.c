/*
 * number.c — the one number rule (number.h): the form is checked by hand, strtod and strtoll
 * only give the value, so that what they also accept (blanks, hex, inf, nan) is never a number.
 */
#include "common/number.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <strings.h>

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Whether text has the decimal form: [+-] digits [. digits] [(e|E) [+-] digits], one digit at
 * least before the exponent. */
static bool decimal_form(const char *p)
{
	int digits = 0;
	if (*p == '+' || *p == '-')
		p++;
	for (; is_digit(*p); p++)
		digits++;
	if (*p == '.')
		for (p++; is_digit(*p); p++)
			digits++;
	if (!digits)
		return false;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!is_digit(*p))
			return false;
		while (is_digit(*p))
			p++;
	}
	return *p == '\0';
}

/* "nan", "inf" or "infinity" with an optional sign, in any case: named in messages. */
static enum number_problem word_problem(const char *text)
{
	const char *p = text + (*text == '+' || *text == '-');
	if (!strcasecmp(p, "nan"))
		return NUMBER_NAN;
	if (!strcasecmp(p, "inf") || !strcasecmp(p, "infinity"))
		return NUMBER_INFINITE;
	return NUMBER_NOT_A_NUMBER;
}

enum number_problem number_parse_real(const char *text, double *out)
{
	*out = NAN;
	if (!decimal_form(text)) {
		enum number_problem word = word_problem(text);
		*out = word == NUMBER_INFINITE ? (*text == '-' ? -INFINITY : INFINITY) : NAN;
		return word;
	}
	errno = 0;
	double v = strtod(text, NULL);
	*out = v;
	if (errno == ERANGE)
		return fabs(v) >= 1.0 ? NUMBER_OVERFLOW : NUMBER_UNDERFLOW;
	return NUMBER_OK;
}

enum number_problem number_parse_whole(const char *text, long long *out)
{
	*out = 0;
	const char *p = text + (*text == '-');
	if (!is_digit(*p))
		return NUMBER_NOT_A_NUMBER;
	while (is_digit(*p))
		p++;
	if (*p)
		return NUMBER_NOT_A_NUMBER;
	errno = 0;
	long long v = strtoll(text, NULL, 10);
	*out = v;
	return errno == ERANGE ? NUMBER_OVERFLOW : NUMBER_OK;
}
