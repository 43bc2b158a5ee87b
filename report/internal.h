/*
 * internal.h — what the report layer's files share among themselves: a run's model, which the
 * run builder (run.c) makes and its plots (svg_plots.c) draw. Not an interface: nothing outside
 * report/ includes it (tests/tools/check_layers.py).
 */
#ifndef SMTBENCH_REPORT_INTERNAL_H
#define SMTBENCH_REPORT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "analysis/analysis.h"

/* One placement as the report shows it, beside its dataset group (of the same index): the pair
 * it ran on (meta.json) and the posterior of its mean. */
struct run_placement {
	int pus[2];
	int npus;                  /* 0: not recorded */
	int core;                  /* -1: not recorded */
	const char *shares;        /* deepest object the pair shares (meta.json's), or NULL */
	const struct analysis_group_summary *mu; /* its side of the first comparison that holds it
	                                          * (the headline first), or NULL;
	                                          * borrowed from the model's result */
};

/* A results folder of a run, analysed: what every part of its report is made of. */
struct run_model {
	struct results_folder *folder;     /* borrowed */
	const json_t *meta;                /* the folder's shown (escaped) meta.json, or NULL */
	bool exclude_contaminated;
	struct analysis_dataset *data;
	struct analysis_result *result;
	const struct analysis_comparison *headline;
	struct run_placement *placements;  /* one per dataset group, same order */
	bool no_sibling;                   /* no sibling placement was measured */
	const char *no_sibling_reason;     /* why, from meta.json's skipped placements, or NULL */
	/* A folder judged by wall time (run --one-process): the headline comparison again by user
	 * CPU time (its threads' CPU time together); known false otherwise. */
	bool user_known;
	double user_ratio_mean, user_ratio_ci[2];
};

/* The builders that report_folder (report_folder.c) chooses by the folder's kind: a run's report
 * (run.c) and a matrix's (matrix.c). NULL with err. */
struct report_options;
struct results_folder;
struct report *run_report(struct results_folder *f, const struct report_options *o, char *err,
                          size_t err_size);
struct report *matrix_report(struct results_folder *f, const struct report_options *o,
                             char *err, size_t err_size);

/* The files a report of stem writes, in order (STEM.md, STEM.json, each figure's, STEM.html),
 * as a JSON array of names. */
struct doc;
json_t *report_files(const struct doc *d, const char *stem);

/* The run's three plots, new SVG strings (svg_plots.c). */
char *plot_posterior(const struct run_model *m);
char *plot_run_order(const struct run_model *m);
char *plot_samples(const struct run_model *m);

/* The advice from a matrix's cells (report/advise.c), for advise's report and the matrix's:
 * cores from rq or else the folder's meta.json (topology.cores; neither: an error). */
struct analysis_matrix;
struct advise_request;
struct analysis_advice *advise_matrix(const struct analysis_matrix *m,
                                      const struct advise_request *rq,
                                      const struct results_folder *f, char *err,
                                      size_t err_size);

#endif
