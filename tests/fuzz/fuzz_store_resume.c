/* fuzz_store_resume.c — the runner's store_resume on an arbitrary samples.csv (it reads the
 * trials back and cuts a torn tail off the file). */
#include "runner/store.h"
#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_write("samples.csv", data, size);
	struct stored_trial *trials = NULL;
	long ntrials = 0, dropped = 0;
	char err[ERR_LEN];
	struct store *s = store_resume(fuzz_dir(), &trials, &ntrials, &dropped, err, sizeof err);
	if (s && (ntrials < 0 || dropped < 0))
		abort();
	store_close(&s);
	free(trials);
	return 0;
}
