/*
 * samples_load.c — a results folder's samples.csv into a dataset (analysis_load_folder):
 * records → trials → samples. A trial that cannot be used becomes a warning and never affects
 * another.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/internal.h"
#include "common/folder.h"
#include "common/placements.h"
#include "common/samples_table.h"

/* The building of one dataset. */
struct trials {
	const struct results_folder *f;    /* meta.json: the authority on the rows' names */
	const struct samples_table *t;
	bool exclude_contaminated;
	struct dataset_builder b;          /* its dataset's unit, metric and one_process rule */
	int *group_of_name;                /* per placement name: its group */
	size_t *rows_per_trial;            /* per placement name: the rows its trials should have */
	bool *known;                       /* per placement name: one of the registry's */
	long last_block;                   /* the last measured trial's block (-1: none yet) */
};

/* Groups in the stable placement order, whether or not they hold samples, with each one's
 * frequency; the workloads' names. */
static void make_groups(struct trials *L)
{
	const struct samples_table *t = L->t;
	struct analysis_dataset *d = L->b.data;
	L->group_of_name = xcalloc(t->placement_count, sizeof *L->group_of_name);
	for (size_t rank = 0; rank <= PLACEMENT_COUNT; rank++)
		for (size_t i = 0; i < t->placement_count; i++)
			if (placement_info_rank(t->placements[i].name) == rank)
				L->group_of_name[i] = builder_add_group(&L->b, t->placements[i].name);
	for (size_t i = 0; i < t->placement_count; i++) {
		struct analysis_group *g = &d->groups[L->group_of_name[i]];
		if (t->placements[i].freq_n) {
			g->freq_n = t->placements[i].freq_n;
			g->freq_mhz = (double)t->placements[i].freq_khz / 1000.0 / (double)g->freq_n;
		}
	}
	/* Names from samples.csv are shown by every report: escaped once, here. */
	const char *a = samples_table_first_workload(t, 0), *b = samples_table_first_workload(t, 1);
	d->workload = a ? xescaped(a) : NULL;
	d->beside_workload = b ? xescaped(b) : NULL;
}

/* The rows a trial of each placement must have: one per process of the placement, from the
 * placement registry; for a name the registry does not know, the most rows seen in one of its
 * trials. Such a name is kept (its trials are analysed) but never silently: one warning per
 * name, on the line it first appears. */
static void count_rows_per_trial(struct trials *L)
{
	const struct samples_table *t = L->t;
	char names[256];
	placement_names_list(names, sizeof names);
	L->rows_per_trial = xcalloc(t->placement_count, sizeof *L->rows_per_trial);
	L->known = xcalloc(t->placement_count, sizeof *L->known);
	bool all_known = true;
	for (size_t i = 0; i < t->placement_count; i++) {
		const struct placement_info *info = placement_info_find(t->placements[i].name);
		if (info)
			L->rows_per_trial[i] = L->b.data->one_process ? 1 : (size_t)info->nprocs;
		else
			builder_warn(&L->b, xasprintf(
				"samples.csv:%ld: placement '%s' is not one this smtbench knows (%s): not "
				"written by this version, or edited; its trials are analysed as they are",
				t->placements[i].first_line, t->placements[i].name, names));
		L->known[i] = info != NULL;
		all_known = all_known && info;
	}
	struct samples_cursor c = { .table = t };
	const struct samples_record *rows;
	size_t n;
	while (!all_known && samples_next_trial(&c, &rows, &n))
		if (!L->known[rows[0].placement] && n > L->rows_per_trial[rows[0].placement])
			L->rows_per_trial[rows[0].placement] = n;
	samples_cursor_release(&c);
}

/* A row of the trial's n rows that should not be there: a second row for one process (rows
 * are sorted by process), more rows than the placement has processes, or a process number
 * the placement does not have. Its index, or n when there is none. */
static size_t stray_row(const struct trials *L, const struct samples_record *rows, size_t n)
{
	size_t expected = L->rows_per_trial[rows[0].placement];
	bool known = L->known[rows[0].placement], have_proc = L->t->have_proc;
	for (size_t i = 0; i < n; i++)
		if ((have_proc && i > 0 && rows[i].proc == rows[i - 1].proc) || i >= expected
		    || (have_proc && known && rows[i].proc >= expected))
			return i;
	return n;
}

