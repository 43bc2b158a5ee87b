/*
 * run.c — a run's report: from a results folder (common/folder.h) to its model (the analysis,
 * the pairs, the headline), and from the model to one document (report/doc.h) and report.json.
 * The opening (no sibling, the answer, by user time, the SMT yield, why it stopped, what was left
 * out) is built once here and shown by every output; the warnings are a table of producers.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/cpu_model.h"
#include "common/error.h"
#include "common/folder.h"
#include "common/placements.h"
#include "common/samples_csv.h"
#include "common/text.h"
#include "report/doc.h"
#include "report/internal.h"
#include "report/report.h"
#include "report/words.h"

/* A frequency spread between placements above this fraction is worth a warning: turbo clocks
 * depend on how many cores are busy, which differs between placements. */
static const double FREQ_WARN_FRACTION = 0.02;
/* The accounting control (same-pu vs solo) fails only outside 1 ± this many percent (a ROPE,
 * when given, takes its place): see control_failed. */
static const double CONTROL_TOLERANCE_PCT = 1.0;

static const char *meta_string(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* The CPU kind meta.json's placements were chosen within (a machine of several kinds), or
 * NULL: the first placement's cpu_kind (they share the baseline's CPU). */
static const char *meta_cpu_kind(const json_t *meta)
{
	json_t *e;
	size_t k;
	json_array_foreach(json_object_get(meta, "placements"), k, e)
		if (meta_string(e, "cpu_kind"))
			return meta_string(e, "cpu_kind");
	return NULL;
}

/* ---- the model ------------------------------------------------------------------------------ */

/* One placement per dataset group, in its order: the pair meta.json records for it, an array of
 * {name, pus, shares, core} (runs) or an object keyed by placement name with {pus} (the seed
 * example). */
static void make_placements(struct run_model *m)
{
	m->placements = xcalloc(m->data->group_count, sizeof *m->placements);
	for (size_t i = 0; i < m->data->group_count; i++) {
		struct run_placement *p = &m->placements[i];
		const json_t *entry = meta_placement(m->meta, m->data->groups[i].name);
		json_t *pus = json_object_get(entry, "pus");
		for (size_t k = 0; k < json_array_size(pus) && k < 2; k++)
			if (json_is_integer(json_array_get(pus, k)))
				p->pus[p->npus++] = (int)json_integer_value(json_array_get(pus, k));
		p->core = json_is_integer(json_object_get(entry, "core"))
		          ? (int)json_integer_value(json_object_get(entry, "core")) : -1;
		const char *shares = meta_string(entry, "shares");
		p->shares = shares && *shares ? shares : NULL;
	}
}

/* Each placement's posterior of mu from the first comparison that holds it (the headline's
 * first), so that the table and the plot show the numbers of the comparison people read. */
static void attach_posteriors(struct run_model *m)
{
	const struct analysis_result *r = m->result;
	for (size_t i = 0; i <= r->comparison_count; i++) {
		/* The headline, then every comparison in order (the headline again changes nothing). */
		const struct analysis_comparison *c = i ? &r->comparisons[i - 1] : m->headline;
		const struct analysis_group_summary *sides[2] = { &c->a, &c->b };
		for (int s = 0; s < 2; s++) {
			int g = analysis_dataset_find(m->data, sides[s]->name);
			if (g >= 0 && !m->placements[g].mu)
				m->placements[g].mu = sides[s];
		}
	}
}

const struct analysis_comparison *report_headline(const struct analysis_result *r,
                                                  const struct analysis_dataset *d)
{
	for (size_t i = 0; i < r->comparison_count; i++)
		if (r->comparisons[i].kind == COMPARISON_HEADLINE)
			return &r->comparisons[i];
	for (size_t i = 0; analysis_dataset_find(d, "sibling") < 0 && i < r->comparison_count; i++)
		if (!strcmp(r->comparisons[i].a.name, "non-sibling"))
			return &r->comparisons[i];
	return &r->comparisons[0];
}

/* The headline, and why there is no sibling (meta.json's first reason for skipping it). */
static void choose_headline(struct run_model *m)
{
	size_t k;
	json_t *e;
	m->headline = report_headline(m->result, m->data);
	m->no_sibling = analysis_dataset_find(m->data, "sibling") < 0;
	json_array_foreach(json_object_get(m->meta, "skipped_placements"), k, e)
		if (!m->no_sibling_reason && meta_string(e, "name")
		    && !strcmp(meta_string(e, "name"), "sibling"))
			m->no_sibling_reason = meta_string(e, "reason");
}

/* A folder judged by wall time: the headline comparison by user CPU time too (its threads'
 * CPU time together), from the same samples. Not known when the comparison cannot be made. */
static void compare_user_time(struct run_model *m)
{
	if (m->data->metric != ANALYSIS_METRIC_WALL)
		return;
	char err[ERR_LEN];
	struct analysis_dataset *user = analysis_load_folder(
		m->folder, &(struct analysis_take){ .metric_given = true, .metric = ANALYSIS_METRIC_USER,
		                                    .exclude_contaminated = m->exclude_contaminated },
		err, sizeof err);
	struct analysis_options opt;
	analysis_options_init(&opt);
	struct analysis_result *r = user ? analysis_run(user, &opt, err, sizeof err) : NULL;
	for (size_t i = 0; r && i < r->comparison_count && !m->user_known; i++) {
		const struct analysis_comparison *c = &r->comparisons[i];
		if (strcmp(c->a.name, m->headline->a.name) || strcmp(c->b.name, m->headline->b.name)
		    || !isfinite(c->ratio_mean) || !isfinite(c->ratio_ci[0]) || !isfinite(c->ratio_ci[1]))
			continue;
		m->user_known = true;
		m->user_ratio_mean = c->ratio_mean;
		memcpy(m->user_ratio_ci, c->ratio_ci, sizeof m->user_ratio_ci);
	}
	analysis_result_free(&r);
	analysis_dataset_free(&user);
}

static void run_model_free(struct run_model *m)
{
	free(m->placements);
	analysis_result_free(&m->result);
	analysis_dataset_free(&m->data);
}

