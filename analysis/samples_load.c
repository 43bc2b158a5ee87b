/*
 * samples_load.c — a results folder's samples.csv (the contract in results/README.md) into a
 * dataset: lines → rows → trials → samples.
 *
 * Ten million lines are 1.5 GB, so the lines are read in parts: the file is cut into byte
 * ranges, each part takes the lines that start in its range, and the parts are parsed at once,
 * one thread each, on the CPUs this process may run on. The parts are then joined in file
 * order, placement names and line numbers made the file's, so that the dataset and every
 * warning are the same whatever the number of parts (tests/unit/test_samples_load_parts.c
 * holds that to every cut).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "analysis/internal.h"
#include "common/fileio.h"
#include "common/number.h"
#include "common/samples_csv.h"
#include "common/placements.h"

/* A part is not cut smaller than this: a thread costs more than parsing a few thousand lines. */
#define PART_MIN_BYTES (4 << 20)
#define PARTS_MAX 16

/* One validated line: what the trials need of it and no more, in 48 bytes, since ten million
 * are held. */
struct csv_row {
	long trial, line_no;
	long block;                /* -1 when the file has no block column or it is empty */
	double utime;
	double wall;               /* NAN when empty */
	double shared;             /* per trial: the larger of foreign_s and steal_s, NAN when
	                            * either is empty or not in the file */
	int32_t leftovers;         /* per trial; 0 when empty or not in the file */
	/* The rest shares one 32-bit word, so that the row stays 56 bytes. */
	unsigned placement : 10;   /* index into the placement names (at most PLACEMENT_NAMES_MAX) */
	unsigned proc : 8;         /* at most PROC_MAX */
	unsigned warmup : 1, role_a : 1, ok : 1;
	signed wall_above : 2;     /* wall_s above ANALYSIS_WALL_ABOVE_CPU × CPU time: 1, 0, or
	                            * -1 when wall_s or stime_s is unknown */
	signed poor_overlap : 2;   /* overlap below ANALYSIS_POOR_OVERLAP: 1, 0, or -1 unknown */
	signed unspread : 2;       /* per_cpu_s: the process ran on one of its CPUs: 1, 0, or -1
	                            * unknown (empty, one CPU) */
	unsigned per_cpu_n : 2;    /* per_cpu_s: how many CPUs it names (SAMPLES_PER_CPU_MAX) */
};
_Static_assert(SAMPLES_PER_CPU_MAX < 4, "per_cpu_n holds the count in 2 bits");

/* A frequency above this is not a CPU's (and would overflow the kHz sum): it is left out. */
#define FREQ_MAX_MHZ 1e6

/* A trial's processes are numbered from 0; a placement has two, a few in any future one. */
#define PROC_MAX 255

/* A million-trial file holds millions of rows at once: the row stays small. 56 bytes since the
 * block number joined it (the paired analysis needs it). */
_Static_assert(sizeof(long) != 8 || sizeof(struct csv_row) == 56, "a row grew past 56 bytes");

/* More placement names than this in one file is not a file smtbench wrote (it has a handful);
 * the limit keeps the name lookup from growing without bound on a hostile file. */
#define PLACEMENT_NAMES_MAX 1000
_Static_assert(PLACEMENT_NAMES_MAX < 1024, "placement indices are 10 bits");
_Static_assert(PROC_MAX < 256, "process numbers are 8 bits");

/* A placement name seen, and the frequency of its measured role-a lines, for the report. */
struct placement_seen {
	char *name;
	long first_line;   /* the line it was first seen on (the part's number until joined) */
	int64_t freq_khz;  /* the frequencies' sum in whole kHz: integers add up the same in any
	                    * order, so the mean does not depend on how the file was cut */
	size_t freq_n;
	bool known;        /* a placement of the registry (set once the parts are joined) */
};

/* The header: where each column is. Files are read by column name, so that older files with
 * fewer columns load. */
struct header_map {
	size_t fields;
	int column[SAMPLES_COLUMN_COUNT];  /* position of each column, -1 when absent */
};

/* A line left out, numbered within its part until the parts are joined. */
struct skipped_line {
	long line_no;
	char *why;
};

/* The rows that were read, and what was seen beside them: one part's, then the file's. */
struct row_set {
	struct csv_row *rows;
	size_t row_count, row_cap;
	bool sorted;                       /* in compare_rows' order */
	struct placement_seen *seen;       /* first seen first */
	size_t seen_count;
	char *workload, *beside_workload;
};

/* One part of the file and what parsing it gave. */
struct part {
	const struct header_map *hdr;
	int fd;
	off_t begin, end;    /* the part's lines are those that start in [begin, end) */
	bool at_data_start;  /* begin is a line's start: nothing before it to skip */
	struct line_reader *handed; /* the header's reader, carried on (a pipe), or NULL */
	char **fields;       /* the split line's fields (hdr->fields of them) */
	const char *line_end; /* the split line's end: the last field's '\0' */
	int last_placement;  /* the last line's placement: most lines repeat the one before */
	long names_overflow; /* the line with one placement name too many, or 0 */
	struct row_set set;
	struct skipped_line *skipped;
	size_t skipped_count, skipped_cap;
	long lines;          /* lines read, empty ones included */
	int error;           /* 0, or an errno: ENOMEM, or the read's */
	/* Set by the join: the file's index of each of the part's placement names, and what its
	 * line numbers need added to be the file's. */
	int *map;
	long line_offset;
};

static void row_set_release(struct row_set *s)
{
	free(s->rows);
	for (size_t i = 0; i < s->seen_count; i++)
		free(s->seen[i].name);
	free(s->seen);
	free(s->workload);
	free(s->beside_workload);
	memset(s, 0, sizeof *s);
}

