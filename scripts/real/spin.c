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
 * SPIN_WORK=P scales the work to P percent of SPIN_ITERS (real-ab.sh: B
 * 5% faster is A at 105.26 against B at 100), and SPIN_MEM=1 makes each
 * step a load from a 32 MiB table at a data-dependent index instead, a
 * memory-bound kernel whose runs spread far more than the CPU one.
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

#define MEM_WORDS (4u << 20) /* 32 MiB of uint64_t */

static uint64_t work(uint64_t x, long iters, const uint64_t *mem)
{
	for (long i = 0; i < iters; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		if (mem)
			x += mem[x & (MEM_WORDS - 1)];
	}
	return x;
}

int main(int argc, char **argv)
{
	long launches = arg_or_env(argc, argv, 1, "TLAB_LAUNCH_COUNT", 15);
	long warm = arg_or_env(argc, argv, 2, "TLAB_WARM_UP", 5);
	volatile uint64_t sink = 88172645463325252ULL;
	const char *clk = getenv("SPIN_CLOCK"), *pct = getenv("SPIN_WORK"), *m = getenv("SPIN_MEM");
	double scale = pct && *pct ? strtod(pct, NULL) / 100.0 : 1.0;
	uint64_t *mem = NULL;
	if (!(scale > 0 && scale < 100))
		scale = 1.0;
	long iters = (long)((double)SPIN_ITERS * scale + 0.5);
	if (m && m[0] == '1') {
		mem = malloc(MEM_WORDS * sizeof(*mem));
		if (!mem)
			return 2;
		for (uint32_t k = 0; k < MEM_WORDS; k++)
			mem[k] = (uint64_t)k * 0x9e3779b97f4a7c15ULL;
		iters /= 64; /* a miss costs tens of CPU steps: launches of a few ms */
	}
	clockid_t id = clk && clk[0] == 'w' ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID;
	for (long i = 0; i < warm + launches; i++) {
		struct timespec t0, t1;
		clock_gettime(id, &t0);
		sink = work(sink, iters, mem);
		clock_gettime(id, &t1);
		if (i >= warm)
			printf("%.3f\n", (double)(t1.tv_sec - t0.tv_sec) * 1e6 +
						 (double)(t1.tv_nsec - t0.tv_nsec) / 1e3);
	}
	fprintf(stderr, "spin: %ld launches of %ld steps (checksum %llx)\n", launches,
		iters, (unsigned long long)sink);
	free(mem);
	return fflush(stdout) == 0 ? 0 : 1;
}
