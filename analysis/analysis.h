/*
 * analysis.h — the analysis module's whole interface: samples in, the answer out.
 *
 * Data flows one way: a dataset (a results folder's samples.csv, or two plain files of numbers)
 * → analysis_run() with options → a result (comparisons of placements and diagnostics), which
 * the report layer shows. The models are described where they are computed: paired.c (the
 * paired design), grid.c (the unpaired groups' grid, and seed 003's).
 *
 * Error policy: no function here prints, and none exits but on out of memory (common/alloc.h's
 * x* allocators). Functions that can fail return NULL (or -1) and write one line, without a
 * trailing newline, into err[err_size] when err is not NULL.
 * Ownership: every *_new/load/run result is the caller's, released by its *_free(&p), which
 * sets p to NULL and accepts a NULL p or *p. Times are in seconds throughout.
 */
#ifndef SMTBENCH_ANALYSIS_ANALYSIS_H
#define SMTBENCH_ANALYSIS_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/placements.h"
#include "common/samples_csv.h"

/* Grid points per axis: the default, and the range analysis_run() accepts. */
#define ANALYSIS_GRID_DEFAULT 201
#define ANALYSIS_GRID_MIN 11
#define ANALYSIS_GRID_MAX 4001

/* wait4's rusage counts CPU time in microseconds: sigma's floor, capped at 0.1 % of |mean|
 * (see grid.c). */
#define ANALYSIS_TIMER_RESOLUTION_S 1e-6

/* The thresholds the analysis applies, defined once: every message that states one prints it
 * from here (with %g), so that the words never drift from the rule. */
#define ANALYSIS_DIRECTION_PROBABILITY 0.975   /* slower/faster: one-sided P at least this */
#define ANALYSIS_EQUIVALENCE_PROBABILITY 0.95  /* practically the same: P(within ROPE) */
#define ANALYSIS_OUTLIER_Z 3.5                 /* robust |z| above this is an outlier */
#define ANALYSIS_POOR_OVERLAP SAMPLES_POOR_OVERLAP     /* processes overlapped less: poor */
#define ANALYSIS_WALL_ABOVE_CPU SAMPLES_WALL_ABOVE_CPU /* wall above this × CPU time: waited */
#define ANALYSIS_CONTAMINATED_SHARE SAMPLES_CONTAMINATED_SHARE /* foreign_s or steal_s above
                                                * this share of a trial's duration (its longest
                                                * wall_s): the trial shared its CPUs */

enum analysis_model { ANALYSIS_MODEL_NORMAL, ANALYSIS_MODEL_T };
#define ANALYSIS_T_DOF 4.0 /* the Student-t likelihood's degrees of freedom */
/* How the Student-t log-likelihood is summed (grid_t.c states the fast form's bound): AUTO
 * exact on small data, binned + series elsewhere; EXACT the reference; BINNED the fast form
 * wherever its series converges (tests compare it with EXACT). */
enum analysis_t_method { ANALYSIS_T_AUTO, ANALYSIS_T_EXACT, ANALYSIS_T_BINNED };
/* The fast t form's bound on |error| of the log-likelihood at every grid point: posterior
 * probabilities then move by a factor within exp(+-2 x this), i.e. by at most 2e-7 relative. */
#define ANALYSIS_T_LOGLIK_TOLERANCE 1e-7
enum analysis_unit { ANALYSIS_UNIT_TRIAL, ANALYSIS_UNIT_PROCESS };
/* What a sample measures: user CPU time (a folder's default: what the other sibling cannot
 * steal shows as user time) or elapsed wall time (samples.csv's wall_s; hyperfine's "times",
 * its default). */
enum analysis_metric { ANALYSIS_METRIC_USER, ANALYSIS_METRIC_WALL };

/* Which design answers a comparison: PAIRED, the per-block log ratios (paired.c); UNPAIRED,
 * each placement an independent group (grid.c): the seed's computation, and two plain files
 * unless asked to pair them. */
enum analysis_design { ANALYSIS_DESIGN_PAIRED, ANALYSIS_DESIGN_UNPAIRED };
/* AUTO pairs a results folder's blocks and leaves two plain files unpaired; ALWAYS also pairs
 * two plain files value by value (of equal length); NEVER never pairs. */
enum analysis_design_request { ANALYSIS_PAIR_AUTO, ANALYSIS_PAIR_ALWAYS, ANALYSIS_PAIR_NEVER };
/* Below this many paired blocks a comparison falls back to the unpaired design, said in a note. */
#define ANALYSIS_PAIRED_MIN_BLOCKS 4
/* A time of 0 s is no measurement of a length: it is below the clock's resolution (user time
 * is counted in clock ticks, ANALYSIS_USER_TICK_S each, and a process that ran less than a tick
 * in user mode can be charged none). A comparison leaves its zero times out and says how many
 * (zero_a, zero_b); where more than this share of either side's times are 0 it is refused with
 * the count, since the times left would be a biased few (a short workload measures 0 s in a
 * fraction of its trials: a tick that finds it in the kernel charges all its time there). */