static void part_release(struct part *p)
{
	row_set_release(&p->set);
	free(p->map);
	p->map = NULL;
	for (size_t i = 0; i < p->skipped_count; i++)
		free(p->skipped[i].why);
	free(p->skipped);
	free(p->fields);
	p->skipped = NULL;
	p->fields = NULL;
	p->skipped_count = 0;
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

/* ---- reading lines ----------------------------------------------------------------------- */

/* Lines from a file by pread through one large buffer: no copy per line, as getline makes, and
 * no shared file offset, so that the parts can read one descriptor at once. */
struct line_reader {
	int fd;
	bool sequential;         /* a pipe or other file without offsets: read(), one part only */
	off_t next_read;         /* the file offset of buf[end] */
	char *buf;
	size_t cap, start, end;  /* unread bytes are buf[start, end) */
	bool eof;
};
enum { LINE_READER_CHUNK = 1 << 20 };

static int line_reader_open(struct line_reader *r, int fd, off_t from)
{
	*r = (struct line_reader){ .fd = fd, .next_read = from, .cap = LINE_READER_CHUNK + 1 };
	r->buf = malloc(r->cap);
	return r->buf ? 0 : -1;
}

/* The file offset where the next line starts. */
static off_t line_reader_offset(const struct line_reader *r)
{
	return r->next_read - (off_t)(r->end - r->start);
}

/* Reads more after the unread bytes. 0, or -1 with errno. */
static int line_reader_fill(struct line_reader *r)
{
	memmove(r->buf, r->buf + r->start, r->end - r->start);
	r->end -= r->start;
	r->start = 0;
	if (r->cap - r->end < LINE_READER_CHUNK / 2 + 1) { /* a line longer than the buffer */
		char *grown = realloc(r->buf, r->cap + LINE_READER_CHUNK);
		if (!grown) {
			errno = ENOMEM;
			return -1;
		}
		r->buf = grown;
		r->cap += LINE_READER_CHUNK;
	}
	ssize_t got;
	do
		got = r->sequential ? read(r->fd, r->buf + r->end, r->cap - r->end - 1)
		                    : pread(r->fd, r->buf + r->end, r->cap - r->end - 1, r->next_read);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		return -1;
	r->end += (size_t)got;
	r->next_read += got;
	r->eof = got == 0;
	return 0;
}

/* The next line and its length with its '\n' if it has one (as getline gives them); the text
 * is writable up to that length and ends at its '\n' or, for a last line without one, at a
 * '\0'. 1 for a line, 0 at the end of the file, -1 with errno: EMSGSIZE for a line of more
 * than SAMPLES_CSV_LINE_MAX bytes (the buffer grows by a chunk at a time up to it). */
static int next_line(struct line_reader *r, char **line, size_t *len)
{
	for (;;) {
		char *nl = memchr(r->buf + r->start, '\n', r->end - r->start);
		if ((nl ? (size_t)(nl - (r->buf + r->start)) + 1 : r->end - r->start)
		    > SAMPLES_CSV_LINE_MAX) {
			errno = EMSGSIZE;
			return -1;
		}
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
			r->buf[r->end] = '\0'; /* cap > end always: one byte is never read into */
			r->start = r->end;
			return 1;
		}
		if (line_reader_fill(r) < 0)
			return -1;
	}
}

/* ---- one line into a row ------------------------------------------------------------------ */

/* A non-negative decimal integer of up to 18 digits without strtol's cost; else by the one
 * number rule (common/number.h). */
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
	long long whole;
	if (number_parse_whole(text, &whole) != NUMBER_OK || whole < LONG_MIN || whole > LONG_MAX)
		return -1;
	*out = (long)whole;
	return 0;
}

/* A count or index from 0 to INT32_MAX; -1 for anything else. */
static int parse_count_field(const char *text, int32_t *out)
{
	long v;
	if (parse_long_field(text, &v) < 0 || v < 0 || v > INT32_MAX)
		return -1;
	*out = (int32_t)v;
	return 0;
}

/* An optional time of len bytes (the field is NUL-terminated at len): empty → NAN; -1 for
 * text that parse_seconds refuses. */
static int parse_optional_seconds(const char *text, size_t len, double *out)
{
	if (!len) {
		*out = NAN;
		return 0;
	}
	if (parse_plain_decimal(text, len, out))
		return 0;
	/* Anything else by the one rule every reader of numbers follows (parse_seconds, on
	 * common/number.h): a value the plain-file loader refuses (1e-320, 0x10, " 1") is refused
	 * here too. */
	enum seconds_problem problem = parse_seconds(text, out);
	/* Too large is said by name where it matters (a utime_s past ANALYSIS_TIME_MAX_S). */
	return problem == SECONDS_OK || problem == SECONDS_TOO_LARGE ? 0 : -1;
}

/* The field of column c, or NULL when the header has no such column. */
static const char *field_of(const struct part *p, enum samples_column c)
{
	return p->hdr->column[c] >= 0 ? p->fields[p->hdr->column[c]] : NULL;
}

/* Column c's number (NAN when the column is absent or empty); -1 for bad text. */
static int seconds_of(const struct part *p, enum samples_column c, double *out)
{
	int at = p->hdr->column[c];
	if (at < 0) {
		*out = NAN;
		return 0;
	}
	const char *next = (size_t)at + 1 < p->hdr->fields ? p->fields[at + 1] - 1 : p->line_end;
	return parse_optional_seconds(p->fields[at], (size_t)(next - p->fields[at]), out);
}

/* The row's numbers beyond the required ones. NULL, or why the line is skipped. */
static const char *check_optional(const struct part *p, struct csv_row *r)
{
	double stime, overlap, foreign, steal;
	const struct { enum samples_column col; double *out; const char *why; } optional[] = {
		{ SAMPLES_COL_STIME, &stime, "bad 'stime_s' value" },
		{ SAMPLES_COL_WALL, &r->wall, "bad 'wall_s' value" },
		{ SAMPLES_COL_OVERLAP, &overlap, "bad 'overlap' value" },
		{ SAMPLES_COL_FOREIGN, &foreign, "bad 'foreign_s' value" },
		{ SAMPLES_COL_STEAL, &steal, "bad 'steal_s' value" },
	};
	for (size_t i = 0; i < sizeof optional / sizeof optional[0]; i++)
		if (seconds_of(p, optional[i].col, optional[i].out) < 0)
			return optional[i].why;
	r->leftovers = 0;
	const char *leftovers = field_of(p, SAMPLES_COL_LEFTOVERS);
	if (leftovers && *leftovers && parse_count_field(leftovers, &r->leftovers) < 0)
		return "bad 'leftovers' value";
	int cpus[SAMPLES_PER_CPU_MAX];
	double per_cpu[SAMPLES_PER_CPU_MAX];
	int per_cpu_n = 0;
	const char *per_cpu_text = field_of(p, SAMPLES_COL_PER_CPU);
	if (per_cpu_text && *per_cpu_text
	    && (per_cpu_n = samples_per_cpu_parse(per_cpu_text, strlen(per_cpu_text), cpus,
	                                          per_cpu)) < 0)
		return "bad 'per_cpu_s' value (CPU:seconds;CPU:seconds)";
	r->per_cpu_n = (unsigned)per_cpu_n;
	r->unspread = samples_per_cpu_unspread(per_cpu, per_cpu_n);
	/* Either above the share is contamination: the larger one decides. */
	r->shared = isnan(foreign) || isnan(steal) ? NAN : foreign > steal ? foreign : steal;
	double cpu = r->utime + stime;
	r->wall_above = isnan(r->wall) || isnan(cpu) ? -1 : r->wall > ANALYSIS_WALL_ABOVE_CPU * cpu;
	r->poor_overlap = isnan(overlap) ? -1 : overlap < ANALYSIS_POOR_OVERLAP;
	return NULL;
}

