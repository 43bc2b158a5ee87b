#include "runner/trial.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <dirent.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runner/cpusplit.h"
#include "runner/errpipe.h"
#include "runner/cpustat.h"
#include "common/alloc.h"
#include "common/error.h"
#include "common/fileio.h"
#include "common/text.h"

/* What a child tells the runner, once, on its ready pipe. */
enum child_code {
	CHILD_DIED = 0,             /* no report: it died before it could send one */
	CHILD_READY = 'R',
	CHILD_BIND_FAILED = 'B',
	CHILD_MASK_MISMATCH = 'M',
	CHILD_PARTNER_FAILED = 'P', /* a pair's last process, bound, whose partner did not bind */
	CHILD_SPAWN_FAILED = 'S',   /* a pair's last process could not start its partner (err) */
};

/* code, an errno, the partner a pair's last process started (0: none), and for CHILD_READY
 * when the child went on to exec, every process of its trial bound (trial_now_s's clock). */
struct child_report {
	char code;
	int err;
	pid_t partner;
	double released_s;
};

/* The wake-up that reads the CPU frequency (trial.h) comes this long after the start: the
 * processes are busy by then. */
#define FREQUENCY_DELAY_S 0.05
/* The wake-up for the time limit comes this much after it, so that the limit has passed. */
#define TIMEOUT_MARGIN_S 0.001

double trial_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void trial_utc_now(const char *fmt, char *buf, size_t size)
{
	time_t now = time(NULL);
	struct tm tm;
	if (!gmtime_r(&now, &tm) || !strftime(buf, size, fmt, &tm))
		snprintf(buf, size, "?");
}

/* How many of the leftovers' generations the sweep after a trial follows (a child that forks a
 * child that forks...); each round kills one more level. */
#define SWEEP_MAX_ROUNDS 64

bool trial_signal_ignored(int sig)
{
	struct sigaction sa;
	return sigaction(sig, NULL, &sa) == 0 && !(sa.sa_flags & SA_SIGINFO)
	       && sa.sa_handler == SIG_IGN;
}

/* The stop signals the runner waits for: SIGINT, SIGTERM and SIGHUP, less those it inherited
 * as ignored. Blocking an ignored signal would make the kernel keep it pending (a blocked
 * signal is never discarded) and sigtimedwait would take it: `nohup` would not protect a run. */
static void stop_signal_set(sigset_t *set)
{
	static const int stops[] = { SIGINT, SIGTERM, SIGHUP };
	sigemptyset(set);
	for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++)
		if (!trial_signal_ignored(stops[i]))
			sigaddset(set, stops[i]);
}

void trial_block_signals(sigset_t *old)
{
	if (trial_signal_ignored(SIGCHLD))
		signal(SIGCHLD, SIG_DFL);
	/* Processes that leave a trial's process group come back to us, not to init, so that the
	 * sweep after the trial finds them. Not fatal where the kernel lacks it (before 3.4). */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	sigset_t set;
	stop_signal_set(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, old);
}

int trial_pending_stop_signal(void)
{
	sigset_t set;
	stop_signal_set(&set);
	struct timespec zero = { 0, 0 };
	int sig = sigtimedwait(&set, NULL, &zero);
	return sig > 0 ? sig : 0;
}

static double timeval_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

static void report_to_parent(int fd, char code, int err, pid_t partner, double released_s)
{
	struct child_report report;
	memset(&report, 0, sizeof report); /* no stray bytes in the padding */
	report.code = code;
	report.err = err;
	report.partner = partner;
	report.released_s = released_s;
	fileio_write_all(fd, &report, sizeof report);
}

/* Closes every descriptor from lo up, but keep: close_range(2) where the kernel has it (5.9),
 * else one close per number up to max_fd. Async-signal-safe. */
static void close_descriptors_from(int lo, int keep, long max_fd)
{
#ifdef SYS_close_range
	if (syscall(SYS_close_range, (unsigned)lo, (unsigned)keep - 1, 0U) == 0 &&
	    syscall(SYS_close_range, (unsigned)keep + 1, ~0U, 0U) == 0)
		return;
#endif
	for (long fd = lo; fd <= max_fd; fd++)
		if (fd != keep)
			close((int)fd);
}

/* A child's descriptors before exec (-1: none). */
struct child_fds {
	int ready; /* write end: the report to the runner */
	int exec;  /* write end: errno if exec fails (closes itself on exec) */
	int bound; /* a pair's partner: write end of the pipe its "bound" goes to the last process on */
};

/* What a child needs until it execs, to run process index of spec. In the runner's memory,
 * which the child shares until then (a pair's partner reads it from its last process's frame). */
struct child_start {
	const struct trial_spec *spec;
	int index;
	cpu_set_t mask;
	pid_t parent;
	struct child_fds fds;
	long max_fd;
};

/* The partner's stack: it shares the runner's memory until it execs (see run_child). One
 * partner runs on it at a time (the last process and the runner wait until it has exec'd). */
static char partner_stack[256 << 10] __attribute__((aligned(64)));

/* The two functions that run on partner_stack are not instrumented: AddressSanitizer takes
 * any stack but the thread's for an error. */
#define ON_PARTNER_STACK __attribute__((no_sanitize_address))

static int partner_main(void *arg);

