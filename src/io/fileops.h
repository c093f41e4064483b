/* fileops.h: the file-system helpers the readers and writers share (directories made
 * on demand, a file copied whole, a stream read whole, a file's kind). Every call sets errno on
 * failure; none prints. */
#ifndef TLPERF_IO_FILEOPS_H
#define TLPERF_IO_FILEOPS_H

#include <stddef.h>
#include <stdio.h>

/* mkdir -p path (mode 0755): every missing component made, existing
 * directories left alone. Returns 0, or -1 with errno set (ENOTDIR when a
 * component exists and is not a directory, ENAMETOOLONG beyond 4095
 * bytes). */
int fileops_mkdir_p(const char *path);

/* 1 when path names a regular file (links followed), else 0. */
int fileops_is_file(const char *path);

/* Copies from to `to` whole: written to "<to>.tmp", fsync'd, renamed over
 * `to`, so `to` is either the old file or the complete new one. Returns 0,
 * or -1 with errno set (the temporary file removed). */
int fileops_copy(const char *from, const char *to);

/* 1 when a and b both hash (SHA-256) to the same digest, else 0 (also when
 * either cannot be read). */
int fileops_same_content(const char *a, const char *b);

/* Reads stream f whole, up to max bytes, into a malloc'd buffer (*buf,
 * *len; NUL-terminated, the NUL not counted); *over (may be NULL) is set
 * when bytes remain past max. f is not closed. Returns 0, or -1 with errno
 * (ENOMEM, or the read error; *buf is then NULL). */
int fileops_read_stream(FILE *f, size_t max, char **buf, size_t *len, int *over);

#endif
