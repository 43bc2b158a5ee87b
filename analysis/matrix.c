/*
 * matrix.c — the interference matrix's cells from a results folder, and their comparisons
 * (see matrix.h). The samples are the dataset's (samples_load.c: damaged lines, failed and
 * contaminated trials as for every folder); which kernels each trial ran (its role-a and
 * role-b workloads) comes from the same records (the folder's samples table).
 */
#include "analysis/matrix.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/internal.h"
#include "common/folder.h"
#include "common/samples_table.h"

/* ---- cells ---- */

static size_t cell_index(const struct analysis_matrix *m, int v, int g)
{
	return (size_t)v * (m->nkernels + 1) + (size_t)(g + 1);
}

const struct analysis_matrix_cell *analysis_matrix_cell(const struct analysis_matrix *m, int v,
                                                         int g)
{
	if (v < 0 || g < -1 || (size_t)v >= m->nkernels || g >= (int)m->nkernels)
		return NULL;
	return &m->cells[cell_index(m, v, g)];
}

/* The kernels: those asked for, then the file's others, each escaped for output; map_of[i] is
 * the matrix's index of the table's workload i. */
static void order_kernels(struct analysis_matrix *m, const struct samples_table *t,
                          const char *const *kernels, size_t nkernels, int *map_of)
{
	m->kernels = xcalloc(t->workload_count + 1, sizeof *m->kernels);
	for (size_t i = 0; i < t->workload_count; i++)
		map_of[i] = -1;
	for (size_t k = 0; k < nkernels; k++)
		for (size_t i = 0; i < t->workload_count; i++)
			if (map_of[i] < 0 && !strcmp(t->workloads[i].name, kernels[k]))
				map_of[i] = (int)m->nkernels++;
	/* Names meta.json does not list are another's rows (left out by the loader, said in its
	 * warnings); only without a list are the file's names the kernels. */
	for (size_t i = 0; i < t->workload_count && nkernels == 0; i++)
		if (map_of[i] < 0)
			map_of[i] = (int)m->nkernels++;
	for (size_t i = 0; i < t->workload_count; i++)
		if (map_of[i] >= 0)
			m->kernels[map_of[i]] = xescaped(t->workloads[i].name);
}

static void make_cells(struct analysis_matrix *m)
{
	size_t n = m->nkernels * (m->nkernels + 1);
	m->cells = xcalloc(n, sizeof *m->cells);
	m->ncells = n;
	for (size_t v = 0; v < m->nkernels; v++)
		for (int g = -1; g < (int)m->nkernels; g++) {
			struct analysis_matrix_cell *c = &m->cells[cell_index(m, (int)v, g)];
			c->victim = (int)v;
			c->aggressor = g;
			c->group.name = g < 0 ? xasprintf("%s alone", m->kernels[v])
			                      : xasprintf("%s beside %s", m->kernels[v], m->kernels[g]);
		}
}

/* The dataset's points of one trial (the trial's records say its victim and aggressor, the
 * table's workload indexes; -1 none) into their cell. *next: the dataset's next point, which
 * follows the trials' run order. */
static void add_points(struct analysis_matrix *m, const struct analysis_dataset *d, size_t *next,
                       long trial, int victim, int aggressor, const int *map_of)
{
	for (; *next < d->point_count && d->points[*next].trial <= trial; ++*next) {
		const struct analysis_point *p = &d->points[*next];
		if (p->warmup || p->trial != trial)
			continue;
		const char *placement = d->groups[p->group].name;
		bool alone = !strcmp(placement, "solo");
		if (victim < 0 || (!alone && aggressor < 0) || map_of[victim] < 0
		    || (!alone && map_of[aggressor] < 0))
			continue;
		if (!alone && !m->placement)
			m->placement = xstrdup(placement);
		if (!alone && strcmp(placement, m->placement) != 0)
			continue; /* a second pairing placement: not a matrix smtbench wrote */
		int v = map_of[victim], g = alone ? -1 : map_of[aggressor];
		group_add(&m->cells[cell_index(m, v, g)].group, p->value_s, p->trial, p->block);
	}
}

