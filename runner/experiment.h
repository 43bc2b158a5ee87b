/*
 * experiment.h — a whole run: the settings it was started with, the pairs it uses, and the loop
 * that runs its trials into a results folder. cmd_run.c fills a struct experiment from the
 * command line (or, for --resume, from meta.json through meta.h) and calls experiment_run.
 */
#ifndef SMTBENCH_RUNNER_EXPERIMENT_H
#define SMTBENCH_RUNNER_EXPERIMENT_H

#include <stdbool.h>
#include <signal.h>
#include <stdint.h>

#include <jansson.h>

#include "runner/allocate.h"
#include "runner/calibrate.h"
#include "runner/plan.h"
#include "runner/store.h"
#include "runner/workload.h"
#include "topology/topology.h"

/* The ranges of the settings, one place for the command line (cmd_run.c) and for meta.json read
 * back (meta.c): within them the plan's total of trials cannot overflow. */
#define RUN_MAX_TRIALS 100000000L          /* measured blocks */
#define RUN_MAX_WARMUP 1000000L            /* warm-up blocks */
#define RUN_MAX_DURATION_S (100.0 * 365 * 86400) /* a century */
/* Iterations are stored in meta.json as JSON integers (signed 64-bit): at most 2^63-1. */
#define RUN_MAX_ITERS ((unsigned long)INT64_MAX)
/* --trial-time's and --precision's ranges (0 in meta.json: not asked for). */
#define RUN_TRIAL_TIME_MIN_S 0.001
#define RUN_TRIAL_TIME_MAX_S 3600.0
#define RUN_MAX_PRECISION_PCT 50.0
/* workload-stderr.log is kept for a person to read why a workload failed; a workload that
 * writes without end (90 MB from 9 processes was seen, 1.1 GB from one trial of 2 s) must not
 * fill the disk the samples are on. The workloads' stderr is a pipe the runner drains while
 * each trial runs (runner/errpipe.h): past this size, within a trial as between trials, the
 * rest is discarded, said at the log's end, on stderr, in meta.json (workload_stderr_log.cut)
 * and so in the report's warnings; the workloads' writes still succeed. */
#define WORKLOAD_STDERR_MAX_BYTES ((long long)64 << 20)
/* The trial time limit (--trial-timeout). By default it is automatic: TRIAL_TIMEOUT_FACTOR times
 * the slowest warm-up trial's wall time (the first block's without warm-up), at least
 * TRIAL_TIMEOUT_MIN_S; until those trials have run, TRIAL_TIMEOUT_UNCALIBRATED_S. A trial still
 * running at the limit is killed and stored with status `timeout`; TRIAL_TIMEOUTS_IN_A_ROW of
 * them in a row stop the run. */
#define TRIAL_TIMEOUT_FACTOR 10.0
#define TRIAL_TIMEOUT_MIN_S 10.0
#define TRIAL_TIMEOUT_UNCALIBRATED_S 3600.0
#define TRIAL_TIMEOUTS_IN_A_ROW 3
#define TRIAL_TIMEOUT_MAX_S (100.0 * 365 * 86400) /* what --trial-timeout accepts at most */

/* How a run shows its progress on stderr (--progress): AUTO is BAR on a terminal, else LINES.
 * BAR redraws one line; LINES prints a timestamped line after a measured block when
 * progress_interval_s has passed since the last (and at the latest after
 * PROGRESS_LINES_MAX_GAP_S), plus a line for each trial that shared its CPUs, for a log of an
 * unattended run; NONE prints no progress. */
enum progress_mode { PROGRESS_AUTO, PROGRESS_BAR, PROGRESS_LINES, PROGRESS_NONE };
#define PROGRESS_INTERVAL_DEFAULT_S 60.0
#define PROGRESS_INTERVAL_MIN_S 1.0
#define PROGRESS_LINES_MAX_GAP_S 600.0
/* Trials that shared their CPUs get a line each, up to this many; then one line says the rest
 * are counted in the summary. */
#define PROGRESS_CONTAMINATED_SHOWN 10
/* /proc/stat counts CPU time in clock ticks (10 ms): a trial shorter than this cannot be judged
 * by its foreign time, so the lines do not call it shared (the analysis still counts it). */
