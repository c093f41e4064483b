/* spin.c: a small CPU "kernel" for scripts/real-ab.sh. Each launch runs
 * SPIN_ITERS dependent integer steps and prints its duration in
 * microseconds on stdout (tlab --source stdout). The two builds differ only
 * in SPIN_ITERS (mk/seq.mk), so their true speed ratio is known.
 *
 * Launches are timed with the thread's CPU clock, the way msprof times a
 * kernel on the device: time spent descheduled on a busy machine does not
 * count. SPIN_CLOCK=wall times them with the wall clock instead (much
 * noisier on a shared machine).
 *
 * usage: spin [LAUNCHES] [WARMUP]   (defaults 15 and 5, or $TLAB_LAUNCH_COUNT
 *                                    and $TLAB_WARM_UP when set) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef SPIN_ITERS
#define SPIN_ITERS 2000000L
#endif

static long arg_or_env(int argc, char **argv, int i, const char *env, long def)
{
	const char *s = argc > i ? argv[i] : getenv(env);
	char *end;
	long v;
	if (!s || !*s)
		return def;
	v = strtol(s, &end, 10);
	return (*end == '\0' && v >= 0 && v < 100000) ? v : def;
}

static uint64_t work(uint64_t x)
{
	for (long i = 0; i < SPIN_ITERS; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	return x;
}

int main(int argc, char **argv)
{
	long launches = arg_or_env(argc, argv, 1, "TLAB_LAUNCH_COUNT", 15);
	long warm = arg_or_env(argc, argv, 2, "TLAB_WARM_UP", 5);
	volatile uint64_t sink = 88172645463325252ULL;
	const char *clk = getenv("SPIN_CLOCK");
	clockid_t id = clk && clk[0] == 'w' ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID;
	for (long i = 0; i < warm + launches; i++) {
		struct timespec t0, t1;
		clock_gettime(id, &t0);
		sink = work(sink);
		clock_gettime(id, &t1);
		if (i >= warm)
			printf("%.3f\n", (double)(t1.tv_sec - t0.tv_sec) * 1e6 +
						 (double)(t1.tv_nsec - t0.tv_nsec) / 1e3);
	}
	fprintf(stderr, "spin: %ld launches of %ld steps (checksum %llx)\n", launches,
		(long)SPIN_ITERS, (unsigned long long)sink);
	return fflush(stdout) == 0 ? 0 : 1;
}