/*
 * The child's side, between vfork (or clone) and exec: run_child and the steps it is made of.
 * Only async-signal-safe calls: the runner's memory is shared, and a lock it held (malloc's, a
 * sanitizer runtime's) stays held. Each step runs on the partner's stack too, hence
 * ON_PARTNER_STACK on every one; a step that fails reports to the runner and exits.
 *
 * A pair starts so (issue 17: a fork of the runner and a barrier the runner opened made a pair
 * trial cost 3-4 times a solo one on a 2-vCPU VM; this costs 2): the runner vforks the last
 * process, which binds and then starts its partner with clone(CLONE_VM | CLONE_VFORK |
 * CLONE_PARENT): no copy of the runner's page tables to make, nor for exec to tear down, and
 * the partner is the runner's child like the last process. The partner binds, reports, tells
 * the last process it is bound (a byte on the bound pipe) and execs; its exec wakes the last
 * process, which reads that byte and execs in turn. Neither runs alone: the last process was
 * bound before the partner started and execs only after the partner said it was bound (a
 * partner that fails to bind exits without the byte: end of file); both were bound before
 * either exec'd. Both wait suspended (vfork) without any wake-up of the runner in between.
 */

/* Dies with the runner (even a SIGKILLed one), leads a process group of its own (a terminal's
 * ^C reaches only the runner, which then kills whole groups, a user command's children too)
 * and binds to mask, read back. */
static void ON_PARTNER_STACK child_bind(const cpu_set_t *mask, pid_t parent, int ready_fd)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* The parent may have died before the request took effect: we were re-parented then. */
	if (getppid() != parent)
		_exit(EXIT_FAILURE_RUNTIME);
	setpgid(0, 0);
	if (sched_setaffinity(0, sizeof *mask, mask) != 0) {
		report_to_parent(ready_fd, CHILD_BIND_FAILED, errno, 0, 0);
		_exit(EXIT_FAILURE_RUNTIME);
	}
	cpu_set_t readback;
	CPU_ZERO(&readback);
	if (sched_getaffinity(0, sizeof readback, &readback) != 0 || !CPU_EQUAL(&readback, mask)) {
		report_to_parent(ready_fd, CHILD_MASK_MISMATCH, errno, 0, 0);
		_exit(EXIT_FAILURE_RUNTIME);
	}
}

/* A pair's last process, bound: starts its partner and waits until the partner is bound; the
 * partner's pid. The "bound" pipe is made here, so that only the partner holds its write end
 * (the runner, suspended in vfork, would hold a copy of one it made): a partner that exits
 * without the byte gives end of file. The partner reads its start from this frame, which lives
 * until clone returns (CLONE_VFORK: once the partner has exec'd or exited). */
static pid_t ON_PARTNER_STACK child_start_partner(const struct child_start *partner,
                                                  int ready_fd)
{
	struct child_start start = *partner;
	int bound_pipe[2];
	pid_t pid = -1;
	if (pipe2(bound_pipe, O_CLOEXEC) == 0) {
		start.fds.bound = bound_pipe[1];
		pid = clone(partner_main, partner_stack + sizeof partner_stack,
		            CLONE_VM | CLONE_VFORK | CLONE_PARENT | SIGCHLD, &start);
	}
	if (pid < 0) {
		report_to_parent(ready_fd, CHILD_SPAWN_FAILED, errno, 0, 0);
		_exit(EXIT_FAILURE_RUNTIME);
	}
	close(bound_pipe[1]);
	char bound;
	if (fileio_read_full(bound_pipe[0], &bound, 1) != 1) {
		report_to_parent(ready_fd, CHILD_PARTNER_FAILED, 0, pid, 0);
		_exit(EXIT_FAILURE_RUNTIME);
	}
	return pid;
}

/* Tells the runner it is ready (with its partner, and when it goes on to exec), then, for a
 * partner, its last process, after the runner, so that the runner has its report whatever the
 * last process does next. clock_gettime is async-signal-safe. */
static void ON_PARTNER_STACK child_ready(struct child_fds fds, pid_t partner_pid)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	report_to_parent(fds.ready, CHILD_READY, 0, partner_pid,
	                 (double)now.tv_sec + (double)now.tv_nsec * 1e-9);
	close(fds.ready);
	if (fds.bound >= 0) {
		fileio_write_all(fds.bound, "", 1);
		close(fds.bound);
	}
}

/* The workload's descriptors: stdin and stdout /dev/null, stderr the trial's log, nothing else
 * (neither what the runner inherited nor what it opened) but the exec pipe, moved above 2 first
 * (a runner started with 0, 1 or 2 closed gets pipes there); it closes itself on exec. Returns
 * where the exec pipe is. */
static int ON_PARTNER_STACK child_descriptors(const struct trial_spec *spec, int exec_fd,
                                              long max_fd)
{
	if (exec_fd <= STDERR_FILENO) {
		int moved = fcntl(exec_fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
		exec_fd = moved >= 0 ? moved : exec_fd;
	}
	int devnull = open("/dev/null", O_RDWR);
	if (devnull >= 0) {
		dup2(devnull, STDIN_FILENO);
		dup2(devnull, STDOUT_FILENO);
		if (devnull > STDERR_FILENO)
			close(devnull);
	}
	if (spec->stderr_fd >= 0)
		dup2(spec->stderr_fd, STDERR_FILENO);
	close_descriptors_from(STDERR_FILENO + 1, exec_fd, max_fd);
	return exec_fd;
}

/* partner: for a pair's last process, the partner it starts once it is bound (else NULL). */
static void __attribute__((noreturn)) ON_PARTNER_STACK
run_child(const struct child_start *c, const struct child_start *partner)
{
	child_bind(&c->mask, c->parent, c->fds.ready);
	child_ready(c->fds, partner ? child_start_partner(partner, c->fds.ready) : 0);
	int exec_fd = child_descriptors(c->spec, c->fds.exec, c->max_fd);
	sigprocmask(SIG_SETMASK, c->spec->child_sigmask, NULL);
	const struct trial_proc_spec *proc = &c->spec->procs[c->index];
	execve(proc->path, proc->argv, proc->envp ? proc->envp : environ);
	int err = errno;
	fileio_write_all(exec_fd, &err, sizeof err);
	_exit(err == ENOENT ? 127 : 126);
}

struct child {
	pid_t pid;
	int ready_fd, exec_fd; /* parent's read ends */
	bool reaped;
	double end_s;
};

/* Waits for child pid to end and reaps it: its status and rusage (zero until known). */
static void reap_child(pid_t pid, int *status, struct rusage *ru)
{
	*status = 0;
	memset(ru, 0, sizeof *ru);
	while (wait4(pid, status, 0, ru) < 0 && errno == EINTR)
		;
}

/* A small /proc or /sys file into buf, NUL-terminated: open and one read, without stdio's
 * buffer and fstat, as this runs in every trial. Whether it held anything. */
static bool read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t got = fd >= 0 ? read(fd, buf, size - 1) : -1;
	if (fd >= 0)
		close(fd);
	buf[got > 0 ? got : 0] = '\0';
	return got > 0;
}

