/*
 * fleet_report.c — the fleet's answer as words and numbers: the terminal report, fleet.md, the
 * --json contract, and writing fleet.md / fleet.json / fleet.html atomically. Numbers are
 * formatted by the reports' rule (format_num, report/format.h: the digits an interval's width makes meaningful).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fleet/fleet.h"
#include "fleet/internal.h"
#include "analysis/analysis.h"
#include "common/error.h"
#include "common/text.h"
#include "report/format.h"
#include "report/report.h"
#include "common/fileio.h"

const char *const fleet_file_names[FLEET_FILE_COUNT] = { "fleet.md", "fleet.json", "fleet.html" };

const char fleet_act[] = "check this node: BIOS SMT setting, microcode, load?";

static size_t outlier_count(const struct fleet *f, const struct fleet_group *g)
{
	size_t n = 0;
	for (size_t k = 0; k < g->host_count; k++)
		n += f->hosts[g->hosts[k]].outlier;
	return n;
}

/* "1.02× (95% CI 0.99–1.05)" style pieces share one resolution: half the interval. */
static void group_title(FILE *out, const struct fleet_group *g, size_t index, const char *lead)
{
	fprintf(out, "%sGroup %zu: %s, SMT %s, workload %s%s%s%s, %s (%zu node%s)\n", lead,
	        index + 1, g->cpu_model, g->smt, g->workload, g->settings_text ? " (" : "",
	        g->settings_text ? g->settings_text : "", g->settings_text ? ")" : "",
	        g->comparison, g->host_count, g->host_count == 1 ? "" : "s");
}

static void pooled_lines(FILE *out, const struct fleet_group *g, const char *lead)
{
	const struct fleet_pooled *p = &g->pooled;
	struct format_ring ns = { .next = 0 };
	if (!p->ok && p->nodes > 0) {
		fprintf(out, "%sPooled: one node: see its own answer above (a pooled answer and the "
		        "node-to-node spread need %d or more settled nodes)\n", lead,
		        FLEET_POOL_MIN_NODES);
		return;
	}
	if (!p->ok) {
		fprintf(out, "%sPooled: none of its nodes has a settled answer (too few samples); rerun "
		        "them with more trials\n", lead);
		return;
	}
	double res = report_half_width(p->ratio_ci), pres = report_half_width(p->predictive_ci);
	fprintf(out, "%sPooled slowdown (%s): %s× (95%% CI %s–%s), from %zu node%s\n", lead,
	        g->comparison, format_num(&ns, p->ratio_mean, res), format_num(&ns, p->ratio_ci[0], res),
	        format_num(&ns, p->ratio_ci[1], res), p->nodes, p->nodes == 1 ? "" : "s");
	double tres = report_half_width(p->tau_ci);
	fprintf(out, "%sNode-to-node spread: %s (sd of the log ratio, about %s %%; 95%% CI %s–%s)\n",
	        lead, format_num(&ns, p->tau_mean, tres), format_num(&ns, 100 * p->tau_mean, 100 * tres),
	        format_num(&ns, p->tau_ci[0], tres), format_num(&ns, p->tau_ci[1], tres));
	fprintf(out, "%sA new node of this group: %s–%s× (95%% predictive interval)\n", lead,
	        format_num(&ns, p->predictive_ci[0], pres), format_num(&ns, p->predictive_ci[1], pres));
}

static void outlier_lines(FILE *out, const struct fleet *f, const struct fleet_group *g,
                          const char *lead)
{
	if (g->pooled.nodes < FLEET_OUTLIER_MIN_NODES) {
		fprintf(out, "%sNodes that disagree: not judged with fewer than %d pooled nodes\n", lead,
		        FLEET_OUTLIER_MIN_NODES);
		return;
	}
	if (!outlier_count(f, g)) {
		fprintf(out, "%sNodes that disagree: none\n", lead);
		return;
	}
	for (size_t k = 0; k < g->host_count; k++) {
		const struct fleet_host *h = &f->hosts[g->hosts[k]];
		if (!h->outlier)
			continue;
		struct format_ring ns = { .next = 0 };
		double res = report_half_width(h->ratio_ci), lres = report_half_width(h->loo_ci);
		fprintf(out, "%sNode that disagrees: %s (%s): %s× (95%% CI %s–%s), the other nodes "
		        "predict %s–%s×: %s\n", lead, h->host, h->dir, format_num(&ns, h->ratio_mean, res),
		        format_num(&ns, h->ratio_ci[0], res), format_num(&ns, h->ratio_ci[1], res),
		        format_num(&ns, h->loo_ci[0], lres), format_num(&ns, h->loo_ci[1], lres), fleet_act);
	}
}

