/*
 * report.c — the report's model: from a results folder to what a person reads first. Loads the
 * folder (samples.csv, meta.json, the workload's name and the frequencies), chooses the
 * headline and composes the sentences and warnings that report_text.c, report_json.c and
 * report_html.c show.
 *
 * Every number shown comes from the analysis result (the posterior summaries) or is computed
 * here from the dataset's public structs (frequency per placement from samples.csv), and the
 * same formatting rule (format_number, report/format.h) is used everywhere, so that the terminal, report.md and
 * report.json agree digit for digit as far as each shows.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cpu_model.h"
#include "common/fileio.h"
#include "report/internal.h"
#include "report/output.h"
#include "report/diagnostics.h"
#include "report/verdict.h"
#include "common/placements.h"

/* A frequency spread between placements above this fraction is worth a warning: turbo clocks
 * depend on how many cores are busy, which differs between placements. */
static const double FREQ_WARN_FRACTION = 0.02;

static int push(char ***list, size_t *count, char *s)
{
	if (!s)
		return -1;
	char **grown = realloc(*list, (*count + 1) * sizeof **list);
	if (!grown) {
		free(s);
		return -1;
	}
	*list = grown;
	grown[(*count)++] = s;
	return 0;
}

double report_half_width(const double ci[2])
{
	return fabs(ci[1] - ci[0]) / 2;
}

const char *report_unit_label(const struct report *rep)
{
	return rep->data->unit == ANALYSIS_UNIT_PROCESS ? "process" : "trial";
}

const char *report_metric_label(const struct report *rep)
{
	return rep->data->metric == ANALYSIS_METRIC_WALL ? "wall time" : "user CPU time";
}

const struct report_placement *report_find_placement(const struct report *rep, const char *name)
{
	for (size_t i = 0; i < rep->placement_count; i++)
		if (!strcmp(rep->placements[i].name, name))
			return &rep->placements[i];
	return NULL;
}

const char *report_headline(const struct report *rep)
{
	return rep->headline_text;
}

/* ---- reading the folder ---------------------------------------------------------------- */

const struct analysis_dataset *report_dataset(const struct report *rep)
{
	return rep->data;
}

const struct analysis_comparison *report_headline_comparison(const struct report *rep)
{
	return &rep->result->comparisons[rep->headline];
}

const char *report_meta_string(const json_t *meta, const char *key)
{
	return json_string_value(json_object_get(meta, key));
}

const char *report_no_sibling_text(const struct report *rep, char *buf, size_t size)
{
	snprintf(buf, size, "No sibling placement was measured%s%s%s: the sibling question (does "
	         "sharing a core hurt?) needs an SMT machine. What this run can say:",
	         rep->no_sibling_reason ? " (" : "",
	         rep->no_sibling_reason ? rep->no_sibling_reason : "",
	         rep->no_sibling_reason ? ")" : "");
	return buf;
}

const char *report_stop_text(const struct report *rep, char *buf, size_t size)
{
	buf[0] = '\0';
	const char *reason = report_meta_string(rep->meta, "stop_reason");
	if (!reason)
		return buf;
	json_t *settings = rep->meta ? json_object_get(rep->meta, "settings") : NULL;
	double target = json_number_value(json_object_get(settings, "precision_pct"));
	char missed[96] = "";
	if (target > 0 && strcmp(reason, "precision reached") != 0)
		snprintf(missed, sizeof missed, "; the ±%g%% precision target was not reached", target);
	if (!strcmp(reason, "precision reached"))
		snprintf(buf, size, "Stopped: precision reached (the runner's ±%g%% target for its "
		         "headline ratio's 95%% interval).", target);
	else if (!strcmp(reason, "trials"))
		snprintf(buf, size, "Stopped: trials (every planned block ran%s).", missed);
	else if (!strcmp(reason, "duration"))
		snprintf(buf, size, "Stopped: duration (the time budget ran out%s).", missed);
	else if (!strcmp(reason, "interrupted"))
		snprintf(buf, size, "Stopped: interrupted (continue with smtbench run --resume %s%s).",
		         rep->shown_dir, missed);
	else
		snprintf(buf, size, "Stopped: %s.", reason);
	return buf;
}

