/*
 * matrix.c — the interference matrix's reports (see matrix.h): the answer first (which pairs
 * may share, the worst cell), then the heat map, each cell, each kernel's sensitivity and
 * contentiousness, the baselines and the warnings; the same numbers in every format.
 */
#include "report/matrix.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/matrix.h"
#include "common/fileio.h"
#include "report/internal.h"

const char *const matrix_report_file_names[MATRIX_REPORT_FILE_COUNT] = {
	"report.md", "report.json", "heatmap.svg", "report.html",
};

struct matrix_report {
	char *dir;                  /* as given, for writing */
	char *shown_dir;            /* escaped, for every output */
	char *files_dir;            /* where the files go (report --out); NULL: dir */
	char *shown_files_dir;      /* the same escaped; NULL: shown_dir */
	bool exclude_contaminated;
	double rope_pct;            /* the ROPE (PCT): report --rope, else meta.json's, else the
	                             * matrix's default (the safe bound's, analysis/matrix.h) */
	bool rope_default;          /* no ROPE was given: the default one judged the cells */
	char *rope_rule;            /* the ROPE's rule in words, or NULL without one */
	json_t *meta;               /* meta.json (a matrix's: it has "matrix") */
	struct analysis_matrix *m;
	char *placement;            /* the pairing placement's name, escaped */
	int pus[2];                 /* the victim's CPU and the aggressor's; -1 not recorded */
	char *shares;               /* what that pair shares, or NULL */
	char *machine;              /* one line */
	char *answer;
	char *pairing_note;         /* what a map not on siblings says; NULL on siblings */
	bool commands;              /* named commands (matrix --commands), not kernels */
	char **warnings;
	size_t warning_count;
};

static json_t *load_meta(const char *dir)
{
	char *path = text_printf("%s/meta.json", dir);
	char err[ERR_LEN];
	size_t len = 0;
	char *text = path ? fileio_read_all(path, &len, err, sizeof err) : NULL;
	free(path);
	if (!text)
		return NULL;
	json_t *meta = json_loadb(text, len, 0, NULL);
	free(text);
	if (meta && !json_is_object(meta)) {
		json_decref(meta);
		return NULL;
	}
	return meta;
}

bool matrix_report_applies(const char *dir)
{
	json_t *meta = load_meta(dir);
	bool yes = meta && json_is_object(json_object_get(meta, "matrix"));
	json_decref(meta);
	return yes;
}

/* ---- numbers and words every format shares ---- */

/* "1.02× (0.95–1.10)"; "n/a" for a cell without a comparison. */
static const char *ratio_text(char *buf, size_t size, const struct analysis_comparison *c)
{
	char m[48], ci[100];
	double res = report_half_width(c->ratio_ci);
	snprintf(buf, size, "%s× (%s)", format_number(m, sizeof m, c->ratio_mean, res),
	         format_interval(ci, sizeof ci, c->ratio_ci, res));
	return buf;
}

/* Whether a cell's (or a summary's) numbers are the data's: compared and settled. An unsettled
 * comparison's mean is the grid's, never quoted (analysis_comparison_settled). */
static bool cell_settled(const struct analysis_matrix_cell *c)
{
	return c->compared && analysis_comparison_settled(&c->vs_baseline);
}

static bool summary_settled(const struct analysis_matrix_summary *s)
{
	return s->compared && analysis_comparison_settled(&s->c);
}

/* A cell's ratio and interval, or why there is none. */
static const char *cell_text(char *buf, size_t size, const struct analysis_matrix_cell *c)
{
	if (cell_settled(c))
		return ratio_text(buf, size, &c->vs_baseline);
	snprintf(buf, size, "n/a (%zu blocks)", c->group.n);
	return buf;
}

static const char *placement_phrase(const char *placement)
{
	if (placement && !strcmp(placement, "sibling"))
		return "Safe to share a core";
	if (placement && !strcmp(placement, "same-pu"))
		return "Safe to time-share one CPU (same-pu)";
	return "Safe side by side on two cores (non-sibling)";
}

/* Appends text to *s (a growing string). -1 on out of memory. */
static int append(char **s, const char *text)
{
	char *joined = text_printf("%s%s", *s ? *s : "", text);
	if (!joined)
		return -1;
	free(*s);
	*s = joined;
	return 0;
}

/* The compared, settled cell with the largest slowdown, or NULL. */
static const struct analysis_matrix_cell *worst_cell(const struct analysis_matrix *m)
{
	const struct analysis_matrix_cell *worst = NULL;
	for (size_t i = 0; i < m->ncells; i++) {
		const struct analysis_matrix_cell *c = &m->cells[i];
		if (c->compared && analysis_comparison_settled(&c->vs_baseline)
		    && (!worst || c->vs_baseline.ratio_mean > worst->vs_baseline.ratio_mean))
			worst = c;
	}
	return worst;
}

static int make_answer(struct matrix_report *r)
{
	const struct analysis_matrix *m = r->m;
	char *list = NULL;
	size_t pairs = m->nkernels * (m->nkernels + 1) / 2;
	for (size_t i = 0; i < m->safe_pair_count; i++) {
		const struct analysis_safe_pair *p = &m->safe_pairs[i];
		char *item = text_printf("%s%s + %s", i ? ", " : "", m->kernels[p->a], m->kernels[p->b]);
		int rc = item ? append(&list, item) : -1;
		free(item);
		if (rc < 0) {
			free(list);
			return -1;
		}
	}
	const struct analysis_matrix_cell *w = worst_cell(m);
	char worst[200], ratio[120];
	if (w)
		snprintf(worst, sizeof worst, "worst: %s beside %s %s, %s", m->kernels[w->victim],
		         m->kernels[w->aggressor], ratio_text(ratio, sizeof ratio, &w->vs_baseline),
		         analysis_verdict_name(w->vs_baseline.verdict));
	else
		snprintf(worst, sizeof worst, "no cell has enough data to say yet (at least %d "
		         "blocks each)", ANALYSIS_SETTLED_MIN_N);
	char none[80];
	snprintf(none, sizeof none, "none of the %zu pairs", pairs);
	/* What the probability covers: every listed pair at once, both ways. */
	if (m->safe_pair_count)
		r->answer = text_printf("%s, each kernel slowed by at most %g%% beside the other, every "
		                        "listed pair at once with probability %.3f (at least %g): %s; %s",
		                        placement_phrase(m->placement), 100 * m->safe_slowdown,
		                        m->safe_joint_probability, ANALYSIS_MATRIX_SAFE_PROBABILITY,
		                        list, worst);
	else
		r->answer = text_printf("%s, each kernel slowed by at most %g%% beside the other with "
		                        "probability %g: %s; %s", placement_phrase(m->placement),
		                        100 * m->safe_slowdown, ANALYSIS_MATRIX_SAFE_PROBABILITY, none,
		                        worst);
	free(list);
	return r->answer ? 0 : -1;
}

