/*
 * paired.c — the paired design: a comparison's samples matched by block, and the posterior of
 * the per-block log ratio that answers it.
 *
 * The runner runs every placement once per block, in a random order, so whatever drifts (the
 * clock, the temperature, another tenant's load) hits a block's placements alike. Taking
 * d = log A - log B inside each block cancels it; independent groups would carry all of it in
 * their spreads. exp(delta) is then the slowdown as a ratio of geometric means, which for the
 * small spreads of CPU times is the ratio of means to within a fraction of the interval.
 *
 * The posterior of delta: under the normal model with flat priors, in closed form (a Student-t
 * with n - 2 degrees of freedom: closed_form_posterior); under the t model, or where sigma's
 * floor binds, on the grid (grid.c's log_ratio_posterior_compute). Every probability and
 * quantile the answer quotes goes through analysis_log_ratio_cdf and _quantile, exact where the
 * posterior is closed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sf_gamma.h>

#include "analysis/internal.h"

/* The closed form's table (plots, the HDI): at least this many points, reaching the t's
 * quantile at 1 - this either way. */
enum { CLOSED_FORM_TABLE_POINTS = 401 };
static const double CLOSED_FORM_TABLE_TAIL = 1e-9;

/* One sample's block and log value, for sorting by block. */
struct block_value {
	long block;
	long trial;       /* the latest trial of the block's samples */
	double log_value;
};

static int compare_block_values(const void *pa, const void *pb)
{
	const struct block_value *a = pa, *b = pb;
	return (a->block > b->block) - (a->block < b->block);
}

/* A group's samples with a known block, sorted by block, then merged into one mean log value per
 * block (a placement with two processes of role a, counted per process, has two samples in a
 * block). A time of 0 s (below the clock's resolution) makes its block's log value -INFINITY:
 * the block is kept, so that the pairing counts it as held by both but unusable, never as
 * missing. Returns the number of blocks. */
static size_t blocks_of(const struct analysis_group *g, struct block_value **out)
{
	*out = xmalloc((g->n ? g->n : 1) * sizeof **out);
	size_t n = 0;
	for (size_t i = 0; i < g->n; i++)
		if (g->blocks && g->blocks[i] >= 0)
			(*out)[n++] = (struct block_value){ g->blocks[i], g->trials[i],
			                                    g->values_s[i] > 0 ? log(g->values_s[i])
			                                                       : -INFINITY };
	qsort(*out, n, sizeof **out, compare_block_values);
	size_t merged = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		double sum = 0;
		long trial = (*out)[i].trial;
		for (; j < n && (*out)[j].block == (*out)[i].block; j++) {
			sum += (*out)[j].log_value;
			if ((*out)[j].trial > trial)
				trial = (*out)[j].trial;
		}
		(*out)[merged++] = (struct block_value){ (*out)[i].block, trial, sum / (double)(j - i) };
		i = j;
	}
	return merged;
}

void pair_blocks(const struct analysis_group *a, const struct analysis_group *b,
                 size_t measured_blocks, struct paired_blocks *out)
{
	memset(out, 0, sizeof *out);
	struct block_value *va, *vb;
	size_t na = blocks_of(a, &va), nb = blocks_of(b, &vb);
	out->blocks_known = na && nb; /* both have a sample with a known block */
	out->d = xmalloc((na ? na : 1) * sizeof *out->d);
	out->block = xmalloc((na ? na : 1) * sizeof *out->block);
	out->trial = xmalloc((na ? na : 1) * sizeof *out->trial);
	double *b_values = xmalloc((nb ? nb : 1) * sizeof *b_values);
	size_t union_count = 0, kept_b = 0, a_only = 0;
	for (size_t i = 0, j = 0; i < na || j < nb; union_count++) {
		if (j >= nb || (i < na && va[i].block < vb[j].block)) {
			a_only++;
			i++;
		} else if (i >= na || vb[j].block < va[i].block) {
			j++;
		} else if (isinf(va[i].log_value) || isinf(vb[j].log_value)) {
			out->zero_blocks++; /* both ran, one measured 0 s: dropped, and said why */
			i++;
			j++;
		} else {
			out->block[out->n] = va[i].block;
			out->trial[out->n] = va[i].trial > vb[j].trial ? va[i].trial : vb[j].trial;
			out->d[out->n++] = va[i].log_value - vb[j].log_value;
			b_values[kept_b++] = exp(vb[j].log_value);
			i++;
			j++;
		}
	}
	/* A block where neither side has a usable sample (both failed) is dropped too: the
	 * measured blocks count every block with a measured trial. */
	if (measured_blocks == ANALYSIS_DROPPED_OF_A) {
		out->dropped = a_only + out->zero_blocks + a->failed_trials;
	} else {
		size_t seen = measured_blocks > union_count ? measured_blocks : union_count;
		out->dropped = seen - out->n;
	}
	out->b_median_s = median_of(b_values, kept_b);
	free(va);
	free(vb);
	free(b_values);
}

