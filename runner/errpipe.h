/*
 * errpipe.h — the workloads' stderr, bounded while a trial runs: a pipe the runner drains into
 * the log up to the bytes the log may still take, and past them into /dev/null.
 *
 * Why a pipe and not RLIMIT_FSIZE on the log: the limit is the process's, on every file it
 * writes, so a workload that writes its own output file past the bytes left to the log would
 * be killed by SIGXFSZ (or see EFBIG) for a file that is none of smtbench's business, and its
 * times and status would no longer be its own. Through a pipe the workload's writes all
 * succeed, whatever it writes and however long: only the log stops growing. The cost is the
 * runner's: it copies what the log takes (at most the cap, once per run) and discards the rest
 * with splice(2) to /dev/null, which moves no bytes; a workload that writes nothing costs a
 * pipe and a signalfd per trial, and no wake-up.
 */
#ifndef SMTBENCH_RUNNER_ERRPIPE_H
#define SMTBENCH_RUNNER_ERRPIPE_H

#include <stdbool.h>

struct errpipe {
	int read_fd;         /* the runner's end, non-blocking; -1 when closed (EOF or never) */
	int write_fd;        /* the workloads' end (their stderr), until errpipe_started */
	int log_fd;          /* where the first `budget` bytes go */
	int null_fd;         /* /dev/null, opened when the budget is spent; -1 before */
	long long budget;    /* bytes the log may still take */
	long long logged;    /* bytes written to the log this trial */
	long long discarded; /* bytes past the budget, thrown away */
};

/* A pipe whose first budget bytes (>= 0) go to log_fd. -1 with errno (nothing left open). */
int errpipe_open(struct errpipe *p, int log_fd, long long budget);

/* The workloads hold the write end now: the runner closes its copy, so that the pipe ends
 * when the last of them exits. */
void errpipe_started(struct errpipe *p);

/* Moves what the pipe holds, at most about 4 MiB a call so that the caller's loop keeps
 * answering signals and time limits beside a workload that writes without end. The read end
 * is closed at EOF. A log that cannot be written counts as spent: the rest is discarded. */
void errpipe_drain(struct errpipe *p);

/* After the trial: what is left in the pipe moved (at most 4 MiB more, from writers that were
 * not yet killed), every descriptor closed. */
void errpipe_close(struct errpipe *p);

#endif
