/*
 * fleet_report.c — the fleet's report (fleet.h): per group of nodes its table, pooled answer and
 * the nodes that disagree, per matrix group its pooled matrix and the nodes that deviate, the
 * folders skipped; a forest plot of the nodes and a heat map per matrix group; as one document
 * (report/doc.h) and fleet.json, the --json contract.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "fleet/fleet.h"
#include "report/doc.h"
#include "report/report.h"
#include "report/svg.h"
#include "report/words.h"

static const char ACT[] = "check this node: BIOS SMT setting, microcode, load?";

/* ---- words ---------------------------------------------------------------------------------- */

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

static char *group_title(const struct fleet_group *g, size_t index)
{
	const struct fleet_host *h = g->first;
	return xasprintf("Group %zu: %s, SMT %s, workload %s%s%s%s, %s (%zu node%s)", index + 1,
	                 h->cpu_model, h->smt, h->workload, g->settings_text ? " (" : "",
	                 g->settings_text ? g->settings_text : "", g->settings_text ? ")" : "",
	                 h->comparison, g->host_count, plural(g->host_count));
}

/* The pooled answer of a group in words: the slowdown, the spread, a new node's interval. */
static void pooled_items(struct doc *d, const struct fleet_group *g)
{
	const struct fleet_pooled *p = &g->pooled;
	struct format_ring ns = { .next = 0 };
	if (!p->ok && p->nodes > 0) {
		doc_item(d, DOC_ALL, NULL, NULL, "Pooled: one node: see its own answer above (a pooled "
		         "answer and the node-to-node spread need %d or more settled nodes)",
		         FLEET_POOL_MIN_NODES);
		return;
	}
	if (!p->ok) {
		doc_item(d, DOC_ALL, NULL, NULL, "Pooled: none of its nodes has a settled answer (too "
		         "few samples); rerun them with more trials");
		return;
	}
	double res = half_width(p->ratio_ci), pres = half_width(p->predictive_ci);
	double tres = half_width(p->tau_ci);
	doc_item(d, DOC_ALL, NULL, NULL, "Pooled slowdown (%s): %s× (95%% CI %s–%s), from %zu "
	         "node%s", g->first->comparison, format_num(&ns, p->ratio_mean, res),
	         format_num(&ns, p->ratio_ci[0], res), format_num(&ns, p->ratio_ci[1], res), p->nodes,
	         plural(p->nodes));
	doc_item(d, DOC_ALL, NULL, NULL, "Node-to-node spread: %s (sd of the log ratio, about %s %%; "
	         "95%% CI %s–%s)", format_num(&ns, p->tau_mean, tres),
	         format_num(&ns, 100 * p->tau_mean, 100 * tres), format_num(&ns, p->tau_ci[0], tres),
	         format_num(&ns, p->tau_ci[1], tres));
	doc_item(d, DOC_ALL, NULL, NULL, "A new node of this group: %s–%s× (95%% predictive "
	         "interval)", format_num(&ns, p->predictive_ci[0], pres),
	         format_num(&ns, p->predictive_ci[1], pres));
}

/* "1.30× (95% CI 1.2–1.4), the other nodes predict 1.0–1.1×: check this node ..." */
static char *deviation(const struct fleet_answer *a)
{
	struct format_ring ns = { .next = 0 };
	double res = half_width(a->ratio_ci), lres = half_width(a->loo_ci);
	return xasprintf("%s× (95%% CI %s–%s), the other nodes predict %s–%s×: %s",
	                 format_num(&ns, a->ratio_mean, res), format_num(&ns, a->ratio_ci[0], res),
	                 format_num(&ns, a->ratio_ci[1], res), format_num(&ns, a->loo_ci[0], lres),
	                 format_num(&ns, a->loo_ci[1], lres), ACT);
}

