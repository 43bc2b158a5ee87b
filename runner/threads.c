/*
 * threads.c — samples a running program's threads from /proc (threads.h).
 */
#include "runner/threads.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <search.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/error.h"
#include "common/fileio.h"
#include "common/text.h"
#include "runner/cpustat.h"
#include "runner/trial.h"
#include "common/alloc.h"

/* ---- A map from a 64-bit key to an index: a tsearch(3) tree of entries ---- */

struct map_entry {
	uint64_t key;
	int value;
};

static int entry_cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct map_entry *)a)->key, y = ((const struct map_entry *)b)->key;
	return (x > y) - (x < y);
}

/* The value of key, or -1. */
static int map_get(void *const *map, uint64_t key)
{
	struct map_entry probe = { key, 0 }, **found = tfind(&probe, map, entry_cmp);
	return found ? (*found)->value : -1;
}

static void map_put(void **map, uint64_t key, int value)
{
	struct map_entry *entry = xmalloc(sizeof *entry), **slot;
	*entry = (struct map_entry){ key, value };
	if (!(slot = tsearch(entry, map, entry_cmp)))
		text_errx(EXIT_FAILURE_RUNTIME, "out of memory (a map of threads)");
	(*slot)->value = value;
	if (*slot != entry)
		free(entry);
}

static void map_free(void **map)
{
	tdestroy(*map, free);
	*map = NULL;
}

/* ---- /proc ---- */

/* What one read of /proc/PID/task/TID/stat gives. */
struct stat_line {
	char comm[32];
	char state;
	unsigned long long ticks; /* utime + stime */
	int cpu;                  /* field 39, processor: the CPU it last ran on */
};

/* Reads and parses /proc/PID/task/TID/stat; -1 when it is gone or malformed. */
static int read_stat(int pid, int tid, struct stat_line *out)
{
	char path[128], buf[1024];
	snprintf(path, sizeof path, "/proc/%d/task/%d/stat", pid, tid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = fileio_read_full(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* The name may hold spaces and parentheses: it ends at the last ')'. */
	char *open_paren = strchr(buf, '('), *close_paren = strrchr(buf, ')');
	if (!open_paren || !close_paren || close_paren < open_paren)
		return -1;
	snprintf(out->comm, sizeof out->comm, "%.*s", (int)(close_paren - open_paren - 1),
	         open_paren + 1);
	/* Fields 3 (state), 14 and 15 (utime, stime) and 39 (processor), the others skipped. */
#define SKIP10_ "%*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
	unsigned long long utime, stime;
	out->state = '?';
	if (sscanf(close_paren + 1, " %c " SKIP10_ "%llu %llu " SKIP10_ SKIP10_ "%*s %*s %*s %d",
	           &out->state, &utime, &stime, &out->cpu) != 4)
		return -1;
#undef SKIP10_
	out->ticks = utime + stime;
	return 0;
}

/* The name in the first line of a file such as /proc/PID/comm, escaped, into out. */
static void escaped_copy(char *out, size_t size, const char *raw)
{
	char *escaped = xescaped(raw);
	snprintf(out, size, "%s", escaped);
	free(escaped);
}

/* Tgid of a /proc/PID/status, or -1. */
static int read_tgid(int pid)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	snprintf(path, sizeof path, "/proc/%d/status", pid);
	FILE *f = fopen(path, "re");
	int tgid = -1;
	while (f && tgid < 0 && fileio_read_line(f, &line, &cap, 1 << 16) > 0)
		if (sscanf(line, "Tgid: %d", &tgid) != 1)
			tgid = -1;
	free(line);
	if (f)
		fclose(f);
	return tgid;
}

int threads_check_pid(int pid, char *err, size_t err_size)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d", pid);
	if (access(path, F_OK) != 0) {
		if (errno == ENOENT || errno == ESRCH)
			set_error(err, err_size, "process %d does not exist", pid);
		else
			set_error(err, err_size, "cannot read process %d (%s): %s", pid, path,
			          strerror(errno));
		return -1;
	}
	int tgid = read_tgid(pid);
	if (tgid > 0 && tgid != pid) {
		set_error(err, err_size, "%d is a thread of process %d, not a process: give %d", pid,
		          tgid, tgid);
		return -1;
	}
	snprintf(path, sizeof path, "/proc/%d/task", pid);
	DIR *dir = opendir(path);
	if (!dir) {
		set_error(err, err_size, "cannot read the threads of process %d (%s): %s", pid, path,
		          strerror(errno));
		return -1;
	}
	struct dirent *d;
	int readable = 0, saved = 0, dead = 0;
	char dead_comm[sizeof ((struct stat_line *)NULL)->comm] = "";
	errno = 0;
	while ((d = readdir(dir)) && !readable) {
		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		struct stat_line line;
		if (read_stat(pid, atoi(d->d_name), &line) != 0)
			saved = errno;
		else if (line.state == 'Z' || line.state == 'X') /* exited, not yet reaped */
			dead++, snprintf(dead_comm, sizeof dead_comm, "%s", line.comm);
		else
			readable = 1;
	}
	closedir(dir);
	if (!readable && dead > 0) {
		char *name = xescaped(dead_comm);
		set_error(err, err_size, "process %d (%s) has no threads to sample: it is a zombie (it "
		          "exited, and its parent has not reaped it yet)", pid, name);
		free(name);
		return -1;
	}
	if (!readable) {
		set_error(err, err_size, "cannot read the threads of process %d (/proc/%d/task/*/stat)%s%s",
		          pid, pid, saved ? ": " : ": it has none", saved ? strerror(saved) : "");
		return -1;
	}
	return 0;
}

