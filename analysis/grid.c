/*
 * grid.c — the grid posterior of (mu, sigma) for each group, and the distribution of mu_A - mu_B.
 *
 * Log space throughout: for the normal model the log-likelihood comes from the sufficient
 * statistics (n, mean, sum of squared deviations by Welford), so a grid costs O(points) whatever
 * n is. The Student-t model needs the samples themselves: grid_t.c sums them exactly on small
 * data and, on large data, binned with a series in mu whose error bound it states.
 *
 * The unpaired groups' grid (a lattice): mu spans the center ± 8 posterior scales, sigma (a
 * linear axis) the sample spread times exp(±6 / sqrt(2(n-1))) (the posterior of log sigma has
 * about that spread). Both groups' mu grids sit on integer multiples of one step, so every
 * difference is an integer number of steps: the difference is a convolution on integer indices,
 * never a merge of floats.
 * Times cannot be negative, so the prior of mu is uniform on mu > 0: the lowest lattice point
 * kept is the first above 0 (index 1 in absolute lattice units, one step). A lower edge held
 * there by this clamp is the prior's bound, not an edge of the grid, and never asks for widening
 * (as sigma's floor). With it mu_B > 0 on all its grid, so the slowdown mu_A / mu_B is always
 * defined, and far from 0 (several posterior scales) nothing changes.
 * After each pass the marginal mass in every edge cell is checked; any edge holding more than
 * EDGE_MASS_NEGLIGIBLE is widened (mu: twice the half-width; sigma: twice the top, half the
 * bottom) and the posterior recomputed, at most MAX_WIDENINGS times. Reaching the bound is
 * reported: with uniform priors and n = 2 or 3 the posterior of mu has tails so heavy (no mean at
 * all for n <= 3) that no grid holds it, and the answer then depends on the grid.
 *
 * The paired design's grid (one sample of log ratios: the t model's, or the normal model's where
 * sigma's floor binds; paired.c has the closed form otherwise) is built for its heavy tails,
 * whose 95% interval at 4 blocks lies 4.3 scales out and whose tails fall only as 1 / x^2: delta
 * on a sinh-spaced axis (fine at the centre, a fixed share of |x| in the tails) reaching its
 * Student-t quantile at 1 - TAIL_OUTSIDE, sigma log-spaced between its chi-square quantiles (each
 * row weighted by sigma: the flat prior's measure), and the edges tested on bands (the outer
 * eighth of each side's reach) rather than single cells, so that neither the test nor the
 * answer moves with the number of points: within 0.2% of the exact interval at 4 blocks from
 * --grid 51 to 4001 (tests/unit/test_oracle_paired.c). A cell-by-cell test passes more easily
 * the finer the grid, and doubling a linear sigma axis thins it where the mass is: the
 * lattice's rules gave 0.949 of the exact half-width at 201 points and 0.990 at 801.
 *
 * The floor of sigma: wait4's rusage counts microseconds, so samples may be identical. Sigma's
 * grid never goes below the timer's resolution (1 µs) or 0.1 % of |mean|, whichever
 * is smaller (the cap keeps nanosecond data from other sources from being swamped).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "analysis/internal.h"

enum {
	MAX_WIDENINGS = 8,
	MU_POINTS_CAP_FACTOR = 16, /* a group's mu axis may grow to 16x the requested points */
};
/* An edge band holding more than this is widened. For tails no lighter than a Cauchy's the mass
 * beyond the edge is at most 1 / (EDGE_BAND_SHARE x tail index) times the band's, 8e-6 here,
 * which moves a 2.5% quantile by well under 0.1% of the interval. */
static const double EDGE_MASS_NEGLIGIBLE = 1e-6;
static const double EDGE_BAND_SHARE = 0.125; /* the outer eighth of each side's reach (sigma's
                                              * in log sigma) */
static const double MU_HALF_WIDTH_SCALES = 8.0;
static const double SIGMA_LOG_HALF_WIDTH_SDS = 6.0;
/* The posterior's tail left outside the first grid of a paired design: the delta axis reaches
 * its Student-t quantile at 1 - this, sigma's its chi-square quantiles (see initial_extent). */
static const double TAIL_OUTSIDE = 1e-9;
/* The paired design's delta axis never has fewer points than this: its quantiles at 4 blocks
 * (a Student-t with 2 degrees of freedom, the 95% interval 4.3 scales out) are then within 0.2%
 * of the exact ones, whatever --grid says of sigma's axis (51 points would leave 1.5 scales
 * between points there). */
enum { DELTA_POINTS_MIN = 401 };

/* What the grid of one group is built from. */
struct group_input {
	size_t n;
	double center;          /* mean (normal) or median (t) */
	double mean, ss;        /* Welford's */
	double spread;          /* sd (normal) or 1.4826 MAD (t), floored */
	double floor;
	bool floored;
	struct t_samples samples; /* t model only */
	bool t_model;
};

