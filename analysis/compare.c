/*
 * compare.c — from a dataset to the answer: which comparisons to make, each comparison's
 * posterior summaries, classic cross-checks (Welch's t-test, its p-value from GSL's regularized
 * incomplete beta; Cohen's d) and verdict, each group's diagnostics (drift), and the SMT yield
 * that the comparisons give.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sf_gamma.h>

#include "analysis/internal.h"
#include "common/folder.h"
#include "common/placements.h"

void analysis_options_init(struct analysis_options *opt)
{
	*opt = (struct analysis_options){ .model = ANALYSIS_MODEL_NORMAL, .rope_pct = NAN,
	                                  .grid_points = ANALYSIS_GRID_DEFAULT,
	                                  .t_method = ANALYSIS_T_AUTO,
	                                  .design = ANALYSIS_PAIR_AUTO };
}

void analysis_comparison_release(struct analysis_comparison *c)
{
	struct analysis_group_summary *both[2] = { &c->a, &c->b };
	for (int k = 0; k < 2; k++) {
		free(both[k]->name);
		both[k]->name = NULL;
		dist_release(&both[k]->mu);
	}
	dist_release(&c->diff);
	dist_release(&c->log_ratio);
}

void analysis_result_free(struct analysis_result **p)
{
	if (!p || !*p)
		return;
	struct analysis_result *r = *p;
	for (size_t i = 0; i < r->comparison_count; i++)
		analysis_comparison_release(&r->comparisons[i]);
	free(r->comparisons);
	for (size_t i = 0; i < r->group_count; i++) {
		free(r->groups[i].outlier_trials);
		free(r->groups[i].outlier_lines);
	}
	free(r->groups);
	strings_release(&r->notes, &r->note_count);
	free(r);
	*p = NULL;
}

/* Welch's t-test from two groups' sufficient statistics. */
static void welch_test(const struct welford *a, const struct welford *b, double *t, double *df,
                       double *p)
{
	double va = a->n > 1 ? a->ss / (double)(a->n - 1) : 0.0;
	double vb = b->n > 1 ? b->ss / (double)(b->n - 1) : 0.0;
	double qa = va / (double)a->n, qb = vb / (double)b->n;
	double se2 = qa + qb;
	double diff = a->mean - b->mean;
	if (!(se2 > 0)) {
		/* Both spreads zero: the test is undefined; say so rather than divide by zero. */
		*t = *df = *p = NAN;
		return;
	}
	*t = diff / sqrt(se2);
	double denom = (a->n > 1 ? qa * qa / (double)(a->n - 1) : 0.0) +
	               (b->n > 1 ? qb * qb / (double)(b->n - 1) : 0.0);
	*df = se2 * se2 / denom;
	/* Two-sided: P(|T| > |t|) = I_{df/(df+t^2)}(df/2, 1/2), the regularized incomplete beta. */
	gsl_quiet();
	*p = gsl_sf_beta_inc(0.5 * *df, 0.5, *df / (*df + *t * *t));
}

/* Cohen's d, with the pooled standard deviation. */
static double cohens_d(const struct welford *a, const struct welford *b)
{
	size_t dof = a->n + b->n - 2;
	if (dof == 0)
		return NAN;
	double pooled = sqrt((a->ss + b->ss) / (double)dof);
	if (!(pooled > 0))
		return NAN;
	return (a->mean - b->mean) / pooled;
}

/* Least-squares slope of y over x, with its 95% interval (NAN for n < 3). */
static void drift_fit(const long *x, const double *y, size_t n, double *slope, double ci[2])
{
	*slope = NAN;
	ci[0] = ci[1] = NAN;
	if (n < 2)
		return;
	double xm = 0, ym = 0;
	for (size_t i = 0; i < n; i++) {
		xm += (double)x[i];
		ym += y[i];
	}
	xm /= (double)n;
	ym /= (double)n;
	double sxx = 0, sxy = 0;
	for (size_t i = 0; i < n; i++) {
		sxx += ((double)x[i] - xm) * ((double)x[i] - xm);
		sxy += ((double)x[i] - xm) * (y[i] - ym);
	}
	if (!(sxx > 0))
		return;
	*slope = sxy / sxx;
	if (n < 3)
		return;
	double rss = 0;
	for (size_t i = 0; i < n; i++) {
		double r = y[i] - ym - *slope * ((double)x[i] - xm);
		rss += r * r;
	}
	double se = sqrt(rss / (double)(n - 2) / sxx);
	double q = analysis_student_t_quantile(0.975, (double)(n - 2));
	ci[0] = *slope - q * se;
	ci[1] = *slope + q * se;
}

