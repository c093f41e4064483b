/* ptlog.h: readers for the Markdown logs of first-generation perf_tuning/
 * folders: the tagged protocol log (optimization_log*.md) and the
 * structured iteration log (perf_log.md).
 *
 * Both readers work on text already in memory and never fail on content:
 * whatever they do not recognise is skipped, and the rules
 * (gates/pt_*.c) say when something they need is missing. Everything
 * returned borrows from, or is owned by, the struct it lives in;
 * *_release frees it all.
 */
#ifndef TLPERF_PTLOG_H
#define TLPERF_PTLOG_H

#include <stddef.h>

#include "util/prose.h"

/* A text split into lines: lines[i] is line i+1, without its newline, a
 * trailing CR or a leading BOM. */
struct ptlog_text {
	char *buf;        /* owned copy of the text */
	char **lines;     /* pointers into buf */
	size_t nlines;
};

void ptlog_text_release(struct ptlog_text *t);

/* ---- optimization_log.md -------------------------------------------- */

enum ptlog_verdict {
	PTLOG_V_NONE = 0,      /* no verdict found */
	PTLOG_V_APPLIES,       /* 适用, HIT */
	PTLOG_V_NOT,           /* 不适用, N/A */
	PTLOG_V_PARTIAL        /* 部分适用, PARTIAL (HIT) */
};

struct ptlog_item {            /* a Part A candidate [#N], or a scan entry */
	int num;               /* N, -1 for an anti-pattern scan entry */
	enum ptlog_verdict verdict;
	int has_reason;        /* text explaining the verdict follows it */
	int scan;              /* HIT/N/A/PARTIAL form */
	long line;
};

struct ptlog_plan {            /* one step of [ORDER-PLAN] */
	int num;               /* the [#N] planned */
	int deps[16];          /* prerequisites (#M) */
	size_t ndeps;
	int deps_stated;       /* a 前置依赖:/前置: field was found */
	long line;
};

enum ptlog_tag {
	PTLOG_ORDER_CHECK, PTLOG_IMPL, PTLOG_SELF_CHECK, PTLOG_RESULT,
	PTLOG_KRP,             /* [KERNEL-REUSE-PRECHECK] */
	PTLOG_KRA,             /* [KERNEL-REUSE-AUDIT] */
	PTLOG_DB,              /* [DB-ANALYSIS] */
	PTLOG_ITEMHEAD         /* a heading naming [#N] after the plan ("### [#3] 实施: ...") */
};

struct ptlog_event {
	enum ptlog_tag tag;
	int num;               /* item number, -1 when the tag names none */
	char sub;              /* 'a' of [RESULT-#1a], 0 otherwise */
	long line;             /* line of the tag */
	long end;              /* last line of its body (>= line) */
	int ok;                /* ORDER-CHECK 结论: 1 ✅, 0 ❌, -1 not stated */
};

struct ptlog {
	struct ptlog_text text;
	struct ptlog_item *items;
	size_t nitems;
	long plan_line;            /* line of [ORDER-PLAN], 0 when absent */
	struct ptlog_plan *plan;
	size_t nplan;
	struct ptlog_event *ev;    /* in file order */
	size_t nev;
};

void ptlog_release(struct ptlog *log);

/* Looks key up in the lines of an event's body; returns the value as
 * prose_field does and the 1-based line in *line. */
const char *ptlog_event_field(const struct ptlog *log, const struct ptlog_event *ev,
			      const char *key, size_t *len, long *line);

/* ---- perf_log.md ---------------------------------------------------- */

/* One "key: value" bullet; value is malloc'd and includes continuation
 * lines (indented lines that are not bullets, YAML "|" blocks). */
struct ptperf_field {
	char *value;
	long line;
};

/* A baseline/candidate/improvement/adopted group. An iteration holds
 * several when it reports several attempts (attempt A, attempt C...). */
struct ptperf_meas {
	struct ptperf_field base, cand, impr, adopted;
};

struct ptperf_iter {
	char *title;               /* heading text without the '#' marks */
	long line;                 /* heading line */
	long end;                  /* last line of the section */
	int level;                 /* heading level */
	struct ptperf_field optimization, precision, rollback;
	struct ptperf_meas *m;
	size_t nm;
	long db_line;              /* a [DB-ANALYSIS] inside the section, 0 if none */
	long stop_before;          /* a stop section between the previous iteration and this one, 0 if none */
};

struct ptperf {
	struct ptlog_text text;
	struct ptperf_iter *it;
	size_t nit;
	long stop_after;           /* a stop section after the last iteration */
	long *db_lines;            /* every [DB-ANALYSIS] line in the file */
	size_t ndb;
};

void ptperf_release(struct ptperf *p);

/* ---- small helpers shared by the rules ------------------------------ */

/* The noise threshold a line of prose states, in percent: on a line naming
 * "noise threshold", "noise_threshold" or 噪声阈值, the unsigned percentage
 * in (0, 50) nearest to that label within 24 bytes on either side
 * ("噪声阈值: 3%", "< 3% noise threshold"). NAN when the line states none.
 * The one scraper of the threshold (opt_log.md and perf_tuning/ prose). */
double ptlog_noise_pct(const char *line);
/* The same, tb (NULL, or the bytes of line: util/text.h) ruling the labels
 * out at once. */
struct text_bytes;
double ptlog_noise_pct_tb(const char *line, const struct text_bytes *tb);

#endif
