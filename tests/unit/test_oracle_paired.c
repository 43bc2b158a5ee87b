/*
 * test_oracle_paired.c — the paired design against an oracle written apart from the code:
 *   - the closed form: with d ~ Normal(delta, sigma) and flat priors, delta's marginal is a
 *     Student-t with n - 2 degrees of freedom, centre mean(d), scale sqrt(SS / (n (n - 2)));
 *     the test computes it from the d's with GSL and holds the analysis to it (interval,
 *     P(slower), the ROPE's probabilities) at 4, 5, 6, 10 and 50 blocks;
 *   - the grid (the normal model asked on the grid, and the Student-t likelihood, which has no
 *     closed form) at every --grid setting from 51 to 4001: within 1% of the reference's
 *     half-width and 0.002 of its P(slower); the t model's reference is GSL's adaptive
 *     quadrature of the marginal, sigma integrated out by QAGI, delta by QAGI again;
 *   - the ROPE is symmetric in log: mirrored data get mirrored probabilities and verdicts (0.60
 *     and 1.67 at --rope 67; 0.5 and 2 at --rope 50);
 *   - A/A: the share of "slower" or "faster" verdicts with no difference, by simulation, against
 *     its exact value for this posterior, 2 (1 - F_{n-1}(t_{n-2, 0.975} sqrt((n-1)/(n-2)))):
 *     1.3% at 4 blocks, rising to 5% as blocks grow;
 *   - coverage of the 95% interval of the ratio: 4 blocks (exact: 98.7%, this prior's), drift
 *     shared by a block's placements (through the folder path: groups with block numbers), and
 *     heavy-tailed noise (Student-t with 3 degrees of freedom); median widths printed.
 * Every random number comes from a fixed seed: the test is deterministic, never lucky.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>

#include "analysis/analysis.h"
#include "tests/harness.h"
#include "tests/unit/analysis_testdata.h"

static const int GRIDS[] = { 51, 101, 201, 401, 801, 2001, 4001 };
enum { GRID_COUNT = sizeof GRIDS / sizeof GRIDS[0] };
static const size_t BLOCKS[] = { 4, 5, 6, 10, 50 };
enum { BLOCK_COUNT = sizeof BLOCKS / sizeof BLOCKS[0] };

/* ---- the oracle ------------------------------------------------------------------------- */

/* The closed form from the d's: centre, scale, degrees of freedom. */
struct t_oracle {
	double m, scale, dof;
};

static struct t_oracle t_oracle_of(const double *d, size_t n)
{
	double m = 0, ss = 0;
	for (size_t i = 0; i < n; i++)
		m += d[i];
	m /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (d[i] - m) * (d[i] - m);
	return (struct t_oracle){ m, sqrt(ss / ((double)n * ((double)n - 2))), (double)n - 2 };
}

static double t_oracle_quantile(const struct t_oracle *o, double q)
{
	return o->m + o->scale * gsl_cdf_tdist_Pinv(q, o->dof);
}

static double t_oracle_cdf(const struct t_oracle *o, double x)
{
	return gsl_cdf_tdist_P((x - o->m) / o->scale, o->dof);
}

/* The Student-t likelihood's marginal of delta by adaptive quadrature (nothing shared with
 * the grid): p(delta) = integral over sigma > 0 of sigma^-n prod (1 + z^2/nu)^-((nu+1)/2),
 * z = (d_i - delta) / sigma, flat priors; sigma = exp(u) over the whole line. */
struct t_quad {
	const double *d;
	size_t n;
	double nu, log_ref, delta;
	gsl_integration_workspace *inner, *outer;
};

static double t_quad_sigma_integrand(double u, void *p)
{
	const struct t_quad *q = p;
	double sigma = exp(u), l = (1.0 - (double)q->n) * u;
	for (size_t i = 0; i < q->n; i++) {
		double z = (q->d[i] - q->delta) / sigma;
		l -= 0.5 * (q->nu + 1) * log1p(z * z / q->nu);
	}
	return exp(l - q->log_ref);
}

