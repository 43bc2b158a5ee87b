/*
 * words.c — the words and numbers of every report (words.h).
 */
#include "report/words.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/matrix.h"
#include "common/alloc.h"
#include "common/cpu_model.h"
#include "common/folder.h"
#include "common/placements.h"

/* ---- numbers ------------------------------------------------------------------------------ */

const char *format_number(char *buf, size_t size, double v, double resolution)
{
	if (isnan(v)) {
		snprintf(buf, size, "n/a");
		return buf;
	}
	if (isinf(v)) {
		snprintf(buf, size, v > 0 ? "inf" : "-inf");
		return buf;
	}
	/* No resolution, or one below a double's own noise (an interval of zero width, as a drift
	 * fitted to perfectly linear data has, is 1e-18 wide after rounding): three or four
	 * significant digits, not twelve decimals of nothing. */
	if (!(resolution > 0) || !isfinite(resolution) || resolution < fabs(v) * 1e-9)
		resolution = v != 0 ? fabs(v) * 1e-3 : 1e-6;
	/* In double and clamped before the conversion to int: for a subnormal v the fallback
	 * resolution is 0 and its logarithm infinite. */
	double wanted = -floor(log10(resolution));
	/* At least three significant digits, so a narrow interval never prints as one number. */
	if (v != 0)
		wanted = fmax(wanted, 2 - floor(log10(fabs(v))));
	int decimals = wanted < 0 ? 0 : !(wanted < 12) ? 12 : (int)wanted;
	if (v != 0 && (fabs(v) < 1e-4 || fabs(v) >= 1e9))
		snprintf(buf, size, "%.3e", v);
	else
		snprintf(buf, size, "%.*f", decimals, v);
	if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
		memmove(buf, buf + 1, strlen(buf)); /* "-0.00" reads as a sign that is not there */
	return buf;
}

const char *format_num(struct format_ring *ring, double v, double resolution)
{
	char *b = ring->buf[ring->next++ % FORMAT_RING_SIZE];
	return format_number(b, sizeof ring->buf[0], v, resolution);
}

const char *format_text(struct format_ring *ring, const char *fmt, ...)
{
	char *b = ring->buf[ring->next++ % FORMAT_RING_SIZE];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b, sizeof ring->buf[0], fmt, ap);
	va_end(ap);
	return b;
}

/* The minus as the minus sign (U+2212), which beside " to " reads as a sign, never as a dash. */
const char *format_signed(struct format_ring *ring, double v, double resolution)
{
	char n[40];
	format_number(n, sizeof n, v, resolution);
	return format_text(ring, "%s%s", n[0] == '-' ? "−" : "", n[0] == '-' ? n + 1 : n);
}

/* Both bounds by format_signed: with neither negative, that is format_number's text. */
const char *format_ci(struct format_ring *ring, const double ci[2], double res)
{
	return format_text(ring, "%s%s%s", format_signed(ring, ci[0], res),
	                   ci[0] < 0 || ci[1] < 0 ? " to " : "–", format_signed(ring, ci[1], res));
}

/* A ratio's bounds are above 0: format_ci writes them as format_number does. */
const char *format_ratio(struct format_ring *ring, double mean, const double ci[2])
{
	double res = half_width(ci);
	return format_text(ring, "%s× (%s)", format_num(ring, mean, res), format_ci(ring, ci, res));
}

double half_width(const double ci[2])
{
	return fabs(ci[1] - ci[0]) / 2;
}

double group_mean(const struct analysis_group *g)
{
	double sum = 0;
	for (size_t k = 0; k < g->n; k++)
		sum += g->values_s[k];
	return g->n ? sum / (double)g->n : NAN;
}

json_t *json_number_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *json_strings(char *const *list, size_t count)
{
	json_t *a = json_array();
	for (size_t i = 0; i < count; i++)
		json_array_append_new(a, json_string(list[i]));
	return a;
}

json_t *json_interval(const double ci[2])
{
	return json_pack("[o, o]", json_number_or_null(ci[0]), json_number_or_null(ci[1]));
}

/* ---- names -------------------------------------------------------------------------------- */

