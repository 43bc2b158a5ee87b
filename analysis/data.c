/*
 * data.c — datasets: a results folder's samples.csv (the contract in results/README.md), two
 * plain files of numbers, or two arrays. Every sample keeps its run-order index, its group and
 * whether it was a warm-up; outliers are flagged here (robust z within the group), never dropped.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/internal.h"

/* The placements in their stable order; other names found in a file follow them. */
static const char *const known_placements[] = {
	"solo", "same-pu", "sibling", "non-sibling", "cross-package",
};
enum { KNOWN_PLACEMENTS = sizeof known_placements / sizeof known_placements[0] };

/* A growing dataset under construction. */
struct builder {
	struct analysis_dataset *data;
	size_t point_cap, warning_cap;
	size_t *group_cap;
	int *point_sample; /* for each point: its index in its group's values, or -1 (warm-up) */
};

static struct analysis_dataset *dataset_new(const char *source, bool from_folder,
                                            enum analysis_unit unit)
{
	struct analysis_dataset *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	d->source = strdup(source);
	d->from_folder = from_folder;
	d->unit = unit;
	if (!d->source) {
		free(d);
		return NULL;
	}
	return d;
}

void analysis_dataset_free(struct analysis_dataset **p)
{
	if (!p || !*p)
		return;
	struct analysis_dataset *d = *p;
	for (size_t i = 0; i < d->group_count; i++) {
		free(d->groups[i].name);
		free(d->groups[i].values_s);
		free(d->groups[i].trials);
	}
	free(d->groups);
	free(d->points);
	for (size_t i = 0; i < d->warning_count; i++)
		free(d->warnings[i]);
	free(d->warnings);
	free(d->source);
	free(d);
	*p = NULL;
}

int analysis_dataset_find(const struct analysis_dataset *data, const char *name)
{
	for (size_t i = 0; i < data->group_count; i++)
		if (!strcmp(data->groups[i].name, name))
			return (int)i;
	return -1;
}

static void builder_release(struct builder *b)
{
	free(b->group_cap);
	free(b->point_sample);
	b->group_cap = NULL;
	b->point_sample = NULL;
}

static int grow(void **array, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	size_t cap_new = *cap ? *cap * 2 : 16;
	while (cap_new < need)
		cap_new *= 2;
	void *p = realloc(*array, cap_new * elem);
	if (!p)
		return -1;
	*array = p;
	*cap = cap_new;
	return 0;
}

static int builder_add_group(struct builder *b, const char *name)
{
	struct analysis_dataset *d = b->data;
	struct analysis_group *groups = realloc(d->groups, (d->group_count + 1) * sizeof *groups);
	if (!groups)
		return -1;
	d->groups = groups;
	size_t *caps = realloc(b->group_cap, (d->group_count + 1) * sizeof *caps);
	if (!caps)
		return -1;
	b->group_cap = caps;
	struct analysis_group *g = &d->groups[d->group_count];
	memset(g, 0, sizeof *g);
	g->name = strdup(name);
	if (!g->name)
		return -1;
	b->group_cap[d->group_count] = 0;
	return (int)d->group_count++;
}

/* Adds a sample (or a warm-up point) in run order. */
static int builder_add_sample(struct builder *b, int group, long trial, double value, bool warmup)
{
	struct analysis_dataset *d = b->data;
	size_t cap_before = b->point_cap;
	if (grow((void **)&d->points, &b->point_cap, d->point_count + 1, sizeof *d->points) < 0)
		return -1;
	if (b->point_cap != cap_before) {
		int *ps = realloc(b->point_sample, b->point_cap * sizeof *ps);
		if (!ps)
			return -1;
		b->point_sample = ps;
	}
	struct analysis_point *pt = &d->points[d->point_count];
	pt->trial = trial;
	pt->group = group;
	pt->value_s = value;
	pt->warmup = warmup;
	pt->outlier = false;
	pt->line = 0;
	b->point_sample[d->point_count] = -1;
	if (!warmup) {
		struct analysis_group *g = &d->groups[group];
		size_t cap = b->group_cap[group];
		if (grow((void **)&g->values_s, &cap, g->n + 1, sizeof *g->values_s) < 0)
			return -1;
		size_t cap2 = b->group_cap[group];
		if (grow((void **)&g->trials, &cap2, g->n + 1, sizeof *g->trials) < 0)
			return -1;
		b->group_cap[group] = cap;
		g->values_s[g->n] = value;
		g->trials[g->n] = trial;
		b->point_sample[d->point_count] = (int)g->n;
		g->n++;
	}
	d->point_count++;
	return 0;
}

