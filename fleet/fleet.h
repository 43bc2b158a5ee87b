/*
 * fleet.h — the fleet module's whole interface: many results folders (one per node, e.g. from
 * the SLURM scripts in contrib/slurm/) in, one answer per group of comparable nodes out.
 *
 * Each folder is read once (common/folder.h) and analysed as `smtbench report` does: its
 * headline comparison (report_headline: sibling vs non-sibling where measured, else the best
 * the node allows). Nodes with
 * the same CPU model, SMT state, workload (with its arguments: kernel and iterations),
 * --iters, placements and comparison form a group; groups that differ only in these settings
 * carry them in their titles. Per group, a hierarchical model:
 *
 *   each node's log-ratio posterior is summarised as normal, m_i ± s_i;
 *   theta_i ~ Normal(mu, tau^2), m_i | theta_i ~ Normal(theta_i, s_i^2), so that
 *   log p(mu, tau | data) = log prior(tau) + sum_i log Normal(m_i | mu, s_i^2 + tau^2) + const;
 *   mu flat; tau half-Cauchy(0, FLEET_TAU_PRIOR_SCALE) on (0, FLEET_TAU_MAX].
 *
 * The posterior is computed on a grid over (mu, tau): tau on FLEET_TAU_POINTS cells, and for each
 * tau mu's conditional (normal, by the flat prior) integrated exactly over FLEET_MU_POINTS cells.
 * The pooled slowdown is exp(mu); the spread tau is in log-ratio units (0.05: nodes differ by
 * about 5 % (one standard deviation) in their slowdown); a new node's log-ratio is predicted by
 * the mixture over the grid of Normal(mu, tau^2).
 *
 * A node disagrees (an outlier) when its 95% interval lies entirely outside the 95% interval
 * the OTHER nodes of its group predict for a new node (leave-one-out: a deviant node cannot hide
 * by widening the interval itself). Judged in groups of FLEET_OUTLIER_MIN_NODES or more pooled
 * nodes.
 *
 * Matrix folders (smtbench matrix; meta.json has "matrix") are pooled apart from run folders,
 * cell by cell: nodes with the same CPU model, SMT state, placement and kind of workload
 * (kernels or named commands) form a matrix group; each cell (victim, aggressor) is pooled
 * across the group's nodes that measured it with the model above, from each node's summary of
 * that cell's paired-by-block posterior (the victim beside the aggressor against the victim
 * alone, report_matrix_cells), and per cell the nodes whose answer deviates are named by the same
 * leave-one-out rule. A pooled cell is "slower" ("faster") when the pooled slowdown's 95%
 * interval lies above (below) 1, else "practically the same" when P(mu within the group's ROPE)
 * >= ANALYSIS_EQUIVALENCE_PROBABILITY, else "not enough data to say". The group's ROPE is the
 * narrowest of its nodes' matrices' (each node's report.json rope_pct: the safe bound), a ratio
 * from 1 / (1 + PCT %) to 1 + PCT %, in mu: P(mu <= x) = sum over tau cells of
 * prob_t Phi((x - mhat_t) sqrt(W_t)), mu's conditional being Normal(mhat_t, 1 / W_t).
 *
 * A matrix group's list of pairs safe to share is the single matrix's rule
 * (analysis/matrix.h, analysis_safe_pairs) on its pooled cells: a pooled cell may be listed when
 * it is "practically the same" or "faster", with P(pooled slowdown at most the bound) = P(mu <=
 * log(1 + bound)); the list holds jointly (every listed pair at once with probability at least
 * ANALYSIS_MATRIX_SAFE_PROBABILITY), the cells' pooled posteriors being independent.
 *
 * Error policy as in analysis.h: nothing here prints or exits; failures return NULL or -1 with
 * one line in err[err_size]. Ownership: fleet_load's result is the caller's, freed by
 * fleet_free(&p).
 */
#ifndef SMTBENCH_FLEET_FLEET_H
#define SMTBENCH_FLEET_FLEET_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "analysis/analysis.h"
#include "analysis/matrix.h"

#define FLEET_TAU_PRIOR_SCALE 0.1
#define FLEET_TAU_MAX 1.0
#define FLEET_TAU_POINTS 400
#define FLEET_MU_POINTS 801
#define FLEET_OUTLIER_MIN_NODES 3
/* Fewer pooled nodes than this: no pooled answer (one node: see its own). */
#define FLEET_POOL_MIN_NODES 2

