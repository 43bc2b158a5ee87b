/*
 * Edge cases: n = 2 and 3 (heavy tails: widening stops at its bound and the report says the
 * answer depends on the grid), identical samples (the floor from the timer's resolution),
 * 1e-9 s and 1e6 s values, very different n, a million samples per group, bad options.
 */
#include <stdlib.h>

#include <gsl/gsl_errno.h>

#include "tests/harness.h"
#include "report/report.h"
#include "tests/unit/analysis_testdata.h"

static char *text_of(const struct analysis_result *r)
{
	char *text = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&text, &size);
	analyze_print(mem, r);
	fclose(mem);
	return text;
}

/* Whether needle occurs in [from, to). */
static bool has_between(const char *from, const char *to, const char *needle)
{
	const char *p = strstr(from, needle);
	return p && p < to;
}

static int count_in(const char *text, const char *needle)
{
	int n = 0;
	for (const char *p = text; p && (p = strstr(p, needle)) != NULL; p += strlen(needle))
		n++;
	return n;
}

static bool finite_comparison(const struct analysis_comparison *c)
{
	return isfinite(c->p_a_gt_b) && isfinite(c->diff_mean) && isfinite(c->diff_ci[0]) &&
	       isfinite(c->diff_ci[1]) && isfinite(c->diff_hdi[0]) && isfinite(c->diff_hdi[1]) &&
	       isfinite(c->a.mu_mean) && isfinite(c->b.sigma_mean);
}

static void tiny_samples(size_t n)
{
	double a[3] = { 10.0, 10.2, 10.1 }, b[3] = { 11.0, 11.3, 11.1 };
	struct analysis_options opt;
	analysis_options_init(&opt);
	struct analysis_result *r = compare_arrays(a, n, b, n, &opt);
	if (!CHECK(r != NULL, "n = %zu: analysis runs", n))
		return;
	const struct analysis_comparison *c = &r->comparisons[0];
	CHECK(c->grid.at_bound, "n = %zu: widening stopped at its bound (edge mass %g)", n,
	      c->grid.edge_mass);
	CHECK(c->grid.widenings == 8, "n = %zu: widened the maximum number of times (%d)", n,
	      c->grid.widenings);
	CHECK(c->verdict == ANALYSIS_VERDICT_UNDECIDED, "n = %zu: verdict is 'not enough data'", n);
	char *text = text_of(r);
	CHECK(strstr(text, "depend on the grid") && strstr(text, "Not enough data to say"),
	      "n = %zu: the text says the answer depends on the grid", n);
	free(text);
	json_t *j = analyze_json(r);
	CHECK(json_is_true(json_object_get(json_object_get(j, "grid"), "at_bound")),
	      "n = %zu: JSON grid.at_bound is true", n);
	CHECK_STR(json_string_value(json_object_get(j, "verdict")), "not enough data to say",
	          "JSON verdict");
	json_decref(j);
	compared_free(&r);
}

/* Small runs near 0: the prior mu > 0 keeps B's grid above zero however far the heavy-tailed
 * posterior widens it, so the slowdown and its interval are defined and no mean time is
 * negative. (Before, the widened grid crossed 0 and the ratio was undefined.) */
