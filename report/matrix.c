/*
 * matrix.c — an interference matrix's reports (smtbench matrix; analysis/matrix.h compares its
 * cells): its own (the answer first: which pairs may share, the worst cell; the pair the cells
 * ran on, the plan, the heat map, the matrix, each cell, sensitivity and contentiousness, the
 * baselines, the warnings) and `smtbench advise`'s, the plan alone, each a document and JSON.
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
#include "report/svg.h"
#include "report/words.h"

/* A matrix's folder, compared: what every part of its report is made of. */
struct matrix_model {
	struct results_folder *folder;     /* borrowed */
	const json_t *meta;                /* shown (escaped) */
	bool exclude_contaminated;
	bool rope_default;                 /* no ROPE was given: the default one judged the cells */
	bool rope_ignored;                 /* meta.json's recorded one was not a percentage */
	bool commands;                     /* named commands (matrix --commands), not kernels */
	struct analysis_matrix *m;
	struct advise_names names;         /* m's, as the advice names them */
	int pus[2];                        /* the victim's CPU and the aggressor's; -1 unknown */
	const char *shares;                /* what that pair shares, or NULL */
	struct analysis_advice *advice;    /* the plan on the machine's cores (advise's default), or
	                                    * NULL with advice_error saying why */
	char advice_error[ERR_LEN];
	const char *cpu_kind;              /* the CPU kind the pair was chosen within (a machine of
	                                    * several kinds), or NULL */
	bool mixed_kinds;                  /* the pair's CPUs are of different kinds */
};

/* Whether a cell's (or a summary's) numbers are the data's: compared and settled. An unsettled
 * comparison's mean is the grid's, never quoted (analysis_comparison_settled). */
static bool settled(bool compared, const struct analysis_comparison *c)
{
	return compared && analysis_comparison_settled(c);
}

/* A cell's ratio and interval, or why there is none. */
static const char *cell_text(struct format_ring *ns, const struct analysis_matrix_cell *c)
{
	if (settled(c->compared, &c->vs_baseline))
		return format_ratio(ns, c->vs_baseline.ratio_mean, c->vs_baseline.ratio_ci);
	return format_text(ns, "n/a (%zu blocks)", c->group.n);
}

/* A compared cell measured under load (analysis_under_load: its trials and its baseline's). */
static bool cell_under_load(const struct analysis_matrix_cell *c)
{
	return c->compared && analysis_under_load(&c->vs_baseline);
}

/* A verdict as one character of the matrix: + slower, - faster, = the same, ? undecided. */
static const char *verdict_mark(bool compared, enum analysis_verdict v)
{
	return !compared ? " " : v == ANALYSIS_VERDICT_SLOWER ? "+" : v == ANALYSIS_VERDICT_FASTER
	       ? "-" : v == ANALYSIS_VERDICT_SAME ? "=" : "?";
}

/* The compared, settled cell with the largest slowdown, or NULL. */
static const struct analysis_matrix_cell *worst_cell(const struct analysis_matrix *m)
{
	const struct analysis_matrix_cell *worst = NULL;
	for (size_t i = 0; i < m->ncells; i++) {
		const struct analysis_matrix_cell *c = &m->cells[i];
		if (settled(c->compared, &c->vs_baseline)
		    && (!worst || c->vs_baseline.ratio_mean > worst->vs_baseline.ratio_mean))
			worst = c;
	}
	return worst;
}

/* The joint safe list as words.h takes it. */
static struct safe_list safe_list_of(const struct analysis_matrix *m)
{
	return (struct safe_list){ m->kernels, m->nkernels, m->safe_pairs, m->safe_pair_count,
	                           m->safe_joint_probability, m->safe_slowdown, m->safe_candidates };
}

/* ---- the model ------------------------------------------------------------------------------ */

/* The ROPE: as given (report --rope), else meta.json's matrix.rope_pct (matrix --rope), else
 * none (NAN; the matrix's then takes its default, the safe bound's: analysis/matrix.h). A
 * recorded value that is not a percentage above 0 and below 100 is not used. */
static double choose_rope(struct matrix_model *mm, double given)
{
	const json_t *recorded = json_object_get(json_object_get(mm->meta, "matrix"), "rope_pct");
	if (!isnan(given) || !recorded || json_is_null(recorded))
		return given;
	double v = json_number_value(recorded);
	if (json_is_number(recorded) && v > 0 && v < 100)
		return v;
	mm->rope_ignored = true;
	return given;
}

/* The pair the cells ran on, from meta.json's placements. */
static void read_pair(struct matrix_model *mm)
{
	const json_t *p = meta_placement(mm->meta, mm->m->placement);
	json_t *pus = json_object_get(p, "pus");
	mm->pus[0] = mm->pus[1] = -1;
	if (json_array_size(pus) != 2)
		return;
	mm->pus[0] = (int)json_integer_value(json_array_get(pus, 0));
	mm->pus[1] = (int)json_integer_value(json_array_get(pus, 1));
	mm->shares = json_string_value(json_object_get(p, "shares"));
	mm->cpu_kind = json_string_value(json_object_get(p, "cpu_kind"));
	mm->mixed_kinds = json_is_true(json_object_get(p, "mixed_kinds"));
}

