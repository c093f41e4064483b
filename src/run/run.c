/* run.c: posix_spawn in a new process group, log files, timeouts that kill
 * the whole group, and SIGINT/SIGTERM that stop the child, not just us. */
#define _GNU_SOURCE /* ppoll */
#include "run/run.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

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

/* Reads /proc/<pid>/stat ("pid (comm) state ppid pgrp ..."; comm may hold
 * spaces and ')'): -1 when it cannot be read, else *pgid is set and the
 * result is 1 when the process is alive, 0 when it is a zombie (a zombie is
 * dead; it only waits for a parent that may never reap it). */
static int proc_live_group(long pid, long *pgid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *rp = strrchr(buf, ')');
	char state = 0;
	long ppid = 0;
	if (!rp || sscanf(rp + 1, " %c %ld %ld", &state, &ppid, pgid) != 3)
		return -1;
	return state != 'Z' && state != 'X';
}

/* The next process id listed in the opened /proc d, or 0 at its end. */
static long proc_next_pid(DIR *d)
{
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9')
			return strtol(e->d_name, NULL, 10);
	}
	return 0;
}

/* Scans /proc for a live (not zombie) member of pgid other than exclude
 * (0: none). -1 when /proc is not there. */
static int proc_group_scan(pid_t pgid, pid_t exclude)
{
	DIR *d = opendir("/proc");
	if (!d)
		return -1;
	int alive = 0;
	long pid, pgrp = 0;
	while (!alive && (pid = proc_next_pid(d)) > 0) {
		if (proc_live_group(pid, &pgrp) == 1 && pgrp == (long)pgid && pid != (long)exclude)
			alive = 1;
	}
	closedir(d);
	return alive;
}

static int proc_group_alive(pid_t pgid)
{
	return proc_group_scan(pgid, 0);
}

static int group_has_other(pid_t pgid, pid_t self)
{
	int r = proc_group_scan(pgid, self);
	return r != 0; /* without /proc: assume someone is left (the KILL follows) */
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

/* ---- the guard: children die with their parent ----
 *
 * run_command forks a guard, not the command itself. The guard makes a new
 * process group, asks the kernel for SIGTERM when its parent dies
 * (PR_SET_PDEATHSIG) and forks the command (sh -c LINE or argv) into that
 * group, with SIGKILL as the command's own parent-death signal. It then
 * waits:
 *  - the command ends: the guard ends the same way (exit status, or the
 *    same signal), so the caller sees the command's outcome;
 *  - SIGTERM (the parent died: kill -9 of tlab or of the loop; or the
 *    parent's kill_group): the guard sends SIGTERM to the whole group,
 *    waits up to the grace period for the command and every other member
 *    to go, then SIGKILLs the group, itself included.
 * A bench's or profiler's grandchildren therefore never outlive the tlab
 * that started them by more than the grace period, even under kill -9.
 * This process is single-threaded, so the guard (a copy of it) and the
 * command may call what they need between fork and exec (setenv
 * included). */

#define GUARD_EXEC_FAILED 127

static void close_from(int lowfd)
{
#if defined(__linux__) && defined(SYS_close_range)
	if (syscall(SYS_close_range, (unsigned)lowfd, ~0U, 0) == 0)
		return;
#endif
	for (int fd = lowfd; fd < 1024; fd++)
		close(fd);
}

/* Restores the default action of sig. */
static void sig_default(int sig)
{
	struct sigaction dfl;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
}

/* In the command, just before exec: default signals, empty mask. */
static void child_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGPIPE, SIGCHLD, SIGQUIT, SIGHUP, SIGUSR1 };
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sig_default(sigs[i]);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* Blocks the signals the guard waits for into *waitset and restores the
 * default SIGCHLD action (a blocked SIGCHLD is queued for sigwaitinfo). */
static void guard_signals(sigset_t *waitset)
{
	sigemptyset(waitset);
	sigaddset(waitset, SIGCHLD);
	sigaddset(waitset, SIGTERM);
	sigaddset(waitset, SIGINT);
	sigaddset(waitset, SIGHUP);
	sigprocmask(SIG_BLOCK, waitset, NULL);
	sig_default(SIGCHLD);
}

/* Tells the parent through fd 3 that the command could not start (errno
 * e) and ends this process. */
static void guard_fail(int e) __attribute__((noreturn));
static void guard_fail(int e)
{
	(void)!write(3, &e, sizeof(e));
	_exit(GUARD_EXEC_FAILED);
}

