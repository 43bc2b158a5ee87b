/*
 * report.h — the reports of a results folder: the terminal summary, report.md, report.json,
 * three SVG plots and report.html, all from DIR/samples.csv and (optionally) DIR/meta.json.
 *
 * A report is built once (report_new: load, analyse, gather the machine and the pairs) and then
 * printed or written. Like the rest of analysis/, nothing here prints on its own or exits:
 * failures return NULL or -1 with one line in err[err_size] (no trailing newline).
 * Ownership: report_new's result is the caller's, released by report_free(&p).
 * Times are in seconds, frequencies in MHz.
 */
#ifndef SMTBENCH_REPORT_REPORT_H
#define SMTBENCH_REPORT_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

struct report;

/* The files report_write_files() writes into the folder, in this order. */
#define REPORT_FILE_COUNT 6
extern const char *const report_file_names[REPORT_FILE_COUNT];

/*
 * The report of a results folder (common/folder.h; borrowed until report_free): its
 * samples.csv analysed the default way (normal model, unit trial), its meta.json (absent or
 * unreadable: the report says "not recorded"; present but not a JSON object: also one warning
 * naming the file and the JSON error). With exclude_contaminated, the trials that shared their
 * CPUs (foreign CPU time or steal above ANALYSIS_CONTAMINATED_SHARE of the trial's duration)
 * are left out, and every format says how many. rope_pct: the region of practical
 * equivalence, ±%, as `analyze --rope` takes it (report --rope); NAN for none. NULL with a
 * message when samples.csv cannot be read or holds no two placements with two samples each.
 */
struct results_folder;
struct report *report_new(struct results_folder *f, bool exclude_contaminated, double rope_pct,
                          char *err, size_t err_size);

/*
 * The terminal summary: the machine and the pairs used, per placement n / mean / interval, the
 * headline comparison as one sentence, the other comparisons, then warnings. Returns 0, or -1
 * when writing failed.
 */
int report_print_summary(const struct report *rep, bool files_written, FILE *out);

/* The headline sentence alone (what the summary, report.md and report.html lead with). Owned
 * by the report. */
const char *report_headline(const struct report *rep);

/*
 * Writes report.md, report.json, posterior.svg, run-order.svg, samples.svg and report.html into
 * the folder, each atomically (a temporary file renamed over the old one). Returns 0, or -1 with
 * a message naming the file that could not be written.
 */
int report_write_files(const struct report *rep, char *err, size_t err_size);
/* Writes the files into out_dir instead of the results folder (report --out: a folder that is
 * read-only, or kept pristine), and the summary names them there. 0, or -1 on out of memory. */
int report_set_files_dir(struct report *rep, const char *out_dir);

/* The SVG plots as new strings (caller frees); NULL on out of memory. Also written by
 * report_write_files; exposed for tests and for `docs/` examples. */
char *report_svg_posterior(const struct report *rep);
char *report_svg_run_order(const struct report *rep);
char *report_svg_samples(const struct report *rep);

void report_free(struct report **p);

/* ---- what fleet reads of a report --------------------------------------------------------- */
struct analysis_dataset;
struct analysis_comparison;
/* The dataset the report was made from; borrowed, valid until report_free. */
const struct analysis_dataset *report_dataset(const struct report *rep);
/* The headline comparison (sibling vs non-sibling where both ran); borrowed likewise. */
const struct analysis_comparison *report_headline_comparison(const struct report *rep);
/* Half the width of an interval, the resolution its numbers are shown with. */
double report_half_width(const double ci[2]);
/* meta's string member key, or NULL (meta NULL, key absent or not a string). */
const char *report_meta_string(const json_t *meta, const char *key);

/* ---- building blocks, exposed for tests ---------------------------------------------------- */

struct analysis_comparison;

/*
 * The slowdown mu_A / mu_B as the posterior plot draws it: 161 equal bins around its 95%
 * interval, each bin's probability the rise of the ratio's CDF across it (the marginals of mu
 * read as piecewise uniform), so the density is smooth. New arrays *values (bin centres) and
 * *probs, *count entries, the caller's to free. Returns -1 when the ratio is undefined (B's mu
 * not above 0, an empty interval) or on out of memory.
 */
int report_ratio_distribution(const struct analysis_comparison *c, double **values,
                              double **probs, size_t *count);

/*
 * "Nice" axis ticks covering [lo, hi]: a step of 1, 2 or 5 times a power of ten chosen so that
 * at most max_ticks ticks fall in the range; writes the first tick (>= lo), the step, and
 * returns the tick count (at least 1; lo == hi is widened first). Returns 0 for non-finite
 * input, max_ticks < 2, or a range the doubles cannot tick (subnormal, or wider than DBL_MAX).
 */
int report_nice_ticks(double lo, double hi, int max_ticks, double *first, double *step);

/* Writes text to out with &, <, >, " and ' escaped for XML and HTML. */
void report_xml_escape(FILE *out, const char *text);

/* The head of every self-contained HTML page (report.html of a run or a matrix, fleet.html),
 * written once here: the doctype, UTF-8, the viewport, <title>title what</title> with the
 * page's own style sheet, then <body> and <h1>title what</h1>. what (escaped) may be NULL. */
void report_html_begin(FILE *out, const char *title, const char *what, const char *style_sheet);


#endif