const char *report_exclusion_text(const struct report *rep, char *buf, size_t size)
{
	buf[0] = '\0';
	if (rep->exclude_contaminated)
		snprintf(buf, size, "Left out: %zu trial(s) that shared their CPUs (foreign CPU time "
		         "or steal above %g%% of the trial's duration), as --exclude-contaminated asks.",
		         rep->data->excluded_contaminated, 100 * ANALYSIS_CONTAMINATED_SHARE);
	return buf;
}

/* The pairs as meta.json records them: an array of {name, pus, shares, core} (runs), or an
 * object keyed by placement name with {pus} (the seed example). */
static void read_pairs(struct report *rep)
{
	json_t *pl = json_object_get(rep->meta, "placements");
	for (size_t i = 0; i < rep->placement_count; i++) {
		struct report_placement *p = &rep->placements[i];
		json_t *entry = NULL;
		if (json_is_array(pl)) {
			size_t k;
			json_t *e;
			json_array_foreach(pl, k, e)
				if (json_is_string(json_object_get(e, "name"))
				    && !strcmp(report_meta_string(e, "name"), p->name))
					entry = e;
		} else if (json_is_object(pl)) {
			entry = json_object_get(pl, p->name);
		}
		if (!json_is_object(entry))
			continue;
		json_t *pus = json_object_get(entry, "pus");
		for (size_t k = 0; json_is_array(pus) && k < json_array_size(pus) && k < 2; k++)
			if (json_is_integer(json_array_get(pus, k)))
				p->pus[p->npus++] = (int)json_integer_value(json_array_get(pus, k));
		json_t *core = json_object_get(entry, "core");
		if (json_is_integer(core))
			p->core = (int)json_integer_value(core);
		const char *shares = report_meta_string(entry, "shares");
		if (shares && *shares)
			p->shares = strdup(shares);
	}
}

/* What the loader kept of samples.csv besides the samples: the frequency of each placement's
 * measured rows and the workloads' names (the one pass over the file is the loader's). */
static int copy_csv_extras(struct report *rep)
{
	const struct analysis_dataset *d = rep->data;
	for (size_t i = 0; i < rep->placement_count && i < d->group_count; i++)
		if (d->groups[i].freq_n) {
			rep->placements[i].freq_mhz = d->groups[i].freq_mhz;
			rep->placements[i].freq_n = d->groups[i].freq_n;
		}
	if (d->workload && !(rep->workload = strdup(d->workload)))
		return -1;
	if (d->beside_workload && !(rep->beside_workload = strdup(d->beside_workload)))
		return -1;
	return 0;
}

/* ---- words ------------------------------------------------------------------------------ */

static char *where_text(const struct report_placement *p)
{
	if (!p || p->npus == 0)
		return strdup("");
	if (p->core >= 0 && !strcmp(p->name, "sibling"))
		return text_printf("on core %d, ", p->core);
	if (p->npus == 2 && p->pus[0] != p->pus[1])
		return text_printf("on CPUs %d and %d, ", p->pus[0], p->pus[1]);
	return text_printf("on CPU %d, ", p->pus[0]);
}

char *report_subject(const struct report *rep)
{
	if (rep->beside_workload && rep->workload)
		return text_printf("`%s` (run beside `%s`)", rep->workload,
		                              rep->beside_workload);
	if (rep->beside_workload)
		return text_printf("the measured workload (run beside `%s`)",
		                              rep->beside_workload);
	if (rep->workload && rep->data->one_process)
		return text_printf("`%s` (one process on the placement's CPUs)", rep->workload);
	if (rep->data->one_process)
		return strdup("the workload (one process on the placement's CPUs)");
	if (rep->workload)
		return text_printf("each copy of `%s`", rep->workload);
	return strdup("each copy of the workload");
}

/* The accounting control's note, after its sentence. */
static const char *control_note(const struct report *rep, const struct analysis_comparison *c)
{
	if (c->kind != COMPARISON_CONTROL)
		return "";
	/* One process on same-pu and solo has the same one CPU: its wall time should match. */
	return rep->data->metric == ANALYSIS_METRIC_WALL
	       ? " (the control: wall time should match solo, 1×)"
	       : " (the accounting control: user time should match solo, 1×)";
}

