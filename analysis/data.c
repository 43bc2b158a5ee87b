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
#include "topology/placements.h"
#include "analysis/samples_csv.h"

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
	free(d->workload);
	free(d->beside_workload);
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

/*
 * Plain decimals ("0.250742", "12", "3.") as strtod reads them, bit for bit, at a fraction of
 * its cost: up to 15 digits make an integer exact in a double and a power of ten up to 10^22
 * is exact too, so one correctly rounded division gives the correctly rounded value (Clinger's
 * fast path). Anything else (a sign, an exponent, more digits, inf, nan, hex) is left to
 * strtod. Returns whether the whole text was such a decimal.
 */
static bool parse_plain_decimal(const char *text, double *out)
{
	static const double pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	                                1e11, 1e12, 1e13, 1e14, 1e15 };
	uint64_t mantissa = 0;
	int digits = 0, decimals = 0;
	bool point = false;
	const char *p = text;
	for (;; p++) {
		if (*p >= '0' && *p <= '9') {
			mantissa = mantissa * 10 + (uint64_t)(*p - '0');
			digits++;
			decimals += point;
		} else if (*p == '.' && !point) {
			point = true;
		} else {
			break;
		}
	}
	if (*p || digits == 0 || digits > 15)
		return false;
	*out = (double)mantissa / pow10[decimals];
	return true;
}

/* ---- plain files ---------------------------------------------------------------------- */

/* Whether check_time would pass v (without formatting where for it). */
static bool time_ok(double v)
{
	return v >= 0 && v <= ANALYSIS_TIME_MAX_S;
}

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

#define UTF8_BOM "\xEF\xBB\xBF"