/* One walk of the folder's trials in run order: each trial's samples into their cell, and each
 * measured trial counted in its cell: failed (a row not ok), else whether it shared its CPUs,
 * as a group's. */
static void fill_cells(struct analysis_matrix *m, const struct analysis_dataset *d,
                       const struct samples_table *t, const int *map_of)
{
	size_t next = 0;
	struct samples_cursor c = { .table = t };
	const struct samples_record *r;
	size_t n;
	while (samples_next_trial(&c, &r, &n)) {
		int victim = -1, aggressor = -1;
		bool failed = false;
		for (size_t i = 0; i < n; i++) {
			failed = failed || !r[i].ok;
			if (r[i].workload != SAMPLES_NO_WORKLOAD)
				*(r[i].role_a ? &victim : &aggressor) = r[i].workload;
		}
		add_points(m, d, &next, r[0].trial, victim, aggressor, map_of);
		if (r[0].warmup || victim < 0 || map_of[victim] < 0
		    || (aggressor >= 0 && map_of[aggressor] < 0))
			continue;
		int g = aggressor < 0 ? -1 : map_of[aggressor], shared = analysis_trial_shared(r, n);
		struct analysis_matrix_cell *cell = &m->cells[cell_index(m, map_of[victim], g)];
		if (failed) {
			cell->failed_trials++;
		} else if (shared >= 0) {
			cell->group.contamination_known++;
			cell->group.contaminated_trials += (size_t)shared;
		}
	}
	samples_cursor_release(&c);
}

double analysis_matrix_cell_p_safe(const struct analysis_comparison *c, double bound)
{
	if (c->design != ANALYSIS_DESIGN_PAIRED || !analysis_comparison_settled(c)
	    || (c->verdict != ANALYSIS_VERDICT_SAME && c->verdict != ANALYSIS_VERDICT_FASTER))
		return NAN;
	return analysis_log_ratio_cdf(c, log1p(bound));
}

static int compare_pairs_by_kernel(const void *x, const void *y)
{
	const struct analysis_safe_pair *a = x, *b = y;
	return a->a != b->a ? (a->a > b->a) - (a->a < b->a) : (a->b > b->b) - (a->b < b->b);
}

static int compare_pairs_by_probability(const void *x, const void *y)
{
	const struct analysis_safe_pair *a = x, *b = y;
	if (a->probability != b->probability)
		return a->probability > b->probability ? -1 : 1;
	return compare_pairs_by_kernel(x, y);
}

size_t analysis_safe_pairs(size_t nkernels, const double *p_safe, double probability,
                           struct analysis_safe_pair *pairs, double *joint, size_t *candidates)
{
	size_t all = nkernels * (nkernels + 1) / 2, count = 0;
	for (size_t i = 0; i < nkernels; i++)
		for (size_t j = i; j < nkernels; j++) {
			double p = p_safe[i * nkernels + j];
			if (j != i)
				p *= p_safe[j * nkernels + i];
			if (p >= 0 && p <= 1) /* NAN: a cell that cannot be listed */
				pairs[count++] = (struct analysis_safe_pair){ (int)i, (int)j, p };
		}
	*candidates = count;
	qsort(pairs, count, sizeof *pairs, compare_pairs_by_probability);
	double alpha = 1 - probability, product = 1;
	size_t listed = 0;
	/* Holm's step-down over all the matrix's pairs: the k-th listed (from 0) may fail with
	 * probability at most alpha / (all - k); and the list as a whole holds at `probability`. */
	for (; listed < count; listed++) {
		double p = pairs[listed].probability;
		if (1 - p > alpha / (double)(all - listed) || product * p < probability)
			break;
		product *= p;
	}
	qsort(pairs, listed, sizeof *pairs, compare_pairs_by_kernel);
	*joint = product;
	return listed;
}

