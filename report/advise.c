/*
 * advise.c — the advice for a person and for programs: which workloads share a core (the plan
 * of analysis/advise.c, from a matrix's cells or fleet's pooled ones), its throughput with its
 * interval and P(best), its gain over the naive and the worst plan, whether pairing pays when the
 * cores are enough, and SMT on or off per workload; a document's blocks (report/doc.h) and their
 * JSON (results/README.md, "advise --json"), below the reports that show them: `smtbench
 * advise`'s and the matrix's own (report/matrix.c), fleet's (fleet/fleet_advise.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/matrix.h"
#include "common/alloc.h"
#include "common/error.h"
#include "common/folder.h"
#include "report/doc.h"
#include "report/internal.h"
#include "report/report.h"
#include "report/words.h"

const char *advise_objective_name(enum analysis_objective o)
{
	return o == ANALYSIS_OBJECTIVE_WORST ? "worst" : "throughput";
}

/* Whether the cells ran on siblings: the plan is then about sharing a core. */
static bool on_siblings(const struct advise_names *wl)
{
	return wl->placement && !strcmp(wl->placement, "sibling");
}

/* What a pair sharing means on this matrix's placement. */
static const char *sharing_words(const struct advise_names *wl)
{
	return on_siblings(wl) ? "a core (its two sibling PUs)"
	       : wl->placement && !strcmp(wl->placement, "same-pu") ? "one CPU, time-shared"
	       : "the machine side by side (separate cores)";
}

/* "keep SMT on for gzip: a core does 1.18× (1.12–1.24) the work with both threads busy". */
static char *smt_sentence(const struct advise_names *wl, size_t w,
                          const struct analysis_smt_advice *s)
{
	struct format_ring ns = { .next = 0 };
	const char *name = wl->names[w];
	if (!s->measured)
		return xasprintf("%s: not measured beside itself: no SMT advice", name);
	if (isnan(s->yield))
		return xasprintf("not enough data to say for %s: its cell beside itself is not settled "
		                 "and paired (measure more blocks)", name);
	const char *y = format_ratio(&ns, s->yield, s->yield_ci);
	if (!on_siblings(wl))
		return xasprintf("%s: two copies on separate cores did %s the work of one alone: not "
		                 "measured on SMT siblings, so no SMT advice (that needs --placement "
		                 "sibling on an SMT machine)", name, y);
	const char *busy = "the work with both threads busy";
	switch (s->decision) {
	case ANALYSIS_SMT_KEEP_ON:
		return xasprintf("keep SMT on for %s: a core does %s %s", name, y, busy);
	case ANALYSIS_SMT_TURN_OFF:
		return xasprintf("turn SMT off (or --hint=nomultithread) for %s: a core does %s %s",
		                 name, y, busy);
	case ANALYSIS_SMT_EITHER:
		return xasprintf("SMT on or off makes no practical difference for %s (within ±%g%%): "
		                 "a core does %s %s", name, wl->rope_pct, y, busy);
	case ANALYSIS_SMT_UNKNOWN:
		break;
	}
	return xasprintf("not enough data to say whether SMT helps %s: a core does %s %s", name, y,
	                 busy);
}

/* The decision's words; a matrix not on siblings gives none. */
static const char *decision_of(const struct advise_names *wl, const struct analysis_smt_advice *s)
{
	static const char *const names[] = {
		[ANALYSIS_SMT_KEEP_ON] = "keep on", [ANALYSIS_SMT_TURN_OFF] = "turn off",
		[ANALYSIS_SMT_EITHER] = "either", [ANALYSIS_SMT_UNKNOWN] = "not enough data to say",
	};
	return on_siblings(wl) || !s->measured || isnan(s->yield) ? names[s->decision]
	       : "not on siblings";
}

/* The workloads of one core of the plan: item i and its partner. */
static char *core_names(const struct advise_names *wl, const struct analysis_advice *a,
                        const struct analysis_plan_value *p, size_t i)
{
	const char *first = wl->names[a->item_workload[i]];
	if (p->partner[i] < 0)
		return xasprintf("%s alone", first);
	return xasprintf("%s + %s", first, wl->names[a->item_workload[p->partner[i]]]);
}

