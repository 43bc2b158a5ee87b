/*
 * harness.h — a TAP-style test harness in one header (after Linux's kselftest.h).
 *
 * Each check prints "ok N - what" or "not ok N - what  # file:line"; a skip prints
 * "ok N - # SKIP why" (TAP's skip directive: counted as skipped, never as passed). test_done()
 * prints the plan "1..N" (at the end, as TAP allows, because checks run inside loops) and
 * "# NAME: N passed, N failed, N skipped", and returns the exit status. tests/run.sh counts the
 * lines of every test program, so a program that crashes half way still counts what it printed;
 * its missing plan and its non-zero exit make one more failure. A program that cannot run here at
 * all says so with test_skip_all().
 *
 * The counters are the test program's own state; library code has none of this.
 */
#ifndef SMTBENCH_TESTS_HARNESS_H
#define SMTBENCH_TESTS_HARNESS_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_passed, test_failed, test_skipped;

static inline int test_count(void)
{
	return test_passed + test_failed + test_skipped;
}

__attribute__((format(printf, 4, 5)))
static int test_check(int ok, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	printf("%sok %d - ", ok ? "" : "not ", test_count() + 1);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (!ok)
		printf("  # %s:%d", file, line);
	printf("\n");
	fflush(stdout);
	if (ok)
		test_passed++;
	else
		test_failed++;
	return ok;
}

/* CHECK(cond, "format", ...): the message says what behaviour is being checked. */
#define CHECK(cond, ...) test_check(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

#define CHECK_STR(got, want, what) \
	test_check((got) && strcmp((got), (want)) == 0, __FILE__, __LINE__, \
	           "%s: got \"%s\", want \"%s\"", (what), (got) ? (got) : "(null)", (want))

#define CHECK_INT(got, want, what) \
	test_check((long long)(got) == (long long)(want), __FILE__, __LINE__, \
	           "%s: got %lld, want %lld", (what), (long long)(got), (long long)(want))

/* |got - want| <= tol */
#define CHECK_NEAR(got, want, tol, what) \
	test_check(fabs((double)(got) - (double)(want)) <= (tol), __FILE__, __LINE__, \
	           "%s: got %.10g, want %.10g (tolerance %g)", (what), (double)(got), \
	           (double)(want), (double)(tol))

/* A check that cannot run here: `why` says what is missing and how to get it. */
static inline void test_skip(const char *why)
{
	printf("ok %d - # SKIP %s\n", test_count() + 1, why);
	fflush(stdout);
	test_skipped++;
}

/* The whole program cannot run here (kselftest's ksft_exit_skip): TAP's "1..0 # SKIP why", which
 * tests/run.sh counts as one skip with its reason. Call it before any check; it exits 0. */
static inline void test_skip_all(const char *why)
{
	printf("1..0 # SKIP %s\n", why);
	fflush(stdout);
	exit(0);
}

static inline int test_done(const char *name)
{
	printf("1..%d\n", test_count());
	printf("# %s: %d passed, %d failed, %d skipped\n", name, test_passed, test_failed,
	       test_skipped);
	return test_failed ? 1 : 0;
}

#endif
