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

/* A cell is "safe to share" when the 95th percentile of its slowdown's posterior (paired and
 * settled) is below 1 + this: a slowdown under 5% with 95% probability. With a ROPE (--rope
 * PCT, opt->rope_pct) the bound is the ROPE's instead, PCT / 100: a cell whose verdict is
 * "practically the same" (P(within ±PCT %) >= 0.95) is then safe, and so is a faster one. */
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
	bool safe;                      /* the slowdown is under 5% with 95% probability */
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
	char *source;                   /* the folder (escaped) */
	char **kernels;                 /* escaped names, in the order asked for, then as found */
	size_t nkernels;
	char *placement;                /* the placement the pairs ran on, or NULL if none ran */
	double safe_slowdown;           /* a safe cell's bound: the ROPE's, else the default (above) */
	struct analysis_matrix_cell *cells; /* victim by victim: the baseline, then each aggressor */
	size_t ncells;
	struct analysis_matrix_summary *sensitivity;     /* one per kernel, as victim */
	struct analysis_matrix_summary *contentiousness; /* one per kernel, as aggressor */
	size_t measured_blocks, warmup_trials, failed_trials, excluded_contaminated;
	size_t contaminated_trials;     /* measured ok trials that shared their CPUs */
	char **warnings;                /* the loader's (lines skipped) */
	size_t warning_count;
};

/*
 * The folder's samples (its trials by placement, role and workload) and every cell compared.
 * kernels (may be NULL): the order of the rows and columns (meta.json's matrix.kernels); names
 * found in the file but not listed follow in the order found. exclude_contaminated as in
 * analysis_load_folder_excluding. NULL with err when the file cannot be read or holds no cell.
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