/* The number a small /proc or /sys file starts with; NAN when unreadable. */
static double read_leading_number(const char *path)
{
	char buf[64], *end = NULL;
	double value = read_small(path, buf, sizeof buf) ? strtod(buf, &end) : NAN;
	return end == buf ? NAN : value;
}

static double read_cur_freq_mhz(int pu)
{
	char path[96];
	snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", pu);
	return read_leading_number(path) / 1000.0;
}

/* The mean current frequency of the trial's PUs (NAN when one is unreadable: it stays in the
 * sum). */
static void sample_frequency(const int *pus, int npus, struct trial_result *out)
{
	double sum = 0;
	for (int i = 0; i < npus; i++)
		sum += read_cur_freq_mhz(pus[i]);
	out->freq_mhz = npus > 0 ? sum / npus : NAN;
}

static void record_exit(struct proc_result *r, bool kernel, int status, const struct rusage *ru)
{
	r->utime_s = timeval_s(ru->ru_utime);
	r->stime_s = timeval_s(ru->ru_stime);
	r->nvcsw = ru->ru_nvcsw;
	r->nivcsw = ru->ru_nivcsw;
	r->maxrss_kb = ru->ru_maxrss;
	if (WIFEXITED(status))
		r->exit_code = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		r->signal = WTERMSIG(status);
	/* exec-failed already said why; its exit code (127 or 126) is kept all the same. */
	if (r->status != PROC_PENDING && r->status != PROC_OK)
		return;
	if (WIFEXITED(status)) {
		if (r->exit_code == 0) {
			r->status = PROC_OK;
		} else if (kernel && r->exit_code == KERNEL_EXIT_UNSUPPORTED) {
			r->status = PROC_UNSUPPORTED;
			snprintf(r->error, sizeof r->error, "exited with status %d: not supported on this CPU",
			         r->exit_code);
		} else {
			r->status = PROC_EXIT;
			snprintf(r->error, sizeof r->error, "exited with status %d", r->exit_code);
		}
	} else if (WIFSIGNALED(status)) {
		r->status = PROC_SIGNAL;
		snprintf(r->error, sizeof r->error, "killed by signal %d (%s)", r->signal,
		         strsignal(r->signal));
	}
}

const char *proc_status_name(enum proc_status status)
{
	static const char *const names[] = {
		[PROC_PENDING] = "exec-failed", [PROC_OK] = "ok", [PROC_EXIT] = "exit",
		[PROC_SIGNAL] = "signal", [PROC_EXEC_FAILED] = "exec-failed",
		[PROC_BIND_FAILED] = "bind-failed", [PROC_UNSUPPORTED] = "unsupported",
		[PROC_TIMEOUT] = "timeout", [PROC_KILLED] = "killed", [PROC_MOVED] = "moved",
	};
	return (unsigned)status < sizeof names / sizeof names[0] ? names[status] : "unknown";
}

