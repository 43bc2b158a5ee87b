/*
 * report_text.c — the report as text: the terminal summary and report.md, both from the model
 * that report.c builds.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpu_model.h"
#include "report/internal.h"

/* ---- the terminal summary ---------------------------------------------------------------- */

static void pus_text(char *buf, size_t size, const struct report_placement *p)
{
	if (!p->npus)
		snprintf(buf, size, "?");
	else if (p->npus == 1 || p->pus[0] == p->pus[1])
		snprintf(buf, size, "%d", p->pus[0]);
	else
		snprintf(buf, size, "%d,%d", p->pus[0], p->pus[1]);
}

/* The numbers of one placement row, formatted once for every output. */
struct row_text {
	char pus[24], n[24], mean[48], lo[48], hi[48], freq[24];
};

static void row_text(struct row_text *t, const struct report_placement *p)
{
	double res = p->has_mu ? report_half_width(p->mu_ci) : NAN;
	pus_text(t->pus, sizeof t->pus, p);
	snprintf(t->n, sizeof t->n, "%zu", p->n);
	format_number(t->mean, sizeof t->mean, p->mean_s, res);
	if (p->has_mu) {
		format_number(t->lo, sizeof t->lo, p->mu_ci[0], res);
		format_number(t->hi, sizeof t->hi, p->mu_ci[1], res);
	} else {
		snprintf(t->lo, sizeof t->lo, "n/a");
		snprintf(t->hi, sizeof t->hi, "n/a");
	}
	if (p->freq_n)
		snprintf(t->freq, sizeof t->freq, "%.0f", p->freq_mhz);
	else
		snprintf(t->freq, sizeof t->freq, "-");
}

static void skipped_lines(const struct report *rep, FILE *out, const char *prefix)
{
	json_t *skipped = json_object_get(rep->meta, "skipped_placements");
	size_t k;
	json_t *e;
	json_array_foreach(skipped, k, e) {
		const char *name = report_meta_string(e, "name"), *reason = report_meta_string(e, "reason");
		if (name)
			fprintf(out, "%s%s: not run: %s\n", prefix, name, reason ? reason : "");
	}
}


int report_print_summary(const struct report *rep, bool files_written, FILE *out)
{
	const struct analysis_result *r = rep->result;
	fprintf(out, "smtbench report: %s\n", rep->shown_dir);
	fprintf(out, "Machine: %s\n", rep->machine);
	if (rep->beside_workload)
		fprintf(out, "Workload: %s, run beside %s (role b, not measured); unit of analysis: one "
		        "%s (%s of %s, the measured workload, role a)\n\n",
		        rep->workload ? rep->workload : "not recorded", rep->beside_workload,
		        report_unit_label(rep), report_metric_label(rep),
		        rep->workload ? rep->workload : "the workload");
	else if (rep->data->one_process)
		fprintf(out, "Workload: %s, one process on each placement's CPUs; unit of analysis: one "
		        "%s (its %s)\n\n", rep->workload ? rep->workload : "not recorded",
		        report_unit_label(rep), report_metric_label(rep));
	else
		fprintf(out, "Workload: %s; unit of analysis: one %s (mean %s of its copies)\n\n",
		        rep->workload ? rep->workload : "not recorded", report_unit_label(rep),
		        report_metric_label(rep));
	fprintf(out, "  %-14s %-8s %-12s %6s  %-12s %-26s %s\n", "placement", "CPUs", "shares", "n",
	        "mean s", "95% CI of mean s", "MHz");
	for (size_t i = 0; i < rep->placement_count; i++) {
		const struct report_placement *p = &rep->placements[i];
		struct row_text t;
		row_text(&t, p);
		char ci[100];
		/* The en dash is three bytes but one column: pad by hand. */
		int w = snprintf(ci, sizeof ci, "%s–%s", t.lo, t.hi) - 2;
		fprintf(out, "  %-14s %-8s %-12s %6s  %-12s %s%*s %s\n", p->name, t.pus,
		        p->shares ? p->shares : "-", t.n, t.mean, ci, w < 26 ? 26 - w : 0, "", t.freq);
	}
	skipped_lines(rep, out, "  ");
	fprintf(out, "\n");
	if (rep->no_sibling) {
		char buf[600];
		fprintf(out, "%s\n", report_no_sibling_text(rep, buf, sizeof buf));
	}
	fprintf(out, "Answer: %s\n", rep->headline_text);
	if (rep->user_time_text)
		fprintf(out, "By user time: %s.\n", rep->user_time_text);
	if (rep->smt_yield_text)
		fprintf(out, "SMT yield: %s.\n", rep->smt_yield_text);
	char stop[1024];
	if (*report_stop_text(rep, stop, sizeof stop))
		fprintf(out, "%s\n", stop);
	if (*report_exclusion_text(rep, stop, sizeof stop))
		fprintf(out, "%s\n", stop);
	if (r->comparison_count > 1) {
		fprintf(out, "Also:\n");
		for (size_t i = 0; i < r->comparison_count; i++)
			if ((int)i != rep->headline)
				fprintf(out, "  - %s\n", rep->sentences[i]);
	}
	if (rep->warning_count) {
		fprintf(out, "\nWarnings:\n");
		for (size_t i = 0; i < rep->warning_count; i++)
			fprintf(out, "  - %s\n", rep->warnings[i]);
	} else {
		fprintf(out, "\nWarnings: none (no drift, outliers, failed trials or frequency "
		        "differences found)\n");
	}
	if (files_written)
		fprintf(out, "\nReport: %s/report.html (open it in a browser); also report.md, "
		        "report.json, posterior.svg, run-order.svg, samples.svg\n",
		        rep->shown_files_dir ? rep->shown_files_dir : rep->shown_dir);
	else
		fprintf(out, "\nReport: not written (the error above says why); the samples are safe: "
		        "write it with `smtbench report %s` once that is mended\n", rep->shown_dir);
	return ferror(out) ? -1 : 0;
}

