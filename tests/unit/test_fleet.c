/*
 * test_fleet.c — the fleet's hierarchical model (fleet/fleet_model.c) against an independent
 * computation, and its outlier rule on simulated fleets (synthetic, fixed-seed generator).
 *
 * The independent computation integrates the same posterior directly: on a (mu, tau) grid, the
 * product over nodes of Normal(m_i | mu, s_i^2 + tau^2) times the half-Cauchy prior of tau,
 * evaluated node by node (no sufficient statistics, no analytic integral over mu), first on a
 * coarse grid over the whole prior range to find the mass, then on a fine grid over it.
 */
#include <math.h>
#include <stdlib.h>

#include "fleet/fleet.h"
#include "tests/harness.h"
#include "tests/unit/analysis_testdata.h"

struct direct {
	double ratio_mean, ratio_ci[2], tau_mean, tau_ci[2], pred_ci[2];
};

static double log_post(const double *m, const double *s, size_t n, double mu, double tau)
{
	double a = tau / FLEET_TAU_PRIOR_SCALE, lp = -log1p(a * a);
	for (size_t i = 0; i < n; i++) {
		double v = s[i] * s[i] + tau * tau;
		lp += -0.5 * log(v) - 0.5 * (m[i] - mu) * (m[i] - mu) / v;
	}
	return lp;
}

/* Grid of P x P cells over [mlo, mhi] x [tlo, thi], normalised probabilities into w. */
static void direct_grid(const double *m, const double *s, size_t n, double mlo, double mhi,
                        double tlo, double thi, size_t P, double *w)
{
	double best = -INFINITY, total = 0;
	for (size_t a = 0; a < P; a++)
		for (size_t b = 0; b < P; b++) {
			double mu = mlo + ((double)a + 0.5) * (mhi - mlo) / (double)P;
			double tau = tlo + ((double)b + 0.5) * (thi - tlo) / (double)P;
			w[a * P + b] = log_post(m, s, n, mu, tau);
			best = fmax(best, w[a * P + b]);
		}
	for (size_t k = 0; k < P * P; k++)
		total += (w[k] = exp(w[k] - best));
	for (size_t k = 0; k < P * P; k++)
		w[k] /= total;
}

/* The q-quantile of a marginal on P cells of width h from lo (linear within a cell). */
static double marginal_quantile(const double *p, size_t P, double lo, double h, double q)
{
	double acc = 0;
	for (size_t k = 0; k < P; k++) {
		if (acc + p[k] >= q)
			return lo + h * ((double)k + (q - acc) / p[k]);
		acc += p[k];
	}
	return lo + h * (double)P;
}

static void direct_posterior(const double *m, const double *s, size_t n, struct direct *out)
{
	size_t C = 300, P = 1000;
	double *w = malloc(P * P * sizeof *w);
	double mmin = m[0], mmax = m[0];
	for (size_t i = 1; i < n; i++) {
		mmin = fmin(mmin, m[i]);
		mmax = fmax(mmax, m[i]);
	}
	/* coarse: the whole prior range of tau, mu wide enough for tau = FLEET_TAU_MAX */
	double mlo = mmin - 7, mhi = mmax + 7, tlo = 0, thi = FLEET_TAU_MAX;
	direct_grid(m, s, n, mlo, mhi, tlo, thi, C, w);
	size_t a0 = C, a1 = 0, b1 = 0;
	for (size_t a = 0; a < C; a++)
		for (size_t b = 0; b < C; b++)
			if (w[a * C + b] > 1e-14) {
				a0 = a < a0 ? a : a0;
				a1 = a > a1 ? a : a1;
				b1 = b > b1 ? b : b1;
			}
	double hm = (mhi - mlo) / (double)C, ht = (thi - tlo) / (double)C;
	mlo += hm * ((double)a0 - 1);
	mhi = mlo + hm * ((double)(a1 - a0) + 3);
	thi = fmin(FLEET_TAU_MAX, ht * ((double)b1 + 2));
	direct_grid(m, s, n, mlo, mhi, tlo, thi, P, w);
	hm = (mhi - mlo) / (double)P;
	ht = (thi - tlo) / (double)P;
	double *pm = calloc(P, sizeof *pm), *pt = calloc(P, sizeof *pt);
	out->ratio_mean = out->tau_mean = 0;
	for (size_t a = 0; a < P; a++)
		for (size_t b = 0; b < P; b++) {
			double mu = mlo + ((double)a + 0.5) * hm, tau = tlo + ((double)b + 0.5) * ht;
			pm[a] += w[a * P + b];
			pt[b] += w[a * P + b];
			out->ratio_mean += w[a * P + b] * exp(mu);
			out->tau_mean += w[a * P + b] * tau;
		}
	out->ratio_ci[0] = exp(marginal_quantile(pm, P, mlo, hm, 0.025));
	out->ratio_ci[1] = exp(marginal_quantile(pm, P, mlo, hm, 0.975));
	out->tau_ci[0] = marginal_quantile(pt, P, tlo, ht, 0.025);
	out->tau_ci[1] = marginal_quantile(pt, P, tlo, ht, 0.975);
	/* the predictive interval: bisection on the mixture's CDF over a coarser copy */
	size_t Q = 200;
	direct_grid(m, s, n, mlo, mhi, tlo, thi, Q, w);
	for (int side = 0; side < 2; side++) {
		double q = side ? 0.975 : 0.025, lo = mlo - 6 * thi - 1, hi = mhi + 6 * thi + 1;
		for (int it = 0; it < 50; it++) {
			double x = 0.5 * (lo + hi), cdf = 0;
			for (size_t a = 0; a < Q; a++)
				for (size_t b = 0; b < Q; b++) {
					double mu = mlo + ((double)a + 0.5) * (mhi - mlo) / (double)Q;
					double tau = tlo + ((double)b + 0.5) * (thi - tlo) / (double)Q;
					cdf += w[a * Q + b] * 0.5 * erfc(-(x - mu) / tau / sqrt(2.0));
				}
			if (cdf < q)
				lo = x;
			else
				hi = x;
		}
		out->pred_ci[side] = exp(0.5 * (lo + hi));
	}
	free(pm);
	free(pt);
	free(w);
}