/* Checks one split line into *r: NULL, or why it is skipped. */
static const char *check_row(const struct part *p, struct csv_row *r)
{
	long warmup = 0;
	const char *role = field_of(p, SAMPLES_COL_ROLE);
	if (parse_long_field(field_of(p, SAMPLES_COL_TRIAL), &r->trial) < 0 || r->trial < 0)
		return "bad 'trial' value";
	const char *block = field_of(p, SAMPLES_COL_BLOCK);
	r->block = -1;
	if (block && *block && (parse_long_field(block, &r->block) < 0 || r->block < 0))
		return "bad 'block' value";
	if (parse_long_field(field_of(p, SAMPLES_COL_WARMUP), &warmup) < 0 ||
	    (warmup != 0 && warmup != 1))
		return "bad 'warmup' value (0 or 1)";
	if (!*field_of(p, SAMPLES_COL_PLACEMENT))
		return "empty 'placement'";
	if (strcmp(role, "a") && strcmp(role, "b"))
		return "bad 'role' value (a or b)";
	if (!*field_of(p, SAMPLES_COL_STATUS))
		return "empty 'status'";
	r->warmup = warmup == 1;
	r->role_a = role[0] == 'a';
	r->ok = !strcmp(field_of(p, SAMPLES_COL_STATUS), "ok");
	const char *proc = field_of(p, SAMPLES_COL_PROC);
	int32_t proc_value = 0;
	if (proc && *proc && (parse_count_field(proc, &proc_value) < 0 || proc_value > PROC_MAX))
		return "bad 'proc' value (0 to 255)";
	r->proc = (uint8_t)proc_value;
	if (seconds_of(p, SAMPLES_COL_UTIME, &r->utime) < 0 || (r->ok && isnan(r->utime)))
		return "bad or missing 'utime_s' value";
	if (r->utime > ANALYSIS_TIME_MAX_S)
		return "'utime_s' too large (above 1e100 s)";
	return check_optional(p, r);
}

/* Index of a placement name in the set's names, adding it when new; -1 on out of memory. */
static int placement_index(struct row_set *s, const char *name, long line_no)
{
	for (size_t i = 0; i < s->seen_count; i++)
		if (!strcmp(s->seen[i].name, name))
			return (int)i;
	struct placement_seen *grown = realloc(s->seen, (s->seen_count + 1) * sizeof *grown);
	if (!grown)
		return -1;
	s->seen = grown;
	grown[s->seen_count] = (struct placement_seen){ .name = strdup(name), .first_line = line_no };
	if (!grown[s->seen_count].name)
		return -1;
	return (int)s->seen_count++;
}

/* What the report shows beside the samples: the workloads' names, and the frequency of each
 * placement's measured lines, both from lines that load (a damaged line's other fields are not
 * to be trusted either). -1 on out of memory. */
static int note_extras(struct part *p, const struct csv_row *r)
{
	const char *work = field_of(p, SAMPLES_COL_WORKLOAD);
	char **name = r->role_a ? &p->set.workload : &p->set.beside_workload;
	if (work && *work && !*name && !(*name = strdup(work)))
		return -1;
	double mhz;
	if (!r->role_a || r->warmup || !r->ok || seconds_of(p, SAMPLES_COL_FREQ, &mhz) < 0 ||
	    !(mhz > 0))
		return 0;
	if (mhz > FREQ_MAX_MHZ)
		return 0;
	p->set.seen[r->placement].freq_khz += llround(mhz * 1000);
	p->set.seen[r->placement].freq_n++;
	return 0;
}

/* Notes a skipped line, taking why (NULL: out of memory). -1 on out of memory. */
static int part_skip(struct part *p, long line_no, char *why)
{
	if (!why || grow_array((void **)&p->skipped, &p->skipped_cap, p->skipped_count + 1,
	                       sizeof *p->skipped) < 0) {
		free(why);
		return -1;
	}
	p->skipped[p->skipped_count++] = (struct skipped_line){ line_no, why };
	return 0;
}

static int part_add_row(struct part *p, const struct csv_row *r)
{
	struct row_set *s = &p->set;
	if (grow_array((void **)&s->rows, &s->row_cap, s->row_count + 1, sizeof *s->rows) < 0)
		return -1;
	if (s->row_count > 0 && compare_rows(&s->rows[s->row_count - 1], r) > 0)
		s->sorted = false;
	s->rows[s->row_count++] = *r;
	return 0;
}

/* The placement of a checked line, by index; -1 on out of memory or one name too many. */
static int part_placement(struct part *p, long line_no)
{
	const char *name = field_of(p, SAMPLES_COL_PLACEMENT);
	if (p->last_placement >= 0 && !strcmp(p->set.seen[p->last_placement].name, name))
		return p->last_placement;
	size_t before = p->set.seen_count;
	int index = placement_index(&p->set, name, line_no);
	if (index >= 0 && p->set.seen_count > before && p->set.seen_count > PLACEMENT_NAMES_MAX) {
		p->names_overflow = line_no;
		return -1;
	}
	return p->last_placement = index;
}

/* One data line (line_no within the part): a row, or a skipped line. -1 on out of memory, or
 * with names_overflow set. */
