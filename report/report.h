/*
 * report.h — every report smtbench writes or prints, each built once, by one builder, as a
 * document (report/doc.h) with its JSON beside it: a results folder's (a run's or a matrix's,
 * by the folder's kind: report_folder), analyze's (analyze_doc, analyze_json); fleet/ makes its
 * own the same way (report_new). One text, one Markdown and one HTML renderer write them all.
 *
 * Nothing here prints unless asked to (report_print) or exits but on out of memory: failures
 * return NULL or -1 with one line in err. Ownership: a report is the caller's, released by
 * report_free(&r).
 */
#ifndef SMTBENCH_REPORT_REPORT_H
#define SMTBENCH_REPORT_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "analysis/analysis.h"

struct doc;
struct results_folder;
struct analysis_result;

struct report {
	struct doc *doc;
	json_t *json;              /* STEM.json */
	const char *stem;          /* the files' name: "report" (report.md, report.json, ...) */
	const char *lead;          /* the sentence that names the files begins so: "Report" */
	char *rewrite;             /* the command that writes the files again, shown when they
	                            * could not be written; NULL: none */
	char *no_answer;           /* why a report that was made answers nothing ("DIR: no cell
	                            * of the matrix could be compared: ..."): a matrix none of
	                            * whose cells could be compared; NULL: it answers */
};

/* A report made of its parts (taken). */
struct report *report_new(struct doc *doc, json_t *json, const char *stem, const char *lead,
                          char *rewrite);
void report_free(struct report **r);

struct report_options {
	bool exclude_contaminated; /* leave out the trials that shared their CPUs (foreign CPU time
	                            * or steal above ANALYSIS_CONTAMINATED_SHARE of the trial's
	                            * duration); every format says how many */
	double rope_pct;           /* the region of practical equivalence, ±%, as analyze --rope
	                            * takes it; NAN: none (a matrix: the one it was run with) */
};

/*
 * The report of a results folder (borrowed until report_free): a run's (the answer, the
 * placements, the comparisons, the warnings, three plots: report.md, report.json,
 * posterior.svg, run-order.svg, samples.svg, report.html) or a matrix's (the safe pairs, the
 * cells, sensitivity and contentiousness, the heat map: report.md, report.json, heatmap.svg,
 * report.html). meta.json is optional (absent: the machine and the pairs read "not
 * recorded"; damaged: also a warning naming it). NULL with a message when samples.csv cannot
 * be read or holds nothing to compare.
 */
struct report *report_folder(struct results_folder *f, const struct report_options *o,
                             char *err, size_t err_size);

/* The comparison a run's report leads with, and fleet pools: sibling vs non-sibling where both
 * ran; without a sibling placement, non-sibling's comparison; else the first. */
struct analysis_comparison;
struct analysis_dataset;
const struct analysis_comparison *report_headline(const struct analysis_result *r,
                                                  const struct analysis_dataset *d);

/* A matrix's folder's cells compared as its report compares them (in the order meta.json lists
 * its workloads; with the ROPE it was run with), for fleet; *commands: its workloads are named
 * commands (matrix --commands), not kernels. The caller frees it (analysis_matrix_free). NULL
 * with err. */
struct analysis_matrix;
struct analysis_matrix *report_matrix_cells(struct results_folder *f, bool *commands, char *err,
                                            size_t err_size);

/* `smtbench advise DIR` (report/matrix.c): the plan of which workloads share a core, from a
 * matrix's folder, and SMT on or off per workload. */
struct advise_request {
	enum analysis_objective objective;
	size_t cores;                      /* 0: the folder's machine's (meta.json topology.cores) */
	const char *const *count_names;    /* --count name=N: copies of these workloads (others 1) */
	const size_t *count_values;
	size_t ncounts;
	size_t draws;                      /* 0: ANALYSIS_ADVISE_DRAWS */
	uint64_t seed;                     /* 0: ANALYSIS_ADVISE_SEED */
};
/* What the advice was made of, for the caller's script (cli/cmd_advise.c). */
struct advise_outcome {
	struct analysis_matrix *matrix;    /* kernels[]: the workloads' names (escaped) */
	struct analysis_advice *advice;
	bool commands;                     /* named commands (matrix --commands), not kernels */
};
/* The advice's report (stem "advise": printed, or --json) and *out, the caller's (released by
 * advise_outcome_free). NULL with err: not a matrix's folder, an unknown --count name, no cores
 * known, workloads that do not fit the cores, no plan possible. */
struct report *advise_report(struct results_folder *f, const struct advise_request *rq,
                             struct advise_outcome **out, char *err, size_t err_size);
void advise_outcome_free(struct advise_outcome **p);
/* What an advice's words and JSON name: the workloads (escaped), the placement their pairs ran
 * on and the ROPE of the SMT decisions (a matrix's, or fleet's pooled group's). */
struct advise_names {
	char **names;
	size_t count;
	char *placement;
	double rope_pct;
};
/* Advice from cells given as mixtures of normals (fleet's pooled matrix groups,
 * fleet/fleet_advise.c): mixtures[v * count + g] as analysis_advise_request's; on `cores` cores
 * (the caller's choice), --count and the draws from rq. NULL with err as advise_report. */
struct analysis_advice *advise_mixtures(const struct advise_names *names,
                                        const struct analysis_log_mixture *mixtures, size_t cores,
                                        const struct advise_request *rq, char *err,
                                        size_t err_size);
/* The advice's blocks (the plan, its value, whether pairing pays; full: also SMT on or off per
 * workload and the method) and its JSON (advise --json's keys) (report/advise.c), for advise's
 * report, the matrix's and fleet's. */
void advise_blocks(struct doc *d, unsigned outputs, const struct advise_names *names,
                   const struct analysis_advice *a, bool full);
json_t *advise_json(const struct advise_names *names, const struct analysis_advice *a);
/* "throughput" or "worst": --objective's words and the JSON's. */
const char *advise_objective_name(enum analysis_objective o);

/* Writes STEM.md, STEM.json, each figure's file and STEM.html into dir, each atomically (a
 * temporary file renamed over the old one). 0, or -1 with err naming the file. */
int report_write(const struct report *r, const char *dir, char *err, size_t err_size);
/* The report on a terminal (text). 0, or -1 when writing failed. */
int report_print(const struct report *r, FILE *out);
/* After it, where its files are: "Report: DIR/report.html (open it in a browser); also ...",
 * or with dir NULL that they were not written and how to write them. */
int report_print_files(const struct report *r, const char *dir, FILE *out);

/* analyze's --json contract (two files: the comparison object itself, plus "diagnostics"; a
 * folder or a hyperfine export: {"source", "unit", "model", "comparisons": [...], "groups":
 * [...], ...}), and its answer for a person, a document (analyze_doc) printed on out as text:
 * 0, or -1 when writing failed. */
json_t *analyze_json(const struct analysis_result *r);
int analyze_print(FILE *out, const struct analysis_result *r);

/* Drawing helpers exposed for tests: the slowdown mu_A / mu_B as the posterior plot draws it
 * (161 equal bins around its 95% interval, each bin's probability the rise of the ratio's CDF
 * across it: new arrays the caller frees; -1 when the ratio is undefined), and "nice" axis
 * ticks covering [lo, hi] (1, 2 or 5 times a power of ten; the count, at least 1; 0 for
 * non-finite input, max_ticks < 2, or a range the doubles cannot tick). */
int report_ratio_distribution(const struct analysis_comparison *c, double **values,
                              double **probs, size_t *count);
int report_nice_ticks(double lo, double hi, int max_ticks, double *first, double *step);

#endif
