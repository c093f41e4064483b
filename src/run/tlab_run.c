/* tlab_run.c: one tlab run (spawn, read, summarise) and the runs.jsonl journal. */
#include "run/tlab_run.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "io/ab_source.h"
#include "io/abjournal.h"
#include "io/lineio.h"
#include "io/msprof.h"
#include "io/recwrite.h"
#include "run/run.h"
#include "stats/stats.h"

void abrun_run_release(struct abrun_run *r)
{
	free(r->cmd);
	free(r->kernel_name);
	free(r->log);
	free(r->profile);
	free(r->finished);
	free(r->protocol);
	free(r->source);
	memset(r, 0, sizeof(*r));
}

void abrun_profile_path(const struct abrun_config *c, long pair, char arm, char *buf, size_t len)
{
	snprintf(buf, len, "%s/pair%ld%c", c->workdir, pair, arm);
}

void abrun_log_path(const struct abrun_config *c, long pair, char arm, char *buf, size_t len)
{
	snprintf(buf, len, "%s/logs/pair%ld%c.log", c->workdir, pair, arm);
}

void abrun_group_path(const struct abrun_config *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s/tlab.run", c->workdir);
}

/* The pid written in the lock file, 0 when none (yet). */
static long lock_holder(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	char *end = NULL;
	long pid = strtol(buf, &end, 10);
	return end != buf && pid > 0 ? pid : 0;
}

int abrun_lock_workdir(const struct abrun_config *c, long *holder, char *err, size_t errlen)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/tlab.lock", c->workdir);
	*holder = 0;
	int fd;
	do
		fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	while (fd < 0 && errno == EINTR);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open the lock '%s': %s", path, strerror(errno));
		return -1;
	}
	int r;
	while ((r = flock(fd, LOCK_EX | LOCK_NB)) != 0 && errno == EINTR)
		;
	if (r != 0) {
		int e = errno;
		if (e == EWOULDBLOCK) {
			/* The holder writes its pid right after locking: give it a
			 * moment, and prefer a pid that is alive. */
			for (int i = 0; i < 100; i++) {
				long pid = lock_holder(fd);
				if (pid > 0 && kill((pid_t)pid, 0) == 0) {
					*holder = pid;
					break;
				}
				struct timespec ts = { 0, 10 * 1000 * 1000 };
				nanosleep(&ts, NULL);
			}
			if (*holder > 0)
				snprintf(err, errlen,
					 "work directory '%s' is in use by another tlab (pid %ld, lock "
					 "'%s'): wait for it to end, or use another --workdir",
					 c->workdir, *holder, path);
			else
				snprintf(err, errlen,
					 "work directory '%s' is in use by another tlab (lock '%s'): wait "
					 "for it to end, or use another --workdir",
					 c->workdir, path);
		} else {
			snprintf(err, errlen, "cannot lock '%s': %s", path, strerror(e));
		}
		close(fd);
		errno = e;
		return -1;
	}
	char text[32];
	int n = snprintf(text, sizeof(text), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) != 0 || pwrite(fd, text, (size_t)n, 0) != n) {
		int e = errno;
		snprintf(err, errlen, "cannot write the lock '%s': %s", path, strerror(e));
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int abrun_stop_survivors(const struct abrun_config *c, long *pgid)
{
	char path[4200];
	abrun_group_path(c, path, sizeof(path));
	return run_stop_recorded(path, 5.0, pgid);
}

/* s in single quotes for /bin/sh, each ' written as '\''. malloc'd. */
static char *sh_quote(const char *s)
{
	size_t n = 3;
	for (const char *p = s; *p; p++)
		n += *p == '\'' ? 4 : 1;
	char *q = malloc(n), *o = q;
	if (!q)
		return NULL;
	*o++ = '\'';
	for (const char *p = s; *p; p++) {
		if (*p == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *p;
		}
	}
	*o++ = '\'';
	*o = '\0';
	return q;
}

char *abrun_command_line(const struct abrun_config *c, long pair, char arm)
{
	char profile[4096];
	abrun_profile_path(c, pair, arm, profile, sizeof(profile));
	char *qm = sh_quote(c->msprof), *qk = sh_quote(c->kernel_name), *qo = sh_quote(profile),
	     *ql = sh_quote(c->aic_metrics), *line = NULL;
	const char *cmd = arm == 'A' ? c->a_cmd : c->b_cmd;
	if (qm && qk && qo && ql) {
		size_t n = strlen(qm) + strlen(qk) + strlen(qo) + strlen(ql) + strlen(cmd) + 160;
		line = malloc(n);
		if (line)
			snprintf(line, n,
				 "%s op --kernel-name=%s --output=%s --launch-count=%ld --warm-up=%ld "
				 "--dump=off --aic-metrics=%s %s",
				 qm, qk, qo, c->launch_count, c->warm_up, ql, cmd);
	}
	free(qm);
	free(qk);
	free(qo);
	free(ql);
	return line;
}

static int exists(const char *p)
{
	struct stat st;
	return lstat(p, &st) == 0;
}

/* Renames <base><suffix> to <base>.unfinished-<k><suffix> (first free k)
 * when it exists, so a new attempt starts clean and the old one is kept.
 * Returns 0 or -1. */
static int move_aside(const char *path, const char *suffix)
{
	if (!exists(path))
		return 0;
	char to[4200];
	size_t n = strlen(path), ls = strlen(suffix);
	int base = (int)(n >= ls && strcmp(path + n - ls, suffix) == 0 ? n - ls : n);
	for (int k = 1; k < 10000; k++) {
		snprintf(to, sizeof(to), "%.*s.unfinished-%d%s", base, path, k, suffix);
		if (!exists(to))
			return rename(path, to);
	}
	errno = EEXIST;
	return -1;
}

/* The last non-empty line of a log, for error messages ("" if none). */
static void last_log_line(const char *log, char *buf, size_t len)
{
	struct lineio l;
	buf[0] = '\0';
	if (lineio_open(&l, log, 4096) != 0)
		return;
	while (lineio_next(&l) == 1) {
		const char *s = l.buf;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s)
			snprintf(buf, len, "%s", s);
	}
	lineio_close(&l);
}

