/*
 * internal.h — what the report layer's .c files share among themselves. Not an interface:
 * nothing outside report/ includes it (tests/tools/check_layers.py). Other layers use
 * report.h, output.h, format.h and svg.h.
 */
#ifndef SMTBENCH_REPORT_INTERNAL_H
#define SMTBENCH_REPORT_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "analysis/analysis.h"
#include "common/error.h"
#include "common/text.h"
#include "report/format.h"
#include "report/report.h"
#include "report/svg.h"

/* The accounting control (same-pu vs solo) fails only outside 1 ± this many percent (a ROPE,
 * when given, takes its place): see control_failed in report.c. */
#define REPORT_CONTROL_TOLERANCE_PCT 1.0

/* One placement as the report shows it: the pair it ran on (meta.json) and its numbers. */
struct report_placement {
	char *name;
	int pus[2];
	int npus;                  /* 0: not recorded */
	int core;                  /* -1: not recorded */
	char *shares;              /* deepest object the pair shares, or NULL */
	size_t n;                  /* analysed samples */
	double mean_s;             /* sample mean; NAN for n == 0 */
	bool has_mu;               /* a comparison gave its posterior */
	double mu_mean, mu_ci[2];
	const struct analysis_dist *mu; /* borrowed from the result */
	double freq_mhz;           /* mean freq_mhz of its measured rows; NAN when not recorded */
	size_t freq_n;
};

struct report {
	struct results_folder *folder; /* borrowed: what the report is of */
	char *dir;                 /* as given: for opening and writing its files */
	char *shown_dir;           /* the same escaped (text_escape), for every output */
	char *files_dir;           /* where report_write_files writes (report --out); NULL: dir */
	char *shown_files_dir;     /* the same escaped; NULL: shown_dir */
	bool exclude_contaminated; /* asked to leave out trials that shared their CPUs */
	struct analysis_dataset *data;
	struct analysis_result *result;
	json_t *meta;              /* NULL without a readable meta.json */
	char *meta_problem;        /* meta.json present but not a JSON object: why; else NULL */
	char *workload;            /* the role-a workload's name, or NULL */
	char *beside_workload;     /* the role-b workload's name (run beside, not measured), or NULL */
	struct report_placement *placements; /* one per dataset group, same order */
	size_t placement_count;
	int headline;              /* index into result->comparisons */
	bool no_sibling;           /* no sibling placement was measured */
	char *no_sibling_reason;   /* why, from meta.json's skipped placements, or NULL */
	char *headline_text;
	char *smt_yield_text;      /* output_smt_yield_sentence, or NULL when not known */
	/* A folder judged by wall time (run --one-process): the headline comparison again by user
	 * CPU time (its threads' CPU time together), which every output states after the answer;
	 * NULL when the folder is judged by user time or that comparison cannot be made. */
	char *user_time_text;
	double user_ratio_mean, user_ratio_ci[2];
	char **sentences;          /* one per comparison, same order */
	char **warnings;
	size_t warning_count;
	char *machine;             /* one line */
};

/* What the sentences say was measured: "each copy of `nop`", or with a second workload beside
 * it "`nop` (run beside `pause`)". A new string (caller frees); NULL on out of memory. */
char *report_subject(const struct report *rep);

/* Why the run stopped, as meta.json's stop_reason records it, in one sentence into buf ("" when
 * meta.json has none: an older folder, a failed run, or files); returns buf. */
const char *report_stop_text(const struct report *rep, char *buf, size_t size);
/* A run that is still being written, or whose runner was killed (common/folder.h's state), in
 * one sentence into buf ("" for any other state); returns buf. */
struct results_folder;
const char *report_state_text(const struct results_folder *f, char *buf, size_t size);
/* The paragraph every output puts before the answer when no sibling placement was measured
 * (rep->no_sibling): why, and that the answer below is what this run can say. Into buf. */
const char *report_no_sibling_text(const struct report *rep, char *buf, size_t size);

/* With exclude_contaminated, how many trials were left out and why, in one sentence into buf
 * ("" without it); returns buf. */
const char *report_exclusion_text(const struct report *rep, char *buf, size_t size);

/* Display helpers. */
const char *report_unit_label(const struct report *rep); /* "trial" or "process" */
/* The time a sample is, by the folder's metric: "user CPU time" or "wall time". */
const char *report_metric_label(const struct report *rep);
/* The placement's row of the terminal/markdown tables. */
const struct report_placement *report_find_placement(const struct report *rep, const char *name);

/* report.md (report_text.c) as a new string; NULL on out of memory. */
char *report_markdown(const struct report *rep);

/* The HTML page (report_html.c) as a new string; NULL on out of memory. */
char *report_html(const struct report *rep, const char *posterior_svg,
                  const char *run_order_svg, const char *samples_svg);

#endif
