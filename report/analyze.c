/*
 * analyze.c — `analyze`'s answer (report.h): for each comparison the answer in plain words
 * first, then the numbers, then each group's diagnostics, as a document (report/doc.h) for the
 * terminal; and the --json contract, whose keys report.json's "analysis" reuses.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/samples_csv.h"
#include "report/doc.h"
#include "report/report.h"
#include "report/words.h"

/* Probabilities to four decimals; the extremes (0 and 1 included: a posterior computed on a
 * grid is never certain) as "<0.0001" and ">0.9999", so that P(A > B) and P(A < B) beside each
 * other read alike. */
static const char *prob(struct format_ring *ns, double p)
{
	return isnan(p) ? "n/a" : p > 0.9999 ? ">0.9999" : p < 1e-4 ? "<0.0001"
	       : format_text(ns, "%.4f", p);
}

/* What one sample is: for a folder the --unit chosen (trial or process); two plain files have no
 * trials, so there every number, one per line, is a sample and --unit does not apply. */
static const char *unit_words(const struct analysis_result *r)
{
	const struct analysis_dataset *data = r->data;
	if (data->from_hyperfine)
		return data->metric == ANALYSIS_METRIC_USER ? "one run of each command (its user time)"
		                                            : "one run of each command (its wall time)";
	if (!data->from_folder)
		return "one number per line of each file";
	return unit_name(data->unit);
}

/* The answer: the one verdict sentence (words.h), then what an undecided verdict would have
 * needed, and when the numbers depend on the grid. */
static void answer(struct doc *d, const struct analysis_comparison *c,
                   const struct analysis_result *r)
{
	struct verdict_words w = { .where = "", .a = c->a.name, .subject = NULL, .note = "",
	                           .data = r->data };
	char *sentence = verdict_sentence(c, r->options.rope_pct, &w);
	doc_para(d, DOC_ALL, NULL, NULL, NULL, "%s.", sentence);
	free(sentence);
	bool settled = analysis_comparison_settled(c), up = !(c->p_rope_below > c->p_rope_above);
	double rope = r->options.rope_pct;
	struct format_ring ns = { .next = 0 };
	if (settled && c->verdict == ANALYSIS_VERDICT_UNDECIDED && !isnan(c->p_rope))
		doc_para(d, DOC_ALL, NULL, NULL, NULL, "With --rope %g %%, '%s' needs P(%s more than "
		         "%g %% %s) >= %g; here it is %.2f, and P(within %s) = %.2f ('practically "
		         "the same' needs >= %g).", rope, up ? "slower" : "faster", c->a.name, rope,
		         up ? "slower" : "faster", ANALYSIS_DIRECTION_PROBABILITY,
		         up ? c->p_rope_above : c->p_rope_below,
		         format_rope(&ns, rope), c->p_rope,
		         ANALYSIS_EQUIVALENCE_PROBABILITY);
	else if (settled && c->verdict == ANALYSIS_VERDICT_UNDECIDED)
		doc_para(d, DOC_ALL, NULL, NULL, NULL, "A verdict needs a probability of at least %g "
		         "either way.", ANALYSIS_DIRECTION_PROBABILITY);
	bool at_bound = c->design == ANALYSIS_DESIGN_PAIRED ? c->paired_grid.at_bound
	                                                    : c->grid.at_bound;
	if (at_bound)
		doc_para(d, DOC_ALL, "Caution", NULL, NULL, "the numbers below depend on the grid: the "
		         "posterior's tails still reach the edge of the widest grid allowed (with "
		         "uniform priors and only %zu and %zu samples its tails are very heavy).",
		         c->a.n, c->b.n);
	else if (!settled)
		doc_para(d, DOC_ALL, "Caution", NULL, NULL, "with fewer than %d samples in a group the "
		         "posterior of its mean has no mean of its own (a Student-t with n - 2 degrees "
		         "of freedom), so the means below depend on the grid.", ANALYSIS_SETTLED_MIN_N);
}

