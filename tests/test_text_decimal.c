/* test_text_decimal.c: the shared text helpers the readers lean on:
 * case-insensitive search (util/text.h) and decimal numbers
 * (util/decimal.h), each checked against a plain reference over many
 * generated inputs, plus the cases that matter by hand. */
#include "testlib.h"

#include <ctype.h>

#include "util/decimal.h"
#include "util/text.h"

/* The obvious quadratic search, the reference for text_find_ci. */
static const char *naive_find_ci(const char *h, const char *n)
{
	size_t nl = strlen(n);
	for (; *h; h++) {
		size_t i = 0;
		while (i < nl && h[i] && tolower((unsigned char)h[i]) == tolower((unsigned char)n[i]))
			i++;
		if (i == nl)
			return h;
	}
	return nl == 0 ? h : NULL;
}

/* The next number of a plain generator. */
static unsigned next_rand(unsigned *seed)
{
	return (*seed = *seed * 1103515245u + 12345u) >> 16;
}

/* A generated text into out: add + (a draw & mask) bytes, each one of the
 * first na of alpha, then a NUL. */
static void gen_text(char *out, unsigned mask, size_t add, const char *alpha, unsigned na, unsigned *seed)
{
	size_t l = add + (next_rand(seed) & mask);
	for (size_t i = 0; i < l; i++)
		out[i] = alpha[next_rand(seed) % na];
	out[l] = '\0';
}

/* 20000 generated texts (up to hmask bytes, over the first nh bytes of
 * alpha) and needles (1 to nmask + 1 bytes, over its first nn): every
 * search agrees with the reference. */
static void check_generated(const char *alpha, unsigned nh, unsigned nn, unsigned hmask, unsigned nmask, unsigned seed)
{
	for (int k = 0; k < 20000; k++) {
		char h[80], n[20];
		gen_text(h, hmask, 0, alpha, nh, &seed);
		gen_text(n, nmask, 1, alpha, nn, &seed);
		struct text_bytes tb;
		text_bytes_of(&tb, h);
		const char *want = naive_find_ci(h, n);
		const char *const list[] = { n, "zz", NULL };
		assert_ptr_equal(text_find_ci(h, n), want);
		assert_int_equal(text_find_any_ci(h, NULL, list), want ? 0 : -1);
		assert_ptr_equal(text_find_ci_tb(h, &tb, n), want);
		assert_ptr_equal(text_find_ci_tb(h, NULL, n), want);
		if (want)
			assert_true(text_may_hold(&tb, n));
	}
}

static void test_find_ci(void **state)
{
	(void)state;
	const char *s = "**候选 vs Current Best 对比表（R7）** re-measured";
	assert_ptr_equal(text_find_ci(s, "current best"), strstr(s, "Current Best"));
	assert_ptr_equal(text_find_ci(s, "对比表"), strstr(s, "对比表"));
	assert_ptr_equal(text_find_ci(s, "R7"), strstr(s, "R7"));
	assert_null(text_find_ci(s, "current  best"));
	assert_ptr_equal(text_find_ci(s, ""), s);
	assert_null(text_find_ci("", "a"));
	/* a needle running past the end of the text */
	assert_null(text_find_ci("abc", "abcd"));
	/* '@' | 0x20 is '`': a byte that only looks like a letter candidate */
	assert_null(text_find_ci("@@@", "`"));
	const char *xy = "x`y";
	assert_ptr_equal(text_find_ci(xy, "`"), xy + 1);
	/* generated: every needle over a small alphabet, against the reference */
	check_generated("aAbB-_ 测", 7, 7, 15, 3, 7);
}

/* Longer texts, where the search goes 16 places at a time: needles of 1
 * to 8 bytes, matches near the block edges and the end, the bytes-noted
 * variants agreeing. */
static void test_find_ci_long(void **state)
{
	(void)state;
	check_generated("aAbB-_ \xe6\xb5", 9, 5, 63, 7, 5);
	struct text_bytes tb;
	text_bytes_of(&tb, "Round 7 of the BEST");
	assert_true(text_may_hold(&tb, "best"));
	assert_true(text_may_hold(&tb, "ROUND"));
	assert_false(text_may_hold(&tb, "x"));
	assert_true(text_may_hold(NULL, "x"));
}

static void test_find_any(void **state)
{
	(void)state;
	static const char *const w[] = { "重测", "Re-Measure", "rerun", NULL };
	struct text_bytes tb;
	const char *s = "baseline RE-MEASURED after the restart";
	text_bytes_of(&tb, s);
	assert_int_equal(text_find_any_ci(s, &tb, w), 1);
	assert_int_equal(text_find_any_ci(s, NULL, w), 1);
	assert_int_equal(text_find_any_ci("基线重测", NULL, w), 0);
	assert_int_equal(text_find_any_ci("nothing here", NULL, w), -1);
	/* the first needle in list order wins, not the first in the text */
	assert_int_equal(text_find_any_ci("rerun 重测", NULL, w), 0);
}