/* The command's life after the guard's fork: exec it (never returns). */
static void guard_exec(const struct run_spec *spec, pid_t guard, const char *token)
	__attribute__((noreturn));
static void guard_exec(const struct run_spec *spec, pid_t guard, const char *token)
{
#ifdef __linux__
	prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
	if (getppid() != guard)
		_exit(GUARD_EXEC_FAILED);
	child_signals();
	if (spec->envp)
		environ = (char **)spec->envp;
	if (token)
		setenv("TLPERF_RUN_TOKEN", token, 1);
	if (spec->argv) {
		execvp(spec->argv[0], spec->argv);
	} else {
		char *argv[] = { "sh", "-c", (char *)spec->command, NULL };
		execv("/bin/sh", argv);
	}
	guard_fail(errno);
}

/* Our parent died or is killing the group: SIGTERM to the group, up to
 * grace seconds for the command cmd and every other member to go, then
 * SIGKILL to the group, this guard included (never returns). */
static void guard_stop_group(pid_t me, pid_t cmd, double grace) __attribute__((noreturn));
static void guard_stop_group(pid_t me, pid_t cmd, double grace)
{
	int status = 0;
	kill(-me, SIGTERM);
	kill(-me, SIGCONT);
	double end = now_s() + grace;
	int reaped = 0;
	while (now_s() < end) {
		if (!reaped && waitpid(cmd, &status, WNOHANG) == cmd)
			reaped = 1;
		if (reaped && !group_has_other(me, me))
			_exit(128 + SIGTERM);
		sleep_s(0.01);
	}
	kill(-me, SIGKILL);
	_exit(128 + SIGKILL);
}

/* Ends the guard the way the command ended: its exit status, or the same
 * signal without a core dump of ours (never returns). */
static void guard_pass_on(pid_t me, int status) __attribute__((noreturn));
static void guard_pass_on(pid_t me, int status)
{
	if (WIFEXITED(status))
		_exit(WEXITSTATUS(status));
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		struct rlimit nocore = { 0, 0 };
		setrlimit(RLIMIT_CORE, &nocore); /* the command dumped core, not us */
		sig_default(sig);
		sigset_t one;
		sigemptyset(&one);
		sigaddset(&one, sig);
		sigprocmask(SIG_UNBLOCK, &one, NULL);
		kill(me, sig);
		_exit(128 + sig);
	}
	_exit(GUARD_EXEC_FAILED);
}

/* The guard's life after fork (never returns). fd 3 is the write end of
 * the parent's exec-error pipe. */
static void guard_main(const struct run_spec *spec, pid_t parent, double grace,
		       const char *token) __attribute__((noreturn));
static void guard_main(const struct run_spec *spec, pid_t parent, double grace,
		       const char *token)
{
	pid_t me = getpid();
	sigset_t waitset;
	guard_signals(&waitset);
#ifdef __linux__
	prctl(PR_SET_PDEATHSIG, SIGTERM);
#endif
	if (getppid() != parent)
		_exit(GUARD_EXEC_FAILED); /* the parent died before we got here */

	pid_t cmd = fork();
	if (cmd < 0)
		guard_fail(errno);
	if (cmd == 0)
		guard_exec(spec, me, token);
	close(3); /* only the command reports exec failures */

	int status = 0;
	for (;;) {
		siginfo_t si;
		int sig = sigwaitinfo(&waitset, &si);
		if (sig < 0)
			continue;
		if (sig != SIGCHLD) /* SIGTERM/SIGINT/SIGHUP */
			guard_stop_group(me, cmd, grace);
		if (waitpid(cmd, &status, WNOHANG) == cmd)
			guard_pass_on(me, status);
	}
}

/* Forks the guard with stdin /dev/null, stdout outfd, stderr logfd.
 * Returns its pid (= the group id), or -1 with *err set (fork failure, or
 * the command could not be executed). */
