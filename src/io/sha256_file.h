/* sha256_file.h: the SHA-256 of a file's bytes (util/sha256.h does the
 * hashing; this opens and reads the file). */
#ifndef TLPERF_IO_SHA256_FILE_H
#define TLPERF_IO_SHA256_FILE_H

#include "util/sha256.h"

/* Hashes the file at path in bounded memory into hex[65] (64 lowercase
 * hex digits and a NUL). Returns 0, or -1 when it cannot be read (errno
 * set). */
int sha256_file(const char *path, char hex[65]);

#endif