static double t_quad_density(double delta, void *p)
{
	struct t_quad *q = p;
	q->delta = delta;
	gsl_function f = { t_quad_sigma_integrand, q };
	double result, error;
	gsl_integration_qagi(&f, 1e-13, 1e-9, 2000, q->inner, &result, &error);
	return result;
}

static double t_quad_integral(struct t_quad *q, double lo, double hi)
{
	gsl_function f = { t_quad_density, q };
	double result, error;
	if (isinf(lo) && isinf(hi))
		gsl_integration_qagi(&f, 1e-13, 1e-10, 2000, q->outer, &result, &error);
	else if (isinf(lo))
		gsl_integration_qagil(&f, hi, 1e-13, 1e-10, 2000, q->outer, &result, &error);
	else
		gsl_integration_qagiu(&f, lo, 1e-13, 1e-10, 2000, q->outer, &result, &error);
	return result;
}

/* The reference's P(delta <= x), its quantiles by bisection. */
static double t_quad_cdf(struct t_quad *q, double x, double total)
{
	return t_quad_integral(q, -INFINITY, x) / total;
}

/* Newton's method on the CDF (its derivative is the density), from a starting point x. */
static double t_quad_quantile(struct t_quad *q, double p, double total, double x)
{
	for (int i = 0; i < 30; i++) {
		double f = t_quad_cdf(q, x, total) - p, density = t_quad_density(x, q) / total;
		double step = f / density;
		x -= step;
		if (fabs(step) < 1e-12 * (fabs(x) + 1e-3))
			break;
	}
	return x;
}

/* ---- the analysis under test ------------------------------------------------------------ */

static int compare_d(const double *d, size_t n, const struct analysis_options *opt,
                     struct analysis_comparison *c)
{
	char err[256];
	int rc = analysis_compare_log_ratios(d, n, 1.0, opt, c, err, sizeof err);
	if (rc < 0)
		printf("# analysis: %s\n", err);
	return rc;
}

/* d: n per-block log ratios, centre `centre`, normal noise of sd. */
static void normal_d(struct rng *r, double *d, size_t n, double centre, double sd)
{
	for (size_t i = 0; i < n; i++)
		d[i] = rng_normal(r, centre, sd);
}

static double student_t3(struct rng *r)
{
	double chi2 = 0;
	for (int k = 0; k < 3; k++) {
		double z = rng_normal(r, 0, 1);
		chi2 += z * z;
	}
	return rng_normal(r, 0, 1) / sqrt(chi2 / 3);
}

/* ---- closed form ------------------------------------------------------------------------ */