/* The pair the cells ran on, from meta.json's placements. */
static void read_pair(struct matrix_report *r)
{
	r->pus[0] = r->pus[1] = -1;
	json_t *placements = json_object_get(r->meta, "placements");
	size_t i;
	json_t *p;
	json_array_foreach(placements, i, p) {
		const char *name = json_string_value(json_object_get(p, "name"));
		json_t *pus = json_object_get(p, "pus");
		if (!name || !r->m->placement || strcmp(name, r->m->placement) != 0
		    || json_array_size(pus) != 2)
			continue;
		r->pus[0] = (int)json_integer_value(json_array_get(pus, 0));
		r->pus[1] = (int)json_integer_value(json_array_get(pus, 1));
		const char *shares = json_string_value(json_object_get(p, "shares"));
		r->shares = shares ? text_escape(shares) : NULL;
	}
}

static int add_warning(struct matrix_report *r, char *text)
{
	if (!text)
		return -1;
	char **grown = realloc(r->warnings, (r->warning_count + 1) * sizeof *grown);
	if (!grown) {
		free(text);
		return -1;
	}
	r->warnings = grown;
	r->warnings[r->warning_count++] = text;
	return 0;
}

static int make_warnings(struct matrix_report *r)
{
	const struct analysis_matrix *m = r->m;
	int rc = 0;
	if (json_is_true(json_object_get(r->meta, "virtual_machine")))
		rc |= add_warning(r, text_printf("virtual machine: its CPUs are the hypervisor's "
		                                 "threads, so its pairs need not be the host's, and other "
		                                 "guests may share the cores"));
	if (m->contaminated_trials)
		rc |= add_warning(r, text_printf(
			"%zu trial(s) shared their CPUs: foreign CPU time or steal above %g%% of the "
			"trial's duration (the foreign_s and steal_s columns)%s", m->contaminated_trials,
			100 * ANALYSIS_CONTAMINATED_SHARE, r->exclude_contaminated
			? "; left out of every cell (--exclude-contaminated)"
			: "; `smtbench report --exclude-contaminated` leaves them out"));
	if (m->failed_trials)
		rc |= add_warning(r, text_printf("%zu measured trial(s) failed (a process not ok): "
		                                 "counted, never samples", m->failed_trials));
	for (size_t i = 0; i < m->ncells; i++)
		if (m->cells[i].note)
			rc |= add_warning(r, text_printf("%s", m->cells[i].note));
	for (size_t i = 0; i < m->warning_count && i < 20; i++)
		rc |= add_warning(r, text_printf("%s", m->warnings[i]));
	return rc ? -1 : 0;
}

static int make_machine(struct matrix_report *r)
{
	const char *model = report_meta_string(r->meta, "cpu_model");
	const char *host = report_meta_string(r->meta, "host");
	const char *smt = report_meta_string(r->meta, "smt_control");
	char *raw = text_printf("%s on host %s; SMT control: %s%s", model ? model : "CPU not "
	                        "recorded", host ? host : "?", smt ? smt : "not recorded",
	                        json_is_true(json_object_get(r->meta, "virtual_machine"))
	                        ? "; virtual machine" : "");
	r->machine = raw ? text_escape(raw) : NULL;
	free(raw);
	return r->machine ? 0 : -1;
}

static int make_pairing_note(struct matrix_report *r)
{
	const char *p = r->m->placement;
	if (!p || !strcmp(p, "sibling"))
		return 0;
	char cpus[64] = "";
	if (r->pus[0] >= 0)
		snprintf(cpus, sizeof cpus, " (CPUs %d and %d%s%s)", r->pus[0], r->pus[1],
		         r->shares ? ", sharing " : "", r->shares ? r->shares : "");
	r->pairing_note = text_printf(
		"The pairs ran on %s CPUs%s, not on SMT siblings: this map says what %s costs each "
		"%s, not what sharing a core does (that needs an SMT machine and --placement "
		"sibling).", p, cpus, !strcmp(p, "same-pu")
		? "time-sharing one CPU (user time; wall time is about twice)"
		: "sharing the rest of the machine (caches, memory, the host's siblings on a VM)",
		r->commands ? "command" : "kernel");
	return r->pairing_note ? 0 : -1;
}

/* The ROPE: rope_pct as given (report --rope), else meta.json's matrix.rope_pct (matrix
 * --rope), else none (NAN). A recorded value that is not a percentage above 0 and below 100
 * is not used, and said. */
static int choose_rope(struct matrix_report *r, double rope_pct)
{
	r->rope_pct = rope_pct;
	const json_t *recorded = json_object_get(json_object_get(r->meta, "matrix"), "rope_pct");
	if (!isnan(rope_pct) || !recorded || json_is_null(recorded))
		return 0;
	double v = json_number_value(recorded);
	if (json_is_number(recorded) && v > 0 && v < 100) {
		r->rope_pct = v;
		return 0;
	}
	return add_warning(r, text_printf("meta.json's matrix.rope_pct is not a percentage above 0 "
	                                  "and below 100: not used (give smtbench report --rope "
	                                  "PCT)"));
}

/* The ROPE's rule in words (the rule of analysis.h's enum analysis_verdict), and the safe
 * list's (analysis/matrix.h). */
static int make_rope_rule(struct matrix_report *r)
{
	char rope[48], given[64];
	if (r->rope_default)
		snprintf(given, sizeof given, "With the default ROPE of %g%% (no --rope given)",
		         r->rope_pct);
	else
		snprintf(given, sizeof given, "With --rope %g", r->rope_pct);
	r->rope_rule = text_printf(
		"%s: a cell is practically the same when P(within %s) >= %g, slower "
		"when P(slower by more than %g%%) >= %g, faster when P(faster by more than %g%%) >= %g; "
		"the safe pairs are listed so that, with probability %g or more, every listed pair at "
		"once slows neither kernel by more than %g%% (pairs taken by their probability, each "
		"only while its chance of a larger slowdown is at most %g over the pairs not yet "
		"listed; cells practically the same or faster).", given,
		format_rope(rope, sizeof rope, r->rope_pct), ANALYSIS_EQUIVALENCE_PROBABILITY,
		r->rope_pct, ANALYSIS_DIRECTION_PROBABILITY, r->rope_pct,
		ANALYSIS_DIRECTION_PROBABILITY, ANALYSIS_MATRIX_SAFE_PROBABILITY, r->rope_pct,
		1 - ANALYSIS_MATRIX_SAFE_PROBABILITY);
	return r->rope_rule ? 0 : -1;
}

