#include "runner/precision.h"

#include <math.h>
#include <string.h>

/* The 97.5th percentile of the standard normal: a 95% two-sided interval. */
#define Z_95 1.959963984540054

void precision_init(struct precision_tracker *t, double target_pct,
                    const enum placement *planned, int nplanned)
{
	memset(t, 0, sizeof *t);
	t->target_pct = target_pct;
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

void precision_add(struct precision_tracker *t, enum placement p, double utime_s)
{
	if ((int)p < 0 || p >= PLACEMENT_COUNT || !(utime_s > 0) || !isfinite(utime_s))
		return;
	struct precision_stats *s = &t->stats[p];
	double x = log(utime_s);
	s->n++;
	double delta = x - s->mean;
	s->mean += delta / (double)s->n;
	s->m2 += delta * (x - s->mean);
}

void precision_interval(const struct precision_tracker *t, struct precision_interval *out)
{
	memset(out, 0, sizeof *out);
	out->ratio = out->low = out->high = out->half_pct = out->blocks_needed = NAN;
	if (!t->have_comparison)
		return;
	const struct precision_stats *a = &t->stats[t->a], *b = &t->stats[t->b];
	if (a->n < 2 || b->n < 2)
		return;
	double var = a->m2 / (double)(a->n - 1) / (double)a->n
	             + b->m2 / (double)(b->n - 1) / (double)b->n;
	double diff = a->mean - b->mean;
	double half = Z_95 * sqrt(var);
	out->known = true;
	out->ratio = exp(diff);
	out->low = exp(diff - half);
	out->high = exp(diff + half);
	out->half_pct = (exp(half) - 1) * 100;
	/* The half-width shrinks as 1/sqrt(blocks): the blocks that bring it to the target. */
	if (t->target_pct > 0) {
		double target_half = log1p(t->target_pct / 100);
		long blocks = a->n < b->n ? a->n : b->n;
		out->blocks_needed = (double)blocks * (half / target_half) * (half / target_half);
	}
}

bool precision_reached(const struct precision_tracker *t, long measured_blocks)
{
	if (t->target_pct <= 0 || measured_blocks < PRECISION_MIN_BLOCKS)
		return false;
	struct precision_interval iv;
	precision_interval(t, &iv);
	return iv.known && iv.half_pct <= t->target_pct;
}