/* The seed's quantile rule (empiricaldist Cdf.quantile). */
static double dist_quantile_next(const struct analysis_dist *d, double q)
{
	/* interp1d(cdf, values, kind="next", fill_value=(values[0], nan)), which
	 * returns the first value whose cumulative probability is >= q. */
	double cum = 0;
	for (size_t i = 0; i < d->count; i++) {
		cum += d->probs[i];
		if (cum >= q)
			return d->values[i];
	}
	return NAN;
}

/* The shortest [v_i, v_j] of a distribution's points holding `mass` (no cells: for the seed's
 * merged floats, whose spacing is irregular). */
static void dist_hdi_points(const struct analysis_dist *d, double mass, double out[2])
{
	/* Two pointers over the sorted values: the narrowest [v_i, v_j] holding the mass. */
	out[0] = out[1] = NAN;
	double best = INFINITY, window = 0;
	size_t j = 0;
	for (size_t i = 0; i < d->count; i++) {
		while (j < d->count && window < mass)
			window += d->probs[j++];
		if (window < mass)
			break;
		if (d->values[j - 1] - d->values[i] < best) {
			best = d->values[j - 1] - d->values[i];
			out[0] = d->values[i];
			out[1] = d->values[j - 1];
		}
		window -= d->probs[i];
	}
}

/* Moves a group's marginal of mu out of the posterior into the summary; sigma's is summed up. */
static void summarize_group(struct analysis_group_summary *s, struct group_posterior *gp,
                            const struct analysis_group *g)
{
	s->name = xstrdup(g->name);
	struct welford w = welford_of(g->values_s, g->n);
	s->n = g->n;
	s->mean_s = w.mean;
	s->sd_s = welford_sd(&w);
	s->mu = (struct analysis_dist){ gp->mu, gp->mu_prob, gp->mu_count };
	gp->mu = gp->mu_prob = NULL;
	struct analysis_dist sigma = { gp->sigma, gp->sigma_prob, gp->sigma_count };
	s->mu_mean = analysis_dist_mean(&s->mu);
	s->mu_ci[0] = analysis_dist_quantile(&s->mu, 0.025);
	s->mu_ci[1] = analysis_dist_quantile(&s->mu, 0.975);
	s->sigma_mean = analysis_dist_mean(&sigma);
	s->sigma_ci[0] = analysis_dist_quantile(&sigma, 0.025);
	s->sigma_ci[1] = analysis_dist_quantile(&sigma, 0.975);
	s->sigma_floored = gp->sigma_floored;
}

bool analysis_comparison_settled(const struct analysis_comparison *c)
{
	if (c->design == ANALYSIS_DESIGN_PAIRED)
		return !c->paired_grid.at_bound && c->blocks_paired >= ANALYSIS_SETTLED_MIN_N;
	return !c->grid.at_bound && c->a.n >= ANALYSIS_SETTLED_MIN_N
	       && c->b.n >= ANALYSIS_SETTLED_MIN_N;
}

/* The rule of enum analysis_verdict. With a ROPE the three events (above, within, below) are
 * disjoint, so at most one of the three thresholds can be met. With no real difference the
 * paired design gives a verdict in 2 (1 - F_{n-1}(t_{n-2, 0.975} sqrt((n-1)/(n-2)))) of
 * comparisons (n blocks; F the Student-t CDF): 1.3% at 4 blocks, 3.9% at 12, 4.8% at 50, below
 * the nominal 5% because flat priors make the interval conservative at few blocks
 * (tests/unit/test_oracle_paired.c measures it). */
static enum analysis_verdict decide(const struct analysis_comparison *c)
{
	if (!analysis_comparison_settled(c))
		return ANALYSIS_VERDICT_UNDECIDED;
	if (!isnan(c->p_rope)) {
		if (c->p_rope_above >= ANALYSIS_DIRECTION_PROBABILITY)
			return ANALYSIS_VERDICT_SLOWER;
		if (c->p_rope_below >= ANALYSIS_DIRECTION_PROBABILITY)
			return ANALYSIS_VERDICT_FASTER;
		if (c->p_rope >= ANALYSIS_EQUIVALENCE_PROBABILITY)
			return ANALYSIS_VERDICT_SAME;
		return ANALYSIS_VERDICT_UNDECIDED;
	}
	if (c->p_a_gt_b >= ANALYSIS_DIRECTION_PROBABILITY)
		return ANALYSIS_VERDICT_SLOWER;
	if (c->p_a_lt_b >= ANALYSIS_DIRECTION_PROBABILITY)
		return ANALYSIS_VERDICT_FASTER;
	return ANALYSIS_VERDICT_UNDECIDED;
}

