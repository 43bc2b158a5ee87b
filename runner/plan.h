/*
 * plan.h — the order of trials: randomized complete blocks from a recorded seed.
 *
 * Every block runs each planned placement once, in an order drawn for that block alone from
 * (seed, block number). So the plan has no state: trial t of any run with the same seed and
 * placements is always the same placement, which is what lets --resume continue a plan exactly
 * and lets --duration runs have as many blocks as fit.
 */
#ifndef SMTBENCH_RUNNER_PLAN_H
#define SMTBENCH_RUNNER_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "topology/topology.h"

/* A matrix (smtbench matrix) runs cells, not placements: each cell is a placement and the
 * workloads of its processes, indexes into the experiment's workloads (b is -1 for a cell of
 * one process: a victim's baseline alone). */
#define PLAN_MAX_WORKLOADS 16
#define PLAN_MAX_CELLS (PLAN_MAX_WORKLOADS * (PLAN_MAX_WORKLOADS + 1))
struct plan_cell {
	enum placement placement;
	int a, b;
};

struct plan {
	uint64_t seed;
	int nplacements;                            /* placements in each block (a run) */
	enum placement placements[PLACEMENT_COUNT]; /* in canonical (enum) order */
	long warmup_blocks;                         /* the first blocks, stored but not analysed */
	long measured_blocks;                       /* after the warm-up; -1: until time runs out */
	/* A matrix: its cells, each run once per block, shuffled like placements; 0 for a run
	 * (placements holds the matrix's placements all the same: solo and the one it pairs). */
	int ncells;
	struct plan_cell cells[PLAN_MAX_CELLS];
	/* A matrix with --precision: blocks from adaptive_from on (0: none are) run only the cells
	 * plan_schedule gave each (runner/allocate.h decides which), each once, shuffled like a
	 * whole block. Block adaptive_from + j starts at trial sched_first[j] and runs sched_n[j]
	 * cells, sched_cells[j * ncells ...] in index order before the shuffle. Owned
	 * (plan_release). */
	long adaptive_from;
	long nscheduled;
	long *sched_first;
	int *sched_n;
	short *sched_cells;
};

/* Trials per block: the cells of a matrix, else the placements (an adaptive block may run
 * fewer: plan_block_first). */
int plan_block_size(const struct plan *p);
/* A matrix's cell (index into p->cells) of run-order trial t; -1 for a run. */
int plan_cell_of(const struct plan *p, long trial);

/* Block and placement of run-order trial t (from 0, warm-up included). */
long plan_block_of(const struct plan *p, long trial);
enum placement plan_placement_of(const struct plan *p, long trial);
int plan_is_warmup(const struct plan *p, long trial);
/* Total trials, or -1 for a duration-bounded plan or an adaptive one. */
long plan_total_trials(const struct plan *p);

/* The first trial of block b; for the block after the last one scheduled, where it would
 * start (b must not lie further on). */
long plan_block_first(const struct plan *p, long block);
/* Whether trial t is the first of its block, or its last. */
bool plan_block_starts(const struct plan *p, long trial);
bool plan_block_ends(const struct plan *p, long trial);
/* Whether trial t starts an adaptive block not yet scheduled: the allocation must choose its
 * cells (plan_schedule) before it runs. */
bool plan_needs_schedule(const struct plan *p, long trial);
/* The next adaptive block runs the cells whose active[] is true (at least one). */
void plan_schedule(struct plan *p, const bool active[PLAN_MAX_CELLS]);
/* Frees the schedule and zeroes it (the plan stays usable up to adaptive_from). */
void plan_release(struct plan *p);

/* The per-block order: a Fisher–Yates shuffle driven by splitmix64 seeded from (seed, block). */
void plan_block_order(const struct plan *p, long block, enum placement order[PLACEMENT_COUNT]);

/* A seed for a run that was given none: from getrandom(), falling back to the clock. */
uint64_t plan_fresh_seed(void);

#endif
