/*
 * samples_table.c — samples.csv into records (samples_table.h).
 *
 * Ten million lines are 1.5 GB, so the lines are read in parts: the file is cut into byte
 * ranges, each part takes the lines that start in its range, and the parts are parsed at once,
 * one thread each. The parts are then joined in file order, names and line numbers made the
 * file's, so that the table and every warning are the same whatever the number of parts
 * (tests/unit/test_samples_load_parts.c holds that to every cut).
 */
#include "common/samples_table.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/alloc.h"
#include "common/error.h"
#include "common/number.h"
#include "common/samples_csv.h"
#include "common/text.h"

/* A part is not cut smaller than this: a thread costs more than parsing a few thousand lines. */
#define PART_MIN_BYTES (4 << 20)
/* A frequency above this is not a CPU's (and would overflow the kHz sum): it is left out. */
#define FREQ_MAX_MHZ 1e6

/* A million-trial file holds millions of records at once: the record stays small. */
_Static_assert(sizeof(long) != 8 || sizeof(struct samples_record) == 64,
               "a record grew past 64 bytes");
_Static_assert(SAMPLES_TABLE_NAMES_MAX < SAMPLES_NO_WORKLOAD, "names are 16-bit indexes");
_Static_assert(SAMPLES_PER_CPU_MAX < 4, "per_cpu_n holds the count in 2 bits");

/* The header: where each column is (-1 absent), and how many fields a line has. */
struct header_map {
	size_t fields;
	int column[SAMPLES_COLUMN_COUNT];
};

/* A name list being built, with the index of the last name looked up: most lines repeat it. */
struct names {
	struct samples_name *items;
	size_t count;
	int last;
};

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

/* One part of the file and what parsing it gave; line numbers are the part's own until joined. */
struct part {
	const struct header_map *hdr;
	int fd;
	off_t begin, end;    /* the part's lines are those that start in [begin, end) */
	bool at_data_start;  /* begin is a line's start: nothing before it to skip */
	struct line_reader *handed; /* the header's reader, carried on (a pipe), or NULL */
	char **fields;       /* the split line's fields (hdr->fields of them) */
	const char *line_end; /* the split line's end: the last field's '\0' */
	struct samples_record *records;
	size_t count, cap;
	bool sorted;         /* records in trial, process, line order */
	struct names placements, workloads;
	long names_overflow; /* the line with one placement name too many, or 0 */
	struct { long line_no; char *why; } *skipped;
	size_t skipped_count, skipped_cap;
	long lines;          /* lines read, empty ones included */
	int error;           /* 0, or an errno: E2BIG (names), EMSGSIZE (a line), or the read's */
	int *placement_map, *workload_map; /* set by the join: the file's index of each name */
	long line_offset;    /* what its line numbers need added to be the file's */
};

static int compare_records(const void *pa, const void *pb)
{
	const struct samples_record *a = pa, *b = pb;
	if (a->trial != b->trial)
		return a->trial < b->trial ? -1 : 1;
	if (a->proc != b->proc)
		return a->proc < b->proc ? -1 : 1;
	return (a->line_no > b->line_no) - (a->line_no < b->line_no);
}

/* ---- reading lines ----------------------------------------------------------------------- */

static void line_reader_open(struct line_reader *r, int fd, off_t from)
{
	*r = (struct line_reader){ .fd = fd, .next_read = from, .cap = LINE_READER_CHUNK + 1 };
	r->buf = xmalloc(r->cap);
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
		r->cap += LINE_READER_CHUNK;
		r->buf = xrealloc(r->buf, r->cap);
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
		size_t unread = r->end - r->start;
		char *nl = memchr(r->buf + r->start, '\n', unread);
		size_t here = nl ? (size_t)(nl - (r->buf + r->start)) + 1 : unread;
		if (here > SAMPLES_CSV_LINE_MAX) {
			errno = EMSGSIZE;
			return -1;
		}
		if (nl || (r->eof && here)) {
			*line = r->buf + r->start;
			*len = here;
			if (!nl) /* the last line, without a '\n' (cap > end: one byte is never read into) */
				r->buf[r->end] = '\0';
			r->start += here;
			return 1;
		}
		if (r->eof)
			return 0;
		if (line_reader_fill(r) < 0)
			return -1;
	}
}