/* The difference mu_A - mu_B: P(A > B), its mean, interval and HDI. */
static void summarize_difference(struct analysis_comparison *c)
{
	bool lattice = !c->grid.seed_grid;
	/* P(A > B): the lattice cell at 0 straddles zero, so half of it counts on each side. The
	 * seed counts strictly greater pairs. */
	double p_gt = 0, p_lt = 0, p_eq = 0;
	for (size_t i = 0; i < c->diff.count; i++) {
		if (c->diff.values[i] > 0)
			p_gt += c->diff.probs[i];
		else if (c->diff.values[i] < 0)
			p_lt += c->diff.probs[i];
		else
			p_eq += c->diff.probs[i];
	}
	c->p_a_gt_b = lattice ? p_gt + 0.5 * p_eq : p_gt;
	c->p_a_lt_b = lattice ? p_lt + 0.5 * p_eq : p_lt;
	c->diff_mean = analysis_dist_mean(&c->diff);
	if (lattice) {
		c->diff_ci[0] = analysis_dist_quantile(&c->diff, 0.025);
		c->diff_ci[1] = analysis_dist_quantile(&c->diff, 0.975);
		analysis_dist_hdi(&c->diff, 0.95, c->diff_hdi);
	} else {
		/* The seed's rule: Pmf.credible_interval(0.95). */
		c->diff_ci[0] = dist_quantile_next(&c->diff, 0.025);
		c->diff_ci[1] = dist_quantile_next(&c->diff, 0.975);
		dist_hdi_points(&c->diff, 0.95, c->diff_hdi);
	}
}

/* E[num] E[1 / den] for independent posteriors: the mean of num / den. */
static double ratio_mean(const struct analysis_dist *num, const struct analysis_dist *den)
{
	double mean_inv = 0;
	for (size_t i = 0; i < den->count; i++)
		mean_inv += den->probs[i] / den->values[i];
	return analysis_dist_mean(num) * mean_inv;
}

/* The slowdown factor mu_A / mu_B, and with a ROPE the probabilities below, within and above
 * it. mu_B > 0 on every grid (the lattice's prior mu > 0, the seed's 5 to 35 s: grid.c), so the
 * ratio is always defined, though it may overflow (times 1e267 apart): then it is not finite. */
static void summarize_ratio(struct analysis_comparison *c, const struct pair_posterior *pp,
                            double rope_pct)
{
	const struct group_posterior *a = &pp->g[0], *b = &pp->g[1];
	c->ratio_mean = ratio_mean(&(struct analysis_dist){ a->mu, a->mu_prob, a->mu_count },
	                           &(struct analysis_dist){ b->mu, b->mu_prob, b->mu_count });
	double a_lo = a->mu[0], a_hi = a->mu[a->mu_count - 1];
	double b_lo = b->mu[0], b_hi = b->mu[b->mu_count - 1];
	double lo = fmin(a_lo / b_hi, a_lo / b_lo), hi = fmax(a_hi / b_lo, a_hi / b_hi);
	c->ratio_ci[0] = bisect_quantile(pair_ratio_cdf, pp, 0.025, lo, hi, 100, 0);
	c->ratio_ci[1] = bisect_quantile(pair_ratio_cdf, pp, 0.975, lo, hi, 100, 0);
	c->p_rope = c->p_rope_above = c->p_rope_below = NAN;
	double rope = rope_pct / 100.0;
	if (!isnan(rope)) {
		c->p_rope_below = pair_ratio_cdf(pp, 1.0 / (1.0 + rope));
		c->p_rope_above = 1.0 - pair_ratio_cdf(pp, 1.0 + rope);
		c->p_rope = fmax(0.0, 1.0 - c->p_rope_above - c->p_rope_below);
	}
}

/* The samples of g at 0 s or below (below the clock's resolution). */
static size_t zero_count(const struct analysis_group *g)
{
	size_t n = 0;
	for (size_t i = 0; i < g->n; i++)
		n += !(g->values_s[i] > 0);
	return n;
}

/* Why ga vs gb cannot be compared for their times of 0 s (a new string), or NULL: more than
 * ANALYSIS_ZERO_SHARE_MAX of either side's times are 0, or fewer than 2 are above it. */
static char *zero_refusal(const struct analysis_group *ga, const struct analysis_group *gb)
{
	size_t za = zero_count(ga), zb = zero_count(gb);
	bool a_bad = ga->n - za < 2 || (double)za > ANALYSIS_ZERO_SHARE_MAX * (double)ga->n;
	bool b_bad = gb->n - zb < 2 || (double)zb > ANALYSIS_ZERO_SHARE_MAX * (double)gb->n;
	if (!a_bad && !b_bad)
		return NULL;
	const struct analysis_group *g = a_bad ? ga : gb;
	size_t z = a_bad ? za : zb;
	return xasprintf("%s vs %s: not compared: %zu of %zu times of %s are 0 s, below the "
	                 "clock's resolution (user time is counted in clock ticks of %g s; a "
	                 "time of 0 is no length), more than the %g%% a comparison can leave "
	                 "out; give each trial more work (a longer command, more iterations)",
	                 ga->name, gb->name, z, g->n, g->name, ANALYSIS_USER_TICK_S,
	                 ANALYSIS_ZERO_SHARE_MAX * 100);
}

