#include "topology/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "topology/error.h"

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

char *fileio_read_all(const char *path, size_t *len_out, char *err, size_t err_size)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		set_error(err, err_size, "cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	char *content = NULL;
	size_t len = 0, cap = 0;
	char buf[8192];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
		if (len + n + 1 > cap) {
			size_t new_cap = (len + n + 1) * 2;
			char *grown = realloc(content, new_cap);
			if (!grown) {
				free(content);
				fclose(f);
				set_error(err, err_size, "cannot read %s: out of memory", path);
				return NULL;
			}
			content = grown;
			cap = new_cap;
		}
		memcpy(content + len, buf, n);
		len += n;
	}
	int failed = ferror(f), saved = errno;
	fclose(f);
	if (failed) {
		set_error(err, err_size, "cannot read %s: %s", path, strerror(saved));
		free(content);
		return NULL;
	}
	if (!content && !(content = malloc(1))) {
		set_error(err, err_size, "cannot read %s: out of memory", path);
		return NULL;
	}
	content[len] = '\0';
	if (len_out)
		*len_out = len;
	return content;
}

int fileio_fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = fsync(fd);
	int saved = errno;
	close(fd);
	errno = saved;
	return rc;
}

/* The temporary file: written whole, fsync'd and closed; removed on any failure. */
static int write_temp(const char *tmp, const void *data, size_t len, char *err, size_t err_size)
{
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0) {
		set_error(err, err_size, "cannot create %s: %s", tmp, strerror(errno));
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
		set_error(err, err_size, "cannot %s %s: %s", step, tmp, strerror(saved));
		unlink(tmp);
	}
	return rc;
}

int fileio_write_atomic(const char *dir, const char *name, const void *data, size_t len,
                        char *err, size_t err_size)
{
	size_t path_len = strlen(dir) + strlen(name) + 48;
	char *path = malloc(path_len), *tmp = malloc(path_len);
	int rc = -1;
	if (!path || !tmp) {
		set_error(err, err_size, "cannot write %s/%s: out of memory", dir, name);
		goto out;
	}
	snprintf(path, path_len, "%s/%s", dir, name);
	snprintf(tmp, path_len, "%s/.%s.tmp.%ld", dir, name, (long)getpid());
	if (write_temp(tmp, data, len, err, err_size) != 0)
		goto out;
	if (rename(tmp, path) != 0) {
		set_error(err, err_size, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
		unlink(tmp);
		goto out;
	}
	if (fileio_fsync_dir(dir) != 0) {
		set_error(err, err_size, "cannot fsync folder %s after writing %s: %s", dir, name,
		          strerror(errno));
		goto out;
	}
	rc = 0;
out:
	free(path);
	free(tmp);
	return rc;
}
