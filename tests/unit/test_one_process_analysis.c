/*
 * test_one_process_analysis.c — a folder of `run --one-process` (meta.json's settings.one_process
 * and metric) as the analysis reads it: one samples.csv row per trial in every placement, wall
 * time by default, user time when asked, and the SMT yield of one process by wall time (the
 * baseline's wall time over the sibling's, no factor 2) from known synthetic samples; a folder
 * without meta.json, or with a hostile one (not JSON, a FIFO, other values), is read as copies
 * by user time, never hanging.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "tests/harness.h"
#include "tests/unit/analysis_testdata.h"

static char tmp_root[] = "/tmp/smtbench-test-one-process.XXXXXX";

#define BLOCKS 30

/* The truth: by wall time the sibling pair takes 0.8 of the one PU's time (yield 1 / 0.8 =
 * 1.25) and two cores 0.5; by user time the sibling's threads take 1.6 times their time alone
 * (yield 2 / 1.6 = 1.25) and two cores' the same as one PU's. */
static const struct { const char *name; double wall, user; } truth[] = {
	{ "solo", 1.0, 1.0 }, { "sibling", 0.8, 1.6 }, { "non-sibling", 0.5, 1.0 },
};
#define NTRUTH (sizeof truth / sizeof truth[0])

/* DIR/samples.csv: one row per trial, each placement once per block, with drift and noise;
 * placements from..NTRUTH-1 only. */
static void write_samples(const char *dir, size_t from, struct rng *r)
{
	mkdir(dir, 0755);
	char path[512];
	snprintf(path, sizeof path, "%s/samples.csv", dir);
	FILE *f = fopen(path, "w");
	if (!f)
		abort();
	fprintf(f, "trial,block,warmup,placement,proc,role,status,utime_s,wall_s\n");
	long trial = 0;
	double walk = 0;
	for (int b = 0; b < BLOCKS; b++) {
		walk += rng_normal(r, 0, 0.03);
		for (size_t k = from; k < NTRUTH; k++) {
			double noise = rng_normal(r, 0, 0.01);
			fprintf(f, "%ld,%d,0,%s,0,a,ok,%.6f,%.6f\n", trial++, b, truth[k].name,
			        truth[k].user * exp(walk + noise), truth[k].wall * exp(walk + noise));
		}
	}
	fclose(f);
}

static void write_text(const char *dir, const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
}

static const char one_process_meta[] = "{\"settings\": {\"one_process\": true}, \"metric\": \"wall\"}\n";

/* DIR analysed as `report` does (the folder's metric), or with `metric` when given (>= 0). */
static struct analysis_result *analyze(const char *dir, int metric, struct analysis_dataset **out)
{
	char err[512] = "";
	struct analysis_dataset *d = metric < 0
	                             ? load_dir(dir, ANALYSIS_UNIT_TRIAL, err, sizeof err)
	                             : load_dir_as(dir, &(struct analysis_take){ .unit = ANALYSIS_UNIT_TRIAL, .metric_given = true, .metric = (enum analysis_metric)metric, .exclude_contaminated = false }, err, sizeof err);
	if (!d) {
		printf("# load %s: %s\n", dir, err);
		return NULL;
	}
	struct analysis_options opt;
	analysis_options_init(&opt);
	struct analysis_result *res = analysis_run(d, &opt, err, sizeof err);
	if (!res)
		printf("# analyze %s: %s\n", dir, err);
	*out = d;
	return res;
}

static size_t samples_of(const struct analysis_dataset *d, const char *placement)
{
	int g = analysis_dataset_find(d, placement);
	return g < 0 ? 0 : d->groups[g].n;
}

