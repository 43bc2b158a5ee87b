/*
 * precision.h — the stopping rule of `run --precision PCT`: the running statistics of the
 * headline comparison's per-block log ratios, and the 95% interval of the ratio they give.
 *
 * The comparison is the first of the placement registry's comparisons (headline, then
 * contention, then control) whose two placements the run has: sibling against non-sibling where
 * the machine allows it. In each measured block where both have an ok trial, d = log(A's user
 * time) - log(B's) (a trial's time: the mean of its role-a processes', as the analysis's trial
 * unit; with run --one-process the one process's wall time, the metric its folder is analysed
 * by). The interval is the one `analyze` gives by default (the paired design, normal model,
 * uniform priors on delta and sigma): the marginal posterior of delta is a Student-t with
 * n - 2 degrees of freedom, centre mean(d), scale sqrt(SS / (n (n - 2))), so the ratio's
 * interval is exp(mean ± t(0.975; n - 2) · scale). A run that says "precision reached" leaves
 * `analyze`'s interval of that comparison within the target (tests/e2e/test_precision.sh). It
 * is within ±PCT% of its centre when its wider side is: exp(half-width) - 1 <= PCT/100.
 */
#ifndef SMTBENCH_RUNNER_PRECISION_H
#define SMTBENCH_RUNNER_PRECISION_H

#include <stdbool.h>

#include "common/placements.h"

/* The run never stops for precision before this many measured blocks, nor before this many
 * paired ones. Why 20: a run that stops when its interval first reaches the target stops, more
 * often than not, when the blocks' spread happens to be low, and the interval it leaves (the
 * data's own, which `analyze` reports) then covers the ratio less often than 95%: by about
 * 17 / N percentage points at a stop after N blocks (the stopping time rises with the spread,
 * so a low spread is what ends a run early; a margin on the target changes nothing, since the
 * blocks needed scale with it). Simulated (tests/unit/test_oracle_stopping.c, normal noise, any
 * target, the spread per block from a tenth to ten times the target): the worst coverage is
 * 94.3% with a minimum of 10 blocks, 94.6% with 20, 94.7% with 30, 94.8% with 60, and no
 * minimum reaches 95.0% (coverage approaches it from below as the blocks grow). Below the
 * blocks the target needs the run stops at the minimum, where the interval covers 95.6%. */
#define PRECISION_MIN_BLOCKS 20
/* The run stops when the closed-form interval is within this share of the target: `analyze`
 * computes the same interval from the stored times (to the microsecond), so it stays within the
 * target too. */
#define PRECISION_GRID_MARGIN 0.99
/* With --precision alone (no --trials or --duration): at most this many measured blocks. */
#define PRECISION_DEFAULT_MAX_BLOCKS 1000

struct precision_tracker {
	double target_pct;     /* 0: no target (the interval is still tracked for the progress line) */
	bool have_comparison;  /* false with one placement */
	enum placement a, b;   /* the ratio is a / b */
	long pending_block[2]; /* the block of the last ok trial of a and of b (-1: none) */
	double pending_log[2]; /* its log user time */
	long n;                /* blocks paired */
	double mean, m2;       /* of d (Welford) */
};

/* What the statistics say now. */
struct precision_interval {
	bool known;         /* at least 3 paired blocks */
	long blocks;        /* paired blocks */
	double ratio;       /* exp(mean d): the centre */
	double low, high;   /* the 95% interval of the ratio */
	double half_pct;    /* (high / ratio - 1) * 100: the interval's "±" */
	double blocks_needed; /* total measured blocks the target needs at this spread (NaN: none) */
};

/* A tracker for the placements planned (in any order); target_pct 0 for none. */
void precision_init(struct precision_tracker *t, double target_pct,
                    const enum placement *planned, int nplanned);
/* One measured ok trial's time (seconds, > 0; others are ignored) in its block: user time, or
 * wall time for one process (run --one-process). */
void precision_add(struct precision_tracker *t, long block, enum placement p, double utime_s);
/* One paired block's log ratio d given directly (precision_add's step, and the stopping rule's
 * simulation, tests/unit/test_oracle_stopping.c): the tracker then follows d alone, whatever
 * its placements. */
void precision_add_log_ratio(struct precision_tracker *t, double d);
/* The headline ratio's interval (known false until there is one). */
void precision_interval(const struct precision_tracker *t, struct precision_interval *out);
/* Whether the run may stop: a target, at least PRECISION_MIN_BLOCKS measured blocks and as many
 * paired ones, and an interval within ±target_pct%. */
bool precision_reached(const struct precision_tracker *t, long measured_blocks);

#endif
