#include "runner/plan.h"

#include <sys/random.h>
#include <time.h>

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

long plan_block_of(const struct plan *p, long trial)
{
	return trial / plan_block_size(p);
}

int plan_cell_of(const struct plan *p, long trial)
{
	if (p->ncells <= 0)
		return -1;
	int order[PLAN_MAX_CELLS];
	block_permutation(p->seed, plan_block_of(p, trial), p->ncells, order);
	return order[trial % p->ncells];
}

enum placement plan_placement_of(const struct plan *p, long trial)
{
	if (p->ncells > 0)
		return p->cells[plan_cell_of(p, trial)].placement;
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
	if (p->measured_blocks < 0)
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
