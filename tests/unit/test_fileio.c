/*
 * test_fileio.c — the shared I/O helpers (topology/fileio.h) and set_error (topology/error.h):
 * the one atomic write (content, no temporary left, errors named), whole reads and writes
 * through a pipe, the first line of a file, a whole file into memory.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/harness.h"
#include "topology/error.h"
#include "topology/fileio.h"

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

int main(void)
{
	char dir[] = "/tmp/smtbench-fileio-XXXXXX";
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_atomic_write(dir);
	test_first_line(dir);
	test_pipe();
	test_set_error();
	rmdir(dir);
	return test_done("test_fileio");
}
