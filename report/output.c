/*
 * output.c — the result for a person (text: the answer in plain words first, then the numbers,
 * then the diagnostics) and for programs (the --json contract, jansson).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/samples_csv.h"
#include "analysis/analysis.h"
#include "report/format.h"
#include "report/diagnostics.h"
#include "report/output.h"
#include "report/verdict.h"
#include "common/placements.h"
#include "common/text.h"

/* ---- numbers for a person --------------------------------------------------------------- */

/* Probabilities to four decimals; the extremes (0 and 1 included: a posterior computed on a
 * grid is never certain) as "<0.0001" and ">0.9999", so that P(A > B) and P(A < B) beside each
 * other read alike. */
static const char *prob(struct format_ring *ns, double p)
{
	char *b = ns->buf[ns->next++ % FORMAT_RING_SIZE];
	if (isnan(p))
		snprintf(b, sizeof ns->buf[0], "n/a");
	else if (p > 0.9999)
		snprintf(b, sizeof ns->buf[0], ">0.9999");
	else if (p < 1e-4)
		snprintf(b, sizeof ns->buf[0], "<0.0001");
	else
		snprintf(b, sizeof ns->buf[0], "%.4f", p);
	return b;
}

static double width(const double ci[2])
{
	return fabs(ci[1] - ci[0]);
}

/* What a sample is, in the plural: trials of a folder (by default), else samples. */
static const char *samples_word(const struct analysis_result *r)
{
	return r->from_folder && r->unit == ANALYSIS_UNIT_TRIAL ? "trials" : "samples";
}

/* What one sample is: for a folder the --unit chosen (trial or process); two plain files have no
 * trials, so there every number, one per line, is a sample and --unit does not apply. */
static const char *unit_words(const struct analysis_result *r)
{
	if (r->from_hyperfine)
		return r->metric == ANALYSIS_METRIC_USER ? "one run of each command (its user time)"
		                                         : "one run of each command (its wall time)";
	if (!r->from_folder)
		return "one number per line of each file";
	return r->unit == ANALYSIS_UNIT_PROCESS ? "process" : "trial";
}

/* With a ROPE the verdict's rule in words, and the probabilities it used. */
static void print_rope_rule(FILE *out, const struct analysis_comparison *c,
                            const struct analysis_result *r)
{
	bool up = !(c->p_rope_below > c->p_rope_above);
	char rope[48];
	fprintf(out, "With --rope %g %%, '%s' needs P(%s more than %g %% %s) >= %g; here it is "
	        "%.2f, and P(within %s) = %.2f ('practically the same' needs >= %g).\n",
	        r->options.rope_pct, up ? "slower" : "faster", c->a.name, r->options.rope_pct,
	        up ? "slower" : "faster", ANALYSIS_DIRECTION_PROBABILITY,
	        up ? c->p_rope_above : c->p_rope_below,
	        format_rope(rope, sizeof rope, r->options.rope_pct), c->p_rope,
	        ANALYSIS_EQUIVALENCE_PROBABILITY);
}

/* The answer: the one verdict sentence every output uses (verdict.h), then what an undecided
 * verdict would have needed, and when the numbers depend on the grid. */
static void print_answer(FILE *out, const struct analysis_comparison *c, const struct analysis_result *r)
{
	struct verdict_words w = { .where = "", .a = c->a.name, .subject = NULL,
	                           .samples = samples_word(r),
	                           .more = r->from_folder ? "run more trials" : "collect more samples",
	                           .per = r->from_folder ? "placement"
	                                  : r->from_hyperfine ? "command" : "file",
	                           .note = "" };
	char *sentence = verdict_sentence(c, r->options.rope_pct, &w);
	fprintf(out, "%s.\n", sentence ? sentence : "(out of memory)");
	free(sentence);
	bool settled = analysis_comparison_settled(c);
	if (settled && c->verdict == ANALYSIS_VERDICT_UNDECIDED) {
		if (!isnan(c->p_rope))
			print_rope_rule(out, c, r);
		else
			fprintf(out, "A verdict needs a probability of at least %g either way.\n",
			        ANALYSIS_DIRECTION_PROBABILITY);
	}
	bool at_bound = c->design == ANALYSIS_DESIGN_PAIRED ? c->paired_grid.at_bound
	                                                    : c->grid.at_bound;
	if (at_bound)
		fprintf(out, "Caution: the numbers below depend on the grid: the posterior's tails still "
		        "reach the edge of the widest grid allowed (with uniform priors and only %zu and "
		        "%zu samples its tails are very heavy).\n", c->a.n, c->b.n);
	else if (!settled)
		fprintf(out, "Caution: with fewer than %d samples in a group the posterior of its mean "
		        "has no mean of its own (a Student-t with n - 2 degrees of freedom), so the means "
		        "below depend on the grid.\n", ANALYSIS_SETTLED_MIN_N);
}

