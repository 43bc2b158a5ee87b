#include "common/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/alloc.h"
#include "common/error.h"

int fileio_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			errno = EIO;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

ssize_t fileio_read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;
	while (got < len) {
		ssize_t n = read(fd, (char *)buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

ssize_t fileio_read_line(FILE *f, char **line, size_t *cap, size_t max)
{
	size_t len = 0;
	int c;
	while ((c = getc_unlocked(f)) != EOF) {
		if (len == max)
			return FILEIO_LINE_TOO_LONG;
		if (len + 2 > *cap) { /* room for this byte and the NUL */
			*cap = *cap ? *cap * 2 : 256;
			if (*cap > max + 2)
				*cap = max + 2;
			*line = xrealloc(*line, *cap);
		}
		(*line)[len++] = (char)c;
		if (c == '\n')
			break;
	}
	if (len == 0) {
		if (!ferror(f))
			errno = 0; /* the end of the file, told from an error */
		return -1;
	}
	(*line)[len] = '\0';
	return (ssize_t)len;
}

int fileio_read_first_line(const char *path, char *buf, size_t len)
{
	buf[0] = '\0';
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf[0] ? 0 : -1;
}

/* What a file that is not a regular one is, for the message. */
static const char *file_kind(mode_t mode)
{
	return S_ISFIFO(mode) ? "a FIFO" : S_ISCHR(mode) ? "a character device"
	       : S_ISBLK(mode) ? "a block device" : S_ISDIR(mode) ? "a folder"
	       : S_ISSOCK(mode) ? "a socket" : "not a regular file";
}

/* The open of fileio_open_regular and fileio_open_readable: a pipe (a FIFO, a socket) is
 * refused unless pipes_too. */
static int open_checked(const char *path, int flags, bool pipes_too, char *err, size_t err_size)
{
	int fd = open(path, flags | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		set_error(err, err_size, "%s: cannot open: %s", path,
		          errno == ENXIO ? "it is a FIFO with no reader, not a regular file"
		                         : strerror(errno));
		return -1;
	}
	struct stat st;
	int fl;
	if (fstat(fd, &st) != 0)
		set_error(err, err_size, "%s: cannot read its status: %s", path, strerror(errno));
	else if (!S_ISREG(st.st_mode)
	         && !(pipes_too && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))))
		set_error(err, err_size, "%s is %s, not a regular file", path, file_kind(st.st_mode));
	else if ((fl = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
		set_error(err, err_size, "%s: cannot clear O_NONBLOCK: %s", path, strerror(errno));
	else
		return fd;
	close(fd);
	return -1;
}

int fileio_open_regular(const char *path, int flags, char *err, size_t err_size)
{
	return open_checked(path, flags, false, err, err_size);
}

int fileio_open_readable(const char *path, char *err, size_t err_size)
{
	return open_checked(path, O_RDONLY, true, err, err_size);
}

char *fileio_read_fd(int fd, const char *path, size_t max, size_t *len_out, char *err,
                     size_t err_size)
{
	struct stat st;
	size_t cap = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 65536;
	size_t len = 0;
	/* Read by size, yet bounded: the file may grow while it is read, and one byte more than
	 * max tells a file of exactly max from one past it. */
	cap = cap > max + 1 ? max + 1 : cap;
	char *content = xmalloc(cap + 1);
	ssize_t n;
	while ((n = fileio_read_full(fd, content + len, cap - len)) >= 0
	       && (len += (size_t)n) == cap && cap <= max) {
		cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
		content = xrealloc(content, cap + 1);
	}
	if (n < 0)
		set_error(err, err_size, "cannot read %s: %s", path, strerror(errno));
	else if (len > max)
		set_error(err, err_size, "%s: more than the %zu MiB this file may hold", path,
		          max >> 20);
	int saved_errno = n < 0 ? errno : EFBIG;
	close(fd);
	if (n < 0 || len > max) {
		free(content);
		errno = saved_errno;
		return NULL;
	}
	content[len] = '\0';
	if (len_out)
		*len_out = len;
	return content;
}

char *fileio_read_all(const char *path, size_t *len_out, char *err, size_t err_size)
{
	int fd = fileio_open_regular(path, O_RDONLY, err, err_size);
	return fd < 0 ? NULL : fileio_read_fd(fd, path, FILEIO_READ_ALL_MAX, len_out, err, err_size);
}

/* 64 bits for a temporary file's name, from the kernel, so that no counter or state of ours is
 * needed and two threads or processes draw different names. Uniqueness, not secrecy, is asked
 * (O_EXCL is the safety), so GRND_INSECURE: it never blocks, even early in boot before the pool
 * is ready; a kernel older than 5.6 refuses that flag and gets the plain call. 0, or -1 with
 * errno. */
static int random_bits(uint64_t *out)
{
	unsigned flags = GRND_INSECURE;
	ssize_t n;
	while ((n = getrandom(out, sizeof *out, flags)) != (ssize_t)sizeof *out)
		if (n < 0 && errno == EINVAL && flags != 0)
			flags = 0;
		else if (n < 0 && errno != EINTR)
			return -1;
	return 0;
}

/* A name for the temporary file beside NAME that no one else uses: ".NAME.tmp.PID.R", R 16 hex
 * digits of random bits, created with O_EXCL so that an existing file (or a planted symlink) is
 * never reused. The descriptor, or -1 with errno. */
static int create_temp(int dirfd, const char *name, char *tmp, size_t tmp_len)
{
	for (int attempt = 0; attempt < 100; attempt++) {
		uint64_t bits;
		if (random_bits(&bits) != 0)
			return -1;
		snprintf(tmp, tmp_len, ".%s.tmp.%ld.%016" PRIx64, name, (long)getpid(), bits);
		int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		                0666);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	errno = EEXIST;
	return -1;
}

/* The temporary file: written whole, fsync'd and closed; removed on any failure. */
static int write_temp(int dirfd, const char *dir, const char *name, char *tmp, size_t tmp_len,
                      const void *data, size_t len, char *err, size_t err_size)
{
	int fd = create_temp(dirfd, name, tmp, tmp_len);
	if (fd < 0) {
		set_error(err, err_size, "cannot create a temporary file for %s/%s: %s", dir, name,
		          strerror(errno));
		return -1;
	}
	const char *step = "write";
	int rc = fileio_write_all(fd, data, len);
	if (rc == 0 && (rc = fsync(fd)) != 0)
		step = "fsync";
	int saved = errno;
	if (close(fd) != 0 && rc == 0) {
		rc = -1;
		step = "close";
		saved = errno;
	}
	if (rc != 0) {
		set_error(err, err_size, "cannot %s %s/%s: %s", step, dir, tmp, strerror(saved));
		unlinkat(dirfd, tmp, 0);
	}
	return rc;
}

/* Relative to the open folder (openat/renameat): the folder cannot be swapped under it. */
int fileio_write_atomic(const char *dir, const char *name, const void *data, size_t len,
                        char *err, size_t err_size)
{
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		set_error(err, err_size, "cannot open folder %s to write %s: %s", dir, name,
		          strerror(errno));
		return -1;
	}
	size_t tmp_len = strlen(name) + 64;
	char *tmp = xmalloc(tmp_len);
	int rc = -1;
	if (!*name || strchr(name, '/')) {
		set_error(err, err_size, "cannot write '%s' in %s: not a plain file name", name, dir);
		goto out;
	}
	if (write_temp(dirfd, dir, name, tmp, tmp_len, data, len, err, err_size) != 0)
		goto out;
	if (renameat(dirfd, tmp, dirfd, name) != 0) {
		set_error(err, err_size, "cannot rename %s/%s to %s: %s", dir, tmp, name,
		          strerror(errno));
		unlinkat(dirfd, tmp, 0);
		goto out;
	}
	if (fsync(dirfd) != 0) {
		set_error(err, err_size, "cannot fsync folder %s after writing %s: %s", dir, name,
		          strerror(errno));
		goto out;
	}
	rc = 0;
out:
	free(tmp);
	close(dirfd);
	return rc;
}

int fileio_check_parent(const char *path, char *err, size_t err_size)
{
	/* dirname(3) may write into its argument: a copy, trailing slashes dropped ("x/" is x). */
	char *copy = xstrdup(path);
	for (size_t n = strlen(copy); n > 1 && copy[n - 1] == '/'; n--)
		copy[n - 1] = '\0';
	char *slash = strrchr(copy, '/');
	const char *parent = !slash ? "." : slash == copy ? "/" : (*slash = '\0', copy);
	struct stat st;
	bool found = stat(parent, &st) == 0, folder = found && S_ISDIR(st.st_mode);
	if (!found && errno == ENOENT)
		set_error(err, err_size, "the folder %s, where %s would go, does not exist; make it "
		          "first (mkdir -p %s) or choose another", parent, path, parent);
	else if (!found)
		set_error(err, err_size, "cannot reach %s, where %s would go: %s", parent, path,
		          strerror(errno));
	else if (!folder)
		set_error(err, err_size, "%s, where %s would go, is not a folder", parent, path);
	free(copy);
	return folder ? 0 : -1;
}
