/*
 * trial.h — one trial: start one or two processes together on chosen PUs and measure each.
 *
 * Each child binds itself to its PU with an affinity mask built before fork(), reads the mask
 * back, reports ready, and blocks on a barrier (a pipe whose write end the parent closes to
 * release every child at the same instant); then it execs the workload directly (no shell).
 * The parent reaps with wait4 and keeps each child's rusage. A process alone needs no barrier:
 * it is started with vfork (the runner waits until it has exec'd), binds and reports the same
 * way, and execs at once.
 *
 * Signals: the caller blocks SIGINT, SIGTERM, SIGHUP and SIGCHLD for the whole run (see
 * trial_block_signals) and passes the mask it had before, which children restore before exec.
 * trial_run waits with sigtimedwait, so an interrupt kills and reaps every child of the trial
 * before it returns: no busy loop outlives the runner. Children also get PR_SET_PDEATHSIG so that
 * even a SIGKILL of the runner takes them down.
 */
#ifndef SMTBENCH_RUNNER_TRIAL_H
#define SMTBENCH_RUNNER_TRIAL_H

#include <signal.h>
#include <stdbool.h>

#define TRIAL_MAX_PROCS 2

struct trial_proc_spec {
	int pu;             /* OS index to bind to */
	const char *path;   /* executable, already resolved */
	char *const *argv;  /* NULL-terminated; argv[0] is what the workload sees */
};

struct trial_spec {
	int nprocs;
	struct trial_proc_spec procs[TRIAL_MAX_PROCS];
	int stderr_fd;         /* where the workloads' stderr goes (stdout goes to /dev/null) */
	double run_origin_s;   /* monotonic time the run started; start_s/end_s are relative to it */
	const sigset_t *child_sigmask; /* the mask to restore in children before exec */
};

struct proc_result {
	int pu;                 /* the PU the child read back after binding; -1 if it never bound */
	const char *status;     /* "ok", "exit", "signal", "exec-failed", "bind-failed", "unsupported" */
	int exit_code;          /* -1 when the process did not exit normally */
	int signal;             /* 0 when not killed by a signal */
	double utime_s, stime_s, wall_s, start_s, end_s;
	long nvcsw, nivcsw, maxrss_kb;
	char error[160];        /* what went wrong, when status is not "ok" (one line) */
};

struct trial_result {
	int nprocs;
	struct proc_result procs[TRIAL_MAX_PROCS];
	double overlap;         /* time all processes ran together / the trial's span */
	double freq_mhz;        /* mean current frequency of the trial's PUs while running; NAN if unknown */
	double loadavg_1m;      /* at the start of the trial; NAN if unknown */
	char started_utc[32];   /* ISO 8601 */
};

enum trial_outcome {
	TRIAL_COMPLETED,   /* every child was reaped; look at each status */
	TRIAL_INTERRUPTED, /* a signal arrived: every child was killed and reaped; discard the trial */
	TRIAL_SYSTEM_ERROR /* fork/pipe failed: errno is set; every child started was reaped */
};

/* Blocks the signals the runner waits for; saves the previous mask in *old for children. */
void trial_block_signals(sigset_t *old);
/* After an interrupted trial or between trials: the pending stop signal (SIGINT, SIGTERM,
 * SIGHUP) if any, consumed; 0 if none. */
int trial_pending_stop_signal(void);

/* Runs one trial. *interrupt_signal receives the signal number on TRIAL_INTERRUPTED. */
enum trial_outcome trial_run(const struct trial_spec *spec, struct trial_result *out,
                             int *interrupt_signal);

/* Monotonic clock in seconds. */
double trial_now_s(void);

#endif