static void outlier_items(struct doc *d, const struct fleet *f, const struct fleet_group *g)
{
	size_t outliers = 0;
	for (size_t k = 0; k < g->host_count; k++) {
		const struct fleet_host *h = &f->hosts[g->hosts[k]];
		if (!h->answer.outlier)
			continue;
		char *text = deviation(&h->answer);
		doc_item(d, DOC_ALL, NULL, NULL, "Node that disagrees: %s (%s): %s", h->host, h->dir,
		         text);
		free(text);
		outliers++;
	}
	if (g->pooled.nodes < FLEET_OUTLIER_MIN_NODES)
		doc_item(d, DOC_ALL, NULL, NULL, "Nodes that disagree: not judged with fewer than %d "
		         "pooled nodes", FLEET_OUTLIER_MIN_NODES);
	else if (!outliers)
		doc_item(d, DOC_ALL, NULL, NULL, "Nodes that disagree: none");
}

/* "Linux 6.1.0-18-amd64": the release, without the build string that follows it. */
static char *kernel_release(const char *os_kernel)
{
	const char *space = strchr(os_kernel, ' ');
	size_t len = space ? strcspn(space + 1, " ") + (size_t)(space + 1 - os_kernel)
	                   : strlen(os_kernel);
	return xasprintf("%.*s", (int)len, os_kernel);
}

static void hosts_table(struct doc *d, const struct fleet *f, const struct fleet_group *g)
{
	static const struct doc_column columns[] = {
		{ "host", 16, false, 0 }, { "kernel", 24, false, 0 }, { "n", 5, true, 0 },
		{ "ratio", 8, true, 2 }, { "95% CI", 18, true, 0 }, { "verdict", 0, false, 0 },
		{ "folder", 0, false, 2 },
	};
	doc_table(d, DOC_ALL, NULL, columns, sizeof columns / sizeof columns[0]);
	for (size_t k = 0; k < g->host_count; k++) {
		const struct fleet_host *h = &f->hosts[g->hosts[k]];
		const struct fleet_answer *a = &h->answer;
		struct format_ring ns = { .next = 0 };
		double res = half_width(a->ratio_ci);
		char *kernel = kernel_release(h->os_kernel);
		char *host = xasprintf("%s%s", h->host, a->outlier ? " (disagrees)" : "");
		/* An unsettled node's mean is the grid's artefact, not an answer (analysis.h). */
		doc_row(d, host, kernel, format_text(&ns, "%zu", a->n),
		        a->settled ? format_num(&ns, a->ratio_mean, res) : "–",
		        format_ci(&ns, a->ratio_ci, res), format_text(&ns, "%s%s", a->verdict,
		        a->pooled ? "" : " (not pooled)"), h->dir);
		free(host);
		free(kernel);
	}
}
/* ---- the forest plot ------------------------------------------------------------------------- */

/* One row per node with its 95% interval, grouped; each group's predictive interval a shaded band,
 * its pooled slowdown a diamond; nodes that disagree in red and named. */
enum { ROW_PX = 22, TOP_PX = 40, BOTTOM_PX = 60, WIDTH_PX = 900, LABEL_PX = 260 };
static const char OUTLIER_COLOR[] = "#D55E00", NODE_COLOR[] = "#0072B2",
                  POOLED_COLOR[] = "#000000", BAND_COLOR[] = "#CFE3F2";

/* The x range: every interval drawn, and 1 (no slowdown). */
static void ratio_range(const struct fleet *f, double *lo, double *hi)
{
	*lo = 1;
	*hi = 1;
	for (size_t i = 0; i < f->host_count; i++) {
		if (!isfinite(f->hosts[i].answer.ratio_ci[0]) || !isfinite(f->hosts[i].answer.ratio_ci[1]))
			continue;
		*lo = fmin(*lo, f->hosts[i].answer.ratio_ci[0]);
		*hi = fmax(*hi, f->hosts[i].answer.ratio_ci[1]);
	}
	for (size_t g = 0; g < f->group_count; g++)
		if (f->groups[g].pooled.ok) {
			*lo = fmin(*lo, f->groups[g].pooled.predictive_ci[0]);
			*hi = fmax(*hi, f->groups[g].pooled.predictive_ci[1]);
		}
	double pad = (*hi - *lo) * 0.05 + 1e-3;
	*lo -= pad;
	*hi += pad;
}