/* One line's number by strtod, or -1 with the message naming file and line. */
static int parse_number_text(const char *path, long line_no, const char *text, double *out,
                             char *err, size_t err_size)
{
	char where[600];
	snprintf(where, sizeof where, "%s:%ld", path, line_no);
	errno = 0;
	char *rest;
	double v = strtod(text, &rest);
	/* Decimal only: strtod also reads hexadecimal ("0x10" = 16), which no timer writes. */
	if (rest == text || *rest || strpbrk(text, "xX")) {
		analysis_set_error(err, err_size, "%s: '%.40s' is not a number (one time in "
		                   "seconds per line, in decimal; # starts a comment)", where, text);
		return -1;
	}
	if (errno == ERANGE) {
		analysis_set_error(err, err_size, "%s: '%.40s' is out of range (it %s); give a "
		                   "time in seconds between 1e-300 and 1e100", where, text,
		                   fabs(v) >= 1.0 ? "overflows" : "underflows to 0");
		return -1;
	}
	if (check_time(v, where, err, err_size) < 0)
		return -1;
	*out = v;
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
		if (memchr(line, '\0', (size_t)len)) {
			analysis_set_error(err, err_size, "%s:%ld: a NUL byte in the line: this is not a "
			                   "text file of numbers", path, line_no);
			rc = -1;
			break;
		}
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		/* A UTF-8 byte-order mark, as some editors write at the start of a file. */
		char *start = line_no == 1 && !strncmp(line, UTF8_BOM, 3) ? line + 3 : line;
		while (isspace((unsigned char)*start))
			start++;
		char *end = start + strlen(start);
		while (end > start && isspace((unsigned char)end[-1]))
			*--end = '\0';
		if (!*start)
			continue;
		double v;
		/* Plain decimals the fast way; the rest, and every message, through strtod. */
		if (!(parse_plain_decimal(start, &v) && time_ok(v)) &&
		    parse_number_text(path, line_no, start, &v, err, err_size) < 0) {
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

/* An empty dataset of two files or arrays, its source "A and B"; NULL with err. */
static struct analysis_dataset *two_group_dataset(const char *name_a, const char *name_b,
                                                  char *err, size_t err_size)
{
	char *source = analysis_strdup_printf("%s and %s", name_a, name_b);
	struct analysis_dataset *d = source ? dataset_new(source, false, ANALYSIS_UNIT_TRIAL) : NULL;
	free(source);
	if (!d)
		analysis_set_error(err, err_size, "out of memory");
	return d;
}

struct analysis_dataset *analysis_load_files(const char *path_a, const char *path_b,
                                             char *err, size_t err_size)
{
	struct builder b = { 0 };
	if (!(b.data = two_group_dataset(path_a, path_b, err, err_size)))
		return NULL;
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
	struct builder b = { 0 };
	if (!(b.data = two_group_dataset(name_a, name_b, err, err_size)))
		return NULL;
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
			if (!time_ok(values[k][i])) {
				char where[300];
				snprintf(where, sizeof where, "%s[%zu]", names[k], i);
				check_time(values[k][i], where, err, err_size);
				goto fail;
			}
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

/* One validated line of samples.csv. */
struct csv_row {
	long trial;
	long proc;
	long line_no;
	bool warmup;
	bool role_a;
	bool ok;
	int placement;   /* index into the placement names */
	double utime, stime, wall, overlap; /* NAN when empty */
	double foreign, steal;              /* per trial; NAN when empty or not in the file */
	long leftovers;                     /* per trial; 0 when empty or not in the file */
};

/* The frequencies of one placement's measured role-a lines, for the report. */
struct freq_tally {
	char *name;
	double sum;
	size_t n;
};

/* A samples.csv being loaded, in one pass: rows, then groups, then trials. */
struct folder_load {
	const char *path;
	enum analysis_unit unit;
	bool exclude_contaminated;
	struct builder b;
	char **fields;
	size_t header_fields;
	int column[SAMPLES_COLUMN_COUNT];  /* header position of each column, -1 when absent */
	struct csv_row *rows;
	size_t row_count, row_cap;
	char **names;                      /* placement names of the valid rows, first seen first */
	size_t name_count;
	struct freq_tally *freq;
	size_t freq_count;
	int *group_of_name;
	size_t *rows_per_trial;            /* per placement name: the rows its trials should have */
};

static void folder_load_release(struct folder_load *L)
{
	free(L->fields);
	free(L->rows);
	free(L->group_of_name);
	free(L->rows_per_trial);
	for (size_t i = 0; i < L->name_count; i++)
		free(L->names[i]);
	free(L->names);
	for (size_t i = 0; i < L->freq_count; i++)
		free(L->freq[i].name);
	free(L->freq);
	builder_release(&L->b);
}

static int compare_rows(const void *pa, const void *pb)
{
	const struct csv_row *a = pa, *b = pb;
	if (a->trial != b->trial)
		return a->trial < b->trial ? -1 : 1;
	if (a->proc != b->proc)
		return a->proc < b->proc ? -1 : 1;
	return (a->line_no > b->line_no) - (a->line_no < b->line_no);
}

/* A non-negative decimal integer of up to 18 digits without strtol's cost; else strtol. */
/* Whether the rows are already in compare_rows' order. */
static bool rows_sorted(const struct folder_load *L)
{
	for (size_t i = 1; i < L->row_count; i++)
		if (compare_rows(&L->rows[i - 1], &L->rows[i]) > 0)
			return false;
	return true;
}

static int parse_long_field(const char *text, long *out)
{
	if (!*text)
		return -1;
	long v = 0;
	const char *p = text;
	while (*p >= '0' && *p <= '9' && p - text < 18)
		v = v * 10 + (*p++ - '0');
	if (!*p) {
		*out = v;
		return 0;
	}
	char *end;
	errno = 0;
	v = strtol(text, &end, 10);
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
	if (parse_plain_decimal(text, out))
		return 0;
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

/* The field of column c, or NULL when the header has no such column. */
static const char *field_of(const struct folder_load *L, enum samples_column c)
{
	return L->column[c] >= 0 ? L->fields[L->column[c]] : NULL;
}

/* Maps the table's columns to the header's positions (files are read by column name, so that
 * older files with fewer columns load). -1 with err for a missing required column. */
static int read_header(struct folder_load *L, char *line, char *err, size_t err_size)
{
	if (!strncmp(line, UTF8_BOM, 3))
		memmove(line, line + 3, strlen(line + 3) + 1);
	line[strcspn(line, "\r\n")] = '\0';
	L->header_fields = 1;
	for (const char *c = line; *c; c++)
		L->header_fields += *c == ',';
	L->fields = malloc(L->header_fields * sizeof *L->fields);
	if (!L->fields) {
		analysis_set_error(err, err_size, "%s: out of memory", L->path);
		return -1;
	}
	samples_csv_split(line, L->fields, L->header_fields);
	for (int c = 0; c < SAMPLES_COLUMN_COUNT; c++) {
		L->column[c] = -1;
		for (size_t i = 0; i < L->header_fields; i++)
			if (!strcmp(L->fields[i], samples_csv_names[c]))
				L->column[c] = (int)i;
		if (samples_csv_required[c] && L->column[c] < 0) {
			analysis_set_error(err, err_size, "%s:1: the header has no '%s' column "
			                   "(see results/README.md)", L->path, samples_csv_names[c]);
			return -1;
		}
	}
	return 0;
}

/* What the report shows beside the samples: the workloads' names and the frequency of each
 * placement's measured lines. Taken from every line with the header's field count, damaged
 * values or not. -1 on out of memory. */
static int note_extras(struct folder_load *L)
{
	struct analysis_dataset *d = L->b.data;
	const char *role = field_of(L, SAMPLES_COL_ROLE), *work = field_of(L, SAMPLES_COL_WORKLOAD);
	if (strcmp(role, "a")) {
		/* A second workload beside the measured one: its name, for the words. */
		if (!strcmp(role, "b") && work && !d->beside_workload && *work &&
		    !(d->beside_workload = strdup(work)))
			return -1;
		return 0;
	}
	if (work && !d->workload && *work && !(d->workload = strdup(work)))
		return -1;
	const char *freq = field_of(L, SAMPLES_COL_FREQ);
	bool measured = strcmp(field_of(L, SAMPLES_COL_WARMUP), "1") &&
	                !strcmp(field_of(L, SAMPLES_COL_STATUS), "ok");
	if (!measured || !freq || !*freq)
		return 0;
	double mhz;
	if (parse_optional_seconds(freq, &mhz) < 0 || !(mhz > 0))
		return 0;
	const char *place = field_of(L, SAMPLES_COL_PLACEMENT);
	size_t i = 0;
	while (i < L->freq_count && strcmp(L->freq[i].name, place))
		i++;
	if (i == L->freq_count) {
		struct freq_tally *grown = realloc(L->freq, (i + 1) * sizeof *grown);
		if (!grown)
			return -1;
		L->freq = grown;
		grown[i] = (struct freq_tally){ .name = strdup(place) };
		if (!grown[i].name)
			return -1;
		L->freq_count++;
	}
	L->freq[i].sum += mhz;
	L->freq[i].n++;
	return 0;
}

/* Checks one split line into *r: NULL, or why it is skipped. */
static const char *check_row(struct folder_load *L, struct csv_row *r)
{
	long warmup = 0;
	const char *role = field_of(L, SAMPLES_COL_ROLE);
	if (parse_long_field(field_of(L, SAMPLES_COL_TRIAL), &r->trial) < 0 || r->trial < 0)
		return "bad 'trial' value";
	if (parse_long_field(field_of(L, SAMPLES_COL_WARMUP), &warmup) < 0 ||
	    (warmup != 0 && warmup != 1))
		return "bad 'warmup' value (0 or 1)";
	if (!*field_of(L, SAMPLES_COL_PLACEMENT))
		return "empty 'placement'";
	if (strcmp(role, "a") && strcmp(role, "b"))
		return "bad 'role' value (a or b)";
	if (!*field_of(L, SAMPLES_COL_STATUS))
		return "empty 'status'";
	r->warmup = warmup == 1;
	r->role_a = !strcmp(role, "a");
	r->ok = !strcmp(field_of(L, SAMPLES_COL_STATUS), "ok");
	r->proc = 0;
	r->stime = r->wall = r->overlap = r->foreign = r->steal = NAN;
	r->leftovers = 0;
	const char *proc = field_of(L, SAMPLES_COL_PROC);
	if (proc && *proc && parse_long_field(proc, &r->proc) < 0)
		return "bad 'proc' value";
	if (parse_optional_seconds(field_of(L, SAMPLES_COL_UTIME), &r->utime) < 0 ||
	    (r->ok && isnan(r->utime)))
		return "bad or missing 'utime_s' value";
	if (r->utime > ANALYSIS_TIME_MAX_S)
		return "'utime_s' too large (above 1e100 s)";
	const struct { enum samples_column col; double *out; const char *why; } optional[] = {
		{ SAMPLES_COL_STIME, &r->stime, "bad 'stime_s' value" },
		{ SAMPLES_COL_WALL, &r->wall, "bad 'wall_s' value" },
		{ SAMPLES_COL_OVERLAP, &r->overlap, "bad 'overlap' value" },
		{ SAMPLES_COL_FOREIGN, &r->foreign, "bad 'foreign_s' value" },
		{ SAMPLES_COL_STEAL, &r->steal, "bad 'steal_s' value" },
	};
	for (size_t i = 0; i < sizeof optional / sizeof optional[0]; i++) {
		const char *text = field_of(L, optional[i].col);
		if (text && parse_optional_seconds(text, optional[i].out) < 0)
			return optional[i].why;
	}
	const char *leftovers = field_of(L, SAMPLES_COL_LEFTOVERS);
	if (leftovers && *leftovers && (parse_long_field(leftovers, &r->leftovers) < 0 ||
	                                r->leftovers < 0))
		return "bad 'leftovers' value";
	return NULL;
}

/* One data line: a row, or a warning. -1 on out of memory. */
static int read_line(struct folder_load *L, char *line, ssize_t len, long line_no)
{
	bool has_newline = len > 0 && line[len - 1] == '\n';
	if (memchr(line, '\0', (size_t)len)) {
		char *msg = analysis_strdup_printf("samples.csv:%ld: a NUL byte in the line; line "
		                                   "skipped", line_no);
		return builder_warn(&L->b, msg);
	}
	line[strcspn(line, "\r\n")] = '\0';
	if (!*line)
		return 0;
	size_t n_fields = samples_csv_split(line, L->fields, L->header_fields);
	if (n_fields == L->header_fields && note_extras(L) < 0)
		return -1;
	struct csv_row r = { .line_no = line_no };
	const char *why = NULL;
	char *detail = NULL;
	if (!has_newline)
		why = "the last line has no end of line (cut short by a crash?)";
	else if (n_fields != L->header_fields)
		detail = analysis_strdup_printf("%zu fields where the header has %zu", n_fields,
		                                L->header_fields);
	else
		why = check_row(L, &r);
	if (why || detail) {
		char *msg = analysis_strdup_printf("samples.csv:%ld: %s; line skipped", line_no,
		                                   why ? why : detail);
		free(detail);
		return builder_warn(&L->b, msg);
	}
	r.placement = placement_index(&L->names, &L->name_count, field_of(L, SAMPLES_COL_PLACEMENT));
	if (r.placement < 0 || grow((void **)&L->rows, &L->row_cap, L->row_count + 1,
	                            sizeof *L->rows) < 0)
		return -1;
	L->rows[L->row_count++] = r;
	return 0;
}

/* Lines from a file through one large buffer: no copy per line, as getline makes. */
struct line_reader {
	FILE *f;
	char *buf;
	size_t cap, start, end;  /* unread bytes are buf[start, end) */
	bool eof;
};
enum { LINE_READER_CHUNK = 1 << 17 };

/* The next line and its length with its '\n' if it has one (as getline gives them); the text
 * is writable up to that length and ends at its '\n' or, for a last line without one, at a
 * '\0'. 0 at the end of the file, -1 on out of memory or a read error (ferror tells). */
static int next_line(struct line_reader *r, char **line, size_t *len)
{
	for (;;) {
		char *nl = memchr(r->buf + r->start, '\n', r->end - r->start);
		if (nl) {
			*line = r->buf + r->start;
			*len = (size_t)(nl - *line) + 1;
			r->start += *len;
			return 1;
		}
		if (r->eof) {
			if (r->start == r->end)
				return 0;
			*line = r->buf + r->start;
			*len = r->end - r->start;
			r->buf[r->end] = '\0'; /* cap > end always: see below */
			r->start = r->end;
			return 1;
		}
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->start = 0;
		if (r->cap - r->end < LINE_READER_CHUNK + 1) { /* a line longer than the buffer */
			char *grown = realloc(r->buf, r->cap + LINE_READER_CHUNK);
			if (!grown)
				return -1;
			r->buf = grown;
			r->cap += LINE_READER_CHUNK;
		}
		size_t got = fread(r->buf + r->end, 1, r->cap - r->end - 1, r->f);
		r->end += got;
		if (got == 0) {
			if (ferror(r->f))
				return -1;
			r->eof = true;
		}
	}
}

/* Reads the whole file once. -1 with err. */
static int read_rows(struct folder_load *L, FILE *f, char *err, size_t err_size)
{
	struct line_reader r = { .f = f, .cap = 2 * LINE_READER_CHUNK + 1 };
	int rc = -1, got;
	char *line;
	size_t len;
	if (!(r.buf = malloc(r.cap)))
		goto oom;
	got = next_line(&r, &line, &len);
	if (got < 0)
		goto fail;
	if (got == 0 || len == 0) {
		analysis_set_error(err, err_size, "%s: empty file: no header line", L->path);
		goto out;
	}
	if (read_header(L, line, err, err_size) < 0)
		goto out;
	long line_no = 1;
	while ((got = next_line(&r, &line, &len)) > 0)
		if (read_line(L, line, (ssize_t)len, ++line_no) < 0)
			goto oom;
	if (got < 0)
		goto fail;
	rc = 0;
	goto out;
fail:
	if (ferror(f)) {
		analysis_set_error(err, err_size, "%s: read error: %s", L->path, strerror(errno));
		goto out;
	}
oom:
	analysis_set_error(err, err_size, "%s: out of memory", L->path);
out:
	free(r.buf);
	return rc;
}

/* Groups in the stable placement order, whether or not they hold samples, with the
 * frequencies noted for each. -1 on out of memory. */
static int make_groups(struct folder_load *L)
{
	L->group_of_name = malloc((L->name_count ? L->name_count : 1) * sizeof *L->group_of_name);
	if (!L->group_of_name)
		return -1;
	for (size_t rank = 0; rank <= PLACEMENT_COUNT; rank++)
		for (size_t i = 0; i < L->name_count; i++)
			if (placement_info_rank(L->names[i]) == rank &&
			    (L->group_of_name[i] = builder_add_group(&L->b, L->names[i])) < 0)
				return -1;
	struct analysis_dataset *d = L->b.data;
	for (size_t i = 0; i < L->freq_count; i++) {
		int g = analysis_dataset_find(d, L->freq[i].name);
		if (g >= 0) {
			d->groups[g].freq_mhz = L->freq[i].sum / (double)L->freq[i].n;
			d->groups[g].freq_n = L->freq[i].n;
		}
	}
	return 0;
}

/* The rows a trial of each placement must have: one per process of the placement, from the
 * placement registry; for a name the registry does not know, the most rows seen in one of its
 * trials. */
static int count_rows_per_trial(struct folder_load *L)
{
	L->rows_per_trial = calloc(L->name_count ? L->name_count : 1, sizeof *L->rows_per_trial);
	if (!L->rows_per_trial)
		return -1;
	for (size_t i = 0; i < L->name_count; i++) {
		const struct placement_info *info = placement_info_find(L->names[i]);
		if (info)
			L->rows_per_trial[i] = (size_t)info->nprocs;
	}
	for (size_t start = 0, end; start < L->row_count; start = end) {
		for (end = start; end < L->row_count && L->rows[end].trial == L->rows[start].trial; end++)
			;
		int name = L->rows[start].placement;
		size_t *expected = &L->rows_per_trial[name];
		if (!placement_info_find(L->names[name]) && end - start > *expected)
			*expected = end - start;
	}
	return 0;
}

/* A row of the trial in rows [start, end) that should not be there: a second row for one
 * process (rows are sorted by process), or more rows than the placement has processes. Its
 * index, or end when there is none. */
static size_t stray_row(const struct folder_load *L, size_t start, size_t end)
{
	bool have_proc = L->column[SAMPLES_COL_PROC] >= 0;
	size_t expected = L->rows_per_trial[L->rows[start].placement];
	for (size_t i = start + 1; i < end; i++)
		if ((have_proc && L->rows[i].proc == L->rows[i - 1].proc) || i - start >= expected)
			return i;
	return end;
}

/* Why the trial in rows [start, end) cannot be used (a new message), "" when it can, NULL on out
 * of memory. A damaged trial never affects another. */
static char *trial_problem(const struct folder_load *L, size_t start, size_t end)
{
	const struct csv_row *first = &L->rows[start];
	bool consistent = true;
	size_t role_a = 0;
	for (size_t i = start; i < end; i++) {
		consistent = consistent && L->rows[i].placement == first->placement &&
		             L->rows[i].warmup == first->warmup;
		role_a += L->rows[i].role_a;
	}
	size_t expected = L->rows_per_trial[first->placement];
	size_t stray = consistent ? stray_row(L, start, end) : end;
	if (stray < end)
		return analysis_strdup_printf(
			"samples.csv:%ld: trial %ld: a duplicated or stray row (process %ld; a %s trial "
			"has %zu row%s); trial skipped", L->rows[stray].line_no,
			first->trial, L->rows[stray].proc, L->names[first->placement], expected,
			expected == 1 ? "" : "s");
	if (consistent && role_a && end - start < expected)
		return analysis_strdup_printf(
			"samples.csv:%ld: trial %ld has %zu of its %zu rows (the others damaged or "
			"missing); trial skipped", first->line_no, first->trial, end - start, expected);
	if (!consistent || role_a == 0)
		return analysis_strdup_printf(
			"samples.csv:%ld: trial %ld %s; trial skipped", first->line_no, first->trial,
			consistent ? "has no role-a row" : "has rows that disagree on placement or warmup");
	return strdup("");
}

/* Whether the trial in rows [start, end) shared its CPUs: its foreign or steal time above
 * ANALYSIS_CONTAMINATED_SHARE of its duration (the longest wall_s). -1 when not known. */
static int contamination_of(const struct folder_load *L, size_t start, size_t end)
{
	double duration = NAN;
	for (size_t i = start; i < end; i++)
		if (isnan(duration) || L->rows[i].wall > duration)
			duration = L->rows[i].wall;
	const struct csv_row *first = &L->rows[start];
	if (isnan(duration) || isnan(first->foreign) || isnan(first->steal))
		return -1;
	double limit = ANALYSIS_CONTAMINATED_SHARE * duration;
	return first->foreign > limit || first->steal > limit;
}

/* A trial's leftovers and, for an ok measured one, whether it shared its CPUs, counted in its
 * group. True when the trial is to be left out (contaminated, and asked to exclude those). */
static bool count_trial_health(struct folder_load *L, size_t start, size_t end, bool all_ok)
{
	const struct csv_row *first = &L->rows[start];
	struct analysis_dataset *d = L->b.data;
	struct analysis_group *g = &d->groups[L->group_of_name[first->placement]];
	if (first->leftovers > 0) {
		g->leftover_trials++;
		g->leftovers += (size_t)first->leftovers;
	}
	if (!all_ok || first->warmup)
		return false;
	int contaminated = contamination_of(L, start, end);
	if (contaminated < 0)
		return false;
	g->contamination_known++;
	g->contaminated_trials += contaminated;
	if (!contaminated || !L->exclude_contaminated)
		return false;
	d->excluded_contaminated++;
	return true;
}

/* Adds a usable trial's sample(s) and its overlap and wall-time counts. -1 on out of memory. */
static int add_trial(struct folder_load *L, size_t start, size_t end)
{
	const struct csv_row *first = &L->rows[start];
	struct analysis_dataset *d = L->b.data;
	int group = L->group_of_name[first->placement];
	struct analysis_group *g = &d->groups[group];
	bool all_ok = true;
	for (size_t i = start; i < end; i++)
		all_ok = all_ok && L->rows[i].ok;
	if (first->warmup)
		d->warmup_trials++;
	if (count_trial_health(L, start, end, all_ok))
		return 0;
	if (!all_ok) {
		if (!first->warmup) {
			g->failed_trials++;
			d->failed_trials++;
		}
		return 0;
	}
	double sum = 0;
	size_t role_a = 0;
	bool wall_known = true, wall_above = false;
	for (size_t i = start; i < end; i++) {
		const struct csv_row *r = &L->rows[i];
		if (!r->role_a)
			continue;
		sum += r->utime;
		role_a++;
		if (L->unit == ANALYSIS_UNIT_PROCESS &&
		    builder_add_sample(&L->b, group, first->trial, r->utime, first->warmup) < 0)
			return -1;
		double cpu = r->utime + r->stime;
		if (isnan(r->wall) || isnan(cpu))
			wall_known = false;
		else if (r->wall > ANALYSIS_WALL_ABOVE_CPU * cpu)
			wall_above = true;
	}
	if (L->unit == ANALYSIS_UNIT_TRIAL &&
	    builder_add_sample(&L->b, group, first->trial, sum / (double)role_a, first->warmup) < 0)
		return -1;
	if (!first->warmup) {
		if (!isnan(first->overlap)) {
			g->overlap_known++;
			g->poor_overlap_trials += first->overlap < ANALYSIS_POOR_OVERLAP;
		}
		if (wall_known) {
			g->wall_known++;
			g->wall_above_cpu_trials += wall_above;
		}
	}
	return 0;
}

/* Turns the rows, sorted by trial, into samples. -1 on out of memory. */
static int add_trials(struct folder_load *L)
{
	/* No row survived: rows is still NULL, which qsort must not be given even for 0 rows.
	 * The runner writes rows in order: a sorted file is not sorted again. */
	if (L->row_count > 0 && !rows_sorted(L))
		qsort(L->rows, L->row_count, sizeof *L->rows, compare_rows);
	if (count_rows_per_trial(L) < 0)
		return -1;
	for (size_t start = 0, end; start < L->row_count; start = end) {
		for (end = start; end < L->row_count && L->rows[end].trial == L->rows[start].trial; end++)
			;
		char *problem = trial_problem(L, start, end);
		if (!problem)
			return -1;
		if (*problem) {
			if (builder_warn(&L->b, problem) < 0)
				return -1;
			continue;
		}
		free(problem);
		if (add_trial(L, start, end) < 0)
			return -1;
	}
	return builder_flag_outliers(&L->b, ANALYSIS_TIMER_RESOLUTION_S);
}

struct analysis_dataset *analysis_load_folder(const char *dir, enum analysis_unit unit,
                                              char *err, size_t err_size)
{
	return analysis_load_folder_excluding(dir, unit, false, err, err_size);
}

struct analysis_dataset *analysis_load_folder_excluding(const char *dir, enum analysis_unit unit,
                                                        bool exclude_contaminated,
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
	struct folder_load L = { .path = path, .unit = unit,
	                         .exclude_contaminated = exclude_contaminated };
	bool ok = false;
	L.b.data = dataset_new(dir, true, unit);
	if (!L.b.data)
		analysis_set_error(err, err_size, "%s: out of memory", path);
	else if (read_rows(&L, f, err, err_size) == 0) {
		ok = make_groups(&L) == 0 && add_trials(&L) == 0;
		if (!ok)
			analysis_set_error(err, err_size, "%s: out of memory", path);
	}
	fclose(f);
	folder_load_release(&L);
	free(path);
	if (!ok)
		analysis_dataset_free(&L.b.data);
	return L.b.data;
}
