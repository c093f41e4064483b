/* run.c: posix_spawn in a new process group, log files, timeouts that kill
 * the whole group, and SIGINT/SIGTERM that stop the child, not just us. */
#include "run/run.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static volatile sig_atomic_t got_signal;
static struct sigaction old_int, old_term;
static int installed;

static void on_signal(int sig)
{
	got_signal = sig;
}

int run_signals_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: a blocked wait should notice */
	if (sigaction(SIGINT, &sa, &old_int) != 0)
		return -1;
	if (sigaction(SIGTERM, &sa, &old_term) != 0) {
		sigaction(SIGINT, &old_int, NULL);
		return -1;
	}
	got_signal = 0;
	installed = 1;
	return 0;
}

int run_signals_restore(void)
{
	if (!installed)
		return 0;
	installed = 0;
	int rc = 0;
	if (sigaction(SIGINT, &old_int, NULL) != 0)
		rc = -1;
	if (sigaction(SIGTERM, &old_term, NULL) != 0)
		rc = -1;
	return rc;
}

int run_interrupted(void)
{
	return (int)got_signal;
}

/* Scans /proc for a member of pgid that is not a zombie (a zombie is
 * dead; it only waits for a parent that may never reap it). -1 when /proc
 * is not there. */
static int proc_group_alive(pid_t pgid)
{
	DIR *d = opendir("/proc");
	if (!d)
		return -1;
	int alive = 0;
	struct dirent *e;
	while (!alive && (e = readdir(d)) != NULL) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		char path[300], buf[512];
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		size_t n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[n] = '\0';
		/* pid (comm) state ppid pgrp ...; comm may hold spaces and ')' */
		char *rp = strrchr(buf, ')');
		char state = 0;
		long ppid = 0, pgrp = 0;
		if (!rp || sscanf(rp + 1, " %c %ld %ld", &state, &ppid, &pgrp) != 3)
			continue;
		if (pgrp == (long)pgid && state != 'Z' && state != 'X')
			alive = 1;
	}
	closedir(d);
	return alive;
}

int run_group_alive(long pgid)
{
	if (pgid <= 0)
		return 0;
	if (kill(-(pid_t)pgid, 0) != 0 && errno == ESRCH)
		return 0;
	int r = proc_group_alive((pid_t)pgid);
	return r < 0 ? 1 : r;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_s(double s)
{
	struct timespec ts;
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	/* An interrupted sleep just ends early; the caller's loop re-checks. */
	nanosleep(&ts, NULL);
}

/* Non-blocking reap of pid; 1 when it has ended (*status set), 0 when still
 * running, -1 on error (errno). EINTR is retried. */
static int reap(pid_t pid, int *status)
{
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);
		if (r == pid)
			return 1;
		if (r == 0)
			return 0;
		if (errno != EINTR)
			return -1;
	}
}

/* SIGTERM to the group, up to grace seconds for every member to go (a
 * bench may need a moment to release its device), then SIGKILL to whatever
 * is left. Reaps the leader. */
static void kill_group(pid_t pid, double grace, int *status)
{
	kill(-pid, SIGTERM);
	kill(-pid, SIGCONT); /* a stopped group would never see the TERM */
	double end = now_s() + grace;
	int done = 0;
	while (now_s() < end) {
		if (!done && reap(pid, status) != 0)
			done = 1;
		if (done && !run_group_alive((long)pid))
			break;
		sleep_s(0.01);
	}
	/* Whatever is still in the group ignored or outlived the TERM. */
	kill(-pid, SIGKILL);
	if (!done) {
		while (waitpid(pid, status, 0) < 0 && errno == EINTR)
			;
	}
	/* SIGKILL is asynchronous: wait (bounded) until the members are gone,
	 * so a caller that returns finds nothing of the run left running. */
	end = now_s() + 5.0;
	while (run_group_alive((long)pid) && now_s() < end)
		sleep_s(0.005);
}

static int open_out(const char *path, int append)
{
	int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC);
	int fd;
	do
		fd = open(path ? path : "/dev/null", flags, 0644);
	while (fd < 0 && errno == EINTR);
	return fd;
}

