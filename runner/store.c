#include "runner/store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/samples_csv.h"
#include "common/text.h"
#include "common/alloc.h"
#include "common/fileio.h"
#include "common/number.h"

struct store {
	char *dir;       /* where the folder is now: its temporary name until published */
	char *final_dir; /* where store_publish puts it (NULL once published, or for a resume) */
	int parent_fd;   /* the parent folder, for the rename into place; -1 once published */
	int dir_fd;      /* the results folder itself: files are opened relative to it */
	int csv_fd;
	bool unsynced;         /* trials written since the last fsync */
	double last_sync_s;    /* monotonic time of the last fsync */
};

/* The start of the name a creation killed half way leaves behind: docs/overnight.md ("A results
 * folder is complete or absent") tells users how to recognise and remove such a folder. */
#define STORE_PARTIAL_PREFIX ".smtbench-partial-"

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

static struct store *store_new(char *dir, int dir_fd, int csv_fd)
{
	struct store *s = xcalloc(1, sizeof *s);
	s->dir = dir;
	s->dir_fd = dir_fd;
	s->csv_fd = csv_fd;
	s->parent_fd = -1;
	return s;
}

/* The folder under its temporary name, beside where it will be: ".smtbench-partial-NAME.XXXXXX"
 * (mkdtemp: a unique name, created exclusively), with the mode any new folder would get. */
static char *make_temp_folder(const char *dir, const char *parent, const char *base, char *err,
                              size_t err_size)
{
	char *tmp = xasprintf("%s/" STORE_PARTIAL_PREFIX "%s.XXXXXX", parent, base);
	if (!mkdtemp(tmp)) {
		set_error(err, err_size, "cannot create results folder %s: %s", dir, strerror(errno));
		free(tmp);
		return NULL;
	}
	mode_t mask = umask(0);
	umask(mask);
	if (chmod(tmp, 0777 & ~mask) != 0) {
		set_error(err, err_size, "cannot set the mode of %s: %s", tmp, strerror(errno));
		rmdir(tmp);
		free(tmp);
		return NULL;
	}
	return tmp;
}

