/* fuzz_load_files.c — analysis_load_files on two arbitrary plain files: the input is split at
 * its first NUL byte into file A and file B (no NUL: both files hold the whole input). */
#include "analysis/analysis.h"
#include "report/report.h"
#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	size_t size_a = nul ? (size_t)(nul - data) : size;
	const uint8_t *b = nul ? nul + 1 : data;
	size_t size_b = nul ? size - size_a - 1 : size;
	fuzz_write("a.txt", data, size_a);
	fuzz_write("b.txt", b, size_b);
	char path_a[256], path_b[256], err[1024];
	snprintf(path_a, sizeof path_a, "%s/a.txt", fuzz_dir());
	snprintf(path_b, sizeof path_b, "%s/b.txt", fuzz_dir());
	struct analysis_dataset *d = analysis_load_files(path_a, path_b, err, sizeof err);
	if (d) {
		struct analysis_options opt;
		analysis_options_init(&opt);
		opt.grid_points = ANALYSIS_GRID_MIN;
		struct analysis_result *r = analysis_run(d, &opt, err, sizeof err);
		if (r) {
			json_t *j = analyze_json(r);
			json_decref(j);
		}
		analysis_result_free(&r);
	}
	analysis_dataset_free(&d);
	return 0;
}