/* Busy ticks of each CPU from /proc/stat (runner/cpustat.h), ULLONG_MAX for one it does not
 * list (offline); -1 when it cannot be read. */
static int read_proc_stat(unsigned long long *busy, int ncpus)
{
	struct cpustat t;
	if (cpustat_read("/proc/stat", NULL, 0, &t) != 0)
		return -1;
	for (int cpu = 0; cpu < ncpus; cpu++)
		busy[cpu] = cpustat_read("/proc/stat", &cpu, 1, &t) == 0 ? t.busy : ULLONG_MAX;
	return 0;
}

/* ---- The sampler ---- */

struct sampler {
	const struct topo *t;
	struct threads_result *r;
	int ncpus;
	int *core_of;               /* per CPU */
	void *thread_of;            /* tid -> index into r->threads (map_put) */
	void *pair_of;              /* (a << 32 | b) -> index into r->pairs */
	size_t thread_cap, pair_cap;
	struct { int thread, cpu; } *running; /* threads running in this sample, and where */
	int nrunning;
	size_t running_cap;
	int sample;                 /* the current sample's number */
};

static struct threads_thread *thread_find_or_add(struct sampler *s, int pid, int tid,
                                                 const struct stat_line *line)
{
	struct threads_result *r = s->r;
	int i = map_get(&s->thread_of, (uint64_t)tid);
	if (i >= 0)
		return &r->threads[i];
	xgrow(&r->threads, &s->thread_cap, (size_t)r->nthreads + 1, sizeof *r->threads);
	struct threads_thread *th = &r->threads[r->nthreads];
	*th = (struct threads_thread){ .pid = pid, .tid = tid, .last_sample = -1 };
	escaped_copy(th->comm, sizeof th->comm, line->comm);
	th->ran_on = xcalloc((size_t)s->ncpus, sizeof *th->ran_on);
	/* A thread seen after the first sample started during the window: all its time counts. */
	th->ticks_first = s->sample == 0 ? line->ticks : 0;
	th->ticks_last = th->ticks_first;
	map_put(&s->thread_of, (uint64_t)tid, r->nthreads);
	return &r->threads[r->nthreads++];
}