/* The plan in one line: "a + b, c alone". */
static char *plan_line(const struct advise_names *wl, const struct analysis_advice *a,
                       const struct analysis_plan_value *p)
{
	char *s = xstrdup("");
	for (size_t i = 0; i < a->nitems; i++) {
		if (p->partner[i] >= 0 && p->partner[i] < (int)i)
			continue;
		char *core = core_names(wl, a, p, i);
		append_words(&s, "%s%s", *s ? ", " : "", core);
		free(core);
	}
	return s;
}

/* The answer: the plan, its value, P(best) and the gains. */
static char *advise_answer(const struct advise_names *wl, const struct analysis_advice *a)
{
	struct format_ring ns = { .next = 0 };
	char *plan = plan_line(wl, a, &a->best);
	const struct analysis_plan_value *b = &a->best;
	const char *value = a->objective == ANALYSIS_OBJECTIVE_THROUGHPUT
	                    ? format_text(&ns, "throughput %s of every workload alone on its own core",
	                                  format_ratio(&ns, b->throughput, b->throughput_ci))
	                    : format_text(&ns, "worst slowdown %s",
	                                  format_ratio(&ns, b->worst, b->worst_ci));
	const char *p_best = isnan(a->p_best) ? "P(best) not computed (a heuristic's plan)"
	                     : format_text(&ns, "P(best) %.2f over %zu draws", a->p_best,
	                                   a->p_best_draws);
	char gains[400] = "";
	if (!isnan(a->gain_naive))
		snprintf(gains, sizeof gains, "; %s the naive plan's %s (workloads paired in the order "
		         "given)", format_ratio(&ns, a->gain_naive, a->gain_naive_ci),
		         a->objective == ANALYSIS_OBJECTIVE_THROUGHPUT ? "throughput" : "worst-slowdown "
		         "ratio");
	size_t len = strlen(gains);
	if (!isnan(a->gain_worst))
		snprintf(gains + len, sizeof gains - len, ", %s the worst plan's",
		         format_ratio(&ns, a->gain_worst, a->gain_worst_ci));
	char *s = xasprintf("Plan on %zu core%s (%s): %s; %s, %s%s", a->cores,
	                    a->cores == 1 ? "" : "s",
	                    a->objective == ANALYSIS_OBJECTIVE_THROUGHPUT ? "most throughput"
	                    : "smallest worst slowdown", plan, value, p_best, gains);
	free(plan);
	return s;
}

/* Whether pairing still pays when the cores hold every workload alone. */
static char *pays_sentence(const struct advise_names *wl, const struct analysis_advice *a)
{
	if (!a->packed_known)
		return NULL;
	if (!on_siblings(wl))
		return xasprintf("The %zu cores hold every workload alone. Whether two workloads on "
		                 "one core's siblings do more than one alone needs a matrix measured on "
		                 "siblings (these pairs each had a core of their own)", a->cores);
	struct format_ring ns = { .next = 0 };
	char *plan = plan_line(wl, a, &a->packed);
	bool pays = a->packed_per_core_ci[0] > 1, costs = a->packed_per_core_ci[1] < 1;
	char *s = xasprintf("The %zu cores hold every workload alone. Pairing %s: on %zu core(s) "
	                    "(%s) a core does %s the work of one workload alone (P(above 1) = %.2f)%s",
	                    a->cores, pays ? "still pays" : costs ? "does not pay" : "may or may not "
	                    "pay", a->packed.cores_used, plan,
	                    format_ratio(&ns, a->packed_per_core, a->packed_per_core_ci),
	                    a->packed_p_pays, pays ? ", so sharing frees cores for other work at a "
	                    "gain" : "");
	free(plan);
	return s;
}

static char *pairing_note_of(const struct advise_names *wl)
{
	if (on_siblings(wl))
		return NULL;
	return xasprintf("These pairs were measured on separate cores (%s), not siblings: the plan "
	                 "says which workloads may share %s, not a core's SMT siblings.",
	                 wl->placement ? wl->placement : "no pair placement",
	                 sharing_words(wl));
}