#define ANALYSIS_ZERO_SHARE_MAX 0.5
/* One clock tick of user time (common/samples_csv.h): a folder's user times below it are
 * warned about as coarse. */
#define ANALYSIS_USER_TICK_S SAMPLES_USER_TICK_S
/* Without a ROPE: slower needs P(mu_A > mu_B) >= 0.975, faster P(mu_A < mu_B) >= 0.975 (the
 * same evidence as a 95% equal-tailed interval of the difference that excludes 0). With
 * --rope PCT, a ratio from 1 / (1 + PCT/100) to 1 + PCT/100 (symmetric in log: A / B = r and
 * B / A = r get mirrored answers): slower needs P(mu_A / mu_B > 1 + PCT/100) >= 0.975, faster
 * P(mu_A / mu_B < 1 / (1 + PCT/100)) >= 0.975, practically the same P(within) >= 0.95. A
 * comparison that is not settled (analysis_comparison_settled) is always undecided. */
enum analysis_verdict {
	ANALYSIS_VERDICT_SLOWER,     /* A is slower than B */
	ANALYSIS_VERDICT_FASTER,     /* A is faster than B */
	ANALYSIS_VERDICT_SAME,       /* practically the same (only with a ROPE) */
	ANALYSIS_VERDICT_UNDECIDED,  /* not enough data to say */
};

/* Below this many samples in a group the posterior of mu has no mean: with uniform priors on
 * mu and sigma its marginal is a Student-t with n - 2 degrees of freedom (n = 3: a Cauchy), so
 * means and intervals are whatever the grid's bound makes them. */
#define ANALYSIS_SETTLED_MIN_N 4

/* ---- Datasets ---- */

/* One sample in run order, as the plots show it. */
struct analysis_point {
	long trial;     /* run-order index: the `trial` column, or the line's index in a plain file */
	double value_s; /* the analysed value: a trial's mean utime_s, or one process's utime_s */
	long line;      /* plain files: the line number in the file (from 1); 0 otherwise */
	long block;     /* the `block` column (a plain file: the value's index); -1 unknown */
	int group;      /* index into analysis_dataset.groups */
	bool warmup;    /* warm-up samples are kept for plots, never analysed */
	bool outlier;   /* robust |z| > 3.5 within its group (never for warm-ups); never dropped */
};

/* The analysed samples of one placement (or one file), in run order. */
struct analysis_group {
	char *name;                   /* placement name, or the file's path */
	double *values_s;             /* n samples, warm-ups excluded */
	long *trials;                 /* run-order index of each sample */
	long *blocks;                 /* each sample's block (plain files: its index); -1 unknown */
	size_t n;
	size_t failed_trials;         /* non-warm-up trials with a row not `ok`: counted, never samples */
	size_t overlap_known;         /* trials with an `overlap` value */
	size_t poor_overlap_trials;   /* of those, overlap < 0.9 */
	bool overlap_of_measured;     /* a different workload B ran beside: overlap is the share of
	                               * the measured process's (A's) time that B ran beside it, from
	                               * the rows' wall_s (B outlasting A is what was asked for), not
	                               * the samples.csv column's shorter-over-longer */
	size_t wall_known;            /* trials with wall_s, utime_s and stime_s for every role-a row */
	size_t wall_above_cpu_trials; /* of those, a role-a row with wall_s > 1.5 * (utime_s + stime_s) */
	double freq_mhz;              /* mean freq_mhz of its measured role-a lines, when freq_n > 0 */
	size_t freq_n;
	size_t contamination_known;   /* ok measured trials with foreign_s, steal_s and wall_s */
	size_t contaminated_trials;   /* of those, foreign_s or steal_s above
	                               * ANALYSIS_CONTAMINATED_SHARE of the trial's duration */
	size_t leftover_trials;       /* trials (any) whose leftovers column is above 0 */
	size_t leftovers;             /* the processes those trials left, summed */
	size_t spread_known;          /* measured usable trials of one process given two or more
	                               * CPUs whose per_cpu_s says how its CPU time was spread */
	size_t unspread_trials;       /* of those, the process ran on one of its CPUs (each other
	                               * CPU together under SAMPLES_UNSPREAD_SHARE of its time) */
	int spread_cpus;              /* the CPUs those trials' process was given (2), 0 if none */
};