/* --seed-grid: the seed article's own sentences, and the default method beside them. */
static void seed_lines(struct doc *d, const struct analysis_comparison *c)
{
	char lo[40], hi[40];
	analysis_format_shortest(c->diff_ci[0], lo, sizeof lo);
	analysis_format_shortest(c->diff_ci[1], hi, sizeof hi);
	if (c->grid.warning[0])
		doc_para(d, DOC_ALL, "Warning", NULL, NULL, "%s.", c->grid.warning);
	doc_para(d, DOC_ALL, NULL, NULL, NULL, "The seed article's computation (--seed-grid): %s is "
	         "slower with probability of %.2f.", c->a.name, c->p_a_gt_b);
	doc_para(d, DOC_ALL, NULL, NULL, NULL, "%s is on average %.2fs slower than %s. With 95%% "
	         "probability %s is faster than %s by a value between %s and %s seconds.",
	         c->a.name, c->diff_mean, c->b.name, c->b.name, c->a.name, lo, hi);
	if (!c->has_default)
		return;
	struct format_ring ns = { .next = 0 };
	double res = half_width(c->default_diff_ci), spread = fmax(c->a.sd_s, c->b.sd_s);
	char why[300] = ".";
	if (!c->grid.warning[0] && spread < 2.5
	    && half_width(c->default_diff_ci) < half_width(c->diff_ci))
		snprintf(why, sizeof why, ": far narrower, because the seed's sigma grid starts at 5 s "
		         "while these samples spread by only about %.2g s, so the seed assumes noise "
		         "some %.0f times larger than measured.", spread, 5.0 / spread);
	doc_para(d, DOC_ALL, NULL, NULL, NULL, "The default data-driven grid gives %s s (95%% "
	         "credible interval %s to %s s)%s", format_num(&ns, c->default_diff_mean, res),
	         format_num(&ns, c->default_diff_ci[0], res),
	         format_num(&ns, c->default_diff_ci[1], res), why);
}

/* Which design answered, and for the paired one its classic cross-check on the same blocks. */
static void design_lines(struct doc *d, const struct analysis_comparison *c)
{
	struct format_ring ns = { .next = 0 };
	const char *design = format_design(&ns, c);
	if (c->design != ANALYSIS_DESIGN_PAIRED) {
		doc_para(d, DOC_ALL, "design", NULL, NULL, "%s", design);
		return;
	}
	double res = half_width(c->paired_t_ratio_ci);
	doc_para(d, DOC_ALL, "design", NULL, NULL, "%s: d = log A - log B in each block where both "
	         "have a usable trial, so drift shared by a block cancels; A / B = exp(delta)%s",
	         design, c->blocks_zero ? "; dropped: a block where one side failed, was excluded, "
	         "is missing or measured 0 s (below the clock's resolution)"
	         : c->blocks_dropped ? "; dropped: a block where one side failed, was excluded or is "
	         "missing" : "");
	doc_para(d, DOC_ALL, "per-block log ratio", NULL, NULL, "mean %.4g, sd %.4g; t interval of "
	         "A / B on the same blocks [%s, %s]", c->log_ratio_mean, c->log_ratio_sd,
	         format_num(&ns, c->paired_t_ratio_ci[0], res),
	         format_num(&ns, c->paired_t_ratio_ci[1], res));
}

/* The probabilities, the difference and the ratio; paired, the difference is at B's mean. */
static void effect_lines(struct doc *d, const struct analysis_comparison *c, double rope)
{
	struct format_ring ns = { .next = 0 };
	double res = half_width(c->diff_ci), rres = half_width(c->ratio_ci);
	bool paired = c->design == ANALYSIS_DESIGN_PAIRED;
	char within[200] = "";
	if (!isnan(c->p_rope))
		snprintf(within, sizeof within, "   P(ratio within %s) %s   P(slower by > %g%%) %s   "
		         "P(faster by > %g%%) %s", format_rope(&ns, rope),
		         prob(&ns, c->p_rope), rope, prob(&ns, c->p_rope_above), rope,
		         prob(&ns, c->p_rope_below));
	doc_para(d, DOC_ALL, NULL, NULL, NULL, "P(A > B) %s   P(A < B) %s%s", prob(&ns, c->p_a_gt_b),
	         prob(&ns, c->p_a_lt_b), within);
	/* Unsettled: the numbers are what the grid gives, and said to be so. */
	const char *grid_note = analysis_comparison_settled(c) ? "" : " (depends on the grid)";
	doc_para(d, DOC_ALL, paired ? "A - B at mu_B" : "mu_A - mu_B", NULL, NULL, "mean %s s%s   "
	         "95%% CI [%s, %s] s%s   95%% HDI [%s, %s] s", format_num(&ns, c->diff_mean, res),
	         grid_note, format_num(&ns, c->diff_ci[0], res), format_num(&ns, c->diff_ci[1], res),
	         c->grid.seed_grid ? " (seed's rule)" : "", format_num(&ns, c->diff_hdi[0], res),
	         format_num(&ns, c->diff_hdi[1], res));
	if (isnan(c->ratio_mean))
		doc_para(d, DOC_ALL, "mu_A / mu_B", NULL, NULL, "undefined: B's grid of mu reaches zero");
	else
		doc_para(d, DOC_ALL, paired ? "A / B (paired)" : "mu_A / mu_B", NULL, NULL, "mean %s%s "
		         "  95%% CI [%s, %s]", format_num(&ns, c->ratio_mean, rres), grid_note,
		         format_num(&ns, c->ratio_ci[0], rres), format_num(&ns, c->ratio_ci[1], rres));
}