const char *verdict_name(enum analysis_verdict v)
{
	static const char *const names[] = {
		[ANALYSIS_VERDICT_SLOWER] = "slower", [ANALYSIS_VERDICT_FASTER] = "faster",
		[ANALYSIS_VERDICT_SAME] = "practically the same",
		[ANALYSIS_VERDICT_UNDECIDED] = "not enough data to say",
	};
	return names[v];
}

const char *design_name(enum analysis_design d)
{
	return d == ANALYSIS_DESIGN_PAIRED ? "paired" : "unpaired";
}

const char *unit_name(enum analysis_unit u)
{
	return u == ANALYSIS_UNIT_PROCESS ? "process" : "trial";
}

const char *metric_name(enum analysis_metric m)
{
	return m == ANALYSIS_METRIC_WALL ? "wall time" : "user CPU time";
}

/* What a placement's CPUs are, for an unplanned comparison's words: "one CPU alone" (solo),
 * "one CPU" (same-pu), "two siblings of one core", "two cores", "two packages"; the name itself
 * for another. */
static const char *placement_span(const char *name)
{
	static const char *const spans[PLACEMENT_COUNT] = {
		[PLACEMENT_SOLO] = "one CPU alone", [PLACEMENT_SAME_PU] = "one CPU",
		[PLACEMENT_SIBLING] = "two siblings of one core", [PLACEMENT_NON_SIBLING] = "two cores",
		[PLACEMENT_CROSS_PACKAGE] = "two packages",
	};
	enum placement p;
	return placement_parse(name, &p) == 0 && spans[p] ? spans[p] : name;
}

const char *unplanned_words(char *buf, size_t size, const struct analysis_comparison *c)
{
	snprintf(buf, size, "%s against %s", placement_span(c->a.name), placement_span(c->b.name));
	return buf;
}

bool comparison_neighbour_speedup(const struct analysis_comparison *c, bool one_process)
{
	return c->kind == COMPARISON_CONTENTION && !one_process
	       && c->verdict == ANALYSIS_VERDICT_FASTER;
}

const char *format_rope(struct format_ring *ring, double rope_pct)
{
	double hi = 1 + rope_pct / 100;
	return format_text(ring, "%.3g–%.3g×", 1 / hi, hi);
}

const char *format_design(struct format_ring *ring, const struct analysis_comparison *c)
{
	char dropped[96] = "";
	if (c->design != ANALYSIS_DESIGN_PAIRED)
		return "unpaired (independent groups)";
	if (c->blocks_zero)
		snprintf(dropped, sizeof dropped, "; %zu dropped, %zu of them for a time of 0 s",
		         c->blocks_dropped, c->blocks_zero);
	else if (c->blocks_dropped)
		snprintf(dropped, sizeof dropped, "; %zu dropped", c->blocks_dropped);
	return format_text(ring, "paired by block (%zu block%s%s)", c->blocks_paired,
	                   c->blocks_paired == 1 ? "" : "s", dropped);
}

/* ---- the verdict sentence ------------------------------------------------------------------ */

/* A probability as the sentence prints it: "n/a" where the grid could give none (data at the
 * edge of what a double holds). */
static const char *prob_text(struct format_ring *ring, double p)
{
	return isnan(p) ? "n/a" : format_text(ring, "%.2f", p);
}

/* Too few samples (or a grid at its bound): the posterior's means are the grid's artefacts, so
 * no ratio or difference is quoted as the answer. */