struct analysis_dataset {
	char *source;                  /* the folder, or "FILE_A and FILE_B" */
	bool from_folder;
	bool from_hyperfine;           /* a hyperfine --export-json file: one group per command */
	enum analysis_unit unit;
	enum analysis_metric metric;
	bool one_process;              /* folders: each trial was one process given the placement's
	                                * CPUs (run --one-process; meta.json's settings.one_process) */
	struct analysis_group *groups; /* placements in the stable order solo, same-pu, sibling, ... */
	size_t group_count;
	struct analysis_point *points; /* every sample in run order, warm-ups included */
	size_t point_count;
	char **warnings;               /* "samples.csv:LINE: what was wrong; line skipped" */
	size_t warning_count;
	size_t warmup_trials;
	size_t failed_trials;          /* over all groups */
	size_t excluded_contaminated;  /* contaminated trials left out (exclude_contaminated) */
	size_t measured_blocks;        /* folders: blocks with a measured trial of any placement
	                                * (failed and excluded ones included); 0 when the file has
	                                * no block column */
	char *workload;                /* folders: the first role-a line's workload, or NULL */
	char *beside_workload;         /* folders: the first role-b line's workload, or NULL */
};

/* How a results folder's samples are taken (all zero: the folder's own way, each trial one
 * sample). */
struct analysis_take {
	enum analysis_unit unit;
	bool metric_given;            /* metric as given (analyze --metric); else the folder's */
	enum analysis_metric metric;
	bool exclude_contaminated;    /* an ok measured trial that shared its CPUs (foreign_s or
	                               * steal_s above ANALYSIS_CONTAMINATED_SHARE of its duration) is
	                               * counted in its group's contaminated_trials and in
	                               * excluded_contaminated, and is not a sample */
};

/*
 * A results folder's samples.csv (read once by the folder, common/folder.h) as a dataset. A
 * trial is a sample when all its rows are `ok`: with ANALYSIS_UNIT_TRIAL the mean of its role-a
 * rows' times, with ANALYSIS_UNIT_PROCESS each role-a row's; the time is user CPU time
 * (utime_s), or wall time (wall_s) for a folder compared by wall time or when asked (a trial
 * whose role-a rows lack it is skipped with a warning). A damaged line or trial becomes a
 * warning and is skipped. meta.json is not needed. NULL with a message when samples.csv cannot
 * be read (folder_samples). how may be NULL.
 */
struct results_folder;
struct analysis_dataset *analysis_load_folder(struct results_folder *f,
                                              const struct analysis_take *how, char *err,
                                              size_t err_size);

/* Two plain files of numbers (seconds), one per line, '#' starting a comment; A is the first.
 * NULL with "FILE:LINE: what is wrong" for a line that is not a time (common/number.h's rule,
 * 0 to SAMPLES_TIME_MAX_S), or "FILE: ..." for a file unreadable or of fewer than 2 samples. */
struct analysis_dataset *analysis_load_files(const char *path_a, const char *path_b,
                                             char *err, size_t err_size);

/*
 * A `hyperfine --export-json` file: one group per command (named by the command), its per-run
 * "times" (wall seconds) as samples, or with ANALYSIS_METRIC_USER a per-run "user" array where
 * the file has one (hyperfine 1.15 records only each command's mean user time: refused, said).
 * The comparisons are the first command against each other one, unpaired (hyperfine does not
 * interleave its commands). NULL with "FILE: ..." or "FILE:LINE:COL: not JSON: ..." on error.
 */
struct analysis_dataset *analysis_load_hyperfine(const char *path, enum analysis_metric metric,
                                                 char *err, size_t err_size);
/* Whether `analyze PATH` should read PATH as a hyperfine export (its name ends in .json). PATH
 * "-" for analysis_load_hyperfine is standard input; for analysis_load_files either file (not
 * both) may be "-". */
bool analysis_is_hyperfine_json(const char *path);

/* Two groups from arrays (copied), as if read from files named name_a and name_b; for tests and
 * benchmarks. Returns NULL with a message for a non-finite or negative value, one above
 * SAMPLES_TIME_MAX_S, or n < 2. */
struct analysis_dataset *analysis_dataset_from_arrays(const char *name_a, const double *a,
                                                      size_t na, const char *name_b,
                                                      const double *b, size_t nb,
                                                      char *err, size_t err_size);

/* Index of the group named name, or -1. */
int analysis_dataset_find(const struct analysis_dataset *data, const char *name);

void analysis_dataset_free(struct analysis_dataset **p);

/* ---- Options and results ---- */

struct analysis_options {
	enum analysis_model model;   /* default normal */
	bool seed_grid;              /* seed 003's exact computation: grids linspace(5, 35, 101) */
	double rope_pct;             /* region of practical equivalence: mu_A / mu_B from
	                              * 1 / (1 + PCT/100) to 1 + PCT/100; NAN: none */
	int grid_points;             /* points per axis (the narrower group's mu axis, and sigma) */
	enum analysis_t_method t_method; /* default AUTO */
	enum analysis_design_request design; /* default ANALYSIS_PAIR_AUTO */
	bool paired_grid;            /* the paired design under the normal model on the grid rather
	                              * than in closed form (a cross-check; false by default) */
};

