/*
 * store.h — the results folder: samples.csv appended trial by trial, and whole files written
 * atomically (meta.json, topology.xml).
 *
 * Crash safety: every trial's rows go out in one write() before the next trial starts, so a
 * crash of the runner loses nothing; fsync() is a group commit, at least every
 * STORE_SYNC_INTERVAL_S and at every stop (store_sync), so a power cut loses at most the
 * trials of the last second. Either can leave one torn trial at the end of samples.csv;
 * store_scan finds it and store_cut_torn cuts it, so a resumed run neither duplicates a trial
 * nor misses one: a lost trial is simply run again. Damage anywhere else is refused, and the
 * file is then left as it was. The CSV columns are a contract: see results/README.md.
 */
#ifndef SMTBENCH_RUNNER_STORE_H
#define SMTBENCH_RUNNER_STORE_H

#include <stdbool.h>

#include "common/samples_csv.h"
#include "runner/trial.h"
#include "common/error.h"
#include "topology/topology.h"

struct store; /* owned by its creator; store_close(&s) */

/*
 * Starts a new results folder DIR, complete or not at all: its missing parents are made, then
 * the folder is built under a temporary name beside it (".smtbench-partial-NAME.XXXXXX") with
 * samples.csv's header on disk; the caller writes meta.json and topology.xml into store_dir(s)
 * and calls store_publish, which renames it to DIR. Refuses a DIR that exists. Returns NULL
 * with a one-line reason in err. Closing an unpublished store removes its temporary folder.
 */
struct store *store_create(const char *dir, char *err, size_t err_size);

/* Whether DIR is the temporary folder of a creation that was killed half way (its name begins
 * ".smtbench-partial-"): it holds no trial and is not to be resumed. */
bool store_is_partial(const char *dir);

/* Renames a new folder into place (never over an existing one), after fsyncing it, and fsyncs
 * its parent. From then on store_dir is DIR. -1 with err (the folder stays temporary). */
int store_publish(struct store *s, char *err, size_t err_size);

/* What an existing samples.csv holds, for --resume and for the progress line. */
struct stored_trial {
	long trial, block;
	long line; /* line number of its first row in samples.csv */
	enum placement placement;
	bool warmup, ok;
	double utime_a_s; /* mean user time of the trial's role-a processes when ok */
	double wall_a_s;  /* their mean wall time (one process's: run --one-process's metric) */
	double start_s;   /* earliest start_s of the trial */
	/* Its role-a and role-b workloads, indexes into store_scan.workloads (-1: none, or past
	 * STORE_SCAN_MAX_WORKLOADS names): what --resume checks a matrix's cells against. */
	int workload_a, workload_b;
	double end_s;     /* latest end_s of the trial */
};

/* Opens an existing folder DIR for appending and locks it (a second run of the same folder is
 * refused): first, before anything in it is read. Nothing is changed. NULL with err. */
struct store *store_open(const char *dir, char *err, size_t err_size);

/* samples.csv read back and checked, without changing a byte of it. */
struct store_scan {
	struct stored_trial *trials; /* the complete trials in file order (owned) */
	long ntrials;
	long cut_lines;              /* lines of a torn last trial; 0 when nothing is to be cut */
	long complete_end;           /* file offset just after the last complete trial */
	char **workloads;            /* the workload names seen, first seen first (owned) */
	size_t nworkloads;
};
#define STORE_SCAN_MAX_WORKLOADS 64

/*
 * Reads every row: blank lines are skipped; every other line must be a valid row (its number of
 * fields, numbers where numbers belong, a known placement), trials numbered 0, 1, 2... in file
 * order, each with exactly one row per process of its placement (one_process: one row in every
 * placement, as run --one-process writes them). Only the last trial may be
 * torn (a final line without its newline, or missing a row): it is left to store_cut_torn.
 * Damage anywhere else is -1 with err "DIR/samples.csv:LINE: what is wrong".
 */
int store_scan(struct store *s, bool one_process, struct store_scan *out, char *err,
               size_t err_size);
void store_scan_release(struct store_scan *scan);

/* Cuts the torn last trial a scan found (if any) and fsyncs. -1 with err. */
int store_cut_torn(struct store *s, const struct store_scan *scan, char *err, size_t err_size);

struct trial_labels {
	long trial, block;
	bool warmup;
	enum placement placement;
	const char *role[TRIAL_MAX_PROCS];     /* "a" or "b" */
	const char *workload[TRIAL_MAX_PROCS]; /* kernel or command name; commas are replaced */
};

/* The longest time a written trial waits for its fsync (seconds). */
#define STORE_SYNC_INTERVAL_S 1.0

/* Appends the trial's rows in one write(), and fsyncs when the last fsync is
 * STORE_SYNC_INTERVAL_S old. -1 with err (the folder is still valid up to the last trial that
 * was written). */
int store_append_trial(struct store *s, const struct trial_labels *labels,
                       const struct trial_result *result, char *err, size_t err_size);

/* Opens NAME in the folder (openat on its descriptor, never through a symbolic link), e.g. the
 * workloads' error log: open(2)'s flags and mode; a descriptor or -1 with errno. */
int store_open_file(const struct store *s, const char *name, int flags, int mode);

/* fsyncs samples.csv if a trial was written since the last fsync: call it at every stop, before
 * meta.json counts the trials. -1 with err. store_close does it too, silently. */
int store_sync(struct store *s, char *err, size_t err_size);

/* DIR of the store (owned by the store). */
const char *store_dir(const struct store *s);

void store_close(struct store **s);

#endif