static void near_zero(size_t n)
{
	double a[5] = { 0.0100, 0.0112, 0.0095, 0.0108, 0.0103 };
	double b[5] = { 0.0098, 0.0105, 0.0101, 0.0097, 0.0104 };
	struct analysis_options opt;
	analysis_options_init(&opt);
	struct analysis_result *r = compare_arrays(a, n, b, n, &opt);
	if (!CHECK(r != NULL, "near 0, n = %zu: analysis runs", n))
		return;
	const struct analysis_comparison *c = &r->comparisons[0];
	CHECK(isfinite(c->ratio_mean) && isfinite(c->ratio_ci[0]) && isfinite(c->ratio_ci[1]),
	      "near 0, n = %zu: the slowdown and its interval are defined (%g, %g to %g)", n,
	      c->ratio_mean, c->ratio_ci[0], c->ratio_ci[1]);
	CHECK(c->ratio_ci[0] > 0 && c->ratio_ci[0] < 1 && c->ratio_ci[1] > 1,
	      "near 0, n = %zu: the slowdown's interval holds 1 and stays above 0", n);
	CHECK(c->a.mu_ci[0] > 0 && c->b.mu_ci[0] > 0, "near 0, n = %zu: mu_ci[0] > 0 (A %g, B %g)",
	      n, c->a.mu_ci[0], c->b.mu_ci[0]);
	CHECK(c->a.mu.values[0] > 0 && c->b.mu.values[0] > 0,
	      "near 0, n = %zu: no grid point of mu (plotted) is negative or 0", n);
	CHECK(c->grid.mu_range[1][0] > 0, "near 0, n = %zu: the reported grid of B starts above 0", n);
	char *text = text_of(r);
	CHECK(text && !strstr(text, "undefined: B's grid") && strstr(text, "mu > 0"),
	      "near 0, n = %zu: the text gives the ratio and names the prior mu > 0", n);
	free(text);
	json_t *j = analyze_json(r);
	CHECK(json_is_real(json_object_get(j, "ratio_mean")) &&
	      json_is_real(json_array_get(json_object_get(j, "ratio_ci"), 0)),
	      "near 0, n = %zu: JSON ratio_mean and ratio_ci are numbers", n);
	json_decref(j);
	compared_free(&r);
}

static void identical(void)
{
	double a[10], b[10];
	for (int i = 0; i < 10; i++) {
		a[i] = 11.54;
		b[i] = 11.55;
	}
	struct analysis_options opt;
	analysis_options_init(&opt);
	struct analysis_result *r = compare_arrays(a, 10, b, 10, &opt);
	if (CHECK(r != NULL, "identical samples: analysis runs")) {
		const struct analysis_comparison *c = &r->comparisons[0];
		CHECK(finite_comparison(c), "identical samples: every number finite");
		CHECK(c->a.sigma_floored && c->b.sigma_floored, "identical samples: sigma floored");
		CHECK_NEAR(c->grid.sigma_range[0][0], 1e-6, 1e-18,
		           "sigma's grid starts at the floor, the timer's 1 µs");
		CHECK(c->diff_ci[0] < -0.01 + 1e-5 && c->diff_ci[1] > -0.01 - 1e-5 &&
		      c->diff_ci[1] - c->diff_ci[0] < 1e-5,
		      "identical samples: the difference is -0.01 s to within the timer's resolution "
		      "[%g, %g]", c->diff_ci[0], c->diff_ci[1]);
		CHECK(c->verdict == ANALYSIS_VERDICT_FASTER, "identical samples: A is faster");
		CHECK(isnan(c->welch_t), "Welch's t undefined with zero spread, reported as such");
		CHECK(!c->grid.at_bound, "identical samples: the grid settled");
	}
	compared_free(&r);
	/* Both groups the same constant: no difference, no NaN. */
	r = compare_arrays(a, 10, a, 10, &opt);
	if (CHECK(r != NULL, "equal constants: analysis runs")) {
		const struct analysis_comparison *c = &r->comparisons[0];
		CHECK(finite_comparison(c), "equal constants: every number finite");
		CHECK_NEAR(c->p_a_gt_b, 0.5, 1e-9, "equal constants: P(A > B) = 0.5");
		CHECK_NEAR(c->diff_mean, 0.0, 1e-12, "equal constants: mean difference 0");
	}
	compared_free(&r);
}