static void print_seed_lines(FILE *out, const struct analysis_comparison *c)
{
	char lo[40], hi[40];
	analysis_format_shortest(c->diff_ci[0], lo, sizeof lo);
	analysis_format_shortest(c->diff_ci[1], hi, sizeof hi);
	if (c->grid.warning[0])
		fprintf(out, "Warning: %s.\n", c->grid.warning);
	fprintf(out, "The seed article's computation (--seed-grid): %s is slower with probability of %.2f.\n",
	        c->a.name, c->p_a_gt_b);
	fprintf(out, "%s is on average %.2fs slower than %s. With 95%% probability %s is faster than "
	        "%s by a value between %s and %s seconds.\n", c->a.name, c->diff_mean, c->b.name,
	        c->b.name, c->a.name, lo, hi);
	if (!c->has_default)
		return;
	struct format_ring ns = { .next = 0 };
	double res = width(c->default_diff_ci) / 2;
	fprintf(out, "The default data-driven grid gives %s s (95%% credible interval %s to %s s)",
	        format_num(&ns, c->default_diff_mean, res), format_num(&ns, c->default_diff_ci[0], res),
	        format_num(&ns, c->default_diff_ci[1], res));
	double spread = fmax(c->a.sd_s, c->b.sd_s);
	if (!c->grid.warning[0] && spread < 2.5 && width(c->default_diff_ci) < width(c->diff_ci))
		fprintf(out, ": far narrower, because the seed's sigma grid starts at 5 s while these "
		        "samples spread by only about %.2g s, so the seed assumes noise some %.0f times "
		        "larger than measured.\n", spread, 5.0 / spread);
	else
		fprintf(out, ".\n");
}

static void print_group_row(FILE *out, char tag, const struct analysis_group_summary *s)
{
	struct format_ring ns = { .next = 0 };
	double mres = width(s->mu_ci) / 2, sres = width(s->sigma_ci) / 2;
	fprintf(out, "  %c %-14s %7zu  %14s  %14s  [%s, %s]  %12s  [%s, %s]%s\n", tag, s->name, s->n,
	        format_num(&ns, s->mean_s, mres), format_num(&ns, s->mu_mean, mres), format_num(&ns, s->mu_ci[0], mres),
	        format_num(&ns, s->mu_ci[1], mres), format_num(&ns, s->sigma_mean, sres),
	        format_num(&ns, s->sigma_ci[0], sres), format_num(&ns, s->sigma_ci[1], sres),
	        s->sigma_floored ? "  (spread below the timer's resolution: sigma floored)" : "");
}

/* Which design answered, and for the paired one its classic cross-check on the same blocks. */
static void print_design(FILE *out, const struct analysis_comparison *c)
{
	char design[96];
	format_design(design, sizeof design, c);
	if (c->design != ANALYSIS_DESIGN_PAIRED) {
		fprintf(out, "  design: %s\n", design);
		return;
	}
	struct format_ring ns = { .next = 0 };
	double res = width(c->paired_t_ratio_ci) / 2;
	fprintf(out, "  design: %s: d = log A - log B in each block where both have a usable trial, "
	        "so drift shared by a block cancels; A / B = exp(delta)%s\n", design,
	        c->blocks_dropped ? "; dropped: a block where one side failed, was excluded, is "
	        "missing or measured 0 s" : "");
	fprintf(out, "  per-block log ratio: mean %.4g, sd %.4g; t interval of A / B on the same "
	        "blocks [%s, %s]\n", c->log_ratio_mean, c->log_ratio_sd,
	        format_num(&ns, c->paired_t_ratio_ci[0], res),
	        format_num(&ns, c->paired_t_ratio_ci[1], res));
}