/* floor: sigma's (NAN: the timer's resolution, capped at 0.1% of |mean|); the spread used for
 * the grid is held at it. */
static void group_input_init(struct group_input *in, const struct analysis_group *g,
                             double floor, const struct analysis_options *opt)
{
	memset(in, 0, sizeof *in);
	struct welford w = welford_of(g->values_s, g->n);
	in->n = g->n;
	in->mean = w.mean;
	in->ss = w.ss;
	in->center = w.mean;
	double spread = welford_sd(&w);
	in->floor = isnan(floor) ? ANALYSIS_TIMER_RESOLUTION_S : floor;
	if (isnan(floor) && fabs(w.mean) > 0)
		in->floor = fmin(in->floor, 1e-3 * fabs(w.mean));
	if (opt->model == ANALYSIS_MODEL_T) {
		in->t_model = true;
		in->center = median_of(g->values_s, g->n);
		double mad = mad_of(g->values_s, g->n, in->center);
		if (mad > 0)
			spread = 1.4826 * mad;
		t_samples_init(&in->samples, g->values_s, g->n);
	}
	in->floored = !(spread >= in->floor);
	in->spread = in->floored ? in->floor : spread;
}

static void group_posterior_release(struct group_posterior *gp)
{
	free(gp->mu);
	free(gp->mu_prob);
	free(gp->sigma);
	free(gp->sigma_prob);
	memset(gp, 0, sizeof *gp);
}

void pair_posterior_release(struct pair_posterior *pp)
{
	group_posterior_release(&pp->g[0]);
	group_posterior_release(&pp->g[1]);
}

static double log_sum_exp_add(double acc, double x)
{
	if (acc == -INFINITY)
		return x;
	if (x == -INFINITY)
		return acc;
	double hi = fmax(acc, x), lo = fmin(acc, x);
	return hi + log1p(exp(lo - hi));
}

/* One sigma row of the log-likelihood over the mu axis into row (normal, or the t model's tl),
 * plus log_weight (the row's share of the prior's measure: log sigma on a log-spaced axis);
 * returns the row's largest value. */
static double loglik_row(const struct group_input *in, double mean_offset,
                         const double *mu_offset, size_t nm, double sigma, double log_weight,
                         struct t_loglik *tl, double *row)
{
	double n = (double)in->n, row_max = -INFINITY;
	if (!tl) {
		double a = -n * log(sigma) + log_weight, inv2s2 = 0.5 / (sigma * sigma);
		for (size_t i = 0; i < nm; i++) {
			double d = mean_offset - mu_offset[i];
			row[i] = a - (in->ss + n * d * d) * inv2s2;
			row_max = fmax(row_max, row[i]);
		}
		return row_max;
	}
	t_loglik_row(tl, sigma, -n * log(sigma) + log_weight, row);
	for (size_t i = 0; i < nm; i++)
		row_max = fmax(row_max, row[i]);
	return row_max;
}

/* mu's marginal (unnormalised sums in mu_prob) and sigma's (its rows' log sums) to
 * probabilities. */
static void normalise_marginals(struct group_posterior *gp, const double *sigma_log)
{
	double total = 0;
	for (size_t i = 0; i < gp->mu_count; i++)
		total += gp->mu_prob[i];
	for (size_t i = 0; i < gp->mu_count; i++)
		gp->mu_prob[i] /= total;
	double sigma_total_log = -INFINITY;
	for (size_t j = 0; j < gp->sigma_count; j++)
		sigma_total_log = log_sum_exp_add(sigma_total_log, sigma_log[j]);
	for (size_t j = 0; j < gp->sigma_count; j++)
		gp->sigma_prob[j] = exp(sigma_log[j] - sigma_total_log);
}

/*
 * mu = ref + mu_offset[i] beside gp's sigma axis, the group's floor, and the posterior on them:
 * gp->mu_prob and gp->sigma_prob from the log-likelihood at every (mu, sigma) of the grid. The
 * data are shifted by ref too, so that data of 1e6 s with a spread of 1e-6 s keep their digits.
 * Each point stands for its cell: mu_width[i] wide on mu's axis (NULL: equal cells, a lattice),
 * and on sigma's the row's share of a flat prior's measure (a log-spaced axis: sigma_j times the
 * log step, so each row is weighted by sigma_j; a linear axis, the lattice's and the seed's:
 * equal). One pass, memory O(mu axis): each sigma row is exponentiated against a running
 * maximum, rescaling the accumulated marginal when a larger maximum appears.
 */
