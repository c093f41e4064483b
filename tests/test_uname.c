/* test_uname.c: names as identities (util/uname.h): NFKC, invisible code
 * points, the ASCII folding kept byte for byte (against the old folding
 * over generated names and every name of the records in testdata/ and
 * ../shared), and look-alikes by Unicode's confusables skeleton. */
#include "testlib.h"

#include <dirent.h>
#include <sys/stat.h>

#include "util/decimal.h"
#include "util/uname.h"
#include "util/utf8.h"

/* The folding names had before (optlog_norm_name), the reference for
 * ASCII names. */
static char *old_fold(const char *s, char *out, size_t n)
{
	size_t k = 0;
	int sep = 0;
	if (n == 0)
		return out;
	for (; *s && k + 1 < n; s++) {
		int c = (unsigned char)*s;
		if (c == ' ' || c == '\t' || c == '-' || c == '_' || c == '/' || c == '.' || c == ':') {
			sep = 1;
			continue;
		}
		if (sep && k > 0 && k + 1 < n)
			out[k++] = '_';
		sep = 0;
		if (k + 1 < n)
			out[k++] = (char)((c >= 'A' && c <= 'Z') ? c + 32 : c);
	}
	out[k] = '\0';
	return out;
}

static void id_is(const char *name, const char *want)
{
	char out[UNAME_MAX];
	uname_identity(name, out, sizeof(out));
	if (strcmp(out, want) != 0)
		fail_msg("identity of '%s' is '%s', expected '%s'", name, out, want);
}

static void same(const char *a, const char *b)
{
	if (!uname_same(a, b) || !uname_same(b, a))
		fail_msg("'%s' and '%s' should be one name", a, b);
	if (uname_confusable(a, b))
		fail_msg("'%s' and '%s' are one name, not look-alikes", a, b);
}

static void lookalike(const char *name, const char *recorded)
{
	if (uname_same(name, recorded))
		fail_msg("'%s' and '%s' should not be one name", name, recorded);
	if (!uname_confusable(name, recorded) || !uname_confusable(recorded, name))
		fail_msg("'%s' should look like '%s'", name, recorded);
}

static void unrelated(const char *a, const char *b)
{
	if (uname_same(a, b) || uname_confusable(a, b))
		fail_msg("'%s' and '%s' should be unrelated", a, b);
}

static void ascii_folding(void **st)
{
	(void)st;
	id_is("yolo-p3 fp16", "yolo_p3_fp16");
	id_is("Smoke-DIT/fp32", "smoke_dit_fp32");
	id_is("  --a..b::c//d  ", "a_b_c_d");
	id_is("", "");
	same("yolo-p3 fp16", "yolo_p3_fp16");
	/* generated names over letters, digits and every separator, at
	 * every buffer size: byte for byte the old folding */
	static const char alpha[] = "aZ09 \t-_/.:xQ";
	unsigned seed = 7;
	for (int i = 0; i < 20000; i++) {
		char s[40], a[48], b[48];
		size_t len = (seed = seed * 1103515245u + 12345u) >> 16 & 31;
		for (size_t k = 0; k < len; k++)
			s[k] = alpha[((seed = seed * 1103515245u + 12345u) >> 16) % (sizeof(alpha) - 1)];
		s[len] = '\0';
		size_t n = 1 + (size_t)(i % 47);
		memset(a, 'x', sizeof(a));
		memset(b, 'x', sizeof(b));
		old_fold(s, a, n);
		uname_identity(s, b, n);
		assert_memory_equal(a, b, sizeof(a));
	}
	/* uname_same on ASCII (compared as folded, stopping early) against
	 * the old comparison: fold both into 512 bytes, equal and not empty */
	static const char few[] = "aA -_:b";
	for (int i = 0; i < 50000; i++) {
		char s[8], t[8], a[UNAME_MAX], b[UNAME_MAX];
		for (int w = 0; w < 2; w++) {
			char *o = w ? t : s;
			size_t len = (seed = seed * 1103515245u + 12345u) >> 16 & 7;
			for (size_t k = 0; k < len; k++)
				o[k] = few[((seed = seed * 1103515245u + 12345u) >> 16) % (sizeof(few) - 1)];
			o[len] = '\0';
		}
		int want = strcmp(s, t) == 0 || (old_fold(s, a, sizeof(a))[0] && strcmp(a, old_fold(t, b, sizeof(b))) == 0);
		if (uname_same(s, t) != want)
			fail_msg("uname_same('%s', '%s') is %d", s, t, !want);
	}
	/* and with code points outside ASCII among them (composed and
	 * combining accents, invisible, fullwidth, a fullwidth separator):
	 * the early answer of the ASCII part agrees with the identity forms */
	static const char *const piece[] = { "a", "e", "E", "-", "_", "\xc3\xa9", "\xcc\x81", "\xe2\x80\x8b",
					     "\xef\xbc\xa1", "\xef\xbc\x8d", " ", "b" };
	for (int i = 0; i < 50000; i++) {
		char s[64], t[64], a[UNAME_MAX], b[UNAME_MAX];
		for (int w = 0; w < 2; w++) {
			char *o = w ? t : s;
			size_t len = (seed = seed * 1103515245u + 12345u) >> 16 & 7;
			o[0] = '\0';
			for (size_t k = 0; k < len; k++)
				strcat(o, piece[((seed = seed * 1103515245u + 12345u) >> 16) % 12]);
		}
		uname_identity(s, a, sizeof(a));
		uname_identity(t, b, sizeof(b));
		int want = strcmp(s, t) == 0 || (a[0] && strcmp(a, b) == 0);
		if (uname_same(s, t) != want)
			fail_msg("uname_same('%s', '%s') is %d", s, t, !want);
	}
	/* beyond the 511 bytes compared: equal there, different after */
	char l1[700], l2[700];
	memset(l1, 'q', 600);
	memcpy(l2, l1, 600);
	strcpy(l1 + 600, "-tail-one");
	strcpy(l2 + 600, "_TAIL_TWO");
	assert_true(uname_same(l1, l2));
	l2[510] = 'r';
	assert_false(uname_same(l1, l2));
}

