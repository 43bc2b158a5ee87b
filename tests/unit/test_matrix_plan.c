/*
 * test_matrix_plan.c — the interference matrix's plan (runner/plan.h's cells, runner/matrix.h):
 * its cells, every block a permutation of them, the run's placement plans left as they were,
 * and meta.json's "matrix" read back exactly and refused when changed.
 */
#include <stdlib.h>
#include <string.h>

#include "runner/matrix.h"
#include "runner/plan.h"
#include "common/alloc.h"
#include "tests/harness.h"

static void test_cells(void)
{
	struct plan p = { .seed = 99, .warmup_blocks = 1, .measured_blocks = 20 };
	matrix_plan_cells(&p, 3, PLACEMENT_NON_SIBLING);
	CHECK_INT(p.ncells, 12, "3 kernels make 9 pairs and 3 baselines");
	CHECK(p.cells[0].placement == PLACEMENT_SOLO && p.cells[0].a == 0 && p.cells[0].b == -1,
	      "each victim's row starts with its baseline: solo, no aggressor");
	CHECK(p.cells[1].placement == PLACEMENT_NON_SIBLING && p.cells[1].a == 0 && p.cells[1].b == 0
	      && p.cells[5].a == 1 && p.cells[5].b == 0, "then the victim beside each aggressor");
	CHECK(matrix_placement(&p) == PLACEMENT_NON_SIBLING, "the matrix's placement is its pairs'");
	CHECK_INT(plan_block_size(&p), 12, "a block is every cell once");
	CHECK_INT(plan_total_trials(&p), 21 * 12, "total trials = blocks x cells");
	CHECK_INT(plan_block_of(&p, 23), 1, "trial 23 is in block 1");
	int permutations = 1, placements_agree = 1, firsts_seen = 0;
	int first_seen[12] = { 0 };
	for (long b = 0; b < 200; b++) {
		int count[12] = { 0 };
		for (long t = b * 12; t < (b + 1) * 12; t++) {
			int c = plan_cell_of(&p, t);
			if (c < 0 || c >= 12) {
				permutations = 0;
				continue;
			}
			count[c]++;
			placements_agree &= plan_placement_of(&p, t) == p.cells[c].placement;
		}
		for (int c = 0; c < 12; c++)
			permutations &= count[c] == 1;
		int first = plan_cell_of(&p, b * 12);
		if (first >= 0 && !first_seen[first]++)
			firsts_seen++;
	}
	CHECK(permutations, "every block runs every cell exactly once (200 blocks)");
	CHECK(placements_agree, "a trial's placement is its cell's");
	CHECK_INT(firsts_seen, 12, "every cell comes first in some block: the order is shuffled");
	struct plan q = p;
	int same = 1;
	for (long t = 0; t < 500; t++)
		same &= plan_cell_of(&p, t) == plan_cell_of(&q, t);
	CHECK(same, "the same seed replays the same cells");
}

/* A run's plan is untouched: no cells, blocks of its placements, in the order they always had
 * (a folder started before the matrix existed resumes on the same trials). */
static void test_run_plan_unchanged(void)
{
	struct plan p = { .seed = 12345, .nplacements = 3,
	                  .placements = { PLACEMENT_SOLO, PLACEMENT_SIBLING, PLACEMENT_NON_SIBLING },
	                  .warmup_blocks = 2, .measured_blocks = 10 };
	CHECK_INT(plan_cell_of(&p, 5), -1, "a run's trials have no cell");
	CHECK_INT(plan_block_size(&p), 3, "a run's block is its placements");
	int agree = 1;
	for (long b = 0; b < 50; b++) {
		enum placement order[PLACEMENT_COUNT];
		plan_block_order(&p, b, order);
		for (int i = 0; i < 3; i++)
			agree &= plan_placement_of(&p, b * 3 + i) == order[i];
	}
	CHECK(agree, "plan_placement_of follows plan_block_order, as before");
}

static void fake_kernel(struct workload *w, const char *name, const char *iters)
{
	w->name = xstrdup(name);
	w->path = xasprintf("/usr/libexec/smtbench/%s", name);
	memset(w->sha256, 'a', 64);
	w->sha256[64] = '\0';
	w->argv = xcalloc(3, sizeof *w->argv);
	w->argv[0] = xstrdup(name);
	w->argv[1] = xstrdup(iters);
	w->is_kernel = true;
}

static void test_meta_round_trip(void)
{
	struct experiment e = { .nworkloads = 2 };
	fake_kernel(&e.workloads[0], "nop", "1000");
	fake_kernel(&e.workloads[1], "pause", "77");
	matrix_plan_cells(&e.plan, 2, PLACEMENT_SAME_PU);
	json_t *m = matrix_meta_json(&e);
	CHECK_INT((long)json_array_size(json_object_get(m, "cells")), 6, "meta.json lists 6 cells");
	CHECK_STR(json_string_value(json_object_get(m, "placement")), "same-pu",
	          "meta.json names the placement");
	struct experiment back = { 0 };
	char err[ERR_LEN] = "";
	CHECK(matrix_meta_load("DIR", m, &back, err, sizeof err) == 0, "it reads back (%s)", err);
	int same = back.nworkloads == 2 && back.plan.ncells == 6;
	for (int i = 0; same && i < 6; i++)
		same = !memcmp(&back.plan.cells[i], &e.plan.cells[i], sizeof e.plan.cells[i]);
	CHECK(same, "…with the same kernels and cells");
	CHECK_STR(back.workloads[1].argv[1], "77", "…and each kernel's count");
	experiment_release(&back);

	/* A cell changed by hand is refused, naming it. */
	json_t *changed = json_deep_copy(m);
	json_object_set_new(json_array_get(json_object_get(changed, "cells"), 2), "aggressor",
	                    json_string("nop"));
	struct experiment bad = { 0 };
	CHECK(matrix_meta_load("DIR", changed, &bad, err, sizeof err) != 0
	      && strstr(err, "matrix.cells[2]"), "a changed cell is refused, named: %s", err);
	experiment_release(&bad);
	json_decref(changed);
	changed = json_deep_copy(m);
	json_array_remove(json_object_get(changed, "cells"), 0);
	CHECK(matrix_meta_load("DIR", changed, &bad, err, sizeof err) != 0
	      && strstr(err, "has 5 cells"), "a missing cell is refused: %s", err);
	experiment_release(&bad);
	json_decref(changed);
	changed = json_deep_copy(m);
	json_object_set_new(changed, "placement", json_string("solo"));
	CHECK(matrix_meta_load("DIR", changed, &bad, err, sizeof err) != 0,
	      "a placement of one CPU is refused: %s", err);
	experiment_release(&bad);
	json_decref(changed);
	json_decref(m);
	experiment_release(&e);
}

int main(void)
{
	test_cells();
	test_run_plan_unchanged();
	test_meta_round_trip();
	return test_done("test_matrix_plan");
}