/* "Linux 6.1.0-18-amd64": the release, without the build string that follows it. */
static void kernel_release(const char *os_kernel, char *buf, size_t size)
{
	const char *space = strchr(os_kernel, ' ');
	size_t len = space ? strcspn(space + 1, " ") + (size_t)(space + 1 - os_kernel) : strlen(os_kernel);
	snprintf(buf, size, "%.*s", (int)len, os_kernel);
}

/* An unsettled node's mean is the grid's artefact, not an answer (analysis.h): "–" instead. */
static const char *host_mean(struct format_ring *ns, const struct fleet_host *h, double res)
{
	return h->settled ? format_num(ns, h->ratio_mean, res) : "–";
}

static void host_row(FILE *out, const struct fleet_host *h)
{
	struct format_ring ns = { .next = 0 };
	char kernel[64];
	kernel_release(h->os_kernel, kernel, sizeof kernel);
	double res = report_half_width(h->ratio_ci);
	char ci[128];
	snprintf(ci, sizeof ci, "%s–%s", format_num(&ns, h->ratio_ci[0], res),
	         format_num(&ns, h->ratio_ci[1], res));
	/* the en dash is 3 bytes and one column: printf pads bytes */
	fprintf(out, "  %-16s %-24s %5zu  %-*s %-20s %s%s%s  %s\n", h->host, kernel, h->n,
	        h->settled ? 8 : 10, host_mean(&ns, h, res), ci, h->verdict,
	        h->pooled ? "" : " (not pooled)", h->outlier ? "  << DISAGREES" : "", h->dir);
}

int fleet_print_text(const struct fleet *f, FILE *out)
{
	fputs("smtbench fleet: ", out);
	if (f->host_count || !f->matrix_node_count) /* a fleet of matrices alone: those only */
		fprintf(out, "%zu node%s in %zu group%s; ", f->host_count,
		        f->host_count == 1 ? "" : "s", f->group_count, f->group_count == 1 ? "" : "s");
	if (f->matrix_node_count)
		fprintf(out, "%zu matrix folder%s in %zu matrix group%s; ", f->matrix_node_count,
		        f->matrix_node_count == 1 ? "" : "s", f->matrix_group_count,
		        f->matrix_group_count == 1 ? "" : "s");
	fprintf(out, "%zu folder%s skipped\n", f->skipped_count, f->skipped_count == 1 ? "" : "s");
	for (size_t gi = 0; gi < f->group_count; gi++) {
		const struct fleet_group *g = &f->groups[gi];
		fprintf(out, "\n");
		group_title(out, g, gi, "");
		if (!g->smt_question)
			fprintf(out, "  (no sibling placement was measured on these nodes: this is the "
			        "best comparison they allow, not the SMT question)\n");
		fprintf(out, "  %-16s %-24s %5s  %-8s %-18s %s  %s\n", "host", "kernel", "n", "ratio",
		        "95% CI", "verdict", "folder");
		for (size_t k = 0; k < g->host_count; k++)
			host_row(out, &f->hosts[g->hosts[k]]);
		pooled_lines(out, g, "  ");
		outlier_lines(out, f, g, "  ");
	}
	fleet_matrix_print(f, out, false);
	if (f->skipped_count) {
		fprintf(out, "\nSkipped (not used):\n");
		for (size_t i = 0; i < f->skipped_count; i++)
			fprintf(out, "  %s: %s\n", f->skipped[i].dir, f->skipped[i].reason);
	}
	fflush(out);
	return ferror(out) ? -1 : 0;
}

/* ---- JSON --------------------------------------------------------------------------------- */

json_t *fleet_num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *fleet_pair_json(const double v[2])
{
	return json_pack("[o, o]", fleet_num_or_null(v[0]), fleet_num_or_null(v[1]));
}