static pid_t spawn_guarded(const struct run_spec *spec, int outfd, int logfd, double grace,
			   const char *token, int *err)
{
	int pfd[2];
	if (pipe(pfd) != 0) {
		*err = errno;
		return -1;
	}
	fcntl(pfd[0], F_SETFD, FD_CLOEXEC);
	fcntl(pfd[1], F_SETFD, FD_CLOEXEC);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		*err = errno;
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (pid == 0) {
		setpgid(0, 0);
		/* descriptors: 0 /dev/null, 1 out, 2 log, 3 the error pipe; moved
		 * up first so none is overwritten before it is copied */
		int nul = open("/dev/null", O_RDONLY);
		int hn = nul < 0 ? -1 : fcntl(nul, F_DUPFD, 10);
		int ho = fcntl(outfd, F_DUPFD, 10), hl = fcntl(logfd, F_DUPFD, 10);
		int hw = fcntl(pfd[1], F_DUPFD, 10);
		if (hn < 0 || ho < 0 || hl < 0 || hw < 0 || dup2(hn, 0) < 0 || dup2(ho, 1) < 0 ||
		    dup2(hl, 2) < 0 || dup2(hw, 3) < 0)
			_exit(GUARD_EXEC_FAILED);
		fcntl(3, F_SETFD, FD_CLOEXEC);
		close_from(4);
		guard_main(spec, parent, grace, token);
	}
	/* both sides set the group, so kill(-pid) works as soon as we return */
	setpgid(pid, pid);
	close(pfd[1]);
	int e = 0;
	ssize_t n;
	do
		n = read(pfd[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(pfd[0]);
	if (n == (ssize_t)sizeof(e)) {
		int st;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		*err = e ? e : ECHILD;
		return -1;
	}
	return pid;
}

/* "pgid token\n" into path, written whole (tmp + rename). */
static int write_group_file(const char *path, long pgid, const char *token)
{
	char tmp[4200], text[160];
	int n = snprintf(text, sizeof(text), "%ld %s\n", pgid, token);
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= sizeof(tmp))
		return -1;
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	int ok = write(fd, text, (size_t)n) == n;
	ok &= close(fd) == 0;
	if (!ok || rename(tmp, path) != 0) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* A token unique to this run: pid, wall-clock time, a counter. */
static void make_token(char *token, size_t len)
{
	static unsigned long seq;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(token, len, "%ld-%lld%09ld-%lu", (long)getpid(), (long long)ts.tv_sec, ts.tv_nsec,
		 ++seq);
}

/* Opens the log (and the out file when the spec has one) into *logfd and
 * *outfd; 0, or the errno of the failed open. */
static int open_outputs(const struct run_spec *spec, int *logfd, int *outfd)
{
	*logfd = open_out(spec->log_path, spec->append);
	if (*logfd < 0)
		return errno;
	if (spec->out_path) {
		*outfd = open_out(spec->out_path, spec->append);
		if (*outfd < 0)
			return errno;
	}
	return 0;
}

/* Closes *fd when open and marks it closed. */
static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Whether we were interrupted (installed handlers saw SIGINT/SIGTERM);
 * when so, res says RUN_INTERRUPTED by that signal. */
static int note_interrupt(struct run_result *res)
{
	if (!(installed && got_signal))
		return 0;
	res->status = RUN_INTERRUPTED;
	res->signal = (int)got_signal;
	return 1;
}

/* One check of the guard pid: 1 it has ended (*status set); 0 its group
 * was killed on an interrupt or at spec's timeout (res->status says
 * which), or a wait failed (RUN_SPAWN_FAILED, *err set); -1 still running. */
static int check_guard(const struct run_spec *spec, pid_t pid, double grace, double t0,
		       int *status, struct run_result *res, int *err)
{
	int r = reap(pid, status);
	if (r == 1)
		return 1;
	if (r < 0) {
		*err = errno;
		kill(-pid, SIGKILL);
		res->status = RUN_SPAWN_FAILED;
		return 0;
	}
	if (installed && got_signal) {
		kill_group(pid, grace, status);
		note_interrupt(res); /* the signal as it stands after the kill */
		res->elapsed_s = now_s() - t0;
		return 0;
	}
	if (spec->timeout_s > 0 && now_s() - t0 >= spec->timeout_s) {
		kill_group(pid, grace, status);
		res->status = RUN_TIMED_OUT;
		res->elapsed_s = now_s() - t0;
		return 0;
	}
	return -1;
}

#if defined(__linux__) && defined(SYS_pidfd_open)
/* Sleeps until the guard ends (its pidfd turns readable), SIGINT/SIGTERM
 * arrive or the timeout is due, without polling: ppoll unblocks the two
 * signals only while it waits, so one arriving between the check and the
 * wait is not lost. Returns as check_guard (never -1). */
static int wait_guard_pidfd(int pfd, const struct run_spec *spec, pid_t pid, double grace,
			    double t0, int *status, struct run_result *res, int *err)
{
	sigset_t stop, old;
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigprocmask(SIG_BLOCK, &stop, &old);
	int r;
	while ((r = check_guard(spec, pid, grace, t0, status, res, err)) < 0) {
		struct pollfd pf = { .fd = pfd, .events = POLLIN };
		struct timespec ts, *tp = NULL;
		if (spec->timeout_s > 0) {
			double left = spec->timeout_s - (now_s() - t0);
			left = left > 0 ? left : 0;
			ts.tv_sec = (time_t)left;
			ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
			tp = &ts;
		}
		ppoll(&pf, 1, tp, &old);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return r;
}
#endif

/* Waits for the guard pid to end (1, *status set), or kills its group on
 * an interrupt or at spec's timeout (0, res->status says which), or a wait
 * fails (0, RUN_SPAWN_FAILED, *err set). On Linux the wait blocks on a
 * pidfd (no idle time between a run's end and the next run); where
 * pidfd_open is missing (kernels before 5.3) it polls with a backoff that
 * grows to 16 ms. */
static int wait_guard(const struct run_spec *spec, pid_t pid, double grace, double t0,
		      int *status, struct run_result *res, int *err)
{
#if defined(__linux__) && defined(SYS_pidfd_open)
	int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pfd >= 0) {
		int r = wait_guard_pidfd(pfd, spec, pid, grace, t0, status, res, err);
		close(pfd);
		return r;
	}
#endif
	double poll_s = 0.001;
	int r;
	while ((r = check_guard(spec, pid, grace, t0, status, res, err)) < 0) {
		sleep_s(poll_s);
		if (poll_s < 0.01)
			poll_s *= 2;
	}
	return r;
}

/* The command's own end (wait status) into res; 0 when it exited 0. */
static int result_from_status(struct run_result *res, int status)
{
	if (WIFEXITED(status)) {
		res->status = RUN_EXITED;
		res->exit_code = WEXITSTATUS(status);
		return res->exit_code == 0 ? 0 : 1;
	}
	if (WIFSIGNALED(status)) {
		res->status = RUN_SIGNALED;
		res->signal = WTERMSIG(status);
	}
	return 1;
}

int run_command(const struct run_spec *spec, struct run_result *res)
{
	int logfd = -1, outfd = -1, rc = 1, err = 0;
	pid_t pid = 0;
	double grace = spec->kill_grace_s > 0 ? spec->kill_grace_s : 1.0;
	char token[80];

	memset(res, 0, sizeof(*res));
	res->status = RUN_SPAWN_FAILED;
	make_token(token, sizeof(token));
	err = open_outputs(spec, &logfd, &outfd);
	if (err != 0 || note_interrupt(res)) /* interrupted before we started: start nothing */
		goto out;
	double t0 = now_s();
	pid = spawn_guarded(spec, outfd >= 0 ? outfd : logfd, logfd, grace, token, &err);
	if (pid < 0) {
		pid = 0;
		goto out;
	}
	res->pid = (long)pid;
	/* a failed record is not fatal: the guard still ties the run to us */
	if (spec->group_file)
		(void)write_group_file(spec->group_file, (long)pid, token);
	/* The parent closes its copies now, so a full disk shows in the child. */
	close_fd(&logfd);
	close_fd(&outfd);
	int status = 0;
	if (wait_guard(spec, pid, grace, t0, &status, res, &err)) {
		res->elapsed_s = now_s() - t0;
		rc = result_from_status(res, status);
	}
out:
	if (res->status == RUN_SPAWN_FAILED)
		res->err = err;
	if (pid > 0 && spec->group_file)
		unlink(spec->group_file);
	close_fd(&logfd);
	close_fd(&outfd);
	return rc;
}

/* ---- what an earlier process left behind ---- */

/* 1 when /proc/<pid>/environ holds "TLPERF_RUN_TOKEN=<token>". */
static int carries_token(long pid, const char *token)
{
	char path[64], want[128];
	snprintf(path, sizeof(path), "/proc/%ld/environ", pid);
	int wn = snprintf(want, sizeof(want), "TLPERF_RUN_TOKEN=%s", token);
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	/* NUL-separated; compare entry by entry without holding it all */
	int found = 0, match = 1;
	size_t at = 0;
	int ch;
	while (!found && (ch = getc(f)) != EOF) {
		if (ch == '\0') {
			found = match && at == (size_t)wn;
			match = 1;
			at = 0;
			continue;
		}
		if (match && (at >= (size_t)wn || ch != (unsigned char)want[at]))
			match = 0;
		at++;
	}
	fclose(f);
	return found;
}

/* Live processes that are in group pgid or carry token, into v (up to
 * max); *in_group_token: whether a member of the group carries the token. */
static size_t survivors(long pgid, const char *token, long *v, size_t max, int *in_group_token,
			size_t *in_group)
{
	DIR *d = opendir("/proc");
	size_t n = 0;
	*in_group_token = 0;
	*in_group = 0;
	if (!d)
		return 0;
	long self = (long)getpid();
	long pid, pgrp = 0;
	while (n < max && (pid = proc_next_pid(d)) > 0) {
		if (pid == self || proc_live_group(pid, &pgrp) != 1)
			continue;
		int tok = carries_token(pid, token);
		if (pgrp == pgid) {
			(*in_group)++;
			if (tok)
				*in_group_token = 1;
		} else if (!tok) {
			continue;
		}
		v[n++] = pid;
	}
	closedir(d);
	return n;
}

/* Reads "<pgid> <token>" from group_file into *g and token (100 bytes):
 * 1 when read, 0 when there is no record (a malformed one is removed),
 * -1 when it cannot be read (errno). */
static int read_group_record(const char *group_file, long *g, char *token)
{
	char buf[200];
	FILE *f = fopen(group_file, "r");
	if (!f)
		return errno == ENOENT ? 0 : -1;
	size_t k = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[k] = '\0';
	if (sscanf(buf, "%ld %99s", g, token) != 2 || *g <= 1) {
		unlink(group_file); /* not ours to interpret: nothing to stop */
		return 0;
	}
	return 1;
}

/* SIGTERM (and SIGCONT) to each of v[0..n) except members of group g when
 * the group is not provably the run's (!tok), then to the group when it
 * is. Keeps the signalled ones at the front of v; returns how many. */
static size_t term_survivors(long *v, size_t n, long g, int tok)
{
	size_t stopped = 0;
	for (size_t i = 0; i < n; i++) {
		long pg = 0;
		int member = proc_live_group(v[i], &pg) >= 0 && pg == g;
		if (member && !tok)
			continue;
		kill((pid_t)v[i], SIGTERM);
		kill((pid_t)v[i], SIGCONT);
		v[stopped++] = v[i];
	}
	if (tok)
		kill(-(pid_t)g, SIGTERM);
	return stopped;
}

/* 1 while one of v[0..n) still runs with token, or (tok) group g lives. */
static int survivors_left(const long *v, size_t n, const char *token, long g, int tok)
{
	for (size_t i = 0; i < n; i++) {
		if (kill((pid_t)v[i], 0) == 0 && carries_token(v[i], token))
			return 1;
	}
	return tok && proc_group_alive((pid_t)g) == 1;
}

/* Up to grace_s for the signalled v[0..n) (and group g when tok) to go,
 * then SIGKILL to them and a bounded wait until the group is gone. */
static void kill_survivors(const long *v, size_t n, const char *token, long g, int tok,
			   double grace_s)
{
	double end = now_s() + (grace_s > 0 ? grace_s : 1.0);
	while (survivors_left(v, n, token, g, tok) && now_s() < end)
		sleep_s(0.02);
	for (size_t i = 0; i < n; i++)
		kill((pid_t)v[i], SIGKILL);
	if (tok)
		kill(-(pid_t)g, SIGKILL);
	end = now_s() + 5.0;
	while (tok && proc_group_alive((pid_t)g) == 1 && now_s() < end)
		sleep_s(0.01);
}

int run_stop_recorded(const char *group_file, double grace_s, long *pgid)
{
	char token[100];
	long g = 0;
	*pgid = 0;
	int r = read_group_record(group_file, &g, token);
	if (r <= 0)
		return r;
	*pgid = g;
	long v[4096];
	int tok;
	size_t ing;
	size_t n = survivors(g, token, v, 4096, &tok, &ing);
	size_t stopped = 0;
	if (n > 0) {
		stopped = term_survivors(v, n, g, tok);
		kill_survivors(v, stopped, token, g, tok, grace_s);
	}
	unlink(group_file);
	return (int)stopped;
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