static void group_table(struct doc *d, const struct analysis_comparison *c)
{
	static const struct doc_column columns[] = {
		{ "", 0, false, 0 }, { "group", 14, false, 0 }, { "n", 7, true, 0 },
		{ "sample mean s", 14, true, 2 }, { "mu mean s", 14, true, 2 },
		{ "mu 95% CI s", 22, false, 2 }, { "sigma mean s", 12, true, 2 },
		{ "sigma 95% CI s", 0, false, 2 }, { "", 0, false, 0 },
	};
	doc_table(d, DOC_ALL, NULL, columns, sizeof columns / sizeof columns[0]);
	const struct analysis_group_summary *sides[2] = { &c->a, &c->b };
	for (int s = 0; s < 2; s++) {
		struct format_ring ns = { .next = 0 };
		const struct analysis_group_summary *g = sides[s];
		double mres = half_width(g->mu_ci), sres = half_width(g->sigma_ci);
		const char *mu_ci = format_text(&ns, "[%s, %s]", format_num(&ns, g->mu_ci[0], mres),
		                                format_num(&ns, g->mu_ci[1], mres)), *sigma_ci =
			format_text(&ns, "[%s, %s]", format_num(&ns, g->sigma_ci[0], sres),
			            format_num(&ns, g->sigma_ci[1], sres));
		doc_row(d, s ? "B" : "A", g->name, format_text(&ns, "%zu", g->n),
		        format_num(&ns, g->mean_s, mres), format_num(&ns, g->mu_mean, mres), mu_ci,
		        format_num(&ns, g->sigma_mean, sres), sigma_ci, g->sigma_floored
		        ? "spread below the timer's resolution: sigma floored" : "");
	}
}

static void grid_lines(struct doc *d, const struct analysis_comparison *c)
{
	const struct analysis_grid_report *g = &c->grid;
	if (g->seed_grid) {
		doc_para(d, DOC_ALL, "grid", NULL, NULL, "the seed's: mu and sigma linspace(%g, %g, %d); "
		         "edge mass %.2g", ANALYSIS_SEED_GRID_LO_S, ANALYSIS_SEED_GRID_HI_S,
		         ANALYSIS_SEED_GRID_POINTS, g->edge_mass);
		return;
	}
	const char *bound = " (at the bound: the answer depends on the grid)";
	doc_para(d, DOC_ALL, "grid", NULL, NULL, "%s model, uniform prior on mu > 0; mu %zu and %zu "
	         "points, step %.3g s; sigma %d points (A %.3g to %.3g s, B %.3g to %.3g s); widened "
	         "%d time%s; edge mass %.2g%s", g->model == ANALYSIS_MODEL_T ? "Student-t" : "normal",
	         g->mu_points[0], g->mu_points[1], g->mu_step, (int)g->sigma_points,
	         g->sigma_range[0][0], g->sigma_range[0][1], g->sigma_range[1][0],
	         g->sigma_range[1][1], g->widenings, g->widenings == 1 ? "" : "s", g->edge_mass,
	         g->at_bound ? bound : "");
	if (c->design != ANALYSIS_DESIGN_PAIRED)
		return;
	const struct analysis_paired_grid *p = &c->paired_grid;
	if (p->closed_form) {
		doc_para(d, DOC_ALL, "paired posterior", NULL, NULL, "uniform priors on delta and "
		         "sigma, in closed form: delta is Student-t with %g degrees of freedom, centre "
		         "%.4g, scale %.3g", p->dof, c->log_ratio_mean, p->scale);
		return;
	}
	doc_para(d, DOC_ALL, "paired grid", NULL, NULL, "uniform priors on delta and sigma; delta %zu "
	         "points, finest step %.3g (%.3g to %.3g); sigma %zu points, log-spaced (%.3g to "
	         "%.3g); widened %d time%s; edge mass %.2g%s", p->delta_points, p->delta_step, p->delta_range[0],
	         p->delta_range[1], p->sigma_points, p->sigma_range[0], p->sigma_range[1],
	         p->widenings, p->widenings == 1 ? "" : "s", p->edge_mass, p->at_bound ? bound : "");
}