static int part_line(struct part *p, char *line, size_t len, long line_no)
{
	bool has_newline = len > 0 && line[len - 1] == '\n';
	if (memchr(line, '\0', len))
		return part_skip(p, line_no, strdup("a NUL byte in the line"));
	/* A line ends at its first '\r' or '\n': a '\r' inside one cuts it short. */
	char *cr = memchr(line, '\r', len);
	len = cr ? (size_t)(cr - line) : len - has_newline;
	line[len] = '\0';
	if (!len)
		return 0;
	size_t n_fields = samples_csv_split_n(line, len, p->fields, p->hdr->fields);
	p->line_end = line + len;
	struct csv_row r;
	if (!has_newline)
		return part_skip(p, line_no, strdup("the last line has no end of line (cut short "
		                                    "by a crash?)"));
	if (n_fields != p->hdr->fields)
		return part_skip(p, line_no, text_printf("%zu fields where the header "
		                                                    "has %zu", n_fields,
		                                                    p->hdr->fields));
	const char *why = check_row(p, &r);
	if (why)
		return part_skip(p, line_no, strdup(why));
	r.line_no = line_no;
	int placement = part_placement(p, line_no);
	if (placement < 0)
		return -1;
	r.placement = (uint16_t)placement;
	if (note_extras(p, &r) < 0)
		return -1;
	return part_add_row(p, &r);
}

/* Parses one part: the lines that start in [begin, end). On a thread of its own. */
static void *part_parse(void *arg)
{
	struct part *p = arg;
	struct line_reader r = { .buf = NULL };
	char *line;
	size_t len;
	int got;
	p->set.sorted = true;
	p->last_placement = -1;
	p->fields = malloc(p->hdr->fields * sizeof *p->fields);
	if (p->handed) { /* taken over: its buffer is this part's to free */
		r = *p->handed;
		p->handed = NULL;
	} else if (p->fields && line_reader_open(&r, p->fd, p->at_data_start ? p->begin
	                                                                    : p->begin - 1) < 0) {
		free(p->fields);
		p->fields = NULL;
	}
	if (!p->fields) {
		free(r.buf);
		p->error = ENOMEM;
		return NULL;
	}
	/* Unless begin starts a line, the line holding byte begin - 1 is the previous part's. */
	got = p->at_data_start ? 1 : next_line(&r, &line, &len);
	while (got > 0 && line_reader_offset(&r) < p->end && (got = next_line(&r, &line, &len)) > 0)
		if (part_line(p, line, len, ++p->lines + p->at_data_start) < 0) {
			got = -1;
			errno = p->names_overflow ? E2BIG : ENOMEM;
		}
	if (got < 0)
		p->error = errno ? errno : EIO;
	free(r.buf);
	return NULL;
}

/* ---- the file into parts, and the parts joined -------------------------------------------- */

/* Rows in file order, as runs of one array each: the parts' own arrays when the file is in
 * order (they are not copied), one sorted array when it is not. */
struct segment {
	const struct csv_row *rows;
	size_t count;
};

/* The file's loader: the parts, joined; then the dataset built from them. */
struct folder_load {
	const char *path;
	enum analysis_unit unit;
	enum analysis_metric metric;
	bool one_process;                  /* a trial has one row in every placement */
	bool exclude_contaminated;
	bool have_proc;
	struct dataset_builder b;
	struct header_map hdr;
	struct part parts[PARTS_MAX];
	size_t part_count;
	struct row_set set;                /* the file's placement names and workloads; its rows
	                                    * only when the file is out of order */
	struct segment segments[PARTS_MAX];
	size_t segment_count;
	int *group_of_name;
	size_t *rows_per_trial;            /* per placement name: the rows its trials should have */
	long last_block;                   /* the last measured trial's block (-1: none yet) */
};

static void folder_load_release(struct folder_load *L)
{
	for (size_t k = 0; k < L->part_count; k++)
		part_release(&L->parts[k]);
	row_set_release(&L->set);
	free(L->group_of_name);
	free(L->rows_per_trial);
	builder_release(&L->b);
}

/* The message for a line past SAMPLES_CSV_LINE_MAX, at path:line_no. */
static void long_line_error(const char *path, long line_no, char *err, size_t err_size)
{
	set_error(err, err_size, "%s:%ld: a line of more than %d MiB: not a samples.csv that "
	          "smtbench wrote (a row is a few hundred bytes)", path, line_no,
	          (int)(SAMPLES_CSV_LINE_MAX >> 20));
}

/* Reads the header line through r into hdr; *data_start is where the data lines begin. -1
 * with err. */
static int read_header(const struct folder_load *L, struct line_reader *r,
                       struct header_map *hdr, off_t *data_start, char *err, size_t err_size)
{
	char *line, **names = NULL;
	size_t len;
	int got = next_line(r, &line, &len), rc = -1;
	if (got < 0) {
		if (errno == EMSGSIZE)
			long_line_error(L->path, 1, err, err_size);
		else
			set_error(err, err_size, "%s: read error: %s", L->path, strerror(errno));
		goto out;
	}
	if (got == 0) {
		set_error(err, err_size, "%s: empty file: no header line", L->path);
		goto out;
	}
	*data_start = line_reader_offset(r);
	line[len - (line[len - 1] == '\n')] = '\0';
	if (!strncmp(line, UTF8_BOM, 3))
		line += 3;
	line[strcspn(line, "\r\n")] = '\0';
	hdr->fields = 1;
	for (const char *c = line; *c; c++)
		hdr->fields += *c == ',';
	if (!(names = malloc(hdr->fields * sizeof *names))) {
		set_error(err, err_size, "%s: out of memory", L->path);
		goto out;
	}
	samples_csv_split(line, names, hdr->fields);
	for (int c = 0; c < SAMPLES_COLUMN_COUNT; c++) {
		hdr->column[c] = -1;
		for (size_t i = 0; i < hdr->fields; i++)
			if (!strcmp(names[i], samples_csv_names[c]))
				hdr->column[c] = (int)i;
		if (samples_csv_required[c] && hdr->column[c] < 0) {
			set_error(err, err_size, "%s:1: the header has no '%s' column "
			                   "(see results/README.md)", L->path, samples_csv_names[c]);
			goto out;
		}
	}
	rc = 0;
out:
	free(names);
	return rc;
}

/* How many parts to cut `bytes` of lines into: one per CPU this process may use, none smaller
 * than PART_MIN_BYTES. */
