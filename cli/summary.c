#include "common/error.h"
#include "cli/summary.h"

#include <math.h>
#include <stdlib.h>

#include "common/folder.h"
#include "common/text.h"
#include "report/matrix.h"
#include "report/report.h"

/* Too few trials for a comparison is a normal end of a short or interrupted run: said, with
 * where the results are. */
static void no_analysis_yet(FILE *out, const char *err, const char *dir)
{
	char *why = text_escape(err), *shown = text_escape(dir);
	fprintf(out, "no analysis yet: %s\nresults: %s\n", why ? why : err, shown ? shown : dir);
	free(why);
	free(shown);
}

/* A matrix's folder (smtbench matrix) gets the matrix's reports. */
static bool matrix_summary(struct results_folder *f, const char *dir, FILE *out)
{
	char err[ERR_LEN];
	struct matrix_report *rep = matrix_report_new(f, false, NAN, err, sizeof err);
	if (!rep) {
		no_analysis_yet(out, err, dir);
		return true;
	}
	fprintf(out, "\n");
	bool written = matrix_report_write_files(rep, err, sizeof err) == 0;
	if (!written)
		text_warnx("cannot write the reports: %s", err);
	matrix_report_print_summary(rep, written, out);
	matrix_report_free(&rep);
	return written;
}

static bool run_summary(struct results_folder *f, const char *dir, FILE *out)
{
	char err[ERR_LEN];
	struct report *rep = report_new(f, false, NAN, err, sizeof err);
	if (!rep) {
		no_analysis_yet(out, err, dir);
		return true;
	}
	fprintf(out, "\n");
	bool written = report_write_files(rep, err, sizeof err) == 0;
	if (!written)
		text_warnx("cannot write the reports: %s", err);
	report_print_summary(rep, written, out);
	report_free(&rep);
	return written;
}

bool summary_after_run(const char *dir, FILE *out)
{
	struct results_folder *f = folder_open(dir);
	bool written = f->kind == FOLDER_MATRIX ? matrix_summary(f, dir, out)
	                                        : run_summary(f, dir, out);
	folder_free(&f);
	return written;
}
