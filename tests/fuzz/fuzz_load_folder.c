/* fuzz_load_folder.c — analysis_load_folder (both units) on an arbitrary samples.csv, then the
 * analysis and its outputs on whatever loaded. */
#include "analysis/analysis.h"
#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_write("samples.csv", data, size);
	char err[512];
	for (int unit = ANALYSIS_UNIT_TRIAL; unit <= ANALYSIS_UNIT_PROCESS; unit++) {
		struct analysis_dataset *d = analysis_load_folder(fuzz_dir(), unit, err, sizeof err);
		if (!d)
			continue;
		struct analysis_options opt;
		analysis_options_init(&opt);
		opt.grid_points = ANALYSIS_GRID_MIN; /* the loader is the target; keep runs fast */
		struct analysis_result *r = analysis_run(d, &opt, err, sizeof err);
		if (r) {
			FILE *null = fopen("/dev/null", "w");
			if (null) {
				analysis_print_text(null, r);
				fclose(null);
			}
			json_t *j = analysis_result_json(r);
			char *text = json_dumps(j, 0);
			free(text);
			json_decref(j);
		}
		analysis_result_free(&r);
		analysis_dataset_free(&d);
	}
	return 0;
}