static void scaled(double unit, double noise, const char *what)
{
	struct rng rng = { 77 };
	double a[20], b[20];
	for (int i = 0; i < 20; i++) {
		a[i] = rng_normal(&rng, unit, noise);
		b[i] = rng_normal(&rng, unit * 1.2, noise);
	}
	struct analysis_options opt;
	analysis_options_init(&opt);
	struct analysis_result *r = compare_arrays(a, 20, b, 20, &opt);
	if (!CHECK(r != NULL, "%s: analysis runs", what))
		return;
	const struct analysis_comparison *c = &r->comparisons[0];
	double truth = -0.2 * unit, se = noise * sqrt(2.0 / 20);
	CHECK(finite_comparison(c), "%s: every number finite", what);
	CHECK(c->diff_ci[0] < truth && truth < c->diff_ci[1] && c->diff_ci[1] < 0,
	      "%s: interval [%g, %g] holds the true difference %g and excludes 0", what,
	      c->diff_ci[0], c->diff_ci[1], truth);
	CHECK(c->diff_ci[1] - c->diff_ci[0] < 8 * se, "%s: interval about 4 standard errors wide", what);
	CHECK_NEAR(c->ratio_mean, 1 / 1.2, 0.01, "slowdown ratio");
	CHECK(c->verdict == ANALYSIS_VERDICT_FASTER && !c->grid.at_bound, "%s: A is faster", what);
	compared_free(&r);
}

static void huge_values(void)
{
	/* 1e6 s with a millisecond spread and a 10 ms difference: digits must survive. */
	struct rng rng = { 99 };
	double a[20], b[20];
	for (int i = 0; i < 20; i++) {
		a[i] = rng_normal(&rng, 1e6, 1e-3);
		b[i] = rng_normal(&rng, 1e6 + 0.01, 1e-3);
	}
	struct analysis_options opt;
	analysis_options_init(&opt);
	struct analysis_result *r = compare_arrays(a, 20, b, 20, &opt);
	if (CHECK(r != NULL, "1e6 s values: analysis runs")) {
		const struct analysis_comparison *c = &r->comparisons[0];
		CHECK(c->diff_ci[0] < -0.01 && -0.01 < c->diff_ci[1] && c->diff_ci[1] - c->diff_ci[0] < 0.003,
		      "1e6 s: interval [%.6f, %.6f] holds -0.01 and is ms-narrow", c->diff_ci[0],
		      c->diff_ci[1]);
		CHECK_NEAR(c->a.mu_mean, 1e6, 1e-3, "1e6 s: mu of A");
	}
	compared_free(&r);
}

static void different_n(void)
{
	struct rng rng = { 5 };
	enum { NB = 100000 };
	double a[5];
	double *b = malloc(NB * sizeof *b);
	for (int i = 0; i < 5; i++)
		a[i] = rng_normal(&rng, 10.0, 0.1);
	for (int i = 0; i < NB; i++)
		b[i] = rng_normal(&rng, 10.05, 0.1);
	struct analysis_options opt;
	analysis_options_init(&opt);
	struct analysis_result *r = compare_arrays(a, 5, b, NB, &opt);
	if (CHECK(r != NULL, "n = 5 vs 100000: analysis runs")) {
		const struct analysis_comparison *c = &r->comparisons[0];
		CHECK(c->diff_ci[0] < -0.05 && -0.05 < c->diff_ci[1], "n = 5 vs 100000: interval "
		      "[%g, %g] holds the truth", c->diff_ci[0], c->diff_ci[1]);
		CHECK(c->grid.mu_points[1] >= 10, "the large group keeps some points on its narrow mu "
		      "(%zu)", c->grid.mu_points[1]);
		CHECK(c->b.mu_ci[1] - c->b.mu_ci[0] < 0.01 && c->a.mu_ci[1] - c->a.mu_ci[0] > 0.1,
		      "each group's own interval width reflects its n");
	}
	compared_free(&r);
	free(b);
}

