/* uname.c: names as identities (see uname.h), over ICU: NFKC from
 * unorm2, the default-ignorable property from uchar, skeletons from
 * uspoof. */
#include "util/uname.h"
#include "util/utf8.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/uspoof.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>

static int is_sep(int c)
{
	return c == ' ' || c == '\t' || c == '-' || c == '_' || c == '/' || c == '.' || c == ':';
}

/* Lowercase ASCII, runs of separators to one '_' (none at either end),
 * at most n-1 bytes and a NUL: the folding names had before Unicode was
 * considered, kept byte for byte. */
static char *fold_ascii(const char *s, char *out, size_t n)
{
	size_t k = 0;
	int sep = 0;
	if (n == 0)
		return out;
	for (; *s && k + 1 < n; s++) {
		int c = (unsigned char)*s;
		if (is_sep(c)) {
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

static int is_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return 0;
	return 1;
}

/* Drops default-ignorable code points from u[0..*len) in place. */
static void drop_ignorables(UChar *u, int32_t *len)
{
	int32_t i = 0, k = 0;
	while (i < *len) {
		int32_t at = i;
		UChar32 c;
		U16_NEXT(u, i, *len, c);
		if (u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT))
			continue;
		while (at < i)
			u[k++] = u[at++];
	}
	*len = k;
}

/* NFKC of s with default ignorables removed (before, so that what they
 * separated composes, and after), as malloc'd UTF-8; NULL on failure. */
static char *nfkc_visible(const char *s)
{
	UErrorCode st = U_ZERO_ERROR;
	const UNormalizer2 *nfkc = unorm2_getNFKCInstance(&st);
	size_t len = strlen(s);
	UChar *u = NULL, *v = NULL;
	char *r = NULL;
	int32_t ulen = 0, vlen = 0, rlen = 0;
	if (U_FAILURE(st) || len > INT32_MAX / 4)
		return NULL;
	u = malloc((len + 1) * sizeof(*u));
	if (!u)
		goto out;
	u_strFromUTF8WithSub(u, (int32_t)len + 1, &ulen, s, (int32_t)len, 0xFFFD, NULL, &st);
	if (U_FAILURE(st))
		goto out;
	drop_ignorables(u, &ulen);
	/* NFKC expands (U+FDFA is 18 characters): ask how long, then write */
	vlen = unorm2_normalize(nfkc, u, ulen, NULL, 0, &st);
	if (st != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(st))
		goto out;
	st = U_ZERO_ERROR;
	v = malloc(((size_t)vlen + 1) * sizeof(*v));
	if (!v)
		goto out;
	vlen = unorm2_normalize(nfkc, u, ulen, v, vlen + 1, &st);
	if (U_FAILURE(st))
		goto out;
	drop_ignorables(v, &vlen);
	u_strToUTF8(NULL, 0, &rlen, v, vlen, &st);
	if (st != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(st))
		goto out;
	st = U_ZERO_ERROR;
	r = malloc((size_t)rlen + 1);
	if (r) {
		u_strToUTF8(r, rlen + 1, NULL, v, vlen, &st);
		if (U_FAILURE(st)) {
			free(r);
			r = NULL;
		}
	}
out:
	free(u);
	free(v);
	return r;
}

/* Cuts a partial UTF-8 sequence off the end of out (after a fold that
 * ran out of room). */
static void cut_partial(char *out)
{
	size_t k = strlen(out), i = k;
	while (i > 0 && ((unsigned char)out[i - 1] & 0xC0) == 0x80)
		i--;
	if (i == 0 || (unsigned char)out[i - 1] < 0xC0)
		return;
	unsigned cp;
	if (utf8_decode((const unsigned char *)out + i - 1, k - i + 1, &cp) != k - i + 1)
		out[i - 1] = '\0';
}

int uname_disguised(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x80)
			continue;
		if ((p[0] == 0xEF && p[1] == 0xBC && ((p[2] >= 0x90 && p[2] <= 0x99) || p[2] == 0x8E)) ||
		    (p[0] == 0xE2 && p[1] == 0x80 && p[2] >= 0x8B && p[2] <= 0x8F) ||
		    (p[0] == 0xE2 && p[1] == 0x81 && p[2] >= 0xA0 && p[2] <= 0xA4) ||
		    (p[0] == 0xC2 && p[1] == 0xAD) || (p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) ||
		    (p[0] == 0xEF && p[1] == 0xB8 && p[2] >= 0x80 && p[2] <= 0x8F) ||
		    (p[0] == 0xE3 && (p[1] == 0x8E || p[1] == 0x8F)))
			return 1;
	}
	return 0;
}

char *uname_shown(const char *s)
{
	return is_ascii(s) ? NULL : nfkc_visible(s);
}

char *uname_identity(const char *s, char *out, size_t n)
{
	if (n == 0 || is_ascii(s))
		return fold_ascii(s, out, n);
	char *v = nfkc_visible(s);
	fold_ascii(v ? v : s, out, n);
	free(v);
	cut_partial(out);
	return out;
}

/* The next byte fold_ascii writes for the text at *p (0 at its end), *p
 * moved past what it used; *started: a byte was given. -1 when that byte
 * depends on a byte >= 0x80 (NFKC and ignorables first). */
static int fold_next(const char **p, int *started)
{
	const char *s = *p;
	int sep = 0;
	while (*s && is_sep((unsigned char)*s)) {
		s++;
		sep = 1;
	}
	if ((unsigned char)*s >= 0x80)
		return -1;
	if (!*s) {
		*p = s;
		return 0;
	}
	if (sep && *started) {
		*p = s;
		return '_';
	}
	*started = 1;
	*p = s + 1;
	return (*s >= 'A' && *s <= 'Z') ? *s + 32 : (unsigned char)*s;
}