/* Fills *opt with the defaults: normal model, no seed grid, no ROPE, 201 points. */
void analysis_options_init(struct analysis_options *opt);

/* A discrete distribution: values ascending, probabilities summing to 1. */
struct analysis_dist {
	double *values;
	double *probs;
	size_t count;
};

struct analysis_group_summary {
	char *name;
	size_t n;
	double mean_s, sd_s;         /* sample mean and standard deviation (n - 1) */
	double mu_mean, mu_ci[2];    /* posterior mean and 95% equal-tailed interval of mu */
	double sigma_mean, sigma_ci[2];
	struct analysis_dist mu;     /* the marginal posterior of mu on its grid (plots) */
	bool sigma_floored;          /* the sample spread was below the floor */
};

struct analysis_grid_report {
	bool seed_grid;
	enum analysis_model model;
	int points;                    /* requested points per axis */
	size_t mu_points[2];           /* final mu grid sizes of A and B */
	size_t sigma_points;
	double mu_step;                /* the common spacing of mu (seed grid: 0.3) */
	double mu_range[2][2];         /* [group][lo, hi] */
	double sigma_range[2][2];
	int widenings;                 /* how many times the grid was widened */
	double edge_mass;              /* the largest marginal probability in an edge cell, at the end */
	bool at_bound;                 /* widening stopped at its bound: the answer depends on the grid */
	/* t model: the bound on |log-likelihood error| of the final grid's fast form, at most
	 * ANALYSIS_T_LOGLIK_TOLERANCE; 0 where every group was summed exactly. */
	double t_loglik_error;
	/* Seed grid only: why its numbers are nonsense for these data (a sample mean outside
	 * [5, 35] s, or mass above ANALYSIS_SEED_EDGE_MASS_MAX (internal.h) in an edge cell of mu
	 * or at sigma's top; sigma's bottom, 5 s, is the seed's known bias and explained apart);
	 * "" when none. */
	char warning[256];
};

/* How the paired design's posterior of delta was computed (paired.c): closed_form, the
 * Student-t of dof and scale, without a grid (sigma_points 0, sigma_range NaN; delta's axis the
 * table the plots draw, edge_mass the t's mass in its end cells); else the grid over (delta,
 * sigma) (grid.c), delta_step its finest step, at the centre. */
struct analysis_paired_grid {
	bool closed_form;
	double dof, scale;             /* closed_form: the Student-t's */
	size_t delta_points, sigma_points;
	double delta_step;
	double delta_range[2], sigma_range[2];
	int widenings;
	double edge_mass;
	bool at_bound;                 /* widening stopped at its bound */
	double t_loglik_error;
};

struct analysis_comparison {
	enum comparison_kind kind;   /* what it is for (common/placements.h) */
	struct analysis_group_summary a, b;
	/* Which design gave the numbers below (a and b's per-placement summaries are always the
	 * unpaired groups'). Paired: the blocks used, and those with a measured trial where one
	 * side had no usable sample (failed, excluded as contaminated, missing, or not above 0). */
	enum analysis_design design;
	size_t blocks_paired, blocks_dropped;
	size_t blocks_zero;          /* paired: of the dropped, blocks where one side measured 0 s */
	/* Each side's samples of 0 s (below the clock's resolution), left out of every number of
	 * the comparison: a.n and b.n count the others. */
	size_t zero_a, zero_b;
	double log_ratio_mean, log_ratio_sd; /* paired: the sample mean and sd of d */
	double paired_t_ratio_ci[2];  /* paired: the classic t interval of exp(mean d) (n-1 dof) */
	struct analysis_dist log_ratio; /* paired: the posterior of delta (plots); empty otherwise */
	struct analysis_paired_grid paired_grid;
	/* Paired, the ratio and P(slower) come from delta: P(A > B) is P(delta > 0), and the
	 * difference is in seconds at B's mean, mu_B_mean * (exp(delta) - 1). */
	double p_a_gt_b, p_a_lt_b;   /* P(mu_A > mu_B), P(mu_A < mu_B) */
	double p_rope;               /* P(mu_A / mu_B within the ROPE); NAN without a ROPE */
	double p_rope_above;         /* P(mu_A / mu_B > 1 + PCT/100) and P(... < 1 / (1 + PCT/100)): */
	double p_rope_below;         /* what the verdict uses with a ROPE; NAN without one */
	double diff_mean, diff_ci[2], diff_hdi[2]; /* mu_A - mu_B, 95% equal-tailed and HDI */
	double ratio_mean, ratio_ci[2]; /* mu_A / mu_B (mu > 0 on every grid, so always defined
	                                 * for the default grid and the seed's) */
	double welch_t, welch_df, welch_p; /* NAN when undefined (both spreads zero) */
	double cohens_d;
	struct analysis_grid_report grid;
	struct analysis_dist diff;   /* the distribution of mu_A - mu_B (plots) */
	enum analysis_verdict verdict;
	/* With seed_grid: the default method's answer on the same data, to explain the difference. */
	bool has_default;
	double default_diff_mean, default_diff_ci[2];
	/* The conditions beside the verdict (analysis_run's comparisons of a folder; zero
	 * elsewhere). The analysed trials of A and B that shared their CPUs (foreign_s or steal_s
	 * above ANALYSIS_CONTAMINATED_SHARE of the trial), of those whose columns say: 0 of them
	 * when --exclude-contaminated left them out. */
	size_t shared_trials, shared_known;
	/* Paired: the ratio A / B in the first and in the second half of the paired blocks (block
	 * order), each half's own posterior (the normal model in closed form: the n - 2 Student-t
	 * of its blocks), when each half holds ANALYSIS_PAIRED_MIN_BLOCKS blocks or more with some
	 * spread; halves_disagree when the two 95% intervals do not overlap: the machine's speed
	 * moved under the run and hit A and B unequally, which pairing by block cannot cancel. */
	bool halves_known;
	double half_ratio[2], half_ratio_ci[2][2];
	bool halves_disagree;
};