/* g's samples above 0 s, as a group borrowing g's name, of what the posteriors read: its name
 * and values (the caller frees out->values_s). */
static void nonzero_group(const struct analysis_group *g, struct analysis_group *out)
{
	*out = (struct analysis_group){ .name = g->name,
	                                .values_s = xmalloc((g->n ? g->n : 1) * sizeof *out->values_s) };
	for (size_t i = 0; i < g->n; i++)
		if (g->values_s[i] > 0)
			out->values_s[out->n++] = g->values_s[i];
}

/* One comparison: each group's posterior (the per-placement table), then the answer by the
 * paired design when pb holds the blocks, else by the unpaired groups. */
static int compare_nonzero(struct analysis_comparison *c, enum comparison_kind kind,
                           const struct analysis_group *ga, const struct analysis_group *gb,
                           const struct paired_blocks *pb, const struct analysis_options *opt,
                           char *err, size_t err_size)
{
	memset(c, 0, sizeof *c);
	struct pair_posterior pp;
	if (pair_posterior_compute(&pp, ga, gb, opt, err, err_size) < 0)
		return -1;
	c->kind = kind;
	c->grid = pp.report;
	pair_difference(&pp, &c->diff);
	summarize_difference(c);
	summarize_ratio(c, &pp, opt->rope_pct);
	struct welford wa = welford_of(ga->values_s, ga->n), wb = welford_of(gb->values_s, gb->n);
	welch_test(&wa, &wb, &c->welch_t, &c->welch_df, &c->welch_p);
	c->cohens_d = cohens_d(&wa, &wb);
	summarize_group(&c->a, &pp.g[0], ga);
	summarize_group(&c->b, &pp.g[1], gb);
	c->design = ANALYSIS_DESIGN_UNPAIRED;
	if (pb)
		compare_paired(c, pb, c->b.mu_mean, opt);
	c->verdict = decide(c);
	pair_posterior_release(&pp);
	return 0;
}

/* One comparison of the samples above 0 s (a time of 0 is below the clock's resolution: no
 * length; the caller has refused a comparison with too many, zero_refusal), counted in zero_a
 * and zero_b. */
static int compare_groups(struct analysis_comparison *c, enum comparison_kind kind,
                          const struct analysis_group *ga, const struct analysis_group *gb,
                          const struct paired_blocks *pb, const struct analysis_options *opt,
                          char *err, size_t err_size)
{
	struct analysis_group a, b;
	nonzero_group(ga, &a);
	nonzero_group(gb, &b);
	int rc = compare_nonzero(c, kind, &a, &b, pb, opt, err, err_size);
	struct analysis_options plain = *opt;
	plain.seed_grid = false;
	struct analysis_comparison other;
	/* With --seed-grid, the default method on the same data, so that the report can say why
	 * they differ. */
	if (rc == 0 && opt->seed_grid
	    && compare_nonzero(&other, kind, &a, &b, NULL, &plain, err, err_size) == 0) {
		c->has_default = true;
		c->default_diff_mean = other.diff_mean;
		c->default_diff_ci[0] = other.diff_ci[0];
		c->default_diff_ci[1] = other.diff_ci[1];
		analysis_comparison_release(&other);
	}
	if (rc == 0) {
		c->zero_a = ga->n - a.n;
		c->zero_b = gb->n - b.n;
	}
	free(a.values_s);
	free(b.values_s);
	return rc;
}

static void diagnose_group(struct analysis_group_diagnostics *d,
                           const struct analysis_dataset *data, size_t gi)
{
	const struct analysis_group *g = &data->groups[gi];
	d->group = g;
	/* Plain files hold seconds of any clock: only a folder's or an export's metric is known. */
	d->user_time = data->metric == ANALYSIS_METRIC_USER && (data->from_folder
	                                                        || data->from_hyperfine);
	d->zero_samples = zero_count(g);
	for (size_t i = 0; i < g->n; i++)
		d->below_tick_samples += d->user_time && g->values_s[i] > 0
		                         && g->values_s[i] < ANALYSIS_USER_TICK_S;
	/* Plain files' lines are known for every point (from 1), a folder's for none (0): the
	 * lines are kept only when every outlier has one, so that each is read beside its trial. */
	bool lines_known = true;
	for (size_t i = 0; i < data->point_count; i++) {
		const struct analysis_point *p = &data->points[i];
		if (p->group != (int)gi || !p->outlier)
			continue;
		d->outlier_trials = xreallocarray(d->outlier_trials, d->outlier_count + 1,
		                                  sizeof *d->outlier_trials);
		d->outlier_lines = xreallocarray(d->outlier_lines, d->outlier_count + 1,
		                                 sizeof *d->outlier_lines);
		d->outlier_trials[d->outlier_count] = p->trial;
		d->outlier_lines[d->outlier_count++] = p->line;
		lines_known = lines_known && p->line > 0;
	}
	if (!lines_known) {
		free(d->outlier_lines);
		d->outlier_lines = NULL;
	}
	drift_fit(g->trials, g->values_s, g->n, &d->drift_slope_s, d->drift_slope_ci);
	size_t half = g->n / 2;
	double first = 0, second = 0;
	for (size_t i = 0; i < g->n; i++)
		*(i < half ? &first : &second) += g->values_s[i];
	d->first_half_mean_s = half ? first / (double)half : NAN;
	d->second_half_mean_s = g->n > half ? second / (double)(g->n - half) : NAN;
}


