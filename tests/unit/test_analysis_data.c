/*
 * Loading data: a results folder (columns by name, warm-ups excluded, failed trials counted,
 * damaged lines reported with their line number and skipped, the rest analysed; overlap and
 * wall-time diagnostics; run order kept for plots) and plain files (errors name file and line).
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/harness.h"
#include "report/report.h"
#include "tests/unit/analysis_testdata.h"

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

/* Columns in a different order than the contract, with an extra one: selected by name. */
static const char *csv =
	"placement,trial,extra,warmup,proc,role,status,utime_s,stime_s,wall_s,overlap\n"
	"sibling,0,x,1,0,a,ok,9.0,0.01,9.1,1\n"          /* warm-up */
	"sibling,0,x,1,1,a,ok,9.2,0.01,9.3,1\n"
	"sibling,1,x,0,0,a,ok,2.0,0.01,2.1,0.95\n"
	"sibling,1,x,0,1,a,ok,2.2,0.01,2.3,0.95\n"
	"non-sibling,2,x,0,0,a,ok,1.0,0.01,1.1,0.5\n"    /* poor overlap */
	"non-sibling,2,x,0,1,a,ok,1.2,0.01,5.0,0.5\n"    /* wall far above CPU */
	"sibling,3,x,0,0,a,ok,2.1,0.01,2.2,0.99\n"
	"sibling,3,x,0,1,a,signal,,,,0.99\n"             /* a failed trial */
	"non-sibling,4,x,0,0,a,ok,1.1\n"                 /* damaged: too few fields */
	"non-sibling,4,x,0,1,a,ok,1.3,0.01,1.4,0.97\n"
	"sibling,5,x,0,0,a,ok,2.3,0.01,2.4,0.98\n"
	"sibling,5,x,0,1,a,ok,2.5,0.01,2.6,0.98\n"
	"non-sibling,6,x,0,0,a,ok,1.4,0.01,1.5,0.96\n"
	"non-sibling,6,x,0,1,a,ok,1.6,0.01,1.7,0.96\n"
	"non-sibling,7,x,0,0,a,ok,1.5,0.01,1.6,0.96\n"
	"non-sibling,7,x,0,1,a,ok,1.7,0.01,1."; /* cut short: no end of line */