static char *comparison_sentence(const struct report *rep, const struct analysis_comparison *c)
{
	char *where = where_text(report_find_placement(rep, c->a.name));
	char *what = report_subject(rep);
	char *a = text_printf("%s placement", c->a.name);
	char *s = NULL;
	if (where && what && a) {
		bool trials = rep->data->unit == ANALYSIS_UNIT_TRIAL;
		struct verdict_words w = { .where = where, .a = a, .subject = what,
		                           .samples = trials ? "trials" : "samples",
		                           .more = "run more trials", .per = "placement",
		                           .note = control_note(rep, c), .capitalise = true };
		s = verdict_sentence(c, rep->result->options.rope_pct, &w);
	}
	free(where);
	free(what);
	free(a);
	return s;
}

static char *machine_text(const json_t *meta)
{
	if (!meta)
		return strdup("not recorded (no readable meta.json)");
	char *cpu = cpu_model_of_meta(meta); /* the one rule, for folders of every age */
	const char *host = report_meta_string(meta, "host");
	json_t *topo = json_object_get(meta, "topology");
	char *s = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&s, &len);
	if (!out)
		return NULL;
	bool named = cpu && *cpu;
	fprintf(out, "%s", named ? cpu : "CPU model not recorded");
	free(cpu);
	if (host)
		fprintf(out, " on host %s", host);
	if (json_is_object(topo))
		fprintf(out, ": %lld cores, %lld logical CPUs, %lld thread(s) per core, %lld package(s)",
		        (long long)json_integer_value(json_object_get(topo, "cores")),
		        (long long)json_integer_value(json_object_get(topo, "pus")),
		        (long long)json_integer_value(json_object_get(topo, "max_threads_per_core")),
		        (long long)json_integer_value(json_object_get(topo, "packages")));
	if (json_is_true(json_object_get(meta, "virtual_machine"))) {
		const char *hv = report_meta_string(meta, "hypervisor");
		fprintf(out, "; virtual machine%s%s%s", hv ? " (" : "", hv ? hv : "", hv ? ")" : "");
	}
	const char *smt = report_meta_string(meta, "smt_control");
	if (smt)
		fprintf(out, "; SMT control: %s", smt);
	const char *source = report_meta_string(meta, "source");
	if (!named && !host && source)
		fprintf(out, " (data from: %s)", source);
	fclose(out);
	return s;
}

/* The same-pu control fails when it finds a difference from solo that matters: a verdict of
 * slower or faster whose ratio interval lies wholly outside 1 / (1 + t) to 1 + t, t being
 * REPORT_CONTROL_TOLERANCE_PCT % (or the ROPE's, when one is given: symmetric in log as it is). Broken accounting is off by tens of percent; the paired
 * design resolves differences of 0.1 %, which a context switch's cache refill alone can make. */
static bool control_failed(const struct analysis_comparison *c, double rope_pct)
{
	if (c->verdict != ANALYSIS_VERDICT_SLOWER && c->verdict != ANALYSIS_VERDICT_FASTER &&
	    isnan(rope_pct))
		return false;
	if (!isfinite(c->ratio_ci[0]) || !isfinite(c->ratio_ci[1]))
		return c->verdict == ANALYSIS_VERDICT_SLOWER || c->verdict == ANALYSIS_VERDICT_FASTER;
	double tolerance = (isnan(rope_pct) ? REPORT_CONTROL_TOLERANCE_PCT : rope_pct) / 100;
	return c->ratio_ci[0] > 1 + tolerance || c->ratio_ci[1] < 1 / (1 + tolerance);
}

/* ---- warnings: a table of producers, each adding what it finds, in the order shown --------- */

static int warn(struct report *rep, char *message)
{
	return push(&rep->warnings, &rep->warning_count, message);
}

static int warn_meta_problem(struct report *rep)
{
	return rep->meta_problem ? warn(rep, strdup(rep->meta_problem)) : 0;
}

