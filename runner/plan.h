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
};

/* Trials per block: the cells of a matrix, else the placements. */
int plan_block_size(const struct plan *p);
/* A matrix's cell (index into p->cells) of run-order trial t; -1 for a run. */
int plan_cell_of(const struct plan *p, long trial);

/* Block and placement of run-order trial t (from 0, warm-up included). */
long plan_block_of(const struct plan *p, long trial);
enum placement plan_placement_of(const struct plan *p, long trial);
int plan_is_warmup(const struct plan *p, long trial);
/* Total trials, or -1 for a duration-bounded plan. */
long plan_total_trials(const struct plan *p);

/* The per-block order: a Fisher–Yates shuffle driven by splitmix64 seeded from (seed, block). */
void plan_block_order(const struct plan *p, long block, enum placement order[PLACEMENT_COUNT]);

/* A seed for a run that was given none: from getrandom(), falling back to the clock. */
uint64_t plan_fresh_seed(void);

#endif