void paired_blocks_release(struct paired_blocks *p)
{
	free(p->d);
	free(p->block);
	free(p->trial);
	*p = (struct paired_blocks){ 0 };
}

/* The difference in seconds at B's mean, mu_B_mean * (exp(delta) - 1): its table cell by cell
 * from delta's (monotone, so its quantiles are the transformed quantiles of delta), its point
 * estimate at delta's posterior mean (as the ratio's), its interval from delta's quantiles. */
static void difference_at_b(struct analysis_comparison *c, double b_mean, double delta_mean)
{
	struct analysis_dist *diff = &c->diff, *lr = &c->log_ratio;
	dist_release(diff);
	diff->values = xmalloc(lr->count * sizeof *diff->values);
	diff->probs = xmalloc(lr->count * sizeof *diff->probs);
	for (size_t i = 0; i < lr->count; i++) {
		diff->values[i] = b_mean * expm1(lr->values[i]);
		diff->probs[i] = lr->probs[i];
	}
	diff->count = lr->count;
	c->diff_mean = b_mean * expm1(delta_mean);
	c->diff_ci[0] = b_mean * expm1(analysis_log_ratio_quantile(c, 0.025));
	c->diff_ci[1] = b_mean * expm1(analysis_log_ratio_quantile(c, 0.975));
	analysis_dist_hdi(diff, 0.95, c->diff_hdi);
}

double analysis_log_ratio_cdf(const struct analysis_comparison *c, double x)
{
	const struct analysis_paired_grid *g = &c->paired_grid;
	if (c->design != ANALYSIS_DESIGN_PAIRED || isnan(x))
		return NAN;
	if (g->closed_form)
		return analysis_student_t_cdf((x - c->log_ratio_mean) / g->scale, g->dof);
	return dist_cdf(&c->log_ratio, x);
}

double analysis_log_ratio_quantile(const struct analysis_comparison *c, double q)
{
	const struct analysis_paired_grid *g = &c->paired_grid;
	if (c->design != ANALYSIS_DESIGN_PAIRED || !(q >= 0 && q <= 1))
		return NAN;
	if (g->closed_form) {
		if (q <= 0 || q >= 1)
			return q <= 0 ? -INFINITY : INFINITY;
		return c->log_ratio_mean + g->scale * analysis_student_t_quantile(q, g->dof);
	}
	return analysis_dist_quantile(&c->log_ratio, q);
}

/* P(slower), the ratio, and with a ROPE the probabilities below, within and above it, all from
 * delta's posterior (in closed form where it is one). */
