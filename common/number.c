/*
 * number.c — the one number rule (number.h): the form is checked by hand, strtod and strtoll
 * only give the value, so that what they also accept (blanks, hex, inf, nan) is never a number.
 */
#include "common/number.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <strings.h>

/* Whether text has the decimal form: [+-] digits [. digits] [(e|E) [+-] digits], one digit at
 * least before the exponent. */
static bool decimal_form(const char *p)
{
	static const char digits[] = "0123456789";
	p += *p == '+' || *p == '-';
	size_t whole = strspn(p, digits);
	size_t decimals = p[whole] == '.' ? strspn(p + whole + 1, digits) : 0;
	if (!whole && !decimals)
		return false;
	p += whole + (p[whole] == '.') + decimals;
	if (*p == 'e' || *p == 'E') {
		p += 1 + (p[1] == '+' || p[1] == '-');
		if (!strspn(p, digits))
			return false;
		p += strspn(p, digits);
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
	if (!decimal_form(text)) {
		enum number_problem word = word_problem(text);
		*out = word == NUMBER_INFINITE ? (*text == '-' ? -INFINITY : INFINITY) : NAN;
		return word;
	}
	errno = 0;
	*out = strtod(text, NULL);
	if (errno == ERANGE)
		return fabs(*out) >= 1.0 ? NUMBER_OVERFLOW : NUMBER_UNDERFLOW;
	return NUMBER_OK;
}

enum number_problem number_parse_whole(const char *text, long long *out)
{
	*out = 0;
	const char *p = text + (*text == '-');
	size_t digits = strspn(p, "0123456789");
	if (!digits || p[digits])
		return NUMBER_NOT_A_NUMBER;
	errno = 0;
	long long v = strtoll(text, NULL, 10);
	*out = v;
	return errno == ERANGE ? NUMBER_OVERFLOW : NUMBER_OK;
}

/* Decimal digits as one number (the first the most significant), eight or four at a time in a
 * few multiplications instead of one dependent step per digit: ten million lines hold seventy
 * million numbers. False when the bytes are not all digits. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define DIGIT_WORDS 1
/* The eight characters of w (the first in its low byte). */
static bool eight_digits_of_word(uint64_t w, uint64_t *value)
{
	const uint64_t high = 0xF0F0F0F0F0F0F0F0ULL, zeros = 0x3030303030303030ULL;
	/* Each byte '0'..'9': its high nibble is 3, and adding 6 does not carry out of the low one. */
	if ((w & high) != zeros || ((w + 0x0606060606060606ULL) & high) != zeros)
		return false;
	w -= zeros;                 /* byte k: digit k (byte 0 is the first character) */
	w = w * 10 + (w >> 8);      /* bytes 0, 2, 4, 6: the two-digit numbers 01, 23, 45, 67 */
	const uint64_t pairs = 0x000000FF000000FFULL;
	*value = ((w & pairs) * (100 + (1000000ULL << 32)) +
	          ((w >> 16) & pairs) * (1 + (10000ULL << 32))) >> 32;
	return true;
}
#endif

/* Why it is strtod's value: up to 15 digits make an integer exact in a double and a power of
 * ten up to 10^22 is exact too, so one correctly rounded division gives the correctly rounded
 * value (Clinger's fast path). */
bool number_parse_plain(const char *text, size_t len, double *out)
{
	static const double pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	                                1e11, 1e12, 1e13, 1e14, 1e15 };
	uint64_t mantissa = 0;
	int digits = 0, decimals = 0;
	const char *p = text, *end = text + len;
#ifdef DIGIT_WORDS
	/* The runner's own form, "d.dddddd" (%.6f of a time under 10 s), in one word: the point
	 * replaced by the digit before it and a '0' put first, it reads as the eight digits of
	 * d * 10^6 + dddddd. */
	if (len == 8 && text[1] == '.') {
		uint64_t w, some;
		memcpy(&w, text, sizeof w);
		w = (w & ~0xFFFFULL) | (w & 0xFF) << 8 | '0';
		if (eight_digits_of_word(w, &some)) {
			*out = (double)some / 1e6;
			return true;
		}
	}
#endif
	for (; p < end && *p >= '0' && *p <= '9'; p++, digits++)
		mantissa = mantissa * 10 + (uint64_t)(*p - '0');
	if (p < end && *p == '.') {
		p++;
#ifdef DIGIT_WORDS
		/* Eight digits, then four, at once where they fit: four as one word after four '0's. */
		for (int n = 8; n >= 4; n -= 4) {
			uint64_t w = 0x3030303030303030ULL, some;
			if (end - p < n || digits + n > 15)
				continue;
			memcpy((char *)&w + (8 - n), p, (size_t)n);
			if (!eight_digits_of_word(w, &some))
				continue;
			mantissa = mantissa * (n == 8 ? 100000000 : 10000) + some;
			digits += n;
			decimals += n;
			p += n;
		}
#endif
		for (; p < end && *p >= '0' && *p <= '9'; p++, digits++, decimals++)
			mantissa = mantissa * 10 + (uint64_t)(*p - '0');
	}
	if (p != end || digits == 0 || digits > 15)
		return false;
	*out = (double)mantissa / pow10[decimals];
	return true;
}
