/*
 * test_advise_fleet.c — advice from a fleet's pooled matrix cells (fleet.h's mixture over the
 * spread tau of normals for mu, drawn by analysis/advise.c), against oracles written here:
 *   - a pooled cell's mixture: its weights sum to 1, its mean is the pooled mu's mean, its CDF
 *     at the bound is fleet's P(at most the bound); the draws advise makes of it have the
 *     mixture's mean and variance in closed form (sum w m; sum w (sd^2 + m^2) - mean^2) within
 *     4 standard errors, for a pool of close nodes and one of spread nodes;
 *   - SMT on or off from a one-component mixture: the yield and its interval in closed form
 *     (2 / exp(m), 2 / exp(m +- 1.96 sd)) and the decision;
 *   - a plan from mixtures: 4 workloads whose pairs are known (two good pairs, the rest bad) on 2
 *     cores: the good pairs, their throughput, P(best) 1; an unknown cell (count 0) is never
 *     shared.
 * Every random number comes from a fixed seed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/error.h"
#include "fleet/fleet.h"
#include "tests/harness.h"

enum { DRAWS = 200000 };

static void pooled_cell_case(const double *m, const double *s, size_t n, const char *what)
{
	struct fleet_pooled p;
	struct analysis_log_mixture mix;
	CHECK(fleet_pool(m, s, n, 0.05, &p, &mix, NULL) == 0 && p.ok && mix.count > 0,
	      "%s: pooled, with a mixture", what);
	double total = 0, mean = 0, second = 0;
	for (size_t t = 0; t < mix.count; t++) {
		total += mix.weight[t];
		mean += mix.weight[t] * mix.mean[t];
		second += mix.weight[t] * (mix.sd[t] * mix.sd[t] + mix.mean[t] * mix.mean[t]);
	}
	double var = second - mean * mean;
	CHECK(fabs(total - 1) < 1e-9, "%s: the weights sum to 1 (%.12f)", what, total);
	CHECK(fabs(mean - p.mu_mean) < 1e-9, "%s: the mixture's mean %.6f is the pooled mu's %.6f",
	      what, mean, p.mu_mean);
	double at_bound = analysis_log_mixture_cdf(&mix, log1p(0.05));
	CHECK(fabs(at_bound - p.p_at_most_bound) < 1e-9, "%s: the mixture's P(mu <= log 1.05) %.6f "
	      "is fleet's %.6f", what, at_bound, p.p_at_most_bound);
	double *x = malloc(DRAWS * sizeof *x);
	analysis_log_mixture_draws(&mix, 7, DRAWS, x);
	double dm = 0, dv = 0, d4 = 0;
	for (size_t i = 0; i < DRAWS; i++)
		dm += x[i];
	dm /= DRAWS;
	for (size_t i = 0; i < DRAWS; i++) {
		double e = (x[i] - dm) * (x[i] - dm);
		dv += e;
		d4 += e * e;
	}
	dv /= DRAWS - 1;
	d4 /= DRAWS;
	double se_mean = sqrt(var / DRAWS), se_var = sqrt((d4 - dv * dv) / DRAWS);
	CHECK(fabs(dm - mean) < 4 * se_mean, "%s: the draws' mean %.6f is the mixture's %.6f "
	      "(4 SE %.2g)", what, dm, mean, 4 * se_mean);
	CHECK(fabs(dv - var) < 4 * se_var, "%s: the draws' variance %.4g is the mixture's %.4g "
	      "(4 SE %.2g)", what, dv, var, 4 * se_var);
	/* The tau cells matter: the mixture's variance is above its smallest component's. */
	double least = INFINITY;
	for (size_t t = 0; t < mix.count; t++)
		least = fmin(least, mix.sd[t] * mix.sd[t]);
	CHECK(var > least * 1.0001, "%s: the mixture is wider than its narrowest normal", what);
	free(x);
	fleet_mixture_release(&mix);
}

static void test_pooled_draws(void)
{
	static const double close_m[] = { 0.40, 0.41, 0.39, 0.405 };
	static const double close_s[] = { 0.02, 0.03, 0.025, 0.02 };
	pooled_cell_case(close_m, close_s, 4, "4 close nodes");
	static const double spread_m[] = { 0.10, 0.45, 0.30, 0.60, 0.20 };
	static const double spread_s[] = { 0.03, 0.04, 0.02, 0.05, 0.03 };
	pooled_cell_case(spread_m, spread_s, 5, "5 spread nodes");
	struct fleet_pooled p;
	struct analysis_log_mixture mix;
	fleet_pool(close_m, close_s, 1, 0.05, &p, &mix, NULL);
	CHECK(!p.ok && mix.count == 0, "one node: nothing pooled, no mixture");
}