static void posterior_on_axes(struct group_posterior *gp, const struct group_input *in,
                              const double *mu_offset, double ref, const double *mu_width,
                              const struct analysis_options *opt)
{
	size_t nm = gp->mu_count, ns = gp->sigma_count;
	for (size_t i = 0; i < nm; i++) {
		gp->mu[i] = ref + mu_offset[i];
		gp->mu_prob[i] = 0;
	}
	gp->sigma_floor = in->floor;
	gp->sigma_floored = in->floored;
	double *row = xmalloc(nm * sizeof *row);
	double *sigma_log = xmalloc(ns * sizeof *sigma_log);
	double scale_log = -INFINITY; /* mu_prob holds sum exp(l - scale_log) */
	double mean_offset = in->mean - ref;
	struct t_loglik tl = { 0 };
	if (opt->model == ANALYSIS_MODEL_T)
		t_loglik_begin(&tl, &in->samples, mu_offset, nm, ref, gp->sigma[0], opt);
	gp->t_loglik_error = tl.error_bound;
	for (size_t j = 0; j < ns; j++) {
		double log_weight = gp->sigma_log_spaced ? log(gp->sigma[j]) : 0.0;
		double row_max = loglik_row(in, mean_offset, mu_offset, nm, gp->sigma[j], log_weight,
		                            opt->model == ANALYSIS_MODEL_T ? &tl : NULL, row);
		if (row_max > scale_log) {
			double rescale = scale_log == -INFINITY ? 0.0 : exp(scale_log - row_max);
			for (size_t i = 0; i < nm; i++)
				gp->mu_prob[i] *= rescale;
			scale_log = row_max;
		}
		double row_sum = 0;
		for (size_t i = 0; i < nm; i++) {
			double e = exp(row[i] - scale_log);
			gp->mu_prob[i] += e;
			row_sum += mu_width ? e * mu_width[i] : e;
		}
		sigma_log[j] = row_sum > 0 ? scale_log + log(row_sum) : -INFINITY;
	}
	if (mu_width)
		for (size_t i = 0; i < nm; i++)
			gp->mu_prob[i] *= mu_width[i];
	normalise_marginals(gp, sigma_log);
	t_loglik_end(&tl);
	free(row);
	free(sigma_log);
}

static void group_posterior_alloc(struct group_posterior *gp, size_t mu_count,
                                  size_t sigma_count)
{
	group_posterior_release(gp);
	gp->mu_count = mu_count;
	gp->sigma_count = sigma_count;
	gp->mu = xmalloc(mu_count * sizeof *gp->mu);
	gp->mu_prob = xmalloc(mu_count * sizeof *gp->mu_prob);
	gp->sigma = xmalloc(sigma_count * sizeof *gp->sigma);
	gp->sigma_prob = xmalloc(sigma_count * sizeof *gp->sigma_prob);
}

/* numpy.linspace(start, stop, num) to the bit: start + i * step, the last point set to stop. */
static void numpy_linspace(double start, double stop, size_t num, double *out)
{
	double step = (stop - start) / (double)(num - 1);
	for (size_t i = 0; i < num; i++) {
		double scaled = (double)i * step; /* two statements: no fused multiply-add */
		out[i] = scaled + start;
	}
	out[num - 1] = stop;
}

/* The largest marginal mass in an edge band, and which edges are not negligible. */
struct edge_check {
	double worst;
	bool mu[2];
	bool sigma_lo[2], sigma_hi[2];
};

/* The mass of an axis's lower and upper edge bands: the points within EDGE_BAND_SHARE of the
 * reach from the centre to each end (at least the end point; sigma's in log sigma), so that the
 * test means the same at any number of points (the paired grid's). The lattice and the seed's
 * grid: their end points. */
static void edge_bands(const struct group_posterior *gp, const double *v, const double *p,
                       size_t n, double center, bool in_log, double *low, double *high)
{
	*low = p[0];
	*high = p[n - 1];
	if (!gp->sigma_log_spaced)
		return;
	double lo = in_log ? log(v[0]) : v[0], hi = in_log ? log(v[n - 1]) : v[n - 1];
	double mid = in_log ? log(center) : center;
	double low_edge = lo + EDGE_BAND_SHARE * (in_log ? fmax(mid - lo, 0.0) : mid - lo);
	double high_edge = hi - EDGE_BAND_SHARE * (in_log ? fmax(hi - mid, 0.0) : hi - mid);
	for (size_t i = 1; i < n && (in_log ? log(v[i]) : v[i]) <= low_edge; i++)
		*low += p[i];
	for (size_t i = n - 1; i-- > 0 && (in_log ? log(v[i]) : v[i]) >= high_edge;)
		*high += p[i];
}