static char *advise_method(const struct analysis_advice *a)
{
	if (a->exact)
		return xasprintf("exact: bitmask dynamic programming over the subsets of the %zu "
		                 "workloads (%.3g steps, 2^n x n / 2)", a->nitems,
		                 ldexp((double)a->nitems / 2, (int)a->nitems));
	return xasprintf("heuristic (more than %d workloads): pairs taken greedily as the cores "
	                 "require, then local search (exchange partners, split and join pairs) until "
	                 "no move improves the plan; not known to be the best",
	                 ANALYSIS_ADVISE_EXACT_MAX);
}

/* ---- the blocks ---------------------------------------------------------------------------- */

static void plan_table(struct doc *d, unsigned outputs, const struct advise_names *wl,
                       const struct analysis_advice *a)
{
	static const struct doc_column cols[] = {
		{ "core", 0, true, 0 }, { "workloads", 0, false, 2 },
		{ "predicted slowdowns (95% interval)", 0, false, 2 },
		{ "work of the core", 0, true, 2 },
	};
	doc_table(d, outputs, "plan", cols, sizeof cols / sizeof cols[0]);
	const struct analysis_plan_value *p = &a->best;
	size_t core = 0;
	for (size_t i = 0; i < a->nitems; i++) {
		if (p->partner[i] >= 0 && p->partner[i] < (int)i)
			continue;
		struct format_ring ns = { .next = 0 };
		char *names = core_names(wl, a, p, i);
		size_t j = (size_t)p->partner[i];
		bool alone = p->partner[i] < 0;
		doc_row(d, format_text(&ns, "%zu", core++), names, alone ? "1 (alone)"
		        : format_text(&ns, "%s, %s",
		                      format_ratio(&ns, p->slowdown[i], &p->slowdown_ci[2 * i]),
		                      format_ratio(&ns, p->slowdown[j], &p->slowdown_ci[2 * j])),
		        alone ? "1" : format_num(&ns, 1 / p->slowdown[i] + 1 / p->slowdown[j], 0.001));
		free(names);
	}
}

static void smt_table(struct doc *d, unsigned outputs, const struct advise_names *wl,
                      const struct analysis_advice *a)
{
	static const struct doc_column cols[] = {
		{ "workload", 0, false, 0 }, { "yield (95% interval)", 0, false, 2 },
		{ "decision", 0, false, 2 },
	};
	doc_table(d, outputs, "smt", cols, sizeof cols / sizeof cols[0]);
	for (size_t w = 0; w < a->nworkloads; w++) {
		struct format_ring ns = { .next = 0 };
		const struct analysis_smt_advice *s = &a->smt[w];
		doc_row(d, wl->names[w], isnan(s->yield) ? "n/a"
		        : format_ratio(&ns, s->yield, s->yield_ci), decision_of(wl, s));
	}
}

void advise_blocks(struct doc *d, unsigned outputs, const struct advise_names *wl,
                   const struct analysis_advice *a, bool full)
{
	char *answer = advise_answer(wl, a), *note = pairing_note_of(wl);
	doc_para(d, outputs, NULL, "advice", "answer", "%s.", answer);
	if (note)
		doc_para(d, outputs, NULL, NULL, NULL, "%s", note);
	plan_table(d, outputs, wl, a);
	char *pays = pays_sentence(wl, a);
	if (pays)
		doc_para(d, outputs, NULL, NULL, NULL, "%s.", pays);
	if (a->unknown_pairs)
		doc_para(d, outputs, NULL, NULL, "warn", "%zu pair(s) of workloads have no settled cell "
		         "(both ways): the plan never puts them together.", a->unknown_pairs);
	if (full) {
		doc_heading(d, outputs, NULL, on_siblings(wl) ? "SMT on or off, per workload"
		            : "Two copies side by side, per workload");
		smt_table(d, outputs, wl, a);
		for (size_t w = 0; w < a->nworkloads; w++) {
			char *s = smt_sentence(wl, w, &a->smt[w]);
			doc_item(d, outputs, NULL, NULL, "%s", s);
			free(s);
		}
		char *method = advise_method(a);
		doc_para(d, outputs, "Method", NULL, NULL, "%s; each value's 95%% interval and P(best) "
		         "from %zu joint draws of the cells' posteriors (fixed seed); the SMT decisions "
		         "with the matrix's ROPE of %g%%.", method, a->draws, wl->rope_pct);
		free(method);
	}
	free(pays);
	free(note);
	free(answer);
}

/* ---- JSON ---------------------------------------------------------------------------------- */