static int builder_warn(struct builder *b, char *message)
{
	struct analysis_dataset *d = b->data;
	if (!message || grow((void **)&d->warnings, &b->warning_cap, d->warning_count + 1,
	                     sizeof *d->warnings) < 0) {
		free(message);
		return -1;
	}
	d->warnings[d->warning_count++] = message;
	return 0;
}

/* Flags each group's outliers on its points. */
static int builder_flag_outliers(struct builder *b, double resolution)
{
	struct analysis_dataset *d = b->data;
	for (size_t gi = 0; gi < d->group_count; gi++) {
		struct analysis_group *g = &d->groups[gi];
		if (g->n == 0)
			continue;
		bool *flags = malloc(g->n * sizeof *flags);
		if (!flags)
			return -1;
		robust_outliers(g->values_s, g->n, resolution, flags);
		for (size_t i = 0; i < d->point_count; i++)
			if (d->points[i].group == (int)gi && b->point_sample[i] >= 0)
				d->points[i].outlier = flags[b->point_sample[i]];
		free(flags);
	}
	return 0;
}

/* ---- plain files ---------------------------------------------------------------------- */

static int check_time(double v, const char *where, char *err, size_t err_size)
{
	if (isnan(v)) {
		analysis_set_error(err, err_size, "%s: NaN is not a time", where);
		return -1;
	}
	if (isinf(v)) {
		analysis_set_error(err, err_size, "%s: an infinite time", where);
		return -1;
	}
	if (v < 0) {
		analysis_set_error(err, err_size, "%s: negative time %g; times are >= 0 seconds",
		                   where, v);
		return -1;
	}
	if (v > ANALYSIS_TIME_MAX_S) {
		analysis_set_error(err, err_size, "%s: time %g s is too large; times are at most "
		                   "%g seconds", where, v, ANALYSIS_TIME_MAX_S);
		return -1;
	}
	return 0;
}

static int load_numbers(struct builder *b, int group, const char *path, char *err, size_t err_size)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		analysis_set_error(err, err_size, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	char *line = NULL;
	size_t line_cap = 0;
	long line_no = 0, index = 0;
	int rc = 0;
	ssize_t len;
	while ((len = getline(&line, &line_cap, f)) >= 0) {
		line_no++;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		char *start = line;
		while (isspace((unsigned char)*start))
			start++;
		char *end = start + strlen(start);
		while (end > start && isspace((unsigned char)end[-1]))
			*--end = '\0';
		if (!*start)
			continue;
		char where[600];
		snprintf(where, sizeof where, "%s:%ld", path, line_no);
		errno = 0;
		char *rest;
		double v = strtod(start, &rest);
		/* Decimal only: strtod also reads hexadecimal ("0x10" = 16), which no timer writes. */
		if (rest == start || *rest || strpbrk(start, "xX")) {
			analysis_set_error(err, err_size, "%s: '%.40s' is not a number (one time in "
			                   "seconds per line, in decimal; # starts a comment)", where, start);
			rc = -1;
			break;
		}
		if (errno == ERANGE) {
			analysis_set_error(err, err_size, "%s: '%.40s' is out of range (it %s); give a "
			                   "time in seconds between 1e-300 and 1e100", where, start,
			                   fabs(v) >= 1.0 ? "overflows" : "underflows to 0");
			rc = -1;
			break;
		}
		if (check_time(v, where, err, err_size) < 0) {
			rc = -1;
			break;
		}
		if (builder_add_sample(b, group, index++, v, false) < 0) {
			analysis_set_error(err, err_size, "%s: out of memory", path);
			rc = -1;
			break;
		}
		b->data->points[b->data->point_count - 1].line = line_no;
	}
	if (rc == 0 && ferror(f)) {
		analysis_set_error(err, err_size, "%s: read error: %s", path, strerror(errno));
		rc = -1;
	}
	if (rc == 0 && b->data->groups[group].n < 2) {
		analysis_set_error(err, err_size, "%s: %zu sample(s); at least 2 are needed",
		                   path, b->data->groups[group].n);
		rc = -1;
	}
	free(line);
	fclose(f);
	return rc;
}