static void test_one_process_folder(void)
{
	struct rng r = { 7 };
	char dir[256];
	snprintf(dir, sizeof dir, "%s/one", tmp_root);
	write_samples(dir, 0, &r);
	write_text(dir, "meta.json", one_process_meta);

	bool one = false;
	CHECK(folder_metric_of(dir, &one) == ANALYSIS_METRIC_WALL && one,
	      "meta.json's settings.one_process and metric wall: the folder's metric is wall time");
	struct analysis_dataset *d = NULL;
	struct analysis_result *res = analyze(dir, -1, &d);
	CHECK(d && d->metric == ANALYSIS_METRIC_WALL && d->one_process && d->warning_count == 0,
	      "loaded by wall time, as one process per trial, with no warning (%zu)",
	      d ? d->warning_count : 0);
	CHECK(d && samples_of(d, "solo") == BLOCKS && samples_of(d, "sibling") == BLOCKS
	      && samples_of(d, "non-sibling") == BLOCKS,
	      "every one-row trial of every placement is a sample (%d each)", BLOCKS);
	const struct analysis_smt_yield *y = res ? &res->smt_yield : NULL;
	CHECK(y && y->known && y->one_process && !strcmp(y->baseline, "solo")
	      && y->ci[0] < 1.25 && 1.25 < y->ci[1] && fabs(y->mean - 1.25) < 0.02,
	      "one process by wall time: SMT yield = solo's wall / sibling's wall = 1 / 0.8 = 1.25 "
	      "(got %.4f, %.4f-%.4f)", y ? y->mean : NAN, y ? y->ci[0] : NAN, y ? y->ci[1] : NAN);
	analysis_result_free(&res);
	analysis_dataset_free(&d);

	res = analyze(dir, ANALYSIS_METRIC_USER, &d);
	y = res ? &res->smt_yield : NULL;
	CHECK(d && d->metric == ANALYSIS_METRIC_USER && d->one_process && samples_of(d, "sibling") == BLOCKS,
	      "--metric user reads the same one-row trials by user time");
	CHECK(y && y->known && !y->one_process && y->ci[0] < 1.25 && 1.25 < y->ci[1],
	      "…and its yield is the copies' 2 x solo / sibling per thread: 2 / 1.6 = 1.25 (got %.4f, "
	      "%.4f-%.4f)", y ? y->mean : NAN, y ? y->ci[0] : NAN, y ? y->ci[1] : NAN);
	analysis_result_free(&res);
	analysis_dataset_free(&d);

	/* Without a one-PU baseline: two cores are not one core's baseline for one process. */
	snprintf(dir, sizeof dir, "%s/no-baseline", tmp_root);
	write_samples(dir, 1, &r);
	write_text(dir, "meta.json", one_process_meta);
	res = analyze(dir, -1, &d);
	CHECK(res && !res->smt_yield.known,
	      "one process on sibling and non-sibling only: no yield (non-sibling is two cores)");
	analysis_result_free(&res);
	analysis_dataset_free(&d);
}

static void test_meta_json_decides(void)
{
	struct rng r = { 11 };
	char dir[256];
	snprintf(dir, sizeof dir, "%s/no-meta", tmp_root);
	write_samples(dir, 0, &r);
	bool one = true;
	CHECK(folder_metric_of(dir, &one) == ANALYSIS_METRIC_USER && !one,
	      "no meta.json: copies, by user time");
	struct analysis_dataset *d = NULL;
	struct analysis_result *res = analyze(dir, -1, &d);
	CHECK(d && samples_of(d, "sibling") == 0 && samples_of(d, "solo") == BLOCKS
	      && d->warning_count > 0,
	      "…so a sibling trial of one row is a copy missing its partner: skipped, warned (%zu)",
	      d ? d->warning_count : 0);
	analysis_result_free(&res);
	analysis_dataset_free(&d);

	static const struct { const char *meta, *what; enum analysis_metric metric; bool one; } cases[] = {
		{ "{\"settings\": {\"one_process\": true}}\n", "one_process without a metric: wall",
		  ANALYSIS_METRIC_WALL, true },
		{ "{\"settings\": {\"one_process\": true}, \"metric\": \"user\"}\n",
		  "a recorded metric user wins", ANALYSIS_METRIC_USER, true },
		{ "{\"settings\": {\"one_process\": \"yes\"}, \"metric\": 7}\n",
		  "values of the wrong type: copies, user", ANALYSIS_METRIC_USER, false },
		{ "{\"settings\": {\"one_process\": false}, \"metric\": \"wall\"}\n",
		  "copies with a recorded metric wall", ANALYSIS_METRIC_WALL, false },
		{ "not json {", "not JSON: copies, user", ANALYSIS_METRIC_USER, false },
		{ "[1, 2]", "a JSON array: copies, user", ANALYSIS_METRIC_USER, false },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		write_text(dir, "meta.json", cases[i].meta);
		one = !cases[i].one;
		enum analysis_metric m = folder_metric_of(dir, &one);
		CHECK(m == cases[i].metric && one == cases[i].one, "meta.json: %s", cases[i].what);
	}
	char path[512];
	snprintf(path, sizeof path, "%s/meta.json", dir);
	unlink(path);
	if (mkfifo(path, 0600) != 0) {
		test_skip("mkfifo failed in the test's temporary folder: a FIFO meta.json is not "
		          "checked");
		return;
	}
	CHECK(folder_metric_of(dir, &one) == ANALYSIS_METRIC_USER && !one,
	      "a FIFO named meta.json is not opened for reading (no hang): copies, user");
	unlink(path);
}

int main(void)
{
	if (!mkdtemp(tmp_root)) {
		printf("# mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	test_one_process_folder();
	test_meta_json_decides();
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmp_root);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tmp_root);
	return test_done("test_one_process_analysis");
}
