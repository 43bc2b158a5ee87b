/*
 * test_per_cpu.c — samples.csv's per_cpu_s (run --one-process: the process's CPU time on each
 * CPU it was given): its form written and read back, hostile text refused, and the rule that a
 * trial's process ran on one of its CPUs (SAMPLES_UNSPREAD_SHARE).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/samples_csv.h"
#include "tests/harness.h"

static void test_form(void)
{
	char buf[SAMPLES_FIELD_LEN], *text = buf;
	const int cpus[] = { 2, 0 };
	const double seconds[] = { 0.0512034, 0.049 };
	samples_per_cpu_format(buf, sizeof buf, cpus, seconds, 2);
	CHECK_STR(text, "2:0.051203;0:0.049000", "two CPUs: CPU:seconds, ';' between, the "
	          "placement's order");
	samples_per_cpu_format(buf, sizeof buf, cpus, seconds, 0);
	CHECK_STR(text, "", "not measured: empty");
	int back[SAMPLES_PER_CPU_MAX];
	double secs[SAMPLES_PER_CPU_MAX];
	int n = samples_per_cpu_parse("2:0.051203;0:0.049000", 21, back, secs);
	CHECK(n == 2 && back[0] == 2 && back[1] == 0 && secs[0] == 0.051203 && secs[1] == 0.049,
	      "read back: 2 CPUs, 2 and 0, 0.051203 and 0.049 s (n %d)", n);
	CHECK_INT(samples_per_cpu_parse("", 0, back, secs), 0, "an empty field: no CPUs");
	CHECK(samples_per_cpu_parse("7:1.5", 5, back, secs) == 1 && back[0] == 7 && secs[0] == 1.5,
	      "one CPU");
	static const char *const hostile[] = {
		"2", "2:", ":0.1", "2:0.1;", ";2:0.1", "2:0.1;;0:0.2", "2:0.1;0:0.2;1:0.3", "a:0.1",
		"2:-0.1", "2:1e5", "2:nan", "2:inf", "2:0x10", "2: 0.1", "2:0.1 ", "12345678:0.1",
		"2:.", "2:0.1.2", "2:0.1:3",
	};
	int refused = 0;
	for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
		int got = samples_per_cpu_parse(hostile[i], strlen(hostile[i]), back, secs);
		if (got < 0)
			refused++;
		else
			fprintf(stderr, "# accepted: '%s' (%d)\n", hostile[i], got);
	}
	CHECK_INT(refused, (int)(sizeof hostile / sizeof hostile[0]), "every malformed, negative, "
	          "non-decimal or too long per_cpu_s is refused");
}

static void test_rule(void)
{
	CHECK_INT(samples_per_cpu_unspread((const double[]){ 0.2, 0.0 }, 2), 1,
	          "all of its time on one CPU: ran on one");
	CHECK_INT(samples_per_cpu_unspread((const double[]){ 0.0, 0.2 }, 2), 1,
	          "…whichever CPU it is");
	CHECK_INT(samples_per_cpu_unspread((const double[]){ 0.19, 0.01 }, 2), 1,
	          "5% on the other: ran on one");
	CHECK_INT(samples_per_cpu_unspread((const double[]){ 0.17, 0.03 }, 2), 0,
	          "15% on the other: it used both");
	CHECK_INT(samples_per_cpu_unspread((const double[]){ 0.1, 0.1 }, 2), 0,
	          "half on each: used both");
	CHECK_INT(samples_per_cpu_unspread((const double[]){ 0.2 }, 1), -1,
	          "one CPU given: nothing to tell");
	CHECK_INT(samples_per_cpu_unspread((const double[]){ 0, 0 }, 2), -1,
	          "no CPU time at all: nothing to tell");
}

int main(void)
{
	test_form();
	test_rule();
	return test_done("test_per_cpu");
}