static struct edge_check check_edges(const struct group_posterior *groups,
                                     const struct group_input *in, int count,
                                     const double *sigma_lo)
{
	struct edge_check e = { 0 };
	for (int k = 0; k < count; k++) {
		const struct group_posterior *gp = &groups[k];
		double mu_low, mu_high, bottom, top;
		edge_bands(gp, gp->mu, gp->mu_prob, gp->mu_count, in[k].center, false, &mu_low,
		           &mu_high);
		edge_bands(gp, gp->sigma, gp->sigma_prob, gp->sigma_count, in[k].spread, true,
		           &bottom, &top);
		/* The prior's bound mu > 0 is not an edge either. */
		if (gp->mu_clamped)
			mu_low = 0.0;
		/* sigma's floor is a bound by design (the timer's resolution), not an edge. */
		if (!(sigma_lo[k] > gp->sigma_floor * (1 + 1e-9)))
			bottom = 0.0;
		double mu_edge = fmax(mu_low, mu_high);
		e.mu[k] = mu_edge > EDGE_MASS_NEGLIGIBLE;
		e.sigma_hi[k] = top > EDGE_MASS_NEGLIGIBLE;
		e.sigma_lo[k] = bottom > EDGE_MASS_NEGLIGIBLE;
		e.worst = fmax(e.worst, fmax(mu_edge, fmax(top, bottom)));
	}
	return e;
}

/* The seed's grid is fixed at 5 to 35 s: data outside it, or a posterior cut off at mu's edges
 * or sigma's top, give numbers that mean nothing. Says so in rep->warning. Mass at sigma's
 * bottom (5 s) is the seed's known bias on low-noise data, which the text explains apart. */
static void seed_grid_warning(struct analysis_grid_report *rep, const struct pair_posterior *pp,
                              const struct group_input in[2],
                              const struct analysis_group *const groups[2])
{
	rep->warning[0] = '\0';
	for (int k = 0; k < 2; k++)
		if (!(in[k].mean >= ANALYSIS_SEED_GRID_LO_S && in[k].mean <= ANALYSIS_SEED_GRID_HI_S)) {
			snprintf(rep->warning, sizeof rep->warning, "the sample mean of %s, %.3g s, lies "
			         "outside the seed's grid of %g to %g s: its numbers mean nothing here; use "
			         "the default grid", groups[k]->name, in[k].mean, ANALYSIS_SEED_GRID_LO_S,
			         ANALYSIS_SEED_GRID_HI_S);
			return;
		}
	double worst = 0;
	for (int k = 0; k < 2; k++) {
		const struct group_posterior *gp = &pp->g[k];
		worst = fmax(worst, fmax(gp->mu_prob[0], gp->mu_prob[gp->mu_count - 1]));
		worst = fmax(worst, gp->sigma_prob[gp->sigma_count - 1]);
	}
	if (worst > ANALYSIS_SEED_EDGE_MASS_MAX)
		snprintf(rep->warning, sizeof rep->warning, "the seed's grid of %g to %g s cuts the "
		         "posterior off: %.2g of its mass lies in an edge cell of mu or at sigma's top; "
		         "its numbers mean nothing here; use the default grid", ANALYSIS_SEED_GRID_LO_S,
		         ANALYSIS_SEED_GRID_HI_S, worst);
}

/* What the report says of both groups' final axes: mu's from the grids, sigma's reach. */
static void report_axes(struct analysis_grid_report *rep, const struct pair_posterior *pp,
                        const double sigma_lo[2], const double sigma_hi[2], size_t sigma_points)
{
	rep->sigma_points = sigma_points;
	for (int k = 0; k < 2; k++) {
		rep->mu_points[k] = pp->g[k].mu_count;
		rep->mu_range[k][0] = pp->g[k].mu[0];
		rep->mu_range[k][1] = pp->g[k].mu[pp->g[k].mu_count - 1];
		rep->sigma_range[k][0] = sigma_lo[k];
		rep->sigma_range[k][1] = sigma_hi[k];
	}
}

/* Seed 003: mu and sigma both on linspace(5, 35, 101), uniform priors, normal likelihood; and
 * what the report says of it. */
static void seed_grid_run(struct pair_posterior *pp, struct group_input in[2],
                          const struct analysis_group *const groups[2],
                          const struct analysis_options *opt)
{
	struct analysis_grid_report *rep = &pp->report;
	for (int k = 0; k < 2; k++) {
		struct group_posterior *gp = &pp->g[k];
		group_posterior_alloc(gp, ANALYSIS_SEED_GRID_POINTS, ANALYSIS_SEED_GRID_POINTS);
		numpy_linspace(ANALYSIS_SEED_GRID_LO_S, ANALYSIS_SEED_GRID_HI_S, ANALYSIS_SEED_GRID_POINTS, gp->mu);
		numpy_linspace(ANALYSIS_SEED_GRID_LO_S, ANALYSIS_SEED_GRID_HI_S, ANALYSIS_SEED_GRID_POINTS, gp->sigma);
		posterior_on_axes(gp, &in[k], gp->mu, 0.0, NULL, opt);
	}
	rep->mu_step = (ANALYSIS_SEED_GRID_HI_S - ANALYSIS_SEED_GRID_LO_S)
	               / (ANALYSIS_SEED_GRID_POINTS - 1);
	const double lo[2] = { ANALYSIS_SEED_GRID_LO_S, ANALYSIS_SEED_GRID_LO_S };
	const double hi[2] = { ANALYSIS_SEED_GRID_HI_S, ANALYSIS_SEED_GRID_HI_S };
	rep->edge_mass = check_edges(pp->g, in, 2, lo).worst;
	report_axes(rep, pp, lo, hi, ANALYSIS_SEED_GRID_POINTS);
	seed_grid_warning(rep, pp, in, groups);
}