/* The options analysis_run accepts; -1 with err for the first it does not. */
static int check_options(const struct analysis_options *opt, char *err, size_t err_size)
{
	if (opt->grid_points < ANALYSIS_GRID_MIN || opt->grid_points > ANALYSIS_GRID_MAX)
		set_error(err, err_size, "grid of %d points: use %d to %d", opt->grid_points,
		          ANALYSIS_GRID_MIN, ANALYSIS_GRID_MAX);
	else if (!isnan(opt->rope_pct) && !(opt->rope_pct > 0 && opt->rope_pct < 100))
		set_error(err, err_size, "ROPE of %g %%: use a percentage above 0 and below 100",
		          opt->rope_pct);
	else if (opt->seed_grid && opt->design == ANALYSIS_PAIR_ALWAYS)
		set_error(err, err_size, "the seed grid compares independent groups; drop --paired "
		          "or --seed-grid");
	else if (opt->seed_grid && opt->model != ANALYSIS_MODEL_NORMAL)
		set_error(err, err_size, "the seed grid uses the normal model; drop --model t "
		          "or --seed-grid");
	else
		return 0;
	return -1;
}

/* ga's and gb's samples matched by block into pb, or, when the blocks that hold both are fewer
 * than the paired design needs, pb released and why they fall back to the unpaired design (a
 * new string): the blocks that hold both, and those that hold both but a time of 0 s on one
 * side; or (column_note) that the groups carry no blocks at all. */
static char *pair_or_note(const struct analysis_group *ga, const struct analysis_group *gb,
                          size_t measured_blocks, bool column_note, struct paired_blocks *pb)
{
	pair_blocks(ga, gb, measured_blocks, pb);
	char *note = NULL;
	if (!pb->blocks_known && column_note)
		note = xasprintf("%s vs %s: compared unpaired: samples.csv's block column is missing "
		                 "or empty (a file from an older smtbench, or converted from "
		                 "elsewhere)", ga->name, gb->name);
	else if (pb->blocks_known && pb->n >= ANALYSIS_PAIRED_MIN_BLOCKS)
		return NULL;
	else if (pb->zero_blocks)
		note = xasprintf("%s vs %s: compared unpaired: %zu block(s) hold both with times "
		                 "above 0 s (%zu more hold both but measured 0 s on one side, below "
		                 "the clock's resolution), fewer than the %d the paired design needs",
		                 ga->name, gb->name, pb->n, pb->zero_blocks,
		                 ANALYSIS_PAIRED_MIN_BLOCKS);
	else
		note = xasprintf("%s vs %s: compared unpaired: %zu block(s) hold both, fewer than the "
		                 "%d the paired design needs", ga->name, gb->name, pb->n,
		                 ANALYSIS_PAIRED_MIN_BLOCKS);
	paired_blocks_release(pb);
	return note;
}

/* The blocks that answer ga vs gb when the paired design does: pb->d stays NULL for the
 * unpaired design, with a note when pairing was asked for and cannot be done. 0; -1 with err
 * (a hyperfine export, or two files of different lengths, asked to pair). */
static int plan_pairing(struct analysis_result *r, const struct analysis_dataset *data,
                        const struct analysis_group *ga, const struct analysis_group *gb,
                        const struct analysis_options *opt, struct paired_blocks *pb,
                        char *err, size_t err_size)
{
	memset(pb, 0, sizeof *pb);
	if (opt->seed_grid || opt->design == ANALYSIS_PAIR_NEVER
	    || (opt->design != ANALYSIS_PAIR_ALWAYS && !data->from_folder))
		return 0; /* the paired design is not asked of this dataset */
	if (data->from_hyperfine) {
		set_error(err, err_size, "--paired: hyperfine runs each command's runs one after "
		          "another, never interleaved, so there are no blocks to pair; leave it out");
		return -1;
	}
	if (!data->from_folder && ga->n != gb->n) {
		set_error(err, err_size, "--paired pairs the files value by value, and %s has %zu "
		          "values but %s has %zu: give files of equal length, or drop --paired",
		          ga->name, ga->n, gb->name, gb->n);
		return -1;
	}
	char *note = pair_or_note(ga, gb, data->measured_blocks, true, pb);
	if (note)
		strings_push(&r->notes, &r->note_count, note);
	return 0;
}

