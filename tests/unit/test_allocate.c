/*
 * test_allocate.c — matrix --precision's allocation (runner/allocate.h) on synthetic cells of
 * known noise, through the plan's adaptive blocks (runner/plan.h): the noisier cells get more
 * blocks, every cell reaches the target, every block holds the baselines of its pairs' victims
 * and each of its cells once, and a replay of the same trials (what --resume does) chooses the
 * very same blocks.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runner/allocate.h"
#include "runner/matrix.h"
#include "runner/plan.h"
#include "tests/harness.h"

#define TARGET_PCT 2.0
#define MAX_BLOCKS 5000

/* A small deterministic normal generator (xorshift64* and Box-Muller): the test is the same on
 * every machine. */
static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static double uniform01(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return ((double)((rng * 0x2545f4914f6cdd1dULL) >> 11) + 0.5) / 9007199254740992.0;
}
static double normal(void)
{
	return sqrt(-2 * log(uniform01())) * cos(2 * M_PI * uniform01());
}

/* The per-block noise of each victim's pairs (log scale): victim 0 noisy, 1 quiet, 2 between;
 * each baseline adds a little of its own. */
static const double victim_noise[3] = { 0.08, 0.005, 0.05 };

struct trial_record {
	long block;
	int cell;
	double utime_s;
};