static void init_result(const struct trial_spec *spec, struct trial_result *out)
{
	memset(out, 0, sizeof *out);
	out->nprocs = spec->nprocs;
	out->freq_mhz = NAN;
	out->foreign_s = out->steal_s = NAN;
	out->loadavg_1m = read_leading_number("/proc/loadavg");
	for (int i = 0; i < spec->nprocs; i++) {
		out->procs[i].pu = -1;
		out->procs[i].exit_code = -1;
		out->procs[i].status = PROC_PENDING;
	}
	trial_utc_now(TRIAL_UTC, out->started_utc, sizeof out->started_utc);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* A trial's processes, as the parent sees them. */
struct trial_state {
	const struct trial_spec *spec;
	struct trial_result *out;
	struct child children[TRIAL_MAX_PROCS];
	double release_s; /* when the first process went on to exec, all bound (its report) */
	long max_fd;      /* the highest descriptor a child closes where close_range is missing */
	int pus[TRIAL_MAX_PUS]; /* the CPUs its processes are bound to, each once */
	int npus;
	struct cpustat stat_before; /* the PUs' ticks just before the processes started */
	bool stat_known;
	struct cpusplit split;      /* one process given several CPUs: its time on each */
	struct errpipe errlog;      /* the workloads' stderr with a cap (read_fd -1: none) */
	sigset_t waitset;           /* the signals a trial waits for: the stop signals, SIGCHLD */
	int signal_fd;              /* with errlog: the signals waited for, beside its pipe */
	bool frequency_readable;    /* /sys gives the first PU's current frequency */
};

/* Child i has been reaped with status and ru: its times and how it ended. */
static void child_ended(struct trial_state *st, int i, int status, const struct rusage *ru)
{
	double now = trial_now_s();
	struct child *c = &st->children[i];
	c->reaped = true;
	c->end_s = now;
	struct proc_result *r = &st->out->procs[i];
	record_exit(r, st->spec->procs[i].kernel, status, ru);
	r->start_s = st->release_s - st->spec->run_origin_s;
	r->end_s = now - st->spec->run_origin_s;
	r->wall_s = now - st->release_s;
}

/* Kills every child not reaped yet with its process group (a workload's own children too) and
 * reaps it. as: what it is recorded as; PROC_TIMEOUT keeps its times up to the kill, and
 * PROC_PENDING records nothing (a start undone). */
static void kill_and_reap_all(struct trial_state *st, enum proc_status as)
{
	const struct trial_spec *spec = st->spec;
	for (int i = 0; i < spec->nprocs; i++)
		if (st->children[i].pid > 0 && !st->children[i].reaped)
			kill(-st->children[i].pid, SIGKILL), kill(st->children[i].pid, SIGKILL);
	for (int i = 0; i < spec->nprocs; i++) {
		struct child *c = &st->children[i];
		if (c->pid <= 0 || c->reaped)
			continue;
		int status;
		struct rusage ru;
		reap_child(c->pid, &status, &ru);
		c->reaped = true;
		struct proc_result *r = &st->out->procs[i];
		if (as != PROC_PENDING)
			r->status = as;
		if (as == PROC_TIMEOUT) {
			snprintf(r->error, sizeof r->error, "still running after the trial's time limit "
			         "of %g s: killed with its process tree", spec->timeout_s);
			child_ended(st, i, status, &ru);
		}
	}
}

/* Every child killed and reaped, every descriptor closed: a half-made start undone (errno is
 * kept for the caller's TRIAL_SYSTEM_ERROR), or one that failed to bind. */
static void undo_start(struct trial_state *st)
{
	int saved_errno = errno;
	kill_and_reap_all(st, PROC_PENDING);
	for (int i = 0; i < st->spec->nprocs; i++) {
		close_fd(&st->children[i].ready_fd);
		close_fd(&st->children[i].exec_fd);
	}
	errno = saved_errno;
}

/* The mask proc is bound to: its CPUs, or its PU alone. */
static void bound_mask(const struct trial_proc_spec *proc, cpu_set_t *mask)
{
	CPU_ZERO(mask);
	if (proc->ncpus <= 0)
		CPU_SET(proc->pu, mask);
	for (int k = 0; k < proc->ncpus; k++)
		CPU_SET(proc->cpus[k], mask);
}

/* Child i's start, bound to its process's CPUs, with the pipe it reports ready (or why not)
 * through and the pipe an exec failure comes back on: their read ends in st->children[i]
 * (undo_start closes them), their write ends in c->fds (-1 for a pipe not made). -1 (errno)
 * when a pipe fails. */
static int prepare_child(struct trial_state *st, int i, pid_t parent, struct child_start *c)
{
	int ready[2] = { -1, -1 }, exec_pipe[2] = { -1, -1 };
	int rc = pipe2(ready, O_CLOEXEC) != 0 || pipe2(exec_pipe, O_CLOEXEC) != 0 ? -1 : 0;
	*c = (struct child_start){
		.spec = st->spec, .index = i, .parent = parent, .max_fd = st->max_fd,
		.fds = { .ready = ready[1], .exec = exec_pipe[1], .bound = -1 },
	};
	bound_mask(&st->spec->procs[i], &c->mask);
	st->children[i].ready_fd = ready[0];
	st->children[i].exec_fd = exec_pipe[0];
	return rc;
}

/* The runner's copies of the first n children's write ends closed: each child holds its own. */
static void close_write_ends(struct child_start *start, int n)
{
	for (int i = 0; i < n; i++) {
		close_fd(&start[i].fds.ready);
		close_fd(&start[i].fds.exec);
	}
}

_Static_assert(CPUSPLIT_MAX_CPUS == TRIAL_MAX_PUS, "a split follows a trial's CPUs");

/* One process given a placement's CPUs: its task clock on each of them starts counting now,
 * just before it is started (nothing is measured where perf events are not allowed). */
static void start_cpu_split(struct trial_state *st)
{
	const struct trial_proc_spec *proc = &st->spec->procs[0];
	if (st->spec->nprocs == 1 && proc->ncpus > 0 && proc->ncpus <= CPUSPLIT_MAX_CPUS)
		cpusplit_start(&st->split, proc->cpus, proc->ncpus);
}

/* After the process was reaped: its CPU time on each of its CPUs, into the result. The task
 * clock and the kernel's CPU time (utime + stime, from rusage) are kept by different clocks of
 * the scheduler: they agree on a quiet machine, but at load 12-30 here the task clock read up
 * to 24% (81 ms of 0.34 s) more, growing with the load. So the split is the process's rusage
 * CPU time divided in the task clock's proportions: one total for the row, the one its times
 * say. */
static void measure_cpu_split(struct trial_state *st)
{
	struct trial_result *out = st->out;
	int n = st->split.ncpus; /* cpusplit_finish sets it to 0, and leaves split.cpus as they are */
	if (n == 0 || cpusplit_finish(&st->split, out->cpu_split_s) != 0)
		return;
	double clocked = 0, cpu = out->procs[0].utime_s + out->procs[0].stime_s;
	for (int k = 0; k < n; k++)
		clocked += out->cpu_split_s[k];
	for (int k = 0; k < n && clocked > 0; k++)
		out->cpu_split_s[k] *= cpu / clocked;
	memcpy(out->cpu_split_cpu, st->split.cpus, (size_t)n * sizeof *out->cpu_split_cpu);
	out->cpu_split_n = n;
}

/* The CPUs the trial's processes are bound to, each once, into pus (at most TRIAL_MAX_PUS);
 * returns how many. */
static int measured_pus(const struct trial_spec *spec, int pus[TRIAL_MAX_PUS])
{
	cpu_set_t all, one;
	CPU_ZERO(&all);
	for (int i = 0; i < spec->nprocs; i++) {
		bound_mask(&spec->procs[i], &one);
		CPU_OR(&all, &all, &one);
	}
	int n = 0;
	for (int cpu = 0; cpu < CPU_SETSIZE && n < TRIAL_MAX_PUS; cpu++)
		if (CPU_ISSET(cpu, &all))
			pus[n++] = cpu;
	return n;
}

/* "CPU 2" or "CPUs 2,3": the CPUs proc is bound to, for messages (a new string). */
static char *cpus_text(const struct trial_proc_spec *proc)
{
	cpu_set_t mask;
	bound_mask(proc, &mask);
	char *list = text_cpu_list(&mask, true);
	char *text = xasprintf("CPU%s %s", CPU_COUNT(&mask) > 1 ? "s" : "", list);
	free(list);
	return text;
}

static int ON_PARTNER_STACK partner_main(void *arg)
{
	run_child(arg, NULL);
}

enum start_result { STARTED, NOT_BOUND, START_FAILED };

/*
 * Reads each child's report, the last process's first (it names the partner it started): bound
 * to its CPU, or why not. STARTED when every child is ready; NOT_BOUND when one is not (a
 * partner never started stays PROC_PENDING, for abandon_unbound); START_FAILED (errno) when
 * the last process could not start its partner.
 */
static enum start_result await_ready(struct trial_state *st)
{
	const struct trial_spec *spec = st->spec;
	enum start_result result = STARTED;
	double first_released_s = INFINITY;
	for (int i = spec->nprocs - 1; i >= 0; i--) {
		struct child_report report;
		struct proc_result *r = &st->out->procs[i];
		if (st->children[i].pid <= 0) {
			result = NOT_BOUND; /* a partner never started: its last process said why */
			continue;
		}
		ssize_t got = fileio_read_full(st->children[i].ready_fd, &report, sizeof report);
		close_fd(&st->children[i].ready_fd);
		if (got != (ssize_t)sizeof report)
			report = (struct child_report){ .code = CHILD_DIED };
		if (i == spec->nprocs - 1 && i > 0)
			st->children[0].pid = report.partner > 0 ? report.partner : -1;
		if (report.code == CHILD_READY) {
			r->pu = spec->procs[i].pu;
			first_released_s = fmin(first_released_s, report.released_s);
			continue;
		}
		if (report.code == CHILD_SPAWN_FAILED) {
			errno = report.err;
			return START_FAILED;
		}
		char *cpus = cpus_text(&spec->procs[i]);
		r->status = PROC_BIND_FAILED;
		if (report.code == CHILD_DIED)
			snprintf(r->error, sizeof r->error, "died before binding to %s", cpus);
		else if (report.code == CHILD_PARTNER_FAILED)
			snprintf(r->error, sizeof r->error, "not started: its partner failed to bind");
		else if (report.code == CHILD_BIND_FAILED)
			snprintf(r->error, sizeof r->error, "sched_setaffinity to %s: %s", cpus,
			         strerror(report.err));
		else
			snprintf(r->error, sizeof r->error,
			         "affinity read back after binding to %s is not %s alone", cpus,
			         spec->procs[i].ncpus > 1 ? "those CPUs" : "that CPU");
		free(cpus);
		result = NOT_BOUND;
	}
	if (result == STARTED && first_released_s > 0 && isfinite(first_released_s))
		st->release_s = first_released_s;
	return result;
}

/* One or both failed to bind, and neither has exec'd: whichever was started is killed and
 * reaped, and the other is recorded as not started. */
static void abandon_unbound(struct trial_state *st)
{
	undo_start(st);
	for (int i = 0; i < st->spec->nprocs; i++) {
		struct proc_result *r = &st->out->procs[i];
		if (r->status == PROC_PENDING) {
			r->status = PROC_BIND_FAILED;
			snprintf(r->error, sizeof r->error, "not started: its partner failed to bind");
		}
	}
}

/*
 * Starts the trial's processes (see run_child for a pair): the last one (the only one of a
 * solo trial) with vfork, which costs half a fork here (55 against 90-130 us measured on a 2-vCPU
 * VM) and suspends the runner until the child has exec'd or exited, and with it its partner.
 * When vfork returns, every report and any exec failure of the last process are already in the
 * pipes, so reading them costs no wait; whether the partner's exec worked is read after the
 * children end (see collect_exec_failures). The child only makes system calls and writes no
 * memory the runner reads, as vfork requires. The trial's clock starts when the first process
 * went on to exec, which it reports; the time before the vfork stands in should a report lack
 * it. NOT_BOUND: one failed to bind (the caller abandons the rest); START_FAILED: a pipe or a
 * process could not be made (errno).
 */
static enum start_result start_processes(struct trial_state *st)
{
	const struct trial_spec *spec = st->spec;
	int last = spec->nprocs - 1, made = 0;
	pid_t parent = getpid();
	struct child_start start[TRIAL_MAX_PROCS];
	while (made <= last && prepare_child(st, made, parent, &start[made]) == 0)
		made++;
	if (made <= last) {
		int saved_errno = errno;
		close_write_ends(start, made + 1);
		errno = saved_errno;
		return START_FAILED;
	}
	/* The measured PUs' /proc/stat counters just before the processes start. */
	st->stat_known = cpustat_read("/proc/stat", st->pus, st->npus, &st->stat_before) == 0;
	start_cpu_split(st);
	st->release_s = trial_now_s();
	pid_t pid = vfork();
	if (pid == 0)
		run_child(&start[last], last > 0 ? &start[0] : NULL);
	int saved_errno = errno;
	close_write_ends(start, last + 1);
	if (pid < 0) {
		errno = saved_errno;
		return START_FAILED;
	}
	st->children[last].pid = pid;
	return await_ready(st);
}

/* After every child is reaped: which ones failed to exec (their exec pipe carries errno; a
 * successful exec closed it empty). Their exit code (127 or 126) stays; the status says why. */
static void collect_exec_failures(struct trial_state *st)
{
	for (int i = 0; i < st->spec->nprocs; i++) {
		if (st->children[i].exec_fd < 0)
			continue;
		int err;
		struct proc_result *r = &st->out->procs[i];
		if (fileio_read_full(st->children[i].exec_fd, &err, sizeof err) == (ssize_t)sizeof err
		    && st->children[i].reaped) {
			r->status = PROC_EXEC_FAILED;
			snprintf(r->error, sizeof r->error, "cannot execute %s: %s",
			         st->spec->procs[i].path, strerror(err));
		}
		close_fd(&st->children[i].exec_fd);
	}
}

/* A process that ended well but whose affinity is no longer the mask it was bound to changed
 * it itself (taskset inside it, a library that pins itself): its time is not the placement's.
 * The mask is read from the process as it ended (a zombie keeps it until it is reaped); only
 * the process smtbench started is seen, not its other threads or its children. */
static void check_still_bound(struct proc_result *r, const struct trial_proc_spec *proc,
                              const cpu_set_t *ended_on)
{
	cpu_set_t bound;
	bound_mask(proc, &bound);
	if (r->status != PROC_OK || CPU_EQUAL(&bound, ended_on))
		return;
	char *now = text_cpu_list(ended_on, true), *was = cpus_text(proc);
	r->status = PROC_MOVED;
	snprintf(r->error, sizeof r->error, "changed its own CPU affinity to CPU(s) %s after it was "
	         "bound to %s: not this placement's time (let smtbench place it)", now, was);
	free(now);
	free(was);
}

/* Reaps the children that have ended: their times, how they ended, and whether they were
 * still bound to their PU (read before the reap: waitid's WNOWAIT leaves the zombie). Returns
 * how many. */
static int reap_ended(struct trial_state *st)
{
	int reaped = 0;
	for (int i = 0; i < st->spec->nprocs; i++) {
		struct child *c = &st->children[i];
		siginfo_t info = { .si_pid = 0 };
		if (c->reaped || waitid(P_PID, (id_t)c->pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0
		    || info.si_pid != c->pid)
			continue;
		cpu_set_t ended_on;
		CPU_ZERO(&ended_on);
		bool mask_known = sched_getaffinity(c->pid, sizeof ended_on, &ended_on) == 0;
		int status;
		struct rusage ru;
		reap_child(c->pid, &status, &ru);
		child_ended(st, i, status, &ru);
		if (mask_known)
			check_still_bound(&st->out->procs[i], &st->spec->procs[i], &ended_on);
		reaped++;
	}
	return reaped;
}

/* How long the runner may sleep before its next wake-up without a signal (see
 * FREQUENCY_DELAY_S) into *ts; false when nothing is due: it sleeps until a signal. */
static bool next_wakeup(const struct trial_state *st, bool frequency_due, struct timespec *ts)
{
	double due = INFINITY;
	if (frequency_due)
		due = st->release_s + FREQUENCY_DELAY_S;
	if (st->spec->timeout_s > 0)
		due = fmin(due, st->release_s + st->spec->timeout_s + TIMEOUT_MARGIN_S);
	if (!isfinite(due))
		return false;
	double left = fmax(0, due - trial_now_s());
	ts->tv_sec = (time_t)left;
	ts->tv_nsec = (long)((left - (double)ts->tv_sec) * 1e9);
	return true;
}

/* Waits for a signal of st->waitset until timeout (NULL: none), as sigtimedwait; with a capped
 * stderr, draining its pipe meanwhile: -1 with EINTR after a drain, so that the caller looks
 * at the clock again. */
static int wait_signal(struct trial_state *st, const struct timespec *timeout)
{
	siginfo_t info;
	if (st->errlog.read_fd < 0 || st->signal_fd < 0)
		return sigtimedwait(&st->waitset, &info, timeout);
	struct pollfd fds[2] = { { .fd = st->signal_fd, .events = POLLIN },
	                         { .fd = st->errlog.read_fd, .events = POLLIN } };
	int n = ppoll(fds, 2, timeout, NULL);
	if (n < 0)
		return -1;
	if (fds[0].revents & POLLIN) {
		struct signalfd_siginfo si;
		if (read(st->signal_fd, &si, sizeof si) == (ssize_t)sizeof si)
			return (int)si.ssi_signo;
	}
	if (fds[1].revents) {
		errpipe_drain(&st->errlog);
		errno = EINTR;
		return -1;
	}
	errno = n == 0 ? EAGAIN : EINTR;
	return -1;
}

/* Waits for every child (SIGCHLD, or a wake-up when one is due: next_wakeup); a stop signal
 * kills them all and ends the trial as interrupted; the time limit kills those still running. */
static enum trial_outcome wait_children(struct trial_state *st, int *interrupt_signal)
{
	const struct trial_spec *spec = st->spec;
	int remaining = spec->nprocs;
	bool frequency_sampled = !st->frequency_readable;
	while (remaining > 0) {
		struct timespec timeout;
		bool frequency_due = !frequency_sampled && remaining == spec->nprocs;
		int sig = wait_signal(st, next_wakeup(st, frequency_due, &timeout) ? &timeout : NULL);
		if (sig < 0 && errno != EAGAIN && errno != EINTR) {
			int saved_errno = errno;
			kill_and_reap_all(st, PROC_KILLED);
			errno = saved_errno;
			return TRIAL_SYSTEM_ERROR;
		}
		if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
			*interrupt_signal = sig;
			kill_and_reap_all(st, PROC_KILLED);
			return TRIAL_INTERRUPTED;
		}
		/* The time limit passed: the processes still running are killed and "timeout". */
		if (spec->timeout_s > 0 && trial_now_s() - st->release_s > spec->timeout_s) {
			st->out->timed_out = true;
			kill_and_reap_all(st, PROC_TIMEOUT);
			return TRIAL_COMPLETED;
		}
		/* Only a wake-up without a signal: the processes have been busy FREQUENCY_DELAY_S,
		 * so the frequency is theirs (a trial shorter than that has none). */
		if (sig < 0 && frequency_due && trial_now_s() - st->release_s >= FREQUENCY_DELAY_S) {
			sample_frequency(st->pus, st->npus, st->out);
			frequency_sampled = true;
		}
		remaining -= reap_ended(st);
	}
	return TRIAL_COMPLETED;
}

/* The share of the longest process's run during which all of them ran: 1 when they ended
 * together. */
static double overlap_of(const struct trial_state *st)
{
	double first_end = INFINITY, last_end = 0;
	for (int i = 0; i < st->spec->nprocs; i++) {
		first_end = fmin(first_end, st->children[i].end_s);
		last_end = fmax(last_end, st->children[i].end_s);
	}
	return last_end > st->release_s ? (first_end - st->release_s) / (last_end - st->release_s)
	                                : 1.0;
}

/* What else ran on the trial's PUs while it ran: their busy ticks since its start less its
 * processes' own CPU time (never below 0: both are counted in ticks), and their steal. */
static void measure_foreign(const struct trial_state *st)
{
	struct cpustat after;
	if (!st->stat_known || cpustat_read("/proc/stat", st->pus, st->npus, &after) != 0)
		return;
	double tick_s = cpustat_tick_s(), own_s = 0;
	for (int i = 0; i < st->spec->nprocs; i++)
		own_s += st->out->procs[i].utime_s + st->out->procs[i].stime_s;
	double busy_s = (double)(after.busy - st->stat_before.busy) * tick_s;
	st->out->foreign_s = busy_s > own_s ? busy_s - own_s : 0;
	st->out->steal_s = (double)(after.steal - st->stat_before.steal) * tick_s;
}

/* The children the runner has now, at most max of them, from /proc/self/task/TID/children
 * (CONFIG_PROC_CHILDREN) or, where the kernel lacks it, from every /proc/PID/stat's parent. */
static int list_children(pid_t *pids, int max)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/self/task/%d/children", (int)getpid());
	FILE *f = fopen(path, "re");
	int n = 0;
	if (f) {
		long pid;
		while (n < max && fscanf(f, "%ld", &pid) == 1)
			pids[n++] = (pid_t)pid;
		fclose(f);
		return n;
	}
	DIR *proc = opendir("/proc");
	if (!proc)
		return 0;
	pid_t self = getpid();
	struct dirent *d;
	while (n < max && (d = readdir(proc))) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		char stat[512];
		snprintf(path, sizeof path, "/proc/%.20s/stat", d->d_name);
		/* Read whole, not by line: comm may hold a newline (PR_SET_NAME), and a leftover
		 * named so must still be found. */
		if (!read_small(path, stat, sizeof stat))
			continue;
		/* "pid (comm) state ppid ...": comm may hold spaces and parentheses. */
		char *paren = strrchr(stat, ')'), state;
		long ppid;
		if (paren && sscanf(paren + 1, " %c %ld", &state, &ppid) == 2 && ppid == self)
			pids[n++] = (pid_t)atol(d->d_name);
	}
	closedir(proc);
	return n;
}

