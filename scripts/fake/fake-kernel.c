/* fake-kernel: a stand-in for a bench entry that launches a kernel, for
 * testing tlab without an NPU. Built into $(BUILD)/bin/fake-kernel.
 *
 * Each process draws launch durations from the synthetic run model of
 * stats/synth.h (the one `tlperf sim` uses): the process lands in a fast or
 * a slow state at random (run-level bimodality), every launch adds launch
 * noise. The random stream is seeded from --seed combined with the name of
 * the profiler's output directory (FAKE_MSPROF_OUTPUT, e.g. ".../pair2B"),
 * so every run of a session differs but a rerun is identical.
 *
 * Durations go, one "<kernel name> <us>" per line, to the file named by
 * FAKE_MSPROF_DURATIONS (set by scripts/fake-msprof), else to stdout.
 *
 *   fake-kernel --mean US [--half-gap F] [--p-slow F] [--launch-noise F]
 *               [--launches N] [--name KERNEL] [--seed S] [--sleep-ms MS]
 *               [--exit CODE]
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stats/synth.h"

static int num(const char *opt, const char *s, double *out)
{
	char *end = NULL;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v)) {
		fprintf(stderr, "fake-kernel: option '--%s' wants a number, got '%s'\n", opt, s);
		return -1;
	}
	*out = v;
	return 0;
}

/* FNV-1a over the last path component: the run's identity. */
static uint64_t name_hash(const char *path)
{
	const char *b = path;
	size_t n = strlen(path);
	while (n > 0 && path[n - 1] == '/')
		n--;
	for (size_t i = 0; i < n; i++)
		if (path[i] == '/')
			b = path + i + 1;
	uint64_t h = 1469598103934665603ULL;
	for (const char *p = b; p < path + n; p++) {
		h ^= (unsigned char)*p;
		h *= 1099511628211ULL;
	}
	return h;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mean", required_argument, NULL, 'm' },
		{ "half-gap", required_argument, NULL, 'g' },
		{ "p-slow", required_argument, NULL, 'p' },
		{ "launch-noise", required_argument, NULL, 'n' },
		{ "launches", required_argument, NULL, 'l' },
		{ "name", required_argument, NULL, 'k' },
		{ "seed", required_argument, NULL, 's' },
		{ "sleep-ms", required_argument, NULL, 'z' },
		{ "exit", required_argument, NULL, 'x' },
		{ NULL, 0, NULL, 0 },
	};
	struct synth_arm arm = { .mean_us = NAN, .half_gap = 0.02, .p_slow = 0.5,
				 .launch_noise = 0.01 };
	double launches = NAN, seed = 1, sleep_ms = 0, exit_code = 0;
	const char *name = "main_kernel_mix_aic";
	int c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		int bad = 0;
		switch (c) {
		case 'm': bad = num("mean", optarg, &arm.mean_us); break;
		case 'g': bad = num("half-gap", optarg, &arm.half_gap); break;
		case 'p': bad = num("p-slow", optarg, &arm.p_slow); break;
		case 'n': bad = num("launch-noise", optarg, &arm.launch_noise); break;
		case 'l': bad = num("launches", optarg, &launches); break;
		case 's': bad = num("seed", optarg, &seed); break;
		case 'z': bad = num("sleep-ms", optarg, &sleep_ms); break;
		case 'x': bad = num("exit", optarg, &exit_code); break;
		case 'k': name = optarg; break;
		default: bad = 1;
		}
		if (bad) {
			fprintf(stderr, "usage: fake-kernel --mean US [--half-gap F] [--p-slow F] "
					"[--launch-noise F] [--launches N] [--name K] [--seed S] "
					"[--sleep-ms MS] [--exit CODE]\n");
			return 2;
		}
	}
	if (!(arm.mean_us > 0)) {
		fprintf(stderr, "fake-kernel: --mean US (> 0) is required\n");
		return 2;
	}
	if (isnan(launches)) {
		const char *lc = getenv("FAKE_MSPROF_LAUNCH_COUNT");
		if (!lc || num("launches", lc, &launches) != 0)
			launches = 1;
	}
	if (launches < 1 || launches > 100000) {
		fprintf(stderr, "fake-kernel: --launches must be 1..100000\n");
		return 2;
	}
	size_t n = (size_t)launches;
	double *d = malloc(n * sizeof(*d));
	if (!d) {
		fprintf(stderr, "fake-kernel: out of memory\n");
		return 1;
	}
	const char *outdir = getenv("FAKE_MSPROF_OUTPUT");
	struct stats_rng rng;
	uint64_t s = (uint64_t)(int64_t)seed * 0x9e3779b97f4a7c15ULL;
	if (outdir)
		s ^= name_hash(outdir);
	stats_rng_seed(&rng, s);
	int state = synth_run(&arm, &rng, 0, 0, d, n);

	if (sleep_ms > 0) {
		struct timespec ts = { (time_t)(sleep_ms / 1000),
				       (long)(fmod(sleep_ms, 1000.0) * 1e6) };
		while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
			;
	}
	const char *path = getenv("FAKE_MSPROF_DURATIONS");
	FILE *f = path ? fopen(path, "a") : stdout;
	if (!f) {
		fprintf(stderr, "fake-kernel: cannot open '%s': %s\n", path, strerror(errno));
		free(d);
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s %.6f\n", name, d[i]);
	int bad = ferror(f) != 0;
	if (f != stdout && fclose(f) != 0)
		bad = 1;
	free(d);
	printf("fake-kernel: %zu launch%s of %s, %s state, mean %.3f us\n", n, n == 1 ? "" : "es", name,
	       state ? "slow" : "fast", arm.mean_us);
	if (bad) {
		fprintf(stderr, "fake-kernel: write error\n");
		return 1;
	}
	return (int)exit_code;
}