int main(void)
{
	struct plan p = { .seed = 4242, .warmup_blocks = 1, .measured_blocks = MAX_BLOCKS };
	matrix_plan_cells(&p, 3, PLACEMENT_NON_SIBLING);
	p.adaptive_from = p.warmup_blocks + PRECISION_MIN_BLOCKS;
	struct allocation *a = allocation_new(&p, TARGET_PCT);
	struct trial_record *log_ = calloc((size_t)MAX_BLOCKS * 12, sizeof *log_);
	long t = 0, nlog = 0, block = 0;
	int honest = 1, once = 1, bounds = 1, monotone = 1, first_blocks_whole = 1;
	bool was_active[PLAN_MAX_CELLS];
	for (int c = 0; c < p.ncells; c++)
		was_active[c] = true;
	bool stopped = false;
	for (; block < p.warmup_blocks + MAX_BLOCKS; block++) {
		if (plan_needs_schedule(&p, t)) {
			bool active[PLAN_MAX_CELLS];
			if (allocation_choose(a, active) == 0) {
				stopped = true;
				break;
			}
			for (int c = 0; c < p.ncells; c++) {
				monotone &= !active[c] || was_active[c]; /* a cell that left never returns */
				was_active[c] = active[c];
			}
			plan_schedule(&p, active);
		} else if (block >= p.adaptive_from) {
			honest = 0; /* an adaptive block must be scheduled at its first trial */
			break;
		}
		long first = plan_block_first(&p, block), end = plan_block_first(&p, block + 1);
		bounds &= first == t && plan_block_starts(&p, t) && end > first
		           && plan_block_ends(&p, end - 1) && plan_block_of(&p, end - 1) == block;
		if (block < p.adaptive_from)
			first_blocks_whole &= end - first == p.ncells;
		int seen[PLAN_MAX_CELLS] = { 0 };
		double base[3];
		for (int v = 0; v < 3; v++)
			base[v] = 0.25 * exp(0.002 * normal());
		for (; t < end; t++) {
			int c = plan_cell_of(&p, t);
			seen[c]++;
			const struct plan_cell *cell = &p.cells[c];
			double u = cell->b < 0 ? base[cell->a]
			                       : base[cell->a] * 1.1 * exp(victim_noise[cell->a] * normal());
			allocation_add(a, block, c, true, u);
			log_[nlog++] = (struct trial_record){ block, c, u };
		}
		for (int c = 0; c < p.ncells; c++) {
			once &= seen[c] <= 1;
			if (seen[c] && p.cells[c].b >= 0)
				honest &= seen[a->baseline[c]] == 1;
		}
	}
	CHECK(stopped, "the run stops because every cell reached ±%g%% (in %ld blocks, under the "
	      "budget of %d)", TARGET_PCT, block, MAX_BLOCKS);
	int reached = 1;
	for (int c = 0; c < p.ncells; c++)
		reached &= allocation_reached(a, c);
	CHECK(reached, "every cell, pairs and baselines, is within the target at the end");
	CHECK(first_blocks_whole, "the first %d measured blocks (and the warm-up) run every cell",
	      PRECISION_MIN_BLOCKS);
	CHECK(honest, "every block that runs a pair runs its victim's baseline: pairing by block holds");
	CHECK(once, "no cell runs twice in a block");
	CHECK(bounds, "plan_block_first/starts/ends/of agree on every block's trials");
	CHECK(monotone, "a cell that left the blocks never comes back (its data no longer changes)");
	/* Victim 0's pairs are noisiest (0.08), then 2's (0.05), then 1's (0.005):
	 * 0.05 needs about (1.96 x 0.05 / 0.0198)^2 = 25 blocks, more than the minimum of 20. */
	long min0 = MAX_BLOCKS, max1 = 0, min2 = MAX_BLOCKS, max2 = 0;
	for (int c = 0; c < p.ncells; c++) {
		if (p.cells[c].b < 0)
			continue;
		long n = a->blocks[c];
		if (p.cells[c].a == 0 && n < min0)
			min0 = n;
		if (p.cells[c].a == 1 && n > max1)
			max1 = n;
		if (p.cells[c].a == 2) {
			min2 = n < min2 ? n : min2;
			max2 = n > max2 ? n : max2;
		}
	}
	CHECK(min0 > max2 && min2 > max1, "the noisier the cell, the more blocks: victim 0's pairs "
	      "(noise 0.08) at least %ld, victim 2's (0.05) %ld to %ld, victim 1's (0.005) at most %ld",
	      min0, min2, max2, max1);
	CHECK(max1 == PRECISION_MIN_BLOCKS, "the quiet cells stop after the minimum of %d blocks (%ld)",
	      PRECISION_MIN_BLOCKS, max1);
	/* With 8% noise a ±2% interval needs about (1.96 x 0.08 / 0.0198)^2 = 63 blocks. */
	CHECK(min0 >= 30 && min0 <= 200, "the noisy cells need about what the noise says (%ld "
	      "blocks; about 63 expected)", min0);
	for (int c = 0; c < p.ncells; c++)
		if (p.cells[c].b < 0) {
			long most = 0;
			for (int d = 0; d < p.ncells; d++)
				if (d != c && a->baseline[d] == c && a->blocks[d] > most)
					most = a->blocks[d];
			CHECK_INT(a->blocks[c], most, "a baseline runs in every block any of its victim's "
			          "pairs runs in");
		}

	/* --resume: a new plan and allocation fed the same trials choose the same blocks. */
	struct plan q = { .seed = 4242, .warmup_blocks = 1, .measured_blocks = MAX_BLOCKS };
	matrix_plan_cells(&q, 3, PLACEMENT_NON_SIBLING);
	q.adaptive_from = p.adaptive_from;
	struct allocation *b = allocation_new(&q, TARGET_PCT);
	int same = 1;
	for (long i = 0; i < nlog; i++) {
		if (plan_needs_schedule(&q, i)) {
			bool active[PLAN_MAX_CELLS];
			same &= allocation_choose(b, active) > 0;
			plan_schedule(&q, active);
		}
		same &= plan_cell_of(&q, i) == log_[i].cell && plan_block_of(&q, i) == log_[i].block;
		/* as samples.csv holds it: the value printed with 6 decimals */
		char text[32];
		snprintf(text, sizeof text, "%.6f", log_[i].utime_s);
		allocation_add(b, plan_block_of(&q, i), plan_cell_of(&q, i), true, strtod(text, NULL));
	}
	bool active[PLAN_MAX_CELLS];
	CHECK(same && q.nscheduled == p.nscheduled && allocation_choose(b, active) == 0,
	      "a replay of the stored trials (as --resume does) schedules the same %ld blocks and "
	      "stops at the same point", p.nscheduled);
	CHECK_INT(plan_total_trials(&q), -1, "an adaptive plan has no fixed total of trials");

	/* A failed trial gives no pair, so its cell keeps running. */
	struct plan r = { .seed = 1, .warmup_blocks = 0, .measured_blocks = 100 };
	matrix_plan_cells(&r, 1, PLACEMENT_NON_SIBLING);
	struct allocation *f = allocation_new(&r, 50);
	for (long blk = 0; blk < PRECISION_MIN_BLOCKS; blk++) {
		allocation_add(f, blk, 0, true, 1.0);
		allocation_add(f, blk, 1, blk != 3, 1.01);
	}
	CHECK(!allocation_reached(f, 1) && allocation_choose(f, active) == 2 && active[0] && active[1],
	      "9 pairs of 10 blocks (one trial failed) are not enough: the cell and its baseline run on");
	allocation_add(f, 10, 0, true, 1.0);
	allocation_add(f, 10, 1, true, 1.01);
	CHECK(allocation_reached(f, 1) && allocation_choose(f, active) == 0,
	      "one more block of pairs and a ±50%% target is reached");

	allocation_free(&a);
	allocation_free(&b);
	allocation_free(&f);
	CHECK(a == NULL, "allocation_free sets the pointer to NULL");
	plan_release(&p);
	plan_release(&q);
	free(log_);
	return test_done("test_allocate");
}