static void test_closed_form(void)
{
	struct rng r = { 28006 };
	double worst_ci = 0, worst_p = 0;
	bool all_closed = true;
	int compared = 0;
	for (size_t k = 0; k < BLOCK_COUNT; k++)
		for (int rep = 0; rep < 4; rep++) {
			size_t n = BLOCKS[k];
			double d[64];
			normal_d(&r, d, n, 0.04 * rep - 0.02, 0.01 + 0.01 * rep);
			struct analysis_options opt;
			analysis_options_init(&opt);
			opt.rope_pct = 5;
			struct analysis_comparison c;
			if (compare_d(d, n, &opt, &c) < 0)
				continue;
			compared++;
			struct t_oracle o = t_oracle_of(d, n);
			double half = o.scale * gsl_cdf_tdist_Pinv(0.975, o.dof);
			worst_ci = fmax(worst_ci, fabs(log(c.ratio_ci[0]) - t_oracle_quantile(&o, 0.025)) / half);
			worst_ci = fmax(worst_ci, fabs(log(c.ratio_ci[1]) - t_oracle_quantile(&o, 0.975)) / half);
			worst_p = fmax(worst_p, fabs(c.p_a_gt_b - (1 - t_oracle_cdf(&o, 0))));
			worst_p = fmax(worst_p, fabs(c.p_rope_above - (1 - t_oracle_cdf(&o, log(1.05)))));
			worst_p = fmax(worst_p, fabs(c.p_rope_below - t_oracle_cdf(&o, -log(1.05))));
			all_closed = all_closed && c.paired_grid.closed_form && c.paired_grid.dof == o.dof
			             && c.design == ANALYSIS_DESIGN_PAIRED;
			analysis_comparison_release(&c);
		}
	CHECK_INT(compared, (int)BLOCK_COUNT * 4, "every closed-form case analysed");
	CHECK(all_closed, "the normal model's paired posterior is the closed form (a Student-t with "
	      "n - 2 degrees of freedom), never the grid");
	CHECK(worst_ci < 1e-9, "closed form at 4, 5, 6, 10 and 50 blocks: the interval's ends are "
	      "the oracle's t quantiles (worst %.2g of the half-width)", worst_ci);
	CHECK(worst_p < 1e-12, "... P(slower) and the ROPE's probabilities are the oracle's t CDF "
	      "(worst %.2g)", worst_p);

	/* The folder path (groups with blocks, as analyze DIR) takes the closed form too. */
	double a[4] = { 1.00, 1.10, 1.03, 1.07 }, b[4] = { 0.98, 1.0, 1.01, 1.0 };
	long blocks[4] = { 0, 1, 2, 3 };
	struct analysis_group ga = { .name = "sibling", .values_s = a, .trials = blocks,
	                             .blocks = blocks, .n = 4 };
	struct analysis_group gb = { .name = "non-sibling", .values_s = b, .trials = blocks,
	                             .blocks = blocks, .n = 4 };
	struct analysis_options opt;
	analysis_options_init(&opt);
	struct analysis_comparison c;
	char err[256];
	if (CHECK(analysis_compare_groups(&ga, &gb, 0, &opt, &c, NULL, err, sizeof err) == 0,
	          "4 blocks compared by analysis_compare_groups")) {
		double d[4];
		for (int i = 0; i < 4; i++)
			d[i] = log(a[i]) - log(b[i]);
		struct t_oracle o = t_oracle_of(d, 4);
		CHECK(c.design == ANALYSIS_DESIGN_PAIRED && c.paired_grid.closed_form,
		      "... paired, in closed form");
		CHECK_NEAR(log(c.ratio_ci[1]), t_oracle_quantile(&o, 0.975), 1e-12,
		           "... its upper end is the t(2) quantile's");
		CHECK(analysis_comparison_settled(&c), "... and settled (4 blocks)");
		analysis_comparison_release(&c);
	}
}

/* ---- the grid against the closed form (normal model) ----------------------------------- */

static void test_normal_grid(void)
{
	struct rng r = { 4001 };
	double worst_half[GRID_COUNT] = { 0 }, worst_p[GRID_COUNT] = { 0 };
	int failures = 0;
	for (size_t k = 0; k < BLOCK_COUNT; k++) {
		size_t n = BLOCKS[k];
		double d[64];
		normal_d(&r, d, n, 0.05, 0.03);
		struct t_oracle o = t_oracle_of(d, n);
		double half = o.scale * gsl_cdf_tdist_Pinv(0.975, o.dof);
		for (int g = 0; g < GRID_COUNT; g++) {
			/* Every setting at 4 blocks (the heavy tails); the others at 51, 201, 801. */
			if (n != 4 && GRIDS[g] != 51 && GRIDS[g] != 201 && GRIDS[g] != 801)
				continue;
			struct analysis_options opt;
			analysis_options_init(&opt);
			opt.paired_grid = true;
			opt.grid_points = GRIDS[g];
			struct analysis_comparison c;
			if (compare_d(d, n, &opt, &c) < 0) {
				failures++;
				continue;
			}
			failures += c.paired_grid.closed_form || c.paired_grid.at_bound;
			double grid_half = 0.5 * (log(c.ratio_ci[1]) - log(c.ratio_ci[0]));
			worst_half[g] = fmax(worst_half[g], fabs(grid_half / half - 1));
			worst_p[g] = fmax(worst_p[g], fabs(c.p_a_gt_b - (1 - t_oracle_cdf(&o, 0))));
			analysis_comparison_release(&c);
		}
	}
	CHECK_INT(failures, 0, "the normal model on the grid (asked for), within its bound, at "
	          "every setting");
	for (int g = 0; g < GRID_COUNT; g++)
		CHECK(worst_half[g] < 0.01 && worst_p[g] < 0.002, "--grid %d, %s blocks: the grid's "
		      "half-width within %.3f%% of the closed form's, P(slower) within %.1e", GRIDS[g],
		      GRIDS[g] == 51 || GRIDS[g] == 201 || GRIDS[g] == 801 ? "4, 5, 6, 10 and 50" : "4",
		      100 * worst_half[g], worst_p[g]);
}

