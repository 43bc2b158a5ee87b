/*
 * The model against known answers.
 *
 * Closed form. With uniform priors on mu and sigma (not 1/sigma) and n normal samples with mean
 * m and SS = sum of squared deviations, the joint posterior is
 *     p(mu, sigma) ∝ sigma^-n exp(-(SS + n (mu - m)^2) / (2 sigma^2)).
 * Integrating sigma out (substitute u = 1/sigma^2): ∫ sigma^-n exp(-A / (2 sigma^2)) dsigma
 * ∝ A^-(n-1)/2 with A = SS + n (mu - m)^2, so
 *     p(mu) ∝ (1 + n (mu - m)^2 / SS)^-(n-1)/2,
 * a Student-t with nu = n - 2 degrees of freedom (exponent (nu + 1)/2), location m and scale
 * sqrt(SS / (n (n - 2))). (The 1/sigma prior would give n - 1 and s / sqrt(n).) The grid's
 * quantiles must match these, and be clearly closer to them than to the n - 1 form.
 *
 * Calibration. 400 simulated pairs of data sets (fixed-seed generator) with a known difference:
 * the 95% interval must cover it in 95% of them within a binomial tolerance; with no difference
 * the average P(A > B) must be near 0.5, and a verdict (slower or faster, both sides together)
 * must come in about 5% of them, as the 95% interval's excluding 0 would.
 */
#include <stdlib.h>

#include "tests/harness.h"
#include "tests/unit/analysis_testdata.h"

static void closed_form(size_t n, uint64_t seed)
{
	struct rng rng = { seed };
	double a[64], b[64];
	for (size_t i = 0; i < n; i++) {
		a[i] = rng_normal(&rng, 5.0, 0.2);
		b[i] = rng_normal(&rng, 5.0, 0.2);
	}
	double m = 0, ss = 0;
	for (size_t i = 0; i < n; i++)
		m += a[i];
	m /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (a[i] - m) * (a[i] - m);
	struct analysis_options opt;
	analysis_options_init(&opt);
	opt.grid_points = 401;
	struct analysis_result *r = compare_arrays(a, n, b, n, &opt);
	if (!CHECK(r != NULL, "n = %zu: analysis runs", n))
		return;
	const struct analysis_dist *mu = &r->comparisons[0].a.mu;
	double nu = (double)n - 2, scale = sqrt(ss / ((double)n * nu));
	double nu_jeffreys = (double)n - 1, scale_jeffreys = sqrt(ss / ((double)n * nu_jeffreys));
	const double qs[] = { 0.025, 0.1, 0.5, 0.9, 0.975 };
	double worst = 0, worst_other = 0;
	for (size_t k = 0; k < sizeof qs / sizeof qs[0]; k++) {
		double grid = analysis_dist_quantile(mu, qs[k]);
		double exact = m + scale * analysis_student_t_quantile(qs[k], nu);
		double other = m + scale_jeffreys * analysis_student_t_quantile(qs[k], nu_jeffreys);
		worst = fmax(worst, fabs(grid - exact) / scale);
		worst_other = fmax(worst_other, fabs(grid - other) / scale);
	}
	CHECK(worst < 0.01, "n = %zu: grid quantiles of mu match Student-t(n-2) within 1%% of its "
	      "scale (worst %.2g)", n, worst);
	CHECK(worst_other > 3 * worst, "n = %zu: and are clearly farther from the 1/sigma form "
	      "(%.2g vs %.2g)", n, worst_other, worst);
	/* The mean of mu and the sigma posterior's location make sense too. */
	CHECK_NEAR(r->comparisons[0].a.mu_mean, m, 0.01 * scale, "posterior mean of mu = sample mean");
	compared_free(&r);
}

static void calibration(void)
{
	enum { DATASETS = 400, N_A = 12, N_B = 15 };
	struct rng rng = { 20240601 };
	struct analysis_options opt;
	analysis_options_init(&opt);
	const double truth = 0.3; /* mu_A - mu_B */
	int covered = 0, hdi_covered = 0, ratio_covered = 0, failures = 0;
	int null_decided = 0, decided_with_zero_inside = 0;
	double p_sum_null = 0;
	for (int k = 0; k < DATASETS; k++) {
		double a[N_A], b[N_B], a0[N_A];
		for (int i = 0; i < N_A; i++) {
			a[i] = rng_normal(&rng, 10.0 + truth, 0.5);
			a0[i] = rng_normal(&rng, 10.0, 0.5);
		}
		for (int i = 0; i < N_B; i++)
			b[i] = rng_normal(&rng, 10.0, 0.8);
		struct analysis_result *r = compare_arrays(a, N_A, b, N_B, &opt);
		struct analysis_result *r0 = compare_arrays(a0, N_A, b, N_B, &opt);
		if (!r || !r0) {
			failures++;
		} else {
			const struct analysis_comparison *c = &r->comparisons[0];
			covered += c->diff_ci[0] <= truth && truth <= c->diff_ci[1];
			hdi_covered += c->diff_hdi[0] <= truth && truth <= c->diff_hdi[1];
			double ratio = (10.0 + truth) / 10.0;
			ratio_covered += c->ratio_ci[0] <= ratio && ratio <= c->ratio_ci[1];
			p_sum_null += r0->comparisons[0].p_a_gt_b;
			const struct analysis_comparison *c0 = &r0->comparisons[0];
			bool decided = c0->verdict == ANALYSIS_VERDICT_SLOWER ||
			               c0->verdict == ANALYSIS_VERDICT_FASTER;
			null_decided += decided;
			decided_with_zero_inside += decided && c0->diff_ci[0] < 0 && c0->diff_ci[1] > 0;
		}
		compared_free(&r);
		compared_free(&r0);
	}
	CHECK_INT(failures, 0, "every simulated data set analysed");
	double tolerance = 3 * sqrt(0.95 * 0.05 / DATASETS); /* three binomial standard errors */
	CHECK_NEAR((double)covered / DATASETS, 0.95, tolerance, "95% equal-tailed interval coverage");
	CHECK_NEAR((double)hdi_covered / DATASETS, 0.95, tolerance, "95% HDI coverage");
	CHECK_NEAR((double)ratio_covered / DATASETS, 0.95, tolerance, "95% slowdown-ratio coverage");
	/* Under no difference P(A > B) is about uniform: mean 0.5, standard error 0.29/20. */
	CHECK_NEAR(p_sum_null / DATASETS, 0.5, 0.05, "mean P(A > B) with no difference");
	double null_rate = (double)null_decided / DATASETS;
	double null_tolerance = 3 * sqrt(0.05 * 0.95 / DATASETS);
	CHECK(fabs(null_rate - 0.05) <= null_tolerance, "a verdict (slower or faster) in about 5%% of "
	      "data sets with no difference: %d of %d (%.3f, tolerance %.3f)", null_decided, DATASETS,
	      null_rate, null_tolerance);
	CHECK_INT(decided_with_zero_inside, 0, "no verdict while the 95% interval holds 0");
}