/* The folder analysed the report's way (normal model, unit trial). -1 with err. */
static int run_model_load(struct run_model *m, struct results_folder *f,
                          const struct report_options *o, char *err, size_t err_size)
{
	*m = (struct run_model){ .folder = f, .meta = f->shown_meta,
	                         .exclude_contaminated = o->exclude_contaminated };
	m->data = analysis_load_folder(f, &(struct analysis_take){
		.exclude_contaminated = o->exclude_contaminated }, err, err_size);
	struct analysis_options opt;
	analysis_options_init(&opt);
	opt.rope_pct = o->rope_pct;
	m->result = m->data ? analysis_run(m->data, &opt, err, err_size) : NULL;
	if (!m->result) {
		run_model_free(m);
		return -1;
	}
	make_placements(m);
	choose_headline(m);
	attach_posteriors(m);
	compare_user_time(m);
	return 0;
}

/* ---- words -------------------------------------------------------------------------------- */

/* What the sentences say was measured: "each copy of `nop`", or with a second workload beside
 * it "`nop` (run beside `pause`)". */
static char *subject(const struct run_model *m)
{
	const char *a = m->data->workload, *b = m->data->beside_workload;
	bool one = m->data->one_process;
	if (b)
		return a ? xasprintf("`%s` (run beside `%s`)", a, b)
		         : xasprintf("the measured workload (run beside `%s`)", b);
	if (one)
		return a ? xasprintf("`%s` (one process on the placement's CPUs)", a)
		         : xstrdup("the workload (one process on the placement's CPUs)");
	return a ? xasprintf("each copy of `%s`", a) : xstrdup("each copy of the workload");
}

/* Where placement name ran ("on CPUs 0 and 1, "), or "" when not recorded. */
static char *where_text(const struct run_model *m, const char *name)
{
	int g = analysis_dataset_find(m->data, name);
	const struct run_placement *p = g < 0 ? NULL : &m->placements[g];
	if (!p || p->npus == 0)
		return xstrdup("");
	if (p->core >= 0 && !strcmp(name, "sibling"))
		return xasprintf("on core %d, ", p->core);
	if (p->npus == 2 && p->pus[0] != p->pus[1])
		return xasprintf("on CPUs %d and %d, ", p->pus[0], p->pus[1]);
	return xasprintf("on CPU %d, ", p->pus[0]);
}

/* A comparison's sentence, with the accounting control's note after it. */
static char *comparison_sentence(const struct run_model *m, const struct analysis_comparison *c)
{
	char *where = where_text(m, c->a.name), *what = subject(m);
	char *a = xasprintf("%s placement", c->a.name);
	/* One process on same-pu and solo has the same one CPU: one placement measured twice
	 * (a folder from before run refused the two together), whose wall time should match. */
	const char *note = c->kind != COMPARISON_CONTROL ? ""
	                   : m->data->one_process
	                   ? " (with one process same-pu is solo's one CPU: the same placement "
	                     "measured twice, whose wall time should match, 1×)"
	                   : m->data->metric == ANALYSIS_METRIC_WALL
	                   ? " (the control: wall time should match solo, 1×)"
	                   : " (the accounting control: user time should match solo, 1×)";
	struct verdict_words w = { .where = where, .a = a, .subject = what, .note = note,
	                           .capitalise = true, .data = m->data };
	char *s = verdict_sentence(c, m->result->options.rope_pct, &w);
	free(where);
	free(what);
	free(a);
	return s;
}

/* ---- warnings: a table of producers, each adding what it finds, in the order shown --------- */

struct warnings {
	char **items;
	size_t count;
};

static void warn(struct warnings *w, char *message)
{
	strings_push(&w->items, &w->count, message);
}

static void warn_meta_problem(const struct run_model *m, struct warnings *w)
{
	const struct results_folder *f = m->folder;
	const char *lost = "the machine and the pairs are not reported";
	char *problem = NULL;
	if (f->meta_status == FOLDER_META_UNREADABLE)
		problem = xasprintf("%s; %s", f->meta_error, lost);
	else if (f->meta_status == FOLDER_META_NOT_JSON)
		problem = xasprintf("%s is not valid JSON (line %d: %s); %s", f->meta_path,
		                    f->meta_error_line, f->meta_error, lost);
	else if (f->meta_status == FOLDER_META_NOT_OBJECT)
		problem = xasprintf("%s is not a JSON object; %s", f->meta_path, lost);
	if (problem)
		warn(w, xescaped(problem));
	free(problem);
}

/* The same-pu control fails when it finds a difference from solo that matters: a verdict of
 * slower or faster whose ratio interval lies wholly outside 1 / (1 + t) to 1 + t, t being
 * CONTROL_TOLERANCE_PCT % (or the ROPE's, when one is given: symmetric in log as it is). Broken accounting is off by tens of percent; the paired design
 * resolves differences of 0.1 %, which a context switch's cache refill alone can make. */
static bool control_failed(const struct analysis_comparison *c, double rope_pct)
{
	bool decided = c->verdict == ANALYSIS_VERDICT_SLOWER || c->verdict == ANALYSIS_VERDICT_FASTER;
	if (!decided && isnan(rope_pct))
		return false;
	if (!isfinite(c->ratio_ci[0]) || !isfinite(c->ratio_ci[1]))
		return decided;
	double tolerance = (isnan(rope_pct) ? CONTROL_TOLERANCE_PCT : rope_pct) / 100;
	return c->ratio_ci[0] > 1 + tolerance || c->ratio_ci[1] < 1 / (1 + tolerance);
}