static void summarize_log_ratio(struct analysis_comparison *c, double rope_pct, double delta_mean)
{
	c->p_a_lt_b = analysis_log_ratio_cdf(c, 0.0);
	c->p_a_gt_b = 1.0 - c->p_a_lt_b;
	/* The ratio's point estimate is exp of delta's posterior mean (its geometric mean), not the
	 * mean of exp(delta): with few blocks delta's marginal has Student-t tails, under which
	 * E[exp(delta)] has no finite value and the grid's edge sets it (4 blocks read 2.79x
	 * beside a 95% interval of 0.492-2.00). exp(E[delta]) lies inside the interval and, with
	 * enough blocks, differs from E[exp(delta)] by a factor exp(var(delta) / 2) ~ 1. */
	c->ratio_mean = exp(delta_mean);
	c->ratio_ci[0] = exp(analysis_log_ratio_quantile(c, 0.025));
	c->ratio_ci[1] = exp(analysis_log_ratio_quantile(c, 0.975));
	c->p_rope = c->p_rope_above = c->p_rope_below = NAN;
	if (!isnan(rope_pct)) {
		double bound = log1p(rope_pct / 100.0);
		c->p_rope_below = analysis_log_ratio_cdf(c, -bound);
		c->p_rope_above = 1.0 - analysis_log_ratio_cdf(c, bound);
		c->p_rope = fmax(0.0, 1.0 - c->p_rope_above - c->p_rope_below);
	}
}

/* Whether delta's posterior is the closed form's: the normal model (and not asked for its grid),
 * a spread, and sigma's floor (the timer's resolution, which the grid holds sigma above) too far
 * below the data's spread to matter: with it, delta's density is the t's times
 * P((n-1)/2, A / (2 floor^2)), A = SS + n (delta - mean)^2 >= SS, so the t is exact to 1e-12
 * when Q((n-1)/2, SS / (2 floor^2)) is below that. Identical blocks (quantized times) are
 * left to the grid, which holds sigma at the floor. */
static bool closed_form_applies(const struct welford *w, double floor,
                                const struct analysis_options *opt)
{
	if (opt->model != ANALYSIS_MODEL_NORMAL || opt->paired_grid || w->n < 3 || !(w->ss > 0))
		return false;
	gsl_quiet();
	double q = gsl_sf_gamma_inc_Q(0.5 * (double)(w->n - 1), w->ss / (2 * floor * floor));
	return q <= 1e-12;
}

/*
 * Delta's posterior in closed form: with d ~ Normal(delta, sigma) and flat priors on delta and
 * sigma, integrating sigma out leaves (SS + n (delta - mean)^2)^(-(n-1)/2), a Student-t with
 * n - 2 degrees of freedom, centre mean(d), scale sqrt(SS / (n (n - 2))). Every number the
 * answer quotes comes from its CDF and quantiles (GSL); c->log_ratio holds its cell masses on a
 * sinh-spaced table (as the grid's axis) for the plots and the HDI.
 */
static void closed_form_posterior(struct analysis_comparison *c, const struct welford *w,
                                  const struct analysis_options *opt)
{
	double n = (double)w->n;
	struct analysis_paired_grid *g = &c->paired_grid;
	*g = (struct analysis_paired_grid){ .closed_form = true, .dof = n - 2,
	                                    .scale = sqrt(w->ss / (n * (n - 2))) };
	size_t points = opt->grid_points > CLOSED_FORM_TABLE_POINTS ? (size_t)opt->grid_points
	                                                              : CLOSED_FORM_TABLE_POINTS;
	double reach = g->scale * analysis_student_t_quantile(1 - CLOSED_FORM_TABLE_TAIL, g->dof);
	struct analysis_dist *lr = &c->log_ratio;
	dist_release(lr);
	lr->values = xmalloc(points * sizeof *lr->values);
	lr->probs = xmalloc(points * sizeof *lr->probs);
	double *width = xmalloc(points * sizeof *width);
	sinh_axis(g->scale, reach, points, lr->values, width);
	/* Each cell's mass: the t's density at its point times its width, normalised (the
	 * midpoint rule on a smooth density, within 1e-4 of the exact masses: the table only
	 * draws; the answer's numbers come from the CDF and quantiles). */
	double total = 0, half_dof1 = 0.5 * (g->dof + 1);
	for (size_t i = 0; i < points; i++) {
		double z = lr->values[i] / g->scale;
		lr->probs[i] = width[i] * exp(-half_dof1 * log1p(z * z / g->dof));
		total += lr->probs[i];
	}
	for (size_t i = 0; i < points; i++) {
		lr->probs[i] /= total;
		lr->values[i] += w->mean;
	}
	lr->count = points;
	free(width);
	g->delta_points = points;
	g->delta_step = lr->values[points / 2] - lr->values[points / 2 - 1];
	g->delta_range[0] = lr->values[0];
	g->delta_range[1] = lr->values[points - 1];
	g->sigma_range[0] = g->sigma_range[1] = NAN;
	g->edge_mass = lr->probs[0] + lr->probs[points - 1];
}

