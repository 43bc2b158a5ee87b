/*
 * data.c — datasets and how they are built: two plain files of numbers or two arrays here, a
 * results folder's samples.csv in samples_load.c. Every sample keeps its run-order index, its
 * group and whether it was a warm-up; outliers are flagged here (robust z within the group),
 * never dropped.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/internal.h"
#include "common/fileio.h"
#include "common/number.h"

struct analysis_dataset *dataset_new(const char *source, bool from_folder,
                                     enum analysis_unit unit)
{
	struct analysis_dataset *d = xcalloc(1, sizeof *d);
	d->source = xescaped(source); /* a path from the command line: shown as text */
	d->from_folder = from_folder;
	d->unit = unit;
	return d;
}

void group_release(struct analysis_group *g)
{
	free(g->name);
	free(g->values_s);
	free(g->trials);
	free(g->blocks);
	memset(g, 0, sizeof *g);
}

void analysis_dataset_free(struct analysis_dataset **p)
{
	if (!p || !*p)
		return;
	struct analysis_dataset *d = *p;
	for (size_t i = 0; i < d->group_count; i++)
		group_release(&d->groups[i]);
	free(d->groups);
	free(d->points);
	strings_release(&d->warnings, &d->warning_count);
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

int builder_add_group(struct dataset_builder *b, const char *name)
{
	struct analysis_dataset *d = b->data;
	d->groups = xreallocarray(d->groups, d->group_count + 1, sizeof *d->groups);
	d->groups[d->group_count] = (struct analysis_group){
		.name = xescaped(name) /* a placement from samples.csv or a path: shown everywhere */ };
	return (int)d->group_count++;
}

void group_add(struct analysis_group *g, double value, long trial, long block)
{
	/* The arrays' capacity follows from n (16, then each power of two n reaches): no count of
	 * it beside every group. */
	if (g->n == 0 || (g->n >= 16 && (g->n & (g->n - 1)) == 0)) {
		size_t cap = g->n ? 2 * g->n : 16;
		g->values_s = xreallocarray(g->values_s, cap, sizeof *g->values_s);
		g->trials = xreallocarray(g->trials, cap, sizeof *g->trials);
		g->blocks = xreallocarray(g->blocks, cap, sizeof *g->blocks);
	}
	g->values_s[g->n] = value;
	g->trials[g->n] = trial;
	g->blocks[g->n++] = block;
}

void builder_add_sample(struct dataset_builder *b, int group, long trial, long block,
                        double value, bool warmup)
{
	struct analysis_dataset *d = b->data;
	if (d->point_count == b->point_cap)
		builder_reserve_points(b, b->point_cap ? 2 * b->point_cap : 16);
	d->points[d->point_count] = (struct analysis_point){
		.trial = trial, .block = block, .group = group, .value_s = value, .warmup = warmup };
	if (!warmup)
		group_add(&d->groups[group], value, trial, block);
	d->point_count++;
}

void builder_warn(struct dataset_builder *b, char *message)
{
	if (!text_is_printable(message)) { /* it may quote a damaged line's bytes */
		char *shown = xescaped(message);
		free(message);
		message = shown;
	}
	strings_push(&b->data->warnings, &b->data->warning_count, message);
}

void builder_reserve_points(struct dataset_builder *b, size_t points)
{
	if (points <= b->point_cap)
		return;
	b->data->points = xreallocarray(b->data->points, points, sizeof *b->data->points);
	b->point_cap = points;
}

/* Flags |robust z| > ANALYSIS_OUTLIER_Z (Iglewicz and Hoaglin): out[i] set for the outliers;
 * returns the count. A point within `resolution` of the median is never an outlier. */
static size_t robust_outliers(const double *x, size_t n, double resolution, bool *out)
{
	for (size_t i = 0; i < n; i++)
		out[i] = false;
	if (n < 3)
		return 0;
	double med = median_of(x, n);
	double mad = mad_of(x, n, med);
	double scale; /* z = (x - median) / scale */
	if (mad > 0) {
		scale = mad / 0.6745;
	} else {
		/* More than half the samples equal the median: fall back to the mean absolute
		 * deviation, as Iglewicz and Hoaglin suggest. */
		double mean_ad = 0;
		for (size_t i = 0; i < n; i++)
			mean_ad += fabs(x[i] - med);
		mean_ad /= (double)n;
		if (!(mean_ad > 0))
			return 0;
		scale = 1.253314 * mean_ad;
	}
	size_t count = 0;
	for (size_t i = 0; i < n; i++) {
		double dev = fabs(x[i] - med);
		if (dev / scale > ANALYSIS_OUTLIER_Z && dev > resolution) {
			out[i] = true;
			count++;
		}
	}
	return count;
}

/* One group's outlier flags, on a thread of its own when the groups are large. */
struct group_flags {
	const struct analysis_group *g;
	double resolution;
	bool *flags;
	size_t next;       /* the flag of the group's next measured point */
	pthread_t thread;
	bool started;      /* flag_group runs on thread */
};

static void *flag_group(void *arg)
{
	struct group_flags *gf = arg;
	robust_outliers(gf->g->values_s, gf->g->n, gf->resolution, gf->flags);
	return NULL;
}

/* Below this many samples in all, threads cost more than they save. */
#define OUTLIER_THREADS_MIN_SAMPLES 100000

/* Flags each group's outliers on its points: the groups' flags first (at once, for millions
 * of samples), then one pass over the points. */
void builder_flag_outliers(struct dataset_builder *b, double resolution)
{
	struct analysis_dataset *d = b->data;
	size_t count = d->group_count, total = 0;
	struct group_flags *gf = xcalloc(count, sizeof *gf);
	for (size_t gi = 0; gi < count; gi++) {
		gf[gi] = (struct group_flags){ .g = &d->groups[gi], .resolution = resolution,
		                               .flags = xmalloc(d->groups[gi].n * sizeof *gf[gi].flags) };
		total += d->groups[gi].n;
	}
	/* The largest groups on threads, no more of them than there are CPUs; the rest here. */
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t threaded = 0;
	for (size_t gi = 0; gi < count; gi++)
		if (total >= OUTLIER_THREADS_MIN_SAMPLES && d->groups[gi].n >= total / (2 * count)
		    && (long)threaded + 1 < cpus
		    && (gf[gi].started = pthread_create(&gf[gi].thread, NULL, flag_group, &gf[gi]) == 0))
			threaded++;
	for (size_t gi = 0; gi < count; gi++)
		if (!gf[gi].started)
			flag_group(&gf[gi]);
	for (size_t gi = 0; gi < count; gi++)
		if (gf[gi].started)
			pthread_join(gf[gi].thread, NULL);
	/* A group's values are its measured points' in run order (builder_add_sample). */
	for (size_t i = 0; i < d->point_count; i++)
		if (!d->points[i].warmup)
			d->points[i].outlier = gf[d->points[i].group].flags[gf[d->points[i].group].next++];
	for (size_t gi = 0; gi < count; gi++)
		free(gf[gi].flags);
	free(gf);
}

/* ---- plain files ---------------------------------------------------------------------- */

/* Whether check_time would pass v (without formatting where for it). */
static bool time_ok(double v)
{
	return v >= 0 && v <= SAMPLES_TIME_MAX_S;
}

/* What is wrong with a time (a line of a file of numbers, an array's value): the one number
 * rule of common/number.h (problem: number_parse_real's for text, NUMBER_OK for a double), then
 * finite, >= 0 and at most SAMPLES_TIME_MAX_S. 0, or -1 with the message at where ("FILE:LINE",
 * "NAME[i]"). */
static int check_time(enum number_problem problem, double v, const char *where, const char *text,
                      char *err, size_t err_size)
{
	if (problem == NUMBER_OK)
		problem = isnan(v) ? NUMBER_NAN : isinf(v) ? NUMBER_INFINITE : NUMBER_OK;
	switch (problem) {
	case NUMBER_OK:
		break;
	case NUMBER_NOT_A_NUMBER:
		set_error(err, err_size, "%s: '%.40s' is not a number (one time in seconds per line, "
		          "in decimal; # starts a comment)", where, text);
		return -1;
	case NUMBER_OVERFLOW:
	case NUMBER_UNDERFLOW:
		set_error(err, err_size, "%s: '%.40s' is out of range (it %s); give a time in seconds "
		          "between 1e-300 and 1e100", where, text,
		          problem == NUMBER_OVERFLOW ? "overflows" : "underflows to 0");
		return -1;
	case NUMBER_NAN:
		set_error(err, err_size, "%s: NaN is not a time", where);
		return -1;
	case NUMBER_INFINITE:
		set_error(err, err_size, "%s: an infinite time", where);
		return -1;
	}
	if (v < 0)
		set_error(err, err_size, "%s: negative time %g; times are >= 0 seconds", where, v);
	else if (v > SAMPLES_TIME_MAX_S)
		set_error(err, err_size, "%s: time %g s is too large; times are at most %g seconds",
		          where, v, SAMPLES_TIME_MAX_S);
	return time_ok(v) ? 0 : -1;
}

int stdin_fd(const char *hint, char *err, size_t err_size)
{
	/* A pipe or a redirected file: a terminal would wait for typing. */
	if (isatty(STDIN_FILENO)) {
		set_error(err, err_size, "-: standard input is a terminal; %s", hint);
		return -1;
	}
	int fd = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		set_error(err, err_size, "-: cannot read standard input: %s", strerror(errno));
	return fd;
}

/* A line of a file of numbers is one time and perhaps a comment: a longer one is not such a
 * file, and is refused rather than read into memory without bound (a file of one 400 MB line,
 * or /dev/zero). The file itself is bounded by what a dataset may hold. */
enum { NUMBER_LINE_MAX = 4096 };
#define NUMBERS_FILE_MAX_BYTES ((long long)8 << 30)

/* Opens a file of numbers: a regular file, or a FIFO or pipe (`analyze <(cmd) <(cmd)`), by the
 * one open every reader uses (fileio_open_readable: a device such as /dev/zero, a folder, is
 * refused, named; a FIFO cannot hang it); "-" is standard input. NULL with err. */
static FILE *open_numbers(const char *path, char *err, size_t err_size)
{
	bool stdin_path = !strcmp(path, "-");
	int fd = stdin_path ? stdin_fd("pipe the numbers in (cmd | smtbench analyze - B.txt) or "
	                               "redirect a file", err, err_size)
	                    : fileio_open_readable(path, err, err_size);
	if (fd < 0)
		return NULL;
	struct stat st;
	if (stdin_path && (fstat(fd, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode)
	                                            || S_ISSOCK(st.st_mode)))) {
		set_error(err, err_size, "-: standard input is not a file or a pipe (a device?); "
		          "pipe the numbers in or redirect a file");
		close(fd);
		return NULL;
	}
	FILE *f = fdopen(fd, "r");
	if (!f) {
		set_error(err, err_size, "%s: cannot open: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

/* Line line_no of a file of numbers (len bytes): 1 with its time in *v, 0 for a blank or
 * comment line, -1 with err naming the file and line. */
static int number_of_line(const char *path, long line_no, char *line, size_t len, double *v,
                          char *err, size_t err_size)
{
	if (memchr(line, '\0', len)) {
		set_error(err, err_size, "%s:%ld: a NUL byte in the line: this is not a text file of "
		          "numbers", path, line_no);
		return -1;
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
		return 0;
	/* Plain decimals the fast way; the rest, and every message, through check_time. */
	if (number_parse_plain(start, (size_t)(end - start), v) && time_ok(*v))
		return 1;
	enum number_problem problem = number_parse_real(start, v);
	if (problem == NUMBER_OK && time_ok(*v))
		return 1;
	char where[600];
	snprintf(where, sizeof where, "%s:%ld", path, line_no);
	check_time(problem, *v, where, start, err, err_size);
	return -1;
}

static int load_numbers(struct dataset_builder *b, int group, const char *path, char *err, size_t err_size)
{
	FILE *f = open_numbers(path, err, err_size);
	if (!f)
		return -1;
	char *line = NULL;
	size_t cap = 0;
	long line_no = 0, index = 0;
	long long bytes = 0;
	int rc = 0;
	ssize_t got;
	while ((got = fileio_read_line(f, &line, &cap, NUMBER_LINE_MAX + 1)) > 0) {
		size_t len = (size_t)got - (line[got - 1] == '\n');
		line[len] = '\0';
		if (len > NUMBER_LINE_MAX) { /* the last line, without its newline */
			got = FILEIO_LINE_TOO_LONG;
			break;
		}
		if (ferror(f)) /* a read error cut this line short: that part is not read */
			break;
		line_no++;
		bytes += (long long)len + 1;
		if (bytes > NUMBERS_FILE_MAX_BYTES) {
			set_error(err, err_size, "%s:%ld: more than %lld GiB of numbers; this is not a "
			          "file of times", path, line_no, NUMBERS_FILE_MAX_BYTES >> 30);
			rc = -1;
			break;
		}
		double v = 0;
		int got_number = number_of_line(path, line_no, line, len, &v, err, err_size);
		if (got_number < 0) {
			rc = -1;
			break;
		}
		if (got_number == 0)
			continue;
		/* The k-th value of each file is block k: what `analyze --paired` pairs. */
		builder_add_sample(b, group, index, index, v, false);
		b->data->points[b->data->point_count - 1].line = line_no;
		index++;
	}
	if (rc == 0 && got == FILEIO_LINE_TOO_LONG)
		set_error(err, err_size, "%s:%ld: a line of more than %d bytes: this is not a file of "
		          "numbers (one time in seconds per line)", path, line_no + 1, NUMBER_LINE_MAX);
	else if (rc == 0 && ferror(f))
		set_error(err, err_size, "%s: read error: %s", path, strerror(errno));
	if (got == FILEIO_LINE_TOO_LONG || ferror(f))
		rc = -1;
	if (rc == 0 && b->data->groups[group].n < 2) {
		set_error(err, err_size, "%s: %zu sample(s); at least 2 are needed",
		                   path, b->data->groups[group].n);
		rc = -1;
	}
	free(line);
	fclose(f);
	return rc;
}

/* An empty dataset of two files or arrays, its source "A and B". */
static struct analysis_dataset *two_group_dataset(const char *name_a, const char *name_b)
{
	char *source = xasprintf("%s and %s", name_a, name_b);
	struct analysis_dataset *d = dataset_new(source, false, ANALYSIS_UNIT_TRIAL);
	free(source);
	return d;
}

struct analysis_dataset *analysis_load_files(const char *path_a, const char *path_b,
                                             char *err, size_t err_size)
{
	struct dataset_builder b = { .data = two_group_dataset(path_a, path_b) };
	const char *paths[2] = { path_a, path_b };
	for (int k = 0; k < 2; k++)
		if (load_numbers(&b, builder_add_group(&b, paths[k]), paths[k], err, err_size) < 0) {
			analysis_dataset_free(&b.data);
			return NULL;
		}
	builder_flag_outliers(&b, 0.0);
	return b.data;
}

struct analysis_dataset *analysis_dataset_from_arrays(const char *name_a, const double *a,
                                                      size_t na, const char *name_b,
                                                      const double *b_values, size_t nb,
                                                      char *err, size_t err_size)
{
	const char *names[2] = { name_a, name_b };
	const double *values[2] = { a, b_values };
	size_t counts[2] = { na, nb };
	for (int k = 0; k < 2; k++) {
		if (counts[k] < 2) {
			set_error(err, err_size, "%s: %zu sample(s); at least 2 are needed", names[k],
			          counts[k]);
			return NULL;
		}
		for (size_t i = 0; i < counts[k]; i++)
			if (!time_ok(values[k][i])) {
				char where[300];
				snprintf(where, sizeof where, "%s[%zu]", names[k], i);
				check_time(NUMBER_OK, values[k][i], where, "", err, err_size);
				return NULL;
			}
	}
	struct dataset_builder b = { .data = two_group_dataset(name_a, name_b) };
	builder_reserve_points(&b, na + nb);
	for (int k = 0; k < 2; k++) {
		int group = builder_add_group(&b, names[k]);
		for (size_t i = 0; i < counts[k]; i++)
			builder_add_sample(&b, group, (long)i, (long)i, values[k][i], false);
	}
	builder_flag_outliers(&b, 0.0);
	return b.data;
}
