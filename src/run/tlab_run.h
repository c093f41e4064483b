/* tlab_run.h: the pieces of `tlab` (src/cli/cmd_ab.c) that are not the command
 * line: measuring one run, and the runs.jsonl journal that makes a session
 * survive crashes, timeouts and Ctrl-C.
 *
 * A session lives in a work directory:
 *   WORKDIR/runs.jsonl          one JSON object per finished run, appended
 *                               as each run ends (O_APPEND, one write, fsync)
 *   WORKDIR/pair<i><A|B>/       the profiler's --output for that run
 *   WORKDIR/logs/pair<i><A|B>.log  the run's stdout and stderr
 *   WORKDIR/tlab.lock           held (flock) by the tlab using the directory;
 *                               holds its pid. A second tlab is refused.
 *   WORKDIR/tlab.run            "<pgid> <token>" of the run in progress
 *                               (run.h), so a later tlab stops what a killed
 *                               one left running
 * Every run line also records what defines the session (protocol, seed,
 * warm-up, source, tie margin, min gain), so that --resume can refuse
 * another session's settings.
 * A run that did not finish (failed, timed out, interrupted) is not in
 * runs.jsonl; before it is measured again its directory and log are moved
 * aside to <name>.unfinished-<k>, never deleted, and the run gets a fresh
 * directory. A run whose directory holds more launches than --launch-count,
 * or two profiler directories, is an error (another process wrote there),
 * never pooled.
 */
#ifndef TLPERF_ABRUN_H
#define TLPERF_ABRUN_H

#include <stddef.h>

/* Where the launch durations of a run come from (--source; the readers of
 * the non-profiler sources are in src/ab_source.h). Without the profiler
 * the arm's command runs as written, with $TLAB_OUTPUT = the run's
 * directory, $TLAB_LAUNCH_COUNT, $TLAB_WARM_UP, $TLAB_ARM and $TLAB_PAIR in
 * its environment. */
enum abrun_source {
	ABRUN_SOURCE_MSPROF = 0,  /* msprof op ... <cmd>, Task Duration(us) of the OPPROF tree */
	ABRUN_SOURCE_STDOUT = 1,  /* <cmd> alone; its stdout (WORKDIR/pair<i><arm>/stdout.txt) */
	ABRUN_SOURCE_CSV = 2      /* <cmd> alone; column csv_column of the files matching csv_glob */
};

struct abrun_config {
	const char *a_cmd;        /* baseline bench command (shell line) */
	const char *b_cmd;        /* candidate bench command */
	const char *workdir;      /* session directory */
	const char *kernel_name;  /* --kernel-name for msprof and for reading */
	const char *aic_metrics;  /* --aic-metrics LIST */
	const char *msprof;       /* profiler executable (path or name on PATH) */
	enum abrun_source source;
	const char *csv_glob;     /* ABRUN_SOURCE_CSV: files (relative: inside the run's directory) */
	const char *csv_column;   /* ABRUN_SOURCE_CSV: header of the duration column (us) */
	long launch_count;        /* --launch-count */
	long warm_up;             /* --warm-up */
	double timeout_s;         /* per run; <= 0 none */
	const char *protocol;     /* the decision rule ("seq", "ref"), written with
				     every run so that a journal says how it is to be replayed;
				     NULL: not written */
	/* The rest of what defines the session, written with every run so
	 * that --resume can refuse another session's settings: */
	const char *source_name;  /* "msprof", "stdout", "csv:GLOB:COLUMN"; NULL: not written */
	int has_seed;             /* 1: seed is written (seq and fast order pairs by it) */
	unsigned long long seed;  /* the seed of the pairs' order */
	double noise;             /* the tie margin decided with; NAN: not written */
	double min_gain;          /* seq and fast: --min-gain; NAN: not written */
	long after_torn;          /* > 0: this journal line was cut short by a crash
				     and the next run written acknowledges it
				     ("after_torn": line), so later loads know it */
};

/* One finished run. Strings are malloc'd and owned (abrun_run_release). */
struct abrun_run {
	char arm;            /* 'A' or 'B' */
	long pair;           /* 1-based pair number */
	int order;           /* 1 when the arm ran first in its pair, 2 second */
	size_t launches;     /* durations read */
	double median_us;    /* median launch duration: the run's figure */
	double mad_us;       /* MAD of the launch durations */
	double min_us, max_us;
	double elapsed_s;    /* wall time of the run */
	char *cmd;           /* the bench command of the arm */
	char *kernel_name;   /* --kernel-name the run was measured with */
	long launch_count;   /* --launch-count the run was measured with */
	char *log;           /* WORKDIR/logs/pair<i><arm>.log */
	char *profile;       /* WORKDIR/pair<i><arm> */
	char *finished;      /* UTC time the run ended, ISO 8601 */
	char *protocol;      /* read from a journal: the rule it was measured under
				(NULL when the line names none, as before 2026-12) */
	/* read from a journal (absent from lines written before 2026-12-05): */
	long line;           /* the journal line the run was read from */
	char *source;        /* --source name, NULL when absent */
	int has_seed;        /* 1 when "seed" was recorded */
	unsigned long long seed;
	double noise;        /* tie margin, NAN when absent */
	double min_gain;     /* NAN when absent */
	long warm_up;        /* -1 when absent */
	long after_torn;     /* the torn line this run's write acknowledged, 0 none */
};

