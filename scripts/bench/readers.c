/* readers.c: throughput of the perf_records.jsonl reading path, for
 * scripts/bench/bench_readers.sh.
 *
 *   readers MODE REPEAT FILE...
 *   MODE read     read(2) in 64 KiB blocks, nothing else (the I/O floor)
 *        getc     lines assembled with getc_unlocked, a byte at a time
 *                 (how src/io/lineio.c read before it was buffered)
 *        lineio   src/io/lineio.c
 *        records  records_load: lines, UTF-8 check, JSON, schema
 * Prints "MODE bytes seconds MB/s maxrss_kb", the best of REPEAT passes.
 */
#include "io/lineio.h"
#include "io/records.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static size_t pass_read(const char *path)
{
	static char buf[65536];
	size_t total = 0;
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		total += (size_t)n;
	}
	close(fd);
	return total;
}

static size_t pass_getc(const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t total = 0, len = 0, cap = 256;
	char *buf = malloc(cap);
	int c;
	if (!f || !buf) {
		if (f)
			fclose(f);
		free(buf);
		return 0;
	}
	while ((c = getc_unlocked(f)) != EOF) {
		total++;
		if (c == '\n') {
			len = 0;
			continue;
		}
		if (len + 2 > cap) {
			char *nb = realloc(buf, cap * 2);
			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		buf[len++] = (char)c;
	}
	fclose(f);
	free(buf);
	return total;
}

static size_t pass_lineio(const char *path)
{
	struct lineio l;
	size_t total = 0;
	if (lineio_open(&l, path, 0) != 0)
		return 0;
	while (lineio_next(&l) == 1)
		total += l.len + 1 + (size_t)l.had_cr;
	lineio_close(&l);
	return total;
}

static size_t pass_records(const char *path)
{
	struct records rs;
	struct records_problems ps;
	records_init(&rs);
	records_problems_init(&ps);
	int rc = records_load(path, &rs, &ps);
	size_t n = rs.n;
	records_release(&rs);
	records_problems_release(&ps);
	if (rc != 0 || n == 0)
		return 0;
	struct stat st;
	return stat(path, &st) == 0 ? (size_t)st.st_size : 0;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: readers read|getc|lineio|records REPEAT FILE...\n");
		return 2;
	}
	size_t (*fn)(const char *) = NULL;
	if (!strcmp(argv[1], "read"))
		fn = pass_read;
	else if (!strcmp(argv[1], "getc"))
		fn = pass_getc;
	else if (!strcmp(argv[1], "lineio"))
		fn = pass_lineio;
	else if (!strcmp(argv[1], "records"))
		fn = pass_records;
	if (!fn) {
		fprintf(stderr, "readers: unknown mode '%s'\n", argv[1]);
		return 2;
	}
	int repeat = (int)strtol(argv[2], NULL, 10);
	double best = 0;
	size_t bytes = 0;
	for (int r = 0; r < (repeat > 0 ? repeat : 1); r++) {
		double t0 = now();
		size_t b = 0;
		for (int i = 3; i < argc; i++) {
			size_t got = fn(argv[i]);
			if (got == 0) {
				fprintf(stderr, "readers: '%s' gave nothing\n", argv[i]);
				return 1;
			}
			b += got;
		}
		double t = now() - t0;
		if (r == 0 || t < best)
			best = t;
		bytes = b;
	}
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("%s %zu %.4f %.1f %ld\n", argv[1], bytes, best, bytes / best / 1e6, ru.ru_maxrss);
	return 0;
}