/* Every string value of the keys that name things in a JSON line. */
static size_t names_of_line(const char *line, size_t *mismatch)
{
	static const char *const keys[] = { "\"workload\"", "\"dispatch_path\"", "\"candidate_id\"", "\"kernel_id\"",
					    "\"workload_id\"", "\"parent_id\"", "\"final_candidate_id\"", NULL };
	size_t n = 0;
	for (int k = 0; keys[k]; k++) {
		for (const char *p = strstr(line, keys[k]); p; p = strstr(p + 1, keys[k])) {
			const char *q = p + strlen(keys[k]);
			while (*q == ' ' || *q == ':')
				q++;
			if (*q != '"')
				continue;
			const char *e = strchr(q + 1, '"');
			if (!e || e - q - 1 >= 256)
				continue;
			char name[256], a[UNAME_MAX], b[UNAME_MAX];
			memcpy(name, q + 1, (size_t)(e - q - 1));
			name[e - q - 1] = '\0';
			int ascii = 1;
			for (const char *c = name; *c; c++)
				ascii &= (unsigned char)*c < 0x80;
			if (!ascii)
				continue;
			n++;
			if (strcmp(old_fold(name, a, sizeof(a)), uname_identity(name, b, sizeof(b))) != 0)
				++*mismatch;
		}
	}
	return n;
}

/* The names of every .jsonl file under dir (recursively). */
static size_t names_under(const char *dir, size_t *mismatch)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0;
	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL) {
		char path[4096];
		struct stat sb;
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (lstat(path, &sb) != 0)
			continue;
		if (S_ISDIR(sb.st_mode)) {
			n += names_under(path, mismatch);
			continue;
		}
		size_t l = strlen(de->d_name);
		if (!S_ISREG(sb.st_mode) || l < 6 || strcmp(de->d_name + l - 6, ".jsonl") != 0)
			continue;
		FILE *f = fopen(path, "r");
		char line[1 << 16];
		while (f && fgets(line, sizeof(line), f))
			n += names_of_line(line, mismatch);
		if (f)
			fclose(f);
	}
	closedir(d);
	return n;
}

static void ascii_names_of_records(void **st)
{
	(void)st;
	size_t bad = 0, n = names_under(testlib_testdata(), &bad);
	assert_true(n > 500); /* testdata/ records name things often: never a vacuous pass */
	const char *shared = testlib_shared();
	if (shared)
		n += names_under(shared, &bad);
	print_message("%zu ASCII names of records compared with the old folding\n", n);
	assert_int_equal(bad, 0);
}

static void nfkc(void **st)
{
	(void)st;
	/* fullwidth letters, digits, hyphen, solidus, ideographic space */
	id_is("ｙｏｌｏ－ｐ３　ｆｐ１６", "yolo_p3_fp16");
	id_is("Ｓｍｏｋｅ／ＤＩＴ", "smoke_dit");
	same("ｙｏｌｏ＿ｐ３＿ｆｐ１６", "yolo_p3_fp16");
	/* ligatures */
	id_is("ﬁlter_ﬂow", "filter_flow");
	same("ﬀn_fp16", "ffn_fp16");
	/* mathematical bold and double-struck letters and digits */
	same("𝐲𝐨𝐥𝐨_p3_𝐟𝐩𝟏𝟔", "yolo_p3_fp16");
	same("𝕞𝕚𝕤𝕙", "mish");
	/* superscript and circled digits */
	same("p³", "p3");
	same("bm④", "bm4");
	/* a no-break space is a space */
	same("yolo\xc2\xa0p3", "yolo_p3");
	/* composed and decomposed accents are one name */
	same("caf\xc3\xa9", "cafe\xcc\x81");
	/* names outside ASCII keep their letters (no case folding there) */
	id_is("层归一化-FP16", "层归一化_fp16");
	unrelated("层归一化", "归一化");
}

