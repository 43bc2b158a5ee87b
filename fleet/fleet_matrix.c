/*
 * fleet_matrix.c — matrix folders across a fleet (see fleet.h): each node's cells from its
 * report (report/matrix.h), nodes grouped by CPU model, SMT state, placement and kind of
 * workload, each cell pooled across a group's nodes with fleet_model.c's hierarchical model and
 * its deviating nodes named; and the matrix groups' parts of the text, fleet.md, fleet.json
 * and fleet.html (the heat map is report/matrix.h's, drawn from the pooled cells).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/internal.h"
#include "analysis/matrix.h"
#include "common/text.h"
#include "report/format.h"
#include "report/matrix.h"
#include "report/report.h"

/* ---- a node ------------------------------------------------------------------------------- */

int fleet_matrix_node_fill(struct fleet_matrix_node *n, const char *dir, const char *host,
                           const char *cpu_model, const char *smt, const char *os_kernel,
                           const struct matrix_report *rep)
{
	const struct analysis_matrix *m = matrix_report_matrix(rep);
	memset(n, 0, sizeof *n);
	n->dir = strdup(dir);
	n->host = strdup(host);
	n->cpu_model = strdup(cpu_model);
	n->smt = strdup(smt);
	n->os_kernel = strdup(os_kernel);
	n->placement = strdup(m->placement ? m->placement : "none");
	n->workloads = strdup(matrix_report_commands(rep) ? "commands" : "kernels");
	n->name_count = m->nkernels;
	n->names = calloc(m->nkernels + 1, sizeof *n->names);
	n->cells = calloc(m->nkernels * m->nkernels + 1, sizeof *n->cells);
	if (!n->dir || !n->host || !n->cpu_model || !n->smt || !n->os_kernel || !n->placement
	    || !n->workloads || !n->names || !n->cells)
		return -1;
	for (size_t k = 0; k < m->nkernels; k++)
		if (!(n->names[k] = strdup(m->kernels[k])))
			return -1;
	for (size_t v = 0; v < m->nkernels; v++)
		for (size_t g = 0; g < m->nkernels; g++) {
			const struct analysis_matrix_cell *c = analysis_matrix_cell(m, (int)v, (int)g);
			struct fleet_matrix_node_cell *x = &n->cells[v * m->nkernels + g];
			const struct analysis_comparison *k = &c->vs_baseline;
			x->settled = c->compared && analysis_comparison_settled(k);
			x->n = c->compared ? k->blocks_paired : 0;
			x->verdict = analysis_verdict_name(c->compared ? k->verdict
			                                               : ANALYSIS_VERDICT_UNDECIDED);
			x->ratio_mean = c->compared ? k->ratio_mean : NAN;
			x->ratio_ci[0] = c->compared ? k->ratio_ci[0] : NAN;
			x->ratio_ci[1] = c->compared ? k->ratio_ci[1] : NAN;
			x->log_mean = x->log_sd = NAN;
			if (c->compared)
				fleet_log_ratio_summary(k, &x->log_mean, &x->log_sd);
			x->loo_ci[0] = x->loo_ci[1] = NAN;
		}
	/* Comparable nodes: the machine, and what the cells ran on and ran. */
	json_t *key = json_pack("{s:s, s:s, s:s, s:s, s:s}", "matrix", n->workloads, "cpu_model",
	                        cpu_model, "smt", smt, "placement", n->placement, "kind", "matrix");
	n->group_key = key ? json_dumps(key, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	json_decref(key);
	return n->group_key ? 0 : -1;
}

void fleet_matrix_node_release(struct fleet_matrix_node *n)
{
	free(n->dir);
	free(n->host);
	free(n->cpu_model);
	free(n->smt);
	free(n->os_kernel);
	free(n->placement);
	free(n->workloads);
	free(n->group_key);
	for (size_t k = 0; n->names && k < n->name_count; k++)
		free(n->names[k]);
	free(n->names);
	free(n->cells);
	memset(n, 0, sizeof *n);
}

static long name_index(char *const *names, size_t count, const char *name)
{
	for (size_t k = 0; k < count; k++)
		if (!strcmp(names[k], name))
			return (long)k;
	return -1;
}

const struct fleet_matrix_node_cell *fleet_matrix_node_cell(const struct fleet_matrix_node *n,
                                                            const char *victim,
                                                            const char *aggressor)
{
	long v = name_index(n->names, n->name_count, victim);
	long g = name_index(n->names, n->name_count, aggressor);
	return v < 0 || g < 0 ? NULL : &n->cells[(size_t)v * n->name_count + (size_t)g];
}

/* ---- groups and pooling ------------------------------------------------------------------- */

static struct fleet_matrix_group *group_of(struct fleet *f, const struct fleet_matrix_node *n)
{
	for (size_t g = 0; g < f->matrix_group_count; g++)
		if (!strcmp(f->matrix_groups[g].key, n->group_key))
			return &f->matrix_groups[g];
	struct fleet_matrix_group *grown = realloc(f->matrix_groups,
	                                           (f->matrix_group_count + 1) * sizeof *grown);
	if (!grown)
		return NULL;
	f->matrix_groups = grown;
	struct fleet_matrix_group *g = &grown[f->matrix_group_count++];
	memset(g, 0, sizeof *g);
	g->cpu_model = strdup(n->cpu_model);
	g->smt = strdup(n->smt);
	g->placement = strdup(n->placement);
	g->workloads = strdup(n->workloads);
	g->key = strdup(n->group_key);
	g->nodes = calloc(f->matrix_node_count, sizeof *g->nodes);
	g->names = calloc(ANALYSIS_MATRIX_MAX_KERNELS * 2 + 1, sizeof *g->names);
	return g->cpu_model && g->smt && g->placement && g->workloads && g->key && g->nodes
	       && g->names ? g : NULL;
}

/* Adds the node's workloads the group does not have yet, in the node's order. */
static int merge_names(struct fleet_matrix_group *g, const struct fleet_matrix_node *n)
{
	for (size_t k = 0; k < n->name_count; k++) {
		if (name_index(g->names, g->name_count, n->names[k]) >= 0)
			continue;
		if (g->name_count == ANALYSIS_MATRIX_MAX_KERNELS * 2)
			return 0; /* more than any matrix holds: the rest are left out of the map */
		if (!(g->names[g->name_count++] = strdup(n->names[k])))
			return -1;
	}
	return 0;
}

/* Pools cell (v, g) of group gr across its nodes' settled answers, and marks the nodes whose
 * answer deviates from what the others predict. */
static int pool_cell(struct fleet *f, struct fleet_matrix_group *gr, size_t v, size_t g)
{
	size_t cap = gr->node_count ? gr->node_count : 1, n = 0;
	double *m = malloc(cap * sizeof *m), *s = malloc(cap * sizeof *s);
	double *lo = malloc(cap * sizeof *lo), *hi = malloc(cap * sizeof *hi);
	double *loo = malloc(2 * cap * sizeof *loo);
	bool *out = malloc(cap * sizeof *out);
	struct fleet_matrix_node_cell **which = malloc(cap * sizeof *which);
	struct fleet_matrix_cell *cell = &gr->cells[v * gr->name_count + g];
	int rc = -1;
	if (!m || !s || !lo || !hi || !loo || !out || !which)
		goto done;
	for (size_t k = 0; k < gr->node_count; k++) {
		struct fleet_matrix_node *node = &f->matrix_nodes[gr->nodes[k]];
		struct fleet_matrix_node_cell *c = (struct fleet_matrix_node_cell *)
			fleet_matrix_node_cell(node, gr->names[v], gr->names[g]);
		if (!c)
			continue;
		cell->nodes++;
		if (!c->settled || !(c->log_sd > 0) || !isfinite(c->log_sd) || !isfinite(c->log_mean))
			continue;
		m[n] = c->log_mean;
		s[n] = c->log_sd;
		lo[n] = log(c->ratio_ci[0]);
		hi[n] = log(c->ratio_ci[1]);
		which[n++] = c;
	}
	if (fleet_pool(m, s, n, &cell->pooled) < 0 || fleet_outliers(m, s, lo, hi, n, out, loo) < 0)
		goto done;
	for (size_t k = 0; k < n; k++) {
		which[k]->pooled = true;
		which[k]->outlier = out[k];
		which[k]->loo_known = !isnan(loo[2 * k]);
		which[k]->loo_ci[0] = exp(loo[2 * k]);
		which[k]->loo_ci[1] = exp(loo[2 * k + 1]);
		cell->deviating += out[k];
	}
	const struct fleet_pooled *p = &cell->pooled;
	cell->verdict = analysis_verdict_name(
		p->ok && p->ratio_ci[0] > 1 ? ANALYSIS_VERDICT_SLOWER
		: p->ok && p->ratio_ci[1] < 1 ? ANALYSIS_VERDICT_FASTER : ANALYSIS_VERDICT_UNDECIDED);
	rc = 0;
done:
	free(m);
	free(s);
	free(lo);
	free(hi);
	free(loo);
	free(out);
	free(which);
	return rc;
}

int fleet_matrix_build_groups(struct fleet *f)
{
	for (size_t i = 0; i < f->matrix_node_count; i++) {
		struct fleet_matrix_group *g = group_of(f, &f->matrix_nodes[i]);
		if (!g || merge_names(g, &f->matrix_nodes[i]) < 0)
			return -1;
		g->nodes[g->node_count++] = i;
	}
	for (size_t gi = 0; gi < f->matrix_group_count; gi++) {
		struct fleet_matrix_group *gr = &f->matrix_groups[gi];
		size_t n = gr->name_count;
		if (!(gr->cells = calloc(n * n + 1, sizeof *gr->cells)))
			return -1;
		for (size_t v = 0; v < n; v++)
			for (size_t g = 0; g < n; g++)
				if (pool_cell(f, gr, v, g) < 0)
					return -1;
	}
	return 0;
}

void fleet_matrix_release(struct fleet *f)
{
	for (size_t i = 0; i < f->matrix_node_count; i++)
		fleet_matrix_node_release(&f->matrix_nodes[i]);
	free(f->matrix_nodes);
	for (size_t gi = 0; gi < f->matrix_group_count; gi++) {
		struct fleet_matrix_group *g = &f->matrix_groups[gi];
		free(g->cpu_model);
		free(g->smt);
		free(g->placement);
		free(g->workloads);
		free(g->key);
		for (size_t k = 0; g->names && k < g->name_count; k++)
			free(g->names[k]);
		free(g->names);
		free(g->nodes);
		free(g->cells);
	}
	free(f->matrix_groups);
	f->matrix_nodes = NULL;
	f->matrix_groups = NULL;
	f->matrix_node_count = f->matrix_group_count = 0;
}

/* ---- words -------------------------------------------------------------------------------- */

static const char *verdict_mark(const char *verdict)
{
	if (!strcmp(verdict, analysis_verdict_name(ANALYSIS_VERDICT_SLOWER)))
		return "+";
	if (!strcmp(verdict, analysis_verdict_name(ANALYSIS_VERDICT_FASTER)))
		return "-";
	return "?";
}

/* "1.80× (1.75–1.85) +", or "n/a (1 of 2 settled) ?" for a cell pooled from fewer than
 * FLEET_POOL_MIN_NODES settled nodes: of the nodes that measured it, those whose answer could
 * be pooled, and how many pooling needs. */
static void pooled_text(char *buf, size_t size, const struct fleet_matrix_cell *c)
{
	struct format_ring ns = { .next = 0 };
	const struct fleet_pooled *p = &c->pooled;
	if (!p->ok) {
		snprintf(buf, size, "n/a (%zu of %zu node%s settled; pooling needs %d) ?", p->nodes,
		         c->nodes, c->nodes == 1 ? "" : "s", FLEET_POOL_MIN_NODES);
		return;
	}
	double res = report_half_width(p->ratio_ci);
	snprintf(buf, size, "%s× (%s–%s) %s", format_num(&ns, p->ratio_mean, res),
	         format_num(&ns, p->ratio_ci[0], res), format_num(&ns, p->ratio_ci[1], res),
	         verdict_mark(c->verdict));
}

static void group_title(FILE *out, const struct fleet_matrix_group *g, size_t index)
{
	fprintf(out, "Matrix group %zu: %s, SMT %s, %zu %s on %s (%zu node%s)\n", index + 1,
	        g->cpu_model, g->smt, g->name_count, g->workloads, g->placement, g->node_count,
	        g->node_count == 1 ? "" : "s");
}

static void deviation_lines(FILE *out, const struct fleet *f, const struct fleet_matrix_group *g,
                            const char *lead)
{
	size_t judged = 0, deviating = 0;
	for (size_t i = 0; i < g->name_count * g->name_count; i++) {
		judged += g->cells[i].pooled.nodes >= FLEET_OUTLIER_MIN_NODES;
		deviating += g->cells[i].deviating;
	}
	if (!judged) {
		fprintf(out, "%sNodes that deviate: not judged (a cell needs %d or more nodes with a "
		        "settled answer)\n", lead, FLEET_OUTLIER_MIN_NODES);
		return;
	}
	if (!deviating) {
		fprintf(out, "%sNodes that deviate: none (in %zu cell%s judged)\n", lead, judged,
		        judged == 1 ? "" : "s");
		return;
	}
	for (size_t v = 0; v < g->name_count; v++)
		for (size_t a = 0; a < g->name_count; a++)
			for (size_t k = 0; k < g->node_count; k++) {
				const struct fleet_matrix_node *n = &f->matrix_nodes[g->nodes[k]];
				const struct fleet_matrix_node_cell *c =
					fleet_matrix_node_cell(n, g->names[v], g->names[a]);
				if (!c || !c->outlier)
					continue;
				struct format_ring ns = { .next = 0 };
				double res = report_half_width(c->ratio_ci), lres = report_half_width(c->loo_ci);
				fprintf(out, "%s%s beside %s: %s (%s) deviates: %s× (95%% CI %s–%s), the "
				        "other nodes predict %s–%s×: %s\n", lead, g->names[v], g->names[a],
				        n->host, n->dir, format_num(&ns, c->ratio_mean, res),
				        format_num(&ns, c->ratio_ci[0], res), format_num(&ns, c->ratio_ci[1], res),
				        format_num(&ns, c->loo_ci[0], lres), format_num(&ns, c->loo_ci[1], lres),
				        fleet_act);
			}
}

/* text left-aligned in width columns (UTF-8: a continuation byte takes no column). */
static void print_padded(FILE *out, const char *text, int width)
{
	int columns = 0;
	for (const char *p = text; *p; p++)
		columns += ((unsigned char)*p & 0xC0) != 0x80;
	fprintf(out, " %s%*s", text, width > columns ? width - columns : 0, "");
}

static void text_table(FILE *out, const struct fleet_matrix_group *g)
{
	fprintf(out, "  Pooled slowdown of the victim (row) beside the aggressor (column), against "
	        "the victim alone; 95%% interval; + slower, - faster, ? not enough data to say:\n\n"
	        "    %-16s", "victim \\ aggr.");
	for (size_t a = 0; a < g->name_count; a++)
		print_padded(out, g->names[a], a + 1 < g->name_count ? 22 : 0);
	fputc('\n', out);
	for (size_t v = 0; v < g->name_count; v++) {
		fprintf(out, "    %-16s", g->names[v]);
		for (size_t a = 0; a < g->name_count; a++) {
			char cell[160];
			pooled_text(cell, sizeof cell, &g->cells[v * g->name_count + a]);
			print_padded(out, cell, a + 1 < g->name_count ? 22 : 0);
		}
		fputc('\n', out);
	}
	fputc('\n', out);
}

/* A name in a table cell of fleet.md: '|' would end the cell, so it is written \| (a name comes
 * from samples.csv, escaped but not otherwise limited). */
static void markdown_name(FILE *out, const char *name)
{
	fputs(" `", out);
	for (; *name; name++) {
		if (*name == '|')
			fputc('\\', out);
		fputc(*name, out);
	}
	fputs("` |", out);
}

static void markdown_table(FILE *out, const struct fleet_matrix_group *g)
{
	fputs("Pooled slowdown of the victim (row) beside the aggressor (column), against the victim "
	      "alone; 95% interval; + slower, - faster, ? not enough data to say.\n\n| victim \\ "
	      "aggressor |", out);
	for (size_t a = 0; a < g->name_count; a++)
		markdown_name(out, g->names[a]);
	fputs("\n|---|", out);
	for (size_t a = 0; a < g->name_count; a++)
		fputs("---:|", out);
	fputc('\n', out);
	for (size_t v = 0; v < g->name_count; v++) {
		fputc('|', out);
		markdown_name(out, g->names[v]);
		for (size_t a = 0; a < g->name_count; a++) {
			char cell[160];
			pooled_text(cell, sizeof cell, &g->cells[v * g->name_count + a]);
			fprintf(out, " %s |", cell);
		}
		fputc('\n', out);
	}
	fputc('\n', out);
}

void fleet_matrix_print(const struct fleet *f, FILE *out, bool markdown)
{
	for (size_t gi = 0; gi < f->matrix_group_count; gi++) {
		const struct fleet_matrix_group *g = &f->matrix_groups[gi];
		fputs(markdown ? "\n## " : "\n", out);
		group_title(out, g, gi);
		if (markdown)
			fputc('\n', out);
		fprintf(out, "%sNodes:", markdown ? "" : "  ");
		for (size_t k = 0; k < g->node_count; k++) {
			const struct fleet_matrix_node *n = &f->matrix_nodes[g->nodes[k]];
			fprintf(out, "%s %s (%s)", k ? "," : "", n->host, n->dir);
		}
		fputs(markdown ? "\n\n" : "\n", out);
		if (markdown)
			markdown_table(out, g);
		else
			text_table(out, g);
		deviation_lines(out, f, g, markdown ? "- " : "  ");
	}
}

/* ---- JSON --------------------------------------------------------------------------------- */

static json_t *cell_json(const struct fleet *f, const struct fleet_matrix_group *g, size_t v,
                         size_t a)
{
	const struct fleet_matrix_cell *cell = &g->cells[v * g->name_count + a];
	json_t *nodes = json_array(), *outliers = json_array();
	bool ok = nodes && outliers;
	for (size_t k = 0; ok && k < g->node_count; k++) {
		const struct fleet_matrix_node *n = &f->matrix_nodes[g->nodes[k]];
		const struct fleet_matrix_node_cell *c = fleet_matrix_node_cell(n, g->names[v],
		                                                                g->names[a]);
		if (!c)
			continue;
		ok = fleet_json_append(nodes, json_pack(
			     "{s:s, s:s, s:I, s:o, s:o, s:s, s:b, s:o, s:o, s:b, s:o}", "dir", n->dir,
			     "host", n->host, "n", (json_int_t)c->n, "ratio_mean",
			     fleet_num_or_null(c->settled ? c->ratio_mean : NAN), "ratio_ci",
			     fleet_pair_json(c->ratio_ci),
			     "verdict", c->verdict, "pooled", c->pooled,
			     "log_ratio_mean", fleet_num_or_null(c->log_mean), "log_ratio_sd",
			     fleet_num_or_null(c->log_sd), "outlier", c->outlier, "others_predict_ci",
			     c->loo_known ? fleet_pair_json(c->loo_ci) : json_null()))
		     && (!c->outlier || fleet_json_append(outliers, json_string(n->dir)));
	}
	if (!ok) {
		json_decref(nodes);
		json_decref(outliers);
		return NULL;
	}
	return json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:b}", "victim", g->names[v], "aggressor",
	                 g->names[a], "verdict", cell->verdict, "pooled",
	                 fleet_pooled_json(&cell->pooled),
	                 "nodes", nodes, "outliers", outliers, "outliers_judged",
	                 cell->pooled.nodes >= FLEET_OUTLIER_MIN_NODES);
}

