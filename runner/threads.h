/*
 * threads.h — where a running program's threads run: every thread of some processes sampled
 * from /proc for a window (threads that appear or exit meanwhile included), and for each pair
 * of threads both running (state R) in a sample, whether they were on one PU, on SMT siblings
 * of one core, or on different cores (`smtbench threads`).
 *
 * One read of /proc/PID/task/TID/stat per thread and sample gives the state (field 3), the CPU
 * time (utime + stime, fields 14 and 15) and the last CPU (field 39, "processor"): hwloc's
 * hwloc_linux_get_tid_last_cpu_location reads the same file for the last field alone, so it is
 * not used. The allowed CPUs come from sched_getaffinity(TID), which is what
 * hwloc_linux_get_tid_cpubind calls. Cores are the topology's (topology/topology.h).
 *
 * The sampler pins itself to a CPU outside the sampled threads' allowed CPUs (on a core none
 * of them may use where there is one; else outside those of the busy threads, as two first
 * looks tell them), so that sampling does not take CPU from what it measures, and measures its
 * own CPU time over the window (the cost of sampling).
 */
#ifndef SMTBENCH_RUNNER_THREADS_H
#define SMTBENCH_RUNNER_THREADS_H

#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "topology/topology.h"

#define THREADS_DEFAULT_WINDOW_S 5.0
#define THREADS_MAX_WINDOW_S (7 * 86400.0)
#define THREADS_DEFAULT_INTERVAL_MS 10
#define THREADS_MIN_INTERVAL_MS 1
#define THREADS_MAX_INTERVAL_MS 60000
/* A core is idle over the window when each of its CPUs was busy (/proc/stat, the sampler's own
 * time taken out) less than this share of it. */
#define THREADS_IDLE_BUSY 0.20
/* A pair is warned about when it shared a PU, or a core as siblings, in at least this share of
 * the samples where both ran, in at least THREADS_WARN_MIN_SAMPLES samples. */
#define THREADS_WARN_SHARE 0.20
#define THREADS_WARN_MIN_SAMPLES 5

struct threads_thread {
	int pid, tid;
	char comm[72];          /* the kernel's name for it, escaped (common/text.h) */
	cpu_set_t allowed;      /* as last read; empty when it could never be read */
	bool allowed_known;
	int *ran_on;            /* per CPU: samples where it was running there, or had run there
	                         * since the sample before (its CPU time grew) */
	double cpu_s;           /* user + system time over the window (since it appeared, for a
	                         * thread that started during the window) */
	int running_samples;    /* samples where its state was R */
	bool exited;            /* gone (or a zombie) before the window ended */
	/* private to threads.c */
	unsigned long long ticks_first, ticks_last;
	int last_sample;
};

struct threads_pair {
	int a, b;               /* indexes into threads[], a < b */
	int both_running;       /* samples where both were in state R */
	int same_pu, siblings, different_cores; /* of those: one PU, two PUs of one core, else */
	int pu, core;           /* the PU (OS index) and the core (logical index) they shared most
	                         * (a majority vote); -1 when never */
	/* private to threads.c */
	int pu_votes, core_votes;
};

struct threads_process {
	int pid;
	char comm[72];          /* escaped */
	bool exited;            /* gone (or a zombie) before the window ended */
	double exited_after_s;  /* when it was first seen gone, from the window's start */
};

struct threads_cpu {
	int cpu;                /* OS index */
	int core;               /* logical index, -1 when unknown */
	double busy;            /* share of the window it was busy (/proc/stat), the sampler's own
	                         * CPU time taken out of its CPU; -1 when unreadable */
};

/* Busy threads that shared a PU, or a core as siblings, while a core sat idle. */
struct threads_warning {
	int pair;               /* index into pairs[] */
	bool same_pu;           /* shared one PU (else two siblings of one core) */
	int pu, core;           /* where: the PU (same_pu) and its core */
	double share;           /* of the samples where both ran */
	int idle_core;          /* an idle core, the least busy */
	double idle_busy;       /* its busiest CPU's share of the window */
	bool idle_allowed;      /* one of the two may run there (else their affinity keeps them off) */
};

struct threads_result {
	struct threads_process *processes;
	int nprocesses;
	struct threads_thread *threads;  /* in the order first seen */
	int nthreads;
	struct threads_pair *pairs;      /* pairs both running at least once, most such samples first */
	int npairs;
	struct threads_cpu *cpus;        /* every CPU the machine has, by OS index */
	int ncpus;
	struct threads_warning *warnings;
	int nwarnings;
	double window_s;                 /* from the first sample to the last */
	int interval_ms;
	int samples;
	/* The interval the samples kept: the window over samples - 1 (NAN below 2 samples). With
	 * many threads, reading them all can take longer than interval_ms: the grid's missed slots
	 * are skipped, and this is what was achieved. */
	double achieved_interval_ms;
	bool interrupted;                /* *stop was set before the window ended */
	double sampler_cpu_s;            /* this process's CPU time over the window */
	int sampler_cpu;                 /* the CPU it was pinned to; -1 when not pinned */
	char sampler_note[256];          /* where it ran: "pinned to CPU 5, on a core outside the
	                                  * threads' allowed CPUs", or "not pinned: why" */
};

/*
 * Whether pid is a process whose threads can be read: 0, or -1 with one line in err ("process
 * 4321 does not exist", "cannot read the threads of process 4321 (/proc/4321/task): Permission
 * denied", "4322 is a thread of process 4321, not a process: give 4321").
 */
int threads_check_pid(int pid, char *err, size_t err_size);

/*
 * Samples every thread of the npids processes for window_s seconds, every interval_ms, with
 * t (this system's topology) for cores; stops early when *stop becomes non-zero (stop may be
 * NULL). Pins this process (it must be single-threaded) to a CPU outside the threads' allowed
 * CPUs where there is one (see above), and leaves it there. Fills *out (release it with threads_result_free)
 * and returns 0; -1 with err when /proc/stat or the clock cannot be read.
 */
int threads_sample(const struct topo *t, const int *pids, int npids, double window_s,
                   int interval_ms, volatile sig_atomic_t *stop, struct threads_result *out,
                   char *err, size_t err_size);

void threads_result_free(struct threads_result *r);

#endif
