/*
 * summary.c — what `smtbench run` and `smtbench matrix` print when they end (summary.h): the
 * folder's report (report/report.h: a run's or a matrix's, by its kind), written into it.
 */
#include "cli/summary.h"

#include "cli/commands.h"

#include <math.h>
#include <stdlib.h>

#include "common/alloc.h"
#include "common/error.h"
#include "common/folder.h"
#include "common/text.h"
#include "report/report.h"

enum summary_outcome summary_after_run(const char *dir, enum summary_missing missing, FILE *out)
{
	char err[ERR_LEN];
	struct results_folder *f = folder_open(dir);
	struct report_options o = { .rope_pct = NAN };
	struct report *r = report_folder(f, &o, err, sizeof err);
	enum summary_outcome outcome = SUMMARY_WRITTEN;
	if (!r) {
		char *why = xescaped(err);
		if (missing == MISSING_FAILED)
			text_warnx("no answer: %s", why);
		else
			fprintf(out, "%s: %s\n", missing == MISSING_NO_NEED ? "no comparison"
			                                                  : "no analysis yet", why);
		fprintf(out, "results: %s\n", f->shown_dir);
		free(why);
		outcome = SUMMARY_NO_ANSWER;
	} else {
		fprintf(out, "\n");
		if (report_write(r, dir, err, sizeof err) != 0) {
			text_warnx("cannot write the reports: %s", err);
			outcome = SUMMARY_NOT_WRITTEN;
		}
		report_print(r, out);
		report_print_files(r, outcome == SUMMARY_WRITTEN ? dir : NULL, out);
		/* A matrix none of whose cells could be compared: its page is written (every cell
		 * says why), and a complete run of it failed to answer, as a run's does. */
		if (r->no_answer && missing == MISSING_FAILED) {
			char *why = xescaped(r->no_answer);
			text_warnx("no answer: %s", why);
			free(why);
			if (outcome == SUMMARY_WRITTEN)
				outcome = SUMMARY_NO_ANSWER;
		}
	}
	report_free(&r);
	folder_free(&f);
	return outcome;
}

int summary_print(const struct report *r, bool json)
{
	if (!json)
		return report_print(r, stdout) == 0 ? EXIT_OK : EXIT_FAILURE_RUNTIME;
	return cli_print_json(json_incref(r->json), JSON_PRESERVE_ORDER);
}
