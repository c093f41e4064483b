/* sha256_file.c: hashing a file (sha256_file.h). */
#include "io/sha256_file.h"

#include <errno.h>
#include <stdio.h>

int sha256_file(const char *path, char hex[65])
{
	unsigned char buf[65536], dig[32];
	struct sha256 s;
	size_t n;
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	sha256_init(&s);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sha256_update(&s, buf, n);
	if (ferror(f)) {
		int e = errno ? errno : EIO;
		fclose(f);
		errno = e;
		return -1;
	}
	fclose(f);
	sha256_final(&s, dig);
	sha256_hex(dig, hex);
	return 0;
}
