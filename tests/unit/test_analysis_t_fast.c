/*
 * The fast Student-t form (analysis/grid_t.c: bins + a series in mu) against its slow exact
 * form (ANALYSIS_T_EXACT, every distinct value at every grid point).
 *
 * Its stated bound: the log-likelihood is within ANALYSIS_T_LOGLIK_TOLERANCE (1e-7) of the
 * exact one at every grid point, so every posterior probability is within a factor
 * exp(+-2e-7) (the difference's, a product of two, within exp(+-4e-7)). The checks: each
 * probability within 1e-6, each mean and interval end within 1e-6 of the 95% interval's width
 * (a quantile moves by at most the probability change over the density there), on continuous
 * data and on timer-quantized data, both with outliers; the grid report states a bound > 0 and
 * within the tolerance. Closer in: at every grid point of a grid laid out as grid.c does, the
 * fast log-likelihood is within its stated bound of the exact one (plus the exact sum's own
 * rounding). Small data keep the exact form, to the bit. With 5% of wild outliers
 * at 10^5 samples the fast form still gives the robust answer the normal model does not.
 */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/internal.h"
#include "tests/harness.h"
#include "tests/unit/analysis_testdata.h"

/* n samples near mean (sd 1%), a fraction `wild` of them 3x slower; quantized to `quantum`
 * seconds when quantum > 0. */
static double *make_data(size_t n, double mean, double wild, double quantum, uint64_t seed)
{
	struct rng rng = { seed };
	double *x = malloc(n * sizeof *x);
	if (!x)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		double v = rng_normal(&rng, mean, 0.01 * mean);
		if (rng_uniform(&rng) < wild)
			v = 3 * mean * (1 + rng_uniform(&rng));
		x[i] = quantum > 0 ? quantum * nearbyint(v / quantum) : v;
	}
	return x;
}

static struct analysis_result *run_t(const double *a, const double *b, size_t n,
                                     enum analysis_t_method method)
{
	struct analysis_options opt;
	analysis_options_init(&opt);
	opt.model = ANALYSIS_MODEL_T;
	opt.t_method = method;
	opt.grid_points = 101;
	opt.rope_pct = 0.5;
	return compare_arrays(a, n, b, n, &opt);
}

/* The largest difference of a location, in units of the exact interval's width. */
static double location_gap(double got, double want, const double ci[2])
{
	return fabs(got - want) / (ci[1] - ci[0]);
}

static double group_gap(const struct analysis_group_summary *f,
                        const struct analysis_group_summary *e)
{
	double gap = location_gap(f->mu_mean, e->mu_mean, e->mu_ci);
	for (int k = 0; k < 2; k++) {
		gap = fmax(gap, location_gap(f->mu_ci[k], e->mu_ci[k], e->mu_ci));
		gap = fmax(gap, location_gap(f->sigma_ci[k], e->sigma_ci[k], e->sigma_ci));
	}
	return fmax(gap, location_gap(f->sigma_mean, e->sigma_mean, e->sigma_ci));
}