/* How far both groups' grids reach, widened where the posterior touches an edge. */
struct grid_extent {
	double half[2];                  /* mu: half-width around each group's center */
	double sigma_lo[2], sigma_hi[2];
};

/* sigma's first reach. The paired design's (log_axes): with flat priors SS / sigma^2 follows a
 * chi-square with n - 2 degrees of freedom (SS from the grid's spread), so its quantiles at
 * TAIL_OUTSIDE and 1 - TAIL_OUTSIDE hold all but 2e-9 of sigma's posterior, whatever n is (at 4
 * blocks sigma's tail falls only as 1 / sigma^2: the top is then 39,000 spreads out, which a
 * log-spaced axis holds at any --grid). The unpaired groups' lattice (and n = 2, with no proper
 * posterior): 6 standard errors of log sigma either way, on a linear axis, as it always was. */
static void initial_sigma_extent(const struct group_input *in, bool log_axes, double *lo,
                                 double *hi)
{
	double n = (double)in->n;
	if (log_axes && n >= 3) {
		gsl_quiet();
		double ss = in->spread * in->spread * (n - 1);
		*lo = sqrt(ss / gsl_cdf_chisq_Pinv(1 - TAIL_OUTSIDE, n - 2));
		*hi = sqrt(ss / gsl_cdf_chisq_Pinv(TAIL_OUTSIDE, n - 2));
		/* The t likelihood's scale sits below a normal's sd (sqrt((nu - 2) / nu) of it). */
		if (in->t_model)
			*lo *= 0.5;
	} else {
		double log_sd = 1.0 / sqrt(2.0 * fmax(n - 1, 1.0));
		*lo = in->spread * exp(-SIGMA_LOG_HALF_WIDTH_SDS * log_sd);
		*hi = in->spread * exp(SIGMA_LOG_HALF_WIDTH_SDS * log_sd);
	}
	if (!(*lo > in->floor))
		*lo = in->floor;
	if (!(*hi > *lo * 1.01))
		*hi = *lo * 1.01;
}

/* The posterior scale of mu: with uniform priors it is Student-t with n - 2 degrees of freedom
 * and scale sqrt(SS / (n (n - 2))); for n = 2 use s / sqrt(n). */
static double mu_scale_of(const struct group_input *in)
{
	double n = (double)in->n;
	return in->spread / sqrt(n) * (n > 2 ? sqrt((n - 1) / (n - 2)) : 1.0);
}

/* The first grid's reach. The paired design's sinh axis (log_axes) reaches delta's Student-t
 * quantile at 1 - TAIL_OUTSIDE (n - 2 degrees of freedom), never under MU_HALF_WIDTH_SCALES
 * scales; below ANALYSIS_SETTLED_MIN_N (no posterior mean) it starts at that core, and widening
 * meets its bound, which the answer says. The unpaired lattice starts at the core (an even
 * lattice cannot afford 22,000 scales), widened by its edge test. sigma's as above. */
static void initial_extent(const struct group_input *in, int count, bool log_axes,
                           struct grid_extent *x)
{
	for (int k = 0; k < count; k++) {
		double scales = MU_HALF_WIDTH_SCALES;
		if (log_axes && in[k].n >= ANALYSIS_SETTLED_MIN_N) {
			gsl_quiet();
			scales = fmax(scales, gsl_cdf_tdist_Qinv(TAIL_OUTSIDE, (double)in[k].n - 2));
		}
		x->half[k] = scales * mu_scale_of(&in[k]);
		initial_sigma_extent(&in[k], log_axes, &x->sigma_lo[k], &x->sigma_hi[k]);
	}
}

/* The finest step that either group asks for: its core of MU_HALF_WIDTH_SCALES posterior scales
 * in `points` points, kept while the axes reach farther (the first reach, and widening) until an
 * axis would exceed its cap. Never finer than the doubles can resolve at the centers. */