/* The control first: when it fails, nothing else in the report can be trusted. */
static void warn_control(const struct run_model *m, struct warnings *w)
{
	double rope = m->result->options.rope_pct;
	for (size_t i = 0; i < m->result->comparison_count; i++) {
		const struct analysis_comparison *c = &m->result->comparisons[i];
		if (c->kind != COMPARISON_CONTROL || !control_failed(c, rope))
			continue;
		struct format_ring ns = { .next = 0 };
		bool lower = c->verdict == ANALYSIS_VERDICT_FASTER;
		/* By the ratio, or where there is none by the difference. */
		bool ratio = isfinite(c->ratio_mean);
		const double *ci = ratio ? c->ratio_ci : c->diff_ci;
		const char *by = format_text(&ns, ratio ? "%s× solo's (95%% CI %s to %s)"
		                                        : "%s s from solo's (95%% CI %s to %s s)",
		         format_num(&ns, ratio ? c->ratio_mean : c->diff_mean, half_width(ci)),
		         format_num(&ns, ci[0], half_width(ci)), format_num(&ns, ci[1], half_width(ci)));
		warn(w, xasprintf("the accounting control failed: %s user time is %s, P(%s) = %.2f, "
		                  "where it should match solo's (1×, within ±%g%%). Either CPU-time "
		                  "accounting on this machine is suspect, and with it every other "
		                  "comparison in this report, or the workload loses its caches and TLB "
		                  "each time the two copies switch (expected of memory-bound code such "
		                  "as mem-chase)", c->a.name, by, lower ? "lower" : "higher",
		                  lower ? c->p_a_lt_b : c->p_a_gt_b,
		                  isnan(rope) ? CONTROL_TOLERANCE_PCT : rope));
	}
}

static void warn_machine(const struct run_model *m, struct warnings *w)
{
	json_t *quota = json_object_get(m->meta, "cpu_quota");
	double cpus = json_number_value(json_object_get(quota, "cpus"));
	const char *source = meta_string(quota, "source"), *hv = meta_string(m->meta, "hypervisor");
	if (cpus > 0 && cpus < 2)
		warn(w, xasprintf("a CPU quota of %.3g CPUs applied to the run%s%s%s: two busy "
		                  "processes could not run at the same time, so no pair's contention "
		                  "is what its placement says (see the overlap)", cpus,
		                  source ? " (" : "", source ? source : "", source ? ")" : ""));
	if (json_is_true(json_object_get(m->meta, "virtual_machine")))
		warn(w, xasprintf("virtual machine%s%s%s: its CPUs are the hypervisor's threads, so its "
		                  "'siblings' need not be siblings on the host, and other guests may "
		                  "share the cores", hv ? " (" : "", hv ? hv : "", hv ? ")" : ""));
}

static void warn_failed_trials(const struct run_model *m, struct warnings *w)
{
	if (m->data->failed_trials)
		warn(w, xasprintf("%zu failed trial(s) (a process did not end ok): counted, never "
		                  "analysed; see the status column of samples.csv",
		                  m->data->failed_trials));
	json_t *log = json_object_get(m->meta, "workload_stderr_log");
	if (json_is_true(json_object_get(log, "cut"))) /* the run cut workload-stderr.log */
		warn(w, xasprintf("workload-stderr.log passed its cap of %lld MiB and was cut there: "
		                  "the workloads' later error output was discarded (said at the log's "
		                  "end)", (long long)(json_integer_value(json_object_get(log, "cap_bytes"))
		                                      >> 20)));
}

/* Trials that left processes running (which the runner killed: they competed with what
 * followed until then), and trials whose CPUs other work used, or the hypervisor stole; each
 * with its placements ("solo 3 of 60, same-pu 1 of 60"). */
static void warn_shared_cpus(const struct run_model *m, struct warnings *w)
{
	const struct analysis_dataset *d = m->data;
	size_t leftover = 0, processes = 0, contaminated = 0;
	char *left = xstrdup(""), *shared = xstrdup("");
	for (size_t i = 0; i < d->group_count; i++) {
		const struct analysis_group *g = &d->groups[i];
		leftover += g->leftover_trials;
		processes += g->leftovers;
		contaminated += g->contaminated_trials;
		if (g->leftover_trials)
			append_words(&left, "%s%s %zu", *left ? ", " : "", g->name, g->leftover_trials);
		if (g->contaminated_trials)
			append_words(&shared, "%s%s %zu of %zu", *shared ? ", " : "", g->name,
			             g->contaminated_trials, g->contamination_known);
	}
	if (leftover)
		warn(w, xasprintf("%zu trial(s) left processes running after they ended (%s): the "
		                  "runner killed %zu process(es) in all (the leftovers column of "
		                  "samples.csv); a workload that starts background processes should "
		                  "wait for them", leftover, left, processes));
	if (contaminated)
		warn(w, xasprintf("%zu trial(s) shared their CPUs: foreign CPU time or steal above %g%% "
		                  "of the trial's duration (from /proc/stat; the foreign_s and steal_s "
		                  "columns): %s; %s", contaminated, 100 * ANALYSIS_CONTAMINATED_SHARE,
		                  shared, m->exclude_contaminated
		                  ? "left out of this analysis (--exclude-contaminated)"
		                  : "`smtbench report --exclude-contaminated` (or `analyze "
		                    "--exclude-contaminated`) leaves them out"));
	free(left);
	free(shared);
}

/* "two CPUs", "3 CPUs". */
static const char *cpus_words(int n, char *buf, size_t size)
{
	static const char *const words[] = { "no", "one", "two", "three", "four" };
	if (n >= 0 && n < (int)(sizeof words / sizeof words[0]))
		snprintf(buf, size, "%s CPU%s", words[n], n == 1 ? "" : "s");
	else
		snprintf(buf, size, "%d CPUs", n);
	return buf;
}

/* One process given several CPUs whose threads ran on one of them (samples.csv's per_cpu_s):
 * those trials did not measure the placement. "In 7 of 10 non-sibling trials the process ran on
 * one of its two CPUs", every placement that had such trials named. */