/* One pass over the threads of process p; false when the process is gone. */
static bool sample_process(struct sampler *s, struct threads_process *p)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/task", p->pid);
	DIR *dir = opendir(path);
	if (!dir)
		return false;
	bool alive = false;
	struct dirent *d;
	while ((d = readdir(dir))) {
		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		struct stat_line line;
		if (read_stat(p->pid, atoi(d->d_name), &line) != 0 || line.state == 'Z' || line.state == 'X')
			continue; /* gone, or exited and not yet reaped */
		alive = true;
		struct threads_thread *th = thread_find_or_add(s, p->pid, atoi(d->d_name), &line);
		/* The kernel writes the mask only when the call succeeds. */
		if (sched_getaffinity(th->tid, sizeof th->allowed, &th->allowed) == 0)
			th->allowed_known = true;
		bool running = line.state == 'R';
		bool cpu_valid = line.cpu >= 0 && line.cpu < s->ncpus;
		if (cpu_valid && (running || (th->last_sample >= 0 && line.ticks > th->ticks_last)))
			th->ran_on[line.cpu]++;
		if (line.ticks > th->ticks_last)
			th->ticks_last = line.ticks;
		th->last_sample = s->sample;
		if (!running)
			continue;
		th->running_samples++;
		if (!cpu_valid)
			continue;
		xgrow(&s->running, &s->running_cap, (size_t)s->nrunning + 1, sizeof *s->running);
		s->running[s->nrunning].thread = (int)(th - s->r->threads);
		s->running[s->nrunning++].cpu = line.cpu;
	}
	closedir(dir);
	return alive;
}

/* A majority vote (Boyer-Moore): after every vote, *candidate is the value most voted for when
 * one value has more than half of them. */
static void vote(int *candidate, int *votes, int value)
{
	if (*votes == 0) {
		*candidate = value;
		*votes = 1;
	} else {
		*votes += *candidate == value ? 1 : -1;
	}
}

static void count_pair(struct sampler *s, int a, int cpu_a, int b, int cpu_b)
{
	struct threads_result *r = s->r;
	if (a > b) {
		int swap = a;
		a = b, b = swap;
		swap = cpu_a;
		cpu_a = cpu_b, cpu_b = swap;
	}
	uint64_t key = (uint64_t)a << 32 | (uint64_t)b;
	int i = map_get(&s->pair_of, key);
	if (i < 0) {
		xgrow(&r->pairs, &s->pair_cap, (size_t)r->npairs + 1, sizeof *r->pairs);
		i = r->npairs++;
		r->pairs[i] = (struct threads_pair){ .a = a, .b = b, .pu = -1, .core = -1 };
		map_put(&s->pair_of, key, i);
	}
	struct threads_pair *p = &r->pairs[i];
	p->both_running++;
	int core_a = s->core_of[cpu_a], core_b = s->core_of[cpu_b];
	if (cpu_a == cpu_b) {
		p->same_pu++;
		vote(&p->pu, &p->pu_votes, cpu_a);
	} else if (core_a >= 0 && core_a == core_b) {
		p->siblings++;
		vote(&p->core, &p->core_votes, core_a);
	} else {
		p->different_cores++;
	}
}

static void take_sample(struct sampler *s, double t0)
{
	s->nrunning = 0;
	for (int i = 0; i < s->r->nprocesses; i++) {
		struct threads_process *p = &s->r->processes[i];
		if (p->exited)
			continue;
		if (!sample_process(s, p)) {
			p->exited = true;
			p->exited_after_s = trial_now_s() - t0;
		}
	}
	for (int i = 0; i < s->nrunning; i++)
		for (int j = i + 1; j < s->nrunning; j++)
			count_pair(s, s->running[i].thread, s->running[i].cpu, s->running[j].thread,
			           s->running[j].cpu);
}

/* Every CPU in some sampled thread's allowed set, into set: of every thread, or of the busy
 * ones only (running, or whose CPU time grew, in the looks so far). */
static void threads_allowed(const struct threads_result *r, bool busy_only, cpu_set_t *set)
{
	CPU_ZERO(set);
	for (int i = 0; i < r->nthreads; i++) {
		const struct threads_thread *th = &r->threads[i];
		bool busy = th->running_samples > 0 || th->ticks_last > th->ticks_first;
		if (th->allowed_known && (busy || !busy_only))
			CPU_OR(set, set, &th->allowed);
	}
}

/* Whether any CPU of cpu's core is in set. */
static bool core_touches(const struct sampler *s, int cpu, const cpu_set_t *set)
{
	int core_cpus[64];
	int n = topo_core_cpus(s->t, s->core_of[cpu], core_cpus, 64);
	if (n == 0)
		return CPU_ISSET(cpu, set);
	for (int k = 0; k < n && k < 64; k++)
		if (CPU_ISSET(core_cpus[k], set))
			return true;
	return false;
}

