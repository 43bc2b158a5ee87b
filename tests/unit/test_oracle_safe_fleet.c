/*
 * test_oracle_safe_fleet.c — a fleet's pooled matrix lists pairs safe to share that hold jointly
 * (fleet.h: the single matrix's rule, analysis/matrix.h, on the pooled cells), measured by
 * simulation:
 *   - null pooled matrices of 4 and 7 kernels, NODES nodes each, whose every slowdown sits
 *     exactly at the bound (1.05 at the default 5%), the nodes alike or spread around it: no
 *     pair is safe, and the list names one in at most 5% of matrices; the per-cell rule (a pair
 *     safe when each of its pooled cells is, at 95% each) is measured on the same matrices;
 *   - pooled matrices whose every slowdown is 1: pairs are listed, every list's joint
 *     probability is at least 0.95, and every listed cell reads "practically the same" or
 *     "faster", never "not enough data to say" (the page's verdicts agree with "safe").
 * A node's cell is what fleet pools: the normal summary (log mean, sd) of its paired posterior;
 * a victim's cells on one node share its baseline's error (correlated, as a node measures them).
 * Every random number comes from a fixed seed.
 */
#include <math.h>
#include <stdlib.h>

#include "analysis/matrix.h"
#include "fleet/fleet.h"
#include "tests/harness.h"
#include "tests/unit/analysis_testdata.h"

enum { MAX_KERNELS = 7, NODES = 8, MATRICES = 100, ALL_SAFE_MATRICES = 10 };

/* Each node's summary sd of a cell's log ratio, and the per-node spread of the true slowdown. */
static const double NODE_SD = 0.015;

struct outcome {
	int listed_any, per_cell_listed_any, undecided_listed, joint_below;
	double pairs_listed;
};

