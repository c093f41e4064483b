/* term.c: colour and progress decisions (term.h). */
#include "report/term.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static enum term_color color_mode = TERM_COLOR_AUTO;
static enum term_verbosity verbosity = TERM_NORMAL;

int term_color_parse(const char *s, enum term_color *out)
{
	if (strcmp(s, "auto") == 0)
		*out = TERM_COLOR_AUTO;
	else if (strcmp(s, "always") == 0 || strcmp(s, "yes") == 0)
		*out = TERM_COLOR_ALWAYS;
	else if (strcmp(s, "never") == 0 || strcmp(s, "no") == 0)
		*out = TERM_COLOR_NEVER;
	else
		return -1;
	return 0;
}

void term_set_color(enum term_color mode)
{
	color_mode = mode;
}

void term_set_verbosity(enum term_verbosity v)
{
	verbosity = v;
}

enum term_verbosity term_verbosity(void)
{
	return verbosity;
}

int term_use_color(FILE *f)
{
	if (color_mode == TERM_COLOR_ALWAYS)
		return 1;
	if (color_mode == TERM_COLOR_NEVER)
		return 0;
	const char *nc = getenv("NO_COLOR"); /* no-color.org: set and not empty */
	if (nc && *nc)
		return 0;
	/* force-color.org and bixense.com/clicolors: set, not empty and not
	 * "0" forces colour even into a pipe; NO_COLOR, checked first, wins */
	const char *force[] = { getenv("FORCE_COLOR"), getenv("CLICOLOR_FORCE") };
	for (size_t i = 0; i < 2; i++)
		if (force[i] && *force[i] && strcmp(force[i], "0") != 0)
			return 1;
	const char *term = getenv("TERM");
	if (term && strcmp(term, "dumb") == 0)
		return 0;
	return isatty(fileno(f));
}

const char *term_sgr(FILE *f, enum term_style style)
{
	static const char *const sgr[] = {
		[TERM_RESET] = "\033[0m",    [TERM_ERROR] = "\033[1;31m", [TERM_WARNING] = "\033[1;33m",
		[TERM_NOTE] = "\033[1;36m",  [TERM_GOOD] = "\033[1;32m",  [TERM_BAD] = "\033[1;31m",
		[TERM_BOLD] = "\033[1m",     [TERM_DIM] = "\033[2m",
	};
	return term_use_color(f) ? sgr[style] : "";
}

enum term_style term_verdict_style(const char *w)
{
	static const char *const good[] = { "B_better", "adopt", "success", "pass", "PASS", NULL };
	static const char *const bad[] = { "A_better", "rollback", "blocked", "fail", "FAIL", NULL };
	for (size_t i = 0; good[i]; i++)
		if (strcmp(w, good[i]) == 0)
			return TERM_GOOD;
	for (size_t i = 0; bad[i]; i++)
		if (strcmp(w, bad[i]) == 0)
			return TERM_BAD;
	return TERM_BOLD;
}

double term_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void term_duration(double s, char *buf, size_t len)
{
	long t = s > 0 ? (long)(s + 0.5) : 0;
	if (t >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

void term_progress_begin(struct term_progress *p, const char *what, size_t total)
{
	p->f = stderr;
	p->tty = verbosity != TERM_QUIET && isatty(fileno(stderr));
	p->drawn = 0;
	p->t0 = term_now();
	p->total = total;
	p->what = what;
	p->plain_tenths = 0;
	p->at_most = 0;
	p->last_tenth = 0;
	p->last_draw = -1;
}

static void clear_line(struct term_progress *p)
{
	if (p->drawn) {
		fputs("\r\033[K", p->f);
		p->drawn = 0;
	}
}

void term_progress_step(struct term_progress *p, size_t done, const char *state)
{
	double el = term_now() - p->t0;
	char e[32], eta[32];
	term_duration(el, e, sizeof(e));
	if (!p->tty) {
		size_t tenth = p->total ? done * 10 / p->total : 0;
		if (p->plain_tenths && verbosity != TERM_QUIET && tenth > p->last_tenth) {
			p->last_tenth = tenth;
			fflush(stdout);
			fprintf(p->f, "%s %zu of %zu, %s elapsed\n", p->what, done, p->total, e);
		}
		return;
	}
	double now = term_now();
	if (p->drawn && done < p->total && now - p->last_draw < 0.1)
		return;
	p->last_draw = now;
	fflush(stdout);
	clear_line(p);
	fprintf(p->f, "%s%s %zu of %s%zu%s, %s elapsed", term_sgr(p->f, TERM_BOLD), p->what,
		done + (done < p->total ? 1 : 0), p->at_most ? "at most " : "", p->total,
		term_sgr(p->f, TERM_RESET), e);
	if (done > 0 && done < p->total) {
		term_duration(el / (double)done * (double)(p->total - done), eta, sizeof(eta));
		fprintf(p->f, ", ETA %s%s", p->at_most ? "<= " : "", eta);
	}
	if (state && *state)
		fprintf(p->f, ", %s", state);
	fflush(p->f);
	p->drawn = 1;
}

void term_progress_line(struct term_progress *p, int verbose_only, const char *fmt, ...)
{
	va_list ap;
	if (verbosity == TERM_QUIET || (verbose_only && verbosity < TERM_VERBOSE))
		return;
	fflush(stdout);
	clear_line(p);
	va_start(ap, fmt);
	vfprintf(p->f, fmt, ap);
	va_end(ap);
	fputc('\n', p->f);
	fflush(p->f);
}

void term_progress_end(struct term_progress *p)
{
	clear_line(p);
	fflush(p->f);
}