static void warn_unspread(const struct run_model *m, struct warnings *w)
{
	const struct analysis_dataset *d = m->data;
	char *counts = xstrdup("");
	int cpus = 0;
	size_t named = 0, left = 0;
	for (size_t i = 0; i < d->group_count; i++)
		left += d->groups[i].unspread_trials > 0;
	for (size_t i = 0; i < d->group_count; i++) {
		const struct analysis_group *g = &d->groups[i];
		if (!g->unspread_trials)
			continue;
		named++;
		cpus = g->spread_cpus > cpus ? g->spread_cpus : cpus;
		append_words(&counts, "%s%zu of %zu %s trials",
		             named == 1 ? "" : named == left ? " and " : ", ", g->unspread_trials,
		             g->spread_known, g->name);
	}
	char words[32];
	if (named)
		warn(w, xasprintf("In %s the process ran on one of its %s (%g%% or more of its CPU time "
		                  "there: samples.csv's per_cpu_s): those trials timed one CPU, not the "
		                  "placement, and pull its time and every comparison with it toward one "
		                  "CPU's. A process with one busy thread does this, and so does a "
		                  "scheduler that keeps the threads together on a busy machine; the "
		                  "trials are analysed all the same: judge by a run in which the threads "
		                  "spread", counts, cpus_words(cpus, words, sizeof words),
		                  100 * (1 - SAMPLES_UNSPREAD_SHARE)));
	free(counts);
}

/* Each placement's own problems, in the words analyze's diagnostics use too. */
static void warn_groups(const struct run_model *m, struct warnings *w)
{
	for (size_t i = 0; i < m->result->group_count; i++)
		group_problems(&m->result->groups[i], unit_name(m->data->unit), &w->items,
		               &w->count);
}

/* Frequency: only placements whose rows recorded it. With none at all from a run of this tool
 * (meta.json has a host), say that the clock, one confounder, could not be watched, rather
 * than leave the MHz column to say it. */
static void warn_frequency(const struct run_model *m, struct warnings *w)
{
	const struct analysis_group *lo = NULL, *hi = NULL;
	for (size_t i = 0; i < m->data->group_count; i++) {
		const struct analysis_group *p = &m->data->groups[i];
		if (p->freq_n && (!lo || p->freq_mhz < lo->freq_mhz))
			lo = p;
		if (p->freq_n && (!hi || p->freq_mhz > hi->freq_mhz))
			hi = p;
	}
	if (lo && hi != lo && hi->freq_mhz > lo->freq_mhz * (1 + FREQ_WARN_FRACTION))
		warn(w, xasprintf("CPU frequency differs between placements: %s %.0f MHz, %s %.0f MHz "
		                  "(%.1f%%): turbo depends on how many cores are busy, so part of the "
		                  "difference may be the clock", hi->name, hi->freq_mhz, lo->name,
		                  lo->freq_mhz, 100 * (hi->freq_mhz / lo->freq_mhz - 1)));
	if (!lo && meta_string(m->meta, "host"))
		warn(w, xstrdup("CPU frequency was not readable on this machine (no cpufreq in /sys, as "
		                "in most virtual machines): a turbo difference between placements could "
		                "not be checked"));
}

/* The grid's bound, the analysis's notes, the lines of samples.csv skipped. */
static void warn_analysis(const struct run_model *m, struct warnings *w)
{
	const struct analysis_result *r = m->result;
	for (size_t i = 0; i < r->comparison_count; i++)
		if (r->comparisons[i].grid.at_bound)
			warn(w, xasprintf("%s vs %s: the posterior reaches the edge of the widest grid; "
			                  "collect more samples", r->comparisons[i].a.name,
			                  r->comparisons[i].b.name));
	for (size_t i = 0; i < r->note_count; i++)
		warn(w, xstrdup(r->notes[i]));
	if (m->data->warning_count)
		warn(w, xasprintf("%zu damaged line(s) of samples.csv skipped; the first: %s",
		                  m->data->warning_count, m->data->warnings[0]));
}

/* A pair whose CPUs are of different kinds: the machine allowed no pair of its placement
 * within one kind (meta.json's placements[].mixed_kinds). */
static void warn_kinds(const struct run_model *m, struct warnings *w)
{
	json_t *e;
	size_t k;
	json_array_foreach(json_object_get(m->meta, "placements"), k, e)
		if (json_is_true(json_object_get(e, "mixed_kinds")) && meta_string(e, "name"))
			warn(w, xasprintf("%s's CPUs are of different CPU kinds (this machine has no %s "
			                  "pair within one kind): its comparisons are confounded by the "
			                  "kinds' speeds", meta_string(e, "name"), meta_string(e, "name")));
}

/* The report's warnings, in the order shown: a new warning is one producer more here. */
static void (*const warning_producers[])(const struct run_model *, struct warnings *) = {
	warn_meta_problem, warn_control, warn_machine, warn_kinds, warn_failed_trials, warn_shared_cpus,
	warn_unspread, warn_groups, warn_frequency, warn_analysis,
};

/* ---- the document ------------------------------------------------------------------------- */

/* What the document and report.json both say in words: every comparison's sentence, the
 * answer by user time (or NULL), the warnings. */
struct run_words {
	char **sentences;          /* one per comparison, in the result's order */
	size_t sentence_count;
	char *user_time;
	struct warnings warnings;
};

static void run_words_make(struct run_words *w, const struct run_model *m)
{
	*w = (struct run_words){ NULL, 0, NULL, { NULL, 0 } };
	for (size_t i = 0; i < m->result->comparison_count; i++)
		strings_push(&w->sentences, &w->sentence_count,
		             comparison_sentence(m, &m->result->comparisons[i]));
	if (m->user_known) {
		/* The one number rule (words.h), at half the interval's width, as the answer's. */
		struct format_ring ns = { .next = 0 };
		double res = (m->user_ratio_ci[1] - m->user_ratio_ci[0]) / 2;
		w->user_time = xasprintf("%s takes %s× the user CPU time of %s (its threads' CPU time "
		                         "together; 95%% CI %s–%s, %s); the answer above is by wall "
		                         "time, the program's elapsed time", m->headline->a.name,
		                         format_num(&ns, m->user_ratio_mean, res), m->headline->b.name,
		                         format_num(&ns, m->user_ratio_ci[0], res),
		                         format_num(&ns, m->user_ratio_ci[1], res),
		                         design_name(m->headline->design));
	}
	for (size_t i = 0; i < sizeof warning_producers / sizeof warning_producers[0]; i++)
		warning_producers[i](m, &w->warnings);
}

static void run_words_free(struct run_words *w)
{
	strings_release(&w->sentences, &w->sentence_count);
	strings_release(&w->warnings.items, &w->warnings.count);
	free(w->user_time);
}

