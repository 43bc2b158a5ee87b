/* fuzz_report.c — report_folder on a folder with an arbitrary meta.json and samples.csv, then the
 * summary and every report file. The input is meta.json, the separator line below, then
 * samples.csv; without the separator the whole input is samples.csv and there is no meta.json. */
#include <math.h>

#include "common/folder.h"
#include "report/report.h"
#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char SEPARATOR[] = "\n==> samples.csv <==\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *sep = memmem(data, size, SEPARATOR, sizeof SEPARATOR - 1);
	if (sep) {
		fuzz_write("meta.json", data, (size_t)(sep - data));
		const uint8_t *csv = sep + sizeof SEPARATOR - 1;
		fuzz_write("samples.csv", csv, size - (size_t)(csv - data));
	} else {
		fuzz_remove("meta.json");
		fuzz_write("samples.csv", data, size);
	}
	char err[512];
	struct results_folder *f = folder_open(fuzz_dir());
	struct report_options o = { .rope_pct = NAN };
	struct report *rep = report_folder(f, &o, err, sizeof err);
	if (!rep) {
		folder_free(&f);
		return 0;
	}
	FILE *null = fopen("/dev/null", "w");
	if (null) {
		report_print(rep, null);
		fclose(null);
	}
	report_write(rep, fuzz_dir(), err, sizeof err);
	report_free(&rep);
	folder_free(&f);
	return 0;
}