static json_t *group_json(const struct fleet *f, const struct fleet_matrix_group *g)
{
	json_t *names = json_array(), *nodes = json_array(), *cells = json_array();
	bool ok = names && nodes && cells;
	for (size_t k = 0; ok && k < g->name_count; k++)
		ok = fleet_json_append(names, json_string(g->names[k]));
	for (size_t k = 0; ok && k < g->node_count; k++) {
		const struct fleet_matrix_node *n = &f->matrix_nodes[g->nodes[k]];
		ok = fleet_json_append(nodes, json_pack("{s:s, s:s, s:s}", "dir", n->dir, "host",
		                                        n->host, "os_kernel", n->os_kernel));
	}
	for (size_t v = 0; ok && v < g->name_count; v++)
		for (size_t a = 0; ok && a < g->name_count; a++)
			ok = fleet_json_append(cells, cell_json(f, g, v, a));
	if (!ok) {
		json_decref(names);
		json_decref(nodes);
		json_decref(cells);
		return NULL;
	}
	return json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:o}", "cpu_model", g->cpu_model, "smt",
	                 g->smt, "placement", g->placement, "workloads", g->workloads, "kernels",
	                 names, "nodes", nodes, "cells", cells);
}

json_t *fleet_matrix_json(const struct fleet *f)
{
	json_t *groups = json_array();
	for (size_t g = 0; groups && g < f->matrix_group_count; g++)
		if (!fleet_json_append(groups, group_json(f, &f->matrix_groups[g]))) {
			json_decref(groups);
			return NULL;
		}
	return groups;
}