static json_t *plan_json(const struct advise_names *wl, const struct analysis_advice *a,
                         const struct analysis_plan_value *p)
{
	if (!p->known)
		return json_null();
	json_t *cores = json_array();
	for (size_t i = 0; i < a->nitems; i++) {
		if (p->partner[i] >= 0 && p->partner[i] < (int)i)
			continue;
		json_t *names = json_array(), *slow = json_array(), *ci = json_array();
		size_t members[2] = { i, p->partner[i] < 0 ? i : (size_t)p->partner[i] };
		for (int k = 0; k < (p->partner[i] < 0 ? 1 : 2); k++) {
			json_array_append_new(names, json_string(wl->names[a->item_workload[members[k]]]));
			json_array_append_new(slow, json_number_or_null(p->slowdown[members[k]]));
			json_array_append_new(ci, json_interval(&p->slowdown_ci[2 * members[k]]));
		}
		json_array_append_new(cores, json_pack("{s:o, s:o, s:o}", "workloads", names,
		                                       "slowdowns", slow, "slowdown_ci", ci));
	}
	return json_pack("{s:o, s:I, s:o, s:o, s:o, s:o}", "cores", cores,
	                 "cores_used", (json_int_t)p->cores_used,
	                 "throughput", json_number_or_null(p->throughput),
	                 "throughput_ci", json_interval(p->throughput_ci),
	                 "worst_slowdown", json_number_or_null(p->worst),
	                 "worst_slowdown_ci", json_interval(p->worst_ci));
}

json_t *advise_json(const struct advise_names *wl, const struct analysis_advice *a)
{
	json_t *smt = json_array(), *counts = json_object();
	for (size_t w = 0; w < a->nworkloads; w++) {
		size_t c = 0;
		for (size_t i = 0; i < a->nitems; i++)
			c += a->item_workload[i] == (int)w;
		json_object_set_new(counts, wl->names[w], json_integer((json_int_t)c));
		const struct analysis_smt_advice *s = &a->smt[w];
		char *sentence = smt_sentence(wl, w, s);
		json_array_append_new(smt, json_pack("{s:s, s:b, s:o, s:o, s:s, s:o, s:o, s:s}",
		                                     "workload", wl->names[w], "measured", s->measured,
		                                     "yield", json_number_or_null(s->yield),
		                                     "yield_ci", json_interval(s->yield_ci),
		                                     "decision", decision_of(wl, s),
		                                     "p_keep_on", json_number_or_null(s->p_on),
		                                     "p_turn_off", json_number_or_null(s->p_off),
		                                     "sentence", sentence));
		free(sentence);
	}
	char *answer = advise_answer(wl, a), *method = advise_method(a), *note = pairing_note_of(wl);
	json_t *best = plan_json(wl, a, &a->best);
	json_object_set_new(best, "p_best", json_number_or_null(a->p_best));
	json_object_set_new(best, "p_best_draws", json_integer((json_int_t)a->p_best_draws));
	json_t *pays = !a->packed_known ? NULL
	               : json_pack("{s:o, s:f, s:o, s:f}", "plan", plan_json(wl, a, &a->packed),
	                           "work_per_core", a->packed_per_core,
	                           "work_per_core_ci", json_interval(a->packed_per_core_ci),
	                           "p_pays", a->packed_p_pays);
	json_t *o = json_pack(
		"{s:i, s:s, s:s, s:s?, s:b, s:s?, s:o, s:o, s:I, s:I, s:I, s:b, s:s, s:I, s:o, s:o,"
		" s:o, s:o, s:o, s:o, s:o, s:o?, s:I, s:o, s:s, s:o}",
		"advise_version", 1, "objective", advise_objective_name(a->objective),
		"sharing", sharing_words(wl),
		"placement", wl->placement, "measured_on_siblings", on_siblings(wl), "pairing_note", note,
		"workloads", json_strings(wl->names, a->nworkloads), "counts", counts, "items", (json_int_t)a->nitems,
		"cores", (json_int_t)a->cores, "pairs_needed", (json_int_t)a->pairs_needed,
		"exact", a->exact, "method", method, "draws", (json_int_t)a->draws,
		"plan", best, "naive_plan", plan_json(wl, a, &a->naive),
		"worst_plan", plan_json(wl, a, &a->worst),
		"gain_over_naive", json_number_or_null(a->gain_naive),
		"gain_over_naive_ci", json_interval(a->gain_naive_ci),
		"gain_over_worst", json_number_or_null(a->gain_worst),
		"gain_over_worst_ci", json_interval(a->gain_worst_ci),
		"pairing_pays", pays, "unknown_pairs", (json_int_t)a->unknown_pairs,
		"smt", smt, "answer", answer, "rope_pct", json_number_or_null(wl->rope_pct));
	free(answer);
	free(method);
	free(note);
	return o;
}