static void student_t(void)
{
	/* Known values: t quantiles of the tables, and symmetry. */
	CHECK_NEAR(analysis_student_t_quantile(0.975, 1), 12.7062047361747, 1e-9, "t(1) 97.5%");
	CHECK_NEAR(analysis_student_t_quantile(0.975, 8), 2.30600413520417, 1e-9, "t(8) 97.5%");
	CHECK_NEAR(analysis_student_t_quantile(0.975, 1e6), 1.95996635, 1e-6, "t(1e6) ~ normal");
	CHECK_NEAR(analysis_student_t_cdf(-2.0, 5), 0.0509697394149, 1e-10, "t(5) CDF at -2");
	CHECK_NEAR(analysis_student_t_cdf(0.0, 3), 0.5, 1e-15, "CDF at 0");
	/* Welch on two small samples against a hand computation. */
	double x[] = { 1, 2, 3, 4, 5 }, y[] = { 2, 4, 6, 8, 10, 12 };
	struct analysis_options opt;
	analysis_options_init(&opt);
	struct analysis_result *r = compare_arrays(x, 5, y, 6, &opt);
	if (CHECK(r != NULL, "Welch example runs")) {
		const struct analysis_comparison *c = &r->comparisons[0];
		/* var x = 2.5, var y = 14; se = sqrt(0.5 + 14/6) = 1.683251; t = -4/1.683251. */
		CHECK_NEAR(c->welch_t, -4.0 / sqrt(0.5 + 14.0 / 6.0), 1e-12, "Welch t");
		double q = 0.5 + 14.0 / 6.0;
		double df = q * q / (0.25 / 4 + (14.0 / 6.0) * (14.0 / 6.0) / 5);
		CHECK_NEAR(c->welch_df, df, 1e-9, "Welch-Satterthwaite df");
		CHECK_NEAR(c->welch_p, 2 * analysis_student_t_cdf(-fabs(c->welch_t), df), 1e-12,
		           "Welch p is the two-sided t tail");
		CHECK(c->welch_p > 0.04 && c->welch_p < 0.06, "Welch p about 0.05 (%g)", c->welch_p);
		/* Cohen's d: pooled sd = sqrt((4*2.5 + 5*14)/9). */
		CHECK_NEAR(c->cohens_d, -4.0 / sqrt((4 * 2.5 + 5 * 14.0) / 9), 1e-12, "Cohen's d");
	}
	compared_free(&r);
}

static void robust_model(void)
{
	/* One wild outlier: the t model's mu stays with the bulk, the normal model's moves. */
	double a[12] = { 10.0, 10.1, 9.9, 10.05, 9.95, 10.02, 9.98, 10.03, 9.97, 10.01, 9.99, 30.0 };
	double b[12] = { 10.0, 10.1, 9.9, 10.05, 9.95, 10.02, 9.98, 10.03, 9.97, 10.01, 9.99, 10.0 };
	struct analysis_options opt;
	analysis_options_init(&opt);
	opt.model = ANALYSIS_MODEL_T;
	struct analysis_result *r = compare_arrays(a, 12, b, 12, &opt);
	analysis_options_init(&opt);
	struct analysis_result *rn = compare_arrays(a, 12, b, 12, &opt);
	if (CHECK(r && rn, "t and normal models run")) {
		CHECK(fabs(r->comparisons[0].a.mu_mean - 10.0) < 0.05,
		      "t model: mu of A stays near 10 (%g)", r->comparisons[0].a.mu_mean);
		CHECK(rn->comparisons[0].a.mu_mean > 11.0,
		      "normal model: mu of A pulled by the outlier (%g)", rn->comparisons[0].a.mu_mean);
		CHECK(r->comparisons[0].grid.model == ANALYSIS_MODEL_T, "grid report names the t model");
		CHECK(r->groups[0].outlier_count == 1 && r->groups[0].outlier_trials[0] == 11,
		      "the outlier is flagged (sample 11), and kept: n = %zu", r->comparisons[0].a.n);
	}
	compared_free(&r);
	compared_free(&rn);
}

int main(void)
{
	closed_form(10, 1);
	closed_form(30, 2);
	student_t();
	robust_model();
	calibration();
	return test_done("test_analysis_model");
}