static char *utc_now(void)
{
	char buf[32];
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return strdup(buf);
}

/* ---- sources: how a run is launched and where its durations come from.
 * A new source adds a case to both functions. ---- */

/* The shell line of one run. malloc'd, NULL when out of memory. */
static char *source_command(const struct abrun_config *c, long pair, char arm)
{
	switch (c->source) {
	case ABRUN_SOURCE_STDOUT:
	case ABRUN_SOURCE_CSV:
		return strdup(arm == 'A' ? c->a_cmd : c->b_cmd);
	case ABRUN_SOURCE_MSPROF:
	default:
		return abrun_command_line(c, pair, arm);
	}
}

/* Before the run: without the profiler the bench runs alone, so it gets its
 * directory and settings in the environment, and the stdout source
 * captures its stdout in PROFILE/stdout.txt (outfile). Returns 0, or -1
 * with err set (environment). */
static int source_prepare(const struct abrun_config *c, const char *profile, char arm,
			  long pair, struct run_spec *spec, char *outfile, size_t outlen,
			  char *err, size_t errlen)
{
	if (c->source == ABRUN_SOURCE_MSPROF)
		return 0;
	if (absource_prepare_run(profile, arm, pair, c->launch_count, c->warm_up, outfile, outlen,
				 err, errlen) != 0)
		return -1;
	if (c->source == ABRUN_SOURCE_STDOUT)
		spec->out_path = outfile;
	return 0;
}

/* The launch durations of a finished run into a malloc'd array; *captured
 * gets how many launches the run holds (durations NA included). Returns
 * 0, or -1 with err saying what was missing or wrong. A profile holding
 * two OPPROF_x/PROF_x directories is an error: one run writes one, so the
 * other came from another process (a previous tlab's survivor), and
 * pooling them would mix two runs. */
