/*
 * test_fileio.c — the shared I/O helpers (common/fileio.h) and set_error (common/error.h):
 * the one atomic write (content, no temporary left, errors named), whole reads and writes
 * through a pipe, the first line of a file, a whole file into memory; temporary names that never
 * collide, within a process or between two threads writing at once.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/harness.h"
#include "common/error.h"
#include "common/fileio.h"

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;
	if (!d)
		return -1;
	for (struct dirent *e; (e = readdir(d));)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void test_atomic_write(const char *dir)
{
	char err[ERR_LEN] = "";
	CHECK(fileio_write_atomic(dir, "a.txt", "first\n", 6, err, sizeof err) == 0,
	      "write_atomic a new file (%s)", err);
	CHECK(fileio_write_atomic(dir, "a.txt", "second\n", 7, err, sizeof err) == 0,
	      "write_atomic over an existing file (%s)", err);
	char path[600];
	snprintf(path, sizeof path, "%s/a.txt", dir);
	size_t len = 0;
	char *got = fileio_read_all(path, &len, err, sizeof err);
	CHECK(got && !strcmp(got, "second\n"), "read_all reads what write_atomic wrote last");
	CHECK_INT(len, 7, "read_all's length");
	free(got);
	CHECK_INT(count_entries(dir), 1, "no temporary file is left beside it");

	char missing[600];
	snprintf(missing, sizeof missing, "%s/no-such-folder", dir);
	err[0] = '\0';
	CHECK(fileio_write_atomic(missing, "b.txt", "x", 1, err, sizeof err) == -1,
	      "write_atomic into a missing folder fails");
	CHECK(strstr(err, "no-such-folder") && strstr(err, "b.txt") && strstr(err, strerror(ENOENT)),
	      "its error names the file and the reason: \"%s\"", err);

	/* A read-only folder (unless root, who may write anyway): the failure is reported. */
	if (geteuid() != 0) {
		chmod(dir, 0555);
		CHECK(fileio_write_atomic(dir, "c.txt", "x", 1, err, sizeof err) == -1 &&
		      strstr(err, "c.txt"), "write_atomic in a read-only folder: \"%s\"", err);
		chmod(dir, 0755);
	} else {
		test_skip("running as root: a read-only folder does not stop root");
	}

	got = fileio_read_all(missing, NULL, err, sizeof err);
	CHECK(got == NULL && strstr(err, "cannot open") && strstr(err, "no-such-folder"),
	      "read_all of a missing file: \"%s\"", err);
	snprintf(path, sizeof path, "%s/a.txt", dir);
	unlink(path);
}

/* Two threads of one process, each writing its own file and a shared one over and over. */
enum { WRITES_PER_THREAD = 300 };

struct writer {
	const char *dir;
	const char *own;    /* this thread's file */
	const char *text;   /* what it writes, to its own file and to shared.txt */
	int failures;
	char err[ERR_LEN];
};

