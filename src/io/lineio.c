/* lineio.c: bounded line reader (see lineio.h).
 *
 * Reads the stream in LINEIO_CHUNK blocks. A line wholly inside the block
 * is returned where it lies, its newline found by a 16-byte scan
 * (util/scan16.h); one that crosses a block is assembled with memchr and
 * copied once into own. The first version read a byte at a
 * time with getc_unlocked; on 50 MB of records this one is several times
 * faster (docs/benchmarks.md, "line reader"). At most limit + 1 bytes of
 * a line are kept: the extra byte tells a line that is exactly `limit`
 * bytes plus "\r" from one that is too long.
 */
#include "io/lineio.h"
#include "util/scan16.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void lineio_init(struct lineio *l, FILE *f, size_t limit)
{
	memset(l, 0, sizeof(*l));
	l->f = f;
	l->limit = limit ? limit : LINEIO_DEFAULT_LIMIT;
}

int lineio_open(struct lineio *l, const char *path, size_t limit)
{
	/* O_NONBLOCK for the open only: a FIFO with no writer (a bad input a
	 * tree can hold) then reads as empty instead of blocking forever. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* A device (a symlink to /dev/zero in a pull request) never ends:
	 * only regular files and FIFOs are read. */
	struct stat st;
	if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) &&
	    !S_ISDIR(st.st_mode)) {
		close(fd);
		errno = ENODEV;
		return -1;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	FILE *f = fdopen(fd, "rb");
	if (!f) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	/* lineio does its own buffering: skip stdio's copy. */
	setvbuf(f, NULL, _IONBF, 0);
	lineio_init(l, f, limit);
	l->owned = 1;
	return 0;
}

/* own holds at least need bytes and LINEIO_PAD more. */
static int grow(struct lineio *l, size_t need)
{
	need += LINEIO_PAD;
	if (need <= l->cap)
		return 0;
	size_t cap = l->cap ? l->cap : 256;
	while (cap < need)
		cap *= 2;
	char *b = realloc(l->own, cap);
	if (!b)
		return -1;
	l->own = b;
	l->cap = cap;
	return 0;
}

/* Fills rbuf. Returns 1 with bytes available, 0 at end of file, -1 on a
 * read error (errno set). An interrupted read is retried. */
static int refill(struct lineio *l)
{
	if (l->eof)
		return 0;
	if (!l->rbuf) {
		l->rbuf = malloc(LINEIO_CHUNK + LINEIO_PAD);
		if (!l->rbuf)
			return -1;
	}
	for (;;) {
		errno = 0;
		size_t n = fread(l->rbuf, 1, LINEIO_CHUNK, l->f);
		if (n > 0) {
			l->rpos = 0;
			l->rend = n;
			memset(l->rbuf + n, 0, LINEIO_PAD); /* the pad reads as defined bytes */
			return 1;
		}
		if (ferror(l->f)) {
			if (errno == EINTR) {
				clearerr(l->f);
				continue;
			}
			if (!errno)
				errno = EIO;
			return -1;
		}
		l->eof = 1;
		return 0;
	}
}

/* The next line when the block holds all of it, its '\n' included, and
 * it is within the limit: returned in place. 0 when lineio_next must
 * assemble it. */
static int line_in_place(struct lineio *l)
{
	char *start = l->rbuf + l->rpos;
	size_t avail = l->rend - l->rpos, seen = scan16_find_padded(start, avail, '\n'); /* rbuf is padded */
	if (seen == avail)
		return 0;
	int cr = seen > 0 && start[seen - 1] == '\r';
	if (seen - (size_t)cr > l->limit)
		return 0;
	l->had_cr = cr;
	l->len = seen - (size_t)cr;
	start[l->len] = '\0';
	l->buf = start;
	l->rpos += seen + 1;
	l->lineno++;
	return 1;
}

/* The next line, copied into own from as many blocks as it spans. */
static int line_assembled(struct lineio *l)
{
	size_t seen = 0;   /* bytes of the line, '\r' included */
	int any = 0, newline = 0;
	unsigned char last = 0;
	if (grow(l, 256) != 0)
		return -1;
	while (!newline) {
		if (l->rpos == l->rend) {
			int r = refill(l);
			if (r < 0)
				return -1;
			if (r == 0)
				break;
		}
		const char *start = l->rbuf + l->rpos;
		size_t avail = l->rend - l->rpos;
		const char *nl = memchr(start, '\n', avail);
		size_t take = nl ? (size_t)(nl - start) : avail;
		any = 1;
		if (take > 0) {
			size_t room = l->limit + 1 > seen ? l->limit + 1 - seen : 0;
			size_t copy = take < room ? take : room;
			if (copy > 0) {
				if (grow(l, seen + copy + 1) != 0)
					return -1;
				memcpy(l->own + seen, start, copy);
			}
			seen += take;
			last = (unsigned char)start[take - 1];
		}
		l->rpos += take;
		if (nl) {
			l->rpos++;
			newline = 1;
		}
	}
	if (!any)
		return 0;
	if (seen > 0 && last == '\r') {
		seen--;
		l->had_cr = 1;
	}
	if (seen > l->limit) {
		l->truncated = 1;
		l->len = l->limit;
	} else {
		l->len = seen;
	}
	l->buf = l->own;
	memset(l->buf + l->len, 0, LINEIO_PAD + 1);
	l->lineno++;
	return 1;
}

int lineio_next(struct lineio *l)
{
	l->len = 0;
	l->truncated = 0;
	l->had_cr = 0;
	if (l->rpos == l->rend) {
		int r = refill(l);
		if (r <= 0)
			return r;
	}
	return line_in_place(l) ? 1 : line_assembled(l);
}

void lineio_close(struct lineio *l)
{
	if (l->owned && l->f)
		fclose(l->f);
	free(l->own);
	free(l->rbuf);
	memset(l, 0, sizeof(*l));
}

int lineio_has_bom(const char *s, size_t n)
{
	return n >= 3 && (unsigned char)s[0] == 0xEF && (unsigned char)s[1] == 0xBB &&
	       (unsigned char)s[2] == 0xBF;
}

int lineio_not_text(FILE *f, size_t *nul_at)
{
	char buf[LINEIO_SNIFF];
	long pos = ftell(f);
	if (pos < 0 || fseek(f, pos, SEEK_SET) != 0)
		return 0; /* not seekable: the readers' per-line checks apply */
	size_t n = fread(buf, 1, sizeof(buf), f);
	int seek = fseek(f, pos, SEEK_SET);
	clearerr(f);
	const char *z = memchr(buf, '\0', n);
	if (seek != 0 || !z)
		return 0;
	/* a stray NUL in one line of a text file is that line's problem (the
	 * readers name the line); NULs on two lines, or a NUL and no line end
	 * in the whole window, are a binary file */
	const char *lf = memchr(z, '\n', n - (size_t)(z - buf));
	int binary = !memchr(buf, '\n', n) || (lf && memchr(lf, '\0', n - (size_t)(lf - buf)));
	if (binary)
		*nul_at = (size_t)(z - buf);
	return binary;
}
