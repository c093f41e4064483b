/* fuzz_lineio.c: the bounded line reader against a plain reference.
 *
 * The first input byte picks the line limit (1..64 bytes, or the default)
 * and the read-ahead chunk; the rest is the file. The reference splits on
 * '\n', strips one '\r' before it, and keeps the first `limit` bytes of
 * a longer line, flagged truncated. lineio must agree line by line, read
 * through a real stdio stream (fmemopen).
 */
#include "io/lineio.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(c)                                                                         \
	do {                                                                             \
		if (!(c)) {                                                              \
			fprintf(stderr, "fuzz_lineio: invariant failed: %s (%s:%d)\n", #c, \
				__FILE__, __LINE__);                                     \
			abort();                                                         \
		}                                                                        \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	size_t limit = (data[0] & 0x3f) + 1;
	if (data[0] & 0x40)
		limit = LINEIO_DEFAULT_LIMIT;
	const char *text = (const char *)data + 1;
	size_t n = size - 1;
	if (n == 0)
		return 0; /* fmemopen refuses an empty buffer on older libcs */
	FILE *f = fmemopen((void *)text, n, "rb");
	if (!f)
		return 0;
	struct lineio l;
	lineio_init(&l, f, limit);
	size_t pos = 0;
	long lineno = 0;
	int rc;
	while ((rc = lineio_next(&l)) == 1) {
		CHECK(pos < n);
		const char *nl = memchr(text + pos, '\n', n - pos);
		size_t end = nl ? (size_t)(nl - text) : n;
		size_t len = end - pos;
		int cr = len > 0 && text[pos + len - 1] == '\r';
		if (cr)
			len--;
		lineno++;
		CHECK(l.lineno == lineno);
		CHECK(l.had_cr == cr);
		CHECK(l.truncated == (len > limit));
		size_t keep = len > limit ? limit : len;
		CHECK(l.len == keep);
		CHECK(memcmp(l.buf, text + pos, keep) == 0);
		CHECK(l.buf[l.len] == '\0');
		pos = nl ? end + 1 : n;
	}
	CHECK(rc == 0);
	CHECK(pos == n);
	CHECK(lineio_next(&l) == 0); /* end of file stays end of file */
	lineio_close(&l);
	fclose(f);
	return 0;
}
