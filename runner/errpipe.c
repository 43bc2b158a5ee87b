#include "runner/errpipe.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "common/fileio.h"

/* One read moves at most CHUNK_BYTES, one splice PIPE_BYTES; a drain call at most
 * DRAIN_MAX_BYTES. */
#define CHUNK_BYTES (64 * 1024)
#define PIPE_BYTES (1024 * 1024)
#define DRAIN_MAX_BYTES (4 * PIPE_BYTES)

int errpipe_open(struct errpipe *p, int log_fd, long long budget)
{
	*p = (struct errpipe){ .read_fd = -1, .write_fd = -1, .log_fd = log_fd, .null_fd = -1,
	                       .budget = budget > 0 ? budget : 0 };
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) != 0)
		return -1;
	/* Only the runner's end is non-blocking: a workload's write waits for room, as it would
	 * on a slow disk, and never fails with EAGAIN. */
	if (fcntl(fds[0], F_SETFL, O_NONBLOCK) != 0) {
		int saved_errno = errno;
		close(fds[0]), close(fds[1]);
		errno = saved_errno;
		return -1;
	}
	/* A larger pipe where the system allows (1 MiB is pipe-max-size's default): a workload
	 * that writes a lot wakes the runner once per MiB instead of once per 64 KiB. */
	fcntl(fds[1], F_SETPIPE_SZ, PIPE_BYTES);
	p->read_fd = fds[0];
	p->write_fd = fds[1];
	return 0;
}

void errpipe_started(struct errpipe *p)
{
	if (p->write_fd >= 0)
		close(p->write_fd);
	p->write_fd = -1;
}

/* Bytes past the budget: spliced to /dev/null (no copy), read and dropped where splice cannot.
 * Returns what was moved, 0 at EOF, -1 with errno (EAGAIN: empty). */
static ssize_t discard_some(struct errpipe *p)
{
	if (p->null_fd < 0)
		p->null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (p->null_fd >= 0) {
		ssize_t n = splice(p->read_fd, NULL, p->null_fd, NULL, PIPE_BYTES, SPLICE_F_NONBLOCK);
		if (n >= 0 || errno == EAGAIN || errno == EINTR)
			return n;
	}
	char buf[CHUNK_BYTES];
	return read(p->read_fd, buf, sizeof buf);
}

/* Bytes within the budget: into the log. Same returns as discard_some. */
static ssize_t log_some(struct errpipe *p)
{
	char buf[CHUNK_BYTES];
	size_t want = p->budget < (long long)sizeof buf ? (size_t)p->budget : sizeof buf;
	ssize_t n = read(p->read_fd, buf, want);
	if (n <= 0)
		return n;
	if (fileio_write_all(p->log_fd, buf, (size_t)n) != 0) {
		p->budget = 0; /* a log that cannot be written (disk full) takes nothing more */
		p->discarded += n;
		return n;
	}
	p->budget -= n;
	p->logged += n;
	return n;
}

/* Moves up to DRAIN_MAX_BYTES; stops when the pipe is empty or at EOF (read end closed). */
void errpipe_drain(struct errpipe *p)
{
	long long moved = 0;
	while (p->read_fd >= 0 && moved < DRAIN_MAX_BYTES) {
		bool to_log = p->budget > 0;
		ssize_t n = to_log ? log_some(p) : discard_some(p);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) { /* EOF, or an error that reading again would repeat */
			close(p->read_fd);
			p->read_fd = -1;
			return;
		}
		if (!to_log)
			p->discarded += n;
		moved += n;
	}
}

void errpipe_close(struct errpipe *p)
{
	errpipe_drain(p);
	errpipe_started(p);
	if (p->read_fd >= 0)
		close(p->read_fd);
	if (p->null_fd >= 0)
		close(p->null_fd);
	p->read_fd = p->null_fd = -1;
}