static char *unsettled_sentence(const struct analysis_comparison *c, const struct verdict_words *w)
{
	struct format_ring ns = { .next = 0 };
	const struct analysis_dataset *data = w->data;
	bool paired = c->design == ANALYSIS_DESIGN_PAIRED;
	/* The paired answer rests on the blocks both sides ran in, not on each side's count:
	 * 30 trials a side can still be 4 usable pairs. */
	bool few = paired ? c->blocks_paired < ANALYSIS_SETTLED_MIN_N
	                  : c->a.n < ANALYSIS_SETTLED_MIN_N || c->b.n < ANALYSIS_SETTLED_MIN_N;
	/* What was measured, by the dataset's source: a folder's trials (samples with --unit
	 * process), hyperfine's runs of a command, a file's numbers. */
	const char *samples = data->from_folder && data->unit == ANALYSIS_UNIT_TRIAL ? "trials"
	                                                                               : "samples";
	const char *collect = data->from_folder ? "run more trials" : "collect more samples";
	const char *per = data->from_folder ? "placement" : data->from_hyperfine ? "command" : "file";
	const char *what = paired ? format_text(&ns, "paired blocks (%zu paired, %zu dropped)",
	                                        c->blocks_paired, c->blocks_dropped)
	                          : format_text(&ns, "%s (n = %zu and %zu)", samples, c->a.n, c->b.n);
	const char *more = paired ? "run more blocks (10 or more paired)"
	                          : format_text(&ns, "%s (10 or more per %s)", collect, per);
	return xasprintf("Not enough data to say: %s%s cannot be told apart from %s with %s %s: %s; "
	                 "%s; P(slower) = %s%s", w->where, w->a, c->b.name, few ? "so few" : "these",
	                 what, !few ? "the posterior still reaches the edge of the widest grid "
	                              "allowed, so the interval is unbounded here"
	                 : paired ? "the interval is unbounded at this number of blocks"
	                 : "the interval is unbounded at this sample size", more,
	                 prob_text(&ns, c->p_a_gt_b), w->note);
}

/* The factor an answer quotes, its interval in ci: the ratio as it is, or for a decided
 * speed-up its own factor (1/ratio, the interval reversed). */
static double effect_factor(const struct analysis_comparison *c, bool speedup, double ci[2])
{
	ci[0] = speedup ? 1 / c->ratio_ci[1] : c->ratio_ci[0];
	ci[1] = speedup ? 1 / c->ratio_ci[0] : c->ratio_ci[1];
	return speedup ? 1 / c->ratio_mean : c->ratio_mean;
}

static bool has_ratio(const struct analysis_comparison *c)
{
	return isfinite(c->ratio_mean) && isfinite(c->ratio_ci[0]) && isfinite(c->ratio_ci[1])
	       && c->ratio_ci[0] > 0;
}

bool effect_decided(const struct analysis_comparison *c)
{
	return analysis_comparison_settled(c) && has_ratio(c)
	       && (c->verdict == ANALYSIS_VERDICT_SLOWER || c->verdict == ANALYSIS_VERDICT_FASTER);
}

/* Its bounds are a ratio's, above 0: format_ci writes them as "lo–hi". */
const char *format_effect(struct format_ring *ring, const struct analysis_comparison *c)
{
	if (!analysis_comparison_settled(c) || !has_ratio(c))
		return "n/a";
	bool slower = c->verdict == ANALYSIS_VERDICT_SLOWER;
	bool decided = effect_decided(c);
	double ci[2], m = effect_factor(c, decided && !slower, ci), res = (ci[1] - ci[0]) / 2;
	return format_text(ring, "%s×%s (%s)", format_num(ring, m, res),
	                   !decided ? "" : slower ? " slower" : " faster", format_ci(ring, ci, res));
}

/* The effect as a factor: "makes X 2.69× slower than B (95% CI ...)" ("is 2.69× slower" of A
 * itself), a speed-up as its own factor, an undecided one as it is ("leaves X at 1.02× its B
 * time", "takes 1.02× B's time"); where no ratio can be given, as a difference in seconds. */
