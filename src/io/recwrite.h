/* recwrite.h: append-only writes that are never torn and never interleave.
 *
 * perf_records.jsonl and opt_log.md are append-only: a line once written is
 * never rewritten. Every append here opens the file with O_APPEND, takes an
 * exclusive flock(2) on it, issues ONE write(2) for the whole text, fsyncs,
 * and unlocks. Two processes appending to the same file therefore never
 * interleave, and a crash leaves either the whole text or nothing: a short
 * write (disk full: the rest is retried once to learn the real errno) or a
 * failed fsync is cut back to the length the file had before, under
 * the same lock, so a half line is never left behind.
 *
 * A file whose last byte is not a newline (an earlier writer that was not
 * this module crashed mid-line) gets a newline in front of the text, in the
 * same write, so the new text always starts on a line of its own.
 */
#ifndef TLPERF_RECWRITE_H
#define TLPERF_RECWRITE_H

#include <stddef.h>

enum recwrite_flags {
	RECWRITE_LINE = 1  /* text is one line: refuse an embedded '\n', append one */
};

/* Appends text[0..len) to path (created 0644 when missing). With
 * RECWRITE_LINE the text must not contain '\n' and one is appended; without
 * it the text is written as is (a block of lines should end with '\n').
 * Returns 0, or -1 with errno set (EINVAL for an embedded newline in a
 * line; ENOSPC, EDQUOT, EFBIG... when the write was cut short or the fsync
 * failed, after which our bytes were cut back); the file is then as it
 * was before the call, ending at its last complete line. Retries EINTR. Blocks while another process
 * holds the lock. */
int recwrite_append(const char *path, const char *text, size_t len, int flags);

/* Holds an exclusive advisory lock on path (created when missing) for a
 * whole multi-step operation, e.g. one loop round. Returns an fd >= 0 to
 * pass to recwrite_unlock, or -1 with errno set. When wait is 0 and the
 * lock is held elsewhere, returns -1 with errno EWOULDBLOCK. */
int recwrite_lock(const char *path, int wait);
void recwrite_unlock(int fd);

#endif
