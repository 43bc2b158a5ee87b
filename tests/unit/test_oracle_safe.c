/*
 * test_oracle_safe.c — the matrix's list of pairs safe to share holds jointly (analysis/matrix.h),
 * measured by simulation:
 *   - null matrices of 4 and 7 kernels whose every slowdown sits exactly at the bound (1.05 at
 *     the default 5%): no pair is safe, and the list names one in at most 5% of matrices; the
 *     rule it replaced (each cell's own 95% bound, a pair safe when both its cells are) is
 *     measured on the same matrices for comparison;
 *   - matrices whose every slowdown is 1 (all safe): the list is long, its joint probability is
 *     at least 0.95, and every listed cell is "practically the same" or "faster" (never "not
 *     enough data to say");
 *   - the rule itself on given probabilities: Holm's step-down and the product.
 * A simulated matrix is what a run measures: in each block every victim's baseline and every
 * cell once, so a victim's cells share its baseline's noise (their log ratios are correlated).
 * Every random number comes from a fixed seed.
 */
#include <math.h>
#include <stdlib.h>

#include "analysis/analysis.h"
#include "analysis/matrix.h"
#include "tests/harness.h"
#include "tests/unit/analysis_testdata.h"

enum { MAX_KERNELS = 7, BLOCKS = 10, MATRICES = 400 };

struct matrix_outcome {
	int listed_any;          /* matrices that list at least one pair */
	int old_listed_any;      /* ... by the old rule (each cell's 95% bound, both cells) */
	int undecided_listed;    /* listed cells whose verdict is not same or faster */
	int joint_below;         /* nonempty lists whose joint probability is under 0.95 */
	double pairs_listed;
};

/* One simulated matrix of k kernels, every slowdown `slowdown`, per-trial noise sd. */
static void one_matrix(struct rng *r, size_t k, double slowdown, double sd,
                       struct matrix_outcome *o)
{
	static double d[MAX_KERNELS * MAX_KERNELS][BLOCKS];
	for (int b = 0; b < BLOCKS; b++)
		for (size_t v = 0; v < k; v++) {
			double base = rng_normal(r, 0, sd);
			for (size_t g = 0; g < k; g++)
				d[v * k + g][b] = log(slowdown) + rng_normal(r, 0, sd) - base;
		}
	double p_safe[MAX_KERNELS * MAX_KERNELS];
	bool old_safe[MAX_KERNELS * MAX_KERNELS];
	enum analysis_verdict verdict[MAX_KERNELS * MAX_KERNELS];
	for (size_t c = 0; c < k * k; c++) {
		struct analysis_options opt;
		analysis_options_init(&opt);
		opt.rope_pct = 100 * ANALYSIS_MATRIX_SAFE_SLOWDOWN; /* a matrix's default ROPE */
		struct analysis_comparison cmp;
		char err[256];
		if (analysis_compare_log_ratios(d[c], BLOCKS, 0.25, &opt, &cmp, err, sizeof err) != 0) {
			printf("# analysis: %s\n", err);
			p_safe[c] = NAN;
			old_safe[c] = false;
			verdict[c] = ANALYSIS_VERDICT_UNDECIDED;
			continue;
		}
		p_safe[c] = analysis_matrix_cell_p_safe(&cmp, ANALYSIS_MATRIX_SAFE_SLOWDOWN);
		old_safe[c] = analysis_log_ratio_quantile(&cmp, ANALYSIS_MATRIX_SAFE_PROBABILITY)
		              < log1p(ANALYSIS_MATRIX_SAFE_SLOWDOWN);
		verdict[c] = cmp.verdict;
		analysis_comparison_release(&cmp);
	}
	struct analysis_safe_pair pairs[MAX_KERNELS * (MAX_KERNELS + 1) / 2];
	double joint;
	size_t candidates;
	size_t listed = analysis_safe_pairs(k, p_safe, ANALYSIS_MATRIX_SAFE_PROBABILITY, pairs,
	                                    &joint, &candidates);
	o->listed_any += listed > 0;
	o->pairs_listed += (double)listed;
	o->joint_below += listed > 0 && joint < ANALYSIS_MATRIX_SAFE_PROBABILITY;
	for (size_t i = 0; i < listed; i++) {
		size_t a = (size_t)pairs[i].a, b = (size_t)pairs[i].b;
		for (int side = 0; side < 2; side++) {
			enum analysis_verdict v = verdict[side ? b * k + a : a * k + b];
			o->undecided_listed += v != ANALYSIS_VERDICT_SAME && v != ANALYSIS_VERDICT_FASTER;
		}
	}
	bool old_any = false;
	for (size_t i = 0; i < k; i++)
		for (size_t j = i; j < k; j++)
			old_any = old_any || (old_safe[i * k + j] && old_safe[j * k + i]);
	o->old_listed_any += old_any;
}

