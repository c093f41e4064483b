/* lineio.h: read a file one line at a time in bounded memory.
 *
 * A line longer than the limit is reported truncated (its first `limit`
 * bytes are returned and the rest is skipped), so a 10 MB line or a 2 GB
 * file without newlines costs at most `limit` bytes of memory.
 */
#ifndef TLPERF_LINEIO_H
#define TLPERF_LINEIO_H

#include <stddef.h>
#include <stdio.h>

#define LINEIO_DEFAULT_LIMIT (1024u * 1024u) /* 1 MiB */
#define LINEIO_CHUNK (64u * 1024u) /* bytes read from the stream at a time */
#define LINEIO_PAD 16u /* readable bytes after a line's NUL (16-byte scans) */

struct lineio {
	FILE *f;          /* the stream, owned when opened by lineio_open */
	int owned;        /* 1 when lineio_close must fclose f */
	char *buf;        /* current line, NUL-terminated, without '\n'; writable,
			     and LINEIO_PAD more bytes after the NUL are readable */
	size_t len;       /* bytes in buf (a NUL inside the line is kept) */
	char *own;        /* where a line that crosses a block is assembled */
	size_t cap;       /* allocated size of own */
	size_t limit;     /* longest line kept, in bytes */
	long lineno;      /* 1-based number of the current line */
	int truncated;    /* 1 when the current line was longer than limit */
	int had_cr;       /* 1 when a trailing '\r' was stripped */
	char *rbuf;       /* read-ahead buffer (LINEIO_CHUNK bytes) */
	size_t rpos;      /* next unread byte in rbuf */
	size_t rend;      /* bytes of rbuf filled */
	int eof;          /* 1 once the stream returned end of file */
};

/* Opens path for reading. Returns 0, or -1 with errno set. Never blocks
 * in open: a FIFO without a writer reads as an empty file. A device
 * (character, block, socket) is refused with ENODEV ("No such device"):
 * /dev/zero would never end. A directory opens and fails on the first
 * read with EISDIR. */
int lineio_open(struct lineio *l, const char *path, size_t limit);
/* Wraps an open stream (not closed by lineio_close). lineio reads the
 * stream ahead in LINEIO_CHUNK blocks, so after lineio_close its position
 * is past the last line returned: hand lineio a stream you are done with. */
void lineio_init(struct lineio *l, FILE *f, size_t limit);
/* Reads the next line. Returns 1 when a line was read, 0 at end of file,
 * -1 on a read error (errno set). A final line without '\n' is a line.
 * One '\r' before the '\n' (or before end of file) is stripped and noted
 * in had_cr; the limit applies to the line without it. buf stays valid
 * until the next call; a line read whole from the read-ahead block is
 * returned in place (its '\n' or '\r' becomes the NUL), others are copied. */
int lineio_next(struct lineio *l);
void lineio_close(struct lineio *l);

/* How much of a file's start is looked at to tell text from binary (as
 * git does: its first 8000 bytes). */
#define LINEIO_SNIFF 8000u

/* 1 when the stream f, at its current position, is not text: within its
 * next LINEIO_SNIFF bytes, NUL bytes on two or more lines, or a NUL byte
 * and no line end at all (the first NUL's offset from that position in
 * *nul_at). 0 when it is text (a stray NUL in one line is that line's
 * problem, for the reader to name) or cannot be told without consuming it
 * (a pipe). The position is restored: the caller reads on as before. */
int lineio_not_text(FILE *f, size_t *nul_at);

/* 1 when s[0..n) starts with a UTF-8 byte order mark. */
int lineio_has_bom(const char *s, size_t n);

#endif