/* One planned comparison of two groups with 2 samples or more each. -1 with err. */
static int compare_one(struct analysis_result *r, const struct analysis_dataset *data,
                       enum comparison_kind kind, const struct analysis_group *ga,
                       const struct analysis_group *gb, const struct analysis_options *opt,
                       char *err, size_t err_size)
{
	struct paired_blocks pb;
	if (plan_pairing(r, data, ga, gb, opt, &pb, err, err_size) < 0)
		return -1;
	struct analysis_comparison *c = &r->comparisons[r->comparison_count];
	int rc = compare_groups(c, kind, ga, gb, pb.d ? &pb : NULL, opt, err, err_size);
	paired_blocks_release(&pb);
	if (rc < 0)
		return rc;
	r->comparison_count++;
	/* What --exclude-contaminated left out is not in the samples: none of these shared. */
	if (!data->excluded_contaminated)
		c->shared_trials = ga->contaminated_trials + gb->contaminated_trials;
	c->shared_known = ga->contamination_known + gb->contamination_known
	                  - (data->excluded_contaminated ? ga->contaminated_trials
	                                                   + gb->contaminated_trials : 0);
	return 0;
}

bool analysis_under_load(const struct analysis_comparison *c)
{
	return c->shared_known > 0
	       && (double)c->shared_trials > ANALYSIS_UNDER_LOAD_SHARE * (double)c->shared_known;
}

/* Why ga vs gb cannot be compared (a new string), or NULL: fewer than 2 samples on one side
 * (excluded: --exclude-contaminated left some out), or too many times of 0 s. */
static char *refusal(bool excluded, const struct analysis_group *ga,
                     const struct analysis_group *gb)
{
	if (ga->n >= 2 && gb->n >= 2)
		return zero_refusal(ga, gb);
	const struct analysis_group *few = ga->n < 2 ? ga : gb;
	if (excluded && few->contaminated_trials)
		return xasprintf("%s vs %s: not compared: %s has %zu sample(s) left, at least 2 are "
		                 "needed: %zu of its trials shared their CPUs and "
		                 "--exclude-contaminated left them out", ga->name, gb->name,
		                 few->name, few->n, few->contaminated_trials);
	return xasprintf("%s vs %s: not compared: %s has %zu sample(s), at least 2 are needed",
	                 ga->name, gb->name, few->name, few->n);
}

/* The set of group i in a union-find over the groups (parent[i] == i at a root). */
static size_t group_set(size_t *parent, size_t i)
{
	while (parent[i] != i)
		i = parent[i] = parent[parent[i]];
	return i;
}

/* A folder's placements that were run (2 samples or more) and that no comparison made so far
 * joins, directly or through others (non-sibling and same-pu without solo), compared directly:
 * each one with the first placement, in table order, of a set it is not joined to (the later
 * one as A). Every run of two placements then has an answer. -1 with err. */
static int compare_unplanned(struct analysis_result *r, const struct analysis_dataset *data,
                             const struct analysis_options *opt, char *err, size_t err_size)
{
	size_t n = data->group_count;
	size_t *parent = xmalloc((n ? n : 1) * sizeof *parent);
	for (size_t i = 0; i < n; i++)
		parent[i] = i;
	for (size_t k = 0; k < r->comparison_count; k++) {
		int ia = analysis_dataset_find(data, r->comparisons[k].a.name);
		int ib = analysis_dataset_find(data, r->comparisons[k].b.name);
		if (ia >= 0 && ib >= 0)
			parent[group_set(parent, (size_t)ia)] = group_set(parent, (size_t)ib);
	}
	int rc = 0;
	for (size_t j = 1; j < n && rc == 0; j++)
		for (size_t i = 0; i < j && rc == 0; i++) {
			const struct analysis_group *ga = &data->groups[j], *gb = &data->groups[i];
			if (ga->n < 2 || gb->n < 2 || group_set(parent, i) == group_set(parent, j))
				continue;
			rc = compare_one(r, data, COMPARISON_UNPLANNED, ga, gb, opt, err, err_size);
			parent[group_set(parent, j)] = group_set(parent, i);
		}
	free(parent);
	return rc;
}

/* Every planned comparison whose two groups hold 2 samples or more; a note for the others.
 * -1 with err. */