static int source_read(const struct abrun_config *c, const char *profile, double **d, size_t *n,
		       size_t *captured, char *err, size_t errlen)
{
	char outfile[4200];
	int rc;
	switch (c->source) {
	case ABRUN_SOURCE_STDOUT:
		snprintf(outfile, sizeof(outfile), "%s/stdout.txt", profile);
		rc = absource_read_stdout(outfile, d, n, err, errlen);
		*captured = *n;
		return rc;
	case ABRUN_SOURCE_CSV:
		rc = absource_read_csv(profile, c->csv_glob, c->csv_column, d, n, err, errlen);
		*captured = *n;
		return rc;
	case ABRUN_SOURCE_MSPROF:
	default: {
		struct msprof_capture cap;
		msprof_capture_init(&cap);
		int r = msprof_read(profile, c->kernel_name, &cap, err, errlen);
		*d = NULL;
		if (r == MSPROF_OK && cap.nroots > 1) {
			snprintf(err, errlen,
				 "'%s' holds %zu profiler directories ('%s' and '%s'): a run writes one; "
				 "another process wrote into this run's directory (not pooled)",
				 profile, cap.nroots, cap.roots[0], cap.roots[1]);
			r = MSPROF_EFORMAT;
		}
		*d = r == MSPROF_OK ? msprof_durations(&cap, n) : NULL;
		*captured = cap.n;
		if (r == MSPROF_OK && !*d)
			snprintf(err, errlen, "no launch durations in '%s'", profile);
		msprof_capture_release(&cap);
		return *d ? 0 : -1;
	}
	}
}

/* Creates the run's profile directory, which must not exist: a fresh one
 * for every attempt (an earlier attempt is moved aside first). Returns 0
 * or -1 with errno set. */