/* Frees the strings r owns and zeroes it (safe on a zeroed run). */
void abrun_run_release(struct abrun_run *r);

/* "WORKDIR/tlab.run": the group file of the run in progress (run.h). */
void abrun_group_path(const struct abrun_config *c, char *buf, size_t len);

/* Takes the work directory for this process: an exclusive flock(2) on
 * WORKDIR/tlab.lock (created when missing), which then holds our pid. The
 * lock goes with the process (killed or not); children do not inherit it.
 * Returns an fd >= 0 to keep open, or -1: with errno EWOULDBLOCK when
 * another process holds it (*holder = its pid, 0 if it cannot be told),
 * other errno values when the file cannot be used; err says which. */
int abrun_lock_workdir(const struct abrun_config *c, long *holder, char *err, size_t errlen);

/* Stops the processes a previous tlab's run left running in this work
 * directory (WORKDIR/tlab.run; run_stop_recorded). Call with the lock held.
 * Returns how many were stopped (0: none), -1 on error (errno); *pgid
 * gets the recorded group. */
int abrun_stop_survivors(const struct abrun_config *c, long *pgid);

/* "WORKDIR/pair<i><arm>" and "WORKDIR/logs/pair<i><arm>.log" into buf. */
void abrun_profile_path(const struct abrun_config *c, long pair, char arm, char *buf, size_t len);
void abrun_log_path(const struct abrun_config *c, long pair, char arm, char *buf, size_t len);

/* The shell line of one run: the profiler wrapped around the arm's command,
 * `'MSPROF' op --kernel-name='K' --output='DIR' --launch-count=N
 * --warm-up=W --dump=off --aic-metrics='LIST' <cmd>` (the arguments quoted,
 * the bench command inserted as written). Returns malloc'd, caller frees;
 * NULL when out of memory. */
char *abrun_command_line(const struct abrun_config *c, long pair, char arm);

/* Outcome of abrun_measure. */
enum abrun_rc {
	ABRUN_OK = 0,
	ABRUN_FAILED = 1,       /* the run failed: non-zero exit, timeout, no data */
	ABRUN_ENV = 2,          /* environment: log/profile dir not writable, spawn failed */
	ABRUN_INTERRUPTED = 3   /* SIGINT/SIGTERM reached us; the run was killed */
};

/* Measures one run: moves an unfinished earlier attempt aside, runs the
 * command (run.h: new process group, log, timeout), reads the durations and
 * fills *out (owned by the caller afterwards). order is 1 or 2.
 * On failure err holds one line saying what failed, naming the log. */
int abrun_measure(const struct abrun_config *c, char arm, long pair, int order,
		  struct abrun_run *out, char *err, size_t errlen);

/* Appends r to WORKDIR/runs.jsonl with recwrite_append (io/recwrite.h),
 * with the session's settings from c (protocol, source_name, seed, noise,
 * min_gain, warm_up, and after_torn when set):
 * one line under flock, fsync'd. A write cut short (a full disk) is
 * truncated back, so the file ends at its last complete line and errno
 * says why (ENOSPC). When the file does not end in a newline (damage from
 * before), the line starts with one, so the damage stays on its own line.
 * Returns 0, or -1 with errno set. */
int abrun_journal_append(const struct abrun_config *c, const struct abrun_run *r);

/* Runs recorded in a journal, in file order. */
struct abrun_journal {
	struct abrun_run *v;
	size_t n;
	size_t damaged;       /* lines that are not JSON at all, skipped: each a lost run */
	long first_damaged;   /* line number of the first of them, 0 if none */
	size_t torn;          /* of them, writes a crash cut short: a tlab line's start
				 ('{"v":' then printable text) that is the file's last line
				 without its newline, or that the next run acknowledges */
	long torn_last;       /* the line number of a torn last line, 0 if none */
	size_t unexplained;   /* damaged - torn: damage no crash of tlab explains */
	long first_unexplained; /* line number of the first of them, 0 if none */
};

/* Frees every run j holds and zeroes it (safe on a zeroed journal). */
void abrun_journal_release(struct abrun_journal *j);

/* Loads WORKDIR/runs.jsonl (a missing file is an empty journal). Lines
 * must be objects with arm "A"/"B", pair >= 1, order 1/2, launches >= 1,
 * median_us > 0 and a cmd string. A line that is not JSON at all is
 * skipped and counted in damaged, and in torn (what a crash mid-write
 * leaves, see struct abrun_journal) or unexplained; the caller decides
 * whether the session may go on. Valid JSON that is not such a run is an
 * error naming file and line, since it means the file is not a tlab
 * journal. Nothing is written. Returns 0, or -1 with err set. */
int abrun_journal_load(const struct abrun_config *c, struct abrun_journal *j, char *err,
		       size_t errlen);

#endif