static size_t row_count(const struct fleet *f)
{
	size_t rows = 0;
	for (size_t g = 0; g < f->group_count; g++)
		rows += f->groups[g].host_count + 3; /* title, nodes, pooled, gap */
	return rows ? rows : 1;
}

/* A label cut by snprintf may end inside a UTF-8 sequence, which would make the SVG invalid
 * XML: the incomplete character is dropped. */
static void utf8_whole(char *text)
{
	size_t len = strlen(text), lead = len;
	while (lead > 0 && ((unsigned char)text[lead - 1] & 0xc0) == 0x80)
		lead--;
	if (lead == 0 || ((unsigned char)text[lead - 1] & 0x80) == 0)
		return;
	unsigned char c = (unsigned char)text[lead - 1];
	size_t need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
	if (len - (lead - 1) < need)
		text[lead - 1] = '\0';
}

static void node_row(FILE *out, const struct svg_axis *x, const struct fleet_host *h, double y)
{
	const char *color = h->answer.outlier ? OUTLIER_COLOR : NODE_COLOR;
	char label[300];
	snprintf(label, sizeof label, "%s%s", h->host, h->answer.outlier ? " — check this node" : "");
	utf8_whole(label);
	fprintf(out, "<g class=\"node%s\" data-dir=\"", h->answer.outlier ? " outlier" : "");
	report_xml_escape(out, h->dir);
	fputs("\">\n", out);
	svg_text(out, LABEL_PX - 8, y + 4, "end", 12, h->answer.outlier ? "bold" : NULL, label);
	if (isfinite(h->answer.ratio_ci[0]) && isfinite(h->answer.ratio_ci[1])) {
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		        "stroke-width=\"2\"%s/>\n", svg_map(x, h->answer.ratio_ci[0]), y,
		        svg_map(x, h->answer.ratio_ci[1]), y, color,
		        h->answer.pooled ? "" : " stroke-dasharray=\"4 3\"");
		svg_marker(out, h->answer.outlier ? 1 : 0, svg_map(x, h->answer.ratio_mean), y, 4.5, color, h->answer.settled);
	}
	fputs("</g>\n", out);
}

static void group_rows(FILE *out, const struct svg_axis *x, const struct fleet *f,
                       const struct fleet_group *g, size_t index, double *y)
{
	const struct fleet_host *h = g->first;
	char title[600];
	snprintf(title, sizeof title, "Group %zu: %s, SMT %s, %s%s%s%s, %s", index + 1, h->cpu_model,
	         h->smt, h->workload, g->settings_text ? " (" : "",
	         g->settings_text ? g->settings_text : "", g->settings_text ? ")" : "", h->comparison);
	utf8_whole(title);
	svg_text(out, 10, *y + 4, "start", 13, "bold", title);
	*y += ROW_PX;
	if (g->pooled.ok) { /* the band a new node would fall in, behind the group's nodes */
		double x0 = svg_map(x, g->pooled.predictive_ci[0]);
		double x1 = svg_map(x, g->pooled.predictive_ci[1]);
		fprintf(out, "<rect class=\"predictive\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		        "height=\"%.1f\" fill=\"%s\" opacity=\"0.7\"/>\n", x0, *y - ROW_PX / 2.0,
		        x1 - x0, (double)ROW_PX * (double)(g->host_count + 1), BAND_COLOR);
	}
	for (size_t k = 0; k < g->host_count; k++, *y += ROW_PX)
		node_row(out, x, &f->hosts[g->hosts[k]], *y);
	if (g->pooled.ok) {
		const struct fleet_pooled *p = &g->pooled;
		svg_text(out, LABEL_PX - 8, *y + 4, "end", 12, "bold", "pooled");
		fprintf(out, "<path class=\"pooled\" d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" "
		        "fill=\"%s\"/>\n", svg_map(x, p->ratio_ci[0]), *y, svg_map(x, p->ratio_mean),
		        *y - 7, svg_map(x, p->ratio_ci[1]), *y, svg_map(x, p->ratio_mean), *y + 7,
		        POOLED_COLOR);
	}
	*y += 2 * ROW_PX;
}