static void ignorables(void **st)
{
	(void)st;
	static const char *const invisible[] = { "\xe2\x80\x8b", /* U+200B ZERO WIDTH SPACE */
						 "\xe2\x80\x8d", /* U+200D ZERO WIDTH JOINER */
						 "\xc2\xad",     /* U+00AD SOFT HYPHEN */
						 "\xef\xbb\xbf", /* U+FEFF BOM */
						 "\xef\xb8\x8f", /* U+FE0F VARIATION SELECTOR-16 */
						 "\xe2\x81\xa0", /* U+2060 WORD JOINER */
						 "\xe2\x80\x8c", /* U+200C ZERO WIDTH NON-JOINER */
						 NULL };
	for (int i = 0; invisible[i]; i++) {
		char a[64], b[64], c[64];
		snprintf(a, sizeof(a), "yolo%s_p3", invisible[i]);
		snprintf(b, sizeof(b), "%syolo_p3%s", invisible[i], invisible[i]);
		snprintf(c, sizeof(c), "yo%slo_p3_fp%s16", invisible[i], invisible[i]);
		id_is(a, "yolo_p3");
		id_is(b, "yolo_p3");
		same(a, "yolo_p3");
		same(b, "yolo_p3");
		same(c, "yolo_p3_fp16");
	}
	/* only invisible code points: no name at all */
	id_is("\xe2\x80\x8b\xc2\xad", "");
	unrelated("\xe2\x80\x8b", "\xc2\xad");
}

static void confusables(void **st)
{
	(void)st;
	/* Cyrillic а е о р с in Latin names */
	lookalike("\xd0\xb0" "da_layer_norm", "ada_layer_norm");     /* U+0430 */
	lookalike("r\xd0\xb5lu", "relu");                             /* U+0435 */
	lookalike("y\xd0\xbelo_p3_fp16", "yolo_p3_fp16");             /* U+043E */
	lookalike("\xd1\x80ool", "pool");                             /* U+0440 */
	lookalike("s\xd1\x81" "ale", "scale");                        /* U+0441 */
	lookalike("yolo-p3-fp16 \xd0\xbe", "yolo_p3_fp16_o");         /* separators still fold */
	/* capital Cyrillic А against a lowercased Latin name */
	lookalike("\xd0\x90" "da", "Ada");
	/* Greek omicron */
	lookalike("y\xce\xbflo", "yolo");                             /* U+03BF */
	/* the digit 0 and the letter O, either case */
	lookalike("y0l0_p3", "yolo_p3");
	lookalike("Y0L0_P3", "yolo_p3");
	lookalike("v1_op1", "vl_opl");
	/* NFKC folds mathematical bold: the same name, not a look-alike */
	same("\xf0\x9d\x90\xa8", "o");                                /* U+1D428 */
	/* a look-alike hidden behind an invisible character too */
	lookalike("y\xe2\x80\x8b\xd0\xbelo", "yolo");
	/* different names */
	unrelated("yolo_p3_fp16", "yolo_p4_fp16");
	unrelated("mish", "gelu");
	unrelated("v2_op1_bm4", "v2_op1_bm7");
}

static void explain(void **st)
{
	(void)st;
	char out[512];
	uname_explain("y\xd0\xbelo", "yolo", out, sizeof(out));
	assert_string_equal(out, "U+043E CYRILLIC SMALL LETTER O where the record has U+006F LATIN SMALL LETTER O");
	uname_explain("\xd0\xb0\xd1\x80" "ex", "apex", out, sizeof(out));
	assert_string_equal(out, "U+0430 CYRILLIC SMALL LETTER A, U+0440 CYRILLIC SMALL LETTER ER where the record has "
				 "U+0061 LATIN SMALL LETTER A, U+0070 LATIN SMALL LETTER P");
	uname_explain("y0lo", "yolo", out, sizeof(out));
	assert_string_equal(out, "U+0030 DIGIT ZERO where the record has U+006F LATIN SMALL LETTER O");
	uname_explain("rn", "m", out, sizeof(out));
	assert_string_equal(out, "U+0072 LATIN SMALL LETTER R, U+006E LATIN SMALL LETTER N where the record has "
				 "U+006D LATIN SMALL LETTER M");
	uname_explain("ab", "abc", out, sizeof(out));
	assert_string_equal(out, "nothing where the record has U+0063 LATIN SMALL LETTER C");
	/* cut to fit, never past the buffer */
	char small[16];
	memset(small, 'x', sizeof(small));
	uname_explain("y\xd0\xbelo", "yolo", small, 12);
	assert_int_equal(strlen(small), 11);
	assert_int_equal(small[15], 'x');
}