#define PROGRESS_CONTAMINATION_MIN_SPAN_S 0.1

struct experiment {
	/* Presentation, not recorded (a resumed run chooses its own). */
	enum progress_mode progress_mode;
	double progress_interval_s; /* LINES: at most one progress line per this many seconds */
	/* Settings, as recorded in meta.json. */
	char *kernel;            /* NULL when running a command */
	char *beside_kernel;     /* NULL unless --beside-kernel */
	unsigned long iters;     /* kernel iterations; 0 with a command */
	unsigned long beside_iters; /* the beside kernel's iterations; 0 without one */
	double duration_s;       /* 0 unless --duration */
	double trial_timeout_s;  /* --trial-timeout: seconds; 0 none; -1 automatic (the default) */
	bool have_pair;
	int pair[2];
	double trial_time_s;     /* --trial-time: what a calibrated kernel aims at; 0 when not calibrated */
	double precision_pct;    /* --precision: stop at a 95% interval within ±this %; 0 for none */
	bool one_process;        /* --one-process: each trial runs one process bound to all of its
	                          * placement's CPUs (topo_pair_cpus), judged by its wall time */
	double rope_pct;         /* matrix --rope: the reports' ROPE, ±%, recorded for them (it
	                          * changes no trial); 0 for none */
	char **command_line;     /* argv of smtbench itself, NULL-terminated, owned */
	/* Derived. */
	struct workload a, b;    /* b.argv is NULL when both processes run a */
	/* A matrix (smtbench matrix): the kernels its cells (plan.cells) index, each with its
	 * calibration (.iters 0: given or not calibrated), and named (samples.csv's workload
	 * column, meta.json's cells) by the kernel or by the command's --commands line; nworkloads
	 * 0 for a run, whose a and b are its workloads. */
	int nworkloads;
	struct workload workloads[PLAN_MAX_WORKLOADS];
	struct calibration cal_workloads[PLAN_MAX_WORKLOADS];
	struct plan plan;
	/* A matrix with --precision: what chooses the cells of its blocks after the first
	 * PRECISION_MIN_BLOCKS measured ones (plan.adaptive_from); NULL otherwise. Owned. */
	struct allocation *allocation;
	struct topo_pair pairs[PLACEMENT_COUNT];   /* by placement; .available for planned ones */
	char skipped_reason[PLACEMENT_COUNT][TOPO_ERR_LEN]; /* "" unless asked and skipped */
	char *out_dir;
	struct calibration cal_a, cal_b; /* .iters 0 unless that kernel was calibrated */
	int interrupt_signal;    /* set when experiment_run returns RUN_INTERRUPTED */
	sigset_t child_sigmask;  /* the signal mask before the runner blocked its signals */
	json_t *meta;            /* meta.json as written; updated with status and segments */
};

void experiment_release(struct experiment *e);

/* Outcome of experiment_run, mapped to the exit status by the caller. */
enum run_outcome { RUN_COMPLETE, RUN_INTERRUPTED, RUN_FAILED };

/* Why a run stopped, as meta.json's stop_reason records it (exact strings: a contract). */
#define STOP_PRECISION "precision reached"
#define STOP_TRIALS "trials"
#define STOP_DURATION "duration"
#define STOP_INTERRUPTED "interrupted"

/*
 * Runs (or continues) the trials of e into store s, starting at trial first_trial; previous
 * holds the trials already stored (for the progress line and the time budget). The caller has
 * blocked the stop signals and SIGCHLD (trial_block_signals) and saved the mask before in
 * e->child_sigmask. With a duration, warm-up blocks run first and the budget is for the
 * measured blocks that follow; at least one measured block runs. Prints a progress line on
 * stderr when it is a terminal. Updates meta.json's status as it goes. With a precision target,
 * stops after the first whole measured block at which the headline ratio's 95% interval is
 * within ±precision_pct% (precision.h), never before PRECISION_MIN_BLOCKS. meta.json's
 * stop_reason says which limit ended the run (STOP_...; null after a failure).
 */
enum run_outcome experiment_run(struct experiment *e, struct store *s, long first_trial,
                                const struct stored_trial *previous, long nprevious);


#endif