/* One half's ratio and its 95% interval: the closed form's n - 2 Student-t of its log ratios.
 * False when the half is too short or has no spread. */
static bool half_ratio(const double *d, size_t n, double *ratio, double ci[2])
{
	struct welford w = welford_of(d, n);
	if (n < ANALYSIS_PAIRED_MIN_BLOCKS || !(w.ss > 0))
		return false;
	double scale = sqrt(w.ss / ((double)n * ((double)n - 2)));
	double t = analysis_student_t_quantile(0.975, (double)n - 2);
	*ratio = exp(w.mean);
	ci[0] = exp(w.mean - t * scale);
	ci[1] = exp(w.mean + t * scale);
	return isfinite(ci[0]) && isfinite(ci[1]);
}

/* The ratio in the first and in the second half of the blocks (pb's are in block order): when
 * their intervals do not overlap, the ratio itself moved during the run. */
static void compare_halves(struct analysis_comparison *c, const struct paired_blocks *pb)
{
	size_t first = pb->n / 2;
	c->halves_known = half_ratio(pb->d, first, &c->half_ratio[0], c->half_ratio_ci[0])
	                  && half_ratio(pb->d + first, pb->n - first, &c->half_ratio[1],
	                                c->half_ratio_ci[1]);
	c->halves_disagree = c->halves_known && (c->half_ratio_ci[0][1] < c->half_ratio_ci[1][0]
	                                         || c->half_ratio_ci[1][1] < c->half_ratio_ci[0][0]);
}

void compare_paired(struct analysis_comparison *c, const struct paired_blocks *pb, double b_mean,
                    const struct analysis_options *opt)
{
	/* sigma's floor in log units: the timer's resolution relative to B's typical value (two
	 * values identical to the microsecond give d = 0 exactly). */
	double floor = pb->b_median_s > 0 ? ANALYSIS_TIMER_RESOLUTION_S / pb->b_median_s : 1e-9;
	struct welford w = welford_of(pb->d, pb->n);
	double delta_mean;
	if (closed_form_applies(&w, floor, opt)) {
		closed_form_posterior(c, &w, opt);
		delta_mean = w.mean;
	} else {
		dist_release(&c->log_ratio);
		log_ratio_posterior_compute(&c->log_ratio, &c->paired_grid, pb->d, pb->n, floor, opt);
		delta_mean = analysis_dist_mean(&c->log_ratio);
	}
	c->design = ANALYSIS_DESIGN_PAIRED;
	c->blocks_paired = pb->n;
	c->blocks_dropped = pb->dropped;
	c->blocks_zero = pb->zero_blocks;
	c->log_ratio_mean = w.mean;
	c->log_ratio_sd = welford_sd(&w);
	/* The classic cross-check on the same blocks: the t interval of mean d, n - 1 degrees of
	 * freedom, as a ratio. */
	double n = (double)w.n;
	double half = analysis_student_t_quantile(0.975, n - 1) * c->log_ratio_sd / sqrt(n);
	c->paired_t_ratio_ci[0] = exp(w.mean - half);
	c->paired_t_ratio_ci[1] = exp(w.mean + half);
	compare_halves(c, pb);
	summarize_log_ratio(c, opt->rope_pct, delta_mean);
	difference_at_b(c, b_mean, delta_mean);
}

long analysis_block_ratios(const struct analysis_group *a, const struct analysis_group *b,
                           struct analysis_block_ratio **out)
{
	struct paired_blocks pb;
	pair_blocks(a, b, 0, &pb);
	*out = xmalloc((pb.n ? pb.n : 1) * sizeof **out);
	for (size_t i = 0; i < pb.n; i++)
		(*out)[i] = (struct analysis_block_ratio){ pb.block[i], pb.trial[i], exp(pb.d[i]) };
	long n = (long)pb.n;
	paired_blocks_release(&pb);
	return n;
}
