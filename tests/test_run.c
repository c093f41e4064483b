/* test_run.c: spawning, logs, exit statuses, timeouts that kill the whole
 * process tree, and SIGINT while a child runs. */
#include "testlib.h"
#include "run/run.h"

#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

static char dir[256];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "%s/tlperf-test-run.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	struct run_spec s = { .command = cmd };
	struct run_result r;
	return run_command(&s, &r);
}

static void path_in(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", dir, name);
}

static char *slurp(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* A pid is alive when /proc shows it and it is not a zombie. */
static int pid_alive(long pid)
{
	char p[64];
	snprintf(p, sizeof(p), "/proc/%ld/stat", pid);
	char *s = slurp(p);
	if (!s)
		return kill((pid_t)pid, 0) == 0;
	char *rp = strrchr(s, ')');
	return rp && rp[1] == ' ' && rp[2] != 'Z' && rp[2] != 'X';
}

static void test_exit_zero_and_log(void **state)
{
	(void)state;
	char log[300];
	path_in(log, sizeof(log), "ok.log");
	struct run_spec s = { .command = "echo to-out; echo to-err >&2", .log_path = log };
	struct run_result r;
	assert_int_equal(run_command(&s, &r), 0);
	assert_int_equal(r.status, RUN_EXITED);
	assert_int_equal(r.exit_code, 0);
	assert_int_equal(run_exit_code(&r), 0);
	assert_true(r.pid > 0);
	char *text = slurp(log);
	assert_non_null(text);
	assert_non_null(strstr(text, "to-out\n"));
	assert_non_null(strstr(text, "to-err\n"));
	/* truncate by default, append on request */
	s.command = "echo second";
	assert_int_equal(run_command(&s, &r), 0);
	assert_string_equal(slurp(log), "second\n");
	s.append = 1;
	s.command = "echo third";
	assert_int_equal(run_command(&s, &r), 0);
	assert_string_equal(slurp(log), "second\nthird\n");
}

static void test_stdout_separate(void **state)
{
	(void)state;
	char log[300], out[300];
	path_in(log, sizeof(log), "sep.log");
	path_in(out, sizeof(out), "sep.out");
	struct run_spec s = { .command = "echo data; echo noise >&2", .log_path = log, .out_path = out };
	struct run_result r;
	assert_int_equal(run_command(&s, &r), 0);
	assert_string_equal(slurp(out), "data\n");
	assert_string_equal(slurp(log), "noise\n");
}

static void test_stdin_is_dev_null(void **state)
{
	(void)state;
	char log[300];
	path_in(log, sizeof(log), "stdin.log");
	/* would block forever if stdin were inherited from a terminal or pipe */
	struct run_spec s = { .command = "cat; echo eof", .log_path = log, .timeout_s = 20 };
	struct run_result r;
	assert_int_equal(run_command(&s, &r), 0);
	assert_string_equal(slurp(log), "eof\n");
}

static void test_nonzero_exit(void **state)
{
	(void)state;
	struct run_spec s = { .command = "exit 3" };
	struct run_result r;
	char buf[128];
	assert_int_equal(run_command(&s, &r), 1);
	assert_int_equal(r.status, RUN_EXITED);
	assert_int_equal(r.exit_code, 3);
	assert_int_equal(run_exit_code(&r), 3);
	assert_string_equal(run_describe(&r, buf, sizeof(buf)), "exited with status 3");
}

static void test_killed_by_signal(void **state)
{
	(void)state;
	struct run_spec s = { .command = "kill -9 $$" };
	struct run_result r;
	char buf[128];
	assert_int_equal(run_command(&s, &r), 1);
	assert_int_equal(r.status, RUN_SIGNALED);
	assert_int_equal(r.signal, 9);
	assert_int_equal(run_exit_code(&r), 137);
	assert_non_null(strstr(run_describe(&r, buf, sizeof(buf)), "killed by signal 9"));
}

static void test_log_not_writable(void **state)
{
	(void)state;
	char log[300];
	path_in(log, sizeof(log), "no/such/dir/x.log");
	struct run_spec s = { .command = "true", .log_path = log };
	struct run_result r;
	char buf[128];
	assert_int_equal(run_command(&s, &r), 1);
	assert_int_equal(r.status, RUN_SPAWN_FAILED);
	assert_int_equal(r.err, ENOENT);
	assert_int_equal(r.pid, 0);
	assert_int_equal(run_exit_code(&r), 2);
	assert_non_null(strstr(run_describe(&r, buf, sizeof(buf)), "could not start"));
}

static long read_pid(const char *name)
{
	char p[300];
	path_in(p, sizeof(p), name);
	char *s = slurp(p);
	assert_non_null(s);
	char *end = NULL;
	long v = strtol(s, &end, 10);
	assert_true(end != s && v > 0);
	return v;
}

static void test_timeout_kills_tree(void **state)
{
	(void)state;
	char cmd[600];
	/* a grandchild in the background, a child in the foreground */
	snprintf(cmd, sizeof(cmd), "sleep 60 & echo $! > '%s/bg.pid'; sleep 60", dir);
	/* 1 s: long enough for a loaded machine to start the shells */
	struct run_spec s = { .command = cmd, .timeout_s = 1.0 };
	struct run_result r;
	char buf[128];
	assert_int_equal(run_command(&s, &r), 1);
	assert_int_equal(r.status, RUN_TIMED_OUT);
	assert_int_equal(run_exit_code(&r), 1);
	assert_non_null(strstr(run_describe(&r, buf, sizeof(buf)), "timed out"));
	long bg = read_pid("bg.pid");
	assert_int_equal(run_group_alive(r.pid), 0);
	assert_false(pid_alive(bg));
}

static void test_timeout_ignoring_sigterm(void **state)
{
	(void)state;
	char cmd[600];
	/* SIGTERM ignored by the shell and inherited by its child: only the
	 * SIGKILL after the grace period ends them */
	snprintf(cmd, sizeof(cmd), "trap '' TERM; sleep 60 & echo $! > '%s/stubborn.pid'; wait", dir);
	struct run_spec s = { .command = cmd, .timeout_s = 1.0, .kill_grace_s = 0.2 };
	struct run_result r;
	assert_int_equal(run_command(&s, &r), 1);
	assert_int_equal(r.status, RUN_TIMED_OUT);
	assert_int_equal(run_group_alive(r.pid), 0);
	assert_false(pid_alive(read_pid("stubborn.pid")));
}

static void test_timeout_grace_lets_children_clean_up(void **state)
{
	(void)state;
	char cmd[800], flag[300];
	path_in(flag, sizeof(flag), "cleaned");
	/* the leader dies at once on TERM; its child needs a moment to clean up
	 * and gets it, because the group is given the grace period, not the leader */
	snprintf(cmd, sizeof(cmd),
		 "sh -c 'trap \"sleep 0.2; echo cleaned > %s; exit 0\" TERM; "
		 "while :; do sleep 0.05; done' & wait",
		 flag);
	struct run_spec s = { .command = cmd, .timeout_s = 1.0, .kill_grace_s = 10 };
	struct run_result r;
	assert_int_equal(run_command(&s, &r), 1);
	assert_int_equal(r.status, RUN_TIMED_OUT);
	assert_int_equal(run_group_alive(r.pid), 0);
	char *text = slurp(flag);
	assert_non_null(text);
	assert_string_equal(text, "cleaned\n");
}

static void test_sigint_interrupts_child(void **state)
{
	(void)state;
	char cmd[600];
	/* the child sends us SIGINT (as Ctrl-C would) and keeps running; its
	 * parent is the guard, so it names our pid */
	snprintf(cmd, sizeof(cmd), "sleep 60 & echo $! > '%s/int.pid'; kill -INT %ld; sleep 60", dir,
		 (long)getpid());
	assert_int_equal(run_signals_install(), 0);
	assert_int_equal(run_interrupted(), 0);
	struct run_spec s = { .command = cmd, .timeout_s = 30 };
	struct run_result r;
	assert_int_equal(run_command(&s, &r), 1);
	assert_int_equal(r.status, RUN_INTERRUPTED);
	assert_int_equal(r.signal, SIGINT);
	assert_int_equal(run_exit_code(&r), 130);
	assert_int_equal(run_interrupted(), SIGINT);
	assert_int_equal(run_group_alive(r.pid), 0);
	assert_false(pid_alive(read_pid("int.pid")));
	assert_int_equal(run_signals_restore(), 0);
}

/* Waits up to secs for pid to be gone; 1 when it is. */
static int gone_within(long pid, double secs)
{
	for (int i = 0; i < (int)(secs * 100); i++) {
		if (!pid_alive(pid))
			return 1;
		usleep(10000);
	}
	return !pid_alive(pid);
}

/* kill -9 of the process that called run_command: the guard kills the
 * command's whole group (a background grandchild included) and the group
 * file names the group meanwhile. */
static void test_parent_death_kills_group(void **state)
{
	(void)state;
	char cmd[1200], gf[300], pf[300];
	path_in(gf, sizeof(gf), "death.group");
	path_in(pf, sizeof(pf), "death.pid");
	unlink(pf);
	snprintf(cmd, sizeof(cmd), "sleep 60 & echo $! > '%s.t'; mv '%s.t' '%s'; sleep 60", pf, pf, pf);
	pid_t mid = fork();
	assert_true(mid >= 0);
	if (mid == 0) {
		struct run_spec s = { .command = cmd, .group_file = gf, .kill_grace_s = 1 };
		struct run_result r;
		run_command(&s, &r);
		_exit(0);
	}
	long bg = 0;
	for (int i = 0; i < 1000 && bg == 0; i++) {
		char *t = slurp(pf);
		if (t)
			bg = strtol(t, NULL, 10);
		else
			usleep(10000);
	}
	assert_true(bg > 0);
	char *g = slurp(gf);
	assert_non_null(g);
	long pgid = strtol(g, NULL, 10);
	assert_true(pgid > 0);
	assert_non_null(strchr(g, ' ')); /* "<pgid> <token>" */
	kill(mid, SIGKILL);
	int st;
	waitpid(mid, &st, 0);
	/* the guard's grace is 1 s; the wait bound is generous for a loaded box */
	assert_true(gone_within(bg, 10));
	for (int i = 0; i < 1000 && run_group_alive(pgid); i++)
		usleep(10000);
	assert_int_equal(run_group_alive(pgid), 0);
}

/* A group started without a guard, carrying token tok: what an older
 * tlab (or a guard killed with it) leaves. Returns its pgid. */
static pid_t orphan_group(const char *tok, const char *pidfile)
{
	pid_t p = fork();
	if (p == 0) {
		setpgid(0, 0);
		setenv("TLPERF_RUN_TOKEN", tok, 1);
		char cmd[1100];
		/* written whole (tmp + mv): a reader never sees an empty file */
		snprintf(cmd, sizeof(cmd), "sleep 60 & echo $! > '%s.t'; mv '%s.t' '%s'; exec sleep 60",
			 pidfile, pidfile, pidfile);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	setpgid(p, p);
	for (int i = 0; i < 1000 && !slurp(pidfile); i++)
		usleep(10000);
	return p;
}

static void test_stop_recorded(void **state)
{
	(void)state;
	char gf[300], pf[300], text[200];
	path_in(gf, sizeof(gf), "orphan.group");
	path_in(pf, sizeof(pf), "orphan.pid");
	unlink(pf);
	pid_t g = orphan_group("test-token-1", pf);
	assert_non_null(slurp(pf));
	long bg = strtol(slurp(pf), NULL, 10);
	assert_true(bg > 0);
	long got = -1;
	/* a file with another token: the group is not provably the run's */
	snprintf(text, sizeof(text), "%ld other-token\n", (long)g);
	FILE *f = fopen(gf, "w");
	fputs(text, f);
	fclose(f);
	assert_int_equal(run_stop_recorded(gf, 1, &got), 0);
	assert_int_equal(got, (long)g);
	assert_true(pid_alive(bg));
	assert_int_equal(run_group_alive(g), 1);
	/* the right token: the group is stopped, the file removed */
	snprintf(text, sizeof(text), "%ld test-token-1\n", (long)g);
	f = fopen(gf, "w");
	fputs(text, f);
	fclose(f);
	assert_true(run_stop_recorded(gf, 1, &got) >= 2);
	int st;
	waitpid(g, &st, 0);
	assert_true(gone_within(bg, 5));
	assert_int_equal(run_group_alive(g), 0);
	assert_int_equal(access(gf, F_OK), -1);
	/* no file: nothing to do */
	assert_int_equal(run_stop_recorded(gf, 1, &got), 0);
	assert_int_equal(got, 0);
}

/* argv that cannot be executed: a spawn failure with its errno */
static void test_exec_failure(void **state)
{
	(void)state;
	char *argv[] = { "/nonexistent/tlperf-no-such-program", NULL };
	struct run_spec s = { .argv = argv, .command = "x" };
	struct run_result r;
	assert_int_equal(run_command(&s, &r), 1);
	assert_int_equal(r.status, RUN_SPAWN_FAILED);
	assert_int_equal(r.err, ENOENT);
	assert_int_equal(run_exit_code(&r), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_zero_and_log),
		cmocka_unit_test(test_stdout_separate),
		cmocka_unit_test(test_stdin_is_dev_null),
		cmocka_unit_test(test_nonzero_exit),
		cmocka_unit_test(test_killed_by_signal),
		cmocka_unit_test(test_log_not_writable),
		cmocka_unit_test(test_timeout_kills_tree),
		cmocka_unit_test(test_timeout_ignoring_sigterm),
		cmocka_unit_test(test_timeout_grace_lets_children_clean_up),
		cmocka_unit_test(test_sigint_interrupts_child),
		cmocka_unit_test(test_parent_death_kills_group),
		cmocka_unit_test(test_stop_recorded),
		cmocka_unit_test(test_exec_failure),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