/* The joint safe list of the compared cells, into m and the cells' safe flags. */
static void choose_safe_pairs(struct analysis_matrix *m)
{
	size_t k = m->nkernels;
	double *p = xmalloc((k ? k * k : 1) * sizeof *p);
	m->safe_pairs = xmalloc((k * (k + 1) / 2 + 1) * sizeof *m->safe_pairs);
	for (size_t v = 0; v < k; v++)
		for (size_t g = 0; g < k; g++) {
			struct analysis_matrix_cell *c = &m->cells[cell_index(m, (int)v, (int)g)];
			c->p_safe = c->compared ? analysis_matrix_cell_p_safe(&c->vs_baseline,
			                                                      m->safe_slowdown) : NAN;
			p[v * k + g] = c->p_safe;
		}
	m->safe_pair_count = analysis_safe_pairs(k, p, ANALYSIS_MATRIX_SAFE_PROBABILITY,
	                                         m->safe_pairs, &m->safe_joint_probability,
	                                         &m->safe_candidates);
	for (size_t i = 0; i < m->safe_pair_count; i++) {
		const struct analysis_safe_pair *s = &m->safe_pairs[i];
		m->cells[cell_index(m, s->a, s->b)].safe = true;
		m->cells[cell_index(m, s->b, s->a)].safe = true;
	}
	free(p);
}

/* Every cell against its victim's baseline, judged against the matrix's ROPE (opt's: see
 * analysis_matrix_load), then the joint safe list. */
static void compare_cells(struct analysis_matrix *m, const struct analysis_options *opt)
{
	m->rope_pct = opt->rope_pct;
	m->safe_slowdown = opt->rope_pct / 100;
	for (size_t i = 0; i < m->ncells; i++) {
		struct analysis_matrix_cell *c = &m->cells[i];
		c->p_safe = NAN;
		if (c->aggressor < 0)
			continue;
		const struct analysis_matrix_cell *base = analysis_matrix_cell(m, c->victim, -1);
		char err[ERR_LEN];
		/* A cell's dropped blocks are its own that did not pair; the dataset's measured blocks,
		 * or the baseline's, would count the blocks --precision gave to other cells. */
		if (analysis_compare_groups(&c->group, &base->group, ANALYSIS_DROPPED_OF_A, opt,
		                            &c->vs_baseline, &c->note, err, sizeof err) != 0) {
			c->note = xstrdup(err);
			continue;
		}
		c->compared = true;
		/* The conditions, as a run's comparison has them (compare.c): how many of the cell's
		 * and its baseline's trials shared their CPUs; none of those --exclude-contaminated
		 * left out did. */
		struct analysis_comparison *vs = &c->vs_baseline;
		size_t shared = c->group.contaminated_trials + base->group.contaminated_trials;
		vs->shared_known = c->group.contamination_known + base->group.contamination_known
		                   - (m->excluded_contaminated ? shared : 0);
		vs->shared_trials = m->excluded_contaminated ? 0 : shared;
	}
	choose_safe_pairs(m);
}

/* ---- sensitivity and contentiousness ---- */

static int compare_longs(const void *x, const void *y)
{
	long a = *(const long *)x, b = *(const long *)y;
	return (a > b) - (a < b);
}

/* The distinct block numbers of every cell's samples, ascending, in a new array (*n of them):
 * blocks come from samples.csv, so they are indexed by their position here, never by their
 * value (a hostile 2^60 must not size an array). */
