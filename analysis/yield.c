/*
 * yield.c — what SMT gives one core for this workload: with both siblings busy, the work done
 * per unit time relative to one copy running alone. Two copies on siblings each take t_sibling
 * for the work one copy alone does in t_alone, so the core does 2 · t_alone / t_sibling times
 * the work: above 1, SMT adds throughput; below 1, it costs throughput.
 */
#include <math.h>
#include <string.h>

#include "analysis/internal.h"

/* The comparison of sibling against a one-copy-per-core baseline: solo where it ran, else
 * non-sibling (each copy alone on its core, as the seed article's "no hyperthreading"). */
static const struct analysis_comparison *yield_comparison(const struct analysis_result *r)
{
	const char *baselines[] = { placement_name(PLACEMENT_SOLO),
	                            placement_name(PLACEMENT_NON_SIBLING) };
	for (size_t k = 0; k < sizeof baselines / sizeof baselines[0]; k++)
		for (size_t i = 0; i < r->comparison_count; i++) {
			const struct analysis_comparison *c = &r->comparisons[i];
			if (!strcmp(c->a.name, placement_name(PLACEMENT_SIBLING))
			    && !strcmp(c->b.name, baselines[k]))
				return c;
		}
	return NULL;
}

/* E[mu_B] E[1 / mu_A] for independent posteriors: the mean of mu_B / mu_A. */
static double inverse_ratio_mean(const struct analysis_comparison *c)
{
	double mean_b = analysis_dist_mean(&c->b.mu), mean_inv_a = 0;
	for (size_t i = 0; i < c->a.mu.count; i++)
		mean_inv_a += c->a.mu.probs[i] / c->a.mu.values[i];
	return mean_b * mean_inv_a;
}

void smt_yield_compute(struct analysis_result *r, const struct analysis_dataset *data)
{
	struct analysis_smt_yield *y = &r->smt_yield;
	memset(y, 0, sizeof *y);
	y->mean = y->ci[0] = y->ci[1] = NAN;
	/* Beside a different workload B, two copies' work is not the same work: no yield. */
	const struct analysis_comparison *c = data->from_folder && !data->beside_workload
	                                      ? yield_comparison(r) : NULL;
	if (!c || !isfinite(c->ratio_ci[0]) || !isfinite(c->ratio_ci[1]) || !(c->ratio_ci[0] > 0))
		return;
	y->known = true;
	y->baseline = c->b.name;
	y->design = c->design;
	y->settled = analysis_comparison_settled(c);
	if (c->design == ANALYSIS_DESIGN_PAIRED) {
		double mean = 0;
		for (size_t i = 0; i < c->log_ratio.count; i++)
			mean += c->log_ratio.probs[i] * exp(-c->log_ratio.values[i]);
		y->mean = 2 * mean;
	} else {
		y->mean = 2 * inverse_ratio_mean(c);
	}
	/* 2 / ratio is decreasing: the ratio's quantiles give the yield's, swapped. */
	y->ci[0] = 2 / c->ratio_ci[1];
	y->ci[1] = 2 / c->ratio_ci[0];
}
