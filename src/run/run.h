/* run.h: running one shell command the way measurements need it.
 *
 * Every command is `/bin/sh -c LINE` (or an argv run without a shell, see
 * run_spec.argv), started in a new process group by a small guard process
 * (a fork of ours), stdin from /dev/null, stdout and stderr to a log file.
 * Children die with their parent: the guard gets SIGTERM from the kernel
 * when we die (PR_SET_PDEATHSIG; kill -9 included) and then kills the
 * whole group (SIGTERM, SIGKILL after the grace period); the command gets
 * SIGKILL if the guard dies. Every command carries TLPERF_RUN_TOKEN=<a
 * token unique to the run> in its environment, and run_spec.group_file
 * records "<pgid> <token>" while the run lives, so a later process can
 * find and stop what an earlier one left behind (run_stop_recorded). A
 * timeout kills the whole group (SIGTERM; SIGKILL to what is left once the
 * group is empty or the grace period is over), so a bench that forks
 * helpers leaves nothing behind. SIGINT and
 * SIGTERM sent to us (Ctrl-C) are caught by run_signals_install(): the
 * running child group is killed, run_command() returns RUN_INTERRUPTED and
 * the caller can record what finished before exiting 128+N. The terminal's
 * Ctrl-C does not reach the child directly: it lives in its own group.
 *
 * Not thread-safe (one child at a time per process; the signal flag is
 * process-wide). Used by `tlab` and by the loop driver.
 */
#ifndef TLPERF_RUN_H
#define TLPERF_RUN_H

#include <stddef.h>

struct run_spec {
	const char *command;   /* shell line, run as /bin/sh -c command */
	const char *log_path;  /* stderr (and stdout when out_path is NULL) go here;
				  NULL means /dev/null */
	const char *out_path;  /* when non-NULL, stdout goes here instead of the log */
	int append;            /* 1: append to log/out files; 0: truncate them */
	double timeout_s;      /* wall-clock limit; <= 0 means none */
	double kill_grace_s;   /* longest SIGTERM -> SIGKILL delay on timeout/interrupt; <= 0: 1 s */
	char *const *envp;     /* the child's environment; NULL inherits ours */
	char *const *argv;     /* when non-NULL: run argv[0] (PATH lookup when it has
				  no '/') with these arguments and NO shell; command
				  is then only used in messages and may be NULL */
	const char *group_file; /* when non-NULL: "<pgid> <token>\n" written here once
				   the run started, removed when run_command returns */
};

enum run_status {
	RUN_EXITED = 0,       /* exited by itself; see exit_code */
	RUN_SIGNALED = 1,     /* killed by a signal nobody here sent; see signal */
	RUN_TIMED_OUT = 2,    /* we killed the group after timeout_s */
	RUN_INTERRUPTED = 3,  /* we got SIGINT/SIGTERM and killed the group; see signal */
	RUN_SPAWN_FAILED = 4  /* log not writable, fork/exec failure; see err */
};

struct run_result {
	enum run_status status;
	int exit_code;     /* RUN_EXITED: the exit status (0..255) */
	int signal;        /* RUN_SIGNALED: the child's signal; RUN_INTERRUPTED: ours */
	int err;           /* RUN_SPAWN_FAILED: errno */
	double elapsed_s;  /* wall-clock time from spawn to reap */
	long pid;          /* the child's pid (= its process group id); 0 if not spawned */
};

/* Runs spec->command to completion, timeout or interruption and fills
 * *res. Blocks; EINTR is retried internally. The log files are created
 * with mode 0644 (parent directories must exist).
 * Returns 0 when the command ran and exited with status 0, 1 otherwise
 * (the reason is in *res; never -1). */
int run_command(const struct run_spec *spec, struct run_result *res);

/* Human-readable outcome written into buf (always NUL-terminated):
 * "exited with status 3", "killed by signal 9 (Killed)", "timed out after
 * 5 s (process group killed)", "interrupted by signal 2",
 * "could not start: <strerror>". Returns buf. */
const char *run_describe(const struct run_result *res, char *buf, size_t len);

/* The exit code a CLI should use to pass the outcome on: the child's status
 * when it exited, 128+N when a signal ended it or interrupted us, 1 for a
 * timeout, 2 for a spawn failure (environment error). */
int run_exit_code(const struct run_result *res);

/* Installs SIGINT and SIGTERM handlers (no SA_RESTART) that record the
 * signal; run_command() then kills its child group and returns
 * RUN_INTERRUPTED. Call once before a series of runs; run_signals_restore()
 * puts the previous handlers back. Return 0, or -1 with errno set. */
int run_signals_install(void);
int run_signals_restore(void);

/* The signal recorded since the last install (SIGINT, SIGTERM), or 0; it
 * stays readable after restore. Callers check it between runs to stop
 * starting new work. While installed, run_command() does not even start a
 * command once a signal was recorded (RUN_INTERRUPTED, pid 0). */
int run_interrupted(void);

/* Stops what an earlier run recorded in group_file (run_spec.group_file)
 * left running: the processes of its group when at least one of them
 * still carries its TLPERF_RUN_TOKEN (so a reused group id is never
 * touched), and any other process carrying the token (one that left the
 * group). SIGTERM, up to grace_s for them to go, then SIGKILL; waits
 * (bounded, 5 s) until they are gone. Our own process is never touched.
 * Removes group_file afterwards. Returns how many processes were stopped
 * (0: nothing left, or no file), -1 when the file cannot be read
 * (errno). *pgid gets the recorded group (0 when none). Linux (/proc);
 * elsewhere it only removes the file. */
int run_stop_recorded(const char *group_file, double grace_s, long *pgid);

/* Whether the process group pgid still has a live (non-zombie) member
 * (kill(-pgid, 0), then /proc on Linux).
 * 1 yes, 0 no. For tests and for callers that want to double-check that a
 * killed run left nothing behind. */
int run_group_alive(long pgid);

#endif
