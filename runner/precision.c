#include "runner/precision.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

void precision_init(struct precision_tracker *t, double target_pct,
                    const enum placement *planned, int nplanned)
{
	memset(t, 0, sizeof *t);
	t->target_pct = target_pct;
	t->pending_block[0] = t->pending_block[1] = -1;
	bool have[PLACEMENT_COUNT] = { false };
	for (int i = 0; i < nplanned; i++)
		have[planned[i]] = true;
	struct placement_comparison c[PLACEMENT_COMPARISONS_MAX];
	size_t n = placement_comparisons(c, PLACEMENT_COMPARISONS_MAX);
	for (size_t i = 0; i < n && !t->have_comparison; i++) {
		enum placement a, b;
		if (placement_parse(c[i].a, &a) == 0 && placement_parse(c[i].b, &b) == 0 && have[a]
		    && have[b]) {
			t->a = a;
			t->b = b;
			t->have_comparison = true;
		}
	}
}

void precision_add(struct precision_tracker *t, long block, enum placement p, double utime_s)
{
	if (!t->have_comparison || (p != t->a && p != t->b) || block < 0 || !(utime_s > 0)
	    || !isfinite(utime_s))
		return;
	int side = p == t->a ? 0 : 1;
	t->pending_block[side] = block;
	t->pending_log[side] = log(utime_s);
	if (t->pending_block[0] != block || t->pending_block[1] != block)
		return;
	/* Both sides of this block: one paired log ratio. */
	double d = t->pending_log[0] - t->pending_log[1];
	t->pending_block[0] = t->pending_block[1] = -1;
	precision_add_log_ratio(t, d);
}

void precision_add_log_ratio(struct precision_tracker *t, double d)
{
	t->have_comparison = true;
	t->n++;
	double delta = d - t->mean;
	t->mean += delta / (double)t->n;
	t->m2 += delta * (d - t->mean);
}

void precision_interval(const struct precision_tracker *t, struct precision_interval *out)
{
	memset(out, 0, sizeof *out);
	out->ratio = out->low = out->high = out->half_pct = out->blocks_needed = NAN;
	out->blocks = t->n;
	if (!t->have_comparison || t->n < 3)
		return;
	double n = (double)t->n;
	double half = gsl_cdf_tdist_Pinv(0.975, n - 2) * sqrt(t->m2 / (n * (n - 2)));
	out->known = true;
	out->ratio = exp(t->mean);
	out->low = exp(t->mean - half);
	out->high = exp(t->mean + half);
	out->half_pct = expm1(half) * 100;
	/* The half-width shrinks about as 1/sqrt(blocks): the blocks that bring it to the target. */
	if (t->target_pct > 0) {
		double target_half = log1p(t->target_pct / 100);
		out->blocks_needed = n * (half / target_half) * (half / target_half);
	}
}

bool precision_reached(const struct precision_tracker *t, long measured_blocks)
{
	if (t->target_pct <= 0 || measured_blocks < PRECISION_MIN_BLOCKS
	    || t->n < PRECISION_MIN_BLOCKS)
		return false;
	struct precision_interval iv;
	precision_interval(t, &iv);
	/* Stopping a margin inside the target keeps analyze's interval, computed from the times as
	 * samples.csv stores them, within it too. */
	return iv.known && iv.half_pct <= t->target_pct * PRECISION_GRID_MARGIN;
}