static void *write_many(void *arg)
{
	struct writer *w = arg;
	for (int i = 0; i < WRITES_PER_THREAD; i++) {
		const char *name = i % 2 ? "shared.txt" : w->own;
		char err[ERR_LEN];
		if (fileio_write_atomic(w->dir, name, w->text, strlen(w->text), err, sizeof err) != 0) {
			if (!w->failures++)
				snprintf(w->err, sizeof w->err, "%s", err);
		}
	}
	return NULL;
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Reads every IN_CREATE name the watch saw into names (up to cap); the count, or -1. */
static int created_names(int ifd, char **names, int cap)
{
	char buf[1 << 16] __attribute__((aligned(__alignof__(struct inotify_event))));
	int n = 0;
	for (;;) {
		ssize_t got = read(ifd, buf, sizeof buf);
		if (got < 0 && errno == EAGAIN)
			return n;
		if (got <= 0)
			return -1;
		for (char *p = buf; p < buf + got;) {
			struct inotify_event *ev = (struct inotify_event *)p;
			if (ev->mask & IN_Q_OVERFLOW)
				return -1;
			if ((ev->mask & IN_CREATE) && n < cap)
				names[n++] = strdup(ev->name);
			p += sizeof *ev + ev->len;
		}
	}
}

/* Every temporary file the writes create has a name never used before in this process, hidden
 * (`fleet` skips hidden entries) and holding ".tmp.": ".NAME.tmp.". The watch sees each
 * creation, so a name drawn again after its first file was renamed away shows twice. */
static void test_temp_names_unique(const char *dir)
{
	int ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (!CHECK(ifd >= 0 && inotify_add_watch(ifd, dir, IN_CREATE) >= 0,
	           "an inotify watch on the folder"))
		return;
	char err[ERR_LEN] = "";
	CHECK(fileio_write_atomic(dir, "twice.txt", "1\n", 2, err, sizeof err) == 0 &&
	      fileio_write_atomic(dir, "twice.txt", "2\n", 2, err, sizeof err) == 0,
	      "two atomic writes of one file in one process (%s)", err);

	struct writer w[2] = {
		{ .dir = dir, .own = "one.txt", .text = "written by thread one\n" },
		{ .dir = dir, .own = "two.txt", .text = "written by thread two, a longer line\n" },
	};
	pthread_t th[2];
	int started = 0;
	for (int i = 0; i < 2; i++)
		started += pthread_create(&th[i], NULL, write_many, &w[i]) == 0;
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	CHECK_INT(started, 2, "two writer threads started");
	CHECK(w[0].failures == 0 && w[1].failures == 0,
	      "%d atomic writes from each of two threads at once all succeed (%s%s)",
	      WRITES_PER_THREAD, w[0].err, w[1].err);

	enum { CAP = 2 + 2 * WRITES_PER_THREAD + 16 };
	char *names[CAP];
	int n = created_names(ifd, names, CAP);
	close(ifd);
	int want = 2 + 2 * WRITES_PER_THREAD;
	/* The targets themselves are renamed into place, never created: only temporaries show. */
	CHECK_INT(n, want, "one temporary file created per write (the watch saw them all)");
	int pattern_ok = 0, distinct = n > 0;
	if (n > 0) {
		qsort(names, (size_t)n, sizeof *names, compare_strings);
		for (int i = 0; i < n; i++) {
			pattern_ok += names[i][0] == '.' && strstr(names[i], ".tmp.") != NULL;
			if (i > 0 && !strcmp(names[i], names[i - 1]))
				distinct = 0;
		}
	}
	CHECK(n > 0 && pattern_ok == n, "every temporary name is hidden and holds \".tmp.\" (%s)",
	      n > 0 ? names[0] : "none seen");
	CHECK(distinct, "no temporary name was used twice among %d", n);
	for (int i = 0; i < n; i++)
		free(names[i]);

	char path[600];
	snprintf(path, sizeof path, "%s/shared.txt", dir);
	char *got = fileio_read_all(path, NULL, err, sizeof err);
	CHECK(got && (!strcmp(got, w[0].text) || !strcmp(got, w[1].text)),
	      "the file both threads wrote holds one thread's text whole");
	free(got);
	CHECK_INT(count_entries(dir), 4, "no temporary file is left beside the four files");
	const char *written[] = { "twice.txt", "one.txt", "two.txt", "shared.txt" };
	for (size_t i = 0; i < sizeof written / sizeof *written; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, written[i]);
		unlink(path);
	}
}

static void test_first_line(const char *dir)
{
	char path[600], err[ERR_LEN], buf[64];
	snprintf(path, sizeof path, "%s/line", dir);
	CHECK(fileio_write_atomic(dir, "line", "on\nsecond\n", 10, err, sizeof err) == 0,
	      "a two-line file");
	CHECK(fileio_read_first_line(path, buf, sizeof buf) == 0 && !strcmp(buf, "on"),
	      "read_first_line: \"%s\"", buf);
	CHECK(fileio_write_atomic(dir, "line", "", 0, err, sizeof err) == 0, "an empty file");
	CHECK(fileio_read_first_line(path, buf, sizeof buf) == -1 && buf[0] == '\0',
	      "read_first_line of an empty file is -1 and \"\"");
	strcpy(buf, "stale");
	CHECK(fileio_read_first_line("/nonexistent/smtbench", buf, sizeof buf) == -1 &&
	      buf[0] == '\0', "read_first_line of a missing file is -1 and \"\"");
	unlink(path);
}