/* The opening every output shows before the rest: why there is no sibling answer, the answer,
 * the answer by user time, the SMT yield, why the run stopped, what was left out. */
static void opening(struct doc *d, const struct run_model *m, const struct run_words *w)
{
	const char *answer = w->sentences[m->headline - m->result->comparisons];
	if (m->no_sibling)
		doc_para(d, DOC_ALL, NULL, NULL, "nosmt", "No sibling placement was measured%s%s%s: the "
		         "sibling question (does sharing a core hurt?) needs an SMT machine. What this "
		         "run can say:", m->no_sibling_reason ? " (" : "",
		         m->no_sibling_reason ? m->no_sibling_reason : "", m->no_sibling_reason ? ")" : "");
	doc_para(d, DOC_ALL, "Answer", "verdict", "verdict", "%s", answer);
	if (w->user_time)
		doc_para(d, DOC_ALL, "By user time", "user-time", NULL, "%s.", w->user_time);
	char *yield = smt_yield_sentence(&m->result->smt_yield, m->data->workload);
	if (yield)
		doc_para(d, DOC_ALL, "SMT yield", "smt-yield", NULL, "%s.", yield);
	free(yield);
	char *stop = stop_sentence(m->folder);
	if (*stop)
		doc_para(d, DOC_ALL, NULL, "stopped", NULL, "%s", stop);
	free(stop);
	if (m->exclude_contaminated)
		doc_para(d, DOC_ALL, NULL, "excluded", NULL, "Left out: %zu trial(s) that shared their "
		         "CPUs (foreign CPU time or steal above %g%% of the trial's duration), as "
		         "--exclude-contaminated asks.", m->data->excluded_contaminated,
		         100 * ANALYSIS_CONTAMINATED_SHARE);
}

/* What one sample is, for the terminal's Workload line and the files' Placements section. */
static void sample_words(struct doc *d, const struct run_model *m)
{
	const char *a = m->data->workload, *b = m->data->beside_workload;
	const char *unit = unit_name(m->data->unit), *metric = metric_name(m->data->metric);
	const char *shown = a ? a : "the workload";
	if (b) {
		doc_para(d, DOC_TEXT, "Workload", NULL, NULL, "%s, run beside %s (role b, not measured); "
		         "unit of analysis: one %s (%s of %s, the measured workload, role a)",
		         a ? a : "not recorded", b, unit, metric, shown);
		doc_para(d, DOC_FILES, NULL, NULL, NULL, "One sample per %s: the %s of `%s`, the "
		         "measured workload (role a); `%s` ran beside it (role b) and is not measured. "
		         "The interval is the 95%% credible interval of the mean.", unit, metric, shown, b);
	} else if (m->data->one_process) {
		doc_para(d, DOC_TEXT, "Workload", NULL, NULL, "%s, one process on each placement's "
		         "CPUs; unit of analysis: one %s (its %s)", a ? a : "not recorded", unit, metric);
		doc_para(d, DOC_FILES, NULL, NULL, NULL, "One sample per %s: the %s of its one process "
		         "of `%s`, bound to all of the placement's CPUs (run --one-process; its threads "
		         "placed by the scheduler). The interval is the 95%% credible interval of the "
		         "mean.", unit, metric, shown);
	} else {
		doc_para(d, DOC_TEXT, "Workload", NULL, NULL, "%s; unit of analysis: one %s (mean %s of "
		         "its copies)", a ? a : "not recorded", unit, metric);
		doc_para(d, DOC_FILES, NULL, NULL, NULL, "One sample per %s: the mean %s of its copies "
		         "of `%s`. The interval is the 95%% credible interval of the mean.", unit, metric,
		         shown);
	}
}

static void placements_table(struct doc *d, const struct run_model *m)
{
	static const struct doc_column columns[] = {
		{ "placement", 14, false, 0 }, { "CPUs", 8, false, 0 }, { "shares", 12, false, 0 },
		{ "n", 6, true, 0 }, { "mean s", 0, true, 2 }, { "95% CI of mean s", 0, true, 2 },
		{ "MHz", 0, true, 2 },
	};
	doc_table(d, DOC_ALL, "placements", columns, sizeof columns / sizeof columns[0]);
	for (size_t i = 0; i < m->data->group_count; i++) {
		const struct run_placement *p = &m->placements[i];
		const struct analysis_group *g = &m->data->groups[i];
		struct format_ring ns = { .next = 0 };
		double res = p->mu ? half_width(p->mu->mu_ci) : NAN;
		const char *pus = !p->npus ? "?" : p->npus == 1 || p->pus[0] == p->pus[1]
		                  ? format_text(&ns, "%d", p->pus[0])
		                  : format_text(&ns, "%d,%d", p->pus[0], p->pus[1]);
		doc_row(d, g->name, pus, p->shares, format_text(&ns, "%zu", g->n),
		        format_num(&ns, group_mean(g), res),
		        p->mu ? format_ci(&ns, p->mu->mu_ci, res) : "n/a",
		        g->freq_n ? format_text(&ns, "%.0f", g->freq_mhz) : "-");
	}
	size_t k;
	json_t *e;
	json_array_foreach(json_object_get(m->meta, "skipped_placements"), k, e)
		if (meta_string(e, "name"))
			doc_para(d, DOC_ALL, NULL, NULL, "muted", "%s: not run: %s", meta_string(e, "name"),
			         meta_string(e, "reason") ? meta_string(e, "reason") : "");
}

/* A mean that the grid, not the data, decides (too few samples): marked, explained below. */
#define GRID_MARK "†"