static char *effect_clause(const struct analysis_comparison *c, const struct verdict_words *w)
{
	/* "slower"/"faster" only when the analysis says so; otherwise the factor is given as it is,
	 * so that an undecided answer never reads as a claim. */
	bool slower = c->verdict == ANALYSIS_VERDICT_SLOWER;
	bool decided = slower || c->verdict == ANALYSIS_VERDICT_FASTER;
	struct format_ring ns = { .next = 0 };
	const char *amount, *ci, *subject = w->subject ? w->subject : "";
	bool ratio = has_ratio(c);
	if (ratio) {
		double f[2], m = effect_factor(c, decided && !slower, f), res = (f[1] - f[0]) / 2;
		amount = format_text(&ns, "%s×", format_num(&ns, m, res));
		ci = format_ci(&ns, f, res); /* a ratio's bounds: above 0, "lo–hi" */
	} else { /* "to" beside a negative bound: a dash would read as a minus */
		double res = half_width(c->diff_ci);
		double flipped[2] = { slower ? c->diff_ci[0] : -c->diff_ci[1],
		                      slower ? c->diff_ci[1] : -c->diff_ci[0] };
		amount = format_text(&ns, "%s s", format_num(&ns, decided ? fabs(c->diff_mean)
		                                                          : c->diff_mean, res));
		ci = format_text(&ns, "%s s", format_ci(&ns, decided ? flipped : c->diff_ci, res));
	}
	if (decided)
		return xasprintf("%s%s %s %s than %s (95%% CI %s)", w->subject ? "makes " : "is",
		                 subject, amount, slower ? "slower" : "faster", c->b.name, ci);
	if (!ratio)
		return xasprintf("differs from %s by %s%s%s (95%% CI %s)", c->b.name, amount,
		                 w->subject ? " for " : "", subject, ci);
	if (w->subject)
		return xasprintf("leaves %s at %s its %s time (95%% CI %s)", subject, amount, c->b.name,
		                 ci);
	return xasprintf("takes %s the time of %s (95%% CI %s)", amount, c->b.name, ci);
}

/* The probability the verdict rests on: P(slower), or with a ROPE the ROPE's. */
static char *probability_clause(const struct analysis_comparison *c, double rope_pct)
{
	struct format_ring ns = { .next = 0 };
	if (isnan(rope_pct) || isnan(c->p_rope))
		return xasprintf("P(slower) = %s", prob_text(&ns, c->p_a_gt_b));
	bool slower = c->verdict == ANALYSIS_VERDICT_SLOWER;
	if (slower || c->verdict == ANALYSIS_VERDICT_FASTER)
		return xasprintf("P(%s by more than %g%%) = %s", slower ? "slower" : "faster", rope_pct,
		                 prob_text(&ns, slower ? c->p_rope_above : c->p_rope_below));
	return xasprintf("P(within %s) = %s, P(slower) = %s", format_rope(&ns, rope_pct),
	                 prob_text(&ns, c->p_rope), prob_text(&ns, c->p_a_gt_b));
}

/* The conditions beside a settled verdict (words.h), each a clause starting "; ", or "". */
static char *conditions_clause(const struct analysis_comparison *c, const struct verdict_words *w)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = xmemstream(&text, &len);
	char words[160];
	if (c->kind == COMPARISON_UNPLANNED)
		fprintf(out, "; %s: no planned comparison joins %s and %s, so they are compared "
		        "directly", unplanned_words(words, sizeof words, c), c->a.name, c->b.name);
	bool decided = c->verdict == ANALYSIS_VERDICT_SLOWER || c->verdict == ANALYSIS_VERDICT_FASTER;
	if (analysis_under_load(c))
		fprintf(out, "; measured under load: %zu of %zu trials shared their CPUs, so the %s "
		        "may be the other work's as much as the placement's", c->shared_trials,
		        c->shared_known, decided ? "verdict" : "ratio");
	if (comparison_neighbour_speedup(c, w->data->one_process))
		fprintf(out, "; a placement that adds a busy neighbour cannot honestly make the "
		        "workload faster than %s alone: a sign of interference from outside the "
		        "experiment; leave out the trials that shared their CPUs (--exclude-contaminated), "
		        "measure on a quieter machine, or keep other work off these CPUs (isolcpus)",
		        c->b.name);
	if (c->halves_disagree) {
		struct format_ring ns = { .next = 0 };
		double r0 = half_width(c->half_ratio_ci[0]), r1 = half_width(c->half_ratio_ci[1]);
		fprintf(out, "; doubtful: the ratio itself moved during the run, %s× (95%% CI %s) in the "
		        "first half of the blocks and %s× (%s) in the second, so the machine's speed "
		        "changed unequally for %s and %s and pairing by block could not cancel it",
		        format_num(&ns, c->half_ratio[0], r0), format_ci(&ns, c->half_ratio_ci[0], r0),
		        format_num(&ns, c->half_ratio[1], r1), format_ci(&ns, c->half_ratio_ci[1], r1),
		        c->a.name, c->b.name);
	}
	return xmemstream_close(out, &text);
}