static void comparison_section(struct doc *d, const struct analysis_comparison *c,
                               const struct analysis_result *r)
{
	char unplanned[160] = "", words[150];
	if (c->kind == COMPARISON_UNPLANNED)
		snprintf(unplanned, sizeof unplanned, ": %s", unplanned_words(words, sizeof words, c));
	char *title = xasprintf("%s vs %s (%s%s)", c->a.name, c->b.name,
	                        comparison_kind_name(c->kind), unplanned);
	doc_heading(d, DOC_ALL, NULL, title);
	free(title);
	answer(d, c, r);
	if (c->grid.seed_grid)
		seed_lines(d, c);
	design_lines(d, c);
	effect_lines(d, c, r->options.rope_pct);
	group_table(d, c);
	struct format_ring ns = { .next = 0 };
	const char *welch = isnan(c->welch_t) ? "undefined (both groups have zero spread)"
	                    : format_text(&ns, "t = %.4g, df = %.4g, p = %.3g", c->welch_t,
	                                  c->welch_df, c->welch_p);
	doc_para(d, DOC_ALL, "Welch's t-test", NULL, NULL, "%s;  Cohen's d%s", welch,
	         isnan(c->cohens_d) ? ": undefined" : format_text(&ns, " = %.4g", c->cohens_d));
	grid_lines(d, c);
}

/* Each group's facts (n, the drift slope, for a folder what was recorded), then its problems in
 * the words the report's warnings use; the run's notes and the lines skipped. */
static void diagnostics(struct doc *d, const struct analysis_result *r)
{
	const struct analysis_dataset *data = r->data;
	char *title = xasprintf("Diagnostics (unit: %s%s)", unit_words(r),
	                        data->from_folder ? "" : ", in file order");
	doc_heading(d, DOC_ALL, NULL, title);
	free(title);
	for (size_t i = 0; i < r->group_count; i++) {
		const struct analysis_group_diagnostics *dg = &r->groups[i];
		const struct analysis_group *g = dg->group;
		struct format_ring ns = { .next = 0 };
		char drift[200] = "", folder[200] = "";
		double res = half_width(dg->drift_slope_ci);
		if (!isnan(dg->drift_slope_ci[0]))
			snprintf(drift, sizeof drift, "; drift %s s per %s (95%% %s to %s)",
			         format_num(&ns, dg->drift_slope_s, res),
			         data->from_folder ? "trial" : "sample",
			         format_num(&ns, dg->drift_slope_ci[0], res),
			         format_num(&ns, dg->drift_slope_ci[1], res));
		if (data->from_folder)
			snprintf(folder, sizeof folder, "; failed trials %zu; overlap %s; wall time %s",
			         g->failed_trials, g->overlap_known ? format_text(&ns, "recorded in %zu",
			         g->overlap_known) : "not recorded", g->wall_known
			         ? format_text(&ns, "recorded in %zu", g->wall_known) : "not recorded");
		doc_para(d, DOC_ALL, g->name, NULL, NULL, "%zu samples, %zu outlier(s)%s%s", g->n,
		         dg->outlier_count, drift, folder);
		char **problems = NULL;
		size_t count = 0;
		group_problems(dg, data->from_folder ? "trial" : "sample", &problems, &count);
		for (size_t k = 0; k < count; k++)
			doc_item(d, DOC_ALL, NULL, NULL, "%s", problems[k]);
		strings_release(&problems, &count);
	}
	if (data->from_folder)
		doc_para(d, DOC_ALL, NULL, NULL, NULL, "warm-up trials (not analysed) %zu; failed "
		         "trials %zu", data->warmup_trials, data->failed_trials);
	for (size_t i = 0; i < r->note_count; i++)
		doc_para(d, DOC_ALL, "note", NULL, NULL, "%s", r->notes[i]);
	for (size_t i = 0; i < data->warning_count; i++)
		doc_para(d, DOC_ALL, "skipped", NULL, NULL, "%s", data->warnings[i]);
}

