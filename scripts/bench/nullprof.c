/* nullprof.c: a profiler that does nothing, for bench_tlab_overhead.sh.
 *
 *   nullprof op [--output=DIR] [--other=...]... APP [ARGS...]
 * Runs APP, then writes the smallest capture tlab accepts: the flat layout
 * DIR/OPPROF_20261002081500_NULLPROFNULLPROFXX/OpBasicInfo.csv with one
 * launch of 10 us. Exits with APP's status.
 */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

extern char **environ;

static void mkdir_p(const char *path)
{
	char p[4096];
	snprintf(p, sizeof(p), "%s", path);
	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	mkdir(p, 0755);
}

int main(int argc, char **argv)
{
	const char *out = ".";
	int i = 2;
	if (argc < 3 || strcmp(argv[1], "op") != 0) {
		fprintf(stderr, "usage: nullprof op [--output=DIR] [--opt=V]... APP [ARGS...]\n");
		return 2;
	}
	for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++)
		if (strncmp(argv[i], "--output=", 9) == 0)
			out = argv[i] + 9;
	if (i >= argc) {
		fprintf(stderr, "nullprof: no application\n");
		return 2;
	}
	pid_t pid;
	int st = 0;
	if (posix_spawnp(&pid, argv[i], NULL, NULL, argv + i, environ) != 0) {
		perror("nullprof: spawn");
		return 127;
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 2;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	char dir[4096], path[4200];
	snprintf(dir, sizeof(dir), "%s/OPPROF_20261002081500_NULLPROFNULLPROFXX", out);
	mkdir_p(dir);
	struct stat sb;
	if (stat(dir, &sb) != 0) {
		perror("nullprof: mkdir");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/OpBasicInfo.csv", dir);
	FILE *f = fopen(path, "w");
	if (!f) {
		perror("nullprof: write");
		return 2;
	}
	fputs("Op Name,Op Type,Task Duration(us),Block Dim,Mix Block Dim,Device Id,Pid,Current Freq,Rated Freq,\n"
	      "main_kernel,vector,10.000000,8,NA,0,1,1800,1800,\n", f);
	return fclose(f) == 0 ? 0 : 2;
}
