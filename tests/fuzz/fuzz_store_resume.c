/* fuzz_store_resume.c — what the runner's --resume does to an arbitrary samples.csv: store_scan
 * reads the trials back, store_cut_torn cuts a torn tail off the file. */
#include "runner/store.h"
#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_write("samples.csv", data, size);
	char err[ERR_LEN];
	struct store *s = store_open(fuzz_dir(), err, sizeof err);
	struct store_scan scan;
	if (s && store_scan(s, false, &scan, err, sizeof err) == 0) {
		if (store_cut_torn(s, &scan, err, sizeof err) == 0
		    && (scan.ntrials < 0 || scan.cut_lines < 0))
			abort();
		store_scan_release(&scan);
	}
	store_close(&s);
	return 0;
}