/* The folder's cells compared, in the order meta.json lists its workloads. -1 with err. */
static int matrix_model_load(struct matrix_model *mm, struct results_folder *f,
                             const struct report_options *o, char *err, size_t err_size)
{
	*mm = (struct matrix_model){ .folder = f, .meta = f->shown_meta,
	                             .exclude_contaminated = o->exclude_contaminated };
	/* The workloads' names as run, to order the rows (meta.json keeps their bytes). */
	const json_t *matrix = json_object_get(f->meta, "matrix");
	mm->commands = json_is_array(json_object_get(matrix, "commands"));
	json_t *listed = json_object_get(matrix, mm->commands ? "commands" : "kernels");
	size_t n = json_array_size(listed);
	const char **names = xcalloc(n + 1, sizeof *names);
	for (size_t i = 0; i < n; i++)
		if (!(names[i] = json_string_value(json_object_get(json_array_get(listed, i), "name"))))
			n = i; /* a damaged list: the file's order for the rest */
	struct analysis_options opt;
	analysis_options_init(&opt);
	opt.rope_pct = choose_rope(mm, o->rope_pct);
	mm->m = analysis_matrix_load(f, names, n, o->exclude_contaminated, &opt, err, err_size);
	free(names);
	if (!mm->m)
		return -1;
	mm->rope_default = isnan(opt.rope_pct);
	mm->names = (struct advise_names){ mm->m->kernels, mm->m->nkernels, mm->m->placement,
	                                   mm->m->rope_pct };
	read_pair(mm);
	return 0;
}

/* ---- words ---------------------------------------------------------------------------------- */

/* Which pairs may share, and the worst cell. */
static char *answer_sentence(const struct matrix_model *mm)
{
	const struct analysis_matrix *m = mm->m;
	const struct safe_list safe = safe_list_of(m);
	char *list = safe_list_words(&safe);
	const struct analysis_matrix_cell *w = worst_cell(m);
	struct format_ring ns = { .next = 0 };
	char worst[300];
	if (w)
		snprintf(worst, sizeof worst, "worst: %s beside %s %s, %s", m->kernels[w->victim],
		         m->kernels[w->aggressor], cell_text(&ns, w), verdict_name(w->vs_baseline.verdict));
	else
		snprintf(worst, sizeof worst, "no cell has enough data to say yet (at least %d blocks "
		         "each)", ANALYSIS_SETTLED_MIN_N);
	const char *p = m->placement;
	const char *where = p && !strcmp(p, "sibling") ? "Safe to share a core"
	                    : p && !strcmp(p, "same-pu") ? "Safe to time-share one CPU (same-pu)"
	                    : "Safe side by side on two cores (non-sibling)";
	/* What the probability covers: every listed pair at once, both ways. */
	char *s = m->safe_pair_count
	          ? xasprintf("%s, each kernel slowed by at most %g%% beside the other, every listed "
	                      "pair at once with probability %.3f (at least %g): %s; %s", where,
	                      100 * m->safe_slowdown, m->safe_joint_probability,
	                      ANALYSIS_MATRIX_SAFE_PROBABILITY, list, worst)
	          : xasprintf("%s, each kernel slowed by at most %g%% beside the other with "
	                      "probability %g: none of the %zu pairs; %s", where,
	                      100 * m->safe_slowdown, ANALYSIS_MATRIX_SAFE_PROBABILITY,
	                      m->nkernels * (m->nkernels + 1) / 2, worst);
	free(list);
	return s;
}

/* What a map not on siblings says; NULL on siblings. */
static char *pairing_note(const struct matrix_model *mm)
{
	const char *p = mm->m->placement;
	if (!p || !strcmp(p, "sibling"))
		return NULL;
	char cpus[200] = "";
	if (mm->pus[0] >= 0)
		snprintf(cpus, sizeof cpus, " (CPUs %d and %d%s%s)", mm->pus[0], mm->pus[1],
		         mm->shares ? ", sharing " : "", mm->shares ? mm->shares : "");
	return xasprintf("The pairs ran on %s CPUs%s, not on SMT siblings: this map says what %s "
	                 "costs each %s, not what sharing a core does (that needs an SMT machine and "
	                 "--placement sibling).", p, cpus, !strcmp(p, "same-pu")
	                 ? "time-sharing one CPU (user time; wall time is about twice)"
	                 : "sharing the rest of the machine (caches, memory, the host's siblings on a VM)",
	                 mm->commands ? "command" : "kernel");
}

/* The ROPE's rule in words (the rule of analysis.h's enum analysis_verdict), and the safe
 * list's (analysis/matrix.h). */
