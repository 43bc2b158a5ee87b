/*
 * allocate.c — the cells a matrix's next block runs with --precision (see allocate.h).
 */
#include "runner/allocate.h"

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
		/* A pair cell against its victim's baseline (placement/solo); a baseline has none. */
		enum placement compared[] = { p->cells[c].placement, PLACEMENT_SOLO };
		a->cells[c] = p->cells[c];
		precision_init(&a->stat[c], target_pct, compared, 2);
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

void allocation_add(struct allocation *a, long block, int cell, bool ok, double utime_s)
{
	if (block < a->warmup_blocks || cell < 0 || cell >= a->ncells)
		return;
	a->blocks[cell]++;
	/* As samples.csv has it (%.6f), so that a replay from the file decides the same. */
	char text[64];
	snprintf(text, sizeof text, "%.6f", utime_s);
	double stored = strtod(text, NULL);
	/* A pair's time goes to its own comparison; a baseline's to each of its victim's pairs'.
	 * Each pairs the two by block (precision_add). */
	for (int c = 0; ok && c < a->ncells; c++)
		if (c == cell || a->baseline[c] == cell)
			precision_add(&a->stat[c], block, a->cells[cell].placement, stored);
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
