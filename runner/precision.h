/*
 * precision.h — the stopping rule of `run --precision PCT`: running sufficient statistics of
 * each placement's user time, and the 95% interval of the headline comparison's ratio they give.
 *
 * The comparison is the first of the placement registry's comparisons (headline, then
 * contention, then control) whose two placements the run has: sibling against non-sibling where
 * the machine allows it. Each placement keeps n, the mean and M2 (Welford) of log(user time);
 * the log-ratio's interval is the normal approximation mean_a - mean_b ± z·sqrt(v_a/n_a +
 * v_b/n_b), which treats the blocks as unpaired (wider than the paired analysis, so the run stops
 * no sooner than it should). The interval is within ±PCT% of its centre when its wider side is:
 * exp(half-width) - 1 <= PCT/100.
 */
#ifndef SMTBENCH_RUNNER_PRECISION_H
#define SMTBENCH_RUNNER_PRECISION_H

#include <stdbool.h>

#include "common/placements.h"

/* The run never stops for precision before this many measured blocks. */
#define PRECISION_MIN_BLOCKS 10
/* With --precision alone (no --trials or --duration): at most this many measured blocks. */
#define PRECISION_DEFAULT_MAX_BLOCKS 1000

struct precision_stats {
	long n;
	double mean, m2; /* of log(user time in seconds) */
};

struct precision_tracker {
	double target_pct;     /* 0: no target (the interval is still tracked for the progress line) */
	bool have_comparison;  /* false with one placement */
	enum placement a, b;   /* the ratio is a / b */
	struct precision_stats stats[PLACEMENT_COUNT];
};

/* What the statistics say now. */
struct precision_interval {
	bool known;         /* both placements have at least 2 values with some spread */
	double ratio;       /* exp(mean_a - mean_b): the centre */
	double low, high;   /* the 95% interval of the ratio */
	double half_pct;    /* (high / ratio - 1) * 100: the interval's "±" */
	double blocks_needed; /* total measured blocks the target needs at this spread (NaN: none) */
};

/* A tracker for the placements planned (in any order); target_pct 0 for none. */
void precision_init(struct precision_tracker *t, double target_pct,
                    const enum placement *planned, int nplanned);
/* One measured trial's user time (seconds, > 0; others are ignored). */
void precision_add(struct precision_tracker *t, enum placement p, double utime_s);
/* The headline ratio's interval (known false until there is one). */
void precision_interval(const struct precision_tracker *t, struct precision_interval *out);
/* Whether the run may stop: a target, at least PRECISION_MIN_BLOCKS measured blocks, and an
 * interval within ±target_pct%. */
bool precision_reached(const struct precision_tracker *t, long measured_blocks);

#endif