/* samples.csv with its header, locked, on disk: its descriptor, or -1 with err. */
static int create_samples(int dir_fd, const char *dir, char *err, size_t err_size)
{
	int fd = openat(dir_fd, "samples.csv",
	                O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (fd < 0) {
		set_error(err, err_size, "cannot create %s/samples.csv: %s", dir, strerror(errno));
		return -1;
	}
	if (lock_samples(fd, dir, err, err_size) != 0) {
		close(fd);
		return -1;
	}
	const char *step = "write";
	int rc = dprintf(fd, "%s\n", SAMPLES_CSV_HEADER) < 0 ? -1 : 0;
	if (rc == 0 && (rc = fsync(fd)) != 0)
		step = "fsync";
	if (rc == 0 && (rc = fsync(dir_fd)) != 0)
		step = "fsync the folder of";
	if (rc != 0) {
		set_error(err, err_size, "cannot %s %s/samples.csv: %s", step, dir, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* Splits "a/b/run/" into its parent "a/b" and its name "run" (both new strings). */
static int split_dir(const char *given, char **parent, char **base, char *err, size_t err_size)
{
	char *for_dir = xstrdup(given), *for_base = xstrdup(given);
	*parent = xstrdup(dirname(for_dir)); /* POSIX's: both may change their argument */
	*base = xstrdup(basename(for_base));
	free(for_dir);
	free(for_base);
	if (strcmp(*base, ".") && strcmp(*base, "..") && strcmp(*base, "/"))
		return 0;
	set_error(err, err_size, "'%s' does not name a new folder", given);
	free(*parent);
	free(*base);
	return -1;
}

struct store *store_create(const char *dir_given, char *err, size_t err_size)
{
	if (!*dir_given) {
		set_error(err, err_size, "the results folder's name is empty");
		return NULL;
	}
	char *parent = NULL, *base = NULL, *tmp = NULL;
	int parent_fd = -1;
	if (split_dir(dir_given, &parent, &base, err, err_size) != 0)
		return NULL;
	char *dir = !strcmp(parent, ".") ? xstrdup(base) : !strcmp(parent, "/")
	            ? xasprintf("/%s", base) : xasprintf("%s/%s", parent, base);
	struct stat st;
	if (make_parents(dir, err, err_size) != 0) {
		/* err names the parent that could not be made */
	} else if (lstat(dir, &st) == 0) {
		/* Whether it is a run --resume can continue is for the caller to judge (meta.json). */
		set_error(err, err_size, "results folder %s already exists; choose another --out",
		          dir);
	} else if ((parent_fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		set_error(err, err_size, "cannot create results folder %s: its parent %s: %s", dir,
		          parent, strerror(errno));
	} else {
		tmp = make_temp_folder(dir, parent, base, err, err_size);
	}
	free(parent);
	free(base);
	if (!tmp) {
		if (parent_fd >= 0)
			close(parent_fd);
		free(dir);
		return NULL;
	}
	/* The store owns the temporary folder from here: closed unpublished, it removes it. */
	struct store *s = store_new(tmp, open(tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC),
	                            -1);
	s->final_dir = dir;
	s->parent_fd = parent_fd;
	if (s->dir_fd < 0)
		set_error(err, err_size, "cannot open %s: %s", tmp, strerror(errno));
	else
		s->csv_fd = create_samples(s->dir_fd, tmp, err, err_size);
	if (s->csv_fd < 0)
		store_close(&s);
	return s;
}

static const char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

bool store_is_partial(const char *dir)
{
	char *copy = xstrdup(dir);
	bool partial = !strncmp(basename(copy), STORE_PARTIAL_PREFIX, strlen(STORE_PARTIAL_PREFIX));
	free(copy);
	return partial;
}

int store_publish(struct store *s, char *err, size_t err_size)
{
	if (!s->final_dir)
		return 0;
	if (fsync(s->dir_fd) != 0) {
		set_error(err, err_size, "cannot fsync folder %s: %s", s->dir, strerror(errno));
		return -1;
	}
	int rc = renameat2(s->parent_fd, base_of(s->dir), s->parent_fd, base_of(s->final_dir),
	                   RENAME_NOREPLACE);
	if (rc != 0 && errno == EINVAL) {
		/* A file system without RENAME_NOREPLACE: rename refuses a non-empty folder, and an
		 * empty one is checked for first. */
		struct stat st;
		rc = fstatat(s->parent_fd, base_of(s->final_dir), &st, AT_SYMLINK_NOFOLLOW) == 0
		     ? (errno = EEXIST, -1) : renameat(s->parent_fd, base_of(s->dir), s->parent_fd,
		                                       base_of(s->final_dir));
	}
	if (rc != 0) {
		set_error(err, err_size, errno == EEXIST || errno == ENOTEMPTY
		          ? "results folder %s appeared while this run was creating it (%s); choose "
		            "another --out" : "cannot rename %s into place: %s",
		          s->final_dir, strerror(errno));
		return -1;
	}
	if (fsync(s->parent_fd) != 0) {
		set_error(err, err_size, "cannot fsync the folder that holds %s: %s", s->final_dir,
		          strerror(errno));
		return -1;
	}
	free(s->dir);
	s->dir = s->final_dir;
	s->final_dir = NULL;
	close(s->parent_fd);
	s->parent_fd = -1;
	return 0;
}

struct store *store_open(const char *dir, char *err, size_t err_size)
{
	int dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* O_NONBLOCK: a FIFO in its place must not hang the open with the stop signals blocked
	 * (with no reader it fails at once); anything but a regular file is refused. */
	int fd = dir_fd < 0 ? -1 : openat(dir_fd, "samples.csv", O_WRONLY | O_APPEND | O_NOFOLLOW
	                                  | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		set_error(err, err_size, "cannot open %s/samples.csv: %s (is %s a results folder?)",
		          dir, errno == ENXIO ? "it is a FIFO, not a regular file" : strerror(errno),
		          dir);
		if (dir_fd >= 0)
			close(dir_fd);
		return NULL;
	}
	struct stat st;
	bool regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode)
	               && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0;
	if (!regular)
		set_error(err, err_size, "%s/samples.csv is not a regular file (is %s a results "
		          "folder?)", dir, dir);
	if (!regular || lock_samples(fd, dir, err, err_size) != 0) {
		close(fd);
		close(dir_fd);
		return NULL;
	}
	return store_new(xstrdup(dir), dir_fd, fd);
}

/* --- reading samples.csv back: every row checked, damage refused, a torn tail found --- */

/* What a row's fields must hold: N a whole number, R a real number, E either or empty, '-' any
 * text; by column, in the schema's order. */
static bool field_ok(enum samples_column col, const char *text)
{
	static const char kind[SAMPLES_COLUMN_COUNT] = {
		[SAMPLES_COL_TRIAL] = 'N', [SAMPLES_COL_BLOCK] = 'N', [SAMPLES_COL_WARMUP] = 'N',
		[SAMPLES_COL_PROC] = 'N', [SAMPLES_COL_PU] = 'n', [SAMPLES_COL_EXIT_CODE] = 'n',
		[SAMPLES_COL_SIGNAL] = 'n', [SAMPLES_COL_UTIME] = 'R', [SAMPLES_COL_STIME] = 'R',
		[SAMPLES_COL_WALL] = 'R', [SAMPLES_COL_START] = 'R', [SAMPLES_COL_END] = 'R',
		[SAMPLES_COL_NVCSW] = 'N', [SAMPLES_COL_NIVCSW] = 'N', [SAMPLES_COL_MAXRSS] = 'N',
		[SAMPLES_COL_OVERLAP] = 'r', [SAMPLES_COL_FREQ] = 'r', [SAMPLES_COL_LOADAVG] = 'r',
	};
	char k = kind[col];
	if (!k)
		return true;
	if (!*text)
		return k == 'n' || k == 'r';
	/* By the one number rule (common/number.h), as the analysis reads the file. */
	long long whole;
	double real;
	if (k == 'N' || k == 'n')
		return number_parse_whole(text, &whole) == NUMBER_OK && whole >= LONG_MIN
		       && whole <= LONG_MAX;
	return number_parse_real(text, &real) == NUMBER_OK;
}

/* One row as the scan needs it. */
struct scanned_row {
	long trial, block, proc;
	bool warmup;
	enum placement placement;
};

/* The rows a trial of placement p has: one per process of the placement, or one in every
 * placement for a run of one process (run --one-process). */
static int rows_per_trial(bool one_process, enum placement p)
{
	return one_process ? 1 : placement_nprocs(p);
}

/* Why fields[] is not a valid row (a constant string, or one written into why), or NULL with
 * *r filled. */
static const char *check_row(char **fields, size_t nfields, bool one_process,
                             struct scanned_row *r, char *why, size_t why_size)
{
	if (nfields != SAMPLES_COLUMN_COUNT) {
		snprintf(why, why_size, "%zu fields where the header has %d", nfields,
		         SAMPLES_COLUMN_COUNT);
		return why;
	}
	for (int c = 0; c < SAMPLES_COLUMN_COUNT; c++)
		if (!field_ok((enum samples_column)c, fields[c])) {
			snprintf(why, why_size, "'%.24s' is not a valid %s", fields[c],
			         samples_csv_names[c]);
			return why;
		}
	if (placement_parse(fields[SAMPLES_COL_PLACEMENT], &r->placement) != 0)
		return "unknown placement";
	if (strcmp(fields[SAMPLES_COL_ROLE], "a") && strcmp(fields[SAMPLES_COL_ROLE], "b"))
		return "role is neither a nor b";
	if (!*fields[SAMPLES_COL_STATUS])
		return "empty status";
	r->trial = strtol(fields[SAMPLES_COL_TRIAL], NULL, 10);
	r->block = strtol(fields[SAMPLES_COL_BLOCK], NULL, 10);
	r->proc = strtol(fields[SAMPLES_COL_PROC], NULL, 10);
	long warmup = strtol(fields[SAMPLES_COL_WARMUP], NULL, 10);
	r->warmup = warmup == 1;
	if (r->trial < 0 || r->block < 0 || (warmup != 0 && warmup != 1))
		return "trial, block or warmup out of range";
	if (r->proc < 0 || r->proc >= rows_per_trial(one_process, r->placement))
		return "proc is not a process of its placement";
	return NULL;
}

struct scan_state {
	struct store_scan *out;
	bool one_process;          /* one row per trial (run --one-process) */
	size_t capacity;
	struct stored_trial summary; /* the current trial (line 0 before the first) */
	int rows;
	unsigned procs_seen;       /* bit per proc */
	off_t end;                 /* just after the current trial's last row */
	double utime_sum, wall_sum;
	int utime_count;
	char why[ERR_LEN];         /* the message of the last damaged line */
};

/* The index of a workload name in the scan's list, added when new; -1 past the limit. */
static int scan_workload(struct store_scan *out, const char *name)
{
	for (size_t i = 0; i < out->nworkloads; i++)
		if (!strcmp(out->workloads[i], name))
			return (int)i;
	if (out->nworkloads >= STORE_SCAN_MAX_WORKLOADS)
		return -1;
	strings_push(&out->workloads, &out->nworkloads, xstrdup(name));
	return (int)out->nworkloads - 1;
}

static void push_trial(struct scan_state *st)
{
	struct store_scan *out = st->out;
	xgrow(&out->trials, &st->capacity, (size_t)out->ntrials + 1, sizeof *out->trials);
	st->summary.utime_a_s = st->utime_count ? st->utime_sum / st->utime_count : NAN;
	st->summary.wall_a_s = st->utime_count ? st->wall_sum / st->utime_count : NAN;
	out->trials[out->ntrials++] = st->summary;
	out->complete_end = st->end;
}

/* A row of the trial being read; a row that cannot belong to it is damage (a message). */
static const char *add_row(struct scan_state *st, const struct scanned_row *r, char **fields,
                           off_t line_end)
{
	char *why = st->why;
	int expected = rows_per_trial(st->one_process, st->summary.placement);
	if (r->placement != st->summary.placement || r->block != st->summary.block
	    || r->warmup != st->summary.warmup)
		snprintf(why, sizeof st->why, "trial %ld's rows disagree on its placement, block or warmup",
		         r->trial);
	else if (st->rows >= expected || (st->procs_seen & (1u << r->proc)))
		snprintf(why, sizeof st->why, "a second row for process %ld of trial %ld (a %s trial has "
		         "%d row%s): a duplicated or stray row", r->proc, r->trial,
		         placement_name(r->placement), expected, expected == 1 ? "" : "s");
	else
		why[0] = '\0';
	if (why[0])
		return why;
	st->rows++;
	st->procs_seen |= 1u << r->proc;
	st->end = line_end;
	if (strcmp(fields[SAMPLES_COL_STATUS], "ok") != 0)
		st->summary.ok = false;
	st->summary.start_s = fmin(st->summary.start_s, strtod(fields[SAMPLES_COL_START], NULL));
	st->summary.end_s = fmax(st->summary.end_s, strtod(fields[SAMPLES_COL_END], NULL));
	bool role_a = !strcmp(fields[SAMPLES_COL_ROLE], "a");
	if (role_a) {
		st->utime_sum += strtod(fields[SAMPLES_COL_UTIME], NULL);
		st->wall_sum += strtod(fields[SAMPLES_COL_WALL], NULL);
		st->utime_count++;
	}
	*(role_a ? &st->summary.workload_a : &st->summary.workload_b) =
		scan_workload(st->out, fields[SAMPLES_COL_WORKLOAD]);
	return NULL;
}

/* Row r starts a new trial: the one before must be whole, and the numbers must follow on. */
static const char *start_trial(struct scan_state *st, const struct scanned_row *r, long line_no)
{
	char *why = st->why;
	long want = 0;
	if (st->summary.line) {
		int expected = rows_per_trial(st->one_process, st->summary.placement);
		if (st->rows < expected) {
			snprintf(why, sizeof st->why, "trial %ld (from line %ld) has %d of its %d rows, and "
			         "more trials follow it", st->summary.trial, st->summary.line, st->rows,
			         expected);
			return why;
		}
		push_trial(st);
		want = st->summary.trial + 1;
	}
	if (r->trial != want) {
		snprintf(why, sizeof st->why, "trial %ld where trial %ld should be (trials are numbered "
		         "0, 1, 2, ... in file order)", r->trial, want);
		return why;
	}
	st->rows = 0;
	st->procs_seen = 0;
	st->summary = (struct stored_trial){ .trial = r->trial, .block = r->block,
	                                     .placement = r->placement, .warmup = r->warmup,
	                                     .ok = true, .start_s = INFINITY, .line = line_no,
	                                     .workload_a = -1, .workload_b = -1 };
	st->utime_sum = st->wall_sum = 0;
	st->utime_count = 0;
	return NULL;
}

/* One complete line (no newline): a blank line is skipped, anything else must be a valid row
 * that continues the file. Damage: the message. */
static const char *scan_line(struct scan_state *st, char *line, long line_no, off_t line_end)
{
	line[strcspn(line, "\r")] = '\0';
	if (!*line)
		return NULL;
	char *fields[SAMPLES_COLUMN_COUNT];
	size_t n = samples_csv_split(line, fields, SAMPLES_COLUMN_COUNT);
	struct scanned_row r;
	const char *why = check_row(fields, n, st->one_process, &r, st->why, sizeof st->why);
	if (!why && (!st->summary.line || r.trial != st->summary.trial))
		why = start_trial(st, &r, line_no);
	if (!why)
		why = add_row(st, &r, fields, line_end);
	return why;
}

/* After the last line: a whole last trial is kept; a torn one (fewer rows than its placement
 * has processes) and a last line without its newline (torn, unless blank) are what
 * store_cut_torn will cut. */
static void scan_finish(struct scan_state *st, bool torn_line)
{
	bool whole = st->summary.line
	             && st->rows == rows_per_trial(st->one_process, st->summary.placement);
	if (whole)
		push_trial(st);
	st->out->cut_lines = (st->summary.line && !whole ? st->rows : 0) + torn_line;
}

/* The header line, after an optional UTF-8 byte-order mark: its length with the newline, or -1. */
static long header_length(const char *line, ssize_t len)
{
	size_t skip = len >= 3 && !memcmp(line, UTF8_BOM, 3) ? 3 : 0;
	size_t hlen = strlen(SAMPLES_CSV_HEADER);
	if ((size_t)len < skip + hlen + 1 || memcmp(line + skip, SAMPLES_CSV_HEADER, hlen) != 0)
		return -1;
	const char *rest = line + skip + hlen;
	if (strcmp(rest, "\n") && strcmp(rest, "\r\n"))
		return -1;
	return (long)len;
}

/* Reads every line of f after the header, checking each. 0, or -1 with err "FILE:LINE: why". */
static int scan_rows(FILE *f, const char *csv, off_t offset, bool one_process,
                     struct store_scan *out, char *err, size_t err_size)
{
	struct scan_state st = { .out = out, .one_process = one_process };
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	long line_no = 1;
	int rc = 0;
	bool torn_line = false;
	while ((len = fileio_read_line(f, &line, &cap, SAMPLES_CSV_LINE_MAX)) > 0) {
		line_no++;
		offset += len;
		if (memchr(line, '\0', (size_t)len)) {
			set_error(err, err_size, "%s:%ld: a NUL byte in the line; the file is damaged",
			          csv, line_no);
			rc = -1;
			break;
		}
		if (line[len - 1] != '\n') { /* the last line, cut short: cut with its trial */
			torn_line = strspn(line, "\r") != (size_t)len;
			break;
		}
		line[len - 1] = '\0';
		const char *why = scan_line(&st, line, line_no, offset);
		if (why) {
			set_error(err, err_size, "%s:%ld: %s", csv, line_no, why);
			rc = -1;
			break;
		}
	}
	if (len == FILEIO_LINE_TOO_LONG) {
		set_error(err, err_size, "%s:%ld: a line of more than %d MiB: not a samples.csv that "
		          "smtbench wrote; the file is damaged", csv, line_no + 1,
		          (int)(SAMPLES_CSV_LINE_MAX >> 20));
		rc = -1;
	} else if (rc == 0 && len < 0 && errno) {
		set_error(err, err_size, "cannot read %s: %s", csv, strerror(errno));
		rc = -1;
	}
	if (rc == 0)
		scan_finish(&st, torn_line);
	free(line);
	return rc;
}

int store_scan(struct store *s, bool one_process, struct store_scan *out, char *err,
               size_t err_size)
{
	*out = (struct store_scan){ 0 };
	char *csv = xasprintf("%s/samples.csv", s->dir);
	int fd = openat(s->dir_fd, "samples.csv", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!f) {
		set_error(err, err_size, "cannot read %s: %s", csv, strerror(errno));
		if (fd >= 0)
			close(fd);
		free(csv);
		return -1;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t len = fileio_read_line(f, &line, &cap, SAMPLES_CSV_LINE_MAX);
	long header_len = len > 0 ? header_length(line, len) : -1;
	/* Another version's header starts with the same first columns but has others after them. */
	bool other_version = len > 0 && header_len < 0 && strstr(line, "trial,block,warmup,placement,");
	free(line);
	int rc = -1;
	if (header_len < 0 && other_version)
		set_error(err, err_size, "%s:1: written by another version of smtbench (its columns "
		          "differ from this version's); `smtbench report` and `analyze` still read it, "
		          "but a resumed run would mix two formats: start a new run instead", csv);
	else if (header_len < 0)
		set_error(err, err_size, "%s:1: not smtbench's samples.csv header (%s)", csv,
		          SAMPLES_CSV_HEADER);
	else {
		out->complete_end = header_len;
		rc = scan_rows(f, csv, header_len, one_process, out, err, err_size);
	}
	if (rc != 0)
		store_scan_release(out);
	fclose(f);
	free(csv);
	return rc;
}

void store_scan_release(struct store_scan *scan)
{
	free(scan->trials);
	strings_release(&scan->workloads, &scan->nworkloads);
	*scan = (struct store_scan){ 0 };
}

int store_cut_torn(struct store *s, const struct store_scan *scan, char *err, size_t err_size)
{
	if (scan->cut_lines == 0)
		return 0;
	if (ftruncate(s->csv_fd, scan->complete_end) != 0 || fsync(s->csv_fd) != 0) {
		set_error(err, err_size, "cannot cut the unfinished trial off %s/samples.csv: %s",
		          s->dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* A measurement (or a number that may be missing, such as the PU) into column col, by fmt;
 * empty when unknown (NAN). */
static void set_measured(struct samples_row *row, enum samples_column col, const char *fmt,
                         double v)
{
	samples_row_set(row, col, "%s", "");
	if (!isnan(v))
		samples_row_set(row, col, fmt, v);
}

_Static_assert(SAMPLES_PER_CPU_MAX == TRIAL_MAX_PUS, "per_cpu_s holds a trial's CPUs");

/* Process i's row of a trial. */
static void fill_row(struct samples_row *row, const struct trial_labels *labels,
                     const struct trial_result *result, int i)
{
	const struct proc_result *r = &result->procs[i];
	char workload[SAMPLES_FIELD_LEN];
	samples_csv_token(labels->workload[i], workload, sizeof workload);
	samples_row_clear(row);
	samples_row_set(row, SAMPLES_COL_TRIAL, "%ld", labels->trial);
	samples_row_set(row, SAMPLES_COL_BLOCK, "%ld", labels->block);
	samples_row_set(row, SAMPLES_COL_WARMUP, "%d", labels->warmup ? 1 : 0);
	samples_row_set(row, SAMPLES_COL_PLACEMENT, "%s", placement_name(labels->placement));
	samples_row_set(row, SAMPLES_COL_PROC, "%d", i);
	samples_row_set(row, SAMPLES_COL_ROLE, "%s", labels->role[i]);
	set_measured(row, SAMPLES_COL_PU, "%.0f", r->pu >= 0 ? r->pu : NAN);
	samples_row_set(row, SAMPLES_COL_WORKLOAD, "%s", workload);
	samples_row_set(row, SAMPLES_COL_STATUS, "%s", proc_status_name(r->status));
	set_measured(row, SAMPLES_COL_EXIT_CODE, "%.0f", r->exit_code >= 0 ? r->exit_code : NAN);
	set_measured(row, SAMPLES_COL_SIGNAL, "%.0f", r->signal > 0 ? r->signal : NAN);
	samples_row_set(row, SAMPLES_COL_UTIME, "%.6f", r->utime_s);
	samples_row_set(row, SAMPLES_COL_STIME, "%.6f", r->stime_s);
	samples_row_set(row, SAMPLES_COL_WALL, "%.6f", r->wall_s);
	samples_row_set(row, SAMPLES_COL_START, "%.6f", r->start_s);
	samples_row_set(row, SAMPLES_COL_END, "%.6f", r->end_s);
	samples_row_set(row, SAMPLES_COL_NVCSW, "%ld", r->nvcsw);
	samples_row_set(row, SAMPLES_COL_NIVCSW, "%ld", r->nivcsw);
	samples_row_set(row, SAMPLES_COL_MAXRSS, "%ld", r->maxrss_kb);
	samples_row_set(row, SAMPLES_COL_OVERLAP, "%.4f", result->overlap);
	set_measured(row, SAMPLES_COL_FREQ, "%.0f", result->freq_mhz);
	set_measured(row, SAMPLES_COL_LOADAVG, "%.2f", result->loadavg_1m);
	samples_row_set(row, SAMPLES_COL_STARTED_UTC, "%s", result->started_utc);
	set_measured(row, SAMPLES_COL_FOREIGN, "%.3f", result->foreign_s);
	set_measured(row, SAMPLES_COL_STEAL, "%.3f", result->steal_s);
	samples_row_set(row, SAMPLES_COL_LEFTOVERS, "%d", result->leftovers);
	char per_cpu[SAMPLES_FIELD_LEN];
	samples_per_cpu_format(per_cpu, sizeof per_cpu, result->cpu_split_cpu, result->cpu_split_s,
	                       result->cpu_split_n);
	samples_row_set(row, SAMPLES_COL_PER_CPU, "%s", per_cpu);
}

/* The trial's rows as one text (caller frees); NULL with err. */
static char *format_trial(const struct trial_labels *labels, const struct trial_result *result,
                          size_t *len, char *err, size_t err_size)
{
	char *rows = NULL;
	FILE *mem = xmemstream(&rows, len);
	struct samples_row row;
	int unset = -1;
	for (int i = 0; i < result->nprocs && unset < 0; i++) {
		fill_row(&row, labels, result, i);
		unset = samples_row_print(&row, mem);
	}
	xmemstream_close(mem, &rows);
	if (unset < 0)
		return rows;
	set_error(err, err_size, "cannot format a trial: no value for samples.csv's column %s (a "
	          "bug: please report it)", samples_csv_names[unset]);
	free(rows);
	return NULL;
}

int store_append_trial(struct store *s, const struct trial_labels *labels,
                       const struct trial_result *result, char *err, size_t err_size)
{
	size_t rows_len = 0;
	char *rows = format_trial(labels, result, &rows_len, err, err_size);
	if (!rows)
		return -1;
	/* One write() per trial: a crash of the runner leaves whole trials in the page cache. */
	int rc = fileio_write_all(s->csv_fd, rows, rows_len);
	free(rows);
	if (rc != 0) {
		set_error(err, err_size, "cannot write %s/samples.csv: %s", s->dir, strerror(errno));
		return -1;
	}
	s->unsynced = true;
	if (trial_now_s() - s->last_sync_s < STORE_SYNC_INTERVAL_S)
		return 0;
	return store_sync(s, err, err_size);
}

int store_sync(struct store *s, char *err, size_t err_size)
{
	if (!s->unsynced)
		return 0;
	if (fsync(s->csv_fd) != 0) {
		set_error(err, err_size, "cannot write %s/samples.csv to disk (fsync): %s", s->dir,
		          strerror(errno));
		return -1;
	}
	s->unsynced = false;
	s->last_sync_s = trial_now_s();
	return 0;
}

int store_open_file(const struct store *s, const char *name, int flags, int mode)
{
	return openat(s->dir_fd, name, flags | O_NOFOLLOW | O_CLOEXEC, mode);
}

const char *store_dir(const struct store *s)
{
	return s->dir;
}

/* An unpublished folder holds nothing of value (no trial has run in it): it goes. */
static void discard_unpublished(struct store *s)
{
	DIR *d = fdopendir(dup(s->dir_fd));
	if (d) {
		for (struct dirent *ent; (ent = readdir(d));)
			if (strcmp(ent->d_name, ".") && strcmp(ent->d_name, ".."))
				unlinkat(s->dir_fd, ent->d_name, 0);
		closedir(d);
	}
	rmdir(s->dir);
}

void store_close(struct store **sp)
{
	struct store *s = sp ? *sp : NULL;
	if (!s)
		return;
	if (s->final_dir)
		discard_unpublished(s);
	char err[ERR_LEN];
	store_sync(s, err, sizeof err); /* callers that must know have called store_sync */
	/* -1 where store_create could not make one: its close fails, harmlessly */
	close(s->csv_fd);
	close(s->dir_fd);
	if (s->parent_fd >= 0)
		close(s->parent_fd);
	free(s->final_dir);
	free(s->dir);
	free(s);
	*sp = NULL;
}
