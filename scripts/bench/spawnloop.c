/* spawnloop.c: the direct way to run what tlab runs, for
 * bench_tlab_overhead.sh: N times `/bin/sh -c LINE` with each "%d" in LINE
 * replaced by the run number, posix_spawn + waitpid, one after the other.
 *
 *   spawnloop N LINE
 */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

extern char **environ;

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: spawnloop N LINE\n");
		return 2;
	}
	long n = strtol(argv[1], NULL, 10);
	char line[8192];
	for (long k = 1; k <= n; k++) {
		snprintf(line, sizeof(line), argv[2], k, k);
		char *av[] = { "sh", "-c", line, NULL };
		pid_t pid;
		int st;
		if (posix_spawn(&pid, "/bin/sh", NULL, NULL, av, environ) != 0)
			return 2;
		while (waitpid(pid, &st, 0) < 0)
			if (errno != EINTR)
				return 2;
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			return 1;
	}
	return 0;
}