static int warn_failed_control(struct report *rep, const struct analysis_comparison *c)
{
	struct format_ring ns = { .next = 0 };
	char *by;
	if (isfinite(c->ratio_mean)) {
		double res = report_half_width(c->ratio_ci);
		by = text_printf("%s× solo's (95%% CI %s to %s)",
		                            format_num(&ns, c->ratio_mean, res),
		                            format_num(&ns, c->ratio_ci[0], res),
		                            format_num(&ns, c->ratio_ci[1], res));
	} else {
		double res = report_half_width(c->diff_ci);
		by = text_printf("%s s from solo's (95%% CI %s to %s s)",
		                            format_num(&ns, c->diff_mean, res),
		                            format_num(&ns, c->diff_ci[0], res),
		                            format_num(&ns, c->diff_ci[1], res));
	}
	int pushed = by ? warn(rep, text_printf(
		"the accounting control failed: %s user time is %s, P(%s) = %.2f, where it "
		"should match solo's (1×, within ±%g%%). Either CPU-time accounting on this machine is "
		"suspect, and with it every other comparison in this report, or the workload "
		"loses its caches and TLB each time the two copies switch (expected of "
		"memory-bound code such as mem-chase)", c->a.name, by,
		c->verdict == ANALYSIS_VERDICT_FASTER ? "lower" : "higher",
		c->verdict == ANALYSIS_VERDICT_FASTER ? c->p_a_lt_b : c->p_a_gt_b,
		isnan(rep->result->options.rope_pct) ? REPORT_CONTROL_TOLERANCE_PCT
		                                     : rep->result->options.rope_pct)) : -1;
	free(by);
	return pushed;
}

/* The control first: when it fails, nothing else in the report can be trusted. */
static int warn_control(struct report *rep)
{
	const struct analysis_result *r = rep->result;
	for (size_t i = 0; i < r->comparison_count; i++) {
		const struct analysis_comparison *c = &r->comparisons[i];
		if (c->kind == COMPARISON_CONTROL && control_failed(c, r->options.rope_pct) &&
		    warn_failed_control(rep, c) < 0)
			return -1;
	}
	return 0;
}

static int warn_quota(struct report *rep)
{
	json_t *quota = rep->meta ? json_object_get(rep->meta, "cpu_quota") : NULL;
	double quota_cpus = json_number_value(json_object_get(quota, "cpus"));
	if (!(quota_cpus > 0 && quota_cpus < 2))
		return 0;
	const char *source = report_meta_string(quota, "source");
	return warn(rep, text_printf(
		"a CPU quota of %.3g CPUs applied to the run%s%s%s: two busy processes could "
		"not run at the same time, so no pair's contention is what its placement says "
		"(see the overlap)",
		quota_cpus, source ? " (" : "", source ? source : "", source ? ")" : ""));
}

static int warn_virtual_machine(struct report *rep)
{
	if (!rep->meta || !json_is_true(json_object_get(rep->meta, "virtual_machine")))
		return 0;
	const char *hv = report_meta_string(rep->meta, "hypervisor");
	return warn(rep, text_printf(
		"virtual machine%s%s%s: its CPUs are the hypervisor's threads, so its 'siblings' "
		"need not be siblings on the host, and other guests may share the cores",
		hv ? " (" : "", hv ? hv : "", hv ? ")" : ""));
}

static int warn_failed_trials(struct report *rep)
{
	size_t failed = rep->result->failed_trials;
	return failed ? warn(rep, text_printf(
		"%zu failed trial(s) (a process did not end ok): counted, never analysed; see the "
		"status column of samples.csv", failed)) : 0;
}

/* The run cut workload-stderr.log at its cap (meta.json's workload_stderr_log). */
static int warn_stderr_cut(struct report *rep)
{
	json_t *log = rep->meta ? json_object_get(rep->meta, "workload_stderr_log") : NULL;
	if (!json_is_true(json_object_get(log, "cut")))
		return 0;
	return warn(rep, text_printf(
		"workload-stderr.log passed its cap of %lld MiB and was cut there: the workloads' "
		"later error output was discarded (said at the log's end)",
		(long long)(json_integer_value(json_object_get(log, "cap_bytes")) >> 20)));
}

/* Each placement's own problems, in the words analyze's diagnostics use too. */
static int warn_groups(struct report *rep)
{
	const struct analysis_result *r = rep->result;
	for (size_t i = 0; i < r->group_count; i++)
		if (diagnostics_of_group(&r->groups[i], report_unit_label(rep), &rep->warnings,
		                         &rep->warning_count) < 0)
			return -1;
	return 0;
}

/* Frequency: only placements whose rows recorded it. With none at all from a run of this tool
 * (meta.json has a host), say that the clock, one confounder, could not be watched, rather
 * than leave the MHz column to say it. */
