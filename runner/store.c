#include "runner/store.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/samples_csv.h"
#include "runner/util.h"
#include "topology/fileio.h"

struct store {
	char *dir;
	int csv_fd;
};

static char *join_path(const char *dir, const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

/* mkdir -p for the parents of path (not path itself). */
static int make_parents(const char *path, char *err, size_t err_size)
{
	char *copy = xstrdup(path);
	for (char *p = copy + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(copy, 0777) != 0 && errno != EEXIST) {
			set_error(err, err_size, "cannot create folder %s: %s", copy, strerror(errno));
			free(copy);
			return -1;
		}
		*p = '/';
	}
	free(copy);
	return 0;
}

/* One runner per folder: a second one appending to the same samples.csv would interleave trials
 * and duplicate numbers. The lock lives as long as the descriptor. */
static int lock_samples(int fd, const char *dir, char *err, size_t err_size)
{
	if (flock(fd, LOCK_EX | LOCK_NB) == 0)
		return 0;
	if (errno == EWOULDBLOCK)
		set_error(err, err_size, "%s is being written by another smtbench run; wait for it "
		          "to end (or stop it) first", dir);
	else
		set_error(err, err_size, "cannot lock %s/samples.csv: %s", dir, strerror(errno));
	return -1;
}

struct store *store_create(const char *dir_given, char *err, size_t err_size)
{
	if (!*dir_given) {
		set_error(err, err_size, "the results folder's name is empty");
		return NULL;
	}
	/* "runs/x/" names the folder runs/x: without the slash, or make_parents would create it. */
	char *dir = xstrdup(dir_given);
	for (size_t n = strlen(dir); n > 1 && dir[n - 1] == '/'; n--)
		dir[n - 1] = '\0';
	struct store *s = NULL;
	if (make_parents(dir, err, err_size) != 0)
		goto out;
	if (mkdir(dir, 0777) != 0) {
		if (errno == EEXIST)
			set_error(err, err_size,
			          "results folder %s already exists; choose another --out, or continue "
			          "it with --resume %s", dir, dir);
		else
			set_error(err, err_size, "cannot create results folder %s: %s", dir,
			          strerror(errno));
		goto out;
	}
	char *csv = join_path(dir, "samples.csv");
	int fd = open(csv, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0666);
	if (fd < 0) {
		set_error(err, err_size, "cannot create %s: %s", csv, strerror(errno));
		free(csv);
		rmdir(dir);
		goto out;
	}
	if (lock_samples(fd, dir, err, err_size) != 0) {
		close(fd);
		free(csv);
		goto out;
	}
	char *header = xasprintf("%s\n", STORE_CSV_HEADER);
	int rc = fileio_write_all(fd, header, strlen(header));
	free(header);
	if (rc != 0 || fsync(fd) != 0 || fileio_fsync_dir(dir) != 0) {
		set_error(err, err_size, "cannot write %s: %s", csv, strerror(errno));
		close(fd);
		unlink(csv);
		rmdir(dir);
		free(csv);
		goto out;
	}
	free(csv);
	s = xcalloc(1, sizeof *s);
	s->dir = dir;
	dir = NULL;
	s->csv_fd = fd;
out:
	free(dir);
	return s;
}

struct pending_trial {
	long trial;
	int rows, expected_rows;
	long end_offset; /* file offset just after the trial's last row */
	struct stored_trial summary;
	double utime_sum;
	int utime_count;
};

static void finish_trial(struct pending_trial *t, struct stored_trial **trials, long *ntrials,
                         long *capacity, long *complete_end)
{
	if (t->trial < 0 || t->rows != t->expected_rows)
		return;
	if (*ntrials == *capacity) {
		*capacity = *capacity ? *capacity * 2 : 64;
		*trials = xrealloc(*trials, (size_t)*capacity * sizeof **trials);
	}
	t->summary.utime_a_s = t->utime_count ? t->utime_sum / t->utime_count : NAN;
	(*trials)[(*ntrials)++] = t->summary;
	*complete_end = t->end_offset;
}

/* One row of the trial being read: its status, its span and its role-a user time. */
static void add_row(struct pending_trial *cur, char *const *fields, long line_end)
{
	cur->rows++;
	cur->end_offset = line_end;
	if (strcmp(fields[SAMPLES_COL_STATUS], "ok") != 0)
		cur->summary.ok = false;
	double start_s = strtod(fields[SAMPLES_COL_START], NULL);
	if (start_s < cur->summary.start_s)
		cur->summary.start_s = start_s;
	double end_s = strtod(fields[SAMPLES_COL_END], NULL);
	if (end_s > cur->summary.end_s)
		cur->summary.end_s = end_s;
	if (!strcmp(fields[SAMPLES_COL_ROLE], "a")) {
		cur->utime_sum += strtod(fields[SAMPLES_COL_UTIME], NULL);
		cur->utime_count++;
	}
}

/* Reads the rows after the header (header_len bytes) into *trials, the complete trials in
 * file order; stops at the first torn or foreign line. Returns the offset just after the last
 * complete trial. */