static char *rope_rule(const struct matrix_model *mm)
{
	struct format_ring ns = { .next = 0 };
	double rope = mm->m->rope_pct;
	const char *given = mm->rope_default
	                    ? format_text(&ns, "With the default ROPE of %g%% (no --rope given)",
	                                  rope)
	                    : format_text(&ns, "With --rope %g", rope);
	return xasprintf("%s: a cell is practically the same when P(within %s) >= %g, slower when "
	                 "P(slower by more than %g%%) >= %g, faster when P(faster by more than %g%%) "
	                 ">= %g; the safe pairs are listed so that, with probability %g or more, "
	                 "every listed pair at once slows neither kernel by more than %g%% (pairs "
	                 "taken by their probability, each only while its chance of a larger slowdown "
	                 "is at most %g over the pairs not yet listed; cells practically the same or "
	                 "faster).", given, format_rope(&ns, rope),
	                 ANALYSIS_EQUIVALENCE_PROBABILITY, rope, ANALYSIS_DIRECTION_PROBABILITY,
	                 rope, ANALYSIS_DIRECTION_PROBABILITY, ANALYSIS_MATRIX_SAFE_PROBABILITY,
	                 rope, 1 - ANALYSIS_MATRIX_SAFE_PROBABILITY);
}

static void matrix_warnings(const struct matrix_model *mm, char ***list, size_t *count)
{
	const struct analysis_matrix *m = mm->m;
	if (mm->rope_ignored)
		strings_push(list, count, xstrdup("meta.json's matrix.rope_pct is not a percentage "
		                                  "above 0 and below 100: not used (give smtbench "
		                                  "report --rope PCT)"));
	if (mm->mixed_kinds)
		strings_push(list, count, xasprintf("the victim's and the aggressor's CPUs are of "
		                                    "different CPU kinds (this machine has no %s pair "
		                                    "within one kind): every cell is confounded by the "
		                                    "kinds' speeds", mm->m->placement));
	if (json_is_true(json_object_get(mm->meta, "virtual_machine")))
		strings_push(list, count, xstrdup("virtual machine: its CPUs are the hypervisor's "
		                                  "threads, so its pairs need not be the host's, and "
		                                  "other guests may share the cores"));
	if (m->contaminated_trials)
		strings_push(list, count, xasprintf(
			"%zu trial(s) shared their CPUs: foreign CPU time or steal above %g%% of the "
			"trial's duration (the foreign_s and steal_s columns)%s", m->contaminated_trials,
			100 * ANALYSIS_CONTAMINATED_SHARE, mm->exclude_contaminated
			? "; left out of every cell (--exclude-contaminated)"
			: "; `smtbench report --exclude-contaminated` leaves them out"));
	size_t times = 0, zero = 0, below_tick = 0;
	for (size_t i = 0; i < m->ncells; i++)
		for (size_t k = 0; k < m->cells[i].group.n; k++) {
			double v = m->cells[i].group.values_s[k];
			times++;
			zero += !(v > 0);
			below_tick += v > 0 && v < ANALYSIS_USER_TICK_S;
		}
	if (zero || below_tick)
		strings_push(list, count, xasprintf(
			"times below the clock's resolution: of the %zu victim times, %zu are 0 s (a cell "
			"leaves them out, and is not compared when more than %g%% of its or its baseline's "
			"are 0) and %zu more are under one clock tick (%g s): user time is counted in "
			"clock ticks, so times this short are coarse; give each trial more work (%g s or "
			"more)", times, zero, ANALYSIS_ZERO_SHARE_MAX * 100, below_tick,
			ANALYSIS_USER_TICK_S, SAMPLES_USER_TICKS_WANTED * ANALYSIS_USER_TICK_S));
	if (m->failed_trials)
		strings_push(list, count, xasprintf("%zu measured trial(s) failed (a process not ok): "
		                                    "counted, never samples", m->failed_trials));
	for (size_t i = 0; i < m->ncells; i++)
		if (m->cells[i].note)
			strings_push(list, count, xstrdup(m->cells[i].note));
	for (size_t i = 0; i < m->warning_count && i < 20; i++)
		strings_push(list, count, xstrdup(m->warnings[i]));
}

/* matrix --precision: how many pairs reached the target, and the blocks a pair got. */
static char *allocation_sentence(const struct matrix_model *mm)
{
	const json_t *matrix = json_object_get(mm->meta, "matrix");
	const json_t *alloc = json_object_get(matrix, "allocation"), *c;
	if (!json_is_object(alloc))
		return NULL;
	size_t pairs = 0, reached = 0, budget = 0, i;
	long least = -1, most = -1;
	json_array_foreach(json_object_get(matrix, "cells"), i, c) {
		if (!json_is_string(json_object_get(c, "aggressor")))
			continue;
		const char *stop = json_string_value(json_object_get(c, "stop"));
		long n = (long)json_integer_value(json_object_get(c, "blocks"));
		pairs++;
		reached += stop && !strcmp(stop, "precision reached");
		budget += stop && !strcmp(stop, "budget");
		least = least < 0 || n < least ? n : least;
		most = n > most ? n : most;
	}
	return xasprintf("Precision ±%g%% (blocks by need from block %lld on, warm-up counted): %zu "
	                 "of %zu pairs within it, %zu stopped by the budget%s; %ld to %ld measured "
	                 "blocks a pair (each cell's stop in report.json)",
	                 json_number_value(json_object_get(alloc, "target_pct")),
	                 (long long)json_integer_value(json_object_get(alloc, "from_block")), reached,
	                 pairs, budget, reached + budget < pairs
	                 ? ", the rest not decided (interrupted)" : "", least, most);
}