struct analysis_dataset *analysis_load_files(const char *path_a, const char *path_b,
                                             char *err, size_t err_size)
{
	char *source = analysis_strdup_printf("%s and %s", path_a, path_b);
	struct builder b = { 0 };
	b.data = source ? dataset_new(source, false, ANALYSIS_UNIT_TRIAL) : NULL;
	free(source);
	if (!b.data) {
		analysis_set_error(err, err_size, "out of memory");
		return NULL;
	}
	const char *paths[2] = { path_a, path_b };
	for (int k = 0; k < 2; k++) {
		int group = builder_add_group(&b, paths[k]);
		if (group < 0) {
			analysis_set_error(err, err_size, "out of memory");
			goto fail;
		}
		if (load_numbers(&b, group, paths[k], err, err_size) < 0)
			goto fail;
	}
	if (builder_flag_outliers(&b, 0.0) < 0) {
		analysis_set_error(err, err_size, "out of memory");
		goto fail;
	}
	builder_release(&b);
	return b.data;
fail:
	builder_release(&b);
	analysis_dataset_free(&b.data);
	return NULL;
}

struct analysis_dataset *analysis_dataset_from_arrays(const char *name_a, const double *a,
                                                      size_t na, const char *name_b,
                                                      const double *b_values, size_t nb,
                                                      char *err, size_t err_size)
{
	char *source = analysis_strdup_printf("%s and %s", name_a, name_b);
	struct builder b = { 0 };
	b.data = source ? dataset_new(source, false, ANALYSIS_UNIT_TRIAL) : NULL;
	free(source);
	if (!b.data) {
		analysis_set_error(err, err_size, "out of memory");
		return NULL;
	}
	const char *names[2] = { name_a, name_b };
	const double *values[2] = { a, b_values };
	size_t counts[2] = { na, nb };
	for (int k = 0; k < 2; k++) {
		if (counts[k] < 2) {
			analysis_set_error(err, err_size, "%s: %zu sample(s); at least 2 are needed",
			                   names[k], counts[k]);
			goto fail;
		}
		int group = builder_add_group(&b, names[k]);
		if (group < 0)
			goto oom;
		/* Reserve once: a million samples should not mean twenty reallocations. */
		struct analysis_group *g = &b.data->groups[group];
		g->values_s = malloc(counts[k] * sizeof *g->values_s);
		g->trials = malloc(counts[k] * sizeof *g->trials);
		if (!g->values_s || !g->trials)
			goto oom;
		b.group_cap[group] = counts[k];
		if (grow((void **)&b.data->points, &b.point_cap, na + nb, sizeof *b.data->points) < 0)
			goto oom;
		int *ps = realloc(b.point_sample, b.point_cap * sizeof *ps);
		if (!ps)
			goto oom;
		b.point_sample = ps;
		for (size_t i = 0; i < counts[k]; i++) {
			char where[300];
			snprintf(where, sizeof where, "%s[%zu]", names[k], i);
			if (check_time(values[k][i], where, err, err_size) < 0)
				goto fail;
			if (builder_add_sample(&b, group, (long)i, values[k][i], false) < 0)
				goto oom;
		}
	}
	if (builder_flag_outliers(&b, 0.0) < 0)
		goto oom;
	builder_release(&b);
	return b.data;
oom:
	analysis_set_error(err, err_size, "out of memory");
fail:
	builder_release(&b);
	analysis_dataset_free(&b.data);
	return NULL;
}

/* ---- results folder ------------------------------------------------------------------- */

enum column {
	COL_TRIAL, COL_WARMUP, COL_PLACEMENT, COL_ROLE, COL_STATUS, COL_UTIME,
	COL_PROC, COL_STIME, COL_WALL, COL_OVERLAP, COLUMN_COUNT
};
static const char *const column_names[COLUMN_COUNT] = {
	"trial", "warmup", "placement", "role", "status", "utime_s",
	"proc", "stime_s", "wall_s", "overlap",
};
enum { REQUIRED_COLUMNS = COL_UTIME + 1 };

