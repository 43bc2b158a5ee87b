/*
 * store.h — the results folder: samples.csv appended trial by trial, and whole files written
 * atomically (meta.json, topology.xml).
 *
 * Crash safety: every trial's rows go out in one write() before the next trial starts, so a
 * crash of the runner loses nothing; fsync() is a group commit, at least every
 * STORE_SYNC_INTERVAL_S and at every stop (store_sync), so a power cut loses at most the
 * trials of the last second. Either can leave one torn trial at the end of samples.csv;
 * store_resume finds the last complete trial and cuts the rest, so a resumed run neither
 * duplicates a trial nor misses one: a lost trial is simply run again. The CSV columns are a contract: see results/README.md.
 */
#ifndef SMTBENCH_RUNNER_STORE_H
#define SMTBENCH_RUNNER_STORE_H

#include <stdbool.h>

#include "analysis/samples_csv.h"
#include "runner/trial.h"
#include "topology/error.h"
#include "topology/topology.h"

struct store; /* owned by its creator; store_close(&s) */

/* The samples.csv header line, without the newline (built from analysis/samples_csv.h). */
#define STORE_CSV_HEADER SAMPLES_CSV_HEADER

/* Creates DIR (and missing parents) and an empty samples.csv with its header. Refuses a DIR that
 * exists. Returns NULL with a one-line reason in err. */
struct store *store_create(const char *dir, char *err, size_t err_size);

/* What an existing samples.csv holds, for --resume and for the progress line. */
struct stored_trial {
	long trial;
	enum placement placement;
	bool warmup, ok;
	double utime_a_s; /* mean user time of the trial's role-a processes when ok */
	double start_s;   /* earliest start_s of the trial */
	double end_s;     /* latest end_s of the trial */
};

/*
 * Opens DIR/samples.csv for appending after its last complete trial, cutting a torn tail (a
 * trial with fewer rows than its placement has processes, or a line without its newline).
 * *trials receives a new array (caller frees) of the complete trials in file order, *ntrials
 * its length, *dropped_lines the number of lines cut. NULL with err on failure.
 */
struct store *store_resume(const char *dir, struct stored_trial **trials, long *ntrials,
                           long *dropped_lines, char *err, size_t err_size);

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

/* fsyncs samples.csv if a trial was written since the last fsync: call it at every stop, before
 * meta.json counts the trials. -1 with err. store_close does it too, silently. */
int store_sync(struct store *s, char *err, size_t err_size);

/* DIR of the store (owned by the store). */
const char *store_dir(const struct store *s);

void store_close(struct store **s);

/* Writes DIR/NAME through a temporary file, fsync and rename, so a reader sees the old file or
 * the new one, never half of one. -1 with err. */
int store_write_file(const char *dir, const char *name, const char *content, size_t len,
                     char *err, size_t err_size);

/* Reads DIR/NAME whole into a new NUL-terminated string (caller frees); NULL with err. */
char *store_read_file(const char *dir, const char *name, char *err, size_t err_size);

#endif