static void million(void)
{
	enum { N = 1000000 };
	struct rng rng = { 123 };
	double *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
	for (int i = 0; i < N; i++) {
		a[i] = rng_normal(&rng, 1.0, 0.01);
		b[i] = rng_normal(&rng, 1.0001, 0.01);
	}
	struct analysis_options opt;
	analysis_options_init(&opt);
	struct analysis_result *r = compare_arrays(a, N, b, N, &opt);
	if (CHECK(r != NULL, "a million samples per group: analysis runs")) {
		const struct analysis_comparison *c = &r->comparisons[0];
		double se = 0.01 * sqrt(2.0 / N);
		CHECK(fabs(c->diff_mean + 1e-4) < 5 * se, "a million: mean difference %g near -1e-4",
		      c->diff_mean);
		CHECK(c->diff_ci[1] - c->diff_ci[0] < 5 * se && c->diff_ci[1] - c->diff_ci[0] > 3 * se,
		      "a million: interval width about 3.9 standard errors");
		CHECK(c->verdict == ANALYSIS_VERDICT_FASTER, "a million: A is faster");
	}
	compared_free(&r);
	free(a);
	free(b);
}

static void options(void)
{
	double a[] = { 1, 2, 3 }, b[] = { 2, 3, 4 };
	char err[256] = "";
	struct analysis_dataset *d = analysis_dataset_from_arrays("A", a, 3, "B", b, 3, err, sizeof err);
	struct analysis_options opt;
	analysis_options_init(&opt);
	opt.grid_points = 5;
	struct analysis_result *r = analysis_run(d, &opt, err, sizeof err);
	CHECK(!r && strstr(err, "grid of 5 points"), "a 5-point grid is refused: %s", err);
	analysis_options_init(&opt);
	opt.rope_pct = 150;
	r = analysis_run(d, &opt, err, sizeof err);
	CHECK(!r && strstr(err, "ROPE"), "a 150%% ROPE is refused: %s", err);
	analysis_options_init(&opt);
	opt.seed_grid = true;
	opt.model = ANALYSIS_MODEL_T;
	r = analysis_run(d, &opt, err, sizeof err);
	CHECK(!r && strstr(err, "seed grid"), "seed grid with the t model is refused: %s", err);
	analysis_dataset_free(&d);
	double one[] = { 1.0 }, bad[] = { 1.0, -2.0 };
	d = analysis_dataset_from_arrays("A", one, 1, "B", b, 3, err, sizeof err);
	CHECK(!d && strstr(err, "at least 2"), "one sample is refused: %s", err);
	d = analysis_dataset_from_arrays("A", bad, 2, "B", b, 3, err, sizeof err);
	CHECK(!d && strstr(err, "negative"), "a negative time is refused: %s", err);

	/* ROPE: two equal groups within ±5 % are practically the same. */
	struct rng rng = { 3 };
	double x[40], y[40];
	for (int i = 0; i < 40; i++) {
		x[i] = rng_normal(&rng, 10.0, 0.05);
		y[i] = rng_normal(&rng, 10.0, 0.05);
	}
	analysis_options_init(&opt);
	opt.rope_pct = 5;
	r = compare_arrays(x, 40, y, 40, &opt);
	if (CHECK(r != NULL, "ROPE run")) {
		CHECK(r->comparisons[0].p_rope > 0.99, "P(within ±5%%) = %g", r->comparisons[0].p_rope);
		CHECK(r->comparisons[0].verdict == ANALYSIS_VERDICT_SAME, "verdict: practically the same");
	}
	compared_free(&r);
	analysis_options_init(&opt);
	r = compare_arrays(x, 40, y, 40, &opt);
	if (CHECK(r != NULL, "no ROPE run")) {
		CHECK(isnan(r->comparisons[0].p_rope), "p_rope undefined without a ROPE");
		json_t *j = analyze_json(r);
		CHECK(json_is_null(json_object_get(j, "p_rope")), "JSON p_rope is null without --rope");
		json_decref(j);
	}
	compared_free(&r);
}

/* Two 3-sample groups far apart (the walkthrough's case, as files): the posterior of mu is a
 * Cauchy, so its mean is the grid's. The text must not give a mean or a ratio as the answer,
 * must say why, and mark the numbers it still shows; the JSON keeps them. */