/* One pooled matrix of k kernels: every node's true log slowdown log(slowdown) + N(0, spread). */
static void one_matrix(struct rng *r, size_t k, double slowdown, double spread, struct outcome *o)
{
	double m[MAX_KERNELS * MAX_KERNELS][NODES], s[NODES];
	for (int j = 0; j < NODES; j++) {
		s[j] = NODE_SD;
		for (size_t v = 0; v < k; v++) {
			double base = rng_normal(r, 0, NODE_SD / sqrt(2.0));
			for (size_t g = 0; g < k; g++)
				m[v * k + g][j] = log(slowdown) + rng_normal(r, 0, spread)
				                  + rng_normal(r, 0, NODE_SD / sqrt(2.0)) - base;
		}
	}
	double p_safe[MAX_KERNELS * MAX_KERNELS];
	bool per_cell[MAX_KERNELS * MAX_KERNELS];
	enum analysis_verdict verdict[MAX_KERNELS * MAX_KERNELS];
	for (size_t c = 0; c < k * k; c++) {
		struct fleet_pooled p;
		if (fleet_pool(m[c], s, NODES, ANALYSIS_MATRIX_SAFE_SLOWDOWN, &p, NULL, NULL) != 0
		    || !p.ok) {
			printf("# pooling failed\n");
			p_safe[c] = NAN;
			per_cell[c] = false;
			verdict[c] = ANALYSIS_VERDICT_UNDECIDED;
			continue;
		}
		p_safe[c] = fleet_pooled_p_safe(&p);
		per_cell[c] = p.p_at_most_bound >= ANALYSIS_MATRIX_SAFE_PROBABILITY;
		verdict[c] = fleet_pooled_verdict(&p);
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
	bool any = false;
	for (size_t i = 0; i < k; i++)
		for (size_t j = i; j < k; j++)
			any = any || (per_cell[i * k + j] && per_cell[j * k + i]);
	o->per_cell_listed_any += any;
}

static void test_null_at_the_bound(size_t k, double spread, int matrices, uint64_t seed)
{
	struct rng r = { seed };
	struct outcome o = { 0 };
	for (int i = 0; i < matrices; i++)
		one_matrix(&r, k, 1 + ANALYSIS_MATRIX_SAFE_SLOWDOWN, spread, &o);
	double rate = (double)o.listed_any / matrices;
	CHECK(rate <= 0.05, "%zu kernels pooled over %d nodes (node spread %.3f), every slowdown at "
	      "the bound (1.05): a false safe pair listed in %.1f%% of %d matrices (at most 5%%); "
	      "the per-cell rule: %.1f%%", k, NODES, spread, 100 * rate, matrices,
	      100.0 * o.per_cell_listed_any / matrices);
}

static void test_all_safe(size_t k, uint64_t seed)
{
	struct rng r = { seed };
	struct outcome o = { 0 };
	int runs = ALL_SAFE_MATRICES;
	for (int i = 0; i < runs; i++)
		one_matrix(&r, k, 1.0, 0.0, &o);
	size_t pairs = k * (k + 1) / 2;
	CHECK(o.listed_any == runs && o.pairs_listed / runs > 0.5 * (double)pairs,
	      "%zu kernels pooled over %d nodes, every slowdown 1: every matrix lists pairs, %.1f "
	      "of %zu on average", k, NODES, o.pairs_listed / runs, pairs);
	CHECK_INT(o.joint_below, 0, "... every list's joint probability is at least 0.95");
	CHECK_INT(o.undecided_listed, 0, "... and no listed pooled cell reads 'not enough data to "
	          "say' (each is practically the same or faster)");
}

/* The pooled ROPE probabilities against the closed form where tau is pinned near 0: many
 * nodes that agree exactly pool to about Normal(mean, s^2 / n). */
static void test_judged_closed_form(void)
{
	double m[40], s[40];
	for (int i = 0; i < 40; i++) {
		m[i] = 0.03;
		s[i] = 0.05;
	}
	struct fleet_pooled p;
	CHECK(fleet_pool(m, s, 40, 0.05, &p, NULL, NULL) == 0 && p.ok, "40 identical nodes pool");
	double sd = 0.05 / sqrt(40.0), edge = log1p(0.05);
	double want = 0.5 * erfc(-(edge - 0.03) / sd / sqrt(2.0));
	/* tau's posterior keeps some mass above 0, which widens mu a little: within 0.02. */
	CHECK(fabs(p.p_at_most_bound - want) < 0.02, "P(pooled slowdown at most 5%%) %.4f, the "
	      "normal with tau = 0 %.4f", p.p_at_most_bound, want);
	CHECK(fabs(p.p_rope_below + p.p_rope + p.p_rope_above - 1) < 1e-9,
	      "below, within and above the ROPE add up to 1");
	struct fleet_pooled q;
	for (int i = 0; i < 40; i++)
		m[i] = 0.0;
	CHECK(fleet_pool(m, s, 40, NAN, &q, NULL, NULL) == 0 && isnan(q.p_rope)
	      && isnan(fleet_pooled_p_safe(&q))
	      && fleet_pooled_verdict(&q) == ANALYSIS_VERDICT_UNDECIDED,
	      "pooled without a ROPE: no 'practically the same', never safe");
	int rc = fleet_pool(m, s, 40, 0.05, &q, NULL, NULL);
	CHECK(rc == 0 && fleet_pooled_verdict(&q) == ANALYSIS_VERDICT_SAME
	      && fleet_pooled_p_safe(&q) > 0.95,
	      "the same nodes judged against 5%%: practically the same, safe with P %.4f",
	      q.p_at_most_bound);
}

int main(void)
{
	test_judged_closed_form();
	test_null_at_the_bound(4, 0.0, MATRICES, 404);
	test_null_at_the_bound(7, 0.0, MATRICES / 2, 707);
	test_null_at_the_bound(4, 0.01, MATRICES / 2, 4040);
	test_all_safe(4, 4);
	test_all_safe(7, 7);
	return test_done("test_oracle_safe_fleet");
}