/* Whether c was measured under load (and its answer says so): more than
 * ANALYSIS_UNDER_LOAD_SHARE of the trials whose contamination is known shared their CPUs. */
#define ANALYSIS_UNDER_LOAD_SHARE 0.25
bool analysis_under_load(const struct analysis_comparison *c);

/* What the analysis finds in one group beyond its counts, which it reads from the group. */
struct analysis_group_diagnostics {
	const struct analysis_group *group; /* borrowed from the result's dataset */
	/* Samples of 0 s (below any clock's resolution), and, of user CPU time, samples above 0
	 * but under one clock tick (ANALYSIS_USER_TICK_S): the kernel splits a process's time
	 * between user and system by the ticks that found it in each, so a time this short is a
	 * coarse one. below_tick_samples is 0 for wall times (counted in nanoseconds). */
	size_t zero_samples, below_tick_samples;
	bool user_time;              /* the samples are user CPU times (the tick applies) */
	size_t outlier_count;
	long *outlier_trials;        /* run-order indexes of the flagged samples */
	long *outlier_lines;         /* plain files: their line numbers; NULL otherwise */
	double drift_slope_s;        /* least-squares slope of value over run order, s per trial */
	double drift_slope_ci[2];    /* its 95% interval; NAN for n < 3 */
	double first_half_mean_s, second_half_mean_s;
};

/* What SMT gives one core for this workload (two copies of it, not a different B beside it):
 * 2 x t_alone / t_sibling, the work done with both siblings busy per unit of one copy's work
 * alone; t_alone from solo, else same-pu (each copy's user time while two take turns on one
 * PU), else non-sibling (each copy alone on its core). Above 1 SMT adds throughput, below 1 it
 * costs throughput. */
struct analysis_smt_yield {
	bool known;                 /* false: no sibling placement, no baseline, or a B workload */
	const char *baseline;       /* the baseline placement's name (borrowed from the result) */
	enum analysis_design design;
	bool settled;               /* the comparison it comes from is settled */
	double mean, ci[2];         /* point estimate and 95% interval. Unpaired: the posterior
	                             * mean of work x mu_baseline / mu_sibling; paired: work /
	                             * exp(E[delta]), the inverse of the ratio's point estimate (the
	                             * posterior mean of exp(-delta) is not finite under few blocks'
	                             * heavy tails). The interval is the ratio's, inverted */
	bool one_process;           /* one process's wall time: baseline time / sibling time (the
	                             * work is 1 unit, not two copies' 2) */
};

struct analysis_result {
	/* The dataset analysed, borrowed: its source, totals, warnings and groups are the
	 * result's, so it must outlive the result's readers. */
	const struct analysis_dataset *data;
	struct analysis_options options;
	struct analysis_comparison *comparisons;
	size_t comparison_count;
	struct analysis_group_diagnostics *groups; /* one per dataset group, same order */
	size_t group_count;
	char **notes;                /* comparisons skipped, and why */
	size_t note_count;
	struct analysis_smt_yield smt_yield;
};

/*
 * Runs the comparisons. Two files: A against B. A folder: the headline sibling vs non-sibling;
 * each contended placement (same-pu, sibling, non-sibling, cross-package) vs solo; same-pu vs
 * solo as the accounting control; only those whose groups both hold two samples or more (the
 * others are named in notes). Returns NULL with a message for bad options or a dataset with no
 * comparison to make. The result borrows data (r->data), which must outlive it.
 */
