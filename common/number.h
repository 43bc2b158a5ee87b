/*
 * number.h — the one rule for a number read as text, whatever it comes from: a file of times,
 * samples.csv (the analysis and the resume check), meta.json's text, a command-line option.
 *
 * A number is decimal and is the whole text: an optional sign, digits with at most one point,
 * an optional exponent ("0.25", "-3", "2.5e-3"). Refused: leading or trailing blanks, any
 * other trailing text, hexadecimal ("0x10", which strtod reads and no timer writes), "inf",
 * "nan", and a value that overflows or underflows (1e-320 reads as a subnormal that makes every
 * later ratio meaningless). Ranges are each caller's: this says only whether it is a number.
 */
#ifndef SMTBENCH_COMMON_NUMBER_H
#define SMTBENCH_COMMON_NUMBER_H

#include <stdbool.h>
#include <stddef.h>

enum number_problem {
	NUMBER_OK,
	NUMBER_NOT_A_NUMBER, /* not the form above (blanks, hex, other text, empty) */
	NUMBER_OVERFLOW,     /* beyond a double's range, or a whole number's */
	NUMBER_UNDERFLOW,    /* non-zero but below the smallest normal double (a subnormal or 0) */
	NUMBER_NAN,          /* "nan": said by name, as a reader's message may want to */
	NUMBER_INFINITE,     /* "inf", "infinity" */
};

/* text (NUL-terminated) as a real number into *out (set whatever the answer, for messages). */
enum number_problem number_parse_real(const char *text, double *out);

/* text as a whole number: an optional '-' then decimal digits, nothing else (no '+', no blank,
 * no point, no exponent); NUMBER_OVERFLOW beyond a long long. */
enum number_problem number_parse_whole(const char *text, long long *out);

/* A plain decimal ("0.250742", "12", "3.") of len bytes, exactly as strtod reads it (the same
 * double, bit for bit), quickly: the samples loader's numbers. False for any other text (a
 * sign, an exponent, more than 15 digits), which number_parse_real must read. */
bool number_parse_plain(const char *text, size_t len, double *out);

#endif
