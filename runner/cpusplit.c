#include "runner/cpusplit.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/fileio.h"

/* One task-clock event of the calling process on cpu: with inherit, of everything it starts
 * from now on too. Counting from the start (an event made disabled with enable_on_exec counted
 * nothing in the children on a 6.18 kernel: measured). exclude_kernel is what
 * perf_event_paranoid 2 asks of a user; the task clock counts system time all the same. */
static int open_task_clock(int cpu, bool inherit)
{
	struct perf_event_attr attr;
	memset(&attr, 0, sizeof attr);
	attr.size = sizeof attr;
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.inherit = inherit;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &attr, 0, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static int read_count(int fd, unsigned long long *out)
{
	uint64_t value;
	ssize_t got;
	while ((got = read(fd, &value, sizeof value)) < 0 && errno == EINTR)
		;
	if (got != (ssize_t)sizeof value) {
		if (got >= 0)
			errno = EIO;
		return -1;
	}
	*out = value;
	return 0;
}

void cpusplit_stop(struct cpusplit *s)
{
	for (int k = 0; k < s->ncpus; k++) {
		if (s->tree_fd[k] >= 0)
			close(s->tree_fd[k]);
		if (s->self_fd[k] >= 0)
			close(s->self_fd[k]);
		s->tree_fd[k] = s->self_fd[k] = -1;
	}
	s->ncpus = 0;
}

int cpusplit_start(struct cpusplit *s, const int *cpus, int ncpus)
{
	memset(s, 0, sizeof *s);
	for (int k = 0; k < ncpus; k++) {
		s->ncpus = k + 1; /* the CPUs cpusplit_stop closes, should this one fail */
		s->cpus[k] = cpus[k];
		s->tree_fd[k] = open_task_clock(cpus[k], true);
		s->self_fd[k] = s->tree_fd[k] >= 0 ? open_task_clock(cpus[k], false) : -1;
		if (s->self_fd[k] < 0 || read_count(s->tree_fd[k], &s->tree_base[k]) != 0
		    || read_count(s->self_fd[k], &s->self_base[k]) != 0) {
			int saved_errno = errno;
			cpusplit_stop(s);
			errno = saved_errno;
			return -1;
		}
	}
	return 0;
}

int cpusplit_finish(struct cpusplit *s, double seconds[CPUSPLIT_MAX_CPUS])
{
	int rc = s->ncpus > 0 ? 0 : -1;
	for (int k = 0; k < s->ncpus; k++) {
		unsigned long long tree, self;
		if (read_count(s->tree_fd[k], &tree) != 0 || read_count(s->self_fd[k], &self) != 0) {
			rc = -1;
			break;
		}
		/* The runner's own time is in both counts; the rest is its children's. */
		long long children = (long long)(tree - s->tree_base[k]) - (long long)(self - s->self_base[k]);
		seconds[k] = children > 0 ? (double)children * 1e-9 : 0;
	}
	cpusplit_stop(s);
	return rc;
}

/* kernel.perf_event_paranoid, or -99 when it cannot be read. */
static int perf_paranoid(void)
{
	char text[32];
	int level;
	return fileio_read_first_line("/proc/sys/kernel/perf_event_paranoid", text, sizeof text) == 0
	       && sscanf(text, "%d", &level) == 1 ? level : -99;
}

bool cpusplit_available(char *why, size_t why_size)
{
	int cpu = sched_getcpu();
	int fd = open_task_clock(cpu >= 0 ? cpu : 0, true);
	if (fd >= 0) {
		close(fd);
		return true;
	}
	int err = errno, paranoid = perf_paranoid();
	if ((err == EACCES || err == EPERM) && paranoid > 2)
		snprintf(why, why_size, "perf_event_open: %s (kernel.perf_event_paranoid is %d; "
		         "as root, or with it at 2 or below, it is measured)", strerror(err), paranoid);
	else if (err == EACCES || err == EPERM)
		snprintf(why, why_size, "perf_event_open: %s (a seccomp filter, such as a "
		         "container's, may block it)", strerror(err));
	else if (err == ENOSYS || err == ENOENT || err == ENODEV)
		snprintf(why, why_size, "perf_event_open: %s (this kernel has no perf events)",
		         strerror(err));
	else
		snprintf(why, why_size, "perf_event_open: %s", strerror(err));
	return false;
}