/* ---- the Student-t likelihood against quadrature ---------------------------------------- */

static void t_grid_case(size_t n, const int *grids, int grid_count, struct rng *r,
                        gsl_integration_workspace *inner, gsl_integration_workspace *outer)
{
	double d[16];
	normal_d(r, d, n, 0.05, 0.03);
	struct t_quad q = { .d = d, .n = n, .nu = 4, .inner = inner, .outer = outer };
	struct t_oracle o = t_oracle_of(d, n);
	/* A reference level near the integrand's peak keeps exp() in range. */
	q.log_ref = 0;
	q.delta = o.m;
	double u0 = log(o.scale * sqrt((double)n)), peak = -INFINITY;
	for (double u = u0 - 3; u <= u0 + 3; u += 0.25) {
		double l = (1.0 - (double)n) * u;
		for (size_t i = 0; i < n; i++) {
			double z = (d[i] - o.m) / exp(u);
			l -= 2.5 * log1p(z * z / 4);
		}
		peak = fmax(peak, l);
	}
	q.log_ref = peak;
	double total = t_quad_integral(&q, -INFINITY, INFINITY);
	double lo = t_quad_quantile(&q, 0.025, total, t_oracle_quantile(&o, 0.025));
	double hi = t_quad_quantile(&q, 0.975, total, t_oracle_quantile(&o, 0.975));
	double p_slower = 1 - t_quad_cdf(&q, 0, total), half = 0.5 * (hi - lo);
	for (int g = 0; g < grid_count; g++) {
		struct analysis_options opt;
		analysis_options_init(&opt);
		opt.model = ANALYSIS_MODEL_T;
		opt.grid_points = grids[g];
		struct analysis_comparison c;
		if (!CHECK(compare_d(d, n, &opt, &c) == 0, "t model, %zu blocks, --grid %d: analysed",
		           n, grids[g]))
			continue;
		double end = fmax(fabs(log(c.ratio_ci[0]) - lo), fabs(log(c.ratio_ci[1]) - hi)) / half;
		double dp = fabs(c.p_a_gt_b - p_slower);
		CHECK(end < 0.01 && dp < 0.002 && !c.paired_grid.at_bound, "t model, %zu blocks, "
		      "--grid %d: the interval's ends within %.3f%% of the quadrature's half-width "
		      "(%.5f), P(slower) %.5f against %.5f", n, grids[g], 100 * end, half, c.p_a_gt_b,
		      p_slower);
		analysis_comparison_release(&c);
	}
}

static void test_t_grid(void)
{
	gsl_set_error_handler_off();
	gsl_integration_workspace *inner = gsl_integration_workspace_alloc(2000);
	gsl_integration_workspace *outer = gsl_integration_workspace_alloc(2000);
	struct rng r = { 77 };
	t_grid_case(4, GRIDS, GRID_COUNT, &r, inner, outer);
	static const int some[] = { 51, 201, 801 };
	t_grid_case(6, some, 3, &r, inner, outer);
	t_grid_case(10, some, 3, &r, inner, outer);
	gsl_integration_workspace_free(inner);
	gsl_integration_workspace_free(outer);
}

