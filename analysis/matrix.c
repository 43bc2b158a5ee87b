/*
 * matrix.c — the interference matrix's cells from a results folder, and their comparisons
 * (see matrix.h). The samples are the loader's (samples_load.c: damaged lines, failed and
 * contaminated trials as for every folder); a second, light pass over samples.csv reads which
 * kernels each trial ran (its role-a and role-b workloads), which the dataset does not keep.
 */
#include "analysis/matrix.h"

#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/internal.h"
#include "common/fileio.h"
#include "common/text.h"

/* What a trial ran, from its rows: kernel indexes (-1 none) and whether a measured row failed. */
struct trial_kernels {
	short victim, aggressor;
	bool failed, warmup, seen;
};

struct cell_map {
	struct trial_kernels *trials;
	size_t ntrials, cap;
	char **names;              /* raw names, as in the file */
	size_t nnames;
};

static void cell_map_release(struct cell_map *m)
{
	free(m->trials);
	for (size_t i = 0; i < m->nnames; i++)
		free(m->names[i]);
	free(m->names);
}

/* The index of kernel name, added when new; -1 on out of memory or too many names. */
static int name_index(struct cell_map *m, const char *name)
{
	for (size_t i = 0; i < m->nnames; i++)
		if (!strcmp(m->names[i], name))
			return (int)i;
	if (m->nnames >= ANALYSIS_MATRIX_MAX_KERNELS)
		return -1;
	char **grown = realloc(m->names, (m->nnames + 1) * sizeof *grown);
	if (!grown)
		return -1;
	m->names = grown;
	if (!(m->names[m->nnames] = strdup(name)))
		return -1;
	return (int)m->nnames++;
}

static struct trial_kernels *trial_slot(struct cell_map *m, long trial)
{
	if (trial < 0 || trial > 100000000L * (ANALYSIS_MATRIX_MAX_KERNELS + 1))
		return NULL;
	if ((size_t)trial >= m->cap) {
		size_t cap = m->cap ? m->cap : 1024;
		while (cap <= (size_t)trial)
			cap *= 2;
		struct trial_kernels *grown = realloc(m->trials, cap * sizeof *grown);
		if (!grown)
			return NULL;
		memset(grown + m->cap, 0, (cap - m->cap) * sizeof *grown);
		m->trials = grown;
		m->cap = cap;
	}
	if ((size_t)trial >= m->ntrials)
		m->ntrials = (size_t)trial + 1;
	struct trial_kernels *t = &m->trials[trial];
	if (!t->seen)
		*t = (struct trial_kernels){ .victim = -1, .aggressor = -1, .seen = true };
	return t;
}

/* One row of samples.csv into the map (a row that does not parse is the loader's to warn of). */
static int map_row(struct cell_map *m, char **f, const int col[SAMPLES_COLUMN_COUNT])
{
	char *end;
	long trial = strtol(f[col[SAMPLES_COL_TRIAL]], &end, 10);
	if (*end || end == f[col[SAMPLES_COL_TRIAL]])
		return 0;
	const char *role = f[col[SAMPLES_COL_ROLE]];
	const char *work = f[col[SAMPLES_COL_WORKLOAD]];
	struct trial_kernels *t = trial_slot(m, trial);
	if (!t)
		return -1;
	t->warmup = !strcmp(f[col[SAMPLES_COL_WARMUP]], "1");
	if (strcmp(f[col[SAMPLES_COL_STATUS]], "ok") != 0)
		t->failed = true;
	if (!*work || (strcmp(role, "a") && strcmp(role, "b")))
		return 0;
	int k = name_index(m, work);
	if (k < 0)
		return -1;
	if (!strcmp(role, "a"))
		t->victim = (short)k;
	else
		t->aggressor = (short)k;
	return 0;
}