/* ---- one line into a record --------------------------------------------------------------- */

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

/* The field of column c, or NULL when the header has no such column. */
static const char *field_of(const struct part *p, enum samples_column c)
{
	return p->hdr->column[c] >= 0 ? p->fields[p->hdr->column[c]] : NULL;
}

/* Column c's time (NAN when the column is absent or empty); -1 for a text that is not a number
 * by the one rule (1e-320, 0x10, " 1" are refused, as the plain-file loader refuses them) or a
 * negative one. A time too large is the caller's to name. */
static int seconds_of(const struct part *p, enum samples_column c, double *out)
{
	int at = p->hdr->column[c];
	*out = NAN;
	if (at < 0)
		return 0;
	const char *text = p->fields[at];
	const char *next = (size_t)at + 1 < p->hdr->fields ? p->fields[at + 1] - 1 : p->line_end;
	size_t len = (size_t)(next - text);
	if (!len || number_parse_plain(text, len, out))
		return 0;
	return number_parse_real(text, out) == NUMBER_OK && *out >= 0 ? 0 : -1;
}

/* The record's numbers beyond the required ones. NULL, or why the line is skipped. */
static const char *check_optional(const struct part *p, struct samples_record *r)
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
	r->wall_above = isnan(r->wall) || isnan(cpu) ? -1 : r->wall > SAMPLES_WALL_ABOVE_CPU * cpu;
	r->poor_overlap = isnan(overlap) ? -1 : overlap < SAMPLES_POOR_OVERLAP;
	return NULL;
}

/* Checks one split line into *r: NULL, or why it is skipped. */
static const char *check_record(const struct part *p, struct samples_record *r)
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
	if (proc && *proc && (parse_count_field(proc, &proc_value) < 0 || proc_value > UINT8_MAX))
		return "bad 'proc' value (0 to 255)";
	r->proc = (uint8_t)proc_value;
	if (seconds_of(p, SAMPLES_COL_UTIME, &r->utime) < 0 || (r->ok && isnan(r->utime)))
		return "bad or missing 'utime_s' value";
	if (r->utime > SAMPLES_TIME_MAX_S)
		return "'utime_s' too large (above 1e100 s)";
	return check_optional(p, r);
}

/* Index of name in the list, added when new (first seen on line_no); -1 when it would be name
 * SAMPLES_TABLE_NAMES_MAX + 1. */
static int name_index(struct names *n, const char *name, long line_no)
{
	if (n->last >= 0 && !strcmp(n->items[n->last].name, name))
		return n->last;
	for (size_t i = 0; i < n->count; i++)
		if (!strcmp(n->items[i].name, name))
			return n->last = (int)i;
	if (n->count == SAMPLES_TABLE_NAMES_MAX)
		return -1;
	n->items = xreallocarray(n->items, n->count + 1, sizeof *n->items);
	n->items[n->count] = (struct samples_name){ .name = xstrdup(name), .first_line = line_no };
	return n->last = (int)n->count++;
}

static void free_names(struct samples_name *names, size_t count)
{
	for (size_t i = 0; i < count; i++)
		free(names[i].name);
	free(names);
}

/* The record's names (placement: -1 with names_overflow set when one too many) and what the
 * reports show beside the samples: the workload's first line in each role, and the frequency
 * of each placement's measured lines. */
static int note_names(struct part *p, struct samples_record *r)
{
	int placement = name_index(&p->placements, field_of(p, SAMPLES_COL_PLACEMENT), r->line_no);
	if (placement < 0) {
		p->names_overflow = r->line_no;
		return -1;
	}
	r->placement = (uint16_t)placement;
	const char *work = field_of(p, SAMPLES_COL_WORKLOAD);
	int w = work && *work ? name_index(&p->workloads, work, r->line_no) : -1;
	r->workload = w < 0 ? SAMPLES_NO_WORKLOAD : (uint16_t)w;
	if (w >= 0 && !p->workloads.items[w].first_line_as[!r->role_a])
		p->workloads.items[w].first_line_as[!r->role_a] = r->line_no;
	double mhz;
	if (!r->role_a || r->warmup || !r->ok || seconds_of(p, SAMPLES_COL_FREQ, &mhz) < 0
	    || !(mhz > 0) || mhz > FREQ_MAX_MHZ)
		return 0;
	p->placements.items[placement].freq_khz += llround(mhz * 1000);
	p->placements.items[placement].freq_n++;
	return 0;
}

