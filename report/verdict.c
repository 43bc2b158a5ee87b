/*
 * verdict.c — the one sentence that states a comparison's answer (verdict.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "report/format.h"
#include "report/verdict.h"

static double half_width(const double ci[2])
{
	return fabs(ci[1] - ci[0]) / 2;
}

/* A probability as the sentence prints it: "n/a" where the grid could give none (data at the
 * edge of what a double holds). */
static const char *prob_text(char buf[16], double p)
{
	if (isnan(p))
		snprintf(buf, 16, "n/a");
	else
		snprintf(buf, 16, "%.2f", p);
	return buf;
}

/* Too few samples (or a grid at its bound): the posterior's means are the grid's artefacts, so
 * no ratio or difference is quoted as the answer. */
static char *unsettled_sentence(const struct analysis_comparison *c, const struct verdict_words *w)
{
	char p[16];
	if (c->design == ANALYSIS_DESIGN_PAIRED) {
		/* The paired answer rests on the blocks both sides ran in, not on each side's count:
		 * 30 trials a side can still be 4 usable pairs. */
		bool few = c->blocks_paired < ANALYSIS_SETTLED_MIN_N;
		return text_printf(
			"Not enough data to say: %s%s cannot be told apart from %s with %s paired blocks "
			"(%zu paired, %zu dropped): %s; run more blocks (10 or more paired); P(slower) = "
			"%s%s", w->where, w->a, c->b.name, few ? "so few" : "these", c->blocks_paired,
			c->blocks_dropped,
			few ? "the interval is unbounded at this number of blocks"
			    : "the posterior still reaches the edge of the widest grid allowed, so the "
			      "interval is unbounded here", prob_text(p, c->p_a_gt_b), w->note);
	}
	bool few = c->a.n < ANALYSIS_SETTLED_MIN_N || c->b.n < ANALYSIS_SETTLED_MIN_N;
	return text_printf(
		"Not enough data to say: %s%s cannot be told apart from %s with %s %s (n = %zu and "
		"%zu): %s; %s (10 or more per %s); P(slower) = %s%s", w->where, w->a, c->b.name,
		few ? "so few" : "these", w->samples, c->a.n, c->b.n,
		few ? "the interval is unbounded at this sample size"
		    : "the posterior still reaches the edge of the widest grid allowed, so the "
		      "interval is unbounded here", w->more, w->per, prob_text(p, c->p_a_gt_b), w->note);
}

/* The effect as a factor: "makes X 2.69× slower than B (95% CI ...)" ("is 2.69× slower" of A
 * itself), a speed-up as its own factor, an undecided one as it is ("leaves X at 1.02× its B
 * time", "takes 1.02× B's time"). */
static char *ratio_effect(const struct analysis_comparison *c, const struct verdict_words *w,
                          bool decided, bool slower)
{
	struct format_ring ns = { .next = 0 };
	double m = c->ratio_mean, lo = c->ratio_ci[0], hi = c->ratio_ci[1];
	if (decided && !slower) {
		/* A speed-up reads best as its own factor: 1/ratio, interval reversed. */
		m = 1 / c->ratio_mean;
		lo = 1 / c->ratio_ci[1];
		hi = 1 / c->ratio_ci[0];
	}
	double res = (hi - lo) / 2;
	const char *ms = format_num(&ns, m, res), *los = format_num(&ns, lo, res),
	           *his = format_num(&ns, hi, res);
	if (decided && w->subject)
		return text_printf("makes %s %s× %s than %s (95%% CI %s–%s)", w->subject, ms,
		                   slower ? "slower" : "faster", c->b.name, los, his);
	if (decided)
		return text_printf("is %s× %s than %s (95%% CI %s–%s)", ms,
		                   slower ? "slower" : "faster", c->b.name, los, his);
	if (w->subject)
		return text_printf("leaves %s at %s× its %s time (95%% CI %s–%s)", w->subject, ms,
		                   c->b.name, los, his);
	return text_printf("takes %s× the time of %s (95%% CI %s–%s)", ms, c->b.name, los, his);
}

