/*
 * samples_csv.h — the one description of samples.csv (the contract in results/README.md): its
 * columns in file order, the header built from them, one line splitter and one row formatter.
 * The runner writes and resumes with it; the analysis loads with it. Needs nothing but libc.
 *
 * Adding a column is one X(...) line below (plus filling it in runner/store.c and reading it
 * where it is used). The order is the file's order: append, never reorder, since existing
 * results folders and their readers (pandas, the resume check) depend on it.
 */
#ifndef SMTBENCH_COMMON_SAMPLES_CSV_H
#define SMTBENCH_COMMON_SAMPLES_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* X(ID, "name", required): required columns must be in a header for the analysis to load it;
 * the others may be missing from files written by older versions. */
#define SAMPLES_CSV_COLUMNS(X)                  \
	X(TRIAL,       "trial",       true)      \
	X(BLOCK,       "block",       false)     \
	X(WARMUP,      "warmup",      true)      \
	X(PLACEMENT,   "placement",   true)      \
	X(PROC,        "proc",        false)     \
	X(ROLE,        "role",        true)      \
	X(PU,          "pu",          false)     \
	X(WORKLOAD,    "workload",    false)     \
	X(STATUS,      "status",      true)      \
	X(EXIT_CODE,   "exit_code",   false)     \
	X(SIGNAL,      "signal",      false)     \
	X(UTIME,       "utime_s",     true)      \
	X(STIME,       "stime_s",     false)     \
	X(WALL,        "wall_s",      false)     \
	X(START,       "start_s",     false)     \
	X(END,         "end_s",       false)     \
	X(NVCSW,       "nvcsw",       false)     \
	X(NIVCSW,      "nivcsw",      false)     \
	X(MAXRSS,      "maxrss_kb",   false)     \
	X(OVERLAP,     "overlap",     false)     \
	X(FREQ,        "freq_mhz",    false)     \
	X(LOADAVG,     "loadavg_1m",  false)     \
	X(STARTED_UTC, "started_utc", false)     \
	X(FOREIGN,     "foreign_s",   false)     \
	X(STEAL,       "steal_s",     false)     \
	X(LEFTOVERS,   "leftovers",   false)     \
	X(PER_CPU,     "per_cpu_s",   false)

/* The time a folder's trials are compared by (meta.json's "metric", analyze --metric): user
 * CPU time (utime_s) for copies, wall time (wall_s) for one process given a placement's CPUs
 * (run --one-process, meta.json's settings.one_process). A folder whose meta.json names none
 * is analysed by user time. */
#define SAMPLES_METRIC_USER "user"
#define SAMPLES_METRIC_WALL "wall"

/* A trial shared its CPUs (it is "contaminated") when its foreign_s or steal_s is above this
 * share of its duration (its longest wall_s): the one rule the runner's progress lines and the
 * analysis apply. */
#define SAMPLES_CONTAMINATED_SHARE 0.1
/* A trial whose processes overlapped less than this share of their time overlapped poorly; a
 * process whose wall time is above this many times its CPU time waited (other load). */
#define SAMPLES_POOR_OVERLAP 0.9
#define SAMPLES_WALL_ABOVE_CPU 1.5
/* The largest time (seconds) a reader takes: the model squares and sums times, and larger ones
 * (a damaged file's 1e200) would overflow to infinity and NaN. Any real time is far below. */
#define SAMPLES_TIME_MAX_S 1e100

/* per_cpu_s (run --one-process): the one process's CPU time on each CPU it was given, as
 * "CPU:seconds" items separated by ';' in the placement's order ("2:0.051203;0:0.049870");
 * empty when not measured. A trial whose process ran on one of its CPUs (that CPU had more than
 * 1 - SAMPLES_UNSPREAD_SHARE of its CPU time, every other CPU together less than this share)
 * did not use the placement it was given: the one rule, the analysis's (the lab's check copies
 * it). */
#define SAMPLES_PER_CPU_MAX 2
#define SAMPLES_UNSPREAD_SHARE 0.1
/* The utime_s and stime_s columns come from the kernel's accounting, which splits a process's
 * run time between user and system by the clock ticks (USER_HZ, 100 on Linux) that found it in
 * each: a user time under one tick is coarse, and a process that ran less than a tick can be
 * charged 0 s. A trial's work should last SAMPLES_USER_TICKS_WANTED ticks or more. */