/* Reaps every child that has ended, counting those SIGKILL ended; *alive: whether children
 * remain. */
static int reap_dead(bool *alive)
{
	int killed = 0, status;
	pid_t pid;
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
		killed += WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
	*alive = pid == 0;
	return killed;
}


/* After the trial (trial.h): its process groups, which outlive their leaders, then one
 * generation of the runner's children per round. How many were killed; one waitpid when
 * nothing was left. */
static int sweep_leftovers(const struct trial_state *st)
{
	for (int i = 0; i < st->spec->nprocs; i++)
		if (st->children[i].pid > 0)
			kill(-st->children[i].pid, SIGKILL);
	bool alive;
	int killed = reap_dead(&alive);
	for (int round = 0; alive && round < SWEEP_MAX_ROUNDS; round++) {
		pid_t pids[256];
		int n = list_children(pids, (int)(sizeof pids / sizeof pids[0]));
		if (n == 0)
			break;
		for (int k = 0; k < n; k++)
			kill(pids[k], SIGKILL);
		for (int k = 0; k < n; k++) {
			int status;
			if (waitpid(pids[k], &status, 0) == pids[k])
				killed += WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
		}
		killed += reap_dead(&alive);
	}
	return killed;
}

/* The runner waits out a trial on the CPUs it may use that the trial's processes were not
 * given, where there are any, so that its own work in the trial (starting the processes, a
 * wake-up, reaping them) takes no time from theirs; *before gets its mask, for
 * the end of the trial. False when it stays where it is: every CPU it may use is the trial's
 * (both CPUs of a 2-CPU machine in a pair), or the mask cannot be read or set. */
