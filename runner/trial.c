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
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runner/cpustat.h"
#include "runner/util.h"
#include "common/fileio.h"

/* What a child tells the parent through its ready pipe: one byte of code, then an errno. */
enum child_report { CHILD_READY = 'R', CHILD_BIND_FAILED = 'B', CHILD_MASK_MISMATCH = 'M' };

/* While the trial runs, how often the parent wakes without a signal: it samples the CPU
 * frequency on the first wake-up (the processes are busy by then). */
#define WAKE_INTERVAL_NS 50000000L

double trial_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
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

static void report_to_parent(int fd, char code, int err)
{
	char msg[1 + sizeof(int)];
	msg[0] = code;
	memcpy(msg + 1, &err, sizeof err);
	fileio_write_all(fd, msg, sizeof msg);
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

/*
 * The child's side, between fork and exec. Only async-signal-safe calls: the parent may be
 * multi-threaded in some future, and the sanitizers' runtimes are not fork-safe either.
 */
static void __attribute__((noreturn))
run_child(const struct trial_spec *spec, int index, const cpu_set_t *mask, pid_t parent,
          int ready_fd, int go_fd, int exec_fd, long max_fd)
{
	/* Die with the runner even if it is SIGKILLed; then close the race where the parent died
	 * before the request took effect (we would have been re-parented already). */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(EXIT_FAILURE_RUNTIME);
	/* Our own process group: a terminal's ^C reaches only the runner, which then kills whole
	 * groups, so a user command's own children go too. */
	setpgid(0, 0);

	if (sched_setaffinity(0, sizeof *mask, mask) != 0) {
		report_to_parent(ready_fd, CHILD_BIND_FAILED, errno);
		_exit(EXIT_FAILURE_RUNTIME);
	}
	cpu_set_t readback;
	CPU_ZERO(&readback);
	if (sched_getaffinity(0, sizeof readback, &readback) != 0 || !CPU_EQUAL(&readback, mask)) {
		report_to_parent(ready_fd, CHILD_MASK_MISMATCH, errno);
		_exit(EXIT_FAILURE_RUNTIME);
	}
	report_to_parent(ready_fd, CHILD_READY, 0);
	close(ready_fd);

	/* The barrier (none for a process alone): read returns 0 when the parent closes the last
	 * write end. */
	char c;
	while (go_fd >= 0 && read(go_fd, &c, 1) < 0 && errno == EINTR)
		;
	if (go_fd >= 0)
		close(go_fd);

	/* The exec pipe must survive the dup2s below (a runner started with 0, 1 or 2 closed gets
	 * pipes there). */
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
	/* Nothing but 0, 1 and 2 reaches the workload: neither what the runner inherited nor
	 * what it opened. The exec pipe stays (it closes itself on exec) above 2. */
	close_descriptors_from(STDERR_FILENO + 1, exec_fd, max_fd);
	sigprocmask(SIG_SETMASK, spec->child_sigmask, NULL);

	execv(spec->procs[index].path, spec->procs[index].argv);
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

static void kill_and_reap_all(struct child *children, int n, struct trial_result *out)
{
	for (int i = 0; i < n; i++)
		if (children[i].pid > 0 && !children[i].reaped)
			kill(-children[i].pid, SIGKILL), kill(children[i].pid, SIGKILL);
	for (int i = 0; i < n; i++) {
		if (children[i].pid <= 0 || children[i].reaped)
			continue;
		int status;
		struct rusage ru;
		while (wait4(children[i].pid, &status, 0, &ru) < 0 && errno == EINTR)
			;
		children[i].reaped = true;
		if (out)
			out->procs[i].status = PROC_KILLED;
	}
}

/* The number a small /proc or /sys file starts with; NAN when unreadable. open and one read,
 * without stdio's buffer and fstat: this runs in every trial. */
static double read_leading_number(const char *path)
{
	char buf[64];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NAN;
	ssize_t got = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (got <= 0)
		return NAN;
	buf[got] = '\0';
	char *end = NULL;
	double value = strtod(buf, &end);
	return end == buf ? NAN : value;
}

static double read_loadavg_1m(void)
{
	return read_leading_number("/proc/loadavg");
}

static double read_cur_freq_mhz(int pu)
{
	char path[96];
	snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", pu);
	return read_leading_number(path) / 1000.0;
}

static void sample_frequency(const struct trial_spec *spec, struct trial_result *out)
{
	double sum = 0;
	for (int i = 0; i < spec->nprocs; i++) {
		double mhz = read_cur_freq_mhz(spec->procs[i].pu);
		if (isnan(mhz)) {
			out->freq_mhz = NAN;
			return;
		}
		sum += mhz;
	}
	out->freq_mhz = sum / spec->nprocs;
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
		[PROC_TIMEOUT] = "timeout", [PROC_KILLED] = "killed",
	};
	return (unsigned)status < sizeof names / sizeof names[0] ? names[status] : "unknown";
}

static void init_result(const struct trial_spec *spec, struct trial_result *out)
{
	memset(out, 0, sizeof *out);
	out->nprocs = spec->nprocs;
	out->freq_mhz = NAN;
	out->foreign_s = out->steal_s = NAN;
	out->loadavg_1m = read_loadavg_1m();
	for (int i = 0; i < spec->nprocs; i++) {
		out->procs[i].pu = -1;
		out->procs[i].exit_code = -1;
		out->procs[i].status = PROC_PENDING;
	}
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	struct tm tm;
	gmtime_r(&now.tv_sec, &tm);
	strftime(out->started_utc, sizeof out->started_utc, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* A trial's processes and the barrier they wait at, as the parent sees them. */
struct trial_state {
	const struct trial_spec *spec;
	struct trial_result *out;
	struct child children[TRIAL_MAX_PROCS];
	int go[2];        /* the barrier: children block reading go[0] until go[1] closes */
	double release_s; /* when the barrier opened */
	long max_fd;      /* the highest descriptor a child closes where close_range is missing */
	int pus[TRIAL_MAX_PROCS];
	struct cpustat stat_before; /* the PUs' ticks just before the barrier opened */
	bool stat_known;
};

/* Undoes a half-made start: every child killed and reaped, every descriptor closed. errno is
 * kept for the caller's TRIAL_SYSTEM_ERROR. */
static enum trial_outcome system_error(struct trial_state *st)
{
	int saved_errno = errno;
	close_fd(&st->go[0]);
	close_fd(&st->go[1]);
	kill_and_reap_all(st->children, st->spec->nprocs, NULL);
	for (int i = 0; i < st->spec->nprocs; i++) {
		close_fd(&st->children[i].ready_fd);
		close_fd(&st->children[i].exec_fd);
	}
	errno = saved_errno;
	return TRIAL_SYSTEM_ERROR;
}

/* What one child needs before it is forked: the mask that binds it to its PU, the pipe it reports
 * ready (or why not) through, and the pipe an exec failure comes back on. */
struct child_setup {
	cpu_set_t mask;
	int ready[2];
	int exec_pipe[2];
};

/* Fills cs for a child bound to pu. -1 (errno) when a pipe fails, with nothing left open. */
static int prepare_child(int pu, struct child_setup *cs)
{
	CPU_ZERO(&cs->mask);
	CPU_SET(pu, &cs->mask);
	if (pipe2(cs->ready, O_CLOEXEC) != 0)
		return -1;
	if (pipe2(cs->exec_pipe, O_CLOEXEC) != 0) {
		int saved_errno = errno;
		close(cs->ready[0]), close(cs->ready[1]);
		errno = saved_errno;
		return -1;
	}
	return 0;
}

/* Forks every child; each binds itself and waits at the barrier. -1 (errno) when a pipe or a
 * fork fails; the caller then calls system_error. */
static int start_children(struct trial_state *st)
{
	const struct trial_spec *spec = st->spec;
	pid_t parent = getpid();
	for (int i = 0; i < spec->nprocs; i++) {
		struct child_setup cs;
		if (prepare_child(spec->procs[i].pu, &cs) != 0)
			return -1;
		pid_t pid = fork();
		if (pid < 0) {
			close(cs.ready[0]), close(cs.ready[1]);
			close(cs.exec_pipe[0]), close(cs.exec_pipe[1]);
			return -1;
		}
		if (pid == 0) {
			/* The barrier works only if no child holds the write end of the go pipe. */
			close(st->go[1]);
			close(cs.ready[0]);
			close(cs.exec_pipe[0]);
			for (int j = 0; j < i; j++) {
				close(st->children[j].ready_fd);
				close(st->children[j].exec_fd);
			}
			run_child(spec, i, &cs.mask, parent, cs.ready[1], st->go[0], cs.exec_pipe[1],
				  st->max_fd);
		}
		setpgid(pid, pid); /* also done by the child: whichever runs first wins the race */
		st->children[i].pid = pid;
		st->children[i].ready_fd = cs.ready[0];
		st->children[i].exec_fd = cs.exec_pipe[0];
		close(cs.ready[1]);
		close(cs.exec_pipe[1]);
	}
	close_fd(&st->go[0]);
	return 0;
}

/* The measured PUs' /proc/stat counters just before the trial's processes run. */
static void read_cpustat_before(struct trial_state *st)
{
	st->stat_known = cpustat_read("/proc/stat", st->pus, st->spec->nprocs, &st->stat_before) == 0;
}

/*
 * A process alone has no partner to start with, so it needs no barrier: vfork, which is half the
 * cost of fork (no copy of the runner's page tables) and suspends the runner until the child has
 * exec'd or exited. The child binds itself and reports as run_child always does; when vfork
 * returns, its report and any exec failure are already in the pipes, so reading them costs no
 * wait. The child only makes system calls and writes no memory the runner reads, as vfork
 * requires. -1 (errno) when a pipe or vfork fails; the caller then calls system_error.
 */
static int start_alone(struct trial_state *st)
{
	const struct trial_spec *spec = st->spec;
	struct child_setup cs;
	if (prepare_child(spec->procs[0].pu, &cs) != 0)
		return -1;
	pid_t parent = getpid();
	read_cpustat_before(st);
	st->release_s = trial_now_s();
	pid_t pid = vfork();
	if (pid == 0)
		run_child(spec, 0, &cs.mask, parent, cs.ready[1], -1, cs.exec_pipe[1], st->max_fd);
	int saved_errno = errno;
	close(cs.ready[1]);
	close(cs.exec_pipe[1]);
	if (pid < 0) {
		close(cs.ready[0]), close(cs.exec_pipe[0]);
		errno = saved_errno;
		return -1;
	}
	st->children[0].pid = pid;
	st->children[0].ready_fd = cs.ready[0];
	st->children[0].exec_fd = cs.exec_pipe[0];
	return 0;
}

/* Reads each child's message from before the barrier: bound to its CPU, or why not. True when
 * every child is ready. */
static bool await_ready(struct trial_state *st)
{
	const struct trial_spec *spec = st->spec;
	bool all_ready = true;
	for (int i = 0; i < spec->nprocs; i++) {
		char msg[1 + sizeof(int)];
		int err = 0;
		struct proc_result *r = &st->out->procs[i];
		ssize_t got = fileio_read_full(st->children[i].ready_fd, msg, sizeof msg);
		close_fd(&st->children[i].ready_fd);
		if (got != (ssize_t)sizeof msg) {
			r->status = PROC_BIND_FAILED;
			snprintf(r->error, sizeof r->error, "died before binding to CPU %d",
			         spec->procs[i].pu);
			all_ready = false;
			continue;
		}
		memcpy(&err, msg + 1, sizeof err);
		if (msg[0] == CHILD_READY) {
			r->pu = spec->procs[i].pu;
			continue;
		}
		r->status = PROC_BIND_FAILED;
		if (msg[0] == CHILD_BIND_FAILED)
			snprintf(r->error, sizeof r->error, "sched_setaffinity to CPU %d: %s",
			         spec->procs[i].pu, strerror(err));
		else
			snprintf(r->error, sizeof r->error,
			         "affinity read back after binding to CPU %d is not that CPU alone",
			         spec->procs[i].pu);
		all_ready = false;
	}
	return all_ready;
}

/* Nobody may run alone when the trial asked for company: the rest are killed while they still
 * wait at the barrier, and only then is it closed. */
static void abandon_unbound(struct trial_state *st)
{
	kill_and_reap_all(st->children, st->spec->nprocs, NULL);
	close_fd(&st->go[1]);
	for (int i = 0; i < st->spec->nprocs; i++) {
		struct proc_result *r = &st->out->procs[i];
		if (r->status == PROC_PENDING) {
			r->status = PROC_BIND_FAILED;
			snprintf(r->error, sizeof r->error, "not started: its partner failed to bind");
		}
		close_fd(&st->children[i].exec_fd);
	}
}

/* Opens the barrier. Whether each exec worked is read after the children end (see
 * collect_exec_failures): waiting for it here would cost the trial one more wake-up. */
static void release(struct trial_state *st)
{
	read_cpustat_before(st);
	st->release_s = trial_now_s();
	close_fd(&st->go[1]);
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

/* Reaps the children that have ended: their times and how they ended. Returns how many. */
static int reap_ended(struct trial_state *st)
{
	int reaped = 0;
	for (int i = 0; i < st->spec->nprocs; i++) {
		struct child *c = &st->children[i];
		int status;
		struct rusage ru;
		if (c->reaped || wait4(c->pid, &status, WNOHANG, &ru) != c->pid)
			continue;
		child_ended(st, i, status, &ru);
		reaped++;
	}
	return reaped;
}

/* The time limit passed: every process still running is killed with its process group,
 * reaped, and recorded as "timeout" (its times up to the kill are kept). */
static void time_out(struct trial_state *st)
{
	const struct trial_spec *spec = st->spec;
	st->out->timed_out = true;
	for (int i = 0; i < spec->nprocs; i++)
		if (!st->children[i].reaped)
			kill(-st->children[i].pid, SIGKILL), kill(st->children[i].pid, SIGKILL);
	for (int i = 0; i < spec->nprocs; i++) {
		struct child *c = &st->children[i];
		if (c->reaped)
			continue;
		struct proc_result *r = &st->out->procs[i];
		r->status = PROC_TIMEOUT;
		snprintf(r->error, sizeof r->error, "still running after the trial's time limit of "
		         "%g s: killed with its process tree", spec->timeout_s);
		int status = 0;
		struct rusage ru;
		memset(&ru, 0, sizeof ru);
		while (wait4(c->pid, &status, 0, &ru) < 0 && errno == EINTR)
			;
		child_ended(st, i, status, &ru);
	}
}

/* Waits for every child (SIGCHLD, or a wake-up every WAKE_INTERVAL_NS); a stop signal kills
 * them all and ends the trial as interrupted; the time limit kills those still running. */
static enum trial_outcome wait_children(struct trial_state *st, int *interrupt_signal)
{
	const struct trial_spec *spec = st->spec;
	sigset_t waitset;
	stop_signal_set(&waitset);
	sigaddset(&waitset, SIGCHLD);
	int remaining = spec->nprocs;
	bool frequency_sampled = false;
	while (remaining > 0) {
		struct timespec timeout = { 0, WAKE_INTERVAL_NS };
		siginfo_t info;
		int sig = sigtimedwait(&waitset, &info, &timeout);
		if (sig < 0 && errno != EAGAIN && errno != EINTR) {
			int saved_errno = errno;
			kill_and_reap_all(st->children, spec->nprocs, st->out);
			errno = saved_errno;
			return TRIAL_SYSTEM_ERROR;
		}
		if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
			*interrupt_signal = sig;
			kill_and_reap_all(st->children, spec->nprocs, st->out);
			return TRIAL_INTERRUPTED;
		}
		if (spec->timeout_s > 0 && trial_now_s() - st->release_s > spec->timeout_s) {
			time_out(st);
			return TRIAL_COMPLETED;
		}
		/* Only a wake-up without a signal: the processes have been busy WAKE_INTERVAL_NS, so
		 * the frequency is theirs (a trial shorter than that has none). */
		if (sig < 0 && !frequency_sampled && remaining == spec->nprocs) {
			sample_frequency(spec, st->out);
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
		if (st->children[i].end_s < first_end)
			first_end = st->children[i].end_s;
		if (st->children[i].end_s > last_end)
			last_end = st->children[i].end_s;
	}
	return last_end > st->release_s ? (first_end - st->release_s) / (last_end - st->release_s)
	                                : 1.0;
}

/* What else ran on the trial's PUs while it ran: their busy ticks since release() less its
 * processes' own CPU time (never below 0: both are counted in ticks), and their steal. */
static void measure_foreign(const struct trial_state *st)
{
	struct cpustat after;
	if (!st->stat_known || cpustat_read("/proc/stat", st->pus, st->spec->nprocs, &after) != 0)
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
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		ssize_t len = fd >= 0 ? read(fd, stat, sizeof stat - 1) : -1;
		if (fd >= 0)
			close(fd);
		if (len <= 0)
			continue;
		stat[len] = '\0';
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

/* Starts the trial's processes: one alone at once (vfork), two behind the barrier. -1 with errno. */
static int start_processes(struct trial_state *st)
{
	if (st->spec->nprocs == 1)
		return start_alone(st);
	if (pipe2(st->go, O_CLOEXEC) != 0)
		return -1;
	return start_children(st);
}

/*
 * After the trial: its process groups killed (they outlive their leaders), then every child of
 * the runner killed and reaped, one generation per round (a killed process's own children come
 * back to us, the subreaper). Returns how many processes had to be killed. Costs one waitpid
 * when nothing was left.
 */
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

enum trial_outcome trial_run(const struct trial_spec *spec, struct trial_result *out,
                             int *interrupt_signal)
{
	struct trial_state st = { .spec = spec, .out = out, .go = { -1, -1 } };
	init_result(spec, out);
	st.max_fd = sysconf(_SC_OPEN_MAX) > 0 ? sysconf(_SC_OPEN_MAX) : 1024;
	for (int i = 0; i < spec->nprocs; i++) {
		st.children[i] = (struct child){ .pid = -1, .ready_fd = -1, .exec_fd = -1 };
		st.pus[i] = spec->procs[i].pu;
	}
	enum trial_outcome outcome = TRIAL_COMPLETED;
	if (start_processes(&st) != 0) {
		outcome = system_error(&st);
	} else if (!await_ready(&st)) {
		abandon_unbound(&st);
	} else {
		if (spec->nprocs > 1)
			release(&st); /* a process alone started at once: start_alone */
		outcome = wait_children(&st, interrupt_signal);
		collect_exec_failures(&st);
		if (outcome == TRIAL_COMPLETED) {
			out->overlap = overlap_of(&st);
			measure_foreign(&st);
		}
	}
	int saved_errno = errno;
	out->leftovers = sweep_leftovers(&st);
	errno = saved_errno;
	return outcome;
}
