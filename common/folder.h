/*
 * folder.h — a results folder, read once: meta.json parsed (the authority on what the folder
 * holds), what it is (a run of copies, a run of one process per trial, a matrix), its state
 * (complete, interrupted, failed, still being written, or killed: meta.json says running and
 * its runner is gone), the time it is compared by, and samples.csv read on first use
 * (common/samples_table.h). analyze, report, fleet, the end of a run and --resume all take it.
 *
 * Nothing here prints; out of memory exits (common/alloc.h). Ownership: folder_open's result is
 * the caller's, released by folder_free(&f).
 */
#ifndef SMTBENCH_COMMON_FOLDER_H
#define SMTBENCH_COMMON_FOLDER_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "common/samples_table.h"

enum folder_kind {
	FOLDER_RUN,          /* copies of a workload per placement (run), or no meta.json */
	FOLDER_ONE_PROCESS,  /* one process given each placement's CPUs (run --one-process) */
	FOLDER_MATRIX,       /* an interference matrix (smtbench matrix: meta.json's "matrix") */
};

enum folder_state {
	FOLDER_COMPLETE,     /* meta.json's status: the run ended as planned */
	FOLDER_INTERRUPTED,  /* stopped by a signal; --resume continues it */
	FOLDER_FAILED,       /* the runner stopped on a failure */
	FOLDER_RUNNING,      /* status running, and its runner is alive, or cannot be seen from
	                      * here (another host, or a folder older than the runner's mark) */
	FOLDER_KILLED,       /* status running, and its runner is gone (killed, or the machine
	                      * restarted): what is on disk is all there will be; --resume continues */
	FOLDER_UNRECORDED,   /* no status: no meta.json, or not smtbench's (the seed's example) */
};

/* Whether meta.json could be used; its reason in meta_error otherwise. */
enum folder_meta {
	FOLDER_META_OK,
	FOLDER_META_ABSENT,
	FOLDER_META_UNREADABLE,  /* meta_error: fileio_read_all's message (names the file) */
	FOLDER_META_NOT_JSON,    /* meta_error: jansson's, at meta_error_line */
	FOLDER_META_NOT_OBJECT,
};

struct results_folder {
	char *dir;                 /* as given: what is opened */
	char *shown_dir;           /* escaped (common/text.h): what every output shows */
	char *meta_path;           /* DIR/meta.json */
	json_t *meta;              /* meta.json as written; NULL unless meta_status is OK */
	json_t *shown_meta;        /* the same with every string escaped, for showing; or NULL */
	enum folder_meta meta_status;
	char *meta_error;          /* escaped; NULL when OK or ABSENT */
	int meta_error_line;
	enum folder_kind kind;
	enum folder_state state;
	bool wall_metric;          /* compared by wall time (meta.json's "metric"; wall by default
	                            * for one process), else by user CPU time */
	long runner_pid;           /* RUNNING or KILLED: the last runner's pid where meta.json
	                            * records it, else 0 */
	char *runner_host;         /* and its host (escaped), or NULL */
	size_t parts;              /* samples.csv is read in this many parts at once; 0: one per
	                            * usable CPU (tests set it) */
	struct samples_table *samples; /* folder_samples' */
	char *samples_error;
	/* With samples: whether meta.json names each of the table's placements and workloads (by
	 * role: [0] role a, [1] role b); NULL where meta.json does not list them (all agree). */
	bool *placement_named;
	bool *workload_named[2];
	char *meta_placements;         /* meta.json's placements, "solo, non-sibling", for messages */
	char *meta_workloads[2];       /* and its workloads by role (escaped) */
};

/* Reads DIR/meta.json (present or not, usable or not: said in meta_status) and what follows
 * from it. Never NULL. */
struct results_folder *folder_open(const char *dir);

/* DIR/samples.csv, read the first time it is asked for and kept; NULL with err (the same
 * message every time it is asked) when it cannot be read (samples_table.h), or when meta.json
 * is present but damaged (unreadable, not JSON, not an object): meta.json is the authority on
 * what the folder holds, and without it the rows would be read as another kind. */
const struct samples_table *folder_samples(struct results_folder *f, char *err, size_t err_size);

/* Why row r of the folder's samples disagrees with meta.json, which is the authority on what
 * the folder holds: a placement meta.json does not list, or a workload it does not name in the
 * row's role ("placement 'x' is " FOLDER_NOT_NAMED_BY_META " (solo, sibling)"); a new string, or NULL
 * when it agrees (or meta.json does not list them). After folder_samples. */
char *folder_row_disagreement(const struct results_folder *f, const struct samples_record *r);
/* Every such reason ends "not named by meta.json (...)" (fleet tells these rows from damage). */
#define FOLDER_NOT_NAMED_BY_META "not named by meta.json"

/* The state's name in every report: "complete", "interrupted", "failed", "running", "killed";
 * NULL for FOLDER_UNRECORDED. */
const char *folder_state_name(enum folder_state state);

/* The trials samples.csv holds, after folder_samples read it (-1 before, or when it could not
 * be read): a run's progress, which meta.json's trials_done says only when a segment ends (a
 * runner killed mid-segment leaves it at the segment's start). */
long folder_trials_written(const struct results_folder *f);

/* meta.json's shown string member key, or NULL (no meta.json, absent, not a string). */
const char *folder_meta_string(const struct results_folder *f, const char *key);

void folder_free(struct results_folder **f);

/* The runner's mark on the segment it starts (meta.json's segments[].pid, host and boot_id):
 * what folder_open reads to tell a run being written from one whose runner was killed. */
void folder_mark_runner(json_t *segment);

#endif
