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

	/* The barrier: read returns 0 when the parent closes the last write end. */
	char c;
	while (read(go_fd, &c, 1) < 0 && errno == EINTR)
		;
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

static double read_loadavg_1m(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double load = NAN;
	if (f) {
		if (fscanf(f, "%lf", &load) != 1)
			load = NAN;
		fclose(f);
	}
	return load;
}

static double read_cur_freq_mhz(int pu)
{
	char path[96];
	snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", pu);
	FILE *f = fopen(path, "r");
	if (!f)
		return NAN;
	double khz = NAN;
	if (fscanf(f, "%lf", &khz) != 1)
		khz = NAN;
	fclose(f);
	return khz / 1000.0;
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
	if (r->status && strcmp(r->status, "ok") != 0)
		return; /* exec-failed already said why */
	if (WIFEXITED(status)) {
		r->exit_code = WEXITSTATUS(status);
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
		r->signal = WTERMSIG(status);
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

enum trial_outcome trial_run(const struct trial_spec *spec, struct trial_result *out,
                             int *interrupt_signal)
{
	struct child children[TRIAL_MAX_PROCS];
	cpu_set_t masks[TRIAL_MAX_PROCS];
	int go[2] = { -1, -1 };
	enum trial_outcome outcome = TRIAL_COMPLETED;
	int saved_errno = 0;

	init_result(spec, out);
	for (int i = 0; i < spec->nprocs; i++) {
		children[i] = (struct child){ .pid = -1, .ready_fd = -1, .exec_fd = -1 };
		CPU_ZERO(&masks[i]);
		CPU_SET(spec->procs[i].pu, &masks[i]);
	}
	if (pipe2(go, O_CLOEXEC) != 0)
		return TRIAL_SYSTEM_ERROR;

	pid_t parent = getpid();
	for (int i = 0; i < spec->nprocs; i++) {
		int ready[2], exec_pipe[2];
		if (pipe2(ready, O_CLOEXEC) != 0)
			goto system_error;
		if (pipe2(exec_pipe, O_CLOEXEC) != 0) {
			close(ready[0]), close(ready[1]);
			goto system_error;
		}
		pid_t pid = fork();
		if (pid < 0) {
			close(ready[0]), close(ready[1]), close(exec_pipe[0]), close(exec_pipe[1]);
			goto system_error;
		}
		if (pid == 0) {
			/* The barrier works only if no child holds the write end of the go pipe. */
			close(go[1]);
			close(ready[0]);
			close(exec_pipe[0]);
			for (int j = 0; j < i; j++) {
				close(children[j].ready_fd);
				close(children[j].exec_fd);
			}
			run_child(spec, i, &masks[i], parent, ready[1], go[0], exec_pipe[1]);
		}
		setpgid(pid, pid); /* also done by the child: whichever runs first wins the race */
		children[i].pid = pid;
		children[i].ready_fd = ready[0];
		children[i].exec_fd = exec_pipe[0];
		close(ready[1]);
		close(exec_pipe[1]);
	}
	close_fd(&go[0]);

	/* Wait until every child is bound and waiting at the barrier. */
	bool all_ready = true;
	for (int i = 0; i < spec->nprocs; i++) {
		char msg[1 + sizeof(int)];
		int err = 0;
		struct proc_result *r = &out->procs[i];
		if (fileio_read_full(children[i].ready_fd, msg, sizeof msg) != (ssize_t)sizeof msg) {
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
	for (int i = 0; i < spec->nprocs; i++)
		close_fd(&children[i].ready_fd);
	if (!all_ready) {
		/* Nobody may run alone when the trial asked for company: kill the rest while they
		 * still wait at the barrier, and only then close it. */
		kill_and_reap_all(children, spec->nprocs, NULL);
		close_fd(&go[1]);
		for (int i = 0; i < spec->nprocs; i++) {
			if (!out->procs[i].status) {
				out->procs[i].status = "bind-failed";
				snprintf(out->procs[i].error, sizeof out->procs[i].error,
				         "not started: its partner failed to bind");
			}
			close_fd(&children[i].exec_fd);
		}
		return TRIAL_COMPLETED;
	}

	/* Release everyone at once. */
	double release_s = trial_now_s();
	close_fd(&go[1]);

	for (int i = 0; i < spec->nprocs; i++) {
		int err;
		if (fileio_read_full(children[i].exec_fd, &err, sizeof err) == (ssize_t)sizeof err) {
			out->procs[i].status = "exec-failed";
			snprintf(out->procs[i].error, sizeof out->procs[i].error, "cannot execute %s: %s",
			         spec->procs[i].path, strerror(err));
		}
		close_fd(&children[i].exec_fd);
	}

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
			saved_errno = errno;
			outcome = TRIAL_SYSTEM_ERROR;
			kill_and_reap_all(children, spec->nprocs, out);
			break;
		}
		if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
			*interrupt_signal = sig;
			outcome = TRIAL_INTERRUPTED;
			kill_and_reap_all(children, spec->nprocs, out);
			break;
		}
		if (!frequency_sampled && remaining == spec->nprocs) {
			sample_frequency(spec, out);
			frequency_sampled = true;
		}
		for (int i = 0; i < spec->nprocs; i++) {
			if (children[i].reaped)
				continue;
			int status;
			struct rusage ru;
			pid_t got = wait4(children[i].pid, &status, WNOHANG, &ru);
			if (got != children[i].pid)
				continue;
			double now = trial_now_s();
			children[i].reaped = true;
			children[i].end_s = now;
			remaining--;
			struct proc_result *r = &out->procs[i];
			record_exit(r, status, &ru);
			r->start_s = release_s - spec->run_origin_s;
			r->end_s = now - spec->run_origin_s;
			r->wall_s = now - release_s;
		}
	}
	if (outcome != TRIAL_COMPLETED) {
		if (outcome == TRIAL_SYSTEM_ERROR)
			errno = saved_errno;
		return outcome;
	}

	double first_end = INFINITY, last_end = 0;
	for (int i = 0; i < spec->nprocs; i++) {
		if (children[i].end_s < first_end)
			first_end = children[i].end_s;
		if (children[i].end_s > last_end)
			last_end = children[i].end_s;
	}
	out->overlap = last_end > release_s ? (first_end - release_s) / (last_end - release_s) : 1.0;
	return TRIAL_COMPLETED;

system_error:
	saved_errno = errno;
	close_fd(&go[0]);
	close_fd(&go[1]);
	kill_and_reap_all(children, spec->nprocs, NULL);
	for (int i = 0; i < spec->nprocs; i++) {
		close_fd(&children[i].ready_fd);
		close_fd(&children[i].exec_fd);
	}
	errno = saved_errno;
	return TRIAL_SYSTEM_ERROR;
}