static bool move_runner_off(const struct trial_state *st, cpu_set_t *before)
{
	if (sched_getaffinity(0, sizeof *before, before) != 0)
		return false;
	cpu_set_t away = *before;
	for (int i = 0; i < st->npus; i++)
		CPU_CLR(st->pus[i], &away);
	return CPU_COUNT(&away) > 0 && sched_setaffinity(0, sizeof away, &away) == 0;
}

/* The signals the trial waits for; with a cap on the workloads' stderr, its pipe, whose write
 * end stands in for spec's stderr_fd in *own (a copy of spec the children see), and a signalfd
 * of those signals beside it. Without a cap, or where either cannot be made, the log is given to
 * the workloads as it is (the cap is then only checked between trials, as said in the warning). */
static const struct trial_spec *open_errlog(struct trial_state *st, const struct trial_spec *spec,
                                            struct trial_spec *own)
{
	st->errlog = (struct errpipe){ .read_fd = -1, .write_fd = -1, .null_fd = -1 };
	st->signal_fd = -1;
	stop_signal_set(&st->waitset);
	sigaddset(&st->waitset, SIGCHLD);
	if (spec->stderr_fd < 0 || !spec->cap_stderr || spec->stderr_cap < 0)
		return spec;
	st->signal_fd = signalfd(-1, &st->waitset, SFD_CLOEXEC | SFD_NONBLOCK);
	if (st->signal_fd < 0 || errpipe_open(&st->errlog, spec->stderr_fd, spec->stderr_cap) != 0) {
		text_warn("cannot make the pipe that bounds the workloads' error output; this trial "
		          "writes it to the log directly");
		if (st->signal_fd >= 0)
			close(st->signal_fd);
		st->signal_fd = -1;
		return spec;
	}
	*own = *spec;
	own->stderr_fd = st->errlog.write_fd;
	return own;
}