/* The design of the run as a whole, for the title (each comparison says its own). */
static const char *design_words(const struct analysis_result *r)
{
	size_t paired = 0;
	for (size_t i = 0; i < r->comparison_count; i++)
		paired += r->comparisons[i].design == ANALYSIS_DESIGN_PAIRED;
	if (paired == 0)
		return "unpaired";
	return paired == r->comparison_count ? "paired by block" : "paired by block where it can";
}

static struct doc *analyze_doc(const struct analysis_result *r)
{
	const struct analysis_dataset *data = r->data;
	const char *unit_note = "";
	if (r->options.seed_grid && data->from_folder)
		unit_note = data->unit == ANALYSIS_UNIT_PROCESS
		            ? " (--seed-grid implies it: the seed used every process time)"
		            : " (not the seed's: it used every process time; see --unit process)";
	/* A folder's wall time is said; hyperfine's unit words name its metric already. */
	const char *metric = data->from_folder && data->metric == ANALYSIS_METRIC_WALL
	                     ? "metric wall time (wall_s), " : "";
	char workload[600] = "";
	if (data->workload) /* samples.csv's names: run --name's, or the kernel's or command's */
		snprintf(workload, sizeof workload, " (%s%s%s)", data->workload,
		         data->beside_workload ? " beside " : "",
		         data->beside_workload ? data->beside_workload : "");
	struct doc *d = doc_new("smtbench analyze %s%s: %s model, %s, %sunit%s %s%s", data->source,
	                        workload, r->options.seed_grid ? "the seed's normal"
	                        : r->options.model == ANALYSIS_MODEL_T ? "Student-t" : "normal",
	                        design_words(r), metric, data->from_folder ? "" : ":", unit_words(r),
	                        unit_note);
	for (size_t i = 0; i < r->comparison_count; i++)
		comparison_section(d, &r->comparisons[i], r);
	char *yield = smt_yield_sentence(&r->smt_yield, NULL);
	if (yield) {
		doc_heading(d, DOC_ALL, NULL, "SMT yield");
		doc_para(d, DOC_ALL, NULL, NULL, NULL, "%s.", yield);
	}
	free(yield);
	diagnostics(d, r);
	return d;
}

int analyze_print(FILE *out, const struct analysis_result *r)
{
	struct doc *d = analyze_doc(r);
	doc_render_text(d, out);
	doc_free(&d);
	return ferror(out) ? -1 : 0;
}

/* ---- JSON --------------------------------------------------------------------------------- */

static json_t *group_json(const struct analysis_group_summary *s)
{
	return json_pack("{s:s, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:b}",
	                 "name", s->name, "n", (json_int_t)s->n, "mean", json_number_or_null(s->mean_s),
	                 "sd", json_number_or_null(s->sd_s), "mu_mean", json_number_or_null(s->mu_mean),
	                 "mu_ci", json_interval(s->mu_ci), "sigma_mean", json_number_or_null(s->sigma_mean),
	                 "sigma_ci", json_interval(s->sigma_ci), "sigma_floored", s->sigma_floored);
}

static json_t *grid_json(const struct analysis_grid_report *g)
{
	return json_pack("{s:b, s:s, s:i, s:[I, I], s:I, s:o, s:{s:o, s:o}, s:{s:o, s:o}, s:i, s:o, s:b, "
	                 "s:s*}",
	                 "seed_grid", g->seed_grid,
	                 "model", g->model == ANALYSIS_MODEL_T ? "t" : "normal", "points", g->points,
	                 "mu_points", (json_int_t)g->mu_points[0], (json_int_t)g->mu_points[1],
	                 "sigma_points", (json_int_t)g->sigma_points,
	                 "mu_step", json_number_or_null(g->mu_step),
	                 "mu_range", "a", json_interval(g->mu_range[0]), "b", json_interval(g->mu_range[1]),
	                 "sigma_range", "a", json_interval(g->sigma_range[0]), "b", json_interval(g->sigma_range[1]),
	                 "widenings", g->widenings, "edge_mass", json_number_or_null(g->edge_mass),
	                 "at_bound", g->at_bound, "warning", g->warning[0] ? g->warning : NULL);
}