static void comparisons_table(struct doc *d, const struct run_model *m, char **sentences)
{
	static const struct doc_column columns[] = {
		{ "A", 0, false, 0 }, { "B", 0, false, 0 }, { "role", 0, false, 0 },
		{ "answer (95% CI)", 0, true, 0 },
		{ "A/B", 0, true, 0 }, { "95% CI", 0, true, 0 }, { "A−B s", 0, true, 0 },
		{ "95% CI s", 0, true, 0 }, { "P(A slower)", 0, true, 0 }, { "verdict", 0, false, 0 },
	};
	const struct analysis_result *r = m->result;
	bool unsettled = false;
	doc_heading(d, DOC_FILES, NULL, "Comparisons");
	for (size_t i = 0; i < r->comparison_count; i++)
		doc_item(d, DOC_FILES, NULL, NULL, "%s", sentences[i]);
	doc_table(d, DOC_FILES, "comparisons", columns, sizeof columns / sizeof columns[0]);
	for (size_t i = 0; i < r->comparison_count; i++) {
		const struct analysis_comparison *c = &r->comparisons[i];
		struct format_ring ns = { .next = 0 };
		double rres = half_width(c->ratio_ci), dres = half_width(c->diff_ci);
		bool settled = analysis_comparison_settled(c);
		unsettled = unsettled || !settled;
		const char *mark = settled ? "" : " " GRID_MARK;
		const char *ratio = format_text(&ns, "%s%s", format_num(&ns, c->ratio_mean, rres), mark);
		const char *diff = format_text(&ns, "%s%s", format_signed(&ns, c->diff_mean, dres), mark);
		/* The verdict qualified as its sentence is (words.h's conditions). */
		const char *verdict = format_text(&ns, "%s%s%s", verdict_name(c->verdict),
		                                  analysis_under_load(c) ? ", under load" : "",
		                                  c->halves_disagree ? ", doubtful" : "");
		/* The answer's framing ("1.19× faster") beside the raw A/B, so both read alike. */
		doc_row(d, c->a.name, c->b.name, comparison_kind_name(c->kind), format_effect(&ns, c),
		        ratio, format_ci(&ns, c->ratio_ci, rres), diff, format_ci(&ns, c->diff_ci, dres),
		        format_text(&ns, "%.2f", c->p_a_gt_b), verdict);
	}
	if (unsettled)
		doc_para(d, DOC_FILES, NULL, NULL, "muted", "%s The mean depends on the grid: with fewer "
		         "than %d samples in a group (or a posterior that reaches the edge of the widest "
		         "grid) the posterior has no mean of its own; run more trials.", GRID_MARK,
		         ANALYSIS_SETTLED_MIN_N);
}

static void diagnostics_table(struct doc *d, const struct run_model *m)
{
	static const struct doc_column columns[] = {
		{ "placement", 0, false, 0 }, { "n", 0, true, 0 }, { "outliers", 0, true, 0 },
		{ "drift s per trial", 0, true, 0 }, { "95% CI", 0, true, 0 },
		{ "first half s", 0, true, 0 }, { "second half s", 0, true, 0 },
		{ "failed", 0, true, 0 }, { "poor overlap", 0, true, 0 },
	};
	doc_heading(d, DOC_FILES, NULL, "Diagnostics per placement");
	doc_table(d, DOC_FILES, "diagnostics", columns, sizeof columns / sizeof columns[0]);
	for (size_t i = 0; i < m->result->group_count; i++) {
		const struct analysis_group_diagnostics *g = &m->result->groups[i];
		const struct analysis_group *grp = g->group;
		struct format_ring ns = { .next = 0 };
		double res = half_width(g->drift_slope_ci);
		double hres = fabs(g->second_half_mean_s - g->first_half_mean_s) / 4;
		doc_row(d, grp->name, format_text(&ns, "%zu", grp->n),
		        format_text(&ns, "%zu", g->outlier_count),
		        format_signed(&ns, g->drift_slope_s, res),
		        format_ci(&ns, g->drift_slope_ci, res),
		        format_num(&ns, g->first_half_mean_s, hres),
		        format_num(&ns, g->second_half_mean_s, hres),
		        format_text(&ns, "%zu", grp->failed_trials),
		        grp->overlap_known ? format_text(&ns, "%zu of %zu", grp->poor_overlap_trials,
		                                         grp->overlap_known) : "not recorded");
	}
}

/* A value of meta.json for a person: null as "not readable", true/false as yes/no, an object
 * or array as its members "key: value" (a short form, never raw JSON). */
static void json_words(FILE *out, const json_t *v)
{
	const char *key, *sep = "";
	json_t *member;
	size_t i;
	if (json_is_string(v) || json_is_null(v) || json_is_boolean(v)) {
		fputs(json_is_string(v) ? json_string_value(v) : json_is_null(v) ? "not readable"
		      : json_is_true(v) ? "yes" : "no", out);
	} else if (json_is_object(v) || json_is_array(v)) {
		if (!json_object_size(v) && !json_array_size(v))
			fputs("none", out);
		json_object_foreach((json_t *)v, key, member) {
			fprintf(out, "%s%s: ", sep, key);
			json_words(out, member);
			sep = "; ";
		}
		json_array_foreach(v, i, member) {
			fputs(i ? ", " : "", out);
			json_words(out, member);
		}
	} else {
		char *text = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
		fputs(text ? text : "?", out);
		free(text);
	}
}

/* A value of meta.json as one cell's text; the topology as "2 PUs, 2 cores, 1 package; 1
 * thread per core", and the CPU model by the one rule (cpu_model.h), as the Machine line. */
static char *meta_cell(const json_t *meta, const char *key, const json_t *v)
{
	static const struct { const char *key, *one, *many; } counts[] = {
		{ "pus", "PU", "PUs" }, { "cores", "core", "cores" },
		{ "packages", "package", "packages" } };
	char *text = NULL, *model = NULL;
	size_t len = 0;
	FILE *out = xmemstream(&text, &len);
	bool any = false;
	for (size_t i = 0; !strcmp(key, "topology") && i < 3; i++) {
		json_t *n = json_object_get(v, counts[i].key);
		if (!json_is_integer(n))
			continue;
		long long count = (long long)json_integer_value(n);
		fprintf(out, "%s%lld %s", any ? ", " : "", count, count == 1 ? counts[i].one
		                                                              : counts[i].many);
		any = true;
	}
	json_t *threads = json_object_get(v, "max_threads_per_core");
	if (any && json_is_integer(threads))
		fprintf(out, "; %lld thread%s per core", (long long)json_integer_value(threads),
		        json_integer_value(threads) == 1 ? "" : "s");
	if (!strcmp(key, "cpu_model") && (model = cpu_model_of_meta(meta)) && *model)
		fputs(model, out);
	else if (!any)
		json_words(out, v);
	free(model);
	return xmemstream_close(out, &text);
}

