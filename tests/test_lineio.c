/* test_lineio.c: the bounded line reader (lineio.h). */
#include "testlib.h"
#include "io/lineio.h"

#include <errno.h>
#include <sys/stat.h>

struct want {
	const char *text;
	size_t len;
	int truncated, had_cr;
};

/* Reads s through a temporary file with the given limit and compares. */
static void check(const char *s, size_t n, size_t limit, const struct want *w, size_t nw)
{
	char path[] = "/tmp/tlperf-lineio.XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, s, n), (ssize_t)n);
	close(fd);
	struct lineio l;
	assert_int_equal(lineio_open(&l, path, limit), 0);
	for (size_t i = 0; i < nw; i++) {
		assert_int_equal(lineio_next(&l), 1);
		assert_int_equal(l.lineno, (long)i + 1);
		assert_int_equal(l.len, w[i].len);
		assert_memory_equal(l.buf, w[i].text, w[i].len);
		assert_int_equal(l.buf[l.len], '\0');
		assert_int_equal(l.truncated, w[i].truncated);
		assert_int_equal(l.had_cr, w[i].had_cr);
	}
	assert_int_equal(lineio_next(&l), 0);
	assert_int_equal(lineio_next(&l), 0);
	lineio_close(&l);
	unlink(path);
}

static void test_lines_crlf_nul(void **state)
{
	(void)state;
	static const char s[] = "a\r\n\nb\0c\nlast";
	const struct want w[] = {
		{ "a", 1, 0, 1 }, { "", 0, 0, 0 }, { "b\0c", 3, 0, 0 }, { "last", 4, 0, 0 },
	};
	check(s, sizeof(s) - 1, 0, w, 4);
	check("", 0, 0, NULL, 0);
	const struct want cr[] = { { "", 0, 0, 1 } };
	check("\r", 1, 0, cr, 1);
}

/* The limit applies to the line without its "\r": a line of exactly
 * `limit` bytes in a CRLF file is not truncated. */
static void test_limit_edges(void **state)
{
	(void)state;
	const struct want w[] = {
		{ "abcd", 4, 0, 1 }, { "abcd", 4, 1, 0 }, { "abcd", 4, 1, 1 }, { "ab", 2, 0, 0 },
	};
	check("abcd\r\nabcde\nabcdef\r\nab\n", 23, 4, w, 4);
}

/* Lines that straddle the read-ahead chunk, and a 10 MB line kept to the
 * limit in bounded memory, followed by a normal line. */
static void test_long_lines(void **state)
{
	(void)state;
	size_t big = 10u * 1024 * 1024;
	size_t n = LINEIO_CHUNK - 3 + 2 + big + 1 + 3;
	char *s = malloc(n);
	assert_non_null(s);
	memset(s, 'x', LINEIO_CHUNK - 3);
	s[LINEIO_CHUNK - 3] = '\r';
	s[LINEIO_CHUNK - 2] = '\n';
	memset(s + LINEIO_CHUNK - 1, 'y', big);
	s[LINEIO_CHUNK - 1 + big] = '\n';
	memcpy(s + LINEIO_CHUNK + big, "end", 3);
	char *xs = malloc(LINEIO_CHUNK), *ys = malloc(LINEIO_DEFAULT_LIMIT);
	assert_non_null(xs);
	assert_non_null(ys);
	memset(xs, 'x', LINEIO_CHUNK);
	memset(ys, 'y', LINEIO_DEFAULT_LIMIT);
	const struct want w[] = {
		{ xs, LINEIO_CHUNK - 3, 0, 1 },
		{ ys, LINEIO_DEFAULT_LIMIT, 1, 0 },
		{ "end", 3, 0, 0 },
	};
	check(s, n, 0, w, 3);
	free(s);
	free(xs);
	free(ys);
}

static void test_errors(void **state)
{
	(void)state;
	struct lineio l;
	assert_int_equal(lineio_open(&l, "/nonexistent/perf_records.jsonl", 0), -1);
	assert_int_equal(errno, ENOENT);
	/* a directory opens but cannot be read */
	assert_int_equal(lineio_open(&l, "/tmp", 0), 0);
	assert_int_equal(lineio_next(&l), -1);
	assert_int_equal(errno, EISDIR);
	lineio_close(&l);
	/* a device never ends: refused */
	assert_int_equal(lineio_open(&l, "/dev/zero", 0), -1);
	assert_int_equal(errno, ENODEV);
	/* a FIFO with no writer reads as empty instead of blocking */
	char fifo[] = "/tmp/tlperf-lineio-fifo.XXXXXX";
	int fd = mkstemp(fifo);
	assert_true(fd >= 0);
	close(fd);
	unlink(fifo);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(lineio_open(&l, fifo, 0), 0);
	assert_int_equal(lineio_next(&l), 0);
	lineio_close(&l);
	unlink(fifo);
	assert_true(lineio_has_bom("\xef\xbb\xbfx", 4));
	assert_false(lineio_has_bom("\xef\xbb", 2));
}

/* lineio_not_text on a stream holding s[0..n) from offset `at`: the
 * verdict, *nul_at, and the position left where it was. */
static int not_text(const char *s, size_t n, long at, size_t *nul_at)
{
	FILE *f = tmpfile();
	assert_non_null(f);
	assert_int_equal(fwrite(s, 1, n, f), n);
	assert_int_equal(fseek(f, at, SEEK_SET), 0);
	int r = lineio_not_text(f, nul_at);
	assert_int_equal(ftell(f), at);
	if (n > (size_t)at)
		assert_int_equal(fgetc(f), (unsigned char)s[at]);
	fclose(f);
	return r;
}

/* the literal's bytes, without its terminating NUL */
#define NOT_TEXT(lit, from) not_text(lit, sizeof(lit) - 1, from, &at)

static void test_not_text(void **state)
{
	(void)state;
	size_t at = 0;
	/* text, and text with one stray NUL in one line: the reader names it */
	assert_int_equal(NOT_TEXT("{\"a\": 1}\n{\"b\": 2}\n", 0), 0);
	assert_int_equal(NOT_TEXT("ok\nx\0y\nok\n", 0), 0);
	/* NULs on two lines, or a NUL and no line end: binary */
	assert_int_equal(NOT_TEXT("a\0b\nc\0d\n", 0), 1);
	assert_int_equal(at, 1);
	assert_int_equal(NOT_TEXT("\177ELF\2\1\1\0\0\0", 0), 1);
	assert_int_equal(at, 7);
	/* from the current position */
	assert_int_equal(NOT_TEXT("xx\0\n\0\n", 3), 0);
	assert_int_equal(NOT_TEXT("ab\nc\0d\ne\0f\n", 3), 1);
	assert_int_equal(at, 1);
	/* only the first LINEIO_SNIFF bytes are looked at */
	char *big = malloc(LINEIO_SNIFF + 16);
	assert_non_null(big);
	memset(big, 'x', LINEIO_SNIFF + 16);
	big[10] = '\n';
	memcpy(big + LINEIO_SNIFF + 2, "\0\n\0\n", 4);
	assert_int_equal(not_text(big, LINEIO_SNIFF + 16, 0, &at), 0);
	free(big);
	/* a pipe cannot be looked at without consuming it: text */
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], "a\0\nb\0\n", 6), 6);
	close(fds[1]);
	FILE *p = fdopen(fds[0], "r");
	assert_int_equal(lineio_not_text(p, &at), 0);
	assert_int_equal(fgetc(p), 'a');
	fclose(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_crlf_nul),
		cmocka_unit_test(test_limit_edges),
		cmocka_unit_test(test_long_lines),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_not_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