/* The paired design's own numbers; null for an unpaired comparison. */
static json_t *paired_json(const struct analysis_comparison *c)
{
	if (c->design != ANALYSIS_DESIGN_PAIRED)
		return json_null();
	const struct analysis_paired_grid *g = &c->paired_grid;
	/* method: how delta's posterior was computed, "closed form" (the normal model's Student-t,
	 * its degrees of freedom and scale; centre log_ratio_mean) or "grid". */
	return json_pack("{s:o, s:o, s:o, s:{s:I, s:I, s:o, s:o, s:o, s:i, s:o, s:b}, s:s, s:o?, "
	                 "s:o?}",
	                 "log_ratio_mean", json_number_or_null(c->log_ratio_mean),
	                 "log_ratio_sd", json_number_or_null(c->log_ratio_sd),
	                 "t_ratio_ci", json_interval(c->paired_t_ratio_ci),
	                 "grid", "delta_points", (json_int_t)g->delta_points,
	                 "sigma_points", (json_int_t)g->sigma_points,
	                 "delta_step", json_number_or_null(g->delta_step),
	                 "delta_range", json_interval(g->delta_range), "sigma_range", json_interval(g->sigma_range),
	                 "widenings", g->widenings, "edge_mass", json_number_or_null(g->edge_mass),
	                 "at_bound", g->at_bound, "method", g->closed_form ? "closed form" : "grid",
	                 "t_dof", g->closed_form ? json_real(g->dof) : NULL,
	                 "t_scale", g->closed_form ? json_real(g->scale) : NULL);
}

/* The conditions beside the verdict (words.h's verdict_sentence says them in words). */
static json_t *conditions_json(const struct analysis_comparison *c, bool one_process)
{
	char words[160];
	json_t *halves = c->halves_known
	                 ? json_pack("{s:[o, o], s:[o, o], s:b}",
	                             "ratio", json_number_or_null(c->half_ratio[0]),
	                             json_number_or_null(c->half_ratio[1]),
	                             "ratio_ci", json_interval(c->half_ratio_ci[0]),
	                             json_interval(c->half_ratio_ci[1]),
	                             "disagree", c->halves_disagree)
	                 : json_null();
	return json_pack("{s:s?, s:I, s:I, s:b, s:b, s:o}",
	                 "unplanned", c->kind == COMPARISON_UNPLANNED
	                 ? unplanned_words(words, sizeof words, c) : NULL,
	                 "shared_trials", (json_int_t)c->shared_trials,
	                 "shared_known", (json_int_t)c->shared_known,
	                 "under_load", analysis_under_load(c),
	                 "neighbour_speedup", comparison_neighbour_speedup(c, one_process),
	                 "halves", halves);
}

static json_t *comparison_json(const struct analysis_comparison *c, bool one_process)
{
	/* p_rope_above, p_rope_below: the ROPE's other two probabilities, beside p_rope: P(A / B
	 * above 1 + PCT %) and P(below 1 / (1 + PCT %)); null without a ROPE. */
	return json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
	                      "s:{s:o, s:o, s:o}, s:o, s:o, s:s, s:o, s:o, s:s, s:I, s:I, s:o, s:o, "
	                      "s:o*}",
	                      "label", comparison_kind_name(c->kind), "a", group_json(&c->a),
	                      "b", group_json(&c->b),
	                      "p_a_gt_b", json_number_or_null(c->p_a_gt_b),
	                      "p_a_lt_b", json_number_or_null(c->p_a_lt_b),
	                      "p_rope", json_number_or_null(c->p_rope),
	                      "diff_mean", json_number_or_null(c->diff_mean),
	                      "diff_ci", json_interval(c->diff_ci), "diff_hdi", json_interval(c->diff_hdi),
	                      "ratio_mean", json_number_or_null(c->ratio_mean),
	                      "ratio_ci", json_interval(c->ratio_ci),
	                      "welch", "t", json_number_or_null(c->welch_t), "df", json_number_or_null(c->welch_df),
	                      "p", json_number_or_null(c->welch_p),
	                      "cohens_d", json_number_or_null(c->cohens_d), "grid", grid_json(&c->grid),
	                      "verdict", verdict_name(c->verdict),
	                      "p_rope_above", json_number_or_null(c->p_rope_above),
	                      "p_rope_below", json_number_or_null(c->p_rope_below),
	                      "design", design_name(c->design),
	                      "blocks_paired", (json_int_t)c->blocks_paired,
	                      "blocks_dropped", (json_int_t)c->blocks_dropped,
	                      "paired", paired_json(c), "conditions", conditions_json(c, one_process),
	                      "default_method", c->has_default ? json_pack("{s:o, s:o}",
	                      "diff_mean", json_number_or_null(c->default_diff_mean),
	                      "diff_ci", json_interval(c->default_diff_ci)) : NULL);
}

