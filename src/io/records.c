/* io/records.c: the perf_records.jsonl reader (io/records.h).
 *
 * A line goes through named steps: check_bytes (NUL, UTF-8, bare CR),
 * parse_object (JSON syntax in place, known fields into a table, unknown
 * keys into the duplicate set), then the schema steps (take_key_fields,
 * take_v2_fields, take_numbers, take_timestamp) that word every error the
 * way the gate and the statistics commands print it. */
#include "io/records.h"
#include "util/utf8.h"
#include "util/decimal.h"
#include "util/scan16.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Strings are scanned 16 bytes at a time past a line's end (util/scan16.h):
 * every line this reader parses is followed by a NUL and that many bytes. */
_Static_assert(LINEIO_PAD >= SCAN16_PAD, "lineio must pad lines for scan16_string_end_nul");
_Static_assert(STRPOOL_PAD >= 16, "intern_id reads 16 bytes of an interned id");

/* ---- the fields a record may have ---- */

enum fkey { F_ROUND, F_CAND, F_PARENT, F_DISPATCH, F_WORKLOAD, F_KERNEL, F_WORKLOAD_ID, F_PHASE,
	    F_APATH, F_ASHA, F_DURATION, F_L0, F_MSPROF, F_TS, F_AICORE, F_MEMBW, F_MEASURED,
	    F_N };

/* The keys in enum fkey order, written once: their names, lengths, and
 * each followed by its closing quote in a 16-byte row (the longest key has
 * 15), which is what a predicted key is compared with (member_fast). */
#define FKEY_LIST(X)                                                                     \
	X(round) X(candidate_id) X(parent_id) X(dispatch_path) X(workload) X(kernel_id)  \
	X(workload_id) X(phase) X(artifact_path) X(artifact_sha256) X(duration_us)       \
	X(l0_pass) X(msprof_raw_path) X(timestamp) X(aicore_util) X(mem_bw_gbps)         \
	X(measured)
#define FKEY_NAME(k) #k,
#define FKEY_LEN(k) sizeof #k - 1,
#define FKEY_QUOTED(k) #k "\"",
static const char *const fkey_name[F_N] = { FKEY_LIST(FKEY_NAME) };
static const unsigned char fkey_len[F_N] = { FKEY_LIST(FKEY_LEN) };
static const char fkey_quoted[F_N][16] = { FKEY_LIST(FKEY_QUOTED) };

enum vtype { V_NONE = 0, V_STR, V_NUM, V_TRUE, V_FALSE, V_NULL, V_NESTED };

struct fval {
	enum vtype t;
	const char *s;  /* V_STR: NUL-terminated in the line */
	size_t n;       /* V_STR: length */
	double num;     /* V_NUM */
};

/* 16 bytes: a line of tens of thousands of keys keeps its set in cache. */
struct records_keyslot {
	const char *s;  /* the key, NUL-terminated in the line (it holds no NUL) */
	uint32_t hash;  /* low bits of strpool_hash */
	unsigned gen;   /* line generation that filled the slot */
};

/* An unknown key noted but not yet inserted (note_key). */
#define KEY_AHEAD 8
struct pending_key {
	const char *k;
	size_t n;
	uint32_t h;
};

/* Parser state of one line. */
struct lp {
	char *p, *e;            /* cursor over the writable line; *e is a NUL */
	char *start;            /* for byte offsets in messages */
	struct fval f[F_N];
	const char *dup;        /* first repeated key, NUL-terminated */
	const char *why;        /* syntax problem, static text */
	char *why_at;           /* where it was found */
	struct records_reader *rd;
	int not_object;      /* valid JSON, but not an object */
	unsigned idx;        /* members read so far (the place in rd->key_order) */
	size_t used;         /* unknown keys in the duplicate set */
	size_t nahead;       /* unknown keys noted; the last KEY_AHEAD wait in ahead */
	struct pending_key ahead[KEY_AHEAD];
};

static int fail(struct lp *lp, const char *why)
{
	if (!lp->why) {
		lp->why = why;
		lp->why_at = lp->p;
	}
	return -1;
}

static inline int key_id(const char *s, size_t n)
{
	switch (n) {
	case 5:
		return memcmp(s, "round", 5) == 0 ? F_ROUND : memcmp(s, "phase", 5) == 0 ? F_PHASE : -1;
	case 7:
		return memcmp(s, "l0_pass", 7) == 0 ? F_L0 : -1;
	case 8:
		return memcmp(s, "workload", 8) == 0 ? F_WORKLOAD : memcmp(s, "measured", 8) == 0 ? F_MEASURED : -1;
	case 9:
		return memcmp(s, "parent_id", 9) == 0 ? F_PARENT : memcmp(s, "kernel_id", 9) == 0 ? F_KERNEL
		       : memcmp(s, "timestamp", 9) == 0 ? F_TS : -1;
	case 11:
		return memcmp(s, "workload_id", 11) == 0 ? F_WORKLOAD_ID : memcmp(s, "duration_us", 11) == 0
		       ? F_DURATION : memcmp(s, "aicore_util", 11) == 0 ? F_AICORE
		       : memcmp(s, "mem_bw_gbps", 11) == 0 ? F_MEMBW : -1;
	case 12:
		return memcmp(s, "candidate_id", 12) == 0 ? F_CAND : -1;
	case 13:
		return memcmp(s, "dispatch_path", 13) == 0 ? F_DISPATCH : memcmp(s, "artifact_path", 13) == 0 ? F_APATH : -1;
	case 15:
		return memcmp(s, "artifact_sha256", 15) == 0 ? F_ASHA : memcmp(s, "msprof_raw_path", 15) == 0 ? F_MSPROF : -1;
	}
	return -1;
}

/* ---- JSON syntax, in place ---- */

/* Past the JSON whitespace at p. The line is followed by a NUL (every
 * reader puts one there) and holds none itself (check_bytes), so the NUL
 * stops the scan at the line's end without a bounds test; every JSON
 * whitespace byte is at most ' ', so most bytes leave after one
 * comparison, and the usual single space costs one test. */