/* Reads each trial's kernels. -1 with err. */
static int read_cell_map(const char *dir, struct cell_map *m, char *err, size_t err_size)
{
	char *path = text_printf("%s/samples.csv", dir);
	if (!path) {
		set_error(err, err_size, "out of memory");
		return -1;
	}
	int fd = fileio_open_regular(path, O_RDONLY, err, err_size);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		free(path);
		return -1;
	}
	char *line = NULL, *fields[SAMPLES_COLUMN_COUNT + 8];
	size_t cap = 0, nheader = 0;
	ssize_t len;
	int col[SAMPLES_COLUMN_COUNT], rc = 0;
	for (int c = 0; c < SAMPLES_COLUMN_COUNT; c++)
		col[c] = -1;
	if ((len = getline(&line, &cap, f)) > 0) {
		line[strcspn(line, "\r\n")] = '\0';
		nheader = samples_csv_split(line, fields, SAMPLES_COLUMN_COUNT + 8);
		for (size_t i = 0; i < nheader && i < SAMPLES_COLUMN_COUNT + 8; i++)
			for (int c = 0; c < SAMPLES_COLUMN_COUNT; c++)
				if (!strcmp(fields[i], samples_csv_names[c]) && col[c] < 0)
					col[c] = (int)i;
	}
	static const enum samples_column needed[] = { SAMPLES_COL_TRIAL, SAMPLES_COL_WARMUP,
	                                              SAMPLES_COL_ROLE, SAMPLES_COL_WORKLOAD,
	                                              SAMPLES_COL_STATUS };
	for (size_t i = 0; i < sizeof needed / sizeof needed[0]; i++)
		if (col[needed[i]] < 0) {
			set_error(err, err_size, "%s: no %s column: not a matrix's samples", path,
			          samples_csv_names[needed[i]]);
			rc = -1;
		}
	while (rc == 0 && (len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] != '\n')
			break; /* a torn last line: the loader skips it too */
		line[strcspn(line, "\r\n")] = '\0';
		if (samples_csv_split(line, fields, SAMPLES_COLUMN_COUNT + 8) != nheader)
			continue;
		if (map_row(m, fields, col) < 0) {
			set_error(err, err_size, "%s: out of memory, or more than %d kernel names", path,
			          ANALYSIS_MATRIX_MAX_KERNELS);
			rc = -1;
		}
	}
	free(line);
	fclose(f);
	free(path);
	return rc;
}

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

static int group_add(struct analysis_group *g, double value, long trial, long block)
{
	size_t n = g->n + 1;
	double *v = realloc(g->values_s, n * sizeof *v);
	if (v)
		g->values_s = v;
	long *t = realloc(g->trials, n * sizeof *t);
	if (t)
		g->trials = t;
	long *b = realloc(g->blocks, n * sizeof *b);
	if (b)
		g->blocks = b;
	if (!v || !t || !b)
		return -1;
	g->values_s[g->n] = value;
	g->trials[g->n] = trial;
	g->blocks[g->n] = block;
	g->n = n;
	return 0;
}

static void group_release(struct analysis_group *g)
{
	free(g->name);
	free(g->values_s);
	free(g->trials);
	free(g->blocks);
	memset(g, 0, sizeof *g);
}

/* The kernels: those asked for, then the file's others, each escaped for output; map_of[i] is
 * the matrix's index of the file's name i. -1 on out of memory. */
static int order_kernels(struct analysis_matrix *m, const struct cell_map *map,
                         const char *const *kernels, size_t nkernels, int *map_of)
{
	m->kernels = calloc(map->nnames + nkernels + 1, sizeof *m->kernels);
	if (!m->kernels)
		return -1;
	for (size_t i = 0; i < map->nnames; i++)
		map_of[i] = -1;
	for (size_t k = 0; k < nkernels; k++)
		for (size_t i = 0; i < map->nnames; i++)
			if (map_of[i] < 0 && !strcmp(map->names[i], kernels[k]))
				map_of[i] = (int)m->nkernels++;
	for (size_t i = 0; i < map->nnames; i++)
		if (map_of[i] < 0)
			map_of[i] = (int)m->nkernels++;
	for (size_t i = 0; i < map->nnames; i++)
		if (!(m->kernels[map_of[i]] = text_escape(map->names[i])))
			return -1;
	return 0;
}

static int make_cells(struct analysis_matrix *m)
{
	size_t n = m->nkernels * (m->nkernels + 1);
	m->cells = calloc(n ? n : 1, sizeof *m->cells);
	if (!m->cells)
		return -1;
	m->ncells = n;
	for (size_t v = 0; v < m->nkernels; v++)
		for (int g = -1; g < (int)m->nkernels; g++) {
			struct analysis_matrix_cell *c = &m->cells[cell_index(m, (int)v, g)];
			c->victim = (int)v;
			c->aggressor = g;
			c->group.name = g < 0 ? text_printf("%s alone", m->kernels[v])
			                      : text_printf("%s beside %s", m->kernels[v], m->kernels[g]);
			if (!c->group.name)
				return -1;
		}
	return 0;
}

