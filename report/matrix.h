/*
 * matrix.h — the reports of an interference matrix's folder (smtbench matrix): the terminal
 * summary, report.md, report.json, heatmap.svg and report.html, from DIR/samples.csv and
 * DIR/meta.json's "matrix" object, with the cells compared by analysis/matrix.h.
 *
 * Nothing here prints on its own or exits: NULL or -1 with one line in err. Ownership:
 * matrix_report_new's result is the caller's, released by matrix_report_free(&p).
 */
#ifndef SMTBENCH_REPORT_MATRIX_H
#define SMTBENCH_REPORT_MATRIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct matrix_report;

/* The files matrix_report_write_files writes into the folder, in this order. */
#define MATRIX_REPORT_FILE_COUNT 4
extern const char *const matrix_report_file_names[MATRIX_REPORT_FILE_COUNT];

/* Loads and compares the cells of a matrix's folder (common/folder.h's FOLDER_MATRIX;
 * exclude_contaminated as for report_new).
 * rope_pct: the region of practical equivalence, ±%, as `analyze --rope` uses it (a cell can
 * then be "practically the same", and the safe pairs' bound is the ROPE); NAN: the one
 * meta.json records (matrix --rope), else none. NULL with err when samples.csv cannot be read
 * or holds no matrix. */
struct results_folder;
struct matrix_report *matrix_report_new(struct results_folder *f, bool exclude_contaminated,
                                        double rope_pct, char *err, size_t err_size);

/* The answer first: the pairs safe to share (slowdown under 5%, or the ROPE, with 95%
 * probability, both ways) and the worst cell. Owned by the report. */
const char *matrix_report_answer(const struct matrix_report *r);

/* The terminal summary: the answer, the matrix as a table, sensitivity and contentiousness,
 * why it stopped, warnings. 0, or -1 when writing failed. */
int matrix_report_print_summary(const struct matrix_report *r, bool files_written, FILE *out);

/* The heat map (victims as rows, aggressors as columns, colour the slowdown, each cell its
 * ratio and interval, undecided cells hatched) as a new SVG string; NULL on out of memory. */
char *matrix_report_svg_heatmap(const struct matrix_report *r);

/* One cell of a heat map, as matrix_svg_heatmap draws it. */
struct matrix_heat_cell {
	bool settled;           /* ratio_mean and ratio_ci are the data's: printed and coloured */
	bool decided;           /* it has a verdict (slower, faster, practically the same) */
	double ratio_mean, ratio_ci[2];
	size_t n;               /* what it rests on (blocks, nodes), printed when not settled */
};

/* The one heat map of every matrix report (a folder's, a fleet's pooled cells): count
 * workloads named names[], cells[v * count + g] the victim v beside the aggressor g; a cell
 * that is not settled grey with "?" and its n in unit ("blocks", "nodes"); one not decided
 * hatched. A new SVG string; NULL on out of memory. */
char *matrix_svg_heatmap(const char *title, const char *description, const char *const *names,
                         size_t count, const struct matrix_heat_cell *cells, const char *unit);

/* Whether the workloads are named commands (matrix --commands), not kernels. */
bool matrix_report_commands(const struct matrix_report *r);

/* The folder's cells as analysis/matrix.h compares them (fleet pools them). Owned by r. */
struct analysis_matrix;
const struct analysis_matrix *matrix_report_matrix(const struct matrix_report *r);

/* Writes report.md, report.json, heatmap.svg and report.html atomically. -1 with err naming
 * the file. */
int matrix_report_write_files(const struct matrix_report *r, char *err, size_t err_size);

/* Writes the files into out_dir instead (report --out), and the summary names them there. 0,
 * or -1 on out of memory. */
int matrix_report_set_files_dir(struct matrix_report *r, const char *out_dir);

void matrix_report_free(struct matrix_report **p);

#endif
