/* recwrite.c: one locked, fsync'd write(2) per append (see recwrite.h). */
#include "io/recwrite.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static int lock_fd(int fd, int op)
{
	while (flock(fd, op) != 0) {
		if (errno != EINTR)
			return -1;
	}
	return 0;
}

/* 1 when the file is non-empty and its last byte is not '\n'; 0 when it
 * ends a line or is empty; -1 on error. Called under the lock. */
static int ends_mid_line(int fd, off_t size)
{
	char c;
	if (size == 0)
		return 0;
	ssize_t n;
	do
		n = pread(fd, &c, 1, size - 1);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		return -1;
	return c != '\n';
}

/* The bytes to append to a file of size bytes open as fd: a '\n' when it
 * ends mid-line, the text, and a '\n' with RECWRITE_LINE. Returns
 * malloc'd (its length in *total), or NULL with errno set. Called under
 * the lock. */
static char *append_bytes(int fd, off_t size, const char *text, size_t len, int flags,
			  size_t *total)
{
	int mid = ends_mid_line(fd, size);
	if (mid < 0) {
		errno = EIO;
		return NULL;
	}
	*total = (size_t)mid + len + ((flags & RECWRITE_LINE) ? 1 : 0);
	char *buf = malloc(*total ? *total : 1);
	if (!buf)
		return NULL;
	size_t at = 0;
	if (mid)
		buf[at++] = '\n';
	memcpy(buf + at, text, len);
	at += len;
	if (flags & RECWRITE_LINE)
		buf[at++] = '\n';
	return buf;
}

/* Writes buf[0..total) and fsyncs, retrying EINTR. Returns 0, or the
 * errno of the failure (EIO for a write that wrote nothing). */
static int write_synced(int fd, const char *buf, size_t total)
{
	/* One write(2) normally; a short one only happens when the disk
	 * fills (or a quota, or a file size limit) mid-text: the rest is
	 * tried once more so errno tells the real reason (ENOSPC rather than
	 * a bare short count). */
	size_t off = 0;
	while (off < total) {
		ssize_t w = write(fd, buf + off, total - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? errno : EIO;
		off += (size_t)w;
	}
	while (fsync(fd) != 0) {
		if (errno != EINTR)
			return errno;
	}
	return 0;
}

int recwrite_append(const char *path, const char *text, size_t len, int flags)
{
	int fd = -1, rc = -1, saved = 0;
	char *buf = NULL;
	if ((flags & RECWRITE_LINE) && memchr(text, '\n', len)) {
		errno = EINVAL;
		return -1;
	}
	fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	struct stat st;
	if (lock_fd(fd, LOCK_EX) != 0 || fstat(fd, &st) != 0)
		goto out;
	size_t total;
	buf = append_bytes(fd, st.st_size, text, len, flags, &total);
	if (!buf)
		goto out;
	saved = write_synced(fd, buf, total);
	if (saved) {
		/* not all on disk: cut our own bytes back so no torn line stays
		 * in the file (never earlier ones) */
		if (ftruncate(fd, st.st_size) != 0) {
			/* nothing more we can do; report the write error */
		}
		errno = saved;
		goto out;
	}
	rc = 0;
out:
	saved = errno;
	free(buf);
	if (fd >= 0)
		close(fd); /* closing drops the flock */
	errno = saved;
	return rc;
}

int recwrite_lock(const char *path, int wait)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	if (lock_fd(fd, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

void recwrite_unlock(int fd)
{
	if (fd >= 0)
		close(fd);
}