/* text_scan against a byte at a time reading, over generated lines of
 * every length around the 16-byte blocks, with NULs, high bytes and marks
 * anywhere. */
static void test_text_scan(void **state)
{
	(void)state;
	const char alpha[] = "ab|<\x80\xe4 \0";
	unsigned seed = 11;
	for (int k = 0; k < 20000; k++) {
		char s[80];
		size_t n = next_rand(&seed) & 63;
		for (size_t i = 0; i < n; i++) {
			unsigned r = next_rand(&seed);
			s[i] = (r & 7) ? 'x' : alpha[(r >> 3) % 8]; /* mostly plain, some special */
		}
		struct text_scan ts;
		text_scan(&ts, s, n, '|', '<');
		size_t len = 0, high;
		unsigned marks = 0;
		while (len < n && s[len])
			len++;
		for (high = 0; high < len && (unsigned char)s[high] < 0x80; high++)
			;
		for (size_t i = 0; i < len; i++)
			marks |= (s[i] == '|' ? TEXT_MARK_A : 0u) | (s[i] == '<' ? TEXT_MARK_B : 0u);
		assert_int_equal(ts.len, len);
		assert_int_equal(ts.high, high);
		assert_int_equal(ts.marks, marks);
	}
}

static void test_decimal_scan(void **state)
{
	(void)state;
	double v = 0;
	assert_int_equal(decimal_scan("31.83 us", &v), 5);
	assert_true(v == 31.83);
	assert_int_equal(decimal_scan("7.", &v), 2);
	assert_true(v == 7.0);
	assert_int_equal(decimal_scan(".5x", &v), 2);
	assert_true(v == 0.5);
	assert_int_equal(decimal_scan("2.5e3us", &v), 5);
	assert_true(v == 2500.0);
	assert_int_equal(decimal_scan("2.5e", &v), 3); /* no digits after e: not an exponent */
	assert_true(v == 2.5);
	assert_int_equal(decimal_scan("0x10", &v), 1); /* the 0, never hexadecimal */
	assert_true(v == 0.0);
	assert_int_equal(decimal_scan("inf", &v), 0);
	assert_int_equal(decimal_scan("-1", &v), 0);
	assert_int_equal(decimal_scan(".", &v), 0);
	assert_int_equal(decimal_scan("1e999", &v), 0);
	/* skip_exponent: a sign needs a digit after it; E as e */
	assert_int_equal(decimal_scan("4e+", &v), 1);
	assert_true(v == 4.0);
	assert_int_equal(decimal_scan("4e-2x", &v), 4);
	assert_true(v == 0.04);
	assert_int_equal(decimal_scan("4E+2", &v), 4);
	assert_true(v == 400.0);
	assert_int_equal(decimal_scan("e5", &v), 0);
	assert_int_equal(decimal_scan(".e5", &v), 0);
	assert_int_equal(decimal_scan("12345678901234567890.5", &v), 22); /* over 15 digits */
	assert_true(v == strtod("12345678901234567890.5", NULL));
	/* generated: the fast path gives strtod's double, bit for bit */
	unsigned seed = 11;
	for (int k = 0; k < 200000; k++) {
		char buf[40];
		unsigned long long m = 0;
		for (int i = 0; i < 3; i++)
			m = m * 100003u + ((seed = seed * 1103515245u + 12345u) >> 8);
		int digits = 1 + (int)((seed >> 3) % 15), point = (int)((seed >> 9) % (unsigned)(digits + 1));
		char d[20];
		snprintf(d, sizeof(d), "%015llu", m % 1000000000000000ull);
		size_t o = 0;
		for (int i = 0; i < digits; i++) {
			if (i == point && point > 0)
				buf[o++] = '.';
			buf[o++] = d[15 - digits + i];
		}
		buf[o] = '\0';
		assert_int_equal(decimal_scan(buf, &v), o);
		double ref = strtod(buf, NULL);
		assert_memory_equal(&v, &ref, sizeof(v));
	}
}

/* figures print as a log writes them: every digit read, no more */
static void test_decimal_shortest(void **state)
{
	(void)state;
	static const char *const in[] = { "80.508", "40", "8.369", "0.1", "11.956", "1234567.25",
					  "0.000123", "0", "-3.5", "8.9670" };
	static const char *const want[] = { "80.508", "40", "8.369", "0.1", "11.956", "1234567.25",
					    "0.000123", "0", "-3.5", "8.967" };
	char buf[64];
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		assert_string_equal(decimal_format_shortest(buf, sizeof(buf), strtod(in[i], NULL)), want[i]);
	/* beyond what a log writes: still reads back exactly */
	decimal_format_shortest(buf, sizeof(buf), 1e300);
	assert_true(strtod(buf, NULL) == 1e300);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find_ci),
		cmocka_unit_test(test_find_ci_long),
		cmocka_unit_test(test_find_any),
		cmocka_unit_test(test_text_scan),
		cmocka_unit_test(test_decimal_scan),
		cmocka_unit_test(test_decimal_shortest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
