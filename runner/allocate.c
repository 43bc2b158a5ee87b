/*
 * allocate.c — the cells a matrix's next block runs with --precision (see allocate.h).
 */
#include "runner/allocate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/alloc.h"

struct allocation *allocation_new(const struct plan *p, double target_pct)
{
	struct allocation *a = xcalloc(1, sizeof *a);
	a->target_pct = target_pct;
	a->warmup_blocks = p->warmup_blocks;
	a->ncells = p->ncells;
	for (int c = 0; c < p->ncells; c++) {
		a->cells[c] = p->cells[c];
		a->seen_block[c] = -1;
		precision_init(&a->stat[c], target_pct, NULL, 0);
	}
	for (int c = 0; c < p->ncells; c++) {
		a->baseline[c] = c;
		for (int b = 0; b < p->ncells; b++)
			if (p->cells[b].b < 0 && p->cells[b].a == p->cells[c].a)
				a->baseline[c] = b;
	}
	return a;
}

void allocation_free(struct allocation **a)
{
	free(*a);
	*a = NULL;
}

/* The pair of cell c and its baseline in block, when both have an ok trial there. */
static void pair_up(struct allocation *a, int c, long block)
{
	int b = a->baseline[c];
	if (b == c || a->seen_block[c] != block || a->seen_block[b] != block)
		return;
	precision_add_log_ratio(&a->stat[c], a->seen_log[c] - a->seen_log[b]);
}

void allocation_add(struct allocation *a, long block, int cell, bool ok, double utime_s)
{
	if (block < a->warmup_blocks || cell < 0 || cell >= a->ncells)
		return;
	a->blocks[cell]++;
	/* As samples.csv has it (%.6f), so that a replay from the file decides the same. */
	char text[64];
	snprintf(text, sizeof text, "%.6f", utime_s);
	double stored = strtod(text, NULL);
	if (!ok || !(stored > 0) || !isfinite(stored))
		return;
	a->seen_block[cell] = block;
	a->seen_log[cell] = log(stored);
	if (a->baseline[cell] != cell) {
		pair_up(a, cell, block);
		return;
	}
	for (int c = 0; c < a->ncells; c++) /* a baseline: the pairs that ran before it */
		if (c != cell && a->baseline[c] == cell)
			pair_up(a, c, block);
}

bool allocation_reached(const struct allocation *a, int cell)
{
	if (a->baseline[cell] != cell)
		return precision_reached(&a->stat[cell], a->stat[cell].n);
	for (int c = 0; c < a->ncells; c++)
		if (c != cell && a->baseline[c] == cell && !allocation_reached(a, c))
			return false;
	return true;
}

int allocation_choose(const struct allocation *a, bool active[PLAN_MAX_CELLS])
{
	int n = 0;
	for (int c = 0; c < a->ncells; c++)
		active[c] = false;
	for (int c = 0; c < a->ncells; c++)
		if (a->baseline[c] != c && !allocation_reached(a, c)) {
			if (!active[a->baseline[c]])
				n++;
			active[c] = active[a->baseline[c]] = true;
			n++;
		}
	return n;
}
