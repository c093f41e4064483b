/* cpurun.c: what one short command costs in CPU, for bench_startup.sh.
 * Runs CMD N times one after the other (stdin, stdout and stderr on
 * /dev/null), each child's own user + system time and minor page faults
 * from wait4's rusage, and prints one line:
 *
 *   median_cpu_ms mean_cpu_ms min_cpu_ms median_minor_faults exit_code
 *
 *   cpurun N CMD [ARG...]
 * The median is the figure to quote on a shared machine: a run that
 * another process slowed (cache, a preempted fault) moves the mean, not
 * the median. Exits 2 on a usage or spawn error, else 0 (the command's
 * exit code, the same in every run or the first that differs, is
 * printed, not returned).
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>

extern char **environ;

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	if (argc < 3 || atol(argv[1]) < 1) {
		fprintf(stderr, "usage: cpurun N CMD [ARG...]\n");
		return 2;
	}
	long n = atol(argv[1]);
	double *cpu = malloc((size_t)n * sizeof(*cpu));
	long *flt = malloc((size_t)n * sizeof(*flt));
	posix_spawn_file_actions_t fa;
	int rc0 = -1;
	if (!cpu || !flt || posix_spawn_file_actions_init(&fa) != 0)
		return 2;
	for (int fd = 0; fd <= 2; fd++)
		posix_spawn_file_actions_addopen(&fa, fd, "/dev/null", fd ? O_WRONLY : O_RDONLY, 0);
	double sum = 0;
	for (long k = 0; k < n; k++) {
		pid_t pid;
		int st = 0;
		struct rusage ru;
		if (posix_spawnp(&pid, argv[2], &fa, NULL, argv + 2, environ) != 0) {
			perror("cpurun: spawn");
			return 2;
		}
		while (wait4(pid, &st, 0, &ru) < 0) {
			if (errno != EINTR) {
				perror("cpurun: wait");
				return 2;
			}
		}
		int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		if (rc0 < 0 || (rc != rc0 && rc0 == 0))
			rc0 = rc;
		cpu[k] = 1e3 * (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
			 (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
		flt[k] = ru.ru_minflt;
		sum += cpu[k];
	}
	qsort(cpu, (size_t)n, sizeof(*cpu), cmp_double);
	qsort(flt, (size_t)n, sizeof(*flt), cmp_long);
	printf("%.3f %.3f %.3f %ld %d\n", cpu[n / 2], sum / n, cpu[0], flt[n / 2], rc0);
	return 0;
}
