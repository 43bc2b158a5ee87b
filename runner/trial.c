#include "runner/trial.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runner/util.h"
#include "topology/fileio.h"

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

static void stop_signal_set(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

void trial_block_signals(sigset_t *old)
{
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

/*
 * The child's side, between fork and exec. Only async-signal-safe calls: the parent may be
 * multi-threaded in some future, and the sanitizers' runtimes are not fork-safe either.
 */
static void __attribute__((noreturn))
run_child(const struct trial_spec *spec, int index, const cpu_set_t *mask, pid_t parent,
          int ready_fd, int go_fd, int exec_fd)
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

	int devnull = open("/dev/null", O_RDWR);
	if (devnull >= 0) {
		dup2(devnull, STDIN_FILENO);
		dup2(devnull, STDOUT_FILENO);
		if (devnull > STDERR_FILENO)
			close(devnull);
	}
	if (spec->stderr_fd >= 0)
		dup2(spec->stderr_fd, STDERR_FILENO);
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
			out->procs[i].status = "killed";
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

static void record_exit(struct proc_result *r, int status, const struct rusage *ru)
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
	if (r->status && strcmp(r->status, "ok") != 0)
		return;
	if (WIFEXITED(status)) {
		if (r->exit_code == 0) {
			r->status = "ok";
		} else if (r->exit_code == KERNEL_EXIT_UNSUPPORTED) {
			r->status = "unsupported";
			snprintf(r->error, sizeof r->error, "exited with status %d: not supported on this CPU",
			         r->exit_code);
		} else {
			r->status = "exit";
			snprintf(r->error, sizeof r->error, "exited with status %d", r->exit_code);
		}
	} else if (WIFSIGNALED(status)) {
		r->status = "signal";
		snprintf(r->error, sizeof r->error, "killed by signal %d (%s)", r->signal,
		         strsignal(r->signal));
	}
}

static void init_result(const struct trial_spec *spec, struct trial_result *out)
{
	memset(out, 0, sizeof *out);
	out->nprocs = spec->nprocs;
	out->freq_mhz = NAN;
	out->loadavg_1m = read_loadavg_1m();
	for (int i = 0; i < spec->nprocs; i++) {
		out->procs[i].pu = -1;
		out->procs[i].exit_code = -1;
		out->procs[i].status = NULL;
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

/* Forks every child; each binds itself and waits at the barrier. -1 (errno) when a pipe or a
 * fork fails; the caller then calls system_error. */
static int start_children(struct trial_state *st)
{
	const struct trial_spec *spec = st->spec;
	pid_t parent = getpid();
	for (int i = 0; i < spec->nprocs; i++) {
		cpu_set_t mask;
		CPU_ZERO(&mask);
		CPU_SET(spec->procs[i].pu, &mask);
		int ready[2], exec_pipe[2];
		if (pipe2(ready, O_CLOEXEC) != 0)
			return -1;
		if (pipe2(exec_pipe, O_CLOEXEC) != 0) {
			close(ready[0]), close(ready[1]);
			return -1;
		}
		pid_t pid = fork();
		if (pid < 0) {
			close(ready[0]), close(ready[1]), close(exec_pipe[0]), close(exec_pipe[1]);
			return -1;
		}
		if (pid == 0) {
			/* The barrier works only if no child holds the write end of the go pipe. */
			close(st->go[1]);
			close(ready[0]);
			close(exec_pipe[0]);
			for (int j = 0; j < i; j++) {
				close(st->children[j].ready_fd);
				close(st->children[j].exec_fd);
			}
			run_child(spec, i, &mask, parent, ready[1], st->go[0], exec_pipe[1]);
		}
		setpgid(pid, pid); /* also done by the child: whichever runs first wins the race */
		st->children[i].pid = pid;
		st->children[i].ready_fd = ready[0];
		st->children[i].exec_fd = exec_pipe[0];
		close(ready[1]);
		close(exec_pipe[1]);
	}
	close_fd(&st->go[0]);
	return 0;
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
	cpu_set_t mask;
	CPU_ZERO(&mask);
	CPU_SET(spec->procs[0].pu, &mask);
	int ready[2], exec_pipe[2];
	if (pipe2(ready, O_CLOEXEC) != 0)
		return -1;
	if (pipe2(exec_pipe, O_CLOEXEC) != 0) {
		close(ready[0]), close(ready[1]);
		return -1;
	}
	pid_t parent = getpid();
	st->release_s = trial_now_s();
	pid_t pid = vfork();
	if (pid == 0)
		run_child(spec, 0, &mask, parent, ready[1], -1, exec_pipe[1]);
	int saved_errno = errno;
	close(ready[1]);
	close(exec_pipe[1]);
	if (pid < 0) {
		close(ready[0]), close(exec_pipe[0]);
		errno = saved_errno;
		return -1;
	}
	st->children[0].pid = pid;
	st->children[0].ready_fd = ready[0];
	st->children[0].exec_fd = exec_pipe[0];
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
			r->status = "bind-failed";
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
		r->status = "bind-failed";
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
		if (!r->status) {
			r->status = "bind-failed";
			snprintf(r->error, sizeof r->error, "not started: its partner failed to bind");
		}
		close_fd(&st->children[i].exec_fd);
	}
}

/* Opens the barrier. Whether each exec worked is read after the children end (see
 * collect_exec_failures): waiting for it here would cost the trial one more wake-up. */
static void release(struct trial_state *st)
{
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
			r->status = "exec-failed";
			snprintf(r->error, sizeof r->error, "cannot execute %s: %s",
			         st->spec->procs[i].path, strerror(err));
		}
		close_fd(&st->children[i].exec_fd);
	}
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
		double now = trial_now_s();
		c->reaped = true;
		c->end_s = now;
		reaped++;
		struct proc_result *r = &st->out->procs[i];
		record_exit(r, status, &ru);
		r->start_s = st->release_s - st->spec->run_origin_s;
		r->end_s = now - st->spec->run_origin_s;
		r->wall_s = now - st->release_s;
	}
	return reaped;
}

/* Waits for every child (SIGCHLD, or a wake-up every WAKE_INTERVAL_NS); a stop signal kills
 * them all and ends the trial as interrupted. */
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

enum trial_outcome trial_run(const struct trial_spec *spec, struct trial_result *out,
                             int *interrupt_signal)
{
	struct trial_state st = { .spec = spec, .out = out, .go = { -1, -1 } };
	init_result(spec, out);
	for (int i = 0; i < spec->nprocs; i++)
		st.children[i] = (struct child){ .pid = -1, .ready_fd = -1, .exec_fd = -1 };
	if (spec->nprocs == 1) {
		if (start_alone(&st) != 0)
			return system_error(&st);
	} else {
		if (pipe2(st.go, O_CLOEXEC) != 0)
			return TRIAL_SYSTEM_ERROR;
		if (start_children(&st) != 0)
			return system_error(&st);
	}
	if (!await_ready(&st)) {
		abandon_unbound(&st);
		return TRIAL_COMPLETED;
	}
	if (spec->nprocs > 1)
		release(&st);
	enum trial_outcome outcome = wait_children(&st, interrupt_signal);
	collect_exec_failures(&st);
	if (outcome == TRIAL_COMPLETED)
		out->overlap = overlap_of(&st);
	return outcome;
}