static void fast_matches_exact(const char *what, size_t n, double quantum, uint64_t seed)
{
	double *a = make_data(n, 1.00, 0.02, quantum, seed);
	double *b = make_data(n, 1.01, 0.02, quantum, seed + 1);
	struct analysis_result *fast = a && b ? run_t(a, b, n, ANALYSIS_T_BINNED) : NULL;
	struct analysis_result *exact = a && b ? run_t(a, b, n, ANALYSIS_T_EXACT) : NULL;
	if (CHECK(fast && exact, "%s: both forms run", what)) {
		const struct analysis_comparison *f = &fast->comparisons[0], *e = &exact->comparisons[0];
		double gap = fmax(group_gap(&f->a, &e->a), group_gap(&f->b, &e->b));
		gap = fmax(gap, location_gap(f->diff_mean, e->diff_mean, e->diff_ci));
		gap = fmax(gap, location_gap(f->ratio_mean, e->ratio_mean, e->ratio_ci));
		for (int k = 0; k < 2; k++) {
			gap = fmax(gap, location_gap(f->diff_ci[k], e->diff_ci[k], e->diff_ci));
			gap = fmax(gap, location_gap(f->ratio_ci[k], e->ratio_ci[k], e->ratio_ci));
		}
		double pgap = fmax(fabs(f->p_a_gt_b - e->p_a_gt_b), fabs(f->p_rope - e->p_rope));
		pgap = fmax(pgap, fabs(f->p_rope_above - e->p_rope_above));
		printf("# %s: bound %.3g, exact form's bound %g; locations within %.3g of the "
		       "interval's width, probabilities within %.3g\n", what, f->grid.t_loglik_error,
		       e->grid.t_loglik_error, gap, pgap);
		CHECK(f->grid.t_loglik_error > 0 && f->grid.t_loglik_error <= ANALYSIS_T_LOGLIK_TOLERANCE,
		      "%s: the fast form ran and states a bound within the tolerance (%.3g)", what,
		      f->grid.t_loglik_error);
		CHECK(e->grid.t_loglik_error == 0, "%s: the exact form states no error", what);
		CHECK(gap <= 1e-6, "%s: means and interval ends match the exact form within 1e-6 "
		      "of the interval's width (%.3g)", what, gap);
		CHECK(pgap <= 1e-6, "%s: probabilities match within 1e-6 (%.3g)", what, pgap);
	}
	compared_free(&fast);
	compared_free(&exact);
	free(a);
	free(b);
}

/* The log-likelihood itself: |fast - exact| <= the stated bound at every (mu, sigma). */
static void loglik_within_bound(const char *what, size_t n, double quantum, uint64_t seed)
{
	enum { MU = 201, SIGMA = 21 };
	double *x = make_data(n, 1.0, 0.02, quantum, seed);
	if (!CHECK(x, "%s: samples made", what))
		return;
	struct t_samples ts;
	t_samples_init(&ts, x, n);
	bool sorted = true;
	for (size_t i = 1; i < n; i++)
		sorted = sorted && ts.sorted[i - 1] <= ts.sorted[i];
	CHECK(sorted, "%s: samples sorted", what);
	/* As grid.c: mu over the center +- 8 posterior scales, sigma from a bit below the spread. */
	double mu_offset[MU], ref = 1.0, sd = 0.01, half = 8 * sd / sqrt((double)n);
	for (int i = 0; i < MU; i++)
		mu_offset[i] = -half + 2 * half * i / (MU - 1);
	struct analysis_options opt;
	analysis_options_init(&opt);
	opt.model = ANALYSIS_MODEL_T;
	struct t_loglik fast, exact;
	double sigma_lo = 0.5 * sd, worst = 0, worst_ratio = 0;
	opt.t_method = ANALYSIS_T_BINNED;
	t_loglik_begin(&fast, &ts, mu_offset, MU, ref, sigma_lo, &opt);
	opt.t_method = ANALYSIS_T_EXACT;
	t_loglik_begin(&exact, &ts, mu_offset, MU, ref, sigma_lo, &opt);
	if (CHECK(fast.binned && !exact.binned, "%s: the fast form applies", what)) {
		for (int j = 0; j < SIGMA; j++) {
			double sigma = sigma_lo * (1 + 2.0 * j / (SIGMA - 1)), a[MU], b[MU];
			t_loglik_row(&fast, sigma, 0, a);
			t_loglik_row(&exact, sigma, 0, b);
			for (int i = 0; i < MU; i++) {
				/* The sums' own rounding (random-walk size, 4x; not part of the bound). */
				double rounding = 4 * sqrt((double)n) * DBL_EPSILON * fabs(b[i]);
				worst = fmax(worst, fabs(a[i] - b[i]));
				worst_ratio = fmax(worst_ratio, fabs(a[i] - b[i]) / (fast.error_bound + rounding));
			}
		}
		printf("# %s: %zu bins of %zu distinct values, %d terms; worst error %.3g, bound %.3g\n",
		       what, fast.bin_count, ts.unique_count, fast.order, worst, fast.error_bound);
		CHECK(fast.error_bound > 0 && fast.error_bound <= ANALYSIS_T_LOGLIK_TOLERANCE,
		      "%s: a bound within the tolerance (%.3g)", what, fast.error_bound);
		CHECK(worst_ratio <= 1, "%s: the log-likelihood is within its bound everywhere (worst "
		      "%.3g of the bound)", what, worst_ratio);
	}
	t_loglik_end(&fast);
	t_loglik_end(&exact);
	t_samples_release(&ts);
	free(x);
}