static int warn_frequency(struct report *rep)
{
	const struct report_placement *fmin = NULL, *fmax = NULL;
	for (size_t i = 0; i < rep->placement_count; i++) {
		const struct report_placement *p = &rep->placements[i];
		if (!p->freq_n)
			continue;
		if (!fmin || p->freq_mhz < fmin->freq_mhz)
			fmin = p;
		if (!fmax || p->freq_mhz > fmax->freq_mhz)
			fmax = p;
	}
	if (fmin && fmax != fmin && fmax->freq_mhz > fmin->freq_mhz * (1 + FREQ_WARN_FRACTION))
		return warn(rep, text_printf(
			"CPU frequency differs between placements: %s %.0f MHz, %s %.0f MHz (%.1f%%): "
			"turbo depends on how many cores are busy, so part of the difference may be the "
			"clock", fmax->name, fmax->freq_mhz, fmin->name, fmin->freq_mhz,
			100 * (fmax->freq_mhz / fmin->freq_mhz - 1)));
	if (!fmin && report_meta_string(rep->meta, "host"))
		return warn(rep, strdup(
			"CPU frequency was not readable on this machine (no cpufreq in /sys, as in most "
			"virtual machines): a turbo difference between placements could not be checked"));
	return 0;
}

static int warn_grid_bound(struct report *rep)
{
	const struct analysis_result *r = rep->result;
	for (size_t i = 0; i < r->comparison_count; i++)
		if (r->comparisons[i].grid.at_bound && warn(rep, text_printf(
			"%s vs %s: the posterior reaches the edge of the widest grid; collect more samples",
			r->comparisons[i].a.name, r->comparisons[i].b.name)) < 0)
			return -1;
	return 0;
}

static int warn_notes(struct report *rep)
{
	for (size_t i = 0; i < rep->result->note_count; i++)
		if (warn(rep, strdup(rep->result->notes[i])) < 0)
			return -1;
	return 0;
}

static int warn_damaged_lines(struct report *rep)
{
	const struct analysis_result *r = rep->result;
	return r->warning_count ? warn(rep, text_printf(
		"%zu damaged line(s) of samples.csv skipped; the first: %s", r->warning_count,
		r->warnings[0])) : 0;
}

/* "solo 3 of 60, same-pu 1 of 60" from a count and a total per group, the groups with a
 * non-zero count only; NULL on out of memory. */
static char *per_placement(const struct analysis_dataset *d,
                           size_t (*count)(const struct analysis_group *),
                           size_t (*total)(const struct analysis_group *))
{
	char *list = strdup("");
	for (size_t i = 0; list && i < d->group_count; i++) {
		const struct analysis_group *g = &d->groups[i];
		if (!count(g))
			continue;
		char *longer = total ? text_printf("%s%s%s %zu of %zu", list,
		                                              *list ? ", " : "", g->name, count(g),
		                                              total(g))
		                     : text_printf("%s%s%s %zu", list, *list ? ", " : "",
		                                              g->name, count(g));
		free(list);
		list = longer;
	}
	return list;
}

static size_t leftover_trials_of(const struct analysis_group *g) { return g->leftover_trials; }
static size_t contaminated_of(const struct analysis_group *g) { return g->contaminated_trials; }
static size_t contamination_known_of(const struct analysis_group *g)
{
	return g->contamination_known;
}

/* Trials that left processes running, which the runner killed: they competed with what
 * followed until then. */
static int warn_leftovers(struct report *rep)
{
	size_t trials = 0, processes = 0;
	for (size_t i = 0; i < rep->data->group_count; i++) {
		trials += rep->data->groups[i].leftover_trials;
		processes += rep->data->groups[i].leftovers;
	}
	if (!trials)
		return 0;
	char *list = per_placement(rep->data, leftover_trials_of, NULL);
	int pushed = list ? warn(rep, text_printf(
		"%zu trial(s) left processes running after they ended (%s): the runner killed %zu "
		"process(es) in all (the leftovers column of samples.csv); a workload that starts "
		"background processes should wait for them", trials, list, processes)) : -1;
	free(list);
	return pushed;
}