struct matrix_report *matrix_report_new(const char *dir, bool exclude_contaminated,
                                        double rope_pct, char *err, size_t err_size)
{
	struct matrix_report *r = calloc(1, sizeof *r);
	if (!r || !(r->dir = strdup(dir)) || !(r->shown_dir = text_escape(dir))) {
		set_error(err, err_size, "out of memory");
		matrix_report_free(&r);
		return NULL;
	}
	r->exclude_contaminated = exclude_contaminated;
	r->meta = load_meta(dir);
	const json_t *matrix = json_object_get(r->meta, "matrix");
	r->commands = json_is_array(json_object_get(matrix, "commands"));
	json_t *kernels = json_object_get(matrix, r->commands ? "commands" : "kernels");
	size_t n = json_array_size(kernels);
	const char **names = calloc(n + 1, sizeof *names);
	for (size_t i = 0; names && i < n; i++)
		names[i] = json_string_value(json_object_get(json_array_get(kernels, i), "name"));
	for (size_t i = 0; names && i < n; i++)
		if (!names[i])
			n = i; /* a damaged list: the file's order for the rest */
	if (choose_rope(r, rope_pct) < 0) {
		free(names);
		set_error(err, err_size, "out of memory");
		matrix_report_free(&r);
		return NULL;
	}
	struct analysis_options opt;
	analysis_options_init(&opt);
	opt.rope_pct = r->rope_pct;
	r->m = analysis_matrix_load(dir, names, names ? n : 0, exclude_contaminated, &opt, err,
	                            err_size);
	free(names);
	if (!r->m) {
		matrix_report_free(&r);
		return NULL;
	}
	r->rope_default = isnan(r->rope_pct);
	r->rope_pct = r->m->rope_pct;
	read_pair(r);
	if ((r->m->placement && !(r->placement = text_escape(r->m->placement)))
	    || make_rope_rule(r) < 0 || make_machine(r) < 0 || make_answer(r) < 0 || make_pairing_note(r) < 0
	    || make_warnings(r) < 0) {
		set_error(err, err_size, "out of memory");
		matrix_report_free(&r);
	}
	return r;
}

const char *matrix_report_answer(const struct matrix_report *r)
{
	return r->answer;
}

/* Why the run stopped, from meta.json's stop_reason ("" when it has none). */
static const char *stop_text(const struct matrix_report *r)
{
	const char *reason = report_meta_string(r->meta, "stop_reason");
	if (!reason)
		return "";
	if (!strcmp(reason, "trials"))
		return "Stopped: trials (every planned block ran).";
	if (!strcmp(reason, "duration"))
		return "Stopped: duration (the time budget ran out).";
	if (!strcmp(reason, "interrupted"))
		return "Stopped: interrupted (continue with smtbench matrix --resume).";
	return "";
}

/* ---- the terminal ---- */

static const char *verdict_mark(const struct analysis_matrix_cell *c)
{
	if (!c->compared)
		return " ";
	switch (c->vs_baseline.verdict) {
	case ANALYSIS_VERDICT_SLOWER: return "+";
	case ANALYSIS_VERDICT_FASTER: return "-";
	case ANALYSIS_VERDICT_SAME: return "=";
	case ANALYSIS_VERDICT_UNDECIDED: break;
	}
	return "?";
}

/* The columns text takes on a terminal: a character, not a byte, per column (× and – are two
 * and three bytes in UTF-8). */
static int text_columns(const char *text)
{
	int columns = 0;
	for (const unsigned char *p = (const unsigned char *)text; *p; p++)
		columns += (*p & 0xc0) != 0x80;
	return columns;
}

/* text, then blanks to width columns. */
static void print_padded(FILE *out, const char *text, int width)
{
	int columns = text_columns(text);
	fprintf(out, " %s%*s", text, width > columns ? width - columns : 0, "");
}

static void print_summary_line(FILE *out, const char *label, const struct analysis_matrix *m,
                               const struct analysis_matrix_summary *s)
{
	char ratio[120];
	fprintf(out, "  %-16s ", label);
	if (!summary_settled(s))
		fprintf(out, "n/a (%zu blocks where all its cells ran: too few)\n", s->blocks);
	else
		fprintf(out, "%s, %s (%zu blocks)\n", ratio_text(ratio, sizeof ratio, &s->c),
		        analysis_verdict_name(s->c.verdict), s->blocks);
	(void)m;
}

/* matrix --precision: how many pairs reached the target, and the rule's blocks per cell. */
static void print_allocation(FILE *out, const struct matrix_report *r)
{
	const json_t *matrix = json_object_get(r->meta, "matrix");
	const json_t *alloc = json_object_get(matrix, "allocation");
	if (!json_is_object(alloc))
		return;
	const json_t *cells = json_object_get(matrix, "cells");
	size_t pairs = 0, reached = 0, budget = 0;
	long least = -1, most = -1;
	for (size_t i = 0; i < json_array_size(cells); i++) {
		const json_t *c = json_array_get(cells, i);
		if (!json_is_string(json_object_get(c, "aggressor")))
			continue;
		pairs++;
		const char *stop = json_string_value(json_object_get(c, "stop"));
		reached += stop && !strcmp(stop, "precision reached");
		budget += stop && !strcmp(stop, "budget");
		long n = (long)json_integer_value(json_object_get(c, "blocks"));
		least = least < 0 || n < least ? n : least;
		most = n > most ? n : most;
	}
	fprintf(out, "Precision ±%g%% (blocks by need from block %lld on, warm-up counted): %zu of %zu pairs within "
	        "it, %zu stopped by the budget%s; %ld to %ld measured blocks a pair (each cell's "
	        "stop in report.json)\n", json_number_value(json_object_get(alloc, "target_pct")),
	        (long long)json_integer_value(json_object_get(alloc, "from_block")), reached, pairs,
	        budget, reached + budget < pairs ? ", the rest not decided (interrupted)" : "",
	        least, most);
}