/* Pins this process away from the threads, the best of: a core none of them may use; a CPU
 * none of them may use; a core the busy ones may not use (idle threads, such as a main thread
 * that waits, may often run anywhere); a CPU the busy ones may not use. Says where, or why not,
 * in r->sampler_note. */
static void pin_sampler(struct sampler *s)
{
	static const char *const where[] = {
		[1] = "outside the busy threads' allowed CPUs (some idle thread may use it) but a "
		      "sibling of one of theirs",
		[2] = "on a core outside the busy threads' allowed CPUs (some idle thread may use it)",
		[3] = "outside the threads' allowed CPUs but a sibling of one of theirs",
		[4] = "on a core outside the threads' allowed CPUs",
	};
	struct threads_result *r = s->r;
	cpu_set_t all, busy, mine;
	threads_allowed(r, false, &all);
	threads_allowed(r, true, &busy);
	r->sampler_cpu = -1;
	if (sched_getaffinity(0, sizeof mine, &mine) != 0) {
		snprintf(r->sampler_note, sizeof r->sampler_note,
		         "not pinned: it cannot read its own affinity (%s)", strerror(errno));
		return;
	}
	int best = -1, best_rank = 0;
	for (int cpu = 0; cpu < s->ncpus && cpu < CPU_SETSIZE && best_rank < 4; cpu++) {
		if (!CPU_ISSET(cpu, &mine))
			continue;
		int rank = !CPU_ISSET(cpu, &all) ? (core_touches(s, cpu, &all) ? 3 : 4)
		         : !CPU_ISSET(cpu, &busy) ? (core_touches(s, cpu, &busy) ? 1 : 2) : 0;
		if (rank > best_rank) {
			best = cpu;
			best_rank = rank;
		}
	}
	if (best < 0) {
		snprintf(r->sampler_note, sizeof r->sampler_note,
		         "not pinned: every CPU it may use is allowed to the busy threads, so it "
		         "shares their CPUs");
		return;
	}
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(best, &one);
	if (sched_setaffinity(0, sizeof one, &one) != 0) {
		snprintf(r->sampler_note, sizeof r->sampler_note,
		         "not pinned: sched_setaffinity to CPU %d failed (%s)", best, strerror(errno));
		return;
	}
	r->sampler_cpu = best;
	snprintf(r->sampler_note, sizeof r->sampler_note, "pinned to CPU %d, %s", best,
	         where[best_rank]);
}

/* Busy share of the window per CPU, from two /proc/stat reads. */
static void fill_cpus(struct sampler *s, const unsigned long long *before,
                      const unsigned long long *after)
{
	struct threads_result *r = s->r;
	double tick_s = cpustat_tick_s();
	r->ncpus = s->ncpus;
	r->cpus = xcalloc((size_t)s->ncpus, sizeof *r->cpus);
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		struct threads_cpu *c = &r->cpus[cpu];
		c->cpu = cpu;
		c->core = s->core_of[cpu];
		c->busy = -1;
		if (before[cpu] == ULLONG_MAX || after[cpu] == ULLONG_MAX || after[cpu] < before[cpu]
		    || r->window_s <= 0)
			continue;
		double busy_s = (double)(after[cpu] - before[cpu]) * tick_s;
		if (cpu == r->sampler_cpu)
			busy_s -= r->sampler_cpu_s;
		c->busy = fmin(1, fmax(0, busy_s / r->window_s));
	}
}

/* The busiest CPU's share of core `core` (-1 when none of its CPUs could be read), and in
 * *allowed whether a or b may run on one of its CPUs. */
static double core_busy(const struct sampler *s, int core, const struct threads_thread *a,
                        const struct threads_thread *b, bool *allowed)
{
	double busiest = -1;
	*allowed = false;
	for (int cpu = 0; cpu < s->ncpus && cpu < CPU_SETSIZE; cpu++) {
		if (s->core_of[cpu] != core)
			continue;
		busiest = fmax(busiest, s->r->cpus[cpu].busy);
		*allowed |= (a->allowed_known && CPU_ISSET(cpu, &a->allowed))
		            || (b->allowed_known && CPU_ISSET(cpu, &b->allowed));
	}
	return busiest;
}