/* A fleet: n nodes with log-ratio effects around mu (spread tau), each measured with error s. */
static void simulate(struct rng *r, size_t n, double mu, double tau, double *m, double *s)
{
	for (size_t i = 0; i < n; i++) {
		s[i] = 0.01 + 0.03 * rng_uniform(r);
		m[i] = rng_normal(r, rng_normal(r, mu, tau), s[i]);
	}
}

static void against_direct(const char *what, const double *m, const double *s, size_t n)
{
	struct fleet_pooled p;
	struct direct d;
	if (!CHECK(fleet_pool(m, s, n, NAN, &p, NULL, NULL) == 0 && p.ok, "%s: pooled", what))
		return;
	direct_posterior(m, s, n, &d);
	double rw = p.ratio_ci[1] - p.ratio_ci[0], tw = p.tau_ci[1] - p.tau_ci[0];
	double pw = p.predictive_ci[1] - p.predictive_ci[0];
	printf("# %s: pooled %.5f [%.5f, %.5f] direct %.5f [%.5f, %.5f]; tau %.5f [%.5f, %.5f] "
	       "direct %.5f [%.5f, %.5f]\n", what, p.ratio_mean, p.ratio_ci[0], p.ratio_ci[1],
	       d.ratio_mean, d.ratio_ci[0], d.ratio_ci[1], p.tau_mean, p.tau_ci[0], p.tau_ci[1],
	       d.tau_mean, d.tau_ci[0], d.tau_ci[1]);
	CHECK_NEAR(p.ratio_mean, d.ratio_mean, 0.02 * rw, "pooled slowdown mean vs direct integration");
	CHECK_NEAR(p.ratio_ci[0], d.ratio_ci[0], 0.02 * rw, "pooled slowdown 2.5% vs direct");
	CHECK_NEAR(p.ratio_ci[1], d.ratio_ci[1], 0.02 * rw, "pooled slowdown 97.5% vs direct");
	CHECK_NEAR(p.tau_mean, d.tau_mean, 0.02 * tw, "spread mean vs direct integration");
	CHECK_NEAR(p.tau_ci[1], d.tau_ci[1], 0.02 * tw, "spread 97.5% vs direct");
	CHECK_NEAR(p.predictive_ci[0], d.pred_ci[0], 0.02 * pw, "predictive 2.5% vs direct");
	CHECK_NEAR(p.predictive_ci[1], d.pred_ci[1], 0.02 * pw, "predictive 97.5% vs direct");
}

static void test_against_direct(void)
{
	struct rng r = { 12 };
	double m[40], s[40];
	static const size_t sizes[] = { 2, 3, 8, 40 };
	static const double taus[] = { 0.0, 0.02, 0.08, 0.03 };
	for (size_t k = 0; k < 4; k++) {
		simulate(&r, sizes[k], log(1.2), taus[k], m, s);
		char what[64];
		snprintf(what, sizeof what, "%zu node(s), tau %.2f", sizes[k], taus[k]);
		against_direct(what, m, s, sizes[k]);
	}
}