static json_t *host_json(const struct fleet_host *h)
{
	return json_pack("{s:s, s:s, s:I, s:o, s:o, s:s, s:s, s:s, s:s, s:s, s:s, s:b, s:o, s:o, "
	                 "s:b, s:o}",
	                 "dir", h->dir, "host", h->host, "n", (json_int_t)h->n,
	                 "ratio_mean", fleet_num_or_null(h->ratio_mean),
	                 "ratio_ci", fleet_pair_json(h->ratio_ci),
	                 "verdict", h->verdict, "cpu_model", h->cpu_model, "smt", h->smt,
	                 "os_kernel", h->os_kernel, "workload", h->workload,
	                 "comparison", h->comparison, "pooled", h->pooled,
	                 "log_ratio_mean", fleet_num_or_null(h->log_mean),
	                 "log_ratio_sd", fleet_num_or_null(h->log_sd), "outlier", h->outlier,
	                 "others_predict_ci", h->loo_known ? fleet_pair_json(h->loo_ci) : json_null());
}

json_t *fleet_pooled_json(const struct fleet_pooled *p)
{
	/* The same keys either way (the contract drops none): nulls where nothing is pooled. */
	if (!p->ok)
		return json_pack("{s:n, s:n, s:n, s:n, s:I, s:n, s:n, s:n, s:n}", "ratio_mean",
		                 "ratio_ci", "spread_mean", "predictive_ci", "nodes",
		                 (json_int_t)p->nodes, "spread_ci", "log_ratio_mean", "log_ratio_ci",
		                 "predictive_log_ci");
	return json_pack("{s:f, s:o, s:f, s:o, s:I, s:o, s:f, s:o, s:o}",
	                 "ratio_mean", p->ratio_mean, "ratio_ci", fleet_pair_json(p->ratio_ci),
	                 "spread_mean", p->tau_mean, "predictive_ci", fleet_pair_json(p->predictive_ci),
	                 "nodes", (json_int_t)p->nodes, "spread_ci", fleet_pair_json(p->tau_ci),
	                 "log_ratio_mean", p->mu_mean, "log_ratio_ci", fleet_pair_json(p->mu_ci),
	                 "predictive_log_ci", fleet_pair_json(p->predictive_log_ci));
}

/* Appends value (taken) to array; false when either is NULL or the append failed (a string
 * that is not UTF-8, out of memory): the caller reports it, never leaves the item out. */
bool fleet_json_append(json_t *array, json_t *value)
{
	return value && array && json_array_append_new(array, value) == 0;
}

static json_t *group_json(const struct fleet *f, const struct fleet_group *g)
{
	json_t *hosts = json_array(), *outliers = json_array();
	bool ok = hosts && outliers;
	for (size_t k = 0; ok && k < g->host_count; k++) {
		const struct fleet_host *h = &f->hosts[g->hosts[k]];
		ok = fleet_json_append(hosts, host_json(h))
		     && (!h->outlier || fleet_json_append(outliers, json_string(h->dir)));
	}
	if (!ok) {
		json_decref(hosts);
		json_decref(outliers);
		return NULL;
	}
	return json_pack("{s:s, s:s, s:s, s:s, s:O, s:o, s:o, s:o, s:b}",
	                 "cpu_model", g->cpu_model, "smt", g->smt, "workload", g->workload,
	                 "comparison", g->comparison, "settings", g->settings, "hosts", hosts, "pooled",
	                 fleet_pooled_json(&g->pooled), "outliers", outliers,
	                 "outliers_judged", g->pooled.nodes >= FLEET_OUTLIER_MIN_NODES);
}

json_t *fleet_json(const struct fleet *f)
{
	json_t *groups = json_array(), *skipped = json_array(), *matrix = fleet_matrix_json(f);
	bool ok = groups && skipped && matrix;
	for (size_t g = 0; ok && g < f->group_count; g++)
		ok = fleet_json_append(groups, group_json(f, &f->groups[g]));
	for (size_t i = 0; ok && i < f->skipped_count; i++)
		ok = fleet_json_append(skipped, json_pack("{s:s, s:s}", "dir", f->skipped[i].dir,
		                               "reason", f->skipped[i].reason));
	if (!ok) {
		json_decref(groups);
		json_decref(skipped);
		json_decref(matrix);
		return NULL;
	}
	return json_pack("{s:o, s:o, s:s, s:s, s:o}", "groups", groups, "skipped", skipped,
	                 "tool", "smtbench", "version", SMTBENCH_VERSION, "matrix_groups", matrix);
}