static char *forest_plot(const struct fleet *f)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = xmemstream(&text, &size);
	int height = (int)(TOP_PX + BOTTOM_PX + ROW_PX * row_count(f));
	svg_begin(out, WIDTH_PX, height, "Forest plot: each node's slowdown with its 95% interval",
	          "One row per node, grouped by CPU model, SMT state and workload; the shaded band "
	          "is the 95% interval a new node of the group would fall in, the diamond the pooled "
	          "slowdown with its 95% interval; nodes that disagree are red squares.");
	double lo, hi;
	ratio_range(f, &lo, &hi);
	struct svg_axis x = { lo, hi, LABEL_PX, WIDTH_PX - 30 };
	double bottom = height - BOTTOM_PX + 10;
	fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888\" "
	        "stroke-dasharray=\"3 3\"/>\n", svg_map(&x, 1), TOP_PX - 20, svg_map(&x, 1), bottom);
	double y = TOP_PX;
	for (size_t g = 0; g < f->group_count; g++)
		group_rows(out, &x, f, &f->groups[g], g, &y);
	svg_x_axis(out, &x, bottom, "slowdown (time of the first placement / the second); 1 = none");
	svg_end(out);
	return xmemstream_close(out, &text);
}


/* ---- matrix groups ------------------------------------------------------------------------ */

/* Cell (victim, aggressor) of a matrix group's table: "1.80× (1.75–1.85) +", or "n/a (1 of 2
 * settled) ?" for a cell pooled from fewer than FLEET_POOL_MIN_NODES settled nodes: of the
 * nodes that measured it, those whose answer could be pooled, and how many pooling needs. */
static char *pooled_cell(const void *group, size_t victim, size_t aggressor)
{
	const struct fleet_matrix_group *g = group;
	const struct fleet_matrix_cell *c = &g->cells[victim * g->name_count + aggressor];
	struct format_ring ns = { .next = 0 };
	const struct fleet_pooled *p = &c->pooled;
	enum analysis_verdict v = fleet_pooled_verdict(p);
	if (!p->ok)
		return xasprintf("n/a (%zu of %zu node%s settled; pooling needs %d) ?", p->nodes,
		                 c->nodes, plural(c->nodes), FLEET_POOL_MIN_NODES);
	return xasprintf("%s %s%s", format_ratio(&ns, p->ratio_mean, p->ratio_ci),
	                 v == ANALYSIS_VERDICT_SLOWER ? "+" : v == ANALYSIS_VERDICT_FASTER ? "-"
	                 : v == ANALYSIS_VERDICT_SAME ? "=" : "?",
	                 c->safe ? " safe" : "");
}

static void deviation_items(struct doc *d, const struct fleet *f,
                            const struct fleet_matrix_group *g)
{
	size_t judged = 0, deviating = 0;
	for (size_t i = 0; i < g->name_count * g->name_count; i++) {
		judged += g->cells[i].pooled.nodes >= FLEET_OUTLIER_MIN_NODES;
		deviating += g->cells[i].deviating;
	}
	if (!judged)
		doc_item(d, DOC_ALL, NULL, NULL, "Nodes that deviate: not judged (a cell needs %d or "
		         "more nodes with a settled answer)", FLEET_OUTLIER_MIN_NODES);
	else if (!deviating)
		doc_item(d, DOC_ALL, NULL, NULL, "Nodes that deviate: none (in %zu cell%s judged)",
		         judged, plural(judged));
	for (size_t i = 0; i < g->name_count * g->name_count; i++)
		for (size_t k = 0; g->cells[i].deviating && k < g->node_count; k++) {
			const struct fleet_matrix_node *n = &f->matrix_nodes[g->nodes[k]];
			const char *victim = g->names[i / g->name_count];
			const char *aggressor = g->names[i % g->name_count];
			const struct fleet_answer *c = fleet_matrix_node_cell(n, victim, aggressor);
			if (!c || !c->outlier)
				continue;
			char *text = deviation(c);
			doc_item(d, DOC_ALL, NULL, NULL, "%s beside %s: %s (%s) deviates: %s", victim,
			         aggressor, n->host, n->dir, text);
			free(text);
		}
}

