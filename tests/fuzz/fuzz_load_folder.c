/* fuzz_load_folder.c — analysis_load_folder (both units) on an arbitrary samples.csv, then the
 * analysis and its outputs on whatever loaded; and the file read in 1 and in 3 parts must give
 * the same samples and warnings (a difference aborts, which the fuzzer reports). */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "report/report.h"
#include "tests/fuzz/fuzz_common.h"
#include "tests/unit/analysis_testdata.h"

/* The part count must not matter: same points, same warnings, in the same order. */
static void same_in_parts(enum analysis_unit unit)
{
	char err[512];
	struct analysis_dataset *one = load_dir_parts(fuzz_dir(), &(struct analysis_take){ .unit = unit, .exclude_contaminated = false }, 1, err, sizeof err);
	struct analysis_dataset *three = load_dir_parts(fuzz_dir(), &(struct analysis_take){ .unit = unit, .exclude_contaminated = false }, 3, err, sizeof err);
	if (!one || !three) {
		if (!one != !three)
			abort();
	} else {
		if (one->point_count != three->point_count || one->warning_count != three->warning_count)
			abort();
		for (size_t i = 0; i < one->point_count; i++)
			if (one->points[i].trial != three->points[i].trial ||
			    memcmp(&one->points[i].value_s, &three->points[i].value_s, sizeof(double)))
				abort();
		for (size_t i = 0; i < one->warning_count; i++)
			if (strcmp(one->warnings[i], three->warnings[i]))
				abort();
	}
	analysis_dataset_free(&one);
	analysis_dataset_free(&three);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_write("samples.csv", data, size);
	char err[512];
	for (int unit = ANALYSIS_UNIT_TRIAL; unit <= ANALYSIS_UNIT_PROCESS; unit++) {
		same_in_parts(unit);
		struct analysis_dataset *d = load_dir(fuzz_dir(), unit, err, sizeof err);
		if (!d)
			continue;
		struct analysis_options opt;
		analysis_options_init(&opt);
		opt.grid_points = ANALYSIS_GRID_MIN; /* the loader is the target; keep runs fast */
		struct analysis_result *r = analysis_run(d, &opt, err, sizeof err);
		if (r) {
			FILE *null = fopen("/dev/null", "w");
			if (null) {
				analyze_print(null, r);
				fclose(null);
			}
			json_t *j = analyze_json(r);
			char *text = json_dumps(j, 0);
			free(text);
			json_decref(j);
		}
		analysis_result_free(&r);
		analysis_dataset_free(&d);
	}
	return 0;
}
