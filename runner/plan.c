#include "runner/plan.h"

#include <stdlib.h>
#include <sys/random.h>
#include <time.h>

#include "common/alloc.h"

/* splitmix64 (Steele, Lea, Flood 2014): small, well mixed, and the same on every platform,
 * which matters more here than statistical strength: a seed must replay the same order. */
static uint64_t splitmix64_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, bound) without modulo bias, by rejection. */
static uint64_t uniform_below(uint64_t *state, uint64_t bound)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
	uint64_t r;
	do
		r = splitmix64_next(state);
	while (r >= limit);
	return r % bound;
}

/* A block's order of n things (indexes 0..n-1): the same shuffle for placements and cells. */
static void block_permutation(uint64_t seed, long block, int n, int order[])
{
	uint64_t state = seed;
	/* Mix the block number in through the generator so neighbouring blocks are unrelated. */
	state ^= splitmix64_next(&(uint64_t){ (uint64_t)block + 1 });
	for (int i = 0; i < n; i++)
		order[i] = i;
	for (int i = n - 1; i > 0; i--) {
		int j = (int)uniform_below(&state, (uint64_t)i + 1);
		int tmp = order[i];
		order[i] = order[j];
		order[j] = tmp;
	}
}

void plan_block_order(const struct plan *p, long block, enum placement order[PLACEMENT_COUNT])
{
	int index[PLACEMENT_COUNT];
	block_permutation(p->seed, block, p->nplacements, index);
	for (int i = 0; i < p->nplacements; i++)
		order[i] = p->placements[index[i]];
}

int plan_block_size(const struct plan *p)
{
	return p->ncells > 0 ? p->ncells : p->nplacements;
}

static bool adaptive(const struct plan *p)
{
	return p->ncells > 0 && p->adaptive_from > 0;
}

/* The adaptive block j (from 0) trial t is in: -1 before them, nscheduled past the last. */
static long scheduled_index(const struct plan *p, long trial)
{
	if (!adaptive(p) || trial < p->adaptive_from * p->ncells)
		return -1;
	long lo = 0, hi = p->nscheduled; /* the last j with sched_first[j] <= trial */
	if (hi == 0 || trial >= p->sched_first[hi - 1] + p->sched_n[hi - 1])
		return p->nscheduled;
	while (hi - lo > 1) {
		long mid = lo + (hi - lo) / 2;
		if (p->sched_first[mid] <= trial)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

long plan_block_of(const struct plan *p, long trial)
{
	long j = scheduled_index(p, trial);
	return j < 0 ? trial / plan_block_size(p) : p->adaptive_from + j;
}

long plan_block_first(const struct plan *p, long block)
{
	if (!adaptive(p) || block <= p->adaptive_from)
		return block * plan_block_size(p);
	long j = block - p->adaptive_from;
	if (j < p->nscheduled)
		return p->sched_first[j];
	if (p->nscheduled == 0)
		return p->adaptive_from * p->ncells; /* not meant to be asked: the first is not known */
	return p->sched_first[p->nscheduled - 1] + p->sched_n[p->nscheduled - 1];
}

bool plan_block_starts(const struct plan *p, long trial)
{
	return plan_block_first(p, plan_block_of(p, trial)) == trial;
}

bool plan_block_ends(const struct plan *p, long trial)
{
	long j = scheduled_index(p, trial);
	if (j < 0)
		return (trial + 1) % plan_block_size(p) == 0;
	return j < p->nscheduled && trial + 1 == p->sched_first[j] + p->sched_n[j];
}

bool plan_needs_schedule(const struct plan *p, long trial)
{
	return adaptive(p) && scheduled_index(p, trial) == p->nscheduled
	       && plan_block_first(p, p->adaptive_from + p->nscheduled) == trial;
}

void plan_schedule(struct plan *p, const bool active[PLAN_MAX_CELLS])
{
	long j = p->nscheduled;
	long first = plan_block_first(p, p->adaptive_from + j);
	p->sched_first = xrealloc(p->sched_first, (size_t)(j + 1) * sizeof *p->sched_first);
	p->sched_n = xrealloc(p->sched_n, (size_t)(j + 1) * sizeof *p->sched_n);
	p->sched_cells = xrealloc(p->sched_cells,
	                          (size_t)(j + 1) * (size_t)p->ncells * sizeof *p->sched_cells);
	int n = 0;
	for (int c = 0; c < p->ncells; c++)
		if (active[c])
			p->sched_cells[j * p->ncells + n++] = (short)c;
	p->sched_first[j] = first;
	p->sched_n[j] = n;
	p->nscheduled = j + 1;
}

void plan_release(struct plan *p)
{
	free(p->sched_first);
	free(p->sched_n);
	free(p->sched_cells);
	p->sched_first = NULL;
	p->sched_n = NULL;
	p->sched_cells = NULL;
	p->nscheduled = 0;
}

int plan_cell_of(const struct plan *p, long trial)
{
	if (p->ncells <= 0)
		return -1;
	int order[PLAN_MAX_CELLS];
	long j = scheduled_index(p, trial);
	if (j >= 0) {
		if (j >= p->nscheduled)
			return -1; /* not scheduled yet */
		long block = p->adaptive_from + j;
		block_permutation(p->seed, block, p->sched_n[j], order);
		return p->sched_cells[j * p->ncells + order[trial - p->sched_first[j]]];
	}
	block_permutation(p->seed, plan_block_of(p, trial), p->ncells, order);
	return order[trial % p->ncells];
}

enum placement plan_placement_of(const struct plan *p, long trial)
{
	if (p->ncells > 0) {
		int cell = plan_cell_of(p, trial);
		return cell >= 0 ? p->cells[cell].placement : PLACEMENT_SOLO;
	}
	enum placement order[PLACEMENT_COUNT];
	plan_block_order(p, plan_block_of(p, trial), order);
	return order[trial % p->nplacements];
}

int plan_is_warmup(const struct plan *p, long trial)
{
	return plan_block_of(p, trial) < p->warmup_blocks;
}

long plan_total_trials(const struct plan *p)
{
	if (p->measured_blocks < 0 || adaptive(p))
		return -1;
	return (p->warmup_blocks + p->measured_blocks) * plan_block_size(p);
}

uint64_t plan_fresh_seed(void)
{
	uint64_t seed;
	if (getrandom(&seed, sizeof seed, GRND_NONBLOCK) == (ssize_t)sizeof seed)
		return seed & 0xffffffffffffULL; /* 48 bits: short enough to retype from a report */
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t state = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	return splitmix64_next(&state) & 0xffffffffffffULL;
}
