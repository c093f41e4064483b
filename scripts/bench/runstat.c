/* runstat.c: runs a command and records its wall time and peak RSS, for
 * the benchmarks (no dependency on /usr/bin/time).
 *
 *   runstat OUT CMD [ARG...]
 * Appends "wall_seconds maxrss_kb exit_code cpu_seconds" (cpu = user +
 * system time of the command and its waited-for children) to OUT and exits with the
 * command's exit code (128+N when killed by signal N). The child's
 * stdout and stderr are the caller's.
 */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: runstat OUT CMD [ARG...]\n");
		return 2;
	}
	struct timespec t0, t1;
	pid_t pid;
	int st = 0;
	struct rusage ru;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (posix_spawnp(&pid, argv[2], NULL, NULL, argv + 2, environ) != 0) {
		perror("runstat: spawn");
		return 127;
	}
	while (wait4(pid, &st, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("runstat: wait");
			return 2;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	FILE *f = fopen(argv[1], "a");
	if (!f) {
		perror("runstat: output");
		return 2;
	}
	double cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
		     ru.ru_stime.tv_usec / 1e6;
	fprintf(f, "%.6f %ld %d %.6f\n", (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
		ru.ru_maxrss, rc, cpu);
	fclose(f);
	return rc;
}