static int fresh_dir(const char *profile)
{
	for (int tries = 0; tries < 5; tries++) {
		if (mkdir(profile, 0755) == 0)
			return 0;
		if (errno != EEXIST)
			return -1;
		/* something recreated it since it was moved aside */
		if (move_aside(profile, "") != 0)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

/* One attempt of one arm of one pair: where it writes (the steps of
 * abrun_measure share it). */
struct attempt {
	const struct abrun_config *c;
	char arm;            /* 'A' or 'B' */
	long pair;
	char profile[4096];  /* the attempt's profile directory */
	char log[4096];      /* its log */
};

/* Moves an unfinished earlier attempt aside and creates a fresh profile
 * directory. ABRUN_OK, or ABRUN_ENV with err. */
static int attempt_prepare(struct attempt *at, char *err, size_t errlen)
{
	const struct abrun_config *c = at->c;
	abrun_profile_path(c, at->pair, at->arm, at->profile, sizeof(at->profile));
	abrun_log_path(c, at->pair, at->arm, at->log, sizeof(at->log));
	if (move_aside(at->profile, "") != 0 || move_aside(at->log, ".log") != 0) {
		snprintf(err, errlen, "cannot move the unfinished attempt of pair %ld %c aside in '%s': %s",
			 at->pair, at->arm, c->workdir, strerror(errno));
		return ABRUN_ENV;
	}
	if (fresh_dir(at->profile) != 0) {
		snprintf(err, errlen, "cannot create a fresh '%s': %s", at->profile, strerror(errno));
		return ABRUN_ENV;
	}
	return ABRUN_OK;
}

/* How the attempt's command ended: -1 when it exited 0 (go on), else the
 * abrun code with err (interrupted, could not start, failed). */
static int attempt_outcome(const struct attempt *at, const struct run_result *res, char *err,
			   size_t errlen)
{
	char what[256], last[300];
	run_describe(res, what, sizeof(what));
	switch (res->status) {
	case RUN_INTERRUPTED:
		snprintf(err, errlen, "pair %ld %c: %s; log '%s'", at->pair, at->arm, what, at->log);
		return ABRUN_INTERRUPTED;
	case RUN_SPAWN_FAILED:
		snprintf(err, errlen, "pair %ld %c: %s (log '%s')", at->pair, at->arm, what, at->log);
		return ABRUN_ENV;
	case RUN_EXITED:
		if (res->exit_code == 0)
			return -1;
		/* fall through */
	case RUN_SIGNALED:
	case RUN_TIMED_OUT:
		break;
	}
	last_log_line(at->log, last, sizeof(last));
	snprintf(err, errlen, "pair %ld %c: the run %s; see log '%s'%s%s%s", at->pair, at->arm, what,
		 at->log, last[0] ? " (last line: \"" : "", last, last[0] ? "\")" : "");
	return ABRUN_FAILED;
}

/* The attempt's launch durations into *d (malloc'd, *n of them); 0, or -1
 * with err when they cannot be read or more were captured than launched. */
static int attempt_read(const struct attempt *at, double **d, size_t *n, char *err,
			size_t errlen)
{
	char rerr[6144];
	size_t captured = 0;
	if (source_read(at->c, at->profile, d, n, &captured, rerr, sizeof(rerr)) != 0) {
		snprintf(err, errlen, "pair %ld %c: %s; see log '%s'", at->pair, at->arm, rerr, at->log);
		return -1;
	}
	if (captured > (size_t)at->c->launch_count) {
		snprintf(err, errlen,
			 "pair %ld %c: %zu launches in '%s', more than --launch-count %ld: another "
			 "process wrote into this run (a previous tlab's survivor?); the run is not "
			 "used; see log '%s'",
			 at->pair, at->arm, captured, at->profile, at->c->launch_count, at->log);
		return -1;
	}
	return 0;
}

/* The run's summary of the n durations d into *out. ABRUN_OK, or
 * ABRUN_ENV with err when out of memory (*out released). */
static int attempt_fill(const struct attempt *at, int order, const double *d, size_t n,
			double elapsed_s, struct abrun_run *out, char *err, size_t errlen)
{
	const struct abrun_config *c = at->c;
	out->arm = at->arm;
	out->pair = at->pair;
	out->order = order;
	out->launches = n;
	out->median_us = stats_median(d, n);
	out->mad_us = stats_mad(d, n);
	out->min_us = stats_min(d, n);
	out->max_us = stats_max(d, n);
	out->elapsed_s = elapsed_s;
	out->launch_count = c->launch_count;
	out->cmd = strdup(at->arm == 'A' ? c->a_cmd : c->b_cmd);
	out->kernel_name = strdup(c->kernel_name);
	out->log = strdup(at->log);
	out->profile = strdup(at->profile);
	out->finished = utc_now();
	if (!out->cmd || !out->kernel_name || !out->log || !out->profile || !out->finished) {
		abrun_run_release(out);
		snprintf(err, errlen, "out of memory");
		return ABRUN_ENV;
	}
	return ABRUN_OK;
}

int abrun_measure(const struct abrun_config *c, char arm, long pair, int order,
		  struct abrun_run *out, char *err, size_t errlen)
{
	struct attempt at = { .c = c, .arm = arm, .pair = pair };
	char *line = NULL;
	double *d = NULL;
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	int rc = attempt_prepare(&at, err, errlen);
	if (rc != ABRUN_OK)
		return rc;
	line = source_command(c, pair, arm);
	if (!line) {
		snprintf(err, errlen, "out of memory");
		return ABRUN_ENV;
	}
	/* A few seconds of grace: an NPU bench may need them to release the device. */
	char groupf[4200], outfile[4200];
	abrun_group_path(c, groupf, sizeof(groupf));
	struct run_spec spec = { .command = line, .log_path = at.log, .timeout_s = c->timeout_s,
				 .kill_grace_s = 5.0, .group_file = groupf };
	struct run_result res;
	if (source_prepare(c, at.profile, arm, pair, &spec, outfile, sizeof(outfile), err, errlen) !=
	    0) {
		rc = ABRUN_ENV;
		goto out;
	}
	run_command(&spec, &res);
	rc = attempt_outcome(&at, &res, err, errlen);
	if (rc >= 0)
		goto out;
	rc = ABRUN_FAILED;
	if (attempt_read(&at, &d, &n, err, errlen) == 0)
		rc = attempt_fill(&at, order, d, n, res.elapsed_s, out, err, errlen);
out:
	free(d);
	free(line);
	return rc;
}

static void journal_path(const struct abrun_config *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s/runs.jsonl", c->workdir);
}

int abrun_journal_append(const struct abrun_config *c, const struct abrun_run *r)
{
	char path[4096], arm[2] = { r->arm, '\0' };
	cJSON *o = cJSON_CreateObject();
	char *text = NULL;
	int rc = -1, saved = ENOMEM;
	if (!o)
		goto out;
	cJSON_AddNumberToObject(o, "v", 1);
	cJSON_AddStringToObject(o, "arm", arm);
	cJSON_AddNumberToObject(o, "pair", (double)r->pair);
	cJSON_AddNumberToObject(o, "order", r->order);
	cJSON_AddNumberToObject(o, "launches", (double)r->launches);
	cJSON_AddNumberToObject(o, "median_us", r->median_us);
	cJSON_AddNumberToObject(o, "mad_us", r->mad_us);
	cJSON_AddNumberToObject(o, "min_us", r->min_us);
	cJSON_AddNumberToObject(o, "max_us", r->max_us);
	cJSON_AddNumberToObject(o, "elapsed_s", r->elapsed_s);
	cJSON_AddStringToObject(o, "cmd", r->cmd);
	cJSON_AddStringToObject(o, "kernel_name", r->kernel_name);
	cJSON_AddNumberToObject(o, "launch_count", (double)r->launch_count);
	cJSON_AddStringToObject(o, "log", r->log);
	cJSON_AddStringToObject(o, "profile", r->profile);
	cJSON_AddStringToObject(o, "finished", r->finished ? r->finished : "");
	cJSON_AddNumberToObject(o, "warm_up", (double)c->warm_up);
	if (c->source_name)
		cJSON_AddStringToObject(o, "source", c->source_name);
	if (c->has_seed) { /* digits as they are: cJSON would print 15 significant ones */
		char seed[32];
		snprintf(seed, sizeof(seed), "%llu", c->seed);
		cJSON_AddRawToObject(o, "seed", seed);
	}
	if (isfinite(c->noise))
		cJSON_AddNumberToObject(o, "noise", c->noise);
	if (isfinite(c->min_gain))
		cJSON_AddNumberToObject(o, "min_gain", c->min_gain);
	if (c->after_torn > 0)
		cJSON_AddNumberToObject(o, "after_torn", (double)c->after_torn);
	if (c->protocol) /* last, as before the fields above were added */
		cJSON_AddStringToObject(o, "protocol", c->protocol);
	text = cJSON_PrintUnformatted(o);
	if (!text)
		goto out;
	journal_path(c, path, sizeof(path));
	/* one locked write; a short one (full disk) is cut back to the last
	 * complete line and reported with its errno */
	rc = recwrite_append(path, text, strlen(text), RECWRITE_LINE);
	saved = errno;
out:
	cJSON_Delete(o);
	free(text);
	if (rc != 0)
		errno = saved;
	return rc;
}

void abrun_journal_release(struct abrun_journal *j)
{
	for (size_t i = 0; i < j->n; i++)
		abrun_run_release(&j->v[i]);
	free(j->v);
	memset(j, 0, sizeof(*j));
}

static int get_num(const cJSON *o, const char *k, double *v)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, k);
	if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble))
		return -1;
	*v = it->valuedouble;
	return 0;
}

