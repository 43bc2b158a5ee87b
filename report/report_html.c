/*
 * report_html.c — report.html: one self-contained page (no scripts, no network: the style and
 * the plots are inline) with the verdict first, then the tables, warnings and plots.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"

static const char style_sheet[] =
	"body{font-family:'DejaVu Sans',Arial,Helvetica,sans-serif;max-width:60rem;margin:1.5rem auto;"
	"padding:0 1rem;color:#111;line-height:1.4}"
	"h1{font-size:1.35rem}h2{font-size:1.15rem;margin-top:2rem}"
	".verdict{font-size:1.2rem;font-weight:bold;border-left:6px solid #0072B2;padding:.6rem 1rem;"
	"background:#f2f6fa}"
	".nosmt{border-left:6px solid #E69F00;padding:.4rem 1rem;background:#fdf6e8}"
	"table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #bbb;padding:.25rem .5rem;"
	"text-align:left}td.num{text-align:right;font-variant-numeric:tabular-nums}"
	"th{background:#eee}figure{margin:1rem 0}svg{max-width:100%;height:auto}"
	".warn li{margin:.2rem 0}.muted{color:#555;font-size:.9rem}";

static void esc(FILE *out, const char *s)
{
	report_xml_escape(out, s);
}

/* Escapes text, rendering each `x` (the summary's markdown for a name) as <code>x</code>; an
 * unpaired backtick stays as it is. */
static void esc_code(FILE *out, const char *s)
{
	while (*s) {
		const char *open = strchr(s, '`');
		const char *close = open ? strchr(open + 1, '`') : NULL;
		if (!close) {
			esc(out, s);
			return;
		}
		char *before = strndup(s, (size_t)(open - s));
		char *inside = strndup(open + 1, (size_t)(close - open - 1));
		if (before && inside) {
			esc(out, before);
			fputs("<code>", out);
			esc(out, inside);
			fputs("</code>", out);
		}
		free(before);
		free(inside);
		s = close + 1;
	}
}

static void td(FILE *out, const char *text, bool numeric)
{
	fputs(numeric ? "<td class=\"num\">" : "<td>", out);
	esc(out, text);
	fputs("</td>", out);
}

static void tdf(FILE *out, double v, double res)
{
	char buf[48];
	td(out, format_number(buf, sizeof buf, v, res), true);
}

static void tdf_marked(FILE *out, double v, double res, bool marked)
{
	char buf[48], text[56];
	snprintf(text, sizeof text, "%s%s", format_number(buf, sizeof buf, v, res),
	         marked ? " †" : "");
	td(out, text, true);
}

static void tdci(FILE *out, const double ci[2], double res)
{
	char lo[48], hi[48], both[100];
	snprintf(both, sizeof both, "%s–%s", format_number(lo, sizeof lo, ci[0], res),
	         format_number(hi, sizeof hi, ci[1], res));
	td(out, both, true);
}