static void bounds(void **st)
{
	(void)st;
	char out[8];
	/* a cut never splits a character */
	uname_identity("abcde\xd0\xb0\xd0\xb0", out, 7); /* 5 + 2 bytes do not fit with the NUL */
	assert_string_equal(out, "abcde");
	uname_identity("abcd\xd0\xb0\xd0\xb0", out, 7);
	assert_string_equal(out, "abcd\xd0\xb0");
	assert_true(utf8_invalid_at(out, strlen(out)) == (size_t)-1);
	uname_identity("\xd0\xb0", out, 1);
	assert_string_equal(out, "");
	/* invalid UTF-8 reads as U+FFFD, and is folded, not dropped */
	uname_identity("a\xff" "b", out, sizeof(out));
	assert_string_equal(out, "a\xef\xbf\xbd" "b");
	/* NFKC that expands past the name's bytes */
	char big[UNAME_MAX];
	uname_identity("\xef\xb7\xba", big, sizeof(big)); /* U+FDFA: 18 letters */
	assert_true(strlen(big) > 18);
	char sk[UNAME_MAX];
	assert_int_equal(uname_skeleton("y\xd0\xbelo", sk, sizeof(sk)), 0);
	assert_string_equal(sk, "yolo");
	assert_int_equal(uname_skeleton("y\xd0\xbelo", sk, 3), -1);
	assert_string_equal(sk, "");
}

/* uname_shown: what a reader reads, case and separators kept; ASCII is
 * its own reading (NULL). */
static void shown_is(const char *s, const char *want)
{
	char *r = uname_shown(s);
	if (!want) {
		assert_null(r);
		return;
	}
	assert_non_null(r);
	assert_string_equal(r, want);
	free(r);
}

static void shown(void **st)
{
	(void)st;
	shown_is("final_latency: 64.0 us", NULL);
	shown_is("final_latency: \xef\xbc\x93\xef\xbc\x92.\xef\xbc\x90 us", "final_latency: 32.0 us");
	shown_is("3\xe2\x80\x8b" "2.0 us", "32.0 us");              /* zero-width space */
	shown_is("6\xe2\x81\xa0" "4 \xe3\x8e\xb2", "64 \xce\xbcs"); /* word joiner; the squared us sign */
	shown_is("Final_Latency\xef\xbc\x9a 2.5\xc3\x97", "Final_Latency: 2.5\xc3\x97"); /* fullwidth colon; x sign kept */
	shown_is("\xe6\x97\xb6\xe5\xbb\xb6 64 us", "\xe6\x97\xb6\xe5\xbb\xb6 64 us");     /* CJK kept */
	/* uname_disguised: the cells worth normalising, by their bytes */
	assert_true(uname_disguised("\xef\xbc\x96\xef\xbc\x90.0"));   /* fullwidth 6, 0 */
	assert_true(uname_disguised("6\xe2\x80\x8b" "0.0"));            /* zero-width space */
	assert_true(uname_disguised("60\xef\xbc\x8e" "0"));             /* fullwidth full stop */
	assert_true(uname_disguised("6\xc2\xad" "0"));                   /* soft hyphen */
	assert_true(uname_disguised("64 \xe3\x8e\xb2"));                /* squared us */
	assert_false(uname_disguised("c0\xef\xbc\x88" "best\xef\xbc\x89")); /* c0（best） */
	assert_false(uname_disguised("64.0"));
	assert_false(uname_disguised("\xe6\x97\xb6\xe5\xbb\xb6 \xc2\xb5s"));
}

static void marked_numbers(void **st)
{
	(void)st;
	double v = 0;
	assert_int_equal(decimal_scan_marked("**3.12** us", &v), 6);
	assert_close(v, 3.12, 0);
	assert_int_equal(decimal_scan_marked("`5`", &v), 2);
	assert_close(v, 5, 0);
	assert_int_equal(decimal_scan_marked(".5x", &v), 2);
	assert_close(v, 0.5, 0);
	assert_int_equal(decimal_scan_marked("**x", &v), 0);
	assert_int_equal(decimal_scan_marked("-3", &v), 0);
	assert_int_equal(decimal_scan_marked("*.", &v), 0);
	assert_int_equal(decimal_scan_marked("", &v), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ascii_folding),
		cmocka_unit_test(ascii_names_of_records),
		cmocka_unit_test(nfkc),
		cmocka_unit_test(ignorables),
		cmocka_unit_test(confusables),
		cmocka_unit_test(explain),
		cmocka_unit_test(bounds),
		cmocka_unit_test(marked_numbers),
		cmocka_unit_test(shown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