/* Fleets of 8 nodes: how many have a node named, and whether the deviant (node 3) is. */
static void outlier_rates(size_t fleets, double deviant_shift, size_t *named_fleets,
                          size_t *deviant_named)
{
	struct rng r = { 2026 };
	enum { N = 8 };
	*named_fleets = *deviant_named = 0;
	for (size_t f = 0; f < fleets; f++) {
		double m[N], s[N], lo[N], hi[N], loo[2 * N];
		bool out[N];
		struct fleet_pooled p;
		struct fleet_outlier_check check = { lo, hi, out, loo };
		simulate(&r, N, log(1.15), 0.02, m, s);
		m[3] += deviant_shift;
		for (size_t i = 0; i < N; i++) {
			lo[i] = m[i] - 1.96 * s[i];
			hi[i] = m[i] + 1.96 * s[i];
		}
		if (fleet_pool(m, s, N, NAN, &p, NULL, &check) != 0)
			continue;
		bool any = false;
		for (size_t i = 0; i < N; i++)
			any |= out[i];
		*named_fleets += any;
		*deviant_named += out[3];
	}
}

static void test_outliers(void)
{
	size_t named, deviant;
	outlier_rates(200, 0, &named, &deviant);
	printf("# fleets of 8 nodes without a deviant: a node named in %zu of 200\n", named);
	CHECK(named <= 10, "no node is named in at least 95%% of 200 fleets without a deviant "
	      "(named in %zu)", named);
	outlier_rates(100, log(1.5) - log(1.15), &named, &deviant);
	printf("# fleets with node 3 at 1.5x instead of 1.15x: it is named in %zu of 100\n",
	       deviant);
	CHECK(deviant >= 95, "an injected deviant node is named (in %zu of 100 fleets)", deviant);

	double m[3] = { 0.1, 0.11, 0.5 }, s[3] = { 0.01, 0.01, 0.01 }, lo[3], hi[3], loo[6];
	bool out[3];
	for (int i = 0; i < 3; i++) {
		lo[i] = m[i] - 0.02;
		hi[i] = m[i] + 0.02;
	}
	struct fleet_outlier_check check = { lo, hi, out, loo };
	struct fleet_pooled p;
	CHECK(fleet_pool(m, s, 2, NAN, &p, NULL, &check) == 0 && !out[0] && !out[1] && isnan(loo[0]),
	      "two nodes: nothing judged");
	CHECK(fleet_pool(m, s, 3, NAN, &p, NULL, &check) == 0 && out[2] && !out[0] && !out[1],
	      "three nodes, one far off: that one is named, the others are not");
}

static void test_bad_input(void)
{
	struct fleet_pooled p;
	double m[2] = { 0.1, NAN }, s[2] = { 0.01, 0.01 }, z[2] = { 0.01, 0 };
	CHECK(fleet_pool(m, s, 2, NAN, &p, NULL, NULL) < 0, "a NaN log ratio is refused");
	CHECK(fleet_pool(m, z, 2, NAN, &p, NULL, NULL) < 0, "a zero sd is refused");
	CHECK(fleet_pool(m, s, 0, NAN, &p, NULL, NULL) == 0 && !p.ok, "no node: nothing pooled");
	CHECK(fleet_pool(m, s, 1, NAN, &p, NULL, NULL) == 0 && !p.ok && p.nodes == 1,
	      "one node: nothing pooled (its own answer is the answer)");
}

/* The pooled point (the posterior mean of exp(mu)) lies inside its own 95% interval, also for
 * the smallest groups, where tau's posterior is widest, and for nodes far apart. */
static void test_mean_inside_interval(void)
{
	struct rng r = { 77 };
	size_t outside = 0, tried = 0;
	double worst = 0;
	for (size_t n = 2; n <= 6; n++)
		for (int k = 0; k < 40; k++) {
			double m[6], s[6];
			for (size_t i = 0; i < n; i++) {
				s[i] = 0.002 + 0.2 * rng_uniform(&r);
				m[i] = log(1.2) + rng_normal(&r, 0, k % 4 == 0 ? 0.5 : 0.05);
			}
			struct fleet_pooled p;
			if (fleet_pool(m, s, n, NAN, &p, NULL, NULL) != 0 || !p.ok)
				continue;
			tried++;
			double lo = p.ratio_ci[0], hi = p.ratio_ci[1];
			if (!(lo <= p.ratio_mean && p.ratio_mean <= hi)) {
				outside++;
				worst = fmax(worst, fmax(lo - p.ratio_mean, p.ratio_mean - hi) / (hi - lo));
			}
		}
	printf("# pooled mean outside its interval in %zu of %zu fleets (worst by %.3g widths)\n",
	       outside, tried, worst);
	CHECK(tried == 200 && outside == 0, "the pooled ratio_mean lies inside its 95%% interval "
	      "in all %zu fleets of 2..6 nodes (outside in %zu)", tried, outside);
}

int main(void)
{
	test_against_direct();
	test_outliers();
	test_bad_input();
	test_mean_inside_interval();
	return test_done("test_fleet");
}