/* ---- fleet.md ------------------------------------------------------------------------------ */

/* A table cell's text: a '|' would end the cell, so it is written \| (GitHub's escape, which
 * holds inside a code span too). */
static void markdown_cell(FILE *out, const char *text)
{
	for (; *text; text++) {
		if (*text == '|')
			fputc('\\', out);
		fputc(*text, out);
	}
}

static void markdown_row(FILE *out, const struct fleet_host *h)
{
	struct format_ring ns = { .next = 0 };
	double res = report_half_width(h->ratio_ci);
	fputs("| ", out);
	markdown_cell(out, h->host);
	fprintf(out, "%s | ", h->outlier ? " **(disagrees)**" : "");
	markdown_cell(out, h->os_kernel);
	fprintf(out, " | %zu | %s | %s–%s | %s%s | `", h->n, host_mean(&ns, h, res),
	        format_num(&ns, h->ratio_ci[0], res), format_num(&ns, h->ratio_ci[1], res),
	        h->verdict, h->pooled ? "" : " (not pooled)");
	markdown_cell(out, h->dir);
	fputs("` |\n", out);
}

char *fleet_markdown(const struct fleet *f)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	if (!out)
		return NULL;
	fprintf(out, "# smtbench fleet\n\n%zu node(s) in %zu group(s); ", f->host_count,
	        f->group_count);
	if (f->matrix_node_count)
		fprintf(out, "%zu matrix folder(s) in %zu matrix group(s); ", f->matrix_node_count,
		        f->matrix_group_count);
	fprintf(out, "%zu folder(s) skipped.\n", f->skipped_count);
	for (size_t gi = 0; gi < f->group_count; gi++) {
		const struct fleet_group *g = &f->groups[gi];
		fprintf(out, "\n## ");
		group_title(out, g, gi, "");
		fprintf(out, "\n| host | kernel | n | ratio | 95%% CI | verdict | folder |\n"
		        "|---|---|--:|--:|---|---|---|\n");
		for (size_t k = 0; k < g->host_count; k++)
			markdown_row(out, &f->hosts[g->hosts[k]]);
		fprintf(out, "\n");
		pooled_lines(out, g, "- ");
		outlier_lines(out, f, g, "- ");
	}
	fleet_matrix_print(f, out, true);
	if (f->skipped_count) {
		fprintf(out, "\n## Skipped\n\n");
		for (size_t i = 0; i < f->skipped_count; i++)
			fprintf(out, "- `%s`: %s\n", f->skipped[i].dir, f->skipped[i].reason);
	}
	if (fclose(out) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* ---- writing ------------------------------------------------------------------------------- */

int fleet_write_files(const struct fleet *f, const char *dir, char *err, size_t err_size)
{
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		set_error(err, err_size, "%s: cannot create it: %s", dir, strerror(errno));
		return -1;
	}
	char *texts[FLEET_FILE_COUNT] = { fleet_markdown(f), NULL, fleet_html(f) };
	json_t *j = fleet_json(f);
	char *dumped = j ? json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
	if (dumped)
		texts[1] = text_printf("%s\n", dumped);
	free(dumped);
	json_decref(j);
	int rc = 0;
	for (size_t i = 0; i < FLEET_FILE_COUNT && rc == 0; i++) {
		if (!texts[i]) {
			set_error(err, err_size, "%s/%s: its text could not be made (out of "
			                   "memory, or a name that is not UTF-8)", dir, fleet_file_names[i]);
			rc = -1;
		} else {
			rc = fileio_write_atomic(dir, fleet_file_names[i], texts[i], strlen(texts[i]), err,
			                         err_size);
		}
	}
	for (size_t i = 0; i < FLEET_FILE_COUNT; i++)
		free(texts[i]);
	return rc;
}