int run_command(const struct run_spec *spec, struct run_result *res)
{
	int logfd = -1, outfd = -1, rc = 1, err = 0;
	int attr_ok = 0, fa_ok = 0;
	posix_spawnattr_t attr;
	posix_spawn_file_actions_t fa;
	pid_t pid = 0;
	double grace = spec->kill_grace_s > 0 ? spec->kill_grace_s : 1.0;

	memset(res, 0, sizeof(*res));
	res->status = RUN_SPAWN_FAILED;

	logfd = open_out(spec->log_path, spec->append);
	if (logfd < 0) {
		err = errno;
		goto out;
	}
	if (spec->out_path) {
		outfd = open_out(spec->out_path, spec->append);
		if (outfd < 0) {
			err = errno;
			goto out;
		}
	}
	if ((err = posix_spawnattr_init(&attr)) != 0)
		goto out;
	attr_ok = 1;
	sigset_t none, defs;
	sigemptyset(&none);
	sigemptyset(&defs);
	sigaddset(&defs, SIGINT);
	sigaddset(&defs, SIGTERM);
	sigaddset(&defs, SIGPIPE);
	sigaddset(&defs, SIGCHLD);
	sigaddset(&defs, SIGQUIT);
	if ((err = posix_spawnattr_setpgroup(&attr, 0)) != 0 ||
	    (err = posix_spawnattr_setsigmask(&attr, &none)) != 0 ||
	    (err = posix_spawnattr_setsigdefault(&attr, &defs)) != 0 ||
	    (err = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
						       POSIX_SPAWN_SETSIGDEF)) != 0)
		goto out;
	if ((err = posix_spawn_file_actions_init(&fa)) != 0)
		goto out;
	fa_ok = 1;
	if ((err = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0)) != 0 ||
	    (err = posix_spawn_file_actions_adddup2(&fa, outfd >= 0 ? outfd : logfd, 1)) != 0 ||
	    (err = posix_spawn_file_actions_adddup2(&fa, logfd, 2)) != 0)
		goto out;

	if (installed && got_signal) {
		/* Interrupted before we started: start nothing. */
		res->status = RUN_INTERRUPTED;
		res->signal = (int)got_signal;
		goto out;
	}
	char *argv[] = { "sh", "-c", (char *)spec->command, NULL };
	double t0 = now_s();
	if (spec->argv)
		err = posix_spawnp(&pid, spec->argv[0], &fa, &attr, spec->argv,
				   spec->envp ? spec->envp : environ);
	else
		err = posix_spawn(&pid, "/bin/sh", &fa, &attr, argv,
				  spec->envp ? spec->envp : environ);
	if (err != 0) {
		pid = 0;
		goto out;
	}
	res->pid = (long)pid;
	/* The parent closes its copies now, so a full disk shows in the child. */
	close(logfd);
	logfd = -1;
	if (outfd >= 0) {
		close(outfd);
		outfd = -1;
	}

	int status = 0;
	double poll = 0.001;
	for (;;) {
		int r = reap(pid, &status);
		if (r == 1)
			break;
		if (r < 0) {
			err = errno;
			kill(-pid, SIGKILL);
			res->status = RUN_SPAWN_FAILED;
			goto out;
		}
		if (installed && got_signal) {
			kill_group(pid, grace, &status);
			res->status = RUN_INTERRUPTED;
			res->signal = (int)got_signal;
			res->elapsed_s = now_s() - t0;
			goto out;
		}
		if (spec->timeout_s > 0 && now_s() - t0 >= spec->timeout_s) {
			kill_group(pid, grace, &status);
			res->status = RUN_TIMED_OUT;
			res->elapsed_s = now_s() - t0;
			goto out;
		}
		sleep_s(poll);
		if (poll < 0.02)
			poll *= 2;
	}
	res->elapsed_s = now_s() - t0;
	if (WIFEXITED(status)) {
		res->status = RUN_EXITED;
		res->exit_code = WEXITSTATUS(status);
		rc = res->exit_code == 0 ? 0 : 1;
	} else if (WIFSIGNALED(status)) {
		res->status = RUN_SIGNALED;
		res->signal = WTERMSIG(status);
	}
out:
	if (res->status == RUN_SPAWN_FAILED)
		res->err = err;
	if (fa_ok)
		posix_spawn_file_actions_destroy(&fa);
	if (attr_ok)
		posix_spawnattr_destroy(&attr);
	if (logfd >= 0)
		close(logfd);
	if (outfd >= 0)
		close(outfd);
	return rc;
}

const char *run_describe(const struct run_result *res, char *buf, size_t len)
{
	if (len == 0)
		return buf;
	switch (res->status) {
	case RUN_EXITED:
		snprintf(buf, len, "exited with status %d", res->exit_code);
		break;
	case RUN_SIGNALED:
		snprintf(buf, len, "killed by signal %d (%s)", res->signal, strsignal(res->signal));
		break;
	case RUN_TIMED_OUT:
		snprintf(buf, len, "timed out after %.1f s (process group killed)", res->elapsed_s);
		break;
	case RUN_INTERRUPTED:
		snprintf(buf, len, "interrupted by signal %d (%s)", res->signal, strsignal(res->signal));
		break;
	case RUN_SPAWN_FAILED:
	default:
		snprintf(buf, len, "could not start: %s", strerror(res->err));
		break;
	}
	return buf;
}

int run_exit_code(const struct run_result *res)
{
	switch (res->status) {
	case RUN_EXITED:
		return res->exit_code;
	case RUN_SIGNALED:
	case RUN_INTERRUPTED:
		return 128 + res->signal;
	case RUN_TIMED_OUT:
		return 1;
	case RUN_SPAWN_FAILED:
	default:
		return 2;
	}
}
