/*
 * fleet_advise.c — `smtbench advise FLEETDIR`: the plan of which workloads share a core for each
 * of a fleet's matrix groups (one per CPU model, SMT state, placement and kind of workload),
 * from the group's pooled cells (fleet.h): each cell's posterior is the mixture over the spread
 * tau of normals for mu, drawn as such by analysis/advise.c (report/advise.c words the plan).
 */
#include <stdlib.h>

#include "common/alloc.h"
#include "common/error.h"
#include "fleet/fleet.h"
#include "report/doc.h"
#include "report/report.h"
#include "report/words.h"

/* The cores a group's plan is made for: --cores, else the smallest of its nodes' (they share a
 * CPU model, but may be sold with different counts); *differ when its nodes' counts differ,
 * *from the source's words. 0 when no node says and --cores is not given. */
static size_t group_cores(const struct fleet *f, const struct fleet_matrix_group *g,
                          size_t given, bool *differ, const char **from)
{
	size_t least = 0, most = 0;
	for (size_t k = 0; k < g->node_count; k++) {
		size_t c = f->matrix_nodes[g->nodes[k]].cores;
		if (!c)
			continue;
		least = !least || c < least ? c : least;
		most = c > most ? c : most;
	}
	*differ = least != most;
	*from = given ? "--cores" : *differ ? "smallest of the nodes'" : "the nodes' topology";
	return given ? given : least;
}

/* The group's pooled cells as mixtures (pointing into the cells' own arrays). */
static struct analysis_log_mixture *group_mixtures(const struct fleet_matrix_group *g)
{
	size_t n = g->name_count;
	struct analysis_log_mixture *mix = xcalloc(n * n + 1, sizeof *mix);
	for (size_t k = 0; k < n * n; k++)
		mix[k] = g->cells[k].mixture;
	return mix;
}

/* The group's plan on cores, or NULL with why in err: one node, or no count of cores. */
static struct analysis_advice *group_plan(const struct fleet *f,
                                          const struct fleet_matrix_group *g,
                                          const struct advise_names *names, size_t cores,
                                          const struct advise_request *rq, char *err,
                                          size_t err_size)
{
	if (g->node_count < FLEET_POOL_MIN_NODES) {
		set_error(err, err_size, "one node: its cells are pooled from %d or more nodes "
		          "(for one node's plan, run advise on its folder, %s)", FLEET_POOL_MIN_NODES,
		          f->matrix_nodes[g->nodes[0]].dir);
		return NULL;
	}
	if (!cores) {
		set_error(err, err_size, "its nodes' meta.json do not say how many cores they have: "
		          "give --cores N");
		return NULL;
	}
	struct analysis_log_mixture *mix = group_mixtures(g);
	struct analysis_advice *a = advise_mixtures(names, mix, cores, rq, err, err_size);
	free(mix);
	return a;
}

/* One group's section and its JSON entry; whether it has a plan. */
static bool group_advice(const struct fleet *f, const struct fleet_matrix_group *g,
                         const struct advise_request *rq, struct doc *d, json_t *groups)
{
	bool differ;
	const char *from;
	size_t cores = group_cores(f, g, rq->cores, &differ, &from);
	char *each = xstrdup(""), *title; /* "8 (node-a), 16 (node-b)": each node's cores */
	const struct fleet_matrix_node *first = g->first;
	title = xasprintf("%s (SMT %s; pairs on %s; %s), %zu node%s", first->cpu_model, first->smt,
	                  first->placement, first->workloads, g->node_count,
	                  g->node_count == 1 ? "" : "s");
	doc_heading(d, DOC_ALL, NULL, title);
	free(title);
	json_t *nodes = json_array(), *node_cores = json_array();
	for (size_t k = 0; k < g->node_count; k++) {
		const struct fleet_matrix_node *n = &f->matrix_nodes[g->nodes[k]];
		json_array_append_new(nodes, json_string(n->dir));
		json_array_append_new(node_cores, n->cores ? json_integer((json_int_t)n->cores)
		                                           : json_null());
		if (n->cores)
			append_words(&each, "%s%zu (%s)", *each ? ", " : "", n->cores, n->dir);
		else
			append_words(&each, "%s? (%s)", *each ? ", " : "", n->dir);
	}
	if (differ)
		doc_para(d, DOC_ALL, NULL, NULL, "warn", "Its nodes' core counts differ (%s): the plan "
		         "is for %zu core%s%s.", each, cores, cores == 1 ? "" : "s", rq->cores ? " (--cores)"
		         : ", the smallest, so that every node can hold it (give --cores N for another)");
	else if (cores)
		doc_para(d, DOC_ALL, NULL, NULL, NULL, "On %zu core%s (%s).", cores, cores == 1 ? "" : "s",
		         rq->cores ? "--cores" : "each node's topology");
	char err[ERR_LEN] = "";
	struct advise_names names = { g->names, g->name_count, first->placement,
	                              100 * g->safe_slowdown };
	struct analysis_advice *a = group_plan(f, g, &names, cores, rq, err, sizeof err);
	if (a)
		advise_blocks(d, DOC_ALL, &names, a, true);
	else
		doc_para(d, DOC_ALL, NULL, NULL, "warn", "No plan for this group: %s.", err);
	json_t *entry = json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:s, s:b, s:o, s:o}",
	                          "cpu_model", first->cpu_model, "smt", first->smt,
	                          "placement", first->placement, "workload_kind", first->workloads,
	                          "nodes", nodes, "node_cores", node_cores,
	                          "cores", cores ? json_integer((json_int_t)cores) : json_null(),
	                          "cores_from", from, "cores_differ", differ,
	                          "advice", a ? advise_json(&names, a) : json_null(),
	                          "error", a ? json_null() : json_string(err));
	json_array_append_new(groups, entry);
	free(each);
	bool planned = a != NULL;
	analysis_advice_free(&a);
	return planned;
}

struct report *fleet_advise_report(const struct fleet *f, const char *shown_dir,
                                   const struct advise_request *rq, size_t *planned, char *err,
                                   size_t err_size)
{
	*planned = 0;
	if (!f->matrix_group_count) {
		set_error(err, err_size, "%s holds no matrix folders (smtbench matrix): advise needs "
		          "a matrix's cells, or a fleet's matrices to pool", shown_dir);
		return NULL;
	}
	struct doc *d = doc_new("smtbench advise: %s (a fleet: %zu matrix group%s, one plan each)",
	                        shown_dir, f->matrix_group_count,
	                        f->matrix_group_count == 1 ? "" : "s");
	doc_para(d, DOC_ALL, NULL, NULL, NULL, "Each group's cells are pooled across its nodes "
	         "(smtbench fleet's model); the plan's intervals and P(best) come from joint draws "
	         "of the pooled cells' posteriors, each a mixture over the nodes' spread.");
	json_t *groups = json_array();
	for (size_t i = 0; i < f->matrix_group_count; i++)
		if (group_advice(f, &f->matrix_groups[i], rq, d, groups))
			(*planned)++;
	json_t *json = json_pack("{s:i, s:s, s:s, s:o}", "advise_version", 1, "fleet", shown_dir,
	                         "objective", advise_objective_name(rq->objective), "groups", groups);
	return report_new(d, json, "advise", "Advice", NULL);
}
