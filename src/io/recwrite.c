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
	if (lock_fd(fd, LOCK_EX) != 0)
		goto out;
	struct stat st;
	if (fstat(fd, &st) != 0)
		goto out;
	int mid = ends_mid_line(fd, st.st_size);
	if (mid < 0) {
		errno = EIO;
		goto out;
	}
	size_t total = (size_t)mid + len + ((flags & RECWRITE_LINE) ? 1 : 0);
	buf = malloc(total ? total : 1);
	if (!buf)
		goto out;
	size_t at = 0;
	if (mid)
		buf[at++] = '\n';
	memcpy(buf + at, text, len);
	at += len;
	if (flags & RECWRITE_LINE)
		buf[at++] = '\n';
	/* One write(2) normally; a short one only happens when the disk
	 * fills (or a quota, or a file size limit) mid-text: the rest is
	 * tried once more so errno tells the real reason (ENOSPC rather than
	 * a bare short count), then our own bytes are cut back so no torn
	 * line stays in the file (never earlier ones). */
	size_t off = 0;
	while (off < total) {
		ssize_t w = write(fd, buf + off, total - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			saved = w < 0 ? errno : EIO;
			goto undo;
		}
		off += (size_t)w;
	}
	while (fsync(fd) != 0) {
		if (errno != EINTR) {
			/* not on disk: take it back rather than leave it half-known */
			saved = errno;
			goto undo;
		}
	}
	rc = 0;
	goto out;
undo:
	if (ftruncate(fd, st.st_size) != 0) {
		/* nothing more we can do; report the write error */
	}
	errno = saved;
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