/* ---- the document ------------------------------------------------------------------------- */

/* A workload's name as the tables show it: code. A new string. */
static char *code(const char *name)
{
	return xasprintf("`%s`", name);
}

/* The answer, the ROPE's rule, what a map not on siblings says, the machine, the pair, why it
 * stopped. */
static void matrix_opening(struct doc *d, const struct matrix_model *mm, const char *answer)
{
	const struct analysis_matrix *m = mm->m;
	char *rule = rope_rule(mm), *note = pairing_note(mm), *machine = machine_sentence(mm->meta);
	char *stop = stop_sentence(mm->folder), *alloc = allocation_sentence(mm);
	doc_para(d, DOC_ALL, "Answer", "answer", "verdict", "%s", answer);
	doc_para(d, DOC_ALL, NULL, "rope", NULL, "%s", rule);
	if (note)
		doc_para(d, DOC_ALL, NULL, NULL, "nosmt", "%s", note);
	doc_para(d, DOC_ALL, "Machine", NULL, "muted", "%s", machine);
	if (mm->pus[0] >= 0)
		doc_para(d, DOC_ALL, NULL, NULL, NULL, "Victim on CPU %d, aggressor on CPU %d (%s%s%s); "
		         "each victim's baseline: it alone on CPU %d%s%s%s. One sample per trial: the "
		         "victim's user CPU time. Each cell is the victim's time beside the aggressor "
		         "over its time alone, paired by block.", mm->pus[0], mm->pus[1], m->placement,
		         mm->shares ? ", sharing " : "", mm->shares ? mm->shares : "", mm->pus[0],
		         mm->cpu_kind ? "; CPU kind " : "", mm->cpu_kind ? mm->cpu_kind : "",
		         mm->cpu_kind ? " (the machine has several)" : "");
	doc_para(d, DOC_ALL, NULL, "stopped", NULL, "Blocks: %zu measured.%s%s", m->measured_blocks,
	         *stop ? " " : "", stop);
	if (alloc)
		doc_para(d, DOC_ALL, NULL, NULL, NULL, "%s", alloc);
	free(rule);
	free(note);
	free(machine);
	free(stop);
	free(alloc);
}

/* A cell of the matrix: its ratio and interval, its verdict's mark, and whether under load. */
static char *grid_cell(const void *matrix, size_t victim, size_t aggressor)
{
	const struct analysis_matrix_cell *c = analysis_matrix_cell(matrix, (int)victim,
	                                                            (int)aggressor);
	struct format_ring ns = { .next = 0 };
	return xasprintf("%s %s%s", cell_text(&ns, c),
	                 verdict_mark(c->compared, c->vs_baseline.verdict),
	                 cell_under_load(c) ? " !" : "");
}

/* The matrix itself: each victim (a row) beside each aggressor (a column). */
static void matrix_grid(struct doc *d, const struct analysis_matrix *m)
{
	doc_heading(d, DOC_ALL, NULL, "Matrix (victim's slowdown; rows victims, columns "
	            "aggressors)");
	bool any_under_load = false;
	for (size_t i = 0; i < m->ncells; i++)
		any_under_load |= cell_under_load(&m->cells[i]);
	doc_para(d, DOC_ALL, NULL, NULL, NULL, "Slowdown of the victim (row) beside the aggressor "
	         "(column), against the victim alone, paired by block; 95%% interval; + slower, = "
	         "practically the same, - faster, ? not enough data to say%s.", any_under_load
	         ? "; ! measured under load: more than a quarter of the trials of the cell and its "
	           "baseline shared their CPUs (`smtbench report --exclude-contaminated` leaves "
	           "them out)" : "");
	doc_matrix_table(d, "matrix", m->kernels, m->nkernels, 0, grid_cell, m);
}

static void cells_table(struct doc *d, const struct analysis_matrix *m)
{
	static const struct doc_column columns[] = {
		{ "victim", 0, false, 0 }, { "aggressor", 0, false, 0 }, { "n", 0, true, 0 },
		{ "slowdown (95% CI)", 0, true, 0 }, { "P(slower)", 0, true, 0 },
		{ "verdict", 0, false, 0 }, { "design", 0, false, 0 }, { "safe", 0, false, 0 },
	};
	doc_heading(d, DOC_FILES, NULL, "Cells");
	doc_table(d, DOC_FILES, "cells", columns, sizeof columns / sizeof columns[0]);
	for (size_t i = 0; i < m->ncells; i++) {
		const struct analysis_matrix_cell *c = &m->cells[i];
		const struct analysis_comparison *k = &c->vs_baseline;
		if (c->aggressor < 0)
			continue;
		struct format_ring ns = { .next = 0 };
		bool known = settled(c->compared, k);
		char *victim = code(m->kernels[c->victim]), *aggressor = code(m->kernels[c->aggressor]);
		doc_row(d, victim, aggressor, format_text(&ns, "%zu", c->group.n), cell_text(&ns, c),
		        known ? format_text(&ns, "%.2f", k->p_a_gt_b) : "n/a",
		        verdict_name(known ? k->verdict : ANALYSIS_VERDICT_UNDECIDED),
		        c->compared ? format_design(&ns, k) : "-", c->safe ? "yes" : "no");
		free(victim);
		free(aggressor);
	}
}