int matrix_report_print_summary(const struct matrix_report *r, bool files_written, FILE *out)
{
	const struct analysis_matrix *m = r->m;
	fprintf(out, "smtbench report: %s (interference matrix: %zu %s on %s)\n", r->shown_dir,
	        m->nkernels, r->commands ? "commands" : "kernels", r->placement ? r->placement : "no pairs yet");
	fprintf(out, "Machine: %s\n", r->machine);
	if (r->pus[0] >= 0)
		fprintf(out, "Victim on CPU %d, aggressor on CPU %d%s%s; each victim's baseline: it "
		        "alone on CPU %d. One sample per trial: the victim's user CPU time.\n",
		        r->pus[0], r->pus[1], r->shares ? ", sharing " : "",
		        r->shares ? r->shares : "", r->pus[0]);
	fprintf(out, "\nAnswer: %s\n", r->answer);
	if (r->rope_rule)
		fprintf(out, "%s\n", r->rope_rule);
	if (r->pairing_note)
		fprintf(out, "%s\n", r->pairing_note);
	fprintf(out, "\nSlowdown of the victim (row) beside the aggressor (column), against the "
	        "victim alone, paired by block; 95%% interval; + slower, = practically the same, "
	        "- faster, ? not enough data to say:\n\n  %-16s", "victim \\ aggr.");
	int width = 8; /* the widest cell or name, so that the columns line up */
	for (size_t i = 0; i < m->ncells; i++) {
		char ratio[120], cell[140];
		if (m->cells[i].aggressor < 0)
			continue;
		snprintf(cell, sizeof cell, "%s ?", cell_text(ratio, sizeof ratio, &m->cells[i]));
		if (text_columns(cell) > width)
			width = text_columns(cell);
	}
	for (size_t g = 0; g < m->nkernels; g++)
		if (text_columns(m->kernels[g]) > width)
			width = text_columns(m->kernels[g]);
	for (size_t g = 0; g < m->nkernels; g++) /* the last column unpadded: no trailing blanks */
		print_padded(out, m->kernels[g], g + 1 < m->nkernels ? width : 0);
	fputc('\n', out);
	for (size_t v = 0; v < m->nkernels; v++) {
		fprintf(out, "  %-16s", m->kernels[v]);
		for (size_t g = 0; g < m->nkernels; g++) {
			const struct analysis_matrix_cell *c = analysis_matrix_cell(m, (int)v, (int)g);
			char ratio[120], cell[140];
			snprintf(cell, sizeof cell, "%s %s", cell_text(ratio, sizeof ratio, c),
			         verdict_mark(c));
			print_padded(out, cell, g + 1 < m->nkernels ? width : 0);
		}
		fputc('\n', out);
	}
	fprintf(out, "\nSensitivity (each victim beside every aggressor, geometric mean):\n");
	for (size_t k = 0; k < m->nkernels; k++)
		print_summary_line(out, m->kernels[k], m, &m->sensitivity[k]);
	fprintf(out, "Contentiousness (each aggressor beside every victim, geometric mean):\n");
	for (size_t k = 0; k < m->nkernels; k++)
		print_summary_line(out, m->kernels[k], m, &m->contentiousness[k]);
	fprintf(out, "\nBlocks: %zu measured", m->measured_blocks);
	if (*stop_text(r))
		fprintf(out, ". %s", stop_text(r));
	fputc('\n', out);
	print_allocation(out, r);
	if (r->warning_count)
		fprintf(out, "\nWarnings:\n");
	for (size_t i = 0; i < r->warning_count; i++)
		fprintf(out, "  - %s\n", r->warnings[i]);
	if (files_written)
		fprintf(out, "\nReport: %s/report.html (open it in a browser); also report.md, "
		        "report.json, heatmap.svg\n", r->shown_files_dir ? r->shown_files_dir : r->shown_dir);
	return ferror(out) || fflush(out) != 0 ? -1 : 0;
}

/* ---- the heat map ---- */

#define HM_LEFT 140
#define HM_TOP 78
#define HM_CELL_W 124
#define HM_CELL_H 54
#define HM_LEGEND_H 78

/* The slowdown's colour: white at 1×, red towards 2× and above, blue towards 0.5× and below
 * (log scale); *dark: the text on it should be white. */
static void ratio_colour(double ratio, char buf[8], bool *dark)
{
	double t = isfinite(ratio) && ratio > 0 ? log(ratio) / log(2.0) : 0;
	t = t > 1 ? 1 : t < -1 ? -1 : t;
	static const int white[3] = { 247, 247, 247 }, red[3] = { 178, 24, 43 },
	                 blue[3] = { 33, 102, 172 };
	const int *to = t >= 0 ? red : blue;
	double a = fabs(t);
	int rgb[3];
	for (int i = 0; i < 3; i++)
		rgb[i] = (int)lround(white[i] + (to[i] - white[i]) * a);
	snprintf(buf, 8, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
	*dark = a > 0.55;
}

static void heatmap_cell(FILE *out, const struct matrix_heat_cell *c, const char *unit, double x,
                         double y)
{
	char fill[8] = "#dddddd";
	bool dark = false;
	bool settled = c->settled;
	if (settled)
		ratio_colour(c->ratio_mean, fill, &dark);
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"%s\" "
	        "stroke=\"#fff\" stroke-width=\"2\"/>\n", x, y, HM_CELL_W, HM_CELL_H, fill);
	bool undecided = !settled || !c->decided;
	if (undecided)
		fprintf(out, "<rect class=\"undecided\" x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" "
		        "fill=\"url(#hatch)\"/>\n", x, y, HM_CELL_W, HM_CELL_H);
	const char *colour = dark ? "#fff" : "#111";
	double cx = x + HM_CELL_W / 2.0;
	if (!settled) { /* the grid's mean, not the data's: no number, no colour */
		fprintf(out, "<text class=\"ratio\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
		        "font-size=\"15\" font-weight=\"bold\">?</text>\n<text x=\"%.1f\" y=\"%.1f\" "
		        "text-anchor=\"middle\" font-size=\"11\">%zu %s: too few</text>\n", cx, y + 23,
		        cx, y + 41, c->n, unit);
		return;
	}
	char m[48], ci[100];
	double res = report_half_width(c->ratio_ci);
	fprintf(out, "<text class=\"ratio\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
	        "font-size=\"15\" font-weight=\"bold\" fill=\"%s\">%s×</text>\n", cx, y + 23, colour,
	        format_number(m, sizeof m, c->ratio_mean, res));
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\" "
	        "fill=\"%s\">%s</text>\n", cx, y + 41, colour,
	        format_interval(ci, sizeof ci, c->ratio_ci, res));
}

static void heatmap_legend(FILE *out, double y, int width, const char *unit)
{
	double x0 = HM_LEFT, w = 240;
	fputs("<defs><linearGradient id=\"slowdown\" x1=\"0\" x2=\"1\" y1=\"0\" y2=\"0\">", out);
	for (int i = 0; i <= 8; i++) {
		char c[8];
		bool dark;
		ratio_colour(pow(2.0, -1 + i / 4.0), c, &dark);
		fprintf(out, "<stop offset=\"%.3f\" stop-color=\"%s\"/>", i / 8.0, c);
	}
	fputs("</linearGradient></defs>\n", out);
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"14\" "
	        "fill=\"url(#slowdown)\" stroke=\"#999\"/>\n", x0, y, w);
	static const char *const labels[] = { "0.5× (faster)", "1×", "2× (slower)" };
	for (int i = 0; i < 3; i++)
		svg_text(out, x0 + w * i / 2.0, y + 30, i == 0 ? "start" : i == 1 ? "middle" : "end", 11,
		         NULL, labels[i]);
	double hx = x0 + w + 30;
	if (hx + 200 > width)
		hx = width - 200;
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"28\" height=\"14\" fill=\"#f7f7f7\" "
	        "stroke=\"#999\"/><rect x=\"%.1f\" y=\"%.1f\" width=\"28\" height=\"14\" "
	        "fill=\"url(#hatch)\"/>\n", hx, y, hx, y);
	svg_text(out, hx + 34, y + 12, "start", 11, NULL, "hatched: not enough data to say");
	char text[200];
	snprintf(text, sizeof text, "colour: the victim's slowdown against itself alone (log scale; "
	         "2× and above darkest); grey, ?: too few %s for a number", unit);
	svg_text(out, x0, y + 52, "start", 11, NULL, text);
}

