/* The one number rule (common/number.h): what every reader takes as a number, and what not. */
#include <math.h>

#include "common/number.h"
#include "tests/harness.h"

static void test_real(void)
{
	static const struct { const char *text; double value; } good[] = {
		{ "0.25", 0.25 }, { "12", 12 }, { "3.", 3 }, { ".5", 0.5 }, { "-2", -2 },
		{ "+1.5", 1.5 }, { "2.5e-3", 2.5e-3 }, { "1E2", 100 }, { "0", 0 }, { "0e-400", 0 },
		{ "2.2250738585072014e-308", 2.2250738585072014e-308 },
	};
	for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
		double v;
		enum number_problem p = number_parse_real(good[i].text, &v);
		CHECK(p == NUMBER_OK && v == good[i].value, "'%s' is the number %g", good[i].text,
		      good[i].value);
	}
	static const struct { const char *text; enum number_problem problem; } bad[] = {
		{ "", NUMBER_NOT_A_NUMBER }, { " 1", NUMBER_NOT_A_NUMBER },
		{ "1 ", NUMBER_NOT_A_NUMBER }, { "\t1", NUMBER_NOT_A_NUMBER },
		{ "0x10", NUMBER_NOT_A_NUMBER }, { "0X1p3", NUMBER_NOT_A_NUMBER },
		{ "1.5s", NUMBER_NOT_A_NUMBER }, { "1e", NUMBER_NOT_A_NUMBER },
		{ ".", NUMBER_NOT_A_NUMBER }, { "-", NUMBER_NOT_A_NUMBER },
		{ "1.2.3", NUMBER_NOT_A_NUMBER }, { "1,5", NUMBER_NOT_A_NUMBER },
		{ "nan", NUMBER_NAN }, { "-NaN", NUMBER_NAN }, { "inf", NUMBER_INFINITE },
		{ "Infinity", NUMBER_INFINITE }, { "nan(0x1)", NUMBER_NOT_A_NUMBER },
		{ "1e-320", NUMBER_UNDERFLOW }, { "4.9e-324", NUMBER_UNDERFLOW },
		{ "1e-400", NUMBER_UNDERFLOW }, { "1e400", NUMBER_OVERFLOW },
		{ "-1e400", NUMBER_OVERFLOW },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		double v;
		enum number_problem p = number_parse_real(bad[i].text, &v);
		CHECK_INT(p, bad[i].problem, bad[i].text[0] ? bad[i].text : "(empty)");
	}
}

static void test_whole(void)
{
	long long v;
	enum number_problem p = number_parse_whole("42", &v);
	CHECK(p == NUMBER_OK && v == 42, "'42' is a whole number");
	p = number_parse_whole("-7", &v);
	CHECK(p == NUMBER_OK && v == -7, "'-7' is a whole number");
	p = number_parse_whole("9223372036854775807", &v);
	CHECK(p == NUMBER_OK && v == 9223372036854775807LL, "the largest long long is one");
	p = number_parse_whole("9223372036854775808", &v);
	CHECK_INT(p, NUMBER_OVERFLOW, "one past the largest long long overflows");
	static const char *const bad[] = { "", " 1", "1 ", "+1", "0x10", "1.0", "1e3", "-", "12a" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		p = number_parse_whole(bad[i], &v);
		CHECK_INT(p, NUMBER_NOT_A_NUMBER, bad[i][0] ? bad[i] : "(empty)");
	}
}

int main(void)
{
	test_real();
	test_whole();
	return test_done("test_number");
}