static int compare_planned(struct analysis_result *r, const struct analysis_dataset *data,
                           const struct analysis_options *opt, char *err, size_t err_size)
{
	/* A folder's comparisons come from the placement registry; two files are one comparison. */
	struct placement_comparison folder_plan[PLACEMENT_COMPARISONS_MAX];
	struct placement_comparison plan_files = { NULL, NULL, data->from_hyperfine
	                                           ? COMPARISON_COMMANDS : COMPARISON_FILES };
	/* A hyperfine export: its first command against each other one. */
	size_t plan_count = data->from_folder
	                    ? placement_comparisons(folder_plan, PLACEMENT_COMPARISONS_MAX)
	                    : data->group_count > 1 ? data->group_count - 1 : 1;
	/* A folder's unplanned comparisons join its placements' sets: fewer than its groups. */
	r->comparisons = xcalloc(plan_count + (data->from_folder ? data->group_count : 0),
	                         sizeof *r->comparisons);
	if (data->from_hyperfine)
		strings_push(&r->notes, &r->note_count, xstrdup(
			"hyperfine ran each command's runs one after another, not interleaved in "
			"blocks: the comparisons are unpaired, and drift between the commands' runs "
			"is not cancelled"));
	for (size_t k = 0; k < plan_count; k++) {
		const struct placement_comparison *p = data->from_folder ? &folder_plan[k] : &plan_files;
		int ia = data->from_folder ? analysis_dataset_find(data, p->a) : 0;
		int ib = data->from_folder ? analysis_dataset_find(data, p->b) : (int)k + 1;
		if (ia < 0 || ib < 0 || data->group_count < 2)
			continue; /* a placement that was not run: nothing to say */
		const struct analysis_group *ga = &data->groups[ia], *gb = &data->groups[ib];
		char *refused = refusal(data->excluded_contaminated, ga, gb);
		if (refused)
			strings_push(&r->notes, &r->note_count, refused);
		else if (compare_one(r, data, p->kind, ga, gb, opt, err, err_size) < 0)
			return -1;
	}
	return data->from_folder ? compare_unplanned(r, data, opt, err, err_size) : 0;
}

/*
 * SMT yield (struct analysis_smt_yield) of one process given the placement's CPUs (run
 * --one-process), by its wall time: on the baseline's one PU (solo, same-pu) it does the whole
 * work in t_alone; on the sibling pair its threads share one core and do it in t_sibling, so the
 * core does t_alone / t_sibling times the work. By its user time (analyze --metric user) each
 * thread's CPU time is half the process's in both, which gives back the copies'
 * 2 · t_alone / t_sibling. Two cores (non-sibling) are not one core's baseline for one process:
 * no yield from them.
 */

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