static double base_step_of(const struct group_input in[2], size_t points)
{
	double core = fmin(MU_HALF_WIDTH_SCALES * mu_scale_of(&in[0]),
	                   MU_HALF_WIDTH_SCALES * mu_scale_of(&in[1]));
	double base_step = 2 * core / (double)(points - 1);
	double magnitude = fmax(fabs(in[0].center), fabs(in[1].center));
	base_step = fmax(base_step, 16 * DBL_EPSILON * magnitude);
	return base_step > 0 ? base_step : DBL_MIN;
}

/* sigma's axis: points from sigma[0] to sigma[1], evenly spaced in log sigma. Sigma's posterior
 * at few samples reaches thousands of spreads (see initial_sigma_extent), where a linear axis
 * would leave a handful of points where the mass is; in log sigma its shape is nearly a
 * Gaussian's at any n, which an even rule integrates to many digits. */
static void log_spaced_sigma(struct group_posterior *gp, const double sigma[2], size_t points)
{
	double log_lo = log(sigma[0]), step = (log(sigma[1]) - log_lo) / (double)(points - 1);
	for (size_t j = 0; j < points; j++)
		gp->sigma[j] = exp(log_lo + step * (double)j);
	gp->sigma[0] = sigma[0];
	gp->sigma[points - 1] = sigma[1];
	gp->sigma_log_spaced = true;
}

/* One group's mu axis on the lattice ref + i * step (i from its lowest index), its sigma axis,
 * and its posterior on them. */
static void lay_out_group(struct group_posterior *gp, const struct group_input *in,
                          double half, const double sigma[2], int64_t k_ref, double step,
                          size_t points, const struct analysis_options *opt)
{
	double ref = (double)k_ref * step;
	double lo_real = floor((in->center - half - ref) / step);
	double hi_real = ceil((in->center + half - ref) / step);
	/* The prior mu > 0 (times, not log ratios): absolute lattice index k_ref + lo >= 1. */
	double first_positive = 1.0 - (double)k_ref;
	bool clamped = lo_real < first_positive;
	if (clamped)
		lo_real = first_positive;
	if (hi_real < lo_real + 1)
		hi_real = lo_real + 1;
	size_t count = (size_t)(hi_real - lo_real) + 1;
	group_posterior_alloc(gp, count, points);
	gp->k_lo = k_ref + (int64_t)lo_real;
	gp->mu_clamped = clamped;
	double *offset = xmalloc(count * sizeof *offset);
	for (size_t i = 0; i < count; i++)
		offset[i] = (double)((int64_t)lo_real + (int64_t)i) * step;
	for (size_t j = 0; j < points; j++)
		gp->sigma[j] = sigma[0] + (sigma[1] - sigma[0]) * (double)j / (double)(points - 1);
	posterior_on_axes(gp, in, offset, ref, NULL, opt);
	free(offset);
}

/* After pass `widening` over the groups gp: widens each axis whose edge holds mass. mu: twice
 * the half-width. sigma, log-spaced (log_axes): twice its reach in log sigma from the spread
 * (the top at least doubled); linear (the lattice): the top doubled, the bottom halved. Never
 * below the floor. True when done: no edge holds mass, or the pass was the last
 * (MAX_WIDENINGS), with the passes, the edge mass left and whether the bound was reached in
 * *widenings, *edge_mass and *at_bound. */
static bool widening_done(struct grid_extent *x, const struct group_posterior *gp,
                          const struct group_input *in, int count, bool log_axes, int widening,
                          int *widenings, double *edge_mass, bool *at_bound)
{
	struct edge_check e = check_edges(gp, in, count, x->sigma_lo);
	bool widen = false, apply = widening < MAX_WIDENINGS;
	for (int k = 0; k < count; k++) {
		widen = widen || e.mu[k] || e.sigma_hi[k] || e.sigma_lo[k];
		if (!apply)
			continue;
		double spread = in[k].spread, hi = x->sigma_hi[k], lo = x->sigma_lo[k];
		if (e.mu[k])
			x->half[k] *= 2;
		if (e.sigma_hi[k])
			x->sigma_hi[k] = log_axes ? fmax(2 * hi, spread * (hi / spread) * (hi / spread))
			                          : 2 * hi;
		if (e.sigma_lo[k])
			x->sigma_lo[k] = fmax(log_axes ? fmin(lo / 2, spread * (lo / spread) * (lo / spread))
			                               : lo / 2, in[k].floor);
	}
	if (widen && apply)
		return false;
	*widenings = widening;
	*edge_mass = e.worst;
	*at_bound = widen;
	return true;
}

/* The default data-driven grid: laid out, then widened until no edge holds mass (or the
 * widest allowed grid is reached, which the report says). -1 with err. */
