/*
 * internal.h — what the analysis module's .c files share among themselves. Not part of the
 * interface: nothing outside analysis/ includes it (tests/tools/check_layers.py).
 */
#ifndef SMTBENCH_ANALYSIS_INTERNAL_H
#define SMTBENCH_ANALYSIS_INTERNAL_H

#include <stdint.h>

#include "analysis/analysis.h"
#include "common/alloc.h"
#include "common/error.h"
#include "common/text.h"

/* Welford's one-pass mean and sum of squared deviations. */
struct welford {
	size_t n;
	double mean;
	double ss;
};
double welford_sd(const struct welford *w);
struct welford welford_of(const double *x, size_t n);

/* Median absolute deviation from `center`. */
double mad_of(const double *x, size_t n, double center);

/* Switches GSL's aborting error handler off (once, thread-safe): call before any GSL function,
 * whose NaN or 0 is then what the caller sees. */
void gsl_quiet(void);

/* The x in [lo, hi] where the increasing cdf (of ctx) reaches q, by bisection: at most steps
 * halvings, fewer once the bracket is at most tol wide. The one root finder of the ratio's and
 * the mixtures' quantiles, whose CDFs have no inverse in closed form. */
double bisect_quantile(double (*cdf)(const void *ctx, double x), const void *ctx, double q,
                       double lo, double hi, int steps, double tol);

/* Above this edge mass the seed's fixed grid visibly truncates the posterior. */
#define ANALYSIS_SEED_EDGE_MASS_MAX 1e-3
/* Two plans' values that differ by less than this (relative) are equally good. */
#define ANALYSIS_ADVISE_TIE 1e-9

/* The shortest interval holding mass `mass` (cells taken in order of density). */
void analysis_dist_hdi(const struct analysis_dist *d, double mass, double out[2]);

/* ---- datasets under construction (data.c), for the loaders; out of memory exits ---- */

/* A growing dataset: its points' capacity beside it. */
struct dataset_builder {
	struct analysis_dataset *data;
	size_t point_cap;
};
/* Frees a group's name and arrays (a dataset's, a matrix's cell), and empties it. */
void group_release(struct analysis_group *g);
/* Appends a sample to a group built only by this, from empty. */
void group_add(struct analysis_group *g, double value, long trial, long block);
/* An empty dataset of source (shown escaped). */
struct analysis_dataset *dataset_new(const char *source, bool from_folder, enum analysis_unit unit);
/* A new group (its name shown escaped); its index. */
int builder_add_group(struct dataset_builder *b, const char *name);
/* Room for this many points in all, so that adding them does not reallocate. */
void builder_reserve_points(struct dataset_builder *b, size_t points);
/* Adds a sample (or a warm-up point) in run order. */
void builder_add_sample(struct dataset_builder *b, int group, long trial, long block,
                        double value, bool warmup);
/* Adds a warning, taking the message (escaped here when it is not printable). */
void builder_warn(struct dataset_builder *b, char *message);
/* Flags each group's outliers on its points. */
void builder_flag_outliers(struct dataset_builder *b, double resolution);
/* A copy of standard input's descriptor (the reader closes what it reads), refused with
 * "-: standard input is a terminal; HINT", or -1 with err. */
int stdin_fd(const char *hint, char *err, size_t err_size);

/* ---- the paired design (paired.c) ---- */

/* A comparison's samples matched by block: d = log A - log B per block both sides hold. */
struct paired_blocks {
	double *d;
	long *block, *trial;  /* each d's block, and its latest trial of A or B (the plots') */
	size_t n;
	size_t dropped;       /* blocks with a measured trial but no usable sample on one side */
	size_t zero_blocks;   /* of those, blocks both sides ran where one measured 0 s */
	bool blocks_known;    /* both groups' samples carry block numbers */
	double b_median_s;    /* the median of B's paired values (sigma's floor in log units) */
};
/* Matches a's and b's samples by block (measured_blocks: the dataset's count, 0 unknown, or
 * ANALYSIS_DROPPED_OF_A). */
void pair_blocks(const struct analysis_group *a, const struct analysis_group *b,
                 size_t measured_blocks, struct paired_blocks *out);
void paired_blocks_release(struct paired_blocks *p);
/* Replaces c's difference, ratio, probabilities and ROPE numbers with the paired design's, from
 * pb's log ratios (pb->n >= 2; b_mean: B's mean time, for the difference in seconds). */
void compare_paired(struct analysis_comparison *c, const struct paired_blocks *pb, double b_mean,
                    const struct analysis_options *opt);

/* ---- the Student-t log-likelihood (grid_t.c, which states the fast form's error bound) ---- */