static void warn_pair(struct sampler *s, int pair_index, bool same_pu, int count)
{
	struct threads_result *r = s->r;
	const struct threads_pair *p = &r->pairs[pair_index];
	double share = (double)count / p->both_running;
	if (count < THREADS_WARN_MIN_SAMPLES || share < THREADS_WARN_SHARE)
		return;
	int shared_core = same_pu ? (p->pu >= 0 ? s->core_of[p->pu] : -1) : p->core;
	const struct threads_thread *a = &r->threads[p->a], *b = &r->threads[p->b];
	int idle = -1;
	bool idle_allowed = false;
	double idle_busy = 2;
	int ncores = topo_core_count(s->t);
	for (int core = 0; core < ncores; core++) {
		bool allowed;
		double busy = core_busy(s, core, a, b, &allowed);
		if (core == shared_core || busy < 0 || busy >= THREADS_IDLE_BUSY)
			continue;
		/* An idle core they may use beats one their affinity keeps them off; then the least busy. */
		if (idle < 0 || (allowed && !idle_allowed) ||
		    (allowed == idle_allowed && busy < idle_busy)) {
			idle = core;
			idle_allowed = allowed;
			idle_busy = busy;
		}
	}
	if (idle < 0)
		return;
	r->warnings = xrealloc(r->warnings, (size_t)(r->nwarnings + 1) * sizeof *r->warnings);
	r->warnings[r->nwarnings++] = (struct threads_warning){
		.pair = pair_index, .same_pu = same_pu, .pu = same_pu ? p->pu : -1,
		.core = shared_core, .share = share, .idle_core = idle, .idle_busy = idle_busy,
		.idle_allowed = idle_allowed,
	};
}

static int by_both_running(const void *x, const void *y)
{
	const struct threads_pair *a = x, *b = y;
	if (a->both_running != b->both_running)
		return a->both_running > b->both_running ? -1 : 1;
	return a->a != b->a ? (a->a < b->a ? -1 : 1) : (a->b < b->b ? -1 : a->b > b->b);
}