/* The dataset's measured samples into their cells. -1 on out of memory. */
static int fill_cells(struct analysis_matrix *m, const struct analysis_dataset *d,
                      const struct cell_map *map, const int *map_of)
{
	for (size_t i = 0; i < d->point_count; i++) {
		const struct analysis_point *p = &d->points[i];
		if (p->warmup || p->trial < 0 || (size_t)p->trial >= map->ntrials)
			continue;
		const struct trial_kernels *t = &map->trials[p->trial];
		const char *placement = d->groups[p->group].name;
		bool alone = !strcmp(placement, "solo");
		if (!t->seen || t->victim < 0 || (!alone && t->aggressor < 0))
			continue;
		if (!alone && !m->placement && !(m->placement = strdup(placement)))
			return -1;
		if (!alone && strcmp(placement, m->placement) != 0)
			continue; /* a second pairing placement: not a matrix smtbench wrote */
		int v = map_of[t->victim], g = alone ? -1 : map_of[t->aggressor];
		if (group_add(&m->cells[cell_index(m, v, g)].group, p->value_s, p->trial, p->block) < 0)
			return -1;
	}
	for (size_t t = 0; t < map->ntrials; t++) {
		const struct trial_kernels *k = &map->trials[t];
		if (!k->seen || k->warmup || !k->failed || k->victim < 0)
			continue;
		int g = k->aggressor < 0 ? -1 : map_of[k->aggressor];
		m->cells[cell_index(m, map_of[k->victim], g)].failed_trials++;
	}
	return 0;
}

double analysis_matrix_cell_p_safe(const struct analysis_comparison *c, double bound)
{
	if (c->design != ANALYSIS_DESIGN_PAIRED || !analysis_comparison_settled(c)
	    || (c->verdict != ANALYSIS_VERDICT_SAME && c->verdict != ANALYSIS_VERDICT_FASTER))
		return NAN;
	return analysis_log_ratio_cdf(c, log1p(bound));
}

static int compare_pairs_by_probability(const void *x, const void *y)
{
	const struct analysis_safe_pair *a = x, *b = y;
	if (a->probability != b->probability)
		return a->probability > b->probability ? -1 : 1;
	return a->a != b->a ? (a->a > b->a) - (a->a < b->a) : (a->b > b->b) - (a->b < b->b);
}

static int compare_pairs_by_kernel(const void *x, const void *y)
{
	const struct analysis_safe_pair *a = x, *b = y;
	return a->a != b->a ? (a->a > b->a) - (a->a < b->a) : (a->b > b->b) - (a->b < b->b);
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

/* The joint safe list of the compared cells, into m and the cells' safe flags. -1 on out of
 * memory. */
static int choose_safe_pairs(struct analysis_matrix *m)
{
	size_t k = m->nkernels;
	double *p = malloc((k ? k * k : 1) * sizeof *p);
	m->safe_pairs = malloc((k * (k + 1) / 2 + 1) * sizeof *m->safe_pairs);
	if (!p || !m->safe_pairs) {
		free(p);
		return -1;
	}
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
	return 0;
}

/* Every cell against its victim's baseline, judged against the matrix's ROPE (opt's: see
 * analysis_matrix_load), then the joint safe list. -1 on out of memory. */
static int compare_cells(struct analysis_matrix *m, const struct analysis_options *opt)
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
			if (!(c->note = strdup(err)))
				return -1;
			continue;
		}
		c->compared = true;
	}
	return choose_safe_pairs(m);
}

/* ---- sensitivity and contentiousness ---- */

static int compare_longs(const void *x, const void *y)
{
	long a = *(const long *)x, b = *(const long *)y;
	return (a > b) - (a < b);
}

/* The distinct block numbers of every cell's samples, ascending, in a new array (*n of them):
 * blocks come from samples.csv, so they are indexed by their position here, never by their
 * value (a hostile 2^60 must not size an array). NULL on out of memory. */