/* The comparison's times of 0 s, left out, as a clause ("; 3 of 40 times of sibling were 0 s
 * ..."), then note: a new string. */
static char *zero_clause(const struct analysis_comparison *c, const char *note)
{
	if (!c->zero_a && !c->zero_b)
		return xstrdup(note);
	char a[160] = "", b[160] = "";
	if (c->zero_a)
		snprintf(a, sizeof a, "%zu of %zu times of %s", c->zero_a, c->a.n + c->zero_a,
		         c->a.name);
	if (c->zero_b)
		snprintf(b, sizeof b, "%s%zu of %zu times of %s", c->zero_a ? " and " : "", c->zero_b,
		         c->b.n + c->zero_b, c->b.name);
	return xasprintf("; %s%s measured 0 s, below the clock's resolution (user time is counted "
	                 "in clock ticks), and %s left out%s", a, b,
	                 c->zero_a + c->zero_b == 1 ? "is" : "are", note);
}

char *verdict_sentence(const struct analysis_comparison *c, double rope_pct,
                       const struct verdict_words *w)
{
	char *s, *note = zero_clause(c, w->note);
	struct verdict_words qualified = *w;
	qualified.note = note;
	w = &qualified;
	if (!analysis_comparison_settled(c)) {
		s = unsettled_sentence(c, w);
	} else {
		char *effect = effect_clause(c, w);
		char *p = probability_clause(c, rope_pct);
		struct format_ring ns = { .next = 0 };
		const char *tail = c->verdict == ANALYSIS_VERDICT_UNDECIDED ? " — not enough data to say"
		                   : c->verdict == ANALYSIS_VERDICT_SAME ? " — practically the same" : "";
		s = xasprintf("%s%s %s; %s, %s%s%s", w->where, w->a, effect, p, format_design(&ns, c),
		              tail, w->note);
		free(effect);
		free(p);
	}
	char *conditions = conditions_clause(c, w);
	append_words(&s, "%s", conditions);
	free(conditions);
	if (w->capitalise && s[0] >= 'a' && s[0] <= 'z')
		s[0] = (char)(s[0] - 'a' + 'A');
	free(note);
	return s;
}

/* ---- what SMT gives one core ---------------------------------------------------------------- */

char *smt_yield_sentence(const struct analysis_smt_yield *y, const char *workload)
{
	if (!y->known)
		return NULL;
	struct format_ring ns = { .next = 0 };
	double res = half_width(y->ci);
	char what[200] = "";
	if (workload)
		snprintf(what, sizeof what, " for `%s`", workload);
	char verdict[300];
	if (!y->settled)
		snprintf(verdict, sizeof verdict, "too few samples to say what SMT is worth%s", what);
	else if (y->ci[0] > 1)
		snprintf(verdict, sizeof verdict, "SMT on is worth +%.0f%% throughput%s",
		         (y->mean - 1) * 100, what);
	else if (y->ci[1] < 1)
		snprintf(verdict, sizeof verdict, "SMT on costs %.0f%% throughput%s",
		         (1 - y->mean) * 100, what);
	else
		snprintf(verdict, sizeof verdict, "SMT neither clearly adds nor costs throughput%s "
		         "(the interval includes 1×)", what);
	bool one = y->one_process;
	return xasprintf("With SMT this core did %s× the work of one %s alone (95%% CI %s–%s): "
	                 "%s (%s%s%s, %s)", format_num(&ns, y->mean, res), one ? "PU" : "copy",
	                 format_num(&ns, y->ci[0], res), format_num(&ns, y->ci[1], res), verdict,
	                 one ? "the one process's " : "2 × ", y->baseline,
	                 one ? " wall time / its sibling wall time" : " time / sibling time per copy",
	                 y->design == ANALYSIS_DESIGN_PAIRED ? "paired by block" : "unpaired");
}


/* ---- what is wrong with a placement's samples ----------------------------------------------- */