struct analysis_result *analysis_run(const struct analysis_dataset *data,
                                     const struct analysis_options *opt,
                                     char *err, size_t err_size);

void analysis_result_free(struct analysis_result **p);

/*
 * Compares two groups of samples of any origin (a matrix's cells: analysis/matrix.h) as
 * analysis_run compares two placements: A against B, paired by block when both groups carry
 * block numbers and at least ANALYSIS_PAIRED_MIN_BLOCKS blocks hold both (measured_blocks: the
 * blocks a trial of either could have been in, for blocks_dropped; 0 unknown), else unpaired,
 * with *note (when note is not NULL) a new string saying why (the caller frees; NULL when
 * paired or when pairing was not asked for). *out is the caller's, released by
 * analysis_comparison_release. -1 with err for bad options, a group of fewer than 2 samples,
 * too many times of 0 s, or a grid too fine for the values (out is then empty).
 */
/* measured_blocks for a B that also ran in blocks of its own (a matrix's baseline, shared by
 * cells that --precision schedules apart): A's dropped blocks are only A's blocks without B and
 * A's failed trials. */
#define ANALYSIS_DROPPED_OF_A ((size_t)-1)
int analysis_compare_groups(const struct analysis_group *a, const struct analysis_group *b,
                            size_t measured_blocks, const struct analysis_options *opt,
                            struct analysis_comparison *out, char **note, char *err,
                            size_t err_size);
void analysis_comparison_release(struct analysis_comparison *c);

/* The paired design's answer from n per-block log ratios d = log(A) - log(B) given directly (a
 * caller that paired its own blocks, a simulation): *out holds what analysis_compare_groups
 * gives a paired comparison (the posterior of delta, the ratio, P(slower), the ROPE's
 * probabilities, the verdict; blocks_paired n, none dropped), with empty per-placement
 * summaries (a and b named "A" and "B") and no unpaired grid. b_mean_s: B's typical time, at
 * which the difference in seconds is taken and against which the timer's resolution floors
 * sigma. -1 with err for bad options, n < 2, or a d that is not finite. */
int analysis_compare_log_ratios(const double *d, size_t n, double b_mean_s,
                                const struct analysis_options *opt,
                                struct analysis_comparison *out, char *err, size_t err_size);

/* Whether the comparison's numbers come from the data rather than from the grid: false when
 * widening stopped at its bound (grid.at_bound, or paired_grid.at_bound when paired) or either
 * group has fewer than ANALYSIS_SETTLED_MIN_N samples (paired: fewer paired blocks). Unsettled comparisons are undecided, and text must not quote
 * their means (of the difference, of the ratio) as the answer. */
bool analysis_comparison_settled(const struct analysis_comparison *c);

/* A paired comparison's posterior of delta = log(A / B): P(delta <= x), and its q-quantile
 * (0 < q < 1); exact where it is in closed form (paired_grid.closed_form), else read off the
 * grid's cells (analysis_dist_quantile's rule). NaN for an unpaired comparison. */
double analysis_log_ratio_cdf(const struct analysis_comparison *c, double x);
double analysis_log_ratio_quantile(const struct analysis_comparison *c, double q);

/* ---- Building blocks, exposed for reports and tests ---- */

/* Student-t CDF with dof > 0 degrees of freedom (GSL's gsl_cdf_tdist_P); NAN for a bad dof. */
double analysis_student_t_cdf(double t, double dof);
/* Its inverse for 0 < p < 1 (GSL's gsl_cdf_tdist_Pinv); NAN outside. */
double analysis_student_t_quantile(double p, double dof);

/* The q-quantile (0 <= q <= 1) of a discrete distribution read as piecewise uniform: each value
 * owns the cell reaching halfway to its neighbours (the end cells are symmetric). */
double analysis_dist_quantile(const struct analysis_dist *d, double q);
/* Posterior mean. */
double analysis_dist_mean(const struct analysis_dist *d);

/* Shortest decimal text that reads back as exactly x (like Python's repr of a float). */
void analysis_format_shortest(double x, char *buf, size_t size);

/* ---- Advice: which workloads share a core (advise.c) ---- */

/*
 * A plan assigns n items (workload copies) to cores, two on a core's sibling PUs or one alone.
 * It is an array partner[n]: the item sharing item i's core, or -1 when i is alone. The cores it
 * uses are n minus its pairs; a plan fits C cores when it has at least n - C pairs (and n <= 2C).
 * slowdown[i * n + j] is item i's slowdown beside item j (its time beside j over its time
 * alone; NAN: unknown, so i and j never share a core). Alone an item's slowdown is 1.
 *
 * Objectives: THROUGHPUT maximises the work done per unit time, each item's rate 1/slowdown
 * beside its partner (1 alone), as a share of every item alone on its own core: the sum of rates
 * over n. WORST minimises the largest slowdown of any item (1 when every item is alone), ties
 * broken by throughput.
 */