static void three_samples_text(void)
{
	double a[3] = { 0.0283, 0.0279, 0.0287 }, b[3] = { 0.0290, 0.0315, 0.0298 };
	struct analysis_options opt;
	analysis_options_init(&opt);
	struct analysis_result *r = compare_arrays(a, 3, b, 3, &opt);
	if (!CHECK(r != NULL, "3 + 3 samples: analysed"))
		return;
	const struct analysis_comparison *c = &r->comparisons[0];
	CHECK(!analysis_comparison_settled(c), "3 + 3 samples: the comparison is not settled");
	CHECK(c->verdict == ANALYSIS_VERDICT_UNDECIDED, "3 + 3 samples: not enough data to say");
	char *text = text_of(r);
	const char *answer = strstr(text, "(files):\n"); /* the comparison's heading, then its answer */
	CHECK(answer && strstr(answer, "A cannot be told apart from B with so few samples (n = 3 and "
	      "3): the interval is unbounded at this sample size; collect more samples (10 or more"),
	      "3 + 3 samples: the answer says they cannot be told apart, and why");
	const char *first_line_end = answer ? strchr(answer + 9, '\n') : NULL;
	CHECK(first_line_end && !has_between(answer, first_line_end, "times as long")
	      && !has_between(answer, first_line_end, " s on average"),
	      "3 + 3 samples: the answer quotes no mean difference or ratio");
	CHECK(strstr(text, "mu_A - mu_B: mean ") && strstr(text, " s (depends on the grid)")
	      && strstr(text, "mu_A / mu_B: mean ") && count_in(text, "(depends on the grid)") == 2,
	      "3 + 3 samples: the table's means are marked 'depends on the grid'");
	free(text);
	json_t *j = analyze_json(r);
	CHECK(json_is_real(json_object_get(j, "diff_mean")) && json_is_real(json_object_get(j, "ratio_mean")),
	      "3 + 3 samples: the JSON keeps diff_mean and ratio_mean (the grid's numbers)");
	json_decref(j);
	compared_free(&r);
}

/* With --rope the verdict follows P(beyond the ROPE), and the text states that rule with the
 * probability it used, never P(A > B) as if it decided. A is 2.5 % slower than B. */
static void rope_rule(void)
{
	static const double noise[10] = { 0.012, -0.008, 0.004, -0.013, 0.009, -0.002, 0.006,
	                                  -0.010, 0.001, 0.001 };
	double a[10], b[10];
	for (int i = 0; i < 10; i++) {
		a[i] = 1.025 + noise[i];
		b[i] = 1.0 + noise[9 - i];
	}
	struct analysis_options opt;
	analysis_options_init(&opt);
	struct analysis_result *plain = compare_arrays(a, 10, b, 10, &opt);
	opt.rope_pct = 2;
	struct analysis_result *wide = compare_arrays(a, 10, b, 10, &opt);
	opt.rope_pct = 0.5;
	struct analysis_result *narrow = compare_arrays(a, 10, b, 10, &opt);
	opt.rope_pct = 10;
	struct analysis_result *loose = compare_arrays(a, 10, b, 10, &opt);
	if (!CHECK(plain && wide && narrow && loose, "ROPE runs"))
		goto out;
	const struct analysis_comparison *p = &plain->comparisons[0], *w = &wide->comparisons[0];
	CHECK(p->verdict == ANALYSIS_VERDICT_SLOWER && p->p_a_gt_b >= 0.975,
	      "no ROPE: slower (P(A > B) = %g)", p->p_a_gt_b);
	CHECK(isnan(p->p_rope_above) && isnan(p->p_rope_below), "no ROPE: no P(beyond the ROPE)");
	CHECK(fabs(w->p_rope + w->p_rope_above + w->p_rope_below - 1) < 1e-9,
	      "±2 %%: above, within and below sum to 1");
	CHECK(w->p_rope_above < 0.975 && w->p_rope < 0.95 && w->verdict == ANALYSIS_VERDICT_UNDECIDED,
	      "±2 %%: P(slowdown > 2 %%) = %g < 0.975, P(within) = %g < 0.95: not enough data",
	      w->p_rope_above, w->p_rope);
	char *text = text_of(wide);
	char want[200];
	snprintf(want, sizeof want, "With --rope 2 %%, 'slower' needs P(A more than 2 %% slower) "
	         ">= 0.975; here it is %.2f, and P(within 0.98–1.02×) = %.2f", w->p_rope_above,
	         w->p_rope);
	CHECK(strstr(text, want) != NULL, "±2 %%: the text states the rule and its numbers: %s", want);
	snprintf(want, sizeof want, "P(A slower) = %.2f", w->p_a_gt_b);
	CHECK(!strstr(text, want) && !strstr(text, "at least 0.975 either way"),
	      "±2 %%: the sentence does not give P(A > B) as the deciding number");
	free(text);
	const struct analysis_comparison *n = &narrow->comparisons[0];
	CHECK(n->p_rope_above >= 0.975 && n->verdict == ANALYSIS_VERDICT_SLOWER,
	      "±0.5 %%: slower, as P(slowdown > 0.5 %%) = %g >= 0.975", n->p_rope_above);
	text = text_of(narrow);
	snprintf(want, sizeof want, "; P(slower by more than 0.5%%) = %.2f", n->p_rope_above);
	CHECK(strstr(text, want) != NULL, "±0.5 %%: the slower verdict gives P(slowdown > 0.5 %%): "
	      "%s", want);
	free(text);
	const struct analysis_comparison *l = &loose->comparisons[0];
	CHECK(l->verdict == ANALYSIS_VERDICT_SAME && l->p_rope >= 0.95,
	      "±10 %%: practically the same (P(within) = %g)", l->p_rope);
out:
	compared_free(&plain);
	compared_free(&wide);
	compared_free(&narrow);
	compared_free(&loose);
}