static size_t part_count(off_t bytes)
{
	cpu_set_t cpus;
	size_t n = sched_getaffinity(0, sizeof cpus, &cpus) == 0 ? (size_t)CPU_COUNT(&cpus) : 1;
	size_t by_size = (size_t)(bytes / PART_MIN_BYTES) + 1;
	if (n > by_size)
		n = by_size;
	if (n > PARTS_MAX)
		n = PARTS_MAX;
	return n ? n : 1;
}

/* Runs work on every part at once: parts 1.. on threads, part 0 here; a part whose thread
 * cannot be started is done here after. */
static void each_part_at_once(struct part *parts, size_t count, void *(*work)(void *))
{
	pthread_t threads[PARTS_MAX];
	bool started[PARTS_MAX] = { false };
	for (size_t k = 1; k < count; k++)
		started[k] = pthread_create(&threads[k], NULL, work, &parts[k]) == 0;
	work(&parts[0]);
	for (size_t k = 1; k < count; k++) {
		if (started[k])
			pthread_join(threads[k], NULL);
		else
			work(&parts[k]);
	}
}

/* Maps a part's placement names to the file's, adding its frequencies. -1 on out of memory;
 * -2 when the file has too many placement names, with *overflow_line the line where the one
 * too many first appears. */
static int join_names(struct folder_load *L, struct part *p, long *overflow_line)
{
	struct row_set *s = &L->set;
	if (!p->map && !(p->map = malloc((p->set.seen_count ? p->set.seen_count : 1) *
	                                 sizeof *p->map)))
		return -1;
	for (size_t i = 0; i < p->set.seen_count; i++) {
		long first_seen = p->set.seen[i].first_line + p->line_offset;
		if ((p->map[i] = placement_index(s, p->set.seen[i].name, first_seen)) < 0)
			return -1;
		if (s->seen_count > PLACEMENT_NAMES_MAX) {
			*overflow_line = first_seen;
			return -2;
		}
		s->seen[p->map[i]].freq_khz += p->set.seen[i].freq_khz;
		s->seen[p->map[i]].freq_n += p->set.seen[i].freq_n;
	}
	return 0;
}

/* Takes a part's placement names, frequencies, workloads and skipped lines into the file's, in
 * file order (first_line: the file's number of its first line), and sets its map and
 * line_offset. -1 on out of memory, -2 as join_names. */
static int join_part(struct folder_load *L, struct part *p, long first_line, long *overflow_line)
{
	struct row_set *s = &L->set;
	p->line_offset = first_line - 1 - p->at_data_start;
	int rc = join_names(L, p, overflow_line);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < p->skipped_count; i++)
		if (builder_warn(&L->b, text_printf("samples.csv:%ld: %s; line skipped",
		                                               p->skipped[i].line_no + p->line_offset,
		                                               p->skipped[i].why)) < 0)
			return -1;
	char **names[2] = { &s->workload, &s->beside_workload };
	char **part_names[2] = { &p->set.workload, &p->set.beside_workload };
	for (int i = 0; i < 2; i++)
		if (!*names[i]) {
			*names[i] = *part_names[i];
			*part_names[i] = NULL;
		}
	return 0;
}

/* Makes a part's rows the file's: its placement indices and line numbers. On its own thread. */
static void *part_renumber(void *arg)
{
	struct part *p = arg;
	bool same_names = true;
	for (size_t i = 0; i < p->set.seen_count; i++)
		same_names = same_names && p->map[i] == (int)i;
	if (same_names && p->line_offset == 0)
		return NULL;
	for (size_t i = 0; i < p->set.row_count; i++) {
		p->set.rows[i].placement = (uint16_t)p->map[p->set.rows[i].placement];
		p->set.rows[i].line_no += p->line_offset;
	}
	return NULL;
}

/* Whether b may follow a in file order (rows of later parts have later line numbers). */
static bool rows_in_order(const struct csv_row *a, const struct csv_row *b)
{
	return a->trial < b->trial || (a->trial == b->trial && a->proc <= b->proc);
}

/* The joined rows as segments: the parts' arrays when the file is in order, else all of them
 * in one array, sorted. -1 on out of memory. */
static int make_segments(struct folder_load *L)
{
	const struct csv_row *last = NULL;
	bool sorted = true;
	size_t total = 0;
	for (size_t k = 0; k < L->part_count; k++) {
		const struct row_set *ps = &L->parts[k].set;
		if (ps->row_count == 0)
			continue;
		sorted = sorted && ps->sorted && (!last || rows_in_order(last, &ps->rows[0]));
		last = &ps->rows[ps->row_count - 1];
		total += ps->row_count;
		L->segments[L->segment_count++] = (struct segment){ ps->rows, ps->row_count };
	}
	if (sorted)
		return 0;
	/* Out of order (edited by hand, or joined from pieces): sorted once, as one array. */
	struct row_set *s = &L->set;
	if (!(s->rows = malloc((total ? total : 1) * sizeof *s->rows)))
		return -1;
	for (size_t k = 0; k < L->segment_count; k++) {
		memcpy(s->rows + s->row_count, L->segments[k].rows,
		       L->segments[k].count * sizeof *s->rows);
		s->row_count += L->segments[k].count;
	}
	for (size_t k = 0; k < L->part_count; k++) { /* copied: not kept twice */
		free(L->parts[k].set.rows);
		L->parts[k].set.rows = NULL;
	}
	qsort(s->rows, s->row_count, sizeof *s->rows, compare_rows);
	L->segments[0] = (struct segment){ s->rows, s->row_count };
	L->segment_count = total ? 1 : 0;
	return 0;
}