enum analysis_objective { ANALYSIS_OBJECTIVE_THROUGHPUT, ANALYSIS_OBJECTIVE_WORST };

/* Up to this many items the plan is exact (advise.c's bitmask dynamic programming: 2^n x n / 2
 * steps, 2^n values; 20 items: about 10 million steps and 9 MB); above it, to
 * ANALYSIS_ADVISE_MAX_ITEMS, a heuristic (greedy pairs, then local search), not known best. */
#define ANALYSIS_ADVISE_EXACT_MAX 20
#define ANALYSIS_ADVISE_MAX_ITEMS 256
/* Joint draws of the cells' posteriors (fixed seed: the same folder gives the same answer). */
#define ANALYSIS_ADVISE_DRAWS 4000
#define ANALYSIS_ADVISE_SEED 20261202u

/* The plan's throughput (sum of rates over n) and worst slowdown; NAN when a pair is unknown. */
double analysis_plan_throughput(size_t n, const double *slowdown, const int *partner);
double analysis_plan_worst(size_t n, const double *slowdown, const int *partner);

/*
 * The best plan for the objective on `cores` cores into partner[n] (worst_case: the worst plan
 * instead, lowest throughput or largest worst slowdown). *exact: whether the method is exact
 * (n <= ANALYSIS_ADVISE_EXACT_MAX). -1 with err when n is 0 or above ANALYSIS_ADVISE_MAX_ITEMS,
 * when n > 2 x cores (the items do not fit), or when no plan avoids the unknown pairs.
 */
int analysis_plan_best(size_t n, const double *slowdown, size_t cores,
                       enum analysis_objective objective, bool worst_case, int *partner,
                       bool *exact, char *err, size_t err_size);

/* One plan, valued at the cells' point slowdowns and over the joint draws. */
struct analysis_plan_value {
	int *partner;                 /* n items */
	size_t cores_used;
	double throughput, throughput_ci[2]; /* point (cells at their posterior medians), 95% */
	double worst, worst_ci[2];
	double *slowdown;             /* each item's predicted slowdown (1 alone) */
	double *slowdown_ci;          /* [2 x n]: each item's 95% interval */
	bool known;                   /* every pair it uses has a usable cell */
};

/* SMT on or off for one workload: a core with two copies of it on its siblings does `yield`
 * times the work of one copy alone, 2 / its slowdown beside itself. */
enum analysis_smt_decision {
	ANALYSIS_SMT_KEEP_ON,         /* P(yield above 1 + ROPE) >= ANALYSIS_DIRECTION_PROBABILITY */
	ANALYSIS_SMT_TURN_OFF,        /* P(yield below 1 / (1 + ROPE)) >= the same */
	ANALYSIS_SMT_EITHER,          /* P(within the ROPE) >= ANALYSIS_EQUIVALENCE_PROBABILITY */
	ANALYSIS_SMT_UNKNOWN,         /* not enough data to say (or no paired, settled cell) */
};
struct analysis_smt_advice {
	bool measured;                /* the workload's cell beside itself was compared */
	double yield, yield_ci[2];    /* point (2 / the median slowdown) and 95% interval */
	double p_on, p_off;           /* the probabilities the decision reads; NAN unknown */
	enum analysis_smt_decision decision;
};

/*
 * A cell's posterior of its log slowdown as a mixture of normals: weight[t] (summing to 1) of
 * Normal(mean[t], sd[t]^2). Fleet's pooled cells are such mixtures over the grid of the spread
 * tau (fleet.h). count 0: no posterior (the cell is unknown).
 */
struct analysis_log_mixture {
	size_t count;
	const double *weight, *mean, *sd;
};
/* The mixture's CDF at x (NAN when count is 0). */
double analysis_log_mixture_cdf(const struct analysis_log_mixture *m, double x);
/* n draws of the mixture's log slowdown into out, as advise draws it (a component t by weight,
 * then its normal), from the fixed seed. */
void analysis_log_mixture_draws(const struct analysis_log_mixture *m, uint64_t seed, size_t n,
                                double *out);
/* The decision for one workload from its cell beside itself: a comparison (self), else a
 * mixture (mix; both NULL, or a count of 0: not measured), with a ROPE of rope_pct percent
 * (symmetric in log, as analysis.h's verdicts). */
void analysis_smt_advise(const struct analysis_comparison *self,
                         const struct analysis_log_mixture *mix, double rope_pct,
                         struct analysis_smt_advice *out);