/* The machine and every fact meta.json records of the run, then its settings. */
static void machine_section(struct doc *d, const struct run_model *m)
{
	static const char *const keys[] = {
		"host", "cpu_model", "cpu_model_sources", "os_kernel", "hwloc_version", "smt_control",
		"smt_active", "governor", "virtual_machine", "hypervisor", "topology", "version",
		"created_utc", "status", "trials_done", "seed", "command_line", "source", "command",
		"workload" };
	static const struct doc_column fact[] = { { "key", 0, false, 0 }, { "value", 0, false, 0 } };
	static const struct doc_column setting[] = { { "setting", 0, false, 0 },
	                                              { "value", 0, false, 0 } };
	char *machine = machine_sentence(m->meta);
	doc_heading(d, DOC_FILES, NULL, "Machine");
	doc_para(d, DOC_FILES, NULL, NULL, NULL, "%s", machine);
	free(machine);
	if (!m->meta)
		return;
	doc_table(d, DOC_FILES, "meta", fact, 2);
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		json_t *v = json_object_get(m->meta, keys[i]);
		char *cell = v ? meta_cell(m->meta, keys[i], v) : NULL;
		if (cell)
			doc_row(d, keys[i], cell);
		free(cell);
	}
	json_t *settings = json_object_get(m->meta, "settings"), *v;
	const char *key;
	if (!json_is_object(settings))
		return;
	doc_heading(d, DOC_FILES, NULL, "Settings");
	doc_table(d, DOC_FILES, "settings", setting, 2);
	json_object_foreach(settings, key, v) {
		char *cell = meta_cell(NULL, "", v);
		doc_row(d, key, cell);
		free(cell);
	}
}

/* How to read the answer: the design that produced each comparison (paired by block, and the
 * unpaired model where a comparison fell back to it), the verdict rule and the unit. */
static void how_to_read(struct doc *d, const struct run_model *m)
{
	const struct analysis_result *r = m->result;
	bool paired = false, unpaired = false;
	for (size_t i = 0; i < r->comparison_count; i++) {
		paired = paired || r->comparisons[i].design == ANALYSIS_DESIGN_PAIRED;
		unpaired = unpaired || r->comparisons[i].design != ANALYSIS_DESIGN_PAIRED;
	}
	doc_heading(d, DOC_FILES, NULL, "How to read this");
	if (paired)
		doc_para(d, DOC_FILES, NULL, NULL, NULL, "Paired by block%s: each block ran every "
		         "placement once, in a random order, so a comparison A vs B takes, in each block "
		         "where both have a usable trial, d = log(A's time) − log(B's time); whatever "
		         "drifts during the run (the clock, the temperature, other load) hits a block's "
		         "placements alike and cancels in d. The model is d ~ Normal(delta, sigma) with "
		         "uniform priors, whose posterior of delta is a Student t with n − 2 degrees of "
		         "freedom for n blocks (on a grid with a Student-t likelihood, --model t); the "
		         "ratio A/B is exp(delta), a ratio of geometric means, and P(slower) is "
		         "P(delta > 0).", unpaired ? " (the comparisons said to be paired)" : "");
	if (unpaired)
		doc_para(d, DOC_FILES, NULL, NULL, NULL, "Unpaired%s: each placement's samples are "
		         "modelled as Normal(mu, sigma) with uniform priors, computed on a grid; the "
		         "ratio A/B is mu_A / mu_B and P(slower) is P(mu_A > mu_B).",
		         paired ? " (the comparisons said to be unpaired)" : "");
	doc_para(d, DOC_FILES, NULL, NULL, NULL, "A 95%% credible interval holds the true ratio (or "
	         "difference) with probability 0.95 given the data and the model. The verdict says "
	         "slower or faster only when P(slower) (or its complement) is at least %g, the same "
	         "evidence as a 95%% interval of the difference that excludes 0 (with --rope, P beyond "
	         "the ROPE on that side), and practically the same when the ratio lies within the ROPE with "
	         "probability %g or more. The answer quotes a speed-up as its own factor (A/B 0.84 is "
	         "1.19× faster), as the comparisons table's answer column does beside A/B. The unit "
	         "is seconds of %s (%s). Every number is in report.json.",
	         ANALYSIS_DIRECTION_PROBABILITY, ANALYSIS_EQUIVALENCE_PROBABILITY,
	         metric_name(m->data->metric), m->data->metric == ANALYSIS_METRIC_WALL
	                              ? "from release to reaping, monotonic clock" : "wait4's rusage");
}

/* The whole document: the answer first, then the placements, the comparisons, the warnings,
 * the diagnostics, the plots, the machine and how to read it. */
static struct doc *run_doc(const struct run_model *m, const struct run_words *w)
{
	const struct analysis_result *r = m->result;
	char **sentences = w->sentences;
	struct doc *d = doc_new("smtbench report: %s", m->folder->shown_dir);
	opening(d, m, w);
	char *machine = machine_sentence(m->meta);
	/* On the terminal a blank line before it: an empty paragraph that only the text shows. */
	doc_para(d, DOC_TEXT, NULL, NULL, NULL, "%s", "");
	doc_para(d, DOC_TEXT, "Machine", NULL, NULL, "%s", machine);
	free(machine);
	doc_heading(d, DOC_FILES, NULL, "Placements");
	if (meta_cpu_kind(m->meta))
		doc_para(d, DOC_ALL, "CPU kind", NULL, NULL, "%s: the machine has several kinds of "
		         "core; the baseline and the pairs were chosen within this one",
		         meta_cpu_kind(m->meta));
	sample_words(d, m);
	placements_table(d, m);
	if (r->comparison_count > 1) {
		doc_heading(d, DOC_TEXT, NULL, "Also");
	}
	for (size_t i = 0; i < r->comparison_count; i++)
		if (&r->comparisons[i] != m->headline)
			doc_item(d, DOC_TEXT, NULL, NULL, "%s", sentences[i]);
	comparisons_table(d, m, sentences);
	doc_heading(d, DOC_ALL, "warnings", "Warnings");
	for (size_t i = 0; i < w->warnings.count; i++)
		doc_item(d, DOC_ALL, NULL, "warn", "%s", w->warnings.items[i]);
	if (!w->warnings.count)
		doc_para(d, DOC_ALL, NULL, NULL, NULL, "None: no drift, outliers, failed trials or "
		         "frequency differences found.");
	diagnostics_table(d, m);
	doc_heading(d, DOC_FILES, NULL, "Plots");
	doc_figure(d, "plot-posterior", "posterior.svg",
	           "Posterior of each placement's mean and of the difference", plot_posterior(m));
	doc_figure(d, "plot-run-order", "run-order.svg", "Every sample in run order",
	           plot_run_order(m));
	doc_figure(d, "plot-samples", "samples.svg", "Samples per placement", plot_samples(m));
	machine_section(d, m);
	how_to_read(d, m);
	return d;
}