static void test_null_at_the_bound(size_t k, uint64_t seed)
{
	struct rng r = { seed };
	struct matrix_outcome o = { 0 };
	for (int m = 0; m < MATRICES; m++)
		one_matrix(&r, k, 1 + ANALYSIS_MATRIX_SAFE_SLOWDOWN, 0.02, &o);
	double rate = (double)o.listed_any / MATRICES, old = (double)o.old_listed_any / MATRICES;
	CHECK(rate <= 0.05, "%zu kernels, every slowdown at the bound (1.05), %d blocks: a false safe "
	      "pair listed in %.1f%% of %d matrices (at most 5%%); the old per-cell rule: %.1f%%", k,
	      BLOCKS, 100 * rate, MATRICES, 100 * old);
}

static void test_all_safe(size_t k, uint64_t seed)
{
	struct rng r = { seed };
	struct matrix_outcome o = { 0 };
	for (int m = 0; m < MATRICES / 4; m++)
		one_matrix(&r, k, 1.0, 0.01, &o);
	int runs = MATRICES / 4;
	size_t pairs = k * (k + 1) / 2;
	CHECK(o.listed_any == runs && o.pairs_listed / runs > 0.8 * (double)pairs,
	      "%zu kernels, every slowdown 1 (1%% noise, %d blocks): every matrix lists pairs, "
	      "%.1f of %zu on average", k, BLOCKS, o.pairs_listed / runs, pairs);
	CHECK_INT(o.joint_below, 0, "... every list's joint probability is at least 0.95");
	CHECK_INT(o.undecided_listed, 0, "... and no listed cell reads 'not enough data to say' "
	          "(each is practically the same or faster)");
}

static void test_rule(void)
{
	/* 2 kernels: pairs (0,0), (0,1), (1,1); 3 in all. */
	double p[4] = { 0.999, 0.999, 0.999, 0.99 };
	struct analysis_safe_pair pairs[3];
	double joint;
	size_t candidates;
	size_t listed = analysis_safe_pairs(2, p, 0.95, pairs, &joint, &candidates);
	/* (0,0) 0.999 and (0,1) 0.998 pass 0.05/3 and 0.05/2, (1,1) 0.99 passes 0.05/1, and the
	 * product 0.999 x 0.998 x 0.99 = 0.987 is at least 0.95. */
	CHECK(listed == 3 && candidates == 3 && fabs(joint - 0.999 * 0.999 * 0.999 * 0.99) < 1e-12,
	      "three good pairs are listed, joint %.4f", joint);
	double q[4] = { 0.98, NAN, NAN, 0.999 };
	listed = analysis_safe_pairs(2, q, 0.95, pairs, &joint, &candidates);
	/* (1,1) 0.999: 0.001 <= 0.05/3; then (0,0) 0.98: 0.02 <= 0.05/2 = 0.025 passes. */
	CHECK(listed == 2 && candidates == 2 && pairs[0].a == 0 && pairs[1].a == 1,
	      "a pair with a cell that cannot be listed is no candidate; the others by Holm");
	double s[4] = { 0.96, 0.999, 0.999, 0.999 };
	listed = analysis_safe_pairs(2, s, 0.95, pairs, &joint, &candidates);
	/* (1,1) 0.999 and (0,1) 0.998 pass; (0,0) 0.96 last: 0.04 <= 0.05/1, and the product
	 * 0.999 x 0.998 x 0.96 = 0.957 is at least 0.95: listed. */
	CHECK(listed == 3 && joint >= 0.95, "Holm's last step allows 0.05 alone (joint %.3f)", joint);
	double t[4] = { 0.96, 0.999, 0.999, 0.96 };
	listed = analysis_safe_pairs(2, t, 0.95, pairs, &joint, &candidates);
	/* (0,1) 0.998 first, then a 0.96 at 0.05/2 = 0.025: stops. */
	CHECK(listed == 1 && pairs[0].a == 0 && pairs[0].b == 1, "the step-down stops at the "
	      "first pair whose chance of exceeding the bound is above 5%% over the pairs left");
}

int main(void)
{
	test_rule();
	test_null_at_the_bound(4, 404);
	test_null_at_the_bound(7, 707);
	test_all_safe(4, 4);
	test_all_safe(7, 7);
	return test_done("test_oracle_safe");
}