/* ---- the ROPE: symmetric in log --------------------------------------------------------- */

static enum analysis_verdict mirrored(enum analysis_verdict v)
{
	return v == ANALYSIS_VERDICT_SLOWER ? ANALYSIS_VERDICT_FASTER
	       : v == ANALYSIS_VERDICT_FASTER ? ANALYSIS_VERDICT_SLOWER : v;
}

/* Data at ratio `ratio` and the same blocks mirrored (B / A): mirrored answers. */
static void rope_mirror(double ratio, double rope, double noise, enum analysis_model model,
                        enum analysis_verdict want, struct rng *r)
{
	double d[12], e[12];
	normal_d(r, d, 12, log(ratio), noise);
	for (int i = 0; i < 12; i++)
		e[i] = -d[i];
	struct analysis_options opt;
	analysis_options_init(&opt);
	opt.rope_pct = rope;
	opt.model = model;
	struct analysis_comparison c, m;
	if (compare_d(d, 12, &opt, &c) < 0 || compare_d(e, 12, &opt, &m) < 0)
		return;
	const char *how = model == ANALYSIS_MODEL_T ? "t model" : "normal model";
	CHECK(fabs(c.p_rope_above - m.p_rope_below) < 1e-9 && fabs(c.p_rope_below - m.p_rope_above)
	      < 1e-9 && fabs(c.p_rope - m.p_rope) < 1e-9, "--rope %g, %s: %.3g and its mirror "
	      "%.3g get mirrored probabilities (within %.3f / %.3f against %.3f / %.3f)", rope, how,
	      ratio, 1 / ratio, c.p_rope, m.p_rope, c.p_rope_below, m.p_rope_above);
	CHECK(c.verdict == want && m.verdict == mirrored(want), "--rope %g, %s: %.3g is '%s' and "
	      "%.3g '%s'", rope, how, ratio, analysis_verdict_name(c.verdict), 1 / ratio,
	      analysis_verdict_name(m.verdict));
	analysis_comparison_release(&c);
	analysis_comparison_release(&m);
}

static void test_rope_symmetric(void)
{
	struct rng r = { 67 };
	/* 0.60 lies just inside 1/1.67 = 0.599: neither side can say "the same" or a direction. */
	rope_mirror(0.60, 67, 0.02, ANALYSIS_MODEL_NORMAL, ANALYSIS_VERDICT_UNDECIDED, &r);
	rope_mirror(0.60, 67, 0.02, ANALYSIS_MODEL_T, ANALYSIS_VERDICT_UNDECIDED, &r);
	/* Twice as fast, at --rope 50 (1/1.5 to 1.5): faster, and its mirror slower. */
	rope_mirror(0.5, 50, 0.02, ANALYSIS_MODEL_NORMAL, ANALYSIS_VERDICT_FASTER, &r);
	/* 1.2 at --rope 50: the same, both ways. */
	rope_mirror(1.2, 50, 0.02, ANALYSIS_MODEL_NORMAL, ANALYSIS_VERDICT_SAME, &r);
	/* Noise-free (identical blocks, the grid's floor): a ratio of 1/1.6 is within --rope 67,
	 * as 1.6 is. */
	double d[6], e[6];
	for (int i = 0; i < 6; i++) {
		d[i] = log(1 / 1.6);
		e[i] = log(1.6);
	}
	struct analysis_options opt;
	analysis_options_init(&opt);
	opt.rope_pct = 67;
	struct analysis_comparison c, m;
	if (compare_d(d, 6, &opt, &c) == 0 && compare_d(e, 6, &opt, &m) == 0) {
		CHECK(c.verdict == ANALYSIS_VERDICT_SAME && m.verdict == ANALYSIS_VERDICT_SAME,
		      "identical blocks at 1/1.6 and 1.6, --rope 67: both practically the same "
		      "(%s, %s)", analysis_verdict_name(c.verdict), analysis_verdict_name(m.verdict));
		analysis_comparison_release(&c);
		analysis_comparison_release(&m);
	}
}