static long *distinct_blocks(const struct analysis_matrix *m, long *n)
{
	size_t total = 0;
	for (size_t i = 0; i < m->ncells; i++)
		total += m->cells[i].group.n;
	long *blocks = xmalloc((total ? total : 1) * sizeof *blocks);
	size_t k = 0;
	for (size_t i = 0; i < m->ncells; i++)
		for (size_t j = 0; j < m->cells[i].group.n; j++)
			if (m->cells[i].group.blocks[j] >= 0)
				blocks[k++] = m->cells[i].group.blocks[j];
	qsort(blocks, k, sizeof *blocks, compare_longs);
	size_t unique = 0;
	for (size_t j = 0; j < k; j++)
		if (unique == 0 || blocks[j] != blocks[unique - 1])
			blocks[unique++] = blocks[j];
	*n = (long)unique;
	return blocks;
}

/* Each cell's value per block position (NAN where it has none): values[cell][position]. */
static double *values_by_block(const struct analysis_matrix *m, const long *blocks, long nblocks)
{
	size_t columns = nblocks > 0 ? (size_t)nblocks : 1;
	double *v = xreallocarray(NULL, m->ncells, columns * sizeof *v);
	for (size_t i = 0; i < m->ncells * columns; i++)
		v[i] = NAN;
	for (size_t i = 0; i < m->ncells; i++) {
		const struct analysis_group *g = &m->cells[i].group;
		for (size_t k = 0; k < g->n; k++) {
			const long *at = g->blocks[k] >= 0 && g->values_s[k] > 0
			                 ? bsearch(&g->blocks[k], blocks, (size_t)nblocks, sizeof *blocks,
			                           compare_longs) : NULL;
			if (at)
				v[i * columns + (size_t)(at - blocks)] = g->values_s[k];
		}
	}
	return v;
}

/* Kernel k's summary: as victim (its row) or as aggressor (its column). In every block where
 * each of its cells and their baselines has a value, A = the geometric mean of the cells'
 * values and B = that of their baselines' (for a row, the one baseline), so that log A - log B
 * is the mean of the cells' log ratios; A against B as any comparison. */
static void summarize(struct analysis_matrix *m, const double *vb, const long *blocks,
                      long nblocks, int k, bool as_victim, const struct analysis_options *opt,
                      struct analysis_matrix_summary *s)
{
	struct analysis_group a = { 0 }, b = { 0 };
	s->kernel = k;
	for (long blk = 0; blk < nblocks; blk++) {
		double la = 0, lb = 0;
		bool whole = true;
		for (size_t j = 0; j < m->nkernels && whole; j++) {
			int v = as_victim ? k : (int)j, g = as_victim ? (int)j : k;
			double cell = vb[cell_index(m, v, g) * (size_t)nblocks + (size_t)blk];
			double base = vb[cell_index(m, v, -1) * (size_t)nblocks + (size_t)blk];
			whole = !isnan(cell) && !isnan(base);
			la += log(cell);
			lb += log(base);
		}
		if (whole) {
			group_add(&a, exp(la / (double)m->nkernels), -1, blocks[blk]);
			group_add(&b, exp(lb / (double)m->nkernels), -1, blocks[blk]);
		}
	}
	a.name = xasprintf(as_victim ? "%s beside each (geometric mean)"
	                             : "each beside %s (geometric mean)", m->kernels[k]);
	b.name = xasprintf(as_victim ? "%s alone" : "each alone (geometric mean)", m->kernels[k]);
	s->blocks = a.n;
	char err[ERR_LEN];
	if (analysis_compare_groups(&a, &b, 0, opt, &s->c, &s->note, err, sizeof err) == 0)
		s->compared = true;
	else
		s->note = xstrdup(err);
	group_release(&a);
	group_release(&b);
}

static void summarize_all(struct analysis_matrix *m, const struct analysis_options *opt)
{
	long nblocks = 0;
	long *blocks = distinct_blocks(m, &nblocks);
	m->sensitivity = xcalloc(m->nkernels + 1, sizeof *m->sensitivity);
	m->contentiousness = xcalloc(m->nkernels + 1, sizeof *m->contentiousness);
	double *vb = values_by_block(m, blocks, nblocks);
	for (size_t k = 0; k < m->nkernels && m->placement; k++) {
		summarize(m, vb, blocks, nblocks, (int)k, true, opt, &m->sensitivity[k]);
		summarize(m, vb, blocks, nblocks, (int)k, false, opt, &m->contentiousness[k]);
	}
	free(vb);
	free(blocks);
}

