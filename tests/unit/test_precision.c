/*
 * test_precision.c — the stopping rule of `run --precision` on synthetic blocks: which
 * comparison it follows on each machine, the interval against a two-pass computation of the
 * paired posterior's Student-t (n - 2 degrees of freedom) on the per-block log ratios, that a
 * block pairs only when both sides have a trial in it, that drift shared by a block cancels,
 * that low-noise data stops at the minimum of blocks and never before, that noisy data does not
 * stop and its estimate of the blocks needed is right.
 */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdint.h>

#include "runner/precision.h"
#include "tests/harness.h"

/* A deterministic normal deviate stream (splitmix64 + Box-Muller): no test depends on luck. */
static double next_normal(uint64_t *state)
{
	double u[2];
	for (int i = 0; i < 2; i++) {
		uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		z ^= z >> 31;
		u[i] = ((double)(z >> 11) + 0.5) / 9007199254740992.0;
	}
	return sqrt(-2 * log(u[0])) * cos(2 * M_PI * u[1]);
}

static void test_comparison_choice(void)
{
	struct precision_tracker t;
	enum placement smt[] = { PLACEMENT_SOLO, PLACEMENT_NON_SIBLING, PLACEMENT_SIBLING };
	precision_init(&t, 1, smt, 3);
	CHECK(t.have_comparison && t.a == PLACEMENT_SIBLING && t.b == PLACEMENT_NON_SIBLING,
	      "with sibling and non-sibling: the headline, sibling / non-sibling");
	enum placement nosmt[] = { PLACEMENT_NON_SIBLING, PLACEMENT_SOLO };
	precision_init(&t, 1, nosmt, 2);
	CHECK(t.have_comparison && t.a == PLACEMENT_NON_SIBLING && t.b == PLACEMENT_SOLO,
	      "without SMT: the contention comparison, non-sibling / solo");
	enum placement control[] = { PLACEMENT_SAME_PU, PLACEMENT_SOLO };
	precision_init(&t, 1, control, 2);
	CHECK(t.have_comparison && t.a == PLACEMENT_SAME_PU && t.b == PLACEMENT_SOLO,
	      "same-pu and solo: the control comparison, same-pu / solo");
	enum placement alone[] = { PLACEMENT_SOLO };
	precision_init(&t, 1, alone, 1);
	CHECK(!t.have_comparison && !precision_reached(&t, 1000),
	      "solo alone: no comparison, so precision never stops the run");
}

/* n more blocks of non-sibling and solo: log user time = log(base) + sd * normal. */
static void feed(struct precision_tracker *t, long n, double ratio, double sd, uint64_t *seed)
{
	for (long i = 0; i < n; i++) {
		long block = t->n + 1000; /* any number, one per block */
		precision_add(t, block, PLACEMENT_SOLO, 0.25 * exp(sd * next_normal(seed)));
		precision_add(t, block, PLACEMENT_NON_SIBLING, 0.25 * ratio * exp(sd * next_normal(seed)));
	}
}