/* The difference and the ratio; paired, the difference is taken at B's mean time. */
static void print_effect_lines(FILE *out, const struct analysis_comparison *c,
                               const struct analysis_result *r)
{
	struct format_ring ns = { .next = 0 };
	double res = width(c->diff_ci) / 2;
	bool paired = c->design == ANALYSIS_DESIGN_PAIRED;
	fprintf(out, "  P(A > B) %s   P(A < B) %s", prob(&ns, c->p_a_gt_b), prob(&ns, c->p_a_lt_b));
	char rope[48];
	if (!isnan(c->p_rope))
		fprintf(out, "   P(ratio within %s) %s   P(slower by > %g%%) %s   "
		        "P(faster by > %g%%) %s", format_rope(rope, sizeof rope, r->options.rope_pct),
		        prob(&ns, c->p_rope), r->options.rope_pct, prob(&ns, c->p_rope_above),
		        r->options.rope_pct, prob(&ns, c->p_rope_below));
	/* Unsettled: the numbers are what the grid gives, and said to be so. */
	const char *grid_note = analysis_comparison_settled(c) ? "" : " (depends on the grid)";
	fprintf(out, "\n  %s   mean %s s%s   95%% CI [%s, %s] s%s   95%% HDI [%s, %s] s\n",
	        paired ? "A - B at mu_B" : "mu_A - mu_B",
	        format_num(&ns, c->diff_mean, res), grid_note, format_num(&ns, c->diff_ci[0], res),
	        format_num(&ns, c->diff_ci[1], res), c->grid.seed_grid ? " (seed's rule)" : "",
	        format_num(&ns, c->diff_hdi[0], res), format_num(&ns, c->diff_hdi[1], res));
	if (isnan(c->ratio_mean))
		fprintf(out, "  mu_A / mu_B   undefined: B's grid of mu reaches zero\n");
	else
		fprintf(out, "  %s   mean %s%s   95%% CI [%s, %s]\n",
		        paired ? "A / B (paired)" : "mu_A / mu_B",
		        format_num(&ns, c->ratio_mean, width(c->ratio_ci) / 2), grid_note,
		        format_num(&ns, c->ratio_ci[0], width(c->ratio_ci) / 2),
		        format_num(&ns, c->ratio_ci[1], width(c->ratio_ci) / 2));
}

static void print_grid_line(FILE *out, const struct analysis_comparison *c)
{
	const struct analysis_grid_report *g = &c->grid;
	if (g->seed_grid) {
		fprintf(out, "  grid: the seed's: mu and sigma linspace(%g, %g, %d); edge mass %.2g\n",
		        ANALYSIS_SEED_GRID_LO_S, ANALYSIS_SEED_GRID_HI_S, ANALYSIS_SEED_GRID_POINTS,
		        g->edge_mass);
		return;
	}
	fprintf(out, "  grid: %s model, uniform prior on mu > 0; mu %zu and %zu points, "
	        "step %.3g s; sigma %d points "
	        "(A %.3g to %.3g s, B %.3g to %.3g s); widened %d time%s; edge mass %.2g%s\n",
	        g->model == ANALYSIS_MODEL_T ? "Student-t" : "normal", g->mu_points[0],
	        g->mu_points[1], g->mu_step, (int)g->sigma_points, g->sigma_range[0][0],
	        g->sigma_range[0][1], g->sigma_range[1][0], g->sigma_range[1][1], g->widenings,
	        g->widenings == 1 ? "" : "s", g->edge_mass,
	        g->at_bound ? " (at the bound: the answer depends on the grid)" : "");
	if (c->design != ANALYSIS_DESIGN_PAIRED)
		return;
	const struct analysis_paired_grid *p = &c->paired_grid;
	if (p->closed_form) {
		fprintf(out, "  paired posterior: uniform priors on delta and sigma, in closed form: "
		        "delta is Student-t with %g degrees of freedom, centre %.4g, scale %.3g\n",
		        p->dof, c->log_ratio_mean, p->scale);
		return;
	}
	fprintf(out, "  paired grid: uniform priors on delta and sigma; delta %zu points, finest "
	        "step %.3g (%.3g to %.3g); sigma %zu points, log-spaced (%.3g to %.3g); widened %d time%s; edge "
	        "mass %.2g%s\n", p->delta_points, p->delta_step, p->delta_range[0],
	        p->delta_range[1], p->sigma_points, p->sigma_range[0], p->sigma_range[1],
	        p->widenings, p->widenings == 1 ? "" : "s", p->edge_mass,
	        p->at_bound ? " (at the bound: the answer depends on the grid)" : "");
}