static int lattice_run(struct pair_posterior *pp, const struct group_input in[2],
                       const struct analysis_options *opt, char *err, size_t err_size)
{
	struct analysis_grid_report *rep = &pp->report;
	size_t points = (size_t)opt->grid_points;
	size_t cap = points * MU_POINTS_CAP_FACTOR;
	struct grid_extent x;
	initial_extent(in, 2, false, &x);
	double base_step = base_step_of(in, points);
	for (int widening = 0;; widening++) {
		/* Both groups on one lattice of this step, its reference near A's center so that
		 * offsets from it are small integers. */
		rep->mu_step = fmax(base_step, 2 * fmax(x.half[0], x.half[1]) / (double)(cap - 1));
		double k_ref_real = nearbyint(in[0].center / rep->mu_step);
		if (!(fabs(k_ref_real) < 4e18)) {
			set_error(err, err_size, "the grid step %g s is too fine for values near %g s",
			          rep->mu_step, in[0].center);
			return -1;
		}
		for (int k = 0; k < 2; k++) {
			const double sigma[2] = { x.sigma_lo[k], x.sigma_hi[k] };
			lay_out_group(&pp->g[k], &in[k], x.half[k], sigma, (int64_t)k_ref_real,
			              rep->mu_step, points, opt);
		}
		if (widening_done(&x, pp->g, in, 2, false, widening, &rep->widenings,
		                  &rep->edge_mass, &rep->at_bound))
			break;
	}
	rep->t_loglik_error = fmax(pp->g[0].t_loglik_error, pp->g[1].t_loglik_error);
	report_axes(rep, pp, x.sigma_lo, x.sigma_hi, points);
	return 0;
}

int pair_posterior_compute(struct pair_posterior *pp, const struct analysis_group *a,
                           const struct analysis_group *b, const struct analysis_options *opt,
                           char *err, size_t err_size)
{
	*pp = (struct pair_posterior){ .report = { .seed_grid = opt->seed_grid, .model = opt->model,
	                                           .points = opt->grid_points } };
	const struct analysis_group *const groups[2] = { a, b };
	for (int k = 0; k < 2; k++)
		if (groups[k]->n < 2) {
			set_error(err, err_size, "%s: %zu sample(s); at least 2 are needed",
			          groups[k]->name, groups[k]->n);
			return -1;
		}
	struct group_input in[2];
	group_input_init(&in[0], a, NAN, opt);
	group_input_init(&in[1], b, NAN, opt);
	int rc = 0;
	if (opt->seed_grid)
		seed_grid_run(pp, in, groups, opt);
	else
		rc = lattice_run(pp, in, opt, err, err_size);
	t_samples_release(&in[0].samples);
	t_samples_release(&in[1].samples);
	if (rc < 0)
		pair_posterior_release(pp);
	return rc;
}

/* ---- one sample's posterior: the paired design's per-block log ratios ------------------- */

void sinh_axis(double scale, double reach, size_t points, double *offset, double *width)
{
	double u_max = asinh(reach / scale), du = 2 * u_max / (double)(points - 1);
	for (size_t i = 0; i < points; i++)
		offset[i] = scale * sinh(-u_max + du * (double)i);
	offset[(points - 1) / 2] = points % 2 ? 0.0 : offset[(points - 1) / 2];
	for (size_t i = 0; i < points; i++) {
		double left = i > 0 ? offset[i] - offset[i - 1] : offset[1] - offset[0];
		double right = i + 1 < points ? offset[i + 1] - offset[i] : left;
		width[i] = 0.5 * (left + right);
	}
}

/* The log ratios' grid (the top of the file): its first delta axis reaches 22,000 scales at 4
 * blocks, where an even lattice of as many points would be 11 scales a step. */
void log_ratio_posterior_compute(struct analysis_dist *delta, struct analysis_paired_grid *rep,
                                 const double *d, size_t n, double sigma_floor,
                                 const struct analysis_options *opt)
{
	struct group_posterior gp = { 0 };
	memset(rep, 0, sizeof *rep);
	struct analysis_group sample = { .name = "log ratio", .values_s = (double *)d, .n = n };
	struct group_input in[1];
	group_input_init(in, &sample, sigma_floor, opt);
	size_t points = (size_t)opt->grid_points;
	size_t delta_points = points > DELTA_POINTS_MIN ? points : DELTA_POINTS_MIN;
	struct grid_extent x;
	initial_extent(in, 1, true, &x);
	double *offset = xmalloc(delta_points * sizeof *offset);
	double *width = xmalloc(delta_points * sizeof *width);
	/* delta's axis sinh-spaced around the centre, reaching x.half either way, beside sigma's */
	for (int widening = 0;; widening++) {
		const double sigma[2] = { x.sigma_lo[0], x.sigma_hi[0] };
		group_posterior_alloc(&gp, delta_points, points);
		sinh_axis(mu_scale_of(in), x.half[0], delta_points, offset, width);
		log_spaced_sigma(&gp, sigma, points);
		posterior_on_axes(&gp, in, offset, in->center, width, opt);
		if (widening_done(&x, &gp, in, 1, true, widening, &rep->widenings, &rep->edge_mass,
		                  &rep->at_bound))
			break;
	}
	free(offset);
	free(width);
	size_t mid = (delta_points - 1) / 2;
	rep->delta_step = gp.mu[mid + 1] - gp.mu[mid];
	rep->delta_points = gp.mu_count;
	rep->sigma_points = points;
	rep->delta_range[0] = gp.mu[0];
	rep->delta_range[1] = gp.mu[gp.mu_count - 1];
	rep->sigma_range[0] = x.sigma_lo[0];
	rep->sigma_range[1] = x.sigma_hi[0];
	rep->t_loglik_error = gp.t_loglik_error;
	t_samples_release(&in->samples);
	*delta = (struct analysis_dist){ gp.mu, gp.mu_prob, gp.mu_count };
	gp.mu = gp.mu_prob = NULL;
	group_posterior_release(&gp);
}

