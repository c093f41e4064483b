/* term.h: what a terminal gets that a pipe does not: colour and a progress
 * line. One place decides (jq's habit), first rule that applies wins:
 * --color=always / --color=never; NO_COLOR set and not empty: none;
 * FORCE_COLOR or CLICOLOR_FORCE set, not empty and not "0": colour even
 * into a pipe; TERM=dumb: none; else colour when the stream is a terminal.
 * Progress redraws one stderr line on a terminal and prints
 * plain lines otherwise (hyperfine's habit); --quiet silences progress and
 * notes, --verbose adds per-run detail.
 */
#ifndef TLPERF_REPORT_TERM_H
#define TLPERF_REPORT_TERM_H

#include <stddef.h>
#include <stdio.h>

enum term_color { TERM_COLOR_AUTO, TERM_COLOR_ALWAYS, TERM_COLOR_NEVER };
enum term_verbosity { TERM_QUIET = -1, TERM_NORMAL = 0, TERM_VERBOSE = 1 };

/* Styles of what is coloured: severities, verdicts, emphasis. */
enum term_style {
	TERM_RESET, TERM_ERROR, TERM_WARNING, TERM_NOTE, TERM_GOOD, TERM_BAD, TERM_BOLD, TERM_DIM
};

/* "auto", "always", "never" (also "yes"/"no"). Returns 0, or -1 when unknown. */
int term_color_parse(const char *s, enum term_color *out);
void term_set_color(enum term_color mode);
void term_set_verbosity(enum term_verbosity v);
enum term_verbosity term_verbosity(void);

/* 1 when output to f is coloured under the rules above. */
int term_use_color(FILE *f);

/* The escape sequence of style for f, or "" when f is not coloured. */
const char *term_sgr(FILE *f, enum term_style style);

/* The style of a verdict or decision word: B_better/adopt/pass are good,
 * A_better/rollback/fail bad, anything else plain. */
enum term_style term_verdict_style(const char *word);

/* A progress display on stderr for work of at most `total` steps. */
struct term_progress {
	FILE *f;          /* stderr */
	int tty;          /* redraw one line (1) or print plain lines (0) */
	int drawn;        /* a progress line is on screen and must be cleared */
	double t0;        /* start, monotonic seconds */
	size_t total;     /* at most this many steps */
	const char *what; /* "pair", "measurement", "directory" */
	int plain_tenths; /* not a terminal: step() prints a line each tenth of the way */
	int at_most;      /* total is a budget, not a count: "of at most N" */
	size_t last_tenth;
	double last_draw; /* terminal: redraws at most ten times a second */
};

/* Starts a display: on a terminal (and not --quiet) it redraws one line;
 * otherwise step() prints nothing and line() prints plain lines. */
void term_progress_begin(struct term_progress *p, const char *what, size_t total);

/* Step `done` of at most total finished: redraws "WHAT i of at most N,
 * elapsed, ETA (from the mean step time so far), STATE" on a terminal.
 * state may be NULL. Not a terminal: nothing, or with plain_tenths a line
 * "WHAT i of N, elapsed" each time a tenth of the way is passed. Nothing
 * under --quiet. */
void term_progress_step(struct term_progress *p, size_t done, const char *state);

/* A line that stays (a run's result): clears the progress line first;
 * printed unless --quiet; `verbose_only` lines need --verbose. */
void term_progress_line(struct term_progress *p, int verbose_only, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Clears the progress line. */
void term_progress_end(struct term_progress *p);

/* Monotonic seconds. */
double term_now(void);

/* "1:05" or "1:02:03" for s seconds (rounded), into buf. */
void term_duration(double s, char *buf, size_t len);

#endif