static long read_complete_trials(FILE *f, long header_len, struct stored_trial **trials,
                                 long *ntrials)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	long offset = header_len, complete_end = header_len, capacity = 0;
	struct pending_trial cur = { .trial = -1 };
	while ((len = getline(&line, &cap, f)) > 0) {
		long line_end = offset + len;
		offset = line_end;
		if (line[len - 1] != '\n')
			break; /* torn last line */
		line[len - 1] = '\0';
		char *fields[SAMPLES_COLUMN_COUNT];
		if (samples_csv_split(line, fields, SAMPLES_COLUMN_COUNT) != SAMPLES_COLUMN_COUNT)
			break;
		char *end = NULL;
		long trial = strtol(fields[SAMPLES_COL_TRIAL], &end, 10);
		enum placement p;
		if (*end || trial < 0 || placement_parse(fields[SAMPLES_COL_PLACEMENT], &p) != 0)
			break;
		if (trial != cur.trial) {
			finish_trial(&cur, trials, ntrials, &capacity, &complete_end);
			if (cur.trial >= 0 && cur.rows != cur.expected_rows)
				break; /* an incomplete trial in the middle: keep what came before */
			cur = (struct pending_trial){ .trial = trial, .expected_rows = placement_nprocs(p) };
			cur.summary = (struct stored_trial){ .trial = trial, .placement = p,
			                                     .warmup = fields[SAMPLES_COL_WARMUP][0] == '1',
			                                     .ok = true, .start_s = INFINITY };
		}
		add_row(&cur, fields, line_end);
	}
	finish_trial(&cur, trials, ntrials, &capacity, &complete_end);
	free(line);
	return complete_end;
}

/* The lines of f that end after offset end: what the cut drops. */
static long count_lines_after(FILE *f, long end)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	long dropped = 0, pos = 0;
	rewind(f);
	while ((len = getline(&line, &cap, f)) > 0) {
		pos += len;
		dropped += pos > end;
	}
	free(line);
	return dropped;
}