char *report_html(const struct report *rep, const char *posterior_svg,
                  const char *run_order_svg, const char *samples_svg)
{
	const struct analysis_result *r = rep->result;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	if (!out)
		return NULL;
	report_html_begin(out, "smtbench report: ", rep->shown_dir, style_sheet);
	if (rep->no_sibling) {
		char why[600];
		fputs("<p class=\"nosmt\">", out);
		esc(out, report_no_sibling_text(rep, why, sizeof why));
		fputs("</p>\n", out);
	}
	fputs("<p class=\"verdict\" id=\"verdict\">", out);
	esc_code(out, rep->headline_text);
	fputs("</p>\n", out);
	if (rep->user_time_text) {
		fputs("<p id=\"user-time\">By user time: ", out);
		esc_code(out, rep->user_time_text);
		fputs(".</p>\n", out);
	}
	if (rep->smt_yield_text) {
		fputs("<p id=\"smt-yield\">SMT yield: ", out);
		esc_code(out, rep->smt_yield_text);
		fputs(".</p>\n", out);
	}
	char left_out[1024];
	/* Why the run stopped, as the summary and report.md say it (it was missing here). */
	if (*report_stop_text(rep, left_out, sizeof left_out)) {
		fputs("<p id=\"stopped\">", out);
		esc(out, left_out);
		fputs("</p>\n", out);
	}
	if (*report_exclusion_text(rep, left_out, sizeof left_out)) {
		fputs("<p id=\"excluded\">", out);
		esc(out, left_out);
		fputs("</p>\n", out);
	}
	fputs("<p class=\"muted\">Machine: ", out);
	esc(out, rep->machine);
	fputs("</p>\n", out);

	fprintf(out, "<h2>Placements</h2>\n<p>One sample per %s: ", report_unit_label(rep));
	if (rep->beside_workload) {
		fprintf(out, "the %s of <code>", report_metric_label(rep));
		esc(out, rep->workload ? rep->workload : "the workload");
		fputs("</code>, the measured workload (role a); <code>", out);
		esc(out, rep->beside_workload);
		fputs("</code> ran beside it (role b) and is not measured", out);
	} else if (rep->data->one_process) {
		fprintf(out, "the %s of its one process of <code>", report_metric_label(rep));
		esc(out, rep->workload ? rep->workload : "the workload");
		fputs("</code>, bound to all of the placement's CPUs (run --one-process; its threads "
		      "placed by the scheduler)", out);
	} else {
		fprintf(out, "the mean %s of its copies of <code>", report_metric_label(rep));
		esc(out, rep->workload ? rep->workload : "the workload");
		fputs("</code>", out);
	}
	fputs(". The interval is the 95% credible interval of the mean.</p>\n<table>\n"
	      "<tr><th>placement</th><th>CPUs</th><th>shares</th><th>n</th><th>mean s</th>"
	      "<th>95% CI of mean s</th><th>MHz</th></tr>\n", out);
	for (size_t i = 0; i < rep->placement_count; i++) {
		const struct report_placement *p = &rep->placements[i];
		double res = p->has_mu ? fabs(p->mu_ci[1] - p->mu_ci[0]) / 2 : NAN;
		char pus[32], n[24], freq[24];
		if (!p->npus)
			snprintf(pus, sizeof pus, "?");
		else if (p->npus == 1 || p->pus[0] == p->pus[1])
			snprintf(pus, sizeof pus, "%d", p->pus[0]);
		else
			snprintf(pus, sizeof pus, "%d,%d", p->pus[0], p->pus[1]);
		snprintf(n, sizeof n, "%zu", p->n);
		snprintf(freq, sizeof freq, p->freq_n ? "%.0f" : "-", p->freq_mhz);
		fputs("<tr>", out);
		td(out, p->name, false);
		td(out, pus, false);
		td(out, p->shares ? p->shares : "-", false);
		td(out, n, true);
		tdf(out, p->mean_s, res);
		if (p->has_mu)
			tdci(out, p->mu_ci, res);
		else
			td(out, "n/a", true);
		td(out, freq, true);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
	json_t *skipped = json_object_get(rep->meta, "skipped_placements");
	size_t k;
	json_t *e;
	json_array_foreach(skipped, k, e) {
		fputs("<p class=\"muted\">Not run: ", out);
		esc(out, json_string_value(json_object_get(e, "name")));
		fputs(": ", out);
		esc(out, json_string_value(json_object_get(e, "reason")));
		fputs("</p>\n", out);
	}

	fputs("<h2>Comparisons</h2>\n<ul>\n", out);
	for (size_t i = 0; i < r->comparison_count; i++) {
		fputs("<li>", out);
		esc_code(out, rep->sentences[i]);
		fputs("</li>\n", out);
	}
	bool unsettled = false;
	fputs("</ul>\n<table>\n<tr><th>A</th><th>B</th><th>role</th><th>A/B</th><th>95% CI</th>"
	      "<th>A−B s</th><th>95% CI s</th><th>P(A slower)</th><th>verdict</th></tr>\n", out);
	for (size_t i = 0; i < r->comparison_count; i++) {
		const struct analysis_comparison *c = &r->comparisons[i];
		double rres = fabs(c->ratio_ci[1] - c->ratio_ci[0]) / 2;
		double dres = fabs(c->diff_ci[1] - c->diff_ci[0]) / 2;
		char p[24];
		snprintf(p, sizeof p, "%.2f", c->p_a_gt_b);
		fputs("<tr>", out);
		td(out, c->a.name, false);
		td(out, c->b.name, false);
		td(out, c->label, false);
		/* A mean the grid decides (too few samples) is marked, and explained below. */
		bool settled = analysis_comparison_settled(c);
		unsettled = unsettled || !settled;
		tdf_marked(out, c->ratio_mean, rres, !settled);
		tdci(out, c->ratio_ci, rres);
		tdf_marked(out, c->diff_mean, dres, !settled);
		tdci(out, c->diff_ci, dres);
		td(out, p, true);
		td(out, analysis_verdict_name(c->verdict), false);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
	if (unsettled)
		fprintf(out, "<p class=\"muted\">† The mean depends on the grid: with fewer than %d "
		        "samples in a group (or a posterior that reaches the edge of the widest grid) the "
		        "posterior has no mean of its own; run more trials.</p>\n",
		        ANALYSIS_SETTLED_MIN_N);
	fputs("<h2>Warnings</h2>\n", out);
	if (!rep->warning_count)
		fputs("<p>None: no drift, outliers, failed trials or frequency differences found.</p>\n",
		      out);
	else
		fputs("<ul class=\"warn\">\n", out);
	for (size_t i = 0; i < rep->warning_count; i++) {
		fputs("<li>", out);
		esc_code(out, rep->warnings[i]);
		fputs("</li>\n", out);
	}
	if (rep->warning_count)
		fputs("</ul>\n", out);

	/* The SVGs are our own output: well-formed, escaped, without an XML declaration, so they
	 * can be placed in the page as they are. */
	fputs("<h2>Plots</h2>\n<figure id=\"plot-posterior\">", out);
	fputs(posterior_svg, out);
	fputs("</figure>\n<figure id=\"plot-run-order\">", out);
	fputs(run_order_svg, out);
	fputs("</figure>\n<figure id=\"plot-samples\">", out);
	fputs(samples_svg, out);
	fputs("</figure>\n", out);
	fprintf(out, "<h2>How to read this</h2>\n<p>Each placement's samples are modelled as "
	        "Normal(mu, sigma) with uniform priors, computed on a grid. A 95%% credible interval "
	        "holds the true mean (or ratio) with probability 0.95 given the data and the model; "
	        "P(slower) is the posterior probability that A's mean is larger than B's; the verdict "
	        "says slower or faster only when it (or its complement) is at least %g, the same "
	        "evidence as a 95%% interval of the difference that excludes 0. The unit is "
	        "seconds of %s (%s). Placements were interleaved in randomized "
	        "blocks, so slow drift of the machine hits every placement alike. The same numbers, "
	        "with the settings, are in report.md and report.json.</p>\n</body>\n</html>\n",
	        ANALYSIS_DIRECTION_PROBABILITY, report_metric_label(rep),
	        rep->data->metric == ANALYSIS_METRIC_WALL ? "from release to reaping, monotonic clock"
	                                                  : "wait4's rusage");
	if (fclose(out) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}