/* Notes line line_no as skipped for the reason why (taken). */
static void part_skip(struct part *p, long line_no, char *why)
{
	xgrow(&p->skipped, &p->skipped_cap, p->skipped_count + 1, sizeof *p->skipped);
	p->skipped[p->skipped_count].line_no = line_no;
	p->skipped[p->skipped_count++].why = why;
}

/* One data line (line_no within the part): a record, or a skipped line. -1 with names_overflow
 * set. */
static int part_line(struct part *p, char *line, size_t len, long line_no)
{
	bool has_newline = len > 0 && line[len - 1] == '\n';
	if (memchr(line, '\0', len)) {
		part_skip(p, line_no, xstrdup("a NUL byte in the line"));
		return 0;
	}
	/* A line ends at its first '\r' or '\n': a '\r' inside one cuts it short. */
	char *cr = memchr(line, '\r', len);
	len = cr ? (size_t)(cr - line) : len - has_newline;
	line[len] = '\0';
	if (!len)
		return 0;
	size_t n_fields = samples_csv_split_n(line, len, p->fields, p->hdr->fields);
	p->line_end = line + len;
	struct samples_record r = { .line_no = line_no };
	const char *why = !has_newline ? "the last line has no end of line (cut short by a crash?)"
	                  : n_fields == p->hdr->fields ? check_record(p, &r) : NULL;
	if (why || n_fields != p->hdr->fields) {
		part_skip(p, line_no, why ? xstrdup(why) : xasprintf("%zu fields where the header "
		                                                     "has %zu", n_fields, p->hdr->fields));
		return 0;
	}
	if (note_names(p, &r) < 0)
		return -1;
	xgrow(&p->records, &p->cap, p->count + 1, sizeof *p->records);
	if (p->count > 0 && compare_records(&p->records[p->count - 1], &r) > 0)
		p->sorted = false;
	p->records[p->count++] = r;
	return 0;
}

/* Parses one part: the lines that start in [begin, end). On a thread of its own. */
static void *part_parse(void *arg)
{
	struct part *p = arg;
	struct line_reader r;
	char *line;
	size_t len;
	p->sorted = true;
	p->fields = xmalloc(p->hdr->fields * sizeof *p->fields);
	if (p->handed) /* taken over: its buffer is this part's to free */
		r = *p->handed;
	else
		line_reader_open(&r, p->fd, p->at_data_start ? p->begin : p->begin - 1);
	/* Unless begin starts a line, the line holding byte begin - 1 is the previous part's. */
	int got = p->at_data_start ? 1 : next_line(&r, &line, &len);
	while (got > 0 && line_reader_offset(&r) < p->end && (got = next_line(&r, &line, &len)) > 0)
		if (part_line(p, line, len, ++p->lines + p->at_data_start) < 0) {
			got = -1;
			errno = E2BIG;
		}
	if (got < 0)
		p->error = errno ? errno : EIO;
	free(r.buf);
	return NULL;
}

static void part_release(struct part *p)
{
	free(p->records); /* NULL once the table has taken them */
	free_names(p->placements.items, p->placements.count);
	free_names(p->workloads.items, p->workloads.count);
	for (size_t i = 0; i < p->skipped_count; i++)
		free(p->skipped[i].why);
	free(p->skipped);
	free(p->fields);
	free(p->placement_map);
	free(p->workload_map);
}

/* ---- the file into parts, and the parts joined -------------------------------------------- */

/* The file's reader: the parts, and the table they are joined into. */
struct reader {
	const char *path;
	struct header_map hdr;
	struct part parts[SAMPLES_TABLE_PARTS_MAX];
	size_t part_count;
	struct names placements, workloads; /* the file's */
	struct samples_table *t;
};

/* The message for a line past SAMPLES_CSV_LINE_MAX, at path:line_no. */
static void long_line_error(const char *path, long line_no, char *err, size_t err_size)
{
	set_error(err, err_size, "%s:%ld: a line of more than %d MiB: not a samples.csv that "
	          "smtbench wrote (a row is a few hundred bytes)", path, line_no,
	          (int)(SAMPLES_CSV_LINE_MAX >> 20));
}