/* Reads the header, cuts the data lines into parts and parses them at once. -1 with err. */
static int parse_parts(struct folder_load *L, int fd, size_t forced_parts, char *err,
                       size_t err_size)
{
	off_t data_start;
	struct stat st;
	struct line_reader header;
	if (fstat(fd, &st) < 0) {
		set_error(err, err_size, "%s: %s", L->path, strerror(errno));
		return -1;
	}
	if (line_reader_open(&header, fd, 0) < 0) {
		set_error(err, err_size, "%s: out of memory", L->path);
		return -1;
	}
	/* A pipe (samples.csv a FIFO, or a link to /dev/stdin) has no offsets to read parts at:
	 * one part reads on from where the header ended. */
	header.sequential = !S_ISREG(st.st_mode);
	if (read_header(L, &header, &L->hdr, &data_start, err, err_size) < 0) {
		free(header.buf);
		return -1;
	}
	L->have_proc = L->hdr.column[SAMPLES_COL_PROC] >= 0;
	off_t bytes = st.st_size > data_start ? st.st_size - data_start : 0;
	size_t count = header.sequential ? 1 : forced_parts ? forced_parts : part_count(bytes);
	if (count > PARTS_MAX)
		count = PARTS_MAX;
	for (size_t k = 0; k < count; k++) {
		off_t begin = data_start + (off_t)((double)bytes * (double)k / (double)count);
		L->parts[k] = (struct part){ .hdr = &L->hdr, .fd = fd,
		                             .at_data_start = begin == data_start, .begin = begin,
		                             .end = data_start +
		                             (off_t)((double)bytes * (double)(k + 1) / (double)count) };
	}
	L->parts[count - 1].end = (off_t)1 << 62; /* the last part reads on to the end of the file */
	L->part_count = count;
	if (header.sequential)
		L->parts[0].handed = &header; /* part 0 takes it over, and its buffer */
	else
		free(header.buf);
	each_part_at_once(L->parts, count, part_parse);
	return 0;
}

/* Joins the parsed parts in file order (placement names, line numbers, warnings), or says why
 * one cannot be. -1 with err. */
static int join_parts(struct folder_load *L, char *err, size_t err_size)
{
	long first_line = 2;
	for (size_t k = 0; k < L->part_count; k++) {
		struct part *p = &L->parts[k];
		long overflow_line = 0;
		int joined;
		if (p->error == E2BIG) { /* the part stopped at its own one name too many */
			p->line_offset = first_line - 1 - p->at_data_start;
			joined = join_names(L, p, &overflow_line);
			if (joined == 0) { /* the file's names are a superset: not reached */
				joined = -2;
				overflow_line = p->names_overflow + p->line_offset;
			}
		} else {
			joined = p->error ? -1 : join_part(L, p, first_line, &overflow_line);
		}
		if (joined == -2)
			set_error(err, err_size, "%s:%ld: more than %d placement names (smtbench "
			                   "writes a handful): not a samples.csv that smtbench wrote",
			                   L->path, overflow_line, PLACEMENT_NAMES_MAX);
		else if (p->error == EMSGSIZE) /* its lines read, the next one too long */
			long_line_error(L->path, first_line + p->lines, err, err_size);
		else if (p->error && p->error != ENOMEM)
			set_error(err, err_size, "%s: read error: %s", L->path,
			                   strerror(p->error));
		else if (joined < 0)
			set_error(err, err_size, "%s: out of memory", L->path);
		if (joined < 0)
			return -1;
		first_line += p->lines;
	}
	return 0;
}

/* Reads every line of the open file into L's parts, placement names and warnings, the rows
 * made the file's and laid out as segments. -1 with err. */
static int read_rows(struct folder_load *L, int fd, size_t forced_parts, char *err,
                     size_t err_size)
{
	if (parse_parts(L, fd, forced_parts, err, err_size) < 0 ||
	    join_parts(L, err, err_size) < 0)
		return -1;
	each_part_at_once(L->parts, L->part_count, part_renumber);
	if (make_segments(L) < 0) {
		set_error(err, err_size, "%s: out of memory", L->path);
		return -1;
	}
	return 0;
}

/* ---- rows into trials into samples -------------------------------------------------------- */

/* The trials, one after the other, each as one run of rows (copied together when a trial's
 * rows lie at the end of one segment and the start of the next). */
struct trial_cursor {
	const struct segment *segments;
	size_t count;
	size_t k, at;                      /* the next row: segments[k].rows[at] */
	struct csv_row *scratch;
	size_t scratch_cap;
};

/* The next trial's rows: 1, 0 after the last, -1 on out of memory. */
static int next_trial(struct trial_cursor *c, const struct csv_row **rows, size_t *n)
{
	if (c->k < c->count && c->at == c->segments[c->k].count) {
		c->k++;
		c->at = 0;
	}
	if (c->k == c->count)
		return 0;
	const struct segment *seg = &c->segments[c->k];
	long trial = seg->rows[c->at].trial;
	size_t end = c->at;
	while (end < seg->count && seg->rows[end].trial == trial)
		end++;
	if (end < seg->count || c->k + 1 == c->count || c->segments[c->k + 1].rows[0].trial != trial) {
		*rows = seg->rows + c->at;
		*n = end - c->at;
		c->at = end;
		return 1;
	}
	size_t have = 0;
	for (;;) {
		seg = &c->segments[c->k];
		for (end = c->at; end < seg->count && seg->rows[end].trial == trial; end++)
			;
		if (grow_array((void **)&c->scratch, &c->scratch_cap, have + end - c->at,
		               sizeof *c->scratch) < 0)
			return -1;
		memcpy(c->scratch + have, seg->rows + c->at, (end - c->at) * sizeof *c->scratch);
		have += end - c->at;
		c->at = end;
		if (end < seg->count || c->k + 1 == c->count || c->segments[c->k + 1].rows[0].trial != trial)
			break;
		c->k++;
		c->at = 0;
	}
	*rows = c->scratch;
	*n = have;
	return 1;
}

/* A placement name the registry does not know is kept (its trials are analysed, a trial
 * having as many rows as the most any of its trials has) but never silently: one warning per
 * name, on the line it first appears. -1 on out of memory. */
static int warn_unknown_placements(struct folder_load *L)
{
	char known[256];
	placement_names_list(known, sizeof known);
	for (size_t i = 0; i < L->set.seen_count; i++)
		if (!placement_info_find(L->set.seen[i].name) &&
		    builder_warn(&L->b, text_printf(
			    "samples.csv:%ld: placement '%s' is not one this smtbench knows (%s): not "
			    "written by this version, or edited; its trials are analysed as they are",
			    L->set.seen[i].first_line, L->set.seen[i].name, known)) < 0)
			return -1;
	return 0;
}

/* Groups in the stable placement order, whether or not they hold samples, with the
 * frequencies noted for each. -1 on out of memory. */