/* After the trial and its leftovers: the pipe emptied and closed, its counts in the result. */
static void close_errlog(struct trial_state *st)
{
	if (st->signal_fd < 0)
		return;
	errpipe_close(&st->errlog);
	close(st->signal_fd);
	st->out->stderr_logged = st->errlog.logged;
	st->out->stderr_discarded = st->errlog.discarded;
}

enum trial_outcome trial_run(const struct trial_spec *given, struct trial_result *out,
                             int *interrupt_signal)
{
	struct trial_state st = { .out = out };
	struct trial_spec own;
	const struct trial_spec *spec = open_errlog(&st, given, &own);
	st.spec = spec;
	init_result(spec, out);
	st.max_fd = sysconf(_SC_OPEN_MAX) > 0 ? sysconf(_SC_OPEN_MAX) : 1024;
	for (int i = 0; i < spec->nprocs; i++)
		st.children[i] = (struct child){ .pid = -1, .ready_fd = -1, .exec_fd = -1 };
	st.npus = measured_pus(spec, st.pus);
	st.frequency_readable = st.npus > 0 && !isnan(read_cur_freq_mhz(st.pus[0]));
	cpu_set_t runner_cpus;
	bool moved = move_runner_off(&st, &runner_cpus);
	enum trial_outcome outcome = TRIAL_COMPLETED;
	enum start_result started = start_processes(&st);
	errpipe_started(&st.errlog);
	if (started == START_FAILED) {
		undo_start(&st);
		outcome = TRIAL_SYSTEM_ERROR;
	} else if (started == NOT_BOUND) {
		abandon_unbound(&st);
	} else {
		outcome = wait_children(&st, interrupt_signal);
		collect_exec_failures(&st);
		if (outcome == TRIAL_COMPLETED) {
			out->overlap = overlap_of(&st);
			measure_foreign(&st);
			measure_cpu_split(&st);
		}
	}
	cpusplit_stop(&st.split);
	int saved_errno = errno;
	out->leftovers = sweep_leftovers(&st);
	close_errlog(&st);
	if (moved)
		sched_setaffinity(0, sizeof runner_cpus, &runner_cpus);
	errno = saved_errno;
	return outcome;
}