/* Reads the header line through r into hdr; *data_start is where the data lines begin. -1
 * with err. */
static int read_header(const char *path, struct line_reader *r, struct header_map *hdr,
                       off_t *data_start, char *err, size_t err_size)
{
	char *line;
	size_t len;
	int got = next_line(r, &line, &len);
	if (got <= 0) {
		if (got < 0 && errno == EMSGSIZE)
			long_line_error(path, 1, err, err_size);
		else if (got < 0)
			set_error(err, err_size, "%s: read error: %s", path, strerror(errno));
		else
			set_error(err, err_size, "%s: empty file: no header line", path);
		return -1;
	}
	*data_start = line_reader_offset(r);
	if (!strncmp(line, UTF8_BOM, 3))
		line += 3;
	line[strcspn(line, "\r\n")] = '\0'; /* its '\n', or the '\0' after a last line */
	hdr->fields = 1;
	for (const char *c = line; *c; c++)
		hdr->fields += *c == ',';
	char **names = xmalloc(hdr->fields * sizeof *names);
	samples_csv_split(line, names, hdr->fields);
	int missing = -1;
	for (int c = 0; c < SAMPLES_COLUMN_COUNT; c++) {
		hdr->column[c] = -1;
		for (size_t i = 0; i < hdr->fields; i++)
			if (!strcmp(names[i], samples_csv_names[c]))
				hdr->column[c] = (int)i;
		if (samples_csv_required[c] && hdr->column[c] < 0 && missing < 0)
			missing = c;
	}
	free(names);
	if (missing >= 0)
		set_error(err, err_size, "%s:1: the header has no '%s' column (see results/README.md)",
		          path, samples_csv_names[missing]);
	return missing >= 0 ? -1 : 0;
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
	return n ? n : 1; /* at most SAMPLES_TABLE_PARTS_MAX: parse_parts' to cap */
}

/* Runs work on every part at once: parts 1.. on threads, part 0 here; a part whose thread
 * cannot be started is done here after. */