static int make_groups(struct folder_load *L)
{
	size_t names = L->set.seen_count;
	L->group_of_name = malloc((names ? names : 1) * sizeof *L->group_of_name);
	if (!L->group_of_name)
		return -1;
	for (size_t rank = 0; rank <= PLACEMENT_COUNT; rank++)
		for (size_t i = 0; i < names; i++)
			if (placement_info_rank(L->set.seen[i].name) == rank &&
			    (L->group_of_name[i] = builder_add_group(&L->b, L->set.seen[i].name)) < 0)
				return -1;
	struct analysis_dataset *d = L->b.data;
	for (size_t i = 0; i < names; i++) {
		struct analysis_group *g = &d->groups[L->group_of_name[i]];
		if (L->set.seen[i].freq_n) {
			g->freq_mhz = (double)L->set.seen[i].freq_khz / 1000.0 / (double)L->set.seen[i].freq_n;
			g->freq_n = L->set.seen[i].freq_n;
		}
	}
	/* Names from samples.csv are shown by every report: escaped once, here. */
	d->workload = L->set.workload ? text_escape(L->set.workload) : NULL;
	d->beside_workload = L->set.beside_workload ? text_escape(L->set.beside_workload) : NULL;
	if ((L->set.workload && !d->workload) || (L->set.beside_workload && !d->beside_workload))
		return -1;
	return warn_unknown_placements(L);
}

/* The rows a trial of each placement must have: one per process of the placement, from the
 * placement registry; for a name the registry does not know, the most rows seen in one of its
 * trials. -1 on out of memory. */
static int count_rows_per_trial(struct folder_load *L)
{
	struct row_set *s = &L->set;
	L->rows_per_trial = calloc(s->seen_count ? s->seen_count : 1, sizeof *L->rows_per_trial);
	if (!L->rows_per_trial)
		return -1;
	bool all_known = true;
	for (size_t i = 0; i < s->seen_count; i++) {
		const struct placement_info *info = placement_info_find(s->seen[i].name);
		if (info)
			L->rows_per_trial[i] = L->one_process ? 1 : (size_t)info->nprocs;
		s->seen[i].known = info != NULL;
		all_known = all_known && info;
	}
	struct trial_cursor c = { .segments = L->segments, .count = L->segment_count };
	const struct csv_row *rows;
	size_t n;
	int got = 1;
	while (!all_known && (got = next_trial(&c, &rows, &n)) > 0) {
		size_t *expected = &L->rows_per_trial[rows[0].placement];
		if (!s->seen[rows[0].placement].known && n > *expected)
			*expected = n;
	}
	free(c.scratch);
	return got < 0 ? -1 : 0;
}

/* A row of the trial's n rows that should not be there: a second row for one process (rows
 * are sorted by process), more rows than the placement has processes, or a process number
 * the placement does not have. Its index, or n when there is none. */
static size_t stray_row(const struct folder_load *L, const struct csv_row *rows, size_t n)
{
	size_t expected = L->rows_per_trial[rows[0].placement];
	bool known = L->set.seen[rows[0].placement].known;
	for (size_t i = 0; i < n; i++)
		if ((L->have_proc && i > 0 && rows[i].proc == rows[i - 1].proc) || i >= expected ||
		    (L->have_proc && known && rows[i].proc >= expected))
			return i;
	return n;
}

/* Whether the trial of n rows can be used: 1; 0 when not, with a warning saying why (a damaged
 * trial never affects another); -1 on out of memory. */
static int trial_usable(struct folder_load *L, const struct csv_row *rows, size_t n)
{
	const struct csv_row *first = &rows[0];
	bool consistent = true;
	size_t role_a = 0;
	for (size_t i = 0; i < n; i++) {
		consistent = consistent && rows[i].placement == first->placement &&
		             rows[i].warmup == first->warmup && rows[i].block == first->block;
		role_a += rows[i].role_a;
	}
	size_t expected = L->rows_per_trial[first->placement];
	size_t stray = consistent ? stray_row(L, rows, n) : n;
	const char *name = L->set.seen[first->placement].name;
	char *problem;
	if (stray < n)
		problem = text_printf(
			"samples.csv:%ld: trial %ld: a duplicated or stray row (process %ld; a %s trial "
			"has %zu row%s); trial skipped", rows[stray].line_no, first->trial,
			(long)rows[stray].proc, name, expected, expected == 1 ? "" : "s");
	else if (consistent && role_a && n < expected)
		problem = text_printf(
			"samples.csv:%ld: trial %ld has %zu of its %zu rows (the others damaged or "
			"missing); trial skipped", first->line_no, first->trial, n, expected);
	else if (!consistent || role_a == 0)
		problem = text_printf(
			"samples.csv:%ld: trial %ld %s; trial skipped", first->line_no, first->trial,
			consistent ? "has no role-a row"
			           : "has rows that disagree on placement, warmup or block");
	else
		return 1;
	return builder_warn(&L->b, problem) < 0 ? -1 : 0;
}

/* Whether the trial of n rows shared its CPUs: its foreign or steal time above
 * ANALYSIS_CONTAMINATED_SHARE of its duration (the longest wall_s). -1 when not known. */