/* Trials whose CPUs were also busy with something else, or stolen by the hypervisor. */
static int warn_contaminated(struct report *rep)
{
	size_t trials = 0;
	for (size_t i = 0; i < rep->data->group_count; i++)
		trials += rep->data->groups[i].contaminated_trials;
	if (!trials)
		return 0;
	char *list = per_placement(rep->data, contaminated_of, contamination_known_of);
	int pushed = list ? warn(rep, text_printf(
		"%zu trial(s) shared their CPUs: foreign CPU time or steal above %g%% of the trial's "
		"duration (from /proc/stat; the foreign_s and steal_s columns): %s; %s", trials,
		100 * ANALYSIS_CONTAMINATED_SHARE, list,
		rep->exclude_contaminated ? "left out of this analysis (--exclude-contaminated)"
		                          : "`smtbench report --exclude-contaminated` (or `analyze "
		                            "--exclude-contaminated`) leaves them out")) : -1;
	free(list);
	return pushed;
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
static int warn_unspread(struct report *rep)
{
	char *counts = strdup("");
	int cpus = 0;
	size_t named = 0, left = 0;
	for (size_t i = 0; i < rep->data->group_count; i++)
		left += rep->data->groups[i].unspread_trials > 0;
	for (size_t i = 0; counts && i < rep->data->group_count; i++) {
		const struct analysis_group *g = &rep->data->groups[i];
		if (!g->unspread_trials)
			continue;
		named++;
		cpus = g->spread_cpus > cpus ? g->spread_cpus : cpus;
		char *longer = text_printf("%s%s%zu of %zu %s trials", counts,
		                           named == 1 ? "" : named == left ? " and " : ", ",
		                           g->unspread_trials, g->spread_known, g->name);
		free(counts);
		counts = longer;
	}
	if (!counts)
		return -1;
	int pushed = 0;
	if (named) {
		char words[32];
		pushed = warn(rep, text_printf(
			"In %s the process ran on one of its %s (%g%% or more of its CPU time there: "
			"samples.csv's per_cpu_s): those trials timed one CPU, not the placement, and "
			"pull its time and every comparison with it toward one CPU's. A process with "
			"one busy thread does this, and so does a scheduler that keeps the threads "
			"together on a busy machine; the trials are analysed all the same: judge by a "
			"run in which the threads spread", counts, cpus_words(cpus, words, sizeof words),
			100 * (1 - SAMPLES_UNSPREAD_SHARE)));
	}
	free(counts);
	return pushed;
}

/* The report's warnings, in the order shown: a new warning is one producer more here. */
static int (*const warning_producers[])(struct report *) = {
	warn_meta_problem, warn_control, warn_quota, warn_virtual_machine, warn_failed_trials,
	warn_stderr_cut,
	warn_leftovers, warn_contaminated, warn_unspread, warn_groups, warn_frequency,
	warn_grid_bound,
	warn_notes, warn_damaged_lines,
};

static int build_warnings(struct report *rep)
{
	for (size_t i = 0; i < sizeof warning_producers / sizeof warning_producers[0]; i++)
		if (warning_producers[i](rep) < 0)
			return -1;
	return 0;
}

/* Each placement's posterior of mu from the first comparison that holds it (the headline's
 * first), so that the table and the plot show the numbers of the comparison people read. */
static void attach_posteriors(struct report *rep)
{
	const struct analysis_result *r = rep->result;
	for (size_t pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < r->comparison_count; i++) {
			if ((pass == 0) != ((int)i == rep->headline))
				continue;
			const struct analysis_group_summary *sides[2] = { &r->comparisons[i].a,
			                                                  &r->comparisons[i].b };
			for (int s = 0; s < 2; s++)
				for (size_t k = 0; k < rep->placement_count; k++) {
					struct report_placement *p = &rep->placements[k];
					if (p->has_mu || strcmp(p->name, sides[s]->name))
						continue;
					p->has_mu = true;
					p->mu_mean = sides[s]->mu_mean;
					p->mu_ci[0] = sides[s]->mu_ci[0];
					p->mu_ci[1] = sides[s]->mu_ci[1];
					p->mu = &sides[s]->mu;
				}
		}
}

static int choose_headline(struct report *rep)
{
	const struct analysis_result *r = rep->result;
	rep->headline = 0;
	rep->no_sibling = analysis_dataset_find(rep->data, "sibling") < 0;
	int nonsib = -1;
	for (size_t i = 0; i < r->comparison_count; i++) {
		if (r->comparisons[i].kind == COMPARISON_HEADLINE) {
			rep->headline = (int)i;
			return 0;
		}
		if (nonsib < 0 && !strcmp(r->comparisons[i].a.name, "non-sibling"))
			nonsib = (int)i;
	}
	if (rep->no_sibling && nonsib >= 0)
		rep->headline = nonsib;
	json_t *skipped = json_object_get(rep->meta, "skipped_placements");
	size_t k;
	json_t *e;
	json_array_foreach(skipped, k, e)
		/* The first reason given: a meta.json naming sibling twice must not leak the first. */
		if (!rep->no_sibling_reason && report_meta_string(e, "name")
		    && !strcmp(report_meta_string(e, "name"), "sibling")
		    && report_meta_string(e, "reason"))
			rep->no_sibling_reason = strdup(report_meta_string(e, "reason"));
	return 0;
}

/* DIR/meta.json into rep->meta. Present but damaged: said once among the warnings
 * (meta_problem), then the report goes on without it, as for a folder that has none. */
static void load_meta(struct report *rep, const char *dir)
{
	char *meta_path = text_printf("%s/meta.json", dir);
	if (meta_path && access(meta_path, F_OK) == 0) {
		json_error_t jerr;
		char why[ERR_LEN];
		size_t len;
		char *text = fileio_read_all(meta_path, &len, why, sizeof why);
		rep->meta = text ? json_loadb(text, len, 0, &jerr) : NULL;
		free(text);
		if (!text)
			rep->meta_problem = text_printf("%s; the machine and the pairs are not reported",
			                                why);
		else if (!rep->meta)
			rep->meta_problem = text_printf(
				"%s is not valid JSON (line %d: %s); the machine and the pairs are not "
				"reported", meta_path, jerr.line, jerr.text);
		else if (!json_is_object(rep->meta)) {
			json_decref(rep->meta);
			rep->meta = NULL;
			rep->meta_problem = text_printf(
				"%s is not a JSON object; the machine and the pairs are not reported",
				meta_path);
		} else if (text_escape_json(rep->meta) < 0) {
			/* Everything the report shows of it is escaped once, here (common/text.h). */
			json_decref(rep->meta);
			rep->meta = NULL;
			rep->meta_problem = text_printf("out of memory reading %s", meta_path);
		}
	}
	free(meta_path);
	if (rep->meta_problem) { /* jansson's message may quote the damaged bytes */
		char *shown = text_escape(rep->meta_problem);
		free(rep->meta_problem);
		rep->meta_problem = shown;
	}
}

struct report *report_new(const char *dir, char *err, size_t err_size)
{
	return report_new_excluding(dir, false, NAN, err, err_size);
}

/* One placement per dataset group, with its sample mean; its pair comes later (read_pairs).
 * -1 on out of memory. */
static int init_placements(struct report *rep)
{
	rep->placement_count = rep->data->group_count;
	rep->placements = calloc(rep->placement_count ? rep->placement_count : 1,
	                         sizeof *rep->placements);
	if (!rep->placements)
		return -1;
	for (size_t i = 0; i < rep->placement_count; i++) {
		struct report_placement *p = &rep->placements[i];
		const struct analysis_group *g = &rep->data->groups[i];
		p->core = -1;
		p->freq_mhz = NAN;
		p->mean_s = NAN;
		p->mu_mean = p->mu_ci[0] = p->mu_ci[1] = NAN;
		if (!(p->name = strdup(g->name)))
			return -1;
		p->n = g->n;
		if (g->n) {
			double sum = 0;
			for (size_t k = 0; k < g->n; k++)
				sum += g->values_s[k];
			p->mean_s = sum / (double)g->n;
		}
	}
	return 0;
}

/* Every comparison's sentence, in the result's order. -1 on out of memory. */
static int word_comparisons(struct report *rep)
{
	rep->sentences = calloc(rep->result->comparison_count, sizeof *rep->sentences);
	if (!rep->sentences)
		return -1;
	for (size_t i = 0; i < rep->result->comparison_count; i++)
		if (!(rep->sentences[i] = comparison_sentence(rep, &rep->result->comparisons[i])))
			return -1;
	return 0;
}

/* For a folder judged by wall time: the headline comparison by user CPU time into
 * rep->user_time_text and its ratio. Not said (NULL) for a folder judged by user time, or when
 * the comparison cannot be made (a missing column, too few samples). -1 on out of memory. */
static int word_user_time(struct report *rep)
{
	if (rep->data->metric != ANALYSIS_METRIC_WALL)
		return 0;
	const struct analysis_comparison *h = &rep->result->comparisons[rep->headline];
	char err[ERR_LEN];
	struct analysis_dataset *user = analysis_load_folder_metric(
		rep->dir, ANALYSIS_UNIT_TRIAL, ANALYSIS_METRIC_USER, rep->exclude_contaminated, err,
		sizeof err);
	struct analysis_options opt;
	analysis_options_init(&opt);
	struct analysis_result *r = user ? analysis_run(user, &opt, err, sizeof err) : NULL;
	analysis_dataset_free(&user);
	const struct analysis_comparison *c = NULL;
	for (size_t i = 0; r && i < r->comparison_count && !c; i++)
		if (!strcmp(r->comparisons[i].a.name, h->a.name)
		    && !strcmp(r->comparisons[i].b.name, h->b.name))
			c = &r->comparisons[i];
	int rc = 0;
	if (c && isfinite(c->ratio_mean) && isfinite(c->ratio_ci[0]) && isfinite(c->ratio_ci[1])) {
		rep->user_ratio_mean = c->ratio_mean;
		rep->user_ratio_ci[0] = c->ratio_ci[0];
		rep->user_ratio_ci[1] = c->ratio_ci[1];
		rep->user_time_text = text_printf(
			"%s takes %.3g× the user CPU time of %s (its threads' CPU time together; 95%% CI "
			"%.3g–%.3g, %s); the answer above is by wall time, the program's elapsed time",
			c->a.name, c->ratio_mean, c->b.name, c->ratio_ci[0], c->ratio_ci[1],
			analysis_design_name(c->design));
		rc = rep->user_time_text ? 0 : -1;
	}
	analysis_result_free(&r);
	return rc;
}

struct report *report_new_excluding(const char *dir, bool exclude_contaminated, double rope_pct,
                                    char *err, size_t err_size)
{
	struct report *rep = calloc(1, sizeof *rep);
	if (!rep || !(rep->dir = strdup(dir)) || !(rep->shown_dir = text_escape(dir))) {
		if (rep)
			free(rep->dir);
		free(rep);
		set_error(err, err_size, "out of memory");
		return NULL;
	}
	rep->exclude_contaminated = exclude_contaminated;
	rep->data = analysis_load_folder_excluding(dir, ANALYSIS_UNIT_TRIAL, exclude_contaminated,
	                                           err, err_size);
	if (!rep->data)
		goto fail;
	struct analysis_options opt;
	analysis_options_init(&opt);
	opt.rope_pct = rope_pct;
	rep->result = analysis_run(rep->data, &opt, err, err_size);
	if (!rep->result)
		goto fail;
	load_meta(rep, dir);

	if (init_placements(rep) < 0)
		goto oom;
	read_pairs(rep);
	if (copy_csv_extras(rep) < 0)
		goto oom;
	choose_headline(rep);
	attach_posteriors(rep);
	if (word_comparisons(rep) < 0)
		goto oom;
	rep->headline_text = strdup(rep->sentences[rep->headline]);
	rep->machine = machine_text(rep->meta);
	rep->smt_yield_text = output_smt_yield_sentence(&rep->result->smt_yield, rep->workload);
	if (!rep->headline_text || !rep->machine || build_warnings(rep) < 0
	    || word_user_time(rep) < 0)
		goto oom;
	return rep;
oom:
	set_error(err, err_size, "out of memory");
fail:
	report_free(&rep);
	return NULL;
}

void report_free(struct report **p)
{
	if (!p || !*p)
		return;
	struct report *rep = *p;
	if (rep->sentences)
		for (size_t i = 0; i < rep->result->comparison_count; i++)
			free(rep->sentences[i]);
	free(rep->sentences);
	for (size_t i = 0; i < rep->placement_count; i++) {
		free(rep->placements[i].name);
		free(rep->placements[i].shares);
	}
	free(rep->placements);
	for (size_t i = 0; i < rep->warning_count; i++)
		free(rep->warnings[i]);
	free(rep->warnings);
	free(rep->headline_text);
	free(rep->files_dir);
	free(rep->shown_files_dir);
	free(rep->smt_yield_text);
	free(rep->user_time_text);
	free(rep->no_sibling_reason);
	free(rep->machine);
	free(rep->meta_problem);
	free(rep->workload);
	free(rep->beside_workload);
	json_decref(rep->meta);
	analysis_result_free(&rep->result);
	analysis_dataset_free(&rep->data);
	free(rep->dir);
	free(rep->shown_dir);
	free(rep);
	*p = NULL;
}