/* ---- the heat map and fleet.html ---------------------------------------------------------- */

char *fleet_svg_matrix(const struct fleet *f, size_t group)
{
	const struct fleet_matrix_group *g = &f->matrix_groups[group];
	size_t n = g->name_count;
	struct matrix_heat_cell *cells = calloc(n * n + 1, sizeof *cells);
	if (!cells)
		return NULL;
	for (size_t i = 0; i < n * n; i++) {
		const struct fleet_pooled *p = &g->cells[i].pooled;
		cells[i] = (struct matrix_heat_cell){
			.settled = p->ok,
			.decided = strcmp(g->cells[i].verdict,
			                  analysis_verdict_name(ANALYSIS_VERDICT_UNDECIDED)) != 0,
			.ratio_mean = p->ratio_mean, .ratio_ci = { p->ratio_ci[0], p->ratio_ci[1] },
			.n = p->nodes };
	}
	char title[300];
	snprintf(title, sizeof title, "Matrix group %zu: %s, %s on %s, pooled over %zu node%s",
	         group + 1, g->cpu_model, g->workloads, g->placement, g->node_count,
	         g->node_count == 1 ? "" : "s");
	char *svg = matrix_svg_heatmap(title, "Rows: victims; columns: aggressors; each cell the "
	                               "victim's slowdown beside the aggressor against it alone, "
	                               "pooled across the nodes (hierarchical model), with the 95% "
	                               "interval of the pooled slowdown; hatched cells have no "
	                               "verdict.", (const char *const *)g->names, n, cells, "nodes");
	free(cells);
	return svg;
}