/* Compares two summaries to the bit. */
static bool same_group(const struct analysis_group_summary *x, const struct analysis_group_summary *y)
{
	return x->mu_mean == y->mu_mean && x->mu_ci[0] == y->mu_ci[0] && x->mu_ci[1] == y->mu_ci[1] &&
	       x->sigma_mean == y->sigma_mean && x->sigma_ci[0] == y->sigma_ci[0] &&
	       x->sigma_ci[1] == y->sigma_ci[1];
}

static void small_stays_exact(void)
{
	double *a = make_data(40, 1.00, 0.05, 0, 11), *b = make_data(40, 1.01, 0.05, 0, 12);
	struct analysis_result *autom = a && b ? run_t(a, b, 40, ANALYSIS_T_AUTO) : NULL;
	struct analysis_result *exact = a && b ? run_t(a, b, 40, ANALYSIS_T_EXACT) : NULL;
	if (CHECK(autom && exact, "small data: both run")) {
		const struct analysis_comparison *x = &autom->comparisons[0], *y = &exact->comparisons[0];
		CHECK(x->grid.t_loglik_error == 0, "small data: the default keeps the exact form");
		CHECK(same_group(&x->a, &y->a) && same_group(&x->b, &y->b) &&
		      x->diff_mean == y->diff_mean && x->p_a_gt_b == y->p_a_gt_b,
		      "small data: the same numbers to the bit");
	}
	compared_free(&autom);
	compared_free(&exact);
	free(a);
	free(b);
}

static void robust_at_scale(void)
{
	enum { N = 100000 };
	double *a = make_data(N, 1.00, 0.05, 1e-6, 21), *b = make_data(N, 1.00, 0, 1e-6, 22);
	struct analysis_options opt;
	analysis_options_init(&opt);
	struct analysis_result *normal = a && b ? compare_arrays(a, N, b, N, &opt) : NULL;
	opt.model = ANALYSIS_MODEL_T;
	struct analysis_result *t = a && b ? compare_arrays(a, N, b, N, &opt) : NULL;
	if (CHECK(normal && t, "10^5 samples, 5%% outliers: both models run")) {
		const struct analysis_comparison *c = &t->comparisons[0];
		printf("# t: mu_A %.6f [%.6f, %.6f], bound %.3g; normal: mu_A %.6f\n", c->a.mu_mean,
		       c->a.mu_ci[0], c->a.mu_ci[1], c->grid.t_loglik_error,
		       normal->comparisons[0].a.mu_mean);
		CHECK(c->grid.t_loglik_error > 0, "the default used the fast form at 10^5 samples");
		CHECK(fabs(c->a.mu_mean - 1.0) < 0.002, "t model: mu of A stays with the bulk (%g)",
		      c->a.mu_mean);
		CHECK(c->ratio_ci[0] < 1.0 && c->ratio_ci[1] > 1.0 && c->ratio_ci[1] < 1.003,
		      "t model: the ratio's interval holds 1 and is narrow [%g, %g]", c->ratio_ci[0],
		      c->ratio_ci[1]);
		CHECK(normal->comparisons[0].a.mu_mean > 1.1,
		      "normal model: mu of A pulled by the outliers (%g)",
		      normal->comparisons[0].a.mu_mean);
	}
	compared_free(&normal);
	compared_free(&t);
	free(a);
	free(b);
}

int main(void)
{
	small_stays_exact();
	loglik_within_bound("continuous, n = 2000", 2000, 0, 5);
	loglik_within_bound("quantized to 1 us, n = 20000", 20000, 1e-6, 6);
	fast_matches_exact("continuous, n = 1500", 1500, 0, 1);
	fast_matches_exact("quantized to 50 us, n = 20000", 20000, 5e-5, 3);
	robust_at_scale();
	return test_done("test_analysis_t_fast");
}