static void print_comparison(FILE *out, const struct analysis_comparison *c,
                             const struct analysis_result *r)
{
	fprintf(out, "== %s vs %s (%s) ==\n", c->a.name, c->b.name, c->label);
	print_answer(out, c, r);
	if (c->grid.seed_grid)
		print_seed_lines(out, c);
	print_design(out, c);
	print_effect_lines(out, c, r);
	fprintf(out, "    %-14s %7s  %14s  %14s  %-22s  %12s  %s\n", "group", "n", "sample mean s",
	        "mu mean s", "mu 95% CI s", "sigma mean s", "sigma 95% CI s");
	print_group_row(out, 'A', &c->a);
	print_group_row(out, 'B', &c->b);
	if (isnan(c->welch_t))
		fprintf(out, "  Welch's t-test: undefined (both groups have zero spread)");
	else
		fprintf(out, "  Welch's t-test: t = %.4g, df = %.4g, p = %.3g", c->welch_t, c->welch_df,
		        c->welch_p);
	if (isnan(c->cohens_d))
		fprintf(out, ";  Cohen's d: undefined\n");
	else
		fprintf(out, ";  Cohen's d = %.4g\n", c->cohens_d);
	print_grid_line(out, c);
	fprintf(out, "\n");
}

/* One group's facts on one line: n, the drift slope (a fact whether or not it is a problem),
 * and for a folder what was recorded. */
static void print_group_facts(FILE *out, const struct analysis_result *r,
                              const struct analysis_group_diagnostics *d)
{
	struct format_ring ns = { .next = 0 };
	fprintf(out, "  %s: %zu samples, %zu outlier(s)", d->name, d->n, d->outlier_count);
	if (!isnan(d->drift_slope_ci[0])) {
		double res = width(d->drift_slope_ci) / 2;
		fprintf(out, "; drift %s s per %s (95%% %s to %s)", format_num(&ns, d->drift_slope_s, res),
		        r->from_folder ? "trial" : "sample", format_num(&ns, d->drift_slope_ci[0], res),
		        format_num(&ns, d->drift_slope_ci[1], res));
	}
	if (r->from_folder) {
		fprintf(out, "; failed trials %zu", d->failed_trials);
		fprintf(out, d->overlap_known ? "; overlap recorded in %zu" : "; overlap not recorded",
		        d->overlap_known);
		fprintf(out, d->wall_known ? "; wall time recorded in %zu" : "; wall time not recorded",
		        d->wall_known);
	}
	fprintf(out, "\n");
}

/* Each group's facts, then its problems in the words the report's warnings use
 * (diagnostics.h), then the run's notes and the lines skipped. */
static void print_diagnostics(FILE *out, const struct analysis_result *r)
{
	fprintf(out, "Diagnostics (unit: %s%s)\n", unit_words(r),
	        r->from_folder ? "" : ", in file order");
	for (size_t i = 0; i < r->group_count; i++) {
		const struct analysis_group_diagnostics *d = &r->groups[i];
		print_group_facts(out, r, d);
		char **problems = NULL;
		size_t count = 0;
		if (diagnostics_of_group(d, r->from_folder ? "trial" : "sample", &problems, &count) < 0)
			fprintf(out, "    (out of memory listing its problems)\n");
		for (size_t k = 0; k < count; k++) {
			fprintf(out, "    ! %s\n", problems[k]);
			free(problems[k]);
		}
		free(problems);
	}
	if (r->from_folder)
		fprintf(out, "  warm-up trials (not analysed) %zu; failed trials %zu\n", r->warmup_trials,
		        r->failed_trials);
	for (size_t i = 0; i < r->note_count; i++)
		fprintf(out, "  note: %s\n", r->notes[i]);
	for (size_t i = 0; i < r->warning_count; i++)
		fprintf(out, "  skipped: %s\n", r->warnings[i]);
}

/* The design of the run as a whole, for the heading (each comparison says its own). */
static const char *design_words(const struct analysis_result *r)
{
	size_t paired = 0;
	for (size_t i = 0; i < r->comparison_count; i++)
		paired += r->comparisons[i].design == ANALYSIS_DESIGN_PAIRED;
	if (paired == 0)
		return "unpaired";
	return paired == r->comparison_count ? "paired by block" : "paired by block where it can";
}