/* Each problem's sentence of group d, or NULL when d does not have it. */
static char *drift_of(const struct analysis_group_diagnostics *d, const char *unit)
{
	if (!isfinite(d->drift_slope_ci[0]) || !(d->drift_slope_ci[0] > 0 || d->drift_slope_ci[1] < 0))
		return NULL;
	struct format_ring ns = { .next = 0 };
	double res = half_width(d->drift_slope_ci);
	double hres = fabs(d->second_half_mean_s - d->first_half_mean_s) / 4;
	return xasprintf("drift in %s: %s s per %s (95%% CI %s to %s); first half %s s, second half "
	                 "%s s", d->group->name, format_num(&ns, d->drift_slope_s, res), unit,
	                 format_num(&ns, d->drift_slope_ci[0], res),
	                 format_num(&ns, d->drift_slope_ci[1], res),
	                 format_num(&ns, d->first_half_mean_s, hres),
	                 format_num(&ns, d->second_half_mean_s, hres));
}

/* Plain files name their outliers by line (where a person finds them), folders by trial. */
static char *outliers_of(const struct analysis_group_diagnostics *d, const char *unit)
{
	if (!d->outlier_count)
		return NULL;
	const long *at = d->outlier_lines ? d->outlier_lines : d->outlier_trials;
	char list[160] = "";
	size_t used = 0;
	for (size_t k = 0; k < d->outlier_count && k < 8 && used < sizeof list; k++)
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%ld", k ? ", " : "", at[k]);
	return xasprintf("%zu outlier(s) in %s (robust |z| > %g; kept, not dropped): %s %s%s",
	                 d->outlier_count, d->group->name, ANALYSIS_OUTLIER_Z,
	                 d->outlier_lines ? "line" : strcmp(unit, "sample") ? "trial" : "sample",
	                 list, d->outlier_count > 8 ? ", ..." : "");
}

static char *poor_overlap_of(const struct analysis_group_diagnostics *d)
{
	const struct analysis_group *g = d->group;
	if (!g->poor_overlap_trials)
		return NULL;
	bool measured = g->overlap_of_measured;
	return xasprintf("poor overlap in %s: in %zu of %zu trials %s %g%% of %s", g->name,
	                 g->poor_overlap_trials, g->overlap_known, measured
	                 ? "the workload beside (role b) ended before the measured one had run"
	                 : "the two processes ran together less than", 100 * ANALYSIS_POOR_OVERLAP,
	                 measured ? "its time, leaving it alone for the rest" : "the time");
}

/* Not for a placement whose processes take turns on one PU by design (same-pu). */
static char *wall_above_cpu_of(const struct analysis_group_diagnostics *d)
{
	const struct analysis_group *g = d->group;
	if (!g->wall_above_cpu_trials || placement_info_time_shared(g->name))
		return NULL;
	return xasprintf("wall time above %gx CPU time in %zu of %zu %s trials: the processes "
	                 "waited (other load on the machine?)", ANALYSIS_WALL_ABOVE_CPU,
	                 g->wall_above_cpu_trials, g->wall_known, g->name);
}

/* Times of 0 s, and user times under one clock tick: what the clock cannot resolve. */
static char *short_times_of(const struct analysis_group_diagnostics *d, const char *unit)
{
	if (!d->zero_samples && !d->below_tick_samples)
		return NULL;
	char zero[200] = "", below[240] = "";
	if (d->zero_samples)
		snprintf(zero, sizeof zero, "%zu %s 0 s (a comparison leaves them out, and refuses "
		         "when more than %g%% of a side's are 0)", d->zero_samples,
		         d->zero_samples == 1 ? "is" : "are", ANALYSIS_ZERO_SHARE_MAX * 100);
	if (d->below_tick_samples)
		snprintf(below, sizeof below, "%s%zu %s above 0 but under one clock tick (%g s): user "
		         "time is counted in clock ticks, so times this short are coarse",
		         d->zero_samples ? "; " : "", d->below_tick_samples,
		         d->below_tick_samples == 1 ? "is" : "are", ANALYSIS_USER_TICK_S);
	return xasprintf("times below the clock's resolution in %s: of its %zu %ss, %s%s; give each "
	                 "%s more work (%g s or more)", d->group->name, d->group->n, unit, zero, below,
	                 unit, SAMPLES_USER_TICKS_WANTED * ANALYSIS_USER_TICK_S);
}

