/*
 * yield.c — what SMT gives one core for this workload: with both siblings busy, the work done
 * per unit time relative to one copy running alone. Two copies on siblings each take t_sibling
 * for the work one copy alone does in t_alone, so the core does 2 · t_alone / t_sibling times
 * the work: above 1, SMT adds throughput; below 1, it costs throughput.
 *
 * One process given the placement's CPUs (run --one-process), by its wall time: on the
 * baseline's one PU (solo, same-pu) it does the whole work in t_alone; on the sibling pair its
 * threads share one core and do it in t_sibling, so the core does t_alone / t_sibling times the
 * work. By its user time (analyze --metric user) each thread's CPU time is half the process's
 * in both, which gives back the copies' 2 · t_alone / t_sibling. Two cores (non-sibling) are
 * not one core's baseline for one process: no yield from them.
 */
#include <math.h>
#include <string.h>

#include "analysis/internal.h"

/* The comparison of sibling against solo among the result's, else against non-sibling (each
 * copy alone on its core, as the seed article's "no hyperthreading"); NULL when neither ran. */
static const struct analysis_comparison *yield_comparison(const struct analysis_result *r,
                                                          enum placement baseline)
{
	for (size_t i = 0; i < r->comparison_count; i++) {
		const struct analysis_comparison *c = &r->comparisons[i];
		if (!strcmp(c->a.name, placement_name(PLACEMENT_SIBLING))
		    && !strcmp(c->b.name, placement_name(baseline)))
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

/* The yield from the comparison of sibling against a baseline. */
static void yield_from(struct analysis_smt_yield *y, const struct analysis_comparison *c,
                       enum placement baseline)
{
	double work = y->work;
	if (!isfinite(c->ratio_ci[0]) || !isfinite(c->ratio_ci[1]) || !(c->ratio_ci[0] > 0))
		return;
	y->known = true;
	y->baseline = placement_name(baseline);
	y->design = c->design;
	y->settled = analysis_comparison_settled(c);
	if (c->design == ANALYSIS_DESIGN_PAIRED) {
		/* exp(-E[delta]), as the ratio's point estimate is exp(E[delta]) (paired.c: the mean of
		 * exp(-delta) is the grid's edge's under few blocks' heavy tails). */
		y->mean = work / c->ratio_mean;
	} else {
		y->mean = work * inverse_ratio_mean(c);
	}
	/* work / ratio is decreasing: the ratio's quantiles give the yield's, swapped. */
	y->ci[0] = work / c->ratio_ci[1];
	y->ci[1] = work / c->ratio_ci[0];
}

/* Without solo, same-pu is the one-PU baseline: its two copies take turns on one PU, so each
 * copy's user time is what it takes alone (the accounting control checks exactly that). The
 * registry does not compare sibling with same-pu, so it is compared here. */
static void yield_from_same_pu(struct analysis_smt_yield *y, const struct analysis_result *r,
                               const struct analysis_dataset *data)
{
	int is = analysis_dataset_find(data, placement_name(PLACEMENT_SIBLING));
	int ip = analysis_dataset_find(data, placement_name(PLACEMENT_SAME_PU));
	if (is < 0 || ip < 0 || data->groups[is].n < 2 || data->groups[ip].n < 2)
		return;
	struct analysis_comparison c;
	char err[ERR_LEN];
	if (analysis_compare_groups(&data->groups[is], &data->groups[ip], data->measured_blocks,
	                            &r->options, &c, NULL, err, sizeof err) != 0)
		return; /* not comparable: the yield is not stated, like any other unknown */
	yield_from(y, &c, PLACEMENT_SAME_PU);
	analysis_comparison_release(&c);
}

void smt_yield_compute(struct analysis_result *r, const struct analysis_dataset *data)
{
	struct analysis_smt_yield *y = &r->smt_yield;
	memset(y, 0, sizeof *y);
	y->mean = y->ci[0] = y->ci[1] = NAN;
	y->one_process = data->one_process && data->metric == ANALYSIS_METRIC_WALL;
	y->work = y->one_process ? 1 : 2;
	/* Beside a different workload B, two copies' work is not the same work: no yield. */
	if (!data->from_folder || data->beside_workload)
		return;
	const struct analysis_comparison *c = yield_comparison(r, PLACEMENT_SOLO);
	if (c) {
		yield_from(y, c, PLACEMENT_SOLO);
		return;
	}
	yield_from_same_pu(y, r, data);
	if (!y->known && !data->one_process && (c = yield_comparison(r, PLACEMENT_NON_SIBLING)))
		yield_from(y, c, PLACEMENT_NON_SIBLING);
}
