/* git.c: running git (git.h). */
#include "run/git.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static char *located;

int git_locate(const char *path_env, char *err, size_t errlen)
{
	size_t skipped = 0;
	for (const char *p = path_env, *colon = NULL; p; p = colon ? colon + 1 : NULL) {
		colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		if (n == 0 || p[0] != '/') {
			skipped++;
		} else {
			char *cand = malloc(n + 5);
			if (!cand) {
				snprintf(err, errlen, "out of memory");
				return -1;
			}
			memcpy(cand, p, n);
			memcpy(cand + n, "/git", 5);
			struct stat st;
			if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0) {
				free(located);
				located = cand;
				return 0;
			}
			free(cand);
		}
	}
	snprintf(err, errlen,
		 "git not found in the absolute directories of PATH%s (tlgate never runs a git "
		 "found through an empty or relative PATH entry)",
		 skipped ? "; relative or empty entries were skipped" : "");
	return -1;
}

const char *git_path(void)
{
	return located;
}

void git_forget(void)
{
	free(located);
	located = NULL;
}

int git_spawn(char *const args[], int *outfd, pid_t *pid)
{
	int fds[2];
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	if (!located) {
		errno = ENOENT;
		return -1;
	}
	if (pipe(fds) != 0)
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	posix_spawn_file_actions_addclose(&fa, fds[1]);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
	posix_spawnattr_setpgroup(&at, 0);
	int rc = posix_spawn(pid, located, &fa, &at, args, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	close(fds[1]);
	if (rc != 0) {
		close(fds[0]);
		errno = rc;
		return -1;
	}
	*outfd = fds[0];
	return 0;
}

int git_wait(pid_t pid)
{
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
}

int git_capture(char *const args[], size_t max, char **out, size_t *outlen)
{
	int fd;
	pid_t pid;
	*out = NULL;
	*outlen = 0;
	if (git_spawn(args, &fd, &pid) != 0)
		return -1;
	size_t cap = 0;
	char buf[65536];
	ssize_t r;
	int bad = 0;
	while ((r = read(fd, buf, sizeof(buf))) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			bad = errno;
			break;
		}
		if (bad)
			continue; /* drain, so git never blocks on a full pipe */
		if (*outlen + (size_t)r > max) {
			bad = E2BIG;
			continue;
		}
		if (*outlen + (size_t)r + 1 > cap) {
			size_t c = cap ? cap * 2 : sizeof(buf) + 1;
			while (c < *outlen + (size_t)r + 1)
				c *= 2;
			char *n = realloc(*out, c);
			if (!n) {
				bad = ENOMEM;
				continue;
			}
			*out = n;
			cap = c;
		}
		memcpy(*out + *outlen, buf, (size_t)r);
		*outlen += (size_t)r;
	}
	close(fd);
	int st = git_wait(pid);
	if (!bad && !*out && !(*out = malloc(1)))
		bad = ENOMEM;
	if (bad || st < 0) {
		free(*out);
		*out = NULL;
		*outlen = 0;
		errno = bad ? bad : ECHILD;
		return -1;
	}
	(*out)[*outlen] = '\0';
	return st;
}

char *git_line(const char *out, size_t len)
{
	while (len > 0 && (out[len - 1] == '\n' || out[len - 1] == '\r'))
		len--;
	return strndup(out, len);
}