void group_problems(const struct analysis_group_diagnostics *d, const char *unit, char ***list,
                    size_t *count)
{
	/* Each problem a group can have, in the order shown (NULL: it has not); a new one is one
	 * entry more here. */
	char *found[] = { short_times_of(d, unit), drift_of(d, unit), outliers_of(d, unit),
	                  poor_overlap_of(d), wall_above_cpu_of(d) };
	for (size_t k = 0; k < sizeof found / sizeof found[0]; k++)
		if (found[k])
			strings_push(list, count, found[k]);
}

/* ---- the machine ----------------------------------------------------------------------------- */

const json_t *meta_placement(const json_t *meta, const char *name)
{
	json_t *all = json_object_get(meta, "placements"), *entry = NULL, *e;
	size_t k;
	if (json_is_object(all) && name)
		entry = json_object_get(all, name);
	json_array_foreach(all, k, e) {
		const char *n = json_string_value(json_object_get(e, "name"));
		if (n && name && !strcmp(n, name))
			entry = e;
	}
	return entry;
}

char *machine_sentence(const json_t *meta)
{
	if (!meta)
		return xstrdup("not recorded (no readable meta.json)");
	char *cpu = cpu_model_of_meta(meta), *s = NULL;
	size_t len = 0;
	FILE *out = xmemstream(&s, &len);
	const char *host = json_string_value(json_object_get(meta, "host"));
	const char *smt = json_string_value(json_object_get(meta, "smt_control"));
	const char *hv = json_string_value(json_object_get(meta, "hypervisor"));
	const char *source = json_string_value(json_object_get(meta, "source"));
	json_t *topo = json_object_get(meta, "topology");
	bool named = cpu && *cpu;
	fputs(named ? cpu : "CPU model not recorded", out);
	if (host)
		fprintf(out, " on host %s", host);
	if (json_is_object(topo))
		fprintf(out, ": %lld cores, %lld logical CPUs, %lld thread(s) per core, %lld package(s)",
		        (long long)json_integer_value(json_object_get(topo, "cores")),
		        (long long)json_integer_value(json_object_get(topo, "pus")),
		        (long long)json_integer_value(json_object_get(topo, "max_threads_per_core")),
		        (long long)json_integer_value(json_object_get(topo, "packages")));
	if (json_is_true(json_object_get(meta, "virtual_machine")))
		fprintf(out, "; virtual machine%s%s%s", hv ? " (" : "", hv ? hv : "", hv ? ")" : "");
	if (smt)
		fprintf(out, "; SMT control: %s", smt);
	if (!named && !host && source)
		fprintf(out, " (data from: %s)", source);
	free(cpu);
	return xmemstream_close(out, &s);
}

/* ---- why a run stopped ---------------------------------------------------------------------- */

char *incomplete_sentence(const struct results_folder *f)
{
	if (f->state != FOLDER_KILLED && f->state != FOLDER_INTERRUPTED && f->state != FOLDER_RUNNING)
		return NULL;
	const char *command = f->kind == FOLDER_MATRIX ? "matrix" : "run";
	char runner[300] = "", done[64] = "";
	if (f->runner_pid)
		snprintf(runner, sizeof runner, " (pid %ld on %s)", f->runner_pid, f->runner_host);
	/* samples.csv's count: meta.json's trials_done stays where the killed segment began. */
	json_t *trials = json_object_get(f->meta, "trials_done");
	long written = f->state == FOLDER_RUNNING ? -1 : folder_trials_written(f);
	if (written >= 0)
		snprintf(done, sizeof done, " %ld", written);
	else if (json_is_integer(trials))
		snprintf(done, sizeof done, " %lld", (long long)json_integer_value(trials));
	bool killed = f->state == FOLDER_KILLED;
	if (f->state != FOLDER_RUNNING)
		return xasprintf("Incomplete: %s%s%s; this answer is of the%s trials written; continue "
		                 "with smtbench %s --resume %s.", killed ? "killed (meta.json says "
		                 "running, but its runner" : "interrupted", killed ? runner : "",
		                 killed ? " is gone: killed, or the machine restarted)" : "", done,
		                 command, f->shown_dir);
	if (f->runner_pid)
		return xasprintf("Incomplete: still running (its runner%s is writing more trials); "
		                 "this answer is of those written so far.", runner);
	return xasprintf("Incomplete: meta.json says running, and whether its runner is alive "
	                 "cannot be seen (the folder does not record its pid); this answer is of "
	                 "the trials written so far; if its runner is gone, continue with "
	                 "smtbench %s --resume %s.", command, f->shown_dir);
}