static void sleep_until(double t)
{
	struct timespec ts = { .tv_sec = (time_t)t };
	ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
	if (ts.tv_nsec > 999999999)
		ts.tv_nsec = 999999999;
	/* Interrupted by a signal: back early, so that the caller looks at its stop flag. */
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

/* The processes asked about, each once, with its name (escaped) from /proc/PID/comm. */
static void record_processes(struct threads_result *out, const int *pids, int npids)
{
	out->processes = xcalloc((size_t)npids, sizeof *out->processes);
	for (int i = 0; i < npids; i++) {
		struct threads_process *p = &out->processes[out->nprocesses];
		bool twice = false;
		for (int j = 0; j < out->nprocesses; j++)
			twice |= out->processes[j].pid == pids[i];
		if (twice)
			continue;
		p->pid = pids[i];
		char path[64], raw[64];
		snprintf(path, sizeof path, "/proc/%d/comm", p->pid);
		fileio_read_first_line(path, raw, sizeof raw);
		escaped_copy(p->comm, sizeof p->comm, raw);
		out->nprocesses++;
	}
}

/* The threads and pairs of r freed, and none left. */
static void free_threads(struct threads_result *r)
{
	for (int i = 0; i < r->nthreads; i++)
		free(r->threads[i].ran_on);
	free(r->threads);
	free(r->pairs);
	r->threads = NULL;
	r->pairs = NULL;
	r->nthreads = r->npairs = 0;
}

/* Two first looks at the threads (their allowed CPUs, and which are busy: the second an
 * interval later, at most 50 ms), then the sampler moves away from them; those looks count as
 * no sample, so everything they recorded is dropped and the window starts from nothing. */
static void look_then_pin(struct sampler *s, int interval_ms)
{
	struct threads_result *out = s->r;
	s->sample = 0;
	take_sample(s, trial_now_s());
	sleep_until(trial_now_s() + (interval_ms < 50 ? interval_ms : 50) / 1000.0);
	s->sample = 1;
	take_sample(s, trial_now_s());
	pin_sampler(s);
	free_threads(out);
	s->thread_cap = s->pair_cap = 0;
	map_free(&s->thread_of);
	map_free(&s->pair_of);
	for (int i = 0; i < out->nprocesses; i++)
		out->processes[i].exited = false;
}

/* The window: a sample on a grid of interval_ms from its start, until window_s has passed,
 * every process has exited, or *stop is set. Sets the window's length, samples and whether it
 * was interrupted. */
static void sample_window(struct sampler *s, double window_s, int interval_ms,
                          volatile sig_atomic_t *stop)
{
	struct threads_result *out = s->r;
	double t0 = trial_now_s(), last = t0;
	double interval_s = interval_ms / 1000.0;
	for (s->sample = 0;; s->sample++) {
		last = trial_now_s();
		take_sample(s, t0);
		out->samples++;
		/* Threads not seen in this sample, of a process still here or not, are gone. */
		for (int i = 0; i < out->nthreads; i++)
			if (out->threads[i].last_sample < s->sample)
				out->threads[i].exited = true;
		bool all_gone = true;
		for (int i = 0; i < out->nprocesses; i++)
			all_gone &= out->processes[i].exited;
		if (all_gone || (stop && *stop))
			break;
		/* The next slot on the grid; one missed while sampling is skipped, not caught up. */
		double next = t0 + (s->sample + 1) * interval_s;
		double now = trial_now_s();
		while (next < now)
			next += interval_s, s->sample++;
		if (next - t0 > window_s + 1e-9)
			break;
		sleep_until(next);
		if (stop && *stop)
			break;
	}
	out->interrupted = stop && *stop;
	out->window_s = last - t0;
	out->achieved_interval_ms = out->samples >= 2 ? 1000 * out->window_s / (out->samples - 1)
	                                              : NAN;
}

/* After the window: each thread's CPU time, the pairs most often both running first (the
 * threads' indexes stay as they are), and the warnings. */
static void finish_result(struct sampler *s)
{
	struct threads_result *out = s->r;
	double tick_s = cpustat_tick_s();
	for (int i = 0; i < out->nthreads; i++) {
		struct threads_thread *th = &out->threads[i];
		th->cpu_s = (double)(th->ticks_last - th->ticks_first) * tick_s;
	}
	if (out->npairs > 1)
		qsort(out->pairs, (size_t)out->npairs, sizeof *out->pairs, by_both_running);
	for (int i = 0; i < out->npairs; i++) {
		warn_pair(s, i, true, out->pairs[i].same_pu);
		warn_pair(s, i, false, out->pairs[i].siblings);
	}
}

int threads_sample(const struct topo *t, const int *pids, int npids, double window_s,
                   int interval_ms, volatile sig_atomic_t *stop, struct threads_result *out,
                   char *err, size_t err_size)
{
	*out = (struct threads_result){ .interval_ms = interval_ms, .sampler_cpu = -1 };
	struct sampler s = { .t = t, .r = out };
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	s.ncpus = conf > 0 ? (int)conf : 1;
	if (s.ncpus > CPU_SETSIZE)
		s.ncpus = CPU_SETSIZE;
	s.core_of = xcalloc((size_t)s.ncpus, sizeof *s.core_of);
	for (int cpu = 0; cpu < s.ncpus; cpu++)
		s.core_of[cpu] = topo_cpu_core(t, cpu);
	record_processes(out, pids, npids);
	unsigned long long *before = xcalloc((size_t)s.ncpus, sizeof *before);
	unsigned long long *after = xcalloc((size_t)s.ncpus, sizeof *after);
	look_then_pin(&s, interval_ms);
	int rc = read_proc_stat(before, s.ncpus);
	if (rc == 0) {
		clock_t cpu0 = clock(); /* this process's CPU time */
		sample_window(&s, window_s, interval_ms, stop);
		out->sampler_cpu_s = (double)(clock() - cpu0) / CLOCKS_PER_SEC;
		rc = read_proc_stat(after, s.ncpus);
	}
	if (rc == 0) {
		/* A window of one sample has no length: the busy shares then say nothing. */
		fill_cpus(&s, before, after);
		finish_result(&s);
	} else {
		set_error(err, err_size, "cannot read /proc/stat: %s", strerror(errno));
	}
	free(before);
	free(after);
	free(s.core_of);
	free(s.running);
	map_free(&s.thread_of);
	map_free(&s.pair_of);
	if (rc != 0)
		threads_result_free(out);
	return rc;
}

void threads_result_free(struct threads_result *r)
{
	free_threads(r);
	free(r->processes);
	free(r->cpus);
	free(r->warnings);
	*r = (struct threads_result){ .sampler_cpu = -1 };
}
