/*
 * verdict.h — the one sentence that states a comparison's answer, for every output: `analyze`'s
 * text, the terminal summary, report.md, report.html, report.json's "sentences". Numbers by
 * format.h's rule, the verdict by analysis.h's, the design by format_design.
 */
#ifndef SMTBENCH_REPORT_VERDICT_H
#define SMTBENCH_REPORT_VERDICT_H

#include "analysis/analysis.h"

/* Who and what the sentence speaks of. */
struct verdict_words {
	const char *where;    /* "on CPUs 0 and 1, " or "" */
	const char *a;        /* "sibling placement", or a file's or command's name */
	const char *subject;  /* "each copy of `nop`": "A makes SUBJECT 2.7× slower than B"; NULL:
	                       * A itself, "A is 2.7× slower than B" */
	const char *samples;  /* what a sample is, in the plural: "trials", "samples" */
	const char *more;     /* what to do for more: "run more trials", "collect more samples" */
	const char *per;      /* per what 10 or more are wanted: "placement", "file" */
	const char *note;     /* appended as it is (the control's note), or "" */
	bool capitalise;      /* the sentence starts with prose, not a name (a file keeps its case) */
};

/* "Sibling placement makes each copy of `nop` 2.695× slower than non-sibling (95% CI
 * 2.688–2.703); P(slower) = 1.00, paired by block (44 blocks)"; an undecided comparison gives its
 * factor as it is ("leaves ... at 1.02× its solo time ... — not enough data to say"), an
 * unsettled one no number at all ("Not enough data to say: ... cannot be told apart ..."). With
 * a ROPE (rope_pct not NaN) the deciding probability is the one the verdict used. No final full
 * stop. A new string, NULL on out of memory. */
char *verdict_sentence(const struct analysis_comparison *c, double rope_pct,
                       const struct verdict_words *w);

#endif