/* ---- from a matrix's cells or pooled ones ------------------------------------------------- */

/* Each workload's copies: --count's, else 1. NULL with err for a name not among names. */
static size_t *counts_of(char *const *names, size_t nw, const struct advise_request *rq,
                         char *err, size_t err_size)
{
	size_t *counts = xcalloc(nw + 1, sizeof *counts);
	for (size_t w = 0; w < nw; w++)
		counts[w] = 1;
	for (size_t k = 0; k < rq->ncounts; k++) {
		size_t w = 0;
		while (w < nw && strcmp(names[w], rq->count_names[k]))
			w++;
		if (w == nw) {
			char *known = xstrdup("");
			for (size_t i = 0; i < nw; i++)
				append_words(&known, "%s%s", i ? ", " : "", names[i]);
			set_error(err, err_size, "--count %s: no workload of that name in the matrix (its "
			          "workloads: %s)", rq->count_names[k], known);
			free(known);
			free(counts);
			return NULL;
		}
		counts[w] = rq->count_values[k];
	}
	return counts;
}

/* The advice of req (its cells or mixtures, cores and ROPE set) for the workloads names, with
 * rq's --count, objective, draws and seed. NULL with err: a --count name unknown, or no cores
 * known (only a folder's: fleet names its nodes' lack itself). */
static struct analysis_advice *advise_of(struct analysis_advise_request *req, char *const *names,
                                         const struct advise_request *rq, char *err,
                                         size_t err_size)
{
	size_t *counts = counts_of(names, req->nworkloads, rq, err, err_size);
	if (!counts)
		return NULL;
	if (!req->cores) {
		set_error(err, err_size, "the folder's meta.json does not say how many cores the "
		          "machine has: give --cores N");
		free(counts);
		return NULL;
	}
	req->counts = counts;
	req->objective = rq->objective;
	req->draws = rq->draws;
	req->seed = rq->seed ? rq->seed : ANALYSIS_ADVISE_SEED;
	struct analysis_advice *a = analysis_advise(req, err, err_size);
	free(counts);
	return a;
}

struct analysis_advice *advise_matrix(const struct analysis_matrix *m,
                                      const struct advise_request *rq,
                                      const struct results_folder *f, char *err, size_t err_size)
{
	/* --cores, else the cores the folder's machine had (meta.json's topology.cores), or 0. */
	json_int_t had = json_integer_value(json_object_get(json_object_get(f->meta, "topology"),
	                                                    "cores"));
	size_t nw = m->nkernels, cores = rq->cores ? rq->cores : had > 0 ? (size_t)had : 0;
	const struct analysis_comparison **cells = xcalloc(nw * nw + 1, sizeof *cells);
	for (size_t v = 0; v < nw; v++)
		for (size_t g = 0; g < nw; g++) {
			const struct analysis_matrix_cell *c = analysis_matrix_cell(m, (int)v, (int)g);
			cells[v * nw + g] = c && c->compared ? &c->vs_baseline : NULL;
		}
	struct analysis_advise_request req = { .nworkloads = nw, .cells = cells, .cores = cores,
	                                       .rope_pct = m->rope_pct };
	struct analysis_advice *a = advise_of(&req, m->kernels, rq, err, err_size);
	free(cells);
	return a;
}

struct analysis_advice *advise_mixtures(const struct advise_names *names,
                                        const struct analysis_log_mixture *mixtures, size_t cores,
                                        const struct advise_request *rq, char *err,
                                        size_t err_size)
{
	struct analysis_advise_request req = { .nworkloads = names->count, .mixtures = mixtures,
	                                       .cores = cores, .rope_pct = names->rope_pct };
	return advise_of(&req, names->names, rq, err, err_size);
}
