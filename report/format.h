/*
 * format.h — the one rule for numbers shown to a person: `analyze`, the terminal summary, every
 * report and fleet's, so that the same number reads the same everywhere.
 */
#ifndef SMTBENCH_REPORT_FORMAT_H
#define SMTBENCH_REPORT_FORMAT_H

#include <stddef.h>

/* v for a person, with the digits `resolution` (e.g. half an interval's width) makes
 * meaningful and at least three significant ones; scientific below 1e-4 and from 1e9; "n/a",
 * "inf", "-inf"; never "-0". Returns buf. */
const char *format_number(char *buf, size_t size, double v, double resolution);

/* An interval as every plot and table writes it: "lo–hi" by format_number at resolution
 * res, or "lo to hi" when a bound is negative (a dash next to a minus sign misreads). Returns
 * buf. */
const char *format_interval(char *buf, size_t size, const double ci[2], double res);

/* The region of practical equivalence of --rope PCT as the ratios it spans, "0.599–1.67×": from
 * 1 / (1 + PCT/100) to 1 + PCT/100, symmetric in log (analysis.h). Returns buf. */
const char *format_rope(char *buf, size_t size, double rope_pct);

/* A ring of number buffers, so that several formatted numbers fit in one printf. */
enum { FORMAT_RING_SIZE = 16 };
struct format_ring {
	char buf[FORMAT_RING_SIZE][48];
	int next;
};
/* v by format_number into the ring's next buffer, valid for FORMAT_RING_SIZE - 1 more calls. */
const char *format_num(struct format_ring *ring, double v, double resolution);

/* Which design answered a comparison, in the words every output uses: "paired by block (42
 * blocks)", "paired by block (40 blocks; 2 dropped)", "unpaired (independent groups)". */
struct analysis_comparison;
const char *format_design(char *buf, size_t size, const struct analysis_comparison *c);

#endif
