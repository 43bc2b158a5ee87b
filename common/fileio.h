/*
 * fileio.h — the small I/O helpers every module shares: whole writes and reads that survive
 * EINTR, the first line of a /sys or /proc file, a whole file into memory, and the one atomic
 * file write (nothing written is ever half-made).
 *
 * Nothing here prints; errors follow common/error.h; out of memory exits (common/alloc.h).
 */
#ifndef SMTBENCH_COMMON_FILEIO_H
#define SMTBENCH_COMMON_FILEIO_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* Writes all len bytes of buf to fd, retrying short writes and EINTR. 0, or -1 with errno set. */
int fileio_write_all(int fd, const void *buf, size_t len);

/* Reads up to len bytes, retrying short reads and EINTR until len bytes or end of file. The
 * number of bytes read (less than len only at end of file), or -1 with errno set. */
ssize_t fileio_read_full(int fd, void *buf, size_t len);

/* What fileio_read_line returns for a line longer than its max. */
#define FILEIO_LINE_TOO_LONG (-2)

/* Like getline(3) (the line with its newline into *line, grown as needed, *line the caller's
 * to free; its length), but bounded: a line of more than max bytes, its newline counted, is not
 * read further and gives FILEIO_LINE_TOO_LONG, so that a file of one endless line (a sparse
 * file of NULs) cannot fill the memory. -1 at the end of the file with errno 0, or on a read
 * error with errno set. */
ssize_t fileio_read_line(FILE *f, char **line, size_t *cap, size_t max);

/* Whether the folder that would hold path (its parent) exists and is a folder: 0, else -1 with
 * the reason in err, naming that parent and what to do ("the folder /a/b, where /a/b/c would
 * go, does not exist; make it first (mkdir -p /a/b) or choose another"). The one check of every
 * --out that a command makes (run, matrix, report): none of them makes missing parents. */
int fileio_check_parent(const char *path, char *err, size_t err_size);

/* The first line of a small file (a /sys or /proc fact), without its newline, into buf.
 * 0, or -1 when the file is unreadable or that line is empty; buf is then "". */
int fileio_read_first_line(const char *path, char *buf, size_t len);

/*
 * Opens path with flags (O_RDONLY or O_WRONLY | O_APPEND, ...; O_CLOEXEC and O_NOCTTY added)
 * only if it is a regular file: the open itself is O_NONBLOCK, so that a FIFO cannot hang it (a
 * FIFO opened for writing with no reader fails at once), then fstat refuses anything that is
 * not a regular file (a FIFO, a device such as /dev/zero, a folder), naming it, and O_NONBLOCK
 * is cleared. The descriptor, or -1 with err ("PATH: cannot open: REASON" or "PATH is a FIFO,
 * not a regular file").
 */
int fileio_open_regular(const char *path, int flags, char *err, size_t err_size);

/* The same for reading a stream that may also be a pipe: a regular file, a FIFO or a socket
 * (`analyze <(cmd) <(cmd)`); a device (/dev/zero) or a folder is refused, named. A FIFO with no
 * writer does not hang the open: it reads as empty. The descriptor, or -1 with err. */
int fileio_open_readable(const char *path, char *err, size_t err_size);

/* The most fileio_read_all reads: meta.json and the like are kilobytes; a file past this is
 * refused rather than read until memory runs out. */
#define FILEIO_READ_ALL_MAX ((size_t)64 << 20)

/* The whole of a regular file (fileio_open_regular) of at most FILEIO_READ_ALL_MAX bytes, as a
 * NUL-terminated string the caller frees; NULL on failure (err says which file and why).
 * *len_out, when not NULL, gets its length. */
char *fileio_read_all(const char *path, size_t *len_out, char *err, size_t err_size);

/* The same from fd, which path names in messages, to its end (a pipe's too), at most max bytes:
 * more is refused (errno EFBIG), also when the file grows past max while it is read. Closes fd. */
char *fileio_read_fd(int fd, const char *path, size_t max, size_t *len_out, char *err,
                     size_t err_size);

/* Writes dir/name atomically: a temporary file beside it (".NAME.tmp.PID.R", R 16 random hex
 * digits: a name no other thread or process uses, created O_EXCL|O_NOFOLLOW so that neither an
 * old file nor a planted link is reused), written whole, fsync'd and closed, renamed over
 * dir/name, then dir fsync'd. A reader sees the old file or the new one, never a part; a crash
 * leaves at most the temporary file. Every failure, fsync's and close's included, is reported:
 * -1 with err naming the file and the reason, and the temporary file removed. Mode 0666 before
 * the umask, like any file a program creates. */
int fileio_write_atomic(const char *dir, const char *name, const void *data, size_t len,
                        char *err, size_t err_size);

#endif