static void test_pipe(void)
{
	int fds[2];
	if (!CHECK(pipe(fds) == 0, "a pipe"))
		return;
	char out[3000], in[4000];
	for (size_t i = 0; i < sizeof out; i++)
		out[i] = (char)('a' + i % 26);
	CHECK(fileio_write_all(fds[1], out, sizeof out) == 0, "write_all 3000 bytes into a pipe");
	close(fds[1]);
	ssize_t got = fileio_read_full(fds[0], in, sizeof in);
	CHECK_INT(got, sizeof out, "read_full asks for more: gets what there was, at end of file");
	CHECK(memcmp(in, out, sizeof out) == 0, "the same bytes");
	close(fds[0]);
}

static void test_set_error(void)
{
	char buf[8], *err = buf;
	set_error(err, sizeof buf, "cpu %d is %s", 12, "offline");
	CHECK_STR(err, "cpu 12 ", "set_error truncates to the buffer");
	set_error(NULL, 0, "dropped %d", 1);
	set_error(err, 0, "dropped");
	CHECK_STR(err, "cpu 12 ", "a NULL or zero-sized buffer is left alone");
}

/* The one open of every reader: a regular file, and for fileio_open_readable a pipe too; a
 * device or a folder never, named; a FIFO without a writer never hangs it. */
static void test_open_kinds(const char *dir)
{
	char err[256], fifo[512];
	snprintf(fifo, sizeof fifo, "%s/fifo", dir);
	if (!CHECK(mkfifo(fifo, 0600) == 0, "a FIFO"))
		return;
	int fd = fileio_open_regular(fifo, O_RDONLY, err, sizeof err);
	CHECK(fd < 0 && strstr(err, "is a FIFO, not a regular file"), "open_regular refuses a FIFO at once: %s", err);
	fd = fileio_open_readable(fifo, err, sizeof err);
	char byte;
	CHECK(fd >= 0 && read(fd, &byte, 1) == 0, "open_readable takes a FIFO without a writer, at once, as empty");
	if (fd >= 0)
		close(fd);
	unlink(fifo);
	fd = fileio_open_readable("/dev/zero", err, sizeof err);
	CHECK(fd < 0 && strstr(err, "/dev/zero is a character device, not a regular file"),
	      "open_readable refuses /dev/zero, naming it: %s", err);
	fd = fileio_open_readable(dir, err, sizeof err);
	CHECK(fd < 0 && strstr(err, "is a folder"), "open_readable refuses a folder: %s", err);
}

/* fileio_read_line: getline's lines, and a line past its bound refused without reading it all. */
static void test_read_line(void)
{
	static const char text[] = "ab\n\ncdefgh\nlast";
	FILE *f = fmemopen((void *)text, sizeof text - 1, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t got = fileio_read_line(f, &line, &cap, 16);
	CHECK_INT(got, 3, "a line with its newline");
	CHECK_STR(line, "ab\n", "... as getline gives it");
	got = fileio_read_line(f, &line, &cap, 16);
	CHECK_INT(got, 1, "an empty line is its newline");
	got = fileio_read_line(f, &line, &cap, 7);
	CHECK_INT(got, 7, "a line of exactly max bytes is read");
	got = fileio_read_line(f, &line, &cap, 16);
	CHECK_INT(got, 4, "the last line without a newline");
	CHECK_STR(line, "last", "... whole");
	errno = EIO;
	CHECK(fileio_read_line(f, &line, &cap, 16) == -1 && errno == 0,
	      "the end of the file is -1 with errno 0, told from an error");
	fclose(f);
	/* 1 MB without a newline (as /dev/zero or a sparse file reads): stopped at the bound. */
	size_t big = 1 << 20;
	char *zeros = calloc(big, 1);
	f = zeros ? fmemopen(zeros, big, "r") : NULL;
	if (CHECK(f != NULL, "a 1 MB line in memory")) {
		got = fileio_read_line(f, &line, &cap, 100);
		CHECK_INT(got, FILEIO_LINE_TOO_LONG, "a line of more than max bytes is FILEIO_LINE_TOO_LONG");
		CHECK(cap <= 102, "... and no more than max + 2 bytes were allocated for it (%zu)", cap);
		CHECK(ftell(f) <= 101, "... nor more than max + 1 bytes read (%ld)", ftell(f));
		fclose(f);
	}
	free(zeros);
	free(line);
}

int main(void)
{
	char dir[] = "/tmp/smtbench-fileio-XXXXXX";
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_atomic_write(dir);
	test_temp_names_unique(dir);
	test_first_line(dir);
	test_pipe();
	test_read_line();
	test_open_kinds(dir);
	test_set_error();
	rmdir(dir);
	return test_done("test_fileio");
}