/* The effect as a difference in seconds, where no ratio can be given. */
static char *difference_effect(const struct analysis_comparison *c, const struct verdict_words *w,
                               bool decided, bool slower)
{
	struct format_ring ns = { .next = 0 };
	double res = half_width(c->diff_ci);
	double lo = slower ? c->diff_ci[0] : -c->diff_ci[1];
	double hi = slower ? c->diff_ci[1] : -c->diff_ci[0];
	char *subject = w->subject ? text_printf("makes %s", w->subject) : strdup("is");
	char *s = NULL;
	if (!subject)
		return NULL;
	if (decided) /* "to" beside a negative bound: a dash would read as a minus */
		s = text_printf("%s %s s %s than %s (95%% CI %s%s%s s)", subject,
		                format_num(&ns, fabs(c->diff_mean), res), slower ? "slower" : "faster",
		                c->b.name, format_num(&ns, lo, res), lo < 0 || hi < 0 ? " to " : "–",
		                format_num(&ns, hi, res));
	else
		s = text_printf("differs from %s by %s s%s%s (95%% CI %s to %s s)", c->b.name,
		                format_num(&ns, c->diff_mean, res), w->subject ? " for " : "",
		                w->subject ? w->subject : "", format_num(&ns, c->diff_ci[0], res),
		                format_num(&ns, c->diff_ci[1], res));
	free(subject);
	return s;
}

/* The probability the verdict rests on: P(slower), or with a ROPE the ROPE's. */
static char *probability_clause(const struct analysis_comparison *c, double rope_pct)
{
	char p1[16], p2[16];
	if (isnan(rope_pct) || isnan(c->p_rope))
		return text_printf("P(slower) = %s", prob_text(p1, c->p_a_gt_b));
	switch (c->verdict) {
	case ANALYSIS_VERDICT_SLOWER:
		return text_printf("P(slower by more than %g%%) = %s", rope_pct,
		                   prob_text(p1, c->p_rope_above));
	case ANALYSIS_VERDICT_FASTER:
		return text_printf("P(faster by more than %g%%) = %s", rope_pct,
		                   prob_text(p1, c->p_rope_below));
	case ANALYSIS_VERDICT_SAME:
	case ANALYSIS_VERDICT_UNDECIDED:
		break;
	}
	char rope[48];
	return text_printf("P(within %s) = %s, P(slower) = %s", format_rope(rope, sizeof rope, rope_pct),
	                   prob_text(p1, c->p_rope), prob_text(p2, c->p_a_gt_b));
}

char *verdict_sentence(const struct analysis_comparison *c, double rope_pct,
                       const struct verdict_words *w)
{
	char *s = NULL;
	if (!analysis_comparison_settled(c)) {
		s = unsettled_sentence(c, w);
	} else {
		/* "slower"/"faster" only when the analysis says so; otherwise the factor is given as
		 * it is, so that an undecided answer never reads as a claim. */
		bool decided = c->verdict == ANALYSIS_VERDICT_SLOWER
		               || c->verdict == ANALYSIS_VERDICT_FASTER;
		bool slower = c->verdict == ANALYSIS_VERDICT_SLOWER;
		bool ratio = isfinite(c->ratio_mean) && isfinite(c->ratio_ci[0])
		             && isfinite(c->ratio_ci[1]) && c->ratio_ci[0] > 0;
		char *effect = ratio ? ratio_effect(c, w, decided, slower)
		                     : difference_effect(c, w, decided, slower);
		char *p = probability_clause(c, rope_pct);
		char design[96];
		format_design(design, sizeof design, c);
		const char *tail = c->verdict == ANALYSIS_VERDICT_UNDECIDED ? " — not enough data to say"
		                   : c->verdict == ANALYSIS_VERDICT_SAME ? " — practically the same" : "";
		if (effect && p)
			s = text_printf("%s%s %s; %s, %s%s%s", w->where, w->a, effect, p, design, tail,
			                w->note);
		free(effect);
		free(p);
	}
	if (s && w->capitalise && s[0] >= 'a' && s[0] <= 'z')
		s[0] = (char)(s[0] - 'a' + 'A');
	return s;
}
