/*
 * summary.c — what `smtbench run` and `smtbench matrix` print when they end (summary.h): the
 * folder's report (report/report.h: a run's or a matrix's, by its kind), written into it.
 */
#include "cli/summary.h"

#include <math.h>
#include <stdlib.h>

#include "common/alloc.h"
#include "common/error.h"
#include "common/folder.h"
#include "common/text.h"
#include "report/report.h"

bool summary_after_run(const char *dir, FILE *out)
{
	char err[ERR_LEN];
	struct results_folder *f = folder_open(dir);
	struct report_options o = { .rope_pct = NAN };
	struct report *r = report_folder(f, &o, err, sizeof err);
	bool written = true;
	if (!r) { /* too few trials to compare: a normal end of a short or interrupted run */
		char *why = xescaped(err);
		fprintf(out, "no analysis yet: %s\nresults: %s\n", why, f->shown_dir);
		free(why);
	} else {
		fprintf(out, "\n");
		written = report_write(r, dir, err, sizeof err) == 0;
		if (!written)
			text_warnx("cannot write the reports: %s", err);
		report_print(r, out);
		report_print_files(r, written ? dir : NULL, out);
	}
	report_free(&r);
	folder_free(&f);
	return written;
}