#define SAMPLES_USER_TICK_S 0.01
#define SAMPLES_USER_TICKS_WANTED 10

/* Writes per_cpu_s's text for n CPUs into buf (at most len bytes; empty for n <= 0). */
void samples_per_cpu_format(char *buf, size_t len, const int *cpus, const double *seconds,
                            int n);
/* Reads per_cpu_s's text of len bytes: the number of CPUs (0 for an empty field), their
 * numbers and seconds into cpus[] and seconds[] (SAMPLES_PER_CPU_MAX at most); -1 for text
 * that is not in this form or names more CPUs. */
int samples_per_cpu_parse(const char *text, size_t len, int cpus[SAMPLES_PER_CPU_MAX],
                          double seconds[SAMPLES_PER_CPU_MAX]);
/* Whether a process with these per-CPU times did not spread over its CPUs: 1 when it ran on
 * one of them (by SAMPLES_UNSPREAD_SHARE), 0 when it used them all enough, -1 when it cannot
 * be told (fewer than two CPUs, or no CPU time at all). */
int samples_per_cpu_unspread(const double *seconds, int n);

enum samples_column {
#define SAMPLES_CSV_ENUM_(id, name, required) SAMPLES_COL_##id,
	SAMPLES_CSV_COLUMNS(SAMPLES_CSV_ENUM_)
#undef SAMPLES_CSV_ENUM_
	SAMPLES_COLUMN_COUNT
};

/* The header line without its newline: ",trial,block,..." from its second character, so
 * that it is a compile-time constant built from the table. */
#define SAMPLES_CSV_COMMA_NAME_(id, name, required) "," name
#define SAMPLES_CSV_HEADER (&(SAMPLES_CSV_COLUMNS(SAMPLES_CSV_COMMA_NAME_))[1])

/* Column names and whether each is required, indexed by enum samples_column. */
extern const char *const samples_csv_names[SAMPLES_COLUMN_COUNT];
extern const bool samples_csv_required[SAMPLES_COLUMN_COUNT];

/* Splits a line (no quoting in this format; no newline) at its commas, in place. Stores at
 * most max field pointers but returns the number of fields the line has, so that a caller
 * can tell a line with too many fields. */
size_t samples_csv_split(char *line, char **fields, size_t max);
/* The same for a line of len bytes (its end need not be a '\0'; no byte of it is one). */
size_t samples_csv_split_n(char *line, size_t len, char **fields, size_t max);

/* A workload's name as its unquoted CSV field holds it, the one rule the writer and every
 * reader that matches names follow: escaped as every outside text is shown (common/text.h: a
 * newline, an escape sequence, a byte that is not UTF-8 as \xNN), then kept to one token (a
 * comma or a quote as '_'), cut at outlen - 1 bytes, never inside an escape or a UTF-8
 * character. */
void samples_csv_token(const char *in, char *out, size_t outlen);

/* One row being written: every column's text, set by column. Fields longer than
 * SAMPLES_FIELD_LEN - 1 are cut. */
enum { SAMPLES_FIELD_LEN = 128 };
struct samples_row {
	char text[SAMPLES_COLUMN_COUNT][SAMPLES_FIELD_LEN];
	bool set[SAMPLES_COLUMN_COUNT];
};

/* The longest line a reader of samples.csv takes, its newline counted. A row smtbench writes is
 * at most SAMPLES_COLUMN_COUNT * SAMPLES_FIELD_LEN bytes (3.3 kB); the cap leaves room for
 * rows other tools wrote with long text fields (the loader's tests read a 3 MB one), and a
 * longer line (a sparse file of NULs) is refused as not a samples.csv rather than read into
 * memory without end. */
enum { SAMPLES_CSV_LINE_MAX = 4 << 20 };

void samples_row_clear(struct samples_row *row);
/* printf into one column. */
void samples_row_set(struct samples_row *row, enum samples_column col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Writes the row and its newline in column order. Returns the first column left unset (a
 * writer that forgot a new column), or -1 when all were set and the row was written. */
int samples_row_print(const struct samples_row *row, FILE *out);

#endif
