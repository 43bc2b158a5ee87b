/*
 * report_internal.h — what the report's .c files (report*.c, svg*.c) share. Not an interface:
 * nothing outside analysis/ includes it.
 */
#ifndef SMTBENCH_ANALYSIS_REPORT_INTERNAL_H
#define SMTBENCH_ANALYSIS_REPORT_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "analysis/analysis.h"
#include "analysis/report.h"

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
	char *dir;
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
	char **sentences;          /* one per comparison, same order */
	char **warnings;
	size_t warning_count;
	char *machine;             /* one line */
};

/* What the sentences say was measured: "each copy of `nop`", or with a second workload beside
 * it "`nop` (run beside `pause`)". A new string (caller frees); NULL on out of memory. */
char *report_subject(const struct report *rep);

/* Half the width of an interval, the resolution its numbers are shown with. */
double report_half_width(const double ci[2]);
/* meta's string member key, or NULL (meta NULL, key absent or not a string). */
const char *report_meta_string(const json_t *meta, const char *key);
/* Why the run stopped, as meta.json's stop_reason records it, in one sentence into buf ("" when
 * meta.json has none: an older folder, a failed run, or files); returns buf. */
const char *report_stop_text(const struct report *rep, char *buf, size_t size);

/* With exclude_contaminated, how many trials were left out and why, in one sentence into buf
 * ("" without it); returns buf. */
const char *report_exclusion_text(const struct report *rep, char *buf, size_t size);

/* Display helpers. */
const char *report_unit_label(const struct report *rep); /* "trial" or "process" */
int report_placement_style(const char *name);            /* stable 0..4 palette/marker index */
const char *report_color(int style);
const char *report_dash(int style);                      /* stroke-dasharray or "none" */

/* Marker of a style centred at (x, y), radius r: filled or hollow. */
void svg_marker(FILE *out, int style, double x, double y, double r, const char *color,
                bool filled);
/* The placement's row of the terminal/markdown tables. */
const struct report_placement *report_find_placement(const struct report *rep, const char *name);

/* Linear map of data onto pixels. */
struct svg_axis {
	double lo, hi;       /* data */
	double p0, p1;       /* pixels (p1 < p0 for y) */
};
double svg_map(const struct svg_axis *a, double v);
/* Axis line, ticks, tick labels and the axis title (x: below; y: rotated, left). */
void svg_x_axis(FILE *out, const struct svg_axis *x, double y_px, const char *title);
void svg_y_axis(FILE *out, const struct svg_axis *y, double x_px, const char *title,
                bool labels);
void svg_text(FILE *out, double x, double y, const char *anchor, int size, const char *weight,
              const char *text);
void svg_begin(FILE *out, int width, int height, const char *title, const char *desc);
void svg_end(FILE *out);

/* report.md (report_text.c) as a new string; NULL on out of memory. */
char *report_markdown(const struct report *rep);

/* The HTML page (report_html.c) as a new string; NULL on out of memory. */
char *report_html(const struct report *rep, const char *posterior_svg,
                  const char *run_order_svg, const char *samples_svg);

#endif