int output_analysis_text(FILE *out, const struct analysis_result *r)
{
	const char *unit_note = "";
	if (r->options.seed_grid && r->from_folder)
		unit_note = r->unit == ANALYSIS_UNIT_PROCESS
		            ? " (--seed-grid implies it: the seed used every process time)"
		            : " (not the seed's: it used every process time; see --unit process)";
	/* A folder's wall time is said; hyperfine's unit words name its metric already. */
	const char *metric = r->from_folder && r->metric == ANALYSIS_METRIC_WALL
	                     ? "metric wall time (wall_s), " : "";
	/* A folder's workload (samples.csv's names: run --name's, or the kernel's or command's). */
	fprintf(out, "smtbench analyze %s%s%s%s%s%s: %s model, %s, %sunit%s %s%s\n\n", r->source,
	        r->workload ? " (" : "", r->workload ? r->workload : "",
	        r->beside_workload ? " beside " : "", r->beside_workload ? r->beside_workload : "",
	        r->workload ? ")" : "",
	        r->options.seed_grid ? "the seed's normal" :
	        r->options.model == ANALYSIS_MODEL_T ? "Student-t" : "normal",
	        design_words(r), metric, r->from_folder ? "" : ":", unit_words(r), unit_note);
	for (size_t i = 0; i < r->comparison_count; i++)
		print_comparison(out, &r->comparisons[i], r);
	char *yield = output_smt_yield_sentence(&r->smt_yield, NULL);
	if (yield)
		fprintf(out, "== SMT yield ==\n%s.\n\n", yield);
	free(yield);
	print_diagnostics(out, r);
	return ferror(out) ? -1 : 0;
}

char *output_smt_yield_sentence(const struct analysis_smt_yield *y, const char *workload)
{
	if (!y->known)
		return NULL;
	struct format_ring ns = { .next = 0 };
	double res = width(y->ci) / 2;
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
	if (y->one_process)
		return text_printf("With SMT this core did %s× the work of one PU alone (95%% CI %s–%s): "
		                   "%s (the one process's %s wall time / its sibling wall time, %s)",
		                   format_num(&ns, y->mean, res), format_num(&ns, y->ci[0], res),
		                   format_num(&ns, y->ci[1], res), verdict, y->baseline,
		                   y->design == ANALYSIS_DESIGN_PAIRED ? "paired by block" : "unpaired");
	return text_printf("With SMT this core did %s× the work of one copy alone (95%% CI %s–%s): "
	                   "%s (2 × %s time / sibling time per copy, %s)",
	                   format_num(&ns, y->mean, res), format_num(&ns, y->ci[0], res),
	                   format_num(&ns, y->ci[1], res), verdict, y->baseline,
	                   y->design == ANALYSIS_DESIGN_PAIRED ? "paired by block" : "unpaired");
}

/* ---- JSON --------------------------------------------------------------------------------- */

static json_t *number_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *pair(const double v[2])
{
	json_t *a = json_array();
	json_array_append_new(a, number_or_null(v[0]));
	json_array_append_new(a, number_or_null(v[1]));
	return a;
}

static json_t *group_json(const struct analysis_group_summary *s)
{
	return json_pack("{s:s, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:b}",
	                 "name", s->name, "n", (json_int_t)s->n, "mean", number_or_null(s->mean_s),
	                 "sd", number_or_null(s->sd_s), "mu_mean", number_or_null(s->mu_mean),
	                 "mu_ci", pair(s->mu_ci), "sigma_mean", number_or_null(s->sigma_mean),
	                 "sigma_ci", pair(s->sigma_ci), "sigma_floored", s->sigma_floored);
}

static json_t *grid_json(const struct analysis_grid_report *g)
{
	json_t *mu_points = json_array();
	json_array_append_new(mu_points, json_integer((json_int_t)g->mu_points[0]));
	json_array_append_new(mu_points, json_integer((json_int_t)g->mu_points[1]));
	json_t *o = json_pack("{s:b, s:s, s:i, s:o, s:I, s:o, s:{s:o, s:o}, s:{s:o, s:o}, s:i, s:o, s:b}",
	                 "seed_grid", g->seed_grid,
	                 "model", g->model == ANALYSIS_MODEL_T ? "t" : "normal",
	                 "points", g->points, "mu_points", mu_points,
	                 "sigma_points", (json_int_t)g->sigma_points,
	                 "mu_step", number_or_null(g->mu_step),
	                 "mu_range", "a", pair(g->mu_range[0]), "b", pair(g->mu_range[1]),
	                 "sigma_range", "a", pair(g->sigma_range[0]), "b", pair(g->sigma_range[1]),
	                 "widenings", g->widenings, "edge_mass", number_or_null(g->edge_mass),
	                 "at_bound", g->at_bound);
	if (o && g->warning[0])
		json_object_set_new(o, "warning", json_string(g->warning));
	return o;
}