/* ---- A/A: verdicts with no difference --------------------------------------------------- */

/* This posterior's exact A/A rate: it says slower or faster when |mean| / (s / sqrt n), a
 * t_{n-1} under the null, exceeds t_{n-2, 0.975} sqrt((n - 1) / (n - 2)). */
static double aa_exact(size_t n)
{
	double nn = (double)n;
	double edge = gsl_cdf_tdist_Pinv(0.975, nn - 2) * sqrt((nn - 1) / (nn - 2));
	return 2 * gsl_cdf_tdist_Q(edge, nn - 1);
}

enum { AA_RUNS = 2000 };

static void test_aa_rate(void)
{
	static const size_t blocks[] = { 4, 6, 8, 12, 20, 50 };
	struct rng r = { 1313 };
	for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; k++) {
		size_t n = blocks[k];
		int verdicts = 0;
		for (int run = 0; run < AA_RUNS; run++) {
			double d[64];
			normal_d(&r, d, n, 0, 0.02);
			struct analysis_options opt;
			analysis_options_init(&opt);
			struct analysis_comparison c;
			if (compare_d(d, n, &opt, &c) < 0)
				continue;
			verdicts += c.verdict == ANALYSIS_VERDICT_SLOWER || c.verdict == ANALYSIS_VERDICT_FASTER;
			analysis_comparison_release(&c);
		}
		double rate = (double)verdicts / AA_RUNS, want = aa_exact(n);
		double se = sqrt(want * (1 - want) / AA_RUNS);
		CHECK(fabs(rate - want) <= 4 * se && want < 0.05, "A/A at %zu blocks: a verdict in "
		      "%.2f%% of %d (exact for this posterior: %.2f%%, below the nominal 5%%)", n,
		      100 * rate, AA_RUNS, 100 * want);
	}
}

/* ---- coverage --------------------------------------------------------------------------- */

enum { COVERAGE_RUNS = 4000, FOLDER_RUNS = 800 };