struct analysis_advise_request {
	size_t nworkloads;
	/* cells[v * nworkloads + g]: workload v beside workload g compared with v alone; NULL where
	 * there is none (v and g then never share a core). A cell that is not settled is unknown. */
	const struct analysis_comparison *const *cells;
	/* Instead of cells (when cells is NULL): each cell's posterior as a mixture of normals of
	 * its log slowdown (count 0: unknown), drawn so in the joint draws; its point slowdown is
	 * exp of the mixture's median. */
	const struct analysis_log_mixture *mixtures;
	const size_t *counts;         /* copies of each workload (NULL: one each); 0 leaves it out */
	size_t cores;
	enum analysis_objective objective;
	size_t draws;                 /* 0: ANALYSIS_ADVISE_DRAWS */
	uint64_t seed;
	double rope_pct;              /* the SMT decisions' ROPE */
};

struct analysis_advice {
	enum analysis_objective objective;
	size_t nitems, nworkloads, cores;
	int *item_workload;           /* each item's workload */
	size_t pairs_needed;          /* n - cores, at least 0: the plan must pair this many */
	bool exact;
	size_t draws;
	struct analysis_plan_value best, naive, worst;
	/* When the cores hold every item alone: the best plan on the fewest cores (ceil(n / 2)),
	 * and its work per core against one item alone per core (above 1: pairing pays). */
	bool packed_known;
	struct analysis_plan_value packed;
	double packed_per_core, packed_per_core_ci[2], packed_p_pays;
	/* The gain over the naive plan (items paired in the order given) and over the worst plan:
	 * for throughput best / other, for worst other / best (above 1: the plan is better). */
	double gain_naive, gain_naive_ci[2], gain_worst, gain_worst_ci[2];
	double p_best;                /* P(no plan beats the chosen one) over the draws; NAN when
	                               * not exact (each draw's optimum would be a heuristic's) */
	size_t p_best_draws;          /* how many draws it is taken over */
	size_t unknown_pairs;         /* pairs of workloads without usable cells (never shared) */
	struct analysis_smt_advice *smt; /* one per workload */
};

/* The advice: the best plan for the objective, its value over the cells' joint draws (each
 * cell's delta drawn from its own posterior: a Student-t in closed form, the grid's by inverse
 * CDF, a normal on the log scale from an unpaired cell's interval; a mixture's by a component
 * drawn by its weight, then its normal), the naive and the worst plan beside it. NULL with err (a count that does not fit the cores, no plan possible). */
struct analysis_advice *analysis_advise(const struct analysis_advise_request *rq, char *err,
                                        size_t err_size);
void analysis_advice_free(struct analysis_advice **p);

/* How analysis_run's error begins when the data's lines did not load (a damaged samples.csv),
 * as against too few samples: "DIR: ANALYSIS_DAMAGED (...)". */
#define ANALYSIS_DAMAGED "samples.csv is damaged"
/* How its error says why a folder that loaded has no comparison (fleet names these "no
 * comparison"): one placement measured; every trial left out by --exclude-contaminated; too
 * few samples; no comparison possible, with the first note's reason (too few samples, or too
 * many times of 0 s). */
#define ANALYSIS_ONE_PLACEMENT "only one placement was measured"
#define ANALYSIS_ALL_EXCLUDED "left them all out"
#define ANALYSIS_TOO_FEW "no two placements with at least 2 samples each to compare"
#define ANALYSIS_NOT_COMPARED "no two placements could be compared"

/* Seed 003's grid (--seed-grid): mu and sigma both on linspace(LO, HI, POINTS) seconds. */
#define ANALYSIS_SEED_GRID_LO_S 5.0
#define ANALYSIS_SEED_GRID_HI_S 35.0
#define ANALYSIS_SEED_GRID_POINTS 101

/* One block's ratio A / B (the geometric means of its samples of each side), for the plots. */
struct analysis_block_ratio {
	long block;
	long trial;      /* the block's latest trial of A or B: where it sits in run order */
	double ratio;
};
/* The blocks both groups hold a sample above 0 in, in block order, into the new array *out
 * (the caller frees it). Returns their count. */
long analysis_block_ratios(const struct analysis_group *a, const struct analysis_group *b,
                           struct analysis_block_ratio **out);

/* ---- small statistics the report and fleet layers use too ---- */

/* Median of x (copied; x untouched); 0 for n == 0. */
double median_of(const double *x, size_t n);

/* The CDF at x of a discrete distribution (values ascending) read as piecewise uniform: each
 * value owns the cell reaching halfway to its neighbours, as analysis_dist_quantile reads it.
 * prefix[i] is the sum of probs below i. */
double cell_cdf(const double *values, const double *probs, size_t n, const double *prefix,
                double x);

#endif