/* Each kernel's sensitivity (as victim) or contentiousness (as aggressor). */
static void summaries_table(struct doc *d, const struct analysis_matrix *m,
                            const struct analysis_matrix_summary *s, const char *id,
                            const char *title, const char *what, const char *explained)
{
	const struct doc_column columns[] = {
		{ what, 16, false, 0 }, { "blocks", 0, true, 0 }, { "slowdown (95% CI)", 0, true, 0 },
		{ "P(slower)", 0, true, 0 }, { "verdict", 0, false, 0 },
	};
	doc_heading(d, DOC_ALL, NULL, title);
	doc_para(d, DOC_FILES, NULL, NULL, NULL, "%s", explained);
	doc_table(d, DOC_ALL, id, columns, sizeof columns / sizeof columns[0]);
	for (size_t k = 0; k < m->nkernels; k++) {
		struct format_ring ns = { .next = 0 };
		bool known = settled(s[k].compared, &s[k].c);
		char *name = code(m->kernels[k]);
		doc_row(d, name, format_text(&ns, "%zu", s[k].blocks),
		        known ? format_ratio(&ns, s[k].c.ratio_mean, s[k].c.ratio_ci)
		              : "n/a (too few blocks)",
		        known ? format_text(&ns, "%.2f", s[k].c.p_a_gt_b) : "n/a",
		        verdict_name(known ? s[k].c.verdict : ANALYSIS_VERDICT_UNDECIDED));
		free(name);
	}
}

static void baselines_table(struct doc *d, const struct analysis_matrix *m)
{
	static const struct doc_column columns[] = {
		{ "kernel", 0, false, 0 }, { "n", 0, true, 0 }, { "mean user s", 0, true, 0 },
	};
	doc_heading(d, DOC_FILES, NULL, "Baselines (each victim alone)");
	doc_table(d, DOC_FILES, "baselines", columns, sizeof columns / sizeof columns[0]);
	for (size_t v = 0; v < m->nkernels; v++) {
		const struct analysis_group *g = &analysis_matrix_cell(m, (int)v, -1)->group;
		struct format_ring ns = { .next = 0 };
		char *name = code(m->kernels[v]);
		doc_row(d, name, format_text(&ns, "%zu", g->n), format_num(&ns, group_mean(g), 0));
		free(name);
	}
}

/* The heat map (victims as rows, aggressors as columns, colour the slowdown, each cell its
 * ratio and interval, undecided cells hatched). */
static char *heatmap(const struct analysis_matrix *m)
{
	size_t n = m->nkernels;
	struct svg_heat_cell *cells = xcalloc(n * n, sizeof *cells);
	for (size_t v = 0; v < n; v++)
		for (size_t g = 0; g < n; g++) {
			const struct analysis_matrix_cell *c = analysis_matrix_cell(m, (int)v, (int)g);
			const struct analysis_comparison *k = &c->vs_baseline;
			cells[v * n + g] = (struct svg_heat_cell){
				.settled = settled(c->compared, k),
				.decided = k->verdict != ANALYSIS_VERDICT_UNDECIDED,
				.ratio_mean = k->ratio_mean, .ratio_ci = { k->ratio_ci[0], k->ratio_ci[1] },
				.n = c->group.n };
		}
	char title[200];
	snprintf(title, sizeof title, "Interference matrix on %s: victim's slowdown beside each "
	         "aggressor", m->placement ? m->placement : "(no pairs yet)");
	char *svg = svg_heatmap(title, "Rows: victims; columns: aggressors; each cell the victim's "
	                        "user time beside the aggressor over its time alone, paired by "
	                        "block, with its 95% interval; hatched cells have no verdict.",
	                        (const char *const *)m->kernels, n, cells, "blocks");
	free(cells);
	return svg;
}

