/*
 * resume.h — `run --resume DIR`: a stopped run taken up where it stopped, never losing or
 * repeating a trial.
 *
 * Everything is checked before the first write: the folder is locked (store_open), meta.json
 * read back (meta_load), the host, the workloads (the very files recorded, by SHA-256), the
 * pairs on this machine's topology and every row of samples.csv against the plan. Only then is
 * a torn last trial cut. What forbids resuming is one line on stderr naming the folder (and the
 * line of samples.csv) and exit 2, like every bad input; a failed cut exits 1.
 */
#ifndef SMTBENCH_RUNNER_RESUME_H
#define SMTBENCH_RUNNER_RESUME_H

#include <stdbool.h>

#include "runner/experiment.h"
#include "runner/store.h"

/* A run taken up again: its experiment (from meta.json), its locked store and the trials
 * already stored. complete: meta.json says the run finished, so there is nothing to run (and
 * nothing was cut). */
struct resumed {
	struct experiment e;
	struct store *store;
	struct store_scan scan;
	bool complete;
};

/*
 * Opens DIR for resuming into *r, with the stop signals blocked from here on (a stop waits for
 * a trial boundary; r->e.child_sigmask is the mask children restore), and says so on stdout:
 * "DIR is complete; nothing to resume", or the trial it resumes at with the plan's protections
 * (a torn trial cut is said on stderr). command_line (this invocation's, for meta.json) is
 * taken: resume_release frees it with the experiment. Exits as above on anything that forbids
 * it.
 */
void resume_open(const char *dir, char **command_line, struct resumed *r);

/* Whether DIR holds a run that resume_open would take up: not the temporary folder of a killed
 * creation, and a meta.json that meta_load accepts. *complete: that run has finished (nothing
 * to resume). false with the reason in err. */
bool resume_possible(const char *dir, bool *complete, char *err, size_t err_size);

/* Releases what resume_open took: the scan, the store (its lock) and the experiment. */
void resume_release(struct resumed *r);

#endif