static inline char *ws_at(char *p)
{
	p += *p == ' ';
	while ((unsigned char)*p <= ' ' && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/* Past the whitespace at lp->p. */
static inline void skip_ws(struct lp *lp)
{
	lp->p = ws_at(lp->p);
}

static int hex4(const char *p, unsigned *out)
{
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static char *put_utf8(char *w, unsigned cp)
{
	if (cp < 0x80) {
		*w++ = (char)cp;
	} else if (cp < 0x800) {
		*w++ = (char)(0xC0 | (cp >> 6));
		*w++ = (char)(0x80 | (cp & 0x3F));
	} else if (cp < 0x10000) {
		*w++ = (char)(0xE0 | (cp >> 12));
		*w++ = (char)(0x80 | ((cp >> 6) & 0x3F));
		*w++ = (char)(0x80 | (cp & 0x3F));
	} else {
		*w++ = (char)(0xF0 | (cp >> 18));
		*w++ = (char)(0x80 | ((cp >> 12) & 0x3F));
		*w++ = (char)(0x80 | ((cp >> 6) & 0x3F));
		*w++ = (char)(0x80 | (cp & 0x3F));
	}
	return w;
}

/* One \uXXXX escape (with its pair for a surrogate) at lp->p (just past the
 * 'u'); writes UTF-8 at *w. Decoded text is never longer than the escape. */
static int unescape_u(struct lp *lp, char **w)
{
	unsigned cp, lo;
	if (lp->e - lp->p < 4 || hex4(lp->p, &cp) != 0)
		return fail(lp, "bad \\u escape");
	lp->p += 4;
	if (cp >= 0xDC00 && cp <= 0xDFFF)
		return fail(lp, "lone UTF-16 surrogate in a \\u escape");
	if (cp >= 0xD800 && cp <= 0xDBFF) {
		if (lp->e - lp->p < 6 || lp->p[0] != '\\' || lp->p[1] != 'u' || hex4(lp->p + 2, &lo) != 0 ||
		    lo < 0xDC00 || lo > 0xDFFF)
			return fail(lp, "lone UTF-16 surrogate in a \\u escape");
		lp->p += 6;
		cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
	}
	if (cp == 0)
		return fail(lp, "\\u0000 in a string");
	*w = put_utf8(*w, cp);
	return 0;
}

/* The rest of a string with escapes, from lp->p (at a backslash); w is
 * where decoded bytes go. */
static __attribute__((noinline)) int string_slow(struct lp *lp, char *w, size_t *n, const char *s)
{
	while (lp->p < lp->e && *lp->p != '"') {
		unsigned char c = (unsigned char)*lp->p;
		if (c < 0x20)
			return fail(lp, "control character in a string");
		if (c != '\\') {
			*w++ = *lp->p++;
			continue;
		}
		if (++lp->p >= lp->e)
			break;
		char x = *lp->p++;
		switch (x) {
		case '"': case '\\': case '/': *w++ = x; break;
		case 'b': *w++ = '\b'; break;
		case 'f': *w++ = '\f'; break;
		case 'n': *w++ = '\n'; break;
		case 'r': *w++ = '\r'; break;
		case 't': *w++ = '\t'; break;
		case 'u':
			if (unescape_u(lp, &w) != 0)
				return -1;
			break;
		default:
			lp->p--;
			return fail(lp, "bad escape in a string");
		}
	}
	if (lp->p >= lp->e)
		return fail(lp, "unterminated string");
	lp->p++;
	*w = '\0';
	*n = (size_t)(w - s);
	return 0;
}

/* A string at lp->p (at its opening quote): *s, *n are its decoded text,
 * NUL-terminated in place. */
static inline int parse_string(struct lp *lp, const char **s, size_t *n)
{
	char *b = ++lp->p;
	lp->p += scan16_string_end_nul(lp->p); /* stops at the NUL at lp->e at the latest */
	*s = b;
	if (lp->p < lp->e && *lp->p == '"') {
		*lp->p++ = '\0';
		*n = (size_t)(lp->p - 1 - b);
		return 0;
	}
	if (lp->p < lp->e && *lp->p != '\\')
		return fail(lp, "control character in a string");
	return string_slow(lp, lp->p, n, b);
}

/* Digits run at p; returns its end. */
static const char *digits_end(const char *p, const char *e)
{
	while (p < e && *p >= '0' && *p <= '9')
		p++;
	return p;
}

/* The parts of a number literal. */
struct numtext {
	const char *b, *e;      /* the whole literal */
	const char *ib, *ie;    /* integer digits */
	const char *fb, *fe;    /* fraction digits (empty when none) */
	int neg, expo;
};

/* The RFC 8259 grammar of a number at p (before e): its parts in *t and
 * 0, or -1 when it is not one. Nothing is written. */
static inline int number_scan(const char *p, const char *e, struct numtext *t)
{
	t->b = p;
	t->neg = p < e && *p == '-';
	p += t->neg;
	t->ib = p;
	t->ie = digits_end(p, e);
	if (t->ie == t->ib || (*t->ib == '0' && t->ie - t->ib > 1))
		return -1;
	t->fb = t->fe = t->ie;
	if (t->ie < e && *t->ie == '.') {
		t->fb = t->ie + 1;
		t->fe = digits_end(t->fb, e);
		if (t->fe == t->fb)
			return -1;
	}
	p = t->fe;
	t->expo = p < e && (*p == 'e' || *p == 'E');
	if (t->expo) {
		p++;
		if (p < e && (*p == '+' || *p == '-'))
			p++;
		const char *x = digits_end(p, e);
		if (x == p)
			return -1;
		p = x;
	}
	t->e = p;
	return 0;
}

/* The number at lp->p (number_scan()); moves past it. */
static int number_grammar(struct lp *lp, struct numtext *t)
{
	if (number_scan(lp->p, lp->e, t) != 0)
		return fail(lp, "bad number");
	lp->p = (char *)t->e;
	return 0;
}

/* Its value: plain decimals with at most 15 significant digits exactly
 * (one correctly rounded division of exact doubles); the rest by strtod. */
static double number_value(const struct numtext *t)
{
	double fast;
	if (!t->expo && decimal_fast(t->ib, t->ie, t->fb, t->fe, &fast) == 0)
		return t->neg ? -fast : fast;
	char tmp[64];
	size_t len = (size_t)(t->e - t->b);
	if (len < sizeof(tmp)) {
		memcpy(tmp, t->b, len);
		tmp[len] = '\0';
		return strtod(tmp, NULL);
	}
	char *end = (char *)t->e; /* a long number: terminated in place (the line has a NUL after it) */
	char c = *end;
	*end = '\0';
	double d = strtod(t->b, NULL);
	*end = c;
	return d;
}

static int parse_number(struct lp *lp, double *out)
{
	struct numtext t;
	if (number_grammar(lp, &t) != 0)
		return -1;
	*out = number_value(&t);
	return 0;
}

static int parse_literal(struct lp *lp, struct fval *v)
{
	size_t left = (size_t)(lp->e - lp->p);
	if (left >= 4 && memcmp(lp->p, "true", 4) == 0) {
		v->t = V_TRUE;
		lp->p += 4;
	} else if (left >= 5 && memcmp(lp->p, "false", 5) == 0) {
		v->t = V_FALSE;
		lp->p += 5;
	} else if (left >= 4 && memcmp(lp->p, "null", 4) == 0) {
		v->t = V_NULL;
		lp->p += 4;
	} else {
		return fail(lp, "unexpected character");
	}
	return 0;
}

/* A scalar value at lp->p (not an object or array). */
static int parse_scalar(struct lp *lp, struct fval *v)
{
	char c = *lp->p;
	if (c == '"') {
		v->t = V_STR;
		return parse_string(lp, &v->s, &v->n);
	}
	if (c == '-' || (c >= '0' && c <= '9')) {
		v->t = V_NUM;
		return parse_number(lp, &v->num);
	}
	return parse_literal(lp, v);
}

/* What each open level of a nested value is ('{' or '['), innermost last. */
struct nest {
	char stack[RECORDS_MAX_DEPTH];
	int depth;
};

/* Where skip_nested() stands: at a value, after one, at a member (an
 * object's key or an array's element), or done. */
enum nest_state { NEST_VALUE, NEST_AFTER, NEST_MEMBER, NEST_END, NEST_ERROR };

/* At a value: an object or array opened (NEST_MEMBER; NEST_AFTER when it
 * is empty), or a scalar read (NEST_AFTER). NEST_ERROR after fail(). */
static enum nest_state nest_value(struct lp *lp, struct nest *n)
{
	struct fval tmp;
	char c = *lp->p;
	if (c != '{' && c != '[')
		return parse_scalar(lp, &tmp) != 0 ? NEST_ERROR : NEST_AFTER;
	if (n->depth == RECORDS_MAX_DEPTH) {
		fail(lp, "values nested too deep");
		return NEST_ERROR;
	}
	n->stack[n->depth++] = c;
	lp->p++;
	skip_ws(lp);
	if (lp->p < lp->e && *lp->p == (c == '{' ? '}' : ']')) {
		lp->p++;
		n->depth--;
		return NEST_AFTER;
	}
	return NEST_MEMBER;
}

/* After a value: the whole value is over (NEST_END at depth 0), a ','
 * leads to the next member (NEST_MEMBER), or the open level closes
 * (NEST_AFTER). NEST_ERROR after fail(). */
static enum nest_state nest_after(struct lp *lp, struct nest *n)
{
	if (n->depth == 0)
		return NEST_END;
	skip_ws(lp);
	if (lp->p < lp->e && *lp->p == ',') {
		lp->p++;
		skip_ws(lp);
		return NEST_MEMBER;
	}
	if (lp->p < lp->e && *lp->p == (n->stack[n->depth - 1] == '{' ? '}' : ']')) {
		lp->p++;
		n->depth--;
		return NEST_AFTER;
	}
	fail(lp, "expected ',' or the end of an object or array");
	return NEST_ERROR;
}

/* At a member of the open level: an object's key and its ':' read, then
 * at the value (NEST_VALUE). NEST_ERROR after fail(). */
static enum nest_state nest_member(struct lp *lp, const struct nest *n)
{
	if (n->stack[n->depth - 1] == '{') {
		const char *k;
		size_t kn;
		if (lp->p >= lp->e || *lp->p != '"' || parse_string(lp, &k, &kn) != 0) {
			fail(lp, "expected a key");
			return NEST_ERROR;
		}
		skip_ws(lp);
		if (lp->p >= lp->e || *lp->p++ != ':') {
			fail(lp, "expected ':'");
			return NEST_ERROR;
		}
		skip_ws(lp);
	}
	if (lp->p >= lp->e) {
		fail(lp, "unexpected end of line");
		return NEST_ERROR;
	}
	return NEST_VALUE;
}

/* A whole nested value (object or array) at lp->p, checked for syntax but
 * not kept. Iterative: an explicit stack of what each level is. */
static int skip_nested(struct lp *lp)
{
	struct nest n;
	enum nest_state st = NEST_VALUE;
	n.depth = 0;
	while (st != NEST_END && st != NEST_ERROR) {
		if (st == NEST_VALUE)
			st = nest_value(lp, &n);
		else if (st == NEST_AFTER)
			st = nest_after(lp, &n);
		else
			st = nest_member(lp, &n);
	}
	return st == NEST_END ? 0 : -1;
}

/* ---- duplicate keys: a hash set per line, cleared by generation ---- */

static int keyset_grow(struct records_reader *rd)
{
	size_t n = rd->nkeys ? rd->nkeys * 2 : 64;
	struct records_keyslot *v = calloc(n, sizeof(*v));
	if (!v)
		return -1;
	for (size_t i = 0; i < rd->nkeys; i++) {
		struct records_keyslot *o = &rd->keys[i];
		if (o->gen != rd->gen)
			continue;
		size_t j = (size_t)o->hash & (n - 1);
		while (v[j].gen == rd->gen)
			j = (j + 1) & (n - 1);
		v[j] = *o;
	}
	free(rd->keys);
	rd->keys = v;
	rd->nkeys = n;
	return 0;
}

/* Adds an unknown key whose hash is h; when it was there already, it is
 * the line's first repeat unless one earlier in the line was found (keys
 * lie in the line, so their addresses give their order). */
static int key_insert(struct lp *lp, const char *k, size_t n, uint32_t h)
{
	struct records_reader *rd = lp->rd;
	if ((lp->used + 1) * 2 > rd->nkeys && keyset_grow(rd) != 0)
		return -2;
	size_t j = (size_t)h & (rd->nkeys - 1);
	while (rd->keys[j].gen == rd->gen) {
		struct records_keyslot *e = &rd->keys[j];
		if (e->hash == h && memcmp(e->s, k, n) == 0 && e->s[n] == '\0') {
			if (!lp->dup || k < lp->dup)
				lp->dup = k;
			return 0;
		}
		j = (j + 1) & (rd->nkeys - 1);
	}
	rd->keys[j] = (struct records_keyslot){ k, h, rd->gen };
	lp->used++;
	return 0;
}

/* Notes an unknown key. Its slot is fetched ahead and the key inserted
 * KEY_AHEAD keys later, in order (key_flush() inserts the rest): a line of
 * tens of thousands of keys then waits for memory far less often. */
static int note_key(struct lp *lp, const char *k, size_t n)
{
	struct records_reader *rd = lp->rd;
	uint32_t h = (uint32_t)strpool_hash(k, n);
	if (rd->nkeys)
		__builtin_prefetch(&rd->keys[(size_t)h & (rd->nkeys - 1)]);
	struct pending_key *q = &lp->ahead[lp->nahead % KEY_AHEAD];
	if (lp->nahead >= KEY_AHEAD && key_insert(lp, q->k, q->n, q->h) != 0)
		return -2;
	*q = (struct pending_key){ k, n, h };
	lp->nahead++;
	return 0;
}

/* Inserts the keys note_key() still holds. 0, or -2 out of memory. */
static int key_flush(struct lp *lp)
{
	size_t first = lp->nahead > KEY_AHEAD ? lp->nahead - KEY_AHEAD : 0;
	for (size_t i = first; i < lp->nahead; i++) {
		const struct pending_key *q = &lp->ahead[i % KEY_AHEAD];
		if (key_insert(lp, q->k, q->n, q->h) != 0)
			return -2;
	}
	lp->nahead = 0;
	return 0;
}

static void next_generation(struct records_reader *rd)
{
	if (++rd->gen == 0) { /* wrapped: old marks could collide */
		if (rd->keys)
			memset(rd->keys, 0, rd->nkeys * sizeof(*rd->keys));
		rd->gen = 1;
	}
}

/* ---- one object ---- */

/* ---- the common member, read without a store per byte ----
 *
 * member_fast() reads a member only when it has nothing unusual: a key
 * without escapes naming a known field not seen yet, then a string without
 * escapes, a plain decimal number or a literal. It writes nothing until the
 * whole member is read, and then leaves exactly what parse_member() would
 * have left; anything else (escapes, exponents, long numbers, nested
 * values, unknown or repeated keys, every error) is left to
 * parse_member(), which starts over from the same byte. */

/* The closing quote of the string opening at p when it has no escape and
 * no control byte, else NULL. */
static inline char *plain_string(char *p, const char *e)
{
	p++;
	p += scan16_string_end_nul(p);
	return p < e && *p == '"' ? p : NULL;
}

/* Past a number at p whose value number_value() gets by the exact fast
 * path (no exponent, at most 15 digits), else NULL: the others are left to
 * parse_member(). */
static inline char *plain_number(char *p, const char *e, double *num)
{
	struct numtext t;
	double v;
	if (number_scan(p, e, &t) != 0 || t.expo || decimal_fast(t.ib, t.ie, t.fb, t.fe, &v) != 0)
		return NULL;
	*num = t.neg ? -v : v;
	return (char *)t.e;
}

/* Past the value at p when it is one member_fast() reads, else NULL. */
static inline char *value_fast(char *p, const char *e, struct fval *v)
{
	size_t left = (size_t)(e - p);
	if (*p == '"') {
		char *q = plain_string(p, e);
		if (!q)
			return NULL;
		v->t = V_STR;
		v->s = p + 1;
		v->n = (size_t)(q - p - 1);
		return q + 1;
	}
	if (*p == '-' || (*p >= '0' && *p <= '9')) {
		v->t = V_NUM;
		return plain_number(p, e, &v->num);
	}
	if (left >= 4 && memcmp(p, "true", 4) == 0)
		v->t = V_TRUE;
	else if (left >= 5 && memcmp(p, "false", 5) == 0)
		v->t = V_FALSE;
	else if (left >= 4 && memcmp(p, "null", 4) == 0)
		v->t = V_NULL;
	else
		return NULL;
	return p + (v->t == V_FALSE ? 5 : 4);
}

/* Past the common member at p, its value stored in lp->f; NULL when
 * parse_member() must read it (nothing written). */
static char *member_fast(struct lp *lp, char *p, const char *e)
{
	if (*p != '"')
		return NULL;
	unsigned char *order = &lp->rd->key_order[lp->idx & 31];
	int id = (int)*order - 1;
	char *kq;
	if (id >= 0 && scan16_prefix_eq(p + 1, fkey_quoted[id], fkey_len[id] + 1u)) {
		kq = p + 1 + fkey_len[id]; /* the key the last line had here */
	} else {
		if (!(kq = plain_string(p, e)))
			return NULL;
		id = key_id(p + 1, (size_t)(kq - p - 1));
	}
	if (id < 0 || lp->f[id].t != V_NONE)
		return NULL;
	char *q = kq[1] == ':' ? kq + 1 : ws_at(kq + 1);
	if (*q != ':')
		return NULL;
	struct fval v = { V_NONE, NULL, 0, 0.0 };
	/* ": " then the value, as most writers put it, is read without a loop */
	char *val = q[1] == ' ' && (unsigned char)q[2] > ' ' ? q + 2 : ws_at(q + 1);
	char *end = value_fast(val, e, &v);
	if (!end)
		return NULL;
	*kq = '\0';
	if (v.t == V_STR)
		((char *)v.s)[v.n] = '\0';
	lp->f[id] = v;
	*order = (unsigned char)(id + 1);
	lp->idx++;
	return end;
}

/* Common members from lp->p on, while each is followed by ',' and another
 * common one: 1 with lp->p just past the last value read (the caller
 * takes the separator or the end from there, as after parse_member), 0
 * when the first member is not a common one (nothing read). */
static int members_fast(struct lp *lp)
{
	char *p = lp->p, *e = lp->e, *end;
	int n = 0;
	while ((end = member_fast(lp, p, e)) != NULL) {
		n++;
		lp->p = end;
		if (end[0] == ',' && end[1] == ' ' && (unsigned char)end[2] > ' ') {
			p = end + 2; /* ", " before the next key */
			continue;
		}
		char *q = ws_at(end);
		if (*q != ',')
			break;
		p = ws_at(q + 1);
	}
	return n > 0;
}

/* One member: key, ':', value. Known keys land in lp->f. */
static int parse_member(struct lp *lp)
{
	const char *k;
	size_t kn;
	if (lp->p >= lp->e || *lp->p != '"')
		return fail(lp, "expected a key");
	if (parse_string(lp, &k, &kn) != 0)
		return -1;
	skip_ws(lp);
	if (lp->p >= lp->e || *lp->p++ != ':')
		return fail(lp, "expected ':'");
	skip_ws(lp);
	if (lp->p >= lp->e)
		return fail(lp, "unexpected end of line");
	int id = key_id(k, kn);
	struct fval sink, *v = id >= 0 ? &lp->f[id] : &sink;
	if (id >= 0 && v->t != V_NONE && !lp->dup)
		lp->dup = k;
	else if (id < 0 && note_key(lp, k, kn) != 0)
		return -2;
	memset(v, 0, sizeof(*v));
	if (*lp->p == '{' || *lp->p == '[') {
		v->t = V_NESTED;
		return skip_nested(lp);
	}
	return parse_scalar(lp, v);
}

/* A line whose first value is not an object: "not a JSON object" when it
 * is one valid JSON value, a syntax problem otherwise. */
static int not_an_object(struct lp *lp)
{
	struct fval tmp;
	int rc = *lp->p == '[' || *lp->p == '{' ? skip_nested(lp) : parse_scalar(lp, &tmp);
	if (rc != 0)
		return -1;
	skip_ws(lp);
	if (lp->p != lp->e)
		return fail(lp, "trailing content after the JSON value (one value per line)");
	lp->not_object = 1;
	return -1;
}

/* The line as one object and nothing after it. Returns 0, -1 with
 * lp->why (or lp->not_object), -2 when memory ran out. */
static int parse_object(struct lp *lp)
{
	skip_ws(lp);
	if (lp->p >= lp->e)
		return fail(lp, "empty line");
	if (*lp->p != '{')
		return not_an_object(lp);
	lp->p++;
	skip_ws(lp);
	if (lp->p < lp->e && *lp->p == '}') {
		lp->p++;
	} else {
		for (;;) {
			int rc = 0;
			if (!members_fast(lp)) {
				rc = parse_member(lp);
				lp->idx++;
			}
			if (rc != 0)
				return rc;
			skip_ws(lp);
			if (lp->p < lp->e && *lp->p == ',') {
				lp->p++;
				skip_ws(lp);
				continue;
			}
			if (lp->p < lp->e && *lp->p == '}') {
				lp->p++;
				break;
			}
			return fail(lp, "expected ',' or '}'");
		}
	}
	skip_ws(lp);
	if (lp->p != lp->e)
		return fail(lp, "trailing content after the JSON object (one object per line)");
	return 0;
}

/* ---- the schema ---- */

struct schema {
	struct lp *lp;
	struct record *out;
	struct strpool *ids;
	char *err;
	size_t errlen;
	int v2;
};

static int problem(struct schema *sc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int problem(struct schema *sc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(sc->err, sc->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* An id interned in the pool, or the same id as one seen lately in this
 * field (slot), which saves hashing the common repeat. */
static const char *intern_id(struct schema *sc, int slot, const char *s, size_t n)
{
	struct records_reader *rd = sc->lp->rd;
	/* the place: a hash of the first and last eight bytes (the line is
	 * padded, so eight bytes are readable even of a short id) */
	uint64_t a, b = 0;
	memcpy(&a, s, 8);
	if (n < 8)
		a &= n ? ~0ull >> (64 - 8 * n) : 0;
	else
		memcpy(&b, s + n - 8, 8);
	unsigned h = (unsigned)(((a ^ (b * 0xC2B2AE3D27D4EB4Full) ^ n) * 0x9E3779B97F4A7C15ull) >> 60);
	const char *c = rd->id_cache[slot][h];
	/* 16 bytes are readable at both: the line is padded, the pool too */
	if (c && rd->id_cache_n[slot][h] == n &&
	    (n <= 16 ? scan16_prefix_eq(c, s, (unsigned)n) : memcmp(c, s, n) == 0))
		return c;
	const char *id = strpool_intern(sc->ids, s, n);
	if (id) {
		rd->id_cache[slot][h] = id;
		rd->id_cache_n[slot][h] = n;
	}
	return id;
}

/* A string field: *dst set (interned through id slot when slot >= 0),
 * NULL when absent or null and allowed. */
static int take_string(struct schema *sc, enum fkey k, int required, int nullable, int slot,
		       const char **dst)
{
	const struct fval *v = &sc->lp->f[k];
	*dst = NULL;
	if (v->t == V_NONE)
		return required ? problem(sc, "missing required field '%s'", fkey_name[k]) : 0;
	if (v->t == V_NULL) {
		if (nullable)
			return 0;
		return problem(sc, "field '%s' must be a string, got null", fkey_name[k]);
	}
	if (v->t != V_STR)
		return problem(sc, "field '%s' must be a string%s", fkey_name[k],
			       nullable ? " or null" : "");
	*dst = slot >= 0 ? intern_id(sc, slot, v->s, v->n) : v->s;
	if (!*dst)
		return -2;
	return 0;
}

static int take_round(struct schema *sc)
{
	const struct fval *v = &sc->lp->f[F_ROUND];
	if (v->t == V_NONE)
		return problem(sc, "missing required field 'round'");
	if (v->t != V_NUM || !isfinite(v->num) || v->num != floor(v->num) || v->num < 0 ||
	    v->num > 1e9)
		return problem(sc, "field 'round' must be an integer >= 0");
	sc->out->round = (long)v->num;
	return 0;
}

static int is_phase(const char *s, size_t n)
{
	return (n == 8 && memcmp(s, "baseline", 8) == 0) || (n == 9 && memcmp(s, "candidate", 9) == 0) ||
	       (n == 6 && memcmp(s, "merged", 6) == 0) || (n == 5 && memcmp(s, "final", 5) == 0);
}

/* candidate_id, parent_id and the key (dispatch, workload). */
static int take_key_fields(struct schema *sc)
{
	struct record *o = sc->out;
	int rc;
	if ((rc = take_string(sc, F_CAND, 1, 0, 0, &o->candidate_id)) ||
	    (rc = take_string(sc, F_PARENT, sc->v2, 1, 1, &o->parent_id)) ||
	    (rc = take_string(sc, sc->v2 ? F_KERNEL : F_DISPATCH, 1, 0, 2, &o->dispatch)) ||
	    (rc = take_string(sc, sc->v2 ? F_WORKLOAD_ID : F_WORKLOAD, 1, 0, 3, &o->workload)))
		return rc;
	return 0;
}

/* phase, artifact_path, artifact_sha256 (v2), artifact_path (optional in
 * v1, the loop driver writes it), msprof_raw_path. */
static int take_v2_fields(struct schema *sc)
{
	struct record *o = sc->out;
	const struct fval *ph = &sc->lp->f[F_PHASE];
	int rc;
	if (sc->v2) {
		if ((rc = take_string(sc, F_PHASE, 1, 0, -1, &o->phase)) ||
		    (rc = take_string(sc, F_APATH, 1, 0, -1, &o->artifact_path)) ||
		    (rc = take_string(sc, F_ASHA, 1, 0, -1, &o->artifact_sha256)))
			return rc;
		if (!is_phase(ph->s, ph->n))
			return problem(sc, "field 'phase' must be baseline, candidate, merged or final, got '%.40s'",
				       ph->s);
		o->phase = strpool_intern(sc->ids, ph->s, ph->n);
		if (!o->phase)
			return -2;
	} else if ((rc = take_string(sc, F_APATH, 0, 1, -1, &o->artifact_path))) {
		return rc;
	}
	return take_string(sc, F_MSPROF, sc->v2, 1, -1, &o->msprof_raw_path);
}

static double optional_number(const struct fval *v)
{
	return v->t == V_NUM && isfinite(v->num) ? v->num : NAN;
}

/* duration_us, l0_pass and the optional numbers. */
static int take_numbers(struct schema *sc)
{
	const struct fval *d = &sc->lp->f[F_DURATION], *l0 = &sc->lp->f[F_L0];
	struct record *o = sc->out;
	if (d->t == V_NONE)
		return problem(sc, "missing required field 'duration_us'");
	if (d->t != V_NUM)
		return problem(sc, "field 'duration_us' must be a number");
	if (!isfinite(d->num) || !(d->num > 0.0))
		return problem(sc, "field 'duration_us' must be a finite number > 0, got %g", d->num);
	o->duration_us = d->num;
	if (l0->t == V_NONE)
		return problem(sc, "missing required field 'l0_pass'");
	if (l0->t != V_TRUE && l0->t != V_FALSE)
		return problem(sc, "field 'l0_pass' must be a boolean");
	o->l0_pass = l0->t == V_TRUE;
	o->aicore_util = optional_number(&sc->lp->f[F_AICORE]);
	o->mem_bw_gbps = optional_number(&sc->lp->f[F_MEMBW]);
	o->not_measured = sc->lp->f[F_MEASURED].t == V_FALSE;
	return 0;
}

static int take_timestamp(struct schema *sc)
{
	int rc = take_string(sc, F_TS, 1, 0, -1, &sc->out->timestamp);
	if (rc)
		return rc;
	if (!records_is_iso8601(sc->out->timestamp))
		return problem(sc, "field 'timestamp' is not ISO 8601: '%.40s'", sc->out->timestamp);
	return 0;
}

/* The fields parsed into lp->f, checked in the documented order. */
static int take_schema(struct schema *sc)
{
	const struct fval *f = sc->lp->f;
	int rc;
	sc->v2 = f[F_KERNEL].t || f[F_WORKLOAD_ID].t || f[F_PHASE].t;
	sc->out->contract = sc->v2 ? RECORDS_V2 : RECORDS_V1;
	if ((rc = take_round(sc)) || (rc = take_key_fields(sc)) || (rc = take_v2_fields(sc)) ||
	    (rc = take_numbers(sc)) || (rc = take_timestamp(sc)))
		return rc;
	return 0;
}

/* ---- one line ---- */

/* Bytes no record may hold: NUL, invalid UTF-8, a CR inside the line.
 * plain: the caller knows the line is ASCII without NUL or CR. */
static int check_bytes(const char *s, size_t n, int plain, char *err, size_t errlen)
{
	if (plain || scan16_plain_ascii(s, n))
		return 0;
	if (memchr(s, '\0', n)) {
		snprintf(err, errlen, "line contains a NUL byte");
		return -1;
	}
	size_t bad = utf8_invalid_at(s, n);
	if (bad != (size_t)-1) {
		snprintf(err, errlen, "invalid UTF-8 at byte %zu", bad + 1);
		return -1;
	}
	const char *cr = memchr(s, '\r', n);
	if (cr) {
		snprintf(err, errlen,
			 "carriage return inside the line at byte %zu (CR-only line endings? "
			 "JSONL lines end with LF)", (size_t)(cr - s) + 1);
		return -1;
	}
	return 0;
}

static void syntax_message(const struct lp *lp, char *err, size_t errlen)
{
	if (lp->not_object)
		snprintf(err, errlen, "not a JSON object");
	else if (lp->dup)
		snprintf(err, errlen, "duplicate key '%.60s'", lp->dup);
	else
		snprintf(err, errlen, "not valid JSON at byte %zu: %s",
			 (size_t)(lp->why_at - lp->start) + 1, lp->why);
}

/* *out empty for line: every field set one by one (a memset of the
 * struct compiles to `rep stos`, whose start-up cost was the largest
 * single item of a record's parse). */
static void record_start(struct record *out, long line)
{
	out->line = line;
	out->contract = RECORDS_UNKNOWN;
	out->round = 0;
	out->candidate_id = out->parent_id = out->dispatch = out->workload = out->phase = NULL;
	out->artifact_path = out->artifact_sha256 = out->msprof_raw_path = out->timestamp = NULL;
	out->duration_us = 0.0;
	out->l0_pass = 0;
	out->aicore_util = NAN;
	out->mem_bw_gbps = NAN;
	out->not_measured = 0;
}

/* lp ready to parse s[0..n): no field seen (each marked V_NONE, not the
 * whole table cleared, for the same reason). */
static void lp_start(struct lp *lp, struct records_reader *rd, char *s, size_t n)
{
	for (int k = 0; k < F_N; k++)
		lp->f[k].t = V_NONE;
	lp->p = lp->start = s;
	lp->e = s + n;
	lp->dup = lp->why = NULL;
	lp->why_at = NULL;
	lp->rd = rd;
	lp->not_object = 0;
	lp->idx = 0;
	lp->used = lp->nahead = 0;
}

/* Parses s[0..n) (writable; strings are unescaped in place) into *out.
 * Returns 0, -1 with a message in err, -2 when memory ran out. */
static int parse_line(struct records_reader *rd, char *s, size_t n, long line, int plain,
		      struct record *out, char *err, size_t errlen)
{
	struct lp lp;
	record_start(out, line);
	if (check_bytes(s, n, plain, err, errlen) != 0)
		return -1;
	lp_start(&lp, rd, s, n);
	next_generation(rd);
	int rc = parse_object(&lp);
	if (rc == -2 || key_flush(&lp) != 0)
		return -2;
	if (rc != 0 || lp.dup) {
		syntax_message(&lp, err, errlen);
		return -1;
	}
	struct schema sc = { &lp, out, rd->ids, err, errlen, 0 };
	return take_schema(&sc);
}

/* ---- the reader ---- */

static void reader_init(struct records_reader *rd, struct strpool *ids)
{
	memset(rd, 0, sizeof(*rd));
	rd->ids = ids;
	rd->gen = 1;
}

int records_reader_open(struct records_reader *rd, const char *path, struct strpool *ids)
{
	reader_init(rd, ids);
	if (lineio_open(&rd->l, path, RECORDS_LINE_MAX) != 0)
		return -1;
	rd->from_file = 1;
	return 0;
}

void records_reader_stream(struct records_reader *rd, FILE *f, struct strpool *ids)
{
	reader_init(rd, ids);
	lineio_init(&rd->l, f, RECORDS_LINE_MAX);
	rd->l.owned = 1;
	rd->from_file = 1;
}

void records_reader_buffer(struct records_reader *rd, const char *buf, size_t len,
			   struct strpool *ids)
{
	reader_init(rd, ids);
	rd->buf = buf;
	rd->blen = len;
}

void records_reader_close(struct records_reader *rd)
{
	if (rd->from_file)
		lineio_close(&rd->l);
	free(rd->copy);
	free(rd->keys);
	memset(rd, 0, sizeof(*rd));
}

/* Buffer mode: the next line copied (at most RECORDS_LINE_MAX bytes) into
 * rd->copy. Returns 1, 0 at the end, -1 when out of memory. */
static int buffer_line(struct records_reader *rd, char **s, size_t *n)
{
	if (rd->bpos >= rd->blen)
		return 0;
	const char *b = rd->buf + rd->bpos;
	const char *nl = memchr(b, '\n', rd->blen - rd->bpos);
	size_t len = nl ? (size_t)(nl - b) : rd->blen - rd->bpos;
	rd->bpos += len + (nl != NULL);
	rd->bytes += len + (nl != NULL);
	rd->crlf = len > 0 && b[len - 1] == '\r';
	len -= (size_t)rd->crlf;
	rd->truncated = len > RECORDS_LINE_MAX;
	if (rd->truncated)
		len = RECORDS_LINE_MAX;
	if (len + 1 + SCAN16_PAD > rd->copycap) {
		size_t cap = rd->copycap ? rd->copycap : 256;
		while (cap < len + 1 + SCAN16_PAD)
			cap *= 2;
		char *c = realloc(rd->copy, cap);
		if (!c)
			return -1;
		rd->copy = c;
		rd->copycap = cap;
	}
	memcpy(rd->copy, b, len);
	memset(rd->copy + len, 0, SCAN16_PAD + 1);
	*s = rd->copy;
	*n = len;
	rd->line++;
	return 1;
}

static int file_line(struct records_reader *rd, char **s, size_t *n)
{
	int rc = lineio_next(&rd->l);
	if (rc != 1)
		return rc;
	*s = rd->l.buf;
	*n = rd->l.len;
	rd->line = rd->l.lineno;
	rd->crlf = rd->l.had_cr;
	rd->truncated = rd->l.truncated;
	rd->bytes += rd->l.len + 1 + (size_t)rd->l.had_cr;
	return 1;
}

static int is_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return 0;
	return 1;
}

/* Before the first line: 1 (rd->err set) when the input is not text. */
static int first_not_text(struct records_reader *rd)
{
	size_t at = 0;
	if (rd->from_file) {
		if (!lineio_not_text(rd->l.f, &at))
			return 0;
	} else {
		FILE *f = rd->blen ? fmemopen((void *)rd->buf, rd->blen, "r") : NULL;
		int bin = f && lineio_not_text(f, &at);
		if (f)
			fclose(f);
		if (!bin)
			return 0;
	}
	snprintf(rd->err, sizeof(rd->err), "not a text file (a NUL byte at byte %zu): not read as records",
		 at + 1);
	return 1;
}

enum records_next records_reader_next(struct records_reader *rd, struct record *out)
{
	char *s = NULL;
	size_t n = 0;
	if (rd->not_text)
		return RECORDS_NEXT_EOF;
	if (rd->line == 0 && rd->bytes == 0 && first_not_text(rd)) {
		rd->not_text = 1;
		rd->line = 1;
		return RECORDS_NEXT_PROBLEM;
	}
	int rc = rd->from_file ? file_line(rd, &s, &n) : buffer_line(rd, &s, &n);
	if (rc < 0 && !rd->from_file)
		errno = ENOMEM;
	if (rc <= 0)
		return rc < 0 ? RECORDS_NEXT_ERROR : RECORDS_NEXT_EOF;
	rd->bom = rd->line == 1 && lineio_has_bom(s, n);
	if (rd->bom) {
		s += 3;
		n -= 3;
	}
	rd->err[0] = '\0';
	int plain = scan16_plain_ascii(s, n); /* the common line: no byte to look at twice */
	rd->bare_cr = !plain && memchr(s, '\r', n) != NULL;
	if (rd->truncated) {
		/* a CR-only file is one long line: say so rather than "too long" */
		if (!memchr(s, '\r', n) || check_bytes(s, n, 0, rd->err, sizeof(rd->err)) == 0)
			snprintf(rd->err, sizeof(rd->err), "line longer than %u bytes (the limit of a record line)",
				 (unsigned)RECORDS_LINE_MAX);
		return RECORDS_NEXT_PROBLEM;
	}
	if (is_blank(s, n))
		return RECORDS_NEXT_BLANK;
	rc = parse_line(rd, s, n, rd->line, plain, out, rd->err, sizeof(rd->err));
	if (rc == -2) {
		errno = ENOMEM;
		return RECORDS_NEXT_ERROR;
	}
	return rc == 0 ? RECORDS_NEXT_RECORD : RECORDS_NEXT_PROBLEM;
}

/* ---- whole files ---- */

static void settle_contract(struct records *rs)
{
	size_t v1 = 0, v2 = 0;
	for (size_t i = 0; i < rs->n; i++) {
		if (rs->v[i].contract == RECORDS_V2)
			v2++;
		else
			v1++;
	}
	rs->contract = (v1 + v2 == 0) ? RECORDS_UNKNOWN : (v2 > v1 ? RECORDS_V2 : RECORDS_V1);
}

static int drain(struct records_reader *rd, struct records *rs, struct records_problems *ps)
{
	struct record r;
	enum records_next k;
	while ((k = records_reader_next(rd, &r)) != RECORDS_NEXT_EOF) {
		if (k == RECORDS_NEXT_ERROR)
			return -1;
		if (k == RECORDS_NEXT_RECORD && records_push_interned(rs, &r) != 0)
			return -1;
		if (k == RECORDS_NEXT_PROBLEM && ps && records_problems_add(ps, rd->line, "%s", rd->err) != 0)
			return -1;
	}
	return 0;
}

int records_load(const char *path, struct records *rs, struct records_problems *ps)
{
	struct records_reader rd;
	if (records_reader_open(&rd, path, &rs->pool) != 0)
		return -1;
	int rc = drain(&rd, rs, ps);
	int saved = errno;
	records_reader_close(&rd);
	settle_contract(rs);
	errno = saved;
	return rc;
}

int records_load_buffer(const char *buf, size_t len, struct records *rs,
			struct records_problems *ps)
{
	struct records_reader rd;
	records_reader_buffer(&rd, buf, len, &rs->pool);
	int rc = drain(&rd, rs, ps);
	records_reader_close(&rd);
	settle_contract(rs);
	if (rc != 0)
		errno = ENOMEM;
	return rc;
}

int records_parse_one(const char *text, size_t len, long line, struct records *rs, char *err,
		      size_t errlen)
{
	struct records_reader rd;
	struct record r;
	char *copy = calloc(len + 1 + SCAN16_PAD, 1); /* NUL-terminated and padded */
	if (!copy)
		return -2;
	memcpy(copy, text, len);
	reader_init(&rd, &rs->pool);
	int rc = is_blank(copy, len) ? (snprintf(err, errlen, "empty line"), -1)
		 : parse_line(&rd, copy, len, line, 0, &r, err, errlen);
	if (rc == 0 && records_push_interned(rs, &r) != 0)
		rc = -2;
	records_reader_close(&rd);
	free(copy);
	return rc;
}
