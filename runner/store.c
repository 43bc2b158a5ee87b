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

#include "runner/util.h"
#include "topology/fileio.h"

const char STORE_CSV_HEADER[] =
	"trial,block,warmup,placement,proc,role,pu,workload,status,exit_code,signal,"
	"utime_s,stime_s,wall_s,start_s,end_s,nvcsw,nivcsw,maxrss_kb,overlap,freq_mhz,"
	"loadavg_1m,started_utc";

/* Column positions in STORE_CSV_HEADER that resume reads back. */
enum { COL_TRIAL = 0, COL_WARMUP = 2, COL_PLACEMENT = 3, COL_ROLE = 5, COL_STATUS = 8,
       COL_UTIME = 11, COL_START = 14, COL_END = 15, COLUMN_COUNT = 23 };

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

/* Splits a CSV line (no quoting in our format) into at most max fields, in place. */
static int split_fields(char *line, char **fields, int max)
{
	int n = 0;
	char *p = line;
	while (n < max) {
		fields[n++] = p;
		char *comma = strchr(p, ',');
		if (!comma)
			break;
		*comma = '\0';
		p = comma + 1;
	}
	return n;
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
	long offset = len, complete_end = len, capacity = 0;
	struct pending_trial cur = { .trial = -1 };
	while ((len = getline(&line, &cap, f)) > 0) {
		long line_end = offset + len;
		offset = line_end;
		if (line[len - 1] != '\n')
			break; /* torn last line */
		line[len - 1] = '\0';
		char *fields[COLUMN_COUNT + 1];
		if (split_fields(line, fields, COLUMN_COUNT + 1) != COLUMN_COUNT)
			break;
		char *end = NULL;
		long trial = strtol(fields[COL_TRIAL], &end, 10);
		enum placement p;
		if (*end || trial < 0 || placement_parse(fields[COL_PLACEMENT], &p) != 0)
			break;
		if (trial != cur.trial) {
			finish_trial(&cur, trials, ntrials, &capacity, &complete_end);
			if (cur.trial >= 0 && cur.rows != cur.expected_rows)
				break; /* an incomplete trial in the middle: keep what came before */
			cur = (struct pending_trial){ .trial = trial, .expected_rows = placement_nprocs(p) };
			cur.summary = (struct stored_trial){ .trial = trial, .placement = p,
			                                     .warmup = fields[COL_WARMUP][0] == '1',
			                                     .ok = true, .start_s = INFINITY };
		}
		cur.rows++;
		cur.end_offset = line_end;
		if (strcmp(fields[COL_STATUS], "ok") != 0)
			cur.summary.ok = false;
		double start_s = strtod(fields[COL_START], NULL);
		if (start_s < cur.summary.start_s)
			cur.summary.start_s = start_s;
		double end_s = strtod(fields[COL_END], NULL);
		if (end_s > cur.summary.end_s)
			cur.summary.end_s = end_s;
		if (!strcmp(fields[COL_ROLE], "a")) {
			cur.utime_sum += strtod(fields[COL_UTIME], NULL);
			cur.utime_count++;
		}
	}
	finish_trial(&cur, trials, ntrials, &capacity, &complete_end);
	/* Count what is cut: every line after the last complete trial. */
	rewind(f);
	long kept_lines = 0, pos = 0;
	while ((len = getline(&line, &cap, f)) > 0) {
		pos += len;
		if (pos <= complete_end)
			kept_lines++;
		else
			(*dropped_lines)++;
	}
	free(line);
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
	char freq[32], load[32];
	format_number(freq, sizeof freq, "%.0f", result->freq_mhz);
	format_number(load, sizeof load, "%.2f", result->loadavg_1m);
	for (int i = 0; i < result->nprocs; i++) {
		const struct proc_result *r = &result->procs[i];
		char workload[128], exit_code[16] = "", signal_number[16] = "", pu[16] = "";
		sanitize_token(labels->workload[i], workload, sizeof workload);
		if (r->exit_code >= 0)
			snprintf(exit_code, sizeof exit_code, "%d", r->exit_code);
		if (r->signal > 0)
			snprintf(signal_number, sizeof signal_number, "%d", r->signal);
		if (r->pu >= 0)
			snprintf(pu, sizeof pu, "%d", r->pu);
		fprintf(mem,
		        "%ld,%ld,%d,%s,%d,%s,%s,%s,%s,%s,%s,%.6f,%.6f,%.6f,%.6f,%.6f,%ld,%ld,%ld,%.4f,%s,"
		        "%s,%s\n",
		        labels->trial, labels->block, labels->warmup ? 1 : 0,
		        placement_name(labels->placement), i, labels->role[i], pu, workload,
		        r->status ? r->status : "exec-failed", exit_code, signal_number, r->utime_s,
		        r->stime_s, r->wall_s, r->start_s, r->end_s, r->nvcsw, r->nivcsw, r->maxrss_kb,
		        result->overlap, freq, load, result->started_utc);
	}
	if (fclose(mem) != 0) {
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