static void each_part_at_once(struct part *parts, size_t count, void *(*work)(void *))
{
	pthread_t threads[SAMPLES_TABLE_PARTS_MAX];
	bool started[SAMPLES_TABLE_PARTS_MAX] = { false };
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

/* Maps a part's names to the file's (offset: the part's line offset), adding each name's first
 * lines and frequencies; map gets the file's index of each. The line where the file's names
 * first outnumber SAMPLES_TABLE_NAMES_MAX (placements only), or 0. */
static long join_names(struct names *file, const struct names *part, long offset, int **map,
                       bool cap_is_error)
{
	*map = xcalloc(part->count, sizeof **map);
	for (size_t i = 0; i < part->count; i++) {
		const struct samples_name *n = &part->items[i];
		int at = name_index(file, n->name, n->first_line + offset);
		(*map)[i] = at < 0 ? SAMPLES_NO_WORKLOAD : at;
		if (at < 0 && cap_is_error)
			return n->first_line + offset;
		if (at < 0)
			continue;
		struct samples_name *f = &file->items[at];
		for (int as = 0; as < 2; as++)
			if (n->first_line_as[as] && !f->first_line_as[as])
				f->first_line_as[as] = n->first_line_as[as] + offset;
		f->freq_khz += n->freq_khz;
		f->freq_n += n->freq_n;
	}
	return 0;
}

/* Takes a part into the file's names and warnings in file order (first_line: the file's number
 * of its first line). -1 with err. */
static int join_part(struct reader *rd, struct part *p, long first_line, char *err,
                     size_t err_size)
{
	p->line_offset = first_line - 1 - p->at_data_start;
	long overflow = join_names(&rd->placements, &p->placements, p->line_offset,
	                           &p->placement_map, true);
	join_names(&rd->workloads, &p->workloads, p->line_offset, &p->workload_map, false);
	if (!overflow && p->error == E2BIG) /* the part's own one name too many */
		overflow = p->names_overflow + p->line_offset;
	if (overflow)
		set_error(err, err_size, "%s:%ld: more than %d placement names (smtbench writes a "
		          "handful): not a samples.csv that smtbench wrote", rd->path, overflow,
		          SAMPLES_TABLE_NAMES_MAX);
	else if (p->error == EMSGSIZE) /* its lines read, the next one too long */
		long_line_error(rd->path, first_line + p->lines, err, err_size);
	else if (p->error)
		set_error(err, err_size, "%s: read error: %s", rd->path, strerror(p->error));
	if (overflow || p->error)
		return -1;
	for (size_t i = 0; i < p->skipped_count; i++)
		strings_push(&rd->t->warnings, &rd->t->warning_count,
		             xasprintf("samples.csv:%ld: %s; line skipped",
		                       p->skipped[i].line_no + p->line_offset, p->skipped[i].why));
	return 0;
}

/* Makes a part's records the file's: its name indexes and line numbers. On its own thread. */
static void *part_renumber(void *arg)
{
	struct part *p = arg;
	bool same = p->line_offset == 0;
	for (size_t i = 0; same && i < p->placements.count; i++)
		same = p->placement_map[i] == (int)i;
	for (size_t i = 0; same && i < p->workloads.count; i++)
		same = p->workload_map[i] == (int)i;
	for (size_t i = 0; !same && i < p->count; i++) {
		struct samples_record *r = &p->records[i];
		r->placement = (uint16_t)p->placement_map[r->placement];
		if (r->workload != SAMPLES_NO_WORKLOAD)
			r->workload = (uint16_t)p->workload_map[r->workload];
		r->line_no += p->line_offset;
	}
	return NULL;
}

/* The joined records as segments: the parts' arrays when the file is in order, else all of
 * them in one array, sorted. */
static void make_segments(struct reader *rd)
{
	struct samples_table *t = rd->t;
	const struct samples_record *last = NULL;
	bool sorted = true;
	size_t total = 0;
	for (size_t k = 0; k < rd->part_count; k++) {
		struct part *p = &rd->parts[k];
		if (p->count == 0)
			continue;
		/* records of later parts have later line numbers: the order of trial and process
		 * decides */
		sorted = sorted && p->sorted && (!last || compare_records(last, &p->records[0]) < 0);
		last = &p->records[p->count - 1];
		total += p->count;
		t->segments[t->segment_count++] = (struct samples_segment){ p->records, p->count };
		p->records = NULL; /* the table's now */
	}
	if (sorted)
		return;
	/* Out of order (edited by hand, or joined from pieces): sorted once, as one array. */
	struct samples_record *all = xmalloc(total * sizeof *all);
	size_t at = 0;
	for (size_t k = 0; k < t->segment_count; k++) {
		memcpy(all + at, t->segments[k].records, t->segments[k].count * sizeof *all);
		at += t->segments[k].count;
		free(t->segments[k].records);
	}
	qsort(all, total, sizeof *all, compare_records);
	t->segments[0] = (struct samples_segment){ all, total };
	t->segment_count = 1;
}

/* Cuts the data lines into parts and parses them at once. -1 with err. */
static int parse_parts(struct reader *rd, int fd, size_t forced_parts, char *err,
                       size_t err_size)
{
	off_t data_start;
	struct stat st;
	struct line_reader header;
	if (fstat(fd, &st) < 0) {
		set_error(err, err_size, "%s: %s", rd->path, strerror(errno));
		return -1;
	}
	line_reader_open(&header, fd, 0);
	/* A pipe (samples.csv a FIFO, or a link to /dev/stdin) has no offsets to read parts at:
	 * one part reads on from where the header ended. */
	header.sequential = !S_ISREG(st.st_mode);
	if (read_header(rd->path, &header, &rd->hdr, &data_start, err, err_size) < 0) {
		free(header.buf);
		return -1;
	}
	rd->t->have_proc = rd->hdr.column[SAMPLES_COL_PROC] >= 0;
	off_t bytes = st.st_size > data_start ? st.st_size - data_start : 0;
	size_t count = header.sequential ? 1 : forced_parts ? forced_parts : part_count(bytes);
	if (count > SAMPLES_TABLE_PARTS_MAX)
		count = SAMPLES_TABLE_PARTS_MAX;
	for (size_t k = 0; k < count; k++) {
		off_t begin = data_start + (off_t)((double)bytes * (double)k / (double)count);
		rd->parts[k] = (struct part){
			.hdr = &rd->hdr, .fd = fd, .at_data_start = begin == data_start, .begin = begin,
			.end = data_start + (off_t)((double)bytes * (double)(k + 1) / (double)count),
			.placements = { .last = -1 }, .workloads = { .last = -1 } };
	}
	rd->parts[count - 1].end = (off_t)1 << 62; /* the last part reads on to the end */
	rd->part_count = count;
	if (header.sequential)
		rd->parts[0].handed = &header; /* part 0 takes it over, and its buffer */
	else
		free(header.buf);
	each_part_at_once(rd->parts, count, part_parse);
	return 0;
}

/* Every line of the open file: parsed in parts, joined in file order. */
struct samples_table *samples_table_read(int fd, const char *path, size_t parts, char *err,
                                         size_t err_size)
{
	struct reader rd = { .path = path, .placements = { .last = -1 },
	                     .workloads = { .last = -1 }, .t = xcalloc(1, sizeof *rd.t) };
	int rc = parse_parts(&rd, fd, parts, err, err_size);
	long first_line = 2;
	for (size_t k = 0; rc == 0 && k < rd.part_count; k++) {
		rc = join_part(&rd, &rd.parts[k], first_line, err, err_size);
		first_line += rd.parts[k].lines;
	}
	if (rc == 0) {
		each_part_at_once(rd.parts, rd.part_count, part_renumber);
		make_segments(&rd);
		rd.t->placements = rd.placements.items;
		rd.t->placement_count = rd.placements.count;
		rd.t->workloads = rd.workloads.items;
		rd.t->workload_count = rd.workloads.count;
	} else {
		samples_table_free(&rd.t);
		free_names(rd.placements.items, rd.placements.count);
		free_names(rd.workloads.items, rd.workloads.count);
	}
	for (size_t k = 0; k < rd.part_count; k++)
		part_release(&rd.parts[k]);
	return rd.t;
}

void samples_table_free(struct samples_table **t)
{
	if (!*t)
		return;
	for (size_t k = 0; k < (*t)->segment_count; k++)
		free((*t)->segments[k].records);
	free_names((*t)->placements, (*t)->placement_count);
	free_names((*t)->workloads, (*t)->workload_count);
	strings_release(&(*t)->warnings, &(*t)->warning_count);
	free(*t);
	*t = NULL;
}

const char *samples_table_first_workload(const struct samples_table *t, int as)
{
	const struct samples_name *first = NULL;
	for (size_t i = 0; i < t->workload_count; i++) {
		const struct samples_name *n = &t->workloads[i];
		if (n->first_line_as[as] && (!first || n->first_line_as[as] < first->first_line_as[as]))
			first = n;
	}
	return first ? first->name : NULL;
}

/* ---- trials --------------------------------------------------------------------------------- */

int samples_next_trial(struct samples_cursor *c, const struct samples_record **records,
                       size_t *n)
{
	const struct samples_table *t = c->table;
	long trial = -1; /* the trial being gathered, once its first record is seen */
	*n = 0;
	/* A trial runs on into the next segment while the records there are of it too. */
	for (; c->k < t->segment_count; c->k++, c->at = 0) {
		const struct samples_segment *seg = &t->segments[c->k];
		size_t from = c->at;
		if (trial < 0 && from < seg->count)
			trial = seg->records[from].trial;
		while (c->at < seg->count && seg->records[c->at].trial == trial)
			c->at++;
		if (*n == 0) { /* the usual case: the trial in one segment, not copied */
			*records = seg->records + from;
		} else if (c->at > from) { /* a trial cut between two parts: copied together */
			bool gathered = *records == c->scratch;
			xgrow(&c->scratch, &c->scratch_cap, *n + c->at - from, sizeof *c->scratch);
			if (!gathered)
				memcpy(c->scratch, *records, *n * sizeof *c->scratch);
			memcpy(c->scratch + *n, seg->records + from, (c->at - from) * sizeof *c->scratch);
			*records = c->scratch;
		}
		*n += c->at - from;
		if (c->at < seg->count)
			break;
	}
	return *n > 0;
}

void samples_cursor_release(struct samples_cursor *c)
{
	free(c->scratch);
	c->scratch = NULL;
	c->scratch_cap = 0;
}