/* Whether the trial of n rows can be used; when not, a warning says why. */
static bool trial_usable(struct trials *L, const struct samples_record *rows, size_t n)
{
	/* A row whose placement or workload meta.json does not name (edited, or another run's
	 * rows appended) is left out with its trial: meta.json says what the folder holds. */
	for (size_t i = 0; i < n; i++) {
		char *why = folder_row_disagreement(L->f, &rows[i]);
		if (why) {
			builder_warn(&L->b, xasprintf("samples.csv:%ld: trial %ld: %s; trial left out",
			                              rows[i].line_no, rows[i].trial, why));
			free(why);
			return false;
		}
	}
	const struct samples_record *first = &rows[0];
	bool consistent = true;
	size_t role_a = 0;
	for (size_t i = 0; i < n; i++) {
		consistent = consistent && rows[i].placement == first->placement
		             && rows[i].warmup == first->warmup && rows[i].block == first->block;
		role_a += rows[i].role_a;
	}
	size_t expected = L->rows_per_trial[first->placement];
	size_t stray = consistent ? stray_row(L, rows, n) : n;
	const char *name = L->t->placements[first->placement].name;
	char *problem;
	if (stray < n)
		problem = xasprintf("samples.csv:%ld: trial %ld: a duplicated or stray row (process "
		                    "%ld; a %s trial has %zu row%s); trial skipped", rows[stray].line_no,
		                    first->trial, (long)rows[stray].proc, name, expected,
		                    expected == 1 ? "" : "s");
	else if (consistent && role_a && n < expected)
		problem = xasprintf("samples.csv:%ld: trial %ld has %zu of its %zu rows (the others "
		                    "damaged or missing); trial skipped", first->line_no, first->trial,
		                    n, expected);
	else if (!consistent || role_a == 0)
		problem = xasprintf("samples.csv:%ld: trial %ld %s; trial skipped", first->line_no,
		                    first->trial, consistent ? "has no role-a row"
		                    : "has rows that disagree on placement, warmup or block");
	else
		return true;
	builder_warn(&L->b, problem);
	return false;
}

int analysis_trial_shared(const struct samples_record *rows, size_t n)
{
	double duration = NAN;
	for (size_t i = 0; i < n; i++)
		if (isnan(duration) || rows[i].wall > duration)
			duration = rows[i].wall;
	if (isnan(duration) || isnan(rows[0].shared))
		return -1;
	return rows[0].shared > ANALYSIS_CONTAMINATED_SHARE * duration;
}

/* A trial's leftovers and, for an ok measured one, whether it shared its CPUs, counted in its
 * group. True when the trial is to be left out (contaminated, and asked to exclude those). */
static bool count_trial_health(struct trials *L, const struct samples_record *rows, size_t n,
                               bool all_ok)
{
	struct analysis_dataset *d = L->b.data;
	struct analysis_group *g = &d->groups[L->group_of_name[rows[0].placement]];
	if (rows[0].leftovers > 0) {
		g->leftover_trials++;
		g->leftovers += (size_t)rows[0].leftovers;
	}
	if (!all_ok || rows[0].warmup)
		return false;
	int contaminated = analysis_trial_shared(rows, n);
	if (contaminated < 0)
		return false;
	g->contamination_known++;
	g->contaminated_trials += (size_t)contaminated;
	if (!contaminated || !L->exclude_contaminated)
		return false;
	d->excluded_contaminated++;
	return true;
}

/* Beside a different workload B (role b rows), the question is how much B slows A: B outlasting
 * A is what was asked for, B ending early leaves A alone. So overlap is the share of A's time
 * (its longest wall_s; every process starts at the trial's start) that B still ran:
 * min(1, B's wall_s / A's). 1: poor, 0: not, -1: not a beside trial or a wall_s unknown. */
static int poor_overlap_beside(const struct samples_record *rows, size_t n)
{
	double a_wall = NAN, b_wall = NAN;
	for (size_t i = 0; i < n; i++) {
		double *w = rows[i].role_a ? &a_wall : &b_wall;
		if (isnan(*w) || rows[i].wall > *w)
			*w = rows[i].wall;
	}
	if (isnan(a_wall) || isnan(b_wall) || !(a_wall > 0))
		return -1;
	return b_wall < ANALYSIS_POOR_OVERLAP * a_wall;
}

/* A measured trial's overlap and wall-time counts in its group. */
static void count_trial_timing(struct analysis_group *g, const struct samples_record *rows,
                               size_t n)
{
	bool wall_known = true, wall_above = false;
	for (size_t i = 0; i < n; i++)
		if (rows[i].role_a) {
			wall_known = wall_known && rows[i].wall_above >= 0;
			wall_above = wall_above || rows[i].wall_above > 0;
		}
	int beside = poor_overlap_beside(rows, n);
	if (beside >= 0) {
		g->overlap_of_measured = true;
		g->overlap_known++;
		g->poor_overlap_trials += (size_t)beside;
	} else if (rows[0].poor_overlap >= 0) {
		g->overlap_known++;
		g->poor_overlap_trials += (size_t)rows[0].poor_overlap;
	}
	if (wall_known) {
		g->wall_known++;
		g->wall_above_cpu_trials += wall_above;
	}
}

/* A measured trial of one process given several CPUs: whether it used them, counted in its
 * group (per_cpu_s; a trial without it is not judged). */
