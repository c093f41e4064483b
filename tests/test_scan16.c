/* test_scan16.c: util/scan16.h against a byte-at-a-time reference, at
 * every start offset and length of buffers that put each interesting byte
 * at each position of a 16- and 8-byte block. */
#include "testlib.h"
#include "util/scan16.h"
#include "util/strpool.h"

static size_t ref_string_end(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\' || c < 0x20)
			return i;
	}
	return n;
}

static int ref_plain_ascii(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == '\0' || s[i] == '\r' || (unsigned char)s[i] >= 0x80)
			return 0;
	return 1;
}

/* scan16_string_end_nul over a copy of s[0..n) that ends in a NUL and the
 * padding the scan may read. */
static size_t end_nul(const char *s, size_t n)
{
	static char copy[256 + SCAN16_PAD];
	memset(copy, 0, sizeof(copy));
	memcpy(copy, s, n);
	return scan16_string_end_nul(copy);
}

/* Bytes that stop a scan, bytes next to them, and plain ones. */
static const unsigned char probe[] = { '"', '\\', 0x00, 0x01, 0x1F, 0x20, '\r', '\n', 0x7F, 0x80,
				       0xC3, 0xFF, 'a', '!', '#', ']', '[' };

/* A buffer of plain text with b at position at: every offset/length. */
static void check_all(unsigned char b, size_t at)
{
	char buf[80];
	memset(buf, 'x', sizeof(buf));
	buf[at] = (char)b;
	for (size_t off = 0; off < 20; off++)
		for (size_t n = 0; off + n <= sizeof(buf); n++) {
			size_t got = end_nul(buf + off, n), want = ref_string_end(buf + off, n);
			if (got != want) {
				print_error("string_end(byte 0x%02x at %zu, off %zu, n %zu) = %zu, want %zu\n",
					    b, at, off, n, got, want);
				fail();
			}
			if (scan16_plain_ascii(buf + off, n) != ref_plain_ascii(buf + off, n)) {
				print_error("plain_ascii(byte 0x%02x at %zu, off %zu, n %zu) wrong\n", b,
					    at, off, n);
				fail();
			}
		}
}

static void test_each_byte_at_each_position(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(probe); i++)
		for (size_t at = 0; at < 48; at++)
			check_all(probe[i], at);
}

/* Two stops in one block: the first one wins. */
static void test_first_stop_wins(void **state)
{
	(void)state;
	const char *s = "abcdefghij\"kl\\mnopqrstuvwxyz";
	assert_int_equal(end_nul(s, strlen(s)), 10);
	const char *t = "abcdefghijklmnopqrstuvw\\xy\"z";
	assert_int_equal(end_nul(t, strlen(t)), 23);
	assert_int_equal(end_nul("", 0), 0);
	assert_int_equal(scan16_plain_ascii("", 0), 1);
	assert_int_equal(scan16_plain_ascii("plain ascii text, long enough to span two blocks", 48), 1);
	assert_int_equal(scan16_plain_ascii("caf\xc3\xa9", 5), 0);
}

/* The NUL-ended form: the same index as the bounded scan over the text
 * before the NUL, or the NUL's own index. */
static void test_nul_ended(void **state)
{
	(void)state;
	char buf[80 + SCAN16_PAD];
	for (size_t i = 0; i < sizeof(probe); i++)
		for (size_t at = 0; at < 40; at++)
			for (size_t len = 0; len < 64; len++) {
				memset(buf, 'x', sizeof(buf));
				buf[at] = (char)probe[i];
				buf[len] = '\0';
				size_t want = ref_string_end(buf, len);
				assert_int_equal(scan16_string_end_nul(buf), want);
			}
}

/* The prefix compare agrees with memcmp for every length up to 16 and a
 * difference at every place. */
static void test_prefix_eq(void **state)
{
	(void)state;
	char a[16], b[16];
	memcpy(a, "candidate_id\"xyz", 16);
	for (unsigned n = 0; n <= 16; n++)
		for (unsigned at = 0; at < 16; at++) {
			memcpy(b, a, 16);
			b[at] ^= 0x20;
			assert_int_equal(scan16_prefix_eq(a, b, n), memcmp(a, b, n) == 0);
			assert_true(scan16_prefix_eq(a, a, n));
		}
}

/* Every string of a pool, the last of a chunk included, can be read 16
 * bytes from its start (STRPOOL_PAD), checked by AddressSanitizer in the
 * sanitised run of make test; and the compare finds each copy equal. */
static void test_pool_strings_readable(void **state)
{
	(void)state;
	struct strpool p;
	char text[32];
	strpool_init(&p);
	for (int i = 0; i < 40000; i++) {
		size_t n = (size_t)(1 + i % 7); /* 8 bytes each: one ends a chunk */
		memset(text, 'a' + i % 26, n);
		const char *c = strpool_dup(&p, text, n);
		assert_non_null(c);
		assert_true(scan16_prefix_eq(c, text, (unsigned)n));
	}
	strpool_release(&p);
}

/* The padded byte search agrees with memchr at every offset and length,
 * a match past the end ignored. */
static void test_find_padded(void **state)
{
	(void)state;
	char buf[96];
	for (size_t at = 0; at < 64; at++)
		for (size_t n = 0; n <= 64; n++) {
			memset(buf, 'x', sizeof(buf));
			buf[at] = '\n';
			const char *m = memchr(buf, '\n', n);
			assert_int_equal(scan16_find_padded(buf, n, '\n'), m ? (size_t)(m - buf) : n);
		}
}

/* Random buffers against the reference. */
static void test_random_buffers(void **state)
{
	(void)state;
	char buf[200];
	srand(12345);
	for (int t = 0; t < 20000; t++) {
		size_t n = (size_t)(rand() % 200);
		for (size_t i = 0; i < n; i++) {
			int r = rand() % 64;
			buf[i] = r == 0 ? (char)probe[rand() % (int)sizeof(probe)] : (char)(' ' + rand() % 90);
		}
		assert_int_equal(end_nul(buf, n), ref_string_end(buf, n));
		assert_int_equal(scan16_plain_ascii(buf, n), ref_plain_ascii(buf, n));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_byte_at_each_position),
		cmocka_unit_test(test_first_stop_wins),
		cmocka_unit_test(test_nul_ended),
		cmocka_unit_test(test_prefix_eq),
		cmocka_unit_test(test_find_padded),
		cmocka_unit_test(test_pool_strings_readable),
		cmocka_unit_test(test_random_buffers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