/* The group's joint safe list as words.h takes it. */
static struct safe_list safe_list_of(const struct fleet_matrix_group *g)
{
	return (struct safe_list){ g->names, g->name_count, g->safe_pairs, g->safe_pair_count,
	                           g->safe_joint_probability, g->safe_slowdown, g->safe_candidates };
}

/* The group's joint safe list and what its probability covers (fleet.h). */
static void safe_para(struct doc *d, const struct fleet_matrix_group *g)
{
	const struct safe_list safe = safe_list_of(g);
	char *list = safe_list_words(&safe);
	size_t pairs = g->name_count * (g->name_count + 1) / 2;
	if (g->safe_pair_count)
		doc_para(d, DOC_ALL, "Safe to share", NULL, NULL, "%s: each slowed by at most %g%% "
		         "beside the other (pooled), every listed pair at once with probability %.3f "
		         "(at least %g; %zu of %zu pairs could be listed).", list, 100 * g->safe_slowdown,
		         g->safe_joint_probability, ANALYSIS_MATRIX_SAFE_PROBABILITY, g->safe_candidates,
		         pairs);
	else
		doc_para(d, DOC_ALL, "Safe to share", NULL, NULL, "none of the %zu pairs: no list of "
		         "pairs each slowed by at most %g%% beside the other (pooled) holds at once with "
		         "probability %g (%zu could be listed: each of their pooled cells practically "
		         "the same or faster).", pairs, 100 * g->safe_slowdown,
		         ANALYSIS_MATRIX_SAFE_PROBABILITY, g->safe_candidates);
	free(list);
}

/* A matrix group's pooled heat map (report/svg.h's). */
static char *matrix_heatmap(const struct fleet_matrix_group *g, size_t index)
{
	size_t n = g->name_count;
	struct svg_heat_cell *cells = xcalloc(n * n, sizeof *cells);
	for (size_t i = 0; i < n * n; i++) {
		const struct fleet_pooled *p = &g->cells[i].pooled;
		cells[i] = (struct svg_heat_cell){
			.settled = p->ok, .decided = fleet_pooled_verdict(p) != ANALYSIS_VERDICT_UNDECIDED,
			.ratio_mean = p->ratio_mean, .ratio_ci = { p->ratio_ci[0], p->ratio_ci[1] },
			.n = p->nodes };
	}
	char title[300];
	snprintf(title, sizeof title, "Matrix group %zu: %s, %s on %s, pooled over %zu node%s",
	         index + 1, g->first->cpu_model, g->first->workloads, g->first->placement,
	         g->node_count, plural(g->node_count));
	char *svg = svg_heatmap(title, "Rows: victims; columns: aggressors; each cell the victim's "
	                        "slowdown beside the aggressor against it alone, pooled across the "
	                        "nodes (hierarchical model), with the 95% interval of the pooled "
	                        "slowdown; hatched cells have no verdict.",
	                        (const char *const *)g->names, n, cells, "nodes");
	free(cells);
	return svg;
}