static int contamination_of(const struct csv_row *rows, size_t n)
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
static bool count_trial_health(struct folder_load *L, const struct csv_row *rows, size_t n,
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
	int contaminated = contamination_of(rows, n);
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
static int poor_overlap_beside(const struct csv_row *rows, size_t n)
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
static void count_trial_timing(struct analysis_group *g, const struct csv_row *rows, size_t n)
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
static void count_trial_spread(struct analysis_group *g, const struct csv_row *rows, size_t n)
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

/* The measured blocks, failed and excluded trials' included: what a paired comparison's dropped
 * blocks are counted against. Trials come in run order and a block's trials are consecutive, so
 * a new block is a change of block number (a hostile file's shuffled blocks only miscount). */
static void count_measured_block(struct folder_load *L, long block)
{
	if (block < 0 || block == L->last_block)
		return;
	L->last_block = block;
	L->b.data->measured_blocks++;
}

/* Adds a usable trial's sample(s) and its overlap and wall-time counts. -1 on out of memory. */
static int add_trial(struct folder_load *L, const struct csv_row *rows, size_t n)
{
	const struct csv_row *first = &rows[0];
	struct analysis_dataset *d = L->b.data;
	int group = L->group_of_name[first->placement];
	struct analysis_group *g = &d->groups[group];
	bool all_ok = true;
	for (size_t i = 0; i < n; i++)
		all_ok = all_ok && rows[i].ok;
	if (first->warmup)
		d->warmup_trials++;
	else
		count_measured_block(L, first->block);
	if (count_trial_health(L, rows, n, all_ok))
		return 0;
	if (!all_ok) {
		if (!first->warmup) {
			g->failed_trials++;
			d->failed_trials++;
		}
		return 0;
	}
	if (L->metric == ANALYSIS_METRIC_WALL)
		for (size_t i = 0; i < n; i++)
			if (rows[i].role_a && isnan(rows[i].wall))
				return builder_warn(&L->b, text_printf(
					"samples.csv:%ld: trial %ld has no wall_s, which --metric wall "
					"analyses; trial skipped", rows[i].line_no, first->trial));
	double sum = 0;
	size_t role_a = 0;
	for (size_t i = 0; i < n; i++) {
		if (!rows[i].role_a)
			continue;
		double value = L->metric == ANALYSIS_METRIC_WALL ? rows[i].wall : rows[i].utime;
		sum += value;
		role_a++;
		if (L->unit == ANALYSIS_UNIT_PROCESS &&
		    builder_add_sample(&L->b, group, first->trial, first->block, value,
		                       first->warmup) < 0)
			return -1;
	}
	if (L->unit == ANALYSIS_UNIT_TRIAL &&
	    builder_add_sample(&L->b, group, first->trial, first->block, sum / (double)role_a,
	                       first->warmup) < 0)
		return -1;
	if (!first->warmup) {
		count_trial_timing(g, rows, n);
		count_trial_spread(g, rows, n);
	}
	return 0;
}

/* Turns the rows, trial by trial, into samples. -1 on out of memory. */
static int add_trials(struct folder_load *L)
{
	size_t total = 0;
	for (size_t k = 0; k < L->segment_count; k++)
		total += L->segments[k].count;
	if (count_rows_per_trial(L) < 0 || builder_reserve_points(&L->b, total) < 0)
		return -1;
	struct trial_cursor c = { .segments = L->segments, .count = L->segment_count };
	const struct csv_row *rows;
	size_t n;
	int got, rc = 0;
	while (rc == 0 && (got = next_trial(&c, &rows, &n)) != 0) {
		int usable = got < 0 ? -1 : trial_usable(L, rows, n);
		rc = usable < 0 || (usable && add_trial(L, rows, n) < 0) ? -1 : 0;
	}
	free(c.scratch);
	return rc < 0 ? -1 : builder_flag_outliers(&L->b, ANALYSIS_TIMER_RESOLUTION_S);
}

enum analysis_metric analysis_folder_metric(const char *dir, bool *one_process)
{
	*one_process = false;
	/* Read as every other reader of meta.json reads it (fileio_read_all: a regular file, the
	 * same bound), so that no reader takes a file another refuses. */
	char *path = text_printf("%s/meta.json", dir);
	char why[ERR_LEN];
	size_t len = 0;
	char *text = path ? fileio_read_all(path, &len, why, sizeof why) : NULL;
	free(path);
	if (!text)
		return ANALYSIS_METRIC_USER;
	json_t *meta = json_loadb(text, len, 0, NULL);
	free(text);
	*one_process = json_is_true(json_object_get(json_object_get(meta, "settings"),
	                                            "one_process"));
	const char *metric = json_string_value(json_object_get(meta, "metric"));
	enum analysis_metric m = *one_process ? ANALYSIS_METRIC_WALL : ANALYSIS_METRIC_USER;
	if (metric && !strcmp(metric, SAMPLES_METRIC_WALL))
		m = ANALYSIS_METRIC_WALL;
	else if (metric && !strcmp(metric, SAMPLES_METRIC_USER))
		m = ANALYSIS_METRIC_USER;
	json_decref(meta);
	return m;
}

struct analysis_dataset *samples_load(const char *dir, enum analysis_unit unit,
                                      bool exclude_contaminated, size_t parts,
                                      char *err, size_t err_size)
{
	bool one_process;
	enum analysis_metric metric = analysis_folder_metric(dir, &one_process);
	return samples_load_metric(dir, unit, metric, exclude_contaminated, parts, err, err_size);
}

struct analysis_dataset *samples_load_metric(const char *dir, enum analysis_unit unit,
                                             enum analysis_metric metric,
                                             bool exclude_contaminated, size_t parts,
                                             char *err, size_t err_size)
{
	char *path = text_printf("%s/samples.csv", dir);
	if (!path) {
		set_error(err, err_size, "out of memory");
		return NULL;
	}
	/* A FIFO or a device is refused before it can hang the loader or fill the memory. */
	char why[ERR_LEN];
	int fd = fileio_open_regular(path, O_RDONLY, why, sizeof why);
	if (fd < 0) {
		set_error(err, err_size, "%s (is %s a results folder?)", why, dir);
		free(path);
		return NULL;
	}
	struct folder_load L = { .path = path, .unit = unit, .metric = metric, .last_block = -1,
	                         .exclude_contaminated = exclude_contaminated };
	analysis_folder_metric(dir, &L.one_process);
	bool ok = false;
	L.b.data = dataset_new(dir, true, unit);
	if (L.b.data) {
		L.b.data->metric = metric;
		L.b.data->one_process = L.one_process;
	}
	if (!L.b.data)
		set_error(err, err_size, "%s: out of memory", path);
	else if (read_rows(&L, fd, parts, err, err_size) == 0) {
		ok = make_groups(&L) == 0 && add_trials(&L) == 0;
		if (!ok)
			set_error(err, err_size, "%s: out of memory", path);
	}
	close(fd);
	folder_load_release(&L);
	free(path);
	if (!ok)
		analysis_dataset_free(&L.b.data);
	return L.b.data;
}

struct analysis_dataset *analysis_load_folder(const char *dir, enum analysis_unit unit,
                                              char *err, size_t err_size)
{
	return samples_load(dir, unit, false, 0, err, err_size);
}

struct analysis_dataset *analysis_load_folder_metric(const char *dir, enum analysis_unit unit,
                                                     enum analysis_metric metric,
                                                     bool exclude_contaminated,
                                                     char *err, size_t err_size)
{
	return samples_load_metric(dir, unit, metric, exclude_contaminated, 0, err, err_size);
}

struct analysis_dataset *analysis_load_folder_excluding(const char *dir, enum analysis_unit unit,
                                                        bool exclude_contaminated,
                                                        char *err, size_t err_size)
{
	return samples_load(dir, unit, exclude_contaminated, 0, err, err_size);
}