/* One group's samples for the t model: sorted, and as distinct values with counts. */
struct t_samples {
	size_t n;
	double *sorted;
	double *unique, *counts;
	size_t unique_count;
};
void t_samples_init(struct t_samples *ts, const double *values, size_t n);
void t_samples_release(struct t_samples *ts);

enum { T_ORDER_MAX = 40 };
/* The log-likelihood over one mu axis, exact or binned + series, chosen by t_loglik_begin. */
struct t_loglik {
	const struct t_samples *ts;
	double nu, ref, mu0;
	const double *mu_offset;  /* the mu axis, offset by ref (borrowed) */
	size_t mu_count;
	bool binned;              /* false: exact */
	int order;                /* terms of the series in mu */
	size_t bin_count;
	double *bin_mean, *bin_count_of, *bin_s2; /* centroid - ref, count, sum of (x - m)^2 */
	double *scratch;          /* 4 x bin_count: w and its powers, per sigma row */
	double s2_total, bins_error;
	double error_bound;       /* |log-likelihood error| at every grid point; 0 when exact */
};
/* Chooses the form for a grid whose smallest sigma is sigma_lo. */
void t_loglik_begin(struct t_loglik *tl, const struct t_samples *ts, const double *mu_offset,
                    size_t mu_count, double ref, double sigma_lo,
                    const struct analysis_options *opt);
/* row[i] = base + the sum over samples of -(nu+1)/2 log(1 + z^2/nu) at mu_offset[i], sigma. */
void t_loglik_row(struct t_loglik *tl, double sigma, double base, double *row);
void t_loglik_end(struct t_loglik *tl);

/* ---- grid posterior (grid.c) ---- */

/* One group's posterior on its grid. mu values are ref + (k_lo + i - k_ref) * step; the integer
 * index k_lo + i is what the difference lattice uses. */
struct group_posterior {
	int64_t k_lo;
	size_t mu_count;
	double *mu;           /* mu values (seconds) */
	double *mu_prob;      /* marginal of mu */
	size_t sigma_count;
	double *sigma;
	double *sigma_prob;   /* marginal of sigma */
	double sigma_floor;
	bool sigma_floored;
	bool mu_clamped;      /* the lowest mu is held just above 0 (the prior mu > 0), not an edge */
	bool sigma_log_spaced; /* the data-driven grids (edges tested on bands); false: the seed's */
	double t_loglik_error; /* t model: the fast form's error bound on this grid (0: exact) */
};

struct pair_posterior {
	struct group_posterior g[2];
	struct analysis_grid_report report;
};

/* Computes both groups' posteriors (the default data-driven grid, widened as needed, or the
 * seed's grid). Returns 0, or -1 with a message (too few samples, a grid too fine). */
int pair_posterior_compute(struct pair_posterior *pp, const struct analysis_group *a,
                           const struct analysis_group *b, const struct analysis_options *opt,
                           char *err, size_t err_size);
void pair_posterior_release(struct pair_posterior *pp);

/* The paired design: the posterior of (delta, sigma) for d ~ Normal(delta, sigma) (or the t
 * model) from the n >= 2 per-block log ratios d, flat priors, delta of any sign; sigma's grid
 * held at sigma_floor or above. *delta: delta's marginal (the caller's). */
void log_ratio_posterior_compute(struct analysis_dist *delta, struct analysis_paired_grid *rep,
                                 const double *d, size_t n, double sigma_floor,
                                 const struct analysis_options *opt);

/* An axis of `points` offsets scale * sinh(u), u evenly spaced, reaching -reach and +reach, and
 * each point's cell width (halfway to its neighbours; the end cells symmetric), as
 * analysis_dist reads cells. Fine near 0, a fixed share of |offset| in the tails. */
void sinh_axis(double scale, double reach, size_t points, double *offset, double *width);

/* The distribution of mu_A - mu_B: lattice convolution, or the seed's merge of equal floats. */
void pair_difference(const struct pair_posterior *pp, struct analysis_dist *out);

/* P(mu_A / mu_B <= r) for mu_B > 0 on all its grid (pp: a struct pair_posterior; untyped for
 * bisect_quantile). */
double pair_ratio_cdf(const void *pp, double r);

/* The piecewise-uniform CDF (see analysis_dist_quantile) at x. */
double dist_cdf(const struct analysis_dist *d, double x);

void dist_release(struct analysis_dist *d);

/* Whether the trial of n rows (samples_next_trial's) shared its CPUs: its foreign or steal time
 * above ANALYSIS_CONTAMINATED_SHARE of its duration (the longest wall_s); -1 when not known.
 * The one rule, for a placement's group (samples_load.c) and a matrix's cell (matrix.c). */
struct samples_record;
int analysis_trial_shared(const struct samples_record *rows, size_t n);

#endif
