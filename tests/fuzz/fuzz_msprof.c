/* fuzz_msprof.c: the profiler output reader (msprof_read over a small
 * tree, csvtab_read, csvtab_number, msprof_kernel_match).
 *
 * The input is cut at 0x1E bytes into up to four files: OpBasicInfo,
 * PipeUtilization, Memory (the CSVs of one msprof op launch) and an
 * application-level op_summary. The first byte picks the layout (flat,
 * per launch with launch directories 0 and 10, per device) and the kernel
 * pattern. The tree is rewritten for each input in a private temporary
 * directory. Invariants: a return code from the enum; MSPROF_OK means at
 * least one duration and a summary; any other code comes with a message.
 */
#include "io/csvtab.h"
#include "io/msprof.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHECK(c)                                                                         \
	do {                                                                             \
		if (!(c)) {                                                              \
			fprintf(stderr, "fuzz_msprof: invariant failed: %s (%s:%d)\n", #c, \
				__FILE__, __LINE__);                                     \
			abort();                                                         \
		}                                                                        \
	} while (0)

static char base[256];

static void rm_tree(const char *dir)
{
	/* The tree has a fixed shape: remove what this harness may have made. */
	static const char *files[] = {
		"OPPROF_20260101000000_FUZZFUZZFUZZFUZZ/OpBasicInfo.csv",
		"OPPROF_20260101000000_FUZZFUZZFUZZFUZZ/PipeUtilization.csv",
		"OPPROF_20260101000000_FUZZFUZZFUZZFUZZ/Memory.csv",
		"OPPROF_20260101000000_FUZZFUZZFUZZFUZZ/main_kernel/0/OpBasicInfo_20260101000000001.csv",
		"OPPROF_20260101000000_FUZZFUZZFUZZFUZZ/main_kernel/0/PipeUtilization_20260101000000001.csv",
		"OPPROF_20260101000000_FUZZFUZZFUZZFUZZ/main_kernel/0/Memory_20260101000000001.csv",
		"OPPROF_20260101000000_FUZZFUZZFUZZFUZZ/main_kernel/10/OpBasicInfo_20260101000000002.csv",
		"OPPROF_20260101000000_FUZZFUZZFUZZFUZZ/device1/other_k/2/OpBasicInfo_20260101000000003.csv",
		"OPPROF_20260101000000_FUZZFUZZFUZZFUZZ/device1/other_k/2/Memory_20260101000000003.csv",
		"PROF_000001_20260101000000000_FUZZ/mindstudio_profiler_output/op_summary_20260101000000.csv",
	};
	char p[512];
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, files[i]);
		unlink(p);
	}
}

static void cleanup(void)
{
	static const char *dirs[] = {
		"OPPROF_20260101000000_FUZZFUZZFUZZFUZZ/main_kernel/0",
		"OPPROF_20260101000000_FUZZFUZZFUZZFUZZ/main_kernel/10",
		"OPPROF_20260101000000_FUZZFUZZFUZZFUZZ/main_kernel",
		"OPPROF_20260101000000_FUZZFUZZFUZZFUZZ/device1/other_k/2",
		"OPPROF_20260101000000_FUZZFUZZFUZZFUZZ/device1/other_k",
		"OPPROF_20260101000000_FUZZFUZZFUZZFUZZ/device1",
		"OPPROF_20260101000000_FUZZFUZZFUZZFUZZ",
		"PROF_000001_20260101000000000_FUZZ/mindstudio_profiler_output",
		"PROF_000001_20260101000000000_FUZZ",
		"",
	};
	char p[512];
	rm_tree(base);
	snprintf(p, sizeof(p), "%s/fuzz-table.csv", base);
	unlink(p);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", base, dirs[i]);
		rmdir(p);
	}
}

static void mkdirs(const char *path)
{
	char p[512];
	snprintf(p, sizeof(p), "%s", path);
	for (char *s = p + 1; *s; s++) {
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	}
	mkdir(p, 0755);
}

static void put(const char *rel, const uint8_t *d, size_t n)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", base, rel);
	char *slash = strrchr(p, '/');
	*slash = '\0';
	mkdirs(p);
	*slash = '/';
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return;
	while (n > 0) {
		ssize_t w = write(fd, d, n);
		if (w <= 0)
			break;
		d += w;
		n -= (size_t)w;
	}
	close(fd);
}