static void count_trial_spread(struct analysis_group *g, const struct samples_record *rows,
                               size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!rows[i].role_a || rows[i].unspread < 0)
			continue;
		g->spread_known++;
		g->unspread_trials += (size_t)rows[i].unspread;
		if ((int)rows[i].per_cpu_n > g->spread_cpus)
			g->spread_cpus = (int)rows[i].per_cpu_n;
		return;
	}
}

/* The trial's sample(s): each role-a row's time, or their mean. False (said) when the metric's
 * time is missing. */
static bool add_samples(struct trials *L, const struct samples_record *rows, size_t n)
{
	const struct samples_record *first = &rows[0];
	int group = L->group_of_name[first->placement];
	bool wall = L->b.data->metric == ANALYSIS_METRIC_WALL;
	double sum = 0;
	size_t role_a = 0;
	for (size_t i = 0; i < n; i++)
		if (rows[i].role_a && wall && isnan(rows[i].wall)) {
			builder_warn(&L->b, xasprintf("samples.csv:%ld: trial %ld has no wall_s, which "
			                              "--metric wall analyses; trial skipped",
			                              rows[i].line_no, first->trial));
			return false;
		}
	for (size_t i = 0; i < n; i++) {
		if (!rows[i].role_a)
			continue;
		double value = wall ? rows[i].wall : rows[i].utime;
		sum += value;
		role_a++;
		if (L->b.data->unit == ANALYSIS_UNIT_PROCESS)
			builder_add_sample(&L->b, group, first->trial, first->block, value, first->warmup);
	}
	if (L->b.data->unit == ANALYSIS_UNIT_TRIAL)
		builder_add_sample(&L->b, group, first->trial, first->block, sum / (double)role_a,
		                   first->warmup);
	return true;
}

/* A usable trial: counted, and its sample(s) with its overlap and wall-time counts added. */
static void add_trial(struct trials *L, const struct samples_record *rows, size_t n)
{
	const struct samples_record *first = &rows[0];
	struct analysis_dataset *d = L->b.data;
	struct analysis_group *g = &d->groups[L->group_of_name[first->placement]];
	bool all_ok = true;
	for (size_t i = 0; i < n; i++)
		all_ok = all_ok && rows[i].ok;
	/* The measured blocks, failed and excluded trials' included: what a paired comparison's
	 * dropped blocks are counted against. Trials come in run order and a block's trials are
	 * consecutive, so a new block is a change of block number (a hostile file's shuffled
	 * blocks only miscount). */
	if (first->warmup) {
		d->warmup_trials++;
	} else if (first->block >= 0 && first->block != L->last_block) {
		L->last_block = first->block;
		d->measured_blocks++;
	}
	if (count_trial_health(L, rows, n, all_ok))
		return;
	if (!all_ok) {
		if (!first->warmup) {
			g->failed_trials++;
			d->failed_trials++;
		}
		return;
	}
	if (add_samples(L, rows, n) && !first->warmup) {
		count_trial_timing(g, rows, n);
		count_trial_spread(g, rows, n);
	}
}

struct analysis_dataset *analysis_load_folder(struct results_folder *f,
                                              const struct analysis_take *how, char *err,
                                              size_t err_size)
{
	const struct analysis_take plain = { .unit = ANALYSIS_UNIT_TRIAL };
	if (!how)
		how = &plain;
	const struct samples_table *t = folder_samples(f, err, err_size);
	if (!t)
		return NULL;
	enum analysis_metric folder_metric = f->wall_metric ? ANALYSIS_METRIC_WALL
	                                                    : ANALYSIS_METRIC_USER;
	struct trials L = { .f = f, .t = t, .last_block = -1,
	                    .exclude_contaminated = how->exclude_contaminated,
	                    .b = { .data = dataset_new(f->dir, true, how->unit) } };
	L.b.data->metric = how->metric_given ? how->metric : folder_metric;
	L.b.data->one_process = f->kind == FOLDER_ONE_PROCESS; /* one row a trial, any placement */
	for (size_t i = 0; i < t->warning_count; i++)
		builder_warn(&L.b, xstrdup(t->warnings[i]));
	make_groups(&L);
	count_rows_per_trial(&L);
	/* Every trial, in run order, into samples; then each group's outliers. */
	size_t total = 0;
	for (size_t k = 0; k < t->segment_count; k++)
		total += t->segments[k].count;
	builder_reserve_points(&L.b, total);
	struct samples_cursor c = { .table = t };
	const struct samples_record *rows;
	size_t n;
	while (samples_next_trial(&c, &rows, &n))
		if (trial_usable(&L, rows, n))
			add_trial(&L, rows, n);
	samples_cursor_release(&c);
	builder_flag_outliers(&L.b, ANALYSIS_TIMER_RESOLUTION_S);
	free(L.group_of_name);
	free(L.rows_per_trial);
	free(L.known);
	return L.b.data;
}
