/*
 * test_per_cpu.c — samples.csv's per_cpu_s (run --one-process: the process's CPU time on each
 * CPU it was given): its form written and read back, hostile text refused, the rule that a
 * trial's process ran on one of its CPUs (SAMPLES_UNSPREAD_SHARE), the count per placement the
 * analysis makes of it, the report's warning that names it, and folders without the column
 * read as before.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/analysis.h"
#include "common/samples_csv.h"
#include "report/report.h"
#include "tests/harness.h"

static char base[] = "/tmp/smtbench-per-cpu-XXXXXX";

/* What makes a folder one process's (one row per trial in every placement), judged by wall. */
#define ONE_PROCESS_META "{\"settings\": {\"one_process\": true}, \"metric\": \"wall\"}\n"

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

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[600];
	mkdir(dir, 0777);
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* A one-process folder of n blocks of solo and non-sibling: non-sibling's process ran on one
 * of CPUs 1,0 in the blocks unspread[] marks (all of its time on CPU 1), on both otherwise;
 * per_cpu_text, when not NULL, replaces block 0's non-sibling value as written. */
static void write_folder(const char *dir, int n, const bool *unspread, const char *per_cpu_text)
{
	char rows[8192] = "", row[400];
	long trial = 0;
	for (int b = 0; b < n; b++) {
		for (int k = 0; k < 2; k++) {
			bool solo = k == 0;
			char per_cpu[64];
			if (solo)
				snprintf(per_cpu, sizeof per_cpu, "1:0.200000");
			else if (unspread[b])
				snprintf(per_cpu, sizeof per_cpu, "1:0.199000;0:0.001000");
			else
				snprintf(per_cpu, sizeof per_cpu, "1:0.101000;0:0.099000");
			if (!solo && b == 0 && per_cpu_text)
				snprintf(per_cpu, sizeof per_cpu, "%s", per_cpu_text);
			double wall = solo ? 0.2 : unspread[b] ? 0.2 : 0.1;
			snprintf(row, sizeof row, "%ld,%d,0,%s,0,a,1,work,ok,0,,0.195,0.005,%.3f,0,1,0,0,0,"
			         "1,,,2026-01-01T00:00:00Z,0.000,0.000,0,%s\n", trial++, b,
			         solo ? "solo" : "non-sibling", wall, per_cpu);
			strcat(rows, row);
		}
	}
	char text[9000];
	snprintf(text, sizeof text, "%s\n%s", SAMPLES_CSV_HEADER, rows);
	write_file(dir, "samples.csv", text);
	write_file(dir, "meta.json", ONE_PROCESS_META);
}

static const struct analysis_group *group(const struct analysis_dataset *d, const char *name)
{
	int i = analysis_dataset_find(d, name);
	return i >= 0 ? &d->groups[i] : NULL;
}

/* The summary's warning about trials that did not spread (its line), or NULL. */
static const char *unspread_warning(const char *dir)
{
	static char found[2048];
	char err[512] = "";
	struct report *rep = report_new(dir, err, sizeof err);
	if (!rep) {
		fprintf(stderr, "# report_new: %s\n", err);
		return NULL;
	}
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (mem) {
		report_print_summary(rep, false, mem);
		fclose(mem);
	}
	report_free(&rep);
	const char *hit = text ? strstr(text, "ran on one of its") : NULL;
	if (hit) {
		const char *start = hit, *end = strchr(hit, '\n');
		while (start > text && start[-1] != '\n')
			start--;
		snprintf(found, sizeof found, "%.*s", (int)((end ? end : hit + strlen(hit)) - start),
		         start);
	}
	free(text);
	return hit ? found : NULL;
}

