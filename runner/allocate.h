/*
 * allocate.h — where a matrix's blocks go with --precision: each pair cell's interval, and the
 * cells the next block runs.
 *
 * The rule (docs/matrix.md, "--precision"): the first PRECISION_MIN_BLOCKS measured blocks run every cell.
 * From then on each block runs every pair cell whose 95% interval is not yet within ±target%
 * and the baseline of each victim among them (so that every pair in a block has its baseline
 * there: pairing by block still holds), and no other cell; when every pair cell is within the
 * target, the run stops ("precision reached"). A cell's interval is the one `run --precision`
 * follows (precision.h): Student-t on its per-block log ratios against its victim's baseline
 * in the same block, the analysis's paired interval, reached within PRECISION_GRID_MARGIN of
 * the target after at least PRECISION_MIN_BLOCKS pairs. A cell that left the blocks keeps its
 * data, so it never comes back: the noisier a cell, the more blocks it runs.
 *
 * The state is a function of the measured trials alone, fed in trial order: `--resume` replays
 * samples.csv through it and gets the same choices (user times are taken as samples.csv
 * stores them, to the microsecond, so the replay sees the very numbers the run saw).
 */
#ifndef SMTBENCH_RUNNER_ALLOCATE_H
#define SMTBENCH_RUNNER_ALLOCATE_H

#include <stdbool.h>

#include "runner/plan.h"
#include "runner/precision.h"

struct allocation {
	double target_pct;
	long warmup_blocks;            /* blocks before these are not counted */
	int ncells;
	struct plan_cell cells[PLAN_MAX_CELLS];
	int baseline[PLAN_MAX_CELLS];  /* each cell's victim's baseline cell (itself for one) */
	long blocks[PLAN_MAX_CELLS];   /* measured trials each cell ran (ok or not) */
	struct precision_tracker stat[PLAN_MAX_CELLS]; /* pair cells: their per-block log ratios */
};

/* A new allocation for plan p's cells (a matrix) and target (percent, > 0). */
struct allocation *allocation_new(const struct plan *p, double target_pct);
void allocation_free(struct allocation **a);

/* One trial of cell in block (warm-up blocks are ignored), its victim's user time when ok.
 * Trials come block by block, each cell at most once a block (the plan's order, which --resume
 * checks): a pair is made once, from the cell's and its baseline's trials of one block. */
void allocation_add(struct allocation *a, long block, int cell, bool ok, double utime_s);

/* Whether cell is within the target: a pair cell by its interval; a baseline when every pair
 * of its victim is. */
bool allocation_reached(const struct allocation *a, int cell);

/* The cells of the next block (after the first PRECISION_MIN_BLOCKS measured ones) into
 * active[]: the pair cells not within the target and their victims' baselines. Their count;
 * 0 when every cell is within it. */
int allocation_choose(const struct allocation *a, bool active[PLAN_MAX_CELLS]);

#endif