int fleet_matrix_html(const struct fleet *f, FILE *out)
{
	for (size_t gi = 0; gi < f->matrix_group_count; gi++) {
		const struct fleet_matrix_group *g = &f->matrix_groups[gi];
		char *svg = fleet_svg_matrix(f, gi);
		if (!svg)
			return -1;
		fputs("<h2>", out);
		char title[300];
		snprintf(title, sizeof title, "Matrix group %zu: %s, SMT %s, %s on %s", gi + 1,
		         g->cpu_model, g->smt, g->workloads, g->placement);
		report_xml_escape(out, title);
		fprintf(out, "</h2>\n<figure class=\"heatmap\">\n%s</figure>\n", svg);
		free(svg);
		for (size_t i = 0; i < g->name_count * g->name_count; i++) {
			if (!g->cells[i].deviating)
				continue;
			size_t v = i / g->name_count, a = i % g->name_count;
			for (size_t k = 0; k < g->node_count; k++) {
				const struct fleet_matrix_node *n = &f->matrix_nodes[g->nodes[k]];
				const struct fleet_matrix_node_cell *c =
					fleet_matrix_node_cell(n, g->names[v], g->names[a]);
				if (!c || !c->outlier)
					continue;
				fputs("<p class=\"act\">Deviates in ", out);
				report_xml_escape(out, g->names[v]);
				fputs(" beside ", out);
				report_xml_escape(out, g->names[a]);
				fputs(": <b>", out);
				report_xml_escape(out, n->host);
				fputs("</b> (", out);
				report_xml_escape(out, n->dir);
				fprintf(out, "): %s</p>\n", fleet_act);
			}
		}
	}
	return 0;
}
