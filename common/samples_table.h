/*
 * samples_table.h — a results folder's samples.csv read back: every line checked into a record,
 * the records in file order, the placement and workload names seen, and one warning per line
 * left out ("samples.csv:LINE: why; line skipped"). The one reader of the file for every
 * command that reads a folder (common/folder.h hands the table out, loaded once); the runner's
 * --resume scans the file its own way (runner/store.h), since it must refuse damage that a
 * reader skips.
 *
 * Columns are found by name (older files have fewer); a line is left out when its field count
 * is not the header's, a number is not one (common/number.h's rule), a required field is empty,
 * a NUL or a '\r' cuts it, or it is a last line without its newline. Nothing here prints; out of
 * memory exits (common/alloc.h). Ownership: samples_table_read's result is the caller's,
 * released by samples_table_free(&t).
 */
#ifndef SMTBENCH_COMMON_SAMPLES_TABLE_H
#define SMTBENCH_COMMON_SAMPLES_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A record's workload when its field was empty (or past SAMPLES_TABLE_NAMES_MAX names). */
#define SAMPLES_NO_WORKLOAD UINT16_MAX
/* More placement names than this in one file is not a file smtbench wrote (it has a handful):
 * the file is refused. Workload names past it are not kept (SAMPLES_NO_WORKLOAD). */
#define SAMPLES_TABLE_NAMES_MAX 1000

/* One line, checked: what the readers need of it and no more, in 64 bytes, since ten million
 * are held. */
struct samples_record {
	long trial, line_no;
	long block;                /* -1 when the file has no block column or it is empty */
	double utime;
	double wall;               /* NAN when empty */
	double shared;             /* the larger of foreign_s and steal_s; NAN when either is empty
	                            * or not in the file */
	int32_t leftovers;         /* 0 when empty or not in the file */
	uint16_t placement;        /* index into the table's placements */
	uint16_t workload;         /* index into the table's workloads, or SAMPLES_NO_WORKLOAD */
	uint8_t proc;              /* 0 to 255 */
	unsigned warmup : 1, role_a : 1, ok : 1;
	signed wall_above : 2;     /* wall_s above SAMPLES_WALL_ABOVE_CPU × its CPU time: 1, 0, or
	                            * -1 when wall_s or stime_s is unknown */
	signed poor_overlap : 2;   /* overlap below SAMPLES_POOR_OVERLAP: 1, 0, or -1 unknown */
	signed unspread : 2;       /* per_cpu_s: the process ran on one of its CPUs
	                            * (samples_per_cpu_unspread): 1, 0, or -1 unknown (empty, one
	                            * CPU) */
	unsigned per_cpu_n : 2;    /* per_cpu_s: how many CPUs it names (SAMPLES_PER_CPU_MAX) */
};

/* A name seen in the file (as written: not escaped), in order of first appearance. */
struct samples_name {
	char *name;
	long first_line;
	long first_line_as[2];     /* workloads: the first line with it in role a, in role b; 0 never */
	int64_t freq_khz;          /* placements: the sum of its measured role-a rows' freq_mhz in */
	size_t freq_n;             /* whole kHz (integers add up the same in any order), and their count */
};

/* Records in file order, as runs of one array each. */
struct samples_segment {
	struct samples_record *records;
	size_t count;
};
enum { SAMPLES_TABLE_PARTS_MAX = 16 };

struct samples_table {
	struct samples_segment segments[SAMPLES_TABLE_PARTS_MAX];
	size_t segment_count;
	struct samples_name *placements, *workloads;
	size_t placement_count, workload_count;
	char **warnings;           /* the lines left out, in file order */
	size_t warning_count;
	bool have_proc;            /* the header has a proc column */
};

/*
 * Reads fd, samples.csv at path (opened by the caller with fileio_open_regular, so that a FIFO
 * or a device is refused first; the caller closes it), in `parts` parts at once (0: one per CPU this process may use, none under 4 MiB; at most
 * SAMPLES_TABLE_PARTS_MAX). The table is the same for any number of parts, warnings and line
 * numbers included. NULL with err ("PATH: ...", "PATH:LINE: ...") when the file cannot be read,
 * lacks a required column, holds a line past SAMPLES_CSV_LINE_MAX or too many placement names.
 */
struct samples_table *samples_table_read(int fd, const char *path, size_t parts, char *err,
                                         size_t err_size);
void samples_table_free(struct samples_table **t);

/* The first role-a (as = 0) or role-b (as = 1) workload's name in file order, or NULL. */
const char *samples_table_first_workload(const struct samples_table *t, int as);

/* The trials one after the other: each trial's records, in file order (a trial's records are
 * consecutive; an out-of-order file was sorted by trial and process when read). */
struct samples_cursor {
	const struct samples_table *table;
	size_t k, at;              /* the next record: segments[k].records[at] */
	struct samples_record *scratch;
	size_t scratch_cap;
};
/* The next trial's *n records into *records (valid until the next call): 1, or 0 after the
 * last. */
int samples_next_trial(struct samples_cursor *c, const struct samples_record **records,
                       size_t *n);
void samples_cursor_release(struct samples_cursor *c);

#endif