struct csv_row {
	long trial;
	long proc;
	long line_no;
	bool warmup;
	bool role_a;
	bool ok;
	int placement;   /* index into the placement names */
	double utime, stime, wall, overlap; /* NAN when empty */
};

static int compare_rows(const void *pa, const void *pb)
{
	const struct csv_row *a = pa, *b = pb;
	if (a->trial != b->trial)
		return a->trial < b->trial ? -1 : 1;
	if (a->proc != b->proc)
		return a->proc < b->proc ? -1 : 1;
	return (a->line_no > b->line_no) - (a->line_no < b->line_no);
}

/* Splits a line at commas in place; returns the field count (at most max). */
static size_t split_fields(char *line, char **fields, size_t max)
{
	size_t count = 0;
	char *p = line;
	for (;;) {
		if (count < max)
			fields[count] = p;
		count++;
		char *comma = strchr(p, ',');
		if (!comma)
			break;
		*comma = '\0';
		p = comma + 1;
	}
	return count;
}

static int parse_long_field(const char *text, long *out)
{
	if (!*text)
		return -1;
	char *end;
	errno = 0;
	long v = strtol(text, &end, 10);
	if (*end || errno)
		return -1;
	*out = v;
	return 0;
}

/* An optional non-negative finite number: empty → NAN; returns -1 for bad text. */
static int parse_optional_seconds(const char *text, double *out)
{
	if (!*text) {
		*out = NAN;
		return 0;
	}
	char *end;
	double v = strtod(text, &end);
	if (end == text || *end || !isfinite(v) || v < 0)
		return -1;
	*out = v;
	return 0;
}

/* Index of a placement name in names[], adding it when new; -1 on out of memory. */
static int placement_index(char ***names, size_t *count, const char *name)
{
	for (size_t i = 0; i < *count; i++)
		if (!strcmp((*names)[i], name))
			return (int)i;
	char **grown = realloc(*names, (*count + 1) * sizeof *grown);
	if (!grown)
		return -1;
	*names = grown;
	grown[*count] = strdup(name);
	if (!grown[*count])
		return -1;
	return (int)(*count)++;
}

static int rank_of_placement(const char *name)
{
	for (int i = 0; i < KNOWN_PLACEMENTS; i++)
		if (!strcmp(name, known_placements[i]))
			return i;
	return KNOWN_PLACEMENTS;
}

