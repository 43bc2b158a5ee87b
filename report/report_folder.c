/*
 * report_folder.c — a results folder's report by its kind (report.h): the one place that knows
 * every builder, above them (run.c, matrix.c), as they are above what they share (report.c).
 */
#include "common/folder.h"
#include "report/internal.h"
#include "report/report.h"

struct report *report_folder(struct results_folder *f, const struct report_options *o,
                             char *err, size_t err_size)
{
	return f->kind == FOLDER_MATRIX ? matrix_report(f, o, err, err_size)
	                                : run_report(f, o, err, err_size);
}