static int compare_doubles(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* One simulated comparison: blocks of A and B, user time = 0.25 s x drift(block) x ratio (A)
 * x noise; the drift (a random walk and a slow wave) hits a block's two trials alike.
 * noise_t3: Student-t(3) noise scaled to sd, else normal. Through the folder path
 * (analysis_compare_groups: groups with block numbers, paired by the analysis) or, faster, the
 * per-block log ratios straight to analysis_compare_log_ratios. 0 with *c, or -1. */
static int simulate_one(struct rng *r, size_t n, double ratio, double sd, double drift_sd,
                        bool noise_t3, bool folder_path, struct analysis_comparison *c)
{
	double a[64], b[64], d[64], walk = 0;
	long blocks[64];
	for (size_t i = 0; i < n; i++) {
		walk += drift_sd > 0 ? rng_normal(r, 0, drift_sd) : 0;
		double drift = walk + (drift_sd > 0 ? 0.1 * sin(0.3 * (double)i) : 0);
		double na = noise_t3 ? sd * student_t3(r) / sqrt(3.0) : rng_normal(r, 0, sd);
		double nb = noise_t3 ? sd * student_t3(r) / sqrt(3.0) : rng_normal(r, 0, sd);
		a[i] = 0.25 * exp(drift + log(ratio) + na);
		b[i] = 0.25 * exp(drift + nb);
		d[i] = log(a[i]) - log(b[i]);
		blocks[i] = (long)i;
	}
	struct analysis_options opt;
	analysis_options_init(&opt);
	if (!folder_path)
		return compare_d(d, n, &opt, c);
	struct analysis_group ga = { .name = "A", .values_s = a, .trials = blocks,
	                             .blocks = blocks, .n = n };
	struct analysis_group gb = { .name = "B", .values_s = b, .trials = blocks,
	                             .blocks = blocks, .n = n };
	opt.grid_points = ANALYSIS_GRID_MIN; /* the per-placement summaries only: the answer is
	                                      * the closed form's */
	char err[256];
	int rc = analysis_compare_groups(&ga, &gb, 0, &opt, c, NULL, err, sizeof err);
	if (rc == 0 && c->design != ANALYSIS_DESIGN_PAIRED) {
		analysis_comparison_release(c);
		rc = -1;
	}
	return rc;
}

static void coverage_case(const char *what, size_t n, double ratio, double sd, double drift_sd,
                          bool noise_t3, bool folder_path, double lo, double hi, uint64_t seed)
{
	struct rng r = { seed };
	int runs = folder_path ? FOLDER_RUNS : COVERAGE_RUNS, covered = 0, analysed = 0;
	static double widths[COVERAGE_RUNS];
	for (int run = 0; run < runs; run++) {
		struct analysis_comparison c;
		if (simulate_one(&r, n, ratio, sd, drift_sd, noise_t3, folder_path, &c) < 0)
			continue;
		covered += c.ratio_ci[0] <= ratio && ratio <= c.ratio_ci[1];
		widths[analysed++] = c.ratio_ci[1] / c.ratio_ci[0] - 1;
		analysis_comparison_release(&c);
	}
	CHECK_INT(analysed, runs, "every simulated comparison analysed, paired");
	qsort(widths, (size_t)analysed, sizeof *widths, compare_doubles);
	double cov = (double)covered / runs;
	CHECK(cov >= lo && cov <= hi, "coverage, %s: the 95%% interval of the ratio covers the "
	      "truth in %.2f%% of %d (bounds %.1f-%.1f%%); median width %.2f%% of the ratio", what,
	      100 * cov, runs, 100 * lo, 100 * hi, analysed ? 100 * widths[analysed / 2] : NAN);
}

static void test_coverage(void)
{
	/* Normal noise: this posterior's exact coverage is 1 - its A/A rate (98.67% at 4 blocks,
	 * 97.33% at 6, 96.67% at 8, 96.06% at 12): within 4 standard errors of it. A flat prior on
	 * sigma is conservative at few blocks, so 95 +- 2 holds from 8 blocks on, not at 4 or 6. */
	static const size_t normal_blocks[] = { 4, 6, 8 };
	for (size_t k = 0; k < 3; k++) {
		size_t n = normal_blocks[k];
		double exact = 1 - aa_exact(n), se = sqrt(exact * (1 - exact) / COVERAGE_RUNS);
		char what[64];
		snprintf(what, sizeof what, "%zu blocks, normal noise (exact %.2f%%)", n, 100 * exact);
		coverage_case(what, n, 1.3, 0.03, 0, false, false, exact - 4 * se,
		              fmin(1, exact + 4 * se), 404 + n);
	}
	/* Heavy tails (each trial's noise a Student-t with 3 degrees of freedom): the normal
	 * model's interval is conservative, the more so at few blocks (97.5% at 8, 96.7% at 12,
	 * 96.1% at 20, 95.9% at 40 in 10,000 runs each). */
	coverage_case("20 blocks, heavy tails (Student-t, 3 degrees of freedom)", 20, 1.1, 0.03, 0,
	              true, false, 0.93, 0.97, 1203);
	coverage_case("20 blocks with drift shared by each block, through the folder path", 20,
	              1.3, 0.03, 0.04, false, true, 0.93, 0.97, 2020);
	coverage_case("30 blocks, heavy tails and drift, through the folder path", 30, 0.9, 0.02,
	              0.05, true, true, 0.93, 0.97, 808);
}

int main(void)
{
	test_closed_form();
	test_normal_grid();
	test_t_grid();
	test_rope_symmetric();
	test_aa_rate();
	test_coverage();
	return test_done("test_oracle_paired");
}