static struct doc *matrix_doc(const struct matrix_model *mm, const char *answer,
                              char **warnings, size_t warning_count)
{
	const struct analysis_matrix *m = mm->m;
	struct doc *d = doc_new("smtbench interference matrix: %s (%zu %s on %s)",
	                        mm->folder->shown_dir, m->nkernels,
	                        mm->commands ? "commands" : "kernels",
	                        m->placement ? m->placement : "no pairs yet");
	matrix_opening(d, mm, answer);
	doc_heading(d, DOC_FILES, "plan-section", "Plan: which workloads share a core");
	if (mm->advice)
		advise_blocks(d, DOC_FILES, &mm->names, mm->advice, false);
	else
		doc_para(d, DOC_FILES, NULL, NULL, NULL, "No plan with smtbench advise's defaults (one "
		         "copy of each workload on the machine's cores): %s.", mm->advice_error);
	doc_heading(d, DOC_FILES, NULL, "Heat map");
	doc_figure(d, "heatmap", "heatmap.svg", "The matrix as a heat map", heatmap(m));
	matrix_grid(d, m);
	cells_table(d, m);
	summaries_table(d, m, m->sensitivity, "sensitivity", "Sensitivity (each victim beside "
	                "every aggressor, geometric mean of the per-block ratios)", "victim",
	                "How much each victim suffers: the geometric mean of its slowdowns beside "
	                "every aggressor, block by block.");
	summaries_table(d, m, m->contentiousness, "contentiousness", "Contentiousness (each "
	                "aggressor beside every victim, geometric mean)", "aggressor",
	                "How much each aggressor makes the others suffer: the geometric mean of the "
	                "victims' slowdowns beside it, block by block.");
	baselines_table(d, m);
	doc_heading(d, DOC_ALL, "warnings", "Warnings");
	for (size_t i = 0; i < warning_count; i++)
		doc_item(d, DOC_ALL, NULL, "warn", "%s", warnings[i]);
	if (!warning_count)
		doc_para(d, DOC_ALL, NULL, NULL, NULL, "None.");
	doc_heading(d, DOC_FILES, NULL, "How to read this");
	doc_para(d, DOC_FILES, NULL, NULL, NULL, "Every block ran every cell once in a random order: "
	         "each victim beside each aggressor, and each victim alone. A cell's slowdown is "
	         "exp(delta), delta the mean over blocks of log(victim's user time beside the "
	         "aggressor) − log(its time alone in the same block), from its posterior with flat "
	         "priors; its 95%% credible interval is shown under it. The verdict says slower or "
	         "faster only when P(slower, or faster, by more than the ROPE) is at least %g; "
	         "hatched cells have no verdict. The pairs listed as safe to share slow neither "
	         "kernel by more than %g%% beside the other, every listed pair at once with "
	         "probability %g or more. Every number is in report.json.",
	         ANALYSIS_DIRECTION_PROBABILITY, 100 * m->safe_slowdown,
	         ANALYSIS_MATRIX_SAFE_PROBABILITY);
	return d;
}

/* ---- report.json ---------------------------------------------------------------------------- */

/* A comparison's answer: the same keys whether compared or not; an unsettled comparison's
 * numbers are the grid's, so null, as for none. */
static json_t *comparison_json(const struct analysis_comparison *c, bool compared)
{
	bool known = settled(compared, c);
	return json_pack("{s:o?, s:o?, s:o?, s:s, s:s?, s:o?, s:o?, s:b}",
	                 "ratio_mean", known ? json_number_or_null(c->ratio_mean) : NULL,
	                 "ratio_ci", known ? json_interval(c->ratio_ci) : NULL,
	                 "p_slower", compared ? json_number_or_null(c->p_a_gt_b) : NULL,
	                 "verdict", verdict_name(compared ? c->verdict : ANALYSIS_VERDICT_UNDECIDED),
	                 "design", compared ? design_name(c->design) : NULL,
	                 "blocks_paired", compared ? json_integer((json_int_t)c->blocks_paired) : NULL,
	                 "blocks_dropped", compared ? json_integer((json_int_t)c->blocks_dropped) : NULL,
	                 "settled", known);
}

/* Adds o's members to into (o is consumed). */
static json_t *merged(json_t *into, json_t *o)
{
	json_object_update(into, o);
	json_decref(o);
	return into;
}

static json_t *summaries_json(const struct analysis_matrix *m,
                              const struct analysis_matrix_summary *s)
{
	json_t *a = json_array();
	for (size_t k = 0; k < m->nkernels; k++)
		json_array_append_new(a, merged(json_pack("{s:s, s:I, s:s?}", "kernel", m->kernels[k],
		                                          "blocks", (json_int_t)s[k].blocks, "note",
		                                          s[k].note),
		                                comparison_json(&s[k].c, s[k].compared)));
	return a;
}

/* meta.json's "stop" of the cell victim beside aggressor (NULL for the baseline), from
 * matrix --precision (runner/matrix.h), or NULL without one. */
static const char *cell_stop(const json_t *meta, const char *victim, const char *aggressor)
{
	const json_t *c;
	size_t i;
	json_array_foreach(json_object_get(json_object_get(meta, "matrix"), "cells"), i, c) {
		const char *v = json_string_value(json_object_get(c, "victim"));
		const char *g = json_string_value(json_object_get(c, "aggressor"));
		const char *stop = json_string_value(json_object_get(c, "stop"));
		if (v && !strcmp(v, victim) && (aggressor ? g && !strcmp(g, aggressor) : !g))
			return stop;
	}
	return NULL;
}