struct store *store_resume(const char *dir, struct stored_trial **trials, long *ntrials,
                           long *dropped_lines, char *err, size_t err_size)
{
	*trials = NULL;
	*ntrials = 0;
	*dropped_lines = 0;
	char *csv = join_path(dir, "samples.csv");
	/* Lock before reading, so that no other run appends between the reading and the cut. */
	int fd = open(csv, O_WRONLY | O_APPEND | O_CLOEXEC);
	FILE *f = fd >= 0 ? fopen(csv, "r") : NULL;
	if (!f) {
		set_error(err, err_size, "cannot open %s: %s (is %s a results folder?)", csv,
		          strerror(errno), dir);
		if (fd >= 0)
			close(fd);
		free(csv);
		return NULL;
	}
	if (lock_samples(fd, dir, err, err_size) != 0) {
		close(fd);
		fclose(f);
		free(csv);
		return NULL;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t len = getline(&line, &cap, f);
	if (len <= 0 || strncmp(line, STORE_CSV_HEADER, strlen(STORE_CSV_HEADER)) != 0) {
		set_error(err, err_size, "%s: the first line is not smtbench's samples.csv header",
		          csv);
		free(line);
		fclose(f);
		close(fd);
		free(csv);
		return NULL;
	}
	free(line);
	long complete_end = read_complete_trials(f, len, trials, ntrials);
	*dropped_lines = count_lines_after(f, complete_end);
	fclose(f);

	if (ftruncate(fd, complete_end) != 0 || fsync(fd) != 0) {
		set_error(err, err_size, "cannot cut the unfinished trial off %s: %s", csv,
		          strerror(errno));
		close(fd);
		free(csv);
		free(*trials);
		*trials = NULL;
		*ntrials = 0;
		return NULL;
	}
	free(csv);
	struct store *s = xcalloc(1, sizeof *s);
	s->dir = xstrdup(dir);
	s->csv_fd = fd;
	return s;
}

/* Workload names go into an unquoted CSV field: keep them to one safe token. */
static void sanitize_token(const char *in, char *out, size_t outlen)
{
	size_t i = 0;
	for (; in && in[i] && i + 1 < outlen; i++) {
		char c = in[i];
		out[i] = (c == ',' || c == '"' || c == '\n' || c == '\r') ? '_' : c;
	}
	out[i] = '\0';
}

/* Formats a double for the CSV: empty when unknown. */
static void format_number(char *buf, size_t len, const char *fmt, double v)
{
	if (isnan(v))
		buf[0] = '\0';
	else
		snprintf(buf, len, fmt, v);
}

int store_append_trial(struct store *s, const struct trial_labels *labels,
                       const struct trial_result *result, char *err, size_t err_size)
{
	char *rows = NULL;
	size_t rows_len = 0;
	FILE *mem = open_memstream(&rows, &rows_len);
	if (!mem) {
		set_error(err, err_size, "cannot format a trial: %s", strerror(errno));
		return -1;
	}
	char freq[32], load[32], foreign[32], steal[32];
	format_number(freq, sizeof freq, "%.0f", result->freq_mhz);
	format_number(load, sizeof load, "%.2f", result->loadavg_1m);
	format_number(foreign, sizeof foreign, "%.3f", result->foreign_s);
	format_number(steal, sizeof steal, "%.3f", result->steal_s);
	struct samples_row row;
	int unset = -1;
	for (int i = 0; i < result->nprocs && unset < 0; i++) {
		const struct proc_result *r = &result->procs[i];
		char workload[SAMPLES_FIELD_LEN];
		sanitize_token(labels->workload[i], workload, sizeof workload);
		samples_row_clear(&row);
		samples_row_set(&row, SAMPLES_COL_TRIAL, "%ld", labels->trial);
		samples_row_set(&row, SAMPLES_COL_BLOCK, "%ld", labels->block);
		samples_row_set(&row, SAMPLES_COL_WARMUP, "%d", labels->warmup ? 1 : 0);
		samples_row_set(&row, SAMPLES_COL_PLACEMENT, "%s", placement_name(labels->placement));
		samples_row_set(&row, SAMPLES_COL_PROC, "%d", i);
		samples_row_set(&row, SAMPLES_COL_ROLE, "%s", labels->role[i]);
		samples_row_set(&row, SAMPLES_COL_PU, "%s", "");
		if (r->pu >= 0)
			samples_row_set(&row, SAMPLES_COL_PU, "%d", r->pu);
		samples_row_set(&row, SAMPLES_COL_WORKLOAD, "%s", workload);
		samples_row_set(&row, SAMPLES_COL_STATUS, "%s", r->status ? r->status : "exec-failed");
		samples_row_set(&row, SAMPLES_COL_EXIT_CODE, "%s", "");
		if (r->exit_code >= 0)
			samples_row_set(&row, SAMPLES_COL_EXIT_CODE, "%d", r->exit_code);
		samples_row_set(&row, SAMPLES_COL_SIGNAL, "%s", "");
		if (r->signal > 0)
			samples_row_set(&row, SAMPLES_COL_SIGNAL, "%d", r->signal);
		samples_row_set(&row, SAMPLES_COL_UTIME, "%.6f", r->utime_s);
		samples_row_set(&row, SAMPLES_COL_STIME, "%.6f", r->stime_s);
		samples_row_set(&row, SAMPLES_COL_WALL, "%.6f", r->wall_s);
		samples_row_set(&row, SAMPLES_COL_START, "%.6f", r->start_s);
		samples_row_set(&row, SAMPLES_COL_END, "%.6f", r->end_s);
		samples_row_set(&row, SAMPLES_COL_NVCSW, "%ld", r->nvcsw);
		samples_row_set(&row, SAMPLES_COL_NIVCSW, "%ld", r->nivcsw);
		samples_row_set(&row, SAMPLES_COL_MAXRSS, "%ld", r->maxrss_kb);
		samples_row_set(&row, SAMPLES_COL_OVERLAP, "%.4f", result->overlap);
		samples_row_set(&row, SAMPLES_COL_FREQ, "%s", freq);
		samples_row_set(&row, SAMPLES_COL_LOADAVG, "%s", load);
		samples_row_set(&row, SAMPLES_COL_STARTED_UTC, "%s", result->started_utc);
		samples_row_set(&row, SAMPLES_COL_FOREIGN, "%s", foreign);
		samples_row_set(&row, SAMPLES_COL_STEAL, "%s", steal);
		samples_row_set(&row, SAMPLES_COL_LEFTOVERS, "%d", result->leftovers);
		unset = samples_row_print(&row, mem);
	}
	if (fclose(mem) != 0 || unset >= 0) {
		if (unset >= 0)
			set_error(err, err_size, "cannot format a trial: no value for samples.csv's "
			          "column %s (a bug: please report it)", samples_csv_names[unset]);
		else
			set_error(err, err_size, "cannot format a trial: %s", strerror(errno));
		free(rows);
		return -1;
	}
	int rc = fileio_write_all(s->csv_fd, rows, rows_len);
	if (rc == 0)
		rc = fsync(s->csv_fd);
	if (rc != 0)
		set_error(err, err_size, "cannot write %s/samples.csv: %s", s->dir, strerror(errno));
	free(rows);
	return rc;
}

const char *store_dir(const struct store *s)
{
	return s->dir;
}

void store_close(struct store **s)
{
	if (!s || !*s)
		return;
	if ((*s)->csv_fd >= 0)
		close((*s)->csv_fd);
	free((*s)->dir);
	free(*s);
	*s = NULL;
}

int store_write_file(const char *dir, const char *name, const char *content, size_t len,
                     char *err, size_t err_size)
{
	return fileio_write_atomic(dir, name, content, len, err, err_size);
}

char *store_read_file(const char *dir, const char *name, char *err, size_t err_size)
{
	char *path = join_path(dir, name);
	char *content = fileio_read_all(path, NULL, err, err_size);
	free(path);
	return content;
}