struct keyed_prob {
	double value;
	size_t order;
	double prob;
};

static int compare_keyed(const void *pa, const void *pb)
{
	const struct keyed_prob *a = pa, *b = pb;
	if (a->value != b->value)
		return a->value < b->value ? -1 : 1;
	return (a->order > b->order) - (a->order < b->order);
}

/* The seed's Pmf.sub_dist: every a_i - b_j in floating point, equal values merged (pandas
 * groupby sums in the original order), sorted. Reproduced, not recommended. */
static void seed_difference(const struct pair_posterior *pp, struct analysis_dist *out)
{
	const struct group_posterior *a = &pp->g[0], *b = &pp->g[1];
	size_t total = a->mu_count * b->mu_count;
	struct keyed_prob *pairs = xmalloc(total * sizeof *pairs);
	for (size_t i = 0; i < a->mu_count; i++)
		for (size_t j = 0; j < b->mu_count; j++) {
			size_t k = i * b->mu_count + j;
			pairs[k].value = a->mu[i] - b->mu[j];
			pairs[k].order = k;
			pairs[k].prob = a->mu_prob[i] * b->mu_prob[j];
		}
	qsort(pairs, total, sizeof *pairs, compare_keyed);
	out->values = xmalloc(total * sizeof *out->values);
	out->probs = xmalloc(total * sizeof *out->probs);
	size_t count = 0;
	for (size_t k = 0; k < total; k++) {
		if (count && pairs[k].value == out->values[count - 1]) {
			out->probs[count - 1] += pairs[k].prob;
			continue;
		}
		out->values[count] = pairs[k].value;
		out->probs[count++] = pairs[k].prob;
	}
	out->count = count;
	free(pairs);
}

void pair_difference(const struct pair_posterior *pp, struct analysis_dist *out)
{
	memset(out, 0, sizeof *out);
	if (pp->report.seed_grid) {
		seed_difference(pp, out);
		return;
	}
	const struct group_posterior *a = &pp->g[0], *b = &pp->g[1];
	size_t count = a->mu_count + b->mu_count - 1;
	out->values = xmalloc(count * sizeof *out->values);
	out->probs = xcalloc(count, sizeof *out->probs);
	/* Index m holds d = (a.k_lo + i) - (b.k_lo + j) with m = i - j + (nb - 1). */
	size_t nb = b->mu_count;
	for (size_t i = 0; i < a->mu_count; i++) {
		double pa = a->mu_prob[i];
		if (!(pa > 0))
			continue;
		double *row = out->probs + i;
		for (size_t j = 0; j < nb; j++)
			row[nb - 1 - j] += pa * b->mu_prob[j];
	}
	int64_t d0 = a->k_lo - b->k_lo - (int64_t)(nb - 1);
	for (size_t m = 0; m < count; m++)
		out->values[m] = (double)(d0 + (int64_t)m) * pp->report.mu_step;
	out->count = count;
}

double pair_ratio_cdf(const void *ctx, double r)
{
	const struct pair_posterior *pp = ctx;
	const struct group_posterior *a = &pp->g[0], *b = &pp->g[1];
	double *prefix = xmalloc(a->mu_count * sizeof *prefix);
	double cum = 0;
	for (size_t i = 0; i < a->mu_count; i++) {
		prefix[i] = cum;
		cum += a->mu_prob[i];
	}
	double sum = 0;
	for (size_t j = 0; j < b->mu_count; j++)
		if (b->mu_prob[j] > 0)
			sum += b->mu_prob[j] * cell_cdf(a->mu, a->mu_prob, a->mu_count, prefix, r * b->mu[j]);
	free(prefix);
	return sum;
}