static void matrix_section(struct doc *d, const struct fleet *f, size_t index)
{
	const struct fleet_matrix_group *g = &f->matrix_groups[index];
	char *title = xasprintf("Matrix group %zu: %s, SMT %s, %zu %s on %s (%zu node%s)", index + 1,
	                        g->first->cpu_model, g->first->smt, g->name_count, g->first->workloads,
	                        g->first->placement, g->node_count, plural(g->node_count));
	char *nodes = xstrdup("");
	for (size_t k = 0; k < g->node_count; k++) {
		const struct fleet_matrix_node *n = &f->matrix_nodes[g->nodes[k]];
		append_words(&nodes, "%s %s (%s)", k ? "," : "", n->host, n->dir);
	}
	doc_heading(d, DOC_ALL, NULL, title);
	doc_para(d, DOC_ALL, "Nodes", NULL, NULL, "%s", nodes + 1);
	doc_para(d, DOC_ALL, NULL, NULL, NULL, "Pooled slowdown of the victim (row) beside the "
	         "aggressor (column), against the victim alone; 95%% interval; + slower, - faster, = "
	         "practically the same (P >= %g within %g%%), ? not enough data to say; safe: the "
	         "pair is on the list below.", ANALYSIS_EQUIVALENCE_PROBABILITY,
	         100 * g->safe_slowdown);
	doc_matrix_table(d, NULL, g->names, g->name_count, 21, pooled_cell, g);
	safe_para(d, g);
	doc_figure(d, NULL, NULL, title, matrix_heatmap(g, index));
	deviation_items(d, f, g);
	free(title);
	free(nodes);
}

/* ---- fleet.json ------------------------------------------------------------------------------ */

/* A node's answer as fleet.json gives it: a host's headline, with its machine and workload (h),
 * or a matrix node's in one cell (h NULL), whose unsettled mean is the grid's artefact (null). */
static json_t *answer_json(const char *dir, const char *host, const struct fleet_answer *a,
                           const struct fleet_host *h)
{
	return json_pack("{s:s, s:s, s:I, s:o, s:o, s:s, s:s*, s:s*, s:s*, s:s*, s:s*, s:b, s:o, "
	                 "s:o, s:b, s:o}",
	                 "dir", dir, "host", host, "n", (json_int_t)a->n,
	                 "ratio_mean", json_number_or_null(h || a->settled ? a->ratio_mean : NAN),
	                 "ratio_ci", json_interval(a->ratio_ci), "verdict", a->verdict,
	                 "cpu_model", h ? h->cpu_model : NULL, "smt", h ? h->smt : NULL,
	                 "os_kernel", h ? h->os_kernel : NULL, "workload", h ? h->workload : NULL,
	                 "comparison", h ? h->comparison : NULL, "pooled", a->pooled,
	                 "log_ratio_mean", json_number_or_null(a->log_mean),
	                 "log_ratio_sd", json_number_or_null(a->log_sd), "outlier", a->outlier,
	                 "others_predict_ci",
	                 !isnan(a->loo_ci[0]) ? json_interval(a->loo_ci) : json_null());
}

static json_t *pooled_json(const struct fleet_pooled *p)
{
	/* The same keys either way (the contract drops none): nulls where nothing is pooled. */
	if (!p->ok)
		return json_pack("{s:n, s:n, s:n, s:n, s:I, s:n, s:n, s:n, s:n}", "ratio_mean",
		                 "ratio_ci", "spread_mean", "predictive_ci", "nodes",
		                 (json_int_t)p->nodes, "spread_ci", "log_ratio_mean", "log_ratio_ci",
		                 "predictive_log_ci");
	return json_pack("{s:f, s:o, s:f, s:o, s:I, s:o, s:f, s:o, s:o}",
	                 "ratio_mean", p->ratio_mean, "ratio_ci", json_interval(p->ratio_ci),
	                 "spread_mean", p->tau_mean, "predictive_ci", json_interval(p->predictive_ci),
	                 "nodes", (json_int_t)p->nodes, "spread_ci", json_interval(p->tau_ci),
	                 "log_ratio_mean", p->mu_mean, "log_ratio_ci", json_interval(p->mu_ci),
	                 "predictive_log_ci", json_interval(p->predictive_log_ci));
}