static void test_interval_matches_two_pass(void)
{
	enum placement planned[] = { PLACEMENT_NON_SIBLING, PLACEMENT_SOLO };
	struct precision_tracker t;
	precision_init(&t, 2, planned, 2);
	double a[40], b[40];
	uint64_t seed = 7;
	for (int i = 0; i < 40; i++) {
		/* A drift shared by the block: it must cancel. */
		double drift = 1 + 0.5 * i / 40.0;
		b[i] = 0.25 * drift * exp(0.05 * next_normal(&seed));
		a[i] = 0.25 * 1.1 * drift * exp(0.05 * next_normal(&seed));
		if (i % 2) { /* the order within a block is random */
			precision_add(&t, i, PLACEMENT_SOLO, b[i]);
			precision_add(&t, i, PLACEMENT_NON_SIBLING, a[i]);
		} else {
			precision_add(&t, i, PLACEMENT_NON_SIBLING, a[i]);
			precision_add(&t, i, PLACEMENT_SOLO, b[i]);
		}
	}
	double mean = 0, ss = 0;
	for (int i = 0; i < 40; i++)
		mean += log(a[i] / b[i]) / 40;
	for (int i = 0; i < 40; i++)
		ss += pow(log(a[i] / b[i]) - mean, 2);
	double half = gsl_cdf_tdist_Pinv(0.975, 38) * sqrt(ss / (40.0 * 38));
	struct precision_interval iv;
	precision_interval(&t, &iv);
	CHECK(iv.known && iv.blocks == 40, "40 paired blocks: the interval is known");
	CHECK_NEAR(iv.ratio, exp(mean), 1e-12, "the centre is exp(mean of log a - log b per block)");
	CHECK_NEAR(iv.low, exp(mean - half), 1e-12, "the low end: Student-t, 38 dof, the paired "
	           "posterior's scale");
	CHECK_NEAR(iv.high, exp(mean + half), 1e-12, "the high end likewise");
	CHECK_NEAR(iv.half_pct, (exp(half) - 1) * 100, 1e-9, "± is the wider side, in percent");
	CHECK(iv.low < 1.1 && 1.1 < iv.high && iv.half_pct < 3,
	      "the interval holds the true ratio 1.1 and the 50%% drift cancelled (%.4f-%.4f)",
	      iv.low, iv.high);
	precision_add(&t, 40, PLACEMENT_SOLO, 0);
	precision_add(&t, 40, PLACEMENT_NON_SIBLING, 0.25);
	precision_add(&t, 41, PLACEMENT_SOLO, -1);
	precision_add(&t, 41, PLACEMENT_NON_SIBLING, 0.25);
	precision_add(&t, 42, PLACEMENT_SOLO, NAN);
	precision_add(&t, 42, PLACEMENT_NON_SIBLING, 0.25);
	CHECK_INT(t.n, 40, "a block with a zero, negative or NaN time on one side is not paired");
	precision_add(&t, 43, PLACEMENT_SOLO, 0.25);
	precision_add(&t, 44, PLACEMENT_NON_SIBLING, 0.25);
	precision_add(&t, 44, PLACEMENT_SAME_PU, 0.25);
	CHECK_INT(t.n, 40, "sides in different blocks, or another placement, do not pair");
	precision_add(&t, 45, PLACEMENT_NON_SIBLING, 0.25);
	precision_add(&t, 45, PLACEMENT_SOLO, 0.25);
	CHECK_INT(t.n, 41, "the next block with both sides pairs");
}

static void test_low_noise_stops_at_minimum(void)
{
	enum placement planned[] = { PLACEMENT_NON_SIBLING, PLACEMENT_SOLO };
	struct precision_tracker t;
	precision_init(&t, 1, planned, 2);
	uint64_t seed = 11;
	long stopped_at = -1;
	for (long block = 1; block <= 50 && stopped_at < 0; block++) {
		feed(&t, 1, 1.05, 0.001, &seed);
		if (precision_reached(&t, block))
			stopped_at = block;
	}
	struct precision_interval iv;
	precision_interval(&t, &iv);
	CHECK_INT(stopped_at, PRECISION_MIN_BLOCKS,
	          "0.1% noise, ±1% asked: stops at the minimum of blocks, not before");
	CHECK(iv.half_pct < 0.2, "…where the interval is already ±%.3f%%", iv.half_pct);
	struct precision_tracker none;
	precision_init(&none, 0, planned, 2);
	feed(&none, 100, 1.05, 0.001, &seed);
	CHECK(!precision_reached(&none, 100), "without a target, it never stops the run");
}

static void test_noisy_data_needs_more(void)
{
	enum placement planned[] = { PLACEMENT_NON_SIBLING, PLACEMENT_SOLO };
	struct precision_tracker t;
	precision_init(&t, 2, planned, 2);
	uint64_t seed = 13;
	feed(&t, 20, 1.0, 0.10, &seed);
	struct precision_interval iv;
	precision_interval(&t, &iv);
	CHECK(!precision_reached(&t, 20), "10%% noise, ±2%% asked: 20 blocks are not enough (±%.2f%%)",
	      iv.half_pct);
	/* sd 0.1 per value: the log-ratio's sd is 0.1 * sqrt(2); ±2% needs about n = 2 (1.96 * 0.1
	 * / log 1.02)^2, 196 blocks. */
	double want = 2 * pow(1.959963984540054 * 0.10 / log(1.02), 2);
	CHECK(iv.blocks_needed > want / 2 && iv.blocks_needed < want * 2,
	      "the blocks it estimates it needs (%.0f) are about the theory's %.0f",
	      iv.blocks_needed, want);
	long more = (long)ceil(want * 1.5) - 20;
	feed(&t, more, 1.0, 0.10, &seed);
	precision_interval(&t, &iv);
	CHECK(precision_reached(&t, 20 + more), "…and 1.5 times that many reach it (±%.2f%%)",
	      iv.half_pct);
}

int main(void)
{
	test_comparison_choice();
	test_interval_matches_two_pass();
	test_low_noise_stops_at_minimum();
	test_noisy_data_needs_more();
	return test_done("test_precision");
}