static char *get_str(const cJSON *o, const char *k)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, k);
	if (!cJSON_IsString(it) || !it->valuestring)
		return NULL;
	return strdup(it->valuestring);
}

static const char NOT_JSON[] = "not JSON";

/* The required fields of a journal line into *r, each checked first
 * (io/abjournal.h reads the run's own, the gate reads them the same way);
 * NULL, or a static reason (r untouched). */
static const char *run_required(const cJSON *o, struct abrun_run *r)
{
	struct abjournal_run jr;
	double launches;
	const char *why = abjournal_run_of(o, &jr);
	if (why)
		return why;
	if (get_num(o, "launches", &launches) != 0 || launches < 1 || launches != floor(launches))
		return "\"launches\" must be a whole number >= 1";
	r->arm = jr.arm;
	r->pair = jr.pair;
	r->order = jr.order;
	r->launches = (size_t)launches;
	r->median_us = jr.median_us;
	return NULL;
}

/* The optional fields of a journal line into *r (NAN, 0 or NULL when
 * absent); NULL, or a static reason when "cmd" is missing (r released). */
static const char *run_optional(const cJSON *o, struct abrun_run *r)
{
	double v;
	r->mad_us = get_num(o, "mad_us", &v) == 0 ? v : NAN;
	r->min_us = get_num(o, "min_us", &v) == 0 ? v : NAN;
	r->max_us = get_num(o, "max_us", &v) == 0 ? v : NAN;
	r->elapsed_s = get_num(o, "elapsed_s", &v) == 0 ? v : NAN;
	r->launch_count = get_num(o, "launch_count", &v) == 0 ? (long)v : 0;
	r->cmd = get_str(o, "cmd");
	r->kernel_name = get_str(o, "kernel_name");
	r->log = get_str(o, "log");
	r->profile = get_str(o, "profile");
	r->finished = get_str(o, "finished");
	r->protocol = get_str(o, "protocol");
	r->source = get_str(o, "source");
	r->noise = get_num(o, "noise", &v) == 0 ? v : NAN;
	r->min_gain = get_num(o, "min_gain", &v) == 0 ? v : NAN;
	r->warm_up = get_num(o, "warm_up", &v) == 0 && v >= 0 && v == floor(v) ? (long)v : -1;
	r->after_torn = get_num(o, "after_torn", &v) == 0 && v >= 1 && v == floor(v) ? (long)v : 0;
	if (get_num(o, "seed", &v) == 0 && v >= 0 && v <= 9007199254740991.0 && v == floor(v)) {
		r->has_seed = 1;
		r->seed = (unsigned long long)v;
	}
	if (r->cmd)
		return NULL;
	abrun_run_release(r);
	return "\"cmd\" must be a string";
}