static json_t *cells_json(const struct analysis_matrix *m, const json_t *meta)
{
	json_t *cells = json_array();
	for (size_t i = 0; i < m->ncells; i++) {
		const struct analysis_matrix_cell *c = &m->cells[i];
		if (c->aggressor < 0)
			continue;
		json_t *cell = merged(json_pack(
			"{s:s, s:s, s:I, s:I, s:b, s:s?, s:s?}", "victim", m->kernels[c->victim],
			"aggressor", m->kernels[c->aggressor], "n", (json_int_t)c->group.n, "failed_trials",
			(json_int_t)c->failed_trials, "safe", c->safe, "note", c->note, "stop",
			cell_stop(meta, m->kernels[c->victim], m->kernels[c->aggressor])),
			comparison_json(&c->vs_baseline, c->compared));
		/* p_safe: P(its slowdown at most the safe bound), where the cell could be listed; else
		 * null. conditions: as a run's comparison has them (the counts of its and its
		 * baseline's trials that shared their CPUs, and whether that is under load); null
		 * when the cell was not compared. */
		const struct analysis_comparison *k = &c->vs_baseline;
		json_array_append_new(cells, merged(cell, json_pack(
			"{s:o, s:o?}", "p_safe", json_number_or_null(c->p_safe), "conditions",
			c->compared ? json_pack("{s:I, s:I, s:b}", "shared_trials",
			                        (json_int_t)k->shared_trials, "shared_known",
			                        (json_int_t)k->shared_known, "under_load",
			                        analysis_under_load(k)) : NULL)));
	}
	return cells;
}

static json_t *baselines_json(const struct analysis_matrix *m, const json_t *meta)
{
	json_t *a = json_array();
	for (size_t v = 0; v < m->nkernels; v++) {
		const struct analysis_matrix_cell *c = analysis_matrix_cell(m, (int)v, -1);
		json_array_append_new(a, json_pack("{s:s, s:I, s:o, s:I, s:s?}", "kernel", m->kernels[v],
		                                   "n", (json_int_t)c->group.n, "mean_s",
		                                   json_number_or_null(group_mean(&c->group)),
		                                   "failed_trials", (json_int_t)c->failed_trials,
		                                   "stop", cell_stop(meta, m->kernels[v], NULL)));
	}
	return a;
}

static json_t *worst_json(const struct analysis_matrix *m)
{
	const struct analysis_matrix_cell *w = worst_cell(m);
	if (!w)
		return json_null();
	return merged(json_pack("{s:s, s:s}", "victim", m->kernels[w->victim], "aggressor",
	                        m->kernels[w->aggressor]), comparison_json(&w->vs_baseline, true));
}

static json_t *matrix_json(const struct matrix_model *mm, const char *answer, char **warnings,
                           size_t warning_count)
{
	const struct analysis_matrix *m = mm->m;
	const struct safe_list safe = safe_list_of(m);
	char *machine = machine_sentence(mm->meta), *note = pairing_note(mm);
	json_t *doc = json_pack(
		"{s:i, s:s, s:s, s:s, s:s?, s:o?, s:o, s:s, s:s?, s:o, s:o, s:o, s:o, s:o, s:o, s:o,"
		" s:I, s:I, s:I, s:I, s:o?, s:s?, s:O?, s:s, s:o, s:b, s:f, s:o, s:o?, s:s?, s:s?,"
		" s:s?}",
		"report_version", 1, "kind", "matrix", "dir", mm->folder->shown_dir, "machine", machine,
		"placement", m->placement,
		"pus", mm->pus[0] >= 0 ? json_pack("[i, i]", mm->pus[0], mm->pus[1]) : NULL,
		"kernels", json_strings(m->kernels, m->nkernels), "answer", answer, "pairing_note", note,
		"safe_pairs", safe_pairs_json(&safe), "worst", worst_json(m),
		"cells", cells_json(m, mm->meta), "baselines", baselines_json(m, mm->meta),
		"sensitivity", summaries_json(m, m->sensitivity),
		"contentiousness", summaries_json(m, m->contentiousness),
		"warnings", json_strings(warnings, warning_count),
		"measured_blocks", (json_int_t)m->measured_blocks,
		"failed_trials", (json_int_t)m->failed_trials,
		"contaminated_trials", (json_int_t)m->contaminated_trials,
		"warmup_trials", (json_int_t)m->warmup_trials,
		"excluded_contaminated", mm->exclude_contaminated
		                         ? json_integer((json_int_t)m->excluded_contaminated) : NULL,
		"stop_reason", json_string_value(json_object_get(mm->meta, "stop_reason")),
		"meta", (json_t *)mm->meta,
		/* What "kernels" names: kernels, or the commands of matrix --commands by their names. */
		"workloads", mm->commands ? "commands" : "kernels",
		/* The ROPE the verdicts and safe_pairs used (the default's when none was given:
		 * rope_default), and a safe cell's bound. */
		"rope_pct", json_number_or_null(m->rope_pct), "rope_default", mm->rope_default,
		"safe_slowdown_pct", 100 * m->safe_slowdown,
		"safe_list", safe_list_json(&safe, "slowdown"),
		/* The plan of smtbench advise's defaults (results/README.md, "advise --json"), or null
		 * with advice_note saying why there is none. */
		"advice", mm->advice ? advise_json(&mm->names, mm->advice) : NULL,
		"advice_note", mm->advice ? NULL : mm->advice_error,
		/* The CPU kind the pair was chosen within (several kinds), else null (meta.json's). */
		"cpu_kind", mm->cpu_kind,
		/* The folder's state (common/folder.h): null for a folder that records none. */
		"state", mm->folder->state == FOLDER_UNRECORDED ? NULL
		         : folder_state_name(mm->folder->state));
	free(machine);
	free(note);
	return doc;
}