/* The pooled answer of one group (log-ratio scale unless named ratio). */
struct fleet_pooled {
	bool ok;                   /* false: fewer than FLEET_POOL_MIN_NODES nodes to pool */
	size_t nodes;              /* nodes pooled */
	double mu_mean, mu_ci[2];  /* posterior of mu (log ratio) */
	double ratio_mean;         /* posterior mean of exp(mu) */
	double ratio_ci[2];        /* exp of mu's 95% equal-tailed interval */
	double tau_mean, tau_ci[2];/* the node-to-node spread, log-ratio units */
	double predictive_log_ci[2]; /* 95% interval of a new node's log ratio */
	double predictive_ci[2];   /* the same as a ratio */
	/* Judged against a ROPE (fleet_pool with a bound; NAN otherwise): P(mu below
	 * -log(1 + bound)), within +-log(1 + bound), above log(1 + bound), and P(mu <= log(1 +
	 * bound)). */
	double p_rope_below, p_rope, p_rope_above, p_at_most_bound;
};

/* A node's answer to one comparison (its headline, or one matrix cell), and what pooling
 * found of it. */
struct fleet_answer {
	size_t n;                  /* paired blocks (paired), else samples of the smaller side */
	double ratio_mean, ratio_ci[2];
	const char *verdict;       /* report/words.h's verdict_name() */
	bool settled;              /* analysis_comparison_settled(): only settled answers are pooled */
	double log_mean, log_sd;   /* the normal summary of the log ratio's posterior */
	bool pooled;               /* in its pool (settled, with a usable summary) */
	bool outlier;              /* deviates from what the pool's other nodes predict */
	double loo_ci[2];          /* ratio interval the other nodes predict for it; NAN: not judged */
};

struct fleet_host {
	char *dir;                 /* the results folder, as found */
	char *host, *cpu_model, *smt, *os_kernel, *workload;
	char *comparison;          /* "sibling vs non-sibling", "non-sibling vs solo", ... */
	bool smt_question;         /* the comparison is the headline, sibling vs non-sibling */
	json_t *settings;          /* the run's settings that must match (see run_settings) */
	char *group_key;           /* what makes nodes comparable (see the top of this file) */
	struct fleet_answer answer;
};

struct fleet_group {
	/* Its first host (fleet.hosts owns it), whose CPU model, SMT state, workload, comparison,
	 * settings and key are the group's. */
	const struct fleet_host *first;
	char *settings_text;       /* the settings in words when another group's title would be
	                            * the same (they differ only in them), else NULL */
	size_t *hosts;             /* indexes into fleet.hosts */
	size_t host_count;
	struct fleet_pooled pooled;
};

struct fleet_skip {
	char *dir;
	char *reason;
};

/* A node's matrix folder. */
struct fleet_matrix_node {
	char *dir, *host, *cpu_model, *smt, *os_kernel;
	char *placement;           /* the pairs' placement ("sibling", ...) */
	char *workloads;           /* "kernels", or "commands" (matrix --commands) */
	char *group_key;
	char **names;              /* its workloads in its rows' order, escaped */
	size_t name_count;
	double safe_slowdown;      /* the bound its cells were judged against (its ROPE / 100) */
	size_t cores;              /* its machine's cores (meta.json topology.cores; 0 unknown) */
	struct fleet_answer *cells; /* name_count²: victim v beside g at v * name_count + g */
};

/* A pooled cell of a matrix group: its verdict and P(safe) are fleet_pooled_verdict and
 * fleet_pooled_p_safe of pooled. */
struct fleet_matrix_cell {
	struct fleet_pooled pooled;
	bool safe;                 /* its pair is on the group's joint safe list */
	size_t nodes;              /* nodes that measured it, settled or not */
	size_t deviating;          /* of them, those whose answer deviates (outlier) */
	/* The pooled mu's posterior: the mixture over the grid's tau cells (those with mass) of mu's
	 * conditional normals; count 0: not pooled. Owned by the cell (fleet_mixture_release). */
	struct analysis_log_mixture mixture;
};

struct fleet_matrix_group {
	/* Its first node (fleet.matrix_nodes owns it), whose CPU model, SMT state, placement,
	 * workloads and key are the group's. */
	const struct fleet_matrix_node *first;
	char **names;              /* every workload of its nodes, in order of first appearance */
	size_t name_count;
	size_t *nodes;             /* indexes into fleet.matrix_nodes */
	size_t node_count;
	struct fleet_matrix_cell *cells; /* name_count², as a node's */
	double safe_slowdown;      /* the narrowest of its nodes' bounds (see above) */
	struct analysis_safe_pair *safe_pairs; /* the joint safe list, by index into names */
	size_t safe_pair_count;
	size_t safe_candidates;    /* pairs that could have been listed */
	double safe_joint_probability; /* P(every listed pair within the bound); 1 for none */
};