char *stop_sentence(const struct results_folder *f)
{
	const char *command = f->kind == FOLDER_MATRIX ? "matrix" : "run";
	/* The run still being written, or its runner gone (common/folder.h's state). */
	if (f->state == FOLDER_RUNNING && f->runner_pid)
		return xasprintf("Still running: its runner (pid %ld on %s) is writing more trials; "
		                 "this is a report of those written so far.", f->runner_pid,
		                 f->runner_host);
	if (f->state == FOLDER_KILLED || f->state == FOLDER_RUNNING)
		return incomplete_sentence(f);
	const char *reason = folder_meta_string(f, "stop_reason");
	if (!reason)
		return xstrdup("");
	json_t *settings = json_object_get(f->meta, "settings");
	double target = json_number_value(json_object_get(settings, "precision_pct"));
	bool reached = !strcmp(reason, "precision reached");
	char missed[96] = "";
	if (target > 0 && !reached)
		snprintf(missed, sizeof missed, "; the ±%g%% precision target was not reached", target);
	if (reached)
		return xasprintf("Stopped: precision reached (the runner's ±%g%% target for %s 95%% "
		                 "interval).", target, f->kind == FOLDER_MATRIX ? "every pair's"
		                 : "its headline ratio's");
	if (!strcmp(reason, "trials"))
		return xasprintf("Stopped: trials (every planned block ran%s).", missed);
	if (!strcmp(reason, "duration"))
		return xasprintf("Stopped: duration (the time budget ran out%s).", missed);
	if (!strcmp(reason, "interrupted"))
		return xasprintf("Stopped: interrupted (continue with smtbench %s --resume %s%s).",
		                 command, f->shown_dir, missed);
	return xasprintf("Stopped: %s.", reason);
}

void append_words(char **s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *more = xvasprintf(fmt, ap), *longer = xasprintf("%s%s", *s ? *s : "", more);
	va_end(ap);
	free(more);
	free(*s);
	*s = longer;
}

char *safe_list_words(const struct safe_list *s)
{
	char *text = xstrdup("");
	for (size_t i = 0; i < s->count; i++)
		append_words(&text, "%s%s + %s", i ? ", " : "", s->names[s->pairs[i].a],
		             s->names[s->pairs[i].b]);
	return text;
}

json_t *safe_pairs_json(const struct safe_list *s)
{
	json_t *a = json_array();
	for (size_t i = 0; i < s->count; i++)
		json_array_append_new(a, json_pack("[s, s]", s->names[s->pairs[i].a],
		                                   s->names[s->pairs[i].b]));
	return a;
}

json_t *safe_list_json(const struct safe_list *s, const char *slowdown)
{
	json_t *pairs = json_array();
	for (size_t i = 0; i < s->count; i++)
		json_array_append_new(pairs, json_pack("{s:[s, s], s:f}", "kernels",
		                                       s->names[s->pairs[i].a],
		                                       s->names[s->pairs[i].b], "probability",
		                                       s->pairs[i].probability));
	char *covers = xasprintf("every listed pair at once: each kernel's %s beside the other at "
	                         "most %g%%", slowdown, 100 * s->slowdown);
	json_t *o = json_pack("{s:f, s:f, s:s, s:I, s:I, s:o}", "probability", s->joint_probability,
	                      "target", ANALYSIS_MATRIX_SAFE_PROBABILITY, "covers", covers,
	                      "candidates", (json_int_t)s->candidates, "pairs_considered",
	                      (json_int_t)(s->name_count * (s->name_count + 1) / 2), "pairs", pairs);
	free(covers);
	return o;
}