/* Why a matrix answers nothing when none of its cells could be compared (the first cell's own
 * reason, as a run names its first pair's), else NULL. */
static char *no_cell_compared(const struct analysis_matrix *m, const char *shown_dir)
{
	const char *why = NULL;
	for (size_t i = 0; i < m->ncells; i++) {
		if (m->cells[i].compared)
			return NULL;
		if (!why && m->cells[i].aggressor >= 0)
			why = m->cells[i].note;
	}
	return xasprintf("%s: no cell of the matrix could be compared%s%s", shown_dir,
	                 why ? ": " : "", why ? why : "");
}

struct report *matrix_report(struct results_folder *f, const struct report_options *o,
                             char *err, size_t err_size)
{
	struct matrix_model mm;
	if (matrix_model_load(&mm, f, o, err, err_size) < 0)
		return NULL;
	char *answer = answer_sentence(&mm), **warnings = NULL;
	size_t warning_count = 0;
	const struct advise_request defaults = { .objective = ANALYSIS_OBJECTIVE_THROUGHPUT };
	mm.advice = advise_matrix(mm.m, &defaults, f, mm.advice_error, sizeof mm.advice_error);
	matrix_warnings(&mm, &warnings, &warning_count);
	struct doc *d = matrix_doc(&mm, answer, warnings, warning_count);
	json_t *json = matrix_json(&mm, answer, warnings, warning_count);
	free(answer);
	strings_release(&warnings, &warning_count);
	analysis_advice_free(&mm.advice);
	struct report *r = report_new(d, json, "report", "Report",
	                              xasprintf("smtbench report %s", f->shown_dir));
	r->no_answer = no_cell_compared(mm.m, f->shown_dir);
	analysis_matrix_free(&mm.m);
	return r;
}

struct analysis_matrix *report_matrix_cells(struct results_folder *f, bool *commands, char *err,
                                            size_t err_size)
{
	struct matrix_model mm;
	const struct report_options plain = { .rope_pct = NAN };
	if (matrix_model_load(&mm, f, &plain, err, err_size) < 0)
		return NULL;
	*commands = mm.commands;
	return mm.m;
}

struct report *advise_report(struct results_folder *f, const struct advise_request *rq,
                             struct advise_outcome **out, char *err, size_t err_size)
{
	*out = NULL;
	if (f->kind != FOLDER_MATRIX) {
		set_error(err, err_size, "%s is not a matrix's folder: advise needs the cells of "
		          "`smtbench matrix` (for one pair, `smtbench report` gives the SMT yield)",
		          f->shown_dir);
		return NULL;
	}
	struct matrix_model mm;
	const struct report_options plain = { .rope_pct = NAN };
	if (matrix_model_load(&mm, f, &plain, err, err_size) < 0)
		return NULL;
	struct analysis_advice *a = advise_matrix(mm.m, rq, f, err, err_size);
	if (!a) {
		analysis_matrix_free(&mm.m);
		return NULL;
	}
	struct doc *d = doc_new("smtbench advise: %s (%zu %s, %zu on %zu core%s%s)", f->shown_dir,
	                        mm.names.count, mm.commands ? "commands" : "kernels", a->nitems,
	                        a->cores, a->cores == 1 ? "" : "s",
	                        rq->cores ? ", --cores" : " of the machine");
	advise_blocks(d, DOC_ALL, &mm.names, a, true);
	json_t *json = merged(advise_json(&mm.names, a),
	                      json_pack("{s:s, s:s, s:s}", "dir", f->shown_dir, "cores_from",
	                                rq->cores ? "--cores" : "meta.json", "workload_kind",
	                                mm.commands ? "commands" : "kernels"));
	*out = xcalloc(1, sizeof **out);
	**out = (struct advise_outcome){ .matrix = mm.m, .advice = a, .commands = mm.commands };
	return report_new(d, json, "advise", "Advice", NULL);
}

void advise_outcome_free(struct advise_outcome **p)
{
	if (!p || !*p)
		return;
	analysis_matrix_free(&(*p)->matrix);
	analysis_advice_free(&(*p)->advice);
	free(*p);
	*p = NULL;
}
