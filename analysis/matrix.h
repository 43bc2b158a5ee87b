/*
 * matrix.h — the interference matrix's analysis (smtbench matrix): a results folder whose
 * trials are cells, each a victim kernel (role a) beside an aggressor kernel (role b) on the
 * matrix's placement, or the victim alone (solo), its baseline. Every cell is compared with its
 * victim's baseline by analysis_compare_groups (paired by block), and two summaries are made the
 * same way: a victim's sensitivity (its slowdown averaged over the aggressors) and an
 * aggressor's contentiousness (the slowdown it causes averaged over the victims), both as
 * geometric means of the per-block ratios, so that each is one paired comparison of per-block
 * values: exp(mean over blocks of the mean of the cells' log ratios in the block).
 *
 * Error policy and ownership as in analysis.h: NULL with err; analysis_matrix_free(&p).
 */
#ifndef SMTBENCH_ANALYSIS_MATRIX_H
#define SMTBENCH_ANALYSIS_MATRIX_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/analysis.h"

/*
 * Which pairs of kernels are "safe to share" (matrix.c, analysis_safe_pairs): the list holds
 * jointly. The bound is the matrix's ROPE (--rope PCT, opt->rope_pct), else
 * ANALYSIS_MATRIX_SAFE_SLOWDOWN; a matrix always judges its cells against it, so that a cell's
 * verdict is "slower" (P(slowdown above the bound) >= 0.975), "faster", "practically the same"
 * (P(within the ROPE) >= 0.95) or "not enough data to say". A pair of kernels i, j (i beside j
 * and j beside i; one cell when i == j) is a candidate when each of its cells is paired, settled
 * and "practically the same" or "faster" (so a listed cell never reads "not enough data to
 * say"); its probability is the product of its cells' P(slowdown at most the bound), the cells'
 * posteriors being independent. The list: candidates by probability, highest first, each added
 * while (1) its probability of exceeding the bound is at most (1 - ANALYSIS_MATRIX_SAFE_PROBABILITY)
 * over the number of the matrix's pairs not yet listed (Holm's step-down over all
 * nkernels (nkernels + 1) / 2 pairs: a matrix whose every pair sits at the bound lists one in
 * at most 5% of runs) and (2) the product over the list stays at least
 * ANALYSIS_MATRIX_SAFE_PROBABILITY: the probability that every listed pair is within the bound
 * at once, which the answer quotes.
 */
#define ANALYSIS_MATRIX_SAFE_SLOWDOWN 0.05
#define ANALYSIS_MATRIX_SAFE_PROBABILITY 0.95
/* More kernel names than this in one samples.csv is not a matrix smtbench wrote. */
#define ANALYSIS_MATRIX_MAX_KERNELS 64

struct analysis_matrix_cell {
	int victim, aggressor;          /* kernel indexes; aggressor -1: the victim alone */
	struct analysis_group group;    /* its measured usable trials (the victim's user time) */
	size_t failed_trials;           /* measured trials with a row not ok */
	bool compared;                  /* vs_baseline holds a comparison (not for baselines) */
	struct analysis_comparison vs_baseline; /* the cell / its victim's baseline */
	bool safe;                      /* its pair is on the joint safe list (see above) */
	double p_safe;                  /* P(its slowdown at most the bound), where it may be safe
	                                 * (a candidate's cell); NAN otherwise */
	char *note;                     /* why it was not compared, or compared unpaired; or NULL */
};

/* One summary: a kernel's sensitivity (as victim) or contentiousness (as aggressor). */
struct analysis_matrix_summary {
	int kernel;
	bool compared;
	struct analysis_comparison c;   /* per-block geometric mean of its cells / of their baselines */
	size_t blocks;                  /* blocks where every one of its cells had a usable trial */
	char *note;
};

struct analysis_matrix {
	char **kernels;                 /* escaped names, in the order asked for, then as found */
	size_t nkernels;
	char *placement;                /* the placement the pairs ran on, or NULL if none ran */
	double safe_slowdown;           /* a safe cell's bound: the ROPE's, else the default (above) */
	double rope_pct;                /* the ROPE the cells were judged against: opt->rope_pct,
	                                 * else 100 x ANALYSIS_MATRIX_SAFE_SLOWDOWN */
	struct analysis_safe_pair *safe_pairs; /* the joint safe list, by kernel */
	size_t safe_pair_count;
	size_t safe_candidates;         /* pairs that could be listed */
	double safe_joint_probability;  /* P(every listed pair within the bound); 1 for none */
	struct analysis_matrix_cell *cells; /* victim by victim: the baseline, then each aggressor */
	size_t ncells;
	struct analysis_matrix_summary *sensitivity;     /* one per kernel, as victim */
	struct analysis_matrix_summary *contentiousness; /* one per kernel, as aggressor */
	size_t measured_blocks, warmup_trials, failed_trials, excluded_contaminated;
	size_t contaminated_trials;     /* measured ok trials that shared their CPUs */
	char **warnings;                /* the loader's (lines skipped) */
	size_t warning_count;
};

/* One listed pair: kernels a <= b, and P(each one's slowdown beside the other at most the
 * bound), the product of its cells'. */
struct analysis_safe_pair {
	int a, b;
	double probability;
};

/* The joint safe list (the rule above) of nkernels kernels from p_safe[v * nkernels + g] (NAN:
 * the cell cannot be safe) into pairs (room for nkernels (nkernels + 1) / 2, in kernel order);
 * how many are listed, *joint their product (1 for none), *candidates the pairs that could have
 * been. Fleet's pooled matrix calls it too: every list of safe pairs follows one rule. */
size_t analysis_safe_pairs(size_t nkernels, const double *p_safe, double probability,
                           struct analysis_safe_pair *pairs, double *joint, size_t *candidates);

/* A compared cell's P(slowdown at most bound) (bound: 0.05 for 5%), or NAN when the cell cannot
 * be listed: not paired, not settled, or its verdict neither "practically the same" nor
 * "faster" (against the matrix's ROPE). */
double analysis_matrix_cell_p_safe(const struct analysis_comparison *c, double bound);

/*
 * The folder's samples (its trials by placement, role and workload) and every cell compared.
 * kernels (may be NULL): the order of the rows and columns (meta.json's matrix.kernels); names
 * found in the file but not listed follow in the order found. exclude_contaminated as in
 * struct analysis_take. NULL with err when the file cannot be read or holds no cell.
 */
struct results_folder;
struct analysis_matrix *analysis_matrix_load(struct results_folder *f,
                                             const char *const *kernels, size_t nkernels,
                                             bool exclude_contaminated,
                                             const struct analysis_options *opt, char *err,
                                             size_t err_size);

/* The cell of victim v beside aggressor g (-1: v's baseline), or NULL. */
const struct analysis_matrix_cell *analysis_matrix_cell(const struct analysis_matrix *m, int v,
                                                         int g);

void analysis_matrix_free(struct analysis_matrix **p);

#endif
