/* test_textcheck.c: the small text checks readers rely on: UTF-8 decoding
 * (util/utf8.h) and ISO 8601 timestamps (records_is_iso8601), step by step. */
#include "testlib.h"

#include <stdio.h>
#include "model/records.h"
#include "util/utf8.h"

static void test_utf8_decode(void **state)
{
	(void)state;
	unsigned cp;
	assert_int_equal(utf8_decode((const unsigned char *)"A", 1, &cp), 1);
	assert_int_equal(cp, 'A');
	assert_int_equal(utf8_decode((const unsigned char *)"\xC2\xB5s", 3, &cp), 2);
	assert_int_equal(cp, 0xB5);
	assert_int_equal(utf8_decode((const unsigned char *)"\xE2\x89\x88", 3, &cp), 3);
	assert_int_equal(cp, 0x2248);
	assert_int_equal(utf8_decode((const unsigned char *)"\xF4\x8F\xBF\xBF", 4, &cp), 4);
	assert_int_equal(cp, 0x10FFFF);
	/* cut short by n, though the bytes go on */
	assert_int_equal(utf8_decode((const unsigned char *)"\xE2\x89\x88", 2, &cp), 0);
	/* overlong, surrogate, past U+10FFFF, lone continuation, bad lead */
	assert_int_equal(utf8_decode((const unsigned char *)"\xE0\x80\x80", 3, &cp), 0);
	assert_int_equal(utf8_decode((const unsigned char *)"\xED\xA0\x80", 3, &cp), 0);
	assert_int_equal(utf8_decode((const unsigned char *)"\xF4\x90\x80\x80", 4, &cp), 0);
	assert_int_equal(utf8_decode((const unsigned char *)"\x80", 1, &cp), 0);
	assert_int_equal(utf8_decode((const unsigned char *)"\xC1\xBF", 2, &cp), 0);
	assert_int_equal(utf8_decode((const unsigned char *)"\xC3\x28", 2, &cp), 0);
}

static void test_utf8_invalid_at(void **state)
{
	(void)state;
	const char ok[] = "plain ascii text, then \xC3\x97 and \xE8\xBF\xAD\xE4\xBB\xA3";
	assert_true(utf8_invalid_at(ok, sizeof(ok) - 1) == (size_t)-1);
	/* the bad byte after a run of 8-byte ASCII words */
	const char bad[] = "0123456789abcdef\xC3";
	assert_int_equal(utf8_invalid_at(bad, sizeof(bad) - 1), 16);
	assert_int_equal(utf8_invalid_at("ab\xED\xA0\x80", 5), 2);
}

/* utf8_invalid_at as utf8_decode defines it, one sequence at a time. */
static size_t ref_invalid_at(const unsigned char *s, size_t n)
{
	unsigned cp;
	for (size_t i = 0; i < n;) {
		size_t l = utf8_decode(s + i, n - i, &cp);
		if (!l)
			return i;
		i += l;
	}
	return (size_t)-1;
}

/* Every lead and second byte, the third and fourth from each range that
 * matters, every length: utf8_invalid_at agrees with utf8_decode. */
static void test_utf8_invalid_at_all(void **state)
{
	(void)state;
	static const unsigned char tail[] = { 0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xF5, 0xFF };
	unsigned char s[24];
	for (unsigned b0 = 0x80; b0 < 0x100; b0++)
		for (unsigned b1 = 0; b1 < 0x100; b1++)
			for (size_t t = 0; t < sizeof(tail) * sizeof(tail); t++) {
				memcpy(s, "0123456789", 10);
				s[10] = (unsigned char)b0;
				s[11] = (unsigned char)b1;
				s[12] = tail[t % sizeof(tail)];
				s[13] = tail[t / sizeof(tail)];
				memcpy(s + 14, "abcdefghij", 10);
				for (size_t n = 10; n <= 24; n += (n < 14 ? 1 : 10))
					assert_true(utf8_invalid_at((const char *)s, n) == ref_invalid_at(s, n));
			}
}

/* Every bidirectional embedding, override and isolate control is found,
 * with its code point; the marks next to them (LRM, RLM, U+2060..2065)
 * and a cut-off sequence are not. */
static void test_utf8_bidi(void **state)
{
	(void)state;
	static const unsigned want[] = { 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069 };
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		char buf[16];
		unsigned cp = 0;
		int n = snprintf(buf, sizeof(buf), "46%c%c%c.0", 0xE2, 0x80 | ((want[i] >> 6) & 0x3F),
				 0x80 | (want[i] & 0x3F));
		assert_int_equal(utf8_bidi_control_at(buf, (size_t)n, &cp), 2);
		assert_int_equal(cp, want[i]);
	}
	unsigned cp = 0;
	assert_true(utf8_bidi_control_at("a\xE2\x80\x8E b \xE2\x81\xA0 c", 11, &cp) == (size_t)-1);
	assert_true(utf8_bidi_control_at("64 us\xE2\x80", 7, &cp) == (size_t)-1);
	assert_true(utf8_bidi_control_at("", 0, &cp) == (size_t)-1);
}

static void test_iso8601_steps(void **state)
{
	(void)state;
	/* time: seconds up to a leap second, a fraction with '.' or ',' */
	assert_true(records_is_iso8601("2026-12-31T23:59:60,5Z"));
	assert_false(records_is_iso8601("2026-12-31T23:59:61Z"));
	assert_false(records_is_iso8601("2026-12-31T23:60:00Z"));
	assert_false(records_is_iso8601("2026-12-31T23:59:00.Z"));
	assert_false(records_is_iso8601("2026-12-31T"));
	assert_false(records_is_iso8601("2026-12-31X10:00"));
	/* zone: hours, hh:mm or hhmm */
	assert_true(records_is_iso8601("2026-01-01T00:00+08"));
	assert_true(records_is_iso8601("2026-01-01T00:00-0530"));
	assert_false(records_is_iso8601("2026-01-01T00:00+8"));
	assert_false(records_is_iso8601("2026-01-01T00:00+08:0"));
	assert_false(records_is_iso8601("2026-01-01T00:00+08:00Z"));
	/* date: month and day ranges */
	assert_false(records_is_iso8601("2026-00-10"));
	assert_false(records_is_iso8601("2026-01-32"));
	assert_false(records_is_iso8601("2026-1-10"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utf8_decode),
		cmocka_unit_test(test_utf8_invalid_at),
		cmocka_unit_test(test_utf8_invalid_at_all),
		cmocka_unit_test(test_utf8_bidi),
		cmocka_unit_test(test_iso8601_steps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
