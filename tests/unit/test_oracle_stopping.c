/*
 * test_oracle_stopping.c — `run --precision PCT` keeps its promise, measured by simulation:
 * per-block log ratios d ~ Normal(log 1.1, sigma) are fed to the runner's stopping rule
 * (runner/precision.h, as a run feeds it) until it says "precision reached" (or the default
 * budget of 1000 blocks); the blocks it stopped at are then analysed as `analyze` would (the
 * analysis's paired posterior, analysis_compare_log_ratios), and the test counts how often that
 * 95% interval of the ratio holds the truth, and whether it is within the target.
 *
 * Coverage depends only on sigma relative to the target (the blocks needed scale with both):
 * each target of 1, 2, 3 and 5% is run at spreads from 1.5 to 5 times its log, where a run
 * stops after 20 to 100 blocks and the loss from stopping when the spread happens to be low is
 * largest (below, the run stops at the minimum of blocks, where the interval covers 95.6%).
 * The same blocks stopped by the rule with a minimum of 10 blocks show what the minimum buys.
 *
 * Two measures of coverage: the count of intervals that hold the truth, and its Rao-Blackwell
 * form, exact given where the run stopped: with normal noise the mean of the first N blocks
 * is independent of their spreads (Helmert), hence of a stop decided by the spread, so given N
 * and the interval's half-width w (in log) the chance that it covers is 2 Phi(w sqrt(N) / sigma)
 * - 1. Its average has a tenth of the count's simulation error, which shows the loss that
 * stopping on the spread causes: a few tenths of a percent, never reaching 95.0%.
 * Every random number comes from a fixed seed.
 */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

#include "analysis/analysis.h"
#include "runner/precision.h"
#include "tests/harness.h"
#include "tests/unit/analysis_testdata.h"

enum { RUNS = 1000, MAX_BLOCKS = PRECISION_DEFAULT_MAX_BLOCKS };

static const double TARGETS[] = { 1, 2, 3, 5 };
static const double SPREADS[] = { 1.5, 2.5, 3.5, 5 }; /* sigma over log(1 + target) */

struct outcome {
	int covered, within, runs;
	double blocks;
	double rao_blackwell; /* the sum of each run's exact chance of covering */
};

/* The stop of the rule with another minimum of blocks (the runner's interval, its margin). */
static bool reached_with_minimum(const struct precision_tracker *t, long minimum)
{
	struct precision_interval iv;
	precision_interval(t, &iv);
	return t->n >= minimum && iv.known
	       && iv.half_pct <= t->target_pct * PRECISION_GRID_MARGIN;
}

/* Runs the blocks until the rule stops (minimum < 0: the runner's own precision_reached), then
 * judges the analysis's interval at that stop. */
static void one_run(double target, double sigma, long minimum, uint64_t seed, struct outcome *o)
{
	struct rng r = { seed };
	static double d[MAX_BLOCKS];
	struct precision_tracker t;
	precision_init(&t, target, NULL, 0);
	long n = 0;
	while (n < MAX_BLOCKS) {
		d[n] = rng_normal(&r, log(1.1), sigma);
		precision_add_log_ratio(&t, d[n]);
		n++;
		if (minimum < 0 ? precision_reached(&t, n) : reached_with_minimum(&t, minimum))
			break;
	}
	struct analysis_options opt;
	analysis_options_init(&opt);
	struct analysis_comparison c;
	char err[256];
	if (analysis_compare_log_ratios(d, (size_t)n, 0.25, &opt, &c, err, sizeof err) != 0) {
		printf("# analysis: %s\n", err);
		return;
	}
	o->runs++;
	o->covered += c.ratio_ci[0] <= 1.1 && 1.1 <= c.ratio_ci[1];
	double w = 0.5 * (log(c.ratio_ci[1]) - log(c.ratio_ci[0]));
	o->rao_blackwell += 2 * gsl_cdf_ugaussian_P(w * sqrt((double)n) / sigma) - 1;
	/* Within the target: the interval within ±target% of its centre (precision.h's rule). */
	double half = fmax(c.ratio_ci[1] / c.ratio_mean, c.ratio_mean / c.ratio_ci[0]) - 1;
	o->within += n >= MAX_BLOCKS || half <= target / 100;
	o->blocks += (double)n;
	analysis_comparison_release(&c);
}

int main(void)
{
	int all_covered = 0, all_runs = 0;
	double worst_rb = 1, worst_rb_old = 1;
	for (size_t ti = 0; ti < sizeof TARGETS / sizeof TARGETS[0]; ti++) {
		double target = TARGETS[ti], h = log1p(target / 100);
		struct outcome per_target = { 0 };
		for (size_t si = 0; si < sizeof SPREADS / sizeof SPREADS[0]; si++) {
			struct outcome o = { 0 }, old = { 0 };
			for (int run = 0; run < RUNS; run++) {
				uint64_t seed = 1000003 * (ti + 1) + 7919 * (si + 1) + (uint64_t)run;
				one_run(target, SPREADS[si] * h, -1, seed, &o);
				one_run(target, SPREADS[si] * h, 10, seed, &old);
			}
			double cov = (double)o.covered / o.runs, rb = o.rao_blackwell / o.runs;
			double rb_old = old.rao_blackwell / old.runs;
			CHECK(o.runs == RUNS && cov >= 0.93 && rb >= 0.944 && o.within == o.runs,
			      "--precision %g, spread %.2g%% a block: the interval at the stop (%.0f "
			      "blocks on average) covers in %.1f%% of %d (exactly given the stops: "
			      "%.2f%%; with a minimum of 10 blocks: %.2f%%), within the target in every "
			      "run", target, 100 * SPREADS[si] * h, o.blocks / o.runs, 100 * cov, o.runs,
			      100 * rb, 100 * rb_old);
			per_target.covered += o.covered;
			per_target.runs += o.runs;
			worst_rb = fmin(worst_rb, rb);
			worst_rb_old = fmin(worst_rb_old, rb_old);
		}
		double cov = (double)per_target.covered / per_target.runs;
		double se = sqrt(0.95 * 0.05 / per_target.runs);
		CHECK(fabs(cov - 0.95) <= 3 * se, "--precision %g over these spreads: coverage %.2f%% "
		      "of %d, 95%% within 3 standard errors (%.2f%%)", target, 100 * cov,
		      per_target.runs, 300 * se);
		all_covered += per_target.covered;
		all_runs += per_target.runs;
	}
	printf("# every target: coverage %.2f%% of %d; exactly given the stops, at worst %.2f%% "
	       "with the minimum of %d blocks, %.2f%% with 10\n", 100.0 * all_covered / all_runs,
	       all_runs, 100 * worst_rb, PRECISION_MIN_BLOCKS, 100 * worst_rb_old);
	return test_done("test_oracle_stopping");
}