char *matrix_svg_heatmap(const char *title, const char *description, const char *const *names,
                         size_t count, const struct matrix_heat_cell *cells, const char *unit)
{
	int n = (int)count;
	int width = HM_LEFT + n * HM_CELL_W + 20;
	if (width < HM_LEFT + 520)
		width = HM_LEFT + 520;
	int height = HM_TOP + n * HM_CELL_H + HM_LEGEND_H;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	if (!out)
		return NULL;
	svg_begin(out, width, height, title, description);
	fputs("<defs><pattern id=\"hatch\" patternUnits=\"userSpaceOnUse\" width=\"8\" height=\"8\" "
	      "patternTransform=\"rotate(45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"8\" "
	      "stroke=\"#555\" stroke-width=\"2\" stroke-opacity=\"0.45\"/></pattern></defs>\n", out);
	svg_text(out, 10, 20, "start", 14, "bold", title);
	svg_text(out, HM_LEFT + n * HM_CELL_W / 2.0, 44, "middle", 12, NULL, "aggressor →");
	svg_text(out, 10, HM_TOP - 8, "start", 12, NULL, "victim ↓");
	for (int g = 0; g < n; g++)
		svg_text(out, HM_LEFT + (g + 0.5) * HM_CELL_W, HM_TOP - 8, "middle", 12, "bold",
		         names[g]);
	for (int v = 0; v < n; v++) {
		double y = HM_TOP + v * HM_CELL_H;
		svg_text(out, HM_LEFT - 8, y + HM_CELL_H / 2.0 + 4, "end", 12, "bold", names[v]);
		for (int g = 0; g < n; g++)
			heatmap_cell(out, &cells[v * n + g], unit, HM_LEFT + g * HM_CELL_W, y);
	}
	heatmap_legend(out, HM_TOP + n * HM_CELL_H + 16, width, unit);
	svg_end(out);
	return svg_finish(out, &buf);
}

char *matrix_report_svg_heatmap(const struct matrix_report *r)
{
	const struct analysis_matrix *m = r->m;
	size_t n = m->nkernels;
	struct matrix_heat_cell *cells = calloc(n * n + 1, sizeof *cells);
	if (!cells)
		return NULL;
	for (size_t v = 0; v < n; v++)
		for (size_t g = 0; g < n; g++) {
			const struct analysis_matrix_cell *c = analysis_matrix_cell(m, (int)v, (int)g);
			const struct analysis_comparison *k = &c->vs_baseline;
			cells[v * n + g] = (struct matrix_heat_cell){
				.settled = cell_settled(c), .decided = k->verdict != ANALYSIS_VERDICT_UNDECIDED,
				.ratio_mean = k->ratio_mean, .ratio_ci = { k->ratio_ci[0], k->ratio_ci[1] },
				.n = c->group.n };
		}
	char title[200];
	snprintf(title, sizeof title, "Interference matrix on %s: victim's slowdown beside each "
	         "aggressor", r->placement ? r->placement : "(no pairs yet)");
	char *svg = matrix_svg_heatmap(title, "Rows: victims; columns: aggressors; each cell the "
	                               "victim's user time beside the aggressor over its time alone, "
	                               "paired by block, with its 95% interval; hatched cells have "
	                               "no verdict.", (const char *const *)m->kernels, n, cells,
	                               "blocks");
	free(cells);
	return svg;
}

bool matrix_report_commands(const struct matrix_report *r)
{
	return r->commands;
}

const struct analysis_matrix *matrix_report_matrix(const struct matrix_report *r)
{
	return r->m;
}

/* ---- report.json ---- */

static json_t *num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *interval(const double ci[2])
{
	return json_pack("[o, o]", num(ci[0]), num(ci[1]));
}

static json_t *comparison_json(const struct analysis_comparison *c, bool compared)
{
	/* An unsettled comparison's numbers are the grid's: null, as for no comparison. */
	if (compared && !analysis_comparison_settled(c))
		return json_pack("{s:n, s:n, s:o, s:s, s:s, s:I, s:I, s:b}", "ratio_mean", "ratio_ci",
		                 "p_slower", num(c->p_a_gt_b), "verdict",
		                 analysis_verdict_name(c->verdict), "design",
		                 analysis_design_name(c->design), "blocks_paired",
		                 (json_int_t)c->blocks_paired, "blocks_dropped",
		                 (json_int_t)c->blocks_dropped, "settled", false);
	if (!compared)
		return json_pack("{s:n, s:n, s:n, s:s, s:n, s:n, s:n, s:b}", "ratio_mean", "ratio_ci",
		                 "p_slower", "verdict", analysis_verdict_name(ANALYSIS_VERDICT_UNDECIDED),
		                 "design", "blocks_paired", "blocks_dropped", "settled", false);
	return json_pack("{s:o, s:o, s:o, s:s, s:s, s:I, s:I, s:b}", "ratio_mean",
	                 num(c->ratio_mean), "ratio_ci", interval(c->ratio_ci), "p_slower",
	                 num(c->p_a_gt_b), "verdict", analysis_verdict_name(c->verdict), "design",
	                 analysis_design_name(c->design), "blocks_paired",
	                 (json_int_t)c->blocks_paired, "blocks_dropped",
	                 (json_int_t)c->blocks_dropped, "settled", analysis_comparison_settled(c));
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
		json_array_append_new(a, merged(json_pack("{s:s, s:I, s:o}", "kernel", m->kernels[k],
		                                          "blocks", (json_int_t)s[k].blocks, "note",
		                                          s[k].note ? json_string(s[k].note)
		                                                    : json_null()),
		                                comparison_json(&s[k].c, s[k].compared)));
	return a;
}

/* meta.json's "stop" of the cell victim beside aggressor (NULL for the baseline), from
 * matrix --precision (runner/matrix.h): a new reference, null without one. */
static json_t *cell_stop(const json_t *meta, const char *victim, const char *aggressor)
{
	const json_t *cells = json_object_get(json_object_get(meta, "matrix"), "cells");
	for (size_t i = 0; i < json_array_size(cells); i++) {
		const json_t *c = json_array_get(cells, i);
		const char *v = json_string_value(json_object_get(c, "victim"));
		const char *g = json_string_value(json_object_get(c, "aggressor"));
		const char *stop = json_string_value(json_object_get(c, "stop"));
		if (v && !strcmp(v, victim) && (aggressor ? g && !strcmp(g, aggressor) : !g))
			return stop ? json_string(stop) : json_null();
	}
	return json_null();
}