/* The paired design's own numbers; null for an unpaired comparison. */
static json_t *paired_json(const struct analysis_comparison *c)
{
	if (c->design != ANALYSIS_DESIGN_PAIRED)
		return json_null();
	const struct analysis_paired_grid *g = &c->paired_grid;
	json_t *o = json_pack("{s:o, s:o, s:o, s:{s:I, s:I, s:o, s:o, s:o, s:i, s:o, s:b}}",
	                 "log_ratio_mean", number_or_null(c->log_ratio_mean),
	                 "log_ratio_sd", number_or_null(c->log_ratio_sd),
	                 "t_ratio_ci", pair(c->paired_t_ratio_ci),
	                 "grid", "delta_points", (json_int_t)g->delta_points,
	                 "sigma_points", (json_int_t)g->sigma_points,
	                 "delta_step", number_or_null(g->delta_step),
	                 "delta_range", pair(g->delta_range), "sigma_range", pair(g->sigma_range),
	                 "widenings", g->widenings, "edge_mass", number_or_null(g->edge_mass),
	                 "at_bound", g->at_bound);
	/* How delta's posterior was computed: "closed form" (the normal model's Student-t, its
	 * degrees of freedom and scale; centre log_ratio_mean) or "grid". */
	if (o) {
		json_object_set_new(o, "method", json_string(g->closed_form ? "closed form" : "grid"));
		json_object_set_new(o, "t_dof", g->closed_form ? json_real(g->dof) : json_null());
		json_object_set_new(o, "t_scale", g->closed_form ? json_real(g->scale) : json_null());
	}
	return o;
}

json_t *output_comparison_json(const struct analysis_comparison *c)
{
	json_t *o = json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
	                      "s:{s:o, s:o, s:o}, s:o, s:o, s:s}",
	                      "label", c->label, "a", group_json(&c->a), "b", group_json(&c->b),
	                      "p_a_gt_b", number_or_null(c->p_a_gt_b),
	                      "p_a_lt_b", number_or_null(c->p_a_lt_b),
	                      "p_rope", number_or_null(c->p_rope),
	                      "diff_mean", number_or_null(c->diff_mean),
	                      "diff_ci", pair(c->diff_ci), "diff_hdi", pair(c->diff_hdi),
	                      "ratio_mean", number_or_null(c->ratio_mean),
	                      "ratio_ci", pair(c->ratio_ci),
	                      "welch", "t", number_or_null(c->welch_t), "df", number_or_null(c->welch_df),
	                      "p", number_or_null(c->welch_p),
	                      "cohens_d", number_or_null(c->cohens_d), "grid", grid_json(&c->grid),
	                      "verdict", analysis_verdict_name(c->verdict));
	if (o) {
		/* The ROPE's other two probabilities, beside p_rope: P(A / B above 1 + PCT %) and
		 * P(below 1 / (1 + PCT %)); null without a ROPE. */
		json_object_set_new(o, "p_rope_above", number_or_null(c->p_rope_above));
		json_object_set_new(o, "p_rope_below", number_or_null(c->p_rope_below));
		json_object_set_new(o, "design", json_string(analysis_design_name(c->design)));
		json_object_set_new(o, "blocks_paired", json_integer((json_int_t)c->blocks_paired));
		json_object_set_new(o, "blocks_dropped", json_integer((json_int_t)c->blocks_dropped));
		json_object_set_new(o, "paired", paired_json(c));
	}
	if (o && c->has_default)
		json_object_set_new(o, "default_method", json_pack("{s:o, s:o}",
		                    "diff_mean", number_or_null(c->default_diff_mean),
		                    "diff_ci", pair(c->default_diff_ci)));
	return o;
}