/* uname_same on the ASCII folding, compared as it is made (UNAME_MAX - 1
 * bytes at most, as the buffers of the general case hold): 1 or 0, or -1
 * when a byte >= 0x80 comes before a difference. A difference between
 * bytes made from ASCII alone is final: NFKC leaves ASCII as it is, and a
 * combining mark after it composes into a letter that keeps its base. */
static int same_ascii(const char *a, const char *b)
{
	int sa = 0, sb = 0;
	for (size_t k = 0; k + 1 < UNAME_MAX; k++) {
		int x = fold_next(&a, &sa), y = fold_next(&b, &sb);
		if (x < 0 || y < 0)
			return -1;
		if (x != y)
			return 0;
		if (x == 0)
			return k > 0;
	}
	return 1;
}

int uname_same(const char *a, const char *b)
{
	char x[UNAME_MAX], y[UNAME_MAX];
	if (strcmp(a, b) == 0)
		return 1;
	int same = same_ascii(a, b);
	if (same >= 0)
		return same;
	uname_identity(a, x, sizeof(x));
	uname_identity(b, y, sizeof(y));
	return x[0] && strcmp(x, y) == 0;
}

/* The one spoof checker: opened on first use, kept for the process. */
static pthread_once_t checker_once = PTHREAD_ONCE_INIT;
static USpoofChecker *checker;

static void checker_open(void)
{
	UErrorCode st = U_ZERO_ERROR;
	USpoofChecker *sc = uspoof_open(&st);
	if (U_FAILURE(st)) {
		uspoof_close(sc);
		return;
	}
	checker = sc;
}

int uname_skeleton(const char *s, char *out, size_t n)
{
	char id[UNAME_MAX], sk[UNAME_MAX * 4];
	UErrorCode st = U_ZERO_ERROR;
	if (n == 0)
		return -1;
	out[0] = '\0';
	if (pthread_once(&checker_once, checker_open) != 0 || !checker)
		return -1;
	uname_identity(s, id, sizeof(id));
	uspoof_getSkeletonUTF8(checker, 0, id, -1, sk, (int32_t)sizeof(sk), &st);
	if (U_FAILURE(st) || st == U_STRING_NOT_TERMINATED_WARNING)
		return -1;
	/* the confusables map '0' to 'O' and Cyrillic 'А' to 'A': folded
	 * again, they meet the lowercase identity forms */
	if (strlen(sk) >= n)
		return -1;
	fold_ascii(sk, out, n);
	return 0;
}

int uname_confusable(const char *a, const char *b)
{
	char x[UNAME_MAX * 2], y[UNAME_MAX * 2];
	if (uname_same(a, b))
		return 0;
	if (uname_skeleton(a, x, sizeof(x)) || uname_skeleton(b, y, sizeof(y)))
		return 0;
	return x[0] && strcmp(x, y) == 0;
}

/* The code points of s (UTF-8) into cp (at most max); returns how many. */
static size_t code_points(const char *s, unsigned *cp, size_t max)
{
	size_t k = 0, len = strlen(s);
	const unsigned char *p = (const unsigned char *)s, *e = p + len;
	while (p < e && k < max) {
		size_t m = utf8_decode(p, (size_t)(e - p), &cp[k]);
		if (m == 0) {
			cp[k] = 0xFFFD;
			m = 1;
		}
		p += m;
		k++;
	}
	return k;
}

/* Appends printf-style text to out (size bytes) at *k, cut to fit. */
static void add(char *out, size_t size, size_t *k, const char *fmt, ...)
{
	if (*k + 1 >= size)
		return;
	va_list ap;
	va_start(ap, fmt);
	int w = vsnprintf(out + *k, size - *k, fmt, ap);
	va_end(ap);
	if (w > 0)
		*k = (size_t)w >= size - *k ? size - 1 : *k + (size_t)w;
}

/* "U+0430 CYRILLIC SMALL LETTER A" for each of cp[0..n) (at most 4),
 * joined with ", ", "nothing" when n is 0; appended to out at *k. */
static void describe(const unsigned *cp, size_t n, char *out, size_t size, size_t *k)
{
	if (n == 0)
		add(out, size, k, "nothing");
	for (size_t i = 0; i < n && i < 4; i++) {
		char name[128];
		UErrorCode st = U_ZERO_ERROR;
		int32_t m = u_charName((UChar32)cp[i], U_UNICODE_CHAR_NAME, name, (int32_t)sizeof(name), &st);
		if (U_FAILURE(st) || m <= 0 || m >= (int32_t)sizeof(name))
			name[0] = '\0';
		add(out, size, k, "%sU+%04X%s%s", i ? ", " : "", cp[i], name[0] ? " " : "", name);
	}
	if (n > 4)
		add(out, size, k, " and %zu more", n - 4);
}

char *uname_explain(const char *name, const char *recorded, char *out, size_t n)
{
	char x[UNAME_MAX], y[UNAME_MAX];
	unsigned a[UNAME_MAX], b[UNAME_MAX];
	size_t k = 0;
	if (n == 0)
		return out;
	out[0] = '\0';
	size_t na = code_points(uname_identity(name, x, sizeof(x)), a, UNAME_MAX);
	size_t nb = code_points(uname_identity(recorded, y, sizeof(y)), b, UNAME_MAX);
	size_t pre = 0, suf = 0;
	while (pre < na && pre < nb && a[pre] == b[pre])
		pre++;
	while (suf < na - pre && suf < nb - pre && a[na - 1 - suf] == b[nb - 1 - suf])
		suf++;
	describe(a + pre, na - pre - suf, out, n, &k);
	add(out, n, &k, " where the record has ");
	describe(b + pre, nb - pre - suf, out, n, &k);
	return out;
}