/* Appends value (taken) to array; false when either is NULL or the append failed (a string
 * that is not UTF-8): the caller reports it, never leaves the item out. */
static bool append(json_t *array, json_t *value)
{
	return value && array && json_array_append_new(array, value) == 0;
}

/* value (taken), or NULL when ok is false: one of its items could not be made. */
static json_t *made(bool ok, json_t *value)
{
	if (ok)
		return value;
	json_decref(value);
	return NULL;
}

static json_t *group_json(const struct fleet *f, const struct fleet_group *g)
{
	json_t *hosts = json_array(), *outliers = json_array();
	bool ok = true;
	for (size_t k = 0; ok && k < g->host_count; k++) {
		const struct fleet_host *h = &f->hosts[g->hosts[k]];
		ok = append(hosts, answer_json(h->dir, h->host, &h->answer, h))
		     && (!h->answer.outlier || append(outliers, json_string(h->dir)));
	}
	return made(ok, json_pack("{s:s, s:s, s:s, s:s, s:O, s:o, s:o, s:o, s:b}",
	                          "cpu_model", g->first->cpu_model, "smt", g->first->smt,
	                          "workload", g->first->workload, "comparison", g->first->comparison,
	                          "settings", g->first->settings, "hosts", hosts,
	                          "pooled", pooled_json(&g->pooled), "outliers", outliers,
	                          "outliers_judged", g->pooled.nodes >= FLEET_OUTLIER_MIN_NODES));
}

static json_t *cell_json(const struct fleet *f, const struct fleet_matrix_group *g, size_t v,
                         size_t a)
{
	const struct fleet_matrix_cell *cell = &g->cells[v * g->name_count + a];
	json_t *nodes = json_array(), *outliers = json_array();
	bool ok = true;
	for (size_t k = 0; ok && k < g->node_count; k++) {
		const struct fleet_matrix_node *n = &f->matrix_nodes[g->nodes[k]];
		const struct fleet_answer *c = fleet_matrix_node_cell(n, g->names[v], g->names[a]);
		if (!c)
			continue;
		ok = append(nodes, answer_json(n->dir, n->host, c, NULL))
		     && (!c->outlier || append(outliers, json_string(n->dir)));
	}
	/* safe: its pair is on the group's joint list; p_safe: P(pooled slowdown at most the
	 * bound) where it may be listed, else null (fleet.h). */
	return made(ok, json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:b, s:b, s:o}",
	                          "victim", g->names[v], "aggressor", g->names[a],
	                          "verdict", verdict_name(fleet_pooled_verdict(&cell->pooled)),
	                          "pooled", pooled_json(&cell->pooled), "nodes", nodes,
	                          "outliers", outliers,
	                          "outliers_judged", cell->pooled.nodes >= FLEET_OUTLIER_MIN_NODES,
	                          "safe", cell->safe,
	                          "p_safe", json_number_or_null(fleet_pooled_p_safe(&cell->pooled))));
}

static json_t *matrix_group_json(const struct fleet *f, const struct fleet_matrix_group *g)
{
	const struct safe_list safe = safe_list_of(g);
	json_t *names = json_array(), *nodes = json_array(), *cells = json_array();
	bool ok = true;
	for (size_t k = 0; ok && k < g->name_count; k++)
		ok = append(names, json_string(g->names[k]));
	for (size_t k = 0; ok && k < g->node_count; k++) {
		const struct fleet_matrix_node *n = &f->matrix_nodes[g->nodes[k]];
		ok = append(nodes, json_pack("{s:s, s:s, s:s}", "dir", n->dir, "host",
		                                        n->host, "os_kernel", n->os_kernel));
	}
	for (size_t v = 0; ok && v < g->name_count; v++)
		for (size_t a = 0; ok && a < g->name_count; a++)
			ok = append(cells, cell_json(f, g, v, a));
	return made(ok, json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:f}",
	                          "cpu_model", g->first->cpu_model, "smt", g->first->smt,
	                          "placement", g->first->placement, "workloads", g->first->workloads,
	                          "kernels", names, "nodes", nodes,
	                          "cells", cells, "safe_pairs", safe_pairs_json(&safe),
	                          "safe_list", safe_list_json(&safe, "pooled slowdown"),
	                          "safe_slowdown_pct", 100 * g->safe_slowdown));
}