/* ---- report.md --------------------------------------------------------------------------- */

/* Markdown text on one line (a heading, a list item): a newline would end it. Outside a table
 * '|' is an ordinary character, and "\\|" in a `code span` would show its backslash. */
static void md_line(FILE *out, const char *text)
{
	for (const char *p = text ? text : ""; *p; p++)
		fputc(*p == '\n' ? ' ' : *p, out);
}

/* Markdown table cells: '|' would end the cell (escaped so even in a `code span`, as GFM
 * reads it), and a newline the row. */
static void md_cell(FILE *out, const char *text)
{
	for (const char *p = text ? text : ""; *p; p++) {
		if (*p == '|')
			fputs("\\|", out);
		else if (*p == '\n')
			fputc(' ', out);
		else
			fputc(*p, out);
	}
}

/* A value of meta.json for a person: null as "not readable", true/false as yes/no, an object
 * or array as its members "key: value" (a short form, never raw JSON). */
static void md_json_value(FILE *out, const json_t *v)
{
	if (json_is_string(v)) {
		md_cell(out, json_string_value(v));
		return;
	}
	if (json_is_null(v)) {
		fputs("not readable", out);
		return;
	}
	if (json_is_boolean(v)) {
		fputs(json_is_true(v) ? "yes" : "no", out);
		return;
	}
	if (json_is_object(v)) {
		const char *key;
		json_t *member;
		bool first = true;
		json_object_foreach((json_t *)v, key, member) {
			fputs(first ? "" : "; ", out);
			md_cell(out, key);
			fputs(": ", out);
			md_json_value(out, member);
			first = false;
		}
		if (first)
			fputs("none", out);
		return;
	}
	if (json_is_array(v)) {
		size_t i;
		json_t *e;
		json_array_foreach(v, i, e) {
			fputs(i ? ", " : "", out);
			md_json_value(out, e);
		}
		if (!json_array_size(v))
			fputs("none", out);
		return;
	}
	char *text = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	md_cell(out, text ? text : "?");
	free(text);
}

/* A mean that the grid, not the data, decides (too few samples): marked, explained below the
 * table. */
static const char GRID_MARK[] = " †";

static long long topo_count(const json_t *topo, const char *key)
{
	json_t *v = json_object_get(topo, key);
	return json_is_integer(v) ? (long long)json_integer_value(v) : -1;
}

/* meta.json's topology as "2 PUs, 2 cores, 1 package; 1 thread per core" (the counts it holds);
 * anything else as md_json_value shows it. */
static void md_topology(FILE *out, const json_t *topo)
{
	static const struct {
		const char *key, *one, *many;
	} counts[] = { { "pus", "PU", "PUs" }, { "cores", "core", "cores" },
	               { "packages", "package", "packages" } };
	long long threads = topo_count(topo, "max_threads_per_core");
	bool any = false;
	for (size_t i = 0; json_is_object(topo) && i < sizeof counts / sizeof counts[0]; i++) {
		long long n = topo_count(topo, counts[i].key);
		if (n < 0)
			continue;
		fprintf(out, "%s%lld %s", any ? ", " : "", n, n == 1 ? counts[i].one : counts[i].many);
		any = true;
	}
	if (any && threads >= 0)
		fprintf(out, "; %lld thread%s per core", threads, threads == 1 ? "" : "s");
	if (!any)
		md_json_value(out, topo);
}