/* One journal line into *r. Returns NULL or a static reason (NOT_JSON
 * when the text does not parse at all). */
static const char *parse_run(const char *text, size_t len, struct abrun_run *r)
{
	cJSON *o = cJSON_ParseWithLength(text, len);
	const char *why;
	memset(r, 0, sizeof(*r));
	if (!o)
		why = NOT_JSON;
	else if (!cJSON_IsObject(o))
		why = "not a JSON object";
	else if (!(why = run_required(o, r)))
		why = run_optional(o, r);
	cJSON_Delete(o);
	return why;
}

/* 1 when a line that is not JSON looks like a tlab line a crash cut short:
 * it starts as tlab starts every line and holds only printable text (no
 * binary junk, no NUL). */
static int torn_shape(const char *s, size_t n)
{
	static const char start[] = "{\"v\":";
	if (n < sizeof(start) - 1 || memcmp(s, start, sizeof(start) - 1) != 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return 0;
	return 1;
}

/* Counts damaged line LINE as unexplained. */
static void unexplained(struct abrun_journal *j, long line)
{
	if (j->unexplained++ == 0 || line < j->first_unexplained)
		j->first_unexplained = line;
}

/* 1 when the stream's last byte is not a newline (a write cut short). */
static int ends_unfinished(FILE *f)
{
	if (fseek(f, -1, SEEK_END) != 0)
		return 0;
	int ch = fgetc(f);
	return ch != EOF && ch != '\n';
}

int abrun_journal_load(const struct abrun_config *c, struct abrun_journal *j, char *err,
		       size_t errlen)
{
	long pending = 0; /* a torn-looking line not yet acknowledged */
	char path[4096];
	struct lineio l;
	size_t cap = 0;
	int rc = -1;
	memset(j, 0, sizeof(*j));
	journal_path(c, path, sizeof(path));
	if (lineio_open(&l, path, LINEIO_DEFAULT_LIMIT) != 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	int r;
	while ((r = lineio_next(&l)) == 1) {
		size_t k = 0; /* a blank line is skipped; a NUL byte is not blank */
		while (k < l.len && (l.buf[k] == ' ' || l.buf[k] == '\t'))
			k++;
		if (k == l.len)
			continue;
		if (j->n == cap) {
			size_t nc = cap ? cap * 2 : 16;
			struct abrun_run *nv = realloc(j->v, nc * sizeof(*nv));
			if (!nv) {
				snprintf(err, errlen, "out of memory");
				goto out;
			}
			j->v = nv;
			cap = nc;
		}
		const char *why = l.truncated ? "line too long" : parse_run(l.buf, l.len, &j->v[j->n]);
		if (why == NOT_JSON) {
			if (j->damaged++ == 0)
				j->first_damaged = l.lineno;
			if (pending) /* a torn line no run acknowledged */
				unexplained(j, pending);
			pending = 0;
			if (torn_shape(l.buf, l.len))
				pending = l.lineno;
			else
				unexplained(j, l.lineno);
			continue;
		}
		if (why) {
			snprintf(err, errlen, "%s:%ld: %s", path, l.lineno, why);
			goto out;
		}
		j->v[j->n].line = l.lineno;
		if (pending && j->v[j->n].after_torn == pending)
			j->torn++;
		else if (pending)
			unexplained(j, pending);
		pending = 0;
		j->n++;
	}
	if (r < 0) {
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		goto out;
	}
	if (pending && ends_unfinished(l.f)) {
		j->torn++;
		j->torn_last = pending;
	} else if (pending) {
		unexplained(j, pending);
	}
	rc = 0;
out:
	lineio_close(&l);
	if (rc != 0)
		abrun_journal_release(j);
	return rc;
}