struct fleet {
	struct fleet_matrix_node *matrix_nodes; /* matrix folders, sorted by dir */
	size_t matrix_node_count;
	struct fleet_matrix_group *matrix_groups;
	size_t matrix_group_count;
	struct fleet_host *hosts;  /* sorted by dir */
	size_t host_count;
	struct fleet_group *groups;/* in order of their first host */
	size_t group_count;
	struct fleet_skip *skipped;
	size_t skipped_count;
};

/* Whether dir is a results folder: it holds meta.json or samples.csv (of any kind). */
bool fleet_is_results_folder(const char *dir);

/*
 * Finds every results folder (fleet_is_results_folder) under the given
 * folders (a given folder may itself be one), analyses each, groups and pools them. A folder
 * that cannot be used is listed in skipped with its reason: also one that cannot be listed,
 * whose subfolders are too deep to search, that is reached twice, or whose name is not text. Returns NULL with a message only for
 * a given path that is not a readable directory, or out of memory.
 */
struct fleet *fleet_load(char *const *dirs, size_t count, char *err, size_t err_size);

void fleet_free(struct fleet **p);

/* The leave-one-out outlier check of fleet_pool (nothing is judged below FLEET_OUTLIER_MIN_NODES
 * nodes): node k's log-scale 95% interval [lo[k], hi[k]] against the interval the other n - 1
 * predict, written to loo_log_ci[2k], loo_log_ci[2k+1] (NAN when not judged). */
struct fleet_outlier_check {
	const double *lo, *hi;
	bool *outlier;
	double *loo_log_ci;
};

/* The hierarchical model of n nodes' normal summaries m[i] ± s[i] into out: with fewer than
 * FLEET_POOL_MIN_NODES nodes nothing is pooled (out->ok false). With a bound (0.05: 5 %; NAN:
 * none) the pooled mu is judged against the ROPE +-log(1 + bound): out's p_rope_below, p_rope,
 * p_rope_above and p_at_most_bound (see above), NAN where nothing is judged; with mix (not
 * NULL), the pooled mu's mixture into *mix; with check (not NULL), each node's outlier check
 * on the same model. -1 for a summary that is not finite or an sd not above 0 (nothing pooled
 * or judged). */
int fleet_pool(const double *m, const double *s, size_t n, double bound,
               struct fleet_pooled *out, struct analysis_log_mixture *mix,
               const struct fleet_outlier_check *check);

void fleet_mixture_release(struct analysis_log_mixture *mix);

/* A pooled matrix cell's verdict (the rule above; an analysis.h enum analysis_verdict), and its
 * P(slowdown at most the bound) where it may be listed as safe, else NAN. */
enum analysis_verdict fleet_pooled_verdict(const struct fleet_pooled *p);
double fleet_pooled_p_safe(const struct fleet_pooled *p);

/* A matrix node's answer in the cell victim beside aggressor (by name), or NULL. */
const struct fleet_answer *fleet_matrix_node_cell(const struct fleet_matrix_node *n,
                                                  const char *victim, const char *aggressor);

/* The fleet's report (fleet_report.c): the text on the terminal, fleet.md, fleet.html (with a
 * forest plot, and a heat map per matrix group) and fleet.json (the --json contract: see the
 * man page's fleet), as report/report.h writes every report. */
struct report;
struct report *fleet_report(const struct fleet *f);

/* `smtbench advise FLEETDIR` (fleet_advise.c): one plan per matrix group from its pooled cells
 * (each cell's posterior the mixture of fleet_matrix_cell.mixture), on --cores or else the
 * smallest core count of the group's nodes (said when they differ); a group that cannot have a
 * plan (one node, no cores known, workloads that do not fit) says why. The text and the JSON
 * (results/README.md, "advise --json on a fleet"); *planned: the groups with a plan. NULL with
 * err when the fleet has no matrix group. */
struct advise_request;
struct report *fleet_advise_report(const struct fleet *f, const char *shown_dir,
                                   const struct advise_request *rq, size_t *planned, char *err,
                                   size_t err_size);

#endif
