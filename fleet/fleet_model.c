/*
 * fleet_model.c — the hierarchical model of a group of nodes (see fleet.h).
 *
 * For a fixed tau the likelihood of mu is a product of normals, so with mu's flat prior its
 * conditional is Normal(mhat(tau), 1 / W(tau)) with W = sum 1 / (s_i^2 + tau^2): the tau axis is
 * a grid of cells, and each cell's mu posterior is integrated exactly over the mu axis' cells.
 * The per-tau sums (W, S1, S2, L) are kept so that leaving one node out for the outlier check
 * costs O(tau cells), not O(nodes): a fleet of 1,000 nodes stays fast.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/alloc.h"
#include "fleet/fleet.h"

/* Cells whose log density is this far below the largest are taken as empty (e^-30 ≈ 1e-13). */
static const double NEGLIGIBLE_LOG = 30.0;

static double normal_cdf(double z)
{
	return 0.5 * erfc(-z / sqrt(2.0));
}

/* The grid over tau, its sums over nodes at each cell (m centred on `centre` for accuracy),
 * and the posterior over its cells with mu's conditional mean and precision per cell. */
struct model {
	double step;               /* cell width; cell t's tau is (t + 0.5) * step */
	double centre;
	double *tau, *w_sum, *s1, *s2, *log_det; /* log_det: -0.5 sum log(s_i^2 + tau^2) */
	double *prob, *mhat, *prec;
};

enum { T = FLEET_TAU_POINTS }; /* the grid's tau cells */
_Static_assert(FLEET_OUTLIER_MIN_NODES >= FLEET_POOL_MIN_NODES, "outliers are judged in a pool");

static void model_fill(struct model *md, const double *m, const double *s, size_t n,
                       double tau_hi, double centre)
{
	md->step = tau_hi / (double)T;
	md->centre = centre;
	memset(md->w_sum, 0, 4 * T * sizeof *md->w_sum); /* w_sum, s1, s2, log_det */
	for (size_t t = 0; t < T; t++) {
		double tau = ((double)t + 0.5) * md->step;
		md->tau[t] = tau;
		for (size_t i = 0; i < n; i++) {
			double v = s[i] * s[i] + tau * tau, w = 1 / v, d = m[i] - centre;
			md->w_sum[t] += w;
			md->s1[t] += w * d;
			md->s2[t] += w * d * d;
			md->log_det[t] -= 0.5 * log(v);
		}
	}
}

/* The posterior over tau cells (normalised into prob) and mu's conditional mean and precision
 * per cell, with node `skip` left out (skip >= n: none). */
static void tau_posterior(struct model *md, const double *m, const double *s, size_t skip,
                          size_t n)
{
	double best = -INFINITY;
	for (size_t t = 0; t < T; t++) {
		double tau = md->tau[t];
		double W = md->w_sum[t], S1 = md->s1[t], S2 = md->s2[t], L = md->log_det[t];
		if (skip < n) {
			double v = s[skip] * s[skip] + tau * tau, w = 1 / v, d = m[skip] - md->centre;
			W -= w;
			S1 -= w * d;
			S2 -= w * d * d;
			L += 0.5 * log(v);
		}
		double q = S2 - S1 * S1 / W;
		if (q < 0)
			q = 0; /* rounding: a sum of squares */
		double scaled = tau / FLEET_TAU_PRIOR_SCALE;
		md->prob[t] = -log1p(scaled * scaled) + L - 0.5 * log(W) - 0.5 * q;
		md->mhat[t] = md->centre + S1 / W;
		md->prec[t] = W;
		if (md->prob[t] > best)
			best = md->prob[t];
	}
	double total = 0;
	for (size_t t = 0; t < T; t++) {
		md->prob[t] = md->prob[t] - best < -NEGLIGIBLE_LOG ? 0 : exp(md->prob[t] - best);
		total += md->prob[t];
	}
	for (size_t t = 0; t < T; t++)
		md->prob[t] /= total;
}

/* The CDF at x of mu (the mixture over tau cells of its conditional Normal(mhat, 1 / prec)),
 * or with predictive of a new node's log ratio (Normal(mhat, 1 / prec + tau^2)). */
static double model_cdf(const struct model *md, bool predictive, double x)
{
	double f = 0;
	for (size_t t = 0; t < T; t++)
		if (md->prob[t] > 0)
			f += md->prob[t] * normal_cdf(predictive ? (x - md->mhat[t])
			                              / sqrt(1 / md->prec[t] + md->tau[t] * md->tau[t])
			                              : (x - md->mhat[t]) * sqrt(md->prec[t]));
	return f;
}