static json_t *fleet_json(const struct fleet *f)
{
	json_t *groups = json_array(), *skipped = json_array(), *matrix = json_array();
	bool ok = true;
	for (size_t g = 0; ok && g < f->matrix_group_count; g++)
		ok = append(matrix, matrix_group_json(f, &f->matrix_groups[g]));
	for (size_t g = 0; ok && g < f->group_count; g++)
		ok = append(groups, group_json(f, &f->groups[g]));
	for (size_t i = 0; ok && i < f->skipped_count; i++)
		ok = append(skipped, json_pack("{s:s, s:s}", "dir", f->skipped[i].dir,
		                               "reason", f->skipped[i].reason));
	return made(ok, json_pack("{s:o, s:o, s:s, s:s, s:o}", "groups", groups, "skipped", skipped,
	                          "tool", "smtbench", "version", SMTBENCH_VERSION,
	                          "matrix_groups", matrix));
}


/* ---- the document --------------------------------------------------------------------------- */

static void group_section(struct doc *d, const struct fleet *f, size_t index)
{
	const struct fleet_group *g = &f->groups[index];
	char *title = group_title(g, index);
	doc_heading(d, DOC_ALL, NULL, title);
	free(title);
	if (!g->first->smt_question)
		doc_para(d, DOC_ALL, NULL, NULL, "nosmt", "(no sibling placement was measured on these "
		         "nodes: this is the best comparison they allow, not the SMT question)");
	hosts_table(d, f, g);
	pooled_items(d, g);
	outlier_items(d, f, g);
}

struct report *fleet_report(const struct fleet *f)
{
	char nodes[160] = "", matrices[160] = "";
	if (f->host_count || !f->matrix_node_count) /* a fleet of matrices alone: those only */
		snprintf(nodes, sizeof nodes, "%zu node%s in %zu group%s; ", f->host_count,
		         plural(f->host_count), f->group_count, plural(f->group_count));
	if (f->matrix_node_count)
		snprintf(matrices, sizeof matrices, "%zu matrix folder%s in %zu matrix group%s; ",
		         f->matrix_node_count, plural(f->matrix_node_count), f->matrix_group_count,
		         plural(f->matrix_group_count));
	struct doc *d = doc_new("smtbench fleet: %s%s%zu folder%s skipped", nodes, matrices,
	                        f->skipped_count, plural(f->skipped_count));
	for (size_t i = 0; i < f->host_count; i++)
		if (f->hosts[i].answer.outlier)
			doc_para(d, DOC_FILES, NULL, NULL, "act", "Disagrees with its group: %s (%s): %s",
			         f->hosts[i].host, f->hosts[i].dir, ACT);
	for (size_t g = 0; g < f->group_count; g++)
		group_section(d, f, g);
	if (f->host_count) { /* runs' folders; matrix folders have their heat maps */
		doc_heading(d, DOC_FILES, NULL, "Forest plot");
		doc_figure(d, "forest", NULL, "Forest plot", forest_plot(f));
	}
	for (size_t g = 0; g < f->matrix_group_count; g++)
		matrix_section(d, f, g);
	if (f->skipped_count)
		doc_heading(d, DOC_ALL, "skipped", "Skipped (not used)");
	for (size_t i = 0; i < f->skipped_count; i++)
		doc_item(d, DOC_ALL, NULL, NULL, "%s: %s", f->skipped[i].dir, f->skipped[i].reason);
	doc_para(d, DOC_FILES, NULL, NULL, "muted", "Every number is in fleet.json.");
	return report_new(d, fleet_json(f), "fleet", "Fleet report", NULL);
}
