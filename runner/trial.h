/*
 * trial.h — one trial: start one or two processes together on chosen PUs and measure each.
 *
 * Each child binds itself to its PU (or, for one process given a placement's CPUs, to those
 * CPUs) with an affinity mask built before it starts, reads the mask back and reports ready;
 * then it execs the workload directly (no shell), with the environment its spec gives. A pair
 * is started by vfork and clone (trial.c says how) so that both are bound before either execs,
 * one that cannot bind stops the other from running, no fork copies the runner, and the runner
 * is not woken until both have exec'd. start_s is when the first went on to exec.
 * The parent reaps with wait4 and keeps each child's rusage. While the trial runs the runner
 * waits on the CPUs it may use that the trial's processes were not given (where there are any;
 * its own mask is restored after the trial) and wakes without a signal only to read the CPU
 * frequency once, at the time limit and when the workloads write on stderr (spec.stderr_cap),
 * so that it takes as little as it can from what it measures. For one process given several CPUs, its CPU time on each of them is measured too
 * (runner/cpusplit.h).
 *
 * Signals: the caller blocks SIGINT, SIGTERM, SIGHUP and SIGCHLD for the whole run (see
 * trial_block_signals) and passes the mask it had before, which children restore before exec.
 * A stop signal the runner inherited as ignored (SIGHUP under nohup, SIGINT in a shell's `&`
 * job) is neither blocked nor waited for, so it stays ignored, as the shell user meant.
 * trial_run waits with sigtimedwait (with a capped stderr, ppoll on a signalfd of the same
 * signals and on the pipe it drains), so an interrupt kills and reaps every child of the trial
 * before it returns: no busy loop outlives the runner. Children also get PR_SET_PDEATHSIG so that
 * even a SIGKILL of the runner takes them down.
 *
 * Nothing a trial started survives it: the runner is a child subreaper (PR_SET_CHILD_SUBREAPER),
 * so processes that leave the trial's process group are re-parented to it rather than to init;
 * after every trial, whatever ended, the trial's process groups are killed and every child the
 * runner still has (it forks nothing else while trials run) is killed and reaped, level by
 * level, and counted in trial_result.leftovers. Each child closes every descriptor above 2
 * before exec.
 */
#ifndef SMTBENCH_RUNNER_TRIAL_H
#define SMTBENCH_RUNNER_TRIAL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

/* Kernels exit with this status when the CPU lacks what they need (e.g. AVX2): a kernel's
 * process that does is recorded as "unsupported". */
#define KERNEL_EXIT_UNSUPPORTED 77

#define TRIAL_MAX_PROCS 2
/* The most CPUs a trial measures: its processes' together. */
#define TRIAL_MAX_PUS 2

struct trial_proc_spec {
	int pu;             /* OS index to bind to */
	const char *path;   /* executable, already resolved */
	char *const *argv;  /* NULL-terminated; argv[0] is what the workload sees */
	bool kernel;        /* one of smtbench's kernels: exit status 77 means "not supported on
	                     * this CPU"; for a user's command 77 is an ordinary failed exit */
	/* With ncpus > 0 the process is bound to these CPUs (OS indexes; run --one-process: one
	 * process given a placement's CPUs, its threads placed by the scheduler) and pu is the
	 * first of them; 0: bound to pu alone. */
	const int *cpus;
	int ncpus;
	char *const *envp;  /* the environment it gets (SMTBENCH_CPUS...); NULL: the runner's */
};

struct trial_spec {
	int nprocs;
	struct trial_proc_spec procs[TRIAL_MAX_PROCS];
	int stderr_fd;         /* where the workloads' stderr goes (stdout goes to /dev/null) */
	/* With stderr_fd >= 0 and cap_stderr, the workloads' stderr is a pipe the runner drains
	 * while the trial runs (runner/errpipe.h): its first stderr_cap bytes go to stderr_fd (0:
	 * none, the log being full), the rest is discarded and counted; the workloads' writes
	 * never fail. Without cap_stderr (a spec's zero value), stderr_fd is given to them as it
	 * is: a cap is asked for, never implied by a zero. */
	bool cap_stderr;
	long long stderr_cap;
	double run_origin_s;   /* monotonic time the run started; start_s/end_s are relative to it */
	const sigset_t *child_sigmask; /* the mask to restore in children before exec */
	double timeout_s;      /* kill the trial's processes after this long; 0: no limit */
};