static void test_counted_and_warned(void)
{
	char dir[600];
	snprintf(dir, sizeof dir, "%s/unspread", base);
	const bool unspread[6] = { true, false, true, true, false, false };
	write_folder(dir, 6, unspread, NULL);
	char err[512] = "";
	struct analysis_dataset *d = analysis_load_folder(dir, ANALYSIS_UNIT_TRIAL, err, sizeof err);
	if (!CHECK(d != NULL, "a one-process folder with per_cpu_s loads (%s)", err))
		return;
	const struct analysis_group *ns = group(d, "non-sibling"), *solo = group(d, "solo");
	CHECK(ns && ns->spread_known == 6 && ns->unspread_trials == 3 && ns->spread_cpus == 2,
	      "non-sibling: 3 of its 6 trials ran on one of its 2 CPUs (%zu of %zu, %d CPUs)",
	      ns ? ns->unspread_trials : 0, ns ? ns->spread_known : 0, ns ? ns->spread_cpus : 0);
	CHECK(solo && solo->spread_known == 0 && solo->unspread_trials == 0,
	      "solo's one CPU is never judged");
	CHECK(ns && ns->n == 6 && d->warning_count == 0,
	      "every trial is a sample all the same, and no line is damaged");
	analysis_dataset_free(&d);
	const char *w = unspread_warning(dir);
	CHECK(w && strstr(w, "In 3 of 6 non-sibling trials the process ran on one of its two CPUs"),
	      "the report warns: 'In 3 of 6 non-sibling trials the process ran on one of its two "
	      "CPUs' (%s)", w ? w : "no warning");
	CHECK(w && strstr(w, "per_cpu_s") && strstr(w, "90%"),
	      "…naming the column and the rule (90%% or more on one CPU)");

	snprintf(dir, sizeof dir, "%s/spread", base);
	const bool none[6] = { false };
	write_folder(dir, 6, none, NULL);
	d = analysis_load_folder(dir, ANALYSIS_UNIT_TRIAL, err, sizeof err);
	ns = d ? group(d, "non-sibling") : NULL;
	CHECK(ns && ns->spread_known == 6 && ns->unspread_trials == 0,
	      "a process that used both CPUs in every trial: none counted");
	analysis_dataset_free(&d);
	CHECK(!unspread_warning(dir), "…and the report has no such warning");
}

static void test_damaged_and_old(void)
{
	char dir[600];
	snprintf(dir, sizeof dir, "%s/damaged", base);
	const bool none[5] = { false };
	write_folder(dir, 5, none, "1:0.1;0:-1");
	char err[512] = "";
	struct analysis_dataset *d = analysis_load_folder(dir, ANALYSIS_UNIT_TRIAL, err, sizeof err);
	CHECK(d && d->warning_count == 1 && strstr(d->warnings[0], "samples.csv:3:")
	      && strstr(d->warnings[0], "per_cpu_s"),
	      "a bad per_cpu_s is a damaged line, warned about by its number and the column (%s)",
	      d && d->warning_count ? d->warnings[0] : err);
	analysis_dataset_free(&d);

	snprintf(dir, sizeof dir, "%s/empty", base);
	write_folder(dir, 5, none, "");
	d = analysis_load_folder(dir, ANALYSIS_UNIT_TRIAL, err, sizeof err);
	const struct analysis_group *ns = d ? group(d, "non-sibling") : NULL;
	CHECK(ns && ns->spread_known == 4 && ns->n == 5 && d->warning_count == 0,
	      "an empty per_cpu_s (not measured) is a sample that is not judged");
	analysis_dataset_free(&d);

	/* Written before per_cpu_s existed: the header stops at leftovers. */
	snprintf(dir, sizeof dir, "%s/old", base);
	char rows[2048] = "", row[300];
	for (int t = 0; t < 8; t++) {
		snprintf(row, sizeof row, "%d,%d,0,%s,0,a,1,work,ok,0,,0.195,0.005,0.1,0,1,0,0,0,1,,,"
		         "2026-01-01T00:00:00Z,0.000,0.000,0\n", t, t / 2, t % 2 ? "non-sibling" : "solo");
		strcat(rows, row);
	}
	char text[3000];
	snprintf(text, sizeof text, "trial,block,warmup,placement,proc,role,pu,workload,status,"
	         "exit_code,signal,utime_s,stime_s,wall_s,start_s,end_s,nvcsw,nivcsw,maxrss_kb,"
	         "overlap,freq_mhz,loadavg_1m,started_utc,foreign_s,steal_s,leftovers\n%s", rows);
	write_file(dir, "samples.csv", text);
	write_file(dir, "meta.json", ONE_PROCESS_META);
	d = analysis_load_folder(dir, ANALYSIS_UNIT_TRIAL, err, sizeof err);
	ns = d ? group(d, "non-sibling") : NULL;
	CHECK(ns && ns->n == 4 && ns->spread_known == 0 && d->warning_count == 0,
	      "a folder written before per_cpu_s loads as before: every trial, none judged, no "
	      "warning (%s)", d ? "" : err);
	analysis_dataset_free(&d);
	CHECK(!unspread_warning(dir), "…and its report says nothing of spreading");
}

int main(void)
{
	if (!mkdtemp(base)) {
		perror("mkdtemp");
		return 1;
	}
	test_form();
	test_rule();
	test_counted_and_warned();
	test_damaged_and_old();
	char cmd[700];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", base);
	return test_done("test_per_cpu");
}
