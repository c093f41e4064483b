/* fileops.c: see fileops.h. */
#include "io/fileops.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/sha256_file.h"

int fileops_mkdir_p(const char *path)
{
	char buf[4096];
	size_t n = strlen(path);
	if (n == 0 || n >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, n + 1);
	for (size_t i = 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		char c = buf[i];
		buf[i] = '\0';
		struct stat st;
		if (stat(buf, &st) != 0) {
			if (mkdir(buf, 0755) != 0 && errno != EEXIST)
				return -1;
		} else if (!S_ISDIR(st.st_mode)) {
			errno = ENOTDIR;
			return -1;
		}
		buf[i] = c;
	}
	return 0;
}

int fileops_is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Writes all n bytes of buf to fd (EINTR retried); 0 or -1. */
static int write_all(int fd, const char *buf, size_t n)
{
	for (size_t at = 0; at < n;) {
		ssize_t w = write(fd, buf + at, n - at);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		at += (size_t)w;
	}
	return 0;
}

int fileops_copy(const char *from, const char *to)
{
	char tmp[4200], buf[65536];
	int rc = -1, in = -1, out = -1;
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", to) >= (int)sizeof(tmp)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0)
		goto done;
	ssize_t n;
	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			goto done;
		}
		if (write_all(out, buf, (size_t)n) != 0)
			goto done;
	}
	if (fsync(out) != 0)
		goto done;
	if (close(out) != 0) {
		out = -1;
		goto done;
	}
	out = -1;
	rc = rename(tmp, to);
done:
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	if (rc) {
		int e = errno;
		unlink(tmp);
		errno = e;
	}
	return rc;
}

int fileops_same_content(const char *a, const char *b)
{
	char ha[65], hb[65];
	return sha256_file(a, ha) == 0 && sha256_file(b, hb) == 0 && strcmp(ha, hb) == 0;
}

int fileops_read_stream(FILE *f, size_t max, char **bufp, size_t *lenp, int *over)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	if (over)
		*over = 0;
	for (;;) {
		if (len >= max) {
			if (over)
				*over = fgetc(f) != EOF;
			break;
		}
		if (len + 65536 + 1 > cap) {
			size_t c = cap ? cap * 2 : 65536 * 2;
			char *b = realloc(buf, c);
			if (!b) {
				free(buf);
				errno = ENOMEM;
				return -1;
			}
			buf = b;
			cap = c;
		}
		size_t room = cap - len - 1;
		size_t got = fread(buf + len, 1, room < max - len ? room : max - len, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno;
		free(buf);
		errno = e ? e : EIO;
		return -1;
	}
	if (!buf && !(buf = malloc(1))) {
		errno = ENOMEM;
		return -1;
	}
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return 0;
}