static void check_capture(int rc, const struct msprof_capture *c, const char *err)
{
	CHECK(rc >= MSPROF_OK && rc <= MSPROF_EFORMAT);
	if (rc != MSPROF_OK)
		CHECK(memchr(err, '\0', 512) && err[0] != '\0');
	size_t nd = 0;
	double *d = msprof_durations(c, &nd);
	for (size_t i = 0; i < nd; i++)
		CHECK(isfinite(d[i]));
	struct msprof_summary s;
	int srs = msprof_summarize(c, &s);
	if (rc == MSPROF_OK) {
		CHECK(c->n > 0 && nd > 0);
		CHECK(srs == 0 && s.launches == nd);
		CHECK(s.min_us <= s.median_us && s.median_us <= s.max_us);
	}
	for (size_t i = 0; i < c->n; i++) {
		CHECK(c->v[i].source != NULL);
		CHECK(c->v[i].nratios == 0 || c->v[i].ratios != NULL);
	}
	free(d);
	(void)msprof_layout_name(c->layout);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!base[0]) {
		const char *tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
		snprintf(base, sizeof(base), "%s/tlperf-fuzz-msprof.%ld", tmp, (long)getpid());
		mkdir(base, 0700);
		atexit(cleanup);
	}
	if (size < 1)
		return 0;
	uint8_t mode = data[0];
	const uint8_t *part[4] = { NULL, NULL, NULL, NULL };
	size_t plen[4] = { 0, 0, 0, 0 };
	size_t np = 0, start = 1;
	for (size_t i = 1; i <= size && np < 4; i++) {
		if (i == size || data[i] == 0x1E) {
			part[np] = data + start;
			plen[np] = i - start;
			np++;
			start = i + 1;
		}
	}
	rm_tree(base);
	const char *root = "OPPROF_20260101000000_FUZZFUZZFUZZFUZZ";
	char rel[256];
	switch (mode & 3) {
	case 0: /* flat: one launch */
		snprintf(rel, sizeof(rel), "%s/OpBasicInfo.csv", root);
		put(rel, part[0], plen[0]);
		if (np > 1) {
			snprintf(rel, sizeof(rel), "%s/PipeUtilization.csv", root);
			put(rel, part[1], plen[1]);
		}
		if (np > 2) {
			snprintf(rel, sizeof(rel), "%s/Memory.csv", root);
			put(rel, part[2], plen[2]);
		}
		break;
	case 1: /* per launch: 0 and 10 (numeric order) */
	case 2:
		snprintf(rel, sizeof(rel), "%s/main_kernel/0/OpBasicInfo_20260101000000001.csv", root);
		put(rel, part[0], plen[0]);
		snprintf(rel, sizeof(rel), "%s/main_kernel/10/OpBasicInfo_20260101000000002.csv", root);
		put(rel, part[0], plen[0]);
		if (np > 1) {
			snprintf(rel, sizeof(rel),
				 "%s/main_kernel/0/PipeUtilization_20260101000000001.csv", root);
			put(rel, part[1], plen[1]);
		}
		if (np > 2) {
			snprintf(rel, sizeof(rel), "%s/main_kernel/0/Memory_20260101000000001.csv", root);
			put(rel, part[2], plen[2]);
		}
		break;
	default: /* per device */
		snprintf(rel, sizeof(rel), "%s/device1/other_k/2/OpBasicInfo_20260101000000003.csv", root);
		put(rel, part[0], plen[0]);
		if (np > 2) {
			snprintf(rel, sizeof(rel), "%s/device1/other_k/2/Memory_20260101000000003.csv", root);
			put(rel, part[2], plen[2]);
		}
		break;
	}
	if (np > 3)
		put("PROF_000001_20260101000000000_FUZZ/mindstudio_profiler_output/op_summary_20260101000000.csv",
		    part[3], plen[3]);

	static const char *pats[] = { NULL, "main", "add|abs", "*mix*" };
	struct msprof_capture c;
	char err[512];
	memset(err, 0, sizeof(err));
	msprof_capture_init(&c);
	int rc = msprof_read(base, pats[(mode >> 2) & 3], &c, err, sizeof(err));
	check_capture(rc, &c, err);
	msprof_capture_release(&c);

	/* The first file alone through the CSV table, every cell as a number. */
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", base, "fuzz-table.csv");
	put("fuzz-table.csv", part[0], plen[0]);
	struct csvtab t;
	csvtab_init(&t);
	memset(err, 0, sizeof(err));
	if (csvtab_read(p, &t, err, sizeof(err)) == 0) {
		for (size_t r = 0; r < t.nrows; r++) {
			for (size_t k = 0; k < t.ncols; k++) {
				double v;
				int nr = csvtab_number(csvtab_cell(&t, r, (int)k), &v);
				CHECK(nr >= -1 && nr <= 1);
				if (nr == 1)
					CHECK(isfinite(v));
			}
			CHECK(t.lines[r] >= 1);
		}
		for (size_t k = 0; k < t.ncols; k++)
			CHECK(csvtab_col(&t, t.cols[k]) >= 0);
		CHECK(csvtab_cell(&t, t.nrows, 0) != NULL);
	} else {
		CHECK(err[0] != '\0');
	}
	csvtab_release(&t);

	/* Kernel pattern matching on arbitrary text: the first line as the
	 * pattern, the second as the name. */
	char *s = malloc(size + 1);
	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
		char *nl = strchr(s, '\n');
		if (nl) {
			*nl = '\0';
			(void)msprof_kernel_match(s + 1, nl + 1);
		}
		free(s);
	}
	return 0;
}