static json_t *cells_json(const struct analysis_matrix *m, const json_t *meta)
{
	json_t *cells = json_array();
	for (size_t i = 0; i < m->ncells; i++) {
		const struct analysis_matrix_cell *c = &m->cells[i];
		if (c->aggressor < 0)
			continue;
		json_array_append_new(cells, merged(json_pack(
			"{s:s, s:s, s:I, s:I, s:b, s:o, s:o}", "victim", m->kernels[c->victim], "aggressor",
			m->kernels[c->aggressor], "n", (json_int_t)c->group.n, "failed_trials",
			(json_int_t)c->failed_trials, "safe", c->safe, "note",
			c->note ? json_string(c->note) : json_null(), "stop",
			cell_stop(meta, m->kernels[c->victim], m->kernels[c->aggressor])),
			comparison_json(&c->vs_baseline, c->compared)));
		/* P(its slowdown at most the safe bound), where the cell could be listed; else null. */
		json_object_set_new(json_array_get(cells, json_array_size(cells) - 1), "p_safe",
		                    isnan(c->p_safe) ? json_null() : json_real(c->p_safe));
	}
	return cells;
}

static json_t *baselines_json(const struct analysis_matrix *m, const json_t *meta)
{
	json_t *a = json_array();
	for (size_t v = 0; v < m->nkernels; v++) {
		const struct analysis_matrix_cell *c = analysis_matrix_cell(m, (int)v, -1);
		double sum = 0;
		for (size_t k = 0; k < c->group.n; k++)
			sum += c->group.values_s[k];
		json_array_append_new(a, json_pack("{s:s, s:I, s:o, s:I, s:o}", "kernel", m->kernels[v],
		                                   "n", (json_int_t)c->group.n, "mean_s",
		                                   num(c->group.n ? sum / (double)c->group.n : NAN),
		                                   "failed_trials", (json_int_t)c->failed_trials,
		                                   "stop", cell_stop(meta, m->kernels[v], NULL)));
	}
	return a;
}

static json_t *safe_pairs_json(const struct analysis_matrix *m)
{
	json_t *a = json_array();
	for (size_t i = 0; i < m->safe_pair_count; i++)
		json_array_append_new(a, json_pack("[s, s]", m->kernels[m->safe_pairs[i].a],
		                                   m->kernels[m->safe_pairs[i].b]));
	return a;
}

/* The joint safe list with what its probability covers (analysis/matrix.h's rule). */
static json_t *safe_list_json(const struct analysis_matrix *m)
{
	json_t *pairs = json_array();
	for (size_t i = 0; i < m->safe_pair_count; i++) {
		const struct analysis_safe_pair *p = &m->safe_pairs[i];
		json_array_append_new(pairs, json_pack("{s:[s, s], s:f}", "kernels", m->kernels[p->a],
		                                       m->kernels[p->b], "probability", p->probability));
	}
	char *covers = text_printf("every listed pair at once: each kernel's slowdown beside the "
	                           "other at most %g%%", 100 * m->safe_slowdown);
	json_t *o = json_pack("{s:f, s:f, s:s?, s:I, s:I, s:o}",
	                      "probability", m->safe_joint_probability,
	                      "target", ANALYSIS_MATRIX_SAFE_PROBABILITY, "covers", covers,
	                      "candidates", (json_int_t)m->safe_candidates,
	                      "pairs_considered", (json_int_t)(m->nkernels * (m->nkernels + 1) / 2),
	                      "pairs", pairs);
	free(covers);
	return o;
}

static char *report_json_text(const struct matrix_report *r)
{
	const struct analysis_matrix *m = r->m;
	json_t *kernels = json_array(), *warnings = json_array();
	for (size_t k = 0; k < m->nkernels; k++)
		json_array_append_new(kernels, json_string(m->kernels[k]));
	for (size_t i = 0; i < r->warning_count; i++)
		json_array_append_new(warnings, json_string(r->warnings[i]));
	const struct analysis_matrix_cell *w = worst_cell(m);
	json_t *worst = w ? merged(json_pack("{s:s, s:s}", "victim", m->kernels[w->victim],
	                                     "aggressor", m->kernels[w->aggressor]),
	                           comparison_json(&w->vs_baseline, true))
	                  : json_null();
	json_t *pus = r->pus[0] >= 0 ? json_pack("[i, i]", r->pus[0], r->pus[1]) : json_null();
	const char *stop = report_meta_string(r->meta, "stop_reason");
	json_t *doc = json_pack(
		"{s:i, s:s, s:s, s:s, s:o, s:o, s:o, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o,"
		" s:I, s:I, s:I, s:I, s:o, s:o, s:o}",
		"report_version", 1, "kind", "matrix", "dir", r->shown_dir, "machine", r->machine,
		"placement", r->placement ? json_string(r->placement) : json_null(), "pus", pus,
		"kernels", kernels, "answer", r->answer,
		"pairing_note", r->pairing_note ? json_string(r->pairing_note) : json_null(),
		"safe_pairs", safe_pairs_json(m), "worst", worst, "cells", cells_json(m, r->meta),
		"baselines", baselines_json(m, r->meta), "sensitivity", summaries_json(m, m->sensitivity),
		"contentiousness", summaries_json(m, m->contentiousness), "warnings", warnings,
		"measured_blocks", (json_int_t)m->measured_blocks,
		"failed_trials", (json_int_t)m->failed_trials,
		"contaminated_trials", (json_int_t)m->contaminated_trials,
		"warmup_trials", (json_int_t)m->warmup_trials,
		"excluded_contaminated", r->exclude_contaminated
		                         ? json_integer((json_int_t)m->excluded_contaminated) : json_null(),
		"stop_reason", stop ? json_string(stop) : json_null(),
		"meta", r->meta ? json_incref(r->meta) : json_null());
	if (!doc)
		return NULL;
	/* What "kernels" names: kernels, or the commands of matrix --commands by their names. */
	json_object_set_new(doc, "workloads", json_string(r->commands ? "commands" : "kernels"));
	/* The ROPE the verdicts and safe_pairs used (the default's when none was given:
	 * rope_default), and a safe cell's bound. */
	json_object_set_new(doc, "rope_pct", isnan(r->rope_pct) ? json_null()
	                                                        : json_real(r->rope_pct));
	json_object_set_new(doc, "rope_default", json_boolean(r->rope_default));
	json_object_set_new(doc, "safe_slowdown_pct", json_real(100 * m->safe_slowdown));
	json_object_set_new(doc, "safe_list", safe_list_json(m));
	char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(doc);
	char *withnl = text ? text_printf("%s\n", text) : NULL;
	free(text);
	return withnl;
}

/* ---- report.md ---- */

static void md_summaries(FILE *out, const struct analysis_matrix *m,
                         const struct analysis_matrix_summary *s, const char *what)
{
	fprintf(out, "| %s | blocks | slowdown | 95%% CI | P(slower) | verdict |\n"
	        "|---|---:|---:|---:|---:|---|\n", what);
	for (size_t k = 0; k < m->nkernels; k++) {
		const struct analysis_comparison *c = &s[k].c;
		char a[48], lo[48], hi[48];
		double res = report_half_width(c->ratio_ci);
		if (!summary_settled(&s[k]))
			fprintf(out, "| `%s` | %zu | n/a | n/a | n/a | %s |\n", m->kernels[k], s[k].blocks,
			        analysis_verdict_name(ANALYSIS_VERDICT_UNDECIDED));
		else
			fprintf(out, "| `%s` | %zu | %s× | %s–%s | %.2f | %s |\n", m->kernels[k],
			        s[k].blocks, format_number(a, sizeof a, c->ratio_mean, res),
			        format_number(lo, sizeof lo, c->ratio_ci[0], res),
			        format_number(hi, sizeof hi, c->ratio_ci[1], res), c->p_a_gt_b,
			        analysis_verdict_name(c->verdict));
	}
}