/* ---- what survives a SIGKILL of the runner -------------------------------------------------- */

/* The variable every workload inherits: its value names the folder the trial belongs to. */
#define TRIAL_MARK_NAME "SMTBENCH_FOLDER"

void trial_mark_workloads(const char *dir)
{
	char *abs = realpath(dir, NULL);
	if (abs)
		setenv(TRIAL_MARK_NAME, abs, 1);
	free(abs);
}

/* Whether /proc/PID/environ holds the entry mark (len bytes with its NUL). */
static bool environ_holds(const char *pid, const char *mark, size_t len)
{
	char path[300];
	snprintf(path, sizeof path, "/proc/%s/environ", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	/* The environment is read whole (a process's own, at most ARG_MAX-ish): entries are
	 * NUL-separated, so the mark matches only as a whole entry. */
	size_t used = 0;
	char *buf = fileio_read_fd(fd, path, FILEIO_READ_ALL_MAX, &used, NULL, 0);
	if (!buf)
		return false;
	bool found = false;
	for (size_t at = 0; at < used && !found;) {
		size_t n = strnlen(buf + at, used - at);
		found = n + 1 == len && !memcmp(buf + at, mark, n);
		at += n + 1;
	}
	free(buf);
	return found;
}

int trial_kill_marked(const char *dir)
{
	/* The entry trial_mark_workloads gave them: "SMTBENCH_FOLDER=/abs/dir". */
	char *abs = realpath(dir, NULL);
	char *mark = abs ? xasprintf(TRIAL_MARK_NAME "=%s", abs) : NULL;
	free(abs);
	DIR *proc = mark ? opendir("/proc") : NULL;
	int killed = 0;
	struct dirent *de;
	while (proc && (de = readdir(proc)) != NULL) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		if (*end || pid <= 1 || pid == (long)getpid())
			continue;
		if (environ_holds(de->d_name, mark, strlen(mark) + 1) && kill((pid_t)pid, SIGKILL) == 0)
			killed++;
	}
	if (proc)
		closedir(proc);
	free(mark);
	return killed;
}