int main(void)
{
	char dir[] = "/tmp/smtbench-test-analysis-XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	char path[256], path_b[256], err[512] = "";
	snprintf(path, sizeof path, "%s/samples.csv", dir);
	write_file(path, csv);

	struct analysis_dataset *d = load_dir(dir, ANALYSIS_UNIT_TRIAL, err, sizeof err);
	if (CHECK(d != NULL, "damaged folder loads: %s", d ? "ok" : err)) {
		int sib = analysis_dataset_find(d, "sibling"), non = analysis_dataset_find(d, "non-sibling");
		CHECK(sib == 0 && non == 1, "groups in the stable placement order");
		CHECK_INT(d->groups[sib].n, 2, "sibling: 2 trials (warm-up and failed trial excluded)");
		CHECK_NEAR(d->groups[sib].values_s[0], 2.1, 1e-12, "a trial is the mean of its role-a rows");
		CHECK_INT(d->groups[sib].failed_trials, 1, "sibling: one failed trial counted");
		CHECK_INT(d->warmup_trials, 1, "one warm-up trial");
		CHECK_INT(d->groups[non].n, 2, "non-sibling: trials 2 and 6 (4 and 7 damaged)");
		CHECK_INT(d->warning_count, 4, "four warnings");
		bool line10 = false, line17 = false;
		for (size_t i = 0; i < d->warning_count; i++) {
			printf("# warning: %s\n", d->warnings[i]);
			line10 = line10 || strstr(d->warnings[i], "samples.csv:10: 8 fields where the header has 11");
			line17 = line17 || strstr(d->warnings[i], "samples.csv:17: the last line has no end of line");
		}
		CHECK(line10, "the short line is reported with its line number");
		CHECK(line17, "the cut-short last line is reported with its line number");
		CHECK_INT(d->groups[non].poor_overlap_trials, 1, "poor overlap counted");
		CHECK_INT(d->groups[non].wall_above_cpu_trials, 1, "wall far above CPU counted");
		CHECK_INT(d->groups[non].overlap_known, 2, "overlap known for both non-sibling trials");
		/* Plots: every sample in run order, warm-ups flagged. */
		CHECK(d->point_count == 5 && d->points[0].warmup && d->points[0].trial == 0 &&
		      !d->points[1].warmup && d->points[1].trial == 1 && d->points[2].trial == 2,
		      "points in run order with the warm-up flagged");
		struct analysis_options opt;
		analysis_options_init(&opt);
		struct analysis_result *r = analysis_run(d, &opt, err, sizeof err);
		if (CHECK(r != NULL, "the rest is analysed: %s", r ? "ok" : err)) {
			CHECK(r->comparison_count == 1 && !strcmp(comparison_kind_name(r->comparisons[0].kind), "headline"),
			      "only the comparison with data: the headline");
			CHECK_INT(r->data->warning_count, 4, "the result carries the warnings");
			json_t *j = analyze_json(r);
			CHECK(json_array_size(json_object_get(j, "comparisons")) == 1 &&
			      json_array_size(json_object_get(j, "warnings")) == 4 &&
			      json_is_string(json_object_get(j, "unit")),
			      "folder JSON: comparisons, warnings, unit");
			json_decref(j);
		}
		analysis_result_free(&r);
	}
	analysis_dataset_free(&d);
	CHECK(d == NULL, "analysis_dataset_free sets the pointer to NULL");

	d = load_dir(dir, ANALYSIS_UNIT_PROCESS, err, sizeof err);
	if (CHECK(d != NULL, "unit process loads")) {
		CHECK_INT(d->groups[0].n, 4, "unit process: every role-a time of the good trials");
	}
	analysis_dataset_free(&d);

	/* Fuzzing (tests/fuzz/fuzz_load_folder): a header and only damaged lines left no row, and
	 * qsort was handed the NULL row array; it loads as an empty dataset with the warning. */
	write_file(path, "trial,warmup,placement,role,status,utime_s\nx,0,solo,a,ok,1\n");
	d = load_dir(dir, ANALYSIS_UNIT_TRIAL, err, sizeof err);
	if (CHECK(d != NULL, "a folder whose every line is damaged loads: %s", d ? "ok" : err)) {
		CHECK_INT(d->group_count, 0, "no placement without a good row");
		CHECK(d->warning_count == 1 && strstr(d->warnings[0], "samples.csv:2: bad 'trial' value"),
		      "the damaged line is the one warning");
	}
	analysis_dataset_free(&d);

	write_file(path, "trial,placement,role,status\n0,solo,a,ok\n");
	d = load_dir(dir, ANALYSIS_UNIT_TRIAL, err, sizeof err);
	CHECK(!d && strstr(err, "no 'warmup' column"), "a header without a required column: %s", err);
	unlink(path);
	d = load_dir(dir, ANALYSIS_UNIT_TRIAL, err, sizeof err);
	CHECK(!d && strstr(err, "samples.csv: cannot open"), "no samples.csv: %s", err);

	/* Plain files: comments, blank lines; and each error names the file and line. */
	snprintf(path, sizeof path, "%s/a.txt", dir);
	snprintf(path_b, sizeof path_b, "%s/b.txt", dir);
	write_file(path, "# times\n1.5\n\n  1.6  # second\n1.7\n");
	write_file(path_b, "2.0\n2.1\n");
	d = analysis_load_files(path, path_b, err, sizeof err);
	CHECK(d && d->groups[0].n == 3 && d->groups[1].n == 2 && d->groups[0].values_s[1] == 1.6,
	      "comments and blank lines skipped");
	analysis_dataset_free(&d);
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "1.0\nabc\n", ":2: 'abc' is not a number" },
		{ "1.0\n2.0\nnan\n", ":3: NaN is not a time" },
		{ "inf\n", ":1: an infinite time" },
		{ "1.0\n-3\n", ":2: negative time" },
		{ "1.0 2.0\n", ":1: '1.0 2.0' is not a number" },
		{ "# only one\n1.0\n", "1 sample(s); at least 2 are needed" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		write_file(path, bad[i].text);
		d = analysis_load_files(path, path_b, err, sizeof err);
		CHECK(!d && strstr(err, path) && strstr(err, bad[i].want), "bad file %zu: %s", i, err);
	}

	/* Fuzzing (tests/fuzz/fuzz_load_files), minimized: a time of 9e202 s made the grid's sums
	 * of squares infinite and its step NaN, converted to a size (UB). Refused with its line. */
	write_file(path, "31.19\n31.15\n3\n");
	write_file(path_b, "1.33\n11.54\n1\n9e202\n");
	d = analysis_load_files(path, path_b, err, sizeof err);
	CHECK(!d && strstr(err, path_b) && strstr(err, ":4: time 9e+202 s is too large"),
	      "a time above 1e100 s is refused: %s", err);
	analysis_dataset_free(&d);
	const double huge[] = { 1.0, 9e202 }, ones[] = { 1.0, 2.0 };
	d = analysis_dataset_from_arrays("A", ones, 2, "B", huge, 2, err, sizeof err);
	CHECK(!d && strstr(err, "B[1]: time 9e+202 s is too large"), "arrays too: %s", err);
	analysis_dataset_free(&d);
	/* In a folder the line is skipped with a warning, like any bad number. */
	snprintf(path, sizeof path, "%s/samples.csv", dir);
	write_file(path, "trial,warmup,placement,role,status,utime_s\n0,0,solo,a,ok,1\n"
	           "1,0,solo,a,ok,9e202\n2,0,solo,a,ok,2\n");
	d = load_dir(dir, ANALYSIS_UNIT_TRIAL, err, sizeof err);
	if (CHECK(d != NULL, "a folder with a huge time loads: %s", d ? "ok" : err)) {
		CHECK_INT(d->groups[0].n, 2, "the huge trial is not a sample");
		CHECK(d->warning_count == 1 && strstr(d->warnings[0], "samples.csv:3: 'utime_s' too large"),
		      "the huge time is the one warning");
	}
	analysis_dataset_free(&d);
	unlink(path);

	/* Subnormal times (found reading the code the fuzzer reached): the text's number format
	 * took the logarithm of a resolution that underflowed to 0 and converted infinity to int. */
	/* (Above 0: a time of 0 s is below the clock's resolution and no length, test_zero_times.) */
	const double tiny_a[] = { 1e-320, 2e-320 }, tiny_b[] = { 3e-320, 1e-320 };
	d = analysis_dataset_from_arrays("A", tiny_a, 2, "B", tiny_b, 2, err, sizeof err);
	struct analysis_options opt;
	analysis_options_init(&opt);
	struct analysis_result *r = d ? analysis_run(d, &opt, err, sizeof err) : NULL;
	if (CHECK(r != NULL, "subnormal times are analysed: %s", r ? "ok" : err)) {
		char *text = NULL;
		size_t text_len = 0;
		FILE *out = open_memstream(&text, &text_len);
		CHECK(out && analyze_print(out, r) == 0, "and printed");
		if (out)
			fclose(out);
		CHECK(text && strstr(text, "A and B"), "the text names the files");
		free(text);
	}
	analysis_result_free(&r);
	analysis_dataset_free(&d);

	snprintf(path, sizeof path, "%s/a.txt", dir);
	unlink(path);
	unlink(path_b);
	rmdir(dir);
	return test_done("test_analysis_data");
}