/* How a process of a trial ended; samples.csv's status column is its name (proc_status_name). */
enum proc_status {
	PROC_PENDING,       /* nothing recorded yet; stored as "exec-failed": it never ran */
	PROC_OK,            /* "ok": exit status 0 */
	PROC_EXIT,          /* "exit": another exit status */
	PROC_SIGNAL,        /* "signal": killed by a signal */
	PROC_EXEC_FAILED,   /* "exec-failed": exec failed (exit code 127 or 126 kept) */
	PROC_BIND_FAILED,   /* "bind-failed": it could not be bound to its PU, or its partner not */
	PROC_UNSUPPORTED,   /* "unsupported": a kernel that exited KERNEL_EXIT_UNSUPPORTED */
	PROC_TIMEOUT,       /* "timeout": still running at the trial's time limit, and killed */
	PROC_KILLED,        /* "killed": killed with the trial when the runner was stopped by a
	                     * signal or a system call failed while waiting */
	PROC_MOVED,         /* "moved": it ended well, but had changed its own CPU affinity after
	                     * it was bound (read back when it ended): not the placement's time */
};

/* The status's name in samples.csv and in messages. */
const char *proc_status_name(enum proc_status status);

struct proc_result {
	int pu;                 /* the PU the child read back after binding; -1 if it never bound */
	enum proc_status status;
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
	bool timed_out;         /* a process ran past spec->timeout_s and was killed */
	int leftovers;          /* processes still alive after the trial that had to be killed */
	double foreign_s;       /* busy time of the trial's PUs not its processes'; NAN if unknown */
	double steal_s;         /* steal time of the trial's PUs (virtual machines); NAN if unknown */
	long long stderr_logged;    /* with spec->cap_stderr: bytes of stderr logged, and */
	long long stderr_discarded; /* bytes past the cap, thrown away */
	/* One process given a placement's CPUs (cpus/ncpus in its spec): its CPU time, with its
	 * threads' and children's, on each of those CPUs, in the spec's order (runner/cpusplit.h);
	 * cpu_split_n is 0 when not measured (copies, perf events not allowed, a trial that did
	 * not complete). */
	int cpu_split_n;
	int cpu_split_cpu[TRIAL_MAX_PUS];
	double cpu_split_s[TRIAL_MAX_PUS];
};

enum trial_outcome {
	TRIAL_COMPLETED,   /* every child was reaped; look at each status */
	TRIAL_INTERRUPTED, /* a signal arrived: every child was killed and reaped; discard the trial */
	TRIAL_SYSTEM_ERROR /* fork/pipe failed: errno is set; every child started was reaped */
};

/* Prepares the runner for trials: blocks the stop signals it waits for (those not inherited
 * as ignored) and SIGCHLD, saving the previous mask in *old for children; gives SIGCHLD its
 * default action (an inherited SIG_IGN would make the kernel reap children before wait4 sees
 * their times); and makes the process a child subreaper. */
void trial_block_signals(sigset_t *old);
/* Whether stop signal sig was inherited as ignored (and therefore never stops a run). */
bool trial_signal_ignored(int sig);
/* After an interrupted trial or between trials: the pending stop signal (SIGINT, SIGTERM,
 * SIGHUP) if any, consumed; 0 if none. */
int trial_pending_stop_signal(void);

/* Runs one trial. *interrupt_signal receives the signal number on TRIAL_INTERRUPTED. */
enum trial_outcome trial_run(const struct trial_spec *spec, struct trial_result *out,
                             int *interrupt_signal);

/* Monotonic clock in seconds. */
double trial_now_s(void);

/* The wall-clock time now in UTC, by strftime's fmt, into buf ("?" if it cannot be written):
 * TRIAL_UTC is ISO 8601, as samples.csv, meta.json and the progress lines write it. */
#define TRIAL_UTC "%Y-%m-%dT%H:%M:%SZ"
void trial_utc_now(const char *fmt, char *buf, size_t size);

/*
 * What a SIGKILL of the runner leaves: the runner is the trials' subreaper, so a workload's
 * double-forked daemon comes back to it after every trial and is killed; a SIGKILLed runner can
 * do nothing, and the daemon of its last trial is re-parented to init. So every workload
 * inherits SMTBENCH_FOLDER=<the folder's absolute path> (trial_mark_workloads, before the
 * first trial), and a runner that continues the folder first kills every process of this user
 * that still carries it (trial_kill_marked, which returns how many). A process that clears its
 * environment, or runs as another user, is not found.
 */
void trial_mark_workloads(const char *dir);
int trial_kill_marked(const char *dir);

#endif