struct analysis_dataset *analysis_load_folder(const char *dir, enum analysis_unit unit,
                                              char *err, size_t err_size)
{
	char *path = analysis_strdup_printf("%s/samples.csv", dir);
	if (!path) {
		analysis_set_error(err, err_size, "out of memory");
		return NULL;
	}
	FILE *f = fopen(path, "r");
	if (!f) {
		analysis_set_error(err, err_size, "%s: cannot open: %s (is %s a results folder?)",
		                   path, strerror(errno), dir);
		free(path);
		return NULL;
	}
	struct builder b = { 0 };
	struct csv_row *rows = NULL;
	size_t row_count = 0, row_cap = 0;
	char **names = NULL;
	size_t name_count = 0;
	char *line = NULL, **fields = NULL;
	size_t line_cap = 0;
	int *group_of_name = NULL;
	size_t *rows_per_trial = NULL;
	bool ok = false;

	b.data = dataset_new(dir, true, unit);
	if (!b.data)
		goto oom;
	ssize_t len = getline(&line, &line_cap, f);
	if (len <= 0) {
		analysis_set_error(err, err_size, "%s: empty file: no header line", path);
		goto done;
	}
	line[strcspn(line, "\r\n")] = '\0';
	size_t header_fields = 1;
	for (const char *c = line; *c; c++)
		header_fields += *c == ',';
	fields = malloc(header_fields * sizeof *fields);
	if (!fields)
		goto oom;
	split_fields(line, fields, header_fields);
	int column[COLUMN_COUNT];
	for (int c = 0; c < COLUMN_COUNT; c++) {
		column[c] = -1;
		for (size_t i = 0; i < header_fields; i++)
			if (!strcmp(fields[i], column_names[c]))
				column[c] = (int)i;
		if (c < REQUIRED_COLUMNS && column[c] < 0) {
			analysis_set_error(err, err_size, "%s:1: the header has no '%s' column "
			                   "(see results/README.md)", path, column_names[c]);
			goto done;
		}
	}

	long line_no = 1;
	while ((len = getline(&line, &line_cap, f)) >= 0) {
		line_no++;
		bool has_newline = len > 0 && line[len - 1] == '\n';
		line[strcspn(line, "\r\n")] = '\0';
		if (!*line)
			continue;
		const char *why = NULL;
		char *detail = NULL;
		size_t n_fields = split_fields(line, fields, header_fields);
		struct csv_row r;
		memset(&r, 0, sizeof r);
		r.line_no = line_no;
		long warmup = 0;
		if (!has_newline)
			why = "the last line has no end of line (cut short by a crash?)";
		else if (n_fields != header_fields)
			detail = analysis_strdup_printf("%zu fields where the header has %zu",
			                                n_fields, header_fields);
		else if (parse_long_field(fields[column[COL_TRIAL]], &r.trial) < 0 || r.trial < 0)
			why = "bad 'trial' value";
		else if (parse_long_field(fields[column[COL_WARMUP]], &warmup) < 0 ||
		         (warmup != 0 && warmup != 1))
			why = "bad 'warmup' value (0 or 1)";
		else if (!*fields[column[COL_PLACEMENT]])
			why = "empty 'placement'";
		else if (strcmp(fields[column[COL_ROLE]], "a") && strcmp(fields[column[COL_ROLE]], "b"))
			why = "bad 'role' value (a or b)";
		else if (!*fields[column[COL_STATUS]])
			why = "empty 'status'";
		if (!why && !detail) {
			r.warmup = warmup == 1;
			r.role_a = !strcmp(fields[column[COL_ROLE]], "a");
			r.ok = !strcmp(fields[column[COL_STATUS]], "ok");
			r.proc = 0;
			r.stime = r.wall = r.overlap = NAN;
			if (column[COL_PROC] >= 0 && *fields[column[COL_PROC]] &&
			    parse_long_field(fields[column[COL_PROC]], &r.proc) < 0)
				why = "bad 'proc' value";
			else if (parse_optional_seconds(fields[column[COL_UTIME]], &r.utime) < 0 ||
			         (r.ok && isnan(r.utime)))
				why = "bad or missing 'utime_s' value";
			else if (r.utime > ANALYSIS_TIME_MAX_S)
				why = "'utime_s' too large (above 1e100 s)";
			else if (column[COL_STIME] >= 0 &&
			         parse_optional_seconds(fields[column[COL_STIME]], &r.stime) < 0)
				why = "bad 'stime_s' value";
			else if (column[COL_WALL] >= 0 &&
			         parse_optional_seconds(fields[column[COL_WALL]], &r.wall) < 0)
				why = "bad 'wall_s' value";
			else if (column[COL_OVERLAP] >= 0 &&
			         parse_optional_seconds(fields[column[COL_OVERLAP]], &r.overlap) < 0)
				why = "bad 'overlap' value";
		}
		if (why || detail) {
			char *msg = analysis_strdup_printf("samples.csv:%ld: %s; line skipped", line_no,
			                                   why ? why : detail);
			free(detail);
			if (builder_warn(&b, msg) < 0)
				goto oom;
			continue;
		}
		r.placement = placement_index(&names, &name_count, fields[column[COL_PLACEMENT]]);
		if (r.placement < 0)
			goto oom;
		if (grow((void **)&rows, &row_cap, row_count + 1, sizeof *rows) < 0)
			goto oom;
		rows[row_count++] = r;
	}
	if (ferror(f)) {
		analysis_set_error(err, err_size, "%s: read error: %s", path, strerror(errno));
		goto done;
	}

	/* Groups in the stable placement order, whether or not they hold samples. */
	group_of_name = malloc((name_count ? name_count : 1) * sizeof *group_of_name);
	if (!group_of_name)
		goto oom;
	for (int rank = 0; rank <= KNOWN_PLACEMENTS; rank++)
		for (size_t i = 0; i < name_count; i++)
			if (rank_of_placement(names[i]) == rank) {
				group_of_name[i] = builder_add_group(&b, names[i]);
				if (group_of_name[i] < 0)
					goto oom;
			}

	/* No row survived: rows is still NULL, which qsort must not be given even for 0 rows. */
	if (row_count > 0)
		qsort(rows, row_count, sizeof *rows, compare_rows);
	/* The rows a trial of each placement should have (the most seen): a trial with fewer lost
	 * some to damage (e.g. a cut-short last line) and is no longer comparable. */
	rows_per_trial = calloc(name_count ? name_count : 1, sizeof *rows_per_trial);
	if (!rows_per_trial)
		goto oom;
	for (size_t start = 0, end; start < row_count; start = end) {
		for (end = start; end < row_count && rows[end].trial == rows[start].trial; end++)
			;
		if (end - start > rows_per_trial[rows[start].placement])
			rows_per_trial[rows[start].placement] = end - start;
	}
	for (size_t start = 0; start < row_count;) {
		size_t end = start;
		while (end < row_count && rows[end].trial == rows[start].trial)
			end++;
		const struct csv_row *first = &rows[start];
		bool consistent = true, all_ok = true;
		size_t role_a = 0;
		for (size_t i = start; i < end; i++) {
			consistent = consistent && rows[i].placement == first->placement &&
			             rows[i].warmup == first->warmup;
			all_ok = all_ok && rows[i].ok;
			role_a += rows[i].role_a;
		}
		if (consistent && role_a && end - start < rows_per_trial[first->placement]) {
			char *msg = analysis_strdup_printf(
				"samples.csv:%ld: trial %ld has %zu of its %zu rows (the others damaged or "
				"missing); trial skipped", first->line_no, first->trial, end - start,
				rows_per_trial[first->placement]);
			if (builder_warn(&b, msg) < 0)
				goto oom;
			start = end;
			continue;
		}
		if (!consistent || role_a == 0) {
			char *msg = analysis_strdup_printf(
				"samples.csv:%ld: trial %ld %s; trial skipped", first->line_no, first->trial,
				consistent ? "has no role-a row" : "has rows that disagree on placement or warmup");
			if (builder_warn(&b, msg) < 0)
				goto oom;
			start = end;
			continue;
		}
		int group = group_of_name[first->placement];
		struct analysis_group *g = &b.data->groups[group];
		if (first->warmup)
			b.data->warmup_trials++;
		if (!all_ok) {
			if (!first->warmup) {
				g->failed_trials++;
				b.data->failed_trials++;
			}
			start = end;
			continue;
		}
		double sum = 0;
		bool wall_known = true, wall_above = false;
		for (size_t i = start; i < end; i++) {
			if (!rows[i].role_a)
				continue;
			sum += rows[i].utime;
			if (unit == ANALYSIS_UNIT_PROCESS &&
			    builder_add_sample(&b, group, first->trial, rows[i].utime, first->warmup) < 0)
				goto oom;
			double cpu = rows[i].utime + rows[i].stime;
			if (isnan(rows[i].wall) || isnan(cpu))
				wall_known = false;
			else if (rows[i].wall > 1.5 * cpu)
				wall_above = true;
		}
		if (unit == ANALYSIS_UNIT_TRIAL &&
		    builder_add_sample(&b, group, first->trial, sum / (double)role_a, first->warmup) < 0)
			goto oom;
		if (!first->warmup) {
			if (!isnan(first->overlap)) {
				g->overlap_known++;
				g->poor_overlap_trials += first->overlap < 0.9;
			}
			if (wall_known) {
				g->wall_known++;
				g->wall_above_cpu_trials += wall_above;
			}
		}
		start = end;
	}
	if (builder_flag_outliers(&b, ANALYSIS_TIMER_RESOLUTION_S) < 0)
		goto oom;
	ok = true;
	goto done;
oom:
	analysis_set_error(err, err_size, "%s: out of memory", path);
done:
	fclose(f);
	free(path);
	free(line);
	free(fields);
	free(rows);
	free(group_of_name);
	free(rows_per_trial);
	for (size_t i = 0; i < name_count; i++)
		free(names[i]);
	free(names);
	builder_release(&b);
	if (!ok)
		analysis_dataset_free(&b.data);
	return b.data;
}