static double predictive_quantile(const struct model *md, double q)
{
	double lo = INFINITY, hi = -INFINITY;
	for (size_t t = 0; t < T; t++) {
		if (md->prob[t] <= 0)
			continue;
		double sd = sqrt(1 / md->prec[t] + md->tau[t] * md->tau[t]);
		lo = fmin(lo, md->mhat[t] - 12 * sd);
		hi = fmax(hi, md->mhat[t] + 12 * sd);
	}
	for (int k = 0; k < 100 && hi - lo > 1e-9; k++) {
		double mid = 0.5 * (lo + hi);
		if (model_cdf(md, true, mid) < q)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

/* The working arrays of one group, and the grid over tau: up to FLEET_TAU_MAX at first, then
 * narrowed to where the posterior has mass (with a quarter more), so that a concentrated
 * posterior gets all the cells. */
static void model_build(struct model *md, const double *m, const double *s, size_t n)
{
	double *block = xcalloc(8 * T, sizeof *block);
	*md = (struct model){ .tau = block, .w_sum = block + T, .s1 = block + 2 * T,
	                      .s2 = block + 3 * T, .log_det = block + 4 * T, .prob = block + 5 * T,
	                      .mhat = block + 6 * T, .prec = block + 7 * T };
	double centre = median_of(m, n);
	double tau_hi = FLEET_TAU_MAX;
	for (int pass = 0; pass < 4; pass++) {
		model_fill(md, m, s, n, tau_hi, centre);
		tau_posterior(md, m, s, n, n);
		size_t last = 0;
		for (size_t t = 0; t < T; t++)
			if (md->prob[t] > 0)
				last = t;
		double needed = fmin(FLEET_TAU_MAX, ((double)last + 1) * md->step * 1.25);
		if (needed > 0.5 * tau_hi)
			break;
		tau_hi = needed;
	}
}

/* mu's quantile q on FLEET_MU_POINTS cells of equal width: the marginal's CDF, exact at the cells'
 * edges (each tau cell's conditional is a normal), linear within a cell. The cells span every tau
 * cell's mean +- 9 sd (beyond, a cell's mass is below Phi(-9) = 1e-19). Only the edges that a
 * bisection visits are evaluated (about 10 of the 802), not the whole marginal: this is what
 * keeps a pooled cell cheap. */
static double mu_quantile(const struct model *md, double q)
{
	double lo = INFINITY, hi = -INFINITY;
	for (size_t t = 0; t < T; t++) {
		if (md->prob[t] <= 0)
			continue;
		lo = fmin(lo, md->mhat[t] - 9 / sqrt(md->prec[t]));
		hi = fmax(hi, md->mhat[t] + 9 / sqrt(md->prec[t]));
	}
	size_t M = FLEET_MU_POINTS;
	double h = (hi - lo) / (double)M;
	/* The smallest edge e in 1..M with CDF(edge e) >= q: the quantile lies in cell e - 1. */
	size_t below = 0, above = M;
	while (above - below > 1) {
		size_t mid = below + (above - below) / 2;
		if (model_cdf(md, false, lo + (double)mid * h) >= q)
			above = mid;
		else
			below = mid;
	}
	double f_lo = model_cdf(md, false, lo + (double)below * h);
	double f_hi = model_cdf(md, false, lo + (double)above * h);
	double frac = f_hi > f_lo ? (q - f_lo) / (f_hi - f_lo) : 0;
	frac = frac < 0 ? 0 : frac > 1 ? 1 : frac;
	return lo + ((double)below + frac) * h;
}

static void summarise(const struct model *md, struct fleet_pooled *out)
{
	out->mu_mean = out->ratio_mean = out->tau_mean = 0;
	for (size_t t = 0; t < T; t++) {
		out->mu_mean += md->prob[t] * md->mhat[t];
		out->ratio_mean += md->prob[t] * exp(md->mhat[t] + 0.5 / md->prec[t]); /* E exp(mu) | tau */
		out->tau_mean += md->prob[t] * md->tau[t];
	}
	out->mu_ci[0] = mu_quantile(md, 0.025);
	out->mu_ci[1] = mu_quantile(md, 0.975);
	out->ratio_ci[0] = exp(out->mu_ci[0]);
	out->ratio_ci[1] = exp(out->mu_ci[1]);
	struct analysis_dist tau = { md->tau, md->prob, T };
	out->tau_ci[0] = analysis_dist_quantile(&tau, 0.025);
	out->tau_ci[1] = analysis_dist_quantile(&tau, 0.975);
	out->predictive_log_ci[0] = predictive_quantile(md, 0.025);
	out->predictive_log_ci[1] = predictive_quantile(md, 0.975);
	out->predictive_ci[0] = exp(out->predictive_log_ci[0]);
	out->predictive_ci[1] = exp(out->predictive_log_ci[1]);
}

/* The ROPE's probabilities of the pooled mu (bound NAN: none). */
static void judge(const struct model *md, double bound, struct fleet_pooled *out)
{
	if (isnan(bound))
		return;
	double edge = log1p(bound);
	double below = model_cdf(md, false, -edge), upto = model_cdf(md, false, edge);
	out->p_rope_below = below;
	out->p_rope_above = 1 - upto;
	out->p_rope = fmax(0.0, upto - below);
	out->p_at_most_bound = upto;
}

/* mu's posterior as the mixture over tau cells of Normal(mhat, 1 / prec), the empty cells left
 * out; its three arrays in one allocation, held by weight. */
static void keep_mixture(const struct model *md, struct analysis_log_mixture *mix)
{
	size_t count = 0;
	for (size_t t = 0; t < T; t++)
		count += md->prob[t] > 0;
	double *weight = xmalloc(3 * (count + 1) * sizeof *weight), *mean = weight + count + 1;
	double *sd = mean + count + 1;
	*mix = (struct analysis_log_mixture){ 0, weight, mean, sd };
	for (size_t t = 0; t < T; t++) {
		if (!(md->prob[t] > 0))
			continue;
		weight[mix->count] = md->prob[t];
		mean[mix->count] = md->mhat[t];
		sd[mix->count++] = 1 / sqrt(md->prec[t]);
	}
}

void fleet_mixture_release(struct analysis_log_mixture *mix)
{
	free((void *)mix->weight); /* the one allocation (keep_mixture) */
	memset(mix, 0, sizeof *mix);
}

int fleet_pool(const double *m, const double *s, size_t n, double bound,
               struct fleet_pooled *out, struct analysis_log_mixture *mix,
               const struct fleet_outlier_check *check)
{
	if (mix)
		memset(mix, 0, sizeof *mix);
	memset(out, 0, sizeof *out);
	out->nodes = n;
	out->p_rope_below = out->p_rope = out->p_rope_above = out->p_at_most_bound = NAN;
	for (size_t k = 0; check && k < n; k++) {
		check->outlier[k] = false;
		check->loo_log_ci[2 * k] = check->loo_log_ci[2 * k + 1] = NAN;
	}
	if (n < FLEET_POOL_MIN_NODES)
		return 0; /* one node's "pooled" answer would be its own, widened by tau's prior */
	for (size_t i = 0; i < n; i++)
		if (!isfinite(m[i]) || !(s[i] > 0) || !isfinite(s[i]))
			return -1;
	struct model md;
	model_build(&md, m, s, n);
	summarise(&md, out);
	judge(&md, bound, out);
	out->ok = true;
	if (mix)
		keep_mixture(&md, mix);
	/* The outlier check reuses the filled sums (after the pool's posterior is read: each node
	 * left out overwrites it). */
	for (size_t k = 0; check && n >= FLEET_OUTLIER_MIN_NODES && k < n; k++) {
		tau_posterior(&md, m, s, k, n);
		double *ci = &check->loo_log_ci[2 * k];
		ci[0] = predictive_quantile(&md, 0.025);
		ci[1] = predictive_quantile(&md, 0.975);
		check->outlier[k] = check->hi[k] < ci[0] || check->lo[k] > ci[1];
	}
	free(md.tau);
	return 0;
}

enum analysis_verdict fleet_pooled_verdict(const struct fleet_pooled *p)
{
	if (!p->ok)
		return ANALYSIS_VERDICT_UNDECIDED;
	if (p->ratio_ci[0] > 1)
		return ANALYSIS_VERDICT_SLOWER;
	if (p->ratio_ci[1] < 1)
		return ANALYSIS_VERDICT_FASTER;
	if (p->p_rope >= ANALYSIS_EQUIVALENCE_PROBABILITY) /* false for NAN: no ROPE */
		return ANALYSIS_VERDICT_SAME;
	return ANALYSIS_VERDICT_UNDECIDED;
}

double fleet_pooled_p_safe(const struct fleet_pooled *p)
{
	enum analysis_verdict v = fleet_pooled_verdict(p);
	return v == ANALYSIS_VERDICT_SAME || v == ANALYSIS_VERDICT_FASTER ? p->p_at_most_bound : NAN;
}