static void comparison_cells(const struct analysis_comparison *c, char out[6][64])
{
	struct format_ring ns = { .next = 0 };
	double rres = report_half_width(c->ratio_ci), dres = report_half_width(c->diff_ci);
	const char *mark = analysis_comparison_settled(c) ? "" : GRID_MARK;
	snprintf(out[0], 64, "%s%s", format_num(&ns, c->ratio_mean, rres), mark);
	snprintf(out[1], 64, "%s–%s", format_num(&ns, c->ratio_ci[0], rres), format_num(&ns, c->ratio_ci[1], rres));
	snprintf(out[2], 64, "%s%s", format_num(&ns, c->diff_mean, dres), mark);
	/* "-0.0096–0.0058" would read as a range of dashes: say "to" when a bound is negative. */
	snprintf(out[3], 64, c->diff_ci[0] < 0 ? "%s to %s" : "%s–%s",
	         format_num(&ns, c->diff_ci[0], dres), format_num(&ns, c->diff_ci[1], dres));
	snprintf(out[4], 64, "%.2f", c->p_a_gt_b);
	snprintf(out[5], 64, "%s", analysis_verdict_name(c->verdict));
}

static void write_md(const struct report *rep, FILE *out)
{
	const struct analysis_result *r = rep->result;
	fputs("# smtbench report: ", out);
	md_line(out, rep->shown_dir);
	fputs("\n\n", out);
	if (rep->no_sibling) {
		char buf[600];
		fprintf(out, "%s\n\n", report_no_sibling_text(rep, buf, sizeof buf));
	}
	fprintf(out, "**Answer:** %s\n\n", rep->headline_text);
	if (rep->user_time_text)
		fprintf(out, "**By user time:** %s.\n\n", rep->user_time_text);
	if (rep->smt_yield_text)
		fprintf(out, "**SMT yield:** %s.\n\n", rep->smt_yield_text);
	char stop[1024];
	if (*report_stop_text(rep, stop, sizeof stop))
		fprintf(out, "%s\n\n", stop);
	if (*report_exclusion_text(rep, stop, sizeof stop))
		fprintf(out, "%s\n\n", stop);
	fprintf(out, "## Placements\n\nOne sample per %s: ", report_unit_label(rep));
	if (rep->beside_workload) {
		fprintf(out, "the %s of ", report_metric_label(rep));
		md_line(out, rep->workload ? rep->workload : "the workload");
		fputs(", the measured workload (role a); ", out);
		md_line(out, rep->beside_workload);
		fputs(" ran beside it (role b) and is not measured.", out);
	} else if (rep->data->one_process) {
		fprintf(out, "the %s of its one process, bound to all of the placement's CPUs (run "
		        "--one-process; its threads placed by the scheduler).", report_metric_label(rep));
	} else {
		fprintf(out, "the mean %s of its copies of the workload.", report_metric_label(rep));
	}
	fputs(" The interval is the 95% credible interval of the mean.\n\n", out);
	fputs("| placement | CPUs | shares | n | mean s | 95% CI of mean s | MHz |\n"
	      "|---|---|---|---:|---:|---:|---:|\n", out);
	for (size_t i = 0; i < rep->placement_count; i++) {
		const struct report_placement *p = &rep->placements[i];
		struct row_text t;
		row_text(&t, p);
		fprintf(out, "| %s | %s | ", p->name, t.pus);
		md_cell(out, p->shares ? p->shares : "-");
		fprintf(out, " | %s | %s | %s–%s | %s |\n", t.n, t.mean, t.lo, t.hi, t.freq);
	}
	fputc('\n', out);
	skipped_lines(rep, out, "");
	fputs("\n## Comparisons\n\n", out);
	fputs("| A | B | role | A/B | 95% CI | A−B s | 95% CI s | P(A slower) | verdict |\n"
	      "|---|---|---|---:|---:|---:|---:|---:|---|\n", out);
	for (size_t i = 0; i < r->comparison_count; i++) {
		const struct analysis_comparison *c = &r->comparisons[i];
		char cells[6][64];
		comparison_cells(c, cells);
		fprintf(out, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", c->a.name, c->b.name,
		        c->label, cells[0], cells[1], cells[2], cells[3], cells[4], cells[5]);
	}
	for (size_t i = 0; i < r->comparison_count; i++)
		if (!analysis_comparison_settled(&r->comparisons[i])) {
			fprintf(out, "\n%s The mean depends on the grid: with fewer than %d samples in a "
			        "group (or a posterior that reaches the edge of the widest grid) the "
			        "posterior has no mean of its own; run more trials.\n", GRID_MARK + 1,
			        ANALYSIS_SETTLED_MIN_N);
			break;
		}
	fputs("\n", out);
	for (size_t i = 0; i < r->comparison_count; i++) {
		fputs("- ", out);
		md_line(out, rep->sentences[i]);
		fputs("\n", out);
	}
	fputs("\n## Warnings\n\n", out);
	if (!rep->warning_count)
		fputs("None: no drift, outliers, failed trials or frequency differences found.\n", out);
	for (size_t i = 0; i < rep->warning_count; i++) {
		fputs("- ", out);
		md_line(out, rep->warnings[i]);
		fputs("\n", out);
	}
	fputs("\n## Diagnostics per placement\n\n"
	      "| placement | n | outliers | drift s per trial | 95% CI | first half s | second half s "
	      "| failed | poor overlap |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n", out);
	for (size_t i = 0; i < r->group_count; i++) {
		const struct analysis_group_diagnostics *d = &r->groups[i];
		struct format_ring ns = { .next = 0 };
		double res = report_half_width(d->drift_slope_ci);
		double hres = fabs(d->second_half_mean_s - d->first_half_mean_s) / 4;
		char overlap[64] = "not recorded";
		if (d->overlap_known)
			snprintf(overlap, sizeof overlap, "%zu of %zu", d->poor_overlap_trials,
			         d->overlap_known);
		fprintf(out, "| %s | %zu | %zu | %s | %s to %s | %s | %s | %zu | %s |\n", d->name,
		        d->n, d->outlier_count, format_num(&ns, d->drift_slope_s, res),
		        format_num(&ns, d->drift_slope_ci[0], res),
		        format_num(&ns, d->drift_slope_ci[1], res),
		        format_num(&ns, d->first_half_mean_s, hres),
		        format_num(&ns, d->second_half_mean_s, hres),
		        d->failed_trials, overlap);
	}
	fputs("\n## Plots\n\n"
	      "![Posterior of each placement's mean and of the difference](posterior.svg)\n\n"
	      "![Every sample in run order](run-order.svg)\n\n"
	      "![Samples per placement](samples.svg)\n\n", out);
	fputs("## Machine\n\n", out);
	md_line(out, rep->machine);
	fputs("\n\n", out);
	if (rep->meta) {
		static const char *const keys[] = { "host", "cpu_model", "cpu_model_sources",
		                                    "os_kernel", "hwloc_version",
		                                    "smt_control", "smt_active", "governor",
		                                    "virtual_machine", "hypervisor", "topology",
		                                    "version", "created_utc", "status", "trials_done",
		                                    "seed", "command_line", "source", "command",
		                                    "workload" };
		fputs("| key | value |\n|---|---|\n", out);
		for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
			json_t *v = json_object_get(rep->meta, keys[i]);
			if (!v)
				continue;
			fprintf(out, "| %s | ", keys[i]);
			char *model = NULL;
			if (!strcmp(keys[i], "topology"))
				md_topology(out, v);
			else if (!strcmp(keys[i], "cpu_model") && (model = cpu_model_of_meta(rep->meta))
			         && *model)
				md_cell(out, model); /* the one rule, as in the Machine line above */
			else
				md_json_value(out, v);
			free(model);
			fputs(" |\n", out);
		}
		json_t *settings = json_object_get(rep->meta, "settings");
		if (json_is_object(settings)) {
			fputs("\n## Settings\n\n| setting | value |\n|---|---|\n", out);
			const char *key;
			json_t *v;
			json_object_foreach(settings, key, v) {
				fputs("| ", out);
				md_cell(out, key);
				fputs(" | ", out);
				md_json_value(out, v);
				fputs(" |\n", out);
			}
		}
	}
	fprintf(out, "\n## How to read this\n\n"
	        "The model: each placement's samples ~ Normal(mu, sigma) with uniform priors, computed "
	        "on a grid. The 95%% credible interval holds the true mean (or ratio) with probability "
	        "0.95 given the data and the model; P(slower) is the posterior probability that A's "
	        "mean is larger than B's; the verdict says slower or faster only when it (or its "
	        "complement) is at least %g, the same evidence as a 95%% interval of the difference "
	        "that excludes 0. "
	        "Placements were interleaved in randomized blocks, so slow "
	        "drift of the machine hits every placement alike.\n", ANALYSIS_DIRECTION_PROBABILITY);
}

char *report_markdown(const struct report *rep)
{
	char *s = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&s, &len);
	if (!out)
		return NULL;
	write_md(rep, out);
	if (fclose(out) != 0) {
		free(s);
		return NULL;
	}
	return s;
}
