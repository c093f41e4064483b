/* git.h: the one way tlperf runs git.
 *
 * git is run only when a command asks for it (`tlgate --changed-since`,
 * `--base`), never through a shell and never found through a relative
 * PATH entry: git_locate() resolves the executable once, at start, from
 * the ABSOLUTE entries of PATH only. An empty entry or "." (which name the
 * current directory, perhaps the very tree being checked, where a pull
 * request could plant its own `git`) and any other relative entry are
 * skipped. The child gets stdin and stderr on /dev/null and runs in its
 * own process group.
 *
 * Not thread-safe: the located path is process-wide.
 */
#ifndef TLPERF_GIT_H
#define TLPERF_GIT_H

#include <stddef.h>
#include <sys/types.h>

/* Finds git in the absolute entries of path_env (a PATH value; NULL reads
 * nothing). Returns 0, or -1 with err saying why (none found). */
int git_locate(const char *path_env, char *err, size_t errlen);

/* The located git, or NULL before a successful git_locate. */
const char *git_path(void);

/* Forgets the located git (tests). */
void git_forget(void);

/* Runs git with args (args[0] is "git"; the located path is used) and
 * captures stdout, up to max bytes (more is an error: E2BIG), into a
 * malloc'd NUL-terminated *out (length *outlen; NULL on failure). Returns
 * git's exit status (0..255), 128 + N when killed by signal N, or -1 when
 * git is not located or could not be run (errno set). */
int git_capture(char *const args[], size_t max, char **out, size_t *outlen);

/* Starts git with args; *outfd reads its stdout. Returns 0, -1 (errno). */
int git_spawn(char *const args[], int *outfd, pid_t *pid);

/* Waits for a git_spawn child: its exit status, 128 + N when killed by
 * signal N, -1 on error. */
int git_wait(pid_t pid);

/* A malloc'd copy of out without trailing newlines (git's one-line
 * answers), or NULL. */
char *git_line(const char *out, size_t len);

#endif
