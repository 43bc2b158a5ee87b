/*
 * test_contamination.c — the analysis side of a trial's health columns: foreign_s and steal_s
 * above ANALYSIS_CONTAMINATED_SHARE of the trial's duration flag it (counted per placement, left
 * out with exclude_contaminated), leftovers are counted per placement, and a samples.csv written
 * before these columns existed loads as it did.
 */
#include <stdlib.h>
#include <sys/stat.h>

#include "analysis/analysis.h"
#include "common/samples_csv.h"
#include "tests/harness.h"

static char base[] = "/tmp/smtbench-contamination-XXXXXX";

/* Writes DIR/samples.csv: header, then rows. */
static void write_csv(const char *dir, const char *header, const char *rows)
{
	char path[600];
	mkdir(dir, 0777);
	snprintf(path, sizeof path, "%s/samples.csv", dir);
	FILE *f = fopen(path, "w");
	if (f) {
		fprintf(f, "%s\n%s", header, rows);
		fclose(f);
	}
}

/* One solo row of the full schema: trial, wall_s, foreign_s, steal_s, leftovers (per_cpu_s
 * empty: copies). */
static void solo_row(char *buf, size_t size, int trial, double utime, const char *wall,
                     const char *foreign, const char *steal, const char *leftovers)
{
	snprintf(buf, size, "%d,%d,0,solo,0,a,0,nop,ok,0,,%.3f,0,%s,0,1,0,0,0,1,,,"
	         "2026-01-01T00:00:00Z,%s,%s,%s,\n", trial, trial, utime, wall, foreign, steal,
	         leftovers);
}

static void test_flags_and_exclusion(void)
{
	char dir[600], rows[4096] = "", row[256];
	snprintf(dir, sizeof dir, "%s/new", base);
	/* Ten clean trials of 1 s; trial 3 with 0.2 s foreign (20%: flagged), trial 5 with 0.2 s
	 * steal (flagged), trial 7 with 0.1 s foreign (10%: not above the share), trial 8 with
	 * unknown foreign (empty: never flagged); trials 2 and 9 left one process each. */
	for (int t = 0; t < 10; t++) {
		solo_row(row, sizeof row, t, t == 3 || t == 5 ? 9.0 : 1.0 + 0.01 * t, "1.0",
		         t == 3 ? "0.200" : t == 7 ? "0.100" : t == 8 ? "" : "0.010",
		         t == 5 ? "0.200" : "0.000", t == 2 || t == 9 ? "1" : "0");
		strcat(rows, row);
	}
	write_csv(dir, SAMPLES_CSV_HEADER, rows);
	char err[512] = "";
	struct analysis_dataset *d = analysis_load_folder(dir, ANALYSIS_UNIT_TRIAL, err, sizeof err);
	if (!CHECK(d != NULL, "a folder with the new columns loads (%s)", err))
		return;
	const struct analysis_group *g = &d->groups[0];
	CHECK_INT(g->contaminated_trials, 2, "foreign or steal above 10% of the duration: 2 trials");
	CHECK_INT(g->contamination_known, 9, "a trial with an empty foreign_s is not judged");
	CHECK_INT(g->n, 10, "without exclusion every trial is a sample");
	CHECK(g->leftover_trials == 2 && g->leftovers == 2, "2 trials left 1 process each (%zu, %zu)",
	      g->leftover_trials, g->leftovers);
	analysis_dataset_free(&d);

	d = analysis_load_folder_excluding(dir, ANALYSIS_UNIT_TRIAL, true, err, sizeof err);
	if (!CHECK(d != NULL, "exclude_contaminated loads (%s)", err))
		return;
	g = &d->groups[0];
	double max = 0;
	for (size_t i = 0; i < g->n; i++)
		max = g->values_s[i] > max ? g->values_s[i] : max;
	CHECK(g->n == 8 && d->excluded_contaminated == 2 && max < 2,
	      "exclude_contaminated: the two flagged trials (9 s each) are left out: n %zu, "
	      "excluded %zu, largest %g s", g->n, d->excluded_contaminated, max);
	analysis_dataset_free(&d);
}

static void test_old_header(void)
{
	char dir[600], rows[2048] = "", row[256];
	snprintf(dir, sizeof dir, "%s/old", base);
	for (int t = 0; t < 4; t++) {
		snprintf(row, sizeof row, "%d,%d,0,solo,0,a,0,nop,ok,0,,1.%d,0,1.0,0,1,0,0,0,1,,,"
		         "2026-01-01T00:00:00Z\n", t, t, t);
		strcat(rows, row);
	}
	write_csv(dir, "trial,block,warmup,placement,proc,role,pu,workload,status,exit_code,"
	          "signal,utime_s,stime_s,wall_s,start_s,end_s,nvcsw,nivcsw,maxrss_kb,overlap,"
	          "freq_mhz,loadavg_1m,started_utc", rows);
	char err[512] = "";
	struct analysis_dataset *d = analysis_load_folder_excluding(dir, ANALYSIS_UNIT_TRIAL, true,
	                                                            err, sizeof err);
	if (!CHECK(d != NULL, "a header without foreign_s, steal_s, leftovers loads (%s)", err))
		return;
	CHECK(d->groups[0].n == 4 && d->warning_count == 0 && d->excluded_contaminated == 0 &&
	      d->groups[0].contamination_known == 0 && d->groups[0].leftover_trials == 0,
	      "…every trial a sample, no warning, nothing judged or excluded");
	analysis_dataset_free(&d);
}

int main(void)
{
	if (!mkdtemp(base)) {
		perror("mkdtemp");
		return 1;
	}
	test_flags_and_exclusion();
	test_old_header();
	char cmd[700];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", base);
	return test_done("test_contamination");
}