static char *report_md_text(const struct matrix_report *r)
{
	const struct analysis_matrix *m = r->m;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	if (!out)
		return NULL;
	fprintf(out, "# smtbench interference matrix: %s\n\n**Answer:** %s\n\n", r->shown_dir,
	        r->answer);
	if (r->rope_rule)
		fprintf(out, "%s\n\n", r->rope_rule);
	if (r->pairing_note)
		fprintf(out, "%s\n\n", r->pairing_note);
	fprintf(out, "Machine: %s. %s\n\n", r->machine, stop_text(r));
	if (r->pus[0] >= 0)
		fprintf(out, "Victim on CPU %d, aggressor on CPU %d (%s); baseline: the victim alone "
		        "on CPU %d. One sample per trial: the victim's user CPU time. Each cell is the "
		        "victim's time beside the aggressor over its time alone, paired by block "
		        "(blocks: %zu measured).\n\n", r->pus[0], r->pus[1], r->placement,
		        r->pus[0], m->measured_blocks);
	fputs("## Matrix (victim's slowdown; rows victims, columns aggressors)\n\n| victim \\ "
	      "aggressor |", out);
	for (size_t g = 0; g < m->nkernels; g++)
		fprintf(out, " `%s` |", m->kernels[g]);
	fputs("\n|---|", out);
	for (size_t g = 0; g < m->nkernels; g++)
		fputs("---:|", out);
	fputc('\n', out);
	for (size_t v = 0; v < m->nkernels; v++) {
		fprintf(out, "| `%s` |", m->kernels[v]);
		for (size_t g = 0; g < m->nkernels; g++) {
			const struct analysis_matrix_cell *c = analysis_matrix_cell(m, (int)v, (int)g);
			char ratio[120];
			fprintf(out, " %s %s |", cell_text(ratio, sizeof ratio, c), verdict_mark(c));
		}
		fputc('\n', out);
	}
	fputs("\n+ slower, = practically the same, - faster, ? not enough data to say.\n\n"
	      "## Cells\n\n| victim | aggressor | n | slowdown (95% CI) | P(slower) | verdict | "
	      "design | safe |\n|---|---|---:|---:|---:|---|---|---|\n", out);
	for (size_t i = 0; i < m->ncells; i++) {
		const struct analysis_matrix_cell *c = &m->cells[i];
		if (c->aggressor < 0)
			continue;
		char ratio[120], design[80];
		const struct analysis_comparison *k = &c->vs_baseline;
		if (cell_settled(c))
			fprintf(out, "| `%s` | `%s` | %zu | %s | %.2f | %s | %s | %s |\n",
			        m->kernels[c->victim], m->kernels[c->aggressor], c->group.n,
			        ratio_text(ratio, sizeof ratio, k), k->p_a_gt_b,
			        analysis_verdict_name(k->verdict),
			        format_design(design, sizeof design, k), c->safe ? "yes" : "no");
		else
			fprintf(out, "| `%s` | `%s` | %zu | n/a | n/a | %s | - | no |\n",
			        m->kernels[c->victim], m->kernels[c->aggressor], c->group.n,
			        analysis_verdict_name(ANALYSIS_VERDICT_UNDECIDED));
	}
	fputs("\n## Sensitivity "
	      "(each victim beside every aggressor, geometric mean of the per-block ratios)\n\n", out);
	md_summaries(out, m, m->sensitivity, "victim");
	fputs("\n## Contentiousness (each aggressor beside every victim, geometric mean)\n\n", out);
	md_summaries(out, m, m->contentiousness, "aggressor");
	fputs("\n## Baselines (each victim alone)\n\n| kernel | n | mean user s |\n|---|---:|---:|\n",
	      out);
	for (size_t v = 0; v < m->nkernels; v++) {
		const struct analysis_group *g = &analysis_matrix_cell(m, (int)v, -1)->group;
		double sum = 0;
		for (size_t k = 0; k < g->n; k++)
			sum += g->values_s[k];
		char mean[48];
		fprintf(out, "| `%s` | %zu | %s |\n", m->kernels[v], g->n,
		        g->n ? format_number(mean, sizeof mean, sum / (double)g->n, 0) : "n/a");
	}
	fputs("\n## Warnings\n\n", out);
	if (!r->warning_count)
		fputs("None.\n", out);
	for (size_t i = 0; i < r->warning_count; i++)
		fprintf(out, "- %s\n", r->warnings[i]);
	fputs("\nThe heat map is heatmap.svg (and in report.html); every number is in report.json.\n",
	      out);
	if (fclose(out) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* ---- report.html ---- */

static const char style_sheet[] =
	"body{font-family:'DejaVu Sans',Arial,Helvetica,sans-serif;max-width:70rem;margin:1.5rem auto;"
	"padding:0 1rem;color:#111;line-height:1.4}h1{font-size:1.35rem}"
	"h2{font-size:1.15rem;margin-top:2rem}.verdict{font-size:1.15rem;font-weight:bold;"
	"border-left:6px solid #0072B2;padding:.6rem 1rem;background:#f2f6fa}"
	".nosmt{border-left:6px solid #E69F00;padding:.4rem 1rem;background:#fdf6e8}"
	"table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #bbb;padding:.25rem .5rem;"
	"text-align:left}td.num{text-align:right;font-variant-numeric:tabular-nums}th{background:#eee}"
	"figure{margin:1rem 0}svg{max-width:100%;height:auto}.muted{color:#555;font-size:.9rem}";

static void td(FILE *out, const char *text, bool numeric)
{
	fputs(numeric ? "<td class=\"num\">" : "<td>", out);
	report_xml_escape(out, text);
	fputs("</td>", out);
}

static void html_summaries(FILE *out, const struct analysis_matrix *m,
                           const struct analysis_matrix_summary *s, const char *id,
                           const char *what)
{
	fprintf(out, "<table id=\"%s\">\n<tr><th>%s</th><th>blocks</th><th>slowdown (95%% CI)</th>"
	        "<th>P(slower)</th><th>verdict</th></tr>\n", id, what);
	for (size_t k = 0; k < m->nkernels; k++) {
		char blocks[24], ratio[120], p[24];
		snprintf(blocks, sizeof blocks, "%zu", s[k].blocks);
		snprintf(p, sizeof p, "%.2f", s[k].c.p_a_gt_b);
		fputs("<tr>", out);
		td(out, m->kernels[k], false);
		td(out, blocks, true);
		bool settled = summary_settled(&s[k]);
		td(out, settled ? ratio_text(ratio, sizeof ratio, &s[k].c) : "n/a (too few blocks)", true);
		td(out, settled ? p : "n/a", true);
		td(out, analysis_verdict_name(settled ? s[k].c.verdict : ANALYSIS_VERDICT_UNDECIDED),
		   false);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void html_cells(FILE *out, const struct analysis_matrix *m)
{
	fputs("<table id=\"cells\">\n<tr><th>victim</th><th>aggressor</th><th>n</th>"
	      "<th>slowdown (95% CI)</th><th>P(slower)</th><th>verdict</th><th>design</th>"
	      "<th>safe</th></tr>\n", out);
	for (size_t i = 0; i < m->ncells; i++) {
		const struct analysis_matrix_cell *c = &m->cells[i];
		if (c->aggressor < 0)
			continue;
		char n[24], ratio[120], p[24], design[80];
		const struct analysis_comparison *k = &c->vs_baseline;
		snprintf(n, sizeof n, "%zu", c->group.n);
		snprintf(p, sizeof p, "%.2f", k->p_a_gt_b);
		fputs("<tr>", out);
		td(out, m->kernels[c->victim], false);
		td(out, m->kernels[c->aggressor], false);
		td(out, n, true);
		td(out, cell_text(ratio, sizeof ratio, c), true);
		td(out, cell_settled(c) ? p : "n/a", true);
		td(out, analysis_verdict_name(cell_settled(c) ? k->verdict : ANALYSIS_VERDICT_UNDECIDED),
		   false);
		td(out, c->compared ? format_design(design, sizeof design, k) : "-", false);
		td(out, c->safe ? "yes" : "no", false);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

static char *report_html_text(const struct matrix_report *r, const char *heatmap)
{
	const struct analysis_matrix *m = r->m;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	if (!out)
		return NULL;
	report_html_begin(out, "smtbench interference matrix: ", r->shown_dir, style_sheet);
	fputs("<p class=\"verdict\" id=\"answer\">", out);
	report_xml_escape(out, r->answer);
	fputs("</p>\n", out);
	if (r->rope_rule) {
		fputs("<p id=\"rope\">", out);
		report_xml_escape(out, r->rope_rule);
		fputs("</p>\n", out);
	}
	if (r->pairing_note) {
		fputs("<p class=\"nosmt\">", out);
		report_xml_escape(out, r->pairing_note);
		fputs("</p>\n", out);
	}
	fputs("<p class=\"muted\">Machine: ", out);
	report_xml_escape(out, r->machine);
	fputs(". ", out);
	report_xml_escape(out, stop_text(r));
	fprintf(out, " Blocks measured: %zu.</p>\n<h2>Heat map</h2>\n<figure id=\"heatmap\">",
	        m->measured_blocks);
	fputs(heatmap, out);
	fputs("</figure>\n<h2>Cells</h2>\n", out);
	html_cells(out, m);
	fputs("<h2>Sensitivity</h2>\n<p>How much each victim suffers: the geometric mean of its "
	      "slowdowns beside every aggressor, block by block.</p>\n", out);
	html_summaries(out, m, m->sensitivity, "sensitivity", "victim");
	fputs("<h2>Contentiousness</h2>\n<p>How much each aggressor makes the others suffer: the "
	      "geometric mean of the victims' slowdowns beside it, block by block.</p>\n", out);
	html_summaries(out, m, m->contentiousness, "contentiousness", "aggressor");
	fputs("<h2>Warnings</h2>\n", out);
	if (!r->warning_count)
		fputs("<p>None.</p>\n", out);
	else
		fputs("<ul>\n", out);
	for (size_t i = 0; i < r->warning_count; i++) {
		fputs("<li>", out);
		report_xml_escape(out, r->warnings[i]);
		fputs("</li>\n", out);
	}
	if (r->warning_count)
		fputs("</ul>\n", out);
	fprintf(out, "<h2>How to read this</h2>\n<p>Every block ran every cell once in a random "
	        "order: each victim beside each aggressor, and each victim alone. A cell's slowdown "
	        "is exp(delta), delta the mean over blocks of log(victim's user time beside the "
	        "aggressor) − log(its time alone in the same block), from its posterior with flat "
	        "priors; its 95%% credible interval is shown under it. The verdict says slower or "
	        "faster only when P(slower, or faster, by more than the ROPE) is at least %g; "
	        "hatched cells have no verdict. The pairs listed as safe to share slow neither kernel by more than "
	        "%g%% beside the other, every listed pair at once with probability %g or more.",
	        ANALYSIS_DIRECTION_PROBABILITY, 100 * r->m->safe_slowdown,
	        ANALYSIS_MATRIX_SAFE_PROBABILITY);
	if (r->rope_rule) {
		fputc(' ', out);
		report_xml_escape(out, r->rope_rule);
	}
	fputs("</p>\n</body>\n</html>\n", out);
	if (fclose(out) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

int matrix_report_set_files_dir(struct matrix_report *r, const char *out_dir)
{
	free(r->files_dir);
	free(r->shown_files_dir);
	r->files_dir = strdup(out_dir);
	r->shown_files_dir = text_escape(out_dir);
	return r->files_dir && r->shown_files_dir ? 0 : -1;
}

int matrix_report_write_files(const struct matrix_report *r, char *err, size_t err_size)
{
	char *files[MATRIX_REPORT_FILE_COUNT] = { NULL };
	files[0] = report_md_text(r);
	files[1] = report_json_text(r);
	files[2] = matrix_report_svg_heatmap(r);
	files[3] = files[2] ? report_html_text(r, files[2]) : NULL;
	int rc = 0;
	for (int i = 0; i < MATRIX_REPORT_FILE_COUNT && rc == 0; i++) {
		if (!files[i]) {
			set_error(err, err_size, "%s/%s: out of memory", r->shown_dir,
			          matrix_report_file_names[i]);
			rc = -1;
		} else if (fileio_write_atomic(r->files_dir ? r->files_dir : r->dir,
		                               matrix_report_file_names[i], files[i],
		                               strlen(files[i]), err, err_size) != 0) {
			rc = -1;
		}
	}
	for (int i = 0; i < MATRIX_REPORT_FILE_COUNT; i++)
		free(files[i]);
	return rc;
}

void matrix_report_free(struct matrix_report **p)
{
	if (!p || !*p)
		return;
	struct matrix_report *r = *p;
	free(r->dir);
	free(r->shown_dir);
	free(r->files_dir);
	free(r->shown_files_dir);
	json_decref(r->meta);
	analysis_matrix_free(&r->m);
	free(r->placement);
	free(r->shares);
	free(r->machine);
	free(r->answer);
	free(r->rope_rule);
	free(r->pairing_note);
	for (size_t i = 0; i < r->warning_count; i++)
		free(r->warnings[i]);
	free(r->warnings);
	free(r);
	*p = NULL;
}