static json_t *diagnostics_json(const struct analysis_group_diagnostics *d)
{
	json_t *outliers = json_array();
	for (size_t k = 0; k < d->outlier_count; k++)
		json_array_append_new(outliers, json_integer(d->outlier_trials[k]));
	return json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:{s:o, s:o, s:o, s:o}}",
	                 "name", d->name, "n", (json_int_t)d->n,
	                 "failed_trials", (json_int_t)d->failed_trials,
	                 "overlap_known", (json_int_t)d->overlap_known,
	                 "poor_overlap_trials", (json_int_t)d->poor_overlap_trials,
	                 "wall_known", (json_int_t)d->wall_known,
	                 "wall_above_cpu_trials", (json_int_t)d->wall_above_cpu_trials,
	                 "outlier_trials", outliers,
	                 "drift", "slope_s", number_or_null(d->drift_slope_s),
	                 "slope_ci", pair(d->drift_slope_ci),
	                 "first_half_mean", number_or_null(d->first_half_mean_s),
	                 "second_half_mean", number_or_null(d->second_half_mean_s));
}

/* Plain files: the outliers' line numbers too ("outlier_lines"), beside the run-order indexes. */
static json_t *diagnostics_json_with_lines(const struct analysis_group_diagnostics *d)
{
	json_t *o = diagnostics_json(d);
	if (o && d->outlier_lines) {
		json_t *lines = json_array();
		for (size_t k = 0; k < d->outlier_count; k++)
			json_array_append_new(lines, json_integer(d->outlier_lines[k]));
		json_object_set_new(o, "outlier_lines", lines);
	}
	return o;
}

static json_t *strings_json(char **list, size_t count)
{
	json_t *a = json_array();
	for (size_t i = 0; i < count; i++)
		json_array_append_new(a, json_string(list[i]));
	return a;
}

/* {"mean", "ci", "baseline", "design", "settled"}, or null when not known. */
static json_t *smt_yield_json(const struct analysis_smt_yield *y)
{
	if (!y->known)
		return json_null();
	return json_pack("{s:o, s:o, s:s, s:s, s:b}", "mean", number_or_null(y->mean),
	                 "ci", pair(y->ci), "baseline", y->baseline,
	                 "design", analysis_design_name(y->design), "settled", y->settled);
}

json_t *output_analysis_json(const struct analysis_result *r)
{
	json_t *groups = json_array();
	for (size_t i = 0; i < r->group_count; i++)
		json_array_append_new(groups, diagnostics_json_with_lines(&r->groups[i]));
	if (!r->from_folder && !r->from_hyperfine && r->comparison_count == 1) {
		json_t *o = output_comparison_json(&r->comparisons[0]);
		if (o)
			json_object_set_new(o, "diagnostics", json_pack("{s:o}", "groups", groups));
		else
			json_decref(groups);
		return o;
	}
	json_t *comparisons = json_array();
	for (size_t i = 0; i < r->comparison_count; i++)
		json_array_append_new(comparisons, output_comparison_json(&r->comparisons[i]));
	json_t *o = json_pack("{s:s, s:s, s:s, s:b, s:o, s:o, s:o, s:I, s:I, s:o, s:o}",
	                 "source", r->source,
	                 "unit", r->unit == ANALYSIS_UNIT_PROCESS ? "process" : "trial",
	                 "model", r->options.model == ANALYSIS_MODEL_T ? "t" : "normal",
	                 "seed_grid", r->options.seed_grid,
	                 "rope_pct", number_or_null(r->options.rope_pct),
	                 "comparisons", comparisons, "groups", groups,
	                 "warmup_trials", (json_int_t)r->warmup_trials,
	                 "failed_trials", (json_int_t)r->failed_trials,
	                 "warnings", strings_json(r->warnings, r->warning_count),
	                 "notes", strings_json(r->notes, r->note_count));
	if (o) {
		json_object_set_new(o, "smt_yield", smt_yield_json(&r->smt_yield));
		json_object_set_new(o, "metric", json_string(r->metric == ANALYSIS_METRIC_WALL
		                                             ? SAMPLES_METRIC_WALL : SAMPLES_METRIC_USER));
		json_object_set_new(o, "one_process", json_boolean(r->one_process));
		json_object_set_new(o, "hyperfine", json_boolean(r->from_hyperfine));
		json_object_set_new(o, "workload", r->workload ? json_string(r->workload)
		                                               : json_null());
		json_object_set_new(o, "beside_workload", r->beside_workload
		                                          ? json_string(r->beside_workload)
		                                          : json_null());
	}
	return o;
}