/* P(A > B) and P(A < B) beside each other read alike at the extremes: never "0.0000" next to
 * ">0.9999" (the seed's data: one side rounds to 1, the other to 0). */
static void extreme_probabilities(void)
{
	struct analysis_options opt;
	analysis_options_init(&opt);
	struct analysis_result *r = compare_arrays(seed_ht, 18, seed_noht, 20, &opt);
	if (!CHECK(r != NULL, "the seed's data analysed"))
		return;
	char *text = text_of(r);
	CHECK(strstr(text, "P(A > B) >0.9999   P(A < B) <0.0001") != NULL,
	      "extreme probabilities print as >0.9999 and <0.0001");
	CHECK(!strstr(text, "0.0000") && !strstr(text, "1.0000"), "no 0.0000 or 1.0000 printed");
	free(text);
	compared_free(&r);
}

static void recording_handler(const char *reason, const char *file, int line, int gsl_errno)
{
	(void)reason, (void)file, (void)line, (void)gsl_errno;
}

/* GSL's error handler is a global: the statistics switch it off once (GSL must not abort the
 * program), never on each call, where the fleet's worker threads would race on it. */
static void gsl_handler_written_once(void)
{
	double first = analysis_student_t_cdf(1.0, 5.0);
	gsl_error_handler_t *before = gsl_set_error_handler(recording_handler);
	CHECK(before != NULL, "after the first statistics call GSL's handler is no longer the "
	      "default (NULL: abort)");
	double again = analysis_student_t_cdf(1.0, 5.0) + analysis_student_t_quantile(0.9, 5.0);
	gsl_error_handler_t *after = gsl_set_error_handler_off();
	CHECK(after == recording_handler && isfinite(first) && isfinite(again),
	      "later statistics calls leave the handler alone (no write to GSL's global per call)");
}

int main(void)
{
	gsl_handler_written_once();
	tiny_samples(2);
	tiny_samples(3);
	near_zero(3);
	near_zero(5);
	identical();
	scaled(1e-9, 1e-11, "1e-9 s values");
	scaled(1.0, 0.01, "1 s values");
	huge_values();
	different_n();
	million();
	options();
	three_samples_text();
	rope_rule();
	extreme_probabilities();
	return test_done("test_analysis_edge");
}