/* The dataset's totals and warnings, kept for the report. */
static void take_totals(struct analysis_matrix *m, struct analysis_dataset *d)
{
	m->measured_blocks = d->measured_blocks;
	m->warmup_trials = d->warmup_trials;
	m->failed_trials = d->failed_trials;
	m->excluded_contaminated = d->excluded_contaminated;
	for (size_t i = 0; i < d->group_count; i++)
		m->contaminated_trials += d->groups[i].contaminated_trials;
	m->warnings = d->warnings;
	m->warning_count = d->warning_count;
	d->warnings = NULL;
	d->warning_count = 0;
}

struct analysis_matrix *analysis_matrix_load(struct results_folder *f,
                                             const char *const *kernels, size_t nkernels,
                                             bool exclude_contaminated,
                                             const struct analysis_options *opt, char *err,
                                             size_t err_size)
{
	struct analysis_dataset *d = analysis_load_folder(
		f, &(struct analysis_take){ .exclude_contaminated = exclude_contaminated }, err,
		err_size);
	if (!d)
		return NULL;
	/* The cells and summaries are judged against the matrix's ROPE: the one given, else the
	 * default safe bound's (matrix.h). */
	struct analysis_options judged = *opt;
	if (isnan(judged.rope_pct))
		judged.rope_pct = 100 * ANALYSIS_MATRIX_SAFE_SLOWDOWN;
	opt = &judged;
	const struct samples_table *t = f->samples;
	struct analysis_matrix *m = xcalloc(1, sizeof *m);
	int *map_of = xcalloc(t->workload_count, sizeof *map_of);
	int rc = -1;
	if (t->workload_count > ANALYSIS_MATRIX_MAX_KERNELS) {
		set_error(err, err_size, "%s/samples.csv: more than %d kernel names: not a matrix "
		          "smtbench wrote", f->dir, ANALYSIS_MATRIX_MAX_KERNELS);
	} else if (t->workload_count == 0) {
		set_error(err, err_size, "%s/samples.csv holds no trial of a kernel: not a matrix",
		          f->dir);
	} else {
		take_totals(m, d);
		order_kernels(m, t, kernels, nkernels, map_of);
		make_cells(m);
		fill_cells(m, d, t, map_of);
		compare_cells(m, opt);
		summarize_all(m, opt);
		rc = 0;
	}
	free(map_of);
	analysis_dataset_free(&d);
	if (rc < 0)
		analysis_matrix_free(&m);
	return m;
}

void analysis_matrix_free(struct analysis_matrix **p)
{
	if (!p || !*p)
		return;
	struct analysis_matrix *m = *p;
	/* A comparison not made is empty (analysis_compare_groups): releasing it frees nothing. */
	for (size_t i = 0; i < m->ncells; i++) {
		group_release(&m->cells[i].group);
		analysis_comparison_release(&m->cells[i].vs_baseline);
		free(m->cells[i].note);
	}
	free(m->cells);
	free(m->safe_pairs);
	for (size_t k = 0; m->sensitivity && k < m->nkernels; k++)
		for (int as_victim = 0; as_victim < 2; as_victim++) {
			struct analysis_matrix_summary *s = as_victim ? &m->sensitivity[k]
			                                              : &m->contentiousness[k];
			analysis_comparison_release(&s->c);
			free(s->note);
		}
	free(m->sensitivity);
	free(m->contentiousness);
	strings_free(m->kernels); /* NULL-terminated: room for every name of the file, and one */
	strings_release(&m->warnings, &m->warning_count);
	free(m->placement);
	free(m);
	*p = NULL;
}
