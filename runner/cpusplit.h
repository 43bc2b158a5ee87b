/*
 * cpusplit.h — how much of a process's CPU time ran on each of the CPUs it was given: for one
 * process given a placement's CPUs (run --one-process), whether its threads used them all.
 *
 * The kernel's task clock (perf_event_open's software event PERF_COUNT_SW_TASK_CLOCK, no
 * hardware counter), one event per CPU restricted to that CPU, opened on the runner itself
 * with inherit just before the trial's process is started: the process inherits the events
 * at fork, its threads and children from it, and their counts come back to the runner's
 * events as each task ends (nanoseconds, user and system time). A second event per CPU without
 * inherit counts the runner's own time there, which is taken out. Summed over the CPUs, the
 * result is the process's utime + stime to within microseconds (both come from the same
 * scheduler clock), which is how a caller can tell it is complete.
 *
 * Needs perf events (CONFIG_PERF_EVENTS) and leave to use them: root, CAP_PERFMON, or
 * kernel.perf_event_paranoid at 2 or below (Debian's default of 3 refuses everyone else), and
 * no seccomp filter that blocks perf_event_open (a container's default one does).
 */
#ifndef SMTBENCH_RUNNER_CPUSPLIT_H
#define SMTBENCH_RUNNER_CPUSPLIT_H

#include <stdbool.h>
#include <stddef.h>

/* The most CPUs one split follows: a trial's (runner/trial.h's TRIAL_MAX_PUS). */
#define CPUSPLIT_MAX_CPUS 2

struct cpusplit {
	int ncpus;                          /* 0: not measuring */
	int cpus[CPUSPLIT_MAX_CPUS];
	int tree_fd[CPUSPLIT_MAX_CPUS];     /* the runner and everything it starts, on that CPU */
	int self_fd[CPUSPLIT_MAX_CPUS];     /* the runner alone, on that CPU */
	unsigned long long tree_base[CPUSPLIT_MAX_CPUS], self_base[CPUSPLIT_MAX_CPUS];
};

/* Starts counting on each of cpus[0..ncpus) (1 to CPUSPLIT_MAX_CPUS, as the caller checks): call
 * it just before the process is started. 0; or -1 with errno (the events cannot be opened or
 * read: nothing is left open, and s->ncpus is 0). */
int cpusplit_start(struct cpusplit *s, const int *cpus, int ncpus);

/* After the process has been reaped: the CPU time (seconds) its tree ran on each CPU, in the
 * order given to cpusplit_start, into seconds[]; closes the events. 0, or -1 when a count
 * could not be read. A split that was never started (ncpus 0) returns -1. */
int cpusplit_finish(struct cpusplit *s, double seconds[CPUSPLIT_MAX_CPUS]);

/* Closes whatever cpusplit_start opened (after a trial that did not complete); idempotent. */
void cpusplit_stop(struct cpusplit *s);

/* Whether a split can be measured here: opens and closes one event. false with why (one
 * clause: "perf_event_open: Permission denied (kernel.perf_event_paranoid is 3)"). */
bool cpusplit_available(char *why, size_t why_size);

#endif