static void test_smt_mixture(void)
{
	double w = 1, m = log(1.6), sd = 0.05;
	struct analysis_log_mixture one = { 1, &w, &m, &sd };
	struct analysis_smt_advice a;
	analysis_smt_advise(NULL, &one, 5, &a);
	double z = 1.959963984540054;
	CHECK(a.measured && fabs(a.yield - 1.25) < 1e-6, "yield 2 / 1.6 = 1.25 (%.8f)", a.yield);
	CHECK(fabs(a.yield_ci[0] - 2 / exp(m + z * sd)) < 1e-6
	      && fabs(a.yield_ci[1] - 2 / exp(m - z * sd)) < 1e-6,
	      "the yield's interval is 2 / exp(m +- 1.96 sd): %.6f-%.6f", a.yield_ci[0], a.yield_ci[1]);
	CHECK(a.decision == ANALYSIS_SMT_KEEP_ON, "yield 1.25 (1.13-1.38) above 1.05: keep SMT on");
	analysis_smt_advise(NULL, NULL, 5, &a);
	CHECK(!a.measured && a.decision == ANALYSIS_SMT_UNKNOWN, "no mixture: not measured");
}

static void test_plan_from_mixtures(void)
{
	enum { N = 4 };
	/* a-b and c-d slow each other by 1.1, every other pair by 1.9; each cell a two-component
	 * mixture around it (sd 0.01). */
	static const double w[2] = { 0.5, 0.5 }, sd[2] = { 0.01, 0.01 };
	double mean[N * N][2];
	struct analysis_log_mixture mix[N * N];
	for (size_t v = 0; v < N; v++)
		for (size_t g = 0; g < N; g++) {
			size_t k = v * N + g;
			bool good = v != g && v / 2 == g / 2;
			double centre = log(good ? 1.1 : 1.9);
			mean[k][0] = centre - 0.005;
			mean[k][1] = centre + 0.005;
			mix[k] = (struct analysis_log_mixture){ 2, w, mean[k], sd };
		}
	struct analysis_advise_request rq = { .nworkloads = N, .mixtures = mix, .cores = 2,
	                                      .objective = ANALYSIS_OBJECTIVE_THROUGHPUT,
	                                      .draws = 2000, .seed = 3, .rope_pct = 5 };
	char err[ERR_LEN];
	struct analysis_advice *a = analysis_advise(&rq, err, sizeof err);
	CHECK(a != NULL, "a plan from mixtures (%s)", a ? "ok" : err);
	if (!a)
		return;
	CHECK(a->best.partner[0] == 1 && a->best.partner[2] == 3, "the good pairs: a-b, c-d");
	CHECK(fabs(a->best.throughput - 1 / 1.1) < 1e-3, "throughput 1 / 1.1 (%.5f)",
	      a->best.throughput);
	CHECK(a->best.throughput_ci[0] < 1 / 1.1 && 1 / 1.1 < a->best.throughput_ci[1]
	      && a->best.throughput_ci[1] - a->best.throughput_ci[0] < 0.02,
	      "its interval holds it, narrow (%.4f-%.4f)", a->best.throughput_ci[0],
	      a->best.throughput_ci[1]);
	CHECK(a->p_best > 0.99, "P(best) %.3f: no draw makes a bad pair better", a->p_best);
	analysis_advice_free(&a);
	/* a-b unknown both ways: on 2 cores the plan must pair a with c or d. */
	mix[0 * N + 1].count = mix[1 * N + 0].count = 0;
	a = analysis_advise(&rq, err, sizeof err);
	CHECK(a && a->best.partner[0] != 1 && a->unknown_pairs == 1,
	      "an unknown pooled cell is never shared (a's partner %d)", a ? a->best.partner[0] : -9);
	analysis_advice_free(&a);
}

int main(void)
{
	test_pooled_draws();
	test_smt_mixture();
	test_plan_from_mixtures();
	return test_done("test_advise_fleet");
}