/* The yield from the comparison of sibling against a baseline. */
static void yield_from(struct analysis_smt_yield *y, const struct analysis_comparison *c,
                       enum placement baseline)
{
	/* The work the sibling core does against the baseline's one unit: 2 for two copies (or
	 * threads by user time), 1 for one process by wall time. */
	double work = y->one_process ? 1 : 2;
	if (!isfinite(c->ratio_ci[0]) || !isfinite(c->ratio_ci[1]) || !(c->ratio_ci[0] > 0))
		return;
	y->known = true;
	y->baseline = placement_name(baseline);
	y->design = c->design;
	y->settled = analysis_comparison_settled(c);
	y->mean = c->design == ANALYSIS_DESIGN_PAIRED ? work / c->ratio_mean
	                                              : work * ratio_mean(&c->b.mu, &c->a.mu);
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

static void smt_yield_compute(struct analysis_result *r, const struct analysis_dataset *data)
{
	struct analysis_smt_yield *y = &r->smt_yield;
	memset(y, 0, sizeof *y);
	y->mean = y->ci[0] = y->ci[1] = NAN;
	y->one_process = data->one_process && data->metric == ANALYSIS_METRIC_WALL;
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

/* Why a dataset gives no comparison, in the error analysis_run returns: lines that did not
 * load (trials meta.json does not describe, or a damaged file), one placement measured, every
 * trial left out as contaminated, or too few samples (its first note). */
static void no_comparison_error(const struct analysis_result *r,
                                const struct analysis_dataset *data, char *err, size_t err_size)
{
	if (data->warning_count) {
		/* Nothing to compare because the lines did not load: trials meta.json does not
		 * name, or else a damaged file, and that is the answer (fleet tells it from "no
		 * comparison" by ANALYSIS_DAMAGED). */
		bool unnamed = strstr(data->warnings[0], FOLDER_NOT_NAMED_BY_META) != NULL;
		set_error(err, err_size, "%s: %s (%zu line(s) %s; the first: %s), and no two "
		          "placements have 2 samples to compare", data->source, unnamed
		          ? "samples.csv's trials are not the ones meta.json describes"
		          : ANALYSIS_DAMAGED, data->warning_count, unnamed ? "left out" : "unreadable",
		          data->warnings[0]);
		return;
	}
	size_t run = 0, total = 0, excluded = 0;
	const char *only = NULL;
	for (size_t i = 0; i < data->group_count; i++) {
		const struct analysis_group *g = &data->groups[i];
		total += g->n;
		excluded += data->excluded_contaminated ? g->contaminated_trials : 0;
		if (g->n || (data->excluded_contaminated && g->contaminated_trials)
		    || g->failed_trials) {
			run++;
			only = g->name;
		}
	}
	if (data->from_folder && run == 1)
		set_error(err, err_size, "%s: " ANALYSIS_ONE_PLACEMENT " (%s): nothing to compare it "
		          "with; run two or more (--placements)", data->source, only);
	else if (data->from_folder && run == 0)
		set_error(err, err_size, "%s: no measured trial yet (samples.csv holds none past the "
		          "warm-up)", data->source);
	else if (data->excluded_contaminated && total == 0)
		set_error(err, err_size, "%s: all %zu measured trials shared their CPUs, and "
		          "--exclude-contaminated " ANALYSIS_ALL_EXCLUDED ": nothing is left to compare; "
		          "analyse without it (the answer then says it was measured under load), or run "
		          "again on a quieter machine", data->source, excluded);
	else if (r->note_count) /* the first note says why: too few samples, or times of 0 s */
		set_error(err, err_size, "%s: " ANALYSIS_NOT_COMPARED ": %s", data->source,
		          r->notes[0]);
	else
		set_error(err, err_size, "%s: " ANALYSIS_TOO_FEW, data->source);
}

struct analysis_result *analysis_run(const struct analysis_dataset *data,
                                     const struct analysis_options *opt,
                                     char *err, size_t err_size)
{
	if (check_options(opt, err, err_size) < 0)
		return NULL;
	struct analysis_result *r = xcalloc(1, sizeof *r);
	r->data = data;
	r->options = *opt;
	r->groups = xcalloc(data->group_count ? data->group_count : 1, sizeof *r->groups);
	r->group_count = data->group_count;
	for (size_t gi = 0; gi < data->group_count; gi++)
		diagnose_group(&r->groups[gi], data, gi);
	if (compare_planned(r, data, opt, err, err_size) < 0) {
		analysis_result_free(&r);
		return NULL;
	}
	smt_yield_compute(r, data);
	if (r->comparison_count == 0) {
		no_comparison_error(r, data, err, err_size);
		analysis_result_free(&r);
	}
	return r;
}

int analysis_compare_groups(const struct analysis_group *a, const struct analysis_group *b,
                            size_t measured_blocks, const struct analysis_options *opt,
                            struct analysis_comparison *out, char **note, char *err,
                            size_t err_size)
{
	memset(out, 0, sizeof *out);
	if (note)
		*note = NULL;
	if (check_options(opt, err, err_size) < 0)
		return -1;
	char *refused = refusal(false, a, b);
	if (refused) {
		set_error(err, err_size, "%s", refused);
		free(refused);
		return -1;
	}
	struct paired_blocks pb = { 0 };
	if (!opt->seed_grid && opt->design != ANALYSIS_PAIR_NEVER) {
		char *why = pair_or_note(a, b, measured_blocks, false, &pb);
		if (note)
			*note = why;
		else
			free(why);
	}
	int rc = compare_groups(out, COMPARISON_CONTENTION, a, b, pb.d ? &pb : NULL, opt, err,
	                        err_size);
	paired_blocks_release(&pb);
	return rc;
}

int analysis_compare_log_ratios(const double *d, size_t n, double b_mean_s,
                                const struct analysis_options *opt,
                                struct analysis_comparison *out, char *err, size_t err_size)
{
	memset(out, 0, sizeof *out);
	if (check_options(opt, err, err_size) < 0)
		return -1;
	if (n < 2 || !(b_mean_s > 0)) {
		set_error(err, err_size, "%zu log ratio(s) at B's mean %g s: at least 2 are needed, "
		          "and a mean above 0", n, b_mean_s);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (!isfinite(d[i])) {
			set_error(err, err_size, "log ratio %zu is not a finite number", i + 1);
			return -1;
		}
	out->kind = COMPARISON_FILES;
	out->a.name = xstrdup("A");
	out->b.name = xstrdup("B");
	struct paired_blocks pb = { .d = (double *)d, .n = n, .blocks_known = true,
	                            .b_median_s = b_mean_s };
	compare_paired(out, &pb, b_mean_s, opt);
	out->verdict = decide(out);
	return 0;
}