/* ---- report.json ---------------------------------------------------------------------------- */

static json_t *placements_json(const struct run_model *m)
{
	json_t *all = json_array();
	for (size_t i = 0; i < m->data->group_count; i++) {
		const struct run_placement *p = &m->placements[i];
		const struct analysis_group *g = &m->data->groups[i];
		json_t *pus = json_array();
		for (int k = 0; k < p->npus; k++)
			json_array_append_new(pus, json_integer(p->pus[k]));
		json_array_append_new(all, json_pack(
			"{s:s, s:o, s:o?, s:s?, s:I, s:o, s:o, s:o, s:o, s:I}", "name", g->name, "pus", pus,
			"core", p->core >= 0 ? json_integer(p->core) : NULL, "shares", p->shares,
			"n", (json_int_t)g->n, "mean_s", json_number_or_null(group_mean(g)),
			"mu_mean_s", json_number_or_null(p->mu ? p->mu->mu_mean : NAN),
			"mu_ci_s", json_interval(p->mu ? p->mu->mu_ci : (const double[2]){ NAN, NAN }),
			"freq_mhz", json_number_or_null(g->freq_n ? g->freq_mhz : NAN),
			"freq_samples", (json_int_t)g->freq_n));
	}
	return all;
}

static json_t *headline_json(const struct run_model *m, const char *sentence)
{
	const struct analysis_comparison *h = m->headline;
	return json_pack("{s:I, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:s}",
	                 "comparison", (json_int_t)(h - m->result->comparisons), "label",
	                 comparison_kind_name(h->kind),
	                 "a", h->a.name, "b", h->b.name, "sentence", sentence,
	                 "ratio_mean", json_number_or_null(h->ratio_mean),
	                 "ratio_ci", json_interval(h->ratio_ci),
	                 "diff_mean_s", json_number_or_null(h->diff_mean),
	                 "diff_ci_s", json_interval(h->diff_ci),
	                 "p_slower", json_number_or_null(h->p_a_gt_b), "verdict",
	                 verdict_name(h->verdict));
}

/* report.json: the keys of results/README.md's contract, from the same model and words. */
static json_t *run_json(const struct run_model *m, const struct run_words *w, const struct doc *d)
{
	char *machine = machine_sentence(m->meta), *incomplete = incomplete_sentence(m->folder);
	json_t *o = json_pack(
		"{s:i, s:s, s:s?, s:s, s:o, s:o, s:b, s:o, s:o, s:o, s:o, s:O?, s:s?, s:s?, s:s, s:b, "
		"s:s?, s:o?, s:o?, s:s?, s:s?}",
		"report_version", 1, "dir", m->folder->shown_dir, "workload", m->data->workload,
		"machine", machine, "placements", placements_json(m),
		"headline", headline_json(m, w->sentences[m->headline - m->result->comparisons]),
		"no_sibling", m->no_sibling, "sentences", json_strings(w->sentences, w->sentence_count),
		"warnings", json_strings(w->warnings.items, w->warnings.count),
		"files", report_files(d, "report"), "analysis", analyze_json(m->result),
		"meta", (json_t *)m->meta, "no_sibling_reason", m->no_sibling_reason,
		"stop_reason", meta_string(m->meta, "stop_reason"),
		/* Which time answered (samples_csv.h's names), and how the trials were run. */
		"metric", m->data->metric == ANALYSIS_METRIC_WALL ? SAMPLES_METRIC_WALL
		                                                  : SAMPLES_METRIC_USER,
		"one_process", m->data->one_process,
		/* The CPU kind the placements were chosen within (several kinds), else null. */
		"cpu_kind", meta_cpu_kind(m->meta),
		/* A folder judged by wall time: the headline by user CPU time too (null otherwise). */
		"user_time", w->user_time ? json_pack("{s:f, s:[f, f], s:s}", "ratio_mean",
		                                      m->user_ratio_mean, "ratio_ci", m->user_ratio_ci[0],
		                                      m->user_ratio_ci[1], "sentence", w->user_time)
		                          : NULL,
		/* null: not asked to leave anything out; a count (0 too) with --exclude-contaminated. */
		"excluded_contaminated", m->exclude_contaminated
		                         ? json_integer((json_int_t)m->data->excluded_contaminated) : NULL,
		/* A run that did not end (killed, interrupted, still written): the sentence with its
		 * --resume line; null otherwise. */
		"incomplete", incomplete,
		/* The folder's state (common/folder.h): null for a folder that records none. */
		"state", m->folder->state == FOLDER_UNRECORDED ? NULL
		         : folder_state_name(m->folder->state));
	free(machine);
	free(incomplete);
	return o;
}

struct report *run_report(struct results_folder *f, const struct report_options *o, char *err,
                          size_t err_size)
{
	struct run_model m;
	if (run_model_load(&m, f, o, err, err_size) < 0)
		return NULL;
	struct run_words w;
	run_words_make(&w, &m);
	struct doc *d = run_doc(&m, &w);
	json_t *json = run_json(&m, &w, d);
	run_words_free(&w);
	run_model_free(&m);
	return report_new(d, json, "report", "Report",
	                  xasprintf("smtbench report %s", f->shown_dir));
}