/* The outliers by run-order index, and for plain files by line too ("outlier_lines"). */
static json_t *outliers_json(const long *at, size_t count)
{
	json_t *a = json_array();
	for (size_t k = 0; k < count; k++)
		json_array_append_new(a, json_integer(at[k]));
	return a;
}

static json_t *diagnostics_json(const struct analysis_group_diagnostics *d)
{
	const struct analysis_group *g = d->group;
	return json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:{s:o, s:o, s:o, s:o}, s:o*}",
	                 "name", g->name, "n", (json_int_t)g->n,
	                 "failed_trials", (json_int_t)g->failed_trials,
	                 "overlap_known", (json_int_t)g->overlap_known,
	                 "poor_overlap_trials", (json_int_t)g->poor_overlap_trials,
	                 "wall_known", (json_int_t)g->wall_known,
	                 "wall_above_cpu_trials", (json_int_t)g->wall_above_cpu_trials,
	                 "outlier_trials", outliers_json(d->outlier_trials, d->outlier_count),
	                 "drift", "slope_s", json_number_or_null(d->drift_slope_s),
	                 "slope_ci", json_interval(d->drift_slope_ci),
	                 "first_half_mean", json_number_or_null(d->first_half_mean_s),
	                 "second_half_mean", json_number_or_null(d->second_half_mean_s),
	                 "outlier_lines", d->outlier_lines
	                 ? outliers_json(d->outlier_lines, d->outlier_count) : NULL);
}

/* {"mean", "ci", "baseline", "design", "settled"}, or null when not known. */
static json_t *smt_yield_json(const struct analysis_smt_yield *y)
{
	if (!y->known)
		return json_null();
	return json_pack("{s:o, s:o, s:s, s:s, s:b}", "mean", json_number_or_null(y->mean),
	                 "ci", json_interval(y->ci), "baseline", y->baseline,
	                 "design", design_name(y->design), "settled", y->settled);
}

json_t *analyze_json(const struct analysis_result *r)
{
	const struct analysis_dataset *data = r->data;
	json_t *groups = json_array();
	for (size_t i = 0; i < r->group_count; i++)
		json_array_append_new(groups, diagnostics_json(&r->groups[i]));
	if (!data->from_folder && !data->from_hyperfine && r->comparison_count == 1) {
		/* o is NULL only out of memory: then json_object_set_new releases the groups. */
		json_t *o = comparison_json(&r->comparisons[0], data->one_process);
		json_object_set_new(o, "diagnostics", json_pack("{s:o}", "groups", groups));
		return o;
	}
	json_t *comparisons = json_array();
	for (size_t i = 0; i < r->comparison_count; i++)
		json_array_append_new(comparisons,
		                      comparison_json(&r->comparisons[i], data->one_process));
	return json_pack("{s:s, s:s, s:s, s:b, s:o, s:o, s:o, s:I, s:I, s:o, s:o, s:o, s:s, s:b, "
	                 "s:b, s:s?, s:s?}", "source", data->source,
	                 "unit", unit_name(data->unit),
	                 "model", r->options.model == ANALYSIS_MODEL_T ? "t" : "normal",
	                 "seed_grid", r->options.seed_grid,
	                 "rope_pct", json_number_or_null(r->options.rope_pct),
	                 "comparisons", comparisons, "groups", groups,
	                 "warmup_trials", (json_int_t)data->warmup_trials,
	                 "failed_trials", (json_int_t)data->failed_trials,
	                 "warnings", json_strings(data->warnings, data->warning_count),
	                 "notes", json_strings(r->notes, r->note_count),
	                 "smt_yield", smt_yield_json(&r->smt_yield),
	                 "metric", data->metric == ANALYSIS_METRIC_WALL ? SAMPLES_METRIC_WALL
	                                                                : SAMPLES_METRIC_USER,
	                 "one_process", data->one_process, "hyperfine", data->from_hyperfine,
	                 "workload", data->workload, "beside_workload", data->beside_workload);
}