static long *distinct_blocks(const struct analysis_matrix *m, long *n)
{
	size_t total = 0;
	for (size_t i = 0; i < m->ncells; i++)
		total += m->cells[i].group.n;
	long *blocks = malloc((total ? total : 1) * sizeof *blocks);
	if (!blocks)
		return NULL;
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
	if (m->ncells > SIZE_MAX / sizeof(double) / columns)
		return NULL;
	double *v = malloc(m->ncells * columns * sizeof *v);
	if (!v)
		return NULL;
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
static int summarize(struct analysis_matrix *m, const double *vb, const long *blocks,
                     long nblocks, int k, bool as_victim, const struct analysis_options *opt,
                     struct analysis_matrix_summary *s)
{
	struct analysis_group a = { 0 }, b = { 0 };
	s->kernel = k;
	int rc = 0;
	for (long blk = 0; blk < nblocks && rc == 0; blk++) {
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
		if (whole)
			rc = group_add(&a, exp(la / (double)m->nkernels), -1, blocks[blk]) < 0
			     || group_add(&b, exp(lb / (double)m->nkernels), -1, blocks[blk]) < 0 ? -1 : 0;
	}
	a.name = text_printf(as_victim ? "%s beside each (geometric mean)"
	                               : "each beside %s (geometric mean)", m->kernels[k]);
	b.name = text_printf(as_victim ? "%s alone" : "each alone (geometric mean)", m->kernels[k]);
	if (rc < 0 || !a.name || !b.name) {
		rc = -1;
		goto done;
	}
	s->blocks = a.n;
	char err[ERR_LEN];
	if (analysis_compare_groups(&a, &b, 0, opt, &s->c, &s->note, err, sizeof err) == 0)
		s->compared = true;
	else if (!(s->note = strdup(err)))
		rc = -1;
done:
	group_release(&a);
	group_release(&b);
	return rc;
}

static int summarize_all(struct analysis_matrix *m, const struct analysis_options *opt)
{
	long nblocks = 0;
	long *blocks = distinct_blocks(m, &nblocks);
	m->sensitivity = calloc(m->nkernels + 1, sizeof *m->sensitivity);
	m->contentiousness = calloc(m->nkernels + 1, sizeof *m->contentiousness);
	double *vb = blocks ? values_by_block(m, blocks, nblocks) : NULL;
	int rc = m->sensitivity && m->contentiousness && vb ? 0 : -1;
	for (size_t k = 0; k < m->nkernels && rc == 0 && m->placement; k++)
		rc = summarize(m, vb, blocks, nblocks, (int)k, true, opt, &m->sensitivity[k]) < 0
		     || summarize(m, vb, blocks, nblocks, (int)k, false, opt,
		                  &m->contentiousness[k]) < 0 ? -1 : 0;
	free(vb);
	free(blocks);
	return rc;
}

/* The dataset's totals and warnings, kept for the report. -1 on out of memory. */
static int take_totals(struct analysis_matrix *m, struct analysis_dataset *d)
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
	m->source = strdup(d->source);
	return m->source ? 0 : -1;
}

struct analysis_matrix *analysis_matrix_load(const char *dir, const char *const *kernels,
                                             size_t nkernels, bool exclude_contaminated,
                                             const struct analysis_options *opt, char *err,
                                             size_t err_size)
{
	struct analysis_dataset *d = analysis_load_folder_excluding(dir, ANALYSIS_UNIT_TRIAL,
	                                                            exclude_contaminated, err,
	                                                            err_size);
	if (!d)
		return NULL;
	/* The cells and summaries are judged against the matrix's ROPE: the one given, else the
	 * default safe bound's (matrix.h). */
	struct analysis_options judged = *opt;
	if (isnan(judged.rope_pct))
		judged.rope_pct = 100 * ANALYSIS_MATRIX_SAFE_SLOWDOWN;
	opt = &judged;
	struct cell_map map = { 0 };
	struct analysis_matrix *m = calloc(1, sizeof *m);
	int *map_of = NULL;
	if (!m || read_cell_map(dir, &map, err, err_size) != 0)
		goto fail;
	map_of = calloc(map.nnames + 1, sizeof *map_of);
	if (!map_of || take_totals(m, d) != 0
	    || order_kernels(m, &map, kernels, nkernels, map_of) != 0 || make_cells(m) != 0
	    || fill_cells(m, d, &map, map_of) != 0 || compare_cells(m, opt) != 0
	    || summarize_all(m, opt) != 0) {
		set_error(err, err_size, "%s: out of memory", dir);
		goto fail;
	}
	if (m->nkernels == 0) {
		set_error(err, err_size, "%s/samples.csv holds no trial of a kernel: not a matrix", dir);
		goto fail;
	}
	free(map_of);
	cell_map_release(&map);
	analysis_dataset_free(&d);
	return m;
fail:
	free(map_of);
	cell_map_release(&map);
	analysis_dataset_free(&d);
	analysis_matrix_free(&m);
	return NULL;
}

static void summary_release(struct analysis_matrix_summary *s)
{
	if (s->compared)
		analysis_comparison_release(&s->c);
	free(s->note);
}

void analysis_matrix_free(struct analysis_matrix **p)
{
	if (!p || !*p)
		return;
	struct analysis_matrix *m = *p;
	for (size_t i = 0; i < m->ncells; i++) {
		group_release(&m->cells[i].group);
		if (m->cells[i].compared)
			analysis_comparison_release(&m->cells[i].vs_baseline);
		free(m->cells[i].note);
	}
	free(m->cells);
	free(m->safe_pairs);
	for (size_t k = 0; k < m->nkernels; k++) {
		if (m->sensitivity)
			summary_release(&m->sensitivity[k]);
		if (m->contentiousness)
			summary_release(&m->contentiousness[k]);
	}
	free(m->sensitivity);
	free(m->contentiousness);
	for (size_t k = 0; k < m->nkernels; k++)
		free(m->kernels[k]);
	free(m->kernels);
	for (size_t i = 0; i < m->warning_count; i++)
		free(m->warnings[i]);
	free(m->warnings);
	free(m->placement);
	free(m->source);
	free(m);
	*p = NULL;
}
